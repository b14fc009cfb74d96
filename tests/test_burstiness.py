"Burstiness: the Goh-Barabasi coefficient, its reference points, term gaps, bad input, explorer."
import math

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from textmetrics_edu.core import MetricInputError
from textmetrics_edu.lm.burstiness import (burstiness, sentence_lengths, interarrival_gaps, term_burstiness,
                                        term_burstiness_table)
from textmetrics_edu.views.burstiness import render_burstiness_html, burstiness_explorer


@settings(max_examples=100, deadline=None)
@given(v=st.lists(st.floats(0, 1e4, allow_subnormal=False), min_size=2, max_size=50).filter(lambda v: np.mean(v) > 1e-100))
def test_definition_and_range(v):
    r = burstiness(v)
    m, s = np.mean(v), np.std(v)
    assert abs(r.score - (s / m - 1) / (s / m + 1)) < 1e-9
    assert -1 <= r.score < 1


def test_reference_points():
    assert float(burstiness([3, 3, 3])) == -1.0
    rng = np.random.default_rng(1)
    assert abs(float(burstiness(rng.exponential(5, 200_000)))) < 0.01
    assert float(burstiness(rng.pareto(1.2, 200_000))) > 0.6


@settings(max_examples=50, deadline=None)
@given(toks=st.lists(st.sampled_from(list('abc')), min_size=3, max_size=60))
def test_table_equals_term_by_term(toks):
    for w, c, b in term_burstiness_table(toks, 3):
        g = interarrival_gaps(toks, w)
        if np.mean(g) > 0: assert abs(b - float(term_burstiness(toks, w))) < 1e-12
        assert c == toks.count(w)


def test_bad_input():
    for bad, match in [([1], 'at least 2'), ([0, 0], 'mean is 0'), ([1, -1], '>= 0'), ([1, math.nan], 'finite'),
                       ('12', 'list of numbers'), ([1, 'x'], 'not strings')]:
        with pytest.raises(MetricInputError, match=match): burstiness(bad)
    with pytest.raises(MetricInputError, match='at least 3'): term_burstiness(['a', 'b', 'a'], 'a')
    assert sentence_lengths('One. Two words! Three words here?') == [1, 2, 3]
    assert sentence_lengths(['a b', '', 'c']) == [2, 1]


def test_renderer_and_explorer():
    assert 'b = -1.0000' in render_burstiness_html('a b. c d.', plot=False)
    assert 'tme-error' in render_burstiness_html('one sentence only', plot=False)
    w = burstiness_explorer()
    w.controls['text'].value = 'x a x a a a a a a x x x'
    w.controls['term'].value = 'x'
    assert "gaps of &#x27;x&#x27;" in w.output.value
