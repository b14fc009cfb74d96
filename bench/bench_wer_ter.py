"""Time WER and MER (all Earnings-21 systems, whole calls) against jiwer 4 and TER (all 9 WMT22 en-de systems, reference A)
against sacreBLEU 2.6.0, in the same run, and print ours/theirs. Bars: WER <= 2.0 x jiwer, MER (the alignment) <= 1.2 x
jiwer (issue 13), TER <= 1.0 x sacreBLEU.

    .venv/bin/python bench/bench_wer_ter.py [--repeat 3] [--ter-systems 9] [--aligner auto|bit-parallel]
    (--ter-systems 0: WER and MER only)

The WER family's engine aligns with rapidfuzz when it is installed (`wer_engine.use_aligner`, 'auto'), and with our
pure-Python bit-parallel columns otherwise (a minimal install, the browser); `--aligner bit-parallel` times that path.
Measured 2026-11-24 02:25 UTC, machine idle (one helper's occasional browser runs), best of 5:
  auto (rapidfuzz):  WER 0.050 s vs jiwer 0.136 s, ratio 0.37;  MER 0.087 s vs 0.138 s, ratio 0.63
  bit-parallel:      WER ratio 0.98;  MER 0.246 s vs 0.135 s, ratio 1.82 (the columns' per-column big-integer steps)
"""
import argparse
import json
import sys
import time
from pathlib import Path

import jiwer
from sacrebleu.metrics import TER

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from textmetrics_edu import corpus_wer, corpus_mer, corpus_ter  # noqa: E402
from textmetrics_edu.kernels.wer import clear_reference_caches, use_aligner  # noqa: E402


CPU = {}  # CPU seconds of the best run per side ('ours' / 'theirs'): less sensitive than wall time to other load


def best_of(f, repeat, side=None):
    ts, cs = [], []
    for _ in range(repeat):
        c0, t0 = time.process_time(), time.perf_counter(); out = f()
        ts.append(time.perf_counter() - t0); cs.append(time.process_time() - c0)
    if side: CPU[side] = CPU.get(side, 0.0) + min(cs)
    return min(ts), out


def lines(p):
    t = Path(p).read_text(encoding='utf-8').split('\n')
    return t[:-1] if t[-1] == '' else t


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--repeat', type=int, default=5)
    ap.add_argument('--ter-systems', type=int, default=9)
    ap.add_argument('--aligner', default='auto', choices=['auto', 'bit-parallel'], help="the WER family's engine")
    a = ap.parse_args()
    use_aligner(a.aligner)
    print(f"WER family aligner: {a.aligner}" + (" (rapidfuzz)" if a.aligner == 'auto' else ''))

    e = ROOT / 'tests/data/asr/earnings21_subset'
    refs = {d['file_id']: d['text'] for d in map(json.loads, (e / 'references.jsonl').read_text().splitlines())}
    hyps = {}
    for d in map(json.loads, (e / 'hypotheses.jsonl').read_text().splitlines()):
        hyps.setdefault(d['system'], {})[d['file_id']] = d['text']
    ids = sorted(refs)
    rs = [refs[i] for i in ids]
    sweeps = {s: [h[i] for i in ids] for s, h in hyps.items()}
    # A sweep scores every system against the same references, as a user (or the CLI with several hypothesis
    # files) does; our reference cache starts cold at every repeat, so each sweep builds the references' bitmasks once.
    # WER needs only the edit distances; MER needs the alignment itself (jiwer computes the alignment for both).
    ratios = {}
    for label, ours_fn, theirs_fn in (('WER', corpus_wer, jiwer.wer), ('MER', corpus_mer, jiwer.mer)):
        print(f"{label}, Earnings-21 subset ({len(hyps)} systems x {len(ids)} calls), whole sweep, best of {a.repeat}, "
              f"reference cache cleared before each of our sweeps" + (' (needs the alignment)' if label == 'MER' else ''))
        per = {s: [float('inf'), float('inf')] for s in sweeps}
        best = {'ours': float('inf'), 'jiwer': float('inf')}
        scores = {}
        for _ in range(a.repeat):
            for side in ('ours', 'jiwer'):
                if side == 'ours': clear_reference_caches()
                c0, t0 = time.process_time(), time.perf_counter()
                for s, hs in sweeps.items():
                    t1 = time.perf_counter()
                    v = float(ours_fn(hs, rs)) if side == 'ours' else theirs_fn(rs, hs)
                    per[s][side == 'jiwer'] = min(per[s][side == 'jiwer'], time.perf_counter() - t1)
                    scores.setdefault(s, {})[side] = v
                best[side] = min(best[side], time.perf_counter() - t0)
                CPU[label + side] = min(CPU.get(label + side, float('inf')), time.process_time() - c0)
        for s, (to, tj) in per.items():
            assert abs(scores[s]['ours'] - scores[s]['jiwer']) < 1e-12
            print(f"  {s:22} {label} {100 * scores[s]['ours']:6.2f}  ours {to * 1000:7.1f} ms  jiwer {tj * 1000:7.1f} ms  ratio {to / tj:5.2f}")
        ratios[label] = best['ours'] / best['jiwer']
        print(f"{label} total: ours {best['ours']:.3f} s, jiwer {best['jiwer']:.3f} s, ratio ours/jiwer = {ratios[label]:.2f}"
              + (" (bar <= 2.0)" if label == 'WER' else " (bar <= 1.2)"))
        print(f"{label} CPU time: ours {CPU[label + 'ours']:.3f} s, jiwer {CPU[label + 'jiwer']:.3f} s, "
              f"ratio {CPU[label + 'ours'] / CPU[label + 'jiwer']:.2f}\n")
    wer_ratio, mer_ratio = ratios['WER'], ratios['MER']
    wer_cpu = CPU['WERours'] / CPU['WERjiwer']
    mer_cpu = CPU['MERours'] / CPU['MERjiwer']

    if a.ter_systems == 0:
        print(f"SUMMARY wer_ratio={wer_ratio:.2f} mer_ratio={mer_ratio:.2f} wer_cpu_ratio={wer_cpu:.2f} mer_cpu_ratio={mer_cpu:.2f}")
        return
    w = ROOT / 'tests/data/mt/wmt22_en-de'
    ref_a = lines(w / 'ref.A.de')
    systems = sorted((w / 'sys').glob('*.de'))[:a.ter_systems]
    ours_t = theirs_t = 0.0
    print(f"\nTER, WMT22 en-de ({len(systems)} systems x {len(ref_a)} segments, reference A), best of 1")
    for f in systems:
        hs = lines(f)
        to, o = best_of(lambda: corpus_ter(hs, ref_a), 1, 'ter_ours')
        ts, t = best_of(lambda: TER().corpus_score(hs, [ref_a]), 1, 'ter_sacrebleu')
        assert abs(100 * float(o) - t.score) < 1e-9
        ours_t += to; theirs_t += ts
        print(f"  {f.stem:18} TER {t.score:6.2f}  ours {to:6.2f} s  sacreBLEU {ts:6.2f} s  ratio {to / ts:5.2f}")
    ter_ratio = ours_t / theirs_t
    print(f"TER total: ours {ours_t:.2f} s, sacreBLEU {theirs_t:.2f} s, ratio ours/sacreBLEU = {ter_ratio:.2f} (bar <= 1.0)")
    ter_cpu = CPU['ter_ours'] / CPU['ter_sacrebleu']
    print(f"TER CPU time: ours {CPU['ter_ours']:.2f} s, sacreBLEU {CPU['ter_sacrebleu']:.2f} s, ratio {ter_cpu:.2f}")
    print(f"\nSUMMARY wer_ratio={wer_ratio:.2f} mer_ratio={mer_ratio:.2f} ter_ratio={ter_ratio:.2f} (CPU time: wer {wer_cpu:.2f}, mer {mer_cpu:.2f}, ter {ter_cpu:.2f})")


if __name__ == '__main__':
    main()
