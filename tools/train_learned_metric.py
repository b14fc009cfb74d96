"""Train comet_minilm's estimator (COMET's layer mix + regressor over frozen all-MiniLM-L6-v2 embeddings) on WMT22
de-en, uk-en, zh-en crowd DA; validate on WMT22 ru-en DA. ja-en and cs-en are never read (held out).

    # stage 1 (hours on a busy 2-core machine): per-layer mean-pooled embeddings into a cache folder of shards
    nice -n 10 .venv/bin/python tools/train_learned_metric.py embed-train /work/envs/comet_cache
    nice -n 10 .venv/bin/python tools/train_learned_metric.py embed-ruen /work/envs/comet_cache
    # stage 2 (a few minutes): train on the first N_TRAIN_SHARDS shards, write the weights and the lesson's data
    nice -n 10 .venv/bin/python tools/train_learned_metric.py train /work/envs/comet_cache

Stage 2 run twice gives bit-identical weights (one thread, fixed seeds; checked: see tests/data/comet_minilm/README.md,
which also records the subset used and the validation figures).
"""
import hashlib
import json
import random
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
TRAIN = Path('/work/shared/data/llm/mt/wmt22_toen_da_train')
RU = Path('/work/shared/data/mt/wmt22_ru-en_da')
PAIRS = ('de-en', 'uk-en', 'zh-en')   # never ja-en, cs-en
GROUPS_PER_SHARD = 50    # (pair, segment) groups per training shard: the reference and every judged system output
N_TRAIN_SHARDS = 86      # shards used for training: what the shared 2-core machine embedded in time (of 117)
RU_LINES_PER_SHARD = 100
N_RU_SHARDS = 16         # ru-en shards used for validation: lines 1-1600 of the 2,016
LESSON_TRAIN_ROWS, LESSON_RU_LINES = 400, 30   # the lesson's live sample
HPARAMS = dict(hidden=(128, 32), epochs=6, lr=3e-4, batch_size=64, dropout=0.1, seed=0)


def read_tsv(p):
    lines = Path(p).read_text(encoding='utf-8').split('\n')
    head = lines[0].split('\t')
    return [dict(zip(head, l.split('\t'))) for l in lines[1:] if l]


def train_groups(seed=0):
    "{(pair, seg_id): distinct texts, reference first}, and the keys in a seeded shuffled order (the shard order)."
    g = {}
    for lp in PAIRS:
        for r in read_tsv(TRAIN / f'{lp}.tsv'):
            k = (lp, int(r['seg_id'])); g.setdefault(k, [r['ref']])
            if r['mt'] not in g[k]: g[k].append(r['mt'])
    keys = sorted(g); random.Random(seed).shuffle(keys)
    return keys, g


def ru_columns():
    files = sorted((RU / 'sys').iterdir()) + [RU / 'ref.A.en']
    return [f.stem for f in files], [f.read_text(encoding='utf-8').split('\n')[:-1] for f in files]


def embed(which, cache):
    import torch
    torch.set_num_threads(1)
    from textmetrics_edu.models.comet_minilm import layer_embeddings
    from textmetrics_edu.models.encoder import load_encoder
    enc = load_encoder()
    cache.mkdir(parents=True, exist_ok=True)
    if which == 'train':
        keys, g = train_groups()
        jobs = [(f'train_{i // GROUPS_PER_SHARD:03d}', [t for k in keys[i:i + GROUPS_PER_SHARD] for t in g[k]])
                for i in range(0, len(keys), GROUPS_PER_SHARD)]
    else: return embed_ruen(enc, cache)
    for name, texts in jobs:
        if (cache / f'{name}.npz').exists(): continue
        texts = list(dict.fromkeys(texts)); t0 = time.time()
        e = layer_embeddings(texts, enc, cache=False)
        np.savez(cache / f'{name}.tmp.npz', texts=np.array(texts, dtype=object), emb=e)
        (cache / f'{name}.tmp.npz').rename(cache / f'{name}.npz')
        print(name, len(texts), f'{len(texts) / (time.time() - t0):.1f}/s', time.strftime('%H:%M:%S'), flush=True)


def embed_ruen(enc, cache):
    """ru-en, 100 lines (all systems and the reference) per shard in line order: the per-layer mean-pooled vectors (the
    computation of `layer_embeddings`) and the layer-6 token vectors (for BERTScore F on the same lines)."""
    _, cols = ru_columns()
    embed_columns(enc, cache, 'ruen', cols)


def embed_columns(enc, cache, prefix, cols, lines_per_shard=RU_LINES_PER_SHARD):
    """Embed parallel text columns (systems and the reference, one list of lines each), `lines_per_shard` lines of every
    column per shard `<prefix>_<k>.npz` (texts, per-layer mean-pooled vectors) and `<prefix>_<k>_tok.npz` (the layer-6
    token vectors); a text already in an earlier shard is not embedded again; existing shards are kept."""
    import torch
    from textmetrics_edu.models.encoder import encode_ids
    seen = set()
    for i in range(0, len(cols[0]), lines_per_shard):
        texts = [t for c in cols for t in c[i:i + lines_per_shard] if t not in seen]; seen.update(texts)
        texts = list(dict.fromkeys(texts)); name = f'{prefix}_{i // lines_per_shard:03d}'
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


def load_shards(cache, prefix, n):
    emb = {}
    for i in range(n):
        z = np.load(cache / f'{prefix}_{i:03d}.npz', allow_pickle=True)
        emb.update(zip(z['texts'].tolist(), z['emb']))
    return emb


def n_present(cache, prefix):
    n = 0
    while (cache / f'{prefix}_{n:03d}.npz').exists(): n += 1
    return n


def train(cache, n_train=None, n_ru=None, out=None):
    import torch
    torch.set_num_threads(1)
    import scipy.stats
    from textmetrics_edu.models.comet_minilm import train_estimator, mix_layers, comet_features, regress, save_estimator, weights_id
    n_train = n_train or N_TRAIN_SHARDS or n_present(cache, 'train')
    n_ru = n_ru or N_RU_SHARDS or n_present(cache, 'ruen')
    keys, _ = train_groups()
    used = set(keys[:n_train * GROUPS_PER_SHARD])
    E = load_shards(cache, 'train', n_train)
    rows = [r for lp in PAIRS for r in read_tsv(TRAIN / f'{lp}.tsv') if (lp, int(r['seg_id'])) in used]
    Eh = np.stack([E[r['mt']] for r in rows]); Er = np.stack([E[r['ref']] for r in rows])
    y = np.array([float(r['da_z']) for r in rows], np.float32)
    # validation: ru-en DA rows of the embedded lines
    R = load_shards(cache, 'ruen', n_ru)
    names, cols = ru_columns(); ref = cols[-1]; sys_text = dict(zip(names[:-1], cols[:-1]))
    vrows = [r for r in read_tsv(RU / 'human_da_seg.tsv') if int(r['line']) - 1 < n_ru * RU_LINES_PER_SHARD]
    Vh = np.stack([R[sys_text[r['system']][int(r['line']) - 1]] for r in vrows])
    Vr = np.stack([R[ref[int(r['line']) - 1]] for r in vrows])
    vz = np.array([float(r['z']) for r in vrows])

    def predict(est, A, B): return regress(comet_features(mix_layers(A, est), mix_layers(B, est)), est)

    def validate(est): return float(scipy.stats.kendalltau(vz, predict(est, Vh, Vr))[0])
    log = []
    t0 = time.time()
    est = train_estimator(Eh, Er, y, **HPARAMS, validate=validate,
                          log=lambda ep, loss, v: (log.append(dict(epoch=ep, train_mse=loss, val_kendall=v)),
                                                   print(f'epoch {ep}: train MSE {loss:.4f}, ru-en Kendall {v:.4f}', flush=True)))
    secs = time.time() - t0
    est.hparams.update(train_pairs=list(PAIRS), n_train_shards=n_train, n_train_segments=len(used),
                       n_ru_lines=n_ru * RU_LINES_PER_SHARD)
    out = Path(out) if out else ROOT / 'textmetrics_edu' / 'data' / 'models' / 'comet_minilm_weights.npz'
    save_estimator(est, out)
    pv = predict(est, Vh, Vr)
    report = dict(weights_sha256=hashlib.sha256(out.read_bytes()).hexdigest(), weights_id=weights_id(est),
                  n_train_rows=len(rows), n_train_texts=len(E), n_train_segments=len(used),
                  train_rows_per_pair={lp: sum(r['lp'] == lp for r in rows) for lp in PAIRS},
                  n_val_rows=len(vrows), n_val_lines=n_ru * RU_LINES_PER_SHARD, train_seconds=round(secs, 1),
                  hparams=est.hparams, log=log,
                  val_kendall_tau_b=float(scipy.stats.kendalltau(vz, pv)[0]),
                  val_pearson=float(scipy.stats.pearsonr(vz, pv)[0]))
    print(json.dumps(report, indent=1))
    if not Path(out).parent.samefile(ROOT / 'textmetrics_edu' / 'data' / 'models'): return est, report
    # the lesson's live training: the stored estimator's layer mix of a seeded sample of training rows and of the
    # validation rows of the first LESSON_RU_LINES lines, float16 (the lesson trains only the regressor on them)
    k = np.random.RandomState(0).permutation(len(rows))[:LESSON_TRAIN_ROWS]
    vk = [i for i, r in enumerate(vrows) if int(r['line']) <= LESSON_RU_LINES]
    (ROOT / 'tests' / 'data' / 'comet_minilm').mkdir(parents=True, exist_ok=True)
    f16 = lambda A: mix_layers(A, est).astype(np.float16)
    np.savez_compressed(ROOT / 'tests' / 'data' / 'comet_minilm' / 'lesson_sample.npz',
                        train_h=f16(Eh[k]), train_r=f16(Er[k]), train_z=y[k], train_lp=np.array([rows[i]['lp'] for i in k]),
                        val_h=f16(Vh[vk]), val_r=f16(Vr[vk]), val_z=vz[vk].astype(np.float32),
                        val_system=np.array([vrows[i]['system'] for i in vk]), val_line=np.array([int(vrows[i]['line']) for i in vk]))
    return est, report


if __name__ == '__main__':
    cmd, cache = sys.argv[1], Path(sys.argv[2])
    if cmd == 'embed-train': embed('train', cache)
    elif cmd == 'embed-ruen': embed('ruen', cache)
    elif cmd == 'train':
        out = sys.argv[3] if len(sys.argv) > 3 else None
        est, report = train(cache, out=out)
        (ROOT / 'tests' / 'data' / 'comet_minilm').mkdir(parents=True, exist_ok=True)
        if out is None:
            (ROOT / 'tests' / 'data' / 'comet_minilm' / 'training_report.json').write_text(json.dumps(report, indent=1) + '\n')
    else: raise SystemExit(__doc__)
