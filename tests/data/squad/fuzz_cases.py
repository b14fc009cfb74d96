"""Seeded fuzz cases for SQuAD EM/F1 (shared by tests/test_squad.py and the script that stored the tools' outputs).

Each case is (prediction, gold answers): answers built from tokens that stress the normalisation: articles in every
case, ASCII punctuation (removed) and Unicode punctuation (kept), words glued by punctuation, Unicode whitespace,
case-changing letters, empty strings and strings that normalise to nothing. Deterministic for a given seed
(`random.Random`: `choice`, `randint` and `random` are stable across Python 3 versions)."""
import random

TOKENS = ['the', 'The', 'THE', 'a', 'A', 'an', 'An', 'cat', 'Cat', 'cats', 'dog', 'Denver', 'Broncos', '1990', '$5',
          'U.S.', 'e.g.', 'Paris', 'paris', 'rock-and-roll', "don't", 'naïve', 'Éclair', 'théâtre', 'ß', 'İstanbul',
          'ﬁne', 'Σίσυφος', '日本', '１２', 'x', '–', '—', '“', '”', '«', '»', '.', ',', '!', '?', '(', ')', '"', "'",
          '#', '%', '&', '_', '-', '/', '...', 'thea', 'anthe', 'a.', 'the,', '(the)']
SEPS = [' ', ' ', ' ', '  ', '', '\t', '\u00a0', '\u2009', '\u3000', '\n', '-', ', ']


def answer(rng: random.Random) -> str:
    k = rng.choice([0, 1, 1, 2, 2, 3, 3, 4, 5, 7])
    out = ''
    for i in range(k): out += (rng.choice(SEPS) if i else '') + rng.choice(TOKENS)
    if rng.random() < 0.1: out = ' ' + out
    if rng.random() < 0.1: out += rng.choice(SEPS)
    return out


def perturb(rng: random.Random, s: str) -> str:
    "A nearby answer: a token dropped, added or re-cased, an article or a punctuation mark added."
    toks = s.split(' ')
    r = rng.random()
    if r < 0.2 and len(toks) > 1: toks.pop(rng.randrange(len(toks)))
    elif r < 0.4: toks.insert(rng.randrange(len(toks) + 1), rng.choice(TOKENS))
    elif r < 0.55: toks = [t.upper() if rng.random() < 0.5 else t for t in toks]
    elif r < 0.7: toks.insert(0, rng.choice(['the', 'The', 'a', 'an']))
    elif r < 0.8: toks[-1] = toks[-1] + rng.choice(['.', ',', '!', '”', '–'])
    return ' '.join(toks)


def cases(n: int = 6000, seed: int = 20161) -> list[tuple[str, list[str]]]:
    "n (prediction, golds) pairs; golds: 1-4 answers, often perturbations of the prediction."
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        pred = answer(rng)
        golds = [perturb(rng, pred) if rng.random() < 0.6 else answer(rng) for _ in range(rng.randint(1, 4))]
        if rng.random() < 0.05: pred = ''
        if rng.random() < 0.05: golds = ['']
        out.append((pred, golds))
    return out
