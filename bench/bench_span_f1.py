"""Benchmark (not a test): span F1 against seqeval 1.2.2, in the same run, on the shipped WNUT-17 head (400
sentences x 7 submissions, tests/data/ner), default (conlleval) and strict IOB2 mode. Each round scores the 7
systems (micro P/R/F1 for seqeval: `precision_recall_fscore_support(average='micro')`; ours: `corpus_span_f1`, which
also gives per-type, macro and weighted scores). CPU seconds (`time.process_time`), best of the repeats; micro F1
checked equal first.

    .venv/bin/python bench/bench_span_f1.py [--repeats 5]
"""
import argparse
import warnings
from pathlib import Path

from seqeval.metrics import v1 as seq_v1
from seqeval.metrics.sequence_labeling import precision_recall_fscore_support as seq_prfs
from seqeval.scheme import IOB2

from textmetrics_edu.metrics.span_f1 import corpus_span_f1
from timing import best  # noqa: E402  (bench/timing.py)

D = Path(__file__).resolve().parent.parent / 'tests' / 'data' / 'ner' / 'wnut17_test_head'


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--repeats', type=int, default=5)
    a = ap.parse_args()
    gold = (D / 'gold.tags').read_text().splitlines()
    systems = [p.read_text().splitlines() for p in sorted(D.glob('*.tags')) if p.stem != 'gold']
    y_true = [g.split() for g in gold]
    y_preds = [[h.split() for h in s] for s in systems]
    warnings.simplefilter('ignore')
    for mode in ('conlleval', 'strict'):
        kw = dict(mode='strict', scheme='IOB2') if mode == 'strict' else {}
        ours = lambda: [corpus_span_f1(s, gold, **kw).f1 for s in systems]
        if mode == 'strict': theirs = lambda: [float(seq_v1.precision_recall_fscore_support(y_true, p, average='micro', scheme=IOB2)[2]) for p in y_preds]
        else: theirs = lambda: [float(seq_prfs(y_true, p, average='micro')[2]) for p in y_preds]
        assert ours() == theirs()
        to, tt = best(ours, a.repeats), best(theirs, a.repeats)
        print(f"span F1 ({mode}), 7 systems x 400 sentences: ours {to:.4f} s, seqeval {tt:.4f} s, ratio ours/theirs {to / tt:.2f}")


if __name__ == '__main__':
    main()
