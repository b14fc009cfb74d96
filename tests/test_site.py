"""The built documentation site (`_docs/`, made by tools/build_site.py: the static site, or Quarto's when `quarto` was
on PATH) in headless Chromium, offline.

Every page is served from 127.0.0.1; every request that is not to that server is blocked and recorded. Each page
must load with no console error, no failed request and no external request, and is waited on until it is ready by
explicit conditions (DOMContentLoaded and load; every saved widget view drawn; MathJax's startup promise resolved),
never by network idleness; a page not ready within 120 s fails saying what was pending and which requests were in
flight. The BLEU page must show its explorer (the widget manager renders the saved widget state). Screenshots go to
/tmp/site_*.png. The fixtures (`site`, `site_server`, `browser`: one Chromium for the whole run, `open_page`, `sel`:
the selectors of the site that was built) are in conftest.py. Needs Debian's `chromium` (tools/system-packages.txt)
and the `playwright` package (which drives it; it never downloads a browser here). Builds the site first when
`_docs/` is missing or older than the notebooks.
"""
import pytest

from conftest import _site_pages, needs_chromium

pytestmark = needs_chromium
PAGES = _site_pages()


@pytest.mark.parametrize('page_path', PAGES)
def test_page_loads_offline(open_page, sel, page_path):
    v = open_page(page_path)
    assert v.problems() == [], f'{page_path}:\n' + '\n'.join(v.problems())
    p = v.page
    assert p.locator('h1.title').count() == 1 and p.locator('h1.title').inner_text().strip()
    links = p.locator(sel['sidebar_links'])
    assert links.count() == len(PAGES), 'every page is in the sidebar'
    assert p.locator(sel['sidebar_links'] + '.active').count() == 1
    # nothing the page refers to points outside the site (a/href to elsewhere is fine: not loaded)
    ext = p.evaluate("""() => [...document.querySelectorAll('script[src],link[href],img[src],iframe[src]')]
        .map(e => e.src || e.href).filter(u => u && !u.startsWith(location.origin) && !u.startsWith('data:'))""")
    assert ext == []
    # math: no raw TeX delimiters left in rendered markdown when MathJax is on the page
    assert p.locator(f"{sel['prose']} mjx-merror").count() == 0
    if page_path == 'index.html': p.screenshot(path='/tmp/site_index.png')


def test_bleu_page_shows_explorer(open_page, sel):
    assert 'bleu.html' in PAGES
    v = open_page('bleu.html')
    assert v.problems() == [], '\n'.join(v.problems())
    p = v.page
    p.screenshot(path='/tmp/site_bleu.png')
    assert p.locator('mjx-container').count() > 5, 'the equations are typeset'
    prose = '\n'.join(p.locator(sel['prose']).all_inner_texts())
    assert 'brevity penalty' in prose.lower(), "the lesson's prose is found"
    assert '$$' not in prose and ':::' not in prose, 'no raw TeX or fenced-div markup left'
    assert p.locator('.callout').count() >= 1, 'callouts are drawn as boxes'
    box = p.locator('.jupyter-widgets.widget-vbox').first
    box.wait_for(state='visible')   # drawn already (the page is ready); the limit is the 120 s default
    # the controls of bleu_explorer(): hypothesis, references, max order, smoothing, tokenizer, lowercase
    hyp = box.locator('.widget-text input[type="text"]')
    assert hyp.count() >= 1
    assert 'the guard arrived late because of the rain' in hyp.first.input_value()
    assert box.locator('.widget-textarea textarea').count() >= 1
    slider = box.locator('.widget-slider')
    assert slider.count() >= 1
    assert 'max order' in slider.first.inner_text()
    dropdowns = box.locator('.widget-dropdown')
    assert dropdowns.count() >= 2
    smoothing = dropdowns.filter(has_text='smoothing')
    assert smoothing.count() == 1
    assert 'exp' in [o.strip() for o in smoothing.locator('option').all_inner_texts()]
    assert box.locator('.widget-checkbox input[type="checkbox"]').count() >= 1
    # the saved HTML view of the explorer: score and the n-gram table
    view = box.locator('.widget-html')
    assert 'BLEU' in view.last.inner_text()
    p.add_style_tag(content=sel['navbar'] + ' { position: static !important; }')   # not over the element shot
    box.scroll_into_view_if_needed()
    box.screenshot(path='/tmp/site_bleu_explorer.png')
    # jslink-free static page: the controls are drawn and usable (no Python behind them)
    hyp.first.fill('a different hypothesis')
    assert hyp.first.input_value() == 'a different hypothesis'
    # widget descriptions and HTMLMath typeset with MathJax 2's API (MathJax.Hub.Queue): mapped onto MathJax 3
    typeset = p.evaluate('''() => { const d = document.createElement('div'); d.textContent = 'where $p_n$ is'; document.body.append(d);
        MathJax.Hub.Queue(['Typeset', MathJax.Hub, d]);
        return MathJax.startup.promise.then(() => d.querySelectorAll('mjx-container').length); }''')
    assert typeset == 1
    assert v.problems() == [], '\n'.join(v.problems())
