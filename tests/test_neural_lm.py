"""A neural LM's perplexity (nbs/35_neural_lm.ipynb, textmetrics_edu.models.neural_lm): the tiny GPT-2 trains to the
same losses on every run (pinned), its perplexity is the same by the three paths (our `perplexity` of its
log-probabilities, exp of PyTorch's cross-entropy weighted by window, `strided_perplexity`), the windows are those of
`strided_perplexity`, bad input raises. Offline: the model is built from a config and trained here (torch and
transformers are the optional extra [models]; skipped without them)."""
import math
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from textmetrics_edu.core import MetricInputError
from textmetrics_edu.lm.ngram_lm import read_sentences
from textmetrics_edu.lm.perplexity import hf_logprob_fn, perplexity, strided_perplexity
from textmetrics_edu.models.neural_lm import (
    CharTokenizer, batched_logprob_fn, bits_per_unit, char_stream, cross_entropy_perplexity, load_trained_lm,
    save_trained_lm, strided_windows, train_tiny_gpt2, window_logprobs)

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / 'tests' / 'data' / 'lm' / 'tinyshakespeare'
STORED = ROOT / 'tests' / 'data' / 'models' / 'neural_lm' / 'tiny_gpt2_400.npz'   # tools/make_neural_lm_run.py
os.environ.setdefault('HF_HUB_OFFLINE', '1'); os.environ.setdefault('TRANSFORMERS_OFFLINE', '1')

# the losses of the lesson's run (steps 1, 20, 40 of train_tiny_gpt2(train, 39) with its defaults, seed 0), measured
# with torch 2.13.0+cpu and transformers 5.24.0; with a constant learning rate a 40-step run is the first 40 steps
# of the lesson's 400 (whose final loss, 2.0411, the slow test checks)
PINNED = {0: 3.710620641708374, 19: 2.8001797199249268, 39: 2.5130608081817627}
FINAL_LOSS = 2.0411360263824463


@pytest.fixture(scope='module')
def corpus():
    train = char_stream(read_sentences(DATA / 'train.txt'))
    test = char_stream(read_sentences(DATA / 'test.txt')[:200])
    tok = CharTokenizer.from_text(train)
    return tok, tok.encode(train), tok.encode(test)


@pytest.fixture(scope='module')
def run(corpus):
    torch = pytest.importorskip('torch', reason='torch is an optional extra (pip install "textmetrics_edu[models]")')
    pytest.importorskip('transformers')
    tok, train_ids, _ = corpus
    threads = torch.get_num_threads()
    torch.set_num_threads(1)  # a model this small: as fast on one thread, and a busy machine cannot stall it
    try:
        r = train_tiny_gpt2(train_ids, tok.vocab_size, steps=40, seed=0)
        assert torch.get_num_threads() == 1  # the training restores the thread count
        yield r
    finally: torch.set_num_threads(threads)


def test_tokenizer_and_stream(corpus):
    tok, train_ids, test_ids = corpus
    assert tok.vocab_size == 39 and tok.chars[0] == '\n' and tok.chars[1] == ' '
    assert len(train_ids) == 942434 and len(test_ids) - 1 == sum(len(' '.join(s)) + 1 for s in
                                                                  read_sentences(DATA / 'test.txt')[:200])
    assert tok.decode(tok.encode('\nto be .\n')) == '\nto be .\n'
    assert char_stream([['a', 'b'], ['c']]) == '\na b\nc\n'


def test_training_is_reproducible_and_pinned(corpus, run):
    tok, train_ids, _ = corpus
    for k, v in PINNED.items(): assert run.losses[k] == pytest.approx(v, abs=1e-5), k
    again = train_tiny_gpt2(train_ids, tok.vocab_size, steps=20, seed=0)
    assert again.losses == run.losses[:20]  # bit for bit: the first 20 steps of a 40-step run
    other = train_tiny_gpt2(train_ids, tok.vocab_size, steps=20, seed=1)
    assert other.losses[0] != run.losses[0]


def test_the_stored_run_starts_as_the_live_run_and_round_trips(corpus, run, tmp_path):
    torch = pytest.importorskip('torch')
    stored = load_trained_lm(STORED)   # the lesson's 400 steps, stored
    assert (stored.steps, stored.batch_size, stored.lr, stored.seed, len(stored.losses)) == (400, 32, 5e-3, 0, 400)
    assert sum(p.numel() for p in stored.model.parameters()) == 33312 and not stored.model.training
    # the first 40 steps of the 400 are the live 40-step run (bit for bit on the machine that stored them)
    assert stored.losses[:40] == pytest.approx(run.losses, abs=1e-5)
    assert stored.losses[-1] == pytest.approx(FINAL_LOSS, abs=2e-3)
    save_trained_lm(run, tmp_path / 'r.npz', note='test')
    back = load_trained_lm(tmp_path / 'r.npz')
    assert back.losses == run.losses and (back.steps, back.seed) == (run.steps, run.seed)
    assert all(torch.equal(a, b) for a, b in zip(back.model.state_dict().values(), run.model.state_dict().values()))
    import numpy as np
    with np.load(tmp_path / 'r.npz') as f: arrays = {k: f[k] for k in f.files}
    arrays['param:transformer.wte.weight'] = arrays['param:transformer.wte.weight'][:, :7]
    np.savez(tmp_path / 'bad.npz', **arrays)
    with pytest.raises(MetricInputError, match='`path`'): load_trained_lm(tmp_path / 'bad.npz')


@pytest.mark.slow
def test_the_stored_run_is_the_tools_output():
    "tools/make_neural_lm_run.py again: the stored losses and parameters (bit for bit where they were made)."
    torch = pytest.importorskip('torch'); pytest.importorskip('transformers')
    sys.path.insert(0, str(ROOT / 'tools'))
    from make_neural_lm_run import compute
    new, stored = compute(), load_trained_lm(STORED)
    assert [new.losses[k] for k in PINNED] == pytest.approx(list(PINNED.values()), abs=1e-5)
    assert new.losses[-1] == pytest.approx(FINAL_LOSS, abs=2e-3)
    same = new.losses == stored.losses and all(torch.equal(a, b) for a, b in
                                                zip(new.model.state_dict().values(), stored.model.state_dict().values()))
    print('retrained run bit-identical to the stored file:', same)   # True where the file was made
    # another processor's kernels round the last bits differently and 400 steps carry them on (the pinned losses above
    # were measured on such a machine: 4.4e-5 from the stored final loss): the losses to 2e-3 there
    assert new.losses == pytest.approx(stored.losses, abs=2e-3)


@pytest.mark.parametrize('max_length,stride', [(64, 32), (64, 64), (48, 12), (64, 1)])
def test_three_paths_agree(corpus, run, max_length, stride):
    _, _, test_ids = corpus
    ids = test_ids if stride > 1 else test_ids[:400]  # stride 1: one window per token
    lp = window_logprobs(run.model, ids, max_length=max_length, stride=stride)
    p1 = perplexity(lp)
    p2 = cross_entropy_perplexity(run.model, ids, max_length=max_length, stride=stride)
    p3 = strided_perplexity(hf_logprob_fn(run.model), ids, max_length=max_length, stride=stride)
    n = len(ids) - 1 if stride < max_length else len(ids) - p3.windows
    assert p1.tokens == p2.tokens == p3.tokens == len(lp) == n
    assert p2.windows == len(strided_windows(len(ids), max_length=max_length, stride=stride))
    assert float(p1) == pytest.approx(float(p3), rel=1e-12)
    assert float(p2) == pytest.approx(float(p3), rel=1e-7)
    p4 = strided_perplexity(batched_logprob_fn(run.model, ids, max_length=max_length, stride=stride), ids,
                            max_length=max_length, stride=stride)   # path 3 with the windows batched
    assert (p4.tokens, p4.windows, p4.guide_tokens) == (p3.tokens, p3.windows, p3.guide_tokens)
    assert float(p4) == pytest.approx(float(p3), rel=1e-12) and p4.guide_perplexity == pytest.approx(p3.guide_perplexity, rel=1e-12)


def test_document_002_loss_is_one_window(corpus, run):
    torch = pytest.importorskip('torch')
    _, _, test_ids = corpus
    x = torch.tensor([test_ids[:64]])
    with torch.no_grad(): loss = run.model(input_ids=x, labels=x).loss
    assert math.exp(float(loss)) == pytest.approx(float(perplexity(window_logprobs(run.model, test_ids[:64]))), rel=1e-6)


def test_strided_windows_are_those_of_strided_perplexity():
    rng = random.Random(0)
    for _ in range(300):
        n, ml = rng.randint(2, 200), rng.randint(2, 70)
        st = rng.randint(1, ml)
        wins = strided_windows(n, max_length=ml, stride=st)
        seen = []
        def fn(w): seen.append(len(w)); return [-1.0] * (len(w) - 1)
        r = strided_perplexity(fn, list(range(n)), max_length=ml, stride=st)
        assert sum(s for _, _, s in wins) == r.tokens
        assert [e - b for b, e, _ in wins] == [k for k in seen if k > 1]
        assert all(1 <= s <= e - b - 1 for b, e, s in wins) and wins[-1][1] >= n - 1  # (a last window of one token scores nothing)


def test_bits_per_unit():
    assert bits_per_unit(math.log(2) * 10, 5) == pytest.approx(2.0)
    assert bits_per_unit(0.0, 3) == 0.0


def test_bad_input(corpus):
    tok, train_ids, _ = corpus
    cases = [(lambda: tok.encode('Caps'), "'C'"), (lambda: tok.encode(None), '`text`'),
             (lambda: CharTokenizer.from_text(''), '`text`'), (lambda: char_stream('a b'), '`sents`'),
             (lambda: char_stream([]), '`sents` is empty'), (lambda: char_stream([['a'], 'b']), '`sents[1]`'),
             (lambda: strided_windows(10, max_length=4, stride=5), '`stride`'),
             (lambda: strided_windows(1, max_length=4, stride=2), '`n_ids`'),
             (lambda: strided_windows(10, max_length=1, stride=1), '`max_length`'),
             (lambda: bits_per_unit(1.0, 0), '`units`'), (lambda: bits_per_unit(float('nan'), 3), '`nll_nats`'),
             (lambda: bits_per_unit(-1.0, 3), '`nll_nats`')]
    for f, msg in cases:
        with pytest.raises(MetricInputError, match=msg.replace('[', r'\[').replace(']', r'\]')): f()
    pytest.importorskip('torch'); pytest.importorskip('transformers')
    for kw, msg in [(dict(steps=0), '`steps`'), (dict(lr=0), '`lr`'), (dict(batch_size=True), '`batch_size`'),
                    (dict(seed=-1), '`seed`')]:
        with pytest.raises(MetricInputError, match=msg): train_tiny_gpt2(train_ids[:1000], tok.vocab_size, **kw)
    with pytest.raises(MetricInputError, match='`ids`'): train_tiny_gpt2(train_ids[:64], tok.vocab_size, steps=1)
    with pytest.raises(MetricInputError, match=r'`ids` must be in'): train_tiny_gpt2([0, 99] * 50, tok.vocab_size, steps=1)
    with pytest.raises(MetricInputError, match='`vocab_size`'): train_tiny_gpt2(train_ids[:1000], 1, steps=1)
    fn = batched_logprob_fn(load_trained_lm(STORED).model, train_ids[:200], max_length=64, stride=32)
    with pytest.raises(MetricInputError, match='outside its strided walk'): fn(train_ids[5:69])


def test_importing_the_module_loads_no_torch():
    code = "import sys, textmetrics_edu.models.neural_lm; print('torch' in sys.modules or 'transformers' in sys.modules)"
    r = subprocess.run([sys.executable, '-c', code], capture_output=True, text=True, cwd=ROOT)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == 'False'


# --- the explorer's stored surprisals (textmetrics_edu/data/models/neural_lm_surprisal.json) ---
def test_stored_surprisals_match_the_text_and_the_ngram_models(corpus):
    from textmetrics_edu.lm.ngram_lm import train_ngram_lm
    from textmetrics_edu.views.neural_lm import render_surprisal_html, surprisal_data
    d = surprisal_data()
    test_sents = read_sentences(DATA / 'test.txt')[:1000]
    text = char_stream(test_sents)
    chars = lambda ss: [list(' '.join(s)) for s in ss]
    m2 = train_ngram_lm(chars(read_sentences(DATA / 'train.txt')), 2, 'kneser-ney', padding='eos', discount=0.75)
    bits2 = [-float(x) for a in m2.logprobs(chars(test_sents)) for x in a]
    assert d['test_bits_per_char']['char 2-gram'] == pytest.approx(sum(bits2) / len(bits2), abs=1e-4)
    assert len(d['passages']) == 4
    for label, p in d['passages'].items():
        a = text.index(p['text'])   # the passage is in the test text; lp[t - 1] scores text[t]
        assert set(p['bits']) == {'tiny GPT-2', 'char 1-gram', 'char 2-gram', 'char 3-gram', 'char 4-gram'}
        assert all(len(v) == len(p['text']) for v in p['bits'].values())
        assert p['bits']['char 2-gram'] == pytest.approx(bits2[a - 1:a - 1 + len(p['text'])], abs=1e-3)
        h = render_surprisal_html(label, 'char 3-gram')
        assert 'tme-error' not in h and h.count("<span title=") == 3 * len(p['text'])
    assert 'tme-error' in render_surprisal_html('nope') and '&lt;b&gt;' in render_surprisal_html(label, '<b>')


@pytest.mark.slow
def test_stored_surprisals_are_the_tools_output():
    pytest.importorskip('torch'); pytest.importorskip('transformers')
    sys.path.insert(0, str(ROOT / 'tools'))
    from make_neural_lm_surprisal import compute
    from textmetrics_edu.views.neural_lm import surprisal_data
    new, stored = compute(), surprisal_data()
    assert new['test_bits_per_char'] == pytest.approx(stored['test_bits_per_char'], abs=2e-4)
    for k, p in stored['passages'].items():
        assert new['passages'][k]['text'] == p['text']
        # to their printed precision: the GPT-2 is the stored run (tests/data/models/neural_lm), not retrained
        for m, v in p['bits'].items():
            assert new['passages'][k]['bits'][m] == pytest.approx(v, abs=2e-3), (k, m)
