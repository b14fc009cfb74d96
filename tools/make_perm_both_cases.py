#!/usr/bin/env python
"""Fuzzed PERM-BOTH cases with mt-metrics-eval's p-values: tests/data/meta_eval/perm_both_mt_metrics_eval.json.

Run in a venv holding google-research/mt-metrics-eval (installed from a checkout of the public repository, outside this
one):  python tools/make_perm_both_cases.py   (writes /tmp/pb/cases.json; copy it to the path above)

300 seeds: 3-5 systems x 4-8 items, human scores 0-3 (many ties), metric scores at one decimal; PERM-BOTH with
scipy's Kendall tau averaged by item, k = 200, numpy's global seed set to the case's seed (mt-metrics-eval draws with
np.random.binomial; our perm_both with RandomState(seed), the same stream). Before issue 21's fix (human first in
scipy.stats.kendalltau) 3 of the 300 p-values differed (0.495 vs 0.485, 0.435 vs 0.43, 0.515 vs 0.51).
"""
import json, warnings, numpy as np, scipy.stats
warnings.simplefilter('ignore')
from mt_metrics_eval import stats
cases = []
for seed in range(300):
    rng = np.random.default_rng(seed)
    ns, ni = int(rng.integers(3, 6)), int(rng.integers(4, 9))
    h = rng.integers(0, 4, (ns, ni)).astype(float)
    a = np.round(rng.uniform(0, 1, (ns, ni)), 1); b = np.round(rng.uniform(0, 1, (ns, ni)), 1)
    gold = h.ravel().tolist(); ma = a.ravel().tolist(); mb = b.ravel().tolist()
    c1 = stats.Correlation(ns, gold, mb); c2 = stats.Correlation(ns, gold, ma)   # p for "metric2 (A) better"
    np.random.seed(seed)
    p, delta, k, _ = stats.PermutationSigDiff(c1, c2, scipy.stats.kendalltau, 'item', k=200)
    cases.append(dict(seed=seed, systems=ns, items=ni, human=h.tolist(), a=a.tolist(), b=b.tolist(), p=p, delta=delta))
json.dump(cases, open('/tmp/pb/cases.json', 'w'))
print(len(cases))
