"""Scoring at scale (`textmetrics_edu.scale`, lesson nbs/70_scale.ipynb): on a two-worker local Dask cluster, every
metric whose statistics add up equals its single-process `corpus_<metric>` bit for bit on real data (WMT22 en-de,
SummEval, MS-COCO, Tiny Shakespeare); CIDEr and the n-gram LM through their two-pass / merged-count forms; the file
reader equals `read_segments`; the Poisson bootstrap is reproducible across schedulers; refusals and bad input raise
clearly; the `scale` command. Spark where pyspark is installed (slow)."""
import contextlib
import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import DATA, WMT22_EN_DE, read_jsonl, read_lines, sweep

dask = pytest.importorskip('dask')
distributed = pytest.importorskip('distributed')
import dask.bag as db  # noqa: E402

from textmetrics_edu.core import METRICS, MetricInputError, discover_metrics  # noqa: E402
from textmetrics_edu.core.datasets import SegmentFileError, read_segments  # noqa: E402
from textmetrics_edu.scale.engines import (dask_ngram_counts, dask_perplexity, dask_poisson_bootstrap, dask_score,  # noqa: E402
                                           file_partitions, files_bag, read_partition, segments_bag, spark_score)
from textmetrics_edu.scale.mapreduce import (PartitionStats, ScaleError, partition_stats, scale_plan,  # noqa: E402
                                             score_partitions)

discover_metrics()
SUMM = DATA / 'summarization' / 'thumb_cnndm_summeval_docs001-050'
COCO = DATA / 'captioning' / 'thumb_mscoco_imgs001-250'
SHAKESPEARE = DATA / 'lm' / 'tinyshakespeare'


@pytest.fixture(scope='module')
def client():
    "One two-worker local cluster (processes, loopback, no dashboard) for the module."
    from distributed import Client, LocalCluster
    import logging
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host='127.0.0.1', dashboard_address=None,
                      scheduler_kwargs={'dashboard_address': ':0'},  # no dashboard; its health endpoint on a free port
                      silence_logs=logging.CRITICAL) as cluster, Client(cluster) as c:
        yield c


@pytest.fixture(scope='module')
def mt():
    "WMT22 en-de Online-B, the first 400 segments: hyps, refs A, refs (A, B)."
    h = read_lines(WMT22_EN_DE / 'sys' / 'Online-B.de')[:400]
    a, b = read_lines(WMT22_EN_DE / 'ref.A.de')[:400], read_lines(WMT22_EN_DE / 'ref.B.de')[:400]
    return h, a, [[x, y] for x, y in zip(a, b)]


def _eq(a, b):
    "Equal, NaN equal to NaN, through tuples, lists and dicts (a result's fields)."
    if isinstance(a, float) and isinstance(b, float) and a != a and b != b: return True
    if isinstance(a, (tuple, list)) and isinstance(b, (tuple, list)):
        return type(a) is type(b) and len(a) == len(b) and all(_eq(x, y) for x, y in zip(a, b))
    if isinstance(a, dict) and isinstance(b, dict): return a.keys() == b.keys() and all(_eq(a[k], b[k]) for k in a)
    return type(a) is type(b) and a == b


def _outcome(f):
    "What a call gives: ('ok', value) or ('raises', the exception's type and message)."
    try: return 'ok', f()
    except Exception as e: return 'raises', f"{type(e).__name__}: {e}"


def same(r, single):
    """The whole result, bit for bit (issue 37): the class, every field (NaN equal to NaN), the signature, `to_json()`,
    `explain()` and its Markdown display, as `corpus_<metric>` returns them."""
    assert type(r) is type(single)
    assert float(r) == float(single) and r.signature == single.signature
    for (k, a), (_, b) in zip(r.items(), single.items()):
        assert _eq(a, b), k
    for what in ('to_json', 'explain', '_repr_markdown_'):
        assert _outcome(getattr(r, what)) == _outcome(getattr(single, what)), what
    assert _outcome(single.explain)[0] == 'ok'


# ---------------------------------------------------------------- every additive metric on the cluster
SUM_METRICS = ['bleu', 'chrf', 'chrf++', 'ter', 'wer', 'cer', 'mer', 'wil', 'wip']


def _refused(n):
    try: scale_plan(n)
    except ScaleError: return True
    return False


DISTRIBUTABLE = sorted(n for n in METRICS if not _refused(n))   # from the registry: nothing forgotten


def _why_not_distributable(n):
    "A field of metric `n`'s spec that says why it cannot run at scale, or None (read from the spec, no list of names)."
    m = METRICS[n].metric
    if m.not_additive: return 'not_additive'
    if m.aggregate == 'corpus': return "aggregate='corpus'"
    if m.refs_across_segments and m.corpus_prep is None: return 'refs_across_segments without corpus_prep'
    return None


def test_every_metric_runs_at_scale_or_its_spec_says_why_not():
    """Every registered metric either runs at scale (and is then checked whole by the registry-derived
    `test_every_distributable_metric_returns_the_whole_result*`) or is refused for a reason its own spec declares."""
    for n in METRICS:
        why = _why_not_distributable(n)
        assert _refused(n) == (why is not None), (n, why)
        if why == 'not_additive':
            with pytest.raises(ScaleError, match='cannot be computed exactly') as e: scale_plan(n)
            assert METRICS[n].metric.not_additive in str(e.value)
    assert set(DISTRIBUTABLE) == {n for n in METRICS if _why_not_distributable(n) is None}
    assert {n for n in METRICS if _refused(n)} >= {'self_bleu', 'gec_gleu', 'nist'}   # no additive statistics / corpus-wide refs
    assert not {n for n in METRICS if _refused(n)} & {'eed', 'character', 'ribes'}   # exact now: their detail travels (issue 37)
    for n in METRICS:
        if n.startswith(('self_bleu', 'distinct')):
            with pytest.raises(ScaleError, match='cannot be computed exactly'): scale_plan(n)
    # the hand-picked real-data comparisons below run metrics that do run, of the kind they claim
    assert all(scale_plan(n).kind == 'sum' for n in SUM_METRICS) and all(scale_plan(n).kind == 'mean' for n in MEAN_METRICS)
    assert set(OTHER_FORMS) <= set(DISTRIBUTABLE)


@pytest.mark.parametrize('name', sweep(SUM_METRICS, keep=['bleu', 'chrf++', 'ter', 'wer']))
def test_sum_metrics_equal_single_process(client, mt, name):
    h, a, two = mt
    refs = two if METRICS[name].metric.multi_ref else a
    same(dask_score(segments_bag(h, refs, npartitions=4), name), METRICS[name].corpus_fn(h, refs))


def _other_form(name, h, a, two):
    "Inputs in the form of the metrics added after this module: text pairs, sources, answers, tags, token predictions."
    if name == 'sari':
        from textmetrics_edu import with_sources
        return h[:120], with_sources(a[:120], two[:120])   # a source per segment (here: reference A), then the references
    if name == 'span_f1':
        pred, gold = ['B-PER O O', 'O B-LOC I-LOC', 'B-ORG O O', 'O O B-PER'], ['B-PER O O', 'O B-LOC O', 'O O O', 'O O B-PER']
        return [pred[i % 4] for i in range(40)], [gold[(i * 3) % 4] for i in range(40)]
    if name == 'rep_l': return a[:120], a[:120]   # one predicted token per reference token
    if name == 'benchmark_accuracy':   # real items: HellaSwag, our tiny GPT-2's log-likelihoods
        from textmetrics_edu.stats.benchmark import benchmark_segments, read_benchmark
        return benchmark_segments(read_benchmark(DATA / 'benchmark' / 'hellaswag_gpt2.jsonl')[:120])
    if name == 'squad': return [x.split()[0] for x in h[:120]], [x.split()[:2] and ' '.join(x.split()[:2]) for x in a[:120]]
    refs = two[:120] if METRICS[name].metric.multi_ref else a[:120]
    return h[:120], refs


OTHER_FORMS = ['google_bleu', 'sari', 'squad', 'benchmark_accuracy']


@pytest.mark.parametrize('name', OTHER_FORMS)
def test_metrics_of_other_forms_equal_single_process(client, mt, name):
    "The metrics added with issue 23 (and the repetition metrics) on the cluster: bit-identical to their corpus functions."
    h, refs = _other_form(name, *mt)
    same(dask_score(segments_bag(h, refs, npartitions=3), name), METRICS[name].corpus_fn(h, refs))


def _clf_form(n, k=40):
    "Labels for a classification metric (an option `labels`): 3 classes, every one seen."
    gold, pred = [('a', 'b', 'c', 'b')[i % 4] for i in range(k)], [('a', 'c', 'c', 'b', 'a')[i % 5] for i in range(k)]
    return pred, gold, {'labels': ['a', 'b', 'c']}




# by default one metric of each kind of result (summed counts with alignments, a mean of segment scores, a whole-corpus
# preparation, label counts, per-segment detail of several kinds); every metric in the slow set, and on more data there
WHOLE_RESULT_DEFAULT = ['bleu', 'wer', 'mer', 'rougeL', 'cider-d', 'f1', 'accuracy', 'eed', 'sari', 'squad', 'ter']


@pytest.mark.parametrize('name', sweep(DISTRIBUTABLE, keep=[n for n in WHOLE_RESULT_DEFAULT if n in DISTRIBUTABLE]))
def test_every_distributable_metric_returns_the_whole_result(client, mt, name):
    """Issue 37: `dask_score` returns what `corpus_<metric>` returns, whole (explain, JSON, signature, every field), for
    every registered metric that runs at scale; 24 segments in 3 partitions (METEOR, which loads WordNet, in the slow set)."""
    h, a, two = mt
    opts = {}
    if any(o.name == 'labels' for o in METRICS[name].metric.options): h, refs, opts = _clf_form(name, 24)
    else:
        h, refs = _other_form(name, h, a, two)
        h, refs = h[:24], refs[:24]
    _same_with_warnings(lambda: dask_score(segments_bag(h, refs, npartitions=3), name, **opts),
                        lambda: METRICS[name].corpus_fn(h, refs, **opts))


def _same_with_warnings(scaled, single):
    "`same`, and the same kinds of warning on both paths (ROUGE's lossy ASCII tokenizer on German text, ...)."
    import warnings
    with warnings.catch_warnings(record=True) as w1:
        warnings.simplefilter('always'); a = scaled()
    with warnings.catch_warnings(record=True) as w2:
        warnings.simplefilter('always'); b = single()
    same(a, b)
    assert {x.category for x in w1} == {x.category for x in w2}


@pytest.mark.slow
@pytest.mark.parametrize('name', DISTRIBUTABLE)
def test_every_distributable_metric_returns_the_whole_result_on_more_data(client, mt, name):
    "The same on 400 segments (SummEval for ROUGE, COCO for CIDEr), in 7 partitions of unequal size."
    h, a, two = mt
    opts = {}
    if any(o.name == 'labels' for o in METRICS[name].metric.options): h, refs, opts = _clf_form(name, 400)
    elif name.startswith('rouge'): h, refs = load_summ()
    elif name.startswith('cider'): h, refs = load_coco()
    elif name in OTHER_FORMS: h, refs = _other_form(name, h, a, two)
    else: refs = two if METRICS[name].metric.multi_ref else a
    _same_with_warnings(lambda: dask_score(segments_bag(h, refs, npartitions=7), name, **opts),
                        lambda: METRICS[name].corpus_fn(h, refs, **opts))


def test_scale_refuses_what_the_corpus_function_refuses(client):
    "Issue 37: accuracy with average='binary' on three classes: `corpus_accuracy` refuses it, so does the cluster."
    pred, gold = ['a', 'b', 'c', 'a'] * 3, ['a', 'b', 'b', 'c'] * 3
    with pytest.raises(MetricInputError, match='at most two classes') as single:
        METRICS['accuracy'].corpus_fn(pred, gold, average='binary')
    with pytest.raises(MetricInputError, match='at most two classes') as scaled:
        dask_score(segments_bag(pred, gold, npartitions=2), 'accuracy', average='binary')
    assert str(scaled.value) == str(single.value)


def test_a_signature_records_labels_whenever_given():
    "Labels that cover every seen class still change a macro score when they name an unseen one (issue 37)."
    from textmetrics_edu.metrics.classification import corpus_f1
    h, r = ['a', 'b', 'b'], ['a', 'b', 'a']
    assert 'labels:a,b|' in corpus_f1(h, r, average='macro', labels=['a', 'b']).signature
    with pytest.warns(Warning): s = corpus_f1(h, r, average='macro', labels=['a', 'b', 'z'])
    assert 'labels:a,b,z|' in s.signature and 'labels' not in corpus_f1(h, r, average='macro').signature


@pytest.mark.slow
def test_options_travel(client, mt):
    h, a, two = mt
    same(dask_score(segments_bag(h, two, npartitions=3), 'bleu', tokenize='intl', lowercase=True, smooth_method='floor'),
         METRICS['bleu'].corpus_fn(h, two, tokenize='intl', lowercase=True, smooth_method='floor'))
    same(dask_score(segments_bag(h, two, npartitions=3), 'chrf', beta=1, whitespace=True),
         METRICS['chrf'].corpus_fn(h, two, beta=1, whitespace=True))


def test_ter_keeps_float_rows_and_mixed_partitions_are_recomputed(client, mt):
    "TER's average reference length is a float (14.0, 14.5): its rows travel. Integer sums meeting float rows are refused."
    h, a, two = mt
    refs = [[x] for x in a[:150]] + two[150:]   # 1 reference, then 2: nrefs 'var'
    plan = scale_plan('ter')
    pairs = list(zip(h, refs))
    assert partition_stats(plan, pairs[:10]).total is None        # floats: rows kept
    same(dask_score(segments_bag(h, refs, npartitions=4), 'ter'), METRICS['ter'].corpus_fn(h, refs))
    bleu = scale_plan('bleu')
    mixed = partition_stats(bleu, pairs[:10]) + partition_stats(bleu, pairs[10:20], rows=True)
    assert mixed.mixed
    with pytest.raises(ScaleError, match='rows=True'): score_partitions(bleu, mixed)
    fixed = partition_stats(bleu, pairs[:10], rows=True) + partition_stats(bleu, pairs[10:20], rows=True)
    same(score_partitions(bleu, fixed), METRICS['bleu'].corpus_fn(h[:20], refs[:20]))


def load_summ(system='BART'):
    refs = {d['seg_id']: d['refs'] for d in read_jsonl(SUMM / 'references.jsonl')}
    rows = [d for d in read_jsonl(SUMM / 'summaries_with_human_scores.jsonl') if d['SYS'] == system]
    return [d['hyp'] for d in rows], [refs[d['seg_id']] for d in rows]


MEAN_METRICS = ['rouge1', 'rouge2', 'rougeL', 'rougeLsum', 'rougeW', 'rougeS', 'rougeSU']


@pytest.mark.parametrize('name', sweep(MEAN_METRICS, keep=['rougeLsum']))
def test_mean_metrics_equal_single_process(client, name):
    "ROUGE (a mean of segment F): float sums folded in corpus order, bit for bit (SummEval, 50 documents, 10 references)."
    h, refs = load_summ()
    opts = dict(stem=name != 'rougeLsum', tokenize='unicode')   # the Porter stemmer (NLTK's import) in the slow set
    same(dask_score(segments_bag(h, refs, npartitions=4), name, **opts), METRICS[name].corpus_fn(h, refs, **opts))


def test_warnings_of_workers_reach_the_driver(client):
    "ROUGE's ASCII tokenizer deletes letters: the single process warns, and so does the cluster (the warning travels)."
    from textmetrics_edu.metrics.rouge import RougeTokenizationWarning
    h, refs = load_summ()
    with pytest.warns(RougeTokenizationWarning, match='non-ASCII'): METRICS['rouge1'].corpus_fn(h, refs)
    with pytest.warns(RougeTokenizationWarning, match='non-ASCII'):
        dask_score(segments_bag(h, refs, npartitions=4), 'rouge1')


@pytest.mark.slow
def test_meteor_equals_single_process(client):
    h, refs = load_summ()
    same(dask_score(segments_bag(h[:20], refs[:20], npartitions=3), 'meteor'), METRICS['meteor'].corpus_fn(h[:20], refs[:20]))


def _rating(ann, key):
    from decimal import ROUND_HALF_UP, Decimal
    m = sum(a[key] for a in ann) / len(ann)
    return str(int(Decimal(repr(m)).quantize(Decimal('1'), ROUND_HALF_UP)))


@pytest.mark.parametrize('name', sweep(['accuracy', 'f1', 'mcc'], keep=['f1']))
def test_classification_equals_single_process(client, name):
    "SummEval relevance: experts' rounded mean rating the gold class, crowd workers' the prediction (800 summaries)."
    rows = [x for x in read_jsonl(SUMM / 'summaries_with_human_scores.jsonl') if x['turker_annotations']]
    gold = [_rating(x['expert_annotations'], 'relevance') for x in rows]
    pred = [_rating(x['turker_annotations'], 'relevance') for x in rows]
    labels = ['1', '2', '3', '4', '5']
    r = dask_score(segments_bag(pred, gold, npartitions=4), name, labels=labels)
    single = METRICS[name].corpus_fn(pred, gold, labels=labels)
    assert float(r) == float(single)
    for k in ('accuracy', 'precision', 'recall', 'fbeta', 'mcc', 'per_class_precision', 'per_class_recall',
              'per_class_fbeta', 'support', 'predicted', 'n'):
        a, b = getattr(r, k), getattr(single, k)
        assert a == b or (a != a and b != b), k   # nan where both have none
    # (the signature: the protocol's names `labels`, `corpus_f1`'s does not; a difference of the classification
    # lesson between its spec and its corpus function, left to it)


def test_binary_f1_is_refused_with_the_equivalent(client):
    "Binary F1 checks the corpus's label set (at most 2 classes); the refusal names the same number by another route."
    gold, pred = ['1', '0', '1', '1', '0', '0'] * 5, ['1', '1', '0', '1', '0', '0'] * 5
    with pytest.raises(ScaleError, match="labels=\\[pos_label\\]"): scale_plan('f1', average='binary', pos_label='1')
    r = dask_score(segments_bag(pred, gold, npartitions=3), 'f1', average='macro', labels=['1'])
    assert float(r) == float(METRICS['f1'].corpus_fn(pred, gold, average='binary', pos_label='1'))


def load_coco(system='Up-Down'):
    refs = {d['seg_id']: d['refs'] for d in read_jsonl(COCO / 'references.jsonl')}
    rows = [d for d in read_jsonl(COCO / 'captions_with_human_scores.jsonl') if d['SYS'] == system]
    return [d['hyp'] for d in rows], [refs[d['seg_id']] for d in rows]


@pytest.mark.parametrize('variant', sweep(['cider-d', 'cider'], keep=['cider-d']))
def test_cider_two_passes_equal_single_process(client, variant):
    "CIDEr: document frequencies merged over partitions (pass 1), then image scores (pass 2): 250 COCO images."
    from textmetrics_edu.metrics.cider import corpus_cider
    h, refs = load_coco()
    r, single = dask_score(segments_bag(h, refs, npartitions=5), variant), corpus_cider(h, refs, variant=variant)
    same(r, single)
    assert r.order_scores == single.order_scores and r.corpus == single.corpus and r.n_corpus == 250


def _sents(path, n):
    from textmetrics_edu.lm.ngram_lm import lm_tokenize
    return [lm_tokenize(line) for line in read_lines(path)[:n] if line.strip()]


@pytest.mark.parametrize('unk_cutoff, smoothings', sweep([(2, ('kneser-ney',)), (1, ('witten-bell', 'lidstone', 'mle'))],
                                                        keep=[(2, ('kneser-ney',))], several=True))
def test_ngram_lm_merged_counts_equal_single_process(client, unk_cutoff, smoothings):
    "Tiny Shakespeare: counts of 4 partitions merged = `count_ngrams` of the whole; perplexity from sums = `ngram_perplexity`."
    from textmetrics_edu.lm.ngram_lm import count_ngrams, ngram_perplexity
    train, test = _sents(SHAKESPEARE / 'train.txt', 2000), _sents(SHAKESPEARE / 'test.txt', 150)
    m = dask_ngram_counts(db.from_sequence(train, npartitions=4), 3, unk_cutoff=unk_cutoff)
    assert m == count_ngrams(train, 3, unk_cutoff=unk_cutoff)
    for smoothing in smoothings:
        for average in ('micro', 'macro'):
            r = dask_perplexity(m, db.from_sequence(test, npartitions=3), smoothing, average=average)
            single = ngram_perplexity(m, test, smoothing, average=average)
            same(r, single)
            assert (r.micro, r.macro, r.nll_nats, r.tokens, r.oov, r.zero_prob_tokens) == (
                single.micro, single.macro, single.nll_nats, single.tokens, single.oov, single.zero_prob_tokens)


# ---------------------------------------------------------------- Poisson bootstrap
def test_poisson_bootstrap_is_reproducible_across_schedulers(client, mt):
    "The draws depend on the seed and the partitioning only: the cluster and one process give the same interval."
    h, a, _ = mt
    bag = segments_bag(h, a, npartitions=4)
    on_cluster = dask_poisson_bootstrap(bag, 'bleu', n_samples=300, seed=7)
    from textmetrics_edu.scale.mapreduce import PoissonSums, ci_from_scores, partition_poisson, poisson_scores
    plan, pairs = scale_plan('bleu'), list(zip(h, a))
    by_hand = sum((partition_poisson(plan, pairs[k * 100:(k + 1) * 100], partition=k, n_samples=300, seed=7)
                   for k in range(4)), PoissonSums(None, None))            # the same 4 partitions, in this process
    assert on_cluster == ci_from_scores(poisson_scores(plan, by_hand))
    assert on_cluster != dask_poisson_bootstrap(bag, 'bleu', n_samples=300, seed=8)


@pytest.mark.slow
def test_poisson_bootstrap_agrees_with_the_bootstrap(client, mt):
    "On 400 real segments the 95% half-widths agree within Monte Carlo error (2,000 resamples each: ~3% relative)."
    from textmetrics_edu.stats.significance import bootstrap_ci
    h, a, _ = mt
    mean_p, hw_p = dask_poisson_bootstrap(segments_bag(h, a, npartitions=4), 'bleu', n_samples=2000, seed=1)
    mean_b, hw_b = bootstrap_ci(h, a, metric='bleu', n_samples=2000, seed=1)
    assert abs(hw_p - hw_b) < 0.15 * hw_b and abs(mean_p - mean_b) < 0.2 * hw_b


def test_poisson_refuses_cider():
    from textmetrics_edu.scale.mapreduce import partition_poisson
    with pytest.raises(ScaleError, match='IDF'): partition_poisson(scale_plan('cider-d'), [('a b', ['a b'])], partition=0)


# ---------------------------------------------------------------- files read lazily
@pytest.mark.parametrize('rstrip', [True, False])
@pytest.mark.parametrize('size', [1, 7, 5000])
def test_file_partitions_read_what_read_segments_reads(tmp_path, size, rstrip):
    "Every line once, in order, as `read_segments` reads it: a BOM, CRLF endings, trailing spaces, no final newline."
    hyp, ref = tmp_path / 'h.txt', tmp_path / 'r.txt'
    hyp.write_bytes('\ufeffErste Zeile  \r\nzwei\n\n   \nvier ünd fünf\r\n'.encode('utf-8') * 3 + b'last')
    ref.write_bytes(b''.join(f'ref {i} \n'.encode() for i in range(16)))
    got = [s for p in file_partitions(hyp, [ref], partition_size=size) for s in read_partition(p, rstrip)]
    assert got == [(h, (r,)) for h, r in zip(read_segments(hyp, rstrip=rstrip), read_segments(ref, rstrip=rstrip))]


def test_files_bag_scores_the_real_files(client):
    h = WMT22_EN_DE / 'sys' / 'PROMT.de'
    refs = [WMT22_EN_DE / 'ref.A.de', WMT22_EN_DE / 'ref.B.de']
    bag = files_bag(h, refs, partition_size=300)
    assert bag.npartitions == 7
    hyps = read_segments(h, rstrip=True)
    two = [list(x) for x in zip(*(read_segments(r, rstrip=True) for r in refs))]
    same(dask_score(bag, 'bleu'), METRICS['bleu'].corpus_fn(hyps, two))


def test_file_errors(tmp_path):
    a, b, bad, empty = tmp_path / 'a', tmp_path / 'b', tmp_path / 'bad', tmp_path / 'empty'
    a.write_text('x\ny\n'); b.write_text('x\n'); bad.write_bytes(b'ok\n\xff\n'); empty.write_bytes(b'')
    with pytest.raises(SegmentFileError, match='different numbers of lines'): file_partitions(a, [b])
    with pytest.raises(SegmentFileError, match='no such file'): file_partitions(tmp_path / 'nope', [a])
    with pytest.raises(SegmentFileError, match='empty'): file_partitions(empty, [empty])
    with pytest.raises(SegmentFileError, match='line 2 is not valid UTF-8'):
        [read_partition(p) for p in file_partitions(bad, [a], partition_size=1)]
    with pytest.raises(MetricInputError, match='partition_size'): file_partitions(a, [a], partition_size=0)


# ---------------------------------------------------------------- bad input, refusals
def test_bad_input():
    plan = scale_plan('bleu')
    with pytest.raises(ScaleError, match=r'`segments\[1\]` must be a \(hyp, refs\) pair'):
        partition_stats(plan, [('a', 'a'), 'oops'])
    with pytest.raises(MetricInputError, match='hyps'): partition_stats(plan, [(None, 'a')])
    with pytest.raises(ScaleError, match='no segments'): score_partitions(plan, PartitionStats())
    with pytest.raises(MetricInputError, match="did you mean 'chrf'"): scale_plan('chfr')
    with pytest.raises(MetricInputError, match='beta'): scale_plan('chrf', beta='x')
    with pytest.raises(MetricInputError, match='segments but'): segments_bag(['a'], ['a', 'b'])
    with pytest.raises(ScaleError, match='partition_rows'): partition_stats(scale_plan('cider-d'), [('a', ['a'])])
    pairs = [('a b c', 'a b c'), ('d e f', 'd e')]
    before = [tuple(p) for p in pairs]
    partition_stats(plan, pairs)
    assert [tuple(p) for p in pairs] == before   # input not modified


def test_core_does_not_import_dask():
    "dask and distributed are optional ([scale]): the package, its CLI parser and the scale lesson's module import without them."
    code = ("import sys; import textmetrics_edu; from textmetrics_edu import corpus_bleu; "
            "from textmetrics_edu.app.cli import build_parser; build_parser(); import textmetrics_edu.scale.mapreduce; "
            "import textmetrics_edu.scale.engines; print(sorted(m for m in sys.modules if m.split('.')[0] in "
            "('dask', 'distributed', 'pyspark')))")
    r = subprocess.run([sys.executable, '-c', code], capture_output=True, text=True, cwd=Path(__file__).parents[1])
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == '[]'


# ---------------------------------------------------------------- the command line
def _cli(argv):
    from textmetrics_edu.app.cli import main
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err): status = main(argv)
    return status, out.getvalue(), err.getvalue()


def test_cli_scale_equals_score(tmp_path):
    hyp, ref = tmp_path / 'JDExploreAcademy.de', tmp_path / 'ref.A.de'
    for src, dst in ((WMT22_EN_DE / 'sys' / 'JDExploreAcademy.de', hyp), (WMT22_EN_DE / 'ref.A.de', ref)):
        dst.write_text(''.join(line + '\n' for line in read_lines(src)[:500]), encoding='utf-8')
    s1, scaled, _ = _cli(['scale', str(hyp), '-r', str(ref), '-m', 'bleu,chrf,ter', '--scheduler', 'local',
                          '--partition-size', '120', '--format', 'json', '--chrf-beta', '3'])
    s2, single, _ = _cli(['score', str(hyp), '-r', str(ref), '-m', 'bleu,chrf,ter', '--format', 'json', '--chrf-beta', '3'])
    assert s1 == s2 == 0
    a, b = json.loads(scaled), json.loads(single)
    assert a['systems'] == b['systems'] and a['segments'] == b['segments'] == 500


def test_cli_classification_labels(tmp_path):
    "Flags typed on the command line are read as `score` reads them (labels, zero_division)."
    (tmp_path / 'pred.txt').write_text('a\nb\na\nc\n'); (tmp_path / 'gold.txt').write_text('a\nb\nb\nc\n')
    args = [str(tmp_path / 'pred.txt'), '-r', str(tmp_path / 'gold.txt'), '-m', 'f1,mcc', '--classification-labels', 'a,b,c',
            '--classification-zero-division', '0', '--format', 'tsv']
    s1, scaled, _ = _cli(['scale', *args, '--scheduler', 'local'])
    s2, single, _ = _cli(['score', *args])
    assert s1 == s2 == 0 and scaled == single


@pytest.mark.slow
def test_cli_scale_on_processes_and_cluster():
    hyp, ref = str(WMT22_EN_DE / 'sys' / 'JDExploreAcademy.de'), str(WMT22_EN_DE / 'ref.A.de')
    _, single, _ = _cli(['score', hyp, '-r', ref, '-m', 'bleu,chrf', '--format', 'tsv'])
    for sched in ('processes', 'dask'):
        status, out, err = _cli(['scale', hyp, '-r', ref, '-m', 'bleu,chrf', '--scheduler', sched, '--format', 'tsv',
                                 '--partition-size', '700', '--progress'])
        assert status == 0 and out == single
        assert 'scoring on' in err


@pytest.mark.parametrize('argv, message', [
    (['-m', 'self_bleu'], 'n^2'),
    (['-m', 'bleu', '--partition-size', '0'], '--partition-size'),
    (['-m', 'bleu', '--scheduler', 'local', '--address', 'tcp://127.0.0.1:1'], '--address needs --scheduler dask'),
    (['-m', 'bleu', '--ter-lowercase'], 'not selected'),
    (['-m', 'blue'], "did you mean 'bleu'"),
])
def test_cli_errors(argv, message):
    status, _, err = _cli(['scale', str(WMT22_EN_DE / 'sys' / 'PROMT.de'), '-r', str(WMT22_EN_DE / 'ref.A.de'), *argv])
    assert status == 2 and message in err and 'Traceback' not in err


# ---------------------------------------------------------------- Spark (where pyspark is installed)
@pytest.mark.slow
def test_spark_equals_single_process(mt):
    pyspark = pytest.importorskip('pyspark')
    import os
    from pyspark.sql import SparkSession
    os.environ.setdefault('PYSPARK_PYTHON', sys.executable)
    spark = (SparkSession.builder.master('local[2]').config('spark.driver.host', '127.0.0.1')
             .config('spark.ui.enabled', 'false').getOrCreate())
    try:
        h, a, two = mt
        rdd = spark.sparkContext.parallelize(list(zip(h, two)), 4)
        for name in ('bleu', 'chrf', 'ter'):
            same(spark_score(rdd, name), METRICS[name].corpus_fn(h, two))
        df = spark.createDataFrame([(x, y) for x, y in zip(h, a)], ['hyp', 'ref'])
        same(spark_score(df, 'rougeL', tokenize='unicode'), METRICS['rougeL'].corpus_fn(h, a, tokenize='unicode'))
        ch, crefs = load_coco()
        same(spark_score(spark.sparkContext.parallelize(list(zip(ch, crefs)), 3), 'cider-d'),
             METRICS['cider-d'].corpus_fn(ch, crefs))
    finally:
        spark.stop()
    del pyspark


def test_scale_is_imported_by_app_only():
    "The role `scale/` runs the lessons' metrics on an engine: no lesson, engine or view imports it (tests/test_layout.py)."
    from test_layout import imports, modules, role
    users = {m for m, targets in imports(modules()).items() for t in targets if role(t) == 'scale' and role(m) != 'scale'}
    assert users and {role(m) for m in users} == {'app'}


def test_cli_address_to_a_dead_port_says_it_could_not_connect(tmp_path):
    "Issue 37: `--address` to a port where no scheduler listens said 'cannot write the output: Timed out ...'."
    status, out, err = None, '', ''
    with dask.config.set({'distributed.comm.timeouts.connect': '1s'}):
        status, out, err = _cli(['scale', str(WMT22_EN_DE / 'sys' / 'PROMT.de'), '-r', str(WMT22_EN_DE / 'ref.A.de'),
                                 '-m', 'bleu', '--address', 'tcp://127.0.0.1:1'])
    assert status == 2 and 'could not connect to the Dask scheduler at tcp://127.0.0.1:1' in err, err
    assert 'cannot write the output' not in err and 'Traceback' not in err


def test_cli_address_scores_on_a_running_cluster(client, tmp_path):
    "`--address`: the same command on a cluster started elsewhere (here the module's local cluster, by its address)."
    hyp, ref = tmp_path / 'h.de', tmp_path / 'r.de'
    hyp.write_text(''.join(x + '\n' for x in read_lines(WMT22_EN_DE / 'sys' / 'PROMT.de')[:300]), encoding='utf-8')
    ref.write_text(''.join(x + '\n' for x in read_lines(WMT22_EN_DE / 'ref.A.de')[:300]), encoding='utf-8')
    args = [str(hyp), '-r', str(ref), '-m', 'bleu', '--format', 'tsv']
    status, out, err = _cli(['scale', *args, '--address', client.scheduler.address, '--partition-size', '100', '--progress'])
    assert status == 0 and out == _cli(['score', *args])[1]
    assert 'the Dask cluster at tcp://127.0.0.1' in err and '2 workers' in err
