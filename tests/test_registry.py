"""Registry-wide invariants: every registered metric reaches every place a user looks for it, or a test here fails.
Nothing is listed by hand: the metrics come from the registry (`discover_metrics`), the explorers from their
declarations (`discover_explorers`)."""
import functools
import inspect
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

import textmetrics_edu
from textmetrics_edu.core import METRICS, MetricInputError, discover_metrics

ROOT = Path(__file__).parent.parent
discover_metrics()
NAMES = sorted(METRICS)


def unwrap(fn):
    "The function behind a registered corpus function (ROUGE registers `partial(corpus_rouge, rouge_type=...)`)."
    while isinstance(fn, functools.partial): fn = fn.func
    return fn


def lesson_page(fn) -> str:
    "The site page of the notebook that exports `fn` ('01_bleu.ipynb' -> 'bleu.html'), read from the module's header."
    src = Path(sys.modules[unwrap(fn).__module__].__file__).read_text(encoding='utf-8')
    nb = re.search(r'File to edit: \S*?nbs/([^/\s]+)\.ipynb', src).group(1)
    return re.sub(r'^\d+[a-z]?_', '', nb) + '.html'


def markdown_of(nb: str) -> str:
    return '\n'.join(''.join(c['source']) for c in json.loads((ROOT / 'nbs' / nb).read_text())['cells']
                     if c['cell_type'] == 'markdown')


def example_corpus(name, hyps=('the cat sat on the mat', 'a dog barks'), refs=('the cat sat on a mat', 'the dog barks')):
    "A small corpus in the form metric `name` takes: labels for classification, sources with the references for rewriting."
    spec = METRICS[name]
    hyps, refs = list(hyps), list(refs)
    if name in ('accuracy', 'f1', 'mcc'): return ['a', 'b', 'a'], ['a', 'b', 'b']
    if name == 'span_f1': return ['B-PER O', 'O B-LOC'], ['B-PER O', 'O O']   # tags, one per token
    if name == 'rep_l': return refs, refs   # one predicted token per reference token
    if name == 'benchmark_accuracy': return benchmark_corpus(len(hyps))
    if 'sources' in inspect.signature(unwrap(spec.corpus_fn)).parameters:   # rewriting metrics (SARI, GEC GLEU)
        return hyps, textmetrics_edu.with_sources(['the cat sat on the mat .', 'a dog is barking'], refs)
    return hyps, ([[r] for r in refs] if spec.multi_ref else refs)


def benchmark_corpus(n, seed=0):
    "n multiple-choice items in the protocol's form: JSON log-likelihoods (hyps), JSON items (refs), a non-ASCII choice."
    from textmetrics_edu.stats.benchmark import benchmark_segments, mc_item
    return benchmark_segments([mc_item(['a | b', 'café [x](javascript:y)', 'ccc'], [-1.0 - (i + seed) % 3, -2.0, -1.5 - i % 2],
                                       (i * 7 + seed) % 3) for i in range(n)])


def test_the_registry_is_not_empty():
    assert len(NAMES) >= 20 and {'bleu', 'chrf', 'ter', 'wer', 'rougeL', 'meteor', 'cider-d'} <= set(NAMES)


@pytest.mark.parametrize('name', NAMES)
def test_corpus_function_is_importable_from_the_top_level(name):
    fn = unwrap(METRICS[name].corpus_fn)
    assert fn.__name__ in textmetrics_edu.public_names(), f'{name}: `from textmetrics_edu import {fn.__name__}` fails'
    assert callable(getattr(textmetrics_edu, fn.__name__))


@pytest.mark.parametrize('name', NAMES)
def test_lesson_page_is_in_the_overview_table(name):
    "The overview's table is prose (what each metric rewards and misses): a new metric's lesson must get its row."
    page = lesson_page(METRICS[name].corpus_fn)
    assert f']({page})' in markdown_of('overview.ipynb'), f'{name}: {page} missing from the overview table'


def test_overview_direction_agrees_with_the_registry():
    "The overview's `better` column says what each metric it names declares (`Metric.higher_is_better`)."
    norm = lambda x: re.sub(r'[^a-z0-9]', '', x.lower())
    by = {norm(n): METRICS[n].higher_is_better for n in NAMES}
    checked = 0
    for l in markdown_of('overview.ipynb').splitlines():
        if not l.startswith('| ['): continue
        label, better = re.match(r'\| \[([^\]]+)\]', l).group(1), l.rstrip(' |').split('|')[-1].strip()
        each = {norm(x): d for d, x in re.findall(r'(higher|lower) \(([^)]+)\)', better)}   # 'higher (distinct), lower (self-BLEU)'
        for n in (norm(x) for x in label.split('/')):
            if n in by:
                said = each.get(n, better)
                assert by[n] == said.startswith('higher'), f'{label}: the overview says {better!r}'; checked += 1
    assert checked >= 8


def test_every_metric_is_listed_by_the_command_line():
    out = subprocess.run([sys.executable, '-m', 'textmetrics_edu', 'metrics'], capture_output=True, text=True,
                         timeout=120, check=True).stdout
    listed = {l.split()[0] for l in out.splitlines() if l.strip()}
    assert set(NAMES) <= listed


@pytest.mark.parametrize('name', NAMES)
def test_bare_string_and_empty_input_raise(name):
    spec = METRICS[name]
    with pytest.raises(MetricInputError): spec.corpus_fn('a bare string', ['a reference'])
    with pytest.raises(MetricInputError): spec.corpus_fn([], [])


@pytest.mark.parametrize('name', NAMES)
def test_results_have_a_lossless_json_form_and_a_safe_markdown_table(name):
    "Issue 21: `to_json()` reads back to the same numbers; the Markdown display escapes what it shows."
    hyps, refs = example_corpus(name, ['the cat sat on the mat', 'a | dog [x](javascript:y)'])
    res = METRICS[name].corpus_fn(hyps, refs)
    back = json.loads(res.to_json())
    assert back['metric'] == res.name and back['score'] == res.score or (back['score'] != back['score'] and res.score != res.score)
    assert back == json.loads(json.dumps(back))   # plain JSON types all the way down
    md = res._repr_markdown_()
    assert '](javascript' not in md and '| dog' not in md.replace('\\|', '')


def _better(name, a, b) -> bool:
    "Whether score `a` is better than score `b` by metric `name`'s declared direction (`Metric.higher_is_better`)."
    return a > b if METRICS[name].higher_is_better else a < b


@pytest.mark.parametrize('name', NAMES)
def test_the_declared_direction_is_what_the_scores_do(name):
    """`Metric.higher_is_better`, declared once on the metric (meta-evaluation negates, tables print it), is checked
    against the metric's own scores, not a list of names: a hypothesis equal to its reference scores better than the
    other segment's reference; a metric that ignores references (diversity, repetition) scores a varied text better
    than one word repeated. (After the test above in this module: BERTScore's, METEOR's models are loaded once.)"""
    from textmetrics_edu.core import check_corpus
    f = METRICS[name].corpus_fn
    hyps, refs = example_corpus(name)
    if name == 'rep_l':   # next-token predictions of the reference tokens: the true ones vs each a copy of the last one
        toks = [r.split() for r in refs]
        assert _better(name, float(f(refs, refs)), float(f([' '.join(t[:1] + t[:-1]) for t in toks], refs))), name
        return
    if name == 'benchmark_accuracy':   # log-likelihoods that pick the gold choice vs ones that pick another
        from textmetrics_edu.stats.benchmark import benchmark_segments, mc_item
        right, _ = benchmark_segments([mc_item(['a', 'b', 'c'], [-1.0 if j == g else -2.0 for j in range(3)], g) for g in (0, 1, 2)])
        wrong, refs = benchmark_segments([mc_item(['a', 'b', 'c'], [-2.0 if j == g else -1.0 for j in range(3)], g) for g in (0, 1, 2)])
        assert _better(name, float(f(right, refs)), float(f(wrong, refs))), name
        return
    perfect = [seg[-1] for seg in check_corpus(hyps, refs)[1]]   # each segment's last reference (after any source)
    good, bad = float(f(perfect, refs)), float(f(perfect[::-1], refs))
    if good != bad:
        assert _better(name, good, bad), f'{name}: its reference scores {good}, another segment\'s {bad}'
        return
    varied = ['the cat sat on the mat', 'a dog barks at night', 'it is raining in paris today']
    same = ['the the the the the the'] * 3
    v, r = float(f(varied, varied)), float(f(same, same))
    assert v != r and _better(name, v, r), f'{name}: ignores references; a varied text scores {v}, a repeated word {r}'


@pytest.mark.parametrize('name', NAMES)
def test_corpus_total_equals_adding_one_by_one(name):
    "Issue 21: `total_stats` (linear; `fieldwise_total` where a class declares it) gives what `+` left to right gives."
    from textmetrics_edu.core import check_corpus, total_stats
    m = METRICS[name].metric
    if m.segment_stats is None or m.aggregate == 'corpus': pytest.skip('no per-segment statistics')
    hyps, refs = example_corpus(name)
    o = m.opts({'labels': ['a', 'b']} if name in ('f1', 'mcc') else {})
    h, r = check_corpus(hyps * 3, refs * 3)
    st = m.stats(h, r, o)
    acc = st[0]
    for s in st[1:]: acc = acc + s
    tot = total_stats(st)
    assert type(tot) is type(acc) and all(getattr(tot, f) == getattr(acc, f) for f in acc.__dataclass_fields__), name


@pytest.mark.parametrize('name', NAMES)
def test_keyword_names_of_other_tools_are_accepted(name):
    "Issue 21: predictions=/references= (HF evaluate) and hypotheses= (sacreBLEU) give the positional result."
    hyps, refs = example_corpus(name)
    spec = METRICS[name]
    want = spec.corpus_fn(hyps, refs).score
    for kw in (dict(predictions=hyps, references=refs), dict(hypotheses=hyps, references=refs), dict(hyps=hyps, refs=refs)):
        got = spec.corpus_fn(**kw).score
        assert got == want or (got != got and want != want), (name, kw.keys())
    with pytest.raises(TypeError, match='twice'): spec.corpus_fn(hyps, refs, predictions=hyps)
    if list(inspect.signature(unwrap(spec.corpus_fn)).parameters.values())[1].default is inspect.Parameter.empty:
        with pytest.raises(TypeError, match='missing the references'): spec.corpus_fn(predictions=hyps)


@pytest.mark.parametrize('name', NAMES)
def test_significance_accepts_every_metric_with_summable_statistics(name):
    from textmetrics_edu.stats.significance import paired_test
    m = METRICS[name].metric
    if m.aggregate != 'sum' or METRICS[name].sentence_fn is None: pytest.skip('no per-segment statistics that add up')
    hyps = ['the cat sat on the mat', 'a dog barked loudly', 'it is raining today', 'we like green tea']
    base = ['the cat sat on a mat', 'the dog barked', 'it rains', 'we like tea']
    refs = ['the cat sat on the mat', 'the dog barked loudly', 'it is raining', 'we like green tea']
    if name in ('accuracy', 'f1', 'mcc'): hyps, base, refs = ['a', 'b', 'a', 'b'], ['a', 'a', 'a', 'b'], ['a', 'b', 'b', 'b']
    if 'sources' in inspect.signature(unwrap(METRICS[name].corpus_fn)).parameters:   # rewriting metrics (SARI)
        refs = textmetrics_edu.with_sources(base, refs)   # each segment's source rides with its references
    if name == 'span_f1': hyps, base, refs = (['B-PER O', 'O B-LOC', 'I-PER O', 'O O'], ['B-PER O', 'O O', 'O O', 'O O'],
                                              ['B-PER O', 'O B-LOC', 'B-PER O', 'O B-LOC'])   # tags, one per token
    if name == 'rep_l': hyps, base = refs, [' '.join(r.split()[:1] * len(r.split())) for r in refs]  # one prediction a token
    if name == 'benchmark_accuracy': (hyps, refs), base = benchmark_corpus(4), benchmark_corpus(4, seed=1)[0]
    res = paired_test(base, hyps, refs, metric=name, test='bs', n_samples=20, seed=1)
    assert res is not None


def test_every_declared_explorer_is_on_the_site_list():
    from textmetrics_edu.views.explorer import discover_explorers
    from textmetrics_edu.app.live import site_explorer_names
    assert set(discover_explorers()) == set(site_explorer_names())
