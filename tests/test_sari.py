"""SARI against the outputs of its three tools (EASSE `corpus_sari`, the authors' `SARI.py`, HF evaluate's `sari`),
stored with how they were made (tests/data/simplification/README.md): the ASSET slice and 5,000 fuzzed sentences
(300 by default, all 5,000 with --slow), 250 fuzzed corpora; the conventions, bad input, significance, the CLI,
the explorer."""
import gzip
import json
import subprocess
import sys
from pathlib import Path

import pytest

from textmetrics_edu import MetricInputError, corpus_sari, sentence_sari, with_sources
from textmetrics_edu.core import SegmentRefs
from textmetrics_edu.metrics.sari import SARI_CONVENTIONS, SARI, sari_from_stats, sari_statistics, split_source
from textmetrics_edu.views.sari import render_sari_html
from sari_fuzz import rewriting_cases

D = Path(__file__).parent / 'data' / 'simplification'
TOOLS = json.loads(gzip.open(D / 'tool_outputs.json.gz', 'rt', encoding='utf-8').read())
EPS = 1e-9   # points (x100); measured: 2.9e-14
KEYS = dict(easse='easse', paper='paper', authors='authors_mean', hf='hf')


def _read(p): return p.read_text(encoding='utf-8').split('\n')[:-1]


@pytest.fixture(scope='module')
def asset():
    d = D / 'asset_test_001-100'
    src = _read(d / 'asset.test.orig')
    refs = [list(x) for x in zip(*[_read(d / f'asset.test.simp.{i}') for i in range(1, 10)])]
    systems = {n: _read(d / 'sys' / n) for n in ('identity', 'first_clause', 'human_simp0')}
    return src, refs, systems


@pytest.mark.parametrize('system', ['identity', 'first_clause', 'human_simp0'])
@pytest.mark.parametrize('convention', SARI_CONVENTIONS)
def test_asset_corpus_equals_each_tool(asset, system, convention):
    src, refs, systems = asset
    ours = 100 * float(corpus_sari(systems[system], refs, sources=src, convention=convention))
    assert abs(ours - TOOLS['asset'][system][KEYS[convention]]) < EPS


@pytest.mark.parametrize('system', [pytest.param('first_clause', marks=pytest.mark.slow), 'human_simp0'])
def test_asset_operation_scores_and_sentences(asset, system):
    src, refs, systems = asset
    r = corpus_sari(systems[system], refs, sources=src)
    assert max(abs(a - b) for a, b in zip((100 * r.add, 100 * r.keep, 100 * r.delete),
                                          TOOLS['asset'][system]['easse_ops'])) < EPS
    for s, h, rf, t in zip(src, systems[system], refs, TOOLS['asset'][system]['sentences']):
        ours = [100 * float(sentence_sari(h, rf, source=s, convention=c)) for c in SARI_CONVENTIONS]
        assert max(abs(a - b) for a, b in zip(ours, t)) < EPS


FUZZ = rewriting_cases(seed=2016, n=5000)


def _check_fuzz(lo, hi):
    worst = 0.0
    for (s, h, rf), t in zip(FUZZ[lo:hi], TOOLS['fuzz']['sentence'][lo:hi]):
        st = sari_statistics(s, h, rf)
        for c, v in zip(SARI_CONVENTIONS, t):
            worst = max(worst, abs(100 * float(sari_from_stats(st, c)) - v))
    assert worst < EPS, worst


def test_fuzz_sentences_default():
    _check_fuzz(0, 300)


@pytest.mark.slow
def test_fuzz_sentences_all_5000():
    _check_fuzz(0, 5000)


def test_fuzz_corpora_equal_easse():
    "250 corpora of 20 fuzzed segments (each keeps the corpus's smallest number of references): EASSE default and paper."
    worst = 0.0
    for j, i in enumerate(range(0, 5000, 20)):
        cs = FUZZ[i:i + 20]
        k = min(len(c[2]) for c in cs)
        refs = SegmentRefs([c[2][:k] for c in cs])
        st = SARI.stats(tuple(c[1] for c in cs), tuple(tuple(x) for x in with_sources([c[0] for c in cs], refs)),
                        SARI.opts({}))
        total = st[0]
        for s in st[1:]: total = total + s
        for c, v in zip(('easse', 'paper'), TOOLS['fuzz']['corpus20'][j]):
            worst = max(worst, abs(100 * float(sari_from_stats(total, c, len(cs))) - v))
    assert worst < EPS, worst


def test_one_set_of_counts_gives_every_convention(asset):
    src, refs, systems = asset
    st = SARI.stats(tuple(systems['human_simp0']), tuple(with_sources(src, refs)), SARI.opts({}))
    total = st[0]
    for s in st[1:]: total = total + s
    for c in SARI_CONVENTIONS:
        assert float(sari_from_stats(total, c, len(st))) == float(corpus_sari(systems['human_simp0'], refs, sources=src,
                                                                              convention=c))


def test_bad_input_is_named():
    src, refs = 'a b c', ['a b', 'a c']
    with pytest.raises(MetricInputError, match='no source sentence'): corpus_sari(['a b'], [refs])
    with pytest.raises(MetricInputError, match='bare str'): corpus_sari('a b', [refs], sources=[src])
    with pytest.raises(MetricInputError, match='bare str'): corpus_sari(['a b'], [refs], sources=src)
    with pytest.raises(MetricInputError, match='empty after tokenization'): sentence_sari('a', refs, source='  ')
    with pytest.raises(MetricInputError, match='empty after tokenization'): sentence_sari('a', ['a', ' '], source='a')
    with pytest.raises(MetricInputError, match='one of'): sentence_sari('a', refs, source=src, convention='EASSE')
    with pytest.raises(MetricInputError, match='not both'): corpus_sari(['a'], [refs], sources=[src], sources_file='x')
    with pytest.raises(MetricInputError, match='no reference'): split_source(with_sources([src], [['x']])[0][:1])
    with pytest.raises(MetricInputError, match='already carries'): with_sources([src], with_sources([src], [refs]))


def test_inputs_are_not_modified():
    hyps, refs, srcs = ['a b'], [['a b', 'a c']], ['a b c']
    copies = [list(hyps), [list(r) for r in refs], list(srcs)]
    corpus_sari(hyps, refs, sources=srcs)
    assert [hyps, refs, srcs] == copies


def test_output_equal_to_the_reference_and_signature():
    "An output equal to its only reference is not 1 under EASSE: nothing added (F_add 0), no 3- or 4-grams to keep."
    r = sentence_sari('a b', ['a b'], source='a b c')
    assert r.add == 0 and r.keep == 0.5 and r.delete == 0.75 and float(r) == (0 + 0.5 + 0.75) / 3
    assert r.signature.startswith('SARI|conv:easse|nrefs:1|tok:13a|lc:yes')


def test_significance_on_sources(asset):
    from textmetrics_edu.stats.significance import paired_test, bootstrap_ci
    src, refs, systems = asset
    packed = with_sources(src, refs)
    res = paired_test(systems['identity'], systems['human_simp0'], packed, metric='sari', n_samples=50, seed=3)
    assert res.p_value < 0.05 and abs(100 * res.score - TOOLS['asset']['human_simp0']['easse']) < EPS
    hf = paired_test(systems['identity'], systems['human_simp0'], packed, metric='sari', n_samples=20, seed=3,
                     convention='hf')
    assert abs(100 * hf.score - TOOLS['asset']['human_simp0']['hf']) < EPS
    mean, half = bootstrap_ci(systems['human_simp0'], packed, metric='sari', n_samples=20, seed=1)
    assert 0.3 < mean < 0.6 and half > 0


def test_command_line_with_sources_file(tmp_path):
    d = D / 'asset_test_001-100'
    out = subprocess.run([sys.executable, '-m', 'textmetrics_edu', 'score', str(d / 'sys' / 'human_simp0'), '-r',
                          *[str(d / f'asset.test.simp.{i}') for i in range(1, 10)], '-m', 'sari', '--sari-sources',
                          str(d / 'asset.test.orig'), '--format', 'json'], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert f"{TOOLS['asset']['human_simp0']['easse'] / 100:.4f}"[:6] in out.stdout
    bad = subprocess.run([sys.executable, '-m', 'textmetrics_edu', 'score', str(d / 'sys' / 'human_simp0'), '-r',
                          str(d / 'asset.test.simp.1'), '-m', 'sari'], capture_output=True, text=True, timeout=120)
    assert bad.returncode != 0 and 'source' in bad.stderr


def test_explorer_renders_and_escapes():
    h = render_sari_html('About 95 species are now agreed .', ['About 95 species are now accepted .'],
                         source='About 95 species are currently accepted .', convention='hf')
    assert '<td>agreed</td><td>add</td>' in h and 'hf' in h
    assert '<b>x' not in render_sari_html('<b>x</b>', ['y'], source='z')
    assert 'tme-error' in render_sari_html('x', ['y'], source='')


EMPTY = json.loads((D / 'empty_outputs.json').read_text())


def test_empty_outputs_are_scored_as_easse_and_hf_score_them():
    """Issue 37: a system that deletes everything is a real output. EASSE and HF evaluate score an empty output (EASSE:
    no n-gram; HF and SARI.py: one token ''), so do we (tests/data/simplification/README.md); sentences and corpora."""
    worst = 0.0
    for s, h, rs, easse, hf in EMPTY['sentence']:
        assert not h.strip()
        worst = max(worst, abs(100 * float(sentence_sari(h, rs, source=s)) - easse),
                    abs(100 * float(sentence_sari(h, rs, source=s, convention='hf')) - hf))
    for srcs, hyps, refs, easse, hf in EMPTY['corpus']:
        worst = max(worst, abs(100 * float(corpus_sari(hyps, refs, sources=srcs)) - easse),
                    abs(100 * float(corpus_sari(hyps, refs, sources=srcs, convention='hf')) - hf))
    assert worst < EPS, worst
    s, _, rs, *_ = EMPTY['sentence'][0]
    assert sari_statistics(s, '', rs) == SARI.segment_stats('', with_sources([s], [rs])[0], SARI.opts({}))  # lesson = engine


def test_an_empty_source_or_reference_stays_an_error_named(tmp_path):
    with pytest.raises(MetricInputError, match='`source` is empty'): sentence_sari('', ['a b'], source=' ')
    with pytest.raises(MetricInputError, match=r'`refs\[1\]` is empty'): sentence_sari('', ['a', ''], source='a')
    with pytest.raises(MetricInputError, match='`sources` has 1 sentence.* `hyps` has 2'):
        corpus_sari(['a b', 'c'], [['a'], ['c']], sources=['a b c'])   # (was blamed on `refs`)
    with pytest.raises(MetricInputError, match='`sources` has 1 sentence.* `refs` has 2'): with_sources(['a'], ['a', 'b'])


def test_an_empty_line_in_a_file_does_not_fail_the_run(tmp_path):
    "Issue 37: one empty output line in a command-line file is scored (it failed the whole run)."
    (tmp_path / 'h').write_text('a b c\n\nd e\n'); (tmp_path / 'r').write_text('a b\nx y\nd e\n')
    (tmp_path / 's').write_text('a b c d\nx y z\nd e f\n')
    out = subprocess.run([sys.executable, '-m', 'textmetrics_edu', 'score', str(tmp_path / 'h'), '-r', str(tmp_path / 'r'),
                          '-m', 'sari,gec_gleu', '--sari-sources', str(tmp_path / 's'), '--gec-gleu-sources',
                          str(tmp_path / 's'), '--format', 'json'], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    ours = corpus_sari(['a b c', '', 'd e'], ['a b', 'x y', 'd e'], sources=['a b c d', 'x y z', 'd e f'])
    assert json.loads(out.stdout)['systems'][0]['metrics']['sari']['score'] == float(ours)


def test_intl_tokenizes_the_text_as_given_as_easse_and_hf():
    "Issue 37: with tokenize='intl' a trailing blank matters ('2012. ' splits its '.'); EASSE and HF do not rstrip, nor do we."
    worst = 0.0
    for s, h, rs, easse, hf in EMPTY['intl_trailing_blank']:
        worst = max(worst, abs(100 * float(sentence_sari(h, rs, source=s, tokenize='intl')) - easse),
                    abs(100 * float(sentence_sari(h, rs, source=s, tokenize='intl', convention='hf')) - hf))
    assert worst < EPS, worst


def test_explorers_show_an_empty_output():
    "The SARI and GEC GLEU explorers draw an empty output (everything deleted) instead of an error box."
    from textmetrics_edu.views.gec_gleu import render_gec_gleu_html
    h = render_sari_html('', ['a b'], source='a b c')
    assert 'tme-error' not in h and '<td>delete</td>' in h
    assert 'tme-error' not in render_gec_gleu_html('', ['a b'], source='a b c')
