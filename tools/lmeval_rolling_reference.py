"""lm-evaluation-harness 0.4.13's rolling windows and wikitext conventions on small inputs, stored as test data.

    /work/envs/lmeval/bin/python tools/lmeval_rolling_reference.py      (the venv of tools/lmeval_reference.py)

Writes tests/data/benchmark/lmeval/rolling.json:
  * `cases`: for token lists 0..n-1 (prefix token -1) and several (max_seq_len, context_len), the windows of
    `lm_eval.utils.get_rolling_token_windows` and the same after `make_disjoint_window` (what `HFLM.loglikelihood_rolling`
    scores, with context_len=1);
  * `shakespeare`: the same for the first 600 characters of tests/data/lm/tinyshakespeare/test.txt as tokens (their code
    points; prefix token 0), max_seq_len 64 and 8, context_len 1;
  * `wikitext`: a small page in WikiText's raw tokenised style (written for this file, not from the dataset), the text
    lm-eval scores (`preprocess_wikitext.wikitext_detokenizer`) and its `process_results` for a log-likelihood of -100.
"""
import json
from pathlib import Path

from lm_eval import utils
from lm_eval.tasks.wikitext import preprocess_wikitext as W

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / 'tests' / 'data' / 'benchmark' / 'lmeval' / 'rolling.json'


def windows(tokens, prefix, max_seq_len, context_len):
    w = list(utils.get_rolling_token_windows(token_list=tokens, prefix_token=prefix, max_seq_len=max_seq_len,
                                             context_len=context_len))
    return {'windows': [list(map(list, x)) for x in w], 'disjoint': [list(map(list, utils.make_disjoint_window(x))) for x in w]}


cases = []
for n in (0, 1, 5, 8, 9, 17, 30):
    for L in (1, 4, 8):
        for c in sorted({1, 2, L}):
            if c <= L: cases.append({'n': n, 'max_seq_len': L, 'context_len': c, **windows(list(range(n)), -1, L, c)})
text = (ROOT / 'tests' / 'data' / 'lm' / 'tinyshakespeare' / 'test.txt').read_text(encoding='utf-8')[:600]
shakespeare = {'text': text, 'prefix_token': 0,
               'by_max_seq_len': {L: windows([ord(ch) for ch in text], 0, L, 1) for L in (64, 8)}}
page = (' = Tiny Shakespeare = \n The corpus holds 40 @,@ 000 lines of Shakespeare \'s plays ( about 1 @.@ 1 MB ) . '
        'It trains character @-@ level models ; " tiny " means small . \n')
doc = {'page': page}
wikitext = {'page': page, 'detokenized': W.wikitext_detokenizer(doc),
            'process_results': {k: list(v) for k, v in W.process_results(doc, [-100.0]).items()}}
OUT.write_text(json.dumps({'lm_eval': '0.4.13', 'cases': cases, 'shakespeare': shakespeare, 'wikitext': wikitext},
                          ensure_ascii=False) + '\n', encoding='utf-8')
print(len(cases), 'cases;', wikitext)
