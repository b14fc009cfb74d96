"""GLUE/SuperGLUE: each task's metric against scikit-learn / scipy on random data, SQuAD normalisation on hand cases,
the published aggregates (Liu et al. 2019 Table 2; Wang et al. 2019 Table 3), bad input."""
import random
import re
import string

import pytest
from hypothesis import given, settings, strategies as st

skm = pytest.importorskip('sklearn.metrics')
sps = pytest.importorskip('scipy.stats')

from textmetrics_edu.core import MetricInputError
from textmetrics_edu.metrics.glue import task_metrics, benchmark_score, corpus_glue, corpus_superglue, round_half_up, TASKS
from textmetrics_edu.metrics.squad import squad_normalize as normalize_answer, squad_token_f1


def token_f1(prediction, gold): return squad_token_f1(prediction, gold, 'v1.1')   # ReCoRD's: SQuAD v1.1's F1


def close(a, b, eps=1e-12): assert abs(a - b) <= eps, (a, b)


@st.composite
def binary_pair(draw, n_min=2, n_max=40):
    n = draw(st.integers(n_min, n_max))
    return draw(st.lists(st.integers(0, 1), min_size=n, max_size=n)), draw(st.lists(st.integers(0, 1), min_size=n, max_size=n))


@settings(max_examples=100, deadline=None)
@given(binary_pair())
def test_binary_tasks_equal_sklearn(yy):
    p, g = yy
    m = dict(task_metrics('mrpc', p, g).metrics)
    close(m['f1'], skm.f1_score(g, p, zero_division=0)); close(m['accuracy'], skm.accuracy_score(g, p))
    close(dict(task_metrics('cola', p, g).metrics)['mcc'], skm.matthews_corrcoef(g, p))
    close(dict(task_metrics('boolq', p, g, benchmark='superglue').metrics)['accuracy'], skm.accuracy_score(g, p))


@settings(max_examples=100, deadline=None)
@given(st.integers(3, 40).flatmap(lambda n: st.tuples(st.lists(st.sampled_from(['entailment', 'contradiction', 'neutral']), min_size=n, max_size=n),
                                                      st.lists(st.sampled_from(['entailment', 'contradiction', 'neutral']), min_size=n, max_size=n))))
def test_cb_and_ax_equal_sklearn(yy):
    p, g = yy
    m = dict(task_metrics('cb', p, g, benchmark='superglue').metrics)
    close(m['macro_f1'], skm.f1_score(g, p, average='macro', zero_division=0)); close(m['accuracy'], skm.accuracy_score(g, p))
    close(dict(task_metrics('ax', p, g).metrics)['mcc'], skm.matthews_corrcoef(g, p))
    close(dict(task_metrics('mnli_m', p, g).metrics)['accuracy'], skm.accuracy_score(g, p))


def test_stsb_equals_scipy():
    rng = random.Random(1)
    for _ in range(20):
        g = [round(rng.uniform(0, 5), 1) for _ in range(60)]  # ties, as in STS-B
        p = [round(x + rng.gauss(0, 1.2), 1) for x in g]
        m = dict(task_metrics('stsb', p, g).metrics)
        close(m['pearson'], sps.pearsonr(p, g)[0]); close(m['spearman'], sps.spearmanr(p, g)[0])


def test_multirc_equals_sklearn():
    rng = random.Random(2)
    P, G = [], []
    for _ in range(50):
        k = rng.randint(2, 6)
        G.append([rng.randint(0, 1) for _ in range(k)]); P.append([rng.randint(0, 1) for _ in range(k)])
    m = dict(task_metrics('multirc', P, G, benchmark='superglue').metrics)
    close(m['f1a'], skm.f1_score([v for q in G for v in q], [v for q in P for v in q]))
    close(m['em'], sum(p == g for p, g in zip(P, G)) / len(G))


def _squad_normalize(s):  # the SQuAD v1.1 evaluation script's normalize_answer, written out for the comparison
    def remove_articles(text): return re.sub(r'\b(a|an|the)\b', ' ', text)
    def white_space_fix(text): return ' '.join(text.split())
    def remove_punc(text): return ''.join(ch for ch in text if ch not in set(string.punctuation))
    return white_space_fix(remove_articles(remove_punc(s.lower())))


@pytest.mark.parametrize('text, expected', [
    ('The Eiffel Tower.', 'eiffel tower'), ('an  apple', 'apple'), ('Theatre', 'theatre'), ('A.B.C.', 'abc'),
    ("O'Neill", 'oneill'), ('  the   THE a an ', ''), ('Barack H. Obama', 'barack h obama'), ('U.S.-led', 'usled'),
    ('Ünïcödé — dash', 'ünïcödé — dash'),  # only ASCII punctuation is removed, as in SQuAD
])
def test_normalize_answer_hand_cases(text, expected):
    assert normalize_answer(text) == expected == _squad_normalize(text)


def test_token_f1_and_record():
    assert token_f1('the cat sat', 'a cat sat down') == 2 * (2 / 2) * (2 / 3) / (2 / 2 + 2 / 3)
    assert token_f1('the', 'a') == 0.0  # both normalise to nothing
    assert token_f1('cat cat', 'cat') == 2 * 0.5 * 1 / 1.5  # clipped counts
    m = dict(task_metrics('record', ['Obama', 'the Paris'], [['Barack Obama', 'Obama'], ['London']], benchmark='superglue').metrics)
    assert m == {'f1': 0.5, 'em': 0.5}


def test_axg():
    m = dict(task_metrics('axg', [(1, 1), (1, 0), (0, 0)], [(1, 1), (1, 1), (0, 1)], benchmark='superglue').metrics)
    close(m['gps'], 2 / 3); close(m['accuracy'], 4 / 6)


GLUE_ROWS = {  # Liu et al. (2019, ACL), Table 2
    '80.5': dict(cola='60.5', sst2='94.9', mrpc=('89.3', '85.4'), stsb=('87.6', '86.5'), qqp=('72.1', '89.3'), mnli_m='86.7',
                 mnli_mm='85.9', qnli='92.7', rte='70.1', wnli='65.1', ax='39.6'),
    '81.7': dict(cola='58.9', sst2='94.6', mrpc=('90.1', '86.4'), stsb=('89.5', '88.8'), qqp=('72.7', '89.6'), mnli_m='86.5',
                 mnli_mm='85.8', qnli='93.1', rte='79.1', wnli='65.1', ax='39.4'),
    '82.7': dict(cola='62.5', sst2='95.6', mrpc=('91.1', '88.2'), stsb=('89.5', '88.8'), qqp=('72.7', '89.6'), mnli_m='86.7',
                 mnli_mm='86.0', qnli='93.1', rte='81.4', wnli='65.1', ax='40.3'),
    '87.1': dict(cola='66.4', sst2='97.8', mrpc=('86.3', '80.8'), stsb=('92.7', '92.6'), qqp=('59.5', '80.4'), mnli_m='92.0',
                 mnli_mm='92.8', qnli='91.2', rte='93.6', wnli='95.9'),
}
SUPERGLUE_ROWS = {  # Wang et al. (2019, NeurIPS), Table 3: published Avg -> columns
    '47.1': dict(boolq='62.3', cb=('21.7', '48.4'), copa='50.0', multirc=('61.1', '0.3'), record=('33.4', '32.5'), rte='50.3',
                 wic='50.0', wsc='65.1', axb='0.0', axg=('100.0', '50.0')),
    '69.0': dict(boolq='77.4', cb=('75.7', '83.6'), copa='70.6', multirc=('70.0', '24.0'), record=('72.0', '71.3'), rte='71.6',
                 wic='69.5', wsc='64.3', axb='23.0', axg=('97.8', '51.7')),
    '71.5': dict(boolq='79.0', cb=('84.7', '90.4'), copa='73.8', multirc=('70.0', '24.1'), record=('72.0', '71.3'), rte='79.0',
                 wic='69.5', wsc='64.3', axb='38.0', axg=('99.4', '51.4')),
    '89.8': dict(boolq='89.0', cb=('95.8', '98.9'), copa='100.0', multirc=('81.8', '51.9'), record=('91.7', '91.3'), rte='93.6',
                 wic='80.0', wsc='100.0', axb='77.0', axg=('99.3', '99.7')),
}


@pytest.mark.parametrize('published', list(GLUE_ROWS))
def test_published_glue(published):
    assert benchmark_score(GLUE_ROWS[published]).rounded == published


@pytest.mark.parametrize('published', list(SUPERGLUE_ROWS))
def test_published_superglue(published):
    assert benchmark_score(SUPERGLUE_ROWS[published], benchmark='superglue').rounded == published


def test_cbow_row_does_not_reproduce():
    r = benchmark_score(dict(boolq='62.1', cb=('49.0', '71.2'), copa='51.6', multirc=('0.0', '0.4'), record=('14.0', '13.6'),
                             rte='49.7', wic='53.0', wsc='65.1'), benchmark='superglue')
    assert (r.exact, r.rounded) == ('44.45', '44.5')  # published 44.3


def test_rounding():
    assert round(47.05, 1) == 47.0 and str(round_half_up(47.05)) == '47.1' and str(round_half_up('87.05')) == '87.1'
    assert str(round_half_up(44.449)) == '44.4'


def test_float_scores_and_task_results_mix():
    cols = {k: (tuple(float(x) for x in v) if isinstance(v, tuple) else float(v)) for k, v in GLUE_ROWS['80.5'].items()}
    assert benchmark_score(cols).rounded == '80.5'


def test_corpus_glue_end_to_end():
    rng = random.Random(3)
    gold = {t: [rng.randint(0, 1) for _ in range(30)] for t in TASKS['glue'] if t != 'stsb'}
    gold['stsb'] = [rng.uniform(0, 5) for _ in range(30)]
    pred = {t: ([1 - y if rng.random() < 0.2 else y for y in v] if t != 'stsb' else [y + rng.gauss(0, 1) for y in v]) for t, v in gold.items()}
    r = corpus_glue(pred, gold)
    per = dict(r.task_scores)
    assert set(per) == {'cola', 'sst2', 'mrpc', 'stsb', 'qqp', 'mnli', 'qnli', 'rte', 'wnli'}
    expect_mnli = 50 * (skm.accuracy_score(gold['mnli_m'], pred['mnli_m']) + skm.accuracy_score(gold['mnli_mm'], pred['mnli_mm']))
    close(float(per['mnli']), expect_mnli, 1e-9)
    close(float(r), sum(float(v) for v in per.values()) / 9, 1e-9)
    assert r.diagnostics and r.diagnostics[0][0] == 'ax'


@pytest.mark.parametrize('call, msg', [
    (lambda: benchmark_score({k: v for k, v in GLUE_ROWS['80.5'].items() if k != 'wnli'}), "lacks the glue task(s) ['wnli']"),
    (lambda: benchmark_score({**GLUE_ROWS['80.5'], 'mnli': '86.3'}), "unknown glue task 'mnli'"),
    (lambda: benchmark_score({**GLUE_ROWS['80.5'], 'mrpc': '89.3'}), 'give all of them'),
    (lambda: benchmark_score({**GLUE_ROWS['80.5'], 'mrpc': ('89.3',)}), 'has 1 values'),
    (lambda: benchmark_score({**GLUE_ROWS['80.5'], 'cola': 'high'}), 'must be a number'),
    (lambda: benchmark_score({**GLUE_ROWS['80.5'], 'cola': float('nan')}), 'finite'),
    (lambda: benchmark_score(SUPERGLUE_ROWS['69.0']), "'boolq' is a superglue task"),
    (lambda: benchmark_score([1, 2]), 'must be a dict'),
    (lambda: task_metrics('stsb', ['a', 'b'], [1.0, 2.0]), 'finite number'),
    (lambda: task_metrics('stsb', [1.0, 1.0], [1.0, 2.0]), 'constant'),
    (lambda: task_metrics('sst2', [0.5, 1], [1, 0]), 'real number'),
    (lambda: task_metrics('qqp', ['dup', 'not'], ['dup', 'dup']), '0/1'),
    (lambda: task_metrics('multirc', [[1, 0]], [[1]], benchmark='superglue'), 'question 0'),
    (lambda: task_metrics('multirc', [1, 0], [1, 0], benchmark='superglue'), 'list of 0/1'),
    (lambda: task_metrics('record', [1], [['a']], benchmark='superglue'), 'must be a str'),
    (lambda: task_metrics('record', ['a'], ['a'], benchmark='superglue'), 'bare str'),
    (lambda: task_metrics('axg', [1, 0], [1, 0], benchmark='superglue'), 'must be a pair'),
    (lambda: task_metrics('cola', [], []), 'empty'),
    (lambda: task_metrics('cola', 'ab', 'ab'), 'must be a list'),
    (lambda: corpus_superglue({'boolq': [1]}, {'wic': [1]}), 'different tasks'),
])
def test_bad_input(call, msg):
    with pytest.raises(MetricInputError) as e: call()
    assert msg in str(e.value)


def test_no_heavy_imports_at_top():
    from pathlib import Path
    src = Path(__file__).parent.parent / 'textmetrics_edu' / 'metrics' / 'glue.py'
    tops = [l for l in src.read_text().splitlines() if l.startswith(('import ', 'from '))]
    assert not any(x in l for l in tops for x in ('numpy', 'scipy', 'sklearn')), tops


def test_renderer_and_explorer():
    from textmetrics_edu.views.glue import render_benchmark_html, parse_scores, benchmark_explorer
    text = 'boolq=62.3, cb=21.7/48.4, copa=50.0, multirc=61.1/0.3, record=33.4/32.5, rte=50.3, wic=50.0, wsc=65.1'
    assert parse_scores(text)['cb'] == ('21.7', '48.4')
    out = render_benchmark_html(text, published='47.1')
    assert 'superglue score = 47.1' in out and 'gives 47.0' in out and 'reproduced' in out
    assert 'tme-error' in render_benchmark_html('boolq 62.3')
    assert '&lt;i&gt;' in render_benchmark_html('<i>=1')
    pytest.importorskip('ipywidgets')
    ex = benchmark_explorer({'MF': ('superglue', '47.1', parse_scores(text))})
    assert 'superglue score = 47.1' in ex.output.value
    ex.controls['scores'].value = text.replace('wsc=65.1', 'wsc=66.1')
    assert 'superglue score = 47.2' in ex.output.value and 'does not reproduce' in ex.output.value
