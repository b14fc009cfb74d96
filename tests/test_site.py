"""The built documentation site (`_docs/`, made by tools/build_site.py: the static site, or Quarto's when `quarto` was
on PATH) in headless Chromium, offline. (Dead links and anchors: tests/test_site_links.py, without a browser.)

Every page is served from 127.0.0.1; every request that is not to that server is blocked and recorded. Each page
must load with no console error, no failed request and no external request, and is waited on until it is ready by
explicit conditions (DOMContentLoaded and load; every saved widget view drawn; MathJax's startup promise resolved),
never by network idleness; a page not ready within 120 s fails saying what was pending and which requests were in
flight. At 1280 px no page scrolls sideways and no block is cut (a wide one scrolls inside itself); no page has a
control that does not respond (the saved ipywidgets views are not on the site: the live explorers replace them). The
BLEU page shows one live explorer, folded exported source and no test statement; the landing page, sections, search,
previous/next and the phone menu work. Screenshots go to
/tmp/site_*.png. The fixtures (`site`, `site_server`, `browser`: one Chromium for the whole run, `open_page`, `sel`:
the selectors of the site that was built) are in conftest.py. Needs Debian's `chromium` (tools/system-packages.txt)
and the `playwright` package (which drives it; it never downloads a browser here). Builds the site first when
`_docs/` is missing or older than the notebooks.
"""
import re

import pytest

from conftest import _live_pages, _site_pages, check_page, needs_chromium, sweep

pytestmark = needs_chromium
PAGES = _site_pages()


# Every page loads as a reader would see it (conftest.check_page). The pages with live explorers get the same checks
# in test_live_explorers.py, on the one visit that also drives their explorers: here they are in the slow set.
@pytest.mark.parametrize('page_path', sweep(PAGES, keep=[p for p in PAGES if p not in _live_pages()]))
def test_page_loads_offline(open_page, sel, page_path):
    check_page(open_page(page_path, width=1280), sel, page_path)


def test_bleu_page_one_live_explorer(open_page, sel):
    "The BLEU lesson: the live explorer where the widget was, the equations typeset, prose, callouts, no frozen widget"
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
    assert p.locator('.jupyter-widgets').count() == 0, 'no saved (frozen) ipywidgets view'
    assert p.locator('.tme-live').count() == 1
    assert 'the guard arrived late because of the rain' in p.locator('.tme-live input[type=text]').first.input_value()
    assert p.locator('.site-source').count() >= 1, 'the source documents are named at their first mention'
    assert p.locator('details.code-fold:not([open]) >> text=Exported source').count() >= 5, 'exported source folded'
    code = '\n'.join(p.locator(sel['code']).all_inner_texts())
    assert 'modified_precision' in code, 'the shown code is found'
    assert 'test_eq(' not in code and 'test_close(' not in code, 'test statements run, not shown'
    # widget descriptions and HTMLMath typeset with MathJax 2's API (MathJax.Hub.Queue): mapped onto MathJax 3
    typeset = p.evaluate('''() => { const d = document.createElement('div'); d.textContent = 'where $p_n$ is'; document.body.append(d);
        MathJax.Hub.Queue(['Typeset', MathJax.Hub, d]);
        return MathJax.startup.promise.then(() => d.querySelectorAll('mjx-container').length); }''')
    assert typeset == 1
    assert v.problems() == [], '\n'.join(v.problems())


def test_course_navigation(open_page, sel):
    "The landing page, the sidebar's sections, previous/next, the offline search, the phone menu (and Quarto's copy button)"
    v = open_page('index.html', width=1280)
    p = v.page
    assert p.locator('h1.title').inner_text().strip() == 'Start here'
    sections = [t.strip() for t in p.locator(sel['sections']).all_text_contents()]
    assert sections[:3] == ['Foundations', 'Translation and captioning metrics', 'Speech and edit distance']
    assert sections[-2:] == ['Under the hood (you may skip these)', 'Reference']
    assert p.locator('#doc-002').count() == 1, 'the documents listed once'
    if sel['search_open']: p.click(sel['search_open'])
    p.fill(sel['search_input'], 'brevity penalty')
    p.locator(sel['search_results']).first.wait_for(state='visible')
    hrefs = [a.get_attribute('href') for a in p.locator(sel['search_results']).all()[:3]]
    assert any(re.match(r'(\./)?bleu\.html', h) for h in hrefs), f'the BLEU lesson among the first results: {hrefs}'
    v2 = open_page('chrf.html', width=390, height=800)
    q = v2.page
    assert q.locator(sel['sidebar']).is_hidden(), 'on a phone the lesson comes first'
    assert q.locator('.site-pager a[rel=prev]').count() == 1 and q.locator('.site-pager a[rel=next]').count() == 1
    q.click(sel['menu'])
    q.locator(sel['sidebar']).wait_for(state='visible')
    assert q.evaluate('document.documentElement.scrollWidth <= document.documentElement.clientWidth')
    if sel['copy_button']:   # Quarto's copy buttons respond (the copied state)
        v3 = open_page('bleu.html', width=1280)
        b = v3.page.locator(sel['copy_button'] + ':visible').first   # one not inside folded source
        b.scroll_into_view_if_needed()
        b.click()
        v3.page.locator(sel['copy_button'] + '.code-copy-button-checked').first.wait_for(state='attached', timeout=5000)
        assert v3.problems() == [], '\n'.join(v3.problems())
    assert v.problems() == [] and v2.problems() == []


# On a phone: no heading sticks out of the column (long ones with code wrap), no SVG is cut (a drawing wider than the
# column scales down: its content fits its own viewBox, or its box), no control of a live explorer sticks out of the
# explorer's box
_PHONE_JS = """() => {
  const vw = document.documentElement.clientWidth, bad = [];
  for (const h of document.querySelectorAll('main :is(h1, h2, h3, h4)')) {
    const r = h.getBoundingClientRect();
    if (h.scrollWidth > h.clientWidth + 1 || r.right > vw + 1) bad.push('heading: ' + h.textContent.trim().slice(0, 60));
  }
  for (const s of document.querySelectorAll('main svg')) {
    if (s.closest('mjx-container') || !s.getBoundingClientRect().width) continue;
    const vb = s.viewBox.baseVal, box = s.getBoundingClientRect(), bb = s.getBBox();
    const w = vb && vb.width ? vb.width : box.width;
    if (bb.x + bb.width > w + 2) bad.push('svg cut: ' + (s.getAttribute('aria-label') || s.textContent.slice(0, 40)));
    if (box.right > vw + 1) bad.push('svg past the page: ' + (s.getAttribute('aria-label') || ''));
  }
  for (const root of document.querySelectorAll('.tme-live')) {
    const b = root.getBoundingClientRect();
    for (const c of root.querySelectorAll('.tme-live-controls :is(select, input, textarea)')) {
      const r = c.getBoundingClientRect();
      if (r.right > b.right + 1 || r.left < b.left - 1) bad.push('control out of its box: ' + c.dataset.name);
    }
  }
  return {page: document.documentElement.scrollWidth - vw, bad};
}"""


@pytest.mark.parametrize('page_path', ['meta_eval.html', 'why_numbers_differ.html'])
def test_phone_width_nothing_cut(open_page, page_path):
    """Issue 37, at 390 px: the meta-evaluation scatter was cut off on the right, the 'why differ' conventions menu
    stuck out of its box, long headings with code overflowed. (The live explorers' styles are the page's once its
    script ran: checked after the page is ready.)"""
    if page_path not in PAGES: pytest.skip(f'{page_path} not in this site')
    v = open_page(page_path, width=390, height=844)
    p = v.page
    p.wait_for_function("() => document.querySelector('link[href*=\"explorers.css\"]') !== null")
    p.wait_for_timeout(200)
    got = p.evaluate(_PHONE_JS)
    assert got['page'] <= 0 and got['bad'] == [], f'{page_path} at 390 px: {got}'
    assert v.problems() == [], '\n'.join(v.problems())


def test_subtitle_shows_code_not_backticks(open_page):
    "Issue 37: the scale lesson's subtitle showed raw backticks"
    if 'scale.html' not in PAGES: pytest.skip('scale.html not in this site')
    d = open_page('scale.html', width=390, height=844).page.locator('.description, p.subtitle, .quarto-title .description').first
    assert '`' not in d.inner_text() and d.locator('code').count() >= 1
