"Bad input found by fuzzing (issue 9) and the four defects seen while reading: one regression test each."
import subprocess
import sys
import warnings
from pathlib import Path

import pytest
import sacrebleu

from textmetrics_edu.core import MetricInputError, SegmentRefs, check_hyps, refs_from_streams, tokenize
from textmetrics_edu.metrics.bleu import corpus_bleu, sentence_bleu
from textmetrics_edu.metrics.chrf import corpus_chrf
from textmetrics_edu.metrics.rouge import skip_bigrams, sentence_rouge
from textmetrics_edu.kernels.rouge import cached_skip_bigrams, cached_ngrams
from textmetrics_edu.metrics.ter import corpus_ter

EXE = str(Path(sys.executable).parent / 'textmetrics-edu')


# --- the four defects ---
def test_skip_bigrams_hands_out_a_fresh_counter():
    c = skip_bigrams(['a', 'b', 'c'])
    c.clear()
    assert float(sentence_rouge('a b c', 'a b c', 'rougeS')) == 1.0
    assert skip_bigrams(['a', 'b', 'c']) == {('a', 'b'): 1, ('a', 'c'): 1, ('b', 'c'): 1}
    for cached in (cached_skip_bigrams(('a', 'b'), 4, False), cached_ngrams(('a', 'b'), 1)):
        with pytest.raises(TypeError): cached[('z',)] = 1  # read-only views


def test_bleu_reference_cache_is_read_only():
    from textmetrics_edu.metrics.bleu import _ref_info
    ceil, _ = _ref_info(('a b c',), 4, '13a', False)
    with pytest.raises(TypeError): ceil[0][('a',)] = 99


def test_tokenize_error_names_its_argument():
    with pytest.raises(MetricInputError, match='`tokenize`'): tokenize('x', tokenize='moses')


def test_sentence_bleu_does_not_silently_drop_effective_order():
    with pytest.raises(MetricInputError, match='effective_order'): corpus_bleu(['a b'], ['a b'], weights=[.25] * 4, effective_order=True)
    with pytest.raises(MetricInputError, match='effective_order'): sentence_bleu('a b', 'a b', weights=[.25] * 4)
    assert float(sentence_bleu('a b c d', 'a b c d', weights=[.25] * 4, effective_order=False)) == 1.0


def test_chrf_rejects_bool_orders():
    for kw in (dict(char_order=True), dict(word_order=True)):
        with pytest.raises(MetricInputError): corpus_chrf(['a'], ['a'], **kw)


# --- the fuzz list ---
def test_chrf_best_reference_ties_as_sacrebleu():
    hyps = ['ab', 'ab ab']
    refs = [['ba', 'ab b'], ['a', 'ab']]
    ours = corpus_chrf(hyps, SegmentRefs(refs))
    theirs = sacrebleu.corpus_chrf(hyps, [[r[0] for r in refs], [r[1] for r in refs]]).score / 100
    assert abs(float(ours) - theirs) < 1e-12
    # a sweep of small random corpora: every one equal to sacreBLEU (the fuzzer's case was 2 in 10,000)
    import random
    rnd = random.Random(0)
    for _ in range(300):
        w = lambda: ' '.join(rnd.choice(['a', 'b', 'ab', 'ba', 'c']) for _ in range(rnd.randint(1, 3)))
        hs = [w() for _ in range(2)]; rs = [[w(), w()] for _ in range(2)]
        for kw, skw in [({}, {}), (dict(word_order=2), dict(word_order=2))]:
            t = sacrebleu.metrics.CHRF(**skw).corpus_score(hs, [[r[0] for r in rs], [r[1] for r in rs]]).score / 100
            assert abs(float(corpus_chrf(hs, SegmentRefs(rs), **kw)) - t) < 1e-12, (hs, rs, kw)


def test_stream_layout_ambiguity_is_an_error_and_can_be_stated():
    "Issue 21: a square layout only warned and scored one reading (61.64 against sacreBLEU's 83.88 on WMT-like data)."
    hyps = ['a b c d', 'e f g h']
    streams = [['a b c d', 'e f g h'], ['a b c x', 'e f g y']]
    with pytest.raises(MetricInputError, match=r'ambiguous.*SegmentRefs\(refs\).*refs_from_streams'): corpus_bleu(hyps, streams)
    with warnings.catch_warnings():
        warnings.simplefilter('error')
        assert float(corpus_bleu(hyps, refs_from_streams(*streams))) == 1.0
        assert abs(float(corpus_bleu(hyps, refs_from_streams(*streams))) - sacrebleu.corpus_bleu(hyps, streams).score / 100) < 1e-12
        corpus_bleu(hyps, SegmentRefs(streams))


@pytest.mark.parametrize('bad', [{'a b', 'c d'}, {'a b': 1}, {'a b': 1}.keys()])
def test_unordered_hypotheses_rejected(bad):
    with pytest.raises(MetricInputError, match='no segment order'): check_hyps(bad)
    with pytest.raises(MetricInputError): corpus_bleu(bad, ['a b', 'c d'])


def test_non_finite_options_rejected():
    for call in [lambda: corpus_chrf(['a'], ['a'], beta=float('nan')), lambda: corpus_chrf(['a'], ['a'], beta=float('inf')),
                 lambda: corpus_bleu(['a'], ['a'], smooth_value=float('nan')),
                 lambda: corpus_bleu(['a'], ['a'], smooth_value=float('inf')),
                 lambda: corpus_bleu(['a'], ['a'], weights=[float('nan')] * 4),
                 lambda: sentence_rouge('a', 'a', beta=float('inf')), lambda: corpus_bleu(['a'], ['a'], lowercase='no')]:
        with pytest.raises(MetricInputError): call()


def test_cli_rejects_nan_options_with_one_line(tmp_path):
    f = tmp_path / 'f.txt'; f.write_text('a b c\n')
    p = subprocess.run([EXE, 'score', f, '-r', f, '-m', 'chrf', '--chrf-beta', 'nan', '--format', 'json'],
                       capture_output=True, text=True, timeout=300)
    assert p.returncode == 2 and 'Traceback' not in p.stderr and p.stderr.count('\n') == 1


def test_ter_fails_fast_on_huge_segments():
    big = ' '.join(['w'] * 100_000)
    with pytest.raises(MetricInputError, match='split it into sentences'): corpus_ter([big], [big])


def test_cli_no_command_and_full_device(tmp_path):
    p = subprocess.run([EXE], capture_output=True, text=True, timeout=300)
    assert p.returncode == 2 and p.stdout == '' and p.stderr.startswith('usage:')
    if Path('/dev/full').exists():
        f = tmp_path / 'f.txt'; f.write_text('a b c\n')
        with open('/dev/full', 'w') as full:
            p = subprocess.run([EXE, 'score', f, '-r', f], stdout=full, stderr=subprocess.PIPE, text=True, timeout=300)
        assert p.returncode in (1, 2) and 'Traceback' not in p.stderr and p.stderr.count('\n') == 1, p.stderr


def test_cli_help_groups_options_and_mentions_the_bom():
    p = subprocess.run([EXE, 'score', '--help'], capture_output=True, text=True, timeout=300)
    assert p.returncode == 0
    for g in ('bleu options:', 'chrf options:', 'rouge options:', 'ter options:'): assert g in p.stdout
    for flag in ('--chrf-beta', '--rouge-beta', '--bleu-max-order'): assert flag in p.stdout
    assert 'byte-order mark' in p.stdout


def test_cli_metric_names_and_misplaced_options(tmp_path):
    f = tmp_path / 'f.txt'; f.write_text('the cat sat on the mat\n')
    ok = subprocess.run([EXE, 'score', f, '-r', f, '-m', 'BLEU', '--format', 'tsv'], capture_output=True, text=True, timeout=300)
    assert ok.returncode == 0 and ok.stdout.splitlines()[1].split('\t')[:3] == ['f', 'bleu', 'corpus']
    for args, msg in [(['-m', 'blue'], "did you mean 'bleu'"), (['-m', 'chrf', '--max-order', '2'], 'unrecognized arguments: --max-order'),
                      (['-m', 'chrf', '--bleu-max-order', '2'], 'not selected')]:
        p = subprocess.run([EXE, 'score', f, '-r', f, *args], capture_output=True, text=True, timeout=300)
        assert p.returncode == 2 and msg in p.stderr, p.stderr


def test_plots_are_safe_for_mathtext_like_user_text():
    import matplotlib
    matplotlib.use('Agg')
    from textmetrics_edu.views.meteor import render_meteor_html
    from textmetrics_edu.views.perplexity import render_distribution_html
    s = r'the $\cmd$ costs $\frac{1}{0}$'
    assert 'tme-error' not in render_meteor_html(s, s + ' x', synonyms=False, tokenize='none')
    assert '<img' in render_distribution_html([r'$\cmd$', r'a$b', 'x'], [1.0, 2.0, 0.5])


def test_burstiness_perplexity_and_lm_check_their_input():
    from textmetrics_edu.lm.burstiness import burstiness, sentence_burstiness, term_burstiness, term_burstiness_table
    from textmetrics_edu.lm.ngram_lm import train_ngram_lm
    from textmetrics_edu.lm.perplexity import perplexity, softmax
    lm = train_ngram_lm([['a', 'b', 'c'], ['a', 'c']], order=2)
    for call in [lambda: burstiness([True, False, True]), lambda: burstiness({1, 2, 3}), lambda: burstiness([1, 2], of=3),
                 lambda: sentence_burstiness(None), lambda: term_burstiness('a b a b a', 'a'),
                 lambda: term_burstiness(['a', 'b'], None), lambda: term_burstiness_table('a b a', 2),
                 lambda: perplexity({-1.0: 1}), lambda: softmax('abc'), lambda: lm.score(3, ['a']),
                 lambda: lm.score('a', 'b c')]:   # (lm.score('a', None) is nltk.lm's unigram question now: issue 21)
        with pytest.raises(MetricInputError): call()


def test_cli_progress_and_segment_table(tmp_path):
    f = tmp_path / 'f.txt'; f.write_text('the cat sat on the mat\nhello world and all who live in it\n')
    p = subprocess.run([EXE, 'score', f, '-r', f, '-m', 'bleu,chrf', '--segments', '--progress'],
                       capture_output=True, text=True, timeout=300)
    assert p.returncode == 0 and '[1/1] f: bleu on 2 segments' in p.stderr
    lines = p.stdout.splitlines()
    i = lines.index('per segment:')
    assert lines[i + 1].split() == ['segment', 'bleu', 'chrf'] and lines[i + 2].split()[0] == '1'
    quiet = subprocess.run([EXE, 'score', f, '-r', f], capture_output=True, text=True, timeout=300)
    assert quiet.stderr == ''  # a run shorter than cli.PROGRESS_DELAY, no --progress: nothing on stderr
