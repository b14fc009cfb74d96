"""Benchmark (not a test): corpus RIBES over all 9 WMT22 en-de systems (2037 segments), ours against NLTK 3.10
`corpus_ribes` and compare-mt 0.2.10 `RibesScorer`, in the same run. Prints seconds and the ratio ours/tool (bar
for the project: <= 1.0).

    .venv/bin/python bench/bench_ribes.py [--repeats 3]

The tools take tokens: they are given the whitespace tokens ready-made (not timed); ours starts from the strings
with cold caches (tokenization timed). Reference A (compare-mt takes one reference) and, for NLTK, A+B.
"""
import argparse
import time
from pathlib import Path

from compare_mt.scorers import RibesScorer
from nltk.translate.ribes_score import corpus_ribes as nltk_corpus_ribes

from textmetrics_edu import corpus_ribes
from textmetrics_edu.metrics import ribes as _ribes

D = Path(__file__).resolve().parent.parent / 'tests' / 'data' / 'mt' / 'wmt22_en-de'


def lines(p):
    t = p.read_text(encoding='utf-8').split('\n')
    return t[:-1] if t[-1] == '' else t


def best(f, repeats):
    out = float('inf')
    for _ in range(repeats):
        _ribes._toks.cache_clear()
        t = time.perf_counter(); f(); out = min(out, time.perf_counter() - t)
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--repeats', type=int, default=3)
    a = ap.parse_args()
    A, B = lines(D / 'ref.A.de'), lines(D / 'ref.B.de')
    AB = [[x, y] for x, y in zip(A, B)]
    systems = {f.stem: lines(f) for f in sorted((D / 'sys').glob('*.de'))}
    tA, tAB = [[r.split()] for r in A], [[x.split(), y.split()] for x, y in AB]
    th = {s: [h.split() for h in hs] for s, hs in systems.items()}
    cm = RibesScorer()
    print(f"{len(systems)} systems x {len(A)} segments; best of {a.repeats}")
    ours = best(lambda: [corpus_ribes(hs, A) for hs in systems.values()], a.repeats)
    nl = best(lambda: [nltk_corpus_ribes(tA, th[s]) for s in systems], a.repeats)
    cmt = best(lambda: [cm.score_corpus([r[0] for r in tA], th[s]) for s in systems], a.repeats)
    print(f"RIBES ref A    ours {ours:.2f} s  NLTK {nl:.2f} s  ratio {ours / nl:.2f}  compare-mt {cmt:.2f} s  ratio {ours / cmt:.2f}")
    ours = best(lambda: [corpus_ribes(hs, AB) for hs in systems.values()], a.repeats)
    nl = best(lambda: [nltk_corpus_ribes(tAB, th[s]) for s in systems], a.repeats)
    print(f"RIBES refs A+B ours {ours:.2f} s  NLTK {nl:.2f} s  ratio {ours / nl:.2f}")


if __name__ == '__main__':
    main()
