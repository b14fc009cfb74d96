"""What `mauve-text` 0.4.0 itself returns for the MAUVE lesson's four comparisons (nbs/34_mauve.ipynb), stored so that
the lesson compares its live numbers with the tool without importing it (its import loads torch: seconds).

    .venv/bin/python tools/make_mauve_tool_outputs.py        (numpy, scikit-learn, faiss-cpu, mauve-text; ~10 s)

For each comparison (P = the human passages, Q = human_control, 1-gram, 2-gram, 3-gram; the stored all-MiniLM-L6-v2
features of tests/data/models/mauve/, cast to float32 as the lesson does): `mauve.compute_mauve(p_features=P,
q_features=Q, seed=25)`, its defaults otherwise. Writes tests/data/models/mauve/mauve_text_outputs.json: mauve,
mauve_star, frontier_integral, frontier_integral_star, num_buckets, p_hist, q_hist and the divergence curve, as
JSON numbers (Python's shortest repr: the float64 values exactly). `tests/test_mauve.py` (slow set) runs the tool
again and checks it equals the file; its default set compares the package with the tool live.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from textmetrics_edu.models.mauve import quiet_faiss_warnings  # noqa: E402

FEATS = ROOT / 'tests' / 'data' / 'models' / 'mauve'
OUT = FEATS / 'mauve_text_outputs.json'
SETS = ('human_control', '1-gram', '2-gram', '3-gram')
SEED = 25


def compute() -> dict:
    import faiss
    import mauve as mauve_text
    from importlib.metadata import version
    faiss.omp_set_num_threads(1)   # the same clusters with any thread count (tests/test_mauve.py); faster on a busy machine
    f = {k: np.load(FEATS / f'features_{k}.npy').astype(np.float32) for k in ('human',) + SETS}
    out = {'made_by': 'tools/make_mauve_tool_outputs.py', 'seed': SEED,
           'call': f'mauve.compute_mauve(p_features=human, q_features=<comparison>, seed={SEED})',
           'versions': {p: version(p) for p in ('mauve-text', 'faiss-cpu', 'scikit-learn', 'numpy')}, 'outputs': {}}
    for k in SETS:
        with quiet_faiss_warnings():
            r = mauve_text.compute_mauve(p_features=f['human'], q_features=f[k], seed=SEED)
        out['outputs'][k] = {'mauve': float(r.mauve), 'mauve_star': float(r.mauve_star),
                             'frontier_integral': float(r.frontier_integral),
                             'frontier_integral_star': float(r.frontier_integral_star), 'num_buckets': int(r.num_buckets),
                             'p_hist': np.asarray(r.p_hist, dtype=float).tolist(),
                             'q_hist': np.asarray(r.q_hist, dtype=float).tolist(),
                             'divergence_curve': np.asarray(r.divergence_curve, dtype=float).tolist()}
    return out


if __name__ == '__main__':
    d = compute()
    OUT.write_text(json.dumps(d, indent=1) + '\n', encoding='utf-8')
    print(f"wrote {OUT.relative_to(ROOT)} ({OUT.stat().st_size:,} bytes):",
          {k: round(v['mauve'], 6) for k, v in d['outputs'].items()})
