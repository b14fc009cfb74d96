#!/usr/bin/env python3
"""Git clean filter for notebooks: what git stores is the notebook without outputs, execution counts, cell metadata
or saved widget state, written exactly as `nbdev_clean` writes it. The file on disk is not touched, so outputs
produced in JupyterLab stay on screen and in your copy, but `git status`/`git diff` see only the sources.

Standard library only (git runs it for every changed notebook). Installed by `make hooks` (part of `make setup`):

    git config filter.nbclean.clean "python3 tools/nb_clean_filter.py"      # .gitattributes: *.ipynb filter=nbclean

Reads a notebook on stdin, writes the cleaned notebook on stdout; anything that is not a notebook's JSON (a file
with merge-conflict markers, say) passes through unchanged.
"""
import json
import sys

# nbdev_clean's notebook-level keys, minus `widgets` (saved widget state is an output)
KEEP_METADATA = ('kernelspec', 'jekyll', 'jupytext', 'doc')


def clean(nb: dict) -> dict:
    "The notebook as nbdev's `clean_nb(nb, clear_all=True)` leaves it, without saved widget state"
    for c in nb.get('cells', []):
        if 'execution_count' in c: c['execution_count'] = None
        if 'outputs' in c: c['outputs'] = []
        if c.get('source') == ['']: c['source'] = []
        c['metadata'] = {}
    md = nb.get('metadata', {})
    if md.get('kernelspec', {}).get('name'): md['kernelspec']['display_name'] = md['kernelspec']['name']
    nb['metadata'] = {k: v for k, v in md.items() if k in KEEP_METADATA}
    if nb.get('nbformat') == 4 and nb.get('nbformat_minor', 0) < 5: nb['nbformat_minor'] = 5
    return nb


def main():
    data = sys.stdin.buffer.read()
    try:
        nb = json.loads(data.decode('utf-8'))
        if not isinstance(nb, dict) or 'cells' not in nb: raise ValueError('not a notebook')
    except ValueError:
        sys.stdout.buffer.write(data)
        return
    # execnb's nb2str, as nbdev_clean writes notebooks
    sys.stdout.buffer.write((json.dumps(clean(nb), sort_keys=True, indent=1, ensure_ascii=False) + '\n').encode('utf-8'))


if __name__ == '__main__':
    main()
