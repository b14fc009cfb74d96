"""Benchmark (not a test): ROUGE-1/2/L/Lsum against rouge-score 0.1.2 and METEOR against NLTK's meteor_score, in the
same run, on the real data. Prints seconds for each side and the ratio ours/theirs (bar for the project: <= 1.0).

    .venv/bin/python bench/bench_rouge_meteor.py [--repeats 1] [--skip-wmt]

Corpora:
* summarization: 18 systems x 50 CNN/DM documents, 10 references each (tests/data/summarization/...);
  rouge-score: `RougeScorer(['rouge1','rouge2','rougeL','rougeLsum'], use_stemmer=...).score_multi(refs, hyp)` per
  document; ours: `corpus_rouge(hyps, refs, t, use_stemmer=...)` for each of the 4 types. Without and with stemming.
* WMT22 ru-en (larger): 10 systems x 2016 segments, 1 reference; rouge-score `.score(ref, hyp)`.
* METEOR: NLTK `meteor_score([ref tokens...], hyp tokens, wordnet=wn)` per segment vs `corpus_meteor(hyps, refs)`,
  the same tokens (13a) and the same WordNet reader, on both corpora.

Every repeat starts from cold caches on our side (tokenizers, n-grams, stems, synonyms); the WordNet reader is
loaded once before timing and shared by both sides. The best of the repeats is reported.
"""
import argparse
import json
import time
from pathlib import Path

from rouge_score import rouge_scorer
from nltk.translate.meteor_score import meteor_score as nltk_meteor

from textmetrics_edu import corpus_rouge, corpus_meteor
from textmetrics_edu.kernels import rouge as _rouge_engine, stem as _stem, meteor as _meteor_engine
from textmetrics_edu.kernels.meteor import load_wordnet, tokens_cached

ROOT = Path(__file__).resolve().parent.parent / 'tests' / 'data'
SUMM = ROOT / 'summarization' / 'thumb_cnndm_summeval_docs001-050'
WMT = ROOT / 'mt' / 'wmt22_ru-en_da'
TYPES = ['rouge1', 'rouge2', 'rougeL', 'rougeLsum']


def lines(p):
    t = p.read_text(encoding='utf-8').split('\n')
    return t[:-1] if t[-1] == '' else t


def clear_caches():
    "Clear our caches: every cached function of the engines (kernels.rouge, kernels.stem, kernels.meteor), and WordNet's synonyms."
    for mod in (_rouge_engine, _stem, _meteor_engine):
        for f in vars(mod).values():
            if callable(getattr(f, 'cache_clear', None)) and getattr(f, '__module__', '') == mod.__name__: f.cache_clear()
    _meteor_engine.SYN_CACHE.clear()


def summarization():
    refs = {json.loads(l)['seg_id']: json.loads(l)['refs'] for l in open(SUMM / 'references.jsonl')}
    systems = {}
    for line in open(SUMM / 'summaries_with_human_scores.jsonl'):
        d = json.loads(line)
        h, r = systems.setdefault(d['SYS'], ([], []))
        h.append(d['hyp']); r.append(refs[d['seg_id']])
    return systems


def wmt():
    ref = lines(WMT / 'ref.A.en')
    return {f.stem: (lines(f), ref) for f in sorted((WMT / 'sys').glob('*.en'))}


def best_of(fn, repeats):
    ts = []
    for _ in range(repeats):
        clear_caches()
        t0 = time.perf_counter(); fn(); ts.append(time.perf_counter() - t0)
    return min(ts)


def report(label, t_ours, t_theirs, theirs_name):
    print(f"{label:58} ours {t_ours:7.2f} s   {theirs_name} {t_theirs:7.2f} s   ratio ours/theirs {t_ours / t_theirs:.3f}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--repeats', type=int, default=1)
    ap.add_argument('--skip-wmt', action='store_true')
    a = ap.parse_args()
    corpora = {'summarization (18 sys x 50 docs, 10 refs)': summarization()}
    if not a.skip_wmt: corpora['WMT22 ru-en (10 sys x 2016 segs, 1 ref)'] = wmt()
    print(f"best of {a.repeats}; ROUGE types {', '.join(TYPES)}")
    for cname, systems in corpora.items():
        multi = not isinstance(next(iter(systems.values()))[1][0], str)
        for stem in (False, True):
            def theirs():
                sc = rouge_scorer.RougeScorer(TYPES, use_stemmer=stem)
                for hyps, refs in systems.values():
                    for h, r in zip(hyps, refs):
                        sc.score_multi(r, h) if multi else sc.score(r, h)

            def ours():
                for hyps, refs in systems.values():
                    for t in TYPES: corpus_rouge(hyps, refs, t, use_stemmer=stem, on_non_ascii='ignore')
            t_theirs, t_ours = best_of(theirs, a.repeats), best_of(ours, a.repeats)
            report(f"ROUGE-1/2/L/Lsum {'stem' if stem else 'no stem'}, {cname}", t_ours, t_theirs, 'rouge-score')
    wn = load_wordnet()
    wn.synsets('warm'); nltk_meteor([['warm', 'up']], ['warm'], wordnet=wn)
    for cname, systems in corpora.items():
        def theirs():
            for hyps, refs in systems.values():
                for h, r in zip(hyps, refs):
                    rs = [r] if isinstance(r, str) else r
                    nltk_meteor([list(tokens_cached(x, '13a')) for x in rs], list(tokens_cached(h, '13a')), wordnet=wn)

        def ours():
            for hyps, refs in systems.values(): corpus_meteor(hyps, refs, wordnet=wn)
        # NLTK gets our (cached) 13a tokens for free: clear_caches runs before each side, and its tokenization
        # time is counted on both sides.
        t_theirs, t_ours = best_of(theirs, a.repeats), best_of(ours, a.repeats)
        report(f"METEOR, {cname}", t_ours, t_theirs, 'NLTK')


if __name__ == '__main__':
    main()
