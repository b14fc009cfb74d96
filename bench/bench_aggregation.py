"""Corpus aggregation at 200,000 segments, per registered metric (issue 21: adding statistics one by one copied the
per-segment detail every time, so corpus TER, ROUGE, METEOR and CIDEr took time quadratic in the corpus size: 78 s to
sum 80,000 TER statistics).

For every registered metric with per-segment statistics: the statistics of the bundled WMT22 sample (300 segments, one
system, reference A; labels, tags and rewriting metrics get small inputs of their own form), replicated to 200,000
segments, summed with `core.total_stats` (what `corpus_x` does), and, for comparison, with `+` one by one on the
first 20,000 only (the old way; quadratic where a statistic carries detail). Only the summing is timed: computing
200,000 segments' statistics is the metric's own cost, linear, and measured by the other bench scripts against the
tools.

    .venv/bin/python bench/bench_aggregation.py [--segments 200000] [--metrics ter,rougeL,...]

Measured 2026-11-25 00:45 UTC (machine shared with other sessions: load about 8 on 2 cores), seconds:
  metric        total_stats, 200,000   one by one, first 20,000 (old)
  ter           0.223                  3.418   (quadratic: 200,000 would take ~100x that)
  rougeL        0.207                  2.420
  meteor        0.053                  0.608
  cider-d       0.145                  0.746
  bleu          1.123                  0.088   (no detail: linear either way)
  wer           3.734                  0.111   (linear: `cat` chains; the 200,000 figure is 10x the segments)
  sari          5.900                  0.503
Every metric's total is linear in the number of segments now.
"""
import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from textmetrics_edu.core import METRICS, discover_metrics, total_stats, check_corpus  # noqa: E402
from textmetrics_edu.core.datasets import load_wmt22_sample  # noqa: E402


def sample_inputs(name, spec):
    import inspect, functools
    fn = spec.corpus_fn
    while isinstance(fn, functools.partial): fn = fn.func
    if name in ('accuracy', 'f1', 'mcc'): return ['a', 'b', 'a', 'b'] * 75, ['a', 'b', 'b', 'b'] * 75
    if name == 'span_f1': return ['B-PER O B-LOC'] * 300, ['B-PER O O'] * 300
    d = load_wmt22_sample()
    hyps, refs = list(d['systems'].values())[0], d['refs_A']
    if 'sources' in inspect.signature(fn).parameters:
        from textmetrics_edu import with_sources
        return hyps, with_sources(d['src'], refs)
    return hyps, refs


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--segments', type=int, default=200_000)
    ap.add_argument('--metrics', default='')
    a = ap.parse_args()
    discover_metrics()
    names = [n for n in sorted(METRICS) if not a.metrics or n in a.metrics.split(',')]
    print(f"{'metric':12} {'total_stats, ' + format(a.segments, ',') + ' segments':>34} {'one by one, 20,000':>20}")
    for name in names:
        spec = METRICS[name]
        m = spec.metric
        if m.segment_stats is None or m.aggregate == 'corpus': continue
        try:
            hyps, refs = sample_inputs(name, spec)
            o = m.opts({'labels': ['a', 'b']} if name in ('f1', 'mcc') else {})
            h, r = check_corpus(hyps, refs)
            st = m.stats(h, r, o)
        except Exception as e:  # a metric whose sample input this script does not know
            print(f"{name:12} skipped ({type(e).__name__}: {str(e)[:60]})"); continue
        big = (st * (a.segments // len(st) + 1))[:a.segments]
        t = time.perf_counter(); total_stats(big); lin = time.perf_counter() - t
        t = time.perf_counter(); acc = big[0]
        for s in big[1:20_000]: acc = acc + s
        seq = time.perf_counter() - t
        print(f"{name:12} {lin:30.3f} s {seq:18.3f} s")


if __name__ == '__main__':
    main()
