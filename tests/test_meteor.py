"""METEOR against NLTK 3.10's `meteor_score` with WordNet 3.0 itself, on every segment of the real data: 18
summarization systems x 50 documents (10 references) and the 10 WMT22 ru-en systems (2016 segments each);
random differential tests; WordNet loading and its absence; bad input; the CLI; the explorer."""
import json
import random
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from textmetrics_edu import corpus_meteor, sentence_meteor, MetricInputError
from textmetrics_edu.metrics.meteor import load_wordnet, meteor_align, meteor_tokenize, count_chunks, tokens_cached
from textmetrics_edu.kernels.meteor import WordNetMissingError, find_wordnet_dir, lexnames_text
from textmetrics_edu.views.meteor import render_meteor_html, meteor_explorer, plot_meteor_alignment

nltk_meteor = pytest.importorskip('nltk.translate.meteor_score')
from conftest import sweep, read_jsonl

DATA = Path(__file__).parent / 'data'
SUMM = DATA / 'summarization' / 'thumb_cnndm_summeval_docs001-050'
WMT = DATA / 'mt' / 'wmt22_ru-en_da'
# the systems (for `sweep`: one of each data set runs by default, all with --slow)
SUMM_SYSTEMS = list(dict.fromkeys(d['SYS'] for d in read_jsonl(SUMM / 'summaries_with_human_scores.jsonl')))
WMT_SYSTEMS = sorted(f.name for f in (WMT / 'sys').glob('*.en'))


def _wordnet_or_skip():
    try: return load_wordnet()
    except WordNetMissingError as e: pytest.skip(f'no WordNet 3.0 (Debian wordnet-base, see tools/system-packages.txt): {e}')


@pytest.fixture(scope='session')
def wn(): return _wordnet_or_skip()


def nltk_score(hyp, refs, wn, tokenize='13a', **kw):
    return nltk_meteor.meteor_score([list(tokens_cached(r, tokenize)) for r in refs], list(tokens_cached(hyp, tokenize)), wordnet=wn, **kw)


def read_lines(p):
    lines = Path(p).read_text(encoding='utf-8').split('\n')
    if lines[-1] == '': lines.pop()
    return lines


@pytest.mark.parametrize('system', sweep(SUMM_SYSTEMS, keep=['BART']))
def test_summarization_all_systems_equal_nltk(wn, system):
    refs = {d['seg_id']: d['refs'] for d in read_jsonl(SUMM / 'references.jsonl')}
    by_sys = {}
    for d in read_jsonl(SUMM / 'summaries_with_human_scores.jsonl'):
        by_sys.setdefault(d['SYS'], []).append((d['hyp'], refs[d['seg_id']]))
    assert len(by_sys) == 18
    n = 0
    for system, items in [(system, by_sys[system])]:
        hyps, rs = [h for h, _ in items], [r for _, r in items]
        ours = corpus_meteor(hyps, rs, wordnet=wn)
        for k, (h, r) in enumerate(items):
            assert ours.seg_scores[k] == nltk_score(h, r, wn), (system, k)
            n += 1
        assert float(ours) == sum(ours.seg_scores) / 50
    assert n == 50   # one system per test


@pytest.mark.parametrize('system', sweep(WMT_SYSTEMS, keep=['Online-B.en']))
def test_wmt22_ru_en_all_systems_equal_nltk(wn, system):
    ref = read_lines(WMT / 'ref.A.en')
    systems = sorted((WMT / 'sys').glob('*.en'))
    assert len(systems) == 10 and len(ref) == 2016
    mismatches = 0
    for f in [WMT / 'sys' / system]:
        hyps = read_lines(f)
        ours = corpus_meteor(hyps, ref, wordnet=wn)
        theirs = [nltk_score(h, [r], wn) for h, r in zip(hyps, ref)]
        mismatches += sum(a != b for a, b in zip(ours.seg_scores, theirs))
    assert mismatches == 0


@pytest.mark.parametrize('tokenize', ['none', 'nltk', 'intl'])
def test_other_tokenizers_and_parameters(wn, tokenize):
    ref = read_lines(WMT / 'ref.A.en')[:200]
    hyps = read_lines(WMT / 'sys' / 'Online-W.en')[:200]
    for kw in ({}, dict(alpha=0.8, beta=2.0, gamma=0.4)):
        ours = corpus_meteor(hyps, ref, tokenize=tokenize, wordnet=wn, **kw)
        assert list(ours.seg_scores) == [nltk_score(h, [r], wn, tokenize, **kw) for h, r in zip(hyps, ref)]


def test_alignment_equals_nltk_align_words(wn):
    ref = read_lines(WMT / 'ref.A.en')[:300]
    hyps = read_lines(WMT / 'sys' / 'Online-A.en')[:300]
    for h, r in zip(hyps, ref):
        ht, rt = [w.lower() for w in tokens_cached(h, '13a')], [w.lower() for w in tokens_cached(r, '13a')]
        theirs, _, _ = nltk_meteor.align_words(ht, rt, wordnet=wn)
        ours = meteor_align(ht, rt, wordnet=wn)
        assert [(i, j) for i, j, _ in ours] == theirs
        assert count_chunks(ours) == nltk_meteor._count_chunks(theirs)


WORDS = ['the', 'The', 'cat', 'cats', 'car', 'auto', 'automobile', 'halted', 'stopped', 'stop', 'big', 'large',
         'house', 'houses', 'run', 'running', 'ran', 'quick', 'fast', 'a', 'on', 'mat', '.', ',']


@settings(max_examples=150, deadline=None)
@given(hyp=st.lists(st.sampled_from(WORDS), max_size=15), refs=st.lists(st.lists(st.sampled_from(WORDS), max_size=15),
                                                                      min_size=1, max_size=3))
def test_random_texts_equal_nltk(hyp, refs):
    wn = _wordnet_or_skip()
    h, rs = ' '.join(hyp), [' '.join(r) for r in refs]
    assert float(sentence_meteor(h, rs, tokenize='none', wordnet=wn)) == nltk_score(h, rs, wn, 'none')


def test_properties(wn):
    rng = random.Random(7)
    for _ in range(100):
        h = ' '.join(rng.choice(WORDS) for _ in range(rng.randint(0, 12)))
        r = ' '.join(rng.choice(WORDS) for _ in range(rng.randint(1, 12)))
        s = float(sentence_meteor(h, r, wordnet=wn))
        assert 0 <= s <= 1
        # more references can only help (best over references)
        assert float(sentence_meteor(h, [r, h or 'x'], wordnet=wn)) >= s
    assert float(sentence_meteor('a b c d e f g h', 'a b c d e f g h', wordnet=wn)) == 1 - 0.5 * (1 / 8) ** 3


# ---------------------------------------------------------------- WordNet
def test_wordnet_from_debian_files(tmp_path):
    src = find_wordnet_dir()
    if src is None: pytest.skip('no system WordNet (Debian wordnet-base)')
    wn = load_wordnet(use_nltk_data=False, cache_dir=str(tmp_path / 'nltk_data'))
    assert wn.get_version() == '3.0'
    assert (tmp_path / 'nltk_data' / 'corpora' / 'wordnet30_system' / 'lexnames').read_text() == lexnames_text()
    assert wn.synsets('dog')[0].lexname() == 'noun.animal'
    assert 'auto' in {l.name() for s in wn.synsets('car') for l in s.lemmas()}


def test_missing_wordnet_says_how_to_install():
    with pytest.raises(WordNetMissingError) as e:
        load_wordnet(('/nonexistent/wordnet',), use_nltk_data=False)
    msg = str(e.value)
    assert "nltk.download('wordnet')" in msg and 'apt-get install wordnet-base' in msg and 'synonyms=False' in msg
    assert isinstance(e.value, MetricInputError)  # the CLI reports it as a user error
    # without the synonym stage no WordNet is needed
    assert float(sentence_meteor('the cat sat', 'the cat sat', synonyms=False)) > 0.9


# ---------------------------------------------------------------- bad input, API, CLI, explorer
@pytest.mark.parametrize('call, msg', [
    (lambda: corpus_meteor('a b', ['a b']), 'bare str'),
    (lambda: corpus_meteor([], []), 'empty'),
    (lambda: corpus_meteor(['a', 'b'], ['a']), '2 hypotheses'),
    (lambda: corpus_meteor(['a'], [[]]), 'empty list'),
    (lambda: sentence_meteor(None, 'a'), 'None'),
    (lambda: sentence_meteor('a', 'a', alpha=1.5), 'alpha'),
    (lambda: sentence_meteor('a', 'a', gamma=-1), 'gamma'),
    (lambda: sentence_meteor('a', 'a', beta=0), 'beta'),
    (lambda: sentence_meteor('a', 'a', tokenize='x'), 'tokenize'),
    (lambda: meteor_tokenize('a', 'x'), 'tokenize'),
])
def test_bad_input(call, msg):
    with pytest.raises(MetricInputError, match=msg): call()


def test_result_shape_and_no_mutation(wn):
    hyps, refs = ['the cat sat', 'a dog'], [['the cat sat down', 'a cat sat'], 'the dog']
    h0, r0 = list(hyps), [list(refs[0]), refs[1]]
    res = corpus_meteor(hyps, refs, wordnet=wn)
    assert hyps == h0 and refs == [r0[0], r0[1]]
    assert res.signature.startswith('METEOR|nrefs:var|tok:13a|case:lc|stages:exact+stem+wn|wordnet:3.0|a:0.9|b:3|g:0.5|')
    assert res.n_segments == 2 and 'Fmean' in res.explain() and '<table>' in res._repr_html_()
    s = sentence_meteor('the cars halted', 'the auto stopped', wordnet=wn)
    assert [x[2] for x in s.alignment] == ['exact', 'synonym', 'synonym']


def test_cli(tmp_path, capsys, wn):
    from textmetrics_edu.app.cli import main
    (tmp_path / 'h.txt').write_text('the cars halted near the houses\nit is raining\n')
    (tmp_path / 'r.txt').write_text('the auto stopped near the house\nit rains\n')
    assert main(['score', str(tmp_path / 'h.txt'), '-r', str(tmp_path / 'r.txt'), '--metrics', 'meteor,rougeL',
                 '--format', 'json', '--segments']) == 0
    out = json.loads(capsys.readouterr().out)
    m = out['systems'][0]['metrics']['meteor']
    exp = corpus_meteor(['the cars halted near the houses', 'it is raining'], ['the auto stopped near the house', 'it rains'])
    assert m['score'] == float(exp) and m['segments'] == list(exp.seg_scores)
    assert main(['score', str(tmp_path / 'h.txt'), '-r', str(tmp_path / 'r.txt'), '--metrics', 'meteor', '--explain', '1']) == 0
    assert 'chunks' in capsys.readouterr().out


def test_explorer_and_picture(wn):
    import matplotlib
    matplotlib.use('Agg')
    fig = plot_meteor_alignment(sentence_meteor('the cars halted', 'the auto stopped', wordnet=wn))
    assert len(fig.axes[0].lines) >= 3
    with pytest.raises(MetricInputError): plot_meteor_alignment(corpus_meteor(['a', 'b'], ['a', 'b'], wordnet=wn))
    ex = meteor_explorer()
    assert 'synonym</td>' in ex.output.value
    ex.controls['synonyms'].value = False
    assert 'synonym</td>' not in ex.output.value
    ex.controls['refs'].value = ''
    assert 'at least one reference' in ex.output.value
    ex.controls['refs'].value = '<b>x</b>'
    assert '<b>x' not in ex.output.value
    assert '&lt;script&gt;' in render_meteor_html('<script>', '<script>', tokenize='none', plot=False)


# ---------------------------------------------------------------- lesson and engine (issue 13), the protocol (issue 9)
from textmetrics_edu.kernels import meteor as E
from textmetrics_edu.metrics.meteor import METEOR

M15 = WMT / 'meteor15_Online-B_first40.json'
_JAR = {}


def start_reference_jobs(items):
    "Called by conftest.py: start the METEOR 1.5 jar (about 30 s) in the background if the jar test is selected."
    if _JAR or not any(i.originalname == 'test_meteor15_recording' for i in items) or E.meteor15_jar() is None: return
    import threading
    t = threading.Thread(target=lambda: _JAR.setdefault('out', _run_jar()), daemon=True)
    t.start(); _JAR['thread'] = t


def _run_jar():
    rec = json.loads(M15.read_text())
    return E.run_meteor15(read_lines(WMT / 'sys' / 'Online-B.en')[:rec['lines']], read_lines(WMT / 'ref.A.en')[:rec['lines']])


@settings(max_examples=150, deadline=None)
@given(hyp=st.lists(st.sampled_from(WORDS), max_size=15), ref=st.lists(st.sampled_from(WORDS), max_size=15),
       lowercase=st.booleans(), stem=st.booleans(), synonyms=st.booleans())
def test_engine_alignment_equals_lesson(hyp, ref, lowercase, stem, synonyms):
    "The engine's indexed alignment (used by the corpus functions) equals the lesson's readable NLTK loops."
    wn = _wordnet_or_skip()
    kw = dict(lowercase=lowercase, stem=stem, synonyms=synonyms, wordnet=wn)
    assert E.align_fast(hyp, ref, **kw) == meteor_align(hyp, ref, **kw)


def test_corpus_meteor_is_derived_from_the_spec(wn):
    "Issue 9: corpus_meteor/sentence_meteor come from the METEOR spec (core.corpus_fn/sentence_fn), numbers unchanged."
    import inspect
    from textmetrics_edu.core import METRICS
    assert corpus_meteor.metric is METEOR and sentence_meteor.metric is METEOR and METRICS['meteor'].metric is METEOR
    ps = inspect.signature(corpus_meteor).parameters
    assert list(ps) == ['hyps', 'refs', 'alpha', 'beta', 'gamma', 'tokenize', 'lowercase', 'stem', 'synonyms', 'wordnet']
    assert all(p.kind == p.KEYWORD_ONLY for n, p in ps.items() if n not in ('hyps', 'refs'))
    hyps, refs = ['the cars halted near the houses', 'it is raining'], ['the auto stopped near the house', 'it rains']
    r = corpus_meteor(hyps, refs, wordnet=wn)
    assert list(r.seg_scores) == [nltk_score(h, [x], wn) for h, x in zip(hyps, refs)]
    assert float(r) == sum(r.seg_scores) / 2 and r.alignment == ()
    assert float(METEOR.corpus(hyps, refs, wordnet=wn)) == float(r)
    with pytest.raises(MetricInputError, match='lowercase'): sentence_meteor('a', 'a', lowercase='no')


def test_meteor15_recording():
    "The recorded METEOR 1.5 run the lesson shows equals the jar's output now (skipped without java/the jar)."
    rec = json.loads(M15.read_text())
    assert len(rec['segments']) == rec['lines'] == 40 and rec['parameters'].split()[:3] == ['0.85', '0.2', '0.6']
    if E.meteor15_jar() is None: pytest.skip('METEOR 1.5 needs java and pycocoevalcap')
    if 'thread' in _JAR: _JAR['thread'].join()
    out = _JAR.get('out') or _run_jar()
    assert out == {k: rec[k] for k in ('segments', 'final', 'parameters')}
