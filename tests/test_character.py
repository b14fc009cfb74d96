"""CharacTER against PyPI cer 1.2.0 itself (in the dev environment): WMT22 en-de segment by segment and the corpus
statistics (reference A; A and B with the best reference, as HF `character` takes it), 5,000 seeded fuzzed cases, the
fast engine against the lesson, bad input, CLI, explorer. All 9 systems x {A, A+B} run with --slow (TME_SLOW=1)."""
import random
import re

import pytest
import cer
from hypothesis import given, settings, strategies as st

from textmetrics_edu import corpus_character, sentence_character
from textmetrics_edu.core import MetricInputError
from textmetrics_edu.app.cli import main
from textmetrics_edu.kernels.character import character_score_fast
from textmetrics_edu.metrics.character import character_detail
from conftest import WMT22_SYSTEMS, sweep


def hf_character(hyps, refs):
    "HF evaluate's `character` (which calls cer): one reference as is, several: the lowest calculate_cer per segment."
    return [min(cer.calculate_cer(h.split(), r.split()) for r in rs) for h, rs in zip(hyps, refs)]


@pytest.mark.parametrize('system', sweep(WMT22_SYSTEMS, ['Online-W', 'PROMT']))
def test_wmt22_reference_a_every_segment_and_corpus_statistics(wmt22, system):
    hyps, refs = wmt22['systems'][system], wmt22['refs_A']
    theirs = cer.calculate_cer_corpus([h.split() for h in hyps], [r.split() for r in refs])
    ours = corpus_character(hyps, refs)
    assert list(ours.segment_scores) == theirs['cer_scores']  # bit for bit, every segment
    assert (float(ours), ours.median, ours.std, ours.min, ours.max, ours.n_segments) == \
           (theirs['mean'], theirs['median'], theirs['std'], theirs['min'], theirs['max'], theirs['count'])


@pytest.mark.parametrize('system,n', sweep([('JDExploreAcademy', 600)] + [(s, 2037) for s in WMT22_SYSTEMS],
                                            [('JDExploreAcademy', 600)], several=True))
def test_wmt22_two_references_best_segment(wmt22, system, n):
    "A and B, each segment's best (the first 600 segments of one system by default, every system whole in the slow set)."
    hyps, refs = wmt22['systems'][system][:n], [[a, b] for a, b in zip(wmt22['refs_A'], wmt22['refs_B'])][:n]
    theirs = hf_character(hyps, refs)
    ours = corpus_character(hyps, refs)
    assert list(ours.segment_scores) == theirs
    assert all(s == cer.calculate_cer(h.split(), rs[k].split()) for s, h, rs, k in
               zip(ours.segment_scores, hyps, refs, ours.best_ref))


# ---------------------------------------------------------------- 5,000 fuzzed cases (seeded)
VOCAB = 'a b c the cat sat on mat der die das Katze Katzen , . ! ab ba abc x y z'.split()


def fuzz_cases(n, seed=20261125):
    "Word lists over a small vocabulary (many repeated words, so many shift candidates and ties), 0-14 words."
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        ref = [rng.choice(VOCAB) for _ in range(rng.randint(1, 14))]
        if rng.random() < 0.6:  # a permuted, edited copy of the reference: shifts pay off
            hyp = list(ref)
            for _ in range(rng.randint(0, 3)):
                i, j = rng.randrange(len(hyp)), rng.randrange(len(hyp))
                hyp[i:i] = [hyp.pop(j)] if rng.random() < 0.5 else [rng.choice(VOCAB)]
            if hyp and rng.random() < 0.3: del hyp[rng.randrange(len(hyp))]
        else: hyp = [rng.choice(VOCAB) for _ in range(rng.randint(0, 14))]
        out.append((hyp, ref))
    return out


def test_fuzzed_cases_equal_cer(n=5000):
    "5,000 seeded cases, under 2 s: in the default set."
    cases = fuzz_cases(n)
    theirs = [cer.calculate_cer(h, r) for h, r in cases]
    ours = [float(sentence_character(' '.join(h), ' '.join(r))) for h, r in cases]
    assert ours == theirs
    assert len({round(s, 6) for s in theirs}) > 100 and sum(s == 1.0 for s in theirs) < n // 2  # the cases are varied


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from('a b c d the cat ab'.split()), max_size=14),
       st.lists(st.sampled_from('a b c d the cat ab'.split()), min_size=1, max_size=14))
def test_engine_equals_lesson_and_tool(hyp, ref):
    lesson = character_detail(hyp, ref).score
    assert character_score_fast(hyp, ref) == lesson == cer.calculate_cer(hyp, ref)


def test_engine_without_rapidfuzz_is_the_same(monkeypatch):
    import textmetrics_edu.kernels.character as k
    monkeypatch.setattr(k, '_RF', False)  # the bit-parallel engine (the browser has no rapidfuzz)
    for h, r in fuzz_cases(200, seed=7):
        assert k.character_score_fast(h, r) == cer.calculate_cer(h, r)


def test_hand_example_and_statistics():
    r = sentence_character('on the mat the cat sat', 'the cat sat on the mat')
    assert float(r) == (8 / 3 + 3) / 22 and r.detail().shift_cost == 8 / 3 + 3
    c = corpus_character(['a b', 'b a', 'x'], ['a b', 'a b', 'y'])
    assert c.segment_scores == (0.0, cer.calculate_cer(['b', 'a'], ['a', 'b']), 1.0) and c.total == sum(c.segment_scores)


def test_bad_input():
    for bad, msg in [(lambda: corpus_character('a', ['a']), 'bare str'), (lambda: corpus_character([], []), 'empty'),
                     (lambda: corpus_character(['a', 'b'], ['a']), '2 hypotheses'),
                     (lambda: corpus_character(['a'], ['   ']), 'no words'),
                     (lambda: sentence_character('a', ['b', '']), 'no words'),
                     (lambda: corpus_character(['a'], ['a'], lowercase=True), 'unknown option')]:
        with pytest.raises(MetricInputError, match=re.escape(msg)): bad()


def test_inputs_not_modified():
    hyps, refs = ['on the mat the cat sat'], [['the cat sat on the mat', 'x']]
    corpus_character(hyps, refs)
    assert hyps == ['on the mat the cat sat'] and refs == [['the cat sat on the mat', 'x']]


def test_cli(tmp_path, capsys):
    (tmp_path / 'h.txt').write_text('on the mat the cat sat\nhello world\n')
    (tmp_path / 'r.txt').write_text('the cat sat on the mat\nhello there world\n')
    assert main(['score', str(tmp_path / 'h.txt'), '-r', str(tmp_path / 'r.txt'), '--metrics', 'character',
                 '--segments', '--explain', '1']) == 0
    out = capsys.readouterr().out
    assert '0.2576' in out and 'shift cost' in out


def test_significance():
    from textmetrics_edu.stats.significance import paired_test
    hyps = ['the cat sat on the mat', 'a dog barked loudly', 'it is raining today', 'we like green tea'] * 3
    base = ['mat the on sat cat the', 'the dog barked', 'it rains', 'we like tea'] * 3
    res = paired_test(base, hyps, hyps, metric='character', n_samples=50, seed=3)
    assert res.score == 0.0 and res.baseline_score == float(corpus_character(base, hyps))


def test_explorer_renders_escaped():
    from textmetrics_edu.views.character import render_character_html
    h = render_character_html('on the mat the cat sat', 'the cat sat on the mat')
    assert 'CharacTER = 0.2576' in h and 'tme-alignment' in h
    assert '<b>x' not in render_character_html('<b>x</b>', 'x')
    assert 'tme-error' in render_character_html('a', [''])
