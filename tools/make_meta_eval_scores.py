"""Segment-level metric scores joined with human scores, for the meta-evaluation tests, notebook and bench.

    python tools/make_meta_eval_scores.py /path/to/shared/data

Writes (long format: system, line, human score(s), metric scores):
- tests/data/mt/wmt21_en-de_mqm/seg_scores.tsv: the 8 systems with text x 527 segments, MQM, sentence chrF and
  sentence BLEU against ref-A;
- tests/data/mt/wmt22_ru-en_da/seg_scores_first300.tsv: 10 systems x lines 1-300, DA raw and z (empty where not judged),
  sentence chrF and sentence BLEU against ref-A.
Sentence scores are sacreBLEU 2.6.0 `sentence_chrf` (defaults) and `sentence_bleu` (defaults: exp smoothing,
effective order), on the 0-100 scale. Runs in about a minute.
"""
import csv
import sys
from pathlib import Path

import sacrebleu

root = Path(sys.argv[1] if len(sys.argv) > 1 else '/work/shared/data')
out = Path(__file__).resolve().parent.parent / 'tests' / 'data' / 'mt'


def lines(p): return Path(p).read_text(encoding='utf-8').split('\n')[:-1]


def sent_scores(hyp, ref):
    return (f"{sacrebleu.sentence_chrf(hyp, [ref]).score:.6f}", f"{sacrebleu.sentence_bleu(hyp, [ref]).score:.6f}")


d = root / 'mt' / 'wmt21_en-de_mqm'
ref = lines(d / 'ref.A.de')
mqm = {(r['system'], int(r['line'])): r['mqm_score'] for r in csv.DictReader(open(d / 'human_mqm_seg.tsv'), delimiter='\t')}
with open(out / 'wmt21_en-de_mqm' / 'seg_scores.tsv', 'w', newline='') as f:
    w = csv.writer(f, delimiter='\t', lineterminator='\n')
    w.writerow(['system', 'line', 'mqm', 'chrf', 'bleu'])
    for p in sorted((d / 'sys').glob('*.de')):
        for i, hyp in enumerate(lines(p), 1):
            w.writerow([p.stem, i, mqm[(p.stem, i)], *sent_scores(hyp, ref[i - 1])])

d = root / 'mt' / 'wmt22_ru-en_da'
ref = lines(d / 'ref.A.en')
da = {(r['system'], int(r['line'])): (r['raw'], r['z']) for r in csv.DictReader(open(d / 'human_da_seg.tsv'), delimiter='\t')}
with open(out / 'wmt22_ru-en_da' / 'seg_scores_first300.tsv', 'w', newline='') as f:
    w = csv.writer(f, delimiter='\t', lineterminator='\n')
    w.writerow(['system', 'line', 'da_raw', 'da_z', 'chrf', 'bleu'])
    for p in sorted((d / 'sys').glob('*.en')):
        for i, hyp in enumerate(lines(p)[:300], 1):
            w.writerow([p.stem, i, *da.get((p.stem, i), ('', '')), *sent_scores(hyp, ref[i - 1])])
