"""Usage: .venv/bin/python bench/bench_wer_ter_long.py [SYSTEM]  (all four calls concatenated)"""
"Long input: an Earnings-21 call concatenated to >10,000 words each side; peak RSS and time of edit_distance."
import json, resource, time, sys
from pathlib import Path
import jiwer
from textmetrics_edu import sentence_wer
E = Path(__file__).resolve().parent.parent / 'tests/data/asr/earnings21_subset'
refs = {d['file_id']: d['text'] for d in map(json.loads, (E / 'references.jsonl').read_text().splitlines())}
hyps = {}
for d in map(json.loads, (E / 'hypotheses.jsonl').read_text().splitlines()): hyps.setdefault(d['system'], {})[d['file_id']] = d['text']
ids = sorted(refs)
ref = ' '.join(refs[i] for i in ids); hyp = ' '.join(hyps[sys.argv[1] if len(sys.argv) > 1 else 'google'][i] for i in ids)
r0 = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
t0 = time.perf_counter(); r = sentence_wer(hyp, ref); t = time.perf_counter() - t0  # the score: the distance
t1 = time.perf_counter(); r.hits; ta = time.perf_counter() - t1  # reading the hits aligns the pair
r1 = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(f"{r.ref_len} ref words x {r.hyp_len} hyp words: WER {float(r):.4f} (the distance) in {t:.2f} s, "
      f"then the alignment via {r.algorithm} in {ta:.2f} s; peak RSS {r1/1024:.0f} MB (before the call {r0/1024:.0f} MB)")
o = jiwer.process_words(ref, hyp)
assert (r.hits, r.substitutions, r.deletions, r.insertions) == (o.hits, o.substitutions, o.deletions, o.insertions)
print('equal to jiwer:', (o.hits, o.substitutions, o.deletions, o.insertions))
