"""lm-evaluation-harness 0.4.13's perplexity aggregations on our stored log-likelihoods, stored as test data.

    /work/envs/lmeval/bin/python tools/lmeval_perplexity_reference.py      (the venv of tools/lmeval_reference.py)

Documents: the gold continuation " " + ending of each of the 400 HellaSwag items, with the tiny GPT-2's and the
n-gram's log-likelihood of it (tests/data/benchmark/hellaswag_<model>.jsonl). lm-eval's own word and byte counts
(`ConfigurableTask.count_words`, `count_bytes`) and aggregations (`lm_eval.api.metrics.weighted_perplexity`,
`bits_per_byte`, `perplexity`) give tests/data/benchmark/lmeval/perplexity.json.
"""
import json
from pathlib import Path

from lm_eval.api import metrics as M
from lm_eval.api.task import ConfigurableTask

D = Path(__file__).resolve().parents[1] / 'tests' / 'data' / 'benchmark'
out = {}
for m in ('gpt2', 'ngram'):
    rows = [json.loads(l) for l in (D / f'hellaswag_{m}.jsonl').read_text(encoding='utf-8').splitlines()]
    docs = [' ' + r['choices'][r['gold']] for r in rows]
    lls = [r['loglikelihoods'][r['gold']] for r in rows]
    words = [ConfigurableTask.count_words(d) for d in docs]
    nbytes = [ConfigurableTask.count_bytes(d) for d in docs]
    out[m] = {'word_perplexity': M.weighted_perplexity(list(zip(lls, words))),
              'byte_perplexity': M.weighted_perplexity(list(zip(lls, nbytes))),
              'bits_per_byte': M.bits_per_byte(list(zip(lls, nbytes))),
              'perplexity': M.perplexity(lls), 'words': sum(words), 'bytes': sum(nbytes)}
    print(m, out[m])
(D / 'lmeval' / 'perplexity.json').write_text(json.dumps(out, indent=1) + '\n')
