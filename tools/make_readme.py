"""Make README.md from nbs/index.ipynb (what `nbdev_readme` does, without Quarto), then export it as Markdown with
the example's printed output.

The outputs come from the site build when it is current: tools/build_site.py executes every notebook and leaves
the executed, processed notebooks in `_proc/` (cell ids kept), so `_proc/index.ipynb` holds this notebook's outputs
and nothing is executed a second time. Only without a current `_proc/index.ipynb` (missing, older than a notebook, or
its cells no longer match) is nbs/index.ipynb executed here; `--execute` forces that.

    .venv/bin/python tools/make_readme.py [--execute]

The README is read on GitHub, where the site's pages do not exist: its links to site pages (`bleu.html`) become
relative links to the notebooks they are made from (`nbs/01_bleu.ipynb`), which GitHub renders (`github_links`).
"""
import re
import sys
from pathlib import Path

import nbformat
from nbconvert import MarkdownExporter

root = Path(__file__).resolve().parent.parent
src, proc = root / 'nbs' / 'index.ipynb', root / '_proc' / 'index.ipynb'


def outputs_from_site_build(nb) -> str | None:
    "Copy the outputs of the site build's execution into `nb`'s code cells; returns why not, or None when done"
    if not proc.exists(): return f'no {proc.relative_to(root)} (run `make docs` to reuse its execution)'
    newest = max(p.stat().st_mtime for p in (root / 'nbs').rglob('*.ipynb'))
    if proc.stat().st_mtime < newest: return f'{proc.relative_to(root)} is older than the notebooks'
    executed = nbformat.read(proc, as_version=4)
    done = {c.get('id'): c for c in executed.cells if c.cell_type == 'code'}
    code = [c for c in nb.cells if c.cell_type == 'code']
    if any(c.get('id') not in done for c in code): return f'cells of {proc.relative_to(root)} do not match'
    for c in code: c.outputs = done[c.id].outputs
    # what an execution adds to the metadata (the code blocks' language)
    nb.metadata['language_info'] = executed.metadata.get('language_info') or {'name': 'python'}
    return None


def execute(nb) -> None:
    "Execute `nb` in a Jupyter kernel, in nbs/ (what the site build does)."
    from nbclient import NotebookClient
    NotebookClient(nb, timeout=600, kernel_name='python3', resources={'metadata': {'path': str(root / 'nbs')}}).execute()


def execute_in_process(nb) -> None:
    """Execute `nb`'s code cells in this process, in nbs/, recording the outputs a kernel would record for them: the
    printed text and the display of a cell's last expression (Markdown or plain text). Enough for nbs/index.ipynb (a
    test compares the README with a fresh one without starting a kernel); anything else raises as the cell raises."""
    import ast, contextlib, io, os
    ns, cwd, path = {'__name__': '__main__'}, os.getcwd(), list(sys.path)
    os.chdir(root / 'nbs')
    try:
        for c in nb.cells:
            if c.cell_type != 'code': continue
            tree = ast.parse(c.source)
            last = tree.body.pop() if tree.body and isinstance(tree.body[-1], ast.Expr) else None
            out, value = io.StringIO(), None
            with contextlib.redirect_stdout(out):
                exec(compile(tree, '<cell>', 'exec'), ns)
                if last is not None: value = eval(compile(ast.Expression(last.value), '<cell>', 'eval'), ns)
            c.outputs = [nbformat.v4.new_output('stream', name='stdout', text=out.getvalue())] if out.getvalue() else []
            if value is not None:
                md = getattr(value, '_repr_markdown_', None)
                data = {'text/markdown': md(), 'text/plain': repr(value)} if md else {'text/plain': repr(value)}
                c.outputs.append(nbformat.v4.new_output('display_data' if md else 'execute_result', data=data,
                                                        **({} if md else {'execution_count': None})))
    finally: os.chdir(cwd); sys.path[:] = path
    nb.metadata['language_info'] = {'name': 'python'}


def markdown_of(nb) -> str:
    "The README's Markdown from the executed notebook `nb` (changed in place: directives applied)."
    keep = []
    for c in nb.cells:  # nbdev directives are not for readers; as on the site, `hide` drops a cell, `echo: false` its code
        if c.cell_type == 'code':
            dirs = [l[2:].strip().replace(' ', '') for l in c.source.splitlines() if l.startswith('#|')]
            if 'hide' in dirs: continue
            if 'echo:false' in dirs:   # its output alone: a Markdown display becomes Markdown of the README
                text = [o.get('data', {}).get('text/markdown') for o in c.outputs if o.get('data', {}).get('text/markdown')]
                if text: keep.append(nbformat.v4.new_markdown_cell(''.join(text[0]) if isinstance(text[0], list) else text[0]))
                continue
            c.source = '\n'.join(l for l in c.source.splitlines() if not l.startswith('#|'))
        keep.append(c)
    nb.cells = keep
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
    return '\n'.join(out)


def github_links(text: str) -> str:
    """The site's page links (`bleu.html`, `bleu.html#corpus_bleu`) -> the notebook each page is made from
    (`nbs/01_bleu.ipynb`): the README is read on GitHub (and PyPI), where the site's pages do not exist but the
    notebooks do, and GitHub renders them. settings.ini has no real URL of the published site (`doc_host` is a
    placeholder), so no absolute site link is made; the anchor is dropped (GitHub's notebook view has none)."""
    sys.path.insert(0, str(root / 'tools'))
    from build_site import find_notebooks, site_page
    nbs = root / 'nbs'
    pages = {site_page(p.relative_to(nbs)).as_posix(): p.relative_to(root).as_posix() for p in find_notebooks(nbs)}

    def repl(m):
        page = m.group(2)
        if page not in pages: raise SystemExit(f'README: a link to {page!r}, which no notebook makes (tools/make_readme.py)')
        return f'{m.group(1)}({pages[page]})'
    return re.sub(r'(\]\s?)\(([A-Za-z0-9_./-]+\.html)(?:#[^)\s]*)?\)', repl, text)


def readme_text(nb) -> str:
    "README.md's text from the executed notebook `nb`."
    return github_links('<!-- Made from nbs/index.ipynb by tools/make_readme.py: edit the notebook, not this file. -->\n\n'
                        + markdown_of(nb).strip() + '\n')


def main():
    nb = nbformat.read(src, as_version=4)
    why = 'asked to (--execute)' if '--execute' in sys.argv[1:] else outputs_from_site_build(nb)
    if why:
        print(f'executing nbs/index.ipynb: {why}')
        execute(nb)
    else:
        print(f'outputs taken from {proc.relative_to(root)} (the site build executed it)')
    (root / 'README.md').write_text(readme_text(nb), encoding='utf-8')
    print('README.md written')


if __name__ == '__main__':
    main()
