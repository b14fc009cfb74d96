"CIDEr / CIDEr-D against pycocoevalcap 1.2 itself on the THumB MS-COCO captions, an independent dense implementation of the paper's equations, properties, bad input, CLI, explorer."
import json
import math

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from textmetrics_edu.core import MetricInputError, SegmentRefs
from textmetrics_edu.metrics.cider import (corpus_cider, sentence_cider, tokenize_caption, tokenize_captions, ptb_tokenize,
                                   java_available, CIDErResult, document_frequency, ngram_counts_by_order,
                                   prepare_references)
from textmetrics_edu.views.cider import render_cider_html, cider_explorer
from conftest import DATA, read_jsonl

THUMB = DATA / 'captioning' / 'thumb_mscoco_imgs001-250'
SYSTEMS = ['Up-Down', 'Unified-VLP', 'VinVL-base', 'VinVL-large', 'Human']
Cider = pytest.importorskip('pycocoevalcap.cider.cider').Cider
needs_java = pytest.mark.skipif(not java_available(), reason='pycocoevalcap PTB tokenizer needs java')


@pytest.fixture(scope='module')
def thumb():
    refs = read_jsonl(THUMB / 'references.jsonl')
    caps = read_jsonl(THUMB / 'captions_with_human_scores.jsonl')
    ids = [r['seg_id'] for r in refs]
    by = {(c['SYS'], c['seg_id']): c['hyp'] for c in caps}
    return dict(ids=ids, refs=[r['refs'] for r in refs], systems={s: [by[s, i] for i in ids] for s in SYSTEMS})


@pytest.fixture(scope='module')
def ptb(thumb):
    "The recorded PTB tokens (tests/data/.../ptb_tokenized.jsonl, see its README): refs [image][k], systems {name: [image]}."
    rows = read_jsonl(THUMB / 'ptb_tokenized.jsonl')
    refs = [[r['ptb'] for r in rows[4 * i:4 * i + 4]] for i in range(250)]
    assert all(r['source'] == 'ref' for r in rows[:1000])
    systems = {s: [r['ptb'] for r in rows[1000 + 250 * k:1000 + 250 * (k + 1)]] for k, s in enumerate(SYSTEMS)}
    assert all(r['source'] == s for k, s in enumerate(SYSTEMS) for r in rows[1000 + 250 * k:1000 + 250 * (k + 1)])
    return dict(refs=refs, systems=systems)


def theirs(hyps_tok, refs_tok):
    "pycocoevalcap 1.2 Cider on already tokenized strings: (corpus score, image scores)."
    gts = {i: list(rs) for i, rs in enumerate(refs_tok)}
    res = {i: [h] for i, h in enumerate(hyps_tok)}
    s, per = Cider().compute_score(gts, res)
    return float(s), [float(x) for x in per]


@pytest.mark.parametrize('system', SYSTEMS)
def test_ptb_tokenized_thumb_equals_pycocoevalcap(ptb, system):
    "pycocoevalcap's scorer and ours on the PTB-tokenized captions (recorded; re-made below where java is present)."
    s, per = theirs(ptb['systems'][system], ptb['refs'])
    ours = corpus_cider(ptb['systems'][system], ptb['refs'], tokenize='none')
    assert abs(float(ours) - s) < 1e-9
    assert np.max(np.abs(np.array(ours.segment_scores) - per)) < 1e-9
    assert ours.n_images == 250 and len(ours.segment_scores) == 250


@needs_java
def test_recorded_ptb_tokens_are_what_the_tokenizer_gives(thumb, ptb):
    texts = [r for rs in thumb['refs'] for r in rs] + [h for s in SYSTEMS for h in thumb['systems'][s]]
    fresh = [' '.join(t) for t in ptb_tokenize(texts)]
    assert fresh == [r for rs in ptb['refs'] for r in rs] + [h for s in SYSTEMS for h in ptb['systems'][s]]


@needs_java
def test_tokenize_ptb_option_runs_the_tokenizer(thumb):
    hyps, refs = thumb['systems']['Human'][:40], thumb['refs'][:40]
    ours = corpus_cider(hyps, refs, tokenize='ptb')
    h_tok = [' '.join(t) for t in ptb_tokenize(hyps)]
    flat = [' '.join(t) for t in ptb_tokenize([r for rs in refs for r in rs])]
    s, per = theirs(h_tok, [flat[4 * i:4 * i + 4] for i in range(40)])
    assert abs(float(ours) - s) < 1e-9 and 'tok:ptb' in ours.signature


@needs_java
def test_ptb_tokenizer_prints_no_progress_chatter(capfd):
    "java's progress line goes to the process's stderr (in Jupyter: the cell's output); ptb_tokenize drops it"
    toks = ptb_tokenize(['A dog.', 'A man (wearing a hat) rides a horse.'])
    assert toks[0] == ('a', 'dog')
    out, err = capfd.readouterr()
    assert 'PTBTokenizer' not in out + err and err == ''


def test_quiet_java_passes_real_errors_on(capfd):
    "Only the progress line is dropped: any other line a child process writes to stderr is shown (core.filtered_stderr)"
    import subprocess, sys
    from textmetrics_edu.core import filtered_stderr
    from textmetrics_edu.metrics.cider import _PTB_PROGRESS
    code = ("import sys; sys.stderr.write('PTBTokenizer tokenized 11 tokens at 149.80 tokens per second.\\n'"
            "'Exception in thread main: a real error\\n')")
    with filtered_stderr(_PTB_PROGRESS): rc = subprocess.run([sys.executable, '-c', code]).returncode
    assert rc == 0
    out, err = capfd.readouterr()
    assert 'a real error' in err and 'tokens per second' not in err


def test_default_tokenizer_equals_ptb_on_the_2250_captions(thumb, ptb):
    texts = [r for rs in thumb['refs'] for r in rs] + [h for s in SYSTEMS for h in thumb['systems'][s]]
    toks = [r for rs in ptb['refs'] for r in rs] + [h for s in SYSTEMS for h in ptb['systems'][s]]
    assert len(texts) == len(toks) == 2250
    differ = [t for t, p in zip(texts, toks) if ' '.join(tokenize_caption(t)) != p]
    assert differ == []   # 'Madison Ave.' differed before the abbreviations (issue 37)


def test_default_tokenizer_keeps_abbreviations_as_ptb():
    "Issue 37: 't.v.' was split into 't', 'v' (PTB keeps it): abbreviations as pycocoevalcap's PTB tokenizer gives them."
    d = json.loads((DATA / 'captioning' / 'ptb_abbreviations.json').read_text())
    differ = [(t, list(tokenize_caption(t)), p) for t, p in zip(d['texts'], d['ptb']) if list(tokenize_caption(t)) != p]
    assert len(d['texts']) > 150 and differ == []


@needs_java
def test_lowercased_ptb_keeps_brackets():
    toks = ptb_tokenize(['A man (wearing a hat) rides a horse.', 'Two "dogs" play.'])
    assert '-lrb-' in toks[0] and '-rrb-' in toks[0]
    assert toks[1] == ('two', 'dogs', 'play')
    assert tokenize_caption('A man (wearing a hat) rides a horse.') == ('a', 'man', 'wearing', 'a', 'hat', 'rides', 'a', 'horse')


@needs_java
def test_ptb_tokenization_depends_on_the_next_caption():
    "The PTB tokenizer looks across lines: 't.' is an abbreviation unless a capitalised caption follows."
    assert ptb_tokenize(['a ha t.', 'A dog.'])[0] == ('a', 'ha', 't')
    assert ptb_tokenize(['a ha t.', 'a dog.'])[0] == ('a', 'ha', 't.')
    assert ptb_tokenize(['A dog.', 'a ha t.'])[1] == ('a', 'ha', 't.')


@pytest.mark.parametrize('system', SYSTEMS)
def test_default_tokenizer_path_equals_pycocoevalcap_fed_the_same_tokens(thumb, system):
    hyps, refs = thumb['systems'][system], thumb['refs']
    s, per = theirs([' '.join(tokenize_caption(h)) for h in hyps], [[' '.join(tokenize_caption(r)) for r in rs] for rs in refs])
    ours = corpus_cider(hyps, refs)
    assert abs(float(ours) - s) < 1e-9
    assert np.max(np.abs(np.array(ours.segment_scores) - per)) < 1e-9


def test_human_caption_ranks(thumb):
    cd = {s: float(corpus_cider(h, thumb['refs'])) for s, h in thumb['systems'].items()}
    assert sorted(cd, key=cd.get, reverse=True) == ['VinVL-large', 'VinVL-base', 'Unified-VLP', 'Human', 'Up-Down']


def dense_cider(hyps, refs, *, variant='cider-d', n=4, sigma=6.0, tf='raw', unseen_idf='max', length='bigrams', factor=10.0):
    "The paper's equations with dense numpy vectors over the vocabulary of each order (independent of the module)."
    N = len(refs)
    scores = []
    grams = lambda toks, k: [tuple(toks[i:i + k]) for i in range(len(toks) - k + 1)]
    for c, S in zip(hyps, refs):
        per_order = []
        for k in range(1, n + 1):
            vocab = sorted({g for t in [c, *S] for g in grams(t, k)})
            def vec(t):
                gs = grams(t, k)
                v = np.zeros(len(vocab))
                for j, g in enumerate(vocab):
                    h = gs.count(g)
                    if not h: continue
                    df = sum(any(g in grams(r, k) for r in Sp) for Sp in refs)
                    idf = math.log(N / df) if df else (math.log(N) if unseen_idf == 'max' else 0.0)
                    v[j] = (h if tf == 'raw' else h / len(gs)) * idf
                return v
            gc = vec(c)
            terms = []
            for s in S:
                gs = vec(s)
                den = np.linalg.norm(gc) * np.linalg.norm(gs)
                if variant == 'cider':
                    terms.append(gc @ gs / den if den else 0.0)
                else:
                    L = (lambda t: max(len(t) - 1, 0) if n >= 2 else 0) if length == 'bigrams' else len
                    pen = math.exp(-(L(c) - L(s)) ** 2 / (2 * sigma ** 2))
                    terms.append(pen * (np.minimum(gc, gs) @ gs) / den if den else 0.0)
            per_order.append(np.mean(terms))
        scores.append(factor * np.mean(per_order))
    return float(np.mean(scores)), scores


words = st.sampled_from(['a', 'dog', 'cat', 'on', 'the', 'grass', 'runs', 'red'])
sentence = st.lists(words, min_size=1, max_size=7)
corpus = st.integers(2, 5).flatmap(lambda m: st.tuples(st.lists(sentence, min_size=m, max_size=m),
                                                       st.lists(st.lists(sentence, min_size=1, max_size=3), min_size=m, max_size=m)))


@settings(max_examples=60, deadline=None)
@given(corpus)
def test_random_corpora_equal_pycocoevalcap(c):
    hyps, refs = [' '.join(h) for h in c[0]], SegmentRefs([' '.join(r) for r in rs] for rs in c[1])
    s, per = theirs(hyps, refs)
    ours = corpus_cider(hyps, refs, tokenize='none')
    assert abs(float(ours) - s) < 1e-9 and np.allclose(ours.segment_scores, per, atol=1e-9, rtol=0)


@settings(max_examples=40, deadline=None)
@given(corpus, st.sampled_from([dict(), dict(variant='cider'), dict(tf='normalized'), dict(unseen_idf='zero'),
                                dict(length='words'), dict(n=2, sigma=2.0, factor=1.0), dict(n=1), dict(n=1, length='words'),
                                dict(variant='cider', tf='normalized', unseen_idf='zero', factor=1.0)]))
def test_random_corpora_equal_dense_equations(c, opts):
    hyps, refs = c[0], c[1]
    s, per = dense_cider(hyps, refs, **opts)
    ours = corpus_cider([' '.join(h) for h in hyps], SegmentRefs([' '.join(r) for r in rs] for rs in refs), tokenize='none',
                        **opts)
    assert abs(float(ours) - s) < 1e-9 and np.allclose(ours.segment_scores, per, atol=1e-9, rtol=0)


@settings(max_examples=30, deadline=None)
@given(corpus, st.randoms(use_true_random=False))
def test_properties(c, rnd):
    hyps, refs = [' '.join(h) for h in c[0]], SegmentRefs([' '.join(r) for r in rs] for rs in c[1])
    frozen = json.dumps([hyps, refs])
    res = corpus_cider(hyps, refs, tokenize='none')
    assert json.dumps([hyps, refs]) == frozen                        # inputs not modified
    assert all(0 <= x <= 10 + 1e-9 for x in res.segment_scores)       # the penalty and clipping keep it in [0, 10]
    perm = list(range(len(hyps))); rnd.shuffle(perm)                 # permuting images permutes the image scores
    p = corpus_cider([hyps[i] for i in perm], SegmentRefs(refs[i] for i in perm), tokenize='none')
    assert np.allclose(p.segment_scores, [res.segment_scores[i] for i in perm], atol=1e-12)
    other = list(hyps); other[0] = 'red red'                         # other candidates do not change image 1's score
    assert abs(corpus_cider(other, refs, tokenize='none').segment_scores[1] - res.segment_scores[1]) < 1e-12
    s1 = sentence_cider(hyps[1], refs[1], corpus_refs=SegmentRefs([refs[0]] + refs[2:]), tokenize='none')
    assert abs(float(s1) - res.segment_scores[1]) < 1e-12           # sentence_cider = the image's score in the corpus
    for opts in [dict(), dict(tf='normalized')]:                     # CIDEr does not depend on the TF normalisation
        assert abs(float(corpus_cider(hyps, refs, tokenize='none', variant='cider'))
                   - float(corpus_cider(hyps, refs, tokenize='none', variant='cider', tf='normalized'))) < 1e-9


def test_single_image_and_idf_of_a_one_image_corpus():
    with pytest.raises(MetricInputError, match='1 image'): corpus_cider(['a dog'], [['a dog runs']])
    with pytest.raises(MetricInputError, match='corpus_refs'): sentence_cider('a dog', ['a dog runs'])
    one = document_frequency([[ngram_counts_by_order('a dog runs'.split())]])
    assert {one.idf(g) for g in one.doc_freq} == {0.0} and one.idf(('zebra',)) == 0.0
    s, _ = theirs(['a dog'], [['a dog runs']])                       # what pycocoevalcap silently gives
    assert s == 0.0


@pytest.mark.parametrize('call, msg', [
    (lambda: corpus_cider(['a dog', 'a cat'], [['a dog'], []]), 'refs[1]'),
    (lambda: corpus_cider(['a dog', '. , !'], [['a dog'], ['a cat']]), '`hyps[1]` is empty'),
    (lambda: corpus_cider(['a dog', 'a cat'], [['a dog'], ['a cat', '...']]), '`refs[1][1]` is empty'),
    (lambda: corpus_cider(['a dog', ''], [['a dog'], ['a cat']], tokenize='none'), '`hyps[1]` is empty'),
    (lambda: corpus_cider('a dog', ['a dog', 'a cat']), 'bare str'),
    (lambda: corpus_cider([], []), 'empty'),
    (lambda: corpus_cider(['a', 'b', 'c'], [['a'], ['b']]), '3 hypotheses'),
    (lambda: corpus_cider(['a', None], ['a', 'b']), 'hyps[1]'),
    (lambda: corpus_cider(['a', 'b'], ['a', 'b'], variant='CIDEr-D'), '`variant`'),
    (lambda: corpus_cider(['a', 'b'], ['a', 'b'], tokenize='13a'), '`tokenize`'),
    (lambda: corpus_cider(['a', 'b'], ['a', 'b'], n=0), '`n`'),
    (lambda: corpus_cider(['a', 'b'], ['a', 'b'], sigma=-1), '`sigma`'),
    (lambda: corpus_cider(['a', 'b'], ['a', 'b'], tf='log'), '`tf`'),
    (lambda: corpus_cider(['a', 'b'], ['a', 'b'], unseen_idf='min'), '`unseen_idf`'),
    (lambda: corpus_cider(['a', 'b'], ['a', 'b'], length='chars'), '`length`'),
    (lambda: corpus_cider(['a', 'b'], ['a', 'b'], factor=0), '`factor`'),
    (lambda: sentence_cider('a', 'a', corpus_refs='b c'), 'corpus_refs'),
    (lambda: corpus_cider(['a', 'b'], ['a', 'b']).explain(2), '`i`'),
])
def test_bad_input(call, msg):
    with pytest.raises(MetricInputError, match=msg.replace('[', r'\[').replace(']', r'\]')): call()


def test_empty_captions_when_allowed_score_as_pycocoevalcap():
    hyps, refs = ['a dog', '...'], SegmentRefs([['a dog runs', 'a dog'], ['a cat', 'a cat on a mat']])
    res = corpus_cider(hyps, refs, allow_empty=True)
    s, per = theirs([' '.join(tokenize_caption(h)) for h in hyps], [[' '.join(tokenize_caption(r)) for r in rs] for rs in refs])
    assert res.segment_scores[1] == 0.0 and abs(float(res) - s) < 1e-12


def test_ptb_missing_dependency_is_a_clear_error(monkeypatch):
    import shutil
    monkeypatch.setattr(shutil, 'which', lambda name: None)
    with pytest.raises(MetricInputError, match='java'): tokenize_captions(['a dog'], 'ptb')


def test_result_object(thumb):
    res = corpus_cider(thumb['systems']['Human'][:20], thumb['refs'][:20])
    assert isinstance(res, CIDErResult) and float(res) == res.score and res.name == 'CIDEr-D'
    assert res.signature.startswith('CIDEr-D|n:4|tok:caption|tf:raw|unseen:max|sigma:6|length:bigrams|factor:10|version:')
    json.dumps(res.to_dict())
    text = res.explain(3)
    assert 'length penalty' in text and 'order 4: cosine' in text and 'idf' in text
    assert res.explain().startswith('CIDEr-D over 20 image(s)')
    assert corpus_cider(['a', 'b'], ['a', 'b'], variant='cider').name == 'CIDEr'
    h = corpus_cider(['<b>x</b> y', 'a b'], [['<b>x</b> z'], ['a c']])
    assert '<b>' not in h._repr_html_().replace('<b>CIDEr', '')
    with pytest.raises(Exception): res.score = 1.0                  # frozen


def test_reference_preparation_is_cached_and_shared(thumb):
    prepare_references.cache_clear()
    for s in SYSTEMS: corpus_cider(thumb['systems'][s], thumb['refs'])
    info = prepare_references.cache_info()
    assert info.misses == 1 and info.hits == 4


def test_cli(tmp_path, capsys):
    from textmetrics_edu.app.cli import main
    hyps = ['a dog runs on the grass', 'a cat sleeps', 'a man rides a horse']
    r1 = ['a dog running on grass', 'a cat is sleeping', 'a person riding a horse']
    r2 = ['the dog runs', 'a cat on a sofa', 'a horse and a rider']
    for name, lines in [('h', hyps), ('r1', r1), ('r2', r2)]: (tmp_path / f'{name}.txt').write_text('\n'.join(lines) + '\n')
    assert main(['score', str(tmp_path / 'h.txt'), '-r', str(tmp_path / 'r1.txt'), str(tmp_path / 'r2.txt'),
                 '--metrics', 'bleu,cider,cider-d', '--format', 'json', '--bleu-tokenize', 'intl', '--cider-sigma', '4']) == 0
    m = json.loads(capsys.readouterr().out)['systems'][0]['metrics']
    refs = [list(x) for x in zip(r1, r2)]
    assert m['cider-d']['score'] == float(corpus_cider(hyps, refs, sigma=4.0))
    assert m['cider']['score'] == float(corpus_cider(hyps, refs, variant='cider'))
    assert main(['score', str(tmp_path / 'h.txt'), '-r', str(tmp_path / 'r1.txt'), '--metrics', 'cider-d',
                 '--cider-tokenize', 'none']) == 0
    assert 'cider-d' in capsys.readouterr().out


def test_explorer_and_renderer():
    out = render_cider_html('A dog runs on the grass.', ['A dog running on grass.'], n_other=5)
    assert 'CIDEr-D = ' in out and '<svg' in out and '|I| = 6' in out
    assert '&lt;script&gt;' in render_cider_html('<script>', ['<script> x'], curve=False)
    assert 'tme-error' in render_cider_html('a dog', ['a dog'], n_other=0)
    assert 'tme-error' in render_cider_html('a dog', ['a dog'], n_other=99)
    ex = cider_explorer()
    before = ex.output.value
    ex.controls['n_other'].value = 20
    assert ex.output.value != before and '|I| = 21' in ex.output.value
    ex.controls['variant'].value = 'cider'
    assert 'CIDEr = ' in ex.output.value


# --- the metric protocol: cider and cider-d are `core.Metric` specs ------------------------------------------------
from textmetrics_edu.core import Metric, get_metric, cli_options, METRICS
from textmetrics_edu.metrics.cider import CIDER, CIDER_D


def test_protocol_specs_and_namespaced_flags():
    for name, variant in [('cider', 'cider'), ('cider-d', 'cider-d')]:
        m = get_metric(name)
        assert isinstance(m, Metric) and m is (CIDER if name == 'cider' else CIDER_D)
        assert m.fixed == {'variant': variant} and m.aggregate == 'mean' and m.prepare_refs is not None
        assert METRICS[name].sentence_fn is None  # an image has a score only within its corpus
        flags = {o.flag for o in cli_options(m)}
        assert {'--cider-tokenize', '--cider-sigma', '--cider-n', '--cider-tf', '--cider-unseen-idf', '--cider-length',
                '--cider-factor', '--cider-allow-empty'} == flags


@pytest.mark.parametrize('opts, msg', [(dict(sigma=0), '`sigma`'), (dict(n=True), '`n`'), (dict(tokenize='13a'), '`tokenize`'),
                                       (dict(sigam=3), 'did you mean `sigma`'), (dict(variant='cider'), 'fixed'),
                                       (dict(factor=float('inf')), '`factor`'), (dict(allow_empty=1), '`allow_empty`')])
def test_protocol_bad_options_name_the_option(opts, msg):
    with pytest.raises(MetricInputError) as e: CIDER_D.opts(opts)
    assert msg in str(e.value)
    with pytest.raises(MetricInputError, match='1 image'): CIDER_D.sentence('a dog', ['a dog runs'])


def test_protocol_stages_equal_corpus_cider(thumb):
    hyps, refs = thumb['systems']['Human'][:40], thumb['refs'][:40]
    res = corpus_cider(hyps, refs)
    m = get_metric('cider-d')
    assert float(m.corpus(hyps, refs)) == float(res) and m.corpus(hyps, refs).segment_scores == res.segment_scores
    o = m.opts({})
    rows = m.stats(tuple(hyps), refs, o)
    assert [r.score_sum for r in rows] == list(res.segment_scores)


def test_paired_test_and_bootstrap_cider_d(thumb):
    from textmetrics_edu.stats.significance import paired_test, bootstrap_ci, stats_matrix
    base, sys_, refs = thumb['systems']['Human'], thumb['systems']['VinVL-large'], thumb['refs']
    M = stats_matrix(sys_, refs, 'cider-d')
    assert M.shape == (250, 5) and np.allclose(M[:, 0], corpus_cider(sys_, refs).segment_scores, atol=0)
    r = paired_test(base, sys_, refs, metric='cider-d', n_samples=200)
    assert abs(r.score - float(corpus_cider(sys_, refs))) < 1e-12
    assert abs(r.baseline_score - float(corpus_cider(base, refs))) < 1e-12
    assert r.p_value < 0.05 and r.signature.startswith('paired-bs-cider-d|')
    ar = paired_test(base, sys_, refs, metric='cider', test='ar', n_samples=200, sigma=4.0)
    assert abs(ar.score - float(corpus_cider(sys_, refs, variant='cider'))) < 1e-12
    mean, ci = bootstrap_ci(sys_, refs, metric='cider-d', n_samples=100)
    assert abs(mean - float(corpus_cider(sys_, refs))) < 3 * ci


def test_cli_segments_explain_tsv_json_on_thumb(thumb, tmp_path, capsys):
    from textmetrics_edu.app.cli import main
    n = 60
    (tmp_path / 'Human.txt').write_text('\n'.join(thumb['systems']['Human'][:n]) + '\n', encoding='utf-8')
    rfiles = []
    for k in range(4):
        rfiles.append(str(tmp_path / f'ref{k}.txt'))
        (tmp_path / f'ref{k}.txt').write_text('\n'.join(r[k] for r in thumb['refs'][:n]) + '\n', encoding='utf-8')
    refs = [r[:4] for r in thumb['refs'][:n]]
    res_d, res = corpus_cider(thumb['systems']['Human'][:n], refs), corpus_cider(thumb['systems']['Human'][:n], refs, variant='cider')
    base = ['score', str(tmp_path / 'Human.txt'), '-r', *rfiles, '--metrics', 'cider,cider-d', '--segments']
    assert main(base + ['--format', 'json', '--explain', '4']) == 0
    m = json.loads(capsys.readouterr().out)['systems'][0]['metrics']
    assert m['cider-d']['score'] == float(res_d) and m['cider-d']['segments'] == list(res_d.segment_scores)
    assert m['cider']['segments'] == list(res.segment_scores)
    assert m['cider-d']['explain'] == res_d.explain(3) and 'length penalty' in m['cider-d']['explain']
    assert main(base + ['--format', 'tsv']) == 0
    rows = [l.split('\t') for l in capsys.readouterr().out.splitlines()]
    assert rows[0] == ['system', 'metric', 'segment', 'score'] and len(rows) == 1 + 2 * (n + 1)
    assert rows[1][:3] == ['Human', 'cider', 'corpus'] and float(rows[2][3]) == res.segment_scores[0]
    assert main(base + ['--cider-sigma', '3', '--cider-length', 'words']) == 0
    out = capsys.readouterr().out
    assert f"{float(corpus_cider(thumb['systems']['Human'][:n], refs, sigma=3.0, length='words')):.4f}" in out
    assert 'length:words' in out and 'per segment:' in out
