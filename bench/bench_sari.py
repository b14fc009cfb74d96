"""Benchmark (not a test): SARI against EASSE's `corpus_sari` and HF evaluate's `sari` (its `SARIsent` and
`normalize`, mean of sentences), in the same run, on the bundled ASSET slice (100 sentences x 9 references, the three
systems of tests/data/simplification). Prints CPU seconds of each side and the ratios ours/theirs.

    .venv/bin/python bench/bench_sari.py --easse DIR [--hf FILE] [--repeats 5]

The tools are not dependencies and their code is not in this repository: `--easse DIR` is a folder holding EASSE's
`sari.py` and `utils/preprocessing.py` as files `sari.py` and `preprocessing.py` importable as `easse_sari`... in
practice a checkout of https://github.com/feos/easse: DIR/easse/sari.py (import `easse.sari`, needs sacrebleu);
`--hf FILE` is HF evaluate's `metrics/sari/sari.py` (its `evaluate`/`datasets` imports are stripped at load).
Without them the script says so and times ours alone. Both sides' scores are checked equal (1e-9 points) first.
Ours computes every convention's statistics in one pass (the counts, and the two sentence-level variants), so it
does more work than EASSE per call; its tokenizer cache helps on repeats (cleared before every round here).
"""
import argparse
import sys
import time
import types
from pathlib import Path

from textmetrics_edu import corpus_sari
from textmetrics_edu.core import TOKENIZERS

D = Path(__file__).resolve().parent.parent / 'tests' / 'data' / 'simplification' / 'asset_test_001-100'
SYSTEMS = ('identity', 'first_clause', 'human_simp0')


def load():
    rd = lambda p: p.read_text(encoding='utf-8').split('\n')[:-1]
    src = rd(D / 'asset.test.orig')
    refs = [list(x) for x in zip(*[rd(D / f'asset.test.simp.{i}') for i in range(1, 10)])]
    return src, refs, {s: rd(D / 'sys' / s) for s in SYSTEMS}


def load_hf(path):
    src = Path(path).read_text(encoding='utf-8')
    code = src[src.index('def SARIngram'):src.index('@evaluate.utils')]
    m = types.ModuleType('hf_sari')
    exec('from collections import Counter\nimport sacrebleu\nfrom packaging import version\n' + code, m.__dict__)
    return m


def clear_caches():
    for f in TOKENIZERS.values(): f.cache_clear()


def best(fn, repeats):
    out = []
    for _ in range(repeats):
        clear_caches()
        t = time.process_time(); fn(); out.append(time.process_time() - t)
    return min(out)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--easse', help='a checkout of feos/easse (DIR/easse/sari.py)')
    ap.add_argument('--hf', help="HF evaluate's metrics/sari/sari.py")
    ap.add_argument('--repeats', type=int, default=5)
    a = ap.parse_args()
    src, refs, systems = load()
    streams = [[r[j] for r in refs] for j in range(9)]
    ours = lambda conv: [100 * float(corpus_sari(systems[s], refs, sources=src, convention=conv)) for s in SYSTEMS]
    t_ours = best(lambda: ours('easse'), a.repeats)
    print(f"ours (easse convention): {t_ours:.3f} s for {len(SYSTEMS)} systems x {len(src)} sentences x 9 references")
    if a.easse:
        sys.path.insert(0, a.easse)
        from easse.sari import corpus_sari as easse_corpus_sari
        theirs = lambda: [easse_corpus_sari(src, systems[s], streams) for s in SYSTEMS]
        assert max(abs(x - y) for x, y in zip(ours('easse'), theirs())) < 1e-9
        t = best(theirs, a.repeats)
        print(f"EASSE corpus_sari: {t:.3f} s; ratio ours/EASSE = {t_ours / t:.2f}")
    else: print('EASSE: not given (--easse DIR, a checkout of feos/easse); no ratio')
    if a.hf:
        hf = load_hf(a.hf)
        def theirs_hf():
            return [100 * sum(hf.SARIsent(hf.normalize(s_), hf.normalize(h), [hf.normalize(x) for x in r])
                              for s_, h, r in zip(src, systems[s], refs)) / len(src) for s in SYSTEMS]
        assert max(abs(x - y) for x, y in zip(ours('hf'), theirs_hf())) < 1e-9
        t_hf_ours, t = best(lambda: ours('hf'), a.repeats), best(theirs_hf, a.repeats)
        print(f"HF evaluate sari: {t:.3f} s; ours (hf convention) {t_hf_ours:.3f} s; ratio ours/HF = {t_hf_ours / t:.2f}")


if __name__ == '__main__':
    main()
