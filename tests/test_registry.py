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


HYPS, REFS = ('the cat sat on the mat', 'a dog barks'), ('the cat sat on a mat', 'the dog barks')


def example_corpus(name, hyps=HYPS, refs=REFS):
    """A small corpus in the form metric `name` takes: the example its spec declares (`Metric.example`: labels, tags,
    JSON items, references with their sources), else the plain sentences given."""
    spec = METRICS[name]
    ex = spec.metric.example
    if ex is not None: return list(ex.hyps), ex.refs
    return list(hyps), ([[r] for r in refs] if spec.multi_ref else list(refs))


def example_options(name) -> dict:
    "The options the per-segment statistics of metric `name` need with its example (`Example.options`, e.g. F1's labels)."
    ex = METRICS[name].metric.example
    return dict(ex.options) if ex is not None else {}


@pytest.mark.parametrize('name', NAMES)
def test_a_metric_that_takes_more_than_sentences_declares_its_example(name):
    """Issue 32: the tests take a metric's input form from its spec, never from its name. A metric that refuses plain
    sentences (the default example fails its validation) must declare `Metric(example=Example(...))`; a declared example
    is valid (and its worse hypotheses, if given, are as many)."""
    spec = METRICS[name]
    ex = spec.metric.example
    if ex is None:
        try: spec.corpus_fn(*example_corpus(name))
        except MetricInputError as e:
            pytest.fail(f"{name} does not take plain sentences ({e}); declare its input form: Metric(example=Example(hyps, refs))")
        return
    spec.corpus_fn(list(ex.hyps), ex.refs)
    assert not ex.worse or len(ex.worse) == len(ex.hyps), name


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
    ex = METRICS[name].metric.example
    if ex is not None and ex.worse:   # the spec's example says which hypotheses are worse (rep/l, benchmark items, ...)
        good, bad = float(f(list(ex.hyps), ex.refs)), float(f(list(ex.worse), ex.refs))
        assert _better(name, good, bad), f'{name}: its example scores {good}, the worse hypotheses {bad}'
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
    "Issue 21: `total_stats` (linear: `summable`'s `total_of`) gives what `+` left to right gives."
    from textmetrics_edu.core import check_corpus, total_stats
    m = METRICS[name].metric
    if m.segment_stats is None or m.aggregate == 'corpus': pytest.skip('no per-segment statistics')
    hyps, refs = example_corpus(name)
    o = m.opts(example_options(name))
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
    ex = m.example
    if ex is not None:   # the spec's example (labels, tags, items, sources): its hypotheses against its worse ones
        assert ex.worse, f'{name}: a significance test needs two systems; give Example(worse=...)'
        hyps, base, refs = list(ex.hyps), list(ex.worse), ex.refs
    res = paired_test(base, hyps, refs, metric=name, test='bs', n_samples=20, seed=1)
    assert res is not None


def test_every_declared_explorer_is_on_the_site_list():
    from textmetrics_edu.views.explorer import discover_explorers
    from textmetrics_edu.app.live import site_explorer_names
    assert set(discover_explorers()) == set(site_explorer_names())
