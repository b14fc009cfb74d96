"Perplexity: the four definitions agree, micro/macro, bad input, strided evaluation, Hugging Face adapter (tiny GPT-2, offline)."
import math

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from textmetrics_edu.core import MetricInputError
from textmetrics_edu.lm.perplexity import (perplexity, perplexity_from_probs, entropy, cross_entropy, distribution_perplexity,
                                        softmax, temperature_for_perplexity, strided_perplexity)
from textmetrics_edu.views.perplexity import render_distribution_html, temperature_explorer

probs = st.lists(st.floats(min_value=1e-6, max_value=1.0), min_size=1, max_size=40)


@settings(max_examples=60, deadline=None)
@given(p=probs)
def test_the_definitions_agree_and_the_base_does_not_matter(p):
    a = np.asarray(p)
    r = perplexity_from_probs(p)
    root = math.exp(-np.log(a).mean())  # (prod p)^(-1/N) without underflow
    for x in (float(perplexity(np.log(a))), float(perplexity(np.log2(a), base=2)), float(perplexity(np.log10(a), base=10)),
              2 ** r.cross_entropy_bits, root):
        assert abs(x - float(r)) <= 1e-9 * float(r)
    assert float(r) >= 1 - 1e-12
    assert abs(r.micro - r.macro) <= 1e-9 * r.micro  # one sequence: micro == macro


@settings(max_examples=40, deadline=None)
@given(seqs=st.lists(probs, min_size=1, max_size=5))
def test_micro_is_the_token_weighted_geometric_mean_and_macro_the_mean(seqs):
    r = perplexity_from_probs(seqs)
    per = [float(perplexity_from_probs(s)) for s in seqs]
    n = [len(s) for s in seqs]
    geo = math.exp(sum(k * math.log(x) for k, x in zip(n, per)) / sum(n))
    assert abs(r.micro - geo) <= 1e-9 * geo
    assert abs(perplexity_from_probs(seqs, average='macro').score - np.mean(per)) <= 1e-9 * np.mean(per)
    assert r.tokens == sum(n) and r.sequences == len(seqs)


def test_uniform_k_is_k_and_documents_examples():
    for k in (2, 3, 50, 100):
        assert abs(float(perplexity_from_probs([1 / k] * k)) - k) < 1e-9
        assert abs(distribution_perplexity([1 / k] * k) - k) < 1e-9
    H = cross_entropy([0.2, 0.3, 0.2, 0.3], [0.1, 0.4, 0.3, 0.2])
    assert abs(H - 2.104936) < 1e-6 and abs(2 ** H - 4.3018) < 1e-4  # document 002 prints 4.22
    assert abs(float(perplexity([-math.log(35.2)] * 3)) - 35.2) < 1e-9


def test_zero_probability_is_an_infinite_perplexity_not_a_crash():
    r = perplexity_from_probs([[0.5, 0.0], [0.25]])
    assert math.isinf(float(r)) and r.zero_prob_tokens == 1 and 'infinite' in r.explain()
    assert r.per_sequence[1] == pytest.approx(4.0)
    r = perplexity([-1.0, -math.inf])
    assert math.isinf(float(r))


@pytest.mark.parametrize('bad,match', [([], 'empty'), ([[]], 'empty sequence'), ([-1.0, float('nan')], 'NaN'),
                                       ([-1.0, 0.3], '<= 0'), ([math.inf], '<= 0'), ('abc', 'str'), (None, 'None'),
                                       ([-1.0, [-1.0]], 'mixes'), ([['a']], 'numbers')])
def test_bad_logprobs(bad, match):
    with pytest.raises(MetricInputError, match=match): perplexity(bad)


@pytest.mark.parametrize('bad', [[1.5], [-0.1], [float('nan')], [[0.5], [2.0]]])
def test_bad_probs(bad):
    with pytest.raises(MetricInputError, match=r'\(0, 1\]'): perplexity_from_probs(bad)


def test_bad_options_and_distributions():
    with pytest.raises(MetricInputError, match='`base`'): perplexity([-1.0], base=1)
    with pytest.raises(MetricInputError, match='`base`'): perplexity([-1.0], base='ln')
    with pytest.raises(MetricInputError, match='`average`'): perplexity([-1.0], average='median')
    with pytest.raises(MetricInputError, match='sums to'): entropy([0.2, 0.2])
    assert entropy([1, 1], normalize=True) == pytest.approx(1.0)
    with pytest.raises(MetricInputError, match='`temperature`'): softmax([1, 2], -1)
    assert cross_entropy([0.5, 0.5], [1.0, 0.0]) == math.inf


@settings(max_examples=30, deadline=None)
@given(z=st.lists(st.floats(-5, 5), min_size=3, max_size=10).filter(lambda z: max(z) - min(z) > 0.5),
       frac=st.floats(0.1, 0.9))
def test_temperature_for_perplexity(z, frac):
    target = 1 + frac * (len(z) - 1)
    q = softmax(z, 1.0)
    lo, hi = distribution_perplexity(softmax(z, 1e-3)), distribution_perplexity(softmax(z, 1e3))
    if not lo < target < hi: return
    T = temperature_for_perplexity(z, target)
    assert abs(distribution_perplexity(softmax(z, T)) - target) < 1e-6
    assert abs(q.sum() - 1) < 1e-12


def cache_fn(window, V=20):
    out, counts = [], np.zeros(V)
    for i, t in enumerate(window):
        if i: out.append(math.log((counts[t] + 1) / (i + V)))
        counts[t] += 1
    return out


@settings(max_examples=40, deadline=None)
@given(n=st.integers(2, 120), ml=st.integers(2, 40), data=st.data())
def test_strided_counts_every_token_once(n, ml, data):
    stride = data.draw(st.integers(1, ml))
    ids = list(np.random.default_rng(n).integers(0, 20, n))
    r = strided_perplexity(cache_fn, ids, max_length=ml, stride=stride)
    assert r.tokens == (n - 1 if stride < ml else n - r.windows)
    assert r.tokens - r.guide_tokens == (r.windows - 1 if stride < ml else 0)
    if ml >= n: assert abs(float(r) - float(perplexity(cache_fn(ids)))) < 1e-9 * float(r)


def test_strided_bad_input():
    with pytest.raises(MetricInputError, match='`stride`'): strided_perplexity(cache_fn, [1, 2, 3], max_length=2, stride=3)
    with pytest.raises(MetricInputError, match='at least 2'): strided_perplexity(cache_fn, [1], max_length=2, stride=1)
    with pytest.raises(MetricInputError, match='returned'): strided_perplexity(lambda w: [0.0], [1, 2, 3], max_length=3, stride=1)


def test_renderer_and_explorer():
    h = render_distribution_html(['<i>x</i>', 'y', 'z'], [0.0, 0.0, 0.0], plot=False)
    assert '&lt;i&gt;x&lt;/i&gt;' in h and '<i>x' not in h and '= 3.000' in h
    w = temperature_explorer()
    w.controls['temperature'].value = 0.05
    assert 'perplexity = 2<sup>H</sup> = 1.0' in w.output.value
    w.controls['logits'].value = '1, oops'
    assert 'tme-error' in w.output.value


# --- the Hugging Face adapter: a tiny randomly initialised GPT-2, no download; skipped without torch ---

@pytest.fixture(scope='module')
def tiny_gpt2():
    torch = pytest.importorskip('torch', reason='torch is an optional extra (pip install "textmetrics_edu[lm]")')
    tr = pytest.importorskip('transformers', reason='transformers is an optional extra')
    torch.manual_seed(0)
    cfg = tr.GPT2Config(vocab_size=50, n_positions=32, n_embd=16, n_layer=2, n_head=2)
    return torch, tr.GPT2LMHeadModel(cfg).eval()


def test_hf_perplexity_equals_exp_of_the_model_loss(tiny_gpt2):
    torch, model = tiny_gpt2
    from textmetrics_edu.lm.perplexity import hf_perplexity
    ids = list(np.random.default_rng(1).integers(0, 50, 20))
    with torch.no_grad(): loss = model(torch.tensor([ids]), labels=torch.tensor([ids])).loss.item()
    r = hf_perplexity(model, ids)
    assert r.tokens == 19 and abs(float(r) - math.exp(loss)) < 1e-4 * math.exp(loss)


def test_hf_strided_matches_the_guide_loop_and_counts_exactly(tiny_gpt2):
    torch, model = tiny_gpt2
    from textmetrics_edu.lm.perplexity import hf_perplexity
    ids = list(np.random.default_rng(2).integers(0, 50, 100))
    max_length, stride = 32, 8
    # the Hugging Face guide's loop, verbatim in substance
    enc = torch.tensor([ids]); seq_len = enc.size(1); nll_sum, n_tokens, prev_end = 0.0, 0, 0
    for begin in range(0, seq_len, stride):
        end = min(begin + max_length, seq_len); trg_len = end - prev_end
        x = enc[:, begin:end]; y = x.clone(); y[:, :-trg_len] = -100
        with torch.no_grad(): loss = model(x, labels=y).loss
        num_loss_tokens = (y != -100).sum().item() - y.size(0)
        nll_sum += loss.item() * num_loss_tokens; n_tokens += num_loss_tokens
        prev_end = end
        if end == seq_len: break
    guide = math.exp(nll_sum / n_tokens)
    r = hf_perplexity(model, ids, max_length=max_length, stride=stride)
    assert r.guide_tokens == n_tokens and r.tokens == 99 and r.tokens - n_tokens == r.windows - 1
    assert abs(r.guide_perplexity - guide) < 1e-4 * guide
    # the exact value: every token after the first, each scored once with the window's context
    exact_nll = 0.0
    fn_ids = ids
    prev_end = 0
    for begin in range(0, len(ids), stride):
        end = min(begin + max_length, len(ids)); trg_len = end - prev_end
        with torch.no_grad(): lp = torch.log_softmax(model(torch.tensor([fn_ids[begin:end]])).logits[0, :-1].double(), -1)
        tok = torch.tensor(fn_ids[begin + 1:end])
        sc = lp.gather(1, tok[:, None])[:, 0]
        exact_nll -= sc[-trg_len:].sum().item() if trg_len < end - begin else sc.sum().item()
        prev_end = end
        if end == len(ids): break
    assert abs(float(r) - math.exp(exact_nll / 99)) < 1e-9 * float(r)
