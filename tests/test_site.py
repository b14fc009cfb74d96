"""The built documentation site (`_docs/`, made by tools/build_site.py) in headless Chromium, offline.

Every page is served from 127.0.0.1; every request that is not to that server is blocked and recorded. Each page
must load with no console error, no failed request and no blocked request; the BLEU page must show its explorer
(the widget manager renders the saved widget state). Screenshots go to /tmp/site_*.png.
Needs Debian's `chromium` (tools/system-packages.txt) and the `playwright` package (which drives it; it never
downloads a browser here). Builds the site first when `_docs/` is missing or older than the notebooks.
"""
import functools
import http.server
import os
import shutil
import subprocess
import sys
import threading
from pathlib import Path
from urllib.parse import urlparse

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS, NBS = ROOT / '_docs', ROOT / 'nbs'
CHROMIUM = shutil.which('chromium') or ('/usr/bin/chromium' if Path('/usr/bin/chromium').exists() else None)
ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
        '--disable-background-networking', '--disable-component-update', '--disable-sync']

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="Debian's chromium is not installed "
                                "(apt-get install chromium; tools/install-system-deps.sh does it)")

sys.path.insert(0, str(ROOT / 'tools'))
from build_site import find_notebooks, page_name  # noqa: E402

PAGES = [page_name(p.relative_to(NBS)).as_posix() for p in find_notebooks(NBS)]


def _stale() -> bool:
    index = DOCS / 'index.html'
    if not index.exists(): return True
    # the notebooks are the source (textmetrics_edu/*.py are rewritten by every nbdev_export, so not compared)
    inputs = [*NBS.rglob('*.ipynb'), ROOT / 'tools' / 'build_site.py', ROOT / 'package-lock.json']
    newest = max(p.stat().st_mtime for p in inputs if p.exists())
    return index.stat().st_mtime < newest or any(not (DOCS / p).exists() for p in PAGES)


@pytest.fixture(scope='session')
def site():
    "_docs/, built now if missing or older than the notebooks"
    if _stale():
        r = subprocess.run([sys.executable, 'tools/build_site.py', '--no-export'], cwd=ROOT,
                           capture_output=True, text=True)
        assert r.returncode == 0, f'tools/build_site.py failed:\n{r.stdout[-4000:]}\n{r.stderr[-4000:]}'
    return DOCS


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *a): pass


@pytest.fixture(scope='session')
def server(site):
    "http://127.0.0.1:<free port>/ serving _docs/"
    handler = functools.partial(_QuietHandler, directory=str(site))
    httpd = http.server.ThreadingHTTPServer(('127.0.0.1', 0), handler)
    t = threading.Thread(target=httpd.serve_forever, daemon=True)
    t.start()
    yield f'http://127.0.0.1:{httpd.server_address[1]}/'
    httpd.shutdown()
    httpd.server_close()


@pytest.fixture(scope='session')
def browser():
    from playwright.sync_api import sync_playwright
    os.environ.setdefault('PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD', '1')
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        yield b
        b.close()


class Visit:
    "One page opened offline: what it asked for, what failed, what it logged"
    def __init__(self, browser, server, page_path, width=1400, height=900):
        self.base = urlparse(server)
        self.ctx = browser.new_context(viewport={'width': width, 'height': height}, service_workers='block')
        self.blocked, self.failed, self.errors, self.bad_status = [], [], [], []
        self.ctx.route('**/*', self._route)
        self.page = self.ctx.new_page()
        self.page.on('console', lambda m: self.errors.append(f'console.{m.type}: {m.text}') if m.type == 'error' else None)
        self.page.on('pageerror', lambda e: self.errors.append(f'page error: {e}'))
        self.page.on('requestfailed', lambda r: self.failed.append(f'{r.url} ({r.failure})')
                     if r.url not in self.blocked else None)
        self.page.on('response', lambda r: self.bad_status.append(f'{r.status} {r.url}') if r.status >= 400 else None)
        self.response = self.page.goto(server + page_path, wait_until='load')
        self.settle()

    def _route(self, route):
        u = urlparse(route.request.url)
        if u.scheme in ('data', 'blob') or (u.hostname, u.port) == (self.base.hostname, self.base.port):
            route.continue_()
        else:
            self.blocked.append(route.request.url)
            route.abort()

    def settle(self):
        "Wait until MathJax has typeset and the widget manager has drawn the saved widgets"
        p = self.page
        p.wait_for_load_state('networkidle')
        p.wait_for_function("() => !window.MathJax || (window.MathJax.startup && window.MathJax.startup.promise)",
                            timeout=30_000)
        p.evaluate("() => window.MathJax && window.MathJax.startup ? window.MathJax.startup.promise.then(() => 1) : 1")
        if p.locator('script[type="application/vnd.jupyter.widget-view+json"]').count():
            p.wait_for_selector('.jupyter-widgets', state='attached', timeout=30_000)
        p.wait_for_load_state('networkidle')

    def problems(self):
        res = [f'blocked external request: {u}' for u in self.blocked]
        res += [f'failed request: {u}' for u in self.failed] + [f'HTTP {s}' for s in self.bad_status] + self.errors
        if self.response is None or not self.response.ok:
            res.append(f'page did not load: {self.response and self.response.status}')
        return res

    def close(self): self.ctx.close()


@pytest.mark.parametrize('page_path', PAGES)
def test_page_loads_offline(site, server, browser, page_path):
    v = Visit(browser, server, page_path)
    try:
        assert v.problems() == [], f'{page_path}:\n' + '\n'.join(v.problems())
        p = v.page
        assert p.locator('h1.title').count() == 1 and p.locator('h1.title').inner_text().strip()
        links = p.locator('.site-sidebar a')
        assert links.count() == len(PAGES), 'every page is in the sidebar'
        assert p.locator('.site-sidebar a.active').count() == 1
        # nothing the page refers to points outside the site (a/href to elsewhere is fine: not loaded)
        ext = p.evaluate("""() => [...document.querySelectorAll('script[src],link[href],img[src],iframe[src]')]
            .map(e => e.src || e.href).filter(u => u && !u.startsWith(location.origin) && !u.startsWith('data:'))""")
        assert ext == []
        # math: no raw TeX delimiters left in rendered markdown when MathJax is on the page
        assert p.locator('.jp-MarkdownCell mjx-merror').count() == 0
        if page_path == 'index.html': p.screenshot(path='/tmp/site_index.png')
    finally:
        v.close()


def test_bleu_page_shows_explorer(site, server, browser):
    assert 'bleu.html' in PAGES
    v = Visit(browser, server, 'bleu.html')
    try:
        assert v.problems() == [], '\n'.join(v.problems())
        p = v.page
        p.screenshot(path='/tmp/site_bleu.png')
        assert p.locator('mjx-container').count() > 5, 'the equations are typeset'
        prose = '\n'.join(p.locator('.jp-MarkdownCell').all_inner_texts())
        assert '$$' not in prose and ':::' not in prose, 'no raw TeX or fenced-div markup left'
        assert p.locator('.callout').count() >= 1, 'callouts are drawn as boxes'
        box = p.locator('.jupyter-widgets.widget-vbox').first
        box.wait_for(state='visible', timeout=30_000)
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
        p.add_style_tag(content='.site-navbar { position: static !important; }')   # not over the element shot
        box.scroll_into_view_if_needed()
        box.screenshot(path='/tmp/site_bleu_explorer.png')
        # jslink-free static page: the controls are drawn and usable (no Python behind them)
        hyp.first.fill('a different hypothesis')
        assert hyp.first.input_value() == 'a different hypothesis'
        assert v.problems() == [], '\n'.join(v.problems())
    finally:
        v.close()
