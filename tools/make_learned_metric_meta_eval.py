"""Segment scores of comet_minilm, BLEU, chrF, TER and BERTScore, and the meta-evaluation tables of the lessons
(nbs/25_learned_metric.ipynb, nbs/61_meta_eval.ipynb), on two shipped human-judged sets:

- `ruen`: WMT22 ru-en crowd DA (10 systems), the lines embedded by tools/train_learned_metric.py (`N_LINES`);
- `mqm`: WMT21 en-de expert MQM (the 8 systems with text, all 527 segments, reference A). comet_minilm and BERTScore
  read German with MiniLM, an English encoder, and comet_minilm was trained into English only: outside its design,
  measured to show it.

    # once (stage 1 for the MQM set: MiniLM embeddings into the cache folder of tools/train_learned_metric.py)
    nice -n 19 .venv/bin/python tools/make_learned_metric_meta_eval.py embed-mqm /work/envs/comet_cache
    # the scores and the tables (after every retraining: comet_minilm's scores change, the others do not)
    nice -n 19 .venv/bin/python tools/make_learned_metric_meta_eval.py ruen /work/envs/comet_cache
    nice -n 19 .venv/bin/python tools/make_learned_metric_meta_eval.py mqm /work/envs/comet_cache
    # the tables again from the stored segment scores
    .venv/bin/python tools/make_learned_metric_meta_eval.py --table-only ruen   (or mqm)

Writes tests/data/comet_minilm/ruen_seg_scores.tsv (system, line, da_raw, da_z, the five metrics' sentence scores) and
meta_eval.json; wmt21_mqm_seg_scores.tsv (system, line, mqm, the five scores) and meta_eval_wmt21_mqm.json. TER is stored
raw (lower is better) and negated in the tables.
comet_minilm: the shipped estimator on the cached layer embeddings (`mix_layers`, `comet_features`, `regress`: what
`corpus_comet_minilm` computes, checked on a few segments in tests/test_comet_minilm.py). BERTScore: F of all-MiniLM-L6-v2
layer 6, no idf, no rescaling, on the cached layer-6 token vectors (`greedy_match`, the maximum over real tokens =
`batch_padding=False`). BLEU, chrF, TER: the package's sentence functions, default options.
"""
import csv
import json
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / 'tools'))
import train_learned_metric as T  # noqa: E402

import textmetrics_edu as tme  # noqa: E402
from textmetrics_edu.models.bertscore import cosine_similarity_matrix, greedy_match  # noqa: E402
from textmetrics_edu.models.comet_minilm import load_estimator, mix_layers, comet_features, regress, weights_id  # noqa: E402
from textmetrics_edu.stats.meta_eval import correlate  # noqa: E402
from textmetrics_edu.stats.metric_comparison import significance_clusters  # noqa: E402

OUT = ROOT / 'tests' / 'data' / 'comet_minilm'
METRICS = ('comet_minilm', 'bleu', 'chrf', 'ter', 'bertscore')
N_PERM = {'segment': 200, 'system': 1000}   # PERM-BOTH draws (segment level: each draw re-calibrates the ties)
N_LINES = 800   # ru-en lines 1-800 (of the 1,600 used for validation: the epoch was chosen there)


MQM = Path('/work/shared/data/mt/wmt21_en-de_mqm')
N_MQM_LINES = 527
DATASETS = {   # name: (TSV, JSON, human columns (the last is the one correlated))
    'ruen': ('ruen_seg_scores.tsv', 'meta_eval.json', ('da_raw', 'da_z')),
    'mqm': ('wmt21_mqm_seg_scores.tsv', 'meta_eval_wmt21_mqm.json', ('mqm',)),
}


def mqm_columns():
    "(names, columns): the 8 WMT21 en-de systems with text, then reference A (the last column)."
    files = sorted((MQM / 'sys').glob('*.de')) + [MQM / 'ref.A.de']
    return [f.stem for f in files], [f.read_text(encoding='utf-8').split('\n')[:-1] for f in files]


def embed_mqm(cache: Path):
    import torch
    torch.set_num_threads(1)
    from textmetrics_edu.models.encoder import load_encoder
    _, cols = mqm_columns()
    T.embed_columns(load_encoder(), cache, 'mqm21', cols)


def load_cache(cache: Path, prefix: str, n_shards: int):
    "({text: (7, 384) layer vectors}, {text: (n_tokens, 384) layer-6 token vectors}) of the first n_shards shards."
    E, tok = T.load_shards(cache, prefix, n_shards), {}
    for i in range(n_shards):
        z = np.load(cache / f'{prefix}_{i:03d}_tok.npz', allow_pickle=True)
        off, arr = np.r_[0, np.cumsum(z['lens'])], z['tok']   # (read the array once: each z['tok'] reads the file)
        for k, t in enumerate(z['texts'].tolist()): tok[t] = arr[off[k]:off[k + 1]]
    return E, tok


def main(cache: Path, dataset: str):
    est = load_estimator()
    if dataset == 'ruen':
        n_ru = T.N_RU_SHARDS or T.n_present(cache, 'ruen')
        n_lines = min(n_ru * T.RU_LINES_PER_SHARD, est.hparams['n_ru_lines'], N_LINES)
        names, cols = T.ru_columns(); prefix = 'ruen'
        da = {(r['system'], int(r['line'])): r for r in T.read_tsv(T.RU / 'human_da_seg.tsv')}
        human = lambda s, i: (lambda d: dict(da_raw=d['raw'] if d else '', da_z=d['z'] if d else ''))(da.get((s, i)))
    else:
        n_lines = N_MQM_LINES
        names, cols = mqm_columns(); prefix = 'mqm21'
        mq = {(r['system'], int(r['line'])): r['mqm_score'] for r in T.read_tsv(MQM / 'human_mqm_seg.tsv')}
        human = lambda s, i: dict(mqm=mq.get((s, i), ''))
    E, tok = load_cache(cache, prefix, -(-n_lines // T.RU_LINES_PER_SHARD))
    ref = cols[-1][:n_lines]
    systems = dict(zip(names[:-1], [c[:n_lines] for c in cols[:-1]]))
    R = mix_layers(np.stack([E[t] for t in ref]), est)
    rows = []
    t0 = time.time()
    w = lambda t: [0.0] + [1.0] * (len(tok[t]) - 2) + [0.0]   # BERTScore: [CLS] and [SEP] weigh nothing
    for s, hyps in systems.items():
        H = mix_layers(np.stack([E[t] for t in hyps]), est)
        comet = regress(comet_features(H, R), est)
        for i, (h, r) in enumerate(zip(hyps, ref)):
            bs = greedy_match(cosine_similarity_matrix(tok[h], tok[r]), w(h), w(r))[2]
            rows.append(dict(system=s, line=i + 1, **human(s, i + 1),
                             comet_minilm=f'{comet[i]:.7f}', bleu=f"{float(tme.METRICS['bleu'].sentence_fn(h, r)):.7f}",
                             chrf=f"{float(tme.METRICS['chrf'].sentence_fn(h, r)):.7f}",
                             ter=f"{float(tme.METRICS['ter'].sentence_fn(h, r)):.7f}", bertscore=f'{bs:.7f}'))
        print(s, f'{time.time() - t0:.0f} s', flush=True)
    tsv, js, _ = DATASETS[dataset]
    OUT.mkdir(parents=True, exist_ok=True)
    with open(OUT / tsv, 'w', encoding='utf-8', newline='') as f:
        wr = csv.DictWriter(f, fieldnames=list(rows[0]), delimiter='\t', lineterminator='\n'); wr.writeheader(); wr.writerows(rows)
    write_table(rows, dataset)


def write_table(rows, dataset):
    t0 = time.time()
    out = table(rows, DATASETS[dataset][2][-1]) | {'dataset': dataset, 'weights_id': weights_id(load_estimator())}
    (OUT / DATASETS[dataset][1]).write_text(json.dumps(out, indent=1) + '\n')
    print(f'{DATASETS[dataset][1]}: {time.time() - t0:.0f} s', flush=True)


def tables(rows, human='da_z'):
    "({metric: {system: [segment scores]}} with TER negated, {system: [human score or None]}) from the TSV rows."
    M, H = {m: {} for m in METRICS}, {}
    for r in rows:
        for m in METRICS: M[m].setdefault(r['system'], []).append((-1 if m == 'ter' else 1) * float(r[m]))
        H.setdefault(r['system'], []).append(float(r[human]) if r[human] != '' else None)
    return M, H


def table(rows, human='da_z'):
    M, H = tables(rows, human)
    out = {'n_lines': len(rows) // len(H), 'n_systems': len(H), 'rows': {}}
    specs = [('segment', 'acc_eq', 'item'), ('segment', 'kendall', 'none'), ('segment', 'pearson', 'none'),
             ('system', 'pearson', None), ('system', 'pairwise_accuracy', None)]
    for m in METRICS:
        out['rows'][m] = {f'{lv}_{st}' + (f'_{ab}' if ab else ''): correlate(M[m], H, level=lv, statistic=st, average_by=ab,
                                                                               ci=None).score for lv, st, ab in specs}
    for lv, st, ab in (('segment', 'acc_eq', 'item'), ('system', 'pearson', None)):
        out[f'clusters_{lv}_{st}'] = significance_clusters(M, H, level=lv, statistic=st, average_by=ab,
                                                           n_resamples=N_PERM[lv], seed=12345)
    return out


if __name__ == '__main__':
    if sys.argv[1] == 'embed-mqm': embed_mqm(Path(sys.argv[2]))
    elif sys.argv[1] == '--table-only':   # recompute the table from the stored segment scores
        rows = list(csv.DictReader(open(OUT / DATASETS[sys.argv[2]][0], encoding='utf-8'), delimiter='\t'))
        write_table(rows, sys.argv[2])
    elif sys.argv[1] in DATASETS: main(Path(sys.argv[2]), sys.argv[1])
    else: raise SystemExit(__doc__)
