"""The built site's links (`_docs/`, tools/build_site.py): no dead internal link or anchor, no placeholder URL.

Static: reads the HTML files (no browser). Every `href`/`src` inside the site must name a file of the site and, with
`#anchor`, an element with that id (or name) in it: the cross-references of nbdev (`bleu.html#corpus_bleu`), the
`[source]` links (`_src/textmetrics_edu/metrics/bleu.py.html#L31`), the sidebar, previous/next, table of contents, the
first mention of a source document (`index.html#doc-002`) and the download links (`notebooks/01_bleu.ipynb`).
"""
import html
import re
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest

from conftest import DOCS

pytestmark = pytest.mark.skipif(not (DOCS / 'index.html').exists(), reason='no built site (make docs)')

_script = re.compile(r'<(script|style)\b[^>]*>.*?</\1>', re.DOTALL | re.IGNORECASE)
_ref = re.compile(r'<(a|link|img|script|iframe|source)\b[^>]*?\s(href|src)\s*=\s*"([^"]*)"', re.IGNORECASE)
_id = re.compile(r'\s(?:id|name)\s*=\s*"([^"]*)"')


def _pages():
    return sorted(p for p in DOCS.rglob('*.html') if not p.relative_to(DOCS).as_posix().startswith('_static/'))


_ids_cache = {}


def _ids(page: Path) -> set:
    if page not in _ids_cache:
        _ids_cache[page] = {html.unescape(i) for i in _id.findall(_script.sub(' ', page.read_text('utf-8')))}
    return _ids_cache[page]


def dead_links(page: Path) -> list[str]:
    "The internal links of `page` that name no file of the site, or an anchor its target does not have"
    text = _script.sub(' ', page.read_text('utf-8'))
    # the saved ipywidgets state and the live explorers' data-spec are attributes, not links: only real tags count
    bad = []
    for tag, attr, url in _ref.findall(text):
        url = html.unescape(url)
        parts = urlsplit(url)
        if parts.scheme or url.startswith(('//', 'data:', 'javascript:', 'mailto:')) or not url: continue
        target = page if not parts.path else (page.parent / unquote(parts.path)).resolve()
        if not target.exists() or not target.resolve().is_relative_to(DOCS.resolve()):
            bad.append(f'{url} (no such file)'); continue
        if parts.fragment and target.suffix == '.html' and not {parts.fragment, unquote(parts.fragment)} & _ids(target):
            bad.append(f'{url} (no anchor #{parts.fragment} in {target.relative_to(DOCS.resolve())})')
    return bad


@pytest.mark.parametrize('page', [p.relative_to(DOCS).as_posix() for p in _pages()
                                  if not p.relative_to(DOCS).as_posix().startswith('_src/')])
def test_no_dead_internal_link_or_anchor(page):
    bad = dead_links(DOCS / page)
    assert bad == [], f'{page}: {len(bad)} dead links:\n' + '\n'.join(sorted(set(bad))[:40])


def test_source_pages_link_home():
    "The modules' pages (`_src/`, the targets of `[source]`): each links back to the site"
    pages = sorted((DOCS / '_src').rglob('*.py.html'))
    assert len(pages) > 20
    assert [p.relative_to(DOCS).as_posix() for p in pages if dead_links(p)] == []


def test_no_placeholder_urls():
    "settings.ini's `example.org` placeholders are never a link of the site"
    hits = [p.relative_to(DOCS).as_posix() for p in _pages() if 'example.org' in p.read_text('utf-8')]
    assert hits == []


def test_every_lesson_has_download_and_pager():
    for p in _pages():
        rel = p.relative_to(DOCS).as_posix()
        if rel.startswith('_src/'): continue
        text = p.read_text('utf-8')
        assert 'class="site-download"' in text, rel
        assert 'class="site-pager"' in text, rel
    assert (DOCS / '_static' / 'search.json').stat().st_size > 10_000, 'the offline search index'


def test_lessons_fit_the_reading_time():
    """Every lesson page of the course shows at most LESSON_WORDS words of prose and unfolded code (outputs and folded
    blocks not counted; Reference and Under-the-hood pages exempt): read in about 20 minutes (STYLE.md rule 20). The
    site build counts them (`_docs/page_words.json`, tools/site_course.visible_words)."""
    import json
    import sys
    sys.path.insert(0, str(DOCS.parent / 'tools'))
    import site_course as sc
    rows = json.loads((DOCS / 'page_words.json').read_text('utf-8'))
    lessons = {p: r for p, r in rows.items() if r['lesson']}
    assert len(lessons) >= 30, f'only {len(lessons)} lesson pages counted'
    over = {r['notebook']: r['words'] for r in lessons.values() if r['words'] > sc.LESSON_WORDS}
    assert not over, f'lessons over {sc.LESSON_WORDS} visible words (fold or move the engineering): {over}'
