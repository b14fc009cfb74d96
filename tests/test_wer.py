"WER/CER/MER/WIL/WIP against jiwer 4 itself (Earnings-21, random pairs), sclite's expected output, bad input, CLI."
import json
import re
from pathlib import Path

import jiwer
import pytest
from hypothesis import given, settings, strategies as st

from textmetrics_edu import (corpus_wer, sentence_wer, corpus_cer, corpus_mer, corpus_wil, corpus_wip, sentence_cer,
                             sclite_score)
from textmetrics_edu.core import MetricInputError
from textmetrics_edu.metrics.wer import NUMBERS, BASIC, substitute, lowercase
from textmetrics_edu.kernels.wer import clear_reference_caches
from textmetrics_edu.app.cli import main
from textmetrics_edu.kernels.wer import use_aligner

DATA = Path(__file__).parent / 'data' / 'asr'
E21, SCTK = DATA / 'earnings21_subset', DATA / 'sctk_csrnab'


@pytest.fixture(scope='module')
def earnings():
    refs = {d['file_id']: d['text'] for d in map(json.loads, (E21 / 'references.jsonl').read_text().splitlines())}
    hyps = {}
    for d in map(json.loads, (E21 / 'hypotheses.jsonl').read_text().splitlines()):
        hyps.setdefault(d['system'], {})[d['file_id']] = d['text']
    return refs, hyps


@pytest.mark.parametrize('aligner', ['auto', 'bit-parallel'])  # 'auto': rapidfuzz (installed with jiwer)
def test_earnings21_every_system_equals_jiwer(earnings, aligner):
    refs, hyps = earnings
    ids = sorted(refs)
    assert len(hyps) == 7
    with use_aligner(aligner):
        _every_system_equals_jiwer(refs, hyps, ids, aligner)


def _every_system_equals_jiwer(refs, hyps, ids, aligner):
    for system, h in hyps.items():
        hs, rs = [h[i] for i in ids], [refs[i] for i in ids]
        o = jiwer.process_words(rs, hs)  # jiwer: reference first
        r = corpus_wer(hs, rs)
        assert (r.hits, r.substitutions, r.deletions, r.insertions) == (o.hits, o.substitutions, o.deletions, o.insertions)
        assert abs(float(r) - o.wer) < 1e-12 and abs(float(corpus_mer(hs, rs)) - o.mer) < 1e-12
        assert abs(float(corpus_wil(hs, rs)) - o.wil) < 1e-12 and abs(float(corpus_wip(hs, rs)) - o.wip) < 1e-12
        for i in ids:  # every call on its own (thousands of words each)
            o1 = jiwer.process_words(refs[i], h[i])
            r1 = sentence_wer(h[i], refs[i])
            assert (r1.hits, r1.substitutions, r1.deletions, r1.insertions) == (o1.hits, o1.substitutions, o1.deletions, o1.insertions)
            assert ('bit-parallel' in r1.algorithm) if aligner == 'bit-parallel' else (r1.algorithm == 'rapidfuzz')


def test_earnings21_normalised_equals_jiwer_on_normalised_text(earnings):
    refs, hyps = earnings
    ids = sorted(refs)
    for system in ('google', 'rev-espnet'):
        hs, rs = [hyps[system][i] for i in ids], [refs[i] for i in ids]
        for norm in (BASIC, NUMBERS):
            assert abs(float(corpus_wer(hs, rs, normalize=norm)) - jiwer.wer([norm(r) for r in rs], [norm(h) for h in hs])) < 1e-12


def test_earnings21_cer_one_call(earnings):
    refs, hyps = earnings
    i = sorted(refs)[0]
    o = jiwer.process_characters(refs[i], hyps['amazon'][i])
    r = sentence_cer(hyps['amazon'][i], refs[i])
    assert (r.hits, r.substitutions, r.deletions, r.insertions) == (o.hits, o.substitutions, o.deletions, o.insertions)
    assert abs(float(r) - o.cer) < 1e-12


def test_sclite_totals_and_every_utterance():
    sc = sclite_score(SCTK / 'csrnab.hyp', SCTK / 'csrnab.ref')
    t = sc['total']
    assert (t['N'], t['C'], t['S'], t['D'], t['I'], t['Err']) == (1406, 1263, 131, 12, 26, 169)
    assert round(100 * t['WER'], 1) == 12.0 and round(100 * t['SER'], 1) == 74.5
    pra = (SCTK / 'sclite_expected' / 'test1.pra').read_text()
    expected = dict(re.findall(r'id: \((\S+)\)\nScores: \(#C #S #D #I\) (\d+ \d+ \d+ \d+)', pra))
    assert len(expected) == 51
    for u, a in sc['utterances'].items():
        assert tuple(map(int, expected[u].split())) == (a['C'], a['S'], a['D'], a['I']), u
    # the resolved references are sclite's (REF: lines of test1.pra without the *** fillers)
    refs_pra = re.findall(r'id: \((\S+)\)\nScores:[^\n]*\nREF:([^\n]*)', pra)
    for u, line in refs_pra:
        assert sc['utterances'][u]['ref'] == [w.lower() for w in line.split() if not set(w) <= {'*'}], u


def test_sclite_per_speaker_wer():
    sc = sclite_score(SCTK / 'csrnab.hyp', SCTK / 'csrnab.ref')
    expected = {'4t0': 18.6, '4t1': 7.2, '4t2': 11.1}  # test1.sys, Err column
    for spk, err in expected.items():
        us = [a for u, a in sc['utterances'].items() if u.startswith(spk)]
        e = sum(a['S'] + a['D'] + a['I'] for a in us) / sum(a['N'] for a in us)
        assert round(100 * e, 1) == err


text = st.lists(st.sampled_from(['a', 'b', 'c', 'd', 'the', 'cat', 'Cat', 'a,', 'x y']), max_size=14).map(' '.join)


@settings(max_examples=600, deadline=None)
@given(st.lists(st.tuples(text, text), min_size=1, max_size=4))
def test_random_corpora_vs_jiwer(pairs):
    hs, rs = [h for h, _ in pairs], [r for _, r in pairs]
    o = jiwer.process_words(rs, hs)
    r = corpus_wer(hs, rs)
    assert (r.hits, r.substitutions, r.deletions, r.insertions) == (o.hits, o.substitutions, o.deletions, o.insertions)
    for ours, theirs in ((r.wer, o.wer), (r.mer, o.mer), (r.wil, o.wil), (r.wip, o.wip)):
        assert abs(ours - theirs) < 1e-12
    oc = jiwer.process_characters(rs, hs)
    assert abs(float(corpus_cer(hs, rs)) - oc.cer) < 1e-12


@settings(max_examples=150, deadline=None)
@given(text, text)
def test_properties(x, y):
    assert float(sentence_wer(x, x)) == 0.0
    w = sentence_wer(x, y)
    assert w.hits + w.substitutions + w.deletions == w.ref_len and w.hits + w.substitutions + w.insertions == w.hyp_len
    assert 0 <= w.mer <= 1 and 0 <= w.wil <= 1 and abs(w.wil + w.wip - 1) < 1e-12
    if w.ref_len: assert w.mer <= w.wer or w.wer == 0 or w.insertions == 0 or w.mer <= 1


def test_normalisation_is_explicit_and_composable():
    assert float(sentence_wer('Hello, World', 'hello world')) == 1.0  # jiwer default: case and punctuation count
    assert float(sentence_wer('Hello, World', 'hello world', normalize='basic')) == 0.0
    rule = lowercase + substitute({"i'll": 'i will'})
    assert float(sentence_wer("I'll go", 'i will go', normalize=rule)) == 0.0
    assert float(sentence_wer('it was 25%', 'it was twenty five percent', normalize='numbers')) == 0.0
    assert float(sentence_wer('A B', 'a b', normalize=str.lower)) == 0.0


def test_bad_input():
    cases = [(lambda: corpus_wer('a b', ['a b']), 'bare str'), (lambda: corpus_wer([], []), 'empty'),
             (lambda: corpus_wer(['a'], ['a', 'b']), '1 hypotheses'), (lambda: corpus_wer([None], ['a']), '`hyps[0]` is None'),
             (lambda: corpus_wer(['a'], [5]), '`refs[0]`'), (lambda: corpus_wer(['a'], [['a', 'b']]), 'exactly one'),
             (lambda: sentence_wer('a', 'a', normalize='nope'), '`normalize`'), (lambda: sentence_wer(3, 'a'), '`hyp`')]
    for f, msg in cases:
        with pytest.raises(MetricInputError, match=re.escape(msg)): f()


def test_cli(tmp_path, capsys):
    (tmp_path / 'h.txt').write_text('the cat sat on mat today\nhello world\n')
    (tmp_path / 'r.txt').write_text('the cat sat on the mat\nhello there world\n')
    assert main(['score', str(tmp_path / 'h.txt'), '-r', str(tmp_path / 'r.txt'), '--metrics', 'wer,cer,mer,wil,wip',
                 '--segments', '--explain', '2']) == 0
    out = capsys.readouterr().out
    assert 'REF:' in out and 'HYP:' in out and '0.3333' in out
    assert main(['score', str(tmp_path / 'h.txt'), '-r', str(tmp_path / 'r.txt'), str(tmp_path / 'r.txt'), '--metrics', 'wer']) == 2


def test_wer_from_distances_alignment_on_demand(earnings):
    "WER needs only the distances; the alignment (and everything that needs it) comes when first read, jiwer-exact."
    refs, hyps = earnings
    ids = sorted(refs)
    hs, rs = [hyps['google'][i] for i in ids], [refs[i] for i in ids]
    clear_reference_caches()
    r = corpus_wer(hs, rs)
    assert r._stats is None  # nothing aligned yet
    o = jiwer.process_words(rs, hs)
    assert r.errors == o.substitutions + o.deletions + o.insertions and abs(float(r) - o.wer) < 1e-12
    assert (r.hits, r.insertions, r.mer) == (o.hits, o.insertions, o.mer) and r._stats is not None
    assert [len(c) for c in r.codes] == [len(a) for a in r.alignments]
    warm = corpus_wer(hs, rs)  # the references' items and bitmasks now come from the cache: same numbers
    assert warm == r and (warm.hits, warm.substitutions) == (r.hits, r.substitutions)
    m = corpus_mer(hs, rs)
    assert m._stats is not None and abs(float(m) - o.mer) < 1e-12 and m.wer == r.wer


def test_reference_cache_is_bounded():
    from textmetrics_edu.kernels.edit_distance import LRU
    c = LRU(10)
    for k in range(6): c.put(k, str(k), 3)
    assert list(c.d) == [3, 4, 5] and c.total == 9 and c.get(0) is None and c.get(3) == '3'
    c.put('big', 'x', 11)  # costs more than the whole cache: not kept
    assert c.get('big') is None and list(c.d) == [4, 5, 3]


# ---------------------------------------------------------------- engine == lesson (issue 13), the spec (issue 9)
from textmetrics_edu.metrics.wer import segment_alignment, alignment_counts, jiwer_words, WER_METRICS  # noqa: E402
from textmetrics_edu.kernels.wer import segment_codes, segment_distance, words as engine_words, align_items  # noqa: E402

items_ = st.lists(st.sampled_from(['a', 'b', 'c', 'd', 'the', 'cat']), max_size=30).map(tuple)


@settings(max_examples=600, deadline=None)
@given(items_, items_)
def test_engine_alignment_equals_lesson(r, h):
    """The engine's alignment, on both paths (rapidfuzz; our linear-memory bit-parallel columns), == the lesson's full
    matrix + rapidfuzz backtrace, operation for operation."""
    for aligner in ('auto', 'bit-parallel'):
        with use_aligner(aligner):
            _engine_equals_lesson(r, h)


def _engine_equals_lesson(r, h):
    codes = segment_alignment(h, r)
    assert segment_codes(h, r)[0] == codes
    assert segment_codes(h, r, segment_distance(h, r))[0] == codes  # a known distance narrows the passes, same ops
    assert segment_distance(h, r) == len(codes) - codes.count('C')
    c = alignment_counts(codes)
    st_ = align_items([h], [r])
    assert (st_.hits, st_.substitutions, st_.deletions, st_.insertions, st_.ref_len, st_.hyp_len) == \
        (c['H'], c['S'], c['D'], c['I'], c['N'], c['M'])


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet='ab ,\t\n\u00a0\u2028x', max_size=30))
def test_engine_words_equal_lesson(s):
    assert engine_words(s) == jiwer_words(s)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(text, text), min_size=1, max_size=4))
def test_corpus_equals_lesson_counts(pairs):
    "Every public corpus function (derived from its spec) agrees with the lesson's alignment counts, summed."
    hs, rs = [h for h, _ in pairs], [r for _, r in pairs]
    tot = {k: 0 for k in 'HSDINM'}
    for h, r in pairs:
        for k, v in alignment_counts(segment_alignment(jiwer_words(h), jiwer_words(r))).items(): tot[k] += v
    m = corpus_mer(hs, rs)
    assert (m.hits, m.substitutions, m.deletions, m.insertions, m.ref_len, m.hyp_len) == tuple(tot[k] for k in 'HSDINM')
    assert corpus_wer(hs, rs).errors == tot['S'] + tot['D'] + tot['I']


def test_public_functions_come_from_the_specs():
    import inspect
    for m in ('wer', 'cer', 'mer', 'wil', 'wip'):
        import textmetrics_edu.metrics.wer as w
        c, s = getattr(w, f'corpus_{m}'), getattr(w, f'sentence_{m}')
        assert c.metric is WER_METRICS[m] and s.metric is WER_METRICS[m]
        assert list(inspect.signature(c).parameters) == ['hyps', 'refs', 'normalize']
        assert list(inspect.signature(s).parameters) == ['hyp', 'refs', 'normalize']
        assert inspect.signature(c).parameters['normalize'].kind is inspect.Parameter.KEYWORD_ONLY
        assert c.__module__ == 'textmetrics_edu.metrics.wer'


def test_significance_rebuilds_wer_from_rows():
    "The significance tests rebuild results from summed statistics rows: the score is right, counts say why they are absent."
    from textmetrics_edu.core import stats_row, stats_from_row
    m = WER_METRICS['wer']
    o = m.opts({})
    st_ = m.stats(['a b c', 'x y'], [('a c',), ('x y z',)], o)
    row = [a + b for a, b in zip(stats_row(st_[0]), stats_row(st_[1]))]
    r = m.score(stats_from_row(st_[0], row), o, signature='', n_segments=2)
    assert abs(float(r) - float(corpus_wer(['a b c', 'x y'], ['a c', 'x y z']))) < 1e-12
    with pytest.raises(MetricInputError, match='summed statistics alone'): r.hits
    mm = WER_METRICS['mer']
    st2 = mm.stats(['a b c'], [('a c',)], mm.opts({}))
    r2 = mm.score(stats_from_row(st2[0], stats_row(st2[0])), mm.opts({}), signature='', n_segments=1)
    assert (r2.hits, r2.insertions) == (2, 1) and abs(float(r2) - 1 / 3) < 1e-12


def test_many_segments_sum_lazily():
    "Summing 5,000 segments' statistics joins their details lazily (one Concat chain, flattened once), jiwer-exact."
    from textmetrics_edu.kernels.wer import Concat, flat
    hs = [f'a b {i % 7} c' for i in range(5000)]
    rs = [f'a {i % 5} c d' for i in range(5000)]
    m = WER_METRICS['mer']
    o = m.opts({})
    total = None
    for s in m.stats(hs, [(r,) for r in rs], o): total = s if total is None else total + s
    assert type(total.refs) is Concat and flat(total.refs) == tuple(tuple(r.split()) for r in rs)
    o_ = jiwer.process_words(rs, hs)
    r = corpus_mer(hs, rs)
    assert (r.hits, r.substitutions, r.deletions, r.insertions) == (o_.hits, o_.substitutions, o_.deletions, o_.insertions)
    assert type(r.refs) is tuple and len(r.codes) == 5000 and abs(float(corpus_wer(hs, rs)) - o_.wer) < 1e-12


def test_use_aligner_choices():
    "The engine choice: scores never change with it; bad names and a missing rapidfuzz say so; a block restores it."
    import textmetrics_edu.kernels.wer as E
    h, r = 'the cat sat on mat today', 'the cat sat on the mat'
    with use_aligner('rapidfuzz'):
        a = sentence_wer(h, r); assert a.algorithm == 'rapidfuzz'
    with use_aligner('bit-parallel'):
        b = sentence_wer(h, r); assert b.algorithm == 'bit-parallel'
    assert (a.hits, a.substitutions, float(a)) == (b.hits, b.substitutions, float(b)) == (4, 2, 2 / 6)
    assert E._ALIGNER == 'auto'
    with pytest.raises(MetricInputError, match='`name` must be one of'): use_aligner('fast')
    saved = E._RF
    try:
        E._RF = False  # as without rapidfuzz (the browser): 'auto' falls back, 'rapidfuzz' is refused
        assert sentence_wer(h, r).algorithm == 'bit-parallel'
        with pytest.raises(MetricInputError, match='needs the rapidfuzz package'): use_aligner('rapidfuzz')
    finally:
        E._RF = saved


def test_explorer_normalisation_control_from_the_option_and_the_case_note():
    """Issue 37: the WER explorer had no normalisation control, and counted I/i as an error beside a TER that lowercases,
    unexplained. The control is derived from WER's declared `normalize` Option (its `ui` names); the renderer applies it
    to WER, CER and the alignment, and says why TER differs on case."""
    from textmetrics_edu.metrics.wer import WER_METRICS, NORMALIZERS
    from textmetrics_edu.views.explorer import option_control
    from textmetrics_edu.views.alignment import render_alignment_html
    opt = {o.name: o for o in WER_METRICS['wer'].options}['normalize']
    c = option_control(opt, 'none')
    assert c.kind == 'choice' and c.options == tuple(NORMALIZERS) and c.label == 'normalisation'
    hyp, ref = 'I think the cat sat', 'i think the cat sat on it'
    for norm in c.options:
        page = render_alignment_html(hyp, ref, plot='html', normalize=norm)
        assert f"<b>WER {sentence_wer(hyp, ref, normalize=norm).wer:.4f}</b>" in page, norm
        assert f"<b>CER {float(sentence_cer(hyp, ref, normalize=norm)):.4f}</b>" in page, norm
        assert ('TER lowercases by default' in page) == (norm == 'none'), norm   # only where WER still sees the case
    assert 'after normalisation' in render_alignment_html(hyp, ref, plot='html', normalize='basic')
    assert 'TER lowercases' not in render_alignment_html('i think', 'i think so', plot='html')
    assert 'tme-error' in render_alignment_html(hyp, ref, plot='html', normalize='nonsense')
