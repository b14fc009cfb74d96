#!/usr/bin/env python
"""Build the documentation site into `_docs/` (`make docs` runs this with `.venv/bin/python`).

    .venv/bin/python tools/build_site.py [--workers N] [--no-export]

1. Export the package from the notebooks (`tools/export.py`: nbdev's export, cells routed to the modules of their roles).
2. Execute every notebook of `nbs/` with nbclient (kernel `python3` of this environment, working directory the
   notebook's folder, widget state saved), in parallel. Any error stops the build with the notebook and the cell.
3. Process each executed notebook with nbdev's own processors (what `nbdev_proc_nbs` does, called in-process so
   that nbdev does not try to install Quarto or pip-install the package) into `_proc/`. `#| export` cells are
   shown as code (folded "Exported source", as nbdev does for `#| exports`) followed by their `show_doc`.
4. Make each a lesson with the course's rules, one chain of nbconvert preprocessors (tools/site_preprocessors.py:
   strip tests, fold exported source, drop frozen widgets, name sources, fold answers, fold "under the hood"), into
   `_proc_course/`: the notebooks both renderers read. The course's data (the documents, the landing pages, the
   sidebar's sections) is nbs/course.yml.
5. With `quarto` on PATH: render a copy of `_proc_course/` (`_proc_quarto/`, the rules' cell metadata written as `#|`
   options: `QuartoCellOptions`) with Quarto from `_quarto.yml` into `_docs/` (nbdev's `nbdev_docs` path), then point
   the scripts Quarto loads from CDNs at local copies and add what the static site has (previous/next, download
   link, source pages, anchors). Otherwise render every course notebook with nbconvert's HTMLExporter (templates
   tools/site/page.html.j2 and course.html.j2) into a static site with the same pages, titles and sidebar, keeping
   the saved widget state. Either way require.js, the Jupyter widget manager (`@jupyter-widgets/html-manager`) and
   MathJax are copied from `node_modules/` (npm, `package.json`) into `_docs/_static/`, so no page makes a request
   outside the site, and `_docs/_static/builder.txt` says which renderer made the site (`quarto` or `static`).
"""
from __future__ import annotations

import argparse
import contextlib
import html
import json
import os
import re
import shutil
import subprocess
import sys
import time
import traceback
from concurrent.futures import ProcessPoolExecutor, as_completed
from multiprocessing import get_context
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(Path(__file__).resolve().parent) not in sys.path: sys.path.insert(0, str(Path(__file__).resolve().parent))
from site_preprocessors import QuartoCellOptions, StaticMarkdown, _source, course_notebook, split_directives  # noqa: E402
WIDGET_STATE = 'application/vnd.jupyter.widget-state+json'
NODE = ROOT / 'node_modules'
# What the site vendors from node_modules (see package.json): (source, destination under _docs/_static, the file
# pages load, under _docs/_static)
VENDORED = {
    'require': ('requirejs/require.js', 'require.js', 'require.js'),
    'widgets': ('@jupyter-widgets/html-manager/dist', 'widgets', 'widgets/embed-amd.js'),
    'mathjax': ('mathjax/es5/tex-svg-full.js', 'mathjax/tex-svg-full.js', 'mathjax/tex-svg-full.js'),
}
COURSE_DIR = '_proc_course'   # next to _proc/: the notebooks the site shows (the course's rules applied)
BUILDER_FILE = '_static/builder.txt'   # under _docs/: `quarto` or `static`, the renderer that made the site (for tests)
# The live explorers (textmetrics_edu.app.live, tools/site/explorers.js): Pyodide's runtime and standard library (npm
# `pyodide`, no wheels), the package's source zipped, and NLTK's pure-Python Porter stemmer (for stemming options)
PYODIDE_FILES = ('pyodide.mjs', 'pyodide.asm.mjs', 'pyodide.asm.wasm', 'python_stdlib.zip', 'pyodide-lock.json')
SITE_ASSETS = ROOT / 'tools' / 'site'  # the site's template, CSS and the live explorers' glue (README.md there)


def log(*a):
    print(*a, flush=True)


def vendored_url(name: str, prefix: str = '') -> str:
    "The URL a page `prefix` below the site's root loads vendored file `name` (a key of VENDORED) from"
    return f'{prefix}_static/{VENDORED[name][2]}'


def mathjax_head(prefix: str, defer: bool = False) -> str:
    """MathJax on a page of either site: the site's configuration and its shim for MathJax 2's `Hub.Queue` (which the
    widget manager calls; tools/site/mathjax-config.js), then MathJax 3 (tools/site/course.html.j2)"""
    import site_course as sc
    return str(sc.markup().mathjax_head(prefix, vendored_url('mathjax', prefix), defer))


# ----------------------------------------------------------------------------------------------------------------
# Notebooks and frontmatter
# ----------------------------------------------------------------------------------------------------------------
def find_notebooks(nbs: Path) -> list[Path]:
    "Every notebook nbdev would document: `*.ipynb` under `nbs/`, skipping names and folders starting with `_` or `.`"
    res = []
    for p in sorted(nbs.rglob('*.ipynb')):
        rel = p.relative_to(nbs)
        if any(part.startswith(('_', '.')) for part in rel.parts): continue
        res.append(p)
    return res


def page_name(rel: Path) -> Path:
    "The page a notebook becomes (nbdev/Quarto: numeric prefix dropped, `.html`): `01_bleu.ipynb` -> `bleu.html`"
    return rel.with_name(re.sub(r'^\d+[a-zA-Z0-9]*_', '', rel.name.lower())).with_suffix('.html')


def site_page(rel: Path) -> Path:
    "The page of notebook `rel` (relative to nbs/) on the site: `page_name`, but LANDING's pages by their role"
    return Path(LANDING[rel.as_posix()]) if rel.as_posix() in LANDING else page_name(rel)


def notebook_frontmatter(nb) -> dict:
    "Frontmatter of an unprocessed notebook (raw YAML cell or `# Title` / `> description` markdown), as nbdev reads it"
    from nbdev.frontmatter import _fm2dict, _md2dict
    fm = {}
    for c in nb.cells:
        if c.cell_type == 'raw': fm.update(_fm2dict(_source(c)) or {})
        elif c.cell_type == 'markdown' and 'title' not in fm:
            d = _md2dict(_source(c))
            if d: fm.update(d)
    return fm


# ----------------------------------------------------------------------------------------------------------------
# Worker: execute with nbclient, then process with nbdev (runs in a separate process per notebook)
# ----------------------------------------------------------------------------------------------------------------
def _cell_label(nb, idx) -> str:
    c = nb.cells[idx]
    n_code = sum(1 for x in nb.cells[:idx + 1] if x.cell_type == 'code')
    head = '\n'.join('    ' + l for l in _source(c).splitlines()[:6])
    return f'cell {idx} (code cell #{n_code}):\n{head}'


def doc_eval(cell) -> bool:
    """Whether nbdev's documentation kernel runs `cell`. nbdev 2.4's `exec_show_docs` re-runs, in a fresh kernel, every
    cell that contains an import anywhere (`nbdev.processors._do_eval`), so a lesson cell that imports and then uses
    the notebook's earlier variables fails the build with a NameError (and warns "Found cells containing imports and
    other code"). The documentation kernel needs only what `show_doc` renders: exported cells, cells of nothing but
    imports, and `show_doc` cells; the lesson cells ran already (the notebook is executed in full first). Same rule
    otherwise as nbdev's own `_do_eval`."""
    import ast
    from nbdev.processors import _show_docs, cell_lang
    if cell_lang(cell) != 'python' or not cell.source or 'nbdev_export' + '()' in cell.source: return False
    trees = cell.parsed_()
    if cell.cell_type != 'code' or not trees: return False
    if cell.directives_.get('eval:', [''])[0].lower() == 'false': return False
    if cell.directives_.keys() & {'export', 'exports', 'exporti', 'exec_doc'}: return True
    if all(isinstance(node, (ast.Import, ast.ImportFrom)) for node in trees): return True   # top-level statements
    return bool(_show_docs(trees))


def site_filters():
    """nbdev's processors (what `nbdev_docs` runs), through nbdev's own extension point (`FilterDefaults`, "override
    to change which notebook processors are used"): its `exec_show_docs` replaced by one that runs `doc_eval`'s cells."""
    from fastcore.basics import str2bool
    from nbdev import processors as P

    class exec_show_docs(P.exec_show_docs):
        "nbdev's `exec_show_docs`, the documentation kernel running only the cells `doc_eval` names"
        def __call__(self, cell):   # nbdev 2.4's, with `doc_eval` for `_do_eval`
            if not self.nb.has_docs_ or not hasattr(self, 'k'): return
            fm = getattr(self.nb, 'frontmatter_', {})
            if str2bool(fm.get('skip_showdoc', False)): return
            if doc_eval(cell): self.k.cell(cell)
            if self.k.exc:
                title = fm.get('title', '')
                raise Exception(f"Error{' in notebook: ' + title if title else ''} in cell {cell.idx_} :\n{cell.source}") \
                    from self.k.exc

    class SiteFilters(P.FilterDefaults):
        def base_procs(self): return [exec_show_docs if p is P.exec_show_docs else p for p in super().base_procs()]
    return SiteFilters()


THREAD_VARS = ('OMP_NUM_THREADS', 'OPENBLAS_NUM_THREADS', 'MKL_NUM_THREADS')


def share_cores(workers: int) -> None:
    """Give each of `workers` processes running at once its share of the cores: the thread pools of PyTorch, faiss
    and BLAS (OpenMP threads wait for work by spinning) each start one thread per core, so two kernels of two threads
    on two cores take turns spinning (BERTScore's lesson 54 s -> 31 s, MAUVE's 45 s -> 21 s on one thread each, in a
    two-worker build). Sets the variables this process's children inherit, unless the user set them."""
    n = str(max(1, (os.cpu_count() or 1) // max(1, workers)))
    for var in THREAD_VARS: os.environ.setdefault(var, n)


@contextlib.contextmanager
def private_kernel(kernel_name: str = 'python3'):
    """A kernel manager whose kernel talks over Unix sockets in a folder of its own (removed afterwards). With TCP,
    jupyter_client picks each port by binding to port 0 and letting it go, so two kernels started at once by two
    processes (the build's two workers, or a worker and a test) can be handed the same port: "Address already in
    use", "Kernel died before replying to kernel_info" (seen in a fresh clone's build)."""
    import tempfile
    from jupyter_client.manager import KernelManager
    d = tempfile.mkdtemp(prefix='tme-kernel-')
    try: yield KernelManager(kernel_name=kernel_name, transport='ipc', ip=os.path.join(d, 'kernel'))
    finally: shutil.rmtree(d, ignore_errors=True)


def execute_and_process(src: str, proc_dir: str, timeout: int) -> dict:
    """Execute notebook `src` (nbclient, widget state stored) and write nbdev's processed version to `proc_dir`.
    Returns a dict: ok, src, dst, seconds, error (text naming the cell)."""
    import nbformat
    from nbclient import NotebookClient
    from nbclient.exceptions import CellExecutionError, CellTimeoutError, DeadKernelError

    t0 = time.time()
    src = Path(src)
    rel = src.relative_to(ROOT / 'nbs')
    out = {'src': str(rel), 'ok': False}
    nb = nbformat.read(src, as_version=4)
    fm = notebook_frontmatter(nb)
    from nbdev.config import get_config
    tst_flags = set((get_config().get('tst_flags', '') or '').split())
    for c in nb.cells:
        if c.cell_type != 'code': continue
        dirs, _ = split_directives(_source(c))
        if str(dirs.get('eval', '')).lower() == 'false' or tst_flags & set(dirs):
            c.metadata.setdefault('tags', []).append('skip-execution')   # as nbdev_test does: not run, shown
    if not str(fm.get('skip_exec', '')).lower() in ('true', '1', 'yes'):
        try:
            with private_kernel() as km:
                NotebookClient(nb, km=km, timeout=timeout, allow_errors=False,
                               extra_arguments=['--IPKernelApp.log_level=ERROR'],
                               store_widget_state=True, record_timing=False,
                               skip_cells_with_tag='skip-execution',
                               resources={'metadata': {'path': str(src.parent)}}).execute()
        except (CellExecutionError, CellTimeoutError, DeadKernelError) as e:
            idx = next((i for i, c in enumerate(nb.cells) if c.cell_type == 'code'
                        and any(o.get('output_type') == 'error' for o in c.get('outputs', []))), None)
            if idx is None and isinstance(e, (CellTimeoutError, DeadKernelError)):
                idx = max((i for i, c in enumerate(nb.cells) if c.cell_type == 'code' and c.get('outputs')),
                          default=None)
            where = _cell_label(nb, idx) if idx is not None else 'unknown cell'
            msg = re.sub(r'\x1b\[[0-9;]*[A-Za-z]', '', str(e)).strip().splitlines()   # no ANSI colours
            out['error'] = f'nbs/{rel}: {where}\n' + '\n'.join(msg[-25:])
            out['seconds'] = time.time() - t0
            return out
    for c in nb.cells:
        if 'tags' in c.metadata and 'skip-execution' in c.metadata.tags: c.metadata.tags.remove('skip-execution')
    widgets = nb.metadata.pop('widgets', None)   # execnb 0.1 cannot round-trip some widget state (jslink)

    # nbdev's processing, as nbdev_proc_nbs / serve_drv.exec_nb do, but on the executed notebook
    from execnb.nbio import dict2nb, nb2dict
    os.chdir(src.parent)
    os.environ['IN_TEST'] = '1'
    try:
        for c in nb.cells:   # show exported code (folded, like nbdev's `#| exports`) with its show_doc
            if c.cell_type == 'code':
                c.source = re.sub(r'^(\s*#\s*\|\s*)export(\s*$|\s+\S)', r'\1exports\2', _source(c),
                                  count=1, flags=re.MULTILINE)
        pnb = dict2nb(json.loads(nbformat.writes(nb)))
        pnb['path_'] = str(src)
        try:
            site_filters()(pnb)
        except Exception as e:
            out['error'] = f'nbs/{rel}: nbdev processing failed: {e}\n{traceback.format_exc(limit=3)}'
            return out
    finally:
        os.environ.pop('IN_TEST', None)
    res = nb2dict(pnb)
    res.get('metadata', {}).pop('widgets', None)
    if widgets and widgets.get(WIDGET_STATE, {}).get('state'): res['metadata']['widgets'] = widgets
    dst = Path(proc_dir) / rel
    dst.parent.mkdir(parents=True, exist_ok=True)
    dst.write_text(json.dumps(res, indent=1, ensure_ascii=False) + '\n', encoding='utf-8')
    out.update(ok=True, dst=str(dst), seconds=time.time() - t0)
    return out


def run_notebooks(notebooks: list[Path], proc: Path, workers: int, timeout: int) -> list[dict]:
    "Execute and process all notebooks, `workers` at a time (largest first); returns the failures"
    order = sorted(notebooks, key=lambda p: -p.stat().st_size)
    results, failures = [], []
    share_cores(workers)
    ctx = get_context('spawn')
    sys.path.insert(0, str(Path(__file__).parent))
    import build_site   # workers find the function by module name, not via __main__
    with ProcessPoolExecutor(max_workers=max(1, workers), mp_context=ctx) as ex:
        futs = {ex.submit(build_site.execute_and_process, str(p), str(proc), timeout): p for p in order}
        for f in as_completed(futs):
            p = futs[f]
            try: r = f.result()
            except Exception as e:
                r = {'src': str(p.relative_to(ROOT / 'nbs')), 'ok': False,
                     'error': f'nbs/{p.relative_to(ROOT / "nbs")}: worker crashed: {e!r}'}
            if r['ok']: log(f'  executed {r["src"]:<28} {r["seconds"]:6.1f} s')
            else:
                log(f'  FAILED   {r["src"]}')
                failures.append(r)
            results.append(r)
    return failures


def report(failures):
    log('\nbuild_site: FAILED: notebook execution raised in ' + ', '.join(f'nbs/{r["src"]}' for r in failures) + '\n')
    for r in failures: log(r['error'] + '\n')


# ----------------------------------------------------------------------------------------------------------------
# Quarto path
# ----------------------------------------------------------------------------------------------------------------
# The course's pages and the sidebar's sections (in the sidebar's order, each with the rule on a notebook's file name
# that puts it there, and the lessons moved out of their number's decade) are the course's data, nbs/course.yml
def _course(): import site_course as sc; return sc.COURSE


LANDING = _course()['landing']   # notebook -> its page by role: the students' landing page is the site's home


def sidebar_section(stem: str) -> str | None:
    "The sidebar section of a notebook (file name without .ipynb) of nbs/: its move, else the first section that matches"
    course = _course()
    if stem in course['moves']: return course['moves'][stem]
    return next((s['title'] for s in course['sections'] if re.search(s['match'], stem)), None)


def lesson_section(section: str | None) -> bool:
    "Whether the pages of sidebar section `section` are lessons (nbs/course.yml: not `lessons: false`)"
    return section is not None and next((s.get('lessons', True) for s in _course()['sections'] if s['title'] == section), True)


def sidebar_contents(nbs: Path, rels: list[Path]):
    """Quarto `website.sidebar.contents`: from nbs/sidebar.yml if present, else by role (`sidebar_section`, from the
    notebooks' file names: a new lesson `70_x.ipynb` joins by its number, `70b_x.ipynb` the engines), the landing
    page (`start.ipynb`) first"""
    import yaml
    yml = nbs / 'sidebar.yml'
    if yml.exists():
        d = yaml.safe_load(yml.read_text()) or {}
        sb = (d.get('website') or {}).get('sidebar') or {}
        if isinstance(sb, list): sb = sb[0] if sb else {}
        contents = sb.get('contents')
        if contents: return contents, True
    order = sorted(rels, key=lambda r: (r.parent.as_posix(), r.name != 'start.ipynb',
                                        r.stem != 'overview', r.stem == 'index', r.name))
    res, sections = [], {s['title']: {'section': s['title'], 'contents': []} for s in _course()['sections']}
    for r in order:
        title = sidebar_section(r.stem) if r.parent == Path('.') and r.name != 'start.ipynb' else None
        if title: sections[title]['contents'].append(r.as_posix())
        else: res.append(r.as_posix())
    return res + [sec for sec in sections.values() if sec['contents']], True


def course_notebooks(executed: Path, rels: list[Path]) -> dict:
    """Each executed notebook nbdev processed (`_proc/<rel>`) made a lesson by the course's rules
    (`site_preprocessors.COURSE`, nbconvert preprocessors) and written to `_proc_course/<rel>`: the notebooks both
    renderers read. Returns rel -> (its frontmatter, its visible words as the static site shows it)."""
    import copy
    import nbformat
    import site_course as sc
    course = executed.parent / COURSE_DIR
    shutil.rmtree(course, ignore_errors=True)
    res = {}
    for rel in rels:
        nb = nbformat.read(executed / rel, as_version=4)
        fm = course_notebook(nb, title_fallback=rel.stem, prefix='../' * len(rel.parent.parts))
        (course / rel).parent.mkdir(parents=True, exist_ok=True)
        nbformat.write(nb, course / rel)
        res[rel] = (fm, sc.visible_words(StaticMarkdown()(copy.deepcopy(nb), {})[0].cells))
    return res


def quarto_project(nbs: Path, executed: Path, rels: list[Path]) -> tuple[Path, dict]:
    """The project Quarto renders, `_proc_quarto/`: the course's notebooks (`course_notebooks`) with the site's cell
    metadata written as Quarto's `#|` cell options (`site_preprocessors.QuartoCellOptions`), the other files of nbs/
    (`_quarto.yml`, `styles.css`, images), nbdev's `nbdev.yml` and the sidebar. Returns it and `course_notebooks`'."""
    import nbformat
    import yaml
    import site_course as sc
    from nbdev.config import get_config
    from nbdev.quarto import _nbdev_yml
    cfg = get_config()
    info = course_notebooks(executed, rels)
    proc = executed.parent / '_proc_quarto'
    shutil.rmtree(proc, ignore_errors=True)
    shutil.copytree(executed.parent / COURSE_DIR, proc)
    for rel in rels:
        nb = QuartoCellOptions()(nbformat.read(proc / rel, as_version=4), {})[0]
        head = nb.cells[0] if nb.cells and nb.cells[0].cell_type == 'raw' and nb.cells[0].source.startswith('---') else None
        if rel.as_posix() in LANDING and head is not None:   # the static site's names: the students' page is the home page
            head.source = '---\noutput-file: ' + LANDING[rel.as_posix()] + '\n' + \
                re.sub(r'(?m)^output-file:.*\n', '', head.source)[len('---\n'):]
        nbformat.write(nb, proc / rel)
    for f in nbs.rglob('*'):   # what proc_nbs copies: every other file of nbs/
        rel = f.relative_to(nbs)
        if not f.is_file() or f.suffix == '.ipynb' or f.name == 'course.yml' or any(p.startswith('.') or p in ('_proc', '_docs') for p in rel.parts):
            continue
        (proc / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(f, proc / rel)   # follows the _quarto.yml symlink
    vals = {k: cfg[k] for k in ['title', 'description', 'branch', 'git_url', 'doc_host', 'doc_baseurl']}
    vals['doc_path'] = cfg.doc_path.name
    if not (nbs / 'nbdev.yml').exists():   # nbdev's, less the URLs that are settings.ini's placeholders (no such page)
        yml = _nbdev_yml.format(**vals)
        if sc.placeholder_url(vals['doc_host']): yml = re.sub(r'(?m)^\s*site-url:.*\n', '', yml)
        if sc.placeholder_url(vals['git_url']): yml = re.sub(r'(?m)^\s*repo-(url|branch):.*\n', '', yml)
        (proc / 'nbdev.yml').write_text(yml)
    if sc.placeholder_url(vals['git_url']):   # no repository to link to: no "report an issue" link (and no warning)
        q = proc / '_quarto.yml'
        q.write_text(re.sub(r'(?m)^\s*repo-actions:.*\n', '', q.read_text()))
    if not (nbs / 'sidebar.yml').exists():   # made afresh: a kept _proc/ (--only, --render-only) holds another page list
        contents, _ = sidebar_contents(nbs, rels)
        for s in contents:
            if isinstance(s, dict): s.pop('_dir', None)
        (proc / 'sidebar.yml').write_text(yaml.dump({'website': {'sidebar': {'contents': contents}}}, sort_keys=False))
    return proc, info


def build_quarto(nbs: Path, executed: Path, docs: Path, rels: list[Path]):
    "Quarto renders `quarto_project` into `_docs/`, made offline and given the static site's course pages"
    from nbdev.config import get_config
    cfg = get_config()
    proc, info = quarto_project(nbs, executed, rels)
    fms = {rel: fm for rel, (fm, _) in info.items()}
    log('rendering with Quarto ...')
    subprocess.run(['quarto', 'render', '--no-cache'], cwd=proc, check=True)
    shutil.rmtree(docs, ignore_errors=True)
    shutil.move(str(proc / cfg.doc_path.name), str(docs))
    copy_vendored(docs)   # and `_static/live/` (the explorers' raw HTML loads it: Quarto does not scan raw HTML)
    offline_quarto_site(docs)
    quarto_course_pages(nbs, docs, fms)
    write_page_words(docs, [(rel, fm.get('output-file') or page_name(rel).name, words) for rel, (fm, words) in info.items()])


def quarto_course_pages(nbs: Path, docs: Path, fms: dict):
    """Quarto's pages get what the static site adds to nbdev's: cross-references made relative (not to settings.ini's
    placeholder `doc_host`), `[source]` links to the site's own copy of each module (`_src/`, not the placeholder
    `git_url`), "download this notebook" and previous/next links on every page, and the offline search index
    `_static/search.json` (Quarto's own search stays). `fms`: each notebook's frontmatter (rel path -> dict)."""
    import site_course as sc
    from nbdev.config import get_config
    cfg = get_config()
    rels = list(fms)
    items = [(rel, fm, site_page(rel).as_posix() if rel.as_posix() in LANDING else
              (rel.parent / (fm.get('output-file') or page_name(rel).name)).as_posix()) for rel, fm in fms.items()]
    pages = {rel.as_posix(): (out, fm['title']) for rel, fm, out in items}
    order = sc.sidebar_order(sidebar_contents(nbs, rels)[0], pages)
    sc.source_pages(ROOT, cfg.lib_path.name, docs)
    (docs / '_static').mkdir(exist_ok=True)
    css = '\n'.join(re.findall(r'^\.site-(?:pager|page-tools)[^{]*\{[^}]*\}', SITE_CSS, re.MULTILINE))
    (docs / '_static' / 'course.css').write_text(css + '\n', encoding='utf-8')
    git_url = str(cfg.get('git_url', ''))
    doc_base = (str(cfg.get('doc_host', '')).rstrip('/') + '/' +
                str(cfg.get('doc_baseurl', '/')).strip('/')).rstrip('/')
    for rel, fm, out in items:
        page = docs / out
        if not page.exists(): continue
        (docs / 'notebooks' / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(nbs / rel, docs / 'notebooks' / rel)
        prefix = '../' * out.count('/')
        body = sc.source_links(localize(page.read_text('utf-8'), prefix, doc_base, pages, out), prefix, git_url)
        if doc_base: body = body.replace(doc_base + '/', prefix)   # nbdev's links inside code comments: text, not href
        tools = str(sc.markup().page_tools(prefix, rel.as_posix()))
        head = re.search(r'<header id="title-block-header"[^>]*>.*?</header>', body, re.DOTALL)
        body = body[:head.end()] + tools + body[head.end():] if head else body.replace('</main>', tools + '</main>', 1)
        body = body.replace('</main>', sc.prev_next(order, out, prefix) + '</main>', 1)
        body = body.replace('</head>', f'<link rel="stylesheet" href="{prefix}_static/course.css">\n</head>', 1)
        page.write_text(body, 'utf-8')
    quarto_def_anchors(docs, [o for o, _ in pages.values() if (docs / o).exists()])
    (docs / '_static' / 'search.json').write_text(sc.search_index(
        [(o, str(t), (docs / o).read_text('utf-8')) for o, t in pages.values() if (docs / o).exists()]), 'utf-8')


def quarto_def_anchors(docs: Path, outs: list[str]):
    """nbdev links every name it documents to `page.html#name`; Quarto gives ids to the documented headings only
    (and drops a leading `_`), so a cross-reference to a helper defined in a code cell has no target. Each such
    target gets an anchor at its definition (`def name(` / `class name` in the page's code), as on the static site."""
    texts = {o: (docs / o).read_text('utf-8') for o in outs}
    wanted = {}
    for o, t in texts.items():
        for target, anchor in re.findall(r'href="(?:\.\./)*([^"#:]+\.html)#([^"]+)"', t):
            if target in texts: wanted.setdefault(target, set()).add(html.unescape(anchor))
    for o, anchors in wanted.items():
        t = texts[o]
        ids = set(re.findall(r'\sid="([^"]+)"', t))
        for a in sorted(anchors - ids):
            m, at = None, 0   # `cls.method`: the method's def after its class's (pandoc marks some names `fu`)
            for name in a.split('.'):
                m = re.compile(r'<span class="kw">(?:def|class)</span> (?:<span class="\w+">)?' + re.escape(name) + r'\b',
                               re.IGNORECASE).search(t, at)
                if not m: break
                at = m.end()
            if m: t = t[:m.start()] + f'<a class="site-anchor site-def" id="{html.escape(a)}"></a>' + t[m.start():]
        if t != texts[o]: (docs / o).write_text(t, 'utf-8')


def offline_quarto_site(docs: Path):
    "Quarto's pages, made to load nothing from outside the site: its CDN scripts local (or dropped), no web font"
    for page in sorted(docs.rglob('*.html')):
        rel = page.relative_to(docs).as_posix()
        if rel.startswith('_static/'): continue
        page.write_text(offline_html(quarto_cdn_to_local(page.read_text('utf-8'), '../' * rel.count('/')), rel), 'utf-8')
    for css in sorted((docs / 'site_libs').rglob('*.css')):   # the theme's CSS imports its web font from Google Fonts
        dropped = []
        text = offline_css(css.read_text('utf-8'), dropped)
        if dropped:
            css.write_text(text, 'utf-8')
            for d in dropped: log(f'    dropped external reference in {css.relative_to(docs)}: {d[:100]}')


# Quarto's pages load these from CDNs (hard-coded in Quarto: src/core/jupyter/widgets.ts and its HTML template); by a
# word of the URL: the vendored file that replaces it (a key of VENDORED), or None to drop it
QUARTO_CDN = {'require.js': 'require', 'html-manager': 'widgets', 'mathjax': 'mathjax',
              'polyfill': None,   # an ES6 polyfill, for browsers older than any the site supports
              'jquery': None}     # for outputs that expect a global jQuery: embed-amd.js bundles its own, no page needs it
_quarto_jquery_amd = "<script type=\"application/javascript\">define('jquery', [],function() {return window.jQuery;})</script>"


def quarto_cdn_to_local(page_html: str, prefix: str) -> str:
    "A page Quarto rendered, `prefix` below the site's root, with the CDN scripts of QUARTO_CDN made local or dropped"
    def local(m):
        name = next((v for k, v in QUARTO_CDN.items() if k in m.group(2)), '')
        if name == '': return m.group(0)   # not Quarto's: offline_html drops it
        if name is None: return ''
        return mathjax_head(prefix) if name == 'mathjax' else f'<script src="{vendored_url(name, prefix)}"></script>'
    return _ext_tag_re.sub(local, page_html).replace(_quarto_jquery_amd, '')


# ----------------------------------------------------------------------------------------------------------------
# Static site with nbconvert
# ----------------------------------------------------------------------------------------------------------------
# The static site's look: files next to the live explorers' glue (tools/site/README.md)
SITE_CSS = (SITE_ASSETS / 'site.css').read_text(encoding='utf-8')  # the site's own styles (_static/site.css)
LAB_MISC_CSS = (SITE_ASSETS / 'lab-misc.css').read_text(encoding='utf-8')  # appended to nbconvert's JupyterLab CSS

def _callout_colours(kind: str) -> tuple[str, str]:
    "The border and background colours of a callout `kind`, as the site's CSS declares them (tools/site/site.css)"
    m = re.search(r'\.callout-' + re.escape(kind) + r'\s*\{([^}]*)\}', SITE_CSS)
    vals = dict(re.findall(r'--callout-(color|bg):\s*([^;]+);', m.group(1))) if m else {}
    return vals.get('color', '#0d6efd').strip(), vals.get('bg', '#e7f0fe').strip()


def callout_open_html(kind: str) -> str:
    """The opening line of a callout in a notebook: an HTML box JupyterLab draws (its sanitizer keeps these inline
    styles) and the site turns back into the callout (`html_callouts_to_fenced`). A blank line must follow it, so that
    the content is read as markdown; `</div>` on its own line closes it (tools/nb_callouts.py writes both)."""
    colour, bg = _callout_colours(kind)
    return (f'<div class="callout callout-{kind}" style="border-left: 5px solid {colour}; background-color: {bg}; '
            f'padding: 0.2em 1em; margin: 0.5em 0;">')


def sidebar_items(contents, pages: dict, current: str, listed_all: bool) -> list:
    """The sidebar as the template's items (tools/site/course.html.j2, `sidebar`): each a page {href, title, active} or
    a section {section, items}; `pages` maps notebook rel path (posix) -> (html rel path, title)"""
    seen = set()

    def item(entry):
        if isinstance(entry, str):
            key = entry if entry in pages else next((k for k in pages if Path(k).with_suffix('').as_posix() ==
                                                      Path(entry).with_suffix('').as_posix()), None)
            if key is None: return None
            seen.add(key)
            href, title = pages[key]
            return {'href': href, 'title': str(title), 'active': href == current}
        if isinstance(entry, dict):
            if 'contents' in entry or 'section' in entry:
                return {'section': str(entry.get('section', '')),
                        'items': [x for x in map(item, entry.get('contents') or []) if x]}
            if 'href' in entry:
                sub = item(entry['href'])
                return dict(sub, title=str(entry['text'])) if sub and 'text' in entry else sub
        return None

    items = [x for x in map(item, contents) if x]
    rest = [k for k in pages if k not in seen]
    if rest and listed_all:   # notebooks not (yet) in sidebar.yml still get a link
        items.append({'section': 'More', 'items': [item(k) for k in rest]})
    return items


def render_sidebar(contents, pages: dict, current: str, prefix: str, listed_all: bool) -> str:
    "The sidebar's HTML (tools/site/course.html.j2, `sidebar`)"
    import site_course as sc
    return str(sc.markup().sidebar(sidebar_items(contents, pages, current, listed_all), prefix))


_heading_re = re.compile(r'<h([23])\s+id="([^"]+)"[^>]*>(.*?)</h\1>', re.DOTALL)


def inline_code_html(text: str) -> str:
    "A one-line summary as HTML: escaped, its `code` spans as <code> (what Quarto does with a description's markdown)"
    parts = re.split(r'`([^`]+)`', text)
    return ''.join(f'<code>{html.escape(p)}</code>' if i % 2 else html.escape(p) for i, p in enumerate(parts))


def render_toc(body: str) -> str:
    "The page's table of contents: its h2/h3 headings (tools/site/course.html.j2, `toc`)"
    import site_course as sc
    items = []
    for level, ident, inner in _heading_re.findall(body):
        text = re.sub(r'<a class="anchor-link".*?</a>', '', inner, flags=re.DOTALL)
        text = re.sub(r'<[^>]+>', '', text).strip()
        if text: items.append((level, ident, text))
    return str(sc.markup().toc(items))


_ext_tag_re = re.compile(r'<(script|link|img|iframe|source|video|audio|embed|object)\b[^>]*?\b(?:src|href|data)\s*=\s*'
                         r'["\']((?:https?:)?//[^"\']*)["\'][^>]*>(?:\s*</\1>)?', re.IGNORECASE)
_css_ext_re = re.compile(r'@import\s*(?:url\(\s*["\']?(?:https?:)?//[^)]*\)|["\'](?:https?:)?//[^"\']*["\'])[^;{}]*;?'
                         r'|url\(\s*["\']?(?:https?:)?//[^)]*\)', re.IGNORECASE)


def localize(page_html: str, prefix: str, doc_base: str, nb_pages: dict, page: str) -> str:
    "Make links relative and drop anything that would load from outside the site"
    if doc_base:   # nbdev's doc links point at doc_host: make them relative
        page_html = re.sub(r'(href=["\'])' + re.escape(doc_base.rstrip('/')) + r'/', r'\g<1>' + prefix, page_html)

    def nb_link(m):   # links to notebooks -> their pages
        target, anchor = m.group(2), m.group(3) or ''
        if re.match(r'^[a-z]+:', target): return m.group(0)
        key = os.path.normpath(os.path.join(os.path.dirname(page), target)).replace(os.sep, '/')
        hit = nb_pages.get(key)
        return f'{m.group(1)}{prefix}{hit[0]}{anchor}"' if hit else m.group(0)
    page_html = re.sub(r'(href=")([^"#]+\.ipynb)(#[^"]*)?"', nb_link, page_html)
    return offline_html(page_html, page)


def offline_html(page_html: str, page: str) -> str:
    "Drop every tag, and every rule of a <style> block, that would load from outside the site (each one logged)"
    dropped = []

    def drop(m):
        dropped.append(m.group(2)); return ''
    page_html = _ext_tag_re.sub(drop, page_html)
    page_html = re.sub(r'(<style[^>]*>)(.*?)(</style>)',
                       lambda m: m.group(1) + offline_css(m.group(2), dropped) + m.group(3),
                       page_html, flags=re.DOTALL | re.IGNORECASE)
    for d in dropped: log(f'    dropped external reference in {page}: {d[:100]}')
    return page_html


def offline_css(css: str, dropped: list) -> str:
    "CSS without its imports and `url()`s from outside the site (appended to `dropped`)"
    def drop(m):
        dropped.append(m.group(0)); return 'none' if m.group(0).lower().startswith('url(') else ''
    return _css_ext_re.sub(drop, css)


def copy_vendored(docs: Path):
    "`_static/`, on both sites: require.js, the widget manager, MathJax and its configuration, the live explorers"
    static = docs / '_static'
    static.mkdir(parents=True, exist_ok=True)
    missing = [src for src, *_ in VENDORED.values() if not (NODE / src).exists()]
    if missing:
        sys.exit('build_site: missing npm packages in node_modules/ (' + ', '.join(missing) +
                 '): run `npm ci` (tools/install-system-deps.sh does)')
    for src, dst, _ in VENDORED.values():
        s, d = NODE / src, static / dst
        d.parent.mkdir(parents=True, exist_ok=True)
        if s.is_dir():   # the widget manager: embed-amd.js and the font files it loads next to itself
            d.mkdir(exist_ok=True)
            for f in s.iterdir():
                if f.suffix in ('.js', '.woff', '.woff2', '.ttf', '.eot', '.svg', '.txt') and \
                        not f.name.startswith('libembed') and f.name != 'embed.js':
                    shutil.copyfile(f, d / f.name)
        else: shutil.copyfile(s, d)
    for lic in ['requirejs/LICENSE', 'mathjax/LICENSE', '@jupyter-widgets/html-manager/LICENSE']:
        if (NODE / lic).exists():
            shutil.copyfile(NODE / lic, static / ('LICENSE.' + lic.split('/')[-2].lstrip('@')))
    shutil.copyfile(SITE_ASSETS / 'mathjax-config.js', static / 'mathjax-config.js')
    copy_live(docs)


# the package's data files that live explorers read in the browser (paths under textmetrics_edu/; keep them small)
LIVE_DATA = ('data/coco_thumb_sample/references.jsonl',   # CIDEr: the other images of the batch (12 KB)
             'data/coco_thumb_sample/README.md',
             'data/wmt22_ru-en_system/scores.tsv',  # meta-evaluation: WMT22 ru-en system scores (2 KB)
             'data/wmt22_ru-en_system/README.md',
             'data/models/neural_lm_surprisal.json',  # the neural LM's stored surprisals (12 KB)
             'data/models/README.md',
             'data/models/mauve_histograms.json',   # MAUVE: precomputed bucket counts (9 KB)
             'data/models/bertscore_explorer.json',  # BERTScore: precomputed similarity matrices of 4 pairs (22 KB)
             'data/models/comet_minilm_explorer.json')  # comet_minilm: feature-block contributions of 6 pairs (82 KB)



def live_zip() -> bytes:
    """The zip the live explorers unpack into Pyodide's file system: `textmetrics_edu/**/*.py` (the package's own
    source), the data files of `LIVE_DATA`, and, from the installed NLTK, the Porter stemmer with the two modules it imports
    (`nltk/__init__.py` left empty: importing the whole of NLTK would need `regex` and more)."""
    import io, zipfile
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, 'w', zipfile.ZIP_DEFLATED) as z:
        for f in sorted((ROOT / 'textmetrics_edu').rglob('*.py')):
            if f.name != '_modidx.py': z.write(f, f.relative_to(ROOT).as_posix())
        for f in LIVE_DATA:   # the data files a live explorer reads (small)
            z.write(ROOT / 'textmetrics_edu' / f, f'textmetrics_edu/{f}')
        try:
            import nltk
            base = Path(nltk.__file__).parent
            z.writestr('nltk/__init__.py', '"NLTK\'s Porter stemmer only (the live explorers of textmetrics_edu)"\n')
            z.writestr('nltk/stem/__init__.py', '')
            z.write(base / 'stem' / 'api.py', 'nltk/stem/api.py')
            z.write(base / 'stem' / 'porter.py', 'nltk/stem/porter.py')
            # porter.py's demo() alone uses these two: stand-ins with the same calls
            z.writestr('nltk/redos.py', 'from re import sub  # (stand-in: porter.demo() only)\n')
            z.writestr('nltk/termsec.py', 'safe_print = print  # (stand-in: porter.demo() only)\n')
            z.writestr('nltk/README.txt', f'stem/api.py and stem/porter.py copied unchanged from NLTK {nltk.__version__} '
                                          '(https://www.nltk.org, Apache License 2.0)\n')
        except ImportError:
            log('  nltk not installed: the stemming options of the live explorers will say they need the Python package')
    return buf.getvalue()


def copy_live(docs: Path):
    "`_static/live/`: the glue (tools/site/explorers.js, .css), Pyodide's runtime and the package's source zip"
    live = docs / '_static' / 'live'
    (live / 'pyodide').mkdir(parents=True, exist_ok=True)
    src = NODE / 'pyodide'
    missing = [f for f in PYODIDE_FILES if not (src / f).exists()]
    if missing: sys.exit(f'build_site: node_modules/pyodide lacks {missing}: run `npm ci`')
    for f in PYODIDE_FILES: shutil.copyfile(src / f, live / 'pyodide' / f)
    for lic in ('LICENSE', 'README.md'):
        if (src / lic).exists(): shutil.copyfile(src / lic, live / 'pyodide' / lic)
    for f in ('explorers.js', 'explorers.css'): shutil.copyfile(SITE_ASSETS / f, live / f)
    (live / 'textmetrics_edu.zip').write_bytes(live_zip())


def _template_dirs():
    from jupyter_core.paths import jupyter_path
    return jupyter_path('nbconvert', 'templates')


def source_pages_job(root: Path, package: str, docs: Path) -> None:
    "`[source]` links: the module's code on the site, at the line (site_course.source_pages, in a worker process)"
    import site_course as sc
    sc.source_pages(root, package, docs)


def render_page(course: str, docs: str, rel: str, out: str, site: dict, pages: dict) -> str:
    "Render one course notebook `_proc_course/<rel>` to `_docs/<out>` with nbconvert (runs in a worker process)"
    import nbformat
    from jinja2 import FileSystemLoader
    from nbconvert import HTMLExporter
    from traitlets.config import Config
    import site_course as sc
    nb = nbformat.read(Path(course) / rel, as_version=4)
    fm = nb.metadata['site_frontmatter']
    if site['title'] != site['site_title']: nb.metadata['title'] = f'{site["title"]} – {site["site_title"]}'   # as Quarto
    prefix = site['prefix']
    c = Config()
    c.TagRemovePreprocessor.enabled = True
    c.TagRemovePreprocessor.remove_cell_tags = {'remove_cell'}
    c.TagRemovePreprocessor.remove_input_tags = {'remove_input'}
    c.TagRemovePreprocessor.remove_all_outputs_tags = {'remove_output'}
    exporter = HTMLExporter(config=c, template_name='lab',
                            extra_loaders=[FileSystemLoader(str(SITE_ASSETS))],   # page.html.j2, site_fast.html.j2
                            template_file='site_fast.html.j2', theme='light',
                            exclude_input_prompt=True, exclude_output_prompt=True,
                            require_js_url=vendored_url('require', prefix),
                            widget_renderer_url=vendored_url('widgets', prefix),
                            jupyter_widgets_base_url=f'{prefix}_static/{VENDORED["widgets"][1]}/')
    exporter.register_preprocessor(StaticMarkdown, enabled=True)   # Quarto's markdown as commonmark, no raw cells
    body, _ = exporter.from_notebook_node(nb, resources={'site': site, 'metadata': {'name': site['title']}})
    # the API page's listing (course.html.j2), after nbconvert (which re-serialises its page: `&#x27;` -> `'`)
    if site.get('api'): body = body.replace('<footer class="site-footer">', sc.api_listing(prefix) + '<footer class="site-footer">', 1)
    body = sc.add_doc_anchors(body)
    body = body.replace('@@SITE_TOC@@', render_toc(body))
    body = localize(body, prefix, site['doc_base'], pages, out)
    body = sc.source_links(body, prefix, site.get('git_url', ''))
    dst = Path(docs) / out
    dst.parent.mkdir(parents=True, exist_ok=True)
    dst.write_text(body, encoding='utf-8')
    return f'  wrote    _docs/{out:<28} {fm["title"]}'


def write_page_words(docs: Path, counts: list[tuple[Path, str, int]]) -> None:
    """`_docs/page_words.json`: every page's visible words (site_course.visible_words) and whether it is a lesson
    (a page of the course's sections, not Reference or Under the hood), held to site_course.LESSON_WORDS by
    tests/test_site_links.py; the lessons over the limit are named in the build's log."""
    import site_course as sc
    rows = {}
    for rel, out, words in counts:
        section = sidebar_section(Path(rel).stem) if Path(rel).parent == Path('.') else None
        lesson = lesson_section(section)
        rows[str(out)] = dict(notebook=Path(rel).as_posix(), section=section, lesson=lesson, words=words)
    (docs / 'page_words.json').write_text(json.dumps(rows, indent=1, sort_keys=True) + '\n', encoding='utf-8')
    over = sorted((r['words'], p) for p, r in rows.items() if r['lesson'] and r['words'] > sc.LESSON_WORDS)
    if over: log(f'lessons over {sc.LESSON_WORDS} visible words: ' + ', '.join(f'{p} {w}' for w, p in over))


def build_static(nbs: Path, proc: Path, docs: Path, rels: list[Path], workers: int = 2):
    from nbdev.config import get_config
    cfg = get_config()

    # the course's notebooks, titles and pages first (the sidebar needs all of them)
    info = course_notebooks(proc, rels)
    items = []
    for rel in rels:
        fm = info[rel][0]
        out = Path(site_page(rel).name if rel.as_posix() in LANDING else fm.get('output-file') or page_name(rel).name)
        items.append((rel, fm, (rel.parent / out).as_posix()))
    pages = {rel.as_posix(): (out, fm['title']) for rel, fm, out in items}
    contents, from_yml = sidebar_contents(nbs, rels)
    import site_course as sc
    order = sc.sidebar_order(contents, pages)

    shutil.rmtree(docs, ignore_errors=True)
    docs.mkdir(parents=True)
    # the vendored files (the live explorers' runtime and package zip) and the `[source]` pages (every module
    # highlighted) are written by the pool's workers while they render the pages: each is a few seconds of one core
    sys.path.insert(0, str(Path(__file__).parent))
    import build_site   # workers find the functions by module name, not via __main__
    ex = ProcessPoolExecutor(max_workers=max(1, workers), mp_context=get_context('spawn'))
    side_jobs = [ex.submit(build_site.copy_vendored, docs),
                 ex.submit(build_site.source_pages_job, ROOT, cfg.lib_path.name, docs)]
    static = docs / '_static'
    static.mkdir(parents=True, exist_ok=True)
    (static / 'site.css').write_text(SITE_CSS.lstrip(), encoding='utf-8')
    shutil.copyfile(SITE_ASSETS / 'site.js', static / 'site.js')
    # "download this notebook": the lesson as committed (no outputs), next to its page
    for rel, _, _ in items:
        (docs / 'notebooks' / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(nbs / rel, docs / 'notebooks' / rel)
    # nbconvert's JupyterLab styles, once for all pages (its lab template inlines them into every page)
    lab = next(Path(d) / 'lab' / 'static' for d in _template_dirs() if (Path(d) / 'lab' / 'static' / 'index.css').exists())
    css = [(lab / 'index.css').read_text(encoding='utf-8'), (lab / 'theme-light.css').read_text(encoding='utf-8'),
           LAB_MISC_CSS]
    (static / 'jupyterlab.css').write_text('\n'.join(css), encoding='utf-8')
    has_styles = (nbs / 'styles.css').exists()
    if has_styles: shutil.copyfile(nbs / 'styles.css', docs / 'styles.css')
    for f in nbs.rglob('*'):   # images and other files the notebooks refer to
        rel = f.relative_to(nbs)
        if f.is_file() and not any(p.startswith(('.', '_')) for p in rel.parts) and \
                f.suffix.lower() in ('.png', '.jpg', '.jpeg', '.gif', '.svg', '.webp', '.pdf', '.csv', '.txt'):
            (docs / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(f, docs / rel)

    doc_base = (str(cfg.get('doc_host', '')).rstrip('/') + '/' + str(cfg.get('doc_baseurl', '/')).strip('/')).rstrip('/')
    site_title = str(cfg.get('title', cfg.get('lib_name')))
    jobs = []
    for rel, fm, out in items:
        prefix = '../' * (len(Path(out).parts) - 1)
        description = str(fm.get('description', '') or '')
        site = {'prefix': prefix, 'title': str(fm['title']), 'description': description,
                'description_html': inline_code_html(description),
                'mathjax': mathjax_head(prefix, defer=True),
                'site_title': site_title, 'site_description': '', 'doc_base': doc_base,
                'sidebar': render_sidebar(contents, pages, out, prefix, from_yml),
                'styles': has_styles, 'source': rel.as_posix(),
                'pager': sc.prev_next(order, out, prefix), 'download': f'{prefix}notebooks/{rel.as_posix()}',
                'api': rel.stem == '99_api', 'git_url': str(cfg.get('git_url', '')),
                'copyright': str(cfg.get('copyright', ''))}
        jobs.append((str(proc.parent / COURSE_DIR), str(docs), rel.as_posix(), out, site, pages))
    with ex:
        for line in ex.map(build_site.render_page, *zip(*jobs)): log(line)
        for f in side_jobs: f.result()   # (an error there stops the build here)
    write_page_words(docs, [(rel, out, info[rel][1]) for rel, _, out in items])
    # the offline search: an index of every page's sections, built now (site.js loads it on first use)
    (static / 'search.json').write_text(sc.search_index(
        [(o, str(t), (docs / o).read_text('utf-8')) for o, t in pages.values() if (docs / o).exists()]), 'utf-8')
    if not (docs / 'index.html').exists():   # no index notebook: a plain list of the pages
        (docs / 'index.html').write_text(str(sc.markup().index_page(site_title, list(pages.values()))), encoding='utf-8')


# ----------------------------------------------------------------------------------------------------------------
def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--workers', type=int, default=min(2, os.cpu_count() or 1), help='notebooks executed at once')
    ap.add_argument('--timeout', type=int, default=600, help='seconds allowed per cell')
    ap.add_argument('--no-export', action='store_true', help='skip the export (tools/export.py)')
    ap.add_argument('--static', action='store_true', help='build the nbconvert site even if quarto is on PATH')
    ap.add_argument('--render-only', action='store_true',
                    help='reuse the executed notebooks in _proc/ (no export, no execution): for working on the look')
    ap.add_argument('--only', nargs='+', metavar='NOTEBOOK', default=None,
                    help='execute only these notebooks (e.g. 01_bleu.ipynb), reuse the others from _proc/, render all')
    ap.add_argument('--keep-going', action='store_true',
                    help='when notebooks fail, still build the site from the others (exit status stays 1)')
    args = ap.parse_args(argv)
    t0 = time.time()
    os.chdir(ROOT)
    from nbdev.config import get_config
    cfg = get_config()
    nbs, docs, proc = cfg.nbs_path, cfg.doc_path, cfg.config_path / '_proc'
    if not args.no_export and not args.render_only:
        sys.path.insert(0, str(Path(__file__).parent))
        from export import export   # tools/export.py: nbdev's export with cells routed by role
        log('export ...')
        export()
    notebooks = find_notebooks(nbs)
    if not notebooks: sys.exit(f'build_site: no notebooks in {nbs}')
    rels = [p.relative_to(nbs) for p in notebooks]
    if args.render_only:
        failures = []
        rels = [r for r in rels if (proc / r).exists()]
    elif args.only:
        chosen = [p for p in notebooks if p.name in args.only or str(p.relative_to(nbs)) in args.only]
        if len(chosen) != len(args.only): sys.exit(f'build_site: --only {args.only}: not all found in {nbs}')
        proc.mkdir(parents=True, exist_ok=True)
        log(f'executing {len(chosen)} notebooks with nbclient, reusing the others from {proc} ...')
        failures = run_notebooks(chosen, proc, args.workers, args.timeout)
        rels = [r for r in rels if (proc / r).exists()]
    else:
        log(f'executing {len(notebooks)} notebooks with nbclient ({args.workers} at a time) ...')
        shutil.rmtree(proc, ignore_errors=True)
        proc.mkdir(parents=True)
        t1 = time.time()
        failures = run_notebooks(notebooks, proc, args.workers, args.timeout)
        log(f'executed and processed in {time.time() - t1:.1f} s')
    if failures:
        report(failures)
        if not args.keep_going: sys.exit(1)
        bad = {Path(r['src']) for r in failures}
        rels = [r for r in rels if r not in bad]
        log('--keep-going: building the site without them, exit status 1 at the end')
    builder = 'quarto' if shutil.which('quarto') and not args.static else 'static'
    if builder == 'quarto': build_quarto(nbs, proc, docs, rels)
    else:
        log('quarto not on PATH: rendering the static site with nbconvert ...')
        build_static(nbs, proc, docs, rels, workers=args.workers)
    (docs / BUILDER_FILE).write_text(builder + '\n')
    index = docs / 'index.html'
    log(f'\nsite built in {time.time() - t0:.1f} s: open {index}')
    log(f'live explorers (Python in the browser) need HTTP, not file://: serve the site with\n'
        f'    python -m http.server -d {docs.relative_to(ROOT)} 8000\nthen open http://127.0.0.1:8000/')
    if failures:
        report(failures)
        sys.exit(1)


if __name__ == '__main__':
    main()
