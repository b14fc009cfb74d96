"""The public API: every top-level name is defined once, and the optional extras stay optional: the model-based
metrics (`textmetrics_edu.models`: torch, transformers, sentence-transformers, faiss) and scale-out
(`textmetrics_edu.scale`: Dask, Spark) must not load when the package is imported, its API listed, or every metric
registered (what the command line does). Each heavy library is imported inside the functions that need it."""
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


def test_every_public_name_is_defined_once():
    """`from textmetrics_edu import X` must not depend on which folder is read first: a name exported by two modules
    (two different `gleu_counts`, two `CONVENTIONS`) would silently give one of them. Read from the modules' `__all__`."""
    import ast
    import textmetrics_edu as t
    root, seen, twice = Path(t.__file__).parent, {}, []
    for pkg in t.API_PACKAGES:
        for f in sorted((root / pkg).glob('*.py')):
            if f.name.startswith('_'): continue
            m = t._ALL.search(f.read_text(encoding='utf-8'))
            for n in (ast.literal_eval(m.group(1)) if m else ()):
                if n in seen: twice.append(f'{n}: {seen[n]} and {pkg}.{f.stem}')
                seen.setdefault(n, f'{pkg}.{f.stem}')
    assert twice == []
