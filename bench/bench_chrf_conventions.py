"""Benchmark (not a test): chrF under NLTK's and torchmetrics' conventions, ours against the tool, in the same run.
Prints the seconds of each and the ratio ours/tool.

    .venv/bin/python bench/bench_chrf_conventions.py [--segments 2037]
    # torchmetrics is not in the dev lock: run the same script with a Python that has it and the package on the path:
    PYTHONPATH=. /path/to/venv-with-torchmetrics/bin/python bench/bench_chrf_conventions.py --segments 300

NLTK 3.10: `corpus_chrf(refs, hyps)` (beta 3) against `corpus_chrf(hyps, refs, convention='nltk', beta=3)` on WMT22
en-de Online-B against reference A; torchmetrics 1.9 (if importable): `chrf_score(hyps, [[r] ...])` (chrF++ default)
against `convention='torchmetrics', word_order=2`. Best of 3 repeats each.
"""
import argparse
import time
from pathlib import Path

import nltk.translate.chrf_score as nltk_chrf

from textmetrics_edu import corpus_chrf
from textmetrics_edu.core import SegmentRefs

D = Path(__file__).resolve().parent.parent / 'tests' / 'data' / 'mt' / 'wmt22_en-de'


def lines(p): return p.read_text(encoding='utf-8').split('\n')[:-1]


def best(f, k=3):
    ts = []
    for _ in range(k):
        t = time.perf_counter(); f(); ts.append(time.perf_counter() - t)
    return min(ts)


if __name__ == '__main__':
    ap = argparse.ArgumentParser(); ap.add_argument('--segments', type=int, default=2037); a = ap.parse_args()
    hyps, refs = lines(D / 'sys' / 'Online-B.de')[:a.segments], lines(D / 'ref.A.de')[:a.segments]
    ours = best(lambda: corpus_chrf(hyps, refs, convention='nltk', beta=3))
    theirs = best(lambda: nltk_chrf.corpus_chrf(refs, hyps))
    print(f"nltk convention, {len(hyps)} segments: ours {ours:.3f} s, NLTK {theirs:.3f} s, ratio {ours / theirs:.2f}")
    try: from torchmetrics.functional.text import chrf_score
    except ImportError: print('torchmetrics not importable: its ratio is skipped'); raise SystemExit
    ours = best(lambda: corpus_chrf(hyps, SegmentRefs([[r] for r in refs]), convention='torchmetrics', word_order=2))
    theirs = best(lambda: chrf_score(hyps, [[r] for r in refs]), k=1)
    print(f"torchmetrics convention, {len(hyps)} segments: ours {ours:.3f} s, torchmetrics {theirs:.3f} s, ratio {ours / theirs:.3f}")
