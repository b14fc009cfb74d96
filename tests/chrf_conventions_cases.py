"""Seeded random chrF cases shared by `tests/test_chrf_conventions.py` and the script that stored torchmetrics' outputs
(`tests/data/mt/chrf_torchmetrics/README.md`): standard library only, so both environments draw the same cases."""
import hashlib
import json
import random

# letters (with case and umlauts), digits, ASCII punctuation and the whitespace on which the tools disagree:
# tab, newline, no-break space, thin space and the separators \x1c-\x1f (whitespace to str.split, not to regex \s)
ALPHABET = 'aabbcdeéAäÄß01.,!?()"-' + '     ' + '\t\n\u00a0\u2009\x1c\x1f'


def _text(rng, lo, hi):
    return ''.join(rng.choice(ALPHABET) for _ in range(rng.randint(lo, hi)))


def fuzz_cases(n: int = 5000,  # how many cases
               seed: int = 20261124,
               tool: str = 'torchmetrics',  # 'torchmetrics' (several references, word n-grams) or 'nltk' (one reference)
              ) -> list:
    """`n` small corpora: dicts with `hyps` (1-3 segments), `refs` (per segment a list of 1-3 references; one for
    NLTK) and chrF options `char_order`, `word_order`, `beta`, `lowercase`, `whitespace`."""
    rng = random.Random(f"{seed}-{tool}")
    out = []
    for _ in range(n):
        k = rng.randint(1, 3)
        hyps = [_text(rng, 0, 24) for _ in range(k)]
        nref = 1 if tool == 'nltk' else rng.randint(1, 3)
        refs = [[_text(rng, 1, 24) for _ in range(nref)] for _ in range(k)]
        if rng.random() < 0.2:  # near copies: high scores, ties between references
            refs = [[h if rng.random() < 0.5 else r for r in rs] for h, rs in zip(hyps, refs)]
        out.append(dict(hyps=hyps, refs=refs, char_order=rng.randint(1, 7),
                        word_order=0 if tool == 'nltk' else rng.randint(0, 2), beta=rng.choice([0.5, 1, 2, 3]),
                        lowercase=False if tool == 'nltk' else rng.random() < 0.3, whitespace=rng.random() < 0.3))
    return out


def cases_digest(cases) -> str:
    "sha256 of the cases as JSON: the stored outputs belong to exactly these inputs."
    return hashlib.sha256(json.dumps(cases, ensure_ascii=True, sort_keys=True).encode()).hexdigest()
