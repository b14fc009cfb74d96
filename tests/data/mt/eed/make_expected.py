"""Expected EED values from torchmetrics, for tests/test_eed.py. Run in a scratch venv (torch must not enter the dev
lock), from the repository root:

    python3 -m venv /work/scratch-charedit
    /work/scratch-charedit/bin/pip install torch==2.13.0 torchmetrics==1.9.0
    /work/scratch-charedit/bin/python tests/data/mt/eed/make_expected.py

Writes tests/data/mt/eed/expected.json. Sentence scores are stored as the float64 values of torchmetrics'
`_eed_function` (best over the references, after `_preprocess_sentences`), which the public
`extended_edit_distance(..., return_sentence_level_score=True)` returns rounded to float32: this script asserts,
case by case, that float32(stored value) is what the public function returns. Corpus scores are the public
function's float32 results (the mean of float32 sentence scores, summed in float32)."""
import json
import platform
import sys
from pathlib import Path

import numpy as np
import torch
import torchmetrics
from torchmetrics.functional.text import extended_edit_distance
from torchmetrics.functional.text.eed import _eed_function, _preprocess_sentences

HERE = Path(__file__).parent
sys.path.insert(0, str(HERE))
import cases as C  # noqa: E402

WMT = HERE.parent / 'wmt22_en-de'
SENTENCE_CONFIGS = [('Online-W', 'A'), ('JDExploreAcademy', 'A'), ('PROMT', 'A'), ('Online-W', 'A+B')]


def lines(p):
    t = Path(p).read_text(encoding='utf-8').split('\n')
    return t[:-1] if t[-1] == '' else t


def doubles(hyps, refs, language='en', **p):
    "torchmetrics' sentence scores before the float32 tensor: min over references of `_eed_function`."
    ph, pr = _preprocess_sentences(hyps, refs, language)
    return [min(_eed_function(h, r, p['alpha'], p['rho'], p['deletion'], p['insertion']) for r in rs) for h, rs in zip(ph, pr)]


def public(hyps, refs, language='en', **p):
    corpus, sent = extended_edit_distance(hyps, refs, language=language, return_sentence_level_score=True, **p)
    return float(corpus), [float(x) for x in sent.tolist()]


def main():
    out = dict(torchmetrics=torchmetrics.__version__, torch=torch.__version__, python=platform.python_version())
    cases = C.fuzz_cases()
    fuzz = []
    for c in cases:
        p = {k: c[k] for k in ('alpha', 'rho', 'deletion', 'insertion')}
        d = doubles([c['hyp']], [c['refs']], c['language'], **p)[0]
        _, s = public([c['hyp']], [c['refs']], c['language'], **p)
        assert float(np.float32(d)) == s[0], (c, d, s)
        fuzz.append(d)
    out['fuzz'] = dict(seed=C.SEED, n=len(cases), digest=C.digest(cases), scores=fuzz)
    print('fuzz done', flush=True)
    A, B = lines(WMT / 'ref.A.de'), lines(WMT / 'ref.B.de')
    systems = sorted(p.stem for p in (WMT / 'sys').glob('*.de'))
    out['wmt22_corpus'], out['wmt22_sentences'] = {}, {}
    for s in systems:
        hyps = lines(WMT / 'sys' / f'{s}.de')
        for cfg in ('A', 'A+B'):
            refs = [[a] for a in A] if cfg == 'A' else [[a, b] for a, b in zip(A, B)]
            corpus, sent = public(hyps, refs, **C.DEFAULTS)
            out['wmt22_corpus'][f'{s}|{cfg}'] = corpus
            if (s, cfg) in SENTENCE_CONFIGS:
                d = doubles(hyps, refs, **C.DEFAULTS)
                assert [float(np.float32(x)) for x in d] == sent
                out['wmt22_sentences'][f'{s}|{cfg}'] = d
            print(s, cfg, corpus, flush=True)
    (HERE / 'expected.json').write_text(json.dumps(out, ensure_ascii=False) + '\n', encoding='utf-8')


if __name__ == '__main__':
    main()
