"""`explain_difference` and `textmetrics-edu diff` (nbs/62_why_numbers_differ.ipynb): the two scores are the metrics'
own (and the tools'), the parts add up to the difference, the per-segment shares add up exactly where the method says
so (and each swap effect is the corpus score recomputed with one segment's statistics swapped), the first divergent
stage is found, the renderers escape user text, the command works, bad input errors."""
import gzip
import json
import math
import subprocess
import sys
import warnings
from pathlib import Path

import pytest

from textmetrics_edu import corpus_bleu, corpus_rouge, corpus_wer, sentence_bleu, refs_from_streams
from textmetrics_edu.app.cli import main
from textmetrics_edu.core import METRICS, MetricInputError, SegmentRefs, discover_metrics
from textmetrics_edu.core.datasets import load_wmt22_sample
from textmetrics_edu.metrics.bleu import BLEU
from textmetrics_edu.metrics.sari import with_sources
from textmetrics_edu.core import CONVENTIONS, LEVELS, Convention, declare_conventions
from textmetrics_edu.stats.difference import explain_difference, first_divergence, token_diff, wdiff
from textmetrics_edu.views.difference import render_difference_html, tokens_html

DATA = Path(__file__).parent / 'data'
discover_metrics()


@pytest.fixture(scope='module')
def wmt():
    S = load_wmt22_sample()
    return S['systems'][sorted(S['systems'])[0]], S['refs_A'], S['refs_B']


@pytest.fixture(scope='module')
def summeval():
    D = DATA / 'summarization' / 'thumb_cnndm_summeval_docs001-050'
    refs = {d['seg_id']: d['refs'] for d in map(json.loads, (D / 'references.jsonl').read_text().splitlines())}
    rows = [d for d in map(json.loads, (D / 'summaries_with_human_scores.jsonl').read_text().splitlines())
            if d['SYS'] == 'Lead-3'][:25]
    return [d['hyp'] for d in rows], [refs[d['seg_id']] for d in rows]


# ---------------------------------------------------------------------------------------------------------------
# the numbers
# ---------------------------------------------------------------------------------------------------------------
def test_the_two_scores_are_the_metric_s_and_sacrebleu_s(wmt):
    import sacrebleu
    hyps, refA, _ = wmt
    d = explain_difference('bleu', hyps, refA, '13a', 'intl')
    assert d.score_a == float(corpus_bleu(hyps, refA)) and d.score_b == float(corpus_bleu(hyps, refA, tokenize='intl'))
    for tok, s in (('13a', d.score_a), ('intl', d.score_b)):
        assert abs(100 * s - sacrebleu.corpus_bleu(hyps, [refA], tokenize=tok).score) < 1e-9
    assert d.first_stage == 'tokens' and d.n_tokens_differ == d.n_stats_differ == 130
    assert abs(d.statistics_part + d.aggregation_part - d.delta) < 1e-12 and d.aggregation_part == 0


@pytest.mark.parametrize('method', ['swap', 'sequential'])
def test_bleu_shares(wmt, method):
    "swap: each share is a corpus score recomputed with one segment swapped (bit for bit); sequential: they add up."
    hyps, refA, _ = wmt
    d = explain_difference('bleu', hyps, refA, '13a', 'intl', method=method, top_k=3)
    assert d.exact == (method == 'sequential')
    assert abs(math.fsum(d.contributions) + d.interaction - d.statistics_part) < 1e-15
    if method == 'sequential': assert abs(d.interaction) < 1e-12
    else: assert abs(100 * d.interaction + 0.0774) < 1e-3   # BLEU is not linear: the swap effects leave this
    oa, ob = BLEU.opts({}), BLEU.opts({'tokenize': 'intl'})
    sa, sb = BLEU.stats(hyps, [(r,) for r in refA], oa), BLEU.stats(hyps, [(r,) for r in refA], ob)
    for s in d.segments:
        i = s.index
        swapped = sa[:i] + [sb[i]] + sa[i + 1:]
        total = swapped[0]
        for x in swapped[1:]: total = total + x
        assert float(BLEU.score(total, oa, signature='', n_segments=len(hyps))) - d.score_a == s.alone
        assert s.score_a == float(BLEU.score(sa[i], oa)) and s.score_b == float(BLEU.score(sb[i], ob))
    assert [abs(s.contribution) for s in d.segments] == sorted((abs(c) for c in d.contributions), reverse=True)[:3]


def test_sentence_level_smoothing_is_exact_and_at_the_aggregation(wmt):
    hyps, refA, _ = wmt
    hyps, refA = hyps[:80], refA[:80]
    d = explain_difference('bleu', hyps, refA, '13a', 'floor', level='sentence', top_k=2)
    a = [float(sentence_bleu(h, r)) for h, r in zip(hyps, refA)]
    b = [float(sentence_bleu(h, r, smooth_method='floor')) for h, r in zip(hyps, refA)]
    assert d.score_a == math.fsum(a) / 80 and d.score_b == math.fsum(b) / 80
    assert list(d.contributions) == [(y - x) / 80 for x, y in zip(a, b)]
    assert d.exact and abs(math.fsum(d.contributions) - d.delta) < 1e-12
    assert (d.first_stage, d.n_tokens_differ, d.n_stats_differ) == ('aggregation', 0, 0)
    assert d.segments[0].stage == 'aggregation' and d.segments[0].steps[0] != d.segments[0].steps[1]
    c = explain_difference('bleu', hyps, refA, '13a', 'floor')   # a corpus has 4-gram matches: no difference
    assert (c.delta, c.first_stage, c.segments) == (0.0, None, ())


def test_a_convention_that_is_a_level(wmt):
    "`sentence-mean` declares level='sentence': its side is a mean of sentence scores whatever `level` says."
    hyps, refA, _ = wmt
    hyps, refA = hyps[:60], refA[:60]
    d = explain_difference('bleu', hyps, refA, '13a', 'sentence-mean')
    assert (d.level_a, d.level_b, d.first_stage, d.n_stats_differ) == ('corpus', 'sentence', 'aggregation', 0)
    assert d.score_b == math.fsum(float(sentence_bleu(h, r)) for h, r in zip(hyps, refA)) / 60
    assert d.statistics_part == 0 and d.aggregation_part == d.delta and 'levels: a = one score' in d.explain()
    r = explain_difference('bleu', hyps, refA, 'sentence-mean', 'intl', top_k=1)
    assert r.level == 'sentence (a) / corpus (b)' and r.exact
    assert abs(math.fsum(r.contributions) - r.statistics_part) < 1e-12
    assert abs(r.statistics_part + r.aggregation_part - r.delta) < 1e-12


def test_rouge_mean_is_exact_with_swap(summeval):
    hyps, refs = summeval
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        d = explain_difference('rougeL', hyps, refs, 'rouge-score', 'perl-A')
        s = explain_difference('rougeL', hyps, refs, 'rouge-score-stem', 'perl-A-stem', top_k=1)
        assert d.score_a == float(corpus_rouge(hyps, refs, 'rougeL'))
        assert d.score_b == float(corpus_rouge(hyps, refs, 'rougeL', tokenize='perl', multi_ref='pooled'))
    assert d.exact and abs(d.interaction) < 1e-12 and abs(math.fsum(d.contributions) - d.delta) < 1e-12
    assert (d.first_stage, d.n_tokens_differ) == ('statistics', 0) and d.delta < 0
    assert s.first_stage == 'tokens' and s.n_tokens_differ > 0
    assert {'hits', 'ref_count', 'best_ref'} <= set(d.segments[0].stats_a)   # ROUGE's `describe`


def test_rouge_score_convention_is_rouge_score(summeval):
    rouge_scorer = pytest.importorskip('rouge_score.rouge_scorer')
    hyps, refs = summeval
    sc = rouge_scorer.RougeScorer(['rougeL'])
    want = math.fsum(sc.score_multi(r, h)['rougeL'].fmeasure for h, r in zip(hyps, refs)) / len(hyps)
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        d = explain_difference('rougeL', hyps, refs, 'rouge-score', 'perl-B', top_k=0)
    assert abs(d.score_a - want) < 1e-12


def test_meteor_parameters(wmt):
    from textmetrics_edu.kernels.meteor import find_wordnet_dir
    try: find_wordnet_dir()
    except Exception: pytest.skip('WordNet 3.0 is not installed')
    W = DATA / 'mt' / 'wmt22_ru-en_da'
    refs = (W / 'ref.A.en').read_text(encoding='utf-8').split('\n')[:30]
    hyps = (W / 'sys' / 'Online-B.en').read_text(encoding='utf-8').split('\n')[:30]
    d = explain_difference('meteor', hyps, refs, 'nltk', 'meteor-1.5-params', top_k=1)
    assert d.first_stage == 'statistics' and d.exact and abs(math.fsum(d.contributions) - d.delta) < 1e-12
    x = d.segments[0]
    assert x.stats_a['matches'] == x.stats_b['matches'] and x.stats_a['penalty'] < x.stats_b['penalty']
    t = explain_difference('meteor', hyps, refs, 'nltk', 'nltk-tokens', top_k=1)
    assert t.first_stage == 'tokens'


PER_SEGMENT = sorted(n for n, s in METRICS.items() if s.metric.segment_stats is not None and s.metric.aggregate != 'corpus')


@pytest.mark.parametrize('name', PER_SEGMENT)
def test_every_metric_on_the_protocol_can_be_taken_apart(name):
    "Generic: a metric under the same options twice differs nowhere; its scores are its own corpus function's."
    hyps, refs = ['the cat sat on the mat', 'a dog barked loudly', 'it is raining'], ['the cat sat on the mat',
                                                                                      'the dog barked', 'it rains']
    opts = {}
    if name in ('accuracy', 'f1', 'mcc'):
        hyps, refs, opts = ['a', 'b', 'a'], ['a', 'b', 'b'], ({'labels': ['a', 'b']} if name != 'accuracy' else {})
    if name == 'meteor': opts = {'synonyms': False}   # WordNet is exercised in test_meteor_parameters
    if name == 'seq_rep': opts = {'n': 2}   # seq-rep-4 refuses a 3-token segment at sentence level
    if 'sources_file' in {o.name for o in METRICS[name].options}:   # SARI: each segment's source rides with its refs
        refs = with_sources(['the cat sat on a mat', 'a dog barked', 'it is raining now'], refs)
    try: METRICS[name].corpus_fn(hyps, refs, **opts)
    except (MetricInputError, TypeError) as e: pytest.skip(f'{name} needs inputs this generic test does not make: {e}')
    for level in LEVELS:
        with warnings.catch_warnings():
            warnings.simplefilter('ignore')   # F1 of one label alone is ill-defined (the metric warns)
            d = explain_difference(name, hyps, refs, opts, dict(opts), level=level)
        assert (d.first_stage, d.delta, d.n_stats_differ, d.segments) == (None, 0.0, 0, ())
    c = explain_difference(name, hyps, refs, opts, dict(opts))
    assert c.score_a == float(METRICS[name].corpus_fn(hyps, refs, **opts))


def test_wer_by_hand():
    hyps, refs = ['sales rose in twenty twenty', 'we sold three cars'], ['Sales rose in 2020.', 'We sold 3 cars.']
    d = explain_difference('wer', hyps, refs, 'basic', 'numbers')
    assert (d.score_a, d.score_b, d.first_stage, d.exact) == (3 / 8, 0.0, 'tokens', False)
    assert d.score_a == float(corpus_wer(hyps, refs, normalize='basic'))
    assert d.contributions == (1 / 9 - 3 / 8, 2 / 8 - 3 / 8)
    assert d.interaction == d.statistics_part - math.fsum(d.contributions) and d.interaction > 0.0138
    s = explain_difference('wer', hyps, refs, 'basic', 'numbers', method='sequential')
    assert s.contributions == (1 / 9 - 3 / 8, 0 - 1 / 9) and abs(math.fsum(s.contributions) - s.delta) < 1e-15


def test_jiwer_convention_is_jiwer():
    jiwer = pytest.importorskip('jiwer')
    hyps, refs = ['Hello world, again', 'good Morning all'], ['hello world again.', 'Good morning, all']
    d = explain_difference('wer', hyps, refs, 'jiwer', 'basic')
    assert abs(d.score_a - jiwer.wer(refs, hyps)) < 1e-12 and d.score_b == 0.0


def test_nothing_differs_and_not_separable(wmt):
    hyps, refA, _ = wmt
    same = explain_difference('bleu', hyps[:20], refA[:20], '13a', {})
    assert (same.first_stage, same.delta, same.n_tokens_differ, same.n_stats_differ, same.segments) == (None, 0.0, 0, 0, ())
    assert 'nothing differs' in same.explain()
    sep = explain_difference('bleu', hyps[:20], refA[:20], None, {'max_order': 2})
    assert not sep.separable and math.isnan(sep.statistics_part) and sep.delta == (
        float(corpus_bleu(hyps[:20], refA[:20], max_order=2)) - float(corpus_bleu(hyps[:20], refA[:20])))
    assert 'not separable' in sep.explain()


def test_several_references_and_a_convention_with_overrides(wmt):
    hyps, refA, refB = wmt
    refs = refs_from_streams(refA[:50], refB[:50])
    d = explain_difference('bleu', hyps[:50], refs, '13a', ('mteval-v11', {'tokenize': 'intl'}), top_k=1)
    assert d.score_b == float(corpus_bleu(hyps[:50], refs, ref_length='shortest', tokenize='intl'))
    assert d.changed == {'tokenize': ('13a', 'intl'), 'ref_length': ('closest', 'shortest')}
    assert len(d.segments[0].ref_tokens) == 2


def test_inputs_are_not_modified(wmt):
    hyps, refA, refB = wmt
    h, r = list(hyps[:10]), [[a, b] for a, b in zip(refA[:10], refB[:10])]
    h0, r0 = [x for x in h], [list(x) for x in r]
    a = {'tokenize': 'intl'}
    explain_difference('bleu', h, r, {}, a)
    assert (h, r, a) == (h0, r0, {'tokenize': 'intl'})


# ---------------------------------------------------------------------------------------------------------------
# the pieces
# ---------------------------------------------------------------------------------------------------------------
def test_token_diff_and_wdiff():
    a, b = '„ Wir sind bereit “ , sagte er .'.split(), '„Wir sind bereit“ , sagte er .'.split()
    assert first_divergence(a, b) == 0 and first_divergence(a, a) is None and first_divergence(['x'], ['x', 'y']) == 1
    assert wdiff(token_diff(a, b)) == '[-„ Wir-]{+„Wir+} sind [-bereit “-]{+bereit“+} , sagte er .'
    long_a = [f"w{k}" for k in range(1000)]
    long_b = long_a[:500] + ['X'] + long_a[501:]
    assert wdiff(token_diff(long_a, long_b)) == '... w497 w498 w499 [-w500-]{+X+} w501 w502 w503 ...'
    assert token_diff(a, a) == []


def test_every_declared_convention_is_valid_for_its_metric():
    "A declaration names registered metrics, options their `Option`s accept, and pairs of its own conventions."
    assert {'bleu', 'rougeL', 'meteor', 'wer', 'sari', 'nist'} <= set(CONVENTIONS)
    for name, fam in CONVENTIONS.items():
        assert name in METRICS, f'{name}: conventions declared for a metric that is not registered'
        names = [c.name for c in fam.conventions]
        assert len(set(names)) == len(names)
        for c in fam.conventions: METRICS[name].metric.opts(c.options)   # raises MetricInputError if not
        for a, b, level in fam.pairs: assert a in names and b in names and level in LEVELS


def test_declaring_a_family():
    fam = declare_conventions('test-metric-xyz', Convention('p', {}, 'plain'), Convention('q', {'x': 1}, 'q'),
                              pairs=[('p', 'q', 'corpus')])
    try:
        assert CONVENTIONS['test-metric-xyz'] is fam and fam.get('q').options == {'x': 1}
        with pytest.raises(MetricInputError, match="did you mean 'p'"): fam.get('pp')
        with pytest.raises(ValueError, match='twice'): declare_conventions('t2', Convention('p', {}, ''), Convention('p', {}, ''))
        with pytest.raises(ValueError, match='pair'): declare_conventions('t2', Convention('p', {}, ''), pairs=[('p', 'z', 'corpus')])
        with pytest.raises(ValueError, match='level'): declare_conventions('t2', Convention('p', {}, '', level='document'))
    finally: del CONVENTIONS['test-metric-xyz']


def test_html_escapes_user_text():
    hyps, refs = ['<script>alert(1)</script> a & b', 'x'], ['<b>bold</b> a &amp; b', 'x']
    d = explain_difference('bleu', hyps, refs, '13a', 'intl', top_k=2)
    h = render_difference_html(d, scale=100)
    assert '<script>' not in h and '<b>bold' not in h and '&gt; a &amp;' in h
    sm = render_difference_html(explain_difference('bleu', ['<script> the cat sat'], ['the cat ran <b>'], '13a', 'floor',
                                                   level='sentence', top_k=1))
    assert '<script>' not in sm and 'hypothesis: &lt;script&gt; the cat sat' in sm
    assert "<span style='background:#dfd'" in tokens_html(('a', '<x>'), ('a', '<', 'x', '>'))
    assert '<x>' not in tokens_html(('a', '<x>'), ('a', '<', 'x', '>'))
    assert h.startswith("<div class='tme-diff'>") and h.endswith('</div>') and '<svg' in h
    assert d._repr_html_().startswith("<pre class='tme-result'>")


def test_the_explorer():
    from textmetrics_edu.app.live import site_explorer
    from textmetrics_edu.views.difference import diff_pairs, render_difference_explorer
    x = site_explorer('diff')
    assert set(x.controls['pair'].options) == set(diff_pairs()) and 'rougeL: rouge-score → perl-A' in diff_pairs()
    assert 'first divergence' in x.render() and '13a' in x.render()
    for p in diff_pairs():
        h = x.render(pair=p, a0='we sold 3 cars', a1='We sold three cars.')
        assert h.startswith("<div class='tme-diff'>"), (p, h)
    assert 'tme-error' in x.render(a1='a\nb', pair='wer: jiwer → basic')   # WER takes one reference
    assert '<b>x' not in render_difference_explorer('<b>x</b>', ['x'], 'bleu: 13a → intl')


# ---------------------------------------------------------------------------------------------------------------
# bad input
# ---------------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize('kw, match', [
    (dict(metric='blue'), "did you mean 'bleu'"),
    (dict(metric='self_bleu'), 'no per-segment statistics'),
    (dict(metric=7), '`metric` must be'),
    (dict(a='14a'), "`a`: unknown convention '14a'"),
    (dict(b={'tokenise': 'intl'}), "`b`: bleu: unknown option `tokenise`; did you mean `tokenize`"),
    (dict(b={'tokenize': 'moses'}), '`b`: bleu: `tokenize` must be one of'),
    (dict(a=3.5), '`a` must be a convention name'),
    (dict(level='document'), '`level` must be one of'),
    (dict(method='shapley'), '`method` must be one of'),
    (dict(top_k=-1), '`top_k` must be an int >= 0'),
    (dict(hyps='a bare string'), 'bare str'),
    (dict(refs=['only one']), 'entries but there are 2 hypotheses'),
    (dict(hyps=[]), 'empty'),
])
def test_bad_input_raises(kw, match):
    args = dict(metric='bleu', hyps=['a b c', 'd e f'], refs=['a b c', 'd e g'], a='13a', b='intl')
    args.update(kw)
    with pytest.raises(MetricInputError, match=match):
        explain_difference(args.pop('metric'), args.pop('hyps'), args.pop('refs'), args.pop('a'), args.pop('b'), **args)


def test_a_metric_without_conventions_takes_dicts_but_not_names():
    with pytest.raises(MetricInputError, match='no declared conventions'):
        explain_difference('chrf', ['a b'], ['a b'], 'chrF3', None)
    d = explain_difference('chrf', ['the cat sat', 'a dog'], ['the cat sat down', 'the dog'], {}, {'beta': 3})
    assert d.first_stage == 'aggregation' and d.n_tokens_differ is None


# ---------------------------------------------------------------------------------------------------------------
# SARI and NIST: conventions declared in their own modules, on real data
# ---------------------------------------------------------------------------------------------------------------
ASSET = DATA / 'simplification' / 'asset_test_001-100'
SARI_TOOL = dict(easse='easse', paper='paper', authors='authors_mean', hf='hf')   # keys of the stored tool outputs


def _lines(p): return p.read_text(encoding='utf-8').split('\n')[:-1]


@pytest.fixture(scope='module')
def asset():
    "ASSET test 1-100: the `first_clause` system, its sources, 9 references, the SARI tools' stored numbers."
    refs = [list(x) for x in zip(*[_lines(ASSET / f'asset.test.simp.{k}') for k in range(1, 10)])]
    tools = json.loads(gzip.open(DATA / 'simplification' / 'tool_outputs.json.gz', 'rt', encoding='utf-8').read())
    return _lines(ASSET / 'sys' / 'first_clause'), _lines(ASSET / 'asset.test.orig'), refs, tools['asset']['first_clause']


@pytest.mark.parametrize('a, b, level', CONVENTIONS['sari'].pairs)
def test_sari_pairs_on_asset(asset, a, b, level):
    """Each declared pair: the two scores are the tools' (EASSE, the paper's form, SARI.py, HF evaluate); the
    statistics are shared, so the first divergence is the aggregation; the parts and the shares add up."""
    hyps, src, refs, tools = asset
    refs = with_sources(src, refs)
    d = explain_difference('sari', hyps, refs, a, b, level=level, top_k=3)
    assert abs(100 * d.score_a - tools[SARI_TOOL[a]]) < 1e-9 and abs(100 * d.score_b - tools[SARI_TOOL[b]]) < 1e-9
    assert (d.first_stage, d.n_tokens_differ, d.n_stats_differ, d.statistics_part) == ('aggregation', 0, 0, 0.0)
    assert abs(d.statistics_part + d.aggregation_part - d.delta) < 1e-12
    if d.level_a == d.level_b == 'sentence':   # authors -> hf: exact shares; a copied sentence gains 1/3 point
        assert d.exact and abs(math.fsum(d.contributions) - d.delta) < 1e-12
        copied = [i for i, (h, s) in enumerate(zip(hyps, src)) if h == s]
        assert len(copied) == 49 and all(abs(100 * d.contributions[i] - 1 / 3) < 1e-9 for i in copied)
        assert all(s.stage == 'aggregation' and s.steps[0]['delete'] == 0 and s.steps[1]['delete'] == 1 for s in d.segments)
    elif d.level_a == d.level_b:               # easse -> paper: no segment owns a share; the steps say where
        assert d.segments == () and not any(d.contributions)
        (a_, k_, d_), (a2, k2, d2) = ([s[x] for x in ('add', 'keep', 'delete')] for s in d.steps)
        assert abs((a2 - a_ + k2 - k_ + d2 - d_) / 3 - d.delta) < 1e-12 and d2 - d_ > 0.09
    else:                                      # corpus -> mean: the level, then the formula with exact shares
        f = explain_difference('sari', hyps, refs, a, b, level='sentence', top_k=5)
        assert f.exact and f.level == 'sentence' and abs(math.fsum(f.contributions) - f.delta) < 1e-12
        assert abs((f.score_a - d.score_a) + f.delta - d.delta) < 1e-12


def test_sari_needs_its_sources(asset):
    hyps, src, refs, _ = asset
    with pytest.raises(MetricInputError, match='source'): explain_difference('sari', hyps[:3], refs[:3], 'easse', 'hf')


def test_nist_mteval_against_nltk_with_two_references(wmt):
    """mteval-v13a.pl (its stored output) against NLTK 3.10 (run here) on the WMT22 sample, references A and B: the
    statistics part is all of it, shared exactly by the sequential method; with one reference, no difference."""
    from nltk.translate.nist_score import corpus_nist as nltk_corpus_nist
    from textmetrics_edu.metrics.nist import mteval_tokenize
    hyps, A, B = wmt
    system = sorted(load_wmt22_sample()['systems'])[0]
    rows = [r.split('\t') for r in (DATA / 'mt' / 'nist' / 'mteval_wmt22_sample_segments.tsv').read_text().splitlines()[1:]]
    mteval = next(float(r[3]) for r in rows if r[0] == 'A+B' and r[1] == system)
    t = lambda x: list(mteval_tokenize(x))
    d = explain_difference('nist', hyps, refs_from_streams(A, B), 'mteval', 'nltk', method='sequential', top_k=3)
    assert abs(d.score_a - mteval) < 1e-9
    assert abs(d.score_b - nltk_corpus_nist([[t(a), t(b)] for a, b in zip(A, B)], [t(h) for h in hyps])) < 1e-12
    assert (d.first_stage, d.n_tokens_differ, d.n_stats_differ, d.aggregation_part) == ('statistics', 0, 300, 0.0)
    assert d.exact and abs(math.fsum(d.contributions) - d.statistics_part) < 1e-12 and abs(d.statistics_part - d.delta) < 1e-12
    assert abs(d.delta + 0.934101) < 1e-6 and max(d.contributions) <= 0 and sum(c < 0 for c in d.contributions) == 181
    assert [s.index for s in d.segments] == [158, 55, 113] and all(s.stage == 'statistics' for s in d.segments)
    swap = explain_difference('nist', hyps, refs_from_streams(A, B), 'mteval', 'nltk', top_k=0)
    assert not swap.exact and abs(swap.interaction) < 1e-12   # each order's n-gram count is the same: ~linear
    one = explain_difference('nist', hyps, A, 'mteval', 'nltk', top_k=0)
    assert (one.delta, one.first_stage, one.n_stats_differ) == (0.0, 'statistics', 300)


# ---------------------------------------------------------------------------------------------------------------
# the command
# ---------------------------------------------------------------------------------------------------------------
def _files(tmp_path, wmt, n=40):
    hyps, refA, refB = wmt
    h, r, r2 = tmp_path / 'sys.de', tmp_path / 'ref.de', tmp_path / 'ref2.de'
    h.write_text('\n'.join(hyps[:n]) + '\n', encoding='utf-8')
    r.write_text('\n'.join(refA[:n]) + '\n', encoding='utf-8')
    r2.write_text('\n'.join(refB[:n]) + '\n', encoding='utf-8')
    return h, r, r2


def test_cli_json_equals_the_api(tmp_path, wmt, capsys):
    h, r, _ = _files(tmp_path, wmt)
    assert main(['diff', str(h), '-r', str(r), '-m', 'bleu', '-a', '13a', '-b', 'intl', '--format', 'json', '--top', '2']) == 0
    out = json.loads(capsys.readouterr().out)
    d = explain_difference('bleu', wmt[0][:40], wmt[1][:40], '13a', 'intl', top_k=2)
    assert (out['score_a'], out['score_b'], out['first_stage'], out['contributions']) == (
        d.score_a, d.score_b, 'tokens', list(d.contributions))
    assert [s['line'] for s in out['segments']] == [s.index + 1 for s in d.segments]


def test_cli_flags_derived_from_the_options(tmp_path, wmt, capsys):
    h, r, r2 = _files(tmp_path, wmt)
    main(['diff', str(h), '-r', str(r), '-b', 'intl', '--format', 'json'])
    by_name = json.loads(capsys.readouterr().out)
    main(['diff', str(h), '-r', str(r), '--b-bleu-tokenize', 'intl', '--format', 'json'])
    by_flag = json.loads(capsys.readouterr().out)
    assert by_name['score_b'] == by_flag['score_b'] and by_flag['changed'] == {'tokenize': ['13a', 'intl']}
    assert main(['diff', str(h), '-r', str(r), str(r2), '-m', 'rougeL', '-a', 'rouge-score', '-b', 'perl-A',
                 '--no-b-rouge-stem', '--a-rouge-tokenize', 'unicode', '--b-rouge-tokenize', 'unicode',
                 '--percent', '--top', '1']) == 0
    text = capsys.readouterr().out
    assert text.startswith('rougeL at corpus level, 40 segments: rouge-score') and 'first divergence' in text


def test_cli_bundled_sample_and_list(capsys):
    assert main(['diff', '--top', '1']) == 0
    out = capsys.readouterr().out
    assert out.startswith('bundled sample: WMT22 en-de') and 'nothing differs' in out   # defaults against defaults
    assert main(['diff', '--list']) == 0
    out = capsys.readouterr().out
    assert 'perl-A' in out and 'pair: -a 13a -b floor --level sentence' in out and 'meteor-1.5-params' in out


@pytest.mark.parametrize('argv, match', [
    (['-a', 'nope'], "unknown convention 'nope'"),
    (['--a-rouge-stem'], 'is an option of rouge'),
    (['-m', 'nope'], "unknown metric 'nope'"),
    (['--level', 'sentence', '--top', '-2'], '--top must be 0 or more'),
])
def test_cli_errors(tmp_path, wmt, capsys, argv, match):
    h, r, _ = _files(tmp_path, wmt, n=5)
    assert main(['diff', str(h), '-r', str(r), *argv]) == 2
    err = capsys.readouterr().err
    assert err.startswith('textmetrics-edu: error:') and match in err, err


def test_cli_file_errors(tmp_path, wmt, capsys):
    h, r, _ = _files(tmp_path, wmt, n=5)
    short = tmp_path / 'short.de'
    short.write_text('one line\n', encoding='utf-8')
    assert main(['diff', str(h), '-r', str(short)]) == 2 and 'different numbers of lines' in capsys.readouterr().err
    assert main(['diff', str(h)]) == 2 and 'no reference file' in capsys.readouterr().err
    assert main(['diff', '-r', str(r)]) == 2 and 'no hypothesis file' in capsys.readouterr().err


def test_cli_sari_with_sources(asset, capsys):
    "`--sari-sources` (the `score` command's flag) puts each source in front of its references; JSON = the API."
    hyps, src, refs, _ = asset
    rs = [str(ASSET / f'asset.test.simp.{k}') for k in range(1, 10)]
    argv = ['diff', str(ASSET / 'sys' / 'first_clause'), '-r', *rs, '-m', 'sari', '-a', 'authors', '-b', 'hf']
    assert main([*argv, '--sari-sources', str(ASSET / 'asset.test.orig'), '--format', 'json', '--top', '2']) == 0
    out = json.loads(capsys.readouterr().out)
    d = explain_difference('sari', hyps, with_sources(src, refs), 'authors', 'hf', top_k=2)
    assert (out['score_a'], out['score_b'], out['first_stage'], out['level'], out['contributions']) == (
        d.score_a, d.score_b, 'aggregation', 'sentence', list(d.contributions))
    assert out['signature_a'].startswith('SARI|conv:authors|nrefs:9|')
    assert main(argv) == 2 and 'source' in capsys.readouterr().err                       # no sources
    assert main([*argv, '--sari-sources', rs[0], '-m', 'bleu']) == 2
    assert 'gives the sources of sari' in capsys.readouterr().err
    assert not any(f.startswith('--a-sari-sources') for f in _side_flags_names())       # data, not a convention


def _side_flags_names():
    from textmetrics_edu.app.diff_command import _side_flags
    return list(_side_flags())


def test_cli_sari_sources_file_errors(tmp_path, asset, capsys):
    short = tmp_path / 'short.txt'
    short.write_text('one source\n', encoding='utf-8')
    argv = ['diff', str(ASSET / 'sys' / 'first_clause'), '-r', str(ASSET / 'asset.test.simp.1'), '-m', 'sari']
    assert main([*argv, '--sari-sources', str(short)]) == 2
    err = capsys.readouterr().err
    assert err.startswith('textmetrics-edu: error:') and '--sari-sources' in err, err


def test_cli_nist_two_references(tmp_path, wmt, capsys):
    h, r, r2 = _files(tmp_path, wmt)
    assert main(['diff', str(h), '-r', str(r), str(r2), '-m', 'nist', '-a', 'mteval', '-b', 'nltk', '--method',
                 'sequential', '--format', 'json', '--top', '2']) == 0
    out = json.loads(capsys.readouterr().out)
    d = explain_difference('nist', wmt[0][:40], refs_from_streams(wmt[1][:40], wmt[2][:40]), 'mteval', 'nltk',
                           method='sequential', top_k=2)
    assert (out['score_a'], out['score_b'], out['first_stage'], out['exact'], out['contributions']) == (
        d.score_a, d.score_b, 'statistics', True, list(d.contributions))
    assert main(['diff', str(h), '-r', str(r), str(r2), '-m', 'nist', '-a', 'mteval', '-b', 'nltk']) == 0
    assert 'nist at corpus level, 40 segments: mteval' in capsys.readouterr().out


def test_cli_as_a_program():
    p = subprocess.run([sys.executable, '-m', 'textmetrics_edu', 'diff', '--list'], capture_output=True, text=True,
                       timeout=300)
    assert p.returncode == 0 and 'rouge-score' in p.stdout, p.stderr


# ---------------------------------------------------------------------------------------------------------------
# properties, on random corpora and random pairs of option sets (300 by default, 5,000 with --slow)
# ---------------------------------------------------------------------------------------------------------------
from hypothesis import HealthCheck, given, settings, strategies as st

_WORDS = ['the', 'The', 'cat', 'sat', 'on', 'mat', 'COVID-19', '„Wir“', 'we', 'sold', '3', 'three', 'cars.', 'a',
          'dog,', 'Dog', '25€', 'T-Shirt', 'ran']
_text = st.lists(st.sampled_from(_WORDS), min_size=1, max_size=9).map(' '.join)
_OPTS = {'bleu': st.fixed_dictionaries({'tokenize': st.sampled_from(['13a', 'intl', 'none', 'char']),
                                        'smooth_method': st.sampled_from(['exp', 'floor', 'add-k', 'none']),
                                        'lowercase': st.booleans()}),
         'rougeL': st.fixed_dictionaries({'tokenize': st.sampled_from(['rouge_score', 'perl', 'unicode']),
                                          'multi_ref': st.sampled_from(['max_f', 'pooled', 'max_recall']),
                                          'stem': st.booleans(), 'on_non_ascii': st.just('ignore')}),
         'wer': st.fixed_dictionaries({'normalize': st.sampled_from([None, 'basic', 'numbers'])}),
         'chrf': st.fixed_dictionaries({'beta': st.sampled_from([1.0, 2.0, 3.0]), 'lowercase': st.booleans()}),
         'sari': st.fixed_dictionaries({'convention': st.sampled_from(['easse', 'paper', 'authors', 'hf']),
                                        'tokenize': st.sampled_from(['13a', 'none']), 'lowercase': st.booleans()}),
         'nist': st.fixed_dictionaries({'convention': st.sampled_from(['mteval', 'nltk']),
                                        'tokenize': st.sampled_from(['mteval', 'none']), 'lowercase': st.booleans()})}


@st.composite
def _case(draw):
    metric = draw(st.sampled_from(sorted(_OPTS)))
    n = draw(st.integers(1, 5))
    nrefs = 1 if metric == 'wer' else draw(st.integers(1, 3))
    hyps = [draw(_text) for _ in range(n)]
    refs = SegmentRefs([[draw(_text) for _ in range(nrefs)] for _ in range(n)])  # stated: one list per segment
    if metric == 'sari': refs = with_sources([draw(_text) for _ in range(n)], refs)   # the sources ride in front
    return (metric, hyps, refs, draw(_OPTS[metric]), draw(_OPTS[metric]), draw(st.sampled_from(LEVELS)),
            draw(st.sampled_from(['swap', 'sequential'])))


def _check_invariants(case):
    metric, hyps, refs, a, b, level, method = case
    d = explain_difference(metric, hyps, refs, a, b, level=level, method=method, top_k=2)
    assert abs(d.statistics_part + d.aggregation_part - d.delta) < 1e-12          # the two parts are the difference
    if d.exact: assert abs(d.interaction) < 1e-12                                  # exact where the method says so
    assert abs(math.fsum(d.contributions) + d.interaction - d.shared) < 1e-12      # the remainder is the interaction
    if level == 'corpus':                                                          # the metric's own numbers
        assert d.score_a == float(METRICS[metric].corpus_fn(hyps, refs, **a))
        assert d.score_b == float(METRICS[metric].corpus_fn(hyps, refs, **b))
    if d.first_stage is None: assert d.delta == 0 and d.n_stats_differ == 0
    if d.n_stats_differ == 0 and d.n_tokens_differ == 0: assert d.statistics_part == 0
    if metric == 'rougeL' or level == 'sentence' or method == 'sequential': assert d.exact == d.separable
    assert [abs(s.contribution) for s in d.segments] == sorted((abs(c) for c in d.contributions if c), reverse=True)[
        :len([s for s in d.segments if s.contribution])] + [0.0] * len([s for s in d.segments if not s.contribution])


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_case())
def test_invariants_on_random_corpora(case):
    _check_invariants(case)


@pytest.mark.slow
@settings(max_examples=5000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_case())
def test_invariants_on_random_corpora_5000(case):
    _check_invariants(case)
