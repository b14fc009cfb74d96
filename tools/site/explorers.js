// Live explorers: the glue between a page's plain HTML explorers and the package's own Python renderers.
//
// Each explorer is a <div class="tme-live" data-spec="{JSON}"> made by textmetrics_edu.live.live_explorer():
// controls (each with data-name), a status line, and an output box holding the static picture. This module
//   1. loads Pyodide (the CPython runtime in WebAssembly) from ./pyodide/ on this site, never from a CDN;
//   2. unpacks ./textmetrics_edu.zip (the package's source) into the runtime's file system;
//   3. on every change of a control, sends the controls' values to textmetrics_edu.live.render_call(spec, values)
//      and shows the HTML it returns. No metric logic lives here.
// Progress is visible to readers (the status line) and to tests: window.tmeLive = {state, pending, error,
// seconds}, with state 'loading' -> 'ready' (or 'failed': the static pictures stay).

import { loadPyodide } from './pyodide/pyodide.mjs';

const HERE = new URL('.', import.meta.url);
const live = (window.tmeLive = { state: 'loading', pending: 'the Python runtime (pyodide)', error: null, seconds: null });

function setStatus(root, text, state) {
  root.dataset.state = state;
  const s = root.querySelector('.tme-live-status');
  if (s) s.textContent = text;
}

async function boot() {
  const t0 = performance.now();
  const pyodide = await loadPyodide({ indexURL: new URL('pyodide/', HERE).href });
  live.pending = 'the package source (textmetrics_edu.zip)';
  const zip = await fetch(new URL('textmetrics_edu.zip', HERE));
  if (!zip.ok) throw new Error(`textmetrics_edu.zip: HTTP ${zip.status}`);
  pyodide.unpackArchive(await zip.arrayBuffer(), 'zip', { extractDir: '/tme' });
  live.pending = 'importing textmetrics_edu.live';
  pyodide.runPython("import sys; sys.path.insert(0, '/tme')");
  const mod = pyodide.pyimport('textmetrics_edu.live');
  live.seconds = (performance.now() - t0) / 1000;
  return mod;
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

function attach(root, mod) {
  const spec = root.dataset.spec;
  const out = root.querySelector('.tme-live-output');
  root.tmeRenders = 0;
  const update = () => {
    const v = values(root);
    for (const el of root.querySelectorAll('input[type=range]')) {
      const o = el.nextElementSibling;
      if (o && o.tagName === 'OUTPUT') o.textContent = el.value;
    }
    try {
      const html = mod.render_call(spec, JSON.stringify(v));
      out.innerHTML = html;
      root.tmeLast = { values: v, html };   // what the page sent and got (the browser test compares with CPython)
      root.tmeRenders += 1;
      root.dataset.renders = String(root.tmeRenders);
    } catch (err) {
      setStatus(root, `error in the live explorer: ${err.message.split('\n').slice(-2).join(' ')}`, 'error');
      console.warn(err);
    }
  };
  let timer = null;
  const soon = () => { clearTimeout(timer); timer = setTimeout(update, 120); };
  for (const el of root.querySelectorAll('[data-name]')) {
    el.disabled = false;
    el.addEventListener(el.tagName === 'SELECT' || el.type === 'checkbox' ? 'change' : 'input', soon);
  }
  setStatus(root, 'Live: the package runs in your browser; change the text or the controls.', 'live');
  update();
}

function main() {
  const roots = [...document.querySelectorAll('.tme-live')];
  if (!roots.length || window.tmeLiveStarted) return;
  window.tmeLiveStarted = true;
  const css = document.createElement('link');
  css.rel = 'stylesheet';
  css.href = new URL('explorers.css', HERE).href;
  document.head.appendChild(css);
  for (const r of roots) setStatus(r, 'Loading the Python runtime (a few seconds) ... the picture below is static until then.', 'loading');
  if (typeof WebAssembly !== 'object') {
    live.state = 'failed'; live.error = 'no WebAssembly in this browser';
    for (const r of roots) setStatus(r, 'Static picture: this browser has no WebAssembly to run the explorer.', 'static');
    return;
  }
  boot().then((mod) => {
    for (const r of roots) attach(r, mod);
    live.pending = null;
    live.state = 'ready';
    document.documentElement.dataset.tmeLive = 'ready';
  }).catch((err) => {
    live.state = 'failed';
    live.error = `${live.pending}: ${err}`;
    for (const r of roots) setStatus(r, `Static picture: the live explorer could not start (${live.error}).`, 'static');
    console.warn('textmetrics_edu live explorers:', err);
  });
}

if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', main);
else main();
