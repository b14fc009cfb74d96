"""The fast engines of SARI, GEC GLEU and span F1 (`kernels/`) equal their lessons' readable versions: the same
statistics (equal, not close) on the fuzzed cases the conformance tests use (300 by default, all 5,000 with --slow),
on the bundled real data, and on the inputs a property test draws. The conformance tests against the tools
(tests/test_sari.py, tests/test_gec_gleu.py, tests/test_span_f1.py) run through the engines too."""
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from textmetrics_edu.kernels.sari import sari_segment_counts
from textmetrics_edu.metrics.sari import MAX_ORDER, SariStats, sari_statistics, sari_tokens
from sari_fuzz import WORDS, rewriting_cases

DATA = Path(__file__).parent / 'data'
REWRITES = rewriting_cases(seed=2016, n=5000)   # the SARI conformance tests' cases


def _lines(p): return p.read_text(encoding='utf-8').split('\n')[:-1]


# ---------------------------------------------------------------------------------------------------------------
# SARI: kernels.sari.sari_segment_counts == metrics.sari.sari_statistics
# ---------------------------------------------------------------------------------------------------------------
def _sari_fast(s, h, rf, tokenize='13a', lowercase=True):
    t = lambda x: sari_tokens(x, tokenize, lowercase)
    return SariStats(*sari_segment_counts(t(s), t(h), [t(r) for r in rf], MAX_ORDER))


def _sari_check(cases, **o):
    for s, h, rf in cases:
        assert _sari_fast(s, h, rf, **o) == sari_statistics(s, h, rf, **o), (s, h, rf)


def test_sari_engine_fuzz_default():
    _sari_check(REWRITES[:300])


@pytest.mark.slow
def test_sari_engine_fuzz_all_5000():
    _sari_check(REWRITES)
    _sari_check(REWRITES, tokenize='none', lowercase=False)


def test_sari_engine_asset():
    d = DATA / 'simplification' / 'asset_test_001-100'
    src = _lines(d / 'asset.test.orig')
    refs = [list(x) for x in zip(*[_lines(d / f'asset.test.simp.{i}') for i in range(1, 10)])]
    for name in ('identity', 'first_clause', 'human_simp0'):
        _sari_check(zip(src, _lines(d / 'sys' / name), refs))


_sent = st.lists(st.sampled_from(WORDS + ['a', 'a', 'b']), min_size=1, max_size=14).map(' '.join)


@settings(max_examples=300, deadline=None, derandomize=True)
@given(_sent, _sent, st.lists(_sent, min_size=1, max_size=5))
def test_sari_engine_property(s, h, rf):
    _sari_check([(s, h, rf)])


# ---------------------------------------------------------------------------------------------------------------
# GEC GLEU: kernels.gec_gleu.gec_gleu_segment_counts == metrics.gec_gleu.gec_gleu_statistics
# ---------------------------------------------------------------------------------------------------------------
from textmetrics_edu.kernels.gec_gleu import gec_gleu_segment_counts  # noqa: E402
from textmetrics_edu.metrics.gec_gleu import GecGleuStats, gec_gleu_statistics, gleu_tokens  # noqa: E402

CORRECTIONS = rewriting_cases(seed=2015, n=5000)   # the GEC GLEU conformance tests' cases


def _gleu_check(cases, orders=(4,), **o):
    for s, h, rf in cases:
        t = lambda x: gleu_tokens(x, o.get('tokenize', 'none'), o.get('lowercase', False))
        toks = t(s), t(h), [t(r) for r in rf]
        for pen in ('gleu', 'compare_mt'):
            for n in orders:
                assert (GecGleuStats(*gec_gleu_segment_counts(*toks, n, pen))
                        == gec_gleu_statistics(s, h, rf, max_order=n, penalty=pen, **o)), (s, h, rf, pen, n)


def test_gec_gleu_engine_fuzz_default():
    _gleu_check(CORRECTIONS[:300], orders=(1, 4, 6))


@pytest.mark.slow
def test_gec_gleu_engine_fuzz_all_5000():
    _gleu_check(CORRECTIONS, orders=(1, 2, 3, 4, 5, 6))
    _gleu_check(CORRECTIONS, tokenize='13a', lowercase=True)


def test_gec_gleu_engine_jfleg():
    d = DATA / 'gec' / 'jfleg_test_001-100'
    src = _lines(d / 'test.src')
    refs = [list(x) for x in zip(*[_lines(d / f'test.ref{i}') for i in range(4)])]
    for hyps in (src, _lines(d / 'test.spellchecked.src'), [r[0] for r in refs]):
        _gleu_check(zip(src, hyps, refs))


@settings(max_examples=300, deadline=None, derandomize=True)
@given(_sent, _sent, st.lists(_sent, min_size=1, max_size=4), st.integers(1, 6))
def test_gec_gleu_engine_property(s, h, rf, n):
    _gleu_check([(s, h, rf)], orders=(n,))


# ---------------------------------------------------------------------------------------------------------------
# span F1: kernels.span_f1 (conlleval_spans_fast, corpus_span_counts) == metrics.span_f1 (conlleval_spans, the sum
# of span_statistics)
# ---------------------------------------------------------------------------------------------------------------
import random  # noqa: E402

from textmetrics_edu.kernels.span_f1 import conlleval_spans_fast, corpus_span_counts  # noqa: E402
from textmetrics_edu.metrics.span_f1 import SCHEMES, SpanStats, conlleval_spans, span_statistics, strict_spans  # noqa: E402

PREFIXES = {None: 'BIES', 'IOB1': 'IB', 'IOB2': 'IB', 'IOE1': 'IE', 'IOE2': 'IE', 'IOBES': 'IBES', 'BILOU': 'BILU'}


def _tag_corpus(rng, prefixes):
    "1-6 sentences of 0-10 tags, O-heavy (all-O sentences too), random prefixes and types (bare prefixes too)."
    def tag():
        if rng.random() < 0.5: return 'O'
        p, t = rng.choice(prefixes), rng.choice(['PER', 'LOC', 'x-y', ''])
        if t == '': rng.random(); return p   # a bare prefix ('B-' with no type is refused since issue 37)
        return f'{p}-{t}'
    sents = [[tag() for _ in range(rng.randint(0, 10))] for _ in range(rng.randint(1, 6))]
    return [' '.join(tag() for _ in s) for s in sents], [' '.join(s) for s in sents]


def _span_check(hyps, refs, scheme=None):
    mode = 'strict' if scheme else 'conlleval'
    if scheme is None:
        for x in (*hyps, *refs): assert conlleval_spans_fast(x.split()) == conlleval_spans(x.split()), x
    spans = conlleval_spans_fast if scheme is None else (lambda t: strict_spans(t, scheme))
    st = [span_statistics(h, r, mode=mode, scheme=scheme) for h, r in zip(hyps, refs)]
    total = st[0]
    for x in st[1:]: total = total + x
    fast = SpanStats(*corpus_span_counts([spans(h.split()) for h in hyps], [spans(r.split()) for r in refs]))
    assert fast == total and fast.per_type == total.per_type, (hyps, refs, scheme)


def _span_fuzz(n, seed):
    rng = random.Random(seed)
    for i in range(n):
        scheme = [None, None, *SCHEMES][i % 8]
        _span_check(*_tag_corpus(rng, PREFIXES[scheme]), scheme)


def test_span_engine_fuzz_default():
    _span_fuzz(600, seed=23)


@pytest.mark.slow
def test_span_engine_fuzz_6000():
    _span_fuzz(6000, seed=2023)


def test_span_engine_wnut17():
    d = DATA / 'ner' / 'wnut17_test_head'
    gold = (d / 'gold.tags').read_text().splitlines()
    for p in sorted(d.glob('*.tags')):
        for scheme in (None, 'IOB2'):
            _span_check(p.read_text().splitlines(), gold, scheme)


_tags = st.lists(st.sampled_from(['O', 'O', 'B-PER', 'I-PER', 'E-PER', 'S-LOC', 'I-LOC', 'B', 'I', 'E', 'S']),
                 max_size=12).map(' '.join)


@settings(max_examples=300, deadline=None, derandomize=True)
@given(st.lists(st.tuples(_tags, _tags), min_size=1, max_size=5))
def test_span_engine_property(pairs):
    n = [min(len(h.split()), len(r.split())) for h, r in pairs]   # as many tags in both (the corpus checks it)
    _span_check([' '.join(h.split()[:k]) for (h, _), k in zip(pairs, n)], [' '.join(r.split()[:k]) for (_, r), k in zip(pairs, n)])
