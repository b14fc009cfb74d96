"""Benchmark (not a test): corpus Google BLEU over all 9 WMT22 en-de systems, ours against NLTK 3.10 `corpus_gleu`,
in the same run. Prints the seconds of each and the ratio ours/NLTK (bar for the project: <= 1.0).

    .venv/bin/python bench/bench_google_bleu.py [--repeats 3]

NLTK takes tokens: it is timed twice, on the `13a` tokens ready-made (its native input, tokenization not timed)
and with the same tokenization from the strings; ours starts from the strings with cold caches (tokenization
timed), against reference A and against A+B. The best of
the repeats is reported for each side.
"""
import argparse
import time
from pathlib import Path

from nltk.translate.gleu_score import corpus_gleu

from textmetrics_edu import corpus_google_bleu
from textmetrics_edu import core as _core
from textmetrics_edu.metrics import bleu as _bleu, google_bleu as _gb

D = Path(__file__).resolve().parent.parent / 'tests' / 'data' / 'mt' / 'wmt22_en-de'


def lines(p):
    t = p.read_text(encoding='utf-8').split('\n')
    return t[:-1] if t[-1] == '' else t


def clear_caches():
    for f in (_bleu._prep, _gb._ref_table, _core.tokenize_13a): f.cache_clear()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--repeats', type=int, default=3)
    a = ap.parse_args()
    A, B = lines(D / 'ref.A.de'), lines(D / 'ref.B.de')
    systems = {f.stem: lines(f) for f in sorted((D / 'sys').glob('*.de'))}
    jobs = [('A', [[x] for x in A]), ('A+B', [[x, y] for x, y in zip(A, B)])]
    tok = lambda s: _bleu.preprocess(s)
    ntoks = {k: [[tok(r) for r in rs] for rs in refs] for k, refs in jobs}
    nhyps = {s: [tok(h) for h in hs] for s, hs in systems.items()}
    best_ours = best_theirs = best_theirs_tok = float('inf')
    for _ in range(a.repeats):
        clear_caches()
        t = time.perf_counter()
        ours = [float(corpus_google_bleu(hs, refs)) for k, refs in jobs for hs in systems.values()]
        best_ours = min(best_ours, time.perf_counter() - t)
        t = time.perf_counter()
        theirs = [corpus_gleu(ntoks[k], nhyps[s]) for k, _ in jobs for s in systems]
        best_theirs = min(best_theirs, time.perf_counter() - t)
        clear_caches()   # NLTK as a user runs it on strings: the same 13a tokenization first (each text once)
        t = time.perf_counter()
        nt = {k: [[tok(r) for r in rs] for rs in refs] for k, refs in jobs}
        nh = {s: [tok(h) for h in hs] for s, hs in systems.items()}
        theirs_tok = [corpus_gleu(nt[k], nh[s]) for k, _ in jobs for s in systems]
        best_theirs_tok = min(best_theirs_tok, time.perf_counter() - t)
        assert theirs_tok == theirs
        assert ours == theirs
    print(f"{len(systems)} systems x {len(A)} segments, references A and A+B; best of {a.repeats}")
    print(f"Google BLEU  ours {best_ours:.2f} s  NLTK on ready tokens {best_theirs:.2f} s  ratio {best_ours / best_theirs:.2f}")
    print(f"             NLTK with the same 13a tokenization {best_theirs_tok:.2f} s  ratio {best_ours / best_theirs_tok:.2f}")


if __name__ == '__main__':
    main()
