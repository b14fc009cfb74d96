"""Seeded random cases for the repetition metrics, shared by `tests/test_repetition.py` and the script that ran the
authors' code (`tests/data/lm/unlikelihood/README.md`): standard library only, so both environments draw the same cases."""
import hashlib
import json
import random


def fuzz_cases(n: int = 5000, seed: int = 20261125) -> list:
    """`n` dicts: `targets` (4-40 tokens over a small vocabulary, so repeats are common), `predictions` (as many
    tokens: each the target, a recent target or a random token) and `context` (l, 1-12)."""
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        vocab = [chr(97 + i) for i in range(rng.randint(2, 12))]
        T = rng.randint(4, 40)
        tg = [rng.choice(vocab) for _ in range(T)]
        pr = []
        for t in range(T):
            u = rng.random()
            pr.append(tg[t] if u < 0.3 else tg[max(0, t - rng.randint(1, 5))] if u < 0.6 else rng.choice(vocab))
        out.append(dict(targets=' '.join(tg), predictions=' '.join(pr), context=rng.randint(1, 12)))
    return out


def digest(obj) -> str:
    "sha256 of `obj` as JSON: stored outputs belong to exactly these inputs."
    return hashlib.sha256(json.dumps(obj, ensure_ascii=True, sort_keys=True).encode()).hexdigest()


def simctg_cases(n: int = 5000, seed: int = 20261126) -> list:
    """`n` lists of 1-5 texts (0-30 whitespace tokens over a small vocabulary; the first has at least 6 tokens, so that
    SimCTG's rep-2..4 are defined)."""
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        vocab = [chr(97 + i) for i in range(rng.randint(2, 10))]
        texts = []
        for j in range(rng.randint(1, 5)):
            k = rng.randint(6 if j == 0 else 0, 30)
            texts.append(' '.join(rng.choice(vocab) for _ in range(k)))
        out.append(texts)
    return out
