// Live explorers: the glue between a page's plain HTML explorers and the package's own Python renderers.
//
// Each explorer is a <div class="tme-live" data-spec="{JSON}"> made by textmetrics_edu.app.live.live_explorer():
// controls (each with data-name), a status line, and an output box holding the static picture. This one module
// plays two roles:
//   - in a worker (so the page stays responsive while Python starts): load Pyodide (CPython compiled to
//     WebAssembly) from ./pyodide/ on this site, never from a CDN; unpack ./textmetrics_edu.zip (the package's
//     source) into its file system; answer each {id, spec, values} with the HTML of
//     textmetrics_edu.app.live.render_call(spec, values);
//   - in the page: start that worker, show its progress, enable the controls once it is ready, and on every change
//     send the controls' values and show the HTML that comes back. No metric logic lives here.
// The worker is a SharedWorker where the browser has them: every open page of the site talks to one Python runtime,
// so a second tab (or the next lesson opened while one is still open) is live at once instead of starting Python
// again. Elsewhere (no SharedWorker) each page starts its own dedicated Worker; the messages are the same.
// The next lesson in the same tab: the worker dies with the page, so the first runtime to start saves a memory
// snapshot of itself (Pyodide's `makeMemorySnapshot`: the interpreter with the package imported and its explorers'
// modules compiled) in the browser's Cache Storage, keyed by the package zip's SHA-256 and Pyodide's version; the next
// page's worker starts from it (`_loadSnapshot`) instead of initialising Python and importing the package again
// (bench/bench_live_explorers.py measures both starts). Without Cache Storage (a site served over plain HTTP from
// another host) every page starts afresh; a snapshot that does not load is deleted and the page starts afresh.
// Progress, for readers (the status line and its bar) and tests: window.tmeLive = {state, pending, step, steps, shown,
// error, seconds, marks, snapshot}, with state 'loading' -> 'ready' (or 'failed': the static pictures stay); step: the
// start-up step (of `steps`) under way; shown: the steps the status line showed; marks: when each step ended; snapshot:
// 'saved' (this start saved one), 'restored' (started from one) or null.

const HERE = new URL('.', import.meta.url);

// ---------------------------------------------------------------------------------------------------------------
// Worker: the Python side
// ---------------------------------------------------------------------------------------------------------------
const SNAPSHOTS = 'textmetrics_edu-live';   // the Cache Storage that keeps the runtime's snapshot between pages
const STEPS = 4;   // the start-up steps the page's progress counts: runtime, package, import, first render

async function snapshotStore() {   // null where the browser has no Cache Storage here (not a secure context) or refuses it
  try { return (typeof caches === 'object' && caches) ? await caches.open(SNAPSHOTS) : null; } catch (e) { return null; }
}

async function snapshotKey(zipBytes, version) {   // a URL (Cache Storage's key): this package build on this Pyodide
  const d = new Uint8Array(await crypto.subtle.digest('SHA-256', zipBytes));
  const hex = [...d.slice(0, 12)].map((b) => b.toString(16).padStart(2, '0')).join('');
  return new URL(`textmetrics_edu.snapshot?pyodide=${version}&zip=${hex}`, HERE).href;
}

// `report(message)`: tells the pages what the runtime is waiting for
async function startPython(report) {
  const t0 = performance.now(), marks = {};
  const mark = (what) => { marks[what] = Math.round(performance.now() - t0) / 1000; };   // seconds since the worker began
  const zip = fetch(new URL('textmetrics_edu.zip', HERE)).then((z) => {   // asked for now, while the runtime loads
    if (!z.ok) throw new Error(`textmetrics_edu.zip: HTTP ${z.status}`);
    return z.arrayBuffer();
  });
  const { loadPyodide, version } = await import('./pyodide/pyodide.mjs');
  mark('pyodide.mjs');
  const store = await snapshotStore();
  const key = store && await snapshotKey(await zip, version);
  let saved = null;
  if (store) saved = await store.match(key).then((r) => r && r.arrayBuffer()).catch(() => null);
  mark('snapshot_lookup');
  const indexURL = new URL('pyodide/', HERE).href;
  let pyodide = null;
  if (saved) {
    report({ pending: 'the Python runtime, from the copy an earlier page saved', step: 1 });
    try { pyodide = await loadPyodide({ indexURL, _loadSnapshot: saved }); }
    catch (err) { console.warn('textmetrics_edu: the saved runtime did not load; starting afresh:', err); store.delete(key); saved = null; }
  }
  if (!pyodide) {
    report({ pending: 'the Python runtime (pyodide: compiling CPython and starting it)', step: 1 });
    pyodide = await loadPyodide({ indexURL, _makeSnapshot: !!store });
  }
  mark('loadPyodide');
  report({ pending: 'the package source (textmetrics_edu.zip)', step: 2 });
  pyodide.unpackArchive(await zip, 'zip', { extractDir: '/tme' });   // files are not in the snapshot (data, lazy imports)
  mark('unpack');
  report({ pending: 'importing textmetrics_edu.app.live', step: 3 });
  if (!saved) pyodide.runPython("import sys; sys.path.insert(0, '/tme')");
  const live = pyodide.pyimport('textmetrics_edu.app.live');
  mark('import');
  let save = null;
  if (store && !saved) save = async () => {   // once the first page rendered: every explorer's modules, then the snapshot
    const t = performance.now();
    live.site_explorer_names();   // imports every views module (and the metrics they use)
    const snap = pyodide.makeMemorySnapshot();
    for (const k of await store.keys()) if (k.url !== key) await store.delete(k);   // older builds' snapshots
    await store.put(key, new Response(snap, { headers: { 'Content-Type': 'application/octet-stream' } }));
    return { bytes: snap.length, seconds: (performance.now() - t) / 1000 };
  };
  return { live, seconds: (performance.now() - t0) / 1000, marks, snapshot: saved ? 'restored' : null, save };
}

// One page's channel: `port` is the page's MessagePort (SharedWorker) or the worker's own scope (dedicated Worker).
function serve(port, ready) {
  ready.then(({ seconds, marks, snapshot }) => port.postMessage({ ready: true, seconds, marks, snapshot }),
             (err) => port.postMessage({ failed: String(err) }));
  port.onmessage = async ({ data }) => {
    const started = await ready;
    try { port.postMessage({ id: data.id, html: started.live.render_call(data.spec, data.values) }); }
    catch (err) { port.postMessage({ id: data.id, error: String(err).split('\n').slice(-2).join(' ') }); }
    if (started.save) {   // after the first reply: the page is live before the snapshot is taken
      const save = started.save;
      started.save = null;
      setTimeout(() => save().then((s) => port.postMessage({ saved: s }),
                                   (err) => console.warn('textmetrics_edu: the runtime snapshot was not saved:', err)), 50);
    }
  };
}

function workerMain() {
  if (typeof SharedWorkerGlobalScope !== 'undefined' && self instanceof SharedWorkerGlobalScope) {
    const ports = [];   // every page connected so far hears the start-up progress
    const ready = startPython((m) => { for (const p of ports) p.postMessage(m); });   // started once, for every page
    onconnect = ({ ports: [port] }) => { ports.push(port); serve(port, ready); };
  } else {
    serve(self, startPython((m) => postMessage(m)));
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Page: the controls
// ---------------------------------------------------------------------------------------------------------------
function setStatus(root, text, state) {
  root.dataset.state = state;
  const s = root.querySelector('.tme-live-status');
  if (s) s.textContent = text;
  if (state !== 'loading') root.querySelector('.tme-live-progress')?.remove();
}

// While the runtime starts: the status line says which step of STEPS it is on and for how long, and a bar fills
function showProgress(root, live, since) {
  const s = root.querySelector('.tme-live-status');
  if (!s || root.dataset.state !== 'loading') return;
  let bar = root.querySelector('.tme-live-progress');
  if (!bar) {
    bar = document.createElement('progress');
    bar.className = 'tme-live-progress';
    bar.max = STEPS;
    s.after(bar);
  }
  bar.value = live.step - 1 + 0.5;
  if (live.shown.at(-1) !== live.step) live.shown.push(live.step);   // the steps a reader saw (tests)
  const secs = Math.max(0, (performance.now() - since) / 1000).toFixed(1);
  s.textContent = `Starting Python in your browser, step ${live.step} of ${STEPS}: ${live.pending} (${secs} s). ` +
                  'The picture below is static until then.';
}

function values(root) {
  const v = {};
  for (const el of root.querySelectorAll('[data-name]')) {
    if (el.type === 'checkbox') v[el.dataset.name] = el.checked;
    else if (el.type === 'range') v[el.dataset.name] = Number(el.value);
    else v[el.dataset.name] = el.value;
  }
  return v;
}

function attach(root, call) {
  const out = root.querySelector('.tme-live-output');
  root.tmeRenders = 0;
  let asked = 0;
  const update = async () => {
    const v = values(root);
    for (const el of root.querySelectorAll('input[type=range]')) {
      const o = el.nextElementSibling;
      if (o && o.tagName === 'OUTPUT') o.textContent = el.value;
    }
    const mine = ++asked;
    const reply = await call(root.dataset.spec, JSON.stringify(v));
    if (mine !== asked) return;   // a newer change is on its way
    if (reply.error !== undefined) {
      setStatus(root, `error in the live explorer: ${reply.error}`, 'error');
      console.warn('textmetrics_edu live explorer:', reply.error);
      return;
    }
    out.innerHTML = reply.html;
    root.tmeLast = { values: v, html: reply.html };   // what the page sent and got (the browser test compares)
    root.tmeRenders += 1;
    root.dataset.renders = String(root.tmeRenders);
    if (root.dataset.state !== 'live') setStatus(root, 'Live: the package runs in your browser; change the text or the controls.', 'live');
  };
  let timer = null;
  const soon = () => { clearTimeout(timer); timer = setTimeout(update, 120); };
  for (const el of root.querySelectorAll('[data-name]')) {
    el.disabled = false;
    el.addEventListener(el.tagName === 'SELECT' || el.type === 'checkbox' ? 'change' : 'input', soon);
  }
  return update();
}

function pageMain() {
  const roots = [...document.querySelectorAll('.tme-live')];
  if (!roots.length || window.tmeLive) return;
  const live = (window.tmeLive = { state: 'loading', pending: 'the Python runtime (pyodide)', step: 1, steps: STEPS,
                                     error: null, seconds: null, snapshot: null, shown: [] });
  const css = document.createElement('link');
  css.rel = 'stylesheet';
  css.href = new URL('explorers.css', HERE).href;
  document.head.appendChild(css);
  let ticker = null;
  const fail = (why) => {
    clearInterval(ticker);
    live.state = 'failed';
    live.error = why;
    for (const r of roots) setStatus(r, `Static picture: the live explorer could not start (${why}).`, 'static');
    console.warn('textmetrics_edu live explorers:', why);
  };
  if (typeof WebAssembly !== 'object' || typeof Worker !== 'function') return fail('no WebAssembly or Web Workers');
  const since = performance.now();
  const progress = () => { for (const r of roots) showProgress(r, live, since); };
  for (const r of roots) r.dataset.state = 'loading';
  progress();
  ticker = setInterval(progress, 250);
  const workerStarted = Math.round(performance.now()) / 1000;   // seconds since navigation
  let worker;
  if (typeof SharedWorker === 'function') {
    const shared = new SharedWorker(import.meta.url, { type: 'module', name: 'textmetrics_edu' });
    worker = shared.port;
    shared.onerror = (e) => fail(`${live.pending}: ${e.message || 'worker error'}`);
    live.shared = true;
  } else {
    worker = new Worker(import.meta.url, { type: 'module', name: 'textmetrics_edu' });
    worker.onerror = (e) => fail(`${live.pending}: ${e.message || 'worker error'}`);
    live.shared = false;
  }
  const waiting = new Map();
  let next = 0;
  const call = (spec, vals) => new Promise((resolve) => {
    const id = ++next;
    waiting.set(id, resolve);
    worker.postMessage({ id, spec, values: vals });
  });
  worker.onmessage = ({ data }) => {
    if (data.id !== undefined) { waiting.get(data.id)(data); waiting.delete(data.id); }
    else if (data.pending) { live.pending = data.pending; live.step = data.step || live.step; progress(); }
    else if (data.saved) { live.snapshot = 'saved'; live.snapshot_bytes = data.saved.bytes; live.snapshot_seconds = data.saved.seconds; }
    else if (data.failed) fail(`${live.pending}: ${data.failed}`);
    else if (data.ready) {
      live.seconds = data.seconds;
      live.snapshot = data.snapshot || live.snapshot;
      live.pending = 'the first render of each explorer';
      live.step = STEPS;
      progress();
      live.marks = { ...data.marks, worker_started: workerStarted };   // where the time went (bench/bench_live_explorers.py)
      Promise.all(roots.map((r) => attach(r, call))).then(() => {
        clearInterval(ticker);
        live.pending = null;
        live.state = 'ready';
        document.documentElement.dataset.tmeLive = 'ready';
      });
    }
  };
}

if (typeof window === 'undefined') workerMain();
else if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', pageMain);
else pageMain();
