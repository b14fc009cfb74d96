"""README.md's links work where the README is read: on GitHub (and on PyPI), not on the site.

The README is made from nbs/index.ipynb by tools/make_readme.py, which turns the site's page links (`bleu.html`) into
relative links to the notebooks the pages are made from (`nbs/01_bleu.ipynb`): settings.ini has no real URL of a
published site or repository (`doc_host` and `git_url` are example.org placeholders), so the README makes no absolute
link to either. Static: no network, no built site needed.
"""
import configparser
import html
import re
import sys
from pathlib import Path
from urllib.parse import unquote, urlsplit

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / 'tools'))
from site_course import placeholder_url as _placeholder  # noqa: E402  (the site's rule, one definition)
README = ROOT / 'README.md'

_code = re.compile(r'```.*?```|`[^`\n]*`', re.DOTALL)           # code is not a link
_md = re.compile(r'!?\[(?:[^\]\[]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)')
_ref_def = re.compile(r'^\s*\[[^\]]+\]:\s*(\S+)', re.MULTILINE)
_tag = re.compile(r'<(?:a|img|source)\b[^>]*?\s(?:href|src)\s*=\s*"([^"]*)"', re.IGNORECASE)


def readme_links(text: str) -> list[str]:
    "Every link target of a Markdown text: inline links and images, reference definitions, HTML href/src"
    text = _code.sub(' ', text)
    return [html.unescape(u) for u in _md.findall(text) + _ref_def.findall(text) + _tag.findall(text)]


def test_the_link_finder():
    found = readme_links('[a](nbs/01_bleu.ipynb) ![i](x/y.png "t") `[no](code.html)` <a href="LICENSE">l</a>\n'
                         '[r]: tests/data/README.md\n```\n[no](inside.html)\n```')
    assert found == ['nbs/01_bleu.ipynb', 'x/y.png', 'tests/data/README.md', 'LICENSE']
    assert _placeholder('https://textmetrics-edu.example.org/bleu.html') and not _placeholder('https://github.com/x/y')


def test_readme_links_resolve_to_files_of_the_repository():
    links = readme_links(README.read_text(encoding='utf-8'))
    assert len(links) > 30   # the course table links every page
    bad = []
    for url in links:
        parts = urlsplit(url)
        if parts.scheme or url.startswith('//'):
            if _placeholder(url): bad.append(f'{url} (a placeholder domain)')
            continue
        if url.startswith('#') or url.startswith('mailto:'): continue
        target = (ROOT / unquote(parts.path)).resolve()
        if not target.is_relative_to(ROOT) or not target.exists(): bad.append(f'{url} (no such file in the repository)')
        elif target.suffix == '.html': bad.append(f'{url} (a site page: GitHub has no such page)')
    assert bad == [], 'README.md links that do not work on GitHub:\n' + '\n'.join(bad)


def test_no_absolute_link_to_a_placeholder_site():
    "While settings.ini's doc_host/git_url are placeholders, nothing the README shows points at them"
    cfg = configparser.ConfigParser()
    cfg.read(ROOT / 'settings.ini')
    text = README.read_text(encoding='utf-8')
    for key in ('doc_host', 'git_url'):
        url = cfg['DEFAULT'].get(key, '')
        if url and _placeholder(url): assert url not in text, f'README.md links the placeholder {key} {url}'

