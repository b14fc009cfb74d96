"Edit distance: differential against jiwer/rapidfuzz (random and long inputs), metric properties, memory on long inputs."
import random
import tracemalloc

import jiwer
import pytest
from hypothesis import given, settings, strategies as st

from textmetrics_edu import edit_distance, levenshtein_matrix
from textmetrics_edu.core import MetricInputError
from textmetrics_edu.edit_distance import align_bitparallel, backtrace_rapidfuzz

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
    from textmetrics_edu.edit_distance import align_codes, levenshtein_distance
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
    from textmetrics_edu import alignment_explorer, render_explorer_html
    ex = alignment_explorer('the cat sat on the mat', 'on the mat the cat sat')
    assert 'TER 0.1667' in ex.output.value and '<img' in ex.output.value
    ex.controls['hyp'].value = 'the cat sat on the mat'
    assert 'WER 0.0000' in ex.output.value
    ex.controls['level'].value = 'char'
    assert 'CER 0.0000' in ex.output.value
    assert '&lt;script&gt;' in render_explorer_html('<script>x</script>', 'y', plot=False)


@settings(max_examples=500, deadline=None)
@given(seqs, seqs)
def test_distance_alone_and_operation_codes(a, b):
    from textmetrics_edu.edit_distance import levenshtein_distance, align_codes, ops_from_codes
    assert levenshtein_distance(a, b) == levenshtein_matrix(a, b)[-1][-1]
    codes, _ = align_codes(a, b)
    assert ops_from_codes(codes) == align_bitparallel(a, b)[0]
    assert len(codes) - codes.count('C') == levenshtein_distance(a, b)
