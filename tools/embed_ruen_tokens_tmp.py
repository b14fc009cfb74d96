"""ru-en: per-layer pooled embeddings (as layer_embeddings) AND layer-6 token embeddings (for BERTScore F on the same subset)."""
import sys, time
from pathlib import Path
import numpy as np, torch
torch.set_num_threads(1)
from textmetrics_edu.models.encoder import load_encoder, encode_ids
RU = Path('/work/shared/data/mt/wmt22_ru-en_da')
cache = Path(sys.argv[1])
enc = load_encoder()
files = sorted((RU / 'sys').iterdir()) + [RU / 'ref.A.en']
cols = [f.read_text(encoding='utf-8').split('\n')[:-1] for f in files]
seen = set()
for i in range(0, len(cols[0]), 100):
    texts = [t for c in cols for t in c[i:i + 100] if t not in seen]; seen.update(texts)
    texts = list(dict.fromkeys(texts)); name = f'ruen_{i // 100:03d}'
    if (cache / f'{name}.npz').exists(): continue
    t0 = time.time()
    by = {}
    for t in texts: by.setdefault(len(encode_ids(t, enc)), []).append(t)
    pooled, toks = {}, {}
    with torch.no_grad():
        for n in sorted(by):
            for b in range(0, len(by[n]), 64):
                batch = by[n][b:b + 64]
                x = torch.tensor([encode_ids(t, enc) for t in batch])
                hs = enc.model(x, attention_mask=torch.ones_like(x), output_hidden_states=True).hidden_states
                P = torch.stack(hs, 1).mean(2).numpy().astype(np.float32)
                for k, t in enumerate(batch): pooled[t] = P[k]; toks[t] = hs[-1][k].numpy().astype(np.float32)
    np.savez(cache / f'{name}.tmp.npz', texts=np.array(texts, dtype=object), emb=np.stack([pooled[t] for t in texts]))
    np.savez(cache / f'{name}_tok.npz', texts=np.array(texts, dtype=object), lens=np.array([len(toks[t]) for t in texts]),
             tok=np.concatenate([toks[t] for t in texts]))
    (cache / f'{name}.tmp.npz').rename(cache / f'{name}.npz')
    print(name, len(texts), f'{len(texts) / (time.time() - t0):.1f}/s', time.strftime('%H:%M:%S'), flush=True)
