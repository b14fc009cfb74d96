"""BLEU and chrF against sacreBLEU 2.6.0 itself and the WMT22 official scores, on the real data;
tokenizers; smoothing and options; properties; bad input; the explorer."""
import math

import pytest
import sacrebleu
from hypothesis import given, settings, strategies as st
from sacrebleu.metrics import BLEU, CHRF

from textmetrics_edu import corpus_bleu, sentence_bleu, corpus_chrf, sentence_chrf, MetricInputError, refs_from_streams
from textmetrics_edu.core import TOKENIZERS
from textmetrics_edu.metrics.bleu import bleu_ngram_table
from textmetrics_edu.views.bleu import bleu_explorer, render_bleu_html
from conftest import WMT22_SYSTEMS, sweep


def _sb_tok(name):
    from sacrebleu.metrics.bleu import _get_tokenizer
    return _get_tokenizer(name)()


# ---------------------------------------------------------------- tokenizers
UNICODE = ['Ça coûte 3,50 € (environ).', '東京は「晴れ」です。', 'He said: "no"—really?!', 'a&amp;b &lt;x&gt; <skipped> -\nend',
           'Zürich, 1.000.000 Einwohner; 5-6 Tage', 'emoji 🙂 ok', '\u00a0nbsp\u2009thin', 'tab\tand  spaces ']


@pytest.mark.parametrize('name', ['none', '13a', 'intl', 'char'])
def test_tokenizers_equal_sacrebleu_on_real_data(name, wmt22):
    ours, theirs = TOKENIZERS[name], _sb_tok(name)
    lines = wmt22['refs_A'] + wmt22['refs_B'] + wmt22['systems']['Online-B'] + UNICODE
    bad = [l for l in lines if ours(l) != theirs(l)]
    assert not bad, bad[:3]


# ---------------------------------------------------------------- corpus level, official scores
# every system in the slow set (--slow); by default one system, every reference set
@pytest.mark.parametrize('system', sweep(WMT22_SYSTEMS, keep=['Online-B']))
@pytest.mark.parametrize('refset', ['A', 'B', 'all'])
def test_corpus_bleu_chrf_all_systems(wmt22, refset, system):
    A, B = wmt22['refs_A'], wmt22['refs_B']
    ours_refs = A if refset == 'A' else B if refset == 'B' else [list(x) for x in zip(A, B)]
    streams = [A] if refset == 'A' else [B] if refset == 'B' else [A, B]
    for hyps in [wmt22['systems'][system]]:
        b, c = corpus_bleu(hyps, ours_refs), corpus_chrf(hyps, ours_refs)
        sb, sc = sacrebleu.corpus_bleu(hyps, streams), sacrebleu.corpus_chrf(hyps, streams)
        assert abs(100 * float(b) - sb.score) < 1e-9, (system, refset)
        assert abs(100 * float(c) - sc.score) < 1e-9, (system, refset)
        assert abs(100 * float(b) - wmt22['official'][system, f'bleu-{refset}']) < 1e-9
        assert abs(100 * float(c) - wmt22['official'][system, f'chrf-{refset}']) < 1e-9
        assert b.hyp_len == sb.sys_len and b.ref_len == sb.ref_len
        assert list(b.matches) == sb.counts and list(b.totals) == sb.totals


@pytest.mark.parametrize('system', sweep(WMT22_SYSTEMS, keep=['JDExploreAcademy']))
def test_chrf_plus_plus_all_systems(wmt22, system):
    A, B = wmt22['refs_A'], wmt22['refs_B']
    for hyps in [wmt22['systems'][system]]:
        ours = corpus_chrf(hyps, [list(x) for x in zip(A, B)], word_order=2)
        assert abs(100 * float(ours) - sacrebleu.corpus_chrf(hyps, [A, B], word_order=2).score) < 1e-9


# ---------------------------------------------------------------- sentence level, every segment
@pytest.mark.parametrize('system', sweep(['Online-B', 'OpenNMT', 'PROMT'], keep=['Online-B']))
def test_sentence_bleu_every_segment(wmt22, system):
    A, B = wmt22['refs_A'], wmt22['refs_B']
    for system in [system]:
        for i, h in enumerate(wmt22['systems'][system]):
            assert abs(100 * float(sentence_bleu(h, A[i])) - sacrebleu.sentence_bleu(h, [A[i]]).score) < 1e-9, (system, i)
            assert abs(100 * float(sentence_bleu(h, [A[i], B[i]])) - sacrebleu.sentence_bleu(h, [A[i], B[i]]).score) < 1e-9


def test_sentence_chrf_every_segment(wmt22):
    A, B = wmt22['refs_A'], wmt22['refs_B']
    for i, h in enumerate(wmt22['systems']['Online-W']):
        assert abs(100 * float(sentence_chrf(h, [A[i], B[i]])) - sacrebleu.sentence_chrf(h, [A[i], B[i]]).score) < 1e-9


# ---------------------------------------------------------------- every option
# by default every tokenizer with the default smoothing and every smoothing with the default tokenizer; the other
# combinations in the slow set
@pytest.mark.parametrize('tokenize,smooth', sweep(
    [(t, s) for s in [('none', None), ('floor', None), ('floor', 0.3), ('add-k', None), ('add-k', 2), ('exp', None)]
     for t in ['none', '13a', 'intl', 'char']],
    keep=[(t, ('exp', None)) for t in ['none', '13a', 'intl', 'char']] +
         [('13a', s) for s in [('none', None), ('floor', None), ('floor', 0.3), ('add-k', None), ('add-k', 2)]],
    ids=lambda v: f'{v[1][0]}-{v[1][1]}-{v[0]}', several=True))
def test_bleu_options_corpus_and_sentence(wmt22, tokenize, smooth):
    method, value = smooth
    n = 80 if tokenize == 'char' else 200   # every option on a slice; the whole data under the default options above
    hyps, A, B = wmt22['systems']['Online-A'][:n], wmt22['refs_A'][:n], wmt22['refs_B'][:n]
    for lowercase in (False, True):
        for eff in (False, True):
            for order in (2, 4, 5):
                sb = BLEU(tokenize=tokenize, smooth_method=method, smooth_value=value, lowercase=lowercase,
                          effective_order=eff, max_ngram_order=order)
                ours = corpus_bleu(hyps, [list(x) for x in zip(A, B)], tokenize=tokenize, smooth_method=method,
                                   smooth_value=value, lowercase=lowercase, effective_order=eff, max_order=order)
                assert abs(100 * float(ours) - sb.corpus_score(hyps, [A, B]).score) < 1e-9
    sb = BLEU(tokenize=tokenize, smooth_method=method, smooth_value=value, effective_order=True)
    for i in range(0, n, 7):
        ours = sentence_bleu(hyps[i], A[i], tokenize=tokenize, smooth_method=method, smooth_value=value)
        assert abs(100 * float(ours) - sb.sentence_score(hyps[i], [A[i]]).score) < 1e-9, i


def test_bleu_short_and_degenerate_segments():
    cases = [('', 'a b c'), ('a', 'a'), ('a b', 'a b c d e'), ('x y z', 'a b c'), ('the the the', 'the'),
             ('a b c d e', ''), ('. . .', '...'), ('  spaced   out  ', 'spaced out')]
    for method in ('none', 'floor', 'add-k', 'exp'):
        for eff in (False, True):
            sb = BLEU(smooth_method=method, effective_order=eff)
            for h, r in cases:
                assert abs(100 * float(sentence_bleu(h, r, smooth_method=method, effective_order=eff))
                           - sb.sentence_score(h, [r]).score) < 1e-9, (method, eff, h, r)
            hs, rs = [c[0] for c in cases], [c[1] for c in cases]
            assert abs(100 * float(corpus_bleu(hs, rs, smooth_method=method, effective_order=eff))
                       - sb.corpus_score(hs, [rs]).score) < 1e-9


@pytest.mark.parametrize('opts', [dict(), dict(word_order=2), dict(word_order=1, char_order=4), dict(beta=1),
                                  dict(beta=3, lowercase=True), dict(whitespace=True), dict(eps_smoothing=True),
                                  dict(eps_smoothing=True, word_order=2), dict(char_order=0, word_order=2)])
def test_chrf_options(wmt22, opts):
    hyps, A, B = wmt22['systems']['JDExploreAcademy'][:500], wmt22['refs_A'][:500], wmt22['refs_B'][:500]
    sb = CHRF(**opts)
    ours = corpus_chrf(hyps, [list(x) for x in zip(A, B)], **opts)
    assert abs(100 * float(ours) - sb.corpus_score(hyps, [A, B]).score) < 1e-9
    for i in range(0, 500, 11):
        assert abs(100 * float(sentence_chrf(hyps[i], [A[i], B[i]], **opts)) - sb.sentence_score(hyps[i], [A[i], B[i]]).score) < 1e-9


def test_variable_number_of_references():
    hyps = ['the cat sat', 'a dog barked loudly', 'rain in paris']
    refs = [['the cat sat down', 'a cat sat'], 'the dog barked', ['it rains in paris', 'rain falls on paris', 'paris rain']]
    streams = [[r if isinstance(r, str) else r[0] for r in refs],
               [None if isinstance(r, str) else r[1] for r in refs],
               [None if isinstance(r, str) or len(r) < 3 else r[2] for r in refs]]
    assert refs_from_streams(*streams) == [r if isinstance(r, list) else [r] for r in refs]
    assert abs(100 * float(corpus_bleu(hyps, refs)) - sacrebleu.corpus_bleu(hyps, streams).score) < 1e-9
    assert abs(100 * float(corpus_chrf(hyps, refs)) - sacrebleu.corpus_chrf(hyps, streams).score) < 1e-9
    assert 'nrefs:var' in corpus_bleu(hyps, refs).signature


# ---------------------------------------------------------------- properties (differential and invariants)
words = st.sampled_from('the a cat dog sat on mat rug is was Katze über Straße , . ! 3,5 東京 café'.split())
sentence = st.lists(words, min_size=0, max_size=14).map(' '.join)


@settings(max_examples=300, deadline=None)
@given(h=sentence, refs=st.lists(sentence, min_size=1, max_size=3),
       method=st.sampled_from(['none', 'floor', 'add-k', 'exp']), tok=st.sampled_from(['13a', 'intl', 'none', 'char']))
def test_random_sentences_match_sacrebleu(h, refs, method, tok):
    ours = sentence_bleu(h, refs, smooth_method=method, tokenize=tok)
    theirs = sacrebleu.sentence_bleu(h, refs, smooth_method=method, tokenize=tok)
    assert abs(100 * float(ours) - theirs.score) < 1e-9
    assert abs(100 * float(sentence_chrf(h, refs)) - sacrebleu.sentence_chrf(h, refs).score) < 1e-9


@settings(max_examples=300, deadline=None)
@given(h=sentence, refs=st.lists(sentence, min_size=1, max_size=3), char_order=st.integers(0, 7),
       word_order=st.integers(0, 3), beta=st.sampled_from([0.5, 1, 2, 3]), lowercase=st.booleans(),
       whitespace=st.booleans(), eps_smoothing=st.booleans())
def test_chrf_engine_equals_lesson(h, refs, char_order, word_order, beta, lowercase, whitespace, eps_smoothing):
    "chrF's engine (`_seg_stats_fast`, what the corpus functions use) gives the lesson's statistics (`_seg_stats`)"
    from textmetrics_edu.metrics import chrf as C
    if char_order + word_order == 0: char_order = 1
    opts = (char_order, word_order, beta, lowercase, whitespace, eps_smoothing)
    refs_before = list(refs)
    assert C._seg_stats_fast(h, refs, *opts) == C._seg_stats(h, refs, *opts)
    assert refs == refs_before


@settings(max_examples=200, deadline=None)
@given(h=sentence, refs=st.lists(sentence, min_size=1, max_size=3), data=st.data())
def test_range_and_reference_order(h, refs, data):
    perm = data.draw(st.permutations(refs))
    for f in (sentence_bleu, sentence_chrf):
        s = float(f(h, refs))
        assert 0.0 <= s <= 1.0
        assert math.isclose(s, float(f(h, list(perm))), abs_tol=1e-12) or f is sentence_chrf
    # chrF keeps the first best reference on ties, which is order-independent in score:
    assert math.isclose(float(sentence_chrf(h, refs)), float(sentence_chrf(h, list(perm))), abs_tol=1e-12)


@settings(max_examples=200, deadline=None)
@given(s=st.lists(words, min_size=1, max_size=20).map(' '.join))
def test_identical_scores_one(s):
    assert float(sentence_bleu(s, s)) == pytest.approx(1.0)
    assert float(sentence_chrf(s, s)) == pytest.approx(1.0)
    assert float(corpus_bleu([s], [s], effective_order=True)) == pytest.approx(1.0)


def test_identical_corpus_scores_one(wmt22):
    A = wmt22['refs_A']
    assert float(corpus_bleu(A, A)) == 1.0 and float(corpus_chrf(A, A)) == 1.0


# ---------------------------------------------------------------- bad input
@pytest.mark.parametrize('hyps,refs,msg', [
    ('a b', ['a b'], 'bare str'),
    (['a', 'b'], 'a b', '`refs` is a bare str'),
    (['a', 'b'], ['a'], '2 hypotheses'),
    ([], [], 'empty'),
    (None, ['a'], '`hyps` is None'),
    (['a'], None, '`refs` is None'),
    ([None], ['a'], '`hyps[0]` is None'),
    ([3], ['a'], '`hyps[0]` must be a str'),
    (['a'], [[None]], '`refs[0][0]` is None'),
    (['a'], [[]], 'empty list'),
    (['a', 'b', 'c'], [['a', 'b', 'c'], ['x', 'y', 'z']], 'refs_from_streams'),
    (['a'], [b'bytes'], '`refs[0]` must be a str'),
])
@pytest.mark.parametrize('fn', [corpus_bleu, corpus_chrf])
def test_bad_corpus_input(fn, hyps, refs, msg):
    with pytest.raises(MetricInputError, match=msg.replace('[', r'\[').replace(']', r'\]')):
        fn(hyps, refs)


def test_bad_sentence_input_and_options():
    with pytest.raises(MetricInputError, match='`hyp` must be a str'): sentence_bleu(['a'], 'a')
    with pytest.raises(MetricInputError, match='`refs` is None'): sentence_chrf('a', None)
    with pytest.raises(MetricInputError, match='`tokenize`'): corpus_bleu(['a'], ['a'], tokenize='moses')
    with pytest.raises(MetricInputError, match='`max_order`'): corpus_bleu(['a'], ['a'], max_order=0)
    with pytest.raises(MetricInputError, match='`smooth_value`'): corpus_bleu(['a'], ['a'], smooth_value=-1)
    with pytest.raises(MetricInputError, match='`char_order`'): corpus_chrf(['a'], ['a'], char_order=-1)


def test_text_that_tokenizes_to_nothing_is_the_documented_zero():
    # an empty (or all-whitespace) hypothesis has length 0: BP = 0 and BLEU = 0, as sacreBLEU; chrF is 0
    assert float(sentence_bleu('   ', 'a reference')) == 0.0 == sacrebleu.sentence_bleu('   ', ['a reference']).score
    assert float(sentence_chrf('   ', 'a reference')) == 0.0


def test_inputs_not_modified_and_result_frozen():
    hyps, refs = ['a b c d', 'e f'], [['a b c d', 'a b'], 'e f']
    before = (list(hyps), [list(r) if isinstance(r, list) else r for r in refs])
    r = corpus_bleu(hyps, refs); corpus_chrf(hyps, refs)
    assert (hyps, refs) == before
    with pytest.raises(Exception): r.score = 0
    assert float(r) == r.score and 'BLEU|nrefs:var' in r.signature


def test_rich_display_escapes_user_text():
    r = sentence_bleu('<script>x</script>', '<script>x</script>', tokenize='none')
    assert '<script>' not in r._repr_html_() and '<script>' not in r._repr_markdown_()
    assert '<script>' not in render_bleu_html('<script>x</script>', '<img src=x onerror=alert(1)>', plot=False)


# ---------------------------------------------------------------- explorer
def test_ngram_table_and_explorer():
    rows = bleu_ngram_table('the the the', 'the cat', max_order=1)
    assert rows == [dict(n=1, ngram='the', count=3, max_ref=1, clipped=1)]
    ex = bleu_explorer()
    assert 'BLEU = 0.5170' in ex.output.value
    ex.controls['hyp'].value = 'the guard arrived late because it was raining'
    assert 'BLEU = 1.0000' in ex.output.value
    ex.controls['smooth_method'].value = 'none'
    ex.controls['hyp'].value = 'completely different words here'
    assert 'BLEU = 0.0000' in ex.output.value
    ex.controls['refs'].value = '   '
    assert 'at least one reference' in ex.output.value
    ex.controls['refs'].value = 'a b\nc d'
    ex.controls['max_order'].value = 1
    assert 'p_1' in ex.output.value and 'p_2' not in ex.output.value


def test_zero_weight_orders_are_left_out_as_nltk():
    """An order of weight 0 drops out of the weighted geometric mean (p^0 = 1, also for p = 0), as NLTK: weights
    (1, 0, 0, 0) with no 4-gram match scored 0 here and BP * p_1 in NLTK (30 of 5,000 fuzzed cases). Weights may be a
    numpy array, as NLTK's own tests pass them. 2,000 fuzzed corpora, unsmoothed, whitespace tokens."""
    import random, warnings
    import numpy as np
    from nltk.translate.bleu_score import corpus_bleu as nltk_corpus_bleu
    from textmetrics_edu import SegmentRefs
    rng = random.Random(18)
    vocab = 'the a cat dog sat on mat rug and was is'.split()
    # at least 4 words: NLTK divides by max(1, count) per sentence, so a hypothesis shorter than an order would differ
    # for another reason (its own convention, shown in the BLEU lesson)
    sent = lambda: ' '.join(rng.choice(vocab) for _ in range(rng.randint(4, 9)))
    weightings = [(1, 0, 0, 0), (0.5, 0.5, 0, 0), (0.2, 0.3, 0.5, 0), (0.25, 0.25, 0.25, 0.25), (0, 1, 0, 0)]
    n_zero_order = 0
    for case in range(2000):
        hyps = [sent() for _ in range(rng.randint(1, 3))]
        refs = [[sent() for _ in range(rng.randint(1, 2))] for _ in hyps]
        w = weightings[case % len(weightings)]
        ours = corpus_bleu(hyps, SegmentRefs(refs), weights=np.array(w, dtype=float), smooth_method='none', tokenize='none')
        with warnings.catch_warnings():
            warnings.simplefilter('ignore')   # NLTK warns of orders with no match
            theirs = nltk_corpus_bleu([[r.split() for r in rs] for rs in refs], [h.split() for h in hyps], weights=w)
        # NLTK puts sys.float_info.min (2.2e-308) for an order of positive weight with no match: its score is then
        # ~1e-308 to ~1e-77 instead of 0
        if theirs < 1e-70: assert float(ours) == 0, (hyps, refs, w)
        else: assert float(ours) == pytest.approx(theirs, rel=1e-12), (hyps, refs, w)
        n_zero_order += float(ours) > 0 and 0 in ours.matches[:4]
    assert n_zero_order > 100   # the cases that scored 0 before: an order of weight 0 without any match
