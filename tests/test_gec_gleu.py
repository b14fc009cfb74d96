"""GEC GLEU against PyPI gleu 1.1.0 (called through its own functions, as `gleu --fix-seed` and `sgleu` run them)
and compare-mt 0.2.10 `GleuScorer`, both in the dev environment: the JFLEG slice, 5,000 fuzzed sentences (300 by
default, all with --slow), fuzzed corpora; the seeding, bad input, the CLI, the explorer."""
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from compare_mt.scorers import GleuScorer
from gleu.aggreg import make_dhrn_accum, make_hdrn_accum
from gleu.corpus_main import drn_accum_to_gleu
from gleu.count import make_dx_xlen, set_tokenization
from gleu.score import rn_accum_to_gleu
from gleu.util import make_id_rindex

from textmetrics_edu import MetricInputError, corpus_gec_gleu, sentence_gec_gleu, with_sources
from textmetrics_edu.core import SegmentRefs
from textmetrics_edu.metrics.gec_gleu import reference_draws
from textmetrics_edu.views.gec_gleu import render_gec_gleu_html
from sari_fuzz import rewriting_cases

D = Path(__file__).parent / 'data' / 'gec' / 'jfleg_test_001-100'
EPS = 1e-12   # on [0, 1]


def gleu_tool(srcs, refs, hyps, iters=500):
    "PyPI gleu 1.1.0 `gleu -s S -r R... -o H --fix-seed` (corpus_sampling), on lists instead of files."
    set_tokenization('word')
    rs, hs = [tuple(r) for r in refs], [(h,) for h in hyps]
    dr_rlen, dh_hlen = make_dx_xlen(rs), make_dx_xlen(hs)
    drn = make_hdrn_accum(4, list(srcs), rs, [tuple(hyps)])[0]
    return float(np.mean([drn_accum_to_gleu(drn, ix, dr_rlen, dh_hlen[:, 0])
                          for ix in make_id_rindex(iters, len(rs), len(rs[0]), True)]))


def sgleu_tool(src, refs, hyp):
    "PyPI gleu 1.1.0 `sgleu` (mean over references) for one sentence."
    set_tokenization('word')
    dr_rlen, dh_hlen = make_dx_xlen([tuple(refs)]), make_dx_xlen([(hyp,)])
    return float(rn_accum_to_gleu(make_dhrn_accum(4, [src], [tuple(refs)], [(hyp,)])[0][0], dr_rlen[0], dh_hlen[0, 0]))


def _read(p): return p.read_text(encoding='utf-8').split('\n')[:-1]


@pytest.fixture(scope='module')
def jfleg():
    src = _read(D / 'test.src')
    refs = [list(x) for x in zip(*[_read(D / f'test.ref{i}') for i in range(4)])]
    return src, {'identity': (src, refs), 'spellchecked': (_read(D / 'test.spellchecked.src'), refs),
                 'human_ref0': ([r[0] for r in refs], [r[1:] for r in refs])}


@pytest.mark.parametrize('system', ['identity', 'spellchecked', 'human_ref0'])
def test_jfleg_corpus_equals_gleu_and_compare_mt(jfleg, system):
    src, systems = jfleg
    hyps, refs = systems[system]
    assert abs(float(corpus_gec_gleu(hyps, SegmentRefs(refs), sources=src)) - gleu_tool(src, refs, hyps)) < EPS
    first = [r[0] for r in refs]
    sp = lambda xs: [x.split() for x in xs]
    theirs = GleuScorer().score_corpus(sp(first), sp(hyps), sp(src))[0] / 100
    assert abs(float(corpus_gec_gleu(hyps, first, sources=src, penalty='compare_mt')) - theirs) < EPS


def test_jfleg_sentences(jfleg):
    src, systems = jfleg
    hyps, refs = systems['spellchecked']
    for s, h, r in zip(src, hyps, refs):
        assert abs(float(sentence_gec_gleu(h, r, source=s)) - sgleu_tool(s, r, h)) < EPS
        theirs = GleuScorer().score_sentence(r[0].split(), h.split(), s.split())[0] / 100
        assert abs(float(sentence_gec_gleu(h, r[0], source=s, penalty='compare_mt')) - theirs) < EPS


FUZZ = rewriting_cases(seed=2015, n=5000)


def _check_fuzz(cases):
    worst = 0.0
    for s, h, rs in cases:
        worst = max(worst, abs(float(sentence_gec_gleu(h, rs, source=s)) - sgleu_tool(s, rs, h)),
                    abs(float(sentence_gec_gleu(h, rs[0], source=s, penalty='compare_mt'))
                        - GleuScorer().score_sentence(rs[0].split(), h.split(), s.split())[0] / 100))
    assert worst < EPS, worst


def test_fuzz_sentences_default():
    _check_fuzz(FUZZ[:300])


@pytest.mark.slow
def test_fuzz_sentences_all_5000():
    _check_fuzz(FUZZ)


@pytest.mark.parametrize('start', [0, pytest.param(1000, marks=pytest.mark.slow), pytest.param(2000, marks=pytest.mark.slow)])
def test_fuzz_corpora(start):
    "Corpora of 25 fuzzed segments (each keeps the corpus's smallest number of references), 100 iterations."
    worst = 0.0
    for i in range(start, start + 200, 25):
        cs = FUZZ[i:i + 25]
        k = min(len(c[2]) for c in cs)
        srcs, hyps, refs = [c[0] for c in cs], [c[1] for c in cs], [c[2][:k] for c in cs]
        ours = corpus_gec_gleu(hyps, SegmentRefs(refs), sources=srcs, iterations=100)
        worst = max(worst, abs(float(ours) - gleu_tool(srcs, refs, hyps, iters=100)))
    assert worst < EPS, worst


def test_draws_are_gleus_fix_seed_draws():
    assert np.array_equal(np.array(reference_draws(37, [4] * 37, 60)), make_id_rindex(60, 37, 4, True))
    assert reference_draws(3, [2] * 3, 2, seed=5) != reference_draws(3, [2] * 3, 2)


def test_seed_and_iterations_are_in_the_signature(jfleg):
    src, systems = jfleg
    hyps, refs = systems['spellchecked']
    r = corpus_gec_gleu(hyps, SegmentRefs(refs), sources=src, iterations=20, seed=3)
    assert '|iter:20|seed:3|' in r.signature and 'nrefs:4' in r.signature and len(r.iteration_scores) == 20


def test_bad_input_is_named():
    s, h, r = 'a b c', 'a b', ['a b', 'a c']
    with pytest.raises(MetricInputError, match='no source sentence'): corpus_gec_gleu([h], [r])
    with pytest.raises(MetricInputError, match='bare str'): corpus_gec_gleu(h, [r], sources=[s])
    with pytest.raises(MetricInputError, match='one reference'): corpus_gec_gleu([h], [r], sources=[s], penalty='compare_mt')
    with pytest.raises(MetricInputError, match='>= 1'): corpus_gec_gleu([h], [r], sources=[s], iterations=0)
    with pytest.raises(MetricInputError, match='empty after tokenization'): sentence_gec_gleu(h, r, source=' ')   # (an empty correction is scored)
    with pytest.raises(MetricInputError, match='not both'): corpus_gec_gleu([h], [r], sources=[s], sources_file='x')
    with pytest.raises(MetricInputError, match='pass `source=`'): sentence_gec_gleu(h, r, source=s, sources_file='x')
    from textmetrics_edu.stats.significance import paired_test
    with pytest.raises(MetricInputError, match='per-segment statistics'):
        paired_test([h], [h], with_sources([s], [r]), metric='gec_gleu')


def test_inputs_are_not_modified():
    hyps, refs, srcs = ['a b'], [['a b', 'a c']], ['a b c']
    copies = [list(hyps), [list(x) for x in refs], list(srcs)]
    corpus_gec_gleu(hyps, refs, sources=srcs, iterations=3)
    assert [hyps, refs, srcs] == copies


def test_command_line_with_sources_file(jfleg):
    src, systems = jfleg
    out = subprocess.run([sys.executable, '-m', 'textmetrics_edu', 'score', str(D / 'test.spellchecked.src'), '-r',
                          *[str(D / f'test.ref{i}') for i in range(4)], '-m', 'gec_gleu', '--gec-gleu-sources',
                          str(D / 'test.src'), '--format', 'json'], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    hyps, refs = systems['spellchecked']
    assert f"{gleu_tool(src, refs, hyps):.4f}"[:5] in out.stdout


def test_explorer_renders_and_escapes():
    h = render_gec_gleu_html('New technology has been introduced to society .',
                             ['New technology has been introduced into the society .'],
                             source='New and new technology has been introduced to the society .')
    assert 'GLEU = ' in h and 'penalised (kept from the source, changed by this reference): to' in h
    assert '<b>x' not in render_gec_gleu_html('<b>x</b> y', ['x y'], source='x y')
    assert 'tme-error' in render_gec_gleu_html('x', ['y'], source='')


def test_empty_corrections_are_scored_as_gleu_and_compare_mt_score_them():
    """Issue 37: an empty correction (everything deleted) is scored, as PyPI `gleu` (sentence and corpus) and compare-mt
    score it (compare-mt: brevity penalty 0); an empty source or reference stays an error, named."""
    cases = [(s, '' if i % 3 == 0 else h, rs) for i, (s, h, rs) in enumerate(rewriting_cases(seed=37, n=60))]
    worst = 0.0
    for s, h, rs in cases:
        worst = max(worst, abs(float(sentence_gec_gleu(h, rs, source=s)) - sgleu_tool(s, rs, h)),
                    abs(float(sentence_gec_gleu(h, rs[0], source=s, penalty='compare_mt'))
                        - GleuScorer().score_sentence(rs[0].split(), h.split(), s.split())[0] / 100))
    for i in range(0, 60, 20):
        cs = cases[i:i + 20]
        k = min(len(c[2]) for c in cs)
        srcs, hyps, refs = [c[0] for c in cs], [c[1] for c in cs], [c[2][:k] for c in cs]
        worst = max(worst, abs(float(corpus_gec_gleu(hyps, SegmentRefs(refs), sources=srcs, iterations=50))
                               - gleu_tool(srcs, refs, hyps, iters=50)))
        first = [r[0] for r in refs]
        theirs = GleuScorer().score_corpus([x.split() for x in first], [x.split() for x in hyps], [x.split() for x in srcs])
        worst = max(worst, abs(float(corpus_gec_gleu(hyps, first, sources=srcs, penalty='compare_mt')) - theirs[0] / 100))
    assert worst < EPS, worst
    assert float(sentence_gec_gleu('', ['a b'], source='a b c', penalty='compare_mt')) == 0.0
    with pytest.raises(MetricInputError, match='`source` is empty'): sentence_gec_gleu('a', ['a b'], source=' ')
    with pytest.raises(MetricInputError, match=r'`refs\[0\]` is empty'): sentence_gec_gleu('a', [''], source='a')
    with pytest.raises(MetricInputError, match='`sources` has 1 sentence'):
        corpus_gec_gleu(['a b', 'c'], [['a'], ['c']], sources=['a b c'])
