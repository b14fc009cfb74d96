"""Benchmark (not a test): GEC GLEU against PyPI gleu 1.1.0 (`gleu --fix-seed`, 500 iterations, through its own
functions) and compare-mt 0.2.10 `GleuScorer.score_corpus` (one reference), in the same run, on the bundled JFLEG
slice (100 sentences x 4 references, three systems). Prints CPU seconds of each side and the ratios ours/theirs.

    .venv/bin/python bench/bench_gec_gleu.py [--repeats 3]

Both sides' scores are checked equal (1e-12) first. The tool's n-gram counting is `functools.cache`d per
(source, reference, hypothesis), so its caches are cleared before every round, and so are our tokenizer's.
"""
import argparse
import time
from pathlib import Path

import numpy as np
from compare_mt.scorers import GleuScorer
from gleu import aggreg, count, ngram
from gleu.corpus_main import drn_accum_to_gleu
from gleu.util import make_id_rindex, log_brevity_penalty

from textmetrics_edu import corpus_gec_gleu
from textmetrics_edu.core import SegmentRefs, TOKENIZERS

D = Path(__file__).resolve().parent.parent / 'tests' / 'data' / 'gec' / 'jfleg_test_001-100'


def load():
    rd = lambda p: p.read_text(encoding='utf-8').split('\n')[:-1]
    src = rd(D / 'test.src')
    refs = [list(x) for x in zip(*[rd(D / f'test.ref{i}') for i in range(4)])]
    return src, {'identity': (src, refs), 'spellchecked': (rd(D / 'test.spellchecked.src'), refs),
                 'human_ref0': ([r[0] for r in refs], [r[1:] for r in refs])}


def clear():
    for f in (aggreg.make_n_accum, count.ngram_counter, count.split_word_ngram, ngram.make_accum, log_brevity_penalty):
        f.cache_clear()
    for f in TOKENIZERS.values(): f.cache_clear()


def gleu_tool(srcs, refs, hyps):
    count.set_tokenization('word')
    rs, hs = [tuple(r) for r in refs], [(h,) for h in hyps]
    dr_rlen, dh_hlen = count.make_dx_xlen(rs), count.make_dx_xlen(hs)
    drn = aggreg.make_hdrn_accum(4, list(srcs), rs, [tuple(hyps)])[0]
    return float(np.mean([drn_accum_to_gleu(drn, ix, dr_rlen, dh_hlen[:, 0])
                          for ix in make_id_rindex(500, len(rs), len(rs[0]), True)]))


def best(fn, repeats):
    out = []
    for _ in range(repeats):
        clear(); t = time.process_time(); fn(); out.append(time.process_time() - t)
    return min(out)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--repeats', type=int, default=3)
    a = ap.parse_args()
    src, systems = load()
    ours = lambda: [float(corpus_gec_gleu(h, SegmentRefs(r), sources=src)) for h, r in systems.values()]
    theirs = lambda: [gleu_tool(src, r, h) for h, r in systems.values()]
    assert max(abs(x - y) for x, y in zip(ours(), theirs())) < 1e-12
    t_o, t_t = best(ours, a.repeats), best(theirs, a.repeats)
    print(f"gleu --fix-seed (500 iterations): ours {t_o:.3f} s, gleu 1.1.0 {t_t:.3f} s; ratio ours/gleu = {t_o / t_t:.2f}")
    sp = lambda xs: [x.split() for x in xs]
    ours_c = lambda: [float(corpus_gec_gleu(h, [x[0] for x in r], sources=src, penalty='compare_mt')) for h, r in systems.values()]
    theirs_c = lambda: [GleuScorer().score_corpus(sp([x[0] for x in r]), sp(h), sp(src))[0] / 100 for h, r in systems.values()]
    assert max(abs(x - y) for x, y in zip(ours_c(), theirs_c())) < 1e-12
    t_o, t_t = best(ours_c, a.repeats), best(theirs_c, a.repeats)
    print(f"compare-mt GleuScorer (first reference): ours {t_o:.3f} s, compare-mt {t_t:.3f} s; ratio = {t_o / t_t:.2f}")


if __name__ == '__main__':
    main()
