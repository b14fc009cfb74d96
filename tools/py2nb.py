"""Convert percent-format drafts (`# %%` cells) into notebooks in nbs/ (a development helper).

    python tools/py2nb.py nbs_src/01_bleu.py [...]   -> nbs/01_bleu.ipynb

The notebooks in nbs/ are the source of the package; drafts are a convenience for writing them.
"""
import sys
from pathlib import Path

import jupytext
import nbformat

for src in sys.argv[1:]:
    src = Path(src)
    nb = jupytext.read(src, fmt='py:percent')
    nb.metadata = {'kernelspec': {'display_name': 'python3', 'language': 'python', 'name': 'python3'}}
    for c in nb.cells:
        c.metadata = {}
        if c.cell_type == 'code': c.outputs, c.execution_count = [], None
    out = Path('nbs') / (src.stem + '.ipynb')
    nbformat.write(nb, out)
    print(out)
