"Shared test helpers: where the repository's real data lives, and a strict line reader."
import os
from pathlib import Path

import pytest
from hypothesis import settings

# Property tests draw random examples; in CI they are derandomized (a fixed sequence), so that a run is
# reproducible and a rare draw cannot fail one submission and pass the next. Locally they stay random.
settings.register_profile('ci', derandomize=True, print_blob=True)
if os.environ.get('CI'): settings.load_profile('ci')

DATA = Path(__file__).parent / 'data'
WMT22_EN_DE = DATA / 'mt' / 'wmt22_en-de'


def read_lines(path):
    "One segment per line, exactly as the files hold them (the final newline removed)."
    text = Path(path).read_text(encoding='utf-8')
    lines = text.split('\n')
    if lines[-1] == '': lines.pop()
    return lines


@pytest.fixture(scope='session')
def wmt22():
    "WMT22 en-de: {'refs_A', 'refs_B', 'systems': {name: hyps}, 'official': {(system, metric): score}}."
    d = WMT22_EN_DE
    official = {}
    for line in (d / 'official_automatic_scores.tsv').read_text().splitlines()[1:]:
        s, m, v = line.split('\t')
        official[s, m] = float(v)
    systems = {f.stem: read_lines(f) for f in sorted((d / 'sys').glob('*.de'))}
    return dict(refs_A=read_lines(d / 'ref.A.de'), refs_B=read_lines(d / 'ref.B.de'), systems=systems, official=official)
