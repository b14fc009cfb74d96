#!/usr/bin/env python
"""Undefined names in the notebooks (ruff's F821 on each notebook's code cells read as one script, in order), for
`make lint`: a name an exported cell stops importing, but a later cell of the lesson still uses, fails here in a
second instead of when the site build executes the notebook. IPython's `display` counts as defined; `%` and `!`
lines are skipped.

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


def main(paths) -> int:
    paths = [Path(p) for p in paths] or sorted((ROOT / 'nbs').glob('*.ipynb'))
    with tempfile.TemporaryDirectory() as d:
        for p in paths: Path(d, p.stem + '.py').write_text(script_of(p), encoding='utf-8')
        r = subprocess.run([sys.executable, '-m', 'ruff', 'check', '--no-cache', '--isolated', '--select', 'F821',
                            '--config', "builtins=['display']", '--output-format', 'concise', d], capture_output=True, text=True)
        out = r.stdout.replace(d + '/', 'nbs/').replace('.py:', '.ipynb (code cells as one script):')
    if r.returncode: print(out, end='')
    else: print(f'notebooks: no undefined name ({len(paths)} notebooks)')
    return r.returncode


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
