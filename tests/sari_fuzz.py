"""Seeded random rewriting cases (source, output, references) for the SARI and GEC GLEU conformance tests: the same
generator made the stored tool outputs (tests/data/simplification/README.md, tests/data/gec/README.md), so the tests
regenerate the inputs and compare with the numbers stored. Only `random.Random(seed)`'s integer draws are used
(`randrange`, `choice`), which are stable across Python versions."""
import random

WORDS = ['the', 'The', 'cat', "cat's", 'sat', 'on', 'a', 'mat', 'Mat.', 'dog', 'ran,', 'and', 'it', 'was', '(big)', 'is']


def _mutate(rng: random.Random, toks: list) -> list:
    out = list(toks)
    for _ in range(rng.randrange(0, 4)):
        op = rng.randrange(4)
        if op == 0 and len(out) > 1: del out[rng.randrange(len(out))]             # delete a word
        elif op == 1: out.insert(rng.randrange(len(out) + 1), rng.choice(WORDS))   # insert one
        elif op == 2 and out: out[rng.randrange(len(out))] = rng.choice(WORDS)     # substitute one
        elif op == 3 and len(out) > 2:                                             # move one
            w = out.pop(rng.randrange(len(out))); out.insert(rng.randrange(len(out) + 1), w)
    return out or [rng.choice(WORDS)]


def rewriting_cases(seed: int, n: int, max_refs: int = 4) -> list:
    "n cases (source, output, [references]): sentences of 1-12 words from a 16-word vocabulary, many repeats."
    rng = random.Random(seed)
    cases = []
    for _ in range(n):
        src = [rng.choice(WORDS) for _ in range(rng.randrange(1, 13))]
        hyp = src if rng.randrange(8) == 0 else _mutate(rng, src)
        refs = [_mutate(rng, src) for _ in range(rng.randrange(1, max_refs + 1))]
        cases.append((' '.join(src), ' '.join(hyp), [' '.join(r) for r in refs]))
    return cases
