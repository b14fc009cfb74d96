"""NIST against mteval-v13a.pl's stored outputs (tests/data/mt/nist, README there: the script is not ours to ship)
and against NLTK 3.10 `nist_score` itself (`convention='nltk'`, and the one-reference case where the two agree):
WMT22 en-de (2037 segments, 9 systems, references A, B, A+B, with and without -c), the bundled sample's segment
scores, NLTK's doctest, 5,000 fuzzed segments in 50 corpora; options, bad input, the CLI, the explorer."""
import importlib.util
import random
import subprocess
import sys

import pytest
from nltk.translate.nist_score import corpus_nist as nltk_corpus_nist, sentence_nist as nltk_sentence_nist

from textmetrics_edu import corpus_nist, sentence_nist, MetricInputError
from textmetrics_edu.core.datasets import load_wmt22_sample
from textmetrics_edu.metrics.nist import (mteval_tokenize, nist_segment_stats, reference_ngram_counts, _nist_prepare,
                                          _nist_segment, NISTStats)
from textmetrics_edu.views.nist import render_nist_html
from conftest import DATA, WMT22_SYSTEMS, sweep

D = DATA / 'mt' / 'nist'
_spec = importlib.util.spec_from_file_location('make_expected', D / 'make_expected.py')
make_expected = importlib.util.module_from_spec(_spec); _spec.loader.exec_module(make_expected)
TOL = 1e-9   # mteval's --metricsMATR files print 15 significant digits; its sums run in Perl's hash order


def _rows(name): return [l.split('\t') for l in (D / name).read_text(encoding='utf-8').splitlines()[1:]]


def _close(ours: float, printed: str, full: str):
    assert f'{ours:.4f}' == printed and abs(ours - float(full)) < TOL, (ours, printed, full)


SYSTEM_ROWS = _rows('mteval_wmt22_system.tsv')


@pytest.mark.parametrize('row', sweep(SYSTEM_ROWS, keep=[r for r in SYSTEM_ROWS if r[2] == 'Online-B' and r[:2] in (['A', '0'], ['A+B', '1'])],
                                      ids=lambda r: f'{r[0]}-c{r[1]}-{r[2]}'))
def test_corpus_nist_equals_mteval_on_wmt22(wmt22, row):
    refs, pc, system, printed, full = row
    A, B = wmt22['refs_A'], wmt22['refs_B']
    rs = {'A': A, 'B': B, 'A+B': [[a, b] for a, b in zip(A, B)]}[refs]
    _close(float(corpus_nist(wmt22['systems'][system], rs, lowercase=pc == '0')), printed, full)


def test_segment_scores_equal_mteval_on_the_sample():
    s = load_wmt22_sample()
    two = [[a, b] for a, b in zip(s['refs_A'], s['refs_B'])]
    for refs, system, printed, full, segs in _rows('mteval_wmt22_sample_segments.tsv'):
        r = corpus_nist(s['systems'][system], s['refs_A'] if refs == 'A' else two)
        _close(float(r), printed, full)
        assert max(abs(a - float(b)) for a, b in zip(r.segment_scores, segs.split())) < TOL


def test_nltk_doctest_equals_mteval():
    d = make_expected.NLTK_DOCTEST
    for h, refs, pc, printed, full in _rows('mteval_nltk_doctest.tsv'):
        rs = d['refs'] if refs == '1+2+3' else [d['refs'][int(refs) - 1]]
        _close(float(sentence_nist(d['hyps'][int(h) - 1], rs, lowercase=pc == '0')), printed, full)


FUZZ_ROWS = _rows('mteval_fuzz.tsv')


def _fuzz_check(row):
    k, printed, full, segs = row
    c = make_expected.fuzz_corpus(int(k))
    r = corpus_nist(c['hyps'], c['refs'], lowercase=not c['preserve_case'])
    _close(float(r), printed, full)
    bad = [(i, a, b) for i, (a, b) in enumerate(zip(r.segment_scores, segs.split())) if abs(a - float(b)) >= TOL]
    assert not bad and len(r.segment_scores) == 100, bad[:3]


# 3 corpora (300 segments) by default, all 50 (5,000 segments) in the slow set
@pytest.mark.parametrize('row', sweep(FUZZ_ROWS, keep=FUZZ_ROWS[:3], ids=lambda r: f'corpus{r[0]}'))
def test_fuzzed_corpora_equal_mteval(row): _fuzz_check(row)


def test_tokenizer_rules():
    assert mteval_tokenize('Äpfel ÄPFEL Apfel') == ('Äpfel', 'Äpfel', 'apfel')   # A-Z only
    assert mteval_tokenize('Äpfel Apfel', lowercase=False) == ('Äpfel', 'Apfel')
    assert mteval_tokenize('a\x1cb a\u3000b') == ('a\x1cb', 'a', 'b')   # Perl's \s, not Python's
    assert mteval_tokenize('&quot;x&quot; &amp;gt;') == ('"', 'x', '"', '>')
    assert mteval_tokenize('1.5 1,000 a.b 3-4 x-y') == ('1.5', '1,000', 'a', '.', 'b', '3', '-', '4', 'x-y')


def _nltk_tokens(rng, n):
    return [rng.choice(['the', 'cat', 'a', 'mat', 'sat', 'on', 'dog', '0', 'x']) for _ in range(rng.randint(0, n))]


def _nltk_fuzz(n, seed):
    "convention='nltk' against NLTK itself; one reference: the mteval convention too (the two agree but for '0')."
    rng = random.Random(seed)
    bad = []
    for _ in range(n):
        refs = [_nltk_tokens(rng, 12) + ['w'] for _ in range(rng.randint(1, 3))]
        hyp = _nltk_tokens(rng, 12) + ['x'] * 5   # >= 5 words: NLTK divides by the n-gram counts
        o = dict(tokenize='none', lowercase=False)
        ours = float(sentence_nist(' '.join(hyp), [' '.join(r) for r in refs], convention='nltk', **o))
        theirs = nltk_sentence_nist(refs, hyp)
        if abs(ours - theirs) > 1e-12: bad.append((hyp, refs, ours, theirs))
        if len(refs) == 1 and '0' not in refs[0]:
            m = float(sentence_nist(' '.join(hyp), [' '.join(refs[0])], **o))
            if abs(m - theirs) > 1e-9: bad.append(('mteval', hyp, refs, m, theirs))
    assert not bad, bad[:3]


def test_nltk_convention_300(): _nltk_fuzz(300, 0)


@pytest.mark.slow
def test_nltk_convention_5000(): _nltk_fuzz(5000, 1)


def test_nltk_convention_on_wmt22_sample():
    s = load_wmt22_sample()
    toks = lambda x: mteval_tokenize(x)
    two = [[a, b] for a, b in zip(s['refs_A'], s['refs_B'])]
    hs = s['systems']['OpenNMT']
    ours = float(corpus_nist(hs, two, convention='nltk'))
    theirs = nltk_corpus_nist([[list(toks(a)), list(toks(b))] for a, b in two], [list(toks(h)) for h in hs])
    assert abs(ours - theirs) < 1e-12


@pytest.mark.parametrize('system', sweep(WMT22_SYSTEMS, keep=[]))
def test_nltk_convention_on_wmt22(wmt22, system):
    "convention='nltk' against NLTK's corpus_nist on the full test set, both references (slow set only)."
    A, B, hs = wmt22['refs_A'], wmt22['refs_B'], wmt22['systems'][system]
    t = lambda x: list(mteval_tokenize(x))
    ours = float(corpus_nist(hs, [[a, b] for a, b in zip(A, B)], convention='nltk'))
    assert abs(ours - nltk_corpus_nist([[t(a), t(b)] for a, b in zip(A, B)], [t(h) for h in hs])) < 1e-12


def test_readable_stage_equals_the_fast_one():
    c = make_expected.fuzz_corpus(7)
    o = dict(max_order=5, tokenize='mteval', lowercase=True, convention='mteval')
    prep = _nist_prepare([tuple(r) for r in c['refs']], o)
    counts, total = reference_ngram_counts([t for ts, _ in prep for t in ts])
    for h, (refs, _info) in zip(c['hyps'], prep):
        a, b = _nist_segment(h, (refs, _info), o), nist_segment_stats(mteval_tokenize(h), refs, counts, total)
        assert a.hyp_ngrams == b.hyp_ngrams and all(abs(x - y) < 1e-9 for x, y in zip(a.info, b.info))
    on = {**o, 'convention': 'nltk'}
    prep = _nist_prepare([tuple(r) for r in c['refs']], on)
    for h, p in zip(c['hyps'], prep):
        assert _nist_segment(h, p, on) == nist_segment_stats(mteval_tokenize(h), p[0], counts, total, convention='nltk')


def test_options_and_bad_input():
    with pytest.raises(MetricInputError, match='segment 0'): corpus_nist(['a'], ['<skipped>'])
    with pytest.raises(MetricInputError, match='convention'): corpus_nist(['a'], ['a'], convention='x')
    with pytest.raises(MetricInputError): corpus_nist(['a', 'b'], ['a'])
    hyps, refs = ['a b'], [['a b', 'c']]
    r = corpus_nist(hyps, refs, max_order=9)
    assert hyps == ['a b'] and refs == [['a b', 'c']] and len(r.precisions) == 9 and len(r.cumulative) == 9
    assert float(sentence_nist('', 'a')) == 0.0
    st = NISTStats((1.0,), (1,), 1, 2, 1, 1)
    assert (st + st).ref_len == 4


def test_cli_scores_nist(tmp_path):
    (tmp_path / 'h.txt').write_text('the cat sat\n'); (tmp_path / 'r.txt').write_text('the cat sat on the mat\n')
    out = subprocess.run([sys.executable, '-m', 'textmetrics_edu', 'score', '-m', 'nist', '-r', str(tmp_path / 'r.txt'),
                          '--nist-convention', 'nltk', str(tmp_path / 'h.txt')], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert f"{float(sentence_nist('the cat sat', 'the cat sat on the mat')):.4f}"[:4] in out.stdout


def test_explorer_escapes_and_reports_errors():
    h = render_nist_html('<b>the</b> cat', ['the cat'])
    assert '<b>the' not in h and 'NIST = ' in h
    assert 'tme-error' in render_nist_html('a', '<skipped>')


def test_nltk_convention_scores_a_corpus_where_one_reference_is_empty():
    """Issue 37: NLTK's corpus_nist scores a corpus in which a segment's (only) reference is empty; so does
    convention='nltk' (that segment's own score is nan: its length ratio is undefined). mteval stops: a named error."""
    rng = random.Random(37)
    worst = 0.0
    for _ in range(60):
        k = rng.randint(2, 5)
        hyps = [_nltk_tokens(rng, 12) + ['x'] * 5 for _ in range(k)]
        refs = [[_nltk_tokens(rng, 12) + ['w'] for _ in range(rng.randint(1, 3))] for _ in range(k)]
        refs[rng.randrange(k)] = [[]]   # one segment's reference is empty
        o = dict(tokenize='none', lowercase=False, convention='nltk')
        r = corpus_nist([' '.join(h) for h in hyps], [[' '.join(x) for x in rs] for rs in refs], **o)
        worst = max(worst, abs(float(r) - nltk_corpus_nist(refs, hyps)))
        assert sum(s != s for s in r.segment_scores) == 1
    assert worst < 1e-12, worst
    with pytest.raises(MetricInputError, match='segment 1'): corpus_nist(['a b', 'c d'], [['a b'], ['']])
