"""Edit distance: differential against jiwer/rapidfuzz (random and long inputs), engine == lesson (property tests),
metric properties, memory on long inputs, one long side (issue 9). The hypotheses-first deprecations:
test_deprecations.py."""
import contextlib
import os
import random
import time
import tracemalloc

import jiwer
import pytest
from hypothesis import given, settings, strategies as st

from textmetrics_edu import edit_distance, levenshtein_matrix
from textmetrics_edu.core import MetricInputError
from textmetrics_edu.metrics.edit_distance import align_bitparallel, backtrace_rapidfuzz
import textmetrics_edu.kernels.edit_distance as engine

seqs = st.lists(st.sampled_from('abcde'), max_size=30)


def counts(ops):
    return tuple(sum(o[0] == k for o in ops) for k in 'CSDI')


@settings(max_examples=1500, deadline=None)
@given(seqs, seqs)
def test_random_pairs_match_jiwer(a, b):
    o = jiwer.process_words(' '.join(a), ' '.join(b))  # jiwer: reference first
    r = edit_distance(a, b, level='tokens')
    assert (r.hits, r.substitutions, r.deletions, r.insertions) == (o.hits, o.substitutions, o.deletions, o.insertions)
    # the educational matrix path and the bit-parallel path give the very same alignment
    assert r.algorithm == 'matrix' and list(r.ops) == align_bitparallel(a, b)[0]


@settings(max_examples=200, deadline=None)
@given(seqs, seqs, seqs)
def test_metric_properties(a, b, c):
    d = lambda x, y: edit_distance(x, y, level='tokens').distance
    assert d(a, b) == d(b, a)
    assert (d(a, b) == 0) == (a == b)
    assert d(a, c) <= d(a, b) + d(b, c)
    assert d(a, b) == levenshtein_matrix(a, b)[-1][-1]


@pytest.mark.parametrize('seed', range(6))
def test_long_random_vs_jiwer(seed):
    rnd = random.Random(seed)
    vocab = [str(i) for i in range(rnd.choice([3, 30, 3000]))]
    a = [rnd.choice(vocab) for _ in range(rnd.randint(500, 3000))]
    b = []
    for w in a:
        x = rnd.random()
        if x < 0.05: continue
        b.append(rnd.choice(vocab) if x < 0.1 else w)
        if x > 0.95: b.append(rnd.choice(vocab))
    o = jiwer.process_words(' '.join(a), ' '.join(b))
    r = edit_distance(a, b, level='tokens', algorithm='bit-parallel')
    assert (r.hits, r.substitutions, r.deletions, r.insertions) == (o.hits, o.substitutions, o.deletions, o.insertions)
    # a known bound on the distance (the distance itself, or looser) narrows the split's passes, never the result
    from textmetrics_edu.kernels.edit_distance import align_codes, levenshtein_distance
    codes, d = align_codes(a, b)[0], levenshtein_distance(a, b)
    assert len(codes) - codes.count('C') == d == r.distance
    for bound in (d, d + 7, 2 * d):
        assert align_codes(a, b, bound=bound)[0] == codes


def test_long_inputs_linear_memory():
    "12,000 words each: exact against jiwer, and the peak Python memory stays far below a quadratic matrix."
    rnd = random.Random(0)
    vocab = [f"w{i}" for i in range(2000)]
    a = [rnd.choice(vocab) for _ in range(12000)]
    b = [w if rnd.random() > 0.15 else rnd.choice(vocab) for w in a]
    b = b[:6000] + [rnd.choice(vocab) for _ in range(300)] + b[6300:]
    tracemalloc.start()
    r = edit_distance(' '.join(a), ' '.join(b))
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert r.algorithm == 'bit-parallel+hirschberg' and r.matrix is None
    assert peak < 300 * 2**20, peak  # a full matrix of Python ints would be > 1 GB
    o = jiwer.process_words(' '.join(a), ' '.join(b))
    assert (r.hits, r.substitutions, r.deletions, r.insertions) == (o.hits, o.substitutions, o.deletions, o.insertions)


def test_weighted_and_bad_input():
    r = edit_distance('ab', 'ba', level='char', sub_cost=4, ins_cost=3, del_cost=3)
    assert r.distance == 6 and r.algorithm == 'matrix'
    assert edit_distance('kitten', 'sitting', level='char').distance == 3
    for f, msg in [(lambda: edit_distance(None, 'a'), '`a` is None'), (lambda: edit_distance('a', 1.5), '`b` must be'),
                   (lambda: edit_distance('a', 'b', del_cost=-1), '`del_cost`'), (lambda: edit_distance('a', 'b', level='x'), '`level`'),
                   (lambda: edit_distance('a', 'b', algorithm='fast'), '`algorithm`'),
                   (lambda: edit_distance([['x']], ['a'], level='tokens'), 'not hashable')]:
        with pytest.raises(MetricInputError, match=msg): f()


def test_explorer_widget_and_renderer():
    import matplotlib
    matplotlib.use('Agg')
    from textmetrics_edu import alignment_explorer, render_alignment_html
    ex = alignment_explorer(hyp='on the mat the cat sat', ref='the cat sat on the mat')
    assert 'TER 0.1667' in ex.output.value and '<img' in ex.output.value
    ex.controls['hyp'].value = 'the cat sat on the mat'
    assert 'WER 0.0000' in ex.output.value
    ex.controls['level'].value = 'char'
    assert 'CER 0.0000' in ex.output.value
    assert '&lt;script&gt;' in render_alignment_html('y', '<script>x</script>', plot=False)


@settings(max_examples=500, deadline=None)
@given(seqs, seqs)
def test_distance_alone_and_operation_codes(a, b):
    from textmetrics_edu.kernels.edit_distance import levenshtein_distance, align_codes, ops_from_codes
    assert levenshtein_distance(a, b) == levenshtein_matrix(a, b)[-1][-1]
    codes, _ = align_codes(a, b)
    assert ops_from_codes(codes) == align_bitparallel(a, b)[0]
    assert len(codes) - codes.count('C') == levenshtein_distance(a, b)


# --- engine == lesson (issue 13) ---------------------------------------------------------------------------------

@contextlib.contextmanager
def engine_thresholds(**values):
    "Set engine module thresholds (e.g. _LONG_COLUMN=0) for the block, restored after (hypothesis forbids monkeypatch)."
    saved = {k: getattr(engine, k) for k in values}
    try:
        for k, v in values.items(): setattr(engine, k, v)
        yield
    finally:
        for k, v in saved.items(): setattr(engine, k, v)


def is_optimal_alignment(a, b, ops, distance):
    return engine.is_alignment(a, b, ops) and sum(op != 'C' for op, _, _ in ops) == distance


medium = st.lists(st.sampled_from('abcd'), max_size=120)


@settings(max_examples=300, deadline=None)
@given(medium, medium)
def test_engine_equals_lesson(a, b):
    """The engine's alignment is the lesson's (`backtrace_rapidfuzz` on `levenshtein_matrix`) on every drawn pair, also
    with every column walked run-at-a-time; forced Hirschberg splits give an optimal alignment of the same distance."""
    D = levenshtein_matrix(a, b)
    lesson = backtrace_rapidfuzz(D, a, b)
    assert engine.ops_from_codes(engine.align_codes(a, b)[0]) == lesson
    assert engine.levenshtein_distance(a, b) == D[-1][-1]
    with engine_thresholds(_LONG_COLUMN=0):
        assert engine.ops_from_codes(engine.align_codes(a, b)[0]) == lesson
    with engine_thresholds(_LONG_COLUMN=0, _RECORD_BYTES=0):
        codes, info = engine.align_codes(a, b)
        assert is_optimal_alignment(a, b, engine.ops_from_codes(codes), D[-1][-1])
    r = edit_distance(a, b, level='tokens')
    assert (r.distance, list(r.ops)) == (D[-1][-1], lesson)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from('abcdefgh'), max_size=300))
def test_pattern_masks_long_path(a):
    "The byte-buffer masks (long sequences) equal the OR-ed ones."
    short = engine._pattern_masks(a)
    with engine_thresholds(_SHORT_PATTERN=0):
        assert engine._pattern_masks(a) == short


# --- one side long, the other short (issue 9: 52 s for 10^6 characters against 2) -------------------------------

def rapidfuzz_ops(a, b):
    from rapidfuzz.distance import Levenshtein
    name = {'replace': 'S', 'delete': 'D', 'insert': 'I'}
    return [(name[t], i if t != 'insert' else None, j if t != 'delete' else None) for t, i, j in Levenshtein.editops(a, b)]


@pytest.mark.parametrize('b', ['xy', 'qu', 'fox'])
def test_one_long_side_is_linear(b):
    """200,000 characters against 2-3: the backtrace walks a run of deletions at once (iterations counted, not
    timed), and the operations are rapidfuzz's, position for position."""
    a = 'the quick brown fox jumps ' * 8000
    codes, info = engine.align_codes(a, b)
    assert info['long_steps'] <= 2 * len(b) + 2, info  # was one iteration per deleted character (208,000)
    assert info['splits'] == 0
    r = edit_distance(a, b, level='char')
    assert r.algorithm == 'bit-parallel'
    assert [o for o in r.ops if o[0] != 'C'] == rapidfuzz_ops(a, b)
    rb = edit_distance(b, a, level='char')  # the other way round: short columns, linear already
    assert (rb.hits, rb.substitutions, rb.deletions, rb.insertions) == (r.hits, r.substitutions, r.insertions, r.deletions)


def test_one_long_side_with_splits():
    "100,000 characters against 60: Hirschberg splits over long columns, the walk still a handful of runs per column."
    rnd = random.Random(3)
    a = ''.join(rnd.choice('abcde ') for _ in range(100_000))
    b = ''.join(rnd.choice('abc') for _ in range(60))
    codes, info = engine.align_codes(a, b)
    assert info['splits'] > 0 and info['long_steps'] <= 20 * len(b), info
    ops = engine.ops_from_codes(codes)
    assert [o for o in ops if o[0] != 'C'] == rapidfuzz_ops(a, b) and engine.is_alignment(a, b, ops)
    b_ops = engine.ops_from_codes(engine.align_codes(b, a)[0])  # the other way round: a short pattern, a long text
    assert [o for o in b_ops if o[0] != 'C'] == rapidfuzz_ops(b, a)


@pytest.mark.parametrize('n1, n2, vocab', [(300, 20000, 'ab'), (300, 20000, 'abcdefghij'), (100, 60000, 'abcd'),
                                           (6000, 1000, 'abcd'), (1500, 4000, 'abcdefghijklmnop'), (2000, 2500, 'ab')])
def test_split_operations_are_rapidfuzz(n1, n2, vocab):
    """Where rapidfuzz splits (Hirschberg), the operations are its own, position for position, also when the pattern
    is short and the text long (its split may be row 0: excluding that row gave other, equally cheap, operations)."""
    rnd = random.Random(n1 * 7 + n2)
    a, b = [rnd.choice(vocab) for _ in range(n1)], [rnd.choice(vocab) for _ in range(n2)]
    codes, info = engine.align_codes(a, b)
    assert info['splits'] > 0
    assert [o for o in engine.ops_from_codes(codes) if o[0] != 'C'] == rapidfuzz_ops(a, b)


@pytest.mark.skipif(not os.environ.get('TME_SLOW'), reason='the timed 10^6-character case; run with TME_SLOW=1')
def test_million_against_two_under_20s():
    a = ''.join(random.Random(0).choice('abcdefghij ') for _ in range(10**6))
    t0 = time.perf_counter()
    r = edit_distance(a, 'ab', level='char')
    assert time.perf_counter() - t0 < 20  # 52 s before the fix, about 1 s after
    assert [o for o in r.ops if o[0] != 'C'] == rapidfuzz_ops(a, 'ab')
