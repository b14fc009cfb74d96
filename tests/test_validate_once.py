"Every option of a call is validated once (by its `Option`), and a tokenizer is looked up once per call, not per segment."
import sys
from collections import Counter

import pytest

import textmetrics_edu.core.text as text
from textmetrics_edu.core import METRICS, Option, discover_metrics

discover_metrics()

H = ['the cat sat on the mat today', 'a quick brown fox jumps over the dog', 'hello there my good friend']
R = ['the cat sat on the mat today', 'the quick brown fox jumps over the lazy dog', 'hello there my dear friend']


def corpus_of(spec):
    "Plain sentences, or the input form the metric's spec declares (`Metric.example`: labels, tags, items, sources)."
    ex = spec.metric.example
    return (list(ex.hyps), ex.refs) if ex is not None else (H, R)

XFAIL = {}  # name -> why it could not be fixed (none at present)


@pytest.fixture
def option_checks(monkeypatch):
    "Count `Option.check` calls by option name."
    n = Counter()
    orig = Option.check
    def check(self, v, *a, **k):
        n[self.name] += 1
        return orig(self, v, *a, **k)
    monkeypatch.setattr(Option, 'check', check)
    return n


@pytest.fixture
def tokenizer_lookups(monkeypatch):
    "Count `get_tokenizer` calls, through every module that imported it by name."
    n = Counter()
    orig = text.get_tokenizer
    def get_tokenizer(*a, **k):
        n['get_tokenizer'] += 1
        return orig(*a, **k)
    for m in list(sys.modules.values()):
        if getattr(m, '__name__', '').startswith('textmetrics_edu') and getattr(m, 'get_tokenizer', None) is orig:
            monkeypatch.setattr(m, 'get_tokenizer', get_tokenizer)
    return n


def _explicit_options(spec, sentence=False):
    "Every option of a protocol metric given explicitly (its default), so that each one is checked in the call."
    m = spec.metric
    return {o.name: (m.sentence_defaults.get(o.name, o.default) if sentence else o.default)
            for o in m.options if o.name not in m.fixed}


def _params(names):
    return [pytest.param(n, marks=pytest.mark.xfail(reason=XFAIL[n], strict=True)) if n in XFAIL else n
            for n in names]


@pytest.mark.parametrize('name', _params(sorted(METRICS)))
def test_corpus_call_checks_each_option_once(name, option_checks):
    spec = METRICS[name]
    hyps, refs = corpus_of(spec)
    spec.corpus_fn(hyps, refs, **_explicit_options(spec))
    assert all(v <= 1 for v in option_checks.values()), dict(option_checks)
    if spec.metric.aggregate != 'corpus':  # every option given was checked (once); 'corpus': the function checks its own
        assert set(option_checks) >= set(_explicit_options(spec)), dict(option_checks)


@pytest.mark.parametrize('name', _params(sorted(n for n, s in METRICS.items() if s.sentence_fn is not None)))
def test_sentence_call_checks_each_option_once(name, option_checks):
    spec = METRICS[name]
    hyps, refs = corpus_of(spec)
    spec.sentence_fn(hyps[-1], refs[-1], **_explicit_options(spec, sentence=True))
    assert all(v <= 1 for v in option_checks.values()), dict(option_checks)


@pytest.mark.parametrize('fn', ['corpus', 'sentence'])
def test_bleu_looks_up_its_tokenizer_once(fn, tokenizer_lookups):
    from textmetrics_edu.metrics import bleu
    bleu._prep.cache_clear(); bleu._ref_info.cache_clear()  # cold caches: the worst case
    hyps = [f'segment {i}: the cat sat on the mat' for i in range(100)]
    refs = [[f'segment {i}: the cat is on the mat', 'a cat sat there'] for i in range(100)]
    if fn == 'corpus': bleu.corpus_bleu(hyps, refs, tokenize='intl')
    else: bleu.sentence_bleu(hyps[0], refs[0], tokenize='intl')
    assert tokenizer_lookups['get_tokenizer'] <= 1, tokenizer_lookups


def test_bleu_staged_functions_check_through_the_options(option_checks):
    "The public staged functions still validate, by BLEU's and chrF's `Option`s, each argument once."
    from textmetrics_edu.core import MetricInputError
    from textmetrics_edu.metrics.bleu import bleu_statistics, bleu_from_stats
    from textmetrics_edu.metrics.chrf import chrf_statistics
    st = bleu_statistics(H[0], R[0], max_order=4, tokenize='13a')
    bleu_from_stats(st, smooth_method='floor', smooth_value=0.1)
    chrf_statistics(H[0], R[0], char_order=6, beta=2)
    assert set(option_checks) >= {'max_order', 'tokenize', 'smooth_method', 'smooth_value', 'char_order', 'beta'}
    for call, arg in [(lambda: bleu_statistics('a', 'a', max_order=0), '`max_order`'),
                      (lambda: bleu_statistics('a', 'a', tokenize='moses'), '`tokenize`'),
                      (lambda: bleu_from_stats(st, smooth_value=-1), '`smooth_value`'),
                      (lambda: bleu_from_stats(st, weights=[1, 0]), '`weights`'),
                      (lambda: bleu_from_stats(st, weights=[.25] * 4, effective_order=True), 'effective_order'),
                      (lambda: chrf_statistics('a', 'a', char_order=-1), '`char_order`'),
                      (lambda: chrf_statistics('a', 'a', char_order=0, word_order=0), '`word_order`')]:
        with pytest.raises(MetricInputError, match=arg): call()
