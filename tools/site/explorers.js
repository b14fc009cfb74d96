// Live explorers: the glue between a page's plain HTML explorers and the package's own Python renderers.
//
// Each explorer is a <div class="tme-live" data-spec="{JSON}"> made by textmetrics_edu.app.live.live_explorer():
// controls (each with data-name), a status line, and an output box holding the static picture. This one module
// plays two roles:
//   - in a worker (so the page stays responsive while Python starts): load Pyodide (CPython compiled to
//     WebAssembly) from ./pyodide/ on this site, never from a CDN; unpack ./textmetrics_edu.zip (the package's
//     source) into its file system; answer each {id, spec, values} with the HTML of
//     textmetrics_edu.app.live.render_call(spec, values);
//   - in the page: start that worker, enable the controls once it is ready, and on every change send the
//     controls' values and show the HTML that comes back. No metric logic lives here.
// The worker is a SharedWorker where the browser has them: every open page of the site talks to one Python runtime,
// so a second tab (or the next lesson opened while one is still open) is live at once instead of starting Python
// again. Elsewhere (no SharedWorker) each page starts its own dedicated Worker; the messages are the same.
// Progress, for readers (the status line) and tests: window.tmeLive = {state, pending, error, seconds, marks}, with
// state 'loading' -> 'ready' (or 'failed': the static pictures stay); marks: when each start-up step ended.

const HERE = new URL('.', import.meta.url);

// ---------------------------------------------------------------------------------------------------------------
// Worker: the Python side
// ---------------------------------------------------------------------------------------------------------------
// `report(message)`: tells the pages what the runtime is waiting for
async function startPython(report) {
  const t0 = performance.now(), marks = {};
  const mark = (what) => { marks[what] = Math.round(performance.now() - t0) / 1000; };   // seconds since the worker began
  const zip = fetch(new URL('textmetrics_edu.zip', HERE));   // asked for now, while the runtime loads
  const { loadPyodide } = await import('./pyodide/pyodide.mjs');
  mark('pyodide.mjs');
  const pyodide = await loadPyodide({ indexURL: new URL('pyodide/', HERE).href });
  mark('loadPyodide');
  report({ pending: 'the package source (textmetrics_edu.zip)' });
  const z = await zip;
  if (!z.ok) throw new Error(`textmetrics_edu.zip: HTTP ${z.status}`);
  pyodide.unpackArchive(await z.arrayBuffer(), 'zip', { extractDir: '/tme' });
  mark('unpack');
  report({ pending: 'importing textmetrics_edu.app.live' });
  pyodide.runPython("import sys; sys.path.insert(0, '/tme')");
  const live = pyodide.pyimport('textmetrics_edu.app.live');
  mark('import');
  return { live, seconds: (performance.now() - t0) / 1000, marks };
}

// One page's channel: `port` is the page's MessagePort (SharedWorker) or the worker's own scope (dedicated Worker).
function serve(port, ready) {
  ready.then(({ seconds, marks }) => port.postMessage({ ready: true, seconds, marks }),
             (err) => port.postMessage({ failed: String(err) }));
  port.onmessage = async ({ data }) => {
    const { live } = await ready;
    try { port.postMessage({ id: data.id, html: live.render_call(data.spec, data.values) }); }
    catch (err) { port.postMessage({ id: data.id, error: String(err).split('\n').slice(-2).join(' ') }); }
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
  const live = (window.tmeLive = { state: 'loading', pending: 'the Python runtime (pyodide)', error: null, seconds: null });
  const css = document.createElement('link');
  css.rel = 'stylesheet';
  css.href = new URL('explorers.css', HERE).href;
  document.head.appendChild(css);
  const fail = (why) => {
    live.state = 'failed';
    live.error = why;
    for (const r of roots) setStatus(r, `Static picture: the live explorer could not start (${why}).`, 'static');
    console.warn('textmetrics_edu live explorers:', why);
  };
  if (typeof WebAssembly !== 'object' || typeof Worker !== 'function') return fail('no WebAssembly or Web Workers');
  for (const r of roots) setStatus(r, 'Loading the Python runtime (a few seconds): the picture below is static until then.', 'loading');
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
    else if (data.pending) live.pending = data.pending;
    else if (data.failed) fail(`${live.pending}: ${data.failed}`);
    else if (data.ready) {
      live.seconds = data.seconds;
      live.marks = { ...data.marks, worker_started: workerStarted };   // where the time went (bench/bench_live_explorers.py)
      Promise.all(roots.map((r) => attach(r, call))).then(() => {
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
