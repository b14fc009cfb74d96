"""What each optional extra of the package adds to an environment: its packages and their installed size.

    .venv/bin/python tools/extras_size.py            # measured in the environment that runs it

For the base requirements and each extra of setup.py (`models`, `lm`, `scale`, `spark`), the packages it pulls in
(the dependency closure read from the installed packages' metadata) beyond what the base install already has, and the
size of their installed files. Only packages installed in this environment are counted (an extra whose packages are
missing is reported as such); torch is counted as the build that is installed (`torch.version.cuda`: None for the
CPU build). The README's set-up section quotes this output.
"""
import ast
import configparser
import functools
import re
import sys
from importlib import metadata
from pathlib import Path

from packaging.markers import default_environment
from packaging.requirements import Requirement

ROOT = Path(__file__).resolve().parents[1]


def _extras() -> dict[str, list[str]]:
    "setup.py's extras with literal lists (read from its syntax tree: importing setup.py would run setuptools)"
    tree = ast.parse((ROOT / 'setup.py').read_text(encoding='utf-8'))
    node = next(k.value for k in ast.walk(tree) if isinstance(k, ast.keyword) and k.arg == 'extras_require')
    return {ast.literal_eval(k): ast.literal_eval(v) for k, v in zip(node.keys, node.values) if isinstance(v, ast.List)}


def _norm(name: str) -> str: return re.sub(r'[-_.]+', '-', name).lower()


def closure(reqs: list[str]) -> tuple[set[str], set[str]]:
    "The installed distributions `reqs` need, recursively (names normalised), and the names not installed"
    seen, missing, todo = set(), set(), [(Requirement(r), ()) for r in reqs]
    env = default_environment()
    while todo:
        req, extras = todo.pop()
        if req.marker and not any(req.marker.evaluate({**env, 'extra': e}) for e in (extras or ('',))): continue
        name = _norm(req.name)
        if name in seen: continue
        try: dist = metadata.distribution(req.name)
        except metadata.PackageNotFoundError: missing.add(name); continue
        seen.add(name)
        todo += [(Requirement(r), tuple(req.extras)) for r in (dist.requires or [])]
    return seen, missing


@functools.cache
def _dist_size(name: str) -> int:
    return sum(p.stat().st_size for f in metadata.distribution(name).files or [] if (p := Path(f.locate())).is_file())


def size(names: set[str]) -> int:
    "Bytes of the installed files of these distributions"
    return sum(_dist_size(n) for n in names)


if __name__ == '__main__':
    cfg = configparser.ConfigParser(); cfg.read(ROOT / 'settings.ini')
    base, _ = closure(cfg['DEFAULT']['requirements'].split())
    print(f'base install: {len(base)} packages, {size(base) / 1e6:,.0f} MB')
    try:
        import torch
        print(f'torch {torch.__version__}, CUDA: {torch.version.cuda}')
    except ImportError: print('torch: not installed')
    for extra, reqs in _extras().items():
        names, missing = closure(reqs)
        new = names - base
        big = sorted(new, key=lambda n: -size({n}))[:6]
        print(f'[{extra}]: +{len(new)} packages, +{size(new) / 1e6:,.0f} MB'
              + (f' (not installed here: {", ".join(sorted(missing))})' if missing else '')
              + '; largest: ' + ', '.join(f'{n} {size({n}) / 1e6:,.0f} MB' for n in big))
    sys.exit(0)
