#!/usr/bin/env python
"""The standard tools' figures lesson 85 checks itself against, stored: tests/data/preferences/tie_model_checks.json.

    .venv/bin/python tools/make_bt_tie_checks.py            # writes the file (about 20 s: evalica's newman to 1e-15)
    .venv/bin/python tools/make_bt_tie_checks.py --check    # recomputes and compares with the stored file

Two checks were too slow to run in the lesson (evalica's import and its `newman` to tolerance 1e-15 on 8,931 votes: ~9 s
of the lesson's 13; statsmodels' import: ~4 s), so this script runs them with the locked environment (.venv) and the
lesson loads their outputs; `tests/test_preferences.py::test_tie_model_checks_reproduce` (slow set) reruns this script's
computation and requires the stored file.

- `glm_worked_example`: statsmodels' `GLM` (binomial family, frequency weights, `fit(tol=1e-14)`) on the lesson's
  worked example (three models, six battles, ties as half wins), aggregated per pair, C's column dropped: the
  coefficients are theta_A - theta_C and theta_B - theta_C.
- `newman`: evalica's `newman` (Newman 2023's iteration for Davidson's tie model; `tolerance=1e-15, limit=100_000`) on
  LLMFAO's crowd votes (`humans`) and GPT-3's verdicts (`gpt3`): its tie parameter `v` (Davidson's nu = 2v) and the
  scores normalised to sum 1.
"""
import csv
import json
import sys
from importlib.metadata import version
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
D = ROOT / 'tests' / 'data' / 'preferences'
OUT = D / 'tie_model_checks.json'
WORKED_EXAMPLE = [('A', 'B', 'model_a'), ('A', 'B', 'model_a'), ('B', 'A', 'model_a'),
                  ('B', 'C', 'model_a'), ('C', 'B', 'tie'), ('A', 'C', 'model_a')]   # lesson 85's `ex`
FILES = {'humans': 'crowd-comparisons.csv', 'gpt3': 'gpt3-crowd-comparisons.csv'}
LLMFAO = {'left': 'model_a', 'right': 'model_b', 'tie': 'tie'}


def glm_worked_example() -> list:
    import numpy as np
    import statsmodels.api as sm
    ix = {'A': 0, 'B': 1, 'C': 2}
    W = [[0.0] * 3 for _ in range(3)]   # W[i][j]: wins of i over j, a tie half each
    for a, b, w in WORKED_EXAMPLE:
        i, j = ix[a], ix[b]
        if w == 'model_a': W[i][j] += 1
        elif w == 'model_b': W[j][i] += 1
        else: W[i][j] += 0.5; W[j][i] += 0.5
    rows, ys, ws = [], [], []
    for i, j in [(0, 1), (1, 2), (0, 2)]:
        x = [0.0, 0.0, 0.0]; x[i], x[j] = 1.0, -1.0
        rows.append(x[:2]); ws.append(W[i][j] + W[j][i]); ys.append(W[i][j] / ws[-1])
    glm = sm.GLM(np.array(ys), np.array(rows), family=sm.families.Binomial(), freq_weights=np.array(ws)).fit(tol=1e-14)
    return [float(x) for x in glm.params]


def newman(name: str) -> dict:
    import evalica
    rows = list(csv.DictReader(open(D / 'llmfao' / FILES[name])))
    w = {'model_a': evalica.Winner.X, 'model_b': evalica.Winner.Y, 'tie': evalica.Winner.Draw}
    nw = evalica.newman([r['left'] for r in rows], [r['right'] for r in rows], [w[LLMFAO[r['winner']]] for r in rows],
                        tolerance=1e-15, limit=100_000)
    s = nw.scores / nw.scores.sum()
    return dict(v=float(nw.v), scores={m: float(x) for m, x in s.items()})


def compute() -> dict:
    return dict(made_by='tools/make_bt_tie_checks.py',
                versions={p: version(p) for p in ('evalica', 'statsmodels', 'numpy', 'scipy')},
                glm_worked_example=glm_worked_example(), newman={n: newman(n) for n in FILES})


if __name__ == '__main__':
    got = compute()
    if '--check' in sys.argv:
        ref = json.loads(OUT.read_text())
        assert got == ref, 'differs from the stored file'
        print('equal to', OUT.relative_to(ROOT))
    else:
        OUT.write_text(json.dumps(got, indent=1) + '\n')
        print('wrote', OUT.relative_to(ROOT))
