"""The ipywidgets explorers carry their own table style (JupyterLab styles tables only inside rendered outputs, not
inside an ipywidgets HTML view), scoped so that it cannot restyle anything else of the notebook."""
import re

import pytest

pytest.importorskip('ipywidgets')
from textmetrics_edu.views.html import _WIDGET_CSS
from textmetrics_edu.views.bleu import bleu_explorer


def test_every_rule_is_scoped_to_the_widget():
    selectors = [s.strip() for block in re.findall(r'([^{}]+)\{', _WIDGET_CSS) for s in block.split(',')]
    assert selectors and all(s.startswith('.tme-widget') for s in selectors), selectors


def test_the_widget_view_holds_its_style_and_its_tables():
    v = bleu_explorer().output.value
    assert v.startswith("<div class='tme-widget'><style>") and v.endswith('</div>')
    assert v.count('<table') == 2 and 'border-collapse:collapse' in v and 'text-align:left' in v


def test_every_ipywidgets_explorer_shows_the_style():
    "The explorers built with `widget()` (alignment) and without it (GLUE, MOS, meta-evaluation) wrap their view the same way"
    from textmetrics_edu.views.alignment import alignment_explorer
    from textmetrics_edu.views.glue import benchmark_explorer
    assert alignment_explorer().output.value.startswith("<div class='tme-widget'><style>")
    assert benchmark_explorer().output.value.startswith("<div class='tme-widget'><style>")
    from textmetrics_edu.views.mos import mos_explorer
    from textmetrics_edu.views.meta_eval import meta_eval_explorer
    assert mos_explorer().output.value.startswith("<div class='tme-widget'><style>")
    assert meta_eval_explorer({'a': 0.1, 'b': 0.2, 'c': 0.3}, {'a': 1.0, 'b': 3.0, 'c': 2.0}).output.value.startswith(
        "<div class='tme-widget'><style>")
