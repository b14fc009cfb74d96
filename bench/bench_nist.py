"""Benchmark (not a test): corpus NIST over all 9 WMT22 en-de systems (2037 segments), ours against the tools, in
the same run. Prints seconds and the ratio ours/tool (bar for the project: <= 1.0).

    .venv/bin/python bench/bench_nist.py [--repeats 3]
    MTEVAL=/path/to/mteval-v13a.pl PERL5LIB=/path/to/XML-Twig/lib .venv/bin/python bench/bench_nist.py

* NLTK 3.10 `corpus_nist` (in the dev env), given the mteval tokens ready-made (its native input; tokenization not
  timed), one system at a time against reference A (one reference: the conventions agree) and A+B (ours with
  `convention='nltk'` there, NLTK's own).
* mteval-v13a.pl when `MTEVAL` is set (not shipped: see tests/data/mt/nist/README.md): one run scoring all 9
  systems against A+B (SGML written beforehand, not timed), ours scoring the same 9 systems from the strings.
"""
import argparse
import importlib.util
import os
import time
from pathlib import Path

from nltk.translate.nist_score import corpus_nist as nltk_corpus_nist

from textmetrics_edu import corpus_nist
from textmetrics_edu.metrics import nist as _nist
from textmetrics_edu.metrics.nist import mteval_tokenize

ROOT = Path(__file__).resolve().parent.parent
D = ROOT / 'tests' / 'data' / 'mt' / 'wmt22_en-de'


def lines(p):
    t = p.read_text(encoding='utf-8').split('\n')
    return t[:-1] if t[-1] == '' else t


def best(f, repeats):
    "The best time of `repeats` runs, each from cold caches (ours: tokenization and prepared references)."
    out = float('inf')
    for _ in range(repeats):
        _nist._tok_cached.cache_clear(); _nist._prepared.cache_clear()
        t = time.perf_counter(); f(); out = min(out, time.perf_counter() - t)
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--repeats', type=int, default=3)
    a = ap.parse_args()
    A, B = lines(D / 'ref.A.de'), lines(D / 'ref.B.de')
    AB = [[x, y] for x, y in zip(A, B)]
    systems = {f.stem: lines(f) for f in sorted((D / 'sys').glob('*.de'))}
    print(f"{len(systems)} systems x {len(A)} segments; best of {a.repeats}")
    tA = [[list(mteval_tokenize(r))] for r in A]
    tAB = [[list(mteval_tokenize(x)), list(mteval_tokenize(y))] for x, y in AB]
    th = {s: [list(mteval_tokenize(h)) for h in hs] for s, hs in systems.items()}
    for name, refs, trefs, conv in [('ref A', A, tA, 'mteval'), ('refs A+B', AB, tAB, 'nltk')]:
        ours = best(lambda: [corpus_nist(hs, refs, convention=conv) for hs in systems.values()], a.repeats)
        theirs = best(lambda: [nltk_corpus_nist(trefs, th[s]) for s in systems], a.repeats)
        print(f"NIST {name:9} ours {ours:.2f} s  NLTK {theirs:.2f} s  ratio {ours / theirs:.2f}")
    if os.environ.get('MTEVAL'):
        spec = importlib.util.spec_from_file_location('m', ROOT / 'tests' / 'data' / 'mt' / 'nist' / 'make_expected.py')
        m = importlib.util.module_from_spec(spec); spec.loader.exec_module(m)
        theirs = best(lambda: m.run_mteval(systems, [A, B]), 1)
        ours = best(lambda: [corpus_nist(hs, AB) for hs in systems.values()], a.repeats)
        print(f"NIST refs A+B ours {ours:.2f} s  mteval-v13a.pl {theirs:.2f} s (one run, all systems)  ratio {ours / theirs:.2f}")


if __name__ == '__main__':
    main()
