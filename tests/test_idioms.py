"""One name per idiom (issue 32), measured on the exported source: a statistics class declares its `+` with
`core.results.summable` instead of writing `__add__`, and the n-grams of a token list come from `core.text`
(`ngram_iter`, `ngrams`, `ngram_counts`), not from `zip(*[toks[i:] for i in range(n)])` typed again."""
import ast
from pathlib import Path

PKG = Path(__file__).parent.parent / 'textmetrics_edu'

# (module, enclosing definition) allowed a hand `__add__`, each with its reason
HAND_ADD = {
    ('core/results.py', 'MetricResult'): "a result computes like its score (float arithmetic), it is not statistics",
    ('core/results.py', 'summable'): "the declaration itself",
    ('metrics/wer.py', 'Normalizer'): "`+` composes normalisation steps",
    ('scale/mapreduce.py', 'PartitionStats'): "empty side is the zero; integer sums meeting float rows; warnings once",
    ('scale/mapreduce.py', 'PoissonSums'): "an empty partition's PoissonSums(None, None) is the zero",
}
NGRAM_HOME = 'core/text.py'


def sources():
    for p in sorted(PKG.rglob('*.py')):
        rel = p.relative_to(PKG).as_posix()
        if p.name != '_modidx.py' and not rel.startswith('data/'): yield rel, ast.parse(p.read_text())


def hand_adds(tree):
    "(enclosing class or function, line) of every `def __add__` in `tree`."
    out = []
    def walk(node, owner):
        for ch in ast.iter_child_nodes(node):
            if isinstance(ch, (ast.FunctionDef, ast.AsyncFunctionDef)) and ch.name == '__add__': out.append((owner, ch.lineno))
            walk(ch, ch.name if isinstance(ch, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) else owner)
    walk(tree, None)
    return out


def is_ngram_zip(node) -> bool:
    "`zip(*[x[i:] for i in range(...)])` (list or generator): the n-grams of `x`, typed by hand."
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == 'zip'
            and len(node.args) == 1 and isinstance(node.args[0], ast.Starred)): return False
    comp = node.args[0].value
    if not isinstance(comp, (ast.ListComp, ast.GeneratorExp)) or len(comp.generators) != 1: return False
    g, e = comp.generators[0], comp.elt
    return (isinstance(g.target, ast.Name) and isinstance(g.iter, ast.Call) and isinstance(g.iter.func, ast.Name)
            and g.iter.func.id == 'range' and isinstance(e, ast.Subscript) and isinstance(e.slice, ast.Slice)
            and isinstance(e.slice.lower, ast.Name) and e.slice.lower.id == g.target.id and e.slice.upper is None)


def test_the_ngram_pattern_is_recognised():
    assert is_ngram_zip(ast.parse("zip(*[toks[i:] for i in range(n)])", mode='eval').body)
    assert not is_ngram_zip(ast.parse("zip(*[f(h, r) for h, r in pairs])", mode='eval').body)  # an unzip (chrF)


def test_statistics_declare_their_sum():
    found = [(m, owner, line) for m, tree in sources() for owner, line in hand_adds(tree)]
    extra = [f"{m}:{line} ({owner})" for m, owner, line in found if (m, owner) not in HAND_ADD]
    assert not extra, ("a hand-written `__add__`: declare the class `@summable` (core.results), or add it with its "
                       f"reason to HAND_ADD if `+` is not a field-by-field sum: {extra}")
    stale = set(HAND_ADD) - {(m, owner) for m, owner, _ in found}
    assert not stale, f"HAND_ADD lists what is gone: {sorted(stale)}"


def test_ngrams_have_one_home():
    found = [f"{m}:{n.lineno}" for m, tree in sources() if m != NGRAM_HOME for n in ast.walk(tree) if is_ngram_zip(n)]
    assert not found, f"n-grams typed again: use core's `ngram_iter`/`ngrams`/`ngram_counts`: {found}"
    assert any(is_ngram_zip(n) for n in ast.walk(dict(sources())[NGRAM_HOME])), f"{NGRAM_HOME} lost its n-grams"


def test_tokenizers_are_reached_through_core():
    """One door to the tokenizers: `core.tokenize` (checked) and `core.tokens_unchecked` (what is inside it, for a
    stage whose options are validated once per call); no module indexes `TOKENIZERS[...]` and splits by itself."""
    found = [f'{rel}:{n.lineno}' for rel, tree in sources() if rel != NGRAM_HOME for n in ast.walk(tree)
             if isinstance(n, ast.Subscript) and isinstance(n.value, ast.Name) and n.value.id == 'TOKENIZERS']
    assert found == [], f'TOKENIZERS[...] outside core/text.py (use core.tokens_unchecked): {found}'
