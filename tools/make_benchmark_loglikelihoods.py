"""Score real benchmark items with the package's own language models, once: the per-choice log-likelihoods the
benchmark lessons (nbs/80_benchmark_scoring.ipynb, ...) and tests load.

    .venv/bin/python tools/make_benchmark_loglikelihoods.py      (needs the [models] extra: torch, transformers)

Reads the shared slices of BLiMP (12 paradigms x the first 50 pairs) and HellaSwag (the first 400 validation items)
and writes, for two character-level models trained on Tiny Shakespeare's training text (tests/data/lm/tinyshakespeare),
one plain JSONL per (model, task) into tests/data/benchmark/:

    {"doc_id": int, "group": str, "context": str, "choices": [str, ...], "gold": int,
     "loglikelihoods": [float, ...], "unconditional_loglikelihoods": [float, ...], "is_greedy": [bool, ...]}

A request is built as lm-evaluation-harness 0.4.13 builds a `multiple_choice` request: the continuation is
`target_delimiter + choice` (delimiter " "), scored after the context; the unconditional log-likelihood (for
`acc_mutual_info`) scores the same continuation after an empty context (not stored for BLiMP, whose context is
already empty). BLiMP's context is empty (lm-eval's
`blimp_*` tasks); HellaSwag's is `activity_label + ": " + ctx` (see the data README: ctx_b is not capitalised here).
An empty context is the start of a line for our models ("\\n" for the GPT-2, <s> padding for the n-gram).

Models (deterministic: seeds fixed, CPU, one thread):
  * `gpt2`: `models.neural_lm.train_tiny_gpt2` (the neural LM lesson's tiny GPT-2 and defaults: 400 steps, seed 0) on
    the raw training text (case kept, lines joined by "\\n"); the vocabulary is every character of the training text
    and of the benchmark slices (a character never seen in training keeps its random embedding: an honest open
    vocabulary). Each character is scored in windows of 64 with stride 32 (`strided_windows`); `is_greedy` is whether
    every continuation character was the model's argmax.
  * `ngram`: a character 5-gram Kneser-Ney model (`lm.ngram_lm.train_ngram_lm`, discount 0.75, one </s>,
    characters seen once become <UNK>) on the same lines; `is_greedy` is not computed (omitted).
Log-likelihoods are natural logs, float64 (the n-gram's base-2 logs times ln 2).
"""
from __future__ import annotations

import json
import math
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault('HF_HUB_OFFLINE', '1'); os.environ.setdefault('TRANSFORMERS_OFFLINE', '1')

from textmetrics_edu.lm.ngram_lm import train_ngram_lm  # noqa: E402
from textmetrics_edu.models.neural_lm import strided_windows, train_tiny_gpt2  # noqa: E402

SHARED = ROOT.parent.parent / 'shared' / 'data' / 'llm' / 'benchmarks'
if not SHARED.exists(): SHARED = Path('/work/shared/data/llm/benchmarks')
TRAIN = ROOT / 'tests' / 'data' / 'lm' / 'tinyshakespeare' / 'train.txt'
OUT = ROOT / 'tests' / 'data' / 'benchmark'
BLIMP_UIDS = sorted(p.stem for p in (SHARED / 'blimp' / 'data').glob('*.jsonl'))
BLIMP_PAIRS, HELLASWAG_ITEMS, DELIM = 50, 400, ' '


def items() -> dict[str, list[dict]]:
    out = {'blimp': [], 'hellaswag': []}
    for uid in BLIMP_UIDS:
        for line in (SHARED / 'blimp' / 'data' / f'{uid}.jsonl').read_text(encoding='utf-8').splitlines()[:BLIMP_PAIRS]:
            d = json.loads(line)
            out['blimp'].append({'group': uid, 'context': '', 'choices': [d['sentence_good'], d['sentence_bad']], 'gold': 0})
    for line in (SHARED / 'hellaswag' / 'hellaswag_val_first1000.jsonl').read_text(encoding='utf-8').splitlines()[:HELLASWAG_ITEMS]:
        d = json.loads(line)
        out['hellaswag'].append({'group': d['activity_label'], 'context': f"{d['activity_label']}: {d['ctx']}",
                                 'choices': d['endings'], 'gold': d['label']})
    for task in out:
        for i, d in enumerate(out[task]): d['doc_id'] = i
    return out


def gpt2_scorer(train_text: str, extra_chars: str):
    import torch
    chars = ''.join(sorted(set(train_text) | set(extra_chars)))
    index = {c: i for i, c in enumerate(chars)}
    run = train_tiny_gpt2([index[c] for c in train_text], len(chars))
    model = run.model

    def score_many(pairs: list) -> list[tuple[float, bool]]:
        "(log-likelihood, is_greedy) of each (context, continuation): all windows of all texts, batched by length."
        texts = ['\n' + c + k for c, k in pairs]
        jobs = []  # (text index, begin, end, scored)
        for ti, t in enumerate(texts):
            jobs += [(ti, b, e, s) for b, e, s in strided_windows(len(t), max_length=64, stride=32)]
        ids = [torch.tensor([index[ch] for ch in t]) for t in texts]
        tot, greedy = [0.0] * len(texts), [True] * len(texts)
        by_len = {}
        for j in jobs: by_len.setdefault(j[2] - j[1], []).append(j)
        for L, group in by_len.items():
            for k in range(0, len(group), 256):
                g = group[k:k + 256]
                x = torch.stack([ids[ti][b:e] for ti, b, e, _ in g])
                with torch.no_grad(): logp = torch.log_softmax(model(input_ids=x).logits[:, :-1].double(), -1)
                lp = logp.gather(2, x[:, 1:, None])[..., 0]  # ln p(x_t | window), t = 1..L-1
                hit = logp.argmax(-1) == x[:, 1:]
                for row, h, (ti, b, e, s) in zip(lp.tolist(), hit.tolist(), g):
                    first = len(texts[ti]) - len(pairs[ti][1])  # the first continuation position
                    for t in range(max(e - s, first), e):
                        tot[ti] += row[t - b - 1]
                        greedy[ti] = greedy[ti] and h[t - b - 1]
        return list(zip(tot, greedy))
    desc = (f"tiny GPT-2 (models.neural_lm.train_tiny_gpt2 defaults: {run.steps} steps, seed {run.seed}, "
            f"{sum(p.numel() for p in model.parameters())} parameters, {len(chars)} characters, final training loss "
            f"{run.losses[-1]:.4f} nats, {run.seconds:.0f} s), windows of 64 characters, stride 32")
    return score_many, desc


def ngram_scorer(lines: list[str]):
    m = train_ngram_lm([list(l) for l in lines], 5, 'kneser-ney', discount=0.75, padding='eos', unk_cutoff=2)
    ln2 = math.log(2)

    def score_many(pairs: list) -> list[tuple[float, None]]:
        lps = m.logprobs([list(c + k) for c, k in pairs])  # log2 p of each character, then of </s>
        return [(float(sum(float(x) for x in lp[len(c):len(c) + len(k)]) * ln2), None) for lp, (c, k) in zip(lps, pairs)]
    return score_many, f"character 5-gram Kneser-Ney (D = 0.75, one </s>, unk_cutoff 2, vocabulary {m.V})"


def main():
    import torch, transformers
    t0 = time.time()
    data = items()
    lines = [l for l in TRAIN.read_text(encoding='utf-8').splitlines() if l.strip()]
    train_text = '\n' + '\n'.join(lines) + '\n'
    extra = ''.join({c for task in data.values() for d in task for c in d['context'] + ''.join(d['choices']) + DELIM})
    scorers = {'gpt2': gpt2_scorer(train_text, extra), 'ngram': ngram_scorer(lines)}
    OUT.mkdir(parents=True, exist_ok=True)
    made = {}
    for name, (score, desc) in scorers.items():
        for task, docs in data.items():
            path = OUT / f'{task}_{name}.jsonl'
            with open(path, 'w', encoding='utf-8') as f:
                pairs = [(d['context'], DELIM + c) for d in docs for c in d['choices']]
                unc = [('', DELIM + c) for d in docs if d['context'] for c in d['choices']]
                got = dict(zip(pairs + unc, score(pairs + unc)))
                for d in docs:
                    cond = [got[(d['context'], DELIM + c)] for c in d['choices']]
                    row = {'doc_id': d['doc_id'], 'group': d['group'], 'context': d['context'], 'choices': d['choices'],
                           'gold': d['gold'], 'loglikelihoods': [x for x, _ in cond]}
                    if d['context']:  # with an empty context (BLiMP) the unconditional log-likelihood is the same number
                        row['unconditional_loglikelihoods'] = [got[('', DELIM + c)][0] for c in d['choices']]
                    if cond[0][1] is not None: row['is_greedy'] = [g for _, g in cond]
                    f.write(json.dumps(row, ensure_ascii=False) + '\n')
            made[path.name] = desc
            print(path, len(docs), "items", f"{time.time() - t0:.0f} s", flush=True)
    (OUT / 'models.json').write_text(json.dumps({'made_by': 'tools/make_benchmark_loglikelihoods.py', 'files': made,
                                                 'versions': {'torch': torch.__version__, 'transformers': transformers.__version__}},
                                                indent=1) + '\n')


if __name__ == '__main__':
    main()
