"Mean opinion scores and rater agreement (textmetrics_edu.stats.mos) against scipy, statsmodels, pingouin and krippendorff, on SummEval."
import json
import math

import krippendorff
import numpy as np
import pandas as pd
import pingouin as pg
import pytest
from hypothesis import given, settings, strategies as st
from scipy import stats
from statsmodels.formula.api import ols
from statsmodels.stats.anova import anova_lm
from statsmodels.stats.inter_rater import aggregate_raters, fleiss_kappa

from textmetrics_edu import MetricInputError
from textmetrics_edu.stats.mos import (EXAMPLE_RATINGS, SUMMEVAL_DIMENSIONS, bootstrap_interval, bootstrap_means,
                                 crowdmos_interval, crowdmos_variance, mos, naive_interval, paired_mos_test,
                                 parse_ratings, rating_matrix, summeval_ratings)
from textmetrics_edu.stats.agreement import agreement, krippendorff_alpha_by_hand, reliability_matrix
from textmetrics_edu.views.mos import mos_explorer, render_mos_html

from conftest import DATA

SUMMEVAL = DATA / 'summarization' / 'thumb_cnndm_summeval_docs001-050' / 'summaries_with_human_scores.jsonl'


@pytest.fixture(scope='module')
def summeval():
    return [json.loads(l) for l in SUMMEVAL.read_text().splitlines()]


@pytest.fixture(scope='module')
def experts(summeval):
    return {d: summeval_ratings(summeval, d, 'expert') for d in SUMMEVAL_DIMENSIONS}


def test_summeval_copy_is_complete(summeval):
    test_sys = {r['SYS'] for r in summeval}
    assert len(summeval) == 900 and len(test_sys) == 18 and len({r['set_id'] for r in summeval}) == 50
    assert all(len(r['expert_annotations']) == 3 for r in summeval)
    assert {r['SYS'] for r in summeval if not r['turker_annotations']} == {'Pegasus-dynamic-mix', 'Human-H'}
    assert all(len(r['turker_annotations']) == 5 for r in summeval if r['turker_annotations'])


def test_mos_and_naive_interval_match_scipy(experts):
    for d, recs in experts.items():
        res = mos(recs, n_samples=200)
        assert len(res) == 18
        for s, r in res.items():
            x = np.array([v for sy, _, _, v in recs if sy == s])
            ci = stats.ttest_1samp(x, 0).confidence_interval(0.95)
            assert float(r) == pytest.approx(x.mean(), abs=1e-12)
            assert r.naive_ci == pytest.approx((ci.low, ci.high), abs=1e-12)
            assert r.sd == pytest.approx(x.std(ddof=1), abs=1e-12) and r.n_ratings == 150 and (r.n_raters, r.n_items) == (3, 50)
    ci = stats.ttest_1samp([4, 5, 3, 4], 0).confidence_interval(0.9)
    assert naive_interval([4, 5, 3, 4], 0.9) == pytest.approx((ci.low, ci.high), abs=1e-12)


def test_crowdmos_components_match_statsmodels_anova(experts):
    "Complete design: the three observable variances are ANOVA sums of squares (statsmodels) in disguise."
    for d in ('coherence', 'relevance'):
        for s in ('BART', 'Lead-3', 'GPT-2-zero-shot'):
            recs = [r for r in experts[d] if r[0] == s]
            _, _, Z = rating_matrix(recs)
            N, M = Z.shape
            df = pd.DataFrame(recs, columns=['system', 'item', 'rater', 'score'])
            ss = anova_lm(ols('score ~ C(rater) + C(item)', df).fit())['sum_sq']
            v_tot = df.score.var(ddof=1)
            w_rater = (ss['C(item)'] + ss['Residual']) / (N * (M - 1))
            w_item = (ss['C(rater)'] + ss['Residual']) / (M * (N - 1))
            c = crowdmos_variance(Z)
            want = [max(v_tot - w_item, 0), max(v_tot - w_rater, 0), max(w_rater + w_item - v_tot, 0)]
            assert [c['v_item'], c['v_rater'], c['v_residual']] == pytest.approx(want, abs=1e-12)
            assert c['var_mos'] == pytest.approx(want[0] / M + want[1] / N + want[2] / (N * M), abs=1e-12)
            lo, hi = crowdmos_interval(Z)
            assert (lo + hi) / 2 == pytest.approx(df.score.mean(), abs=1e-12)
            assert (hi - lo) / 2 == pytest.approx(stats.t.ppf(0.975, 2) * math.sqrt(c['var_mos']), abs=1e-12)


def test_crowdmos_incomplete_design():
    "Unbalanced counts: Var(MOS) uses sum m_j^2 and sum n_i^2, checked against a direct pandas computation."
    rng = np.random.default_rng(3)
    Z = np.round(np.clip(3 + rng.normal(0, 1, (6, 9)), 1, 5))
    Z[rng.random(Z.shape) < 0.35] = np.nan
    c = crowdmos_variance(Z)
    df = pd.DataFrame([(i, j, Z[i, j]) for i in range(6) for j in range(9) if not np.isnan(Z[i, j])], columns=['r', 'i', 'v'])
    T = len(df)
    within = lambda key: df.groupby(key).v.var(ddof=1).dropna().mean()
    v_ir, v_rr, v_tot = within('r'), within('i'), df.v.var(ddof=1)
    v_item, v_rater, v_res = (max(x, 0) for x in (v_tot - v_rr, v_tot - v_ir, v_ir + v_rr - v_tot))
    want = (v_item * (df.groupby('i').size() ** 2).sum() + v_rater * (df.groupby('r').size() ** 2).sum()) / T ** 2 + v_res / T
    assert c['var_mos'] == pytest.approx(want, abs=1e-12)


def test_crowd_votes_each_own_rater(summeval):
    "Crowd votes carry no worker id: each is its own rater, rater and residual variance merge."
    recs = summeval_ratings(summeval, 'fluency', 'crowd')
    r = mos(recs, n_samples=100)['BART']
    assert (r.n_raters, r.n_items, r.v_rater) == (250, 50, 0.0)
    _, _, Z = rating_matrix([x for x in recs if x[0] == 'BART'])
    df = pd.DataFrame([(j, v) for j in range(50) for v in Z[:, j] if not np.isnan(v)], columns=['i', 'v'])
    v_rr = df.groupby('i').v.var(ddof=1).mean()
    assert r.v_residual == pytest.approx(v_rr, abs=1e-12)
    assert r.v_item == pytest.approx(max(df.v.var(ddof=1) - v_rr, 0), abs=1e-12)


def test_two_way_bootstrap_matches_a_loop_and_its_seed():
    rng = np.random.default_rng(5)
    Z = np.round(np.clip(3 + rng.normal(0, 1, (4, 7)), 1, 5))
    Z[0, 1] = Z[2, 5] = np.nan
    b = bootstrap_means(Z, n_samples=300, seed=11)
    g = np.random.default_rng(11)  # the same draws, in the same order: raters, then items
    R, I = g.integers(0, 4, size=(300, 4)), g.integers(0, 7, size=(300, 7))
    loop = [np.nanmean(Z[np.ix_(R[k], I[k])]) for k in range(300)]
    assert b == pytest.approx(loop, abs=1e-12)
    assert np.array_equal(b, bootstrap_means(Z, n_samples=300, seed=11))
    assert not np.array_equal(b, bootstrap_means(Z, n_samples=300, seed=12))
    assert bootstrap_interval(Z, 0.9, 300, 11) == tuple(np.percentile(b, [5, 95]))


def test_mos_seed_in_signature_and_reproducible(experts):
    recs = [r for r in experts['consistency'] if r[0] in ('BART', 'T5')]
    a, b = mos(recs, seed=7, n_samples=500), mos(recs, seed=7, n_samples=500)
    assert a == b and 'seed:7' in a['BART'].signature and 'boot:2way-500' in a['BART'].signature
    assert mos(recs, seed=8, n_samples=500)['BART'].bootstrap_ci != a['BART'].bootstrap_ci
    # near the top of the scale the t intervals leave it, the bootstrap does not
    assert a['BART'].outside_scale('crowdmos') and not a['BART'].outside_scale('bootstrap')
    assert 'outside the 1-5 scale' in a['BART'].explain()


def test_naive_interval_too_narrow_on_experts(experts):
    for d, recs in experts.items():
        ratios = [(r.crowdmos_ci[1] - r.crowdmos_ci[0]) / (r.naive_ci[1] - r.naive_ci[0]) for r in mos(recs, n_samples=100).values()]
        assert min(ratios) > 2 and np.median(ratios) > 3, (d, ratios)


def test_paired_tests_match_scipy(experts):
    recs = experts['coherence']
    mean_of = lambda s: pd.DataFrame([r for r in recs if r[0] == s], columns=['s', 'i', 'r', 'v']).groupby('i').v.mean()
    for a, b in [('Lead-3', 'BART'), ('GPT-2-zero-shot', 'BART'), ('Human-H', 'Pegasus-huge-news')]:
        xa, xb = mean_of(a), mean_of(b)
        t = paired_mos_test(recs, a, b)
        ref = stats.ttest_rel(xb.values, xa.loc[xb.index].values)
        assert (t.statistic, t.p_value) == pytest.approx((ref.statistic, ref.pvalue), abs=1e-12)
        ci = ref.confidence_interval()
        assert t.ci == pytest.approx((ci.low, ci.high), abs=1e-12) and t.score == pytest.approx((xb - xa).mean(), abs=1e-12)
        w = paired_mos_test(recs, a, b, test='wilcoxon')
        ref = stats.wilcoxon(xb.values, xa.loc[xb.index].values)
        assert (w.statistic, w.p_value) == pytest.approx((ref.statistic, ref.pvalue), abs=1e-12)
        bs = paired_mos_test(recs, a, b, test='bootstrap', seed=3, n_samples=500)
        assert bs == paired_mos_test(recs, a, b, test='bootstrap', seed=3, n_samples=500) and 0 < bs.p_value <= 1
        assert 'seed:3' in bs.signature
    assert paired_mos_test(recs, 'GPT-2-zero-shot', 'BART', test='bootstrap').significant()
    assert not paired_mos_test(recs, 'Lead-3', 'BART', test='bootstrap').significant()


def test_agreement_matches_libraries(experts, summeval):
    for d in ('coherence', 'consistency'):
        recs = experts[d]
        df = pd.DataFrame(recs, columns=['system', 'item', 'rater', 'score'])
        wide = df.pivot(index=['system', 'item'], columns='rater', values='score')
        long = wide.reset_index().melt(id_vars=['system', 'item'], value_name='score')
        long['unit'] = long.system + '/' + long.item.astype(str)
        icc = pg.intraclass_corr(long, targets='unit', raters='rater', ratings='score').set_index('Type')
        kappa = fleiss_kappa(aggregate_raters(wide.to_numpy())[0])
        for level in ('nominal', 'ordinal', 'interval'):
            for form in ('ICC(A,1)', 'ICC(C,k)'):
                g = agreement(recs, level_of_measurement=level, icc_form=form)
                assert float(g) == pytest.approx(krippendorff.alpha(reliability_data=wide.to_numpy().T, level_of_measurement=level), abs=1e-12)
                assert g.fleiss_kappa == pytest.approx(kappa, abs=1e-12)
                assert g.icc == pytest.approx(icc.loc[form, 'ICC'], abs=1e-12) and g.icc_ci == tuple(icc.loc[form, 'CI95'])
                assert g.level_of_measurement == level and f'alpha:{level}' in g.signature
    crowd = summeval_ratings(summeval, 'relevance', 'crowd')
    g = agreement(crowd, icc_form='ICC(1,1)')
    slots = pd.DataFrame([(f"{s}/{i}", k % 5, v) for k, (s, i, _, v) in enumerate(crowd)], columns=['u', 'slot', 'v'])
    icc = pg.intraclass_corr(slots, targets='u', raters='slot', ratings='v').set_index('Type')
    assert g.icc == pytest.approx(icc.loc['ICC(1,1)', 'ICC'], abs=1e-12)
    assert g.n_units == 800 and g.n_per_unit == 5


@pytest.mark.parametrize('level', ['nominal', 'ordinal', 'interval', 'ratio'])
def test_alpha_by_hand_on_summeval(experts, level):
    R = reliability_matrix(experts['relevance'])[2]
    assert krippendorff_alpha_by_hand(R, level) == pytest.approx(
        krippendorff.alpha(reliability_data=R, level_of_measurement=level), abs=1e-10)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.lists(st.one_of(st.none(), st.integers(1, 5)), min_size=6, max_size=6), min_size=2, max_size=5),
       st.sampled_from(['nominal', 'ordinal', 'interval', 'ratio']))
def test_alpha_by_hand_equals_krippendorff(rows, level):
    R = np.array([[np.nan if v is None else v for v in r] for r in rows], dtype=float)
    pairable = [u for u in R.T if (~np.isnan(u)).sum() >= 2]
    vals = np.concatenate(pairable) if pairable else np.array([])
    if len(set(vals[~np.isnan(vals)])) < 2: return  # alpha is undefined with fewer than two pairable values
    assert krippendorff_alpha_by_hand(R, level) == pytest.approx(
        krippendorff.alpha(reliability_data=R, level_of_measurement=level), abs=1e-9)


def test_inputs_dataframe_and_records_agree_and_are_not_modified():
    recs = parse_ratings(EXAMPLE_RATINGS)
    df = pd.DataFrame(recs, columns=['system', 'item', 'rater', 'score'])
    before = df.copy()
    a = mos(df, n_samples=100)
    assert a == mos(recs, n_samples=100) == mos([dict(zip(df.columns, r)) for r in recs], n_samples=100)
    pd.testing.assert_frame_equal(df, before)
    renamed = df.rename(columns={'system': 'sys', 'score': 'mos'})
    assert mos(renamed, columns=('sys', 'item', 'rater', 'mos'), n_samples=100) == a


@pytest.mark.parametrize('bad,msg', [
    (pd.DataFrame({'system': ['A'], 'item': ['s'], 'score': [3]}), "no column ['rater']"),
    ([{'system': 'A', 'item': 's', 'score': 3}], "`ratings[0]` has no ['rater']"),
    ([('A', 's1', 'r1', 6), ('A', 's2', 'r2', 4)], '`ratings[0]` score = 6 is outside `scale` (1, 5)'),
    ([('A', 's1', 'r1', 0.5)], 'outside `scale`'),
    ([('A', 's1', 'r1', float('nan'))], '`ratings[0]` score is nan'),
    ([('A', 's1', 'r1', 4), ('A', 's1', 'r2', float('inf'))], '`ratings[1]` score is inf'),
    ([('A', 's1', 'r1', None)], 'must be a number'),
    ([('A', 's1', 'r1', True)], 'must be a number'),
    ([('A', 's1', 'r1', 4), ('A', 's2', 'r1', 5)], "system 'A' has one rater"),
    ([('A', 's1', 'r1', 4), ('A', 's1', 'r2', 5)], "system 'A' has one item"),
    ([('A', 's1', 'r1', 4), ('A', 's1', 'r1', 5)], 'twice'),
    ([], '`ratings` is empty'),
    ('A s1 r1 4', '`ratings` must be a list of records'),
    ([('A', 's1', 4)], '`ratings[0]` must be a dict'),
])
def test_bad_input(bad, msg):
    with pytest.raises(MetricInputError) as e: mos(bad)
    assert msg in str(e.value)


def test_bad_options(experts):
    recs = parse_ratings(EXAMPLE_RATINGS)
    for kw, msg in [(dict(confidence=1.5), '`confidence`'), (dict(scale=(5, 1)), '`scale`'), (dict(n_samples=0), '`n_samples`'),
                    (dict(scale='1-5'), '`scale`')]:
        with pytest.raises(MetricInputError, match=msg): mos(recs, **kw)
    with pytest.raises(MetricInputError, match='`test`'): paired_mos_test(recs, 'A', 'B', test='z')
    with pytest.raises(MetricInputError, match='`system`'): paired_mos_test(recs, 'A', 'C')
    with pytest.raises(MetricInputError, match='`baseline`'): paired_mos_test(recs, 'C', 'A')
    with pytest.raises(MetricInputError, match='share 0'): paired_mos_test(recs + [('C', 'x', 'r1', 3), ('C', 'y', 'r1', 3)], 'A', 'C')
    with pytest.raises(MetricInputError, match='`level_of_measurement`'): agreement(recs, level_of_measurement='likert')
    with pytest.raises(MetricInputError, match='`level_of_measurement`'): krippendorff_alpha_by_hand([[1, 2]], 'likert')
    with pytest.raises(MetricInputError, match='`icc_form`'): agreement(recs, icc_form='ICC2')
    with pytest.raises(MetricInputError, match='`icc_form`'): agreement([('A', 's1', 'r1', 4), ('A', 's1', 'r2', 5),
                                                                         ('A', 's2', 'r3', 4), ('A', 's2', 'r4', 3)])
    with pytest.raises(MetricInputError, match='single distinct score'): agreement([('A', 's1', 'r1', 4), ('A', 's1', 'r2', 4)])
    with pytest.raises(MetricInputError, match='`reliability_data`'): krippendorff_alpha_by_hand([[4, 4], [4, 4]], 'ordinal')
    with pytest.raises(MetricInputError, match='one rater'): agreement([('A', 's1', 'r1', 4), ('A', 's2', 'r1', 5)])
    with pytest.raises(MetricInputError, match='`dimension`'): summeval_ratings([], 'overall')
    with pytest.raises(MetricInputError, match='`group`'): summeval_ratings([], 'fluency', 'students')
    with pytest.raises(MetricInputError, match='line 2'): parse_ratings('A s1 r1 4\nA s1 r2')


def test_renderer_escapes_and_widget():
    h = render_mos_html([('<i>x</i>', 's1', 'r1', 4), ('<i>x</i>', 's2', 'r2', 5), ('<i>x</i>', 's1', 'r2', 4)])
    assert '<i>x</i>' not in h and '&lt;i&gt;x&lt;/i&gt;' in h and '<svg' in h
    assert render_mos_html(EXAMPLE_RATINGS, method='naive') == render_mos_html(parse_ratings(EXAMPLE_RATINGS), method='naive')
    assert 'the naive interval leaves the scale for B' in render_mos_html(EXAMPLE_RATINGS, method='naive')
    err = render_mos_html('A s1 r1 <b>')
    assert "tme-error" in err and '&lt;b&gt;' in err
    assert 'tme-error' in render_mos_html(EXAMPLE_RATINGS, method='wald')
    w = mos_explorer({'two': parse_ratings('X a r1 1\nX b r2 2\nX a r2 1')})
    assert '>B<' in w.output.value
    w.controls['data'].value = 'two'
    assert '>X<' in w.output.value and '>B<' not in w.output.value
    w.controls['method'].value = 'crowdmos'
    assert 'crowdmos 95%' in w.output.value and 'naive 95%' not in w.output.value


@settings(max_examples=30, deadline=None)
@given(st.integers(2, 5), st.integers(2, 8), st.data())
def test_mos_properties(n_raters, n_items, data):
    "On any design with at least 2 raters and 2 items: the MOS and the bootstrap interval stay inside the votes' range."
    cells = [(r, i) for r in range(n_raters) for i in range(n_items)]
    keep = data.draw(st.lists(st.booleans(), min_size=len(cells), max_size=len(cells)))
    votes = data.draw(st.lists(st.integers(1, 5), min_size=len(cells), max_size=len(cells)))
    recs = [('S', f'i{i}', f'r{r}', v) for (r, i), k, v in zip(cells, keep, votes) if k]
    if len({x[2] for x in recs}) < 2 or len({x[1] for x in recs}) < 2:
        with pytest.raises(MetricInputError): mos(recs, n_samples=50)
        return
    res = mos(recs, n_samples=50, seed=1)['S']
    x = [v for *_, v in recs]
    assert min(x) <= float(res) <= max(x)
    assert min(x) - 1e-12 <= res.bootstrap_ci[0] <= res.bootstrap_ci[1] <= max(x) + 1e-12
    assert res.naive_ci[0] <= float(res) <= res.naive_ci[1] and res.crowdmos_ci[0] <= float(res) <= res.crowdmos_ci[1]
    assert min(res.v_item, res.v_rater, res.v_residual) >= 0


# ----------------------------------------------------------------------------------------------------------------
# The standard-library engine (engine='python'; what the live explorer runs in the browser) against numpy/scipy
# ----------------------------------------------------------------------------------------------------------------
from textmetrics_edu.kernels.mos_python import (t_quantile, percentile_linear, crowdmos_variance_python,
                                               bootstrap_means_python)


@pytest.mark.parametrize('p', [0.55, 0.75, 0.9, 0.95, 0.975, 0.99, 0.995, 0.9995])
def test_t_quantile_equals_scipy(p):
    for df in [*range(1, 80), 99, 149, 299, 499, 999, 1999, 4999]:
        want = stats.t.ppf(p, df)
        tol = 1e-12 if df <= 1000 and p <= 0.995 else 5e-12
        assert abs(t_quantile(p, df) - want) <= tol * want, (p, df)
    assert t_quantile(1 - p, 7) == -t_quantile(p, 7) and t_quantile(0.5, 3) == 0.0


def test_t_quantile_bad_input():
    for p, df in ((0.0, 3), (1.0, 3), (0.9, 0), (0.9, 2.5), (0.9, True)):
        with pytest.raises(MetricInputError): t_quantile(p, df)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.floats(-1e3, 1e3, allow_nan=False), min_size=1, max_size=60), st.floats(0, 100))
def test_percentile_linear_equals_numpy(xs, q):
    assert abs(percentile_linear(xs, q) - np.percentile(xs, q)) <= 1e-12 * max(1.0, max(map(abs, xs)))


def _z_lists(Z):
    return [[None if np.isnan(v) else float(v) for v in row] for row in Z]


def test_python_engine_equals_numpy_on_summeval(experts, summeval):
    "naive and CrowdMOS intervals, MOS, sd and variance components to 1e-12; the bootstrap ends close (other generator)"
    for recs in (experts['coherence'], experts['consistency'], summeval_ratings(summeval, 'coherence', 'crowd')):
        py, nu = mos(recs, engine='python'), mos(recs)
        assert list(py) == list(nu)
        for s in nu:
            a, b = py[s], nu[s]
            for f in ('score', 'sd', 'v_item', 'v_rater', 'v_residual'):
                assert abs(getattr(a, f) - getattr(b, f)) <= 1e-12, (s, f)
            for f in ('naive_ci', 'crowdmos_ci'):
                assert np.allclose(getattr(a, f), getattr(b, f), rtol=0, atol=1e-12), (s, f)
            assert (a.n_ratings, a.n_raters, a.n_items) == (b.n_ratings, b.n_raters, b.n_items)
            w = b.bootstrap_ci[1] - b.bootstrap_ci[0]  # two Monte Carlo samples: ends within a fifth of the width
            assert np.allclose(a.bootstrap_ci, b.bootstrap_ci, rtol=0, atol=0.2 * w + 1e-9), (s, a.bootstrap_ci, b.bootstrap_ci)
        assert 'rng:python' in next(iter(py.values())).signature and 'rng:' not in next(iter(nu.values())).signature


def test_crowdmos_python_incomplete_design():
    rng = np.random.default_rng(5)
    Z = rng.integers(1, 6, size=(7, 9)).astype(float)
    Z[rng.random(Z.shape) < 0.4] = np.nan
    a, b = crowdmos_variance_python(_z_lists(Z)), crowdmos_variance(Z)
    for k in ('v_item', 'v_rater', 'v_residual', 'var_mos', 'df'):
        assert abs(a[k] - b[k]) <= 1e-12, k


def test_bootstrap_python_is_the_same_two_way_resampling():
    "Reproducible from the seed, and each resample is the mean of the drawn raters' votes on the drawn items"
    import random
    Z = [[4.0, 5.0, None], [3.0, None, 4.0], [5.0, 4.0, 4.0]]
    b = bootstrap_means_python(Z, 300, seed=3)
    assert b == bootstrap_means_python(Z, 300, seed=3) and b != bootstrap_means_python(Z, 300, seed=4)
    rng = random.Random(3)
    for k in range(300):
        R = [rng.randrange(3) for _ in range(3)]; I = [rng.randrange(3) for _ in range(3)]
        v = [Z[i][j] for i in R for j in I if Z[i][j] is not None]
        assert (math.isnan(b[k]) and not v) or abs(b[k] - sum(v) / len(v)) <= 1e-12


def test_renderer_uses_the_python_engine_and_imports_no_numpy():
    from conftest import render_in_fresh_python
    mods, h = render_in_fresh_python("import textmetrics_edu.views.mos as m; h = m.render_mos_html(m.EXAMPLE_RATINGS)",
                                     heavy=('numpy', 'scipy', 'pandas', 'pingouin', 'krippendorff'))
    assert mods == [] and h == render_mos_html(EXAMPLE_RATINGS)


@pytest.mark.parametrize('bad', [-1, 1.5, '7', True])
def test_seeds_and_counts_are_checked(bad):
    "mos and paired_mos_test: a bad seed or bootstrap count is a MetricInputError naming it (numpy tracebacks before)"
    r = parse_ratings(EXAMPLE_RATINGS)
    with pytest.raises(MetricInputError, match='`seed`'): mos(r, seed=bad)
    with pytest.raises(MetricInputError, match='`seed`'): paired_mos_test(r, 'A', 'B', test='bootstrap', seed=bad)
    for n in (bad, 0, -5, False):
        with pytest.raises(MetricInputError, match='`n_samples`'): mos(r, n_samples=n)
        with pytest.raises(MetricInputError, match='`n_samples`'): paired_mos_test(r, 'A', 'B', n_samples=n)
    assert mos(r, seed=None)   # None: an unseeded bootstrap, as documented
