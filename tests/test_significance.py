"Paired significance tests against sacreBLEU 2.6.0's PairedTest on the full WMT22 en-de data."
import pytest
from sacrebleu.metrics import BLEU, CHRF
from sacrebleu.significance import PairedTest

from textmetrics_edu import paired_test, bootstrap_ci, MetricInputError
from conftest import sweep


# by default BLEU under both tests and chrF under the bootstrap; chrF under approximate randomisation: --slow
@pytest.mark.parametrize('metric,sb,test', sweep([(m, sb, t) for m, sb in [('bleu', BLEU), ('chrf', CHRF)] for t in ['bs', 'ar']],
                                               keep=[('bleu', BLEU, 'bs'), ('bleu', BLEU, 'ar'), ('chrf', CHRF, 'bs')],
                                               ids=lambda v: f'{v[2]}-{v[0]}', several=True))
def test_paired_tests_match_sacrebleu(wmt22, metric, sb, test):
    A, B = wmt22['refs_A'], wmt22['refs_B']
    base = wmt22['systems']['Online-B']
    pairs = [('JDExploreAcademy', [A]), ('Online-W', [A, B])]
    for name, streams in pairs:
        refs = A if len(streams) == 1 else [list(x) for x in zip(A, B)]
        n = 1000 if test == 'bs' else 2000
        ours = paired_test(base, wmt22['systems'][name], refs, metric=metric, test=test, n_samples=n)
        _, theirs = PairedTest([('b', base), ('s', wmt22['systems'][name])], {'m': sb()}, streams,
                               test_type=test, n_samples=n)()
        key = [k for k in theirs if k != 'System'][0]
        bl, sy = theirs[key]
        assert abs(100 * ours.score - sy.score) < 1e-9 and abs(100 * ours.baseline_score - bl.score) < 1e-9
        assert ours.p_value == sy.p_value, (name, ours.p_value, sy.p_value)
        if test == 'bs':  # sacreBLEU sums in float32 and divides in float32: agree to ~1e-5 on the 0-100 scale
            assert abs(100 * ours.mean - sy.mean) < 1e-3 and abs(100 * ours.ci - sy.ci) < 1e-3
            assert abs(100 * ours.baseline_mean - bl.mean) < 1e-3 and abs(100 * ours.baseline_ci - bl.ci) < 1e-3


def test_bootstrap_ci_and_errors(wmt22):
    A = wmt22['refs_A']
    m, ci = bootstrap_ci(wmt22['systems']['PROMT'], A, n_samples=200)
    assert 0.35 < m < 0.37 and 0 < ci < 0.02
    with pytest.raises(MetricInputError, match='`system` has 3 segments'):
        paired_test(A, A[:3], A)
    with pytest.raises(MetricInputError, match='`n_samples`'):
        paired_test(A, A, A, n_samples=0)
    r = paired_test(A[:50], A[:50], A[:50], n_samples=100)
    assert r.p_value == 1.0 and not r.significant() and 'seed:12345' in r.signature


# --- the explorer (pure Python: random.Random, no numpy) ---
def test_paired_bootstrap_explorer():
    import random
    from textmetrics_edu.views.significance import render_paired_bootstrap_html
    from textmetrics_edu import corpus_bleu
    b = ['the cat sat on the mat', 'a dog barked', 'it is raining', 'he went home late']
    s = ['the cat sat on a mat', 'the dog barked loudly', 'it rains today', 'he went home late']
    r = ['the cat sat on the mat', 'the dog barked', 'it is raining today', 'he came home late']
    h = render_paired_bootstrap_html(b, s, r, n_samples=30, seed=3)
    assert h == render_paired_bootstrap_html(b, s, r, n_samples=30, seed=3)  # seeded
    assert f"baseline {float(corpus_bleu(b, r)):.4f}, system {float(corpus_bleu(s, r)):.4f}" in h
    rng = random.Random(3)
    first = [rng.randrange(4) for _ in range(4)]
    assert f"<td>1</td><td>{', '.join(str(i + 1) for i in first)}</td>" in h
    # the p-value is sacreBLEU's formula over these resamples, recomputed here independently
    from textmetrics_edu.stats.significance import stats_matrix, score_from_row
    B, S = stats_matrix(b, r), stats_matrix(s, r)
    rng = random.Random(3)
    d = []
    for _ in range(30):
        idx = [rng.randrange(4) for _ in range(4)]
        d.append(abs(score_from_row(S[idx].sum(0), n_segments=4) - score_from_row(B[idx].sum(0), n_segments=4)))
    diff = abs(float(corpus_bleu(s, r)) - float(corpus_bleu(b, r)))
    p = (sum(1 for x in d if x - sum(d) / len(d) > diff) + 1) / 31
    assert f"p = {p:.4f}" in h
    assert 'tme-error' in render_paired_bootstrap_html(b, s[:3], r) and 'tme-error' in render_paired_bootstrap_html(b, s, r, n_samples=0)
    assert '<script>' not in render_paired_bootstrap_html(['<script>'], ['x'], ['y'])
    # identical systems: p = 1
    assert 'p = 1.0000' in render_paired_bootstrap_html(b, b, r, n_samples=20)
