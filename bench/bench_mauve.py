"""MAUVE: ours (`textmetrics_edu.models.mauve.mauve`) against `mauve-text` 0.4.0's `compute_mauve`, in the same run.

    .venv/bin/python bench/bench_mauve.py

Both quantise with the same calls (scikit-learn PCA, faiss k-means, one thread here), so the quantisation costs the
same; the metric after it is plain Python here and numpy in the tool. Printed: best CPU time of 5 runs (the tool before and after ours) on the lesson's
features (200 + 200 MiniLM embeddings, 20 buckets), and of the metric alone given the buckets (labels).
"""
import sys
from pathlib import Path

import numpy as np

from timing import best

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
import faiss  # noqa: E402
import mauve as mauve_text  # noqa: E402
from textmetrics_edu.models.mauve import mauve  # noqa: E402

faiss.omp_set_num_threads(1)
MC = sys.modules['mauve.compute_mauve']
D = ROOT / 'tests' / 'data' / 'models' / 'mauve'
P = np.load(D / 'features_human.npy').astype(np.float32)
Q = np.load(D / 'features_3-gram.npy').astype(np.float32)

t_tool = best(lambda: mauve_text.compute_mauve(p_features=P, q_features=Q, seed=25), 5)
t_ours = best(lambda: mauve(P, Q, seed=25), 5)
t_tool = min(t_tool, best(lambda: mauve_text.compute_mauve(p_features=P, q_features=Q, seed=25), 5))
print(f"features -> MAUVE: ours {t_ours:.3f} s, mauve-text {t_tool:.3f} s, ratio ours/tool {t_ours / t_tool:.2f}")

r = mauve(P, Q, seed=25)
p, q = np.array(r.p_hist), np.array(r.q_hist)


def tool_metric():   # what compute_mauve does after its quantisation (its own functions and integration rule)
    from sklearn.metrics import auc
    lam = np.linspace(1e-6, 1 - 1e-6, 25)
    for a, b in ((p, q), ((p * 200 + 0.5) / 210, (q * 200 + 0.5) / 210)):
        x, y = MC.get_divergence_curve_for_multinomials(a, b, lam, 5).T
        i1, i2 = np.argsort(x), np.argsort(y)
        0.5 * (auc(x[i1], y[i1]) + auc(y[i2], x[i2])); MC.get_fronter_integral(a, b)


t_ours_m = best(lambda: mauve(p_labels=r.p_labels, q_labels=r.q_labels, num_buckets=20), 20)
t_tool_m = best(tool_metric, 20)
print(f"buckets -> MAUVE, MAUVE*, frontier integrals: ours {t_ours_m * 1e3:.2f} ms, mauve-text {t_tool_m * 1e3:.2f} ms, "
      f"ratio ours/tool {t_ours_m / t_tool_m:.2f}")
