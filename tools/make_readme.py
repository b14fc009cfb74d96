"""Make README.md from nbs/index.ipynb (what `nbdev_readme` does, without Quarto): execute the notebook so
the example's printed output is current, then export it as Markdown.

    .venv/bin/python tools/make_readme.py
"""
from pathlib import Path

import nbformat
from nbclient import NotebookClient
from nbconvert import MarkdownExporter

root = Path(__file__).resolve().parent.parent
nb = nbformat.read(root / 'nbs' / 'index.ipynb', as_version=4)
NotebookClient(nb, timeout=600, kernel_name='python3', resources={'metadata': {'path': str(root / 'nbs')}}).execute()
for c in nb.cells:  # nbdev directives are not for readers
    if c.cell_type == 'code':
        c.source = '\n'.join(l for l in c.source.splitlines() if not l.startswith('#|'))
body, _ = MarkdownExporter().from_notebook_node(nb)
# Printed output: a fenced block instead of nbconvert's indented one
out, lines, i = [], body.splitlines(), 0
while i < len(lines):
    if lines[i].startswith('    ') and (i == 0 or lines[i - 1] == '') and out and out[-1] == '' and any(
            o.startswith('```') for o in out[-4:]):
        block = []
        while i < len(lines) and (lines[i].startswith('    ') or lines[i] == ''):
            block.append(lines[i][4:]); i += 1
        while block and block[-1] == '': block.pop()
        out += ['```', *block, '```', '']
        continue
    out.append(lines[i]); i += 1
text = '<!-- Made from nbs/index.ipynb by tools/make_readme.py: edit the notebook, not this file. -->\n\n' + '\n'.join(out).strip() + '\n'
(root / 'README.md').write_text(text, encoding='utf-8')
print('README.md written')
