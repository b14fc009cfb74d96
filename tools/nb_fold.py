"""Fold code cells on the site: prepend `#| code-fold: true` (and a `#| code-summary:`) to the cells with these ids.

    python tools/nb_fold.py nbs/20_rouge.ipynb "Code for the figure" CELL_ID [CELL_ID ...]

Loads, edits and saves at once; a cell already folded is left as it is. Fails if an id is not a code cell."""
import sys

import nbformat

path, summary, *ids = sys.argv[1:]
nb = nbformat.read(path, as_version=4)
cells = {c.get('id'): c for c in nb.cells}
for cid in ids:
    c = cells.get(cid)
    if c is None or c.cell_type != 'code': sys.exit(f'{path}: no code cell with id {cid!r}')
    if '#| code-fold:' in c.source: continue
    c.source = f'#| code-fold: true\n#| code-summary: "{summary}"\n' + c.source
nbformat.write(nb, path)
print(f'{path}: folded {len(ids)} cells')
