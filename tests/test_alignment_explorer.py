"""Alignment explorer (issue 9): user text is never read as mathtext, the heatmap fits the page column, and the
notebook's saved widget state (what the page shows before anything runs) is an instructive pair, not a trivial one."""
import base64
import io
import json
import re
import struct
from pathlib import Path

import matplotlib
import pytest

matplotlib.use('Agg')

from textmetrics_edu.views.alignment import (MAX_FIGURE_INCHES, alignment_explorer, plot_dp_matrix,
                                                render_alignment_html)
from textmetrics_edu.metrics.edit_distance import edit_distance

NB = Path(__file__).resolve().parent.parent / 'nbs' / '13_alignment_explorer.ipynb'
MATHTEXT = [r'$\cmd$', r'$\frac{1}{2}$', '$x^2$', '$', r'\$5', '$$', r'$\alpha$ and $']


def png_size(img_tag: str) -> tuple[int, int]:
    "Width and height (pixels) of an inline PNG <img>, from its IHDR chunk."
    data = base64.b64decode(re.search(r"base64,([^'\"]+)", img_tag).group(1))
    assert data[:8] == b'\x89PNG\r\n\x1a\n'
    return struct.unpack('>II', data[16:24])


@pytest.mark.parametrize('token', MATHTEXT)
def test_plot_draws_mathtext_as_typed(token):
    "Before: `$\\cmd$` raised ValueError while drawing; now every label is drawn as typed, never parsed as math."
    fig = plot_dp_matrix(edit_distance(f'price {token} now', f'{token} price'))
    fig.savefig(io.BytesIO(), format='png')
    ax = fig.axes[0]
    labels = ax.get_xticklabels() + ax.get_yticklabels()
    assert set(token.split()) <= {t.get_text() for t in labels}  # (word level: one label per token)
    assert all(t._preprocess_math(t.get_text())[1] is False for t in labels)  # (text, False): plain text


@pytest.mark.parametrize('token', MATHTEXT)
def test_renderer_survives_mathtext_and_escapes(token):
    out = render_alignment_html(f'<script>{token}</script> x', f'{token} y <u>', plot=True)
    assert "class='tme-error'" not in out and '<img' in out
    assert '<script>' not in out and '<u>' not in out and '&lt;script&gt;' in out and '&lt;u&gt;' in out


def test_widget_survives_mathtext():
    ex = alignment_explorer(hyp='a b', ref='a c')
    ex.controls['hyp'].value = r'$\cmd$ b'
    assert 'WER 1.0000' in ex.output.value and '<img' in ex.output.value


def test_heatmap_fits_the_page_column():
    "A long pair: the PNG is at most MAX_FIGURE_INCHES (720 px at 90 dpi) and scales down with the column."
    ref = ' '.join(f'w{i}' for i in range(45))
    hyp = ' '.join(f'w{i}' for i in range(2, 49))
    out = render_alignment_html(hyp, ref)
    img = re.search(r'<img [^>]*>', out).group(0)
    assert "max-width:100%" in img and 'height:auto' in img
    w, h = png_size(img)
    assert w <= MAX_FIGURE_INCHES[0] * 90 and h <= MAX_FIGURE_INCHES[1] * 90, (w, h)
    assert "style='max-width:100%;overflow-x:auto'" in out  # the wrapper, and the HTML-table form's
    assert "max-width:100%" in render_alignment_html(hyp, ref, plot='html')


def test_default_preset_is_instructive():
    "The explorer's preset pair has every operation and a shift (TER < WER), not identical strings."
    out = alignment_explorer().output.value
    assert 'WER 1.0000' in out and 'TER 0.3333' in out and '(H 3, S 1, D 2, I 3; N 6)' in out


def test_notebook_keeps_the_displayed_preset():
    """The notebook's saved state is the displayed explorer's: no later cell changes it (a cell did, so the page
    showed identical strings with WER 0). Checked on the notebook's source: the explorer shown is `ex`, built with
    the preset, and later cells drive a second one."""
    cells = [''.join(c['source']) if isinstance(c['source'], list) else c['source']
             for c in json.loads(NB.read_text())['cells'] if c['cell_type'] == 'code']
    shown = [k for k, src in enumerate(cells) if src.rstrip().endswith('\nex') or src.strip() == 'ex']
    assert len(shown) == 1
    assert 'ex = alignment_explorer()' in cells[shown[0]]
    assert not any(re.search(r'\bex\.controls\[[^\]]+\]\.value\s*=', src) for src in cells[shown[0]:])


def test_executed_notebook_saves_the_preset(tmp_path):
    "Executed as the site builds it (nbclient, widget state stored): the explorer's saved HTML is the preset's view."
    nbformat = pytest.importorskip('nbformat')
    nbclient = pytest.importorskip('nbclient')
    nb = nbformat.read(NB, as_version=4)
    from conftest import _build_site
    with _build_site().private_kernel() as km:   # the build's kernel: Unix sockets, no TCP port to race for
        nbclient.NotebookClient(nb, km=km, timeout=120, store_widget_state=True,
                                resources={'metadata': {'path': str(NB.parent)}}).execute()
    state = nb.metadata['widgets']['application/vnd.jupyter.widget-state+json']['state']
    views = [m['state'].get('value', '') for m in state.values() if m['model_name'] == 'HTMLModel']
    views = [v for v in views if 'WER' in v]
    assert views and all('WER 0.0000' not in v for v in views if 'D 2, I 3' in v)
    assert any('WER 1.0000' in v and 'TER 0.3333' in v for v in views)
