"""Stage 1 of tools/train_learned_metric.py: embed the texts (per-layer mean-pooled MiniLM) into a cache folder of shards."""
import hashlib, random, sys, time
from pathlib import Path
import numpy as np
import torch
torch.set_num_threads(1); torch.use_deterministic_algorithms(True)
from textmetrics_edu.models.encoder import load_encoder
from textmetrics_edu.models.comet_minilm import layer_embeddings

TRAIN = Path('/work/shared/data/llm/mt/wmt22_toen_da_train')
RU = Path('/work/shared/data/mt/wmt22_ru-en_da')

def read_tsv(p):
    lines = Path(p).read_text(encoding='utf-8').split('\n')
    head = lines[0].split('\t'); return [dict(zip(head, l.split('\t'))) for l in lines[1:] if l]

def train_groups(root=TRAIN, seed=0):
    "(lp, seg_id) -> distinct texts (ref first), in a seeded shuffled order."
    g = {}
    for lp in ('de-en', 'uk-en', 'zh-en'):
        for r in read_tsv(root / f'{lp}.tsv'):
            k = (lp, int(r['seg_id'])); g.setdefault(k, [r['ref']])
            if r['mt'] not in g[k]: g[k].append(r['mt'])
    keys = sorted(g); random.Random(seed).shuffle(keys)
    return keys, g

def main(which, cache):
    enc = load_encoder(); cache = Path(cache); cache.mkdir(parents=True, exist_ok=True)
    if which == 'train':
        keys, g = train_groups()
        chunks = [keys[i:i + 50] for i in range(0, len(keys), 50)]
        jobs = [(f'train_{i:03d}', [t for k in ch for t in g[k]]) for i, ch in enumerate(chunks)]
    else:
        files = sorted((RU / 'sys').iterdir()) + [RU / 'ref.A.en']
        cols = [f.read_text(encoding='utf-8').split('\n')[:-1] for f in files]
        seen, jobs = set(), []
        for i in range(0, len(cols[0]), 100):   # 100 segments (all systems and the reference) per shard, in line order
            texts = [t for c in cols for t in c[i:i + 100] if t not in seen]; seen.update(texts)
            jobs.append((f'ruen_{i // 100:03d}', texts))
    for name, texts in jobs:
        if (cache / f'{name}.npz').exists(): continue
        texts = list(dict.fromkeys(texts)); t0 = time.time()
        e = layer_embeddings(texts, enc)
        np.savez(cache / f'{name}.tmp.npz', texts=np.array(texts, dtype=object), emb=e)
        (cache / f'{name}.tmp.npz').rename(cache / f'{name}.npz')
        print(name, len(texts), f'{len(texts) / (time.time() - t0):.1f}/s', time.strftime('%H:%M:%S'), flush=True)

if __name__ == '__main__': main(sys.argv[1], sys.argv[2])
