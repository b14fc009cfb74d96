"""Benchmark (not a test): corpus BLEU and chrF over all 9 WMT22 en-de systems, ours against sacreBLEU,
in the same run. Prints the seconds of each and the ratio ours/sacreBLEU (bar for the project: <= 1.0).

    .venv/bin/python bench/bench_bleu_chrf.py [--repeats 3]

Each repeat starts from cold caches for both sides (our reference cache and tokenizer caches are
cleared), and scores all 9 systems against reference A and against A+B, as a user scoring a WMT task
with `corpus_bleu` / `corpus_chrf` would. sacreBLEU is called the same way (its `corpus_bleu` /
`corpus_chrf` functions). The best of the repeats is reported for each side.
"""
import argparse
import time
from pathlib import Path

import sacrebleu

from textmetrics_edu import corpus_bleu, corpus_chrf
from textmetrics_edu import core as _core
from textmetrics_edu.metrics import bleu as _bleu, chrf as _chrf

D = Path(__file__).resolve().parent.parent / 'tests' / 'data' / 'mt' / 'wmt22_en-de'


def lines(p):
    t = p.read_text(encoding='utf-8').split('\n')
    return t[:-1] if t[-1] == '' else t


def clear_caches():
    for f in (_bleu._prep, _bleu._ref_info, _chrf._ref_ngrams, _core.tokenize_13a, _core.tokenize_intl,
              _core.tokenize_char, _core.tokenize_none):
        f.cache_clear()
    from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a
    from sacrebleu.tokenizers.tokenizer_re import TokenizerRegexp
    Tokenizer13a.__call__.cache_clear(); TokenizerRegexp.__call__.cache_clear()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--repeats', type=int, default=3)
    a = ap.parse_args()
    A, B = lines(D / 'ref.A.de'), lines(D / 'ref.B.de')
    AB = [list(x) for x in zip(A, B)]
    systems = {f.stem: lines(f) for f in sorted((D / 'sys').glob('*.de'))}
    jobs = {
        'BLEU': (lambda h, refs: corpus_bleu(h, refs), lambda h, streams: sacrebleu.corpus_bleu(h, streams)),
        'chrF': (lambda h, refs: corpus_chrf(h, refs), lambda h, streams: sacrebleu.corpus_chrf(h, streams)),
    }
    print(f"{len(systems)} systems x {len(A)} segments, references A and A+B; best of {a.repeats}")
    for name, (ours, theirs) in jobs.items():
        t_ours, t_theirs = [], []
        for _ in range(a.repeats):
            clear_caches()
            t0 = time.perf_counter()
            for h in systems.values():
                theirs(h, [A]); theirs(h, [A, B])
            t_theirs.append(time.perf_counter() - t0)
            clear_caches()
            t0 = time.perf_counter()
            for h in systems.values():
                ours(h, A); ours(h, AB)
            t_ours.append(time.perf_counter() - t0)
        o, t = min(t_ours), min(t_theirs)
        print(f"{name:5} ours {o:7.3f} s   sacreBLEU {t:7.3f} s   ratio ours/sacreBLEU {o / t:.3f}")


if __name__ == '__main__':
    main()
