#!/usr/bin/env python
"""Undefined names in the notebooks (ruff's F821 on each notebook's code cells read as one script, in order), for
`make lint`: a name an exported cell stops importing, but a later cell of the lesson still uses, fails here in a
second instead of when the site build executes the notebook. IPython's `display` counts as defined; `%` and `!`
lines are skipped. Then every `from textmetrics_edu... import name` of the notebooks must name something the package
has (a lesson importing a name its module stopped re-exporting).

    python tools/lint_notebooks.py [NB.ipynb ...]    # default: every notebook of nbs/
"""
import subprocess
import sys
import tempfile
from pathlib import Path

import nbformat

ROOT = Path(__file__).resolve().parent.parent


def script_of(path: Path) -> str:
    "The notebook's code cells as one script (magics and shell lines commented out)."
    nb = nbformat.read(path, as_version=4)
    cells = ['\n'.join('# ' + l if l.lstrip().startswith(('%', '!')) else l for l in c.source.splitlines())
             for c in nb.cells if c.cell_type == 'code']
    return '\n\n'.join(cells) + '\n'


def missing_package_names(paths) -> list[str]:
    "`NB: from MODULE import NAME` for each import of a package name that does not exist (the package is imported)."
    import ast
    import importlib
    out = []
    for p in paths:
        try: tree = ast.parse(script_of(p))
        except SyntaxError as e: out.append(f'{p.name}: cannot parse its code cells ({e.msg}, line {e.lineno})'); continue
        for n in ast.walk(tree):
            if not (isinstance(n, ast.ImportFrom) and (n.module or '').split('.')[0] == 'textmetrics_edu'): continue
            try: m = importlib.import_module(n.module)
            except ImportError as e: out.append(f'{p.name}: import {n.module} ({e})'); continue
            for a in n.names:
                if a.name == '*' or hasattr(m, a.name): continue
                try: importlib.import_module(f'{n.module}.{a.name}')
                except ImportError: out.append(f'{p.name}: from {n.module} import {a.name} (no such name)')
    return out


def main(paths) -> int:
    paths = [Path(p) for p in paths] or sorted((ROOT / 'nbs').glob('*.ipynb'))
    with tempfile.TemporaryDirectory() as d:
        for p in paths: Path(d, p.stem + '.py').write_text(script_of(p), encoding='utf-8')
        r = subprocess.run([sys.executable, '-m', 'ruff', 'check', '--no-cache', '--isolated', '--select', 'F821',
                            '--config', "builtins=['display']", '--output-format', 'concise', d], capture_output=True, text=True)
        out = r.stdout.replace(d + '/', 'nbs/').replace('.py:', '.ipynb (code cells as one script):')
    missing = missing_package_names(paths)
    if r.returncode: print(out, end='')
    print('\n'.join(missing) if missing else f'notebooks: every package name they import exists ({len(paths)} notebooks)')
    if not r.returncode: print(f'notebooks: no undefined name ({len(paths)} notebooks)')
    return 1 if r.returncode or missing else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
