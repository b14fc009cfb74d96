"""Every intended picture of the course is a picture: on the built site (`_docs/*.html`) and in the executed
notebooks the site is made from (`_proc/*.ipynb`).

Executes nothing itself: it uses the site that tests/test_site.py uses, built by the same fixture (tests/conftest.py) (tools/build_site.py
runs when `_docs/` is missing or older than the notebooks). Two checks:

* no page shows a bare `<Figure size ... with N Axes>` text (the repr of a matplotlib Figure that was returned
  instead of displayed: under nbclient, a `matplotlib.figure.Figure` made without pyplot prints as text);
* every notebook cell meant as a plot (a code cell, not exported, that makes a figure: `Figure(`, `plt.subplots`,
  `plt.figure`, `plot_*(`, `figure_html(`) produced an image output (`image/png`, `image/svg+xml`, or HTML
  holding an `<img>`/`<svg>`).
"""
import re
from pathlib import Path

import nbformat

ROOT = Path(__file__).resolve().parents[1]
DOCS, NBS = ROOT / '_docs', ROOT / 'nbs'  # `site` (build _docs/ when stale) is the shared fixture of tests/conftest.py

PROC = ROOT / '_proc'
BARE = re.compile(r'&lt;Figure size|<Figure size')
MAKES_FIGURE = re.compile(r'\bFigure\(|plt\.subplots?\(|plt\.figure\(|\bplot_\w+\(|figure_html\(')


def _directives(src: str) -> set[str]:
    "The directive names of a cell (`#| export views.bleu` is `export`)."
    return {(l[3:].split(':')[0].split() or [''])[0] for l in src.splitlines() if l.startswith('#| ')}


def _body(src: str) -> str:
    "The source without nbdev directive lines (the processed notebooks drop or rewrite them)."
    return '\n'.join(l for l in src.splitlines() if not l.startswith('#|')).strip()


def is_plot_cell(cell) -> bool:
    "A code cell meant as a picture (exported definitions and checks of `figure_html` itself are not)."
    if cell.cell_type != 'code': return False
    src = cell.source
    d = _directives(src)
    if d & {'export', 'exports', 'exporti', 'hide', 'eval'}: return False
    if not MAKES_FIGURE.search(src): return False
    # a cell that only asserts on figure_html's string (00_core's check) draws nothing for the reader
    return not all(l.lstrip().startswith(('assert', 'test_', 'from ', 'import ', '_f')) or not l.strip()
                   for l in src.splitlines() if not l.startswith('#|'))


def has_image(outputs) -> bool:
    for o in outputs:
        data = o.get('data', {})
        if 'image/png' in data or 'image/svg+xml' in data: return True
        h = data.get('text/html', '')
        h = ''.join(h) if isinstance(h, list) else h
        if '<img' in h or '<svg' in h: return True
    return False


def bare_figure_outputs(nb) -> list[int]:
    "Indices of cells with an output that is the text repr of a Figure."
    bad = []
    for i, c in enumerate(nb.cells):
        for o in c.get('outputs', []):
            txt = o.get('text', '') or o.get('data', {}).get('text/plain', '')
            txt = ''.join(txt) if isinstance(txt, list) else txt
            if o.get('data', {}).get('image/png'): continue   # an image with its text fallback is fine
            if txt.lstrip().startswith('<Figure size'): bad.append(i)
    return bad


def missing_images(src_nb, executed_nb) -> list[str]:
    "First lines of the plot cells of `src_nb` whose executed counterpart in `executed_nb` has no image."
    executed = {_body(c.source): c for c in executed_nb.cells if c.cell_type == 'code'}
    missing = []
    for c in src_nb.cells:
        if not is_plot_cell(c): continue
        e = executed.get(_body(c.source))
        if e is None or not has_image(e.get('outputs', [])): missing.append(_body(c.source).splitlines()[0])
    return missing


def test_plot_cell_detection():
    "The helpers on hand-made cells (no site needed)."
    mk = nbformat.v4.new_code_cell
    assert is_plot_cell(mk("fig = plot_dp_matrix(res)\nHTML(figure_html(fig))"))
    assert not is_plot_cell(mk("#| export\ndef plot_x(r):\n    fig = Figure()"))
    assert not is_plot_cell(mk("from matplotlib.figure import Figure\n_f = Figure(figsize=(1, 1))\nassert figure_html(_f)"))
    assert has_image([{'output_type': 'display_data', 'data': {'text/html': "<img src='data:'/>"}}])
    assert not has_image([{'output_type': 'execute_result', 'data': {'text/plain': '<Figure size 600x360 with 1 Axes>'}}])
    nb = nbformat.v4.new_notebook(cells=[mk('fig')])
    nb.cells[0].outputs = [nbformat.v4.new_output('execute_result', {'text/plain': '<Figure size 600x360 with 1 Axes>'})]
    assert bare_figure_outputs(nb) == [0]


def test_no_bare_figure_text_on_the_site(site):
    pages = sorted(site.glob('*.html'))
    assert pages, f'no pages in {site}'
    bad = [p.name for p in pages if BARE.search(p.read_text(encoding='utf-8'))]
    assert not bad, f'pages showing a bare "<Figure size ...>" text instead of a picture: {bad}'


def test_every_plot_cell_produced_an_image(site):
    problems = {}
    for src in sorted(NBS.glob('*.ipynb')):
        proc = PROC / src.name
        if not proc.exists(): continue   # pages without a processed notebook (none today)
        snb, pnb = nbformat.read(src, as_version=4), nbformat.read(proc, as_version=4)
        miss, bare = missing_images(snb, pnb), bare_figure_outputs(pnb)
        if miss or bare: problems[src.name] = dict(no_image=miss, bare_figure_cells=bare)
    assert not problems, f'plot cells without a picture: {problems}'
