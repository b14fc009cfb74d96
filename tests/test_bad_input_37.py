"""Issue 37's bad-input leftovers (a fault hunt: 3,048 bad API inputs): each now a `MetricInputError` naming the
argument, or accepted where the tool accepts it. One regression test per case."""
import math
import subprocess
import sys
from pathlib import Path

import pytest

from textmetrics_edu.core import MetricInputError


def bad(match, f, *a, **kw):
    with pytest.raises(MetricInputError, match=match): f(*a, **kw)


@pytest.mark.parametrize('pos_label', [math.nan, [1], 1.5])
@pytest.mark.parametrize('average', ['macro', 'binary', 'micro'])
def test_pos_label_must_be_a_label_whatever_the_average(pos_label, average):
    "NaN, a list or 1.5 is not a class: refused even where `pos_label` is ignored (it was scored silently with macro)."
    from textmetrics_edu.metrics.classification import corpus_f1
    from textmetrics_edu.scale.mapreduce import scale_plan
    bad('`pos_label`', corpus_f1, [0, 1, 1], [0, 1, 0], average=average, pos_label=pos_label)
    bad('`pos_label`', scale_plan, 'accuracy', average=average, pos_label=pos_label)   # the spec checks it too


def test_squad_evaluate_names_what_is_wrong():
    from textmetrics_edu.metrics.squad import squad_evaluate
    ds = {'data': [{'paragraphs': [{'qas': [{'id': 'q1', 'answers': [{'text': 'Paris'}]}]}]}]}
    bad('`dataset` is not in the SQuAD layout', squad_evaluate, {'version': 'v2.0'}, {'q1': 'Paris'})   # was KeyError
    bad('`dataset` is not in the SQuAD layout', squad_evaluate, [{'paragraphs': [{'qas': ['q1']}]}], {'q1': 'Paris'})
    bad(r"`predictions\['q1'\]` is None", squad_evaluate, ds, {'q1': None})                          # was AttributeError
    bad('`na_prob_thresh` must be a finite number', squad_evaluate, ds, {'q1': 'Paris'}, na_prob_thresh=math.nan)
    bad(r"`na_probs\['q1'\]` must be a finite number", squad_evaluate, ds, {'q1': 'Paris'}, na_probs={'q1': 'high'})
    assert float(squad_evaluate(ds, {'q1': 'Paris'}, na_probs={'q1': 0.2}, na_prob_thresh=0.5)) == 1.0


def test_pass_at_k_takes_numpy_arrays_and_refuses_duplicate_task_ids():
    "human-eval's `estimate_pass_at_k` takes numpy arrays: so do we; a task id given twice is an error."
    np = pytest.importorskip('numpy')
    from textmetrics_edu.stats.pass_at_k import corpus_pass_at_k
    n, c = np.array([10, 10, 5]), np.array([3, 0, 5])
    want = float(corpus_pass_at_k([10, 10, 5], [3, 0, 5], k=2))
    assert float(corpus_pass_at_k(n, c, k=2)) == want
    assert float(corpus_pass_at_k(np.int64(10), np.array([3, 0, 4]), k=2)) == float(corpus_pass_at_k(10, [3, 0, 4], k=2))
    assert corpus_pass_at_k(n, c, k=2, task_ids=np.array(['a', 'b', 'c'])).task_ids == ('a', 'b', 'c')
    bad("`task_ids` names 'a' twice", corpus_pass_at_k, [5, 5], [1, 2], task_ids=['a', 'a'])


def test_a_bare_prefix_with_a_dash_is_not_a_span_tag():
    from textmetrics_edu import corpus_span_f1
    bad(r"`hyps\[0\]\[0\]` = 'B-' is not a tag", corpus_span_f1, ['B- O'], ['B-PER O'])
    bad(r"`refs\[0\]\[1\]` = 'I-' is not a tag", corpus_span_f1, ['B-PER O'], ['B-PER I-'])
    assert float(corpus_span_f1(['B O'], ['B O'])) == 1.0   # a bare 'B': conlleval's untyped span, as before


def test_get_metric_in_a_fresh_process_and_get_metric_none():
    "`textmetrics_edu.get_metric('bleu')` works before anything imported the metric modules; None is named."
    code = ("import textmetrics_edu as t; print(t.get_metric('bleu').name, t.get_metric('ChrF').name)\n"
            "try: t.get_metric(None)\nexcept t.MetricInputError as e: print(e)")
    r = subprocess.run([sys.executable, '-c', code], capture_output=True, text=True, cwd=Path(__file__).parents[1])
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines() == ['bleu chrf', "`metric` must be a metric name (a str such as 'bleu'), got None"]
    from textmetrics_edu import get_metric
    bad("did you mean 'bleu'", get_metric, 'blue')
