"""Shared test helpers: where the repository's real data lives, a strict line reader, and the browser fixtures
(the built site served on loopback, one headless Chromium per run, pages waited on until explicitly ready)."""
import json
import os
import shutil
import sys
from pathlib import Path

import pytest
from hypothesis import settings

# Property tests draw random examples; in CI they are derandomized (a fixed sequence), so that a run is
# reproducible and a rare draw cannot fail one submission and pass the next. Locally they stay random.
settings.register_profile('ci', derandomize=True, print_blob=True)
if os.environ.get('CI'): settings.load_profile('ci')

DATA = Path(__file__).parent / 'data'
WMT22_EN_DE = DATA / 'mt' / 'wmt22_en-de'


def read_lines(path):
    "One segment per line, exactly as the files hold them (the final newline removed)."
    text = Path(path).read_text(encoding='utf-8')
    lines = text.split('\n')
    if lines[-1] == '': lines.pop()
    return lines


def read_jsonl(path, encoding='utf-8') -> list:
    "The records of a JSON-lines file, one per line (the file is closed again)."
    with open(path, encoding=encoding) as f: return [json.loads(line) for line in f]


def render_in_fresh_python(code: str, heavy=('numpy', 'scipy', 'pandas')) -> tuple[list, str]:
    """Run `code` (Python that sets `h`, an HTML string) in a new interpreter importing this checkout; returns (the
    `heavy` modules it imported, sorted; h). For the "renders with the standard library alone" checks."""
    import subprocess, sys
    root = Path(__file__).parents[1]
    prog = f"import sys\n{code}\nprint(sorted({{k.split('.')[0] for k in sys.modules}} & {set(heavy)!r})); print(h)"
    r = subprocess.run([sys.executable, '-c', prog], capture_output=True, text=True, cwd=root,
                       env={**os.environ, 'PYTHONPATH': str(root)})
    assert r.returncode == 0, r.stderr
    mods, h = r.stdout.split('\n', 1)
    return eval(mods), h.rstrip('\n')


def load_wmt22():
    "WMT22 en-de: {'refs_A', 'refs_B', 'systems': {name: hyps}, 'official': {(system, metric): score}}."
    d = WMT22_EN_DE
    official = {}
    for line in (d / 'official_automatic_scores.tsv').read_text().splitlines()[1:]:
        s, m, v = line.split('\t')
        official[s, m] = float(v)
    systems = {f.stem: read_lines(f) for f in sorted((d / 'sys').glob('*.de'))}
    return dict(refs_A=read_lines(d / 'ref.A.de'), refs_B=read_lines(d / 'ref.B.de'), systems=systems, official=official)


@pytest.fixture(scope='session')
def wmt22():
    "WMT22 en-de: {'refs_A', 'refs_B', 'systems': {name: hyps}, 'official': {(system, metric): score}}."
    return load_wmt22()


# ---------------------------------------------------------------- the slow set (`--slow`, `make test-slow`)
# `make test` (the README's command, under 10 minutes on a 2-core machine) runs every check on a representative
# real-data slice: per metric one system or a sample of segments against the standard tool, and every page and
# explorer in the browser. The exhaustive sweeps (all systems, all references, every option combination) carry
# `@pytest.mark.slow`: deselected unless `--slow` is given (or TME_SLOW=1). `make test-slow` runs them alone
# (`pytest tests --slow -m slow`); CI runs both. The assertions are the same; only the inputs differ.
def pytest_addoption(parser):
    parser.addoption('--slow', action='store_true', default=False,
                     help='also run the tests marked slow (the exhaustive real-data sweeps; make test-slow)')


def pytest_configure(config):
    config.addinivalue_line('markers', 'slow: an exhaustive sweep, run only with --slow (make test-slow)')


def run_slow(config) -> bool:
    return config.getoption('--slow') or bool(os.environ.get('TME_SLOW'))


def sweep(values, keep, ids=None, several=False):
    """The parameters of an exhaustive sweep for `pytest.mark.parametrize`: the values in `keep` (the representative
    slice) run by default, every other value is marked slow. `ids`: a function of the value, as parametrize's;
    `several`: each value is a tuple of several arguments (`parametrize('a,b', ...)`)."""
    keep = list(keep)
    missing = [k for k in keep if k not in values]
    assert not missing, f'sweep: {missing} not among the values'
    return [pytest.param(*(v if several else (v,)), marks=() if v in keep else pytest.mark.slow, id=ids(v) if ids else None)
            for v in values]


# the WMT22 en-de systems, in load_wmt22's order (known at collection time, for `sweep`)
WMT22_SYSTEMS = sorted(f.stem for f in (WMT22_EN_DE / 'sys').glob('*.de'))


def pytest_collection_modifyitems(config, items):
    if run_slow(config): return
    slow = [i for i in items if i.get_closest_marker('slow') is not None]
    if slow:
        items[:] = [i for i in items if i.get_closest_marker('slow') is None]
        config.hook.pytest_deselected(items=slow)
    config._tme_slow_deselected = len(slow)


# ---------------------------------------------------------------- the standard tools' outputs, computed in advance
# A test module may define `start_reference_jobs(items)`: called once the run's tests are known (after -k/-m
# selection), with that module's selected tests, it starts the slow reference computations those tests compare
# against (Perl ROUGE-1.5.5, sacreBLEU's TER) in other processes. They run while the earlier test files run, on the
# core pytest leaves idle; each test then takes the tool's output from there (or computes it itself if it is
# missing). What is compared, and against what, is unchanged. `stop_reference_jobs()` is called at the end.
# Under pytest-xdist (`make test` runs `-n 2 --dist loadfile` when it is installed) every worker collects every test but
# runs only some files, so a module's jobs start in the worker that runs it, when its first test starts.
XDIST_WORKER = os.environ.get('PYTEST_XDIST_WORKER')


def pytest_collection_finish(session):
    # a run that selects nothing (a wrong path, an over-eager -k) is an error, not pytest's quiet exit 5
    if not session.items and not session.config.getoption('collectonly', False):
        n_slow = getattr(session.config, '_tme_slow_deselected', 0)
        raise pytest.UsageError('no tests selected: nothing would be checked' +
                                (f' ({n_slow} slow tests deselected: add --slow to run them)' if n_slow else ''))
    modules = {}
    for item in session.items:
        mod = getattr(item, 'module', None)
        if mod is not None and hasattr(mod, 'start_reference_jobs'): modules.setdefault(mod, []).append(item)
    session.config._tme_ref_modules, session.config._tme_ref_items = [], modules
    if XDIST_WORKER: return   # started by pytest_runtest_setup, in the worker that runs the module
    for mod, items in modules.items(): _start_reference_jobs(session.config, mod)


def _start_reference_jobs(config, mod):
    if mod in config._tme_ref_modules: return
    config._tme_ref_modules.append(mod)
    mod.start_reference_jobs(config._tme_ref_items[mod])


def pytest_runtest_setup(item):
    mod = getattr(item, 'module', None)
    if XDIST_WORKER and mod is not None and mod in getattr(item.config, '_tme_ref_items', {}):
        _start_reference_jobs(item.config, mod)


def pytest_sessionfinish(session):
    for mod in getattr(session.config, '_tme_ref_modules', []):
        if hasattr(mod, 'stop_reference_jobs'): mod.stop_reference_jobs()


# ---------------------------------------------------------------- the built site in a browser (one per test run)
# Browser test files use these fixtures: `site` (the built _docs/), `site_server` (its loopback URL), `browser` (one
# headless Chromium for the whole run), `open_page` (a page opened offline and waited on until it is ready) and `sel`
# (the selectors of the site that was built). tools/build_site.py builds the static site, or with `quarto` on PATH
# the Quarto site (`PATH=<quarto>/bin:$PATH make test` tests that one); the tests check whichever `_docs/` holds.
ROOT = Path(__file__).resolve().parents[1]
DOCS, NBS = ROOT / '_docs', ROOT / 'nbs'
CHROMIUM = shutil.which('chromium') or ('/usr/bin/chromium' if Path('/usr/bin/chromium').exists() else None)
# Offline without request interception (interception made page loads stall on a busy machine): every host name
# fails to resolve and every request not to 127.0.0.1 goes to a proxy on a closed port, so it fails at once. The
# tests still see every request (`Visit.external` records those that left the site).
CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
                 '--disable-background-networking', '--disable-component-update', '--disable-sync',
                 '--disable-dev-shm-usage', '--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1',
                 '--proxy-server=http://127.0.0.1:9', '--proxy-bypass-list=127.0.0.1']
# Generous: a page that is ready in 3 s alone may take far longer on a loaded 2-core machine. A page that is not
# ready by then fails with what it was still waiting for.
PAGE_TIMEOUT_MS = 120_000
needs_chromium = pytest.mark.skipif(CHROMIUM is None, reason="Debian's chromium is not installed "
                                    "(apt-get install chromium; tools/install-system-deps.sh does it)")


def _build_site():
    import sys
    sys.path.insert(0, str(ROOT / 'tools'))
    import build_site
    return build_site


# Under pytest-xdist each worker gets its share of the cores for PyTorch's, faiss's and BLAS's thread pools (set before
# any test module imports them; see tools/build_site.py's share_cores): two workers of two spinning threads each on
# two cores slow each other down.
if os.environ.get('PYTEST_XDIST_WORKER_COUNT'): _build_site().share_cores(int(os.environ['PYTEST_XDIST_WORKER_COUNT']))


def _site_pages():
    "The page of every notebook, as tools/build_site.py names them"
    b = _build_site()
    return [b.site_page(p.relative_to(NBS)).as_posix() for p in b.find_notebooks(NBS)]


# ---------------------------------------------------------------- what every page of the built site must be
# Every control of a page responds: the live explorers (`.tme-live`), the search box and the phone menu. The saved
# ipywidgets views (frozen: no Python behind them) are not on the site.
# (`sel['controls']`: those whose response the tests check)
_UNRESPONSIVE_JS = """controls => [...document.querySelectorAll('input, select, textarea, button, .jupyter-widgets')]
    .filter(e => !e.closest(controls))
    .map(e => e.outerHTML.slice(0, 120))"""
# Nothing is cut at the right: the page does not scroll sideways, and a block wider than its box scrolls inside it
_CUT_JS = """() => {
  const cut = [];
  const scrolls = e => { for (; e && e !== document.body; e = e.parentElement) {
      const o = getComputedStyle(e).overflowX; if (o === 'auto' || o === 'scroll') return true; } return false; };
  for (const e of document.querySelectorAll('main pre, main table, main .jp-OutputArea-output, main mjx-container, main img')) {
    if (e.scrollWidth > e.clientWidth + 2 && !scrolls(e)) cut.push(e.tagName + ' ' + (e.textContent || '').slice(0, 60));
    const r = e.getBoundingClientRect(), m = document.querySelector('main').getBoundingClientRect();
    if (r.width && r.right > m.right + 2 && !scrolls(e.parentElement)) cut.push('past main: ' + e.tagName + ' ' + (e.textContent || '').slice(0, 60));
  }
  return {page: document.documentElement.scrollWidth - document.documentElement.clientWidth, cut};
}"""


def check_page(v, sel, page_path):
    """What every page of the site must be, as a reader opens it (`v`: a ready `Visit`, 1280 px wide): no console error,
    failed or external request; one title; every page in the sidebar, this one active; nothing loaded from elsewhere;
    no MathJax error; no control that does not respond; nothing cut at the right"""
    assert v.problems() == [], f'{page_path}:\n' + '\n'.join(v.problems())
    p = v.page
    assert p.locator('h1.title').count() == 1 and p.locator('h1.title').inner_text().strip()
    links = p.locator(sel['sidebar_links'])
    assert links.count() == len(_site_pages()), 'every page is in the sidebar'
    assert p.locator(sel['sidebar_links'] + '.active').count() == 1
    # nothing the page refers to points outside the site (a/href to elsewhere is fine: not loaded)
    ext = p.evaluate("""() => [...document.querySelectorAll('script[src],link[href],img[src],iframe[src]')]
        .map(e => e.src || e.href).filter(u => u && !u.startsWith(location.origin) && !u.startsWith('data:'))""")
    assert ext == []
    # math: no raw TeX delimiters left in rendered markdown when MathJax is on the page
    assert p.locator(f"{sel['prose']} mjx-merror").count() == 0
    assert p.evaluate(_UNRESPONSIVE_JS, sel['controls']) == [], 'a control that does not respond (a frozen widget)'
    over = p.evaluate(_CUT_JS)
    assert over['page'] <= 0 and over['cut'] == [], f'{page_path} at 1280 px: {over}'
    if page_path == 'index.html': p.screenshot(path='/tmp/site_index.png')


def _live_pages():
    "The built site's pages with a live explorer (none when the site is not built yet)"
    return sorted(p.name for p in DOCS.glob('*.html') if 'tme-live' in p.read_text('utf-8')) if DOCS.exists() else []



# What the two renderers draw differently: a page's sidebar links, its prose (the markdown cells: not code, not
# outputs), its fixed navigation bar, the sidebar's section titles, the sidebar and the button that shows it on a
# phone, the shown code, the search (`search_open`: what to click first, if anything; its box; its result links) and
# `controls`: the inputs whose response tests check elsewhere (the live explorers: test_live_explorers.py; the search
# and the phone menu: test_course_navigation; Quarto's copy buttons too). The rest (h1.title, .callout, MathJax's markup,
# the live explorers, the previous/next links, the documents' anchors) is the same on both.
SELECTORS = {
    'static': dict(sidebar_links='.site-sidebar a', prose='.jp-MarkdownCell', navbar='.site-navbar',
                   sections='.site-sidebar .site-section', sidebar='.site-sidebar', menu='.site-menu',
                   code='.jp-InputArea', search_open=None, search_input='.site-search input',
                   search_results='.site-search-results a', copy_button=None,
                   controls='.tme-live, .site-search, .site-navbar'),
    'quarto': dict(sidebar_links='#quarto-sidebar a.sidebar-link:not([data-bs-toggle])', navbar='#quarto-header',
                   prose='#quarto-document-content :is(p, li, h1, h2, h3, h4, h5, h6, blockquote, th, td):not(.cell *)',
                   sections='#quarto-sidebar .sidebar-item-section > .sidebar-item-container .sidebar-item-text',
                   sidebar='#quarto-sidebar', menu='.quarto-btn-toggle', code='#quarto-document-content div.sourceCode',
                   search_open='#quarto-search .aa-DetachedSearchButton', search_input='.aa-DetachedOverlay input.aa-Input',
                   search_results='.aa-DetachedOverlay .aa-Item a', copy_button='.code-copy-button',
                   controls='.tme-live, #quarto-header, .quarto-btn-toggle, .code-copy-button'),
}


def _site_stale(pages) -> bool:
    index = DOCS / 'index.html'
    # the live explorers' script and the builder's name: a site built before them lacks them (the tests need both)
    if not index.exists() or not (DOCS / '_static' / 'live' / 'explorers.js').exists() or \
            not (DOCS / _build_site().BUILDER_FILE).exists(): return True
    # the notebooks are the source (textmetrics_edu/*.py are rewritten by every export, so not compared), with the course
    # data and the site's tools
    inputs = [*NBS.rglob('*.ipynb'), NBS / 'course.yml', *(ROOT / 'tools' / n for n in ('build_site.py', 'site_course.py', 'site_preprocessors.py')),
              *(ROOT / 'tools' / 'site').iterdir(),
              ROOT / '_quarto.yml', ROOT / 'package-lock.json']
    newest = max(p.stat().st_mtime for p in inputs if p.exists())
    return index.stat().st_mtime < newest or any(not (DOCS / p).exists() for p in pages)


@pytest.fixture(scope='session')
def site():
    "_docs/, built now (tools/build_site.py --no-export) if missing or older than the notebooks"
    import subprocess, sys
    import fcntl, hashlib, tempfile
    # one build at a time (pytest-xdist workers each ask): the others wait for it, then find the site current
    lock = Path(tempfile.gettempdir()) / f'textmetrics_edu_site_{hashlib.sha1(str(ROOT).encode()).hexdigest()[:12]}.lock'
    with open(lock, 'w') as fh:
        fcntl.flock(fh, fcntl.LOCK_EX)
        if _site_stale(_site_pages()):
            r = subprocess.run([sys.executable, 'tools/build_site.py', '--no-export'], cwd=ROOT, capture_output=True, text=True)
            assert r.returncode == 0, f'tools/build_site.py failed:\n{r.stdout[-4000:]}\n{r.stderr[-4000:]}'
    return DOCS


@pytest.fixture(scope='session')
def site_kind(site) -> str:
    "Which renderer built _docs/: 'static' (nbconvert) or 'quarto' (tools/build_site.py records it)"
    kind = (site / _build_site().BUILDER_FILE).read_text().strip()
    assert kind in SELECTORS, f'{kind!r}: not a site builder the tests know ({sorted(SELECTORS)})'
    return kind


@pytest.fixture(scope='session')
def sel(site_kind) -> dict:
    "The selectors of the site that was built (SELECTORS)"
    return SELECTORS[site_kind]


@pytest.fixture(scope='session')
def site_server(site):
    "http://127.0.0.1:<free port>/ serving _docs/ (a thread of this process)"
    import functools, http.server, threading

    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *a): pass

    class Server(http.server.ThreadingHTTPServer):
        def handle_error(self, request, client_address):   # a page closed mid-download (the browser hung up): not ours
            if not isinstance(sys.exc_info()[1], (ConnectionResetError, BrokenPipeError)):
                super().handle_error(request, client_address)
    httpd = Server(('127.0.0.1', 0), functools.partial(Quiet, directory=str(site)))
    httpd.daemon_threads = True
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    yield f'http://127.0.0.1:{httpd.server_address[1]}/'
    httpd.shutdown()
    httpd.server_close()


@pytest.fixture(scope='session')
def browser():
    "One headless Chromium (Debian's, driven by playwright; no browser download) for the whole test run"
    if CHROMIUM is None: pytest.skip("Debian's chromium is not installed (tools/install-system-deps.sh)")
    pytest.importorskip('playwright')
    from playwright.sync_api import sync_playwright
    os.environ.setdefault('PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD', '1')
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True, timeout=PAGE_TIMEOUT_MS)
        yield b
        b.close()


# Installed in every page before its own scripts: records the DOMContentLoaded and load events.
_INIT_JS = """
window.__tme = {dom: false, load: false, mj: null, mjDone: false, mjError: null};
document.addEventListener('DOMContentLoaded', () => { window.__tme.dom = true; });
window.addEventListener('load', () => { window.__tme.load = true; });
"""

# What the page is still waiting for: [] when it is ready. Conditions, each only where the page has the thing:
# the DOMContentLoaded and load events; every saved widget view drawn by the widget manager (each view script's
# widget-subarea holds at least as many widget views (Lumino `.lm-Widget` elements: not every control has the
# `.jupyter-widgets` class, ToggleButtons has not) as the view's model tree in the saved state); MathJax's
# `MathJax.startup.promise` resolved and not replaced since (the site's shim chains the widgets' typesetting onto
# that promise, so a new promise means more typesetting is queued).
_PENDING_JS = """() => {
  const t = window.__tme, pending = [];
  if (!t) return ['the page script (no window.__tme: navigation not committed yet)'];
  if (!t.dom) pending.push('DOMContentLoaded event');
  if (!t.load) pending.push('load event (document.readyState=' + document.readyState + ')');
  const stateTag = document.querySelector('script[type="application/vnd.jupyter.widget-state+json"]');
  if (stateTag) {
    let state = {};
    try { state = JSON.parse(stateTag.textContent).state || {}; } catch (e) { pending.push('widget state JSON: ' + e); }
    const size = (id, seen) => {
      if (seen.has(id) || !state[id]) return 0;
      seen.add(id);
      const kids = (state[id].state || {}).children || [];
      return 1 + kids.reduce((n, k) => n + size(String(k).replace(/^IPY_MODEL_/, ''), seen), 0);
    };
    const views = [...document.querySelectorAll('script[type="application/vnd.jupyter.widget-view+json"]')];
    let want = 0, drawn = 0, missing = [];
    for (const v of views) {
      let id; try { id = JSON.parse(v.textContent).model_id; } catch (e) { continue; }
      if (!state[id]) continue;                        // no saved state: the manager draws nothing here
      want++;
      const sub = v.previousElementSibling;
      const n = sub && sub.classList.contains('widget-subarea') ? sub.querySelectorAll('.lm-Widget').length : 0;
      if (n >= size(id, new Set())) drawn++; else missing.push(id.slice(0, 8) + ' (' + n + '/' + size(id, new Set()) + ' elements)');
    }
    if (drawn < want) pending.push('widget views drawn: ' + drawn + ' of ' + want + '; not yet: ' + missing.slice(0, 5).join(', '));
  }
  if (document.querySelector('script[src*="mathjax"]')) {
    const MJ = window.MathJax, p = MJ && MJ.startup && MJ.startup.promise;
    if (!p) pending.push('MathJax: not started (no MathJax.startup.promise)');
    else {
      if (t.mj !== p) {
        t.mj = p; t.mjDone = false;
        p.then(() => { if (t.mj === p) t.mjDone = true; },
               e => { if (t.mj === p) { t.mjDone = true; t.mjError = String(e); } });
      }
      if (!t.mjDone) pending.push('MathJax typesetting (MathJax.startup.promise not resolved)');
    }
  }
  return pending;
}"""


def new_context(browser, width=1400, height=900, timeout_ms=PAGE_TIMEOUT_MS):
    "A fresh browser context (its own cache, storage and workers) with the readiness script installed in every page"
    ctx = browser.new_context(viewport={'width': width, 'height': height}, service_workers='block')
    ctx.set_default_timeout(timeout_ms)
    ctx.set_default_navigation_timeout(timeout_ms)
    ctx.add_init_script(_INIT_JS)
    return ctx


class Visit:
    """One page of the site opened offline in a fresh browser context, waited on until ready (`_PENDING_JS`).
    Records what it asked for: `external` (requests that left 127.0.0.1: blocked), `failed`, `bad_status`,
    `errors` (console errors and uncaught exceptions); `problems()` lists them all."""
    def __init__(self, browser, server, page_path, width=1400, height=900, timeout_ms=PAGE_TIMEOUT_MS, ctx=None):
        from urllib.parse import urlparse
        self.path, self.origin = page_path, urlparse(server)
        # `ctx`: a context shared with other pages (`new_context`), which closes it; by default the visit has its own
        self.own_ctx = ctx is None
        self.ctx = new_context(browser, width, height, timeout_ms) if ctx is None else ctx
        self.external, self.failed, self.errors, self.bad_status, self.inflight = [], [], [], [], {}
        self.page = p = self.ctx.new_page()
        if not self.own_ctx: p.set_viewport_size({'width': width, 'height': height})
        p.on('console', lambda m: self.errors.append(f'console.{m.type}: {m.text}') if m.type == 'error' else None)
        p.on('pageerror', lambda e: self.errors.append(f'page error: {e}'))
        p.on('request', self._request)
        p.on('requestfinished', lambda r: self.inflight.pop(id(r), None))
        p.on('requestfailed', self._failed)
        p.on('response', lambda r: self.bad_status.append(f'{r.status} {r.url}') if r.status >= 400 else None)
        self.response = None
        self.wait_ready(timeout_ms, goto=server + page_path)

    def _local(self, url):
        from urllib.parse import urlparse
        u = urlparse(url)
        return u.scheme in ('data', 'blob', 'about') or (u.hostname, u.port) == (self.origin.hostname, self.origin.port)

    def _request(self, r):
        if not self._local(r.url): self.external.append(r.url)
        self.inflight[id(r)] = r.url

    def _failed(self, r):
        self.inflight.pop(id(r), None)
        if self._local(r.url): self.failed.append(f'{r.url} ({r.failure})')

    def pending(self):
        "What the page is still waiting for ([] when ready)"
        return self.page.evaluate(_PENDING_JS)

    def wait_ready(self, timeout_ms=PAGE_TIMEOUT_MS, goto=None):
        "Navigate (if `goto`) and wait for the explicit readiness conditions; fail saying what is still pending"
        import time
        from playwright.sync_api import TimeoutError as PWTimeout
        t0 = time.monotonic()
        try:
            if goto: self.response = self.page.goto(goto, wait_until='commit')
            left = max(1, timeout_ms - 1000 * (time.monotonic() - t0))
            self.page.wait_for_function(f'() => ({_PENDING_JS})().length === 0', polling=100, timeout=left)
        except PWTimeout:
            try: pend = self.pending()
            except Exception as e: pend = [f'(could not ask the page: {e})']
            pytest.fail(f'{self.path}: not ready after {time.monotonic() - t0:.0f} s; still pending: {pend}; '
                        f'requests in flight: {sorted(self.inflight.values()) or "none"}; '
                        f'problems so far: {self.problems(ready=False) or "none"}', pytrace=False)
        self.ready_seconds = time.monotonic() - t0

    def problems(self, ready=True):
        res = [f'blocked external request: {u}' for u in self.external]
        res += [f'failed request: {u}' for u in self.failed] + [f'HTTP {s}' for s in self.bad_status] + self.errors
        if ready and (self.response is None or not self.response.ok):
            res.append(f'page did not load: {self.response and self.response.status}')
        if ready and self.page.evaluate('() => window.__tme && window.__tme.mjError'):
            res.append(f'MathJax failed: {self.page.evaluate("() => window.__tme.mjError")}')
        return res

    def close(self): self.ctx.close() if self.own_ctx else self.page.close()


@pytest.fixture(scope='session')
def site_context(browser, site_server):
    """One browser context for the run's pages, as a reader's browser with several lessons open: the site's live
    explorers share one Python runtime (a SharedWorker) between the open pages of a context, so it starts once per
    run instead of once per page (each start compiles ~13 MB of WebAssembly: a page per test in contexts of their own
    kept both cores busy). A page of the site stays open (the runtime lives while a page uses it); the first page
    that needs the runtime may wait for it."""
    ctx = new_context(browser)
    keep = ctx.new_page()
    keep.goto(site_server + 'live.html', wait_until='commit')
    yield ctx
    ctx.close()


@pytest.fixture
def open_page(browser, site_server, site_context):
    "open_page('bleu.html') -> a ready `Visit` in the run's shared context (`site_context`); closed after the test"
    visits = []

    def _open(page_path, **kw):
        visits.append(Visit(browser, site_server, page_path, ctx=site_context, **kw))
        return visits[-1]
    yield _open
    for v in visits: v.close()
