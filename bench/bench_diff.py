"""Benchmark (not a test): what explaining a difference costs, against what a user does without the differ: scoring
the corpus twice with the standard tool (sacreBLEU's `corpus_bleu` with `13a` and with `intl`). No tool explains a
difference, so the ratio is the price of the explanation (tokens of every text under both conventions, every
segment's statistics under both, one swap per segment), not a race.

    .venv/bin/python bench/bench_diff.py [--repeats 3]

One WMT22 en-de system of tests/data (2,037 segments) against reference A. Each repeat starts from cold caches for
both sides; the best of the repeats is reported.
"""
import argparse
import time
from pathlib import Path

import sacrebleu

from textmetrics_edu import core as _core
from textmetrics_edu.metrics import bleu as _bleu
from textmetrics_edu.stats.difference import explain_difference

D = Path(__file__).resolve().parent.parent / 'tests' / 'data' / 'mt' / 'wmt22_en-de'


def lines(p):
    t = p.read_text(encoding='utf-8').split('\n')
    return t[:-1] if t[-1] == '' else t


def clear_caches():
    for f in (_bleu._prep, _bleu._ref_info, _core.tokenize_13a, _core.tokenize_intl):
        if hasattr(f, 'cache_clear'): f.cache_clear()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--repeats', type=int, default=3)
    args = ap.parse_args()
    ref = lines(D / 'ref.A.de')
    hyp = lines(sorted((D / 'sys').glob('*.de'))[0])
    best = {}
    for _ in range(args.repeats):
        clear_caches()
        t = time.perf_counter()
        for method in ('swap', 'sequential'):
            d = explain_difference('bleu', hyp, ref, '13a', 'intl', method=method)
        best['ours'] = min(best.get('ours', 1e9), (time.perf_counter() - t) / 2)
        t = time.perf_counter()
        a = sacrebleu.corpus_bleu(hyp, [ref]).score
        b = sacrebleu.corpus_bleu(hyp, [ref], tokenize='intl').score
        best['sacrebleu'] = min(best.get('sacrebleu', 1e9), time.perf_counter() - t)
    assert abs(100 * d.score_a - a) < 1e-9 and abs(100 * d.score_b - b) < 1e-9
    print(f"{len(hyp)} segments: explain_difference {best['ours']:.3f} s, sacreBLEU twice {best['sacrebleu']:.3f} s, "
          f"ratio {best['ours'] / best['sacrebleu']:.2f} (BLEU {a:.2f} -> {b:.2f}, {d.n_tokens_differ} segments' tokens differ)")


if __name__ == '__main__':
    main()
