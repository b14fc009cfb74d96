"""The site as a course: what tools/build_site.py does to every page beyond rendering it (the static site).

Each function is pure (tested in tests/test_build_site.py); the course's preprocessors (tools/site_preprocessors.py)
and `build_site.build_static` call them; the HTML they write is the macros of tools/site/course.html.j2 (`markup`).

* one explorer per place: saved ipywidgets views are dropped from the site (`drop_widget_outputs`): the live explorer
  (textmetrics_edu.app.live) is the one a reader types into; in Jupyter the ipywidgets explorer stays;
* pages that read as lessons: test statements (`assert`, `test_eq(...)`, `with raises(...)`) are removed from the
  code shown (`strip_tests`: they still run when the notebook executes), exported source is folded, an exercise's
  outputs fold with its answer, tool chatter on stderr is not shown;
* the sources named: the first mention of "document 00N" on a page says what the document is (`SOURCES`, the table of
  the five documents in the course's data, nbs/course.yml; `name_sources`);
* links: nbdev's source links point at the site's own highlighted copy of the module (`source_pages`), show_doc
  headings carry the anchors nbdev's cross-references use (`add_doc_anchors`);
* a course: previous/next links (`prev_next`), a download link, an offline search index (`search_index`).
"""
from __future__ import annotations

import ast
import html
import json
import re
from pathlib import Path

WIDGET_VIEW = 'application/vnd.jupyter.widget-view+json'

COURSE_FILE = Path(__file__).resolve().parents[1] / 'nbs' / 'course.yml'   # the course's data: documents, sections


def course_data(path: Path = COURSE_FILE) -> dict:
    "The course's own data (nbs/course.yml): the source documents, the landing pages, the sidebar's sections"
    import yaml
    return yaml.safe_load(path.read_text(encoding='utf-8'))


COURSE = course_data()
SOURCES = COURSE['documents']   # the five source documents the lessons check: id -> title, kind, author, covers, link
SOURCES_PAGE = COURSE['documents_page']   # the page that lists them all once (the landing page, `#the-documents`)
_doc_re = re.compile(r'\b[Dd]ocuments? (00[0-4])\b')


def source_anchor(doc: str) -> str: return f'doc-{doc}'


SITE_DIR = Path(__file__).resolve().parent / 'site'   # the site's templates (course.html.j2: the course's page markup)
_markup = None


def markup():
    "The macros of tools/site/course.html.j2, the course's page markup (`h`: html.escape, `json`: json.dumps)"
    global _markup
    if _markup is None:
        from jinja2 import Environment, FileSystemLoader
        env = Environment(loader=FileSystemLoader(str(SITE_DIR)), autoescape=False)
        env.filters.update(h=lambda s: html.escape(str(s)), json=json.dumps)
        _markup = env.get_template('course.html.j2').module
    return _markup


def source_line(doc: str, prefix: str = '') -> str:
    """One document, short, as HTML: its title and a link to the table of the five documents (on the landing page),
    whose tooltip gives the kind and author; the table itself has the rest (and the document's own link, if any)"""
    return str(markup().source_line(doc, SOURCES[doc], prefix, SOURCES_PAGE, source_anchor))


def sources_table(prefix: str = '') -> str:
    "The five documents as one HTML table (the landing page's `The documents` section)"
    return str(markup().sources_table(SOURCES, source_anchor))


_callout_fence = re.compile(r'^\s*:::+\s*(\{[^}]*\.callout-[^}]*\}|callout-[\w-]+)\s*$')


def name_sources(md: str, seen: set, prefix: str = '') -> str:
    """Markdown `md` with the first mention of each document not in `seen` (updated) followed by what it is.
    Headings, code spans, code blocks and math are left alone (the next mention in prose gets it); a callout's title
    written as a heading right after its fence (`::: {.callout-note}` then `## Title`) is the box's first line."""
    out, fence, prev = [], False, ''
    for line in md.split('\n'):
        title = bool(_callout_fence.match(prev)) and 'title=' not in prev
        prev = line
        if line.lstrip().startswith(('```', '~~~')): fence = not fence
        if fence or (line.lstrip().startswith('#') and not title) or line.lstrip().startswith('$$'):
            out.append(line); continue
        protected = [(m.start(), m.end()) for m in re.finditer(r'`[^`]*`|\$[^$]*\$|<[^>]*>|\[[^\]]*\]\([^)]*\)', line)]

        def add(m):
            d = m.group(1)
            if d in seen or any(a <= m.start() < b for a, b in protected): return m.group(0)
            seen.add(d)
            return f'{m.group(0)} {source_line(d, prefix)}'
        out.append(_doc_re.sub(add, line))
    return '\n'.join(out)


# ----------------------------------------------------------------------------------------------------------------
# Test statements: run, not shown
# ----------------------------------------------------------------------------------------------------------------
_test_name = re.compile(r'^(test_\w+|assert_\w+|assert\w*Equal\w*|test)$')
_raises_name = re.compile(r'(raises|warns|ExceptionExpected|assertRaises)')


def _call_name(node) -> str:
    f = node.func if isinstance(node, ast.Call) else None
    return f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else ''


def is_test(st: ast.stmt) -> bool:
    "A test statement: `assert`, a call of `test_*`/`assert_*`, a `with raises(...)` block, a loop of tests only"
    if isinstance(st, ast.Assert): return True
    if isinstance(st, ast.Expr) and isinstance(st.value, ast.Call): return bool(_test_name.match(_call_name(st.value)))
    if isinstance(st, ast.With):
        return any(isinstance(i.context_expr, ast.Call) and _raises_name.search(_call_name(i.context_expr))
                   for i in st.items)
    if isinstance(st, (ast.For, ast.While)) and not st.orelse: return all(is_test(s) for s in st.body)
    if isinstance(st, ast.If): return all(is_test(s) for s in st.body + st.orelse)   # a guarded check
    return False


def _parse(code: str):
    "ast of a cell's code, IPython magics and shell lines blanked (None if it does not parse)"
    src = '\n'.join('' if l.startswith(('%', '!')) else l for l in code.split('\n'))
    try: return ast.parse(src)
    except SyntaxError: return None


def strip_tests(code: str) -> str:
    """`code` without its top-level test statements (and the comment lines right above each): what the page shows.
    Code that does not parse is returned unchanged."""
    tree = _parse(code)
    if tree is None: return code
    lines = code.split('\n')
    keep = [True] * len(lines)
    kept_stmt = [False] * len(lines)
    for st in tree.body:
        if not is_test(st):
            for i in range(st.lineno - 1, st.end_lineno): kept_stmt[i] = True
    cuts = {}   # line -> [(start col, end col)] of one-line tests sharing a line with kept code (`assert x; y`)
    for st in tree.body:
        if not is_test(st): continue
        if st.lineno == st.end_lineno and kept_stmt[st.lineno - 1]:
            cuts.setdefault(st.lineno - 1, []).append((st.col_offset, st.end_col_offset))
            continue
        for i in range(st.lineno - 1, st.end_lineno):
            if not kept_stmt[i]: keep[i] = False
        j = st.lineno - 2
        while j >= 0 and lines[j].strip().startswith('#') and not kept_stmt[j] and not lines[j].lstrip().startswith('#|'):
            keep[j] = False; j -= 1
    for i, spans in cuts.items():
        b = lines[i].encode()   # ast's columns are UTF-8 byte offsets
        for a, e in sorted(spans, reverse=True):
            rest = b[e:]
            m = re.match(rb'\s*;\s*', rest)
            b = b[:a] + (rest[m.end():] if m else rest)
        lines[i] = re.sub(r';\s*$', '', b.decode().rstrip())
    out = '\n'.join(l for l, k in zip(lines, keep) if k)
    return re.sub(r'\n{3,}', '\n\n', out).strip('\n')


def nothing_to_show(code: str) -> bool:
    "No statement left but comments and imports of test helpers"
    tree = _parse(code)
    if tree is None: return not code.strip()
    return all(_test_import(s) for s in tree.body)


def _test_import(s) -> bool:
    return isinstance(s, ast.ImportFrom) and (s.module or '').endswith(('.test', 'testing')) or \
        isinstance(s, ast.Import) and all(a.name in ('pytest',) for a in s.names)


def defined_names(code: str) -> list[str]:
    """The anchors nbdev's cross-references use for what `code` defines: top-level functions, classes, constants and
    `class.method`, in lower case (`_check_weights`, `metric.opts`)"""
    tree = _parse(code)
    if tree is None: return []
    res = []
    for st in tree.body:
        if isinstance(st, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            res.append(st.name.lower())
            if isinstance(st, ast.ClassDef):
                res += [f'{st.name}.{b.name}'.lower() for b in st.body
                        if isinstance(b, (ast.FunctionDef, ast.AsyncFunctionDef))]
        elif isinstance(st, (ast.Assign, ast.AnnAssign)):
            for t in (st.targets if isinstance(st, ast.Assign) else [st.target]):
                if isinstance(t, ast.Name): res.append(t.id.lower())
    return list(dict.fromkeys(res))


def assigned_names(code: str) -> set:
    tree = _parse(code)
    if tree is None: return set()
    return {t.id for st in tree.body if isinstance(st, ast.Assign) for t in st.targets if isinstance(t, ast.Name)}


def uses_only(code: str, names: set) -> bool:
    "Every top-level statement of `code` reads one of `names` (e.g. the dropped ipywidgets explorer `ex`)"
    tree = _parse(code)
    if tree is None or not tree.body or not names: return False
    return all(any(isinstance(n, ast.Name) and n.id in names for n in ast.walk(st)) for st in tree.body)


# ----------------------------------------------------------------------------------------------------------------
# Outputs
# ----------------------------------------------------------------------------------------------------------------
def drop_widget_outputs(cell) -> bool:
    "Remove saved ipywidgets views from `cell`'s outputs; True if it had any"
    outs = cell.get('outputs', [])
    keep = [o for o in outs if WIDGET_VIEW not in o.get('data', {})]
    cell['outputs'] = keep
    return len(keep) != len(outs)


_chatter = re.compile(r'Warning\b|/tmp/ipykernel_|^PTBTokenizer tokenized', re.MULTILINE)


def drop_chatter(cell):
    "stderr that is a tool's chatter or a warning naming the kernel's temporary files: not part of the lesson"
    cell['outputs'] = [o for o in cell.get('outputs', [])
                       if not (o.get('output_type') == 'stream' and o.get('name') == 'stderr'
                               and _chatter.search(''.join(o.get('text', ''))))]


_dunder_doc = re.compile(r'^#{2,4}\s+\S*__\w+__\s*$', re.MULTILINE)


def drop_dunder_docs(cell):
    "show_doc of `__getattr__`/`__dir__` (PEP 562 machinery, not API): not shown"
    cell['outputs'] = [o for o in cell.get('outputs', []) if not _dunder_doc.search(
        ''.join(o.get('data', {}).get('text/markdown', '')))]


# ----------------------------------------------------------------------------------------------------------------
# Rendered HTML
# ----------------------------------------------------------------------------------------------------------------
_h_re = re.compile(r'<h([2-4])\s+id="([^"]+)"', re.IGNORECASE)


def add_doc_anchors(body: str) -> str:
    """nbdev's cross-references point at `page.html#name` in lower case (Quarto's ids); nbconvert keeps the case
    (`#MetricResult`): each heading whose id has capitals also gets the lower-case anchor."""
    defs = re.compile(r'<a class="site-anchor site-def" id="([^"]+)"></a>')
    ids = set(re.findall(r'\bid="([^"]+)"', defs.sub('', body)))
    seen = set()

    def keep_def(m):   # a definition's anchor, unless the page documents the name (show_doc's heading) or has it already
        if m.group(1) in ids or m.group(1) in seen: return ''
        seen.add(m.group(1)); return m.group(0)
    body = defs.sub(keep_def, body)
    ids |= seen

    def add(m):
        low = m.group(2).lower()
        if low == m.group(2) or low in ids: return m.group(0)
        ids.add(low)
        return f'<a class="site-anchor" id="{html.escape(low)}"></a>{m.group(0)}'
    return _h_re.sub(add, body)


_src_link = re.compile(r'href="(?:https?://example\.org/[^"]*?/blob/[^/"]+/)([^"#]+\.py)(?:#L(\d+))?"')


def placeholder_url(url: str) -> bool:
    "A URL on a domain reserved for examples (RFC 2606): settings.ini's `doc_host`/`git_url` until the real ones exist"
    from urllib.parse import urlsplit
    host = urlsplit(str(url or '')).hostname or ''
    return bool(re.search(r'(^|\.)example\.(org|com|net)$|\.(example|invalid|test)$', host))


def source_links(body: str, prefix: str, git_url: str = '') -> str:
    "nbdev's `[source]` links (settings.ini's placeholder git_url) -> the site's own copy of the module, at the line"
    pat = _src_link if not git_url or placeholder_url(git_url) else \
        re.compile(r'href="' + re.escape(git_url.rstrip('/')) + r'/blob/[^/"]+/([^"#]+\.py)(?:#L(\d+))?"')
    return pat.sub(lambda m: f'href="{prefix}_src/{m.group(1)}.html' + (f'#L{m.group(2)}"' if m.group(2) else '"'),
                   body)


def source_pages(root: Path, package: str, docs: Path) -> list[str]:
    "`_docs/_src/<package>/**/*.py.html`: each module highlighted, one anchor per line (`#L12`)"
    from pygments import highlight
    from pygments.formatters import HtmlFormatter
    from pygments.lexers import PythonLexer
    fmt = HtmlFormatter(linenos='inline', anchorlinenos=True, lineanchors='L', linespans=None, wrapcode=True)
    style = fmt.get_style_defs('.highlight')
    written = []
    for f in sorted((root / package).rglob('*.py')):
        rel = f.relative_to(root).as_posix()
        if f.name == '_modidx.py': continue
        code = highlight(f.read_text('utf-8'), PythonLexer(), fmt)
        code = re.sub(r'id="L-(\d+)"', r'id="L\1"', code).replace('href="#L-', 'href="#L')
        depth = '../' * rel.count('/') + '../'
        page = str(markup().source_page(rel, style, code, depth))
        dst = docs / '_src' / (rel + '.html')
        dst.parent.mkdir(parents=True, exist_ok=True)
        dst.write_text(page, 'utf-8')
        written.append(rel)
    return written


def prev_next(order: list, current: str, prefix: str) -> str:
    "Previous/next links in the sidebar's order; `order`: [(href, title, section)]"
    hrefs = [h for h, _, _ in order]
    if current not in hrefs: return ''
    i = hrefs.index(current)
    return str(markup().pager(order[i - 1] if i > 0 else None, order[i + 1] if i + 1 < len(order) else None, prefix))


def sidebar_order(contents, pages: dict) -> list:
    "The sidebar's pages in order: [(href, title, section)]"
    res = []

    def walk(entries, section):
        for e in entries:
            if isinstance(e, str):
                key = e if e in pages else None
                if key: res.append((pages[key][0], str(pages[key][1]), section))
            elif isinstance(e, dict): walk(e.get('contents') or [], e.get('section', section))
    walk(contents, 'Start')
    return res


_tag_re = re.compile(r'<[^>]+>')


def page_text_for_search(body: str) -> list[dict]:
    "The rendered page cut at its headings: [{'id', 'title', 'text'}] (text: prose and outputs, not code)"
    main = body.split('<main class="site-content">', 1)[-1].split('<footer', 1)[0].split('<nav class="site-pager"', 1)[0]
    main = re.sub(r'<p class="site-page-tools">.*?</p>', ' ', main, flags=re.DOTALL)   # the download line
    main = re.sub(r'<(script|style)[^>]*>.*?</\1>', ' ', main, flags=re.DOTALL | re.IGNORECASE)
    main = re.sub(r'<div class="jp-InputArea.*?</div>\s*</div>\s*</div>', ' ', main, flags=re.DOTALL)
    main = re.sub(r'<mjx-container.*?</mjx-container>', ' ', main, flags=re.DOTALL)
    parts = re.split(r'(<h[1-4][^>]*id="[^"]+"[^>]*>.*?</h[1-4]>)', main, flags=re.DOTALL)
    res, cur = [], {'id': '', 'title': '', 'text': ''}
    for p in parts:
        m = re.match(r'<h[1-4][^>]*id="([^"]+)"[^>]*>(.*?)</h[1-4]>', p, flags=re.DOTALL)
        if m:
            res.append(cur)
            title = html.unescape(_tag_re.sub('', re.sub(r'<a class="anchor-link".*?</a>', '', m.group(2)))).strip()
            cur = {'id': m.group(1), 'title': title.rstrip('¶').strip(), 'text': ''}
        else: cur['text'] += ' ' + p
    res.append(cur)
    for r in res: r['text'] = re.sub(r'\s+', ' ', html.unescape(_tag_re.sub(' ', r['text']))).strip()[:3000]
    return [r for r in res if r['text'] or r['title']]


def search_index(pages: list[tuple[str, str, str]]) -> str:
    "`_static/search.json`: [{'page', 'pageTitle', 'id', 'title', 'text'}] from [(href, page title, rendered html)]"
    items = []
    for href, title, body in pages:
        for sec in page_text_for_search(body):
            items.append({'page': href, 'pageTitle': title, **sec})
    return json.dumps(items, ensure_ascii=False, separators=(',', ':'))


def api_listing(prefix: str = '') -> str:
    """The public API by module, one line each (name linked to its definition, the docstring's first line): every
    name of `textmetrics_edu.public_names()` (the modules' `__all__`), so nothing can be forgotten here"""
    import importlib
    import textmetrics_edu as tme
    from textmetrics_edu._modidx import d as modidx
    by_mod = {}
    for name, mod in tme.public_names().items(): by_mod.setdefault(mod, []).append(name)
    modules = []
    for mod in sorted(by_mod):
        m = importlib.import_module(f'textmetrics_edu.{mod}')
        doc = (m.__doc__ or '').strip().split('\n')[0]
        syms = modidx['syms'].get(f'textmetrics_edu.{mod}', {})
        rows = []
        for name in by_mod[mod]:
            obj = getattr(m, name, None)
            line = ((getattr(obj, '__doc__', None) or '').strip().split('\n')[0]
                    if callable(obj) or isinstance(obj, type) else '')
            if obj is not None and not callable(obj): line = line or f'{type(obj).__name__} constant'
            if line and (callable(obj) and line == (type(obj).__doc__ or '').strip().split('\n')[0]
                         and not isinstance(obj, type) and not hasattr(obj, '__wrapped__') and
                         getattr(obj, '__doc__', None) == type(obj).__doc__): line = ''
            link = syms.get(f'textmetrics_edu.{mod}.{name}', (None,))[0]
            rows.append((name, link, line))
        modules.append(dict(mod=mod, doc=doc, rows=rows))
    return str(markup().api_listing(modules, sum(map(len, by_mod.values())), prefix))


# ----------------------------------------------------------------------------------------------------------------
# A lesson is read in about 20 minutes (STYLE.md rule 20): at most LESSON_WORDS words of prose and unfolded code on
# its page. Counted as `wc -w` counts: whitespace-separated words of the markdown (HTML tags and folded `<details>`
# blocks left out) and of the code shown open; outputs, folded code (exported source, answers, `code-fold: true`)
# and cells the site does not show are not counted. The site build writes every page's count to `_docs/page_words.json`.
# ----------------------------------------------------------------------------------------------------------------
LESSON_WORDS = 4000
_details = re.compile(r'<details\b.*?</details>', re.DOTALL | re.IGNORECASE)
_tag = re.compile(r'<[^>]+>')


def visible_words(cells) -> int:
    "Words of prose and unfolded code in the cells of a notebook prepared for the site (tools/site_preprocessors.py)"
    n = 0
    for c in cells:
        src = c.source if isinstance(c.source, str) else ''.join(c.source)
        if c.cell_type == 'markdown':
            n += len(_tag.sub(' ', _details.sub(' ', src)).split())
        elif c.cell_type == 'code':
            md = c.get('metadata', {})
            if 'remove_input' in md.get('tags', []) or (md.get('site_fold') and not md.get('site_fold_open')): continue
            n += len(src.split())
    return n


# An "Under the hood" section of a lesson (engineering: fast engines, the standard-library versions the explorers
# run) is folded on the site: its heading stays (the table of contents, links), its prose goes into a <details> and its
# code is folded, until the next heading of the same or a higher level. In JupyterLab the notebook reads unchanged.
_heading = re.compile(r'^(#{1,6})\s+(.*)$')
HOOD_SUMMARY = 'Under the hood (engineering: open to read)'


def fold_under_the_hood(cells) -> int:
    "Fold the 'Under the hood' sections of a notebook's cells in place (the first course rule); returns how many cells"
    level, n = None, 0
    for c in cells:
        src = c.source if isinstance(c.source, str) else ''.join(c.source)
        if c.cell_type == 'markdown':
            lines, out, body = src.split('\n'), [], []
            def flush():
                if body and any(l.strip() for l in body):
                    out.extend(['', f'<details class="site-hood"><summary>{HOOD_SUMMARY}</summary>', '', *body, '',
                                '</details>', ''])
                elif body: out.extend(body)
                body.clear()
            for line in lines:
                m = _heading.match(line)
                if m and (level is None or len(m.group(1)) <= level):
                    if level is not None: flush()
                    level = len(m.group(1)) if m.group(2).lower().startswith('under the hood') else None
                    out.append(line)
                elif level is not None: body.append(line)
                else: out.append(line)
            if level is not None: flush()
            new = '\n'.join(out).strip('\n')
            if new != src: c.source, n = new, n + 1
        elif c.cell_type == 'code' and level is not None and src.strip():
            if re.search(r'^\s*#\s*\|\s*(code-fold|hide|exports?\b)', src, re.MULTILINE): continue
            c.source, n = f'#| code-fold: true\n#| code-summary: "{HOOD_SUMMARY}"\n' + src, n + 1
    return n
