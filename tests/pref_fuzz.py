"""Fuzzed battle sets for the Bradley-Terry/Elo conformance tests (standard library only, deterministic by case number).

`tools/preferences_reference.py` runs FastChat's and fschat's functions on the same cases (outside our environment)
and stores their outputs in tests/data/preferences/; tests/test_preferences.py recomputes ours and compares."""
import random

KINDS = ('plain', 'ties', 'never_wins', 'disconnected', 'all_ties', 'one_sided')


def fuzz_battles(case: int) -> list[tuple[str, str, str]]:
    "Battle set number `case`: (model_a, model_b, winner) tuples, winner in model_a/model_b/tie."
    g = random.Random(case)
    kind = KINDS[case % len(KINDS)]
    n = g.randint(2, 7)
    models = [f"m{k}" for k in g.sample(range(20), n)]
    strength = {m: g.gauss(0, 1.0) for m in models}
    p_tie = {'plain': 0.0, 'ties': g.uniform(0.1, 0.6), 'all_ties': 1.0}.get(kind, g.uniform(0, 0.3))
    out = []
    for _ in range(g.randint(1, 60)):
        if kind == 'disconnected' and n >= 4:
            half = g.random() < 0.5
            a, b = g.sample(models[:n // 2] if half else models[n // 2:], 2)
        else:
            a, b = g.sample(models, 2)
        if g.random() < p_tie: w = 'tie'
        else:
            pa = 1 / (1 + 10 ** (strength[b] - strength[a]))
            w = 'model_a' if g.random() < pa else 'model_b'
        if kind == 'never_wins' and w != 'tie' and models[0] in (a, b):
            w = 'model_b' if a == models[0] else 'model_a'
        if kind == 'one_sided': w = 'model_a'
        out.append((a, b, w))
    return out
