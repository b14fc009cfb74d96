"""Time CharacTER against PyPI cer 1.2.0 (`calculate_cer_corpus`, the tool HF's `character` calls) on WMT22 en-de,
reference A, in the same run, and print ours/theirs (bar: <= 1.0 x cer). cer's LRU cache of Levenshtein distances is
cleared before each of its runs (ours keeps nothing across calls).

    .venv/bin/python bench/bench_character.py [--repeat 3] [--systems 3] [--aligner auto|bit-parallel]

`--aligner bit-parallel` times our engine without rapidfuzz (the browser's path: the bit-parallel columns of the edit
distance engine instead of rapidfuzz's C++).
Measured 2026-11-25 00:36 UTC (machine shared, load average 8 on 2 cores), best of 3, segment scores identical:
  auto (rapidfuzz):  3 systems, ours 1.033 s vs cer 2.145 s, ratio 0.48
  bit-parallel:      2 systems, ours 4.817 s vs cer 1.267 s, ratio 3.80 (the browser's path; cer itself needs C++)
"""
import argparse
import sys
import time
from pathlib import Path

import cer
from cer import cer as cer_module

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from textmetrics_edu import corpus_character  # noqa: E402
import textmetrics_edu.kernels.character as kernel  # noqa: E402
from textmetrics_edu.kernels.wer import use_aligner  # noqa: E402


def lines(p):
    t = Path(p).read_text(encoding='utf-8').split('\n')
    return t[:-1] if t[-1] == '' else t


def best_of(f, repeat, before=lambda: None):
    ts = []
    for _ in range(repeat):
        before()
        t0 = time.perf_counter(); out = f(); ts.append(time.perf_counter() - t0)
    return min(ts), out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--repeat', type=int, default=3)
    ap.add_argument('--systems', type=int, default=3)
    ap.add_argument('--aligner', default='auto', choices=['auto', 'bit-parallel'])
    a = ap.parse_args()
    if a.aligner == 'bit-parallel':
        use_aligner('bit-parallel'); kernel._RF = False
    d = ROOT / 'tests/data/mt/wmt22_en-de'
    refs = lines(d / 'ref.A.de')
    systems = sorted(p.stem for p in (d / 'sys').glob('*.de'))[:a.systems]
    tot_o = tot_t = 0.0
    for s in systems:
        hyps = lines(d / 'sys' / f'{s}.de')
        to, ours = best_of(lambda: corpus_character(hyps, refs), a.repeat)
        tt, theirs = best_of(lambda: cer.calculate_cer_corpus([h.split() for h in hyps], [r.split() for r in refs]),
                             a.repeat, cer_module.calculate_levenshtein.cache_clear)
        assert list(ours.segment_scores) == theirs['cer_scores'] and float(ours) == theirs['mean']
        tot_o += to; tot_t += tt
        print(f"{s:18} ours {to:6.3f} s   cer {tt:6.3f} s   ratio {to / tt:.2f}   (CharacTER {float(ours):.6f}, identical)")
    print(f"CharacTER, {len(systems)} systems x {len(refs)} segments, aligner {a.aligner}: ours {tot_o:.3f} s, "
          f"cer 1.2.0 {tot_t:.3f} s, ratio ours/cer {tot_o / tot_t:.2f} (bar <= 1.0)")


if __name__ == '__main__':
    main()
