"""AlpacaEval win rates against the shipped leaderboard and alpaca_eval 0.6.6's own outputs; the LC GLM fit against
alpaca_eval's; the `winrate` command and its errors (tests/data/alpaca_eval/README.md says how the data were made)."""
import csv
import json
import math
from pathlib import Path

import pytest

from textmetrics_edu.app.cli import main
from textmetrics_edu.core import MetricInputError
from textmetrics_edu.stats.alpaca_eval import (annotations_win_rate, fit_length_controlled, lc_win_rate, read_annotations,
                                               win_rate)
from textmetrics_edu.views.alpaca_eval import render_win_rate_html

D = Path(__file__).parent / 'data' / 'alpaca_eval'
BOARD = {r['']: r for r in csv.DictReader(open(D / 'weighted_alpaca_eval_gpt4_turbo_leaderboard.csv'))}
REF = json.loads((D / 'alpaca_eval_outputs.json').read_text())
MODELS = sorted(p.stem for p in (D / 'annotations').glob('*.jsonl'))
COUNTS = ('n_wins', 'n_wins_base', 'n_draws', 'n_total')


def _ann(m): return read_annotations(D / 'annotations' / f'{m}.jsonl')


def test_twenty_models():
    assert len(MODELS) == 20 and all(m in BOARD for m in MODELS)


@pytest.mark.parametrize('m', MODELS)
def test_win_rates_equal_leaderboard_and_alpaca_eval(m):
    r = annotations_win_rate(_ann(m))
    for k in ('win_rate', 'standard_error', 'discrete_win_rate'):
        assert abs(getattr(r, k) - float(BOARD[m][k])) < 1e-9, k
        assert abs(getattr(r, k) - REF['models'][m][k]) < 1e-12, k   # the same preferences, the same pandas arithmetic
    assert [getattr(r, k) for k in COUNTS] == [int(BOARD[m][k]) for k in COUNTS] == [REF['models'][m][k] for k in COUNTS]
    assert r.score == pytest.approx(r.win_rate / 100, abs=1e-15)


def _fit(m, name):
    a = _ann(m)
    diff = [0.0] * len(a) if name == 'zero' else [math.sin(i) for i in range(len(a))]
    return fit_length_controlled([x.preference for x in a], [x.len_output_1 for x in a], [x.len_output_2 for x in a], diff)


def _check_fit(m, name):
    r, e = _fit(m, name), REF['models'][m][f'lc_noreg_{name}']
    assert abs(r.length_controlled_winrate - e['length_controlled_winrate']) < 1e-9
    assert abs(r.lc_standard_error - e['lc_standard_error']) < 1e-9
    w = e['weights']
    assert (r.phi, r.gamma, r.theta) == pytest.approx((w['np.tanh(std_delta_len)'], w['instruction_difficulty'],
                                                       w['not_gamed_baseline.astype(float)']), abs=1e-9)


def test_lc_fit_equals_alpaca_eval():
    _check_fit('claude-2', 'sin')


@pytest.mark.slow
@pytest.mark.parametrize('m', [m for m in MODELS if m != 'gpt4_1106_preview'])
@pytest.mark.parametrize('name', ['zero', 'sin'])
def test_lc_fit_equals_alpaca_eval_all_slow(m, name):
    _check_fit(m, name)


def test_lc_from_published_weights():
    w = {r['']: r for r in csv.DictReader(open(D / 'length_controlled_v1_baseline_gpt4_1106_preview.csv'))}['NullModel']
    th, ga = float(w['not_gamed_baseline.astype(float)']), float(w['instruction_difficulty'])
    assert lc_win_rate(th, ga, [0.0] * 5) == pytest.approx(100 / (1 + math.exp(-th)), abs=1e-12)


def test_preference_conventions():
    r = win_rate([0, 1.5, 2, 1, None, float('nan')])
    assert (r.n_draws, r.n_wins, r.n_wins_base, r.n_total, r.n_missing) == (2, 1, 1, 4, 2)
    assert r.win_rate == 50.0 and r.discrete_win_rate == 50.0
    assert math.isnan(win_rate([1.7]).standard_error)
    for bad, msg in (([2.5], 'must be in [1, 2]'), ([True], 'must be a number'), (['1'], 'must be a number'),
                     ([], 'no preference'), ([None], 'no preference'), ('12', 'sequence')):
        with pytest.raises(MetricInputError, match=msg.replace('[', r'\[').replace(']', r'\]')): win_rate(bad)


def test_cli_text_and_json(capsys):
    f = D / 'annotations' / 'NullModel.jsonl'
    assert main(['winrate', str(f)]) == 0
    out = capsys.readouterr().out
    assert 'example vs gpt4_1106_preview: 805 preferences' in out and 'win rate             76.92 %' in out
    assert main(['winrate', str(f), '--format', 'json']) == 0
    j = json.loads(capsys.readouterr().out)
    assert j['win_rate'] == pytest.approx(float(BOARD['NullModel']['win_rate']), abs=1e-9)
    assert j['weights_of'] == 'example'   # NullModel's generator name: another row of the published weights
    assert main(['winrate', str(f), '--model', 'NullModel', '--format', 'json']) == 0
    assert json.loads(capsys.readouterr().out)['length_controlled_winrate_estimate'] == pytest.approx(87.05, abs=0.01)
    assert main(['winrate', str(f), '--model', 'nope']) != 0
    assert "--model: no GLM weights for 'nope'" in capsys.readouterr().err
    assert main(['winrate', str(D / 'annotations' / 'claude-2.jsonl'), '--format', 'json']) == 0
    assert json.loads(capsys.readouterr().out)['length_controlled_winrate_estimate'] == pytest.approx(23.48, abs=0.01)


def test_cli_reads_alpaca_eval_json_list(tmp_path, capsys):
    recs = [dict(instruction='i', output_1='aaa', output_2='bb', generator_1='base', generator_2='m', preference=p)
            for p in (1.9, 1.2, 1.5, 1.0)]
    f = tmp_path / 'annotations.json'; f.write_text(json.dumps(recs))
    assert main(['winrate', str(f), '--format', 'json']) == 0
    j = json.loads(capsys.readouterr().out)
    assert j['win_rate'] == pytest.approx(40.0) and j['discrete_win_rate'] == 37.5 and j['model'] == 'm'


@pytest.mark.parametrize('content, msg', [
    ('', 'no annotation records'),
    ('[]', 'no annotation records'),
    ('[{"generator_1": "a", "generator_2": "b"}]', "record 1: missing 'preference'"),
    ('[{"generator_1": "a", "generator_2": "b", "preference": 1}, {"generator_1": "a", "generator_2": "b", "preference": 7}]',
     "record 2: 'preference' must be in [1, 2]"),
    ('{"generator_1": "a", "generator_2": "b", "preference": 1}\n\n{"generator_1": "a", "preference": 1}',
     "record 2 (line 3): missing 'generator_2'"),
    ('{"generator_1": "a", "generator_2": "b", "preference": 1}\n{oops', 'line 2: not valid JSON'),
    ('[{"generator_1": "a", "generator_2": "b", "preference": 1, "output_1": 5}]', "'output_1' must be text"),
    ('[{"generator_1": "a", "generator_2": "b", "preference": 1}, {"generator_1": "a", "generator_2": "c", "preference": 1}]',
     'one (generator_1, generator_2) pair'),
])
def test_cli_bad_input_names_file_and_record(tmp_path, capsys, content, msg):
    f = tmp_path / 'bad.json'; f.write_text(content)
    assert main(['winrate', str(f)]) != 0
    err = capsys.readouterr().err
    assert msg in err and ('bad.json' in err or 'pair' in msg)


def test_cli_missing_file(capsys):
    assert main(['winrate', '/nonexistent/annotations.json']) != 0
    assert '/nonexistent/annotations.json: cannot read' in capsys.readouterr().err


def test_explorer_renderer():
    out = render_win_rate_html([1.9, 1.2, 1.5, 1.0])
    assert 'win rate = 40.00 %' in out and 'discrete win rate = 37.50 %' in out and '<td>1/2</td>' in out
    assert "tme-error" in render_win_rate_html([0.5]) and 'tme-error' in render_win_rate_html([])
