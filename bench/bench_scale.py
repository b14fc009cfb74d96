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
import resource
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
    "sacreBLEU in a fresh process: (score x100 as sacreBLEU reports it, seconds, peak RSS bytes)."
    out = subprocess.run([sys.executable, '-c', SACRE, str(hp), str(rp), metric], capture_output=True, text=True, check=True)
    s, t, m = out.stdout.split()
    return float(s), float(t), int(m)


def dask_run(metric, hp, rp, workers, partition_size):
    "Ours on a fresh local cluster: (score, seconds including the lazy read, peak RSS per worker in bytes)."
    import logging
    from distributed import Client, LocalCluster
    from textmetrics_edu.scale.engines import dask_score, files_bag
    with LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, host='127.0.0.1',
                      dashboard_address=None, scheduler_kwargs={'dashboard_address': ':0'}, silence_logs=logging.CRITICAL) as cl, Client(cl) as c:
        c.run(lambda: __import__('textmetrics_edu.scale.engines'))   # imports, before the clock starts
        t = time.perf_counter()
        r = dask_score(files_bag(hp, [rp], partition_size=partition_size), metric)
        dt = time.perf_counter() - t
        peaks = c.run(lambda: __import__('resource').getrusage(__import__('resource').RUSAGE_SELF).ru_maxrss * 1024)
    return float(r), dt, sorted(peaks.values())


def mb(x): return f"{x / 2**20:.0f} MB"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--segments', type=int, default=1_000_000)
    ap.add_argument('--small', type=int, default=100_000, help='the second corpus size of the memory check')
    ap.add_argument('--partition-size', type=int, default=20_000)
    ap.add_argument('--metrics', default='bleu,chrf')
    a = ap.parse_args()
    print(f"load average before: {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    with tempfile.TemporaryDirectory() as tmp:
        hp, rp = make_corpus(a.segments, Path(tmp))
        hs, rs = make_corpus(a.small, Path(tmp))
        print(f"corpus: {a.segments:,} segments ({(hp.stat().st_size + rp.stat().st_size) / 2**20:.0f} MB of text), "
              f"partitions of {a.partition_size:,} lines")
        for metric in a.metrics.split(','):
            s_score, s_t, s_mem = sacrebleu_run(metric, hp, rp)
            r1, t1, m1 = dask_run(metric, hp, rp, 1, a.partition_size)
            r2, t2, m2 = dask_run(metric, hp, rp, 2, a.partition_size)
            _, _, m_small = dask_run(metric, hs, rs, 2, a.partition_size)
            n = a.segments
            print(f"\n{metric}: sacreBLEU 1 process {s_t:7.1f} s ({n / s_t:8.0f} seg/s, peak {mb(s_mem)})")
            print(f"{metric}: ours, 1 worker    {t1:7.1f} s ({n / t1:8.0f} seg/s, peak per worker {', '.join(map(mb, m1))})")
            print(f"{metric}: ours, 2 workers   {t2:7.1f} s ({n / t2:8.0f} seg/s, peak per worker {', '.join(map(mb, m2))})")
            print(f"{metric}: speed-up 2 workers / 1 worker = {t1 / t2:.2f}x; ours (2 workers) / sacreBLEU = {s_t / t2:.2f}x "
                  f"faster; peak per worker at {a.small:,} segments: {', '.join(map(mb, m_small))} "
                  f"(vs {', '.join(map(mb, m2))} at {n:,})")
            print(f"{metric}: 1 and 2 workers identical: {r1 == r2} ({r1!r}); x100 vs sacreBLEU's score: "
                  f"{100 * r2!r} vs {s_score!r} (difference {abs(100 * r2 - s_score):.1e})")
            print(f"load average now: {os.getloadavg()[0]:.2f}")


if __name__ == '__main__':
    main()
