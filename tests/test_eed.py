"""EED against torchmetrics 1.9.0 `extended_edit_distance`: torchmetrics needs torch, which the dev environment does not
install, so its outputs are stored in tests/data/mt/eed/expected.json (how they were made: the README there). Every
segment of three WMT22 en-de systems against reference A and one against A+B (the first 100 by default, all with
--slow), the corpus scores of all 9 systems x {A, A+B} (--slow), 5,000 fuzzed cases (both languages, drawn parameters,
up to three references), and torchmetrics itself when it is importable. Also: the fast engine against the lesson's
grid, bad input, CLI, explorer, significance."""
import json
import re
import sys

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from textmetrics_edu import corpus_eed, sentence_eed
from textmetrics_edu.core import MetricInputError
from textmetrics_edu.app.cli import main
from textmetrics_edu.kernels.eed import eed_score_fast
from textmetrics_edu.metrics.eed import eed_table, eed_preprocess
from conftest import DATA, sweep

HERE = DATA / 'mt' / 'eed'
sys.path.insert(0, str(HERE))
import cases as C  # noqa: E402  (the fuzzed cases' generator, shared with make_expected.py)

EXPECTED = json.loads((HERE / 'expected.json').read_text(encoding='utf-8'))
PARAMS = ('alpha', 'rho', 'deletion', 'insertion')


def f32_mean(xs) -> float:
    "torchmetrics' corpus value: float32 segment scores summed one by one in float32, divided by the count in float32."
    acc = np.float32(0)
    for x in xs: acc = np.float32(acc + np.float32(x))
    return float(np.float32(acc / np.float32(len(xs))))


def refs_for(wmt22, cfg):
    return [[a] for a in wmt22['refs_A']] if cfg == 'A' else [[a, b] for a, b in zip(wmt22['refs_A'], wmt22['refs_B'])]


def test_stored_outputs_are_torchmetrics_1_9():
    assert EXPECTED['torchmetrics'] == '1.9.0' and EXPECTED['torch'].startswith('2.13.0')
    assert EXPECTED['fuzz']['n'] == C.N_CASES == 5000 and EXPECTED['fuzz']['seed'] == C.SEED


def test_fuzzed_cases_are_the_stored_ones():
    assert C.digest(C.fuzz_cases()) == EXPECTED['fuzz']['digest']


def test_fuzzed_cases_equal_torchmetrics():
    "5,000 cases: every sentence score identical to torchmetrics' float64 value (so its float32 value too)."
    cases, stored = C.fuzz_cases(), EXPECTED['fuzz']['scores']
    ours = [float(sentence_eed(c['hyp'], c['refs'], language=c['language'], **{k: c[k] for k in PARAMS})) for c in cases]
    bad = [(i, a, b) for i, (a, b) in enumerate(zip(ours, stored)) if a != b]
    assert not bad, bad[:5]
    assert len({round(s, 6) for s in stored}) > 500  # the cases are varied


SENTENCE_CONFIGS = sorted(EXPECTED['wmt22_sentences'])


@pytest.mark.parametrize('key,n', sweep([(k, n) for n in (100, 2037) for k in SENTENCE_CONFIGS],
                                         [(k, 100) for k in SENTENCE_CONFIGS], several=True))
def test_wmt22_segments_equal_torchmetrics(wmt22, key, n):
    "Every segment (the first 100 by default, all 2037 in the slow set) identical to torchmetrics' float64 value."
    system, cfg = key.split('|')
    hyps, refs = wmt22['systems'][system][:n], refs_for(wmt22, cfg)[:n]
    ours = corpus_eed(hyps, refs)
    assert list(ours.segment_scores) == EXPECTED['wmt22_sentences'][key][:n]


@pytest.mark.parametrize('key', SENTENCE_CONFIGS)
def test_torchmetrics_corpus_value_is_the_float32_mean(key):
    "What torchmetrics' corpus value is: the float32 mean of its float32 segment scores (from the stored float64 ones)."
    assert f32_mean(EXPECTED['wmt22_sentences'][key]) == EXPECTED['wmt22_corpus'][key]


@pytest.mark.slow
@pytest.mark.parametrize('key', sorted(EXPECTED['wmt22_corpus']))
def test_wmt22_corpus_all_systems(wmt22, key):
    system, cfg = key.split('|')
    ours = corpus_eed(wmt22['systems'][system], refs_for(wmt22, cfg))
    theirs = EXPECTED['wmt22_corpus'][key]
    assert f32_mean(ours.segment_scores) == theirs  # torchmetrics' own arithmetic on our segment scores
    assert abs(float(ours) - theirs) < 1e-6  # our (exactly rounded float64) mean


def test_torchmetrics_itself_when_installed():
    tm = pytest.importorskip('torchmetrics.functional.text')  # not in the dev environment (torch); skipped there
    for c in C.fuzz_cases()[:300]:
        p = {k: c[k] for k in PARAMS}
        corpus, sent = tm.extended_edit_distance([c['hyp']], [c['refs']], language=c['language'],
                                                 return_sentence_level_score=True, **p)
        ours = float(sentence_eed(c['hyp'], c['refs'], language=c['language'], **p))
        assert float(np.float32(ours)) == float(sent[0])


texts = st.text(alphabet=' ab.c,!?Mr1', max_size=30)
costs = st.sampled_from([0.0, 0.2, 0.5, 1.0, 2.0, 3.5])


@settings(max_examples=300, deadline=None)
@given(texts, texts, costs, st.sampled_from([0.1, 0.3, 1.0]), costs, costs)
def test_engine_equals_lesson(h, r, alpha, rho, deletion, insertion):
    p = dict(alpha=alpha, rho=rho, deletion=deletion, insertion=insertion)
    assert eed_score_fast(h, r, **p) == eed_table(h, r, **p).score
    hp, rp = eed_preprocess(h), eed_preprocess(r)
    assert eed_score_fast(hp, rp, **p) == eed_table(hp, rp, **p).score == float(sentence_eed(h, r, **p))


def test_hand_example_and_perfect_hypothesis():
    t = eed_table(' ab ', ' ab ')
    assert t.errors == 0 and t.visits == (0, 1, 1, 1, 1) and t.score == 0.3 / 4.3
    assert float(sentence_eed('the guard was late', 'the guard was late')) == 0.3 / 20.3


def test_bad_input():
    for bad, msg in [(lambda: corpus_eed('a', ['a']), 'bare str'), (lambda: corpus_eed([], []), 'empty'),
                     (lambda: corpus_eed(['a', 'b'], ['a']), '2 hypotheses'),
                     (lambda: corpus_eed(['a'], ['a'], language='fr'), '`language`'),
                     (lambda: corpus_eed(['a'], ['a'], alpha=float('nan')), '`alpha`'),
                     (lambda: corpus_eed(['a'], ['a'], deletion=-1.0), '`deletion` must be >= 0'),
                     (lambda: sentence_eed('a', '', language='ja', rho=0.0), '0/0')]:
        with pytest.raises(MetricInputError, match=re.escape(msg)): bad()


def test_inputs_not_modified():
    hyps, refs = ['Mr Smith, 3.5'], [['Mr Smith.', 'x']]
    corpus_eed(hyps, refs)
    assert hyps == ['Mr Smith, 3.5'] and refs == [['Mr Smith.', 'x']]


def test_cli(tmp_path, capsys):
    (tmp_path / 'h.txt').write_text('late was the guard\nhello world\n')
    (tmp_path / 'r.txt').write_text('the guard was late\nhello there world\n')
    assert main(['score', str(tmp_path / 'h.txt'), '-r', str(tmp_path / 'r.txt'), '--metrics', 'eed',
                 '--eed-alpha', '1.5', '--segments', '--explain', '1']) == 0
    out = capsys.readouterr().out
    assert 'alpha:1.5' in out and 'coverage' in out
    ours = corpus_eed(['late was the guard', 'hello world'], ['the guard was late', 'hello there world'], alpha=1.5)
    assert f'{float(ours):.4f}' in out


def test_significance():
    from textmetrics_edu.stats.significance import paired_test
    hyps = ['the cat sat on the mat', 'a dog barked loudly', 'it is raining today', 'we like green tea'] * 3
    base = ['mat the on sat cat the', 'the dog barked', 'it rains', 'we like tea'] * 3
    res = paired_test(base, hyps, hyps, metric='eed', n_samples=50, seed=3)
    assert abs(res.baseline_score - float(corpus_eed(base, hyps))) < 1e-12 and res.score < res.baseline_score


def test_explorer_renders_escaped():
    from textmetrics_edu.views.eed import render_eed_html
    h = render_eed_html('late was the guard', 'the guard was late')
    assert 'EED = 0.' in h and 'visits' in h and 'tme-eed-grid' in h
    assert '<b>x' not in render_eed_html('<b>x</b>', 'x')
    assert 'tme-error' in render_eed_html('a', 'b', language='xx')
    long_ = render_eed_html('a' * 200, 'b' * 200)
    assert 'tme-eed-grid' not in long_ and 'the grid is drawn up to' in long_


RWTH = json.loads((HERE / 'expected_rwth.json').read_text(encoding='utf-8'))  # the authors' eed_python (README)


def test_compat_rwth_equals_the_authors_eed_python(wmt22):
    """`compat='rwth-i6'`: the authors' preprocessing, then their float64 `eed_python`, on the 500 Japanese fuzzed cases
    (padded by them, not by torchmetrics) and the first 100 stored WMT22 segments."""
    cases = C.fuzz_cases()
    assert RWTH['fuzz_digest'] == C.digest(cases) and len(RWTH['fuzz_ja']) == 500
    differ = 0
    for i, v in RWTH['fuzz_ja'].items():
        c = cases[int(i)]
        assert float(sentence_eed(c['hyp'], c['refs'][0], language='ja', compat='rwth-i6')) == v
        differ += float(sentence_eed(c['hyp'], c['refs'][0], language='ja')) != v
    assert differ > 400  # torchmetrics' unpadded Japanese differs on most cases
    ours = corpus_eed(wmt22['systems']['Online-W'][:100], wmt22['refs_A'][:100], compat='rwth-i6')
    assert list(ours.segment_scores) == RWTH['wmt22_online_w_A_300'][:100]
