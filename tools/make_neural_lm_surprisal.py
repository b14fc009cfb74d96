"""Precompute the neural LM explorer's data: the surprisal (bits) of every character of a few Tiny Shakespeare test
passages under the lesson's tiny GPT-2 and the character n-gram models (nbs/35_neural_lm.ipynb).

    .venv/bin/python tools/make_neural_lm_surprisal.py      (needs the [models] extra: torch, transformers)

Writes textmetrics_edu/data/models/neural_lm_surprisal.json. The numbers are those of the lesson: the GPT-2 of
`train_tiny_gpt2(train, 39)` (its defaults: 400 steps, seed 0), the very weights the lesson loads
(tests/data/models/neural_lm/tiny_gpt2_400.npz, stored by tools/make_neural_lm_run.py), scored with `window_logprobs`
(window 64, stride 32) over the first 1,000 test lines; the character n-grams (add-one unigram, Kneser-Ney D = 0.75 above) trained on every
training line with one </s> per line. The site cannot run torch, so its explorer shows these stored numbers.
"""
from __future__ import annotations

import json
import math
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault('HF_HUB_OFFLINE', '1'); os.environ.setdefault('TRANSFORMERS_OFFLINE', '1')

from textmetrics_edu.lm.ngram_lm import read_sentences, train_ngram_lm  # noqa: E402
from textmetrics_edu.models.neural_lm import CharTokenizer, char_stream, load_trained_lm, window_logprobs  # noqa: E402

DATA = ROOT / 'tests' / 'data' / 'lm' / 'tinyshakespeare'
OUT = ROOT / 'textmetrics_edu' / 'data' / 'models' / 'neural_lm_surprisal.json'
RUN = ROOT / 'tests' / 'data' / 'models' / 'neural_lm' / 'tiny_gpt2_400.npz'   # the lesson's model (make_neural_lm_run.py)
PASSAGES = (6, 120, 480, 905)  # the first of two consecutive test lines (0-based) in each passage
EVAL = dict(max_length=64, stride=32)


def compute() -> dict:
    import torch, transformers
    train_sents, test_sents = read_sentences(DATA / 'train.txt'), read_sentences(DATA / 'test.txt')[:1000]
    train_text, test_text = char_stream(train_sents), char_stream(test_sents)
    tok = CharTokenizer.from_text(train_text)
    run = load_trained_lm(RUN)
    assert run.model.config.vocab_size == tok.vocab_size
    bits = {'tiny GPT-2': [-x / math.log(2) for x in window_logprobs(run.model, tok.encode(test_text), **EVAL)]}
    chars = [list(' '.join(s)) for s in train_sents], [list(' '.join(s)) for s in test_sents]
    for n in (1, 2, 3, 4):
        m = train_ngram_lm(chars[0], n, 'laplace' if n == 1 else 'kneser-ney', padding='eos',
                           **({} if n == 1 else {'discount': 0.75}))
        bits[f'char {n}-gram'] = [-float(x) for a in m.logprobs(chars[1]) for x in a]
    starts = [1]
    for s in test_sents: starts.append(starts[-1] + len(' '.join(s)) + 1)  # where test line i begins in test_text
    passages = {}
    for i in PASSAGES:
        a, b = starts[i], starts[i + 2]  # lines i and i + 1, with their ends; lp[t - 1] scores test_text[t]
        text = test_text[a:b]
        label = f"test lines {i + 1}-{i + 2}: {test_text[a:starts[i + 1] - 1][:28]}..."
        passages[label] = {'text': text, 'bits': {k: [round(x, 3) for x in v[a - 1:b - 1]] for k, v in bits.items()}}
    totals = {k: round(sum(v) / len(v), 4) for k, v in bits.items()}
    return {'made_by': 'tools/make_neural_lm_surprisal.py',
            'model': (f"tiny GPT-2 ({sum(p.numel() for p in run.model.parameters())} parameters; train_tiny_gpt2 "
                      f"defaults: {run.steps} steps, seed {run.seed}, final training loss {run.losses[-1]:.4f} nats), "
                      f"window 64, stride 32"),
            'versions': {'torch': torch.__version__, 'transformers': transformers.__version__},
            'ngrams': "character n-grams on all training lines, one </s> per line: add-one unigram, Kneser-Ney D = 0.75",
            'test_bits_per_char': totals, 'passages': passages}


if __name__ == '__main__':
    d = compute()
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps(d, ensure_ascii=False, indent=0) + '\n', encoding='utf-8')
    print(f"wrote {OUT.relative_to(ROOT)} ({OUT.stat().st_size:,} bytes): {list(d['passages'])}; {d['test_bits_per_char']}")
