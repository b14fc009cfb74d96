"""Time the segment-level meta-evaluation statistics with 1,000 bootstrap resamples (of the 527 items) on WMT21 en-de
expert MQM (8 systems x 527 segments, sentence chrF from tests/data/mt/wmt21_en-de_mqm/seg_scores.tsv).
Bar: all of them together under 10 s (wall) on the project machine. Also times the readable loop on a few
statistics (--readable) to show what the vectorised engine ("Under the hood" in nbs/61_meta_eval.ipynb) saves.

    .venv/bin/python bench/bench_meta_eval.py [--n-resamples 1000] [--readable]
"""
import argparse
import csv
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from textmetrics_edu.stats.meta_eval import correlate  # noqa: E402

CASES = [('pearson', 'none'), ('spearman', 'item'), ('kendall', 'item'), ('tau_23', 'item'), ('acc_23', 'item'),
         ('acc_eq', 'item'), ('tau_eq', 'item'), ('pearson', 'item'), ('darr', 'item')]


def load():
    rows = list(csv.DictReader(open(ROOT / 'tests/data/mt/wmt21_en-de_mqm/seg_scores.tsv'), delimiter='\t'))
    H, M = {}, {}
    for r in rows:
        H.setdefault(r['system'], []).append(float(r['mqm'])); M.setdefault(r['system'], []).append(float(r['chrf']))
    return M, H


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--n-resamples', type=int, default=1000)
    ap.add_argument('--readable', action='store_true', help='also time the readable loop (slow) on three statistics')
    a = ap.parse_args()
    M, H = load()
    total, c_total = 0.0, 0.0
    print(f"WMT21 en-de MQM: {len(H)} systems x {len(next(iter(H.values())))} segments, {a.n_resamples} resamples of the items")
    for st, ab in CASES:
        kw = dict(darr_threshold=1.0) if st == 'darr' else {}  # MQM points: pairs 1 point apart
        c0, t0 = time.process_time(), time.perf_counter()
        r = correlate(M, H, level='segment', statistic=st, average_by=ab, n_resamples=a.n_resamples, seed=1, **kw)
        dt, dc = time.perf_counter() - t0, time.process_time() - c0
        total += dt; c_total += dc
        print(f"{st:9} average_by={ab:5} {r.score:.4f} [{r.ci_low:.4f}, {r.ci_high:.4f}]  {dt:6.2f} s wall  {dc:6.2f} s cpu")
    print(f"total {total:.2f} s wall ({c_total:.2f} s cpu); bar 10 s: {'PASS' if total < 10 else 'FAIL'}")
    if a.readable:
        for st, ab in (('acc_eq', 'item'), ('darr', 'item'), ('pearson', 'none')):
            kw = dict(darr_threshold=1.0) if st == 'darr' else {}
            t0 = time.perf_counter()
            correlate(M, H, level='segment', statistic=st, average_by=ab, n_resamples=a.n_resamples, seed=1, engine='readable', **kw)
            print(f"readable loop {st:8} {ab:5} {time.perf_counter() - t0:7.2f} s")
    return 0 if total < 10 else 1


if __name__ == '__main__':
    sys.exit(main())
