"""The package's house rules, measured on the exported source (imports inside functions included):
roles are places, dependencies point down, no import circle, no module a newcomer cannot read in one sitting.

    core      inputs, tokenizers, results, the metric protocol and registry: imports nothing above it
    kernels   the fast engines and the standard-library statistics: tokens and numbers in; import core only
    metrics, lm, stats   the lessons' definitions: import core, kernels and each other (never views or app)
    models    the model-based metrics (torch, imported inside functions): a lesson's level, like metrics
    views     renderers, plots, explorers: anything but app
    scale     runs existing metrics on an engine (Dask, Spark): imports core and the lessons, imported by app only
    app       command line, browser bridge (and the package's top level): anything
"""
import ast
from pathlib import Path

import pytest

PKG = Path(__file__).parent.parent / 'textmetrics_edu'
LEVEL = {'core': 0, 'kernels': 1, 'metrics': 2, 'lm': 2, 'stats': 2, 'models': 2, 'views': 3, 'scale': 3, 'app': 4}
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
                names = [base] + [f'{base}.{a.name}' for a in node.names]
            for n in names:
                # the most specific module named (`from textmetrics_edu.metrics import bleu` -> metrics.bleu)
                if n in mods and n != m and not m.startswith(n + '.') and n != 'textmetrics_edu': out.add(n)
        edges[m] = out
    return edges


def role(m: str) -> str | None:
    parts = m.split('.')
    return parts[1] if len(parts) > 1 and parts[1] in LEVEL else None


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
            if r == 'kernels' and rt not in ('core', 'kernels'): bad.append(f'{m} -> {t}')
            elif LEVEL[rt] > LEVEL[r]: bad.append(f'{m} -> {t}')
    assert bad == [], 'imports that point up:\n' + '\n'.join(sorted(bad))


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
