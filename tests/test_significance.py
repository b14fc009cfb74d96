"Paired significance tests against sacreBLEU 2.6.0's PairedTest on the full WMT22 en-de data."
import pytest
from sacrebleu.metrics import BLEU, CHRF
from sacrebleu.significance import PairedTest

from textmetrics_edu import paired_test, bootstrap_ci, MetricInputError


@pytest.mark.parametrize('metric,sb', [('bleu', BLEU), ('chrf', CHRF)])
@pytest.mark.parametrize('test', ['bs', 'ar'])
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
