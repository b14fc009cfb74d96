"n-gram language models: exact against nltk.lm 3.10 on Tiny Shakespeare (every smoothing, orders 1-5), properties, bad input."
import math
import random

import pytest
from hypothesis import given, settings, strategies as st, HealthCheck

from nltk.lm import (MLE, Laplace, Lidstone, WittenBellInterpolated, KneserNeyInterpolated,
                     AbsoluteDiscountingInterpolated, Vocabulary)
from nltk.lm.preprocessing import padded_everygram_pipeline, pad_both_ends
from nltk.util import ngrams

from textmetrics_edu.core import MetricInputError
from textmetrics_edu.lm.ngram_lm import NgramLM, BOS, train_ngram_lm, read_sentences, lm_tokenize, pad_sentence, SMOOTHINGS
from conftest import DATA, sweep

LM = DATA / 'lm' / 'tinyshakespeare'


@pytest.fixture(scope='module')
def corpus():
    return read_sentences(LM / 'train.txt'), read_sentences(LM / 'test.txt')


def nltk_models(order, sents, unk_cutoff, kn_discount=0.1):
    tr, vocab = padded_everygram_pipeline(order, sents)
    base = MLE(order, vocabulary=Vocabulary(unk_cutoff=unk_cutoff))
    base.fit(tr, vocab)
    sh = dict(vocabulary=base.vocab, counter=base.counts)
    out = {'mle': base, 'laplace': Laplace(order, **sh), 'lidstone': Lidstone(0.1, order, **sh),
           'witten-bell': WittenBellInterpolated(order, **sh), 'absolute-discounting': AbsoluteDiscountingInterpolated(order, **sh)}
    if order > 1: out['kneser-ney'] = KneserNeyInterpolated(order, discount=kn_discount, **sh)
    return out


def padded_ngrams(order, sents):
    return [g for s in sents for g in ngrams(pad_both_ends(s, n=order), order)]


def same(ours, theirs):
    if math.isinf(theirs): return math.isinf(ours)
    return abs(ours - theirs) <= 1e-9 * theirs


@pytest.mark.parametrize('order,lines', sweep([(1, None), (2, 1500), (3, 700), (4, 300), (5, 200)],   # orders 3-5: --slow
                                              keep=[(1, None), (2, 1500)], several=True))   # (order 3 vs NLTK: Kneser-Ney's)
def test_fast_estimators_match_nltk_on_the_test_set(corpus, order, lines):
    train, test = corpus
    test = test[:lines]
    theirs = nltk_models(order, train, unk_cutoff=2)
    tg = padded_ngrams(order, test)
    for sm in ('mle', 'laplace', 'lidstone', 'witten-bell', 'absolute-discounting'):
        model = train_ngram_lm(train, order, sm, unk_cutoff=2, **({'gamma': 0.1} if sm == 'lidstone' else {}))
        assert model.V == len(theirs[sm].vocab)
        r = model.perplexity(test)
        assert r.tokens == len(tg)
        assert same(float(r), theirs[sm].perplexity(tg)), (sm, order)


@pytest.mark.parametrize('order,lines', sweep([(2, 30), (3, 12), (4, 3)], keep=[(2, 30)], several=True))   # 3, 4: --slow (order 3 by default: next test)
def test_kneser_ney_matches_nltk(corpus, order, lines):
    train, test = corpus
    sub = test[:lines]
    theirs = nltk_models(order, train, unk_cutoff=2)['kneser-ney']
    ours = train_ngram_lm(train, order, 'kneser-ney', unk_cutoff=2)
    assert same(float(ours.perplexity(sub)), theirs.perplexity(padded_ngrams(order, sub)))


def test_kneser_ney_other_discount_and_unk_cutoff_1_gives_inf_like_nltk(corpus):
    train, test = corpus
    sub = test[:5]
    theirs = nltk_models(3, train, unk_cutoff=1, kn_discount=0.75)['kneser-ney']
    ours = train_ngram_lm(train, 3, 'kneser-ney', unk_cutoff=1, discount=0.75)
    p_theirs, r = theirs.perplexity(padded_ngrams(3, sub)), ours.perplexity(sub)
    assert same(float(r), p_theirs)
    assert r.oov > 0 and math.isinf(float(r)) and r.zero_prob_tokens > 0  # <UNK> never seen: KN unigram 0
    # the word-level probabilities agree too, OOV words and unseen contexts included
    for g in padded_ngrams(3, sub)[:15]:
        assert abs(ours.score(g[-1], g[:-1]) - theirs.score(g[-1], g[:-1])) <= 1e-12


def test_single_scores_match_nltk_for_every_smoothing(corpus):
    train, test = corpus
    rng = random.Random(0)
    grams = rng.sample(padded_ngrams(3, test), 150)
    theirs = nltk_models(3, train, unk_cutoff=2)
    for sm, nl in theirs.items():
        ours = train_ngram_lm(train, 3, sm, unk_cutoff=2, **({'gamma': 0.1} if sm == 'lidstone' else {}))
        for g in grams[:20] if sm == 'kneser-ney' else grams:
            assert abs(ours.score(g[-1], g[:-1]) - nl.score(g[-1], g[:-1])) <= 1e-12, (sm, g)


words = st.sampled_from(list('abcde'))
sentences = st.lists(st.lists(words, min_size=0, max_size=6), min_size=1, max_size=6)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(train=sentences, test=st.lists(st.lists(st.sampled_from(list('abcdefz')), max_size=5), min_size=1, max_size=3),
       order=st.integers(1, 4), cutoff=st.integers(1, 2))
def test_random_corpora_match_nltk(train, test, order, cutoff):
    if order == 1 and not any(train):
        with pytest.raises(MetricInputError, match='no tokens'): train_ngram_lm(train, order, 'mle')
        return
    theirs = nltk_models(order, train, unk_cutoff=cutoff)
    tg = padded_ngrams(order, test)
    if not tg: return
    for sm, nl in theirs.items():
        ours = train_ngram_lm(train, order, sm, unk_cutoff=cutoff, **({'gamma': 0.1} if sm == 'lidstone' else {}))
        try: p = nl.perplexity(tg)
        except ZeroDivisionError: continue  # nltk: an n-gram with no data at all at the unigram level
        assert same(float(ours.perplexity(test)), p), (sm, order)


@settings(max_examples=30, deadline=None)
@given(train=sentences, order=st.integers(2, 4), sm=st.sampled_from(['laplace', 'lidstone', 'witten-bell',
                                                                        'absolute-discounting', 'kneser-ney']))
def test_probabilities_sum_to_one_over_the_vocabulary(train, order, sm):
    m = train_ngram_lm(train, order, sm)
    ctx = pad_sentence(train[0], order)[:order - 1]
    total = sum(m.score(w, ctx) for w in m.words)
    if sm != 'kneser-ney': assert abs(total - 1) < 1e-9
    else:  # nltk's Kneser-Ney: after the sentence-start context the mass exceeds 1 (see the notebook); same as nltk
        nl = nltk_models(order, train, unk_cutoff=1)['kneser-ney']
        assert abs(total - sum(nl.score(w, ctx) for w in nl.vocab)) < 1e-9 and total >= 1 - 1e-9
        mid = [w for s in train for w in s]
        if len(mid) >= order - 1 and BOS not in mid[:order - 1]:  # a context without <s>: sums to 1
            assert abs(sum(m.score(w, mid[:order - 1]) for w in m.words) - 1) < 1e-9


def test_eos_padding_scores_the_same_events_at_every_order(corpus):
    train, test = corpus
    n = {o: train_ngram_lm(train, o, 'witten-bell', padding='eos').perplexity(test[:100]).tokens for o in range(1, 6)}
    assert len(set(n.values())) == 1 and n[1] == sum(len(s) + 1 for s in test[:100])


def test_bad_input():
    with pytest.raises(MetricInputError, match='`order`'): NgramLM(0)
    with pytest.raises(MetricInputError, match='Kneser-Ney'): NgramLM(1, 'kneser-ney')
    with pytest.raises(MetricInputError, match='`smoothing`'): NgramLM(2, 'good-turing')
    with pytest.raises(MetricInputError, match='`padding`'): NgramLM(2, 'mle', padding='left')
    with pytest.raises(MetricInputError, match='`unk_cutoff`'): NgramLM(2, 'mle', unk_cutoff=0)
    with pytest.raises(MetricInputError, match='`discount`'): NgramLM(2, 'kneser-ney', discount=1.5)
    with pytest.raises(MetricInputError, match='not trained'): NgramLM(2, 'mle').perplexity([['a']])
    with pytest.raises(MetricInputError, match='is a str'): NgramLM(2, 'mle').fit(['a b c'])
    with pytest.raises(MetricInputError, match='empty'): NgramLM(2, 'mle').fit([])
    m = train_ngram_lm([['a', 'b']], 2, 'mle')
    with pytest.raises(MetricInputError, match='empty'): m.perplexity([])
    r = m.perplexity([['b', 'a']])  # unseen bigrams: probability 0, stated
    assert math.isinf(float(r)) and r.zero_prob_tokens > 0 and 'infinite' in r.explain()


def test_tokenizer_and_reader(tmp_path):
    assert lm_tokenize("O'er the hill, 'tis!") == ["o'er", 'the', 'hill', ',', "'", 'tis', '!']
    with pytest.raises(MetricInputError, match='no such file'): read_sentences(tmp_path / 'missing.txt')


# --- the `textmetrics-edu perplexity` command ---
import json
import subprocess
import sys
from pathlib import Path
from textmetrics_edu.app.cli import main

EXE = str(Path(sys.executable).parent / 'textmetrics-edu')


def test_cli_perplexity_json_matches_the_api(corpus, capsys):
    train, test = corpus
    assert main(['perplexity', '--train', str(LM / 'train.txt'), '--test', str(LM / 'test.txt'), '--order', '3',
                 '--smoothing', 'witten-bell', '--compat', 'nltk', '--format', 'json']) == 0
    out = json.loads(capsys.readouterr().out)
    r = train_ngram_lm(train, 3, 'witten-bell', unk_cutoff=2).perplexity(test)
    assert {'perplexity', 'cross_entropy_bits', 'tokens', 'oov'} <= set(out)
    assert out['perplexity'] == pytest.approx(float(r), rel=1e-12) and out['tokens'] == r.tokens and out['oov'] == r.oov
    assert out['cross_entropy_bits'] == pytest.approx(math.log2(float(r)), rel=1e-12)


def test_cli_perplexity_defaults_are_the_fields_and_nltk_is_named(corpus, capsys):
    "Issue 21: the command's defaults are Kneser-Ney with D = 0.75 and one </s>; `--compat nltk` is nltk.lm's."
    train, test = corpus
    files = ['--train', str(LM / 'train.txt'), '--test', str(LM / 'test.txt'), '--format', 'json']
    got = {}
    for compat in ('field', 'nltk'):
        for order in (2, 5):
            assert main(['perplexity', *files, '--order', str(order), *(['--compat', compat] if compat == 'nltk' else [])]) == 0
            got[compat, order] = json.loads(capsys.readouterr().out)
    field = train_ngram_lm(train, 5, 'kneser-ney', unk_cutoff=2, padding='eos', discount=0.75).perplexity(test)
    assert got['field', 5]['perplexity'] == pytest.approx(float(field), rel=1e-12)
    assert 'padding:eos' in got['field', 5]['signature'] and 'discount:0.75' in got['field', 5]['signature']
    nltk_like = train_ngram_lm(train, 5, 'kneser-ney', unk_cutoff=2).perplexity(test)   # NgramLM's defaults: nltk.lm's
    assert got['nltk', 5]['perplexity'] == pytest.approx(float(nltk_like), rel=1e-12)
    assert 'padding:nltk' in got['nltk', 5]['signature'] and 'discount:0.1' in got['nltk', 5]['signature']
    # the trap of NLTK's conventions: the order-5 model looks better than the bigram only by its extra padding events
    assert got['nltk', 5]['perplexity'] < got['nltk', 2]['perplexity']
    assert got['field', 5]['perplexity'] > got['field', 2]['perplexity']


def test_cli_perplexity_subprocess_text_and_infinite(tmp_path):
    tr, te = tmp_path / 'tr.txt', tmp_path / 'te.txt'
    tr.write_text('a b c\na b d\n'); te.write_text('a c b\n')
    p = subprocess.run([EXE, 'perplexity', '--train', str(tr), '--test', str(te), '--order', '2', '--smoothing', 'mle',
                        '--unk-cutoff', '1'], capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stderr
    assert p.stdout.startswith('perplexity = inf') and 'probability 0' in p.stdout
    p = subprocess.run([EXE, 'perplexity', '--train', str(tr), '--test', str(te), '--order', '2', '--smoothing', 'mle',
                        '--unk-cutoff', '1', '--format', 'json'], capture_output=True, text=True, timeout=120)
    out = json.loads(p.stdout)
    assert out['perplexity'] is None and out['zero_prob_tokens'] > 0


def test_cli_perplexity_errors(tmp_path, capsys):
    good, empty, bad = tmp_path / 'g.txt', tmp_path / 'e.txt', tmp_path / 'b.txt'
    good.write_text('a b\n'); empty.write_text('\n'); bad.write_bytes(b'\xff\xfe a b\n')
    for args, msg in [(['--train', str(tmp_path / 'missing.txt'), '--test', str(good)], 'no such file'),
                      (['--train', str(empty), '--test', str(good)], 'empty'),
                      (['--train', str(bad), '--test', str(good)], 'not UTF-8'),
                      (['--train', str(good), '--test', str(good), '--order', '0'], '`order`'),
                      (['--train', str(good), '--test', str(good), '--order', '1', '--smoothing', 'kneser-ney'], 'Kneser-Ney')]:
        assert main(['perplexity', *args]) == 2
        assert msg in capsys.readouterr().err


# --- lesson and engine: the readable definitions (count_ngrams, ngram_prob, ngram_perplexity) and NgramLM agree ---
from textmetrics_edu.lm.ngram_lm import count_ngrams, ngram_prob, ngram_perplexity


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(train=sentences, test=st.lists(st.lists(st.sampled_from(list('abcdefz')), max_size=5), min_size=1, max_size=3),
       order=st.integers(1, 4), cutoff=st.integers(1, 3), padding=st.sampled_from(['nltk', 'eos']),
       sm=st.sampled_from(SMOOTHINGS), gamma=st.sampled_from([0.01, 0.1, 0.5]),
       discount=st.sampled_from([None, 0.0, 0.3, 0.75, 1.0]))
def test_engine_equals_lesson(train, test, order, cutoff, padding, sm, gamma, discount):
    "NgramLM (numpy, what train_ngram_lm returns) gives the lesson's probabilities and perplexities on every drawn input"
    if sm == 'kneser-ney' and order == 1: return
    kw = dict(gamma=gamma, discount=discount)
    try: counts = count_ngrams(train, order, padding=padding, unk_cutoff=cutoff)
    except MetricInputError as e:
        with pytest.raises(MetricInputError, match='no tokens'): train_ngram_lm(train, order, sm, padding=padding, unk_cutoff=cutoff)
        return
    lm = train_ngram_lm(train, order, sm, padding=padding, unk_cutoff=cutoff, **kw)
    assert list(counts.vocab) == lm.words
    if order == 1 and padding == 'nltk' and not any(test):  # nothing to predict: both say so
        for f in (lambda: lm.perplexity(test), lambda: ngram_perplexity(counts, test, sm, **kw)):
            with pytest.raises(MetricInputError, match='no event'): f()
        return
    contexts = [[], ['a'], ['z', 'b'], [BOS, 'c', 'a']] + [pad_sentence(s, order, padding)[:order - 1] for s in train[:2]]
    for w in counts.vocab + ('z',):
        for ctx in contexts:
            assert math.isclose(lm.score(w, ctx), ngram_prob(counts, w, ctx, sm, **kw), rel_tol=1e-12, abs_tol=1e-15), (w, ctx)
    ours, lesson = lm.perplexity(test), ngram_perplexity(counts, test, sm, **kw)
    assert (ours.tokens, ours.oov, ours.zero_prob_tokens, ours.signature) == \
        (lesson.tokens, lesson.oov, lesson.zero_prob_tokens, lesson.signature)
    if math.isinf(float(lesson)): assert math.isinf(float(ours))
    else: assert math.isclose(float(ours), float(lesson), rel_tol=1e-12)
    for a, b in zip(lm.logprobs(test), test):  # per event, too
        p = pad_sentence(b, order, padding)
        want = [ngram_prob(counts, p[i], p[i - order + 1:i], sm, **kw) for i in range(order - 1, len(p))]
        assert len(a) == len(want)
        for x, q in zip(a, want):
            assert (q == 0 and x == -math.inf) or math.isclose(2.0 ** float(x), q, rel_tol=1e-12)


def test_lesson_imports_without_numpy():
    "The lesson module (and its explorer) needs only the standard library; the engine is imported on first use"
    code = ("import importlib.abc, sys\n"
            "class H(importlib.abc.MetaPathFinder):\n"
            "    def find_spec(self, name, path, target=None):\n"
            "        if name.split('.')[0] == 'numpy': raise ImportError('hidden')\n"
            "sys.meta_path.insert(0, H())\n"
            "from textmetrics_edu.views.ngram_lm import render_ngram_lm_html\n"
            "from textmetrics_edu.lm.ngram_lm import count_ngrams, ngram_perplexity\n"
            "print('perplexity = ' in render_ngram_lm_html('a b\\na c', 'a b'))\n")
    p = subprocess.run([sys.executable, '-c', code], capture_output=True, text=True, timeout=120)
    assert p.returncode == 0 and p.stdout.strip() == 'True', p.stderr


def test_explorer_html():
    from textmetrics_edu.views.ngram_lm import render_ngram_lm_html
    train = 'the king is dead\nlong live the king\nthe queen is dead\nthe king is here'
    h = render_ngram_lm_html(train, 'the queen is here', order=2, smoothing='mle')
    # p(the|<s>) = 3/4, p(queen|the) = 1/4, p(is|queen) = 1, p(here|is) = 1/3, p(</s>|here) = 1
    assert f"perplexity = {(0.75 * 0.25 / 3) ** (-1 / 5):.3f}" in h and '<td>queen</td><td>0.2500</td>' in h
    assert 'perplexity = inf' in render_ngram_lm_html(train, 'the queen is long', smoothing='mle')
    assert '<script>' not in render_ngram_lm_html(train + '\n<script>x</script>', '<script>')
    for bad in [('', 'a'), ('a b', 'a', dict(order=1)), ('a b', 'a', dict(smoothing='good-turing')), ('a', 'a', dict(order=0))]:
        assert "class='tme-error'" in render_ngram_lm_html(bad[0], bad[1], **(bad[2] if len(bad) > 2 else {}))


def test_short_contexts_back_off_as_nltk():
    """Issue 21: nltk.lm's `score(word, context)` with a context shorter than n-1 words (None too) backs off to that
    order; `NgramLM.score` said it was nltk's but padded with <s> (now `score_padded`). Fuzzed against nltk.lm 3.10, and
    the readable `ngram_prob` against the engine in both readings. Contexts longer than n-1: we use the last n-1 words
    (nltk's interpolated models agree; its MLE/Lidstone look up an order the model lacks and give 0 or 1/|V|)."""
    import random
    from nltk.lm import (MLE, Lidstone, Laplace, WittenBellInterpolated, KneserNeyInterpolated,
                         AbsoluteDiscountingInterpolated)
    from nltk.lm.preprocessing import padded_everygram_pipeline
    from textmetrics_edu.lm.ngram_lm import count_ngrams, ngram_prob, train_ngram_lm
    kinds = {'mle': MLE, 'lidstone': lambda o: Lidstone(0.1, o), 'laplace': Laplace, 'witten-bell': WittenBellInterpolated,
             'kneser-ney': KneserNeyInterpolated, 'absolute-discounting': AbsoluteDiscountingInterpolated}
    rng, n = random.Random(3), 0
    for _ in range(6):
        text = [[rng.choice('abcdef') for _ in range(rng.randint(1, 7))] for _ in range(rng.randint(2, 6))]
        for sm, K in kinds.items():
            for order in (1, 2, 3):
                if sm == 'kneser-ney' and order < 2: continue
                tr, vocab = padded_everygram_pipeline(order, text)
                nl = K(order); nl.fit(tr, vocab)
                ours, C = train_ngram_lm(text, order=order, smoothing=sm), count_ngrams(text, order)
                for w in list('abcz') + ['</s>']:
                    for L in range(order):
                        ctx = tuple(rng.choice(list('abcz') + ['<s>']) for _ in range(L))
                        want = nl.score(w, ctx or None)
                        assert ours.score(w, ctx) == pytest.approx(want, abs=1e-12), (sm, order, w, ctx)
                        assert ngram_prob(C, w, ctx, sm) == pytest.approx(want, abs=1e-12)
                        assert ngram_prob(C, w, ctx, sm, pad_context=True) == pytest.approx(ours.score_padded(w, ctx), abs=1e-12)
                        n += 1
    assert n >= 1000


def test_nltk_entropy_of_unigrams_and_sums_to_one():
    "NLTK's own test questions: a bigram model's entropy over unigrams, and p(. | 'a') summing to 1 over the vocabulary."
    from nltk.lm import KneserNeyInterpolated, MLE
    from nltk.lm.preprocessing import padded_everygram_pipeline
    from textmetrics_edu.lm.ngram_lm import train_ngram_lm
    text = [list('abcd'), list('egadbe')]
    for K, sm in ((MLE, 'mle'), (KneserNeyInterpolated, 'kneser-ney')):
        tr, v = padded_everygram_pipeline(2, text); nl = K(2); nl.fit(tr, v)
        ours = train_ngram_lm(text, order=2, smoothing=sm)
        assert ours.entropy([('a',), ('b',), ('c',)]) == pytest.approx(nl.entropy([('a',), ('b',), ('c',)]), abs=1e-12)
        assert sum(ours.score(w, ('a',)) for w in ours.words) == pytest.approx(1.0, abs=1e-12)
        assert sum(ours.score(w) for w in ours.words) == pytest.approx(1.0, abs=1e-12)


# ---------------------------------------------------------------- what a sentence is (issue 37)
AUSTEN = ('It is a truth universally acknowledged, that a single man in possession\r\n'
          'of a good fortune, must be in want of a wife. Mr. Bennet replied that he had not.\r\n'
          '   \r\n'
          '"But it is," returned she; "for Mrs. Long has just been here."\r\n\r\n'
          'Mr. Bennet made no answer. "Do you not want to know who has taken it?" cried his wife\r\n'
          'impatiently. "You want to tell me, and I have no objection to hearing it." Mrs. Long says\r\n'
          'that Netherfield is taken by a young man of large fortune.\r\n')


def test_split_segments_line_paragraph_sentence():
    from textmetrics_edu.lm.ngram_lm import split_segments, SEGMENTS
    assert SEGMENTS == ('line', 'paragraph', 'sentence')
    text = AUSTEN.replace('\r\n', '\n')
    assert len(split_segments(text)) == 6   # the default: every non-blank line, a wrapped sentence cut in two
    assert split_segments(text, 'paragraph')[:2] == [
        'It is a truth universally acknowledged, that a single man in possession of a good fortune, must be in want of '
        'a wife. Mr. Bennet replied that he had not.', '"But it is," returned she; "for Mrs. Long has just been here."']
    assert split_segments(text, 'sentence')[:4] == [   # Punkt trained on the text: "Mr." and "Mrs." end no sentence
        'It is a truth universally acknowledged, that a single man in possession of a good fortune, must be in want of a wife.',
        'Mr. Bennet replied that he had not.', '"But it is," returned she; "for Mrs. Long has just been here."',
        'Mr. Bennet made no answer.']
    assert len(split_segments(text, 'sentence')) == 8 and len(split_segments(text, 'paragraph')) == 3
    assert split_segments('', 'sentence') == split_segments(' \n\n', 'paragraph') == []
    for bad in [lambda: split_segments(text, 'lines'), lambda: split_segments(None), lambda: read_sentences('x', segment='para')]:
        with pytest.raises(MetricInputError, match='`segment`|`text`'): bad()


def test_read_sentences_default_is_one_sentence_per_line(tmp_path):
    "The default keeps what read_sentences always did (every non-blank line); CRLF files read the same"
    lines = (DATA / 'lm' / 'tinyshakespeare' / 'test.txt').read_text(encoding='utf-8').splitlines()[:400]
    f = tmp_path / 't.txt'; f.write_text('\n'.join(lines), encoding='utf-8')
    assert read_sentences(f) == [lm_tokenize(l) for l in lines if l.strip()]
    g = tmp_path / 'a.txt'; g.write_bytes(AUSTEN.encode('utf-8'))
    assert [len(read_sentences(g, segment=s)) for s in ('line', 'paragraph', 'sentence')] == [6, 3, 8]
    assert read_sentences(g, segment='sentence')[1] == ['mr', '.', 'bennet', 'replied', 'that', 'he', 'had', 'not', '.']


def test_cli_perplexity_segment(tmp_path, capsys):
    "--segment reaches both files and is reported (text and JSON); the default says it is one sentence per line"
    g = tmp_path / 'a.txt'; g.write_bytes(AUSTEN.encode('utf-8'))
    outs = {}
    for seg in ('line', 'sentence'):
        assert main(['perplexity', '--train', str(g), '--test', str(g), '--order', '2', '--unk-cutoff', '1',
                     '--segment', seg, '--format', 'json']) == 0
        outs[seg] = json.loads(capsys.readouterr().out)
    assert (outs['line']['sentences'], outs['line']['segment'], outs['sentence']['sentences']) == (6, 'line', 8)
    lm = train_ngram_lm(read_sentences(g, segment='sentence'), 2, 'kneser-ney', unk_cutoff=1, padding='eos', discount=0.75)
    assert outs['sentence']['perplexity'] == pytest.approx(float(lm.perplexity(read_sentences(g, segment='sentence'))), rel=1e-12)
    assert outs['sentence']['perplexity'] != pytest.approx(outs['line']['perplexity'])
    assert main(['perplexity', '--train', str(g), '--test', str(g), '--order', '2']) == 0
    assert '(--segment line)' in capsys.readouterr().out
