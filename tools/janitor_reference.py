"""lm-evaluation-harness 0.4.13's 13-gram decontamination (`lm_eval.decontamination.janitor.Janitor`, its Python mode:
the wheel ships no C++ `janitor_util`) on real and planted text; stores its verdicts as test data.

    /work/envs/lmeval/bin/python tools/janitor_reference.py      (the venv of tools/lmeval_reference.py)

Cases (all text from the repository's tests/data):
  * clean pair: contaminants = every line of Tiny Shakespeare's test.txt (one string), cleaned text = the first
    200,000 characters of train.txt;
  * planted: contaminants = the first 40 HellaSwag items (context + " " + gold ending, each registered alone);
    cleaned text = the first 60,000 characters of train.txt with items 3, 11, 25 inserted at characters 5,000,
    30,000 and 52,000 (after a newline), with the default too_dirty_cutoff 10 (too dirty: 0 chunks) and with 1000;
    and a document made of 12 items in a row.
Writes tests/data/benchmark/lmeval/janitor.json: per case the number of registered 13-grams, the contaminated spans
((start, end) as the Janitor finds them) and the clean chunks as (length, sha256 of the chunk).
"""
import hashlib
import json
from pathlib import Path

from lm_eval.decontamination.janitor import Janitor, word_ngrams_indices

ROOT = Path(__file__).resolve().parents[1]
TS = ROOT / 'tests' / 'data' / 'lm' / 'tinyshakespeare'
HS = ROOT / 'tests' / 'data' / 'benchmark' / 'hellaswag_gpt2.jsonl'


def cases():
    test, train = (TS / 'test.txt').read_text(encoding='utf-8'), (TS / 'train.txt').read_text(encoding='utf-8')
    items = [json.loads(l) for l in HS.read_text(encoding='utf-8').splitlines()[:40]]
    texts = [d['context'] + ' ' + d['choices'][d['gold']] for d in items]
    doc = train[:60000]
    for pos, k in sorted(zip((5000, 30000, 52000), (3, 11, 25)), reverse=True):
        cut = doc.index('\n', pos) + 1
        doc = doc[:cut] + texts[k] + '\n' + doc[cut:]
    return {'clean_pair': ([test], train[:200000], 10), 'planted': (texts, doc, 10), 'planted_cutoff_1000': (texts, doc, 1000),
            'too_dirty': (texts, '\n'.join(texts[:12]), 10)}


def main():
    out = {}
    for name, (dirt, text, cutoff) in cases().items():
        jan = Janitor(too_dirty_cutoff=cutoff)
        for d in dirt: jan.register_contaminant_python(d)
        spans = [list(idx) for g, idx in word_ngrams_indices(text, jan.ngram_n) if jan.normalize_string(g) in jan.dirt_ngrams]
        chunks = jan.clean_python(text)
        out[name] = {'too_dirty_cutoff': cutoff, 'registered_ngrams': len(jan.dirt_ngrams), 'spans': spans,
                     'chunks': [[len(c), hashlib.sha256(c.encode('utf-8')).hexdigest()] for c in chunks]}
        print(name, len(jan.dirt_ngrams), 'ngrams,', len(spans), 'dirty spans,', len(chunks), 'chunks')
    (ROOT / 'tests' / 'data' / 'benchmark' / 'lmeval' / 'janitor.json').write_text(json.dumps(out) + '\n')


if __name__ == '__main__':
    main()
