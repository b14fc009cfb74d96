"""Expected EED values from the authors' own Python implementation (`eed_python` in rwth-i6/ExtendedEditDistance
`EED.py`, with its `util.preprocess`), for `compat='rwth-i6'` in tests/test_eed.py. Their code is not copied
into this repository: give the folder of a checkout of https://github.com/rwth-i6/ExtendedEditDistance.

    python tests/data/mt/eed/make_expected_rwth.py /path/to/ExtendedEditDistance   # from the repository root

Writes tests/data/mt/eed/expected_rwth.json: for every Japanese case of `cases.fuzz_cases()` (500; their `eed()`
pads Japanese with blanks, torchmetrics does not) and for the first 300 WMT22 en-de Online-W segments against
reference A, `eed_python(list(util.preprocess(hyp, lang)), list(util.preprocess(ref, lang)))` with the first
reference and their fixed parameters (alpha 2, rho 0.3, deletion 0.2, insertion 1)."""
import json
import sys
from pathlib import Path

HERE = Path(__file__).parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, sys.argv[1])
import util  # noqa: E402  (theirs)
import EED  # noqa: E402  (theirs)
import cases as C  # noqa: E402


def lines(p):
    t = Path(p).read_text(encoding='utf-8').split('\n')
    return t[:-1] if t[-1] == '' else t


def score(h, r, lang):
    return EED.eed_python(list(util.preprocess(h, lang)), list(util.preprocess(r, lang)))


cs = C.fuzz_cases()
ja = {i: score(c['hyp'], c['refs'][0], 'ja') for i, c in enumerate(cs) if c['language'] == 'ja'}
W = HERE.parent / 'wmt22_en-de'
wmt = [score(h, r, 'en') for h, r in zip(lines(W / 'sys' / 'Online-W.de')[:300], lines(W / 'ref.A.de')[:300])]
out = dict(source='rwth-i6/ExtendedEditDistance EED.py eed_python', commit=sys.argv[2] if len(sys.argv) > 2 else '',
           fuzz_digest=C.digest(cs), fuzz_ja=ja, wmt22_online_w_A_300=wmt)
(HERE / 'expected_rwth.json').write_text(json.dumps(out) + '\n', encoding='utf-8')
