"""Google BLEU (Wu et al. 2016) against NLTK 3.10 `nltk.translate.gleu_score` itself: the WMT22 en-de test set
(2037 segments, references A, B and both), 5,000 fuzzed cases (300 by default), options, bad input, the CLI and
the explorer. NLTK takes tokens: both sides get the same tokens (our `preprocess`)."""
import random
import subprocess
import sys

import pytest
from nltk.translate.gleu_score import corpus_gleu, sentence_gleu

from textmetrics_edu import corpus_google_bleu, sentence_google_bleu, MetricInputError
from textmetrics_edu.metrics.bleu import preprocess
from textmetrics_edu.metrics.google_bleu import best_reference_stats, google_bleu_counts, GoogleBLEUStats, _gb_segment
from textmetrics_edu.views.google_bleu import render_google_bleu_html
from conftest import WMT22_SYSTEMS, sweep


def _refsets(wmt22, refset):
    A, B = wmt22['refs_A'], wmt22['refs_B']
    return {'A': [[a] for a in A], 'B': [[b] for b in B], 'A+B': [[a, b] for a, b in zip(A, B)]}[refset]


@pytest.mark.parametrize('system', sweep(WMT22_SYSTEMS, keep=['Online-B']))
@pytest.mark.parametrize('refset', ['A', 'B', 'A+B'])
def test_corpus_google_bleu_equals_nltk_on_wmt22(wmt22, system, refset):
    hyps, refs = wmt22['systems'][system], _refsets(wmt22, refset)
    ours = corpus_google_bleu(hyps, refs)
    theirs = corpus_gleu([[preprocess(r) for r in rs] for rs in refs], [preprocess(h) for h in hyps])
    assert float(ours) == theirs, (system, refset)


def test_sentence_google_bleu_equals_nltk_on_wmt22_segments(wmt22):
    hyps, refs = wmt22['systems']['JDExploreAcademy'][:500], _refsets(wmt22, 'A+B')[:500]
    for h, rs in zip(hyps, refs):
        assert float(sentence_google_bleu(h, rs)) == sentence_gleu([preprocess(r) for r in rs], preprocess(h))


WORDS = ['the', 'cat', 'a', 'mat', 'sat', 'on', 'The', 'dog', 'x', 'y', 'z', ',', '.']


def _fuzz_case(rng):
    seg = lambda: ' '.join(rng.choice(WORDS[:rng.randint(2, len(WORDS))]) for _ in range(rng.randint(0, 12)))
    lo = rng.randint(1, 4)
    return seg(), [seg() for _ in range(rng.randint(1, 3))], lo, rng.randint(lo, 5)


def _fuzz(n, seed):
    rng = random.Random(seed)
    bad = []
    for _ in range(n):
        h, rs, lo, hi = _fuzz_case(rng)
        ours = float(sentence_google_bleu(h, rs, min_len=lo, max_len=hi, tokenize='none'))
        theirs = sentence_gleu([r.split() for r in rs], h.split(), min_len=lo, max_len=hi)
        if ours != theirs: bad.append((h, rs, lo, hi, ours, theirs))
    # corpora of 20 of these segments (fixed orders): the summed statistics
    for _ in range(n // 20):
        cases = [_fuzz_case(rng) for _ in range(20)]
        hyps, refs = [c[0] for c in cases], [c[1] for c in cases]
        ours = float(corpus_google_bleu(hyps, refs, tokenize='none'))
        theirs = corpus_gleu([[r.split() for r in rs] for rs in refs], [h.split() for h in hyps])
        if ours != theirs: bad.append((hyps, refs, ours, theirs))
    assert not bad, bad[:3]


def test_fuzz_300_equals_nltk(): _fuzz(300, 0)


@pytest.mark.slow
def test_fuzz_5000_equals_nltk(): _fuzz(5000, 1)


def test_staged_functions_agree_with_the_spec():
    rng = random.Random(3)
    for _ in range(200):
        h, rs, lo, hi = _fuzz_case(rng)
        o = dict(min_len=lo, max_len=hi, tokenize='none', lowercase=False)
        assert best_reference_stats(h.split(), [r.split() for r in rs], lo, hi) == _gb_segment(h, tuple(rs), o)
    assert google_bleu_counts('a b'.split(), 'a b c'.split()) == (3, 3, 6)


def test_options_and_bad_input():
    assert float(sentence_google_bleu('The cat', 'the cat', lowercase=True)) == 1.0
    assert float(sentence_google_bleu('The cat', 'the cat')) == 1 / 3
    with pytest.raises(MetricInputError, match='min_len'): corpus_google_bleu(['a'], ['a'], min_len=2, max_len=1)
    with pytest.raises(MetricInputError, match='tokenize'): corpus_google_bleu(['a'], ['a'], tokenize='x')
    with pytest.raises(MetricInputError): corpus_google_bleu(['a', 'b'], ['a'])
    with pytest.raises(MetricInputError): sentence_google_bleu(None, 'a')
    hyps, refs = ['a b'], [['a b', 'c']]
    corpus_google_bleu(hyps, refs)
    assert hyps == ['a b'] and refs == [['a b', 'c']]   # inputs not modified
    assert GoogleBLEUStats(1, 2, 3, 4) + GoogleBLEUStats(1, 1, 1, 1) == GoogleBLEUStats(2, 3, 4, 5)


def test_cli_scores_google_bleu(tmp_path):
    (tmp_path / 'h.txt').write_text('the cat sat on the mat\n'); (tmp_path / 'r.txt').write_text('the cat is on the mat\n')
    out = subprocess.run([sys.executable, '-m', 'textmetrics_edu', 'score', '-m', 'google_bleu', '-r', str(tmp_path / 'r.txt'),
                          '--google-bleu-max-len', '4', str(tmp_path / 'h.txt')], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert '0.5' in out.stdout


def test_explorer_escapes_and_reports_errors():
    h = render_google_bleu_html('<b>the</b> cat', ['the cat'])
    assert '<b>the' not in h and 'Google BLEU = ' in h
    assert 'tme-error' in render_google_bleu_html('a', 'a', min_len=3, max_len=2)


def test_intl_tokenizes_the_text_as_given_as_hf_evaluate():
    """Issue 37: HF evaluate's google_bleu applies its tokenizer to the text as given, then NLTK's corpus_gleu; with
    sacreBLEU's intl tokenizer a trailing blank matters ("2012. " splits its '.'). We do not rstrip either."""
    from sacrebleu.tokenizers.tokenizer_intl import TokenizerV14International
    intl = TokenizerV14International()
    hyps = ['It rained in 2012. ', 'It rained in 2012.', 'Sales rose 5%. ', 'ok']
    refs = [['It rained in 2012 .'], ['It rained in 2012 .'], ['Sales rose 5 % .', 'Sales rose 5%. '], ['ok. ']]
    theirs = corpus_gleu([[intl(r).split() for r in rs] for rs in refs], [intl(h).split() for h in hyps])
    assert abs(float(corpus_google_bleu(hyps, refs, tokenize='intl')) - theirs) < 1e-12
    assert float(sentence_google_bleu('in 2012. ', ['in 2012 .'], tokenize='intl')) == 1.0
