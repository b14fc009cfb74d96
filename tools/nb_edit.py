"""Targeted edit of one notebook cell: replace OLD by NEW in the source of the cell containing OLD.

    python tools/nb_edit.py nbs/99_api.ipynb OLD NEW

Loads, edits and saves at once (shared notebooks are edited by several people). Fails if OLD is not found
exactly once.
"""
import sys

import nbformat

path, old, new = sys.argv[1:4]
nb = nbformat.read(path, as_version=4)
hits = [c for c in nb.cells if old in c.source]
if len(hits) != 1 or hits[0].source.count(old) != 1:
    sys.exit(f"{path}: expected exactly one occurrence of the text, found {sum(c.source.count(old) for c in nb.cells)}")
hits[0].source = hits[0].source.replace(old, new)
nbformat.write(nb, path)
print(f"{path}: edited")
