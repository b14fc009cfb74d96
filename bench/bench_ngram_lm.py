"""Benchmark: order-3 interpolated Kneser-Ney n-gram LM, training + test perplexity, ours (numpy) vs nltk.lm 3.10.

    .venv/bin/python bench/bench_ngram_lm.py [--test-lines N] [--unk-cutoff K]

Both get the same token lists (tokenization is not timed) and the same settings: order 3, discount 0.1, nltk's
padding (pad_both_ends), `unk_cutoff` 2. nltk.lm's Kneser-Ney scores a token in ~15 ms (it loops over every n-gram
type for each lower-order probability), so by default the test part is the first 300 lines of test.txt
(`--test-lines 0`: all 3,150 lines, about 8 minutes for nltk). Prints both perplexities (they must agree) and the
ratio ours/nltk of the wall times.
"""
import argparse
import math
import time
from pathlib import Path

from nltk.lm import KneserNeyInterpolated, Vocabulary
from nltk.lm.preprocessing import padded_everygram_pipeline, pad_both_ends
from nltk.util import ngrams

from textmetrics_edu.lm.ngram_lm import read_sentences, train_ngram_lm

DATA = Path(__file__).resolve().parent.parent / 'tests' / 'data' / 'lm' / 'tinyshakespeare'


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--test-lines', type=int, default=300, help='test lines to score (0: all)')
    ap.add_argument('--unk-cutoff', type=int, default=2)
    ap.add_argument('--repeat', type=int, default=3, help='runs of ours (the best is reported)')
    a = ap.parse_args()
    train, test = read_sentences(DATA / 'train.txt'), read_sentences(DATA / 'test.txt')
    if a.test_lines: test = test[:a.test_lines]
    print(f"train: {len(train)} lines, {sum(map(len, train))} tokens; test: {len(test)} lines, {sum(map(len, test))} tokens")

    best = math.inf
    for _ in range(a.repeat):
        t0 = time.perf_counter()
        lm = train_ngram_lm(train, 3, 'kneser-ney', unk_cutoff=a.unk_cutoff)
        ours = lm.perplexity(test)
        best = min(best, time.perf_counter() - t0)

    t0 = time.perf_counter()
    tr, vocab = padded_everygram_pipeline(3, train)
    nl = KneserNeyInterpolated(3, vocabulary=Vocabulary(unk_cutoff=a.unk_cutoff))
    nl.fit(tr, vocab)
    t_fit = time.perf_counter() - t0
    theirs = nl.perplexity([g for s in test for g in ngrams(pad_both_ends(s, n=3), 3)])
    t_nltk = time.perf_counter() - t0

    print(f"ours    : perplexity {float(ours):.9f} over {ours.tokens} tokens, {best:.3f} s (train + test, best of {a.repeat})")
    print(f"nltk.lm : perplexity {theirs:.9f}, {t_nltk:.3f} s (fit {t_fit:.3f} s + test {t_nltk - t_fit:.3f} s)")
    assert abs(float(ours) - theirs) <= 1e-9 * theirs, 'perplexities differ'
    print(f"ratio ours/nltk = {best / t_nltk:.5f}  (bar: <= 0.1)")


if __name__ == '__main__':
    main()
