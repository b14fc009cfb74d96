"""Classification metrics against scikit-learn 1.9.1: random label vectors (hypothesis) for every averaging
option and zero_division setting, real label vectors (SummEval expert vs crowd relevance ratings), bad input, CLI."""
import json
import math
import warnings
from decimal import Decimal, ROUND_HALF_UP
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st, HealthCheck

sklearn = pytest.importorskip('sklearn')
from sklearn import metrics as skm

from textmetrics_edu.core import MetricInputError
from textmetrics_edu.metrics.classification import (precision_recall_fscore_support, corpus_classification, corpus_accuracy,
                                            corpus_f1, corpus_fbeta, corpus_mcc)
from textmetrics_edu.metrics.confusion import confusion_matrix, UndefinedMetricWarning
from textmetrics_edu.views.classification import render_confusion_html
from conftest import read_jsonl

DATA = Path(__file__).parent / 'data' / 'summarization' / 'thumb_cnndm_summeval_docs001-050'
ZD = ('warn', 0, 1, np.nan)


def _same(a, b):
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    np.testing.assert_allclose(a, b, rtol=1e-12, atol=1e-15, equal_nan=True)


def _both(f_ours, f_sk):
    "Run both; they must both raise, or agree."
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        try: theirs = f_sk()
        except ValueError: theirs = ValueError
        try: ours = f_ours()
        except MetricInputError: ours = ValueError
    if theirs is ValueError or ours is ValueError:
        assert theirs is ours, (ours, theirs)
        return None
    return ours, theirs


labels_int = st.integers(0, 3)
labels_str = st.sampled_from(['a', 'b', 'c', 'd'])


@st.composite
def pairs(draw, elem=labels_int, max_n=30):
    n = draw(st.integers(1, max_n))
    return draw(st.lists(elem, min_size=n, max_size=n)), draw(st.lists(elem, min_size=n, max_size=n))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(pairs(), st.sampled_from(['micro', 'macro', 'weighted', None, 'binary']), st.sampled_from(ZD),
       st.sampled_from([1.0, 0.5, 2.0, 0.0, math.inf]), st.sampled_from([0, 1, 3]))
def test_prf_equals_sklearn_random_ints(yy, average, zd, beta, pos_label):
    hyps, refs = yy
    r = _both(lambda: precision_recall_fscore_support(hyps, refs, average=average, zero_division=zd, beta=beta, pos_label=pos_label),
              lambda: skm.precision_recall_fscore_support(refs, hyps, average=average, zero_division=zd, beta=beta, pos_label=pos_label))
    if r is None: return
    ours, theirs = r
    for a, b in zip(ours[:3], theirs[:3]): _same(a, b)
    if average is None: _same(ours[3], theirs[3])


@settings(max_examples=100, deadline=None)
@given(pairs(labels_str), st.sampled_from(['micro', 'macro', 'weighted', None]), st.sampled_from(ZD),
       st.lists(labels_str, min_size=1, max_size=4, unique=True))
def test_prf_with_labels_equals_sklearn(yy, average, zd, labels):
    hyps, refs = yy
    r = _both(lambda: precision_recall_fscore_support(hyps, refs, average=average, zero_division=zd, labels=labels),
              lambda: skm.precision_recall_fscore_support(refs, hyps, average=average, zero_division=zd, labels=labels))
    if r is None: return
    for a, b in zip(r[0][:3], r[1][:3]): _same(a, b)


@settings(max_examples=100, deadline=None)
@given(pairs(labels_str, 40), st.sampled_from(ZD), st.sampled_from(['micro', 'macro', 'weighted']))
def test_scalar_scores_equal_sklearn(yy, zd, average):
    hyps, refs = yy
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        res = corpus_classification(hyps, refs, average=average, zero_division=zd)
        _same(res.accuracy, skm.accuracy_score(refs, hyps))
        _same(res.mcc, skm.matthews_corrcoef(refs, hyps))
        _same(float(res), skm.f1_score(refs, hyps, average=average, zero_division=zd))
        _same(res.precision, skm.precision_score(refs, hyps, average=average, zero_division=zd))
        _same(res.recall, skm.recall_score(refs, hyps, average=average, zero_division=zd))
        _same(corpus_fbeta(hyps, refs, beta=0.5, average=average, zero_division=zd).fbeta,
              skm.fbeta_score(refs, hyps, beta=0.5, average=average, zero_division=zd))
    cm = confusion_matrix(hyps, refs)
    np.testing.assert_array_equal(np.asarray(cm.matrix), skm.confusion_matrix(refs, hyps))
    assert list(cm.labels) == list(sklearn.utils.multiclass.unique_labels(refs, hyps))


@settings(max_examples=100, deadline=None)
@given(pairs(st.integers(0, 1), 40))
def test_binary_mcc_and_accuracy(yy):
    hyps, refs = yy
    _same(corpus_mcc(hyps, refs).mcc, skm.matthews_corrcoef(refs, hyps))
    _same(float(corpus_accuracy(hyps, refs)), skm.accuracy_score(refs, hyps))


@settings(max_examples=100, deadline=None)
@given(pairs(labels_str), st.lists(labels_str, min_size=1, max_size=4, unique=True))
def test_confusion_matrix_with_labels(yy, labels):
    hyps, refs = yy
    r = _both(lambda: np.asarray(confusion_matrix(hyps, refs, labels=labels).matrix),
              lambda: skm.confusion_matrix(refs, hyps, labels=labels))
    if r is not None: np.testing.assert_array_equal(*r)


def test_inputs_not_modified_and_warning():
    h, r = ['a', 'b', 'b'], ['a', 'a', 'c']
    h0, r0 = list(h), list(r)
    with pytest.warns(UndefinedMetricWarning):
        corpus_f1(h, r, average='macro')
    assert (h, r) == (h0, r0)


def _cls(ann, key):
    m = sum(a[key] for a in ann) / len(ann)
    return int(Decimal(repr(m)).quantize(Decimal('1'), ROUND_HALF_UP))


@pytest.mark.parametrize('key', ['coherence', 'consistency', 'fluency', 'relevance'])
def test_real_summeval_expert_vs_crowd(key):
    """Real label vectors: SummEval (docs 001-050 of THumB's CNN/DM set), per summary the 3 experts' mean rating rounded
    half up to a class 1-5 is the gold label, the 5 crowd workers' mean rounded the same way the prediction (800
    summaries with crowd ratings). Binary: rating >= 4."""
    rows = read_jsonl(DATA / 'summaries_with_human_scores.jsonl')
    rows = [x for x in rows if x['turker_annotations']]
    gold = [_cls(x['expert_annotations'], key) for x in rows]
    pred = [_cls(x['turker_annotations'], key) for x in rows]
    assert len(gold) == 800
    for avg in ('micro', 'macro', 'weighted', None):
        for zd in ZD:
            with warnings.catch_warnings():
                warnings.simplefilter('ignore')
                ours = precision_recall_fscore_support(pred, gold, average=avg, zero_division=zd)
                theirs = skm.precision_recall_fscore_support(gold, pred, average=avg, zero_division=zd)
            for a, b in zip(ours[:3], theirs[:3]): _same(a, b)
    _same(corpus_mcc(pred, gold).score, skm.matthews_corrcoef(gold, pred))
    _same(corpus_accuracy(pred, gold).score, skm.accuracy_score(gold, pred))
    bg, bp = [int(g >= 4) for g in gold], [int(p >= 4) for p in pred]
    res = corpus_f1(bp, bg)
    _same(float(res), skm.f1_score(bg, bp))
    _same(res.mcc, skm.matthews_corrcoef(bg, bp))
    _same(corpus_f1(bp, bg, pos_label=0).score, skm.f1_score(bg, bp, pos_label=0))


@pytest.mark.parametrize('call, msg', [
    (lambda: corpus_f1(['a', 'b'], ['a']), '`hyps` has 2 labels but `refs` has 1'),
    (lambda: corpus_f1([], []), 'empty'),
    (lambda: corpus_f1('ab', 'ab'), 'bare str'),
    (lambda: corpus_f1([['a']], [['a']]), 'must be a str or an int label'),
    (lambda: corpus_f1([{'a'}], [{'a'}]), 'must be a str or an int label'),
    (lambda: corpus_f1(['a', 1], ['a', 'b']), 'mixes'),
    (lambda: corpus_f1(['1'], [1]), 'one kind'),
    (lambda: corpus_f1([0.5, 1.0], [1, 1]), 'non-integral'),
    (lambda: corpus_f1([None], ['a']), 'None'),
    (lambda: corpus_f1(['a', 'b'], ['a', 'b'], average='samples'), '`average` must be one of'),
    (lambda: corpus_f1(['a', 'b', 'c'], ['a', 'b', 'c']), 'at most two classes'),
    (lambda: corpus_f1(['yes', 'no'], ['no', 'no']), '`pos_label`=1 is not among'),
    (lambda: corpus_f1([1, 0], [1, 1], zero_division='nan'), '`zero_division`'),
    (lambda: corpus_fbeta([1, 0], [1, 1], beta=-1), '`beta`'),
    (lambda: corpus_f1([1, 0], [1, 1], average='macro', labels=[1, 1]), 'duplicates'),
    (lambda: corpus_classification([1, 0], [1, 1], measure='auc'), '`measure`'),
    (lambda: corpus_classification([1, 0], [1, 1], average=None), 'per-class'),
])
def test_bad_input(call, msg):
    with pytest.raises(MetricInputError, match=None) as e: call()
    assert msg in str(e.value)


def test_renderer_and_result_display():
    out = render_confusion_html('cat dog dog cat dog cat', 'cat cat dog dog pig cat')
    assert 'macro F1 = 0.3556' in out and "<table class='tme-confusion'>" in out
    assert '&lt;script&gt;' in render_confusion_html('<script> x', '<script> y')
    assert "tme-error" in render_confusion_html('a b', 'a')
    res = corpus_f1(['<i>', 'b'], ['<i>', 'b'], average='macro')
    assert '<i>' not in res._repr_html_() and '&lt;i&gt;' in res._repr_html_()
    assert 'MCC' in res.explain()


def test_explorer_widget():
    pytest.importorskip('ipywidgets')
    from textmetrics_edu.views.classification import classification_explorer
    ex = classification_explorer()
    ex.controls['average'].value = 'weighted'
    assert 'weighted F1 = 0.4667' in ex.output.value


def test_cli(tmp_path, capsys):
    from textmetrics_edu.app.cli import main
    (tmp_path / 'p.txt').write_text('cat\ndog\ndog\ncat\ndog\ncat\n'); (tmp_path / 'g.txt').write_text('cat\ncat\ndog\ndog\npig\ncat\n')
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        assert main(['score', str(tmp_path / 'p.txt'), '-r', str(tmp_path / 'g.txt'), '--metrics', 'accuracy,f1,mcc',
                     '--classification-average', 'weighted', '--classification-zero-division', '0', '--format', 'json']) == 0
    m = json.loads(capsys.readouterr().out)['systems'][0]['metrics']
    g, p = 'cat cat dog dog pig cat'.split(), 'cat dog dog cat dog cat'.split()
    _same(m['accuracy']['score'], skm.accuracy_score(g, p))
    _same(m['f1']['score'], skm.f1_score(g, p, average='weighted', zero_division=0))
    _same(m['mcc']['score'], skm.matthews_corrcoef(g, p))


def test_no_numpy_at_import():
    code = "import sys, textmetrics_edu.metrics.classification as c; print('numpy' in sys.modules)"
    # the package __init__ may import numpy users; check the module's own top-level imports instead
    src = Path(__file__).parent.parent / 'textmetrics_edu' / 'metrics' / 'classification.py'
    tops = [l for l in src.read_text().splitlines() if l.startswith(('import ', 'from '))]
    assert not any('numpy' in l or 'sklearn' in l or 'scipy' in l for l in tops), tops


def test_numpy_inputs():
    rng = np.random.default_rng(0)
    for dtype in (int, bool, np.int32, str):
        g = rng.integers(0, 2, 50).astype(dtype); p = rng.integers(0, 2, 50).astype(dtype)
        pos = g[0]
        _same(corpus_f1(p, g, pos_label=pos).score, skm.f1_score(g, p, pos_label=pos))
        _same(corpus_mcc(p, g).score, skm.matthews_corrcoef(g, p))


# --- the metric protocol: accuracy, f1 and mcc are `core.Metric` specs ---------------------------------------------
from textmetrics_edu.core import Metric, get_metric, cli_options
from textmetrics_edu.stats.significance import paired_test, stats_matrix


def test_protocol_specs_and_namespaced_flags():
    for name in ('accuracy', 'f1', 'mcc'):
        m = get_metric(name)
        assert isinstance(m, Metric) and m.name == name and m.aggregate == 'sum' and not m.multi_ref
        flags = {o.flag for o in cli_options(m)}
        assert flags == {'--classification-average', '--classification-pos-label', '--classification-labels',
                         '--classification-zero-division'}


@pytest.mark.parametrize('name, opts, msg', [
    ('f1', dict(average='samples'), '`average`'), ('f1', dict(avg='macro'), 'unknown option `avg`'),
    ('f1', dict(zero_division='nan'), '`zero_division`'), ('accuracy', dict(labels=['a', 'a']), 'duplicates'),
    ('mcc', dict(labels='a b'), '`labels`'), ('f1', dict(average=None), '`average`')])
def test_protocol_bad_options_name_the_option(name, opts, msg):
    with pytest.raises(MetricInputError) as e: get_metric(name).opts(opts)
    assert msg in str(e.value)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(st.sampled_from('abc'), st.sampled_from('abcd')), min_size=1, max_size=25),
       st.sampled_from(['binary', 'micro', 'macro', 'weighted']), st.sampled_from([0, 1, np.nan]))
def test_counts_of_the_protocol_equal_the_corpus_functions(pairs, average, zd):
    """Per-example counts summed and scored by the spec (what the significance tests resample) equal the corpus
    functions, for every measure and average the layout allows."""
    pred, gold = [p for p, g in pairs], [g for p, g in pairs]
    for name, fn in [('accuracy', corpus_accuracy), ('f1', corpus_f1), ('mcc', corpus_mcc)]:
        kw = dict(average=average, zero_division=zd, pos_label='a')
        if average != 'binary' or name == 'mcc': kw['labels'] = ['a', 'b', 'c', 'd']
        with warnings.catch_warnings():
            warnings.simplefilter('ignore')
            try: theirs = float(fn(pred, gold, **kw))
            except MetricInputError: continue  # e.g. 'binary' with three classes: the corpus function refuses
            m = get_metric(name)
            o = m.opts(kw)
            stats = m.stats(tuple(pred), tuple((g,) for g in gold), o)
            total = stats[0]
            for s in stats[1:]: total = total + s
            _same(float(m.score(total, o, signature='', n_segments=len(pred))), theirs)


def test_paired_test_accuracy_and_f1():
    rng = np.random.default_rng(0)
    gold = [str(x) for x in rng.integers(0, 3, 60)]
    base = [g if rng.random() < 0.6 else str(rng.integers(0, 3)) for g in gold]
    sys_ = [g if rng.random() < 0.8 else str(rng.integers(0, 3)) for g in gold]
    r = paired_test(base, sys_, gold, metric='accuracy', n_samples=200)
    _same(r.score, skm.accuracy_score(gold, sys_)); _same(r.baseline_score, skm.accuracy_score(gold, base))
    assert 0 < r.p_value <= 1 and 'paired-bs-accuracy' in r.signature
    r = paired_test(base, sys_, gold, metric='f1', labels=['0', '1', '2'], zero_division=0, test='ar', n_samples=200)
    _same(r.score, skm.f1_score(gold, sys_, average='macro', zero_division=0))
    bg, bb, bs = ([str(int(x == '1')) for x in v] for v in (gold, base, sys_))
    r = paired_test(bb, bs, bg, metric='f1', average='binary', pos_label='1', n_samples=100)
    _same(r.score, skm.f1_score(bg, bs, pos_label='1'))
    r = paired_test(base, sys_, gold, metric='mcc', labels=['0', '1', '2'], n_samples=100)
    _same(r.score, skm.matthews_corrcoef(gold, sys_))
    assert stats_matrix(sys_, gold, 'accuracy').shape == (60, 2)
    with pytest.raises(MetricInputError, match='labels'): paired_test(base, sys_, gold, metric='f1', n_samples=10)
    with pytest.raises(MetricInputError, match='labels'): paired_test(base, sys_, gold, metric='mcc', n_samples=10)
    with pytest.raises(MetricInputError, match='not in `labels`'):
        paired_test(base, sys_, gold, metric='mcc', labels=['0', '1'], n_samples=10)


def test_cli_namespaced_flags_and_no_segments(tmp_path, capsys):
    from textmetrics_edu.app.cli import main
    (tmp_path / 'p.txt').write_text('cat\ndog\ndog\ncat\ndog\ncat\n'); (tmp_path / 'g.txt').write_text('cat\ncat\ndog\ndog\npig\ncat\n')
    g, p = 'cat cat dog dog pig cat'.split(), 'cat dog dog cat dog cat'.split()
    args = ['score', str(tmp_path / 'p.txt'), '-r', str(tmp_path / 'g.txt')]
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        (tmp_path / 'b.txt').write_text('cat\ndog\ndog\ncat\ndog\ncat\n'); (tmp_path / 'bg.txt').write_text('cat\ncat\ndog\ndog\ndog\ncat\n')
        assert main(['score', str(tmp_path / 'b.txt'), '-r', str(tmp_path / 'bg.txt'), '--metrics', 'f1',
                     '--classification-average', 'binary', '--classification-pos-label', 'dog', '--format', 'tsv']) == 0
        out = capsys.readouterr().out.splitlines()
        assert out[0] == 'system\tmetric\tsegment\tscore' and out[1].startswith('b\tf1\tcorpus\t')
        _same(float(out[1].split('\t')[3]), skm.f1_score('cat cat dog dog dog cat'.split(), p, pos_label='dog'))
        assert main(args + ['--metrics', 'f1', '--classification-labels', 'cat,dog', '--classification-zero-division',
                            '0', '--format', 'json']) == 0
        m = json.loads(capsys.readouterr().out)['systems'][0]['metrics']
        _same(m['f1']['score'], skm.f1_score(g, p, average='macro', labels=['cat', 'dog'], zero_division=0))
        assert main(args + ['--metrics', 'accuracy', '--segments']) == 2
        assert 'no sentence-level score' in capsys.readouterr().err
        with pytest.raises(SystemExit): main(args + ['--metrics', 'f1', '--average', 'weighted'])  # removed shared flags
        assert 'unrecognized arguments: --average' in capsys.readouterr().err
        with pytest.raises(SystemExit): main(args + ['--metrics', 'accuracy', '--classification-average', 'mean'])
        assert "invalid choice: 'mean'" in capsys.readouterr().err
