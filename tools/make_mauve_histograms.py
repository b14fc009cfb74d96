"""The MAUVE explorer's and lesson's precomputed bucket counts: for each fixed comparison (human Shakespeare P against
the human control and the 1-, 2-, 3-gram samples), each bucket count and each seed, the counts of P's and Q's texts per
k-means bucket, quantised by `textmetrics_edu.models.mauve.quantize_features` (mauve-text 0.4.0's defaults otherwise:
L2 rows, PCA to 90 % of the variance, faiss k-means with 5 restarts and 500 iterations) from the stored
all-MiniLM-L6-v2 features of `tests/data/models/mauve/`.

    .venv/bin/python tools/make_mauve_histograms.py        (numpy, scikit-learn, faiss; a few minutes)

Writes `textmetrics_edu/data/models/mauve_histograms.json` (read by `views.mauve` in the browser, stdlib only).
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from textmetrics_edu.models.mauve import quantize_features  # noqa: E402

FEATS = ROOT / 'tests' / 'data' / 'models' / 'mauve'
OUT = ROOT / 'textmetrics_edu' / 'data' / 'models' / 'mauve_histograms.json'
COMPARISONS = ('human_control', '1-gram', '2-gram', '3-gram')
BUCKETS = (5, 10, 20, 40)
SEEDS = (25, 26, 27, 28, 29)   # 25: mauve-text's default


def main():
    import faiss
    faiss.omp_set_num_threads(1)   # the same clusters with any thread count (checked); faster on a shared machine
    f = {k: np.load(FEATS / f'features_{k}.npy').astype(np.float32) for k in ('human',) + COMPARISONS}
    out = {'about': ('Precomputed: counts of texts per k-means bucket, P = 200 Tiny Shakespeare passages, Q = 200 '
                     'passages of the comparison; all-MiniLM-L6-v2 sentence embeddings (mean pooling, L2), quantised as '
                     'mauve-text 0.4.0 (L2, PCA 90 % variance, faiss k-means nredo 5 niter 500, given seed) by '
                     'tools/make_mauve_histograms.py from tests/data/models/mauve/.'),
           'p': 'human', 'buckets': list(BUCKETS), 'seeds': list(SEEDS), 'comparisons': {}}
    for k in COMPARISONS:
        rows = {}
        for b in BUCKETS:
            for s in SEEDS:
                qz = quantize_features(f['human'], f[k], b, seed=s)
                rows[f'{b}/{s}'] = [np.bincount(qz.p_labels, minlength=b).tolist(), np.bincount(qz.q_labels, minlength=b).tolist()]
        out['comparisons'][k] = rows
        print(k, flush=True)
    OUT.write_text(json.dumps(out, separators=(',', ':')) + '\n', encoding='utf-8')
    print(OUT, OUT.stat().st_size, 'bytes')


if __name__ == '__main__':
    main()
