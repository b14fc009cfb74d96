"""OUR baseline-rescaling file for BERTScore with all-MiniLM-L6-v2 (bert-score publishes none for MiniLM):
textmetrics_edu/data/models/bertscore_baseline_{en,de}_all-MiniLM-L6-v2.tsv, in bert-score 0.3.13's format (CSV:
LAYER,P,R,F; row k = layer k; pass the file to `bert_score.score(..., rescale_with_baseline=True, baseline_path=...)`).

    .venv/bin/python tools/make_bertscore_baseline.py

How: the distinct non-empty lines of the shipped WMT22 en-de test set (tests/data/mt/wmt22_en-de: `src.en` for en,
`ref.A.de` for de) are shuffled with random.Random(0); the first 2 x N (N = 500) make N pairs of unrelated sentences
(line 2i against line 2i+1); each pair is scored without idf at every layer 0..6 (the hidden states of one forward
pass: layer k's output is what bert-score uses with num_layers=k), and the baseline is the mean raw P, R, F per layer.
bert-score's own baselines average 1M pairs of Common Crawl sentences (Zhang et al. 2020, sec. 3): ours is a small
in-domain sample, labelled as ours wherever it is used.
"""
import random
import sys
from pathlib import Path

import numpy as np

from textmetrics_edu.models.bertscore import cosine_similarity_matrix, greedy_match, token_weights
from textmetrics_edu.models.encoder import encode_ids, load_encoder, token_embeddings

ROOT = Path(__file__).resolve().parent.parent
N = 500


def pairs(path: Path, n: int = N, seed: int = 0) -> list[tuple[str, str]]:
    lines = sorted({l.strip() for l in path.read_text(encoding='utf-8').split('\n') if l.strip()})
    random.Random(seed).shuffle(lines)
    return [(lines[2 * i], lines[2 * i + 1]) for i in range(n)]


def baseline_rows(ps, enc):
    texts = sorted({t for p in ps for t in p})
    emb = dict(zip(texts, token_embeddings(texts, enc, batch_size=32, all_layers=True)))
    rows = []
    for k in range(enc.num_layers + 1):
        prf = []
        for h, r in ps:
            wh = token_weights(encode_ids(h, enc), enc.special_ids)
            wr = token_weights(encode_ids(r, enc), enc.special_ids)
            prf.append(greedy_match(cosine_similarity_matrix(emb[h][k], emb[r][k]), wh, wr))
        rows.append((k, *np.mean(np.array(prf), axis=0)))
    return rows


if __name__ == '__main__':
    enc = load_encoder(None, 6)
    d = ROOT / 'tests' / 'data' / 'mt' / 'wmt22_en-de'
    for lang, f in (('en', 'src.en'), ('de', 'ref.A.de')):
        rows = baseline_rows(pairs(d / f), enc)
        out = ROOT / 'textmetrics_edu' / 'data' / 'models' / f'bertscore_baseline_{lang}_all-MiniLM-L6-v2.tsv'
        out.write_text('LAYER,P,R,F\n' + ''.join(f"{k},{p:.6f},{r:.6f},{fs:.6f}\n" for k, p, r, fs in rows))
        print(lang, rows[-1], file=sys.stderr)
