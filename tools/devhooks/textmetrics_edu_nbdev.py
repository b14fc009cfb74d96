"""Make `nbdev_export` in this project's development environment export as `make export` does (tools/export.py).

nbdev 2 writes a cell routed to another module (`#| export views.bleu`) by appending it to that module's file, so a
bare `nbdev_export` run twice would duplicate every routed cell (and fail on a routed module not yet written). This
module is imported at start-up by a `.pth` file that `make setup` writes into the venv (`make hooks`); it waits for
`nbdev.doclinks` to be imported and replaces its `nbdev_export` with one that calls tools/export.py, so the command
people and tools run out of habit (`nbdev_export`, the before-stop check) gives the same files as `make export`.
Nothing else is changed, and nothing happens in a Python that never imports nbdev.
"""
import importlib.abc
import importlib.util
import sys
from pathlib import Path

TOOLS = Path(__file__).resolve().parent.parent   # tools/ of the repository whose venv this is


def _routed_export(path: str = None, procs=None, **kwargs):
    "nbdev_export for this project: every notebook, cells routed by role (`path` and `procs` as nbdev's are ignored)."
    spec = importlib.util.spec_from_file_location('textmetrics_edu_export', TOOLS / 'export.py')
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    mod.export()


class _Finder(importlib.abc.MetaPathFinder):
    "Patch `nbdev.doclinks.nbdev_export` right after nbdev imports it."
    def find_spec(self, name, path, target=None):
        if name != 'nbdev.doclinks': return None
        sys.meta_path.remove(self)
        spec = importlib.util.find_spec(name)
        if spec is None or spec.loader is None: return spec
        run = spec.loader.exec_module

        def exec_module(module):
            run(module)
            from fastcore.script import call_parse

            @call_parse
            def nbdev_export(path: str = None,  # ignored: every notebook is exported (routed modules need all)
                             procs: str = None):  # ignored
                "Export the notebooks to the package, cells routed to the modules of their roles (tools/export.py)"
                _routed_export(path, procs)
            module.nbdev_export = nbdev_export
        spec.loader.exec_module = exec_module
        return spec


if (TOOLS / 'export.py').exists() and 'nbdev.doclinks' not in sys.modules:
    sys.meta_path.insert(0, _Finder())


def clean_jupyter(path, model, contents_manager=None, **kwargs):
    """Jupyter's pre-save hook for this project (`make hooks` configures it): nbdev's `clean_jupyter` with the
    notebook's path made absolute. Jupyter passes the path relative to the server's root (`01_bleu.ipynb` when
    JupyterLab serves `nbs/`), which nbdev's trust step would look up from the server's working directory instead
    (a FileNotFoundError traceback on every save)."""
    from nbdev.clean import clean_jupyter as _clean
    root = getattr(contents_manager, 'root_dir', None)
    p = Path(path)
    if root and not p.is_absolute(): p = Path(root).expanduser() / p
    _clean(path=str(p.resolve()), model=model, contents_manager=contents_manager, **kwargs)
