"The metric protocol in core: options, derived functions, registration, CLI flags, significance for every metric."
import inspect
import json

import pytest
import sacrebleu

from textmetrics_edu.core import (METRICS, Metric, Option, MetricInputError, MetricResult, discover_metrics, get_metric,
                                  make_signature, metrics_table, stats_row, stats_from_row)
from textmetrics_edu.metrics.bleu import corpus_bleu, sentence_bleu, BLEU
from textmetrics_edu.metrics.chrf import corpus_chrf, sentence_chrf
from textmetrics_edu.metrics.ter import corpus_ter, sentence_ter
from textmetrics_edu.metrics.wer import corpus_wer
from textmetrics_edu.metrics.rouge import corpus_rouge, sentence_rouge
from textmetrics_edu.stats.significance import paired_test, bootstrap_ci

H = ['the cat sat on the mat today', 'a quick brown fox jumps over the dog', 'hello there my good friend']
S = ['the cat is on the mat today', 'the quick brown fox jumped over a dog', 'hello my friend']
R = ['the cat sat on the mat today', 'the quick brown fox jumps over the lazy dog', 'hello there my dear friend']


def test_derived_functions_list_their_options():
    for f, names in [(corpus_bleu, ['max_order', 'smooth_method', 'tokenize', 'lowercase', 'effective_order']),
                     (sentence_chrf, ['char_order', 'word_order', 'beta', 'lowercase', 'whitespace']),
                     (sentence_ter, ['normalized', 'no_punct', 'asian_support', 'lowercase']),
                     (sentence_rouge, ['rouge_type', 'stem', 'tokenize', 'beta', 'multi_ref'])]:
        ps = inspect.signature(f).parameters
        assert all(n in ps for n in names), (f.__name__, list(ps))
        assert all(p.kind == p.KEYWORD_ONLY for n, p in ps.items() if n not in ('hyp', 'hyps', 'refs', 'rouge_type'))
    assert inspect.signature(sentence_bleu).parameters['effective_order'].default is True
    assert 'smooth_method' in corpus_bleu.__doc__


def test_option_validation():
    for call, msg in [(lambda: corpus_bleu(H, R, lowercase='no'), 'True or False'),
                      (lambda: corpus_bleu(H, R, smooth_value=float('inf')), 'finite'),
                      (lambda: corpus_bleu(H, R, max_order=True), 'an int'),
                      (lambda: corpus_chrf(H, R, beta=float('nan')), 'finite'),
                      (lambda: corpus_chrf(H, R, bet=1), 'did you mean `beta`'),
                      (lambda: corpus_rouge(H, R, 'rouge1', beta=float('inf')), 'finite'),
                      (lambda: corpus_ter(H, R, normalized=1), 'True or False'),
                      (lambda: sentence_chrf(H[0], R[0], char_order=True), 'an int')]:
        with pytest.raises(MetricInputError, match=msg): call()


def test_ter_lowercase_false_is_sacrebleus_case_sensitive():
    "Our `lowercase=False` is sacreBLEU's `case_sensitive=True` (the old spellings: test_deprecations.py)."
    t = corpus_ter(H, R, lowercase=False)
    assert float(t) == sacrebleu.metrics.TER(case_sensitive=True).corpus_score(H, [R]).score / 100


def test_results_are_numbers():
    r = corpus_bleu(H, R)
    assert r * 100 == 100 * float(r) and (r > 0.5) == (float(r) > 0.5) and f'{r:.2f}' == f'{float(r):.2f}'
    assert str(r).startswith('BLEU = ')
    with pytest.raises(Exception): r.score = 1.0


def test_signature_formatter():
    s = make_signature('X', flag=True, other=False, parts=('a|b', 'c'))
    assert s.startswith('X|flag:yes|other:no|parts:a/b,c|')
    assert '|' not in make_signature('x', v='a|b').split('|')[1].split(':')[1]


def test_stats_rows_round_trip():
    st = BLEU.stats(H, tuple((r,) for r in R), BLEU.opts({}))
    assert stats_from_row(st[0], stats_row(st[0])) == st[0]


def test_registry_and_table():
    discover_metrics()
    for n in ['bleu', 'chrf', 'chrf++', 'ter', 'wer', 'cer', 'mer', 'wil', 'wip', 'rouge1', 'rouge2', 'rougeL',
              'rougeLsum', 'rougeW', 'rougeS', 'rougeSU']:
        assert METRICS[n].metric is not None, n
    assert get_metric('BLEU') is BLEU
    with pytest.raises(MetricInputError, match="did you mean 'bleu'"): get_metric('bleuu')
    t = metrics_table()
    assert '| `bleu` |' in t and 'mean of segment scores' in t


@pytest.mark.parametrize('metric', ['bleu', 'chrf', 'ter', 'wer', 'cer', 'mer', 'wil', 'wip', 'rouge1', 'rouge2',
                                    'rougeL', 'rougeLsum', 'rougeW', 'rougeS', 'rougeSU'])
def test_paired_test_for_every_metric(metric):
    r = paired_test(H * 4, S * 4, R * 4, metric=metric, n_samples=50)
    assert 0 < r.p_value <= 1 and metric.lower() in r.signature.lower()
    full = {'bleu': corpus_bleu, 'chrf': corpus_chrf, 'ter': corpus_ter, 'wer': corpus_wer}
    if metric in full: assert abs(r.score - float(full[metric](S * 4, R * 4))) < 1e-12
    if metric.startswith('rouge'): assert abs(r.score - float(corpus_rouge(S * 4, R * 4, metric))) < 1e-12
    m, ci = bootstrap_ci(S * 4, R * 4, metric=metric, n_samples=20)
    assert ci >= 0


def test_significance_bad_input():
    for kw, msg in [(dict(seed=-1), '`seed`'), (dict(seed=1.5), '`seed`'), (dict(n_samples=0), '`n_samples`'),
                    (dict(lowercas=True), 'did you mean'), (dict(metric='bleurt'), '`metric`')]:
        with pytest.raises(MetricInputError, match=msg): paired_test(H, S, R, **kw)
    with pytest.raises(MetricInputError, match='`n_samples`'): bootstrap_ci(H, R, n_samples=0)
    gen = (r for r in R)  # a generator is read once
    assert paired_test(H, S, gen, n_samples=20).p_value > 0


def test_significance_cli_same_stem(tmp_path):
    from textmetrics_edu.app.cli import main
    import contextlib, io
    for d, lines in [('a', H), ('b', S)]:
        (tmp_path / d).mkdir(); (tmp_path / d / 'sys.txt').write_text('\n'.join(lines) + '\n')
    (tmp_path / 'ref.txt').write_text('\n'.join(R) + '\n')
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        st = main(['significance', str(tmp_path / 'a/sys.txt'), str(tmp_path / 'b/sys.txt'), '-r', str(tmp_path / 'ref.txt'),
                   '--n-samples', '20', '--format', 'json', '--test', 'ar'])
    assert st == 0
    rows = json.loads(out.getvalue())
    assert len(rows) == 1 and rows[0]['mean'] is None  # no NaN in JSON
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        assert main(['significance', str(tmp_path / 'a/sys.txt'), str(tmp_path / 'b/sys.txt'), '-r',
                     str(tmp_path / 'ref.txt'), '--seed', '-1']) == 2
    assert 'Traceback' not in err.getvalue() and '`seed`' in err.getvalue()


def test_a_toy_metric_on_the_protocol_reaches_everything():
    from dataclasses import dataclass
    from textmetrics_edu.core import corpus_fn, register

    @dataclass(frozen=True)
    class LenStats:
        hyp: int
        ref: int
        def __add__(self, o): return LenStats(self.hyp + o.hyp, self.ref + o.ref)

    toy = Metric('toylen', (Option('lowercase', bool, False, 'unused'),),
                 lambda h, r, o: LenStats(len(h.split()), len(r[0].split())),
                 lambda st, o, signature='', n_segments=1: MetricResult(st.hyp / st.ref, signature),
                 lambda o, nrefs: make_signature('toylen', nrefs=nrefs), description='length ratio (test)')
    register(toy)
    try:
        assert abs(float(corpus_fn(toy)(H, R)) - sum(len(h.split()) for h in H) / sum(len(r.split()) for r in R)) < 1e-12
        assert paired_test(H, S, R, metric='toylen', n_samples=10).p_value > 0
        from textmetrics_edu.app.cli import build_parser
        assert '--toylen-lowercase' in build_parser()._subparsers._group_actions[0].choices['score'].format_help()
    finally:
        METRICS.pop('toylen')


def test_wer_result_never_changes_itself():
    import dataclasses
    r = corpus_wer(['a b c', 'd e'], ['a x c', 'd e f'])
    before = {f.name: getattr(r, f.name) for f in dataclasses.fields(r) if f.name != '_lazy'}
    _ = (r.mer, r.alignments, r.hits)
    after = {f.name: getattr(r, f.name) for f in dataclasses.fields(r) if f.name != '_lazy'}
    assert before == after and r._aligned is None and 'alignments' not in vars(r)
    with pytest.raises(Exception): r.score = 0.0


def test_result_vocabulary_aliases():
    t = corpus_ter(H, R)
    assert t.best_ref_index == t.best_ref and len(t.segment_scores) == len(H)
    ro = corpus_rouge(H, R, 'rouge1')
    assert ro.segment_scores == ro.seg_fmeasure and ro.best_ref_index == ro.best_refs
    w = corpus_wer(H, R)
    assert w.ops == w.alignments and w.hyp_tokens == w.hyps
    b = corpus_bleu(H, R)
    assert b.n_segments == 3 and len(b.matches) == len(b.totals) == 4


def test_paired_test_meteor_mean_aggregation():
    from textmetrics_edu.metrics.meteor import corpus_meteor
    r = paired_test(H * 3, S * 3, R * 3, metric='meteor', n_samples=30)
    assert abs(r.score - float(corpus_meteor(S * 3, R * 3))) < 1e-12 and 0 < r.p_value <= 1


def test_cider_and_classification_are_protocol_specs():
    "CIDEr, CIDEr-D, accuracy, F1 and MCC register `core.Metric` specs with namespaced flags (no `MetricSpec` of their own)."
    from textmetrics_edu.core import cli_options
    from textmetrics_edu.app.cli import build_parser
    discover_metrics()
    prefix = {'cider': 'cider', 'cider-d': 'cider', 'accuracy': 'classification', 'f1': 'classification',
              'mcc': 'classification'}
    help_ = build_parser()._subparsers._group_actions[0].choices['score'].format_help()
    for name, p in prefix.items():
        m = get_metric(name)
        assert isinstance(m, Metric) and METRICS[name].metric is m and m.cli_prefix == p
        assert all(o.flag.startswith(f'--{p}-') for o in cli_options(m)) and cli_options(m)
        assert all(o.flag in help_ for o in cli_options(m))
        with pytest.raises(MetricInputError, match='unknown option `beta`'): m.opts({'beta': 2})
    from pathlib import Path
    for mod in ("cider", "classification"):
        src = (Path(__file__).parent.parent / 'textmetrics_edu' / 'metrics' / f'{mod}.py').read_text()
        assert 'MetricSpec' not in src and 'register_metric' not in src and 'CliOption' not in src


def test_cli_cider_and_classification(tmp_path, capsys):
    from textmetrics_edu.app.cli import main
    from textmetrics_edu.metrics.cider import corpus_cider
    (tmp_path / 'h.txt').write_text('a dog runs\na cat sleeps\n'); (tmp_path / 'r.txt').write_text('a dog running\na cat asleep\n')
    assert main(['score', str(tmp_path / 'h.txt'), '-r', str(tmp_path / 'r.txt'), '-m', 'cider-d,accuracy', '--segments',
                 '--format', 'json', '--explain', '2']) == 2  # accuracy has no per-segment score
    assert 'accuracy' in capsys.readouterr().err
    assert main(['score', str(tmp_path / 'h.txt'), '-r', str(tmp_path / 'r.txt'), '-m', 'cider-d,accuracy',
                 '--format', 'json']) == 0
    m = json.loads(capsys.readouterr().out)['systems'][0]['metrics']
    assert m['cider-d']['score'] == float(corpus_cider(['a dog runs', 'a cat sleeps'], ['a dog running', 'a cat asleep']))
    assert m['accuracy']['score'] == 0.0
    assert main(['score', str(tmp_path / 'h.txt'), '-r', str(tmp_path / 'r.txt'), '-m', 'bleu', '--cider-sigma', '2']) == 2
    assert '--cider-sigma is an option of cider, cider-d' in capsys.readouterr().err
