"""The package's house rules, measured on the exported source (imports inside functions included):
roles are places, dependencies point down, no import circle, no module a newcomer cannot read in one sitting.

    core      inputs, tokenizers, results, the metric protocol, registry and conventions: imports nothing above it
    kernels   the fast engines and the standard-library statistics: tokens and numbers in; import core only
    metrics, lm, models   the lessons' definitions, each folder a room of its own: core and kernels only (models: torch,
              imported inside functions)
    stats     significance, agreement, meta-evaluation, conventions' differences: any metric through the registry
              (`core`), never a metric module by name
    views     renderers, plots, explorers: anything but scale and app
    scale     runs any registered metric on an engine (Dask, Spark) through its spec: core, kernels, stats
    app       command line, browser bridge (and the package's top level): anything
A module reaches another room only through its public names or the metric's spec (`Metric`): no `_private` name is
imported from another module, and `import textmetrics_edu` (the top level) counts as an import of the app's level.
"""
import ast
from pathlib import Path

import pytest

PKG = Path(__file__).parent.parent / 'textmetrics_edu'
ROOMS = ('metrics', 'lm', 'models')  # the lessons' definitions
USES = {   # role -> the roles it may import besides itself (a level for each folder: no folder-level circle)
    'core': set(), 'kernels': {'core'}, **{r: {'core', 'kernels'} for r in ROOMS}, 'stats': {'core', 'kernels'},
    'views': {'core', 'kernels', *ROOMS, 'stats'}, 'scale': {'core', 'kernels', 'stats'},
    'app': {'core', 'kernels', *ROOMS, 'stats', 'views', 'scale'}}
# Known debt (issue 32), to shrink, never to grow (empty: the n-gram LM reaches scale through its `CountedModel`)
PENDING = set()
LEVEL = {r: i for i, r in enumerate(('core', 'kernels', 'metrics', 'lm', 'models', 'stats', 'views', 'scale', 'app'))}
MAX_LINES = 600


def modules() -> dict[str, Path]:
    out = {}
    for p in sorted(PKG.rglob('*.py')):
        rel = p.relative_to(PKG)
        if p.name == '_modidx.py' or rel.parts[0] == 'data': continue
        parts = ['textmetrics_edu', *rel.with_suffix('').parts]
        if parts[-1] == '__init__': parts = parts[:-1]
        out['.'.join(parts)] = p
    return out


def imports(mods: dict[str, Path]) -> dict[str, set[str]]:
    "module -> the package modules it imports anywhere in its source (module level or inside functions)."
    edges = {}
    for m, p in mods.items():
        is_pkg = p.name == '__init__.py'
        out = set()
        for node in ast.walk(ast.parse(p.read_text(encoding='utf-8'))):
            names = []
            if isinstance(node, ast.Import): names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ''
                if node.level:
                    parts = m.split('.') if is_pkg else m.split('.')[:-1]
                    parts = parts[:len(parts) - node.level + 1]
                    base = '.'.join(parts + ([base] if base else []))
                names = [f'{base}.{a.name}' for a in node.names]
                # `from textmetrics_edu import X` with X a name of the top level (not a sub-package, not `__version__`)
                names += [base] if base != 'textmetrics_edu' or any(
                    f'{base}.{a.name}' not in mods and not a.name.startswith('__') for a in node.names) else []
            for n in names:
                # the most specific module named (`from textmetrics_edu.metrics import bleu` -> metrics.bleu)
                # (a module's own parent package is not an import of it, but the top level always counts: `import
                # textmetrics_edu` inside a function reaches the app's level like any other import)
                if n in mods and n != m and (n == 'textmetrics_edu' or not m.startswith(n + '.')): out.add(n)
        edges[m] = out
    return edges


def role(m: str) -> str | None:
    parts = m.split('.')
    return parts[1] if len(parts) > 1 and parts[1] in LEVEL else None


def private_imports(mods: dict[str, Path]) -> list[str]:
    "`from X import _name` with X another module of the package (a private module of the importer's own folder aside)."
    out = []
    for m, p in mods.items():
        is_pkg = p.name == '__init__.py'
        for node in ast.walk(ast.parse(p.read_text(encoding='utf-8'))):
            if not isinstance(node, ast.ImportFrom): continue
            base = node.module or ''
            if node.level:
                parts = m.split('.') if is_pkg else m.split('.')[:-1]
                base = '.'.join(parts[:len(parts) - node.level + 1] + ([base] if base else []))
            if base not in mods or base == m: continue
            for a in node.names:
                if not a.name.startswith('_') or a.name.startswith('__'): continue
                if f'{base}.{a.name}' in mods and role(base) == role(m): continue   # core.text -> core._unicode
                out.append(f'{m} <- {base}.{a.name}')
    return out


def test_every_module_has_a_role():
    top = {'textmetrics_edu', 'textmetrics_edu.__main__'}   # the package's generated API and `python -m`
    assert [m for m in modules() if m not in top and role(m) is None] == []


def test_dependencies_point_down():
    mods = modules()
    bad = []
    for m, targets in imports(mods).items():
        r = role(m)
        if r is None: continue
        for t in targets:
            rt = role(t)
            if rt is None: bad.append(f'{m} -> {t} (the top level)'); continue
            if rt != r and rt not in USES[r]: bad.append(f'{m} -> {t}')
    assert PENDING <= set(bad), f'fixed, remove from PENDING: {PENDING - set(bad)}'
    bad = [b for b in bad if b not in PENDING]
    assert bad == [], 'imports outside what the role may use (up, sideways between rooms, a metric by name):\n' + \
        '\n'.join(sorted(bad))


def test_no_private_name_crosses_modules():
    "The spec is the door: what another module needs is a public name of its home or a field of the metric's spec."
    assert private_imports(modules()) == []


def test_levels_have_no_circle():
    "The allowed uses between folders point one way (a level for each folder)."
    assert all(LEVEL[u] < LEVEL[r] for r, us in USES.items() for u in us)


def test_no_import_circle():
    edges = imports(modules())
    seen, stack, circles = {}, [], []

    def visit(v):
        seen[v] = 'open'; stack.append(v)
        for w in sorted(edges[v]):
            if seen.get(w) == 'open': circles.append(stack[stack.index(w):] + [w])
            elif w not in seen: visit(w)
        stack.pop(); seen[v] = 'done'
    for v in sorted(edges):
        if v not in seen: visit(v)
    assert circles == [], 'import circles:\n' + '\n'.join(' -> '.join(c) for c in circles)


def test_modules_stay_small():
    big = {m: n for m, p in modules().items() if (n := len(p.read_text(encoding='utf-8').splitlines())) >= MAX_LINES}
    assert big == {}, f'modules of {MAX_LINES} lines or more: {big}'


@pytest.mark.parametrize('folder', ['core'])
def test_core_imports_no_heavy_library_at_module_level(folder):
    "The browser runs core on Pyodide: numpy/scipy/matplotlib only inside functions."
    heavy = ('numpy', 'scipy', 'matplotlib', 'pandas', 'ipywidgets', 'sklearn')
    bad = []
    for p in sorted((PKG / folder).glob('*.py')):
        for node in ast.parse(p.read_text(encoding='utf-8')).body:
            if isinstance(node, ast.Import): names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom): names = [node.module or '']
            else: continue
            bad += [f'{p.name}: {n}' for n in names if n.split('.')[0] in heavy]
    assert bad == []


def test_every_module_has_a_docstring():
    """Each module of the package says what it is (its role, what it holds, its source) in a module docstring: nbdev's
    from the notebook's summary, tools/export.py's for routed modules and sub-packages (`ROLES`); the top level sets
    `__doc__` itself. A docstring that is not a sentence (cut mid-word, or a stray fragment) fails too."""
    missing, short = [], []
    for m, p in modules().items():
        tree = ast.parse(p.read_text(encoding='utf-8'))
        doc = ast.get_docstring(tree) or next((n.value.value for n in tree.body if isinstance(n, ast.Assign)
                                               and any(getattr(t, 'id', '') == '__doc__' for t in n.targets)
                                               and isinstance(n.value, ast.Constant)), None)
        if not doc: missing.append(m)
        elif len(doc.split()) < 4 or not doc.rstrip().endswith(('.', ')', '`')): short.append((m, doc[-60:]))
    assert not missing, f'modules without a docstring (make export writes one for routed modules): {missing}'
    assert not short, f'docstrings that are not a sentence: {short}'
