"""Count what issue 32 asks to bring to zero, on the exported package (a report, not a test; tests/test_layout.py enforces
the rules that hold):

    .venv/bin/python tools/layout_counts.py [-v] [ROOT]     (ROOT: a checkout, default: this one)

private imports between modules (`from X import _name`, X another module of the package; -v lists them, marking those
across role folders), imports of the bare package, copies of the n-gram idiom outside core, hand-written `__add__`s,
the error box and colour literals typed in views, and the package's line count."""
import ast
import re
import sys
from pathlib import Path

args = [a for a in sys.argv[1:] if a != '-v']
PKG = Path(args[0] if args else Path(__file__).parent.parent) / 'textmetrics_edu'
files = [p for p in sorted(PKG.rglob('*.py')) if p.name != '_modidx.py' and p.relative_to(PKG).parts[0] != 'data']


def name(p: Path) -> str:
    parts = ['textmetrics_edu', *p.relative_to(PKG).with_suffix('').parts]
    return '.'.join(parts[:-1] if parts[-1] == '__init__' else parts)


priv, bare = [], []
for p in files:
    m = name(p)
    for node in ast.walk(ast.parse(p.read_text(encoding='utf-8'))):
        if isinstance(node, ast.Import): bare += [m for a in node.names if a.name == 'textmetrics_edu']
        if not isinstance(node, ast.ImportFrom): continue
        base = node.module or ''
        if node.level:
            parts = m.split('.') if p.name == '__init__.py' else m.split('.')[:-1]
            base = '.'.join(parts[:len(parts) - node.level + 1] + ([base] if base else []))
        if base == 'textmetrics_edu': bare += [m for a in node.names if not a.name.startswith('__')
                                               and not (PKG / a.name).is_dir()]
        if not base.startswith('textmetrics_edu') or base == m: continue
        for a in node.names:
            if a.name.startswith('_') and not a.name.startswith('__'):
                role = lambda x: x.split('.')[1] if x.count('.') else ''
                priv.append((role(m) != role(base), f'{m} <- {base}.{a.name}'))
src = {p: p.read_text(encoding='utf-8') for p in files}
views = {p: s for p, s in src.items() if p.parent.name == 'views' and p.name != 'html.py'}
count = lambda pat, d=src: sum(len(re.findall(pat, s)) for s in d.values())
print('private imports between modules:', len(priv), '; across role folders:', sum(x for x, _ in priv))
if '-v' in sys.argv: print('\n'.join(('  ACROSS ' if x else '  within ') + r for x, r in priv))
print('imports of the bare package:', len(bare), sorted(set(bare)) if bare else '')
print('n-gram idiom zip(*[t[i:] ...]) outside core:',
      count(r'zip\(\*\s*\[\s*[\w\[\]:\-]+\[\w+:\]\s+for', {p: s for p, s in src.items() if p.parent.name != 'core'}))
print('hand-written __add__:', count(r'def __add__'))
print("error boxes typed in views (class='tme-error'):", count(r"tme-error", views))
print('colour literals in views (outside views/html.py):', count(r"#[0-9a-fA-F]{6}\b|#[0-9a-fA-F]{3}\b(?![0-9a-fA-F])", views))
print('package lines:', sum(s.count('\n') for s in src.values()))
