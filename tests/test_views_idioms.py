"""The views' idioms have one name each (issue 32), measured on the exported source and on the explorers' declarations:
an error box is `views.html.error_box` (a renderer shows bad input in it by being `@error_boxed`), a colour is
`core.PALETTE.<role>`, and an explorer's control for an option of the metric it scores is that option's own control
(`views.explorer.option_control`, from the `Option`'s `label`/`ui`), never one typed beside the declaration."""
import ast
import re
import sys
from functools import partial
from pathlib import Path

import pytest

from textmetrics_edu.core import Metric, MetricInputError, PALETTE
from textmetrics_edu.core.registry import METRICS, discover_metrics
from textmetrics_edu.views.explorer import discover_explorers, get_explorer, option_control
from textmetrics_edu.views.html import error_box

PKG = Path(__file__).parent.parent / 'textmetrics_edu'
HEX = re.compile(r'#(?:[0-9a-fA-F]{6}|[0-9a-fA-F]{3})(?![0-9a-zA-Z_])')   # '#rrggbb' or '#rgb' (not '&#9632;')


def string_constants():
    "(module path, line, text) of every string constant of the package, f-strings' literal parts included"
    for p in sorted(PKG.rglob('*.py')):
        if p.name == '_modidx.py': continue
        for node in ast.walk(ast.parse(p.read_text(encoding='utf-8'))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                yield p.relative_to(PKG).as_posix(), node.lineno, node.value


def test_error_box_is_the_one_error_markup():
    assert error_box(MetricInputError("`n` must be 1 or more, got '0' <b>")) == \
        "<div class='tme-error'>`n` must be 1 or more, got &#x27;0&#x27; &lt;b&gt;</div>"
    elsewhere = [f'{p}:{n}' for p, n, s in string_constants() if 'tme-error' in s and p != 'views/html.py']
    assert elsewhere == [], f"the error box typed again (use views.html.error_box): {elsewhere}"


def test_palette_is_the_one_home_of_colours():
    assert all(HEX.fullmatch(c) for c in vars(PALETTE).values())
    elsewhere = [f'{p}:{n} {HEX.findall(s)}' for p, n, s in string_constants() if HEX.search(s) and p != 'core/results.py']
    assert elsewhere == [], f"a colour typed outside core.PALETTE (name its role there): {elsewhere}"


EXPLORER_NAMES = sorted(discover_explorers())


def _controls(ex):
    "keyword -> control, of the page and of Jupyter"
    return [*ex.kwargs.items(), *ex.jupyter.items()]


def retyped(ex) -> list:
    "The keywords of explorer `ex` named after an option of its metric whose control is not that option's own."
    by = {o.name: o for o in ex.metric.options} if ex.metric is not None else {}
    return [k for k, c in _controls(ex) if k in by and c.kind != 'fixed' and c != option_control(by[k], c.value)]


def test_a_retyped_option_is_caught():
    from textmetrics_edu.metrics.meteor import METEOR
    from textmetrics_edu.views.explorer import Explorer, Flag, Float
    render = get_explorer('meteor').render
    assert retyped(Explorer('x', render, kwargs=dict(alpha=Float(0.9, 0, 1, 0.1, 'alpha')), metric=METEOR)) == ['alpha']
    assert retyped(Explorer('x', render, jupyter=dict(synonyms=Flag(True, 'synonyms')), metric=METEOR)) == ['synonyms']
    assert retyped(Explorer('x', render, kwargs=dict(alpha=option_control(METEOR.options[0], 0.5)), metric=METEOR)) == []


@pytest.mark.parametrize('name', EXPLORER_NAMES)
def test_option_controls_come_from_the_metric(name):
    "A keyword named after an option of the explorer's metric has exactly that option's control (`Fixed`: no control)."
    ex = get_explorer(name)
    if ex.metric is None: pytest.skip('no metric spec')
    typed = retyped(ex)
    assert typed == [], (f"explorer {name!r}: {typed} re-typed beside {ex.metric.name!r}'s Options: declare the label "
                         f"and range on the Option (`label=`, `ui=`) and pass `options=` to `explorer`")


def _lesson_metrics(module) -> list:
    "The metric specs a views module reaches: those of the package modules its names come from (and the registry's)."
    discover_metrics()
    mods = {getattr(v, '__module__', None) or getattr(v, '__name__', None) for v in vars(module).values()}
    mods = {m for m in mods if isinstance(m, str) and m.startswith('textmetrics_edu.')
            and not m.startswith(('textmetrics_edu.views', 'textmetrics_edu.core'))}
    out = [v for m in mods if m in sys.modules for v in vars(sys.modules[m]).values() if isinstance(v, Metric)]
    for r in METRICS.values():
        fn = r.corpus_fn.func if isinstance(r.corpus_fn, partial) else r.corpus_fn
        if getattr(fn, '__module__', None) in mods and isinstance(r.metric, Metric): out.append(r.metric)
    return out


@pytest.mark.parametrize('name', EXPLORER_NAMES)
def test_an_explorer_of_a_metric_declares_it(name):
    "An explorer without `metric=` has no keyword control named after an option of a metric its lesson defines."
    ex = get_explorer(name)
    if ex.metric is not None: pytest.skip('declares its metric')
    found = {(k, m.name) for m in _lesson_metrics(sys.modules[ex.render.__module__])
             for k, c in _controls(ex) if c.kind != 'fixed' and k in {o.name for o in m.options}}
    assert found == set(), f"explorer {name!r}: controls for options of {sorted(found)}: declare `metric=`, `options=`"


def _hand_boxes(source: str) -> list:
    "The lines of `source` where `except MetricInputError` returns `error_box(...)` (the idiom `error_boxed` names)."
    return [node.lineno for node in ast.walk(ast.parse(source))
            if isinstance(node, ast.ExceptHandler) and getattr(node.type, 'id', None) == 'MetricInputError'
            and len(node.body) == 1 and isinstance(node.body[0], ast.Return)
            and getattr(getattr(node.body[0].value, 'func', None), 'id', None) == 'error_box']


def test_renderers_box_bad_input_by_one_decorator():
    "A renderer states its checks and is declared `@error_boxed`; none catches `MetricInputError` to return the box."
    assert _hand_boxes("def r(x):\n    try: y = f(x)\n    except MetricInputError as e: return error_box(e)\n") == [3]
    found = [f'{p.relative_to(PKG).as_posix()}:{n}' for p in sorted(PKG.rglob('*.py'))
             if p.name != '_modidx.py' and p.relative_to(PKG).as_posix() != 'views/html.py'
             for n in _hand_boxes(p.read_text(encoding='utf-8'))]
    assert found == [], f"declare the renderer @error_boxed (views.html) instead: {found}"
