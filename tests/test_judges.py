"""LLM-judge agreement against FastChat's compute_agreement.py output on the shipped votes, kappa against scikit-learn,
LLMFAO's published rank correlations (tests/data/judges/README.md says how the data were made)."""
import csv
import json
import random
import re
from pathlib import Path

import pytest
from sklearn.metrics import cohen_kappa_score

from textmetrics_edu.core import MetricInputError
from textmetrics_edu.kernels.meta_eval_python import pearson_r
from textmetrics_edu.stats.preferences import LLMFAO_WINNERS, bradley_terry_mm
from textmetrics_edu.stats.judges import (canonical_vote, cohen_kappa, flip_rate, human_human_agreement,
                                          judge_human_agreement, left_win_rate, longer_wins_rate, truncated_ranks)

D = Path(__file__).parent / 'data' / 'judges'
ROWS = list(csv.DictReader(open(D / 'votes.tsv'), delimiter='\t'))
GPT4 = {(r['question_id'], r['model_a'], r['model_b'], r['gpt4_pair_winner'], int(r['turn'])) for r in ROWS}
EXPERTS = [(r['question_id'], r['model_a'], r['model_b'], r['human_winner'], int(r['turn'])) for r in ROWS
           if r['judge'].startswith('expert')]


def _fastchat(name):
    return [(int(a), int(t)) for t, a in re.findall(r'#total: (\d+), #agree: (\d+)', (D / name).read_text())]


def test_judge_human_agreement_equals_compute_agreement():
    ours = [(x.agree, x.total) for turn in (1, 2) for ties in (True, False)
            for x in [judge_human_agreement(GPT4, EXPERTS, ties=ties)[turn]]]
    assert ours == _fastchat('fastchat_compute_agreement_gpt4-pair_human.txt') == [(465, 698), (373, 444), (470, 687), (388, 456)]


def test_human_human_agreement_equals_compute_agreement():
    ours = [(x.agree, x.total) for turn in (1, 2) for ties in (True, False)
            for x in [human_human_agreement(EXPERTS, ties=ties)[turn]]]
    assert ours == _fastchat('fastchat_compute_agreement_human_human.txt')


def test_order_of_a_pair_does_not_matter():
    swapped = [(q, b, a, {'model_a': 'model_b', 'model_b': 'model_a'}.get(w, w), t) for q, a, b, w, t in EXPERTS]
    assert judge_human_agreement(GPT4, swapped) == judge_human_agreement(GPT4, EXPERTS)


def test_bad_votes():
    with pytest.raises(MetricInputError, match='against itself'): canonical_vote(1, 'x', 'x', 'tie')
    with pytest.raises(MetricInputError, match='`winner`'): canonical_vote(1, 'x', 'y', 'left')
    with pytest.raises(MetricInputError, match='two verdicts'):
        judge_human_agreement([(1, 'x', 'y', 'tie', 1), (1, 'y', 'x', 'model_a', 1)], [])


def test_kappa_equals_sklearn_on_random_labels():
    rng = random.Random(0)
    for _ in range(200):
        n = rng.randint(2, 40); labs = 'ABC'[:rng.randint(2, 3)]
        a = [rng.choice(labs) for _ in range(n)]; b = [x if rng.random() < 0.5 else rng.choice(labs) for x in a]
        if len(set(a)) == len(set(b)) == 1 and a[0] == b[0]: continue
        assert cohen_kappa(a, b) == pytest.approx(cohen_kappa_score(a, b), abs=1e-12)
    with pytest.raises(MetricInputError, match='same length'): cohen_kappa(['a'], [])


def test_biases():
    assert flip_rate(['tie (inconsistent)', 'model_a', 'tie', 'model_b']) == 0.25
    assert left_win_rate(['left', 'right', 'tie', 'left']) == pytest.approx(2 / 3)
    assert longer_wins_rate(['left', 'right', 'tie', 'left'], [10, 10, 5, 3], [5, 20, 1, 3]) == (1.0, 2)
    with pytest.raises(MetricInputError, match="got 'x'"): left_win_rate(['x'])
    with pytest.raises(MetricInputError, match='no decided'): longer_wins_rate(['tie'], [1], [2])


def test_truncated_ranks_as_pandas():
    import pandas as pd
    s = {'a': 0.3, 'b': 0.2, 'c': 0.2, 'd': 0.1, 'e': 0.2}
    assert truncated_ranks(s) == pd.Series(s).rank(ascending=False).astype(int).to_dict()


def test_llmfao_rank_correlations_published():
    pub = json.loads((D / 'published_figures.json').read_text())
    files = {'humans': 'crowd-comparisons.csv', 'gpt4': 'gpt4-crowd-comparisons.csv', 'gpt3': 'gpt3-crowd-comparisons.csv'}
    ranks = {}
    for k, f in files.items():
        fit = bradley_terry_mm([(r['left'], r['right'], LLMFAO_WINNERS[r['winner']]) for r in csv.DictReader(open(D / f))])
        ranks[k] = truncated_ranks(dict(zip(fit.models, fit.scores)))
        assert ranks[k] == {m['model']: m['rank'] for m in pub[k]['models']}
    ms = sorted(ranks['humans'])
    r = lambda a, b: round(pearson_r([ranks[a][m] for m in ms], [ranks[b][m] for m in ms]), 6)
    assert (r('humans', 'gpt4'), r('humans', 'gpt3'), r('gpt4', 'gpt3')) == (0.730918, 0.71661, 0.717136)


def test_agreement_explorer_on_random_verdicts():
    "The lesson's live explorer: its agreement, kappa and flip rate equal an independent count (kappa: scikit-learn's)."
    from textmetrics_edu.views.judges import JUDGE_ORDERS, render_judge_agreement_html
    from textmetrics_edu.stats.judges import two_order_verdict
    rng = random.Random(1)
    for case in range(60):
        lines = [[rng.choice(('a', 'b', 'tie')) for _ in range(3)] for _ in range(rng.randint(1, 12))]
        orders = JUDGE_ORDERS[case % 2]
        out = render_judge_agreement_html('\n'.join(' '.join(x) for x in lines), orders)
        lab = {'a': 'model_a', 'b': 'model_b', 'tie': 'tie'}
        judge = [two_order_verdict(lab[f], lab[s]) if orders == JUDGE_ORDERS[0] else lab[f] for f, s, _ in lines]
        people = [lab[p] for *_, p in lines]
        agree = sum(('tie' in j and p == 'tie') or j == p for j, p in zip(judge, people))
        assert f'agreement with ties = {agree}/{len(lines)} = ' in out, (case, lines)
        kept = [(j, p) for j, p in zip(judge, people) if 'tie' not in j and p != 'tie']
        assert (f'without ties = {sum(j == p for j, p in kept)}/{len(kept)} = ' if kept else 'no pair without a tie') in out
        merged = ['tie' if 'tie' in j else j for j in judge]
        if len(set(merged) | set(people)) > 1:
            shown = float(re.search(r"Cohen's kappa = (-?[0-9.]+)", out).group(1))
            assert abs(shown - cohen_kappa_score(merged, people)) <= 5e-4 + 1e-12, (case, lines)
        if orders == JUDGE_ORDERS[0]:
            assert f"flip rate = {sum(f != s for f, s, _ in lines) / len(lines):.1%}" in out
    assert 'line 2: unknown verdict' in render_judge_agreement_html('a a a\na left a')
    assert 'tme-error' in render_judge_agreement_html('a a a', orders='twice')
