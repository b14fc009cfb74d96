"""BERTScore: our `corpus_bertscore` against bert-score 0.3.13's `score` on the same local model (all-MiniLM-L6-v2,
layer 6), 200 WMT22 en-de segments (Online-B against reference A), CPU time, best of 2, model loaded beforehand
(bert-score loads it inside every call: that load is part of its time, as users call it).

    .venv/bin/python bench/bench_bertscore.py
"""
import os
import warnings
from pathlib import Path

os.environ.setdefault('HF_HUB_OFFLINE', '1')
warnings.filterwarnings('ignore')
import bert_score
from timing import best
from textmetrics_edu.models.bertscore import corpus_bertscore
from textmetrics_edu.models.encoder import default_model_path, load_encoder

D = Path(__file__).resolve().parent.parent / 'tests' / 'data' / 'mt' / 'wmt22_en-de'
N = 200
hyps = (D / 'sys' / 'Online-B.de').read_text(encoding='utf-8').split('\n')[:N]
refs = (D / 'ref.A.de').read_text(encoding='utf-8').split('\n')[:N]
load_encoder()
for idf in (False, True):
    ours = best(lambda: corpus_bertscore(hyps, [[r] for r in refs], idf=idf), 2)
    theirs = best(lambda: bert_score.score(hyps, refs, model_type=default_model_path(), num_layers=6, idf=idf, nthreads=0), 2)
    print(f"idf={idf}: ours {ours:.2f} s, bert-score {theirs:.2f} s, ratio (bert-score / ours) {theirs / ours:.2f}")
