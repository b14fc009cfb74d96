"""RIBES against NLTK 3.10 `nltk.translate.ribes_score` itself (bit for bit, the same tokens): the WMT22 en-de test
set (2037 segments, references A, B and both), 5,000 fuzzed cases (300 by default); compare-mt 0.2.10 as a second
opinion on real data; options, bad input, the CLI and the explorer."""
import random
import subprocess
import sys
from itertools import combinations

import pytest
from compare_mt.scorers import RibesScorer
from nltk.translate.ribes_score import corpus_ribes as nltk_corpus_ribes, sentence_ribes as nltk_sentence_ribes
from nltk.translate.ribes_score import word_rank_alignment as nltk_alignment, kendall_tau as nltk_kendall_tau

from textmetrics_edu import corpus_ribes, sentence_ribes, MetricInputError
from textmetrics_edu.metrics.ribes import (kendall_tau, best_reference_ribes, _ribes_segment,
                                           _increasing_pairs, RIBESSums)
from textmetrics_edu.views.ribes import render_ribes_html
from conftest import WMT22_SYSTEMS, sweep


def _refsets(wmt22, refset):
    A, B = wmt22['refs_A'], wmt22['refs_B']
    return {'A': [[a] for a in A], 'B': [[b] for b in B], 'A+B': [[a, b] for a, b in zip(A, B)]}[refset]


@pytest.mark.parametrize('system', sweep(WMT22_SYSTEMS, keep=['Online-B']))
@pytest.mark.parametrize('refset', ['A', 'B', 'A+B'])
def test_corpus_ribes_equals_nltk_on_wmt22(wmt22, system, refset):
    hyps, refs = wmt22['systems'][system], _refsets(wmt22, refset)
    ours = corpus_ribes(hyps, refs)
    theirs = nltk_corpus_ribes([[r.split() for r in rs] for rs in refs], [h.split() for h in hyps])
    assert float(ours) == theirs, (system, refset)


def test_compare_mt_agrees_on_almost_every_wmt22_segment(wmt22):
    "compare-mt's alignment tries contexts in another order: it agrees with NLTK on >= 99.8% of real segments."
    cm = RibesScorer()
    hyps, refs = wmt22['systems']['JDExploreAcademy'], wmt22['refs_A']
    ours = corpus_ribes(hyps, refs).seg_scores
    agree = sum(abs(a - cm.score_sentence(r.split(), h.split())[0] / 100) < 1e-12 for a, h, r in zip(ours, hyps, refs))
    assert agree >= 0.998 * len(hyps), agree


def _fuzz_case(rng):
    W = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'A'][:rng.randint(2, 8)]
    seg = lambda: ' '.join(rng.choice(W) for _ in range(rng.randint(0, 14)))
    return seg(), [seg() for _ in range(rng.randint(1, 3))], rng.choice([0.25, 0.5, 0.0, 1.0]), rng.choice([0.1, 0.0, 0.7])


def _fuzz(n, seed):
    rng = random.Random(seed)
    bad = []
    for _ in range(n):
        h, rs, a, b = _fuzz_case(rng)
        ours = sentence_ribes(h, rs, alpha=a, beta=b)
        if float(ours) != nltk_sentence_ribes([r.split() for r in rs], h.split(), alpha=a, beta=b): bad.append((h, rs, a, b))
        best = ours.best_refs[0]
        if best >= 0 and list(ours.worder) != nltk_alignment(rs[best].split(), h.split()): bad.append(('align', h, rs))
    for _ in range(n // 20):
        cases = [_fuzz_case(rng) for _ in range(20)]
        hyps, refs = [c[0] for c in cases], [c[1] for c in cases]
        if float(corpus_ribes(hyps, refs)) != nltk_corpus_ribes([[r.split() for r in rs] for rs in refs],
                                                                [h.split() for h in hyps]):
            bad.append((hyps, refs))
    assert not bad, bad[:3]


def test_fuzz_300_equals_nltk(): _fuzz(300, 0)


@pytest.mark.slow
def test_fuzz_5000_equals_nltk(): _fuzz(5000, 1)


def test_readable_and_fast_routes_agree():
    rng = random.Random(2)
    for _ in range(300):
        h, rs, a, b = _fuzz_case(rng)
        w = [rng.randint(0, 9) for _ in range(rng.randint(0, 15))]
        assert _increasing_pairs(w) == sum(1 for x, y in combinations(w, 2) if x < y)
        assert kendall_tau(w) == nltk_kendall_tau(w)
        st = _ribes_segment(h, tuple(rs), dict(alpha=a, beta=b, tokenize='none', lowercase=False))
        assert (st.score_sum, st.segments[0][1]) == best_reference_ribes([r.split() for r in rs], h.split(), a, b)


def test_options_and_bad_input():
    assert float(sentence_ribes('A b C', 'a b c', lowercase=True)) == 1.0
    assert float(sentence_ribes('a b c.', 'a b c .', tokenize='13a')) == 1.0
    with pytest.raises(MetricInputError, match='beta'): corpus_ribes(['a'], ['a'], beta=-0.1)
    with pytest.raises(MetricInputError): corpus_ribes(['a', 'b'], ['a'])
    with pytest.raises(MetricInputError): sentence_ribes(3, 'a')
    hyps, refs = ['a b'], [['a b', 'c']]
    corpus_ribes(hyps, refs)
    assert hyps == ['a b'] and refs == [['a b', 'c']]
    assert (RIBESSums(0.5, ((0.5,),)) + RIBESSums(0.25, ((0.25,),))).score_sum == 0.75


def test_cli_scores_ribes(tmp_path):
    (tmp_path / 'h.txt').write_text('Bob hit John yesterday\n'); (tmp_path / 'r.txt').write_text('John hit Bob yesterday\n')
    out = subprocess.run([sys.executable, '-m', 'textmetrics_edu', 'score', '-m', 'ribes', '-r', str(tmp_path / 'r.txt'),
                          '--ribes-alpha', '0.25', str(tmp_path / 'h.txt')], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert '0.5' in out.stdout


def test_explorer_escapes_and_reports_errors():
    h = render_ribes_html('<b>x</b> y', ['y x'])
    assert '<b>x' not in h and 'RIBES = ' in h
    assert 'tme-error' in render_ribes_html('a', 'a', alpha=-1)
    assert "<td class='tme-dim'>-</td>" in render_ribes_html('x a x', 'x b x')
