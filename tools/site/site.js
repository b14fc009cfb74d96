// textmetrics_edu static site: the phone menu and the offline search (index: _static/search.json, made by
// tools/build_site.py at build time; nothing is requested from outside the site).
(function () {
  'use strict';
  const menu = document.querySelector('.site-menu');
  const sidebar = document.getElementById('site-sidebar');
  if (menu && sidebar) {
    menu.addEventListener('click', () => {
      const open = document.body.classList.toggle('site-menu-open');
      menu.setAttribute('aria-expanded', String(open));
      if (open) sidebar.scrollTop = (sidebar.querySelector('a.active') || sidebar).offsetTop - 80;
    });
  }
  const form = document.querySelector('.site-search');
  if (!form) return;
  const input = form.querySelector('input[type=search]');
  const box = form.querySelector('.site-search-results');
  const prefix = form.dataset.prefix || '';
  let index = null, loading = null;
  const load = () => loading || (loading = fetch(prefix + '_static/search.json').then(r => r.json()).then(d => {
    index = d.map(e => ({...e, hay: (e.pageTitle + ' ' + e.title + ' ' + e.text).toLowerCase(),
                               head: (e.pageTitle + ' ' + e.title).toLowerCase()}));
  }));
  const esc = s => s.replace(/[&<>"']/g, c => ({'&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;'}[c]));
  function snippet(text, words) {
    const low = text.toLowerCase();
    let at = Math.max(0, Math.min(...words.map(w => { const i = low.indexOf(w); return i < 0 ? Infinity : i; })) - 40);
    if (!isFinite(at)) at = 0;
    let s = esc(text.slice(at, at + 160));
    for (const w of words) s = s.replace(new RegExp('(' + w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&') + ')', 'ig'), '<mark>$1</mark>');
    return (at ? '… ' : '') + s + '…';
  }
  function search() {
    const q = input.value.trim().toLowerCase();
    const words = q.split(/\s+/).filter(w => w.length > 1);
    if (!words.length || !index) { box.hidden = true; box.innerHTML = ''; return; }
    const hits = [];
    for (const e of index) {
      if (!words.every(w => e.hay.includes(w))) continue;
      let score = 0;
      for (const w of words) score += (e.head.includes(w) ? 10 : 0) + Math.min(5, e.hay.split(w).length - 1);
      hits.push([score, e]);
    }
    hits.sort((a, b) => b[0] - a[0]);
    box.innerHTML = hits.length ? hits.slice(0, 12).map(([, e]) =>
      `<a href="${prefix}${e.page}${e.id ? '#' + e.id : ''}"><b>${esc(e.pageTitle)}</b>` +
      `${e.title && e.title !== e.pageTitle ? ' › ' + esc(e.title) : ''}<small>${snippet(e.text, words)}</small></a>`).join('')
      : '<p class="site-search-none">No match in the course.</p>';
    box.hidden = false;
  }
  input.addEventListener('focus', () => load().then(search));
  input.addEventListener('input', () => load().then(search));
  form.addEventListener('submit', ev => { ev.preventDefault(); const a = box.querySelector('a'); if (a) location.href = a.href; });
  document.addEventListener('click', ev => { if (!form.contains(ev.target)) box.hidden = true; });
  input.addEventListener('keydown', ev => { if (ev.key === 'Escape') { box.hidden = true; input.blur(); } });
})();
