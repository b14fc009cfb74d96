"""chrF under NLTK's and torchmetrics' conventions: NLTK 3.10 live (WMT22, 5,000 seeded random cases), torchmetrics 1.9
against its stored outputs (`tests/data/mt/chrf_torchmetrics/`, README there) and live when it is importable."""
import json
from pathlib import Path

import pytest
import nltk.translate.chrf_score as nltk_chrf

from textmetrics_edu import corpus_chrf, sentence_chrf, MetricInputError
from textmetrics_edu.core import SegmentRefs
from textmetrics_edu.metrics.chrf import TOOL_DEFAULTS, strip_whitespace
from textmetrics_edu.views.chrf import render_chrf_html
from textmetrics_edu.app.cli import main
from chrf_conventions_cases import fuzz_cases, cases_digest
from conftest import WMT22_EN_DE, read_lines

TM = Path(__file__).parent / 'data' / 'mt' / 'chrf_torchmetrics'
OPTS = ('char_order', 'word_order', 'beta', 'lowercase', 'whitespace')


@pytest.fixture(scope='module')
def wmt():
    return {'A': read_lines(WMT22_EN_DE / 'ref.A.de'), 'B': read_lines(WMT22_EN_DE / 'ref.B.de'),
            **{s: read_lines(WMT22_EN_DE / 'sys' / f'{s}.de') for s in ('Online-B', 'JDExploreAcademy', 'PROMT')}}


def _nltk_case(c, corpus_only=False):
    o = {k: c[k] for k in OPTS}
    hyps, refs = c['hyps'], [r[0] for r in c['refs']]
    ours = float(corpus_chrf(hyps, refs, convention='nltk', **o))
    theirs = nltk_chrf.corpus_chrf(refs, hyps, max_len=c['char_order'], beta=c['beta'], ignore_whitespace=not c['whitespace'])
    assert ours == theirs, (c, ours, theirs)
    if corpus_only: return
    for h, r in zip(hyps, refs):
        assert float(sentence_chrf(h, r, convention='nltk', **o)) == nltk_chrf.sentence_chrf(
            r, h, max_len=c['char_order'], beta=c['beta'], ignore_whitespace=not c['whitespace'])


def test_nltk_convention_equals_nltk_on_random_cases_default_set():
    for c in fuzz_cases(5000, tool='nltk')[:300]: _nltk_case(c)


@pytest.mark.slow
def test_nltk_convention_equals_nltk_on_5000_random_cases():
    for c in fuzz_cases(5000, tool='nltk'): _nltk_case(c)


@pytest.mark.parametrize('system, n', [('Online-B', 400), pytest.param('Online-B', None, marks=pytest.mark.slow),
                                       pytest.param('JDExploreAcademy', None, marks=pytest.mark.slow),
                                       pytest.param('PROMT', None, marks=pytest.mark.slow)])
def test_nltk_convention_equals_nltk_on_wmt22(wmt, system, n):
    hyps, refs = wmt[system][:n], wmt['A'][:n]  # default set: the first 400 segments; slow set: all 2,037
    for beta in (3, 2):
        assert float(corpus_chrf(hyps, refs, convention='nltk', beta=beta)) == nltk_chrf.corpus_chrf(refs, hyps, beta=beta)
    for h, r in list(zip(hyps, refs))[:200]:
        assert float(sentence_chrf(h, r, convention='nltk', **TOOL_DEFAULTS['nltk'])) == nltk_chrf.sentence_chrf(r, h)


def _tm_check(cases, stored):
    for c, (corpus, sents) in zip(cases, stored):
        o = {k: c[k] for k in OPTS}
        assert float(corpus_chrf(c['hyps'], SegmentRefs(c['refs']), convention='torchmetrics', **o)) == corpus, c
        for h, r, s in zip(c['hyps'], c['refs'], sents):
            assert float(sentence_chrf(h, r, convention='torchmetrics', **o)) == s, (h, r, o)


@pytest.fixture(scope='module')
def tm_fuzz():
    d = json.loads((TM / 'fuzz_5000.json').read_text())
    cases = fuzz_cases(d['n'], tool='torchmetrics')
    assert cases_digest(cases) == d['inputs_sha256']  # the stored outputs belong to these inputs
    return cases, d['scores']


def test_torchmetrics_convention_equals_stored_outputs_default_set(tm_fuzz):
    cases, scores = tm_fuzz
    _tm_check(cases[:300], scores[:300])


@pytest.mark.slow
def test_torchmetrics_convention_equals_stored_outputs_5000(tm_fuzz):
    _tm_check(*tm_fuzz)


@pytest.mark.parametrize('system', ['Online-B', pytest.param('JDExploreAcademy', marks=pytest.mark.slow),
                                    pytest.param('PROMT', marks=pytest.mark.slow)])
def test_torchmetrics_convention_equals_stored_outputs_on_wmt22(wmt, system):
    d = json.loads((TM / 'wmt22_en-de.json').read_text())
    for key, want in d['corpus'].items():
        name, refset, wo = key.split('|')
        if name != system: continue
        refs = SegmentRefs([[a] for a in wmt['A']] if refset == 'A' else [[a, b] for a, b in zip(wmt['A'], wmt['B'])])
        assert float(corpus_chrf(wmt[system], refs, convention='torchmetrics', word_order=int(wo))) == want, key
    for key, sents in d['sentence'].items():
        name, refset, wo = key.split('|')
        if name != system or refset != 'A': continue
        for h, a, want in list(zip(wmt[system], wmt['A'], sents))[:400]:
            assert float(sentence_chrf(h, a, convention='torchmetrics', word_order=int(wo))) == want


def test_torchmetrics_live_when_installed():
    tm = pytest.importorskip('torchmetrics.functional.text')
    cases = fuzz_cases(60, seed=7, tool='torchmetrics')
    for c in cases:
        corpus, sents = tm.chrf_score(c['hyps'], c['refs'], n_char_order=c['char_order'], n_word_order=c['word_order'],
                                      beta=float(c['beta']), lowercase=c['lowercase'], whitespace=c['whitespace'],
                                      return_sentence_level_score=True)
        _tm_check([c], [(float(corpus), [float(x) for x in sents])])


def test_conventions_differ_as_the_lesson_says(wmt):
    assert float(sentence_chrf('cat', 'cat')) == 1.0
    assert float(sentence_chrf('cat', 'cat', convention='torchmetrics')) == 0.5
    assert abs(float(sentence_chrf('cat', 'cat', convention='nltk')) - 0.5) < 1e-15
    assert strip_whitespace('a\u00a0b\tc d', 'torchmetrics') == 'a\u00a0b\tcd'
    assert strip_whitespace('a\x1cb') == 'ab' and strip_whitespace('a\x1cb', 'nltk') == 'a\x1cb'
    h, r = wmt['Online-B'][:50], wmt['A'][:50]
    assert float(corpus_chrf(h, r, convention='nltk')) != float(corpus_chrf(h, r, eps_smoothing=True))
    assert '|conv:nltk|' in corpus_chrf(h, r, convention='nltk').signature
    assert 'conv' not in corpus_chrf(h, r).signature


def test_bad_options_and_references():
    with pytest.raises(MetricInputError, match='`convention`'): sentence_chrf('a', 'a', convention='moses')
    with pytest.raises(MetricInputError, match='eps_smoothing'): sentence_chrf('a', 'a', convention='nltk', eps_smoothing=True)
    with pytest.raises(MetricInputError, match='word n-grams'): sentence_chrf('a', 'a', convention='nltk', word_order=2)
    with pytest.raises(MetricInputError, match='one reference'): sentence_chrf('a', ['a', 'b'], convention='nltk')
    assert 'tme-error' in render_chrf_html('a', ['a', 'b'], convention='nltk')
    assert "torchmetrics's rules" in render_chrf_html('x', 'x', convention='torchmetrics')


def test_cli_flag_is_derived(tmp_path, capsys):
    hp, rp = tmp_path / 'h.txt', tmp_path / 'r.txt'
    hp.write_text('the cat sat\ncat\n'); rp.write_text('the cat sat down\ncat\n')
    assert main(['score', str(hp), '-r', str(rp), '--metrics', 'chrf', '--chrf-convention', 'nltk', '--chrf-beta', '3']) == 0
    out = capsys.readouterr().out
    want = nltk_chrf.corpus_chrf(['the cat sat down', 'cat'], ['the cat sat', 'cat'])
    assert 'conv:nltk' in out and (f"{want:.4f}" in out or f"{100 * want:.2f}" in out), out
