// MathJax 3 on both sites (tools/build_site.py `mathjax_head` loads this file just before MathJax itself, from
// _docs/_static/mathjax-config.js): the configuration, and MathJax 2's API mapped onto MathJax 3.
window.MathJax = {
  tex: {inlineMath: [['$', '$'], ['\\(', '\\)']], displayMath: [['$$', '$$'], ['\\[', '\\]']],
        processEscapes: true, processEnvironments: true, tags: 'ams'},
  options: {enableMenu: false, ignoreHtmlClass: 'tex2jax_ignore'},
  loader: {load: []},
  svg: {fontCache: 'global'}
};
// The widget manager typesets with MathJax 2's API (MathJax.Hub.Queue): map it onto MathJax 3.
document.addEventListener('DOMContentLoaded', function () {
  var MJ = window.MathJax;
  if (!MJ || MJ.Hub || !MJ.startup) return;
  function then(f) { MJ.startup.promise = MJ.startup.promise.then(f).catch(function (e) { console.warn(e); }); }
  MJ.Hub = {
    Config: function () {},
    Queue: function () {
      for (var i = 0; i < arguments.length; i++) {
        var a = arguments[i];
        if (Array.isArray(a) && a[0] === 'Typeset') {
          (function (el) { then(function () { return MJ.typesetPromise(el ? [el] : undefined); }); })(a[2]);
        } else if (typeof a === 'function') { then(a); }
      }
    }
  };
});
