"""Meta-evaluation (textmetrics_edu.stats.meta_eval): scipy equality, mt-metrics-eval conventions (recorded fixtures), the
bootstrap engine against the readable loop, bad input, the explorer and the `meta-eval` CLI."""
import csv
import json
from pathlib import Path

import numpy as np
import pytest
import scipy.stats
from hypothesis import given, settings, strategies as st
from conftest import sweep

from textmetrics_edu.core import MetricInputError
from textmetrics_edu.stats.meta_eval import (correlate, score_tables, grouped_rows, bootstrap_values,
                                       bootstrap_values_fast, read_metric_tsv)
from textmetrics_edu.stats.correlations import (kendall_variant, tau_statistics, kendall_like, pairwise_accuracy,
                                          tie_calibration, soft_pairwise_accuracy)
from textmetrics_edu.stats.metric_comparison import perm_both, williams, williams_test
from textmetrics_edu.views.meta_eval import render_meta_eval_html, meta_eval_explorer
from textmetrics_edu.app.cli import main

DATA = Path(__file__).parent / 'data'
RU = DATA / 'mt' / 'wmt22_ru-en_da'
_EXPECTED = {}


def expected(key):
    "Values recorded with mt-metrics-eval (tests/data/meta_eval/README.md)."
    if not _EXPECTED: _EXPECTED.update(json.loads((DATA / 'meta_eval' / 'mt_metrics_eval_expected.json').read_text()))
    return _EXPECTED[key]


def _tsv(p, encoding='utf-8'):
    with open(p, encoding=encoding) as f: return list(csv.DictReader(f, delimiter='\t'))


def _head(p, n=50):
    "The first `n` lines of a file, as one string."
    with open(p) as f: return ''.join(f.readlines()[:n])


@pytest.fixture(scope='module')
def ru_sys():
    human = {r['system']: float(r['z']) for r in _tsv(RU / 'human_da_sys.tsv')}
    raw = {r['system']: float(r['raw']) for r in _tsv(RU / 'human_da_sys.tsv')}
    return human, raw, read_metric_tsv(str(RU / 'official_automatic_scores.tsv'))


def _seg_tables(path, human_col, metrics):
    rows = _tsv(path)
    systems = list(dict.fromkeys(r['system'] for r in rows))
    H = {s: [] for s in systems}; M = {m: {s: [] for s in systems} for m in metrics}
    for r in rows:
        H[r['system']].append(float(r[human_col]) if r[human_col] else None)
        for m in metrics: M[m][r['system']].append(float(r[m]))
    return H, M


@pytest.fixture(scope='module')
def mqm():
    return _seg_tables(DATA / 'mt' / 'wmt21_en-de_mqm' / 'seg_scores.tsv', 'mqm', ('chrf', 'bleu'))


@pytest.fixture(scope='module')
def da300():
    raw, M = _seg_tables(RU / 'seg_scores_first300.tsv', 'da_raw', ('chrf', 'bleu'))
    z, _ = _seg_tables(RU / 'seg_scores_first300.tsv', 'da_z', ())
    return raw, z, M


# ---- scipy equality ---------------------------------------------------------------------------------------------------
def test_system_level_equals_scipy(ru_sys):
    human, _, auto = ru_sys
    for m in ('bleu-A', 'chrf-A'):
        s = list(human); x, y = [auto[m][k] for k in s], [human[k] for k in s]
        for stat, f in (('pearson', scipy.stats.pearsonr), ('spearman', scipy.stats.spearmanr), ('kendall', scipy.stats.kendalltau)):
            r = correlate(auto[m], human, statistic=stat, ci=None)
            assert r.score == pytest.approx(f(x, y)[0], abs=1e-12)
            assert r.p_value == pytest.approx(f(x, y)[1], rel=1e-9)
        r = correlate(auto[m], human, statistic='kendall_c', ci=None)
        assert r.score == pytest.approx(scipy.stats.kendalltau(x, y, variant='c')[0], abs=1e-12)


def test_segment_level_none_equals_scipy(mqm):
    H, M = mqm
    x = [v for s in H for v in M['chrf'][s]]; y = [v for s in H for v in H[s]]
    for stat, f in (('pearson', scipy.stats.pearsonr), ('spearman', scipy.stats.spearmanr), ('kendall', scipy.stats.kendalltau)):
        assert correlate(M['chrf'], H, level='segment', statistic=stat, ci=None).score == pytest.approx(f(x, y)[0], abs=1e-12)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 4), st.integers(0, 4)), min_size=2, max_size=30))
def test_tau_statistics_give_scipy_tau_b_and_c(pairs):
    m, h = [float(a) for a, _ in pairs], [float(b) for _, b in pairs]
    c, d, th, tm, thm = tau_statistics(m, h)
    assert c + d + th + tm + thm == len(m) * (len(m) - 1) // 2
    ref = scipy.stats.kendalltau(m, h)[0]
    if (c + d + th) and (c + d + tm):
        assert (c - d) / np.sqrt((c + d + th) * (c + d + tm)) == pytest.approx(ref, abs=1e-12)
        assert kendall_variant(m, h, 'b') == pytest.approx(ref, abs=1e-12)


# ---- mt-metrics-eval conventions (fixtures recorded with its code, see tests/data/meta_eval/README.md) ---------------
def test_system_level_matches_mt_metrics_eval(ru_sys):
    human, _, auto = ru_sys
    e = expected('wmt22_ru-en_system')
    for m in ('bleu-A', 'chrf-A'):
        for stat in ('pearson', 'spearman', 'kendall', 'pairwise_accuracy'):
            assert correlate(auto[m], human, statistic=stat, ci=None).score == pytest.approx(e[m][stat], abs=1e-12), (m, stat)
    p = perm_both(auto['chrf-A'], auto['bleu-A'], human, n_resamples=1000, seed=7)
    want = e['perm_both_chrf_better_than_bleu_pearson_seed7_k1000']
    assert (p.p_value, p.delta) == (pytest.approx(want['p_value'], abs=1e-12), pytest.approx(want['delta'], abs=1e-12))
    assert williams(auto['chrf-A'], auto['bleu-A'], human).p_value == pytest.approx(e['williams_chrf_vs_bleu'], abs=1e-12)


@pytest.mark.parametrize('metric', sweep(['chrf', 'bleu'], keep=['chrf']))   # the same code path: BLEU's scores --slow
def test_segment_level_matches_mt_metrics_eval(mqm, metric):
    H, M = mqm
    e = expected('wmt21_en-de_mqm_segment')[metric]
    for ab in ('none', 'sys', 'item'):
        for stat in ('pearson', 'spearman', 'kendall', 'tau_23', 'acc_23'):
            got = correlate(M[metric], H, level='segment', statistic=stat, average_by=ab, ci=None).score
            assert got == pytest.approx(e[f'{stat}_{ab}'], abs=1e-12), (stat, ab)
    for ab in ('none', 'item'):
        assert correlate(M[metric], H, level='segment', statistic='kendall_c', average_by=ab, ci=None).score == \
            pytest.approx(e[f'kendall_c_{ab}'], abs=1e-12)
    for ab in ('item', 'sys'):
        for stat in ('acc_eq', 'tau_eq'):
            r = correlate(M[metric], H, level='segment', statistic=stat, average_by=ab, ci=None)
            assert r.score == pytest.approx(e[f'{stat}_{ab}'], abs=1e-12), (stat, ab)
            # the threshold: the same, or (when several thresholds reach the best value up to float rounding of the
            # running sums) mt-metrics-eval's threshold reaches our best value too
            if r.threshold != pytest.approx(e[f'{stat}_{ab}_threshold'], abs=1e-9):
                rows = grouped_rows(*score_tables(M[metric], H)[1:3], ab)
                tc = tie_calibration(rows, 'acc23' if stat == 'acc_eq' else '23')
                k = int(np.argmin(np.abs(np.asarray(tc.thresholds) - e[f'{stat}_{ab}_threshold'])))
                assert abs(tc.thresholds[k] - e[f'{stat}_{ab}_threshold']) < 1e-9 and tc.values[k] == pytest.approx(tc.best, abs=1e-12)
    assert correlate(M[metric], H, statistic='soft_pairwise_accuracy', ci=None).score == \
        pytest.approx(e['soft_pairwise_accuracy'], abs=1e-12)


@pytest.mark.slow   # 200 resamples of the real MQM segments (~18 s); PERM-BOTH equals the tool's bit for bit by default
def test_segment_perm_both_matches_mt_metrics_eval(mqm):   # on fuzzed cases (test_bad_input_21.py)
    H, M = mqm
    e = expected('wmt21_en-de_mqm_segment')
    want = e['perm_both_chrf_better_than_bleu_acc23_item_seed3_k200']
    p = perm_both(M['chrf'], M['bleu'], H, level='segment', statistic='acc_23', average_by='item', n_resamples=200, seed=3)
    assert (p.p_value, p.delta) == (pytest.approx(want['p_value'], abs=1e-12), pytest.approx(want['delta'], abs=1e-12))


def test_da_with_missing_cells_matches_mt_metrics_eval(da300):
    raw, z, M = da300
    e = expected('wmt22_ru-en_da_first300_segment')
    assert sum(v is None for r in raw.values() for v in r) == e['none_count'] > 0
    for m in ('chrf', 'bleu'):
        d = correlate(M[m], raw, level='segment', statistic='darr', ci=None)
        assert (d.score, d.n_pairs) == (pytest.approx(e[m]['darr_raw_item'], abs=1e-12), e[m]['darr_raw_item_pairs'])
        assert correlate(M[m], raw, level='segment', statistic='darr', average_by='none', ci=None).score == \
            pytest.approx(e[m]['darr_raw_none'], abs=1e-12)
        assert correlate(M[m], z, level='segment', statistic='darr', ci=None).score == pytest.approx(e[m]['darr_z_item'], abs=1e-12)
        assert correlate(M[m], z, level='segment', statistic='pearson', ci=None).score == pytest.approx(e[m]['pearson_z_none'], abs=1e-12)
        assert correlate(M[m], z, level='segment', statistic='pearson', average_by='item', ci=None).score == \
            pytest.approx(e[m]['pearson_z_item'], abs=1e-12)
        assert correlate(M[m], z, level='segment', statistic='kendall', ci=None).score == pytest.approx(e[m]['kendall_z_none'], abs=1e-12)
        assert correlate(M[m], raw, level='segment', statistic='acc_23', average_by='item', ci=None).score == \
            pytest.approx(e[m]['acc_23_raw_item'], abs=1e-12)
        assert correlate(M[m], raw, level='segment', statistic='acc_eq', average_by='item', ci=None).score == \
            pytest.approx(e[m]['acc_eq_raw_item'], abs=1e-12)


# ---- the bootstrap: seeded, and the fast engine equals the readable loop -------------------------------------------
def test_bootstrap_reproducible_from_seed(ru_sys):
    human, _, auto = ru_sys
    a = correlate(auto['bleu-A'], human, n_resamples=300, seed=5)
    b = correlate(auto['bleu-A'], human, n_resamples=300, seed=5)
    c = correlate(auto['bleu-A'], human, n_resamples=300, seed=6)
    assert (a.ci_low, a.ci_high) == (b.ci_low, b.ci_high) != (c.ci_low, c.ci_high)
    assert 'seed:5' in a.signature and a.ci_low < a.score < a.ci_high


@pytest.mark.parametrize('stat,ab', [('pearson', 'none'), ('pearson', 'item'), ('kendall', 'item'), ('acc_23', 'item'),
                                     ('darr', 'item'), ('acc_eq', 'item'), ('tau_eq', 'item')])
def test_fast_bootstrap_equals_readable(da300, stat, ab):
    raw, z, M = da300
    H = raw if stat == 'darr' else z
    sub = lambda t: {s: v[:80] for s, v in t.items()}
    args = score_tables(sub(M['chrf']), sub(H))[1:]
    kw = dict(resample='items', n_resamples=40, seed=3)
    slow = bootstrap_values(*args, 'segment', stat, ab, **kw)
    fast = bootstrap_values_fast(*args, 'segment', stat, ab, **kw)
    np.testing.assert_allclose(fast, slow, atol=1e-12)


@settings(max_examples=25, deadline=None)
@given(st.integers(3, 6), st.integers(3, 12), st.integers(0, 10_000))
def test_fast_bootstrap_equals_readable_property(n_sys, n_items, seed):
    rng = np.random.default_rng(seed)
    M = {f's{i}': list(rng.integers(0, 4, n_items) / 2) for i in range(n_sys)}
    H = {f's{i}': [None if rng.random() < 0.1 else float(x) for x in rng.integers(0, 3, n_items)] for i in range(n_sys)}
    args = score_tables(M, H, min_systems=2)[1:]
    for stat in ('acc_eq', 'tau_eq', 'darr', 'pearson', 'acc_23'):
        kw = dict(resample='items', n_resamples=15, seed=seed)
        np.testing.assert_allclose(bootstrap_values_fast(*args, 'segment', stat, 'item', darr_threshold=1, **kw),
                                   bootstrap_values(*args, 'segment', stat, 'item', darr_threshold=1, **kw), atol=1e-12)
    sysM = {k: sum(v) for k, v in M.items()}; sysH = {k: float(rng.random()) for k in M}
    if n_sys >= 3:
        args = score_tables(sysM, sysH)[1:]
        kw = dict(resample='systems', n_resamples=30, seed=seed)
        for stat in ('pearson', 'kendall', 'pairwise_accuracy'):
            np.testing.assert_allclose(bootstrap_values_fast(*args, 'system', stat, 'none', **kw),
                                       bootstrap_values(*args, 'system', stat, 'none', **kw), atol=1e-12)


# ---- small pieces by hand --------------------------------------------------------------------------------------------
def test_hand_values():
    assert kendall_like([0.8, 0.5, 0.5], [90, 60, 70]) == (1.0, 1, 1, 0)
    assert kendall_like([0.5, 0.5, 0.9], [90, 60, 40]) == (-1.0, 2, 0, 2)
    assert pairwise_accuracy([3, 2, 1], [30, 10, 20]) == (2 / 3, 3)
    tc = tie_calibration([([0.91, 0.90, 0.5, 0.1], [0, 0, -1, -5])])
    assert tc.best == pytest.approx(1.0) and tc.threshold == pytest.approx(0.01)
    h = np.random.default_rng(0).normal(size=(4, 30))
    assert soft_pairwise_accuracy(h, h) == 1.0
    r12, r13, r23, n = 0.9, 0.6, 0.7, 20
    k = 1 - r12 ** 2 - r13 ** 2 - r23 ** 2 + 2 * r12 * r23 * r13
    t = (r12 - r13) * np.sqrt((n - 1) * (1 + r23)) / np.sqrt(2 * (n - 1) / (n - 3) * k + ((r12 + r13) / 2) ** 2 * (1 - r23) ** 3)
    assert williams_test(r12, r13, r23, n) == pytest.approx(scipy.stats.t.sf(t, n - 3))


def test_bad_input():
    h = {'A': 1.0, 'B': 2.0, 'C': 3.0}
    with pytest.raises(MetricInputError, match='same systems'): correlate({'A': 1, 'B': 2, 'D': 3}, h)
    with pytest.raises(MetricInputError, match='at least 3 systems'): correlate({'A': 1, 'B': 2}, {'A': 1, 'B': 2})
    with pytest.raises(MetricInputError, match='finite'): correlate({'A': 1, 'B': float('nan'), 'C': 3}, h)
    with pytest.raises(MetricInputError, match='expected 2 segment'):
        correlate({'A': [1, 2], 'B': [1], 'C': [1, 2]}, {'A': [1, 2], 'B': [1, 2], 'C': [1, 2]}, level='segment')
    with pytest.raises(MetricInputError, match='None, not NaN'):
        correlate({'A': [1], 'B': [1], 'C': [1]}, {'A': [1], 'B': [float('nan')], 'C': [1]}, level='segment')
    with pytest.raises(MetricInputError, match='average_by'): correlate(h, h, average_by='item')
    with pytest.raises(MetricInputError, match='statistic'): correlate(h, h, statistic='tau')
    with pytest.raises(MetricInputError, match='ci'): correlate(h, h, ci=95)
    with pytest.raises(MetricInputError, match='expected a dict'): correlate([1, 2, 3], h)
    before = dict(h); correlate(h, h, n_resamples=10); assert h == before  # inputs never modified


# ---- explorer --------------------------------------------------------------------------------------------------------
def test_renderer_and_widget(ru_sys):
    human, _, auto = ru_sys
    out = render_meta_eval_html(auto['bleu-A'], human, exclude=['ALMAnaCH-Inria'])
    assert '<svg' in out and '0.970' in out and '0.717' in out
    bad = render_meta_eval_html({'<b>x</b>': 1, 'y': 2, 'z': 3}, {'<b>x</b>': 1, 'y': 3, 'z': 2})
    assert '&lt;b&gt;x&lt;/b&gt;' in bad and '<b>x</b>' not in bad
    ex = meta_eval_explorer(auto['bleu-A'], human)
    ex.controls['exclude'].value = ('ALMAnaCH-Inria',)
    assert '0.717' in ex.output.value
    ex.controls['exclude'].value = ()
    ex.controls['system'].value = 'ALMAnaCH-Inria'
    ex.controls['human'].value = 0.05
    assert '&rarr;' in ex.output.value


# ---- CLI -------------------------------------------------------------------------------------------------------------
def test_cli_done_when(capsys):
    assert main(['meta-eval', '--human', str(RU / 'human_da_sys.tsv'), '--human-column', 'z',
                 '--metric-scores', str(RU / 'official_automatic_scores.tsv'), '--metrics', 'bleu-A,chrf-A',
                 '--statistics', 'pearson', '--n-resamples', '200']) == 0
    out, err = capsys.readouterr()
    lines = {l.split()[0]: l for l in out.splitlines() if l.startswith(('bleu-A', 'chrf-A'))}
    assert lines['bleu-A'].split()[1] == '0.970' and lines['chrf-A'].split()[1] == '0.971'
    assert 'bootstrap resamples' in err  # progress on stderr


def test_cli_json_exclude_and_files(capsys, tmp_path):
    assert main(['meta-eval', '--human', str(RU / 'human_da_sys.tsv'), '--metric-scores', str(RU / 'official_automatic_scores.tsv'),
                 '--metrics', 'bleu-A', '--statistics', 'pearson,pairwise_accuracy', '--exclude', 'ALMAnaCH-Inria',
                 '--format', 'json', '--quiet', '--ci', '0']) == 0
    d = json.loads(capsys.readouterr().out)
    assert round(d['results']['bleu-A']['pearson']['score'], 3) == 0.717 and len(d['systems']) == 9
    # computing the metric from system files (first 50 lines of 4 systems) gives the same as the library
    refs = tmp_path / 'ref.en'; refs.write_text(_head(RU / 'ref.A.en'))
    hyps = []
    for s in ('HuaweiTSC', 'Online-W', 'SRPOL', 'ALMAnaCH-Inria'):
        p = tmp_path / f'{s}.en'; p.write_text(_head(RU / 'sys' / f'{s}.en')); hyps.append(str(p))
    human = tmp_path / 'h.tsv'
    human.write_text('system\tscore\nHuaweiTSC\t0.04\nOnline-W\t-0.04\nSRPOL\t0.0\nALMAnaCH-Inria\t-0.24\n')
    assert main(['meta-eval', *hyps, '--human', str(human), '-r', str(refs), '--metrics', 'chrf', '--statistics', 'pearson',
                 '--format', 'json', '--quiet', '--ci', '0']) == 0
    d = json.loads(capsys.readouterr().out)
    from textmetrics_edu.metrics.chrf import corpus_chrf
    ref_lines = refs.read_text().split('\n')[:-1]
    m = {Path(h).stem: float(corpus_chrf(Path(h).read_text().split('\n')[:-1], [[r] for r in ref_lines])) for h in hyps}
    hs = {'HuaweiTSC': 0.04, 'Online-W': -0.04, 'SRPOL': 0.0, 'ALMAnaCH-Inria': -0.24}
    assert d['results']['chrf']['pearson']['score'] == pytest.approx(correlate(m, hs, ci=None).score, abs=1e-12)


def test_cli_negates_error_rates_on_wmt22(capsys):
    """TER is lower-is-better: meta-eval correlates its negation (it ranked TER upside down: pairwise accuracy 0.231
    instead of 0.769 on WMT22 ja-en). Here: sacreBLEU 2.6.0's system TER on WMT22 ru-en (sacrebleu_ter_system.tsv, see
    the folder's README), under the name the TSV gives it ('TER': the registry's `ter`, matched case-insensitively)."""
    human = {r['system']: float(r['z']) for r in _tsv(RU / 'human_da_sys.tsv')}
    ter = {r['system']: float(r['score']) for r in _tsv(RU / 'sacrebleu_ter_system.tsv')}
    args = ['meta-eval', '--human', str(RU / 'human_da_sys.tsv'), '--human-column', 'z', '--metric-scores',
            str(RU / 'sacrebleu_ter_system.tsv'), '--statistics', 'pearson,pairwise_accuracy', '--format', 'json',
            '--quiet', '--ci', '0']
    assert main(args) == 0
    d = json.loads(capsys.readouterr().out)
    assert d['negated'] == ['TER']
    for st in ('pearson', 'pairwise_accuracy'):
        want = correlate({k: -v for k, v in ter.items()}, human, statistic=st, ci=None).score
        assert d['results']['TER'][st]['score'] == pytest.approx(want, abs=1e-12)
        assert want > 0   # with the sign right, TER agrees with the humans as BLEU and chrF do
    assert d['results']['TER']['pairwise_accuracy']['score'] > 0.5
    # a metric the registry does not know is declared on the command line
    bleu = RU / 'official_automatic_scores.tsv'
    assert main(['meta-eval', '--human', str(RU / 'human_da_sys.tsv'), '--metric-scores', str(bleu), '--metrics', 'bleu-A',
                 '--lower-is-better', 'bleu-A', '--statistics', 'pearson', '--format', 'json', '--quiet', '--ci', '0']) == 0
    d = json.loads(capsys.readouterr().out)
    assert d['negated'] == ['bleu-A'] and d['results']['bleu-A']['pearson']['score'] < 0
    assert main(['meta-eval', '--human', str(RU / 'human_da_sys.tsv'), '--metric-scores', str(bleu), '--metrics', 'bleu-A',
                 '--lower-is-better', 'ter']) == 2
    assert '--lower-is-better' in capsys.readouterr().err


def test_cli_negates_error_rates_it_computes(capsys, tmp_path):
    "From system files: TER and WER negated, WIP (information preserved) not, each as the library's correlation says"
    refs = tmp_path / 'ref.en'; refs.write_text(_head(RU / 'ref.A.en'))
    hyps = []
    for s in ('HuaweiTSC', 'Online-W', 'SRPOL', 'ALMAnaCH-Inria'):
        p = tmp_path / f'{s}.en'; p.write_text(_head(RU / 'sys' / f'{s}.en')); hyps.append(str(p))
    hs = {'HuaweiTSC': 0.04, 'Online-W': -0.04, 'SRPOL': 0.0, 'ALMAnaCH-Inria': -0.24}
    human = tmp_path / 'h.tsv'
    human.write_text('system\tscore\n' + ''.join(f'{k}\t{v}\n' for k, v in hs.items()))
    assert main(['meta-eval', *hyps, '--human', str(human), '-r', str(refs), '--metrics', 'ter,wer,wip',
                 '--statistics', 'pearson', '--format', 'json', '--quiet', '--ci', '0']) == 0
    d = json.loads(capsys.readouterr().out)
    assert d['negated'] == ['ter', 'wer']
    from textmetrics_edu.core import METRICS
    ref_lines = refs.read_text().split('\n')[:-1]
    for m, sign in (('ter', -1), ('wer', -1), ('wip', 1)):
        f = METRICS[m].corpus_fn
        sc = {Path(h).stem: sign * float(f(Path(h).read_text().split('\n')[:-1], ref_lines)) for h in hyps}
        assert d['results'][m]['pearson']['score'] == pytest.approx(correlate(sc, hs, ci=None).score, abs=1e-12), m


def test_every_registered_metric_declares_its_direction():
    """Declared once, on the metric, and read from there (the CLI above negates what it declares lower-is-better).
    Whether each declaration is true is checked against the metric's own scores, for every registered metric, in
    tests/test_registry.py::test_the_declared_direction_is_what_the_scores_do (no list of names here)."""
    from textmetrics_edu.core import METRICS, discover_metrics
    discover_metrics()
    lower = {k for k, v in METRICS.items() if not v.higher_is_better}
    assert {'ter', 'wer'} <= lower and 'wip' not in lower   # the three the CLI test above scores
    assert all(v.metric is None or v.metric.higher_is_better == v.higher_is_better for v in METRICS.values())


def test_cli_errors(capsys):
    assert main(['meta-eval', '--human', str(RU / 'human_da_sys.tsv'), '--metric-scores', str(RU / 'official_automatic_scores.tsv'),
                 '--metrics', 'nope']) == 2
    assert 'nope' in capsys.readouterr().err
    assert main(['meta-eval', '--human', 'missing.tsv', '--metric-scores', 'x.tsv']) == 2
    assert 'cannot read' in capsys.readouterr().err


# ----------------------------------------------------------------------------------------------------------------
# The explorer's standard-library statistics (what the live explorer runs in the browser) against scipy
# ----------------------------------------------------------------------------------------------------------------
import math
from textmetrics_edu.kernels.meta_eval_python import pearson_r, spearman_rho, kendall_tau_b, average_ranks
from textmetrics_edu.views.meta_eval import EXPLORER_STATISTICS, wmt22_system_scores, render_system_explorer_html

_PAIRS = ((pearson_r, scipy.stats.pearsonr), (spearman_rho, scipy.stats.spearmanr),
          (lambda x, y: kendall_tau_b(x, y), lambda x, y: scipy.stats.kendalltau(x, y, variant='b')))


@settings(max_examples=200, deadline=None)
@given(st.integers(3, 25).flatmap(lambda n: st.tuples(
    st.lists(st.one_of(st.integers(-3, 3).map(float), st.floats(-100, 100, allow_nan=False).filter(lambda v: v == 0 or abs(v) > 1e-6)), min_size=n, max_size=n),
    st.lists(st.one_of(st.integers(-3, 3).map(float), st.floats(-100, 100, allow_nan=False).filter(lambda v: v == 0 or abs(v) > 1e-6)), min_size=n, max_size=n))))
def test_pure_statistics_equal_scipy(xy):
    "Pearson, Spearman, Kendall tau-b without numpy equal scipy to 1e-12 (ties included); NaN where scipy's is"
    x, y = xy
    import warnings
    for mine, theirs in _PAIRS:
        with warnings.catch_warnings():
            warnings.simplefilter('ignore')
            want = float(theirs(x, y)[0])
        got = mine(x, y)
        if len(set(x)) < 2 or len(set(y)) < 2: assert math.isnan(got)
        elif math.isnan(want): assert math.isnan(got)
        else: assert abs(got - want) <= 1e-12, (mine, got, want)


def test_average_ranks_equal_scipy():
    x = [3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5]
    assert average_ranks(x) == list(scipy.stats.rankdata(x))


def test_explorer_statistics_equal_correlate_on_wmt22():
    metrics, humans = wmt22_system_scores()
    for name in metrics:
        for h in humans.values():
            m = metrics[name]
            for st_, f in EXPLORER_STATISTICS.items():
                want = correlate(m, h, statistic=st_, ci=None).score
                assert abs(f([m[s] for s in h], list(h.values())) - want) <= 1e-12, (name, st_)


def test_shipped_wmt22_system_scores_equal_the_sources():
    metrics, humans = wmt22_system_scores()
    sys_ = {r['system']: r for r in _tsv(RU / 'human_da_sys.tsv', None)}
    assert humans['DA z'] == {s: float(r['z']) for s, r in sys_.items()}
    assert humans['DA raw'] == {s: float(r['raw']) for s, r in sys_.items()}
    off = {}
    for r in _tsv(RU / 'official_automatic_scores.tsv', None):
        off.setdefault(r['metric'], {})[r['system']] = float(r['score'])
    assert metrics['BLEU'] == off['bleu-A'] and metrics['chrF'] == off['chrf-A']
    own = {r['system']: float(r['score']) for r in _tsv(DATA / 'meta_eval' / 'system_scores.tsv', None)
           if r['dataset'] == 'wmt22_ru-en' and r['metric'] == 'meteor'}
    assert metrics['METEOR'] == own


def test_system_explorer_renderer():
    base = render_system_explorer_html()
    assert '<td>0.970</td>' in base and '<b>0.970</b>' in base  # BLEU vs DA z, all 10 systems (issue 11's figure)
    assert '<b>0.717</b>' in render_system_explorer_html(exclude='ALMAnaCH-Inria')  # Mathur et al.'s outlier trap
    assert '<b>0.971</b>' in render_system_explorer_html('chrF')
    moved = render_system_explorer_html(system='ALMAnaCH-Inria', shift=3.0)
    assert '<b>0.143</b>' in moved and 'ALMAnaCH-Inria: human score -0.2376 &rarr;' in moved
    assert render_system_explorer_html(exclude=['', ' ']) == base  # empty names (an empty text box) are ignored
    for kw, msg in ((dict(metric='BLEURT'), 'metric: expected'), (dict(human='MQM'), 'human: expected'),
                    (dict(system='<b>x</b>'), 'system: expected'), (dict(exclude='foggy, Online-A'), 'no system foggy'),
                    (dict(shift=float('nan')), 'shift: expected')):
        out = render_system_explorer_html(**kw)
        assert "class='tme-error'" in out and msg in out and '<b>x</b>' not in out, kw
    assert 'keep at least 3 systems' in render_system_explorer_html(exclude=list(wmt22_system_scores()[1]['DA z'])[:8])


def test_renderers_import_no_numpy():
    "The meta-eval explorer renders with the standard library alone (numpy/scipy/pandas never imported)"
    from conftest import render_in_fresh_python
    mods, h = render_in_fresh_python("import textmetrics_edu.views.meta_eval as m; h = m.render_system_explorer_html(exclude='Online-W')")
    assert mods == [] and h == render_system_explorer_html(exclude='Online-W')


@pytest.mark.parametrize('bad', [-1, 1.5, '7', True, None])
def test_seeds_and_counts_are_checked(ru_sys, bad, capsys):
    "A negative, fractional, string, boolean or missing seed or count is a MetricInputError naming it (tracebacks before)"
    human, _, auto = ru_sys
    with pytest.raises(MetricInputError, match='`seed`'): correlate(auto['bleu-A'], human, seed=bad)
    with pytest.raises(MetricInputError, match='`seed`'): perm_both(auto['bleu-A'], auto['chrf-A'], human, seed=bad)
    for n in (bad, 0, -5):
        with pytest.raises(MetricInputError, match='`n_resamples`'): correlate(auto['bleu-A'], human, n_resamples=n)
        with pytest.raises(MetricInputError, match='`n_resamples`'): perm_both(auto['bleu-A'], auto['chrf-A'], human, n_resamples=n)
    assert correlate(auto['bleu-A'], human, ci=None, n_resamples=0).score > 0.9   # no interval asked: the count is unused
    args = ['meta-eval', '--human', str(RU / 'human_da_sys.tsv'), '--metric-scores', str(RU / 'official_automatic_scores.tsv'),
            '--metrics', 'bleu-A', '--quiet']
    for flag in (['--n-resamples', '-5'], ['--seed', '-1']):
        assert main(args + flag) == 2
        err = capsys.readouterr().err
        assert err.startswith('textmetrics-edu: error:') and flag[0].lstrip('-').replace('-', '_') in err, err


@pytest.mark.parametrize('args, match', [((0.71, -0.65, 0.23, 11), 'inconsistent'), ((0.7, 0.6, 0.5, 10.5), '`n`'),
                                         ((float('nan'), 0.6, 0.5, 10), '`r12`'), ((0.7, 0.6, 1.5, 10), '`r23`'),
                                         ((0.7, 0.6, 0.5, 3), '`n`'), ((0.7, '0.6', 0.5, 10), '`r13`')])
def test_williams_test_refuses_what_no_data_gives(args, match):
    "Correlations no three variables can have (a negative determinant: `math domain error` before), nan, n not an int > 3"
    with pytest.raises(MetricInputError, match=match): williams_test(*args)


def test_scatter_has_tick_values_and_fits_a_phone():
    """Issue 37: the explorer's scatter had no tick values, and at 390 px it was cut off (a fixed 420 px SVG). Both axes
    now carry round tick values inside the data's range, and the SVG scales down (`svg_size`: viewBox, max-width)."""
    import re
    metric = {'A': 0.21, 'B': 0.27, 'C': 0.35, 'D': 0.30}
    human = {'A': -0.4, 'B': 0.1, 'C': 0.55, 'D': 0.2}
    out = render_meta_eval_html(metric, human)
    svg = out[out.index('<svg'):]
    assert "viewBox='0 0 420 300'" in svg and 'max-width:100%' in svg and "overflow='visible'" not in svg
    ticks = [(float(x), float(y), t) for x, y, t in
             re.findall(r"<text x='([\d.]+)' y='([\d.]+)' font-size='9' fill='#555'[^>]*>([^<]+)</text>", svg)]
    xt = [float(t) for x, y, t in ticks if y == max(y for _, y, _ in ticks)]   # under the frame
    yt = [float(t) for x, y, t in ticks if x == min(x for x, _, _ in ticks)]   # left of it
    for vals, data in ((xt, metric.values()), (yt, human.values())):
        assert 2 <= len(vals) <= 6 and min(data) - 1e-9 <= min(vals) and max(vals) <= max(data) + 1e-9, vals
        steps = {round(b - a, 9) for a, b in zip(vals, vals[1:])}
        assert len(steps) == 1, vals   # evenly spaced
        step = steps.pop()
        assert round(step / 10 ** np.floor(np.log10(step)), 6) in (1, 2, 5), step   # round: 1, 2 or 5 x 10^k
