"""Bradley-Terry / Elo (stats.preferences, app.rank_command): evalica's golden values and LLMFAO's published rank
correlation; FastChat's rating_systems.py and fschat 0.2.36 outputs (stored, tests/data/preferences/README.md) on LLMFAO and
on fuzzed battle sets (tests/pref_fuzz.py; 60 in the default set, all stored with --slow); choix; bad input; the CLI."""
import csv, gzip, json, subprocess, sys
from pathlib import Path

import numpy as np
import pytest

from textmetrics_edu.core import MetricInputError
from textmetrics_edu.stats.preferences import (
    battles_records, bootstrap_ratings, bradley_terry_fastchat, bradley_terry_fschat, bradley_terry_logistic,
    bradley_terry_mm, bradley_terry_ties, online_elo, percentile_intervals, ranks_with_intervals, read_battles,
    sandwich_intervals, style_control, style_features, STYLE_ELEMENTS)

sys.path.insert(0, str(Path(__file__).parent))
from pref_fuzz import fuzz_battles  # noqa: E402

D = Path(__file__).parent / 'data' / 'preferences'
L = D / 'llmfao'
FILES = {'humans': 'crowd-comparisons.csv', 'gpt4': 'gpt4-crowd-comparisons.csv', 'gpt3': 'gpt3-crowd-comparisons.csv'}
REF = json.loads((D / 'fastchat_llmfao.json').read_text())
TIE_CHECKS = json.loads((D / 'tie_model_checks.json').read_text())   # tools/make_bt_tie_checks.py


def battles(judge): return read_battles(L / FILES[judge])


def golden():
    g = {}
    for r in csv.DictReader(open(L / 'evalica-llmfao-golden.csv')): g.setdefault(r['algorithm'], {})[r['item']] = float(r['score'])
    return g


def maxdiff(ours, theirs): return max(abs(ours[m] - v) for m, v in theirs.items())


def test_bradley_terry_equals_evalica_golden():
    g, b = golden(), battles('humans')
    for fit in (bradley_terry_mm(b), bradley_terry_logistic(b)):
        assert max(abs(fit.scores[fit.models.index(m)] / v - 1) for m, v in g['bradley_terry'].items()) < 1e-12, fit.method
    assert maxdiff(online_elo(b), g['elo']) < 1e-9


def test_published_rank_correlations():
    import pandas as pd
    pub = json.loads((L / 'published_figures.json').read_text())
    def ranks(j):
        f = bradley_terry_mm(battles(j))
        return pd.Series(f.scores, index=f.models).rank(ascending=False).astype(int)
    rk = pd.DataFrame({j: ranks(j) for j in FILES}).corr()
    assert round(rk.loc['humans', 'gpt4'], 6) == 0.730918
    assert round(rk.loc['humans', 'gpt3'], 6) == 0.716610 and round(rk.loc['gpt4', 'gpt3'], 6) == 0.717136
    assert pub['humans']['models'][0]['model'] == 'GPT 4'


def test_choix_agrees():
    "choix 0.4.1's MM on decisive battles counted twice and each tie as one win each way: the same MLE."
    import choix
    b = battles('gpt3'); fit = bradley_terry_mm(b); ix = {m: k for k, m in enumerate(fit.models)}
    data = []
    for a, c, w in b:
        i, j = ix[a], ix[c]
        data += [(i, j), (i, j)] if w == 'model_a' else [(j, i), (j, i)] if w == 'model_b' else [(i, j), (j, i)]
    theta = choix.mm_pairwise(len(ix), data, tol=1e-12, max_iter=100_000)
    np.testing.assert_allclose(theta - theta.mean(), fit.theta, atol=1e-8)


@pytest.mark.parametrize('judge', list(FILES))
def test_fastchat_on_llmfao(judge):
    b = battles(judge)
    assert maxdiff(bradley_terry_fastchat(b).as_dict(), REF[judge]['compute_bt']) < 1e-9
    assert maxdiff(online_elo(b), REF[judge]['compute_elo']) < 1e-9


@pytest.mark.slow
@pytest.mark.parametrize('judge', list(FILES))
def test_fschat_on_llmfao(judge):
    assert maxdiff(bradley_terry_fschat(battles(judge)).as_dict(), REF[judge]['compute_elo_mle_with_tie']) < 1e-6


def test_fschat_penalty_and_early_stop_figures():
    "The why-differ figures: fschat's L2 penalty up to 1.44 Elo off the MLE, FastChat's early stop up to 0.065."
    b = battles('humans'); mle = bradley_terry_logistic(b).as_dict()
    assert round(maxdiff(mle, REF['humans']['compute_elo_mle_with_tie']), 2) == 1.44
    assert round(maxdiff(mle, REF['humans']['compute_bt']), 3) == 0.065


def _boot_check(b, ref, rounds):
    models, R = bootstrap_ratings(b, rounds=rounds, seed=0)
    Rref = np.array(ref['ratings'])[:rounds][:, [ref['models'].index(m) for m in models]]
    np.testing.assert_allclose(R, Rref, atol=1e-9, rtol=0)


def test_fastchat_bootstrap_first_replicates():
    _boot_check(battles('humans'), REF['humans']['compute_bootstrap_bt'], 3)


@pytest.mark.slow
def test_fastchat_bootstrap_all_replicates():
    _boot_check(battles('humans'), REF['humans']['compute_bootstrap_bt'], 100)


def test_style_control_equals_fastchat():
    cnt = {(r['prompt'], r['model']): [int(r[e]) for e in STYLE_ELEMENTS] for r in csv.DictReader(open(L / 'style_counts.csv'))}
    raw = list(csv.DictReader(open(L / 'crowd-comparisons.csv')))
    F = style_features([cnt[(r['prompt'], r['model_x'])] for r in raw], [cnt[(r['prompt'], r['model_y'])] for r in raw])
    st = style_control(battles('humans'), F)
    ref = REF['humans']['compute_style_control']
    assert maxdiff(st.as_dict(), ref['ratings']) < 1e-6
    np.testing.assert_allclose(st.extra['style_coefficients'], ref['params'], atol=1e-8)


# ------------------------------------------------------------------------------------------------ fuzzed battle sets
def _fuzz_cases():
    out = []
    for f in sorted(D.glob('fastchat_fuzz*.json.gz')):
        out += json.load(gzip.open(f, 'rt'))['cases']
    return sorted(out, key=lambda c: c['case'])


CASES = _fuzz_cases()


def _check_case(c):
    b = fuzz_battles(c['case'])
    assert maxdiff(bradley_terry_fastchat(b).as_dict(), c['compute_bt']) < 1e-6, c['case']
    assert maxdiff(online_elo(b), c['compute_elo']) < 1e-9, c['case']
    ref = c['compute_elo_mle_with_tie']
    if 'error' in ref:   # fschat raises (scikit-learn's ValueError); we raise MetricInputError saying why
        with pytest.raises(MetricInputError, match='both outcomes'): bradley_terry_fschat(b)
    else: assert maxdiff(bradley_terry_fschat(b).as_dict(), ref) < 1e-6, c['case']
    if 'compute_bootstrap_bt' in c: _boot_check(b, c['compute_bootstrap_bt'], 20)
    # our exact MLE: the two solvers agree where it exists, and the error says why where it does not
    try: mm = bradley_terry_mm(b)
    except MetricInputError as e:
        assert 'disconnected' in str(e) or 'never beat' in str(e)
        with pytest.raises(MetricInputError): bradley_terry_logistic(b)
        return
    np.testing.assert_allclose(bradley_terry_logistic(b).theta, mm.theta, atol=1e-8)


def test_fuzz_cases_stored():
    assert len(CASES) >= 5000 and [c['case'] for c in CASES[:60]] == list(range(60))


@pytest.mark.parametrize('case', range(0, 60))   # 10 of each kind (~9 s of CPU); the rest in the slow set
def test_fastchat_fuzz(case):
    _check_case(CASES[case])


@pytest.mark.slow
def test_fastchat_fuzz_all():
    assert len(CASES) >= 5000
    for c in CASES[60:]: _check_case(c)


# ------------------------------------------------------------------------------------------------ the rest
def test_ties_models_and_intervals():
    b = battles('gpt3')
    dv = bradley_terry_ties(b, model='davidson')
    nw = TIE_CHECKS['newman']['gpt3']   # evalica's newman, stored (tools/make_bt_tie_checks.py; rerun in the slow set)
    assert abs(dv.extra['nu'] - 2 * nw['v']) < 1e-5
    assert max(abs(dv.scores[dv.models.index(m)] / v - 1) for m, v in nw['scores'].items()) < 1e-5
    sw = sandwich_intervals(b, anchor='GPT 4', anchor_rating=1200)
    k = sw['models'].index('GPT 4')
    assert sw['se'][k] == 0 and abs(sw['ratings'][k] - 1200) < 1e-9
    assert ranks_with_intervals([3, 2, 1], [4, 2.5, 1.5]) == [1, 2, 3]
    lo, hi = percentile_intervals(np.arange(101.0)[:, None])
    assert (lo[0], hi[0]) == pytest.approx((2.5, 97.5), abs=1e-12)


@pytest.mark.slow
def test_tie_model_checks_reproduce():
    "tools/make_bt_tie_checks.py's stored figures (lesson 85 loads them): evalica's newman and statsmodels' GLM, rerun"
    sys.path.insert(0, str(Path(__file__).parent.parent / 'tools'))
    import make_bt_tie_checks as m
    got = m.compute()
    np.testing.assert_allclose(got['glm_worked_example'], TIE_CHECKS['glm_worked_example'], rtol=1e-12)
    for name, ref in TIE_CHECKS['newman'].items():
        assert abs(got['newman'][name]['v'] / ref['v'] - 1) < 1e-12, name
        assert got['newman'][name]['scores'].keys() == ref['scores'].keys()
        assert max(abs(got['newman'][name]['scores'][k] / v - 1) for k, v in ref['scores'].items()) < 1e-12, name


def test_bad_input():
    with pytest.raises(MetricInputError, match=r"`battles\[1\]`: unknown winner label 'draw'"):
        battles_records([('a', 'b', 'tie'), ('a', 'b', 'draw')])
    with pytest.raises(MetricInputError, match="against itself"): battles_records([('a', 'a', 'tie')])
    with pytest.raises(MetricInputError, match="empty"): battles_records([])
    with pytest.raises(MetricInputError, match="disconnected"): bradley_terry_mm([('a', 'b', 'tie'), ('c', 'd', 'tie')])
    with pytest.raises(MetricInputError, match="'b' never beat"): bradley_terry_logistic([('a', 'b', 'model_a')])
    with pytest.raises(MetricInputError, match="no tie"): bradley_terry_ties([('a', 'b', 'model_a'), ('b', 'a', 'model_a')])
    with pytest.raises(MetricInputError, match="`scheme`"): bootstrap_ratings([('a', 'b', 'tie')], scheme='x')
    b = [('a', 'b', 'model_a')]; bradley_terry_fastchat(b); assert b == [('a', 'b', 'model_a')]   # input not modified


def _cli(*args):
    return subprocess.run([sys.executable, '-m', 'textmetrics_edu', 'rank', *map(str, args)], capture_output=True, text=True, timeout=600)


def test_cli_rank(tmp_path, capsys):
    r = _cli(L / 'gpt3-crowd-comparisons.csv', '--format', 'json')   # once as a real process
    assert r.returncode == 0, r.stderr
    t = json.loads(r.stdout)
    assert t['battles'] == 2139 and t['models'] == 59 and set(t['rows'][0]) == {'model', 'rank', 'score', 'rating', 'lower', 'upper', 'battles'}
    fit = bradley_terry_logistic(battles('gpt3'))
    assert abs(t['rows'][0]['rating'] - max(fit.ratings)) < 1e-9 and abs(sum(x['score'] for x in t['rows']) - 1) < 1e-12
    from textmetrics_edu.app.cli import main
    (tmp_path / 'b.jsonl').write_text('{"model_a": "x", "model_b": "y", "winner": "model_a"}\n{"model_a": "y", "model_b": "x", "winner": "model_a"}\n')
    assert main(['rank', str(tmp_path / 'b.jsonl'), '--ci', 'bootstrap', '--rounds', '5']) == 0
    out = capsys.readouterr().out
    assert 'rank' in out and ' x ' in out
    bad = {'label.csv': ('model_a,model_b,winner\nx,y,model_a\nx,y,left\n', "label.csv:3: unknown winner label 'left'"),
           'self.jsonl': ('{"left": "x", "right": "x", "winner": "tie"}\n', "self.jsonl:1: a battle of 'x' against itself"),
           'empty.csv': ('', 'empty.csv: no battles'),
           'cols.csv': ('a,b,c\n1,2,3\n', 'needs columns model_a, model_b, winner'),
           'split.csv': ('model_a,model_b,winner\nx,y,tie\nz,w,tie\n', 'split.csv: the comparison graph is disconnected')}
    for name, (text, msg) in bad.items():
        (tmp_path / name).write_text(text)
        assert main(['rank', str(tmp_path / name)]) == 2, name
        assert msg in capsys.readouterr().err, name
    assert main(['rank', str(tmp_path / 'b.jsonl'), '--anchor', 'nope']) == 2
    assert "--anchor 'nope' is not a model" in capsys.readouterr().err


def test_arena_rank_agrees_to_its_optimiser_tolerance():
    """arena-rank 0.1.1 (LMArena's current method; its own venv, tools/arena_rank_reference.py) on the LLMFAO crowd
    battles: its ratings equal our MLE (`sandwich_intervals`) within 0.02 Elo points and FastChat's L-BFGS convention
    within 0.1, its sandwich standard errors ours within 0.5 % (it stops at ftol/gtol 1e-9 and adds a ridge of
    1e-5 x battles to the Hessian where we take the pseudo-inverse)."""
    from textmetrics_edu.stats.preferences import (battles_records, bradley_terry_fastchat, read_battles,
                                                   sandwich_intervals)
    a = json.loads((D / 'arena_rank_llmfao.json').read_text())
    recs = battles_records(read_battles(D / 'llmfao' / 'crowd-comparisons.csv'))
    s = sandwich_intervals(recs, initial=1000.0)
    ours = dict(zip(s['models'], zip(s['ratings'], s['se'])))
    fc = bradley_terry_fastchat(recs, initial=1000.0)
    assert sorted(a['competitors']) == sorted(ours)
    for m, r, v in zip(a['competitors'], a['ratings'], a['variances']):
        assert abs(r - ours[m][0]) < 0.02 and abs(r - fc[m]) < 0.1, m
        assert abs(v ** 0.5 - ours[m][1]) < 0.005 * ours[m][1], m
