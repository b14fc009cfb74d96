"""Unit tests of the site renderers' converters (tools/build_site.py): pages, cell directives, Quarto's fenced divs
and link attributes to CommonMark/HTML, the page's table of contents, the offline rewrite of links, and of the CDN
scripts of Quarto's pages. Fast: no notebook is executed, no browser is started."""
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / 'tools'))
import build_site as b
import site_course as sc  # noqa: E402
import site_preprocessors as sp  # noqa: E402


@pytest.mark.parametrize('nb, page', [('01_bleu.ipynb', 'bleu.html'), ('index.ipynb', 'index.html'),
                                      ('13_alignment_explorer.ipynb', 'alignment_explorer.html'),
                                      ('sub/13a_x.ipynb', 'sub/x.html'), ('99_API.ipynb', 'api.html')])
def test_page_name(nb, page):
    assert b.page_name(Path(nb)).as_posix() == page


def test_split_directives():
    assert sp.split_directives('#| export\n#| code-fold: true\n\nx = 1\n') == ({'export': '', 'code-fold': 'true'}, 'x = 1\n')
    assert sp.split_directives("#| code-summary: 'Answer'\ny = 2  #| not a directive\n") == \
        ({'code-summary': 'Answer'}, 'y = 2  #| not a directive\n')
    assert sp.split_directives('x = 1\n#| export\n') == ({}, 'x = 1\n#| export\n')   # only leading lines


def test_fenced_divs_become_callouts():
    assert sp.convert_fenced_divs(':::{.callout-note}\nHello **x**\n:::\n') == \
        '\n<div class="callout callout-note">\n<div class="callout-title">\n\nNote\n\n</div>\n\nHello **x**\n\n</div>\n'
    out = sp.convert_fenced_divs('::: {.callout-warning title="Careful"}\nbody\n:::')
    assert 'callout-warning' in out and '\nCareful\n' in out and '\nbody\n' in out
    assert sp.convert_fenced_divs('no divs here\n').strip() == 'no divs here'


def test_notebook_callouts_are_boxes_jupyterlab_draws():
    "The notebooks' callouts are HTML boxes (JupyterLab shows Quarto's `:::` fences as text); the site reads them as fences"
    import json
    import nb_callouts
    fenced = ':::{.callout-warning}\n## Careful\nbody *x*\n:::\nafter\n'
    lines = nb_callouts.convert_lines(fenced.splitlines(keepends=True))
    assert lines[0] == b.callout_open_html('warning') + '\n' and lines[1] == '\n' and lines[-2:] == ['</div>\n', 'after\n']
    assert 'border-left: 5px solid #ffc107' in lines[0]   # the site's colour (site.css)
    assert sp.html_callouts_to_fenced(''.join(lines)) == '::: {.callout-warning}\n## Careful\nbody *x*\n\n:::\nafter\n'
    untitled = ''.join(nb_callouts.convert_lines([':::{.callout-note}\n', 'body\n', ':::']))
    assert '\n**Note**\n' in untitled and untitled.endswith('\n</div>')   # JupyterLab shows the label the site gives
    assert sp.html_callouts_to_fenced(untitled) == '::: {.callout-note}\nbody\n\n:::'
    assert sp.convert_fenced_divs(sp.html_callouts_to_fenced(untitled)) == sp.convert_fenced_divs(':::{.callout-note}\nbody\n\n:::')
    nested = '<div class="callout callout-note">\n\n<div class="x">\n\ninner\n\n</div>\n\n</div>\n'
    assert sp.html_callouts_to_fenced(nested) == '::: {.callout-note}\n<div class="x">\n\ninner\n\n</div>\n\n:::\n'
    assert sp.html_callouts_to_fenced('<div>\nplain\n</div>') == '<div>\nplain\n</div>'   # other HTML untouched
    for nb in sorted((ROOT / 'nbs').glob('*.ipynb')):   # a new `:::` fence: run tools/nb_callouts.py
        for c in json.loads(nb.read_text(encoding='utf-8'))['cells']:
            if c['cell_type'] == 'markdown':
                assert not any(nb_callouts._open.match(l.rstrip('\n')) for l in c['source']), f'{nb.name}: `:::` fence'


def test_pandoc_link_attributes():
    assert sp.pandoc_to_commonmark('[src](https://x/y.py#L3){target="_blank" style="float:right"}') == \
        '<a href="https://x/y.py#L3" target="_blank" style="float:right">src</a>'
    assert sp.pandoc_to_commonmark('[plain](a.html)') == '[plain](a.html)'
    # a heading's explicit id is the anchor links use on both sites (Quarto and nbconvert slug titles differently)
    assert sp.pandoc_to_commonmark('## The explorer: move {#the-explorer}') == \
        '<a class="site-anchor" id="the-explorer"></a>\n\n## The explorer: move'


def _lesson_nb():
    import nbformat
    v = nbformat.v4
    view = {'output_type': 'display_data', 'metadata': {},
            'data': {sc.WIDGET_VIEW: {'model_id': 'm', 'version_major': 2, 'version_minor': 0}, 'text/plain': ['w']}}
    nb = v.new_notebook(cells=[
        v.new_raw_cell('---\ntitle: BLEU\n---'),
        v.new_markdown_cell('As document 002 shows.'),
        v.new_code_cell('#| export\n#| code-fold: show\n#| code-summary: "Exported source"\ndef f(x): return x'),
        v.new_code_cell("h = f(1)\ntest_eq(h, 1)\nh", outputs=[v.new_output('execute_result', {'text/plain': '1'})]),
        v.new_code_cell('from fastcore.test import test_eq\ntest_eq(f(2), 2)'),
        v.new_code_cell('ex = explorer()\nex', outputs=[view]),
        v.new_code_cell("ex.controls['n'].value = 2"),
        v.new_markdown_cell('## Exercises'),
        v.new_code_cell('#| code-fold: true\nf(3)', outputs=[v.new_output('execute_result', {'text/plain': '3'})])])
    nb.metadata['widgets'] = {'application/vnd.jupyter.widget-state+json': {'state': {}}}
    return nb


def test_lesson_rules_for_both_renderers():
    """One chain of nbconvert preprocessors (site_preprocessors.COURSE) makes the notebook both renderers read: the
    rules' decisions as nbconvert tags and the site's cell metadata; Quarto gets them as `#|` options and raw HTML"""
    import copy
    nb = _lesson_nb()
    assert sp.course_notebook(nb, 'x')['title'] == 'BLEU' and nb.metadata['title'] == 'BLEU'
    assert all(issubclass(P, sp.Preprocessor) for P in sp.COURSE)
    q = copy.deepcopy(nb)
    s = sp.StaticMarkdown()(nb, {})[0]
    code = [c for c in s.cells if c.cell_type == 'code']
    assert [c.cell_type for c in s.cells] == ['markdown', 'code', 'code', 'markdown', 'code'], 'no raw cell for nbconvert'
    assert [c.source for c in code] == ['def f(x): return x', 'h = f(1)\nh', 'f(3)']
    assert code[0].metadata['site_fold'] == 'Exported source' and not code[0].metadata['site_fold_open']
    assert code[0].metadata['site_anchors'] == ['f']
    assert code[2].metadata['site_fold_outputs'] and 'widgets' not in nb.metadata
    q = sp.QuartoCellOptions()(q, {})[0]
    assert [c.cell_type for c in q.cells] == ['raw', 'markdown', 'code', 'code', 'markdown', 'raw', 'code', 'raw']
    assert 'class="site-source"' in q.cells[1].source
    assert q.cells[2].source.endswith('#| code-fold: true\ndef f(x): return x'), 'exported source folded'
    assert q.cells[3].source == 'h = f(1)\nh', 'the test statement runs, not shown'
    assert q.cells[5].source.startswith('<details class="site-answer"><summary>Answer')
    assert q.cells[5].metadata['raw_mimetype'] == 'text/html' and q.cells[7].source == '</details>'
    assert q.cells[6].source == '#| code-fold: false\nf(3)', "an answer's code and outputs folded together"
    assert 'widgets' not in q.metadata, 'no saved view left: no widget state'


def test_quarto_path_renders_the_course_notebooks(tmp_path):
    """Quarto's project (`_proc_quarto/`) is made of the same course notebooks as the static site (`_proc_course/`),
    the rules' metadata written as `#|` options; with nbdev's `_quarto.yml`, `nbdev.yml` and the sidebar"""
    import nbformat
    import yaml
    executed = tmp_path / '_proc'
    executed.mkdir()
    nbformat.write(nbformat.from_dict(_lesson_nb()), executed / '01_x.ipynb')
    proc, info = b.quarto_project(ROOT / 'nbs', executed, [Path('01_x.ipynb')])
    assert proc == tmp_path / '_proc_quarto' and info[Path('01_x.ipynb')][0]['title'] == 'BLEU'
    course = nbformat.read(tmp_path / b.COURSE_DIR / '01_x.ipynb', as_version=4)
    q = nbformat.read(proc / '01_x.ipynb', as_version=4)
    assert [c.id for c in q.cells if c.cell_type != 'raw'] == [c.id for c in course.cells if c.cell_type != 'raw']
    assert q.cells[2].source.endswith('#| code-fold: true\ndef f(x): return x') and course.cells[2].source == 'def f(x): return x'
    assert q.cells[5].source.startswith('<details class="site-answer">')
    assert 'metadata-files' in yaml.safe_load((proc / '_quarto.yml').read_text()) and (proc / 'nbdev.yml').exists()
    contents = yaml.safe_load((proc / 'sidebar.yml').read_text())['website']['sidebar']['contents']
    assert {'section': 'Translation and captioning metrics', 'contents': ['01_x.ipynb']} in contents
    assert not (proc / 'course.yml').exists(), "the course's data is the tools', not a page's"


def test_toc():
    body = '<h2 id="a">Alpha<a class="anchor-link" href="#a">¶</a></h2><h3 id="b">Beta <code>x</code></h3><h4 id="c">C</h4>'
    assert b.render_toc(body) == ('<div class="site-toc-title">On this page</div><ul><li class="toc-h2"><a href="#a">'
                                  'Alpha</a></li><li class="toc-h3"><a href="#b">Beta x</a></li></ul>')
    assert b.render_toc('<p>no headings</p>') == ''


def test_localize_drops_external_loads_keeps_site_files():
    page = ('<script src="https://cdn.x/a.js"></script><link rel="stylesheet" href="//fonts.x/f.css">'
            '<a href="01_bleu.ipynb#sec">b</a><a href="https://example.org">kept: a link loads nothing</a>'
            '<script type="module" src="_static/live/explorers.js"></script>'
            '<style>@import url("https://fonts.x/f.css"); .a { background: url(//x/y.png) }</style>'
            '<style>@import"https://fonts.x/g.css";:root{--a: 1}</style>')
    out = b.localize(page, '', '', {'01_bleu.ipynb': ('bleu.html', 'BLEU')}, 'index.html')
    assert 'cdn.x' not in out and 'fonts.x' not in out and '//x/y.png' not in out
    assert '<style>:root{--a: 1}</style>' in out
    assert '<a href="bleu.html#sec">b</a>' in out and 'https://example.org' in out
    assert '<script type="module" src="_static/live/explorers.js"></script>' in out
    # pages in a folder get the prefix; nbdev's absolute doc links become relative
    out = b.localize('<a href="https://me.github.io/pkg/bleu.html">x</a>', '../', 'https://me.github.io/pkg', {}, 'sub/p.html')
    assert out == '<a href="../bleu.html">x</a>'


def test_site_files_exist():
    "The templates and CSS are files next to the live explorers' glue (tools/site/README.md)"
    for f in ('page.html.j2', 'site_fast.html.j2', 'course.html.j2', 'site.css', 'lab-misc.css', 'mathjax-config.js', 'explorers.js', 'explorers.css', 'README.md'):
        assert (b.SITE_ASSETS / f).is_file(), f
    template = (b.SITE_ASSETS / 'page.html.j2').read_text()
    assert template.startswith("{%- extends 'lab/index.html.j2' -%}")
    assert '@@SITE_TOC@@' in template


def test_one_mathjax_setup_for_both_sites():
    "MathJax's configuration and the MathJax 2 shim the widget manager needs live in one file that both sites load"
    assert 'MJ.Hub = ' in (b.SITE_ASSETS / 'mathjax-config.js').read_text()
    template = (b.SITE_ASSETS / 'page.html.j2').read_text()
    assert 'Hub' not in template and 'window.MathJax' not in template and '{{ resources.site.mathjax }}' in template
    assert b.mathjax_head('../', defer=True) == ('<script src="../_static/mathjax-config.js"></script>\n'
                                                 '<script src="../_static/mathjax/tex-svg-full.js" defer></script>')


# What Quarto 1.7.34 wrote into the <head> of a page with widgets and math (src/core/jupyter/widgets.ts, the template)
QUARTO_HEAD = (
    '<script src="https://cdnjs.cloudflare.com/ajax/libs/jquery/3.5.1/jquery.min.js" integrity="sha512-bLT0" '
    'crossorigin="anonymous"></script><script src="site_libs/quarto-nav/quarto-nav.js"></script>\n'
    '<script src="https://cdnjs.cloudflare.com/ajax/libs/require.js/2.3.6/require.min.js" integrity="sha512-c3Nl" '
    'crossorigin="anonymous"></script>\n\n'
    "<script type=\"application/javascript\">define('jquery', [],function() {return window.jQuery;})</script>\n"
    '<script src="https://unpkg.com/@jupyter-widgets/html-manager@*/dist/embed-amd.js" crossorigin="anonymous"></script>\n'
    '  <script src="https://cdnjs.cloudflare.com/polyfill/v3/polyfill.min.js?features=es6"></script>\n'
    '  <script src="https://cdn.jsdelivr.net/npm/mathjax@3/es5/tex-chtml-full.js" type="text/javascript"></script>\n'
    '<script src="https://example.org/other.js"></script>')


def test_quarto_cdn_scripts_become_local():
    out = b.quarto_cdn_to_local(QUARTO_HEAD, '../')
    assert out == ('<script src="site_libs/quarto-nav/quarto-nav.js"></script>\n'
                   '<script src="../_static/require.js"></script>\n\n\n'
                   '<script src="../_static/widgets/embed-amd.js"></script>\n  \n  '
                   + b.mathjax_head('../') + '\n'
                   '<script src="https://example.org/other.js"></script>')   # not Quarto's: left to offline_html
    assert b.offline_html(out, 'x.html').endswith(b.mathjax_head('../') + '\n')
    # every vendored file a Quarto page now loads is one copy_vendored writes
    for name in {v for v in b.QUARTO_CDN.values() if v}:
        assert b.vendored_url(name).startswith('_static/' + b.VENDORED[name][1])


def test_live_zip_holds_the_package_and_the_porter_stemmer():
    import io, zipfile
    names = set(zipfile.ZipFile(io.BytesIO(b.live_zip())).namelist())
    assert {'textmetrics_edu/__init__.py', 'textmetrics_edu/app/live.py', 'textmetrics_edu/core/_unicode.py',
            'textmetrics_edu/metrics/bleu.py', 'nltk/stem/porter.py'} <= names
    assert 'textmetrics_edu/_modidx.py' not in names


def test_sidebar_groups_every_notebook_by_role():
    "The sidebar's sections come from the notebooks' names (no list to forget a notebook in): each page once, by role."
    nbs = Path(__file__).parent.parent / 'nbs'
    rels = [p.relative_to(nbs) for p in nbs.glob('*.ipynb')]
    contents, _ = b.sidebar_contents(nbs, rels)
    listed = [e for e in contents if isinstance(e, str)] + [x for e in contents if isinstance(e, dict) for x in e['contents']]
    assert sorted(listed) == sorted(r.as_posix() for r in rels) and contents[0] == 'start.ipynb'
    sec = {e['section']: e['contents'] for e in contents if isinstance(e, dict)}
    assert list(sec)[:3] == ['Foundations', 'Translation and captioning metrics', 'Speech and edit distance']
    assert list(sec)[-2:] == ['Under the hood (you may skip these)', 'Reference']
    assert sec['Foundations'][0] == 'overview.ipynb' and sec['Translation and captioning metrics'][0] == '01_bleu.ipynb'
    assert '21_meteor.ipynb' in sec['Translation and captioning metrics'] and '30_perplexity.ipynb' in sec['Language models']
    assert '10b_edit_distance_engine.ipynb' in sec['Under the hood (you may skip these)']
    assert {'90_cli.ipynb', '99_api.ipynb', 'adding_a_metric.ipynb', 'errata.ipynb', 'index.ipynb'} <= set(sec['Reference'])
    # a new lesson and its engine find their places without any list being edited
    more, _ = b.sidebar_contents(nbs, rels + [Path('34_mauve.ipynb'), Path('70_x.ipynb'), Path('34b_mauve_engine.ipynb')])
    sec = {e['section']: e['contents'] for e in more if isinstance(e, dict)}
    assert '34_mauve.ipynb' in sec['Diversity'] and '70_x.ipynb' in sec['More lessons']
    assert '34b_mauve_engine.ipynb' in sec['Under the hood (you may skip these)']


def test_site_page_landing():
    assert b.site_page(Path('start.ipynb')) == Path('index.html') and b.site_page(Path('index.ipynb')) == Path('developers.html')
    assert b.site_page(Path('01_bleu.ipynb')) == Path('bleu.html')


def test_strip_tests_keeps_the_lesson():
    code = ("h = sentence_bleu('a b', 'a b')\n# the premise\ntest_eq(h.matches, (2, 1))\nassert float(h) > 0; print(h)\n"
            "with ExceptionExpected(ValueError): f(1)\nfor x in xs:\n    test_close(x, 1)\nh")
    assert sc.strip_tests(code) == "h = sentence_bleu('a b', 'a b')\nprint(h)\nh"
    assert sc.nothing_to_show(sc.strip_tests('from fastcore.test import test_eq\ntest_eq(1, 1)'))
    assert sc.strip_tests('%timeit f(x)\nx') == '%timeit f(x)\nx'
    assert sc.uses_only("ex.controls['max_order'].value = 2", {'ex'}) and not sc.uses_only('y = 2', {'ex'})


def test_sources_named_once_per_page():
    seen = set()
    md = sc.name_sources('As document 002 says, and document 002 again; `document 003`.\n## Document 004\nsee document 004', seen)
    assert md.count('class="site-source"') == 2 and '“Overview”' in md and 'index.html#doc-004' in md
    assert sc.name_sources('document 002', seen) == 'document 002'   # named already on this page
    assert all(f'id="doc-{d}"' in sc.sources_table() for d in sc.SOURCES)


def test_links_and_anchors():
    assert sc.add_doc_anchors('<h3 id="MetricResult">x</h3>') == '<a class="site-anchor" id="metricresult"></a><h3 id="MetricResult">x</h3>'
    body = '<a class="site-anchor site-def" id="corpus_bleu"></a><h3 id="corpus_bleu">corpus_bleu</h3><a class="site-anchor site-def" id="_prep"></a>'
    assert sc.add_doc_anchors(body).count('id="corpus_bleu"') == 1 and 'id="_prep"' in sc.add_doc_anchors(body)
    assert sc.defined_names('class Metric:\n    def opts(self): pass\nX = 1\ndef _f(): pass') == ['metric', 'metric.opts', 'x', '_f']
    link = 'href="https://example.org/textmetrics_edu/blob/main/textmetrics_edu/metrics/bleu.py#L31"'
    assert sc.source_links(link, '../') == 'href="../_src/textmetrics_edu/metrics/bleu.py.html#L31"'
    order = [('index.html', 'Start here', 'Start'), ('overview.html', 'Overview', 'Foundations'), ('core.html', 'Core', 'Foundations')]
    pn = sc.prev_next(order, 'overview.html', '')
    assert 'href="index.html"' in pn and 'href="core.html"' in pn and sc.prev_next(order, 'index.html', '').count('href=') == 1


def test_quarto_pages_get_an_anchor_at_each_linked_definition(tmp_path):
    "Quarto gives ids to show_doc headings only: a link to `cls.method` lands on the method's def after its class's"
    (tmp_path / 'a.html').write_text('<a href="b.html#stats.__add__">x</a><a href="b.html#helper">y</a>')
    kw = '<span class="kw">{}</span> '
    (tmp_path / 'b.html').write_text(kw.format('class') + 'Other: ' + kw.format('def') + '<span class="fu">__add__</span>(' +
                                     kw.format('class') + 'Stats: ' + kw.format('def') + '<span class="fu">__add__</span>(' +
                                     kw.format('def') + 'helper(')
    b.quarto_def_anchors(tmp_path, ['a.html', 'b.html'])
    page = (tmp_path / 'b.html').read_text()
    assert page.index('id="stats.__add__"') > page.index('Stats:') and page.index('id="helper"') < page.index('helper(')


def test_documentation_kernel_reruns_only_what_show_doc_needs():
    """nbdev re-runs, in a fresh kernel, every cell holding an import: a lesson cell mixing imports with code that
    uses the notebook's variables would fail there. The site's rule: exported cells, cells of imports only, show_doc;
    given to nbdev through its FilterDefaults (its exec_show_docs replaced), nbdev's module left unpatched."""
    from execnb.nbio import mk_cell
    from nbdev import processors as P
    from nbdev.process import extract_directives
    nbdev_rule = P._do_eval
    procs = b.site_filters().procs()
    assert P._do_eval is nbdev_rule and P.exec_show_docs not in procs
    assert any(isinstance(p, type) and issubclass(p, P.exec_show_docs) for p in procs) and len(procs) == len(P.FilterDefaults().procs())

    def runs(src):
        c = mk_cell(src); c.directives_ = extract_directives(c, remove=False)
        return bool(b.doc_eval(c))
    assert runs('import a\nfrom b import c') and runs('#| export\ndef f(): pass') and runs('show_doc(f)')
    assert not runs('from a import b\nx = f(b)') and not runs('x = 1') and not runs('if t:\n    import torch\n    y = 2')
    assert not runs('#| eval: false\nimport a')


def test_visible_words_counts_prose_and_open_code_only():
    "site_course.visible_words: markdown without tags and folded <details>; code shown open; nothing else"
    import nbformat
    import site_course as sc
    md = nbformat.v4.new_markdown_cell('Two words <b>bold</b>\n<details><summary>Answer</summary>not counted</details>')
    shown = nbformat.v4.new_code_cell('x = f(y)')
    folded = nbformat.v4.new_code_cell('long folded code'); folded.metadata['site_fold'] = 'Code'
    opened = nbformat.v4.new_code_cell('a b'); opened.metadata.update(site_fold='Code', site_fold_open=True)
    hidden = nbformat.v4.new_code_cell('hidden code'); hidden.metadata['tags'] = ['remove_input']
    assert sc.visible_words([md, shown, folded, opened, hidden]) == 3 + 3 + 2


def test_under_the_hood_sections_fold_on_the_site():
    "An 'Under the hood' section keeps its heading; its prose goes into <details>, its code is folded, until the next heading"
    import nbformat
    import site_course as sc
    M, C = nbformat.v4.new_markdown_cell, nbformat.v4.new_code_cell
    cells = [M('## Step 1\ntext'), C('x = 1'), M('## Under the hood: fast\n\nprose'), C('y = 2'), C('#| code-fold: true\nz = 3'),
             M('## Pitfalls\nshown'), C('w = 4')]
    assert sc.fold_under_the_hood(cells) == 2
    assert cells[0].source == '## Step 1\ntext' and cells[1].source == 'x = 1'
    assert cells[2].source.startswith('## Under the hood: fast\n') and '<details class="site-hood">' in cells[2].source
    assert cells[3].source.startswith('#| code-fold: true') and cells[4].source == '#| code-fold: true\nz = 3'
    assert cells[5].source == '## Pitfalls\nshown' and cells[6].source == 'w = 4'
    nb = nbformat.v4.new_notebook(cells=[M('# T'), *cells])
    sp.course_notebook(nb, 'T')
    assert sc.visible_words(nb.cells) == sc.visible_words([M('# T'), M('## Step 1\ntext'), C('x = 1'),
                                                          M('## Under the hood: fast'), M('## Pitfalls\nshown'), C('w = 4')])


def test_page_subtitle_renders_its_code_spans():
    "Issue 37: the scale lesson's subtitle showed raw backticks (`corpus_<metric>`): code spans become <code>, escaped"
    assert b.inline_code_html('The same numbers as `corpus_<metric>`, bit for bit & more') == \
        'The same numbers as <code>corpus_&lt;metric&gt;</code>, bit for bit &amp; more'
    assert b.inline_code_html('no code <b>') == 'no code &lt;b&gt;'
    assert b.inline_code_html('an unpaired ` stays') == 'an unpaired ` stays'
    assert 'description_html' in (b.SITE_ASSETS / 'page.html.j2').read_text()


def test_readme_is_what_make_readme_makes_now():
    """README.md equals a fresh `make readme` (tools/make_readme.py from nbs/index.ipynb), generated in memory: a new
    lesson, metric or section reaches the README, or this fails. nbs/index.ipynb is executed in this process (its cells
    print a score and display two Markdown tables), not in a kernel."""
    import nbformat
    import make_readme   # (here, not in test_readme_links.py: this module's tests import nbformat and nbconvert anyway)
    nb = nbformat.read(make_readme.src, as_version=4)
    make_readme.execute_in_process(nb)
    fresh = make_readme.readme_text(nb)
    assert (ROOT / 'README.md').read_text(encoding='utf-8') == fresh, 'README.md is stale: run `make readme` (tools/make_readme.py)'


def test_make_hooks_configures_jupyter_without_a_startup_hook(tmp_path):
    """`make hooks` (tools/jupyter_hooks.py): the Jupyter pre-save hook from a config file of the venv, no `.pth`
    start-up hook (the export is `make export` only); what earlier versions installed is removed"""
    import json
    import jupyter_hooks
    etc, lib = tmp_path / 'etc' / 'jupyter', tmp_path / 'lib'
    etc.mkdir(parents=True); lib.mkdir()
    (etc / 'jupyter_server_config.json').write_text(json.dumps({'ContentsManager': {'pre_save_hook': jupyter_hooks.OLD_HOOK}}))
    (lib / 'textmetrics_edu_nbdev.pth').write_text('import textmetrics_edu_nbdev\n')
    cfg = jupyter_hooks.install(tmp_path, lib)
    assert cfg == etc / 'jupyter_server_config.py' and 'clean_jupyter' in cfg.read_text()
    assert json.loads((etc / 'jupyter_server_config.json').read_text()) == {'ContentsManager': {}}
    assert not list(lib.iterdir()) and not (ROOT / 'tools' / 'devhooks').exists()
    assert '.pth' not in (ROOT / 'Makefile').read_text()
