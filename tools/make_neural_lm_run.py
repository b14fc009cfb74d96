"""Train the neural LM lesson's tiny GPT-2 once and store it (nbs/35_neural_lm.ipynb loads it instead of training 400
steps live; the lesson trains the first 40 steps live and checks them against the stored losses).

    .venv/bin/python tools/make_neural_lm_run.py      (needs the [models] extra: torch, transformers; ~15 s)

`train_tiny_gpt2(train, 39)` with its defaults (400 AdamW steps of 32 windows, lr 5e-3, seed 0, one thread,
deterministic algorithms) on every training line of Tiny Shakespeare, in the lesson's normalisation (`char_stream`).
Writes tests/data/models/neural_lm/tiny_gpt2_400.npz with `models.neural_lm.save_trained_lm`: the parameters (float32,
by name), the 400 training losses (float64: the Python floats exactly) and the record (config, options, seconds,
library versions) as JSON. `tests/test_neural_lm.py` (slow set) retrains and compares with the stored file.
"""
from __future__ import annotations

import hashlib
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault('HF_HUB_OFFLINE', '1'); os.environ.setdefault('TRANSFORMERS_OFFLINE', '1')

from textmetrics_edu.lm.ngram_lm import read_sentences  # noqa: E402
from textmetrics_edu.models.neural_lm import CharTokenizer, char_stream, save_trained_lm, train_tiny_gpt2  # noqa: E402

DATA = ROOT / 'tests' / 'data' / 'lm' / 'tinyshakespeare'
OUT = ROOT / 'tests' / 'data' / 'models' / 'neural_lm' / 'tiny_gpt2_400.npz'


def compute():
    "The lesson's run: `train_tiny_gpt2` with its defaults on the training text (a `TrainedLM`)."
    train_text = char_stream(read_sentences(DATA / 'train.txt'))
    tok = CharTokenizer.from_text(train_text)
    return train_tiny_gpt2(tok.encode(train_text), tok.vocab_size)


if __name__ == '__main__':
    import torch, transformers
    run = compute()
    OUT.parent.mkdir(parents=True, exist_ok=True)
    save_trained_lm(run, OUT, made_by='tools/make_neural_lm_run.py',
                    versions={'torch': torch.__version__, 'transformers': transformers.__version__})
    sha = hashlib.sha256(OUT.read_bytes()).hexdigest()
    print(f"{run}\nwrote {OUT.relative_to(ROOT)} ({OUT.stat().st_size:,} bytes, sha256 {sha}); "
          f"{sum(p.numel() for p in run.model.parameters()):,} parameters")
