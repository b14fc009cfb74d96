"TER against sacreBLEU 2.6.0 itself on WMT22 en-de (all 9 systems), option combinations, properties, bad input, CLI."
import itertools
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
import sacrebleu
from sacrebleu.metrics import TER
from hypothesis import given, settings, strategies as st

from textmetrics_edu import corpus_ter, sentence_ter
from textmetrics_edu.core import MetricInputError
from textmetrics_edu.cli import main

COMBOS = [dict(zip(('normalized', 'no_punct', 'asian_support', 'case_sensitive'), v))
          for v in itertools.product((False, True), repeat=4)]


@pytest.mark.parametrize('refs', ['A', 'AB'])
def test_all_systems_default_options(wmt22, refs):
    rs = [[a] for a in wmt22['refs_A']] if refs == 'A' else [[a, b] for a, b in zip(wmt22['refs_A'], wmt22['refs_B'])]
    streams = [wmt22['refs_A']] if refs == 'A' else [wmt22['refs_A'], wmt22['refs_B']]
    metric = TER()
    for system, hyps in wmt22['systems'].items():
        ours, theirs = corpus_ter(hyps, rs), metric.corpus_score(hyps, streams)
        assert abs(100 * float(ours) - theirs.score) < 1e-9, system
        assert ours.num_edits == theirs.num_edits and abs(ours.ref_length - theirs.ref_length) < 1e-9


@pytest.mark.parametrize('opts', COMBOS, ids=lambda o: ''.join('1' if v else '0' for v in o.values()))
def test_every_option_combination_all_systems_head(wmt22, opts):
    "Every option combination, all 9 systems, first 60 segments, references A and B."
    n = 60
    rs = [[a, b] for a, b in zip(wmt22['refs_A'][:n], wmt22['refs_B'][:n])]
    metric = TER(**opts)
    for system, hyps in wmt22['systems'].items():
        ours = corpus_ter(hyps[:n], rs, **opts)
        theirs = metric.corpus_score(hyps[:n], [wmt22['refs_A'][:n], wmt22['refs_B'][:n]])
        assert abs(100 * float(ours) - theirs.score) < 1e-9, (system, opts)


@pytest.mark.skipif(not os.environ.get('TME_SLOW'), reason='full TER sweep takes ~20 min; run with TME_SLOW=1')
@pytest.mark.parametrize('opts', COMBOS, ids=lambda o: ''.join('1' if v else '0' for v in o.values()))
def test_every_option_combination_full(wmt22, opts):
    "The full sweep (slow: about 20 minutes on 2 cores): every combination, all systems, all segments, A and A+B."
    for streams in ([wmt22['refs_A']], [wmt22['refs_A'], wmt22['refs_B']]):
        rs = [list(x) for x in zip(*streams)]
        metric = TER(**opts)
        for system, hyps in wmt22['systems'].items():
            assert abs(100 * float(corpus_ter(hyps, rs, **opts)) - metric.corpus_score(hyps, streams).score) < 1e-9


def test_sentence_level_every_segment(wmt22):
    hyps = wmt22['systems']['Online-W']
    ours = corpus_ter(hyps, [[a, b] for a, b in zip(wmt22['refs_A'], wmt22['refs_B'])])
    metric = TER()
    for i, (h, a, b) in enumerate(zip(hyps, wmt22['refs_A'], wmt22['refs_B'])):
        s = metric.sentence_score(h, [a, b])
        assert ours.segment_edits[i] == s.num_edits and abs(ours.segment_ref_lengths[i] - s.ref_length) < 1e-12
        if i % 50 == 0: assert abs(100 * float(sentence_ter(h, [a, b])) - s.score) < 1e-9


words = st.lists(st.sampled_from('a b c d e f the cat . , ! ( ) ? Ab CD 猫 。'.split()), max_size=25).map(' '.join)


@settings(max_examples=400, deadline=None)
@given(words, st.lists(words, min_size=1, max_size=3), st.sampled_from(COMBOS))
def test_random_pairs_vs_sacrebleu(h, refs, opts):
    theirs = TER(**opts).sentence_score(h, refs).score
    assert abs(100 * float(sentence_ter(h, refs, **opts)) - theirs) < 1e-9


@settings(max_examples=150, deadline=None)
@given(words)
def test_identity_is_zero(x):
    assert float(sentence_ter(x, x)) == 0.0


def test_bad_input():
    for bad, msg in [(lambda: corpus_ter('a', ['a']), 'bare str'), (lambda: corpus_ter([], []), 'empty'),
                     (lambda: corpus_ter(['a', 'b'], ['a']), '2 hypotheses'), (lambda: corpus_ter([3], ['a']), '`hyps[0]`'),
                     (lambda: sentence_ter('a', None), 'None'), (lambda: corpus_ter(['a'], ['a'], no_punct=1), '`no_punct`')]:
        with pytest.raises(MetricInputError, match=re.escape(msg)): bad()


def test_cli(tmp_path, capsys):
    (tmp_path / 'h.txt').write_text('on the mat the cat sat\nhello world\n')
    (tmp_path / 'r.txt').write_text('the cat sat on the mat\nhello there world\n')
    assert main(['score', str(tmp_path / 'h.txt'), '-r', str(tmp_path / 'r.txt'), '--metrics', 'ter',
                 '--segments', '--explain', '1', '--ter-normalized']) == 0
    out = capsys.readouterr().out
    assert 'shift' in out and '0.1667' in out


def test_cli_subprocess(tmp_path):
    (tmp_path / 'h.txt').write_text('on the mat the cat sat\n')
    (tmp_path / 'r.txt').write_text('the cat sat on the mat\n')
    exe = Path(sys.executable).parent / 'textmetrics-edu'
    out = subprocess.run([str(exe), 'score', str(tmp_path / 'h.txt'), '-r', str(tmp_path / 'r.txt'), '--metrics', 'ter,wer',
                          '--format', 'json'], capture_output=True, text=True, check=True).stdout
    assert '"ter"' in out and '0.1666' in out
