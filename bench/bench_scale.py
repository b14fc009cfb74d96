"""Benchmark (not a test): corpus BLEU and chrF of 1,000,000 segments on Dask with 1 and with 2 worker processes
(`textmetrics_edu.scale`, files read lazily in partitions), and sacreBLEU in one process, in the same run. Prints the
throughput (segments/s), the speed-up of 2 workers over 1, the peak memory (RSS) of each worker and of sacreBLEU's
process, and checks that the scores are identical.

    .venv/bin/python bench/bench_scale.py [--segments 1000000] [--small 100000] [--partition-size 20000]

The corpus: the 18,333 real WMT22 en-de segment pairs (9 systems x 2,037 segments, reference A) replicated to
`--segments` lines. Each replica k gets its own tag token `r<k>` at the end of the hypothesis and of the reference, so
the tokenizer caches of both tools see new strings (a bare replication would measure cache hits); the tag changes the
scores a little, the same for both tools. The memory claim is checked by running the 2-worker case again on `--small`
segments: the peak per worker must not grow with the corpus (it is bounded by the partition).
Numbers depend on the load of the machine (printed): on a shared 2-core machine the speed-up is a lower bound.
"""
import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

D = Path(__file__).resolve().parent.parent / 'tests' / 'data' / 'mt' / 'wmt22_en-de'


def lines(p):
    t = p.read_text(encoding='utf-8').split('\n')
    return t[:-1] if t[-1] == '' else t


def make_corpus(n: int, folder: Path) -> tuple[Path, Path]:
    "hyp.txt and ref.txt of n lines: the real pairs replicated, replica k tagged `r<k>`."
    ref = lines(D / 'ref.A.de')
    pairs = [(h, r) for f in sorted((D / 'sys').glob('*.de')) for h, r in zip(lines(f), ref)]
    hp, rp = folder / f'hyp{n}.txt', folder / f'ref{n}.txt'
    with open(hp, 'w', encoding='utf-8') as fh, open(rp, 'w', encoding='utf-8') as fr:
        for i in range(n):
            k, (h, r) = divmod(i, len(pairs))[0], pairs[i % len(pairs)]
            fh.write(f"{h} r{k}\n"); fr.write(f"{r} r{k}\n")
    return hp, rp


SACRE = """
import resource, sys, time
import sacrebleu
t = time.perf_counter()
hyps = open(sys.argv[1], encoding='utf-8').read().split('\\n')[:-1]
refs = open(sys.argv[2], encoding='utf-8').read().split('\\n')[:-1]
s = (sacrebleu.corpus_bleu if sys.argv[3] == 'bleu' else sacrebleu.corpus_chrf)(hyps, [refs]).score
print(repr(s), time.perf_counter() - t, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024)
"""


def sacrebleu_run(metric, hp, rp):
    "sacreBLEU in a fresh process: (score x100 as sacreBLEU reports it, seconds, peak RSS bytes); None if it died."
    out = subprocess.run([sys.executable, '-c', SACRE, str(hp), str(rp), metric], capture_output=True, text=True)
    if out.returncode != 0: return None, out.returncode   # e.g. -9: killed by the kernel, out of memory
    s, t, m = out.stdout.split()
    return float(s), float(t), int(m)


def _cpu():
    import resource
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def dask_run(metric, hp, rp, workers, partition_size):
    """Ours on a fresh local cluster: (score, seconds including the lazy read, peak RSS per worker in bytes, CPU
    seconds per worker: what the speed-up would be on an idle machine is cpu(1 worker) / max cpu(2 workers))."""
    import logging
    from distributed import Client, LocalCluster
    from textmetrics_edu.scale.engines import dask_score, files_bag
    with LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, host='127.0.0.1',
                      dashboard_address=None, scheduler_kwargs={'dashboard_address': ':0'}, silence_logs=logging.CRITICAL) as cl, Client(cl) as c:
        c.run(lambda: __import__('textmetrics_edu.scale.engines'))   # imports, before the clock starts
        cpu0 = c.run(_cpu)
        t = time.perf_counter()
        r = dask_score(files_bag(hp, [rp], partition_size=partition_size), metric)
        dt = time.perf_counter() - t
        cpu = c.run(_cpu)
        peaks = c.run(lambda: __import__('resource').getrusage(__import__('resource').RUSAGE_SELF).ru_maxrss * 1024)
    return float(r), dt, sorted(peaks.values()), sorted(cpu[w] - cpu0[w] for w in cpu)


def mb(x): return f"{x / 2**20:.0f} MB"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--segments', type=int, default=1_000_000)
    ap.add_argument('--small', type=int, default=400_000, help='the second corpus size of the memory check (large enough '
                    "that each worker fills the metric's own caches, 2^16-2^17 entries: they bound its memory too)")
    ap.add_argument('--sacrebleu', default='bleu,chrf', help="the metrics sacreBLEU also scores ('' for none)")
    ap.add_argument('--partition-size', type=int, default=20_000)
    ap.add_argument('--metrics', default='bleu,chrf')
    a = ap.parse_args()
    print(f"load average before: {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    with tempfile.TemporaryDirectory() as tmp:
        hp, rp = make_corpus(a.segments, Path(tmp))
        hs, rs = make_corpus(a.small, Path(tmp))
        print(f"corpus: {a.segments:,} segments ({(hp.stat().st_size + rp.stat().st_size) / 2**20:.0f} MB of text), "
              f"partitions of {a.partition_size:,} lines")
        n = a.segments
        for metric in a.metrics.split(','):
            sacre = sacrebleu_run(metric, hp, rp) if metric in a.sacrebleu.split(',') else None
            r1, t1, m1, c1 = dask_run(metric, hp, rp, 1, a.partition_size)
            r2, t2, m2, c2 = dask_run(metric, hp, rp, 2, a.partition_size)
            _, _, m_small, _ = dask_run(metric, hs, rs, 2, a.partition_size)
            print()
            if sacre is None: print(f"{metric}: sacreBLEU not run (--sacrebleu)")
            elif sacre[0] is None: print(f"{metric}: sacreBLEU 1 process died (exit status {sacre[1]}; -9: killed, out of memory)")
            else: print(f"{metric}: sacreBLEU 1 process {sacre[1]:7.1f} s ({n / sacre[1]:8.0f} seg/s, peak {mb(sacre[2])})")
            print(f"{metric}: ours, 1 worker    {t1:7.1f} s ({n / t1:8.0f} seg/s, peak per worker {', '.join(map(mb, m1))}, "
                  f"CPU {c1[0]:.0f} s)")
            print(f"{metric}: ours, 2 workers   {t2:7.1f} s ({n / t2:8.0f} seg/s, peak per worker {', '.join(map(mb, m2))}, "
                  f"CPU {', '.join(f'{x:.0f}' for x in c2)} s)")
            print(f"{metric}: speed-up 2 workers / 1 worker = {t1 / t2:.2f}x wall clock; {c1[0] / max(c2):.2f}x from CPU time "
                  f"(what an idle machine gives); peak per worker at {a.small:,} segments: {', '.join(map(mb, m_small))} "
                  f"(vs {', '.join(map(mb, m2))} at {n:,})")
            line = f"{metric}: 1 and 2 workers identical: {r1 == r2} ({r1!r})"
            if sacre and sacre[0] is not None:
                line += (f"; x100 vs sacreBLEU's score: {100 * r2!r} vs {sacre[0]!r} (difference {abs(100 * r2 - sacre[0]):.1e}); "
                         f"ours (2 workers) / sacreBLEU: {sacre[1] / t2:.2f}x faster")
            print(line)
            print(f"load average now: {os.getloadavg()[0]:.2f}")


if __name__ == '__main__':
    main()
