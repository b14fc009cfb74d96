"""Rewrite Quarto callout fences in the notebooks' markdown cells as HTML boxes that JupyterLab draws too.

    python tools/nb_callouts.py [nbs/NN_x.ipynb ...]      # default: every notebook in nbs/

JupyterLab shows a fence (`::: {.callout-warning}` ... `:::`) as literal text. This script replaces only the
fence lines (the callout's content lines are kept as they are, so concurrent edits of the content merge):

    <div class="callout callout-warning" style="...">    <- the opening fence; the style draws the box in JupyterLab
                                                          <- a blank line ends the HTML block: the content is markdown
    **Warning**                                           <- only when no `## heading` follows (the site's default title)
    ...content...
                                                          <- blank line
    </div>                                                <- the closing fence

The site turns the box back into the callout (`site_preprocessors.Callouts`); the colours are the site's
(`tools/site/site.css`). Idempotent: a notebook without fences is left untouched.
"""
import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / 'tools'))
from build_site import callout_open_html  # noqa: E402
from site_preprocessors import CALLOUTS  # noqa: E402

_open = re.compile(r'^\s*:::+\s*\{\s*\.callout-([\w-]+)\s*\}\s*$')
_close = re.compile(r'^\s*:::+\s*$')


def convert_lines(lines: list[str]) -> list[str]:
    "A markdown cell's source lines (each with its newline but maybe the last) with the callout fences rewritten"
    out, depth = [], 0
    for i, line in enumerate(lines):
        nl = '\n' if line.endswith('\n') else ''
        m = _open.match(line.rstrip('\n'))
        if m:
            kind = m.group(1)
            nxt = lines[i + 1].strip() if i + 1 < len(lines) else ''
            out.append(callout_open_html(kind) + '\n')
            if not re.match(r'^#{1,6}\s+\S', nxt): out += ['\n', f'**{CALLOUTS.get(kind, kind.title())}**\n']
            if nxt: out.append('\n')
            if not nl: out[-1] = out[-1].rstrip('\n')
            depth += 1
        elif depth and _close.match(line.rstrip('\n')):
            if out and out[-1].strip(): out.append('\n')
            out.append('</div>' + nl)
            depth -= 1
        else: out.append(line)
    if depth: raise ValueError('unclosed callout fence')
    return out


def convert_notebook(path: Path) -> int:
    "Rewrite the callout fences of one notebook in place; returns how many cells changed"
    text = path.read_text(encoding='utf-8')
    nb = json.loads(text)
    changed = 0
    for c in nb['cells']:
        if c['cell_type'] != 'markdown': continue
        src = c['source'] if isinstance(c['source'], list) else c['source'].splitlines(keepends=True)
        new = convert_lines(src)
        if new != src: c['source'], changed = new, changed + 1
    if changed: path.write_text(json.dumps(nb, indent=1, ensure_ascii=False) + '\n', encoding='utf-8')
    return changed


if __name__ == '__main__':
    paths = [Path(p) for p in sys.argv[1:]] or sorted((ROOT / 'nbs').glob('*.ipynb'))
    for p in paths:
        n = convert_notebook(p)
        if n: print(f'{p}: {n} callout cell(s) rewritten')
