"""Benchmark (not a test): rep/l and seq-rep-n, ours against the authors' code (facebookresearch/unlikelihood_training,
`custom/metrics.py`), in the same run, on Tiny Shakespeare (69 sequences of 256 tokens, a trigram model's predictions
and greedy continuations). Prints seconds and the ratio ours/theirs.

The authors' code needs torch and is CC BY-NC (not in this repository): point UL_CODE at a folder holding their
`custom/metrics.py` as `fairseq/custom/metrics.py` with the two fairseq imports stubbed (see
`tests/data/lm/unlikelihood/README.md`) and run with a Python that has torch and nltk, the package on the path:

    UL_CODE=/path/to/folder PYTHONPATH=. /path/to/venv-with-torch/bin/python bench/bench_repetition.py

Without it, only our timings are printed.
"""
import os
import sys
import time
from pathlib import Path

from textmetrics_edu import corpus_rep_l, corpus_seq_rep
from textmetrics_edu.lm.next_token import NextTokenModel

TS = Path(__file__).resolve().parent.parent / 'tests' / 'data' / 'lm' / 'tinyshakespeare'


def best(f, k=3):
    ts = []
    for _ in range(k):
        t = time.perf_counter(); f(); ts.append(time.perf_counter() - t)
    return min(ts)


if __name__ == '__main__':
    train, test = (TS.joinpath(f).read_text(encoding='utf-8').split() for f in ('train.txt', 'test.txt'))
    model = NextTokenModel(3).fit(train)
    seqs = [test[i:i + 256] for i in range(0, len(test) - 255, 256)]
    preds, cont = [model.predictions(s) for s in seqs], [model.greedy(s[:50], 100) for s in seqs]
    P, S, Cn = [' '.join(p) for p in preds], [' '.join(s) for s in seqs], [' '.join(c) for c in cont]
    ours_rep = best(lambda: corpus_rep_l(P, S, context=128))
    ours_seq = best(lambda: corpus_seq_rep(Cn))
    print(f"ours: rep/128 {ours_rep:.4f} s, seq-rep-4 {ours_seq:.4f} s")
    if not os.environ.get('UL_CODE'): print('UL_CODE not set: the authors\' code is skipped'); raise SystemExit
    sys.path.insert(0, os.environ['UL_CODE'])
    import torch
    from fairseq.custom.metrics import TrainingMetrics, Metrics
    inputs = []  # per sequence: one-hot logits (argmax = our prediction) over the sequence's own ids, and the targets
    for p, s in zip(preds, seqs):
        v = {}
        pi, ti = torch.tensor([v.setdefault(x, len(v)) for x in p]), torch.tensor([v.setdefault(x, len(v)) for x in s])
        logits = torch.zeros(len(ti), len(v)); logits[torch.arange(len(ti)), pi] = 1.0
        inputs.append((logits, ti))

    def theirs_rep():
        for logits, t in inputs: TrainingMetrics.repeat_at_1(logits, t, context_length=128)

    def theirs_seq():
        m = Metrics(); m.update(cont); m.report()
    t_rep, t_seq = best(theirs_rep), best(theirs_seq)
    print(f"theirs: rep/128 {t_rep:.4f} s (logits built beforehand), seq-rep-4 {t_seq:.4f} s")
    print(f"ratio ours/theirs: rep/128 {ours_rep / t_rep:.3f}, seq-rep-4 {ours_seq / t_seq:.3f}")
