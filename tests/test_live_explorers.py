"""The live explorers: the package's own Python running in the reader's browser (Pyodide), offline.

In CPython: `import textmetrics_edu` imports the standard library only; the explorers' modules import and render
the same HTML with numpy, regex, matplotlib, scipy, ipywidgets and nltk hidden (what Pyodide has).
In the built site (`_docs/`, made by tools/build_site.py: the static site or Quarto's), served on 127.0.0.1 and opened
in headless Chromium with every other request blocked: on each page with a live explorer, wait for the runtime
(window.tmeLive), then for every explorer type a new text and change each control, and require the HTML the page got
to equal `textmetrics_edu.app.live.render_call(spec, values)` computed here in CPython, with no console error and no failed
or external request. Screenshots before and after: /tmp/live_<page>_<k>_{before,after}.png.
"""
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from conftest import DOCS, NBS, ROOT, check_page, needs_chromium
from textmetrics_edu.app.live import render_call, site_explorer, site_explorer_names
from textmetrics_edu.views.explorer import get_explorer

SITE_EXPLORERS = site_explorer_names()   # every declared explorer (derived from the declarations, no list)

HEAVY = ('numpy', 'scipy', 'matplotlib', 'ipywidgets', 'regex', 'nltk', 'pandas', 'sklearn')
READY_TIMEOUT_MS = 240_000  # the runtime: ~13 MB to compile and start; generous for a loaded 2-core machine
RENDER_TIMEOUT_MS = 60_000
# Screenshots of every explorer before and after its controls change (/tmp/live_<page>_<k>_{before,after}.png), to look
# at: TME_SHOTS=1 (about 0.4 s an explorer)
SHOTS = os.environ.get('TME_SHOTS') == '1'

# the pages with live explorers, derived from the lessons that place one (`site_explorer('name')` in a notebook: the
# page its notebook becomes), live.html (which shows them all) first; and any other page of a built site that has one
PLACED = r"site_explorer\(\\?['\"](\w+)\\?['\"]\)"


def placed_explorers() -> dict:
    "{notebook path: the explorers it places}, for every notebook of nbs/ that places one"
    import re
    out = {}
    for nb in sorted(NBS.glob('*.ipynb')):
        names = set(re.findall(PLACED, nb.read_text('utf-8')))
        if names: out[nb] = names
    return out


def _pages_with_explorers() -> list:
    sys.path.insert(0, str(ROOT / 'tools'))
    from build_site import site_page
    pages = sorted({site_page(nb.relative_to(NBS)).as_posix() for nb in placed_explorers()} - {'live.html'})
    if DOCS.exists():
        pages += sorted(p.name for p in DOCS.glob('*.html') if p.name not in pages and p.name != 'live.html'
                        and 'tme-live' in p.read_text('utf-8'))
    return ['live.html'] + pages


PAGES = _pages_with_explorers()


# ----------------------------------------------------------------------------------------------------------------
# CPython: the browser subset imports with the standard library alone
# ----------------------------------------------------------------------------------------------------------------
def _run(code: str, path: Path = ROOT) -> str:
    r = subprocess.run([sys.executable, '-c', code], capture_output=True, text=True, cwd=path,
                       env={**os.environ, 'PYTHONPATH': str(path)})
    assert r.returncode == 0, r.stderr[-3000:]
    return r.stdout


def test_import_is_standard_library_only():
    out = _run("import sys, textmetrics_edu as t; print(sorted({m.split('.')[0] for m in sys.modules})); "
               "print(len(t.__all__), 'corpus_bleu' in dir(t), t.__doc__ is not None)")
    mods, info = out.splitlines()
    assert not set(eval(mods)) & set(HEAVY), f'imported by `import textmetrics_edu`: {set(eval(mods)) & set(HEAVY)}'
    assert info.split()[1:] == ['True', 'True']
    out = _run("import textmetrics_edu as t; from textmetrics_edu import corpus_bleu; import textmetrics_edu.lm.perplexity;"
               "print(callable(t.perplexity), corpus_bleu.__module__, {'bleu', 'cer'} <= set(t.METRICS), "
               "all(hasattr(t, n) for n in t.__all__))")
    assert out.split() == ['True', 'textmetrics_edu.metrics.bleu', 'True', 'True']


def _hide(mods) -> str:
    return f"""
import importlib.abc, sys
class _Hide(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path, target=None):
        if name.split('.')[0] in {tuple(mods)!r}: raise ImportError('hidden: ' + name)
sys.meta_path.insert(0, _Hide())
"""


_BLOCKED = _hide(m for m in HEAVY if m != 'nltk')  # nltk: the shipped Porter stemmer (in the zip) stands in


@pytest.fixture(scope='module')
def browser_bundle(tmp_path_factory):
    "What the site ships to the browser (tools/build_site.py live_zip), unpacked"
    import io, zipfile
    sys.path.insert(0, str(ROOT / 'tools'))
    from build_site import live_zip
    d = tmp_path_factory.mktemp('bundle')
    zipfile.ZipFile(io.BytesIO(live_zip())).extractall(d)
    return d


def test_explorers_render_the_same_without_numpy_and_regex(browser_bundle):
    "The shipped source, without numpy, regex, matplotlib, ... (as in Pyodide), gives the HTML of CPython with them."
    # each explorer's change is declared with it (`Explorer.example`): a new explorer brings its own, none is listed here
    changes = {n: get_explorer(n).example for n in SITE_EXPLORERS}
    code = _BLOCKED + f"""
import json
from textmetrics_edu.app.live import site_explorer
print(json.dumps({{n: [site_explorer(n).render(), site_explorer(n).render(**c)] for n, c in {changes!r}.items()}}))
"""
    got = json.loads(_run(code, browser_bundle))
    for name, c in changes.items():
        x = site_explorer(name)
        assert got[name] == [x.render(), x.render(**c)], name
    assert set(got) == set(SITE_EXPLORERS)
    # the new families' explorers render for real in the browser subset (not an error box)
    assert 'CIDEr = ' in got['cider'][1] and 'weighted F2 = ' in got['classification'][1]
    assert 'superglue score = 44.5' in got['glue'][0] and 'reproduced' in got['glue'][1]
    # MOS and meta-evaluation: their standard-library engines, not an error box
    assert "<td>4.000</td>" in got['mos'][0] and 'crowdmos 90%' in got['mos'][1] and 'rng:python' in got['mos'][1]
    assert '<b>0.970</b>' in got['meta_eval'][0] and 'Online-W: human score' in got['meta_eval'][1]
    assert 'tme-error' not in got['mos'][1] + got['meta_eval'][1]
    assert 'perplexity = inf' in got['ngram_lm'][1] and 'perplexity = ' in got['ngram_lm'][0]
    assert 'chrf: baseline' in got['significance'][1] and '<svg' in got['significance'][1]
    assert 'SARI = ' in got['sari'][1] and 'GLEU = ' in got['gec_gleu'][1]   # the rewriting metrics, not an error box
    assert 'first divergence' in got['diff'][0] and 'rouge-score' in got['diff'][1] and 'tme-error' not in ''.join(got['diff'])
    assert 'EM = 1' in got['squad'][1] and 'strict IOBES' in got['span_f1'][1] and 'pass@100 = ' in got['pass_at_k'][1]
    assert 'tme-error' not in got['squad'][1] + got['span_f1'][1] + got['pass_at_k'][1]
    assert 'win rate = 55.00 %' in got['alpaca_eval_win_rate'][1] and 'tme-error' not in got['alpaca_eval_win_rate'][1]
    assert '<td>gpt-4</td>' in got['bradley_terry'][0] and 'online Elo (k=16)' in got['bradley_terry'][1]
    assert 'tme-error' not in ''.join(got['bradley_terry'])
    assert 'bits per byte = ' in got['harness_perplexity'][1] and '<b>' in got['minimum_detectable_effect'][1]
    assert '<mark>' in got['janitor'][1] and 'max calibration error (mass bins)' in got['calibration'][1]
    assert 'agreement with ties = 2/4 = 50.0%' in got['llm_judge_agreement'][1] and 'asked once' in got['llm_judge_agreement'][1]
    assert 'MAUVE = ' in got['mauve'][0] and 'MAUVE* = ' in got['mauve'][1] and 'tme-error' not in ''.join(got['mauve'])
    # stemming: NLTK's Porter stemmer is shipped to the browser; without it the page says what is needed
    x = site_explorer('rouge')
    code = "import json; from textmetrics_edu.app.live import site_explorer; print(json.dumps(site_explorer('rouge').render(stem=True)))"
    assert json.loads(_run(_BLOCKED + code, browser_bundle)) == x.render(stem=True)
    assert 'needs the Python package' in json.loads(_run(_hide(HEAVY) + code))


def test_every_explorer_declares_an_example_change():
    "A reader's change of each explorer is part of its declaration (the test above renders it): none is missing"
    missing = [n for n in SITE_EXPLORERS if not get_explorer(n).example]
    assert not missing, f'explorers without `example=` (a change of their controls): {missing}'
    from textmetrics_edu.views.explorer import Explorer, Text
    with pytest.raises(ValueError, match='names no control'):
        Explorer('x', render_call, (Text('a'),), example=dict(a1='b'))


def test_every_explorer_is_placed_in_a_lesson():
    "Each declared explorer is on a lesson page (`site_explorer('name')` in a notebook other than the gallery, live)"
    placed = set().union(*(names for nb, names in placed_explorers().items() if not nb.stem.endswith('_live')))
    assert set(SITE_EXPLORERS) - placed == set(), 'declared, but no lesson shows it'


def test_every_placed_explorer_has_its_page_in_the_browser_test():
    "The browser test visits the page of every lesson that places an explorer (the comet_minilm one on learned_metric.html)"
    sys.path.insert(0, str(ROOT / 'tools'))
    from build_site import site_page
    assert {site_page(nb.relative_to(NBS)).as_posix() for nb in placed_explorers()} <= set(PAGES)
    assert 'learned_metric.html' in PAGES and 'bertscore.html' in PAGES


def test_cider_data_in_the_browser_zip(browser_bundle):
    "CIDEr's explorer reads the bundled COCO sample: the zip ships it, byte for byte"
    from textmetrics_edu.metrics.cider import coco_sample_refs
    f = 'textmetrics_edu/data/coco_thumb_sample/references.jsonl'
    assert (browser_bundle / f).read_bytes() == (ROOT / f).read_bytes()
    code = _BLOCKED + "from textmetrics_edu.metrics.cider import coco_sample_refs as c; print(len(c()), c()[0][0])"
    assert _run(code, browser_bundle).split('\n')[0] == f'{len(coco_sample_refs())} {coco_sample_refs()[0][0]}'


# ----------------------------------------------------------------------------------------------------------------
# The browser
# ----------------------------------------------------------------------------------------------------------------
# conftest.py's fixtures: `site` (rebuilt if stale, e.g. without _static/live/explorers.js), `site_server`, the run's one
# `browser` (outside requests blocked by Chromium flags, no request interception) and `open_page` (a `Visit`: the page
# waited on until ready, with every external, failed or >= 400 request and every console error recorded), in the run's
# one context (`site_context`), whose pages share one Python runtime as a reader's open lessons do.
browser_only = needs_chromium


def _wait_ready(page, page_path):
    try:
        page.wait_for_function("() => window.tmeLive && window.tmeLive.state !== 'loading'", timeout=READY_TIMEOUT_MS)
    except Exception:
        st = page.evaluate("() => window.tmeLive || null")
        pytest.fail(f'{page_path}: the live explorers were not ready after {READY_TIMEOUT_MS / 1000:.0f} s; '
                    f'still pending: {st and st.get("pending")!r} (window.tmeLive = {st!r})')
    st = page.evaluate("() => window.tmeLive")
    assert st['state'] == 'ready', f"{page_path}: the runtime failed: {st['error']}"
    return st


def _new_value(kind, cur, el):
    "A different value for a control (what a student would type or pick)"
    if kind == 'text': return cur + ' today' if cur.strip() else 'the'
    if kind == 'para': return cur + ' It rained. Then it rained again, all night, on the empty square.'
    if kind == 'lines': return cur + '\nthe guard came late since it rained'
    if kind == 'csv': return ', '.join(cur.split(',')[:-1] + [' foggy'])
    if kind == 'numbers':
        xs = [float(x) for x in cur.split(',')]
        return ', '.join(f'{x + (1.5 if i == 0 else 0):g}' for i, x in enumerate(xs))
    if kind in ('int', 'float'):
        lo, hi = el.get_attribute('min'), el.get_attribute('max')
        return lo if float(cur) != float(lo) else hi
    if kind == 'choice':
        opts = el.evaluate("e => [...e.options].map(o => o.value)")
        return opts[(opts.index(cur) + 1) % len(opts)]
    raise AssertionError(kind)


def _set(el, kind, value):
    if kind in ('text', 'para', 'lines', 'csv', 'numbers'): el.fill(value)
    elif kind in ('int', 'float'):
        el.evaluate("(e, v) => { e.value = v; e.dispatchEvent(new Event('input', {bubbles: true})); }", value)
    elif kind == 'choice': el.select_option(value)
    elif kind == 'flag': el.click()


# The values the page sends for its controls (explorers.js's `values`): the last render is of the final values when
# `tmeLast.values` equals these
_VALUES_JS = """r => { const v = {}; for (const el of r.querySelectorAll('[data-name]')) {
  v[el.dataset.name] = el.type === 'checkbox' ? el.checked : el.type === 'range' ? Number(el.value) : el.value; }
  return JSON.stringify(v) === JSON.stringify(r.tmeLast && r.tmeLast.values); }"""


def _check_root(page, root, label, shots, every=True):
    """The first render, then the controls of one explorer, each changed as a student would, the page's render compared
    with CPython's. `every`: True, every control one at a time; 'together': the first, then all the others at once
    (one render of all their new values); False: the first only; None: none."""
    spec = json.loads(root.get_attribute('data-spec'))
    page.wait_for_function("r => Number(r.dataset.renders) >= 1", arg=root.element_handle(), timeout=RENDER_TIMEOUT_MS)
    last = root.evaluate("r => r.tmeLast")
    assert last['html'] == render_call(spec, last['values']), f'{label}: first render differs from CPython'
    if shots: root.screenshot(path=f'/tmp/live_{label}_before.png')
    changed = []
    controls = root.locator('[data-name]')
    count = controls.count() if every else 0 if every is None else min(1, controls.count())
    steps = [[i] for i in range(count)] if every != 'together' else [[0], list(range(1, count))][:count]
    for group in (g for g in steps if g):
        n = int(root.get_attribute('data-renders'))
        before = last['html']
        names = []
        for i in group:
            el = controls.nth(i)
            name, kind = el.get_attribute('data-name'), el.get_attribute('data-kind')
            assert el.is_enabled(), f'{label}: control {name} still disabled'
            cur = el.input_value() if kind != 'flag' else None
            _set(el, kind, None if kind == 'flag' else _new_value(kind, cur, el))
            names.append(f'{name} ({kind})')
        page.wait_for_function("([r, n]) => Number(r.dataset.renders) > n", arg=[root.element_handle(), n],
                               timeout=RENDER_TIMEOUT_MS)
        page.wait_for_function(_VALUES_JS, arg=root.element_handle(), timeout=RENDER_TIMEOUT_MS)
        last = root.evaluate("r => r.tmeLast")
        want = render_call(spec, last['values'])
        assert last['html'] == want, f'{label}: after changing {", ".join(names)} the page differs from CPython'
        assert root.locator('.tme-live-output').inner_html() != '', label
        changed.append((names, last['html'] != before))
        if group == [0]:
            assert changed[0][1], f'{label}: typing into {names[0]} did not change the output'
    if shots: root.screenshot(path=f'/tmp/live_{label}_after.png')
    return changed


@browser_only
@pytest.mark.parametrize('page_path', PAGES)
def test_live_explorers_in_browser(site, open_page, sel, page_path):
    """Each page's explorers answer their controls as CPython does: the first control, then all the others changed
    together (one render of all their new values). live.html, which shows every explorer, is checked here on each
    one's first render; every control of every explorer, one at a time, in the slow set (on live.html)"""
    _live_page(site, open_page, sel, page_path, every='together' if page_path != 'live.html' else None)


@browser_only
@pytest.mark.slow
def test_every_control_of_every_explorer_on_the_live_page(site, open_page, sel):
    _live_page(site, open_page, sel, 'live.html', every=True)


def _live_page(site, open_page, sel, page_path, every):
    if not (site / page_path).exists(): pytest.fail(f'{page_path} is missing from the built site')
    t0 = time.time()
    visit = open_page(page_path, width=1280, height=1000)
    page = visit.page
    roots = page.locator('.tme-live')
    assert roots.count() >= 1, f'{page_path}: no live explorer'
    # the static picture is there (and stays without JavaScript)
    assert roots.first.locator('.tme-live-output').inner_text().strip()
    assert _wait_ready(page, page_path)['shared'], 'Chromium has SharedWorker: the open pages share one runtime'
    ready_s = time.time() - t0
    check_page(visit, sel, page_path)   # what every page must be (test_site.py checks the pages without explorers)
    checked_s = time.time() - t0
    page.add_style_tag(content=sel['navbar'] + ' { position: static !important; }')
    for k in range(roots.count()):
        root = roots.nth(k)
        root.scroll_into_view_if_needed()
        _check_root(page, root, f"{page_path.removesuffix('.html')}_{k}", shots=SHOTS and every is not None, every=every)
    assert visit.problems() == [], f'{page_path}:\n' + '\n'.join(visit.problems())
    print(f'{page_path}: live after {ready_s:.1f} s, page checked after {checked_s:.1f} s, {roots.count()} explorer(s) '
          f'checked after {time.time() - t0:.1f} s')


@browser_only
def test_static_picture_without_javascript(site_server, browser):
    "Without JavaScript each explorer shows the renderer's output for its initial values, controls disabled"
    from urllib.parse import urlparse
    origin = urlparse(site_server)
    external = []
    ctx = browser.new_context(java_script_enabled=False, service_workers='block')
    try:
        page = ctx.new_page()
        page.on('request', lambda r: external.append(r.url) if (urlparse(r.url).hostname, urlparse(r.url).port)
                != (origin.hostname, origin.port) and urlparse(r.url).scheme not in ('data', 'blob', 'about') else None)
        resp = page.goto(site_server + 'live.html', wait_until='load')
        assert resp is not None and resp.ok, 'live.html did not load'
        roots = page.locator('.tme-live')
        by_spec = {json.dumps(site_explorer(n).spec, sort_keys=True): n for n in SITE_EXPLORERS}
        names = [by_spec.get(roots.nth(k).get_attribute('data-spec')) for k in range(roots.count())]
        assert set(names) == set(SITE_EXPLORERS), names
        for k, name in enumerate(names):
            root = roots.nth(k)
            assert root.locator('[data-name]').first.is_disabled()
            # the static HTML is the CPython render of the initial values, compared as the browser parsed it: the same
            # DOM (`isEqualNode`: attribute order is not significant; the site's page writer may reorder an SVG's)
            same = root.locator('.tme-live-output').evaluate(
                "(o, h) => { const d = o.cloneNode(false); d.innerHTML = h; return o.isEqualNode(d); }",
                site_explorer(name).render())
            assert same, name
        page.screenshot(path='/tmp/live_nojs.png')
        assert external == [], f'live.html without JavaScript asked for outside URLs: {external}'
    finally:
        ctx.close()


def test_meta_eval_data_in_the_browser_zip(browser_bundle):
    "The meta-evaluation explorer reads the WMT22 ru-en system scores shipped with the package: the zip has them"
    f = 'textmetrics_edu/data/wmt22_ru-en_system/scores.tsv'
    assert (browser_bundle / f).read_bytes() == (ROOT / f).read_bytes()


@browser_only
@pytest.mark.parametrize('page_path, steps', [
    ('mos.html', [('a0', 'text', 'A s1 r1 4\nA s1 r2 5\nA s2 r1 2\nA s2 r2 3\nB s1 r1 5\nB s2 r2 4\nB s1 r2 4\nB s2 r1 5',
                   '<td>3.500</td>'), ('method', 'choice', 'crowdmos', 'crowdmos 95%'), ('confidence', 'range', '0.8', 'crowdmos 80%')]),
    ('meta_eval.html', [('exclude', 'text', 'ALMAnaCH-Inria', '<b>0.717</b>'),
                        ('exclude', 'text', '', '<b>0.970</b>'),
                        ('shift', 'range', '3', '<b>0.143</b>')]),
])
def test_mos_and_meta_eval_as_a_student(site, open_page, sel, page_path, steps):
    "Type votes / move the outlier as a student would; the page shows the CPython numbers (the lessons' figures)"
    visit = open_page(page_path, width=1300, height=1000)
    page = visit.page
    _wait_ready(page, page_path)
    page.add_style_tag(content=sel['navbar'] + ' { position: static !important; }')
    root = page.locator('.tme-live').first
    spec = json.loads(root.get_attribute('data-spec'))
    page.wait_for_function("r => Number(r.dataset.renders) >= 1", arg=root.element_handle(), timeout=RENDER_TIMEOUT_MS)
    root.scroll_into_view_if_needed()
    root.screenshot(path=f"/tmp/live_student_{page_path.removesuffix('.html')}_before.png")
    for name, how, value, expect in steps:
        el = root.locator(f'[data-name="{name}"]')
        n = int(root.get_attribute('data-renders'))
        if how == 'text': el.fill(value)
        elif how == 'choice': el.select_option(value)
        else: el.evaluate("(e, v) => { e.value = v; e.dispatchEvent(new Event('input', {bubbles: true})); }", value)
        page.wait_for_function("([r, n]) => Number(r.dataset.renders) > n", arg=[root.element_handle(), n],
                               timeout=RENDER_TIMEOUT_MS)
        last = root.evaluate("r => r.tmeLast")
        assert last['html'] == render_call(spec, last['values']), (page_path, name)
        assert expect in last['html'] and 'tme-error' not in last['html'], (page_path, name, last['html'][:300])
    root.screenshot(path=f"/tmp/live_student_{page_path.removesuffix('.html')}_after.png")
    assert visit.problems() == [], f'{page_path}:\n' + '\n'.join(visit.problems())


@browser_only
@pytest.mark.slow   # a Python runtime booted from scratch (~10 s); a dedicated Worker started from the snapshot: next test
def test_without_shared_workers_each_page_starts_its_own(site, browser, site_server):
    "A browser without SharedWorker (the page's fallback): the page starts a dedicated Worker and is as live"
    from conftest import Visit, new_context
    ctx = new_context(browser, 1300, 1000)
    ctx.add_init_script('delete window.SharedWorker;')
    visit = Visit(browser, site_server, 'bleu.html', ctx=ctx)
    try:
        page = visit.page
        st = _wait_ready(page, 'bleu.html')
        assert st['shared'] is False
        _check_root(page, page.locator('.tme-live').first, 'bleu_dedicated', shots=False)
        assert visit.problems() == [], '\n'.join(visit.problems())
    finally:
        ctx.close()


@browser_only
def test_next_page_starts_from_the_saved_runtime(site, browser, site_server, site_context):
    """Issue 37: each click to the next lesson in the same tab started Python from scratch (the SharedWorker dies with
    the page). The first runtime saves a snapshot of itself in Cache Storage; the next page's worker starts from it,
    shows its progress (step k of 4) and renders as CPython does. In the run's one context the SharedWorker never dies
    (a page keeps it), so the next page is a page with a dedicated Worker (SharedWorker hidden): the same start from
    the snapshot, in the same storage, as after a navigation."""
    from conftest import Visit
    first = Visit(browser, site_server, 'bleu.html', ctx=site_context)
    second = None
    try:
        _wait_ready(first.page, 'bleu.html')
        has_snapshot = """async () => (await (await caches.open('textmetrics_edu-live')).keys())
                          .some(r => r.url.includes('textmetrics_edu.snapshot?'))"""
        t0 = time.time()
        while not first.page.evaluate(has_snapshot):   # saved once the shared runtime's first page rendered
            assert time.time() - t0 < READY_TIMEOUT_MS / 1000, 'the runtime saved no snapshot in Cache Storage'
            time.sleep(0.25)
        second = site_context.new_page()
        errors = []
        second.on('console', lambda m: errors.append(m.text) if m.type in ('error', 'warning') and 'textmetrics_edu' in m.text else None)
        second.add_init_script('delete window.SharedWorker;')
        second.goto(site_server + 'chrf.html', wait_until='commit')
        st = _wait_ready(second, 'chrf.html')
        assert st['shared'] is False and st['snapshot'] == 'restored', st
        assert st['shown'][0] == 1 and st['shown'][-1] == 4, f"the progress steps shown: {st['shown']}"
        _check_root(second, second.locator('.tme-live').first, 'chrf_restored', shots=False, every=False)
        assert second.locator('.tme-live-progress').count() == 0, 'the progress bar goes once live'
        assert errors == [], errors
        print(f"next page from the snapshot: runtime in {st['seconds']:.2f} s")
    finally:
        first.close()
        if second is not None: second.close()
