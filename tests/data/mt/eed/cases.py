"""The fuzzed EED cases (seeded): shared by `make_expected.py` (run in the scratch venv with torchmetrics) and
`tests/test_eed.py` (which regenerates them and checks their digest before comparing). Standard library only."""
import hashlib
import json
import random

SEED = 20261125
N_CASES = 5000
DEFAULTS = dict(alpha=2.0, rho=0.3, deletion=0.2, insertion=1.0)

# pieces that exercise the English preprocessing (punctuation padding, numbers, titles, e.g./i.e./U.S.), whitespace
# runs and tabs, and German text; for language='ja', kana, kanji and characters that NFKC changes (full-width Latin,
# half-width katakana, the ideographic space)
_EN = ['the', 'cat', 'sat', 'on', 'mat', 'a', 'b', 'ab', 'ba', 'Haus', 'das', 'ist', 'schön', 'Mr', 'Mrs', 'Dr', 'Gen',
       'Smith', 'e.g.', 'i.e.', 'U.S.', '3.5', '1,000', '0 . 1', 'end.', 'why?', 'no!', 'yes,', '.', ',', '!', '?',
       '"', "'s", '-', 'Straße', 'über']
_JA = ['猫', 'が', '座った', 'ＡＢＣ', '１２３', 'ｱｲｳ', 'ｶﾞ', '　', '。', '、', 'です', 'abc', 'テスト']
_SEPS = [' ', ' ', ' ', '', '  ', '\t', ' \n ']


def _sentence(rng, pieces):
    n = rng.choice([0, 1, 2, 3, 5, 8, 12])
    out = ''
    for _ in range(n): out += rng.choice(pieces) + rng.choice(_SEPS)
    return out if rng.random() < 0.5 else out.strip()


def _mutate(rng, s, pieces):
    "A hypothesis near a reference: characters deleted, inserted, substituted, and words swapped."
    chars = list(s)
    for _ in range(rng.randint(0, 4)):
        k = rng.randint(0, len(chars))
        op = rng.random()
        if op < 0.33 and chars: del chars[min(k, len(chars) - 1)]
        elif op < 0.66: chars.insert(k, rng.choice('abc .,?xyz'))
        elif chars: chars[min(k, len(chars) - 1)] = rng.choice('abcdé ')
    w = ''.join(chars).split(' ')
    if len(w) > 2 and rng.random() < 0.5:
        i, j = rng.randrange(len(w)), rng.randrange(len(w))
        w[i], w[j] = w[j], w[i]
    return ' '.join(w)


def fuzz_cases(n=N_CASES, seed=SEED):
    "[{'hyp', 'refs', 'language', 'alpha', 'rho', 'deletion', 'insertion'}]: every 10th case Japanese, every 4th with drawn parameters."
    rng = random.Random(seed)
    cases = []
    for k in range(n):
        lang = 'ja' if k % 10 == 9 else 'en'
        pieces = _JA if lang == 'ja' else _EN
        refs = [_sentence(rng, pieces) for _ in range(rng.choice([1, 1, 1, 2, 3]))]
        hyp = _mutate(rng, rng.choice(refs), pieces) if rng.random() < 0.6 else _sentence(rng, pieces)
        p = dict(DEFAULTS)
        if k % 4 == 3:
            p = dict(alpha=rng.choice([0.0, 0.5, 1.0, 2.0, 3.5]), rho=rng.choice([0.0, 0.1, 0.3, 1.0]),
                     deletion=rng.choice([0.0, 0.2, 0.5, 1.0]), insertion=rng.choice([0.5, 1.0, 2.0]))
        if lang == 'ja' and p['rho'] == 0.0 and any(r.strip() == '' for r in refs):
            p['rho'] = 0.3  # an empty Japanese reference with rho = 0 is 0/0 in torchmetrics (ZeroDivisionError)
        cases.append(dict(hyp=hyp, refs=refs, language=lang, **p))
    return cases


def digest(cases) -> str:
    "sha256 of the cases as canonical JSON: the stored outputs belong to exactly these inputs."
    return hashlib.sha256(json.dumps(cases, ensure_ascii=False, sort_keys=True).encode('utf-8')).hexdigest()
