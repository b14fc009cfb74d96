#!/usr/bin/env python
"""Fuzzed tie-calibration cases with mt-metrics-eval's answers: tests/data/meta_eval/tie_calibration_mt_metrics_eval.json.

Run in a venv holding google-research/mt-metrics-eval (not on PyPI: `pip install .` in a checkout of the public
repository) and this package (`pip install -e .`):

    python tools/make_tie_calibration_cases.py tests/data/meta_eval/tie_calibration_mt_metrics_eval.json

Scores are coarse (one or two decimals, integers for humans) so that many metric differences are equal and the
accuracy curve has exact ties. Of 12,000 cases (6,000 seeds x acc23/tau23), 690 had the best epsilon decided by
rounding (the cumulative-sum curve picked another threshold than mt-metrics-eval's running total) before
`_sequential_curve`; kept: the first 150 of those and the first 50 others.
"""
import json
import sys

import numpy as np
from mt_metrics_eval import tau_optimization as T


def cases(n_seeds=6000):
    for seed in range(n_seeds):
        rng = np.random.default_rng(seed)
        nr, nc = int(rng.integers(1, 6)), int(rng.integers(2, 8))
        m = np.round(rng.uniform(0, 1, (nr, nc)) * rng.choice([1, 3, 7]), int(rng.integers(1, 3))).tolist()
        h = rng.integers(0, 4, (nr, nc)).astype(float).tolist()
        for v in ('acc23', '23'):
            fn = T.TauSufficientStats.acc_23 if v == 'acc23' else T.TauSufficientStats.tau_23
            r = T.tau_optimization(m, h, fn)
            yield dict(seed=seed, variant=v, metric=m, human=h, best=r.best_tau, threshold=r.best_threshold)


if __name__ == '__main__':
    from textmetrics_edu.stats.correlations import pair_arrays, best_threshold
    def cumsum_threshold(c):  # the fast curve alone (no near-tie rule): which cases rounding decides
        diffs, good, good_tie, inv, row_of, n_rows, _ = pair_arrays(list(zip(c['metric'], c['human'])))
        scale = 1.0 if c['variant'] == 'acc23' else 2.0
        start = np.bincount(row_of, good * inv).sum() / n_rows
        if c['variant'] == '23': start = 2 * start - 1
        order = np.argsort(diffs, kind='stable')
        curve = start + np.cumsum(((good_tie - good) * inv * scale)[order]) / n_rows
        ths, vals = best_threshold(diffs[order], curve, start)
        return float(ths[int(np.nanargmax(vals))])
    all_cases = list(cases())
    hard = [c for c in all_cases if cumsum_threshold(c) != c['threshold']]
    easy = [c for c in all_cases if cumsum_threshold(c) == c['threshold']]
    print(f'{len(all_cases)} cases, {len(hard)} decided by rounding')
    json.dump(hard[:150] + easy[:50], open(sys.argv[1], 'w'), separators=(',', ':'))
