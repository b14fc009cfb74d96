"""JupyterLab saves this project's notebooks without outputs: nbdev's pre-save hook, configured for this venv's Jupyter.

    .venv/bin/python tools/jupyter_hooks.py      (what `make hooks` runs)

writes `<venv>/etc/jupyter/jupyter_server_config.py`, which sets `ContentsManager.pre_save_hook` to `clean_jupyter`
below (loaded from this file: nothing is added to the venv's start-up, no `.pth`). It also removes what earlier
versions of `make hooks` installed: the `pre_save_hook` entry of `jupyter_server_config.json` naming
`textmetrics_edu_nbdev.clean_jupyter`, and the `textmetrics_edu_nbdev.pth` start-up hook that redirected
`nbdev_export` (export with `make export`, tools/export.py).
"""
from __future__ import annotations

import json
import sys
import sysconfig
from pathlib import Path

OLD_HOOK = 'textmetrics_edu_nbdev.clean_jupyter'


def clean_jupyter(path, model, contents_manager=None, **kwargs):
    """Jupyter's pre-save hook for this project: nbdev's `clean_jupyter` with the notebook's path made absolute.
    Jupyter passes the path relative to the server's root (`01_bleu.ipynb` when JupyterLab serves `nbs/`), which
    nbdev's trust step would look up from the server's working directory instead (a FileNotFoundError traceback on
    every save)."""
    from nbdev.clean import clean_jupyter as _clean
    root = getattr(contents_manager, 'root_dir', None)
    p = Path(path)
    if root and not p.is_absolute(): p = Path(root).expanduser() / p
    _clean(path=str(p.resolve()), model=model, contents_manager=contents_manager, **kwargs)


def install(prefix: Path = Path(sys.prefix), purelib: Path = Path(sysconfig.get_paths()['purelib'])) -> Path:
    """Configure the Jupyter server of the environment at `prefix` (its site-packages: `purelib`) to save notebooks
    cleaned; returns the config file"""
    etc = prefix / 'etc' / 'jupyter'
    etc.mkdir(parents=True, exist_ok=True)
    old = etc / 'jupyter_server_config.json'   # read after the .py file: an old entry there would win
    if old.exists():
        c = json.loads(old.read_text())
        if c.get('ContentsManager', {}).get('pre_save_hook') == OLD_HOOK:
            del c['ContentsManager']['pre_save_hook']
            old.write_text(json.dumps(c, indent=2) + '\n')
    pth = purelib / 'textmetrics_edu_nbdev.pth'
    if pth.exists(): pth.unlink()
    cfg = etc / 'jupyter_server_config.py'
    cfg.write_text('# written by `make hooks` (tools/jupyter_hooks.py): notebooks are saved without outputs\n'
                   'import runpy\n'
                   f'c.ContentsManager.pre_save_hook = runpy.run_path({str(Path(__file__).resolve())!r})'
                   "['clean_jupyter']\n")
    return cfg


if __name__ == '__main__':
    print(f'Jupyter pre-save hook: {install()}')
