"""Corpus-level scores of every package metric, per system, on the four human-judged data sets of the
meta-evaluation lesson, plus the human system-level scores: tests/data/meta_eval/system_scores.tsv and human_system_scores.tsv.

    PYTHONPATH=. python tools/make_meta_eval_system_scores.py /path/to/shared/data [DATASET ...]

With DATASET names (wmt22_ru-en, wmt21_en-de, summeval, thumb_mscoco) only their metric scores are computed, into
system_scores.<DATASET>.tsv; with `human`, the human table (alone, or with those) (run them in parallel, then concatenate: header once, in the order above).

Metrics: `textmetrics_edu.METRICS` bleu, chrf, ter, meteor, rouge1, rouge2, rougeL (corpus functions, default options,
every reference of a segment), and wer where one reference per segment is used (the MT sets, against ref-A).
and cider-d / cider (`textmetrics_edu.metrics.cider.corpus_cider`, variant CIDEr-D as pycocoevalcap 1.2 and the original CIDEr,
default 'caption' tokenizer, which gives the same THumB system scores as pycocoevalcap's PTB tokens) on THumB only (a
captioning metric: its IDF is over images). Added to an existing table without recomputing the rest:
    TME_METRICS=cider-d,cider PYTHONPATH=. python tools/make_meta_eval_system_scores.py /path/to/shared/data thumb_mscoco
    tail -n +2 tests/data/meta_eval/system_scores.thumb_mscoco.cider-d_cider.tsv >> tests/data/meta_eval/system_scores.tsv
BERTScore (F, all-MiniLM-L6-v2 layer 6, no idf, no rescaling: `textmetrics_edu.models.bertscore`, equal to bert-score
0.3.13; `batch_padding=False`: the maximum over real tokens, which differs from bert-score's batches only where a
token's best similarity is negative, not seen on these data) is a model metric, computed alone (the other metrics are not recomputed) into system_scores.bertscore.tsv, then
appended (`bertscore_system_scores` below: each distinct text of a data set embedded once):
    PYTHONPATH=. python tools/make_meta_eval_system_scores.py /path/to/shared/data --only bertscore [DATASET ...]
    tail -n +2 tests/data/meta_eval/system_scores.bertscore.tsv >> tests/data/meta_eval/system_scores.tsv
Human system scores: WMT22 ru-en DA raw and z (organisers' system averages), WMT21 en-de MQM (mean over 527 segments),
SummEval expert means (coherence, consistency, fluency, relevance, their mean `human_score`) and crowd (turker) mean of the
four dimensions (NaN-free systems only), THumB mean `human_score`, P and R. Takes a few minutes (METEOR, TER).
"""
import csv
import json
import os
import sys
import time
from pathlib import Path

import textmetrics_edu as tme

args = sys.argv[1:]
ONLY_METRIC = None  # '--only bertscore': that metric alone, into system_scores.bertscore.tsv
if '--only' in args:
    i = args.index('--only'); ONLY_METRIC = args[i + 1]; del args[i:i + 2]
root = Path(args[0] if args else '/work/shared/data')
only = args[1:]
out = Path(__file__).resolve().parent.parent / 'tests' / 'data' / 'meta_eval'
METRICS_USED = ['bleu', 'chrf', 'ter', 'meteor', 'rouge1', 'rouge2', 'rougeL', 'wer', 'cider-d', 'cider']
if os.environ.get('TME_METRICS'): METRICS_USED = os.environ['TME_METRICS'].split(',')  # a subset, e.g. to run in parallel


def lines(p): return Path(p).read_text(encoding='utf-8').split('\n')[:-1]


def score(name, hyps, refs):
    spec = tme.METRICS[name]
    if not spec.multi_ref: refs = [r[:1] for r in refs]
    return float(spec.corpus_fn(hyps, refs, **spec.fixed))



def bertscore_system_scores(systems: dict,  # system -> (hyps, refs), refs[i] the list of references of segment i
                            batch_size: int = 64) -> dict:
    """Corpus BERTScore F (mean of segment F; all-MiniLM-L6-v2 layer 6, no idf, no rescaling) of every system, equal to
    `corpus_bertscore(hyps, refs, batch_padding=False)` system by system, but each distinct text of the data set embedded once (the systems
    share their references)."""
    from textmetrics_edu.models.bertscore import cosine_similarity_matrix, greedy_match, token_weights
    from textmetrics_edu.models.encoder import encode_ids, load_encoder, token_embeddings
    enc = load_encoder(None, 6)
    texts = sorted({t for h, r in systems.values() for t in list(h) + [x for rs in r for x in rs]})
    emb = dict(zip(texts, token_embeddings(texts, enc, batch_size)))
    w = {t: token_weights(encode_ids(t, enc), enc.special_ids) for t in texts}
    out = {}
    for s, (hyps, refs) in systems.items():
        fs = [max(greedy_match(cosine_similarity_matrix(emb[h], emb[r]), w[h], w[r])[2] for r in rs)
              for h, rs in zip(hyps, refs)]
        out[s] = sum(fs) / len(fs)
    return out


def records_by_system(d, outputs: str) -> dict:
    "THumB-style data: {system: [record, ...]} from the outputs file (one record per output, with its human scores)."
    by = {}
    for r in map(json.loads, open(d / outputs)): by.setdefault(r['SYS'], []).append(r)
    return dict(sorted(by.items()))


def by_system(d, outputs: str) -> dict:
    "THumB-style data: {system: (hyps, refs)} from `references.jsonl` and the outputs file (one record per output)."
    refs = {r['seg_id']: r['refs'] for r in map(json.loads, open(d / 'references.jsonl'))}
    return {s: ([r['hyp'] for r in rs], [refs[r['seg_id']] for r in rs]) for s, rs in records_by_system(d, outputs).items()}


def main():
    sets = {}  # dataset -> {system: (hyps, refs)}
    d = root / 'mt' / 'wmt22_ru-en_da'
    ref = [[r] for r in lines(d / 'ref.A.en')]
    sets['wmt22_ru-en'] = {p.stem: (lines(p), ref) for p in sorted((d / 'sys').glob('*.en'))}
    d = root / 'mt' / 'wmt21_en-de_mqm'
    ref = [[r] for r in lines(d / 'ref.A.de')]
    sets['wmt21_en-de'] = {p.stem: (lines(p), ref) for p in sorted((d / 'sys').glob('*.de'))}
    sets['summeval'] = by_system(root / 'summarization' / 'thumb_cnndm_summeval_docs001-050',
                                 'summaries_with_human_scores.jsonl')
    sets['thumb_mscoco'] = by_system(root / 'captioning' / 'thumb_mscoco_imgs001-250', 'captions_with_human_scores.jsonl')

    if ONLY_METRIC == 'bertscore':   # the model metric alone; smallest data sets first, each written when done
        with open(out / 'system_scores.bertscore.tsv', 'w', newline='') as f:
            w = csv.writer(f, delimiter='\t', lineterminator='\n')
            w.writerow(['dataset', 'system', 'metric', 'score'])
            for ds in ('thumb_mscoco', 'summeval', 'wmt21_en-de', 'wmt22_ru-en'):
                if only and ds not in only: continue
                t = time.time()
                for s, v in bertscore_system_scores(sets[ds]).items(): w.writerow([ds, s, 'bertscore', f"{v:.10g}"])
                f.flush()
                print(ds, 'bertscore', f"{time.time() - t:.1f}s", file=sys.stderr, flush=True)
        return
    elif ONLY_METRIC is not None: raise SystemExit(f"--only {ONLY_METRIC}: only bertscore is computed alone")
    metric_sets = [ds for ds in sets if not only or ds in only]   # 'human' alone: only the human table
    if metric_sets:
        with open(out / ('system_scores.tsv' if not only else f"system_scores.{'_'.join(only)}.{'_'.join(METRICS_USED)}.tsv"), 'w', newline='') as f:
            w = csv.writer(f, delimiter='\t', lineterminator='\n')
            w.writerow(['dataset', 'system', 'metric', 'score'])
            for ds, systems in sets.items():
                if only and ds not in only: continue
                for m in METRICS_USED:
                    if m == 'wer' and ds in ('summeval', 'thumb_mscoco'): continue  # multi-reference sets: WER does not apply
                    if m.startswith('cider') and ds != 'thumb_mscoco': continue  # CIDEr(-D) is an image-captioning metric
                    t = time.time()
                    for s, (h, r) in systems.items(): w.writerow([ds, s, m, f"{score(m, h, r):.10g}"])
                    print(ds, m, f"{time.time() - t:.1f}s", file=sys.stderr, flush=True)

    if only and 'human' not in only: return    # 'human': only the human table
    with open(out / 'human_system_scores.tsv', 'w', newline='') as f:
        w = csv.writer(f, delimiter='\t', lineterminator='\n')
        w.writerow(['dataset', 'system', 'human', 'score'])
        for r in csv.DictReader(open(root / 'mt' / 'wmt22_ru-en_da' / 'human_da_sys.tsv'), delimiter='\t'):
            w.writerow(['wmt22_ru-en', r['system'], 'da_raw', r['raw']]); w.writerow(['wmt22_ru-en', r['system'], 'da_z', r['z']])
        for r in csv.DictReader(open(root / 'mt' / 'wmt21_en-de_mqm' / 'human_mqm_sys.tsv'), delimiter='\t'):
            w.writerow(['wmt21_en-de', r['system'], 'mqm', r['mean_mqm_score']])
        by = records_by_system(root / 'summarization' / 'thumb_cnndm_summeval_docs001-050', 'summaries_with_human_scores.jsonl')
        byc = records_by_system(root / 'captioning' / 'thumb_mscoco_imgs001-250', 'captions_with_human_scores.jsonl')
        for s, rs in by.items():
            for k in ('coherence', 'consistency', 'fluency', 'relevance', 'human_score'):
                w.writerow(['summeval', s, 'expert_' + k, f"{sum(r[k] for r in rs) / len(rs):.10g}"])
            if all(r['turker_annotations'] for r in rs):
                v = [sum(a.values()) / 4 for r in rs for a in r['turker_annotations']]
                w.writerow(['summeval', s, 'crowd_human_score', f"{sum(v) / len(v):.10g}"])
        for s, rs in byc.items():
            for k in ('human_score', 'P', 'R'):
                w.writerow(['thumb_mscoco', s, k, f"{sum(r[k] for r in rs) / len(rs):.10g}"])


if __name__ == '__main__':
    main()
