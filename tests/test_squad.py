"""SQuAD EM/F1: exact against the official evaluate-v1.1.py / evaluate-v2.0.py (outputs stored: the scripts are not
committed) and torchmetrics 1.9.0's SQuAD (outputs stored: torch is not in the dev env), on real leaderboard
predictions and on 6,000 seeded fuzz cases (tests/data/squad/README.md says how each file was made)."""
import gzip
import json
import sys
from pathlib import Path

import pytest

from textmetrics_edu.core import MetricInputError, TextmetricsWarning
from textmetrics_edu.metrics.squad import (SQUAD_CONVENTIONS, corpus_squad, sentence_squad, squad_evaluate, squad_examples,
                                           squad_question_scores, squad_statistics)

D = Path(__file__).parent / 'data' / 'squad'
sys.path.insert(0, str(D))
from fuzz_cases import cases  # noqa: E402

OFFICIAL = json.load(gzip.open(D / 'official_outputs.json.gz', 'rt', encoding='utf-8'))
TM = json.load(gzip.open(D / 'torchmetrics_outputs.json.gz', 'rt', encoding='utf-8'))
SCRIPT = json.loads((D / 'script_outputs.json').read_text())
FUZZ = cases(OFFICIAL['fuzz_n'], OFFICIAL['fuzz_seed'])


def data(v): return json.loads((D / f'dev-v{v}-slice.json').read_text())
def preds(v): return json.loads((D / f'predictions-v{v}.json').read_text())


@pytest.mark.parametrize('v', ['1.1', '2.0'])
def test_corpus_scores_equal_the_official_scripts_bit_for_bit(v):
    d = data(v)
    for system, p in preds(v).items():
        assert squad_evaluate(d, p, convention=f'v{v}').official() == SCRIPT[f'v{v}'][system], system


def test_no_answer_probabilities_and_best_thresholds_equal_evaluate_v2():
    na = json.loads((D / 'na_probs-v2.0.json').read_text())
    script = json.loads((D / 'script_outputs_na_prob.json').read_text())
    for system, p in preds('2.0').items():
        for t in ('1.0', '0.5'):
            assert squad_evaluate(data('2.0'), p, na_probs=na[system], na_prob_thresh=float(t)).official() == script[system][t]
    with pytest.raises(MetricInputError, match='exactly the question ids'):
        squad_evaluate(data('2.0'), p, na_probs={'x': 0.5})


@pytest.mark.parametrize('v', ['1.1', '2.0'])
def test_per_question_scores_equal_the_official_scripts(v):
    ex = squad_examples(data(v))
    for system, p in preds(v).items():
        ours = [list(squad_question_scores(p[q], g, f'v{v}')) for q, g in ex]
        assert ours == OFFICIAL[f'real_v{v}'][system], system


def test_protocol_corpus_function_equals_squad_evaluate():
    d = data('2.0')
    ex = squad_examples(d)
    for system, p in preds('2.0').items():
        r = corpus_squad([p[q] for q, _ in ex], [list(g) for q, g in ex])
        assert 100.0 * r.stats.f1 / r.n == SCRIPT['v2.0'][system]['f1']
        assert abs(100 * r.f1 - SCRIPT['v2.0'][system]['f1']) < 1e-12
        assert r.official() == SCRIPT['v2.0'][system]


@pytest.mark.parametrize('v', ['1.1', '2.0'])
def test_fuzz_6000_cases_equal_the_official_scripts(v):
    ours = [list(squad_question_scores(p, g, f'v{v}')) for p, g in FUZZ]
    theirs = OFFICIAL[f'fuzz_v{v}']
    bad = [(FUZZ[i], ours[i], theirs[i]) for i in range(len(FUZZ)) if ours[i] != theirs[i]]
    assert len(FUZZ) >= 5000 and bad == []


def test_fuzz_6000_cases_equal_torchmetrics_to_float32():
    ours = [squad_question_scores(p, g, 'torchmetrics') for p, g in FUZZ]
    assert len(TM['fuzz']) == len(FUZZ) >= 5000
    assert all(100 * em == t[0] for (em, _), t in zip(ours, TM['fuzz']))
    assert max(abs(100 * f1 - t[1]) for (_, f1), t in zip(ours, TM['fuzz'])) < 1e-5


def test_real_data_equals_torchmetrics_to_float32():
    d = data('1.1')
    for system, p in preds('1.1').items():
        r = squad_evaluate(d, p, convention='torchmetrics')
        t = TM['real_v1.1'][system]
        assert abs(100 * r.exact_match - t['exact_match']) < 5e-5 and abs(100 * r.f1 - t['f1']) < 5e-5


def test_the_conventions_really_differ_on_the_fuzz_cases():
    by = {c: [squad_question_scores(p, g, c) for p, g in FUZZ[:2000]] for c in SQUAD_CONVENTIONS}
    assert by['v1.1'] != by['v2.0'] != by['torchmetrics'] != by['v1.1']


def test_glue_record_is_squad_v11():
    "ReCoRD (SuperGLUE) scores answers with SQuAD v1.1's rules: the mean of `squad_question_scores(..., 'v1.1')`."
    from textmetrics_edu.metrics.glue import task_metrics
    P, G = [p for p, _ in FUZZ[:2000]], [list(g) for _, g in FUZZ[:2000]]
    m = dict(task_metrics('record', P, G, benchmark='superglue').metrics)
    s = [squad_question_scores(p, g, 'v1.1') for p, g in zip(P, G)]
    assert m == {'f1': sum(f for _, f in s) / len(s), 'em': sum(e for e, _ in s) / len(s)}


def test_missing_predictions_follow_each_script():
    d = data('1.1')
    p = dict(preds('1.1')['BERT (ensemble) (Google AI Language)'])
    p.pop(next(iter(p)))
    with pytest.warns(TextmetricsWarning, match='receive score 0'):
        r = squad_evaluate(d, p, convention='v1.1')
    assert r.n == 293
    with pytest.raises(MetricInputError, match='lacks 1 question'): squad_evaluate(d, p)


def test_bad_input():
    with pytest.raises(MetricInputError, match='bare str'): corpus_squad('x', ['x'])
    with pytest.raises(MetricInputError, match='convention'): corpus_squad(['x'], ['x'], convention='v3')
    with pytest.raises(MetricInputError, match='refs'): sentence_squad('x', [])
    with pytest.raises(MetricInputError, match='SQuAD layout'): squad_evaluate({'data': [{'qas': []}]}, {})
    with pytest.raises(MetricInputError, match='predictions'): squad_evaluate(data('1.1'), ['x'])
    hyps, refs = ['a', 'b'], [['a'], ['b', 'c']]
    corpus_squad(hyps, refs)
    assert hyps == ['a', 'b'] and refs == [['a'], ['b', 'c']]   # inputs untouched


def test_statistics_add_up_and_significance_runs():
    from textmetrics_edu.stats.significance import paired_test
    st = [squad_statistics(p, g) for p, g in FUZZ[:50]]
    total = st[0]
    for s in st[1:]: total = total + s
    r = corpus_squad([p for p, _ in FUZZ[:50]], [g for _, g in FUZZ[:50]])
    assert r.stats == total
    res = paired_test([p for p, _ in FUZZ[:40]], [g[0] for _, g in FUZZ[:40]], [g for _, g in FUZZ[:40]],
                      metric='squad', test='bs', n_samples=50, seed=3)
    assert 0 <= res.p_value <= 1


def test_cli(tmp_path, capsys):
    from textmetrics_edu.app.cli import main
    hyps = ['the Denver Broncos.', 'Broncos of Denver', '']
    r1, r2 = ['Denver Broncos', 'Denver Broncos', ''], ['Broncos', 'Carolina', '']
    for name, lines in [('h', hyps), ('r1', r1), ('r2', r2)]: (tmp_path / f'{name}.txt').write_text('\n'.join(lines) + '\n')
    assert main(['score', str(tmp_path / 'h.txt'), '-r', str(tmp_path / 'r1.txt'), str(tmp_path / 'r2.txt'),
                 '--metrics', 'squad', '--format', 'json', '--squad-measure', 'exact_match']) == 0
    m = json.loads(capsys.readouterr().out)['systems'][0]['metrics']
    assert m['squad']['score'] == float(corpus_squad(hyps, [list(x) for x in zip(r1, r2)], measure='exact_match'))


def test_renderer_escapes_and_explains():
    from textmetrics_edu.views.squad import render_squad_html
    h = render_squad_html('<i>Broncos</i> of Denver', ['Denver Broncos', 'the'])
    assert '<i>' not in h and '&lt;i&gt;' in h and 'dropped' in h and 'F1 = 0.4000' in h  # 'ibroncosi': the tags' letters stay
