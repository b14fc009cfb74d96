"""Span F1: exact against seqeval 1.2.2 (in the dev env) in its default (conlleval) mode and in strict mode with every
scheme, on the WNUT-17 submissions (tests/data/ner/README.md) and on 6,000 seeded random tag corpora."""
import math
import random
import warnings
from pathlib import Path

import pytest
from seqeval.metrics import f1_score
from seqeval.metrics import v1 as seq_v1
from seqeval.metrics.sequence_labeling import get_entities, precision_recall_fscore_support as seq_prfs
from seqeval import scheme as seq_scheme

from textmetrics_edu.core import MetricInputError
from textmetrics_edu.metrics.span_f1 import (SCHEMES, conlleval_spans, corpus_span_f1, sentence_span_f1, strict_spans,
                                             span_statistics)

D = Path(__file__).parent / 'data' / 'ner' / 'wnut17_test_head'
GOLD = (D / 'gold.tags').read_text().splitlines()
SYSTEMS = {p.stem: p.read_text().splitlines() for p in sorted(D.glob('*.tags')) if p.stem != 'gold'}
TYPES = ['PER', 'LOC', 'x-y', '']


def rand_corpus(rng, prefixes):
    "1-4 sentences of 0-8 tags: O-heavy, random prefixes and types (bare prefixes and dashed types too): well- and ill-formed."
    def tag():
        if rng.random() < 0.35: return 'O'
        p, t = rng.choice(prefixes), rng.choice(TYPES)
        if t == '': rng.random(); return p   # a bare prefix ('B-' with no type is refused since issue 37)
        return f'{p}-{t}'
    sents = [[tag() for _ in range(rng.randint(0, 8))] for _ in range(rng.randint(1, 4))]
    return sents, [[tag() for _ in s] for s in sents]


def seqeval_all(y_true, y_pred, scheme, zd):
    "seqeval's micro P/R/F, macro F, weighted F and per-type P/R/F/support (warnings silenced)."
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        if scheme is None: f = lambda avg: seq_prfs(y_true, y_pred, average=avg, zero_division=zd)
        else: f = lambda avg: seq_v1.precision_recall_fscore_support(y_true, y_pred, average=avg, zero_division=zd,
                                                                      scheme=getattr(seq_scheme, scheme))
        mic, mac, wei, per = f('micro'), f('macro'), f('weighted'), f(None)
    return (float(mic[0]), float(mic[1]), float(mic[2]), float(mac[2]), float(wei[2]),
            [float(x) for x in per[0]], [float(x) for x in per[1]], [float(x) for x in per[2]], [int(x) for x in per[3]])


def ours_all(y_true, y_pred, scheme, zd):
    r = corpus_span_f1(y_pred, y_true, mode='strict' if scheme else 'conlleval', scheme=scheme, zero_division=zd)
    return (r.precision, r.recall, r.f1, r.macro_f1, r.weighted_f1, list(r.per_type_precision),
            list(r.per_type_recall), list(r.per_type_f1), list(r.support))


def same(a, b):
    return all((x == y) or (isinstance(x, float) and math.isnan(x) and math.isnan(y)) for x, y in zip(a, b)) and len(a) == len(b)


def fuzz(n, seed=2000):
    rng = random.Random(seed)
    out = []
    for i in range(n):
        scheme = [None, None, *SCHEMES][i % 8]
        prefixes = 'BIES' if scheme is None else {'IOB1': 'IB', 'IOB2': 'IB', 'IOE1': 'IE', 'IOE2': 'IE', 'IOBES': 'IBES',
                                                   'BILOU': 'BILU'}[scheme]
        yt, yp = rand_corpus(rng, prefixes)
        out.append((yt, yp, scheme, rng.choice([0, 1])))
    return out


def check_fuzz(cases):
    bad = [(c, ours_all(*c), seqeval_all(*c)) for c in cases if not same(ours_all(*c), seqeval_all(*c))]
    assert bad == [], bad[:3]


def test_fuzz_600_corpora_equal_seqeval():
    check_fuzz(fuzz(600, seed=7))


@pytest.mark.slow
def test_fuzz_6000_corpora_equal_seqeval():
    check_fuzz(fuzz(6000))


def test_spans_equal_seqevals_readers_on_random_sentences():
    rng = random.Random(3)
    for _ in range(2000):
        t, _ = rand_corpus(rng, 'BIES')
        s = t[0]
        assert conlleval_spans(s) == get_entities(s)
    for sch in SCHEMES:
        pre = {'IOB1': 'IB', 'IOB2': 'IB', 'IOE1': 'IE', 'IOE2': 'IE', 'IOBES': 'IBES', 'BILOU': 'BILU'}[sch]
        for _ in range(300):
            s = rand_corpus(rng, pre)[0][0]
            theirs = [(e.tag, e.start, e.end) for e in seq_scheme.Tokens(s, getattr(seq_scheme, sch)).entities]
            assert strict_spans(s, sch) == theirs, (s, sch)


@pytest.mark.parametrize('scheme', [None, 'IOB2', *(pytest.param(s, marks=pytest.mark.slow) for s in ('IOBES', 'BILOU', 'IOB1'))])
def test_wnut17_submissions_equal_seqeval(scheme):
    y_true = [g.split() for g in GOLD]
    for name, hyp in SYSTEMS.items():
        y_pred = [h.split() for h in hyp]
        try: theirs = seqeval_all(y_true, y_pred, scheme, 0)
        except ValueError:   # seqeval rejects the prefixes of this scheme (e.g. B- under BILOU is fine, I- too)
            with pytest.raises(MetricInputError): ours_all(y_true, y_pred, scheme, 0)
            continue
        assert same(ours_all(y_true, y_pred, scheme, 0), theirs), name


def test_default_and_strict_differ_where_the_tags_are_ill_formed():
    y_true = [g.split() for g in GOLD]
    diff = set()
    for name, hyp in SYSTEMS.items():
        a, b = corpus_span_f1(hyp, GOLD), corpus_span_f1(hyp, GOLD, mode='strict', scheme='IOB2')
        ill = any(t.startswith('I-') and (i == 0 or s.split()[i - 1][2:] != t[2:]) for s in hyp for i, t in enumerate(s.split()))
        assert (a.n_pred != b.n_pred) == ill, name
        if ill: diff.add(name)
        with warnings.catch_warnings():
            warnings.simplefilter('ignore')
            assert f1_score(y_true, [h.split() for h in hyp], mode='strict') == a.f1   # no scheme: seqeval falls back
    assert diff


def test_per_sentence_statistics_add_up_to_the_corpus():
    st = [span_statistics(h, g) for h, g in zip(SYSTEMS['mic-cis'], GOLD)]
    total = st[0]
    for s in st[1:]: total = total + s
    r = corpus_span_f1(SYSTEMS['mic-cis'], GOLD)
    assert (total.tp, total.n_pred, total.n_gold) == (r.tp, r.n_pred, r.n_gold)


def test_significance_runs():
    from textmetrics_edu.stats.significance import paired_test
    res = paired_test(SYSTEMS['arcada'][:100], SYSTEMS['uh_ritual'][:100], GOLD[:100], metric='span_f1', n_samples=50, seed=1)
    assert 0 <= res.p_value <= 1


def test_bad_input():
    with pytest.raises(MetricInputError, match='bare str'): corpus_span_f1('B-PER', ['B-PER'])
    with pytest.raises(MetricInputError, match='2 tags but the gold has 1'): corpus_span_f1(['B-PER O'], ['B-PER'])
    with pytest.raises(MetricInputError, match="'X-PER'"): corpus_span_f1(['X-PER'], ['B-PER'])
    with pytest.raises(MetricInputError, match='needs a `scheme`'): corpus_span_f1(['B-PER'], ['B-PER'], mode='strict')
    with pytest.raises(MetricInputError, match='only with mode'): corpus_span_f1(['B-PER'], ['B-PER'], scheme='IOB2')
    with pytest.raises(MetricInputError, match='not a tag of IOB2'): corpus_span_f1(['E-PER'], ['B-PER'], mode='strict', scheme='IOB2')
    with pytest.raises(MetricInputError, match='zero_division'): corpus_span_f1(['B-PER'], ['B-PER'], zero_division=2)
    hyps, refs = [['B-PER', 'O']], [['B-PER', 'O']]
    assert float(corpus_span_f1(hyps, refs)) == 1.0 and hyps == [['B-PER', 'O']]   # lists accepted, not modified
    assert float(sentence_span_f1(['B-PER'], ['B-PER'])) == 1.0


def test_cli(tmp_path, capsys):
    from textmetrics_edu.app.cli import main
    (tmp_path / 'h.txt').write_text('\n'.join(SYSTEMS['mic-cis'][:50]) + '\n')
    (tmp_path / 'g.txt').write_text('\n'.join(GOLD[:50]) + '\n')
    import json
    assert main(['score', str(tmp_path / 'h.txt'), '-r', str(tmp_path / 'g.txt'), '--metrics', 'span_f1', '--format', 'json',
                 '--span-f1-mode', 'strict', '--span-f1-scheme', 'IOB2']) == 0
    m = json.loads(capsys.readouterr().out)['systems'][0]['metrics']
    assert m['span_f1']['score'] == corpus_span_f1(SYSTEMS['mic-cis'][:50], GOLD[:50], mode='strict', scheme='IOB2').f1


def test_renderer():
    from textmetrics_edu.views.span_f1 import render_span_f1_html
    h = render_span_f1_html('B-PER I-PER O I-LOC', 'B-PER I-PER O B-LOC', tokens='<b>Ada</b> Lovelace in London')
    assert '&lt;b&gt;Ada&lt;/b&gt;' in h and '<b>Ada' not in h and 'F1 0.6667' in h
