"""Benchmark (not a test): CIDEr-D against pycocoevalcap 1.2 `Cider().compute_score`, in the same run, on the THumB
MS-COCO captions (250 images x 4 references, 5 systems incl. the held-out human caption). Prints seconds for each side
and the ratio ours/theirs (bar for this metric: <= 0.5).

    .venv/bin/python bench/bench_cider.py [--repeats 5]

Both sides get the same pre-tokenized text (our pure-Python caption tokenizer, run once before timing; no java on
either side): pycocoevalcap `{image: [caption]}` dicts, ours `corpus_cider(hyps, refs, tokenize='none')`. One round
scores the 5 systems one after the other, as an evaluation does. Our reference preparation (document frequencies
and reference TF-IDF vectors, stage 2) is cached per corpus, so it runs once per round and the 4 later systems reuse
it; every round starts from a cleared cache. A second line clears it before every system too (no sharing). Times are
CPU seconds of this process (`time.process_time`; both sides are single-threaded), which is robust to other jobs on a
shared machine; the best of the repeats is reported. Both sides' scores are checked equal (1e-9) before timing.
"""
import argparse
import json
from pathlib import Path

from pycocoevalcap.cider.cider import Cider

from textmetrics_edu.metrics.cider import corpus_cider, tokenize_caption, prepare_references
from timing import best  # noqa: E402  (bench/timing.py)

THUMB = Path(__file__).resolve().parent.parent / 'tests' / 'data' / 'captioning' / 'thumb_mscoco_imgs001-250'
SYSTEMS = ['Up-Down', 'Unified-VLP', 'VinVL-base', 'VinVL-large', 'Human']


def load():
    refs = [json.loads(l) for l in open(THUMB / 'references.jsonl', encoding='utf-8')]
    caps = [json.loads(l) for l in open(THUMB / 'captions_with_human_scores.jsonl', encoding='utf-8')]
    ids = [r['seg_id'] for r in refs]
    by = {(c['SYS'], c['seg_id']): c['hyp'] for c in caps}
    tok = lambda s: ' '.join(tokenize_caption(s))
    refs_tok = [[tok(x) for x in r['refs']] for r in refs]
    return ids, refs_tok, {s: [tok(by[s, i]) for i in ids] for s in SYSTEMS}


def theirs(ids, refs_tok, systems):
    gts = {i: rs for i, rs in zip(ids, refs_tok)}
    return [Cider().compute_score(gts, {i: [h] for i, h in zip(ids, systems[s])})[0] for s in SYSTEMS]


def ours(ids, refs_tok, systems, cold=False):
    prepare_references.cache_clear()
    out = []
    for s in SYSTEMS:
        if cold: prepare_references.cache_clear()
        out.append(float(corpus_cider(systems[s], refs_tok, tokenize='none')))
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--repeats', type=int, default=5)
    a = ap.parse_args()
    data = load()
    a_, b_ = theirs(*data), ours(*data)
    assert all(abs(x - y) < 1e-9 for x, y in zip(a_, b_)), (a_, b_)
    print('CIDEr-D per system:', ', '.join(f"{s} {x:.4f}" for s, x in zip(SYSTEMS, b_)))
    t_theirs = best(lambda: theirs(*data), a.repeats)
    t_ours = best(lambda: ours(*data), a.repeats)
    t_cold = best(lambda: ours(*data, cold=True), a.repeats)
    print(f"THumB, 5 systems x 250 images, best of {a.repeats}: pycocoevalcap {t_theirs:.3f} s   ours {t_ours:.3f} s   "
          f"ratio ours/theirs {t_ours / t_theirs:.2f} (bar <= 0.5)")
    print(f"  without sharing the reference preparation across systems: ours {t_cold:.3f} s   ratio {t_cold / t_theirs:.2f}")


if __name__ == '__main__':
    main()
