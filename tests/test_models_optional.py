"""The model-based metrics (`textmetrics_edu.models`: torch, transformers, sentence-transformers, faiss) and scale-out
(`textmetrics_edu.scale`: Dask, Spark) are optional extras: importing the package, listing its API and registering
every metric (what the command line does) must load none of them. Each heavy library is imported inside the
functions that need it."""
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
HEAVY = ('torch', 'transformers', 'sentence_transformers', 'faiss', 'bert_score', 'mauve', 'torchmetrics', 'dask',
         'distributed', 'pyspark', 'sklearn')


def _loaded(code: str) -> list[str]:
    prog = f"import sys\n{code}\nprint(sorted({{m.split('.')[0] for m in sys.modules}} & {set(HEAVY)!r}))"
    r = subprocess.run([sys.executable, '-c', prog], capture_output=True, text=True, cwd=ROOT)
    assert r.returncode == 0, r.stderr
    return eval(r.stdout.strip().splitlines()[-1])


def test_import_list_and_register_load_no_heavy_engine():
    assert _loaded("import textmetrics_edu as t; t.__all__; dir(t); t.load_metrics()") == []


def test_models_and_scale_names_are_public():
    import textmetrics_edu as t
    names = t.public_names()
    assert 'dask_score' in names and names['dask_score'] == 'scale.engines'
    assert {m.split('.')[0] for m in names.values()} >= {'core', 'metrics', 'lm', 'stats', 'views', 'scale'}
