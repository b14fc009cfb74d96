"""The course's rules for the site, as nbconvert preprocessors (one chain, `COURSE`, for both renderers).

tools/build_site.py runs `course_notebook` on each executed notebook nbdev processed (`_proc/`) and writes the result
to `_proc_course/`: the notebook the site shows. Each rule is one `Preprocessor` (the pure functions behind them are
in tools/site_course.py, tested in tests/test_build_site.py); a rule's decision is stored in the cell, as nbconvert
tags (`remove_input`, `remove_output`) and the site's cell metadata:

    site_fold          the summary of a folded code cell (exported source, `code-fold`, an answer)
    site_fold_open     the fold starts open (`code-fold: show`)
    site_fold_outputs  an exercise's answer: its code and outputs folded together
    site_anchors       the anchors nbdev's cross-references use for what the cell defines
    site_directives    the cell's `#|` lines (its source holds only the code shown)

The markdown stays in Quarto's dialect (fenced callouts, `{#id}` attributes). Each renderer then reads the same
notebook: the static site through `StaticMarkdown` (commonmark for nbconvert) and tools/site/page.html.j2 (the
metadata above as HTML), Quarto through `QuartoCellOptions` (the same metadata written back as `#|` cell options,
an answer wrapped in raw `<details>`).
"""
from __future__ import annotations

import html
import json
import re

import nbformat
from nbconvert.preprocessors import Preprocessor
from traitlets import Bool, Unicode

import site_course as sc

CALLOUTS = {'note': 'Note', 'warning': 'Warning', 'tip': 'Tip', 'important': 'Important', 'caution': 'Caution'}


def _source(cell) -> str:
    s = cell.get('source', '')
    return ''.join(s) if isinstance(s, list) else (s or '')


# ----------------------------------------------------------------------------------------------------------------
# Cell options and markdown dialects (pure functions)
# ----------------------------------------------------------------------------------------------------------------
_dir_re = re.compile(r'^\s*#\s*\|\s?(.*?)\s*$')


def split_directives(src: str) -> tuple[dict, str]:
    "Leading `#| key: value` / `#| key` lines of a code cell -> (dict, remaining source)"
    lines, dirs, i = src.splitlines(True), {}, 0
    while i < len(lines):
        m = _dir_re.match(lines[i])
        if not m:
            if lines[i].strip() == '': i += 1; continue
            break
        body = m.group(1)
        if ':' in body:
            k, v = body.split(':', 1)
            dirs[k.strip()] = v.strip().strip('"\'')
        elif body: dirs[body.split()[0]] = ' '.join(body.split()[1:])
        i += 1
    return dirs, ''.join(lines[i:])


def with_directive(lines: list[str], key: str, value: str) -> list[str]:
    "A code cell's `#|` directive lines with `key` set to `value` (any earlier setting of it replaced)"
    return [l for l in lines if not re.match(rf'#\|\s*{re.escape(key)}\s*:', l)] + [f'#| {key}: {value}']


_fence_open = re.compile(r'^(\s*):::+\s*\{([^}]*)\}\s*$|^(\s*):::+\s*([\w-]+)\s*$')
_fence_close = re.compile(r'^\s*:::+\s*$')


def convert_fenced_divs(md: str) -> str:
    "Quarto/pandoc fenced divs (`:::{.callout-note}` ... `:::`) -> HTML divs that keep their markdown content"
    out, stack, lines, i = [], [], md.splitlines(), 0
    while i < len(lines):
        line = lines[i]
        m = _fence_open.match(line)
        if m:
            attrs = m.group(2) if m.group(2) is not None else '.' + m.group(4)
            classes = re.findall(r'\.([\w-]+)', attrs)
            ident = re.search(r'#([\w-]+)', attrs)
            kv = dict(re.findall(r'([\w-]+)="([^"]*)"', attrs))
            callout = next((c[len('callout-'):] for c in classes if c.startswith('callout-')), None)
            idattr = f' id="{html.escape(ident.group(1))}"' if ident else ''
            if callout:
                title = kv.get('title')
                if title is None and i + 1 < len(lines) and re.match(r'^\s*#{1,6}\s+\S', lines[i + 1]):
                    title = re.sub(r'^\s*#{1,6}\s+', '', lines[i + 1]).strip(); i += 1
                if title is None: title = CALLOUTS.get(callout, callout.title())
                out += ['', f'<div class="callout {" ".join(html.escape(c) for c in classes)}"{idattr}>',
                        '<div class="callout-title">', '', title, '', '</div>', '']
            else:
                out += ['', f'<div class="{" ".join(html.escape(c) for c in classes)}"{idattr}>', '']
            stack.append(True)
        elif _fence_close.match(line) and stack:
            stack.pop()
            out += ['', '</div>', '']
        else: out.append(line)
        i += 1
    out += ['', '</div>', ''] * len(stack)
    return '\n'.join(out)


_html_callout_open = re.compile(r'^\s*<div\s+class="callout\s+callout-([\w-]+)"[^>]*>\s*$')
_div_open = re.compile(r'<div[\s>]')


def html_callouts_to_fenced(md: str) -> str:
    """The notebooks' callout boxes (`build_site.callout_open_html` ... `</div>`, see tools/nb_callouts.py) -> Quarto's
    fenced callouts (`::: {.callout-KIND}` ... `:::`); a `**Label**` line right after the opening that is the kind's
    default title (`CALLOUTS`) is dropped, as the site writes that title itself. Other HTML is left alone."""
    out, stack, lines, i = [], [], md.splitlines(), 0
    while i < len(lines):
        line = lines[i]
        m = _html_callout_open.match(line)
        if m:
            kind = m.group(1)
            out.append(f'::: {{.callout-{kind}}}')
            stack.append('callout')
            j = i + 1   # the blank lines after the opening (and the default label) go: a `## title` must follow the fence
            while j < len(lines) and not lines[j].strip(): j += 1
            if j < len(lines) and lines[j].strip() == f'**{CALLOUTS.get(kind, kind.title())}**':
                j += 1
                while j < len(lines) and not lines[j].strip(): j += 1
            i = j - 1
        elif stack and line.strip() == '</div>':
            out.append(':::' if stack.pop() == 'callout' else line)
        else:
            if stack: stack += ['div'] * (len(_div_open.findall(line)) - line.count('</div>'))
            out.append(line)
        i += 1
    return '\n'.join(out) + ('\n' if md.endswith('\n') else '')


_link_attr_re = re.compile(r'\[([^\]]*)\]\(([^)\s]*)\)\{([^}]*)\}')
_heading_attr_re = re.compile(r'^(#{1,6}\s.*?)\s*\{([#.][^}]*)\}\s*$', re.MULTILINE)


def pandoc_to_commonmark(md: str) -> str:
    "Pandoc attribute syntax that Quarto understands and nbconvert's markdown does not"
    def link(m):
        attrs = dict(re.findall(r'([\w-]+)="([^"]*)"', m.group(3)))
        extra = ''.join(f' {k}="{html.escape(v)}"' for k, v in attrs.items() if k in ('target', 'style', 'title'))
        return f'<a href="{html.escape(m.group(2))}"{extra}>{m.group(1)}</a>'
    def heading(m):   # `## Title {#id}`: the id the page's links use (Quarto and nbconvert slug titles differently)
        ident = re.search(r'#([\w-]+)', m.group(2))
        return (f'<a class="site-anchor" id="{html.escape(ident.group(1))}"></a>\n\n' if ident else '') + m.group(1)
    md = _link_attr_re.sub(link, md)
    return _heading_attr_re.sub(heading, md)


_code_doclink = re.compile(r'\[(`[^`\]]+`)\]\(https?://[^)\s]+\.html(?:#[^)\s]*)?\)')   # nbdev's links, in code


# ----------------------------------------------------------------------------------------------------------------
# The course's rules
# ----------------------------------------------------------------------------------------------------------------
class CoursePreprocessor(Preprocessor):
    "A rule over the whole notebook: `rule(nb)` changes `nb` in place (cells kept, changed or dropped)"
    enabled = Bool(True).tag(config=True)   # (nbconvert's preprocessors are off until enabled)

    def preprocess(self, nb, resources):
        self.rule(nb)
        return nb, resources

    def rule(self, nb): raise NotImplementedError


def _code(cell) -> bool: return cell.cell_type == 'code'


class FoldUnderTheHood(CoursePreprocessor):
    "An 'Under the hood' section (engineering) folds: its prose into <details>, its code `code-fold: true`"
    def rule(self, nb): sc.fold_under_the_hood(nb.cells)


class PageFrontmatter(CoursePreprocessor):
    """The page's frontmatter (the first raw `---` YAML cell, as nbdev writes it) -> `nb.metadata.site_frontmatter`
    and the page's title (`title_fallback`: the notebook's name); blank markdown cells and nbdev's warning dropped"""
    title_fallback = Unicode('Untitled', help="the page's title when its frontmatter has none").tag(config=True)

    def rule(self, nb):
        import yaml
        fm = None
        for c in nb.cells:
            m = re.match(r'^---\s*\n(.*?)\n---\s*$', _source(c).strip(), flags=re.DOTALL) if c.cell_type == 'raw' else None
            if m and not fm: fm = yaml.safe_load(m.group(1)) or {}
        fm = json.loads(json.dumps(fm or {}, default=str))
        fm.setdefault('title', self.title_fallback)
        nb.metadata['site_frontmatter'] = fm
        nb.metadata['title'] = str(fm['title'])
        nb.cells = [c for c in nb.cells if not (c.cell_type == 'markdown' and (
            not _source(c).strip() or _source(c).strip().startswith('<!-- WARNING: THIS FILE WAS AUTOGENERATED')))]


class Callouts(CoursePreprocessor):
    "The notebooks' callout boxes (HTML JupyterLab draws) -> Quarto's callouts (`::: {.callout-note}`)"
    def rule(self, nb):
        for c in nb.cells:
            if c.cell_type == 'markdown': c.source = html_callouts_to_fenced(_source(c))


class NameSources(CoursePreprocessor):
    "The first mention of each source document on a page says what it is (site_course.name_sources)"
    prefix = Unicode('', help="the way from the page to the site's root (`../` one folder down)").tag(config=True)

    def rule(self, nb):
        seen = set()
        for c in nb.cells:
            if c.cell_type == 'markdown': c.source = sc.name_sources(_source(c), seen, self.prefix)


class CellOptions(CoursePreprocessor):
    """A code cell's `#|` lines -> `site_directives`; its source: the code shown, nbdev's doc links inside it (which
    would show as markdown in highlighted code) made plain names"""
    def rule(self, nb):
        for c in filter(_code, nb.cells):
            if 'site_directives' in c.metadata: continue
            src = _source(c)
            code = split_directives(src)[1]
            c.metadata['site_directives'] = [l for l in src[:len(src) - len(code)].splitlines() if l.strip()]
            c.source = _code_doclink.sub(r'\1', code.rstrip())


def options(cell) -> dict:
    "A code cell's `#|` options (after `CellOptions`)"
    return split_directives('\n'.join(cell.metadata.get('site_directives', [])))[0]


def _folded(cell) -> bool:
    d = options(cell)
    return bool(d.get('code-fold')) and str(d['code-fold']).lower() != 'false'


class DropFrozenWidgets(CoursePreprocessor):
    """Saved ipywidgets views are not on the site (a frozen widget accepts input and does nothing): the live explorer
    is the one; a cell left without output goes, and so do later cells without output that only drive its widget"""
    def rule(self, nb):
        cells, names = [], set()
        for c in nb.cells:
            if _code(c):
                if sc.drop_widget_outputs(c) and not c.outputs:
                    names |= sc.assigned_names(c.source)
                    continue
                if names and not _folded(c) and c.source.strip() and not c.get('outputs') and \
                        sc.uses_only(sc.strip_tests(c.source), names): continue
            cells.append(c)
        nb.cells = cells
        if not any(sc.WIDGET_VIEW in o.get('data', {}) for c in cells for o in c.get('outputs', [])):
            nb.metadata.pop('widgets', None)   # no saved view left: no widget state, no widget manager on the page


class DropChatter(CoursePreprocessor):
    "Tool chatter and kernel warnings on stderr, show_doc of `__getattr__`/`__dir__`: not part of the lesson"
    def rule(self, nb):
        for c in filter(_code, nb.cells):
            sc.drop_chatter(c)
            sc.drop_dunder_docs(c)


class StripTests(CoursePreprocessor):
    "Test statements run, but are not shown (site_course.strip_tests); a cell left with nothing to show is hidden"
    def rule(self, nb):
        for c in filter(_code, nb.cells):
            if _folded(c) or not c.source.strip(): continue
            shown = sc.strip_tests(c.source)
            if sc.nothing_to_show(shown): c.metadata.setdefault('tags', []).append('remove_input')
            else: c.source = shown


class FoldCode(CoursePreprocessor):
    """Exported source folded (nbdev's default), with the anchors of what it defines; `code-fold: true` folded,
    `code-fold: show` open; under an "Exercises" heading a folded answer folds its outputs with its code"""
    def rule(self, nb):
        in_exercises = False
        for c in nb.cells:
            if c.cell_type == 'markdown':
                h = re.match(r'^\s*#{1,2}\s+(.*)', _source(c))
                if h: in_exercises = bool(re.search(r'exercis', h.group(1), re.IGNORECASE))
            if not _code(c) or not _folded(c): continue
            dirs = options(c)
            summary = dirs.get('code-summary') or 'Code'
            fold_open = str(dirs['code-fold']).lower() == 'show' and summary != 'Exported source'
            c.metadata['site_fold'], c.metadata['site_fold_open'] = summary, fold_open
            if summary == 'Exported source': c.metadata['site_anchors'] = sc.defined_names(c.source)
            if in_exercises and not fold_open:
                c.metadata['site_fold_outputs'] = True
                c.metadata['site_fold'] = summary if dirs.get('code-summary') else 'Answer (its code and output)'


class HideCells(CoursePreprocessor):
    """`include: false` cells dropped; `echo: false` and empty code -> `remove_input`, `output: false` ->
    `remove_output`; a cell with nothing left to show goes"""
    def rule(self, nb):
        cells = []
        for c in nb.cells:
            if _code(c):
                dirs, tags = options(c), c.metadata.setdefault('tags', [])
                if str(dirs.get('include', '')).lower() == 'false': continue
                if str(dirs.get('echo', '')).lower() == 'false' or not c.source.strip(): tags.append('remove_input')
                if str(dirs.get('output', '')).lower() == 'false': tags.append('remove_output')
                if 'remove_input' in tags and (not c.get('outputs') or 'remove_output' in tags): continue
            cells.append(c)
        nb.cells = cells


COURSE = (FoldUnderTheHood, PageFrontmatter, Callouts, NameSources, CellOptions, DropFrozenWidgets, DropChatter,
          StripTests, FoldCode, HideCells)


def course_notebook(nb, title_fallback: str, prefix: str = ''):
    """Apply the course's rules (`COURSE`) to a processed notebook `nb` in place; returns its frontmatter.
    `prefix`: the way from the page to the site's root (`../` for a page one folder down)."""
    from traitlets.config import Config
    c = Config()
    c.PageFrontmatter.title_fallback, c.NameSources.prefix = title_fallback, prefix
    resources = {}
    for P in COURSE: nb, resources = P(config=c)(nb, resources)
    return nb.metadata['site_frontmatter']


# ----------------------------------------------------------------------------------------------------------------
# The renderers' dialects
# ----------------------------------------------------------------------------------------------------------------
class StaticMarkdown(CoursePreprocessor):
    """For nbconvert (the static site): Quarto's markdown as commonmark (callouts as HTML boxes, attributes as HTML),
    show_doc's markdown the same, no raw cells (nbconvert would print the frontmatter)"""
    def rule(self, nb):
        cells = []
        for c in nb.cells:
            if c.cell_type == 'raw': continue
            if c.cell_type == 'markdown': c.source = pandoc_to_commonmark(convert_fenced_divs(_source(c)))
            for o in c.get('outputs', []):   # show_doc's markdown (source links with attributes)
                md = o.get('data', {}).get('text/markdown')
                if md is not None:
                    md = re.sub(r'```.*?```', lambda m: _code_doclink.sub(r'\1', m.group(0)), _source({'source': md}),
                                flags=re.DOTALL)
                    o['data']['text/markdown'] = pandoc_to_commonmark(md)
            cells.append(c)
        nb.cells = cells


class QuartoCellOptions(CoursePreprocessor):
    """For Quarto: the site's cell metadata as `#|` cell options (folds as `code-fold`, `remove_input` as `echo:
    false`), an exercise's answer wrapped in raw `<details>` (its code and outputs folded together)"""
    def rule(self, nb):
        cells = []
        raw = lambda t: nbformat.v4.new_raw_cell(t, metadata={'raw_mimetype': 'text/html'})
        for c in nb.cells:
            if not _code(c) or 'site_directives' not in c.metadata: cells.append(c); continue
            md = c.metadata
            lines = list(md['site_directives'])
            answer = md.get('site_fold') if md.get('site_fold_outputs') else None
            if md.get('site_fold'):
                lines = with_directive(lines, 'code-fold', 'false' if answer else 'show' if md.get('site_fold_open') else 'true')
            if 'remove_input' in md.get('tags', []): lines = with_directive(lines, 'echo', 'false')
            c.source = '\n'.join(lines + [c.source])
            if answer is None: cells.append(c); continue
            cells += [raw(f'<details class="site-answer"><summary>{html.escape(answer)}</summary>'), c, raw('</details>')]
        nb.cells = cells
