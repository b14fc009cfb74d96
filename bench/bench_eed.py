"""Time EED against torchmetrics 1.9.0 `extended_edit_distance` on WMT22 en-de (reference A), in the same run, and print
ours/theirs (bar: <= 1.0 x torchmetrics). torchmetrics needs torch, which the dev environment does not install: when
it is not importable here, the tool is timed in another interpreter that has it (`--tool-python`, default the
scratch venv `/work/scratch-charedit/bin/python` or $TME_TORCHMETRICS_PYTHON), on the same segments, and its
segment scores are checked against ours (float32, as it returns them).

    .venv/bin/python bench/bench_eed.py [--repeat 3] [--segments 300] [--systems 2] [--tool-python PATH]

Measured 2026-11-25 00:37 UTC (machine shared, load average 8 on 2 cores), best of 2, 2 systems x 300 segments:
ours 5.587 s vs torchmetrics 15.222 s, ratio 0.37; every segment score identical in float32.
"""
import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from textmetrics_edu import corpus_eed  # noqa: E402

TOOL = r"""
import json, sys, time
from torchmetrics.functional.text import extended_edit_distance
hyps, refs, repeat = json.loads(sys.stdin.read())
ts = []
for _ in range(repeat):
    t0 = time.perf_counter()
    corpus, sent = extended_edit_distance(hyps, [[r] for r in refs], return_sentence_level_score=True)
    ts.append(time.perf_counter() - t0)
print(json.dumps([min(ts), float(corpus), [float(x) for x in sent.tolist()]]))
"""


def lines(p):
    t = Path(p).read_text(encoding='utf-8').split('\n')
    return t[:-1] if t[-1] == '' else t


def tool_time(hyps, refs, repeat, python):
    try:
        import torchmetrics  # noqa: F401
        exe = sys.executable
    except ImportError:
        exe = python
        if not exe or not Path(exe).exists():
            sys.exit(f"torchmetrics is not importable here and {exe!r} does not exist: give --tool-python")
    out = subprocess.run([exe, '-c', TOOL], input=json.dumps([hyps, refs, repeat]), capture_output=True, text=True,
                         check=True).stdout
    return json.loads(out)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--repeat', type=int, default=3)
    ap.add_argument('--segments', type=int, default=300)
    ap.add_argument('--systems', type=int, default=2)
    ap.add_argument('--tool-python', default=os.environ.get('TME_TORCHMETRICS_PYTHON', '/work/scratch-charedit/bin/python'))
    a = ap.parse_args()
    d = ROOT / 'tests/data/mt/wmt22_en-de'
    refs = lines(d / 'ref.A.de')[:a.segments]
    systems = sorted(p.stem for p in (d / 'sys').glob('*.de'))[:a.systems]
    tot_o = tot_t = 0.0
    for s in systems:
        hyps = lines(d / 'sys' / f'{s}.de')[:a.segments]
        ts = []
        for _ in range(a.repeat):
            t0 = time.perf_counter(); ours = corpus_eed(hyps, refs); ts.append(time.perf_counter() - t0)
        to = min(ts)
        tt, corpus, sent = tool_time(hyps, refs, a.repeat, a.tool_python)
        assert [float(np.float32(x)) for x in ours.segment_scores] == sent
        tot_o += to; tot_t += tt
        print(f"{s:18} ours {to:6.3f} s   torchmetrics {tt:6.3f} s   ratio {to / tt:.2f}   "
              f"(EED {float(ours):.6f}, torchmetrics {corpus:.6f}; segment scores identical in float32)")
    print(f"EED, {len(systems)} systems x {len(refs)} segments: ours {tot_o:.3f} s, torchmetrics 1.9.0 {tot_t:.3f} s, "
          f"ratio ours/torchmetrics {tot_o / tot_t:.2f} (bar <= 1.0)")


if __name__ == '__main__':
    main()
