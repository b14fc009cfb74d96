"""Replace the whole source of one notebook cell, found by its id, with the contents of a file.

    python tools/nb_set_cell.py nbs/10_edit_distance.ipynb CELL_ID path/to/source.py

Loads, edits and saves at once; the cell keeps its id, type and metadata; outputs are cleared."""
import sys
from pathlib import Path

import nbformat

path, cid, src = sys.argv[1:4]
nb = nbformat.read(path, as_version=4)
hits = [c for c in nb.cells if c.get('id') == cid]
if len(hits) != 1: sys.exit(f"{path}: no cell with id {cid!r}")
hits[0].source = Path(src).read_text().rstrip('\n')
if hits[0].cell_type == 'code': hits[0].outputs, hits[0].execution_count = [], None
nbformat.write(nb, path)
print(f"{path}: cell {cid} replaced")
