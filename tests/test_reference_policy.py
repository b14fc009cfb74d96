"""Every registered metric declares how a segment's references meet (`Metric.references`: 'pooled', 'best' or 'one'),
and does what it declares: a 'best' metric scores a segment as its best single reference (by its declared `best_key`,
`best` and `ties`), whichever order the references come in; one that the protocol applies (`reference_stats`) keeps the
first of equal references; a 'one' metric refuses a second reference. The metrics come from the registry."""
from dataclasses import astuple

import pytest

from textmetrics_edu.core import (METRICS, REFERENCE_POLICIES, Metric, MetricInputError, best_reference,
                                  discover_metrics, stats_row)

discover_metrics()
NAMES = sorted(METRICS)
BEST = [n for n in NAMES if METRICS[n].metric.references == 'best']
ONE = [n for n in NAMES if METRICS[n].metric.references == 'one']
H = 'the cat sat on the mat today'
A, B = 'the cat sat on a mat today', 'a dog lay under the mat'   # two references that score differently


@pytest.mark.parametrize('name', NAMES)
def test_every_metric_declares_a_reference_policy(name):
    m = METRICS[name].metric
    assert m.references in REFERENCE_POLICIES, name
    assert METRICS[name].multi_ref == m.multi_ref == (m.references != 'one')
    if m.references == 'best': assert callable(m.best_key) and m.best in ('max', 'min') and m.ties in ('first', 'last')
    else: assert m.reference_stats is None, f"{name}: `reference_stats` is for references='best'"


def test_the_best_reference_metrics_are_found():
    "The metrics that keep one reference per segment, as their tools do (NLTK, torchmetrics, cer, rouge-score)."
    assert {'google_bleu', 'meteor', 'ribes', 'eed', 'character', 'rouge1', 'rougeL'} <= set(BEST)
    assert {'bleu', 'chrf', 'ter', 'nist', 'squad'}.isdisjoint(BEST)   # pooled: they see all references at once


def _score(m, st, o): return float(m.score(st, o, signature='', n_segments=1))


@pytest.mark.parametrize('name', BEST)
def test_a_best_reference_metric_scores_its_best_single_reference(name):
    m = METRICS[name].metric
    o = m.opts({})
    alone = [m.stats([H], [(r,)], o)[0] for r in (A, B)]
    keys = [m.best_key(s) for s in alone]
    assert keys[0] != keys[1], f"{name}: the example's references should score differently, got {keys}"
    k, want = best_reference(alone, m.best_key, m.best, m.ties)
    assert k == ((keys[1] > keys[0]) == (m.best == 'max'))   # the declared direction, not always the first
    for refs in ((A, B), (B, A)):
        both = m.stats([H], [refs], o)[0]
        assert stats_row(both) == stats_row(want) and _score(m, both, o) == _score(m, want, o), (name, refs)


@pytest.mark.parametrize('name', [n for n in BEST if METRICS[n].metric.reference_stats is not None])
def test_the_protocol_keeps_the_first_of_equal_references(name):
    "A tie (the same reference twice): the statistics kept are those against the first, its index in the detail."
    m = METRICS[name].metric
    o = m.opts({})
    prep = m.prepare_refs([(A, A)], o)[0] if m.prepare_refs else (A, A)
    each = [m.reference_stats(H, p, o, k) for k, p in enumerate(prep)]
    assert m.best_key(each[0]) == m.best_key(each[1])
    assert astuple(m.stats([H], [(A, A)], o)[0]) == astuple(each[0 if m.ties == 'first' else 1])


@pytest.mark.parametrize('name', ONE)
def test_a_one_reference_metric_refuses_two(name):
    m = METRICS[name].metric
    hyps, refs = (list(m.example.hyps), m.example.refs) if m.example else ([H], [A])
    with pytest.raises(MetricInputError):   # the protocol's 'one reference per segment', or the metric's own check
        METRICS[name].corpus_fn(hyps, [[r, r] for r in refs])


def test_best_reference_states_its_tie_rule():
    assert best_reference([1, 3, 3, 2]) == (1, 3) and best_reference([1, 3, 3, 2], ties='last') == (2, 3)
    assert best_reference([2, 1, 1], best='min') == (1, 1) and best_reference([2, 1, 1], best='min', ties='last') == (2, 1)
    assert best_reference(['ab', 'c'], key=len) == (0, 'ab')
    for bad in (dict(best='highest'), dict(ties='random')):
        with pytest.raises(MetricInputError): best_reference([1], **bad)
    with pytest.raises(MetricInputError, match='no references'): best_reference([])


def test_a_declared_policy_is_checked():
    with pytest.raises(ValueError, match='references'): Metric('x', (), references='all')
    with pytest.raises(ValueError, match='best_key'): Metric('x', (), references='best')
    with pytest.raises(ValueError, match='reference_stats'):
        Metric('x', (), reference_stats=lambda h, r, o, k: None, best_key=len)   # 'pooled' has no per-reference stage


def test_a_derived_stage_survives_replace():
    "`dataclasses.replace` of a spec whose stage 2 the protocol derived derives it again (same numbers)."
    from dataclasses import replace
    m = METRICS['eed'].metric
    o = m.opts({})
    m2 = replace(m, description='a copy')
    assert m2.segment_stats is not m.segment_stats and m2.segment_stats.reference_stats is m.reference_stats
    assert stats_row(m2.stats([H], [(A, B)], o)[0]) == stats_row(m.stats([H], [(A, B)], o)[0])
