"""Benchmark scoring: exact against lm-evaluation-harness 0.4.13 (run in a separate venv, outputs stored in
tests/data/benchmark/lmeval, see its README): its own samples files and aggregates on real BLiMP and HellaSwag
log-likelihoods of our models, its `process_results` on 6,000 fuzzed items (a few hundred by default, all in the slow
set); McNemar against statsmodels; bad input; the `benchmark` command."""
import gzip
import json
import math
from pathlib import Path

import pytest

from textmetrics_edu.app.cli import main as cli_main
from textmetrics_edu.core import MetricInputError
from textmetrics_edu.stats.benchmark import (exact_match, mc_item, mcnemar_test, read_benchmark, score_benchmark,
                                             score_item)

D = Path(__file__).parent / 'data' / 'benchmark'
L = D / 'lmeval'
TASKS = [(t, m) for t in ('blimp', 'hellaswag') for m in ('gpt2', 'ngram')]


def lmeval_samples(task):
    with gzip.open(L / f'samples_tme_{task}.jsonl.gz', 'rt', encoding='utf-8') as f:
        return [json.loads(l) for l in f]


@pytest.mark.parametrize('t,m', TASKS)
def test_lmeval_samples_and_aggregates_reproduced_exactly(t, m):
    task = f'{t}_{m}'
    ref = json.loads((L / 'results.json').read_text())['results'][f'tme_{task}']
    items = read_benchmark(L / f'samples_tme_{task}.jsonl.gz')
    r = score_benchmark(items)
    assert r.n_items == ref['sample_len']
    names = {k.split(',')[0] for k in ref if k.endswith(',none') and '_stderr' not in k}
    assert set(r.scores) == names
    for k, v in r.scores.items():
        assert v == ref[f'{k},none'], k
        if k != 'brier_score': assert r.stderr[k] == ref[f'{k}_stderr,none'], k
    # every per-sample value lm-eval logged, and its per-sample probabilities (printed by numpy) for brier_score
    for s, mine in zip(lmeval_samples(task), r.per_item):
        for k in names - {'brier_score'}: assert mine[k] == s[k], (s['doc_id'], k)
    # our plain file of the same numbers gives the same items
    plain = read_benchmark(D / f'{task}.jsonl')
    assert [x.loglikelihoods for x in plain] == [x.loglikelihoods for x in items]
    assert score_benchmark(plain).per_item == r.per_item


def fuzz(limit=None):
    with gzip.open(L / 'fuzz.jsonl.gz', 'rt', encoding='utf-8') as f:
        rows = [json.loads(l) for l in f]
    return rows[:limit] if limit else rows


def check_fuzz(rows):
    aggs = json.loads((L / 'fuzz_aggregates.json').read_text())
    bench = {}
    for d in rows:
        it = mc_item(d['choices'], d['loglikelihoods'], d['gold'], unconditional=d['unconditional_loglikelihoods'],
                     is_greedy=d['is_greedy'])
        mine = score_item(it)
        for k, v in d['lmeval'].items():
            if v is not None: assert mine[k] == v, (d, k)
        bench.setdefault(d['bench'], []).append(it)
    full = [b for b, its in bench.items() if len(its) == 50]
    assert full
    for b in full:
        r, ref = score_benchmark(bench[b]), aggs[str(b)]
        for k in ('acc', 'acc_norm', 'acc_bytes', 'acc_mutual_info', 'exact_match', 'brier_score'):
            assert r.scores[k] == ref[k] or (math.isnan(r.scores[k]) and math.isnan(ref[k])), (b, k)
        for k in ('acc', 'acc_norm', 'acc_bytes', 'acc_mutual_info'): assert r.stderr[k] == ref[f'{k}_stderr'], (b, k)
    return len(rows)


def test_fuzz_items_equal_lmeval_process_results():
    assert check_fuzz(fuzz(300)) == 300


@pytest.mark.slow
def test_fuzz_6000_items_equal_lmeval():
    rows = fuzz()
    assert check_fuzz(rows) == 6000
    # the sweep covers what it claims: ties, equal per-character scores, -inf, non-ASCII choices
    assert any(len(set(d['loglikelihoods'])) < len(d['loglikelihoods']) for d in rows)
    assert any(d['loglikelihoods'][0] == -math.inf or -math.inf in d['loglikelihoods'] for d in rows)
    assert any(any(not c.isascii() for c in d['choices']) for d in rows)


def test_mcnemar_equals_statsmodels():
    from statsmodels.stats.contingency_tables import mcnemar
    import random
    rng = random.Random(3)
    for _ in range(60):
        n = rng.randint(1, 60)
        a = [rng.random() < 0.5 for _ in range(n)]
        b = [rng.random() < 0.6 for _ in range(n)]
        r = mcnemar_test(a, b)
        assert r.p_exact == float(mcnemar([[r.both, r.only_a], [r.only_b, r.neither]], exact=True).pvalue)
        assert 0 < r.p_mid <= r.p_exact <= 1


def test_exact_match_equals_lmeval_formula():
    assert exact_match(['a', 'B.', '12x'], ['a', 'b', 'x'], ignore_case=True, ignore_punctuation=True, ignore_numbers=True) == 1.0
    assert exact_match([' a'], ['a']) == 0.0


def write(tmp_path, name, lines):
    p = tmp_path / name
    p.write_text(''.join((l if isinstance(l, str) else json.dumps(l)) + '\n' for l in lines), encoding='utf-8')
    return p


def test_bad_input_names_the_file_and_line(tmp_path):
    ok = {'doc_id': 0, 'choices': ['a', 'b'], 'loglikelihoods': [-1.0, -2.0], 'gold': 0}
    cases = {'nan': ({**ok, 'loglikelihoods': [-1.0, float('nan')]}, '`loglikelihoods[1]` is nan'),
             'gold': ({**ok, 'gold': 2}, '`gold` = 2 is out of range'),
             'empty': ({**ok, 'choices': ['a', '']}, '`choices[1]` is empty'),
             'count': ({**ok, 'loglikelihoods': [-1.0]}, 'has 1 values for 2 choices'),
             'other': ({'text': 'hello', 'score': 1}, "neither a plain item"),
             'missing': ({'choices': ['a', 'b'], 'loglikelihoods': [-1, -2]}, "no 'gold' field")}
    for name, (bad, msg) in cases.items():
        p = write(tmp_path, f'{name}.jsonl', [ok, bad])
        with pytest.raises(MetricInputError, match=f"{p.name}:2: .*{msg}".replace('[', r'\[').replace(']', r'\]').replace('`', '.')):
            read_benchmark(p)
    p = write(tmp_path, 'notjson.jsonl', [ok, '{oops'])
    with pytest.raises(MetricInputError, match='notjson.jsonl:2: not JSON'): read_benchmark(p)
    with pytest.raises(MetricInputError, match='no such file'): read_benchmark(tmp_path / 'absent.jsonl')
    # a samples file of another task type (generate_until: no log-likelihood pairs)
    gen = {'doc_id': 0, 'target': 'Paris', 'arguments': {'gen_args_0': {'arg_0': 'Q', 'arg_1': {'until': ['\n']}}},
           'filtered_resps': ['Paris'], 'metrics': ['exact_match'], 'exact_match': 1.0}
    p = write(tmp_path, 'gen.jsonl', [gen])
    with pytest.raises(MetricInputError, match='gen.jsonl:1: '): read_benchmark(p)


def test_cli_text_json_and_paired(tmp_path, capsys):
    a, b = D / 'hellaswag_ngram.jsonl', D / 'hellaswag_gpt2.jsonl'
    assert cli_main(['benchmark', str(a), '--format', 'json']) == 0
    out = json.loads(capsys.readouterr().out)
    m = out['models'][0]
    assert set(m) == {'acc', 'acc_norm', 'acc_bytes', 'acc_mutual_info', 'brier_score'}
    ref = json.loads((L / 'results.json').read_text())['results']['tme_hellaswag_ngram']
    assert m['acc_norm']['value'] == ref['acc_norm,none'] and m['acc_norm']['stderr'] == ref['acc_norm_stderr,none']
    assert cli_main(['benchmark', str(a), str(b), '--n-samples', '100', '--format', 'json']) == 0
    out = json.loads(capsys.readouterr().out)
    assert set(out['paired']) == {'acc', 'acc_norm', 'acc_bytes', 'acc_mutual_info'}
    assert all(d['better'] in ('A', 'B', 'neither') for d in out['paired'].values())
    assert cli_main(['benchmark', str(L / 'samples_tme_blimp_gpt2.jsonl.gz')]) == 0
    assert 'acc_norm' in capsys.readouterr().out
    # two files of different items: a clear error, not a test
    rc = cli_main(['benchmark', str(a), str(D / 'blimp_gpt2.jsonl')])
    err = capsys.readouterr().err
    assert rc != 0 and 'not the same items' in err


def test_calibration_error_equals_torchmetrics_on_random_confidences():
    import random
    import torch
    from torchmetrics.functional.classification import binary_calibration_error
    from textmetrics_edu.stats.calibration import calibration_error, brier_decomposition
    rng = random.Random(5)
    for _ in range(100):
        n = rng.randint(1, 80)
        c = [rng.choice([rng.random(), 1.0, 0.0, 0.5, rng.random() ** 0.1]) for _ in range(n)]
        y = [int(rng.random() < 0.6) for _ in range(n)]
        nb = rng.choice([1, 2, 5, 10, 15, 20])
        for norm in ('l1', 'l2', 'max'):
            tb = float(binary_calibration_error(torch.tensor(c, dtype=torch.float64), torch.tensor(y), n_bins=nb, norm=norm))
            assert abs(calibration_error(c, y, nb, norm=norm).score - tb) <= 1e-15
        d = brier_decomposition(c, y, nb)
        assert abs(d['reliability'] - calibration_error(c, y, nb, norm='l2').score ** 2) <= 1e-12
    with pytest.raises(MetricInputError, match='correct'): calibration_error([0.5, 0.2], [1])


def test_clustered_stderr_equals_statsmodels():
    import random
    import numpy as np
    import statsmodels.api as sm
    from textmetrics_edu.stats.benchmark_stats import clustered_stderr, minimum_detectable_effect, paired_stderr
    rng = random.Random(9)
    for _ in range(20):
        n = rng.randint(5, 200)
        x = [float(rng.random() < 0.4) for _ in range(n)]
        g = [rng.randrange(max(2, n // 5)) for _ in range(n)]
        fit = sm.OLS(np.array(x), np.ones(n)).fit(cov_type='cluster', cov_kwds={'groups': np.array(g), 'use_correction': False,
                                                                                   'df_correction': False})
        assert abs(clustered_stderr(x, g) - float(fit.bse[0])) <= 1e-12
    assert paired_stderr([1, 0, 1, 1], [1, 0, 1, 1]) == 0.0
    assert minimum_detectable_effect(400, 0.5) > minimum_detectable_effect(400, 0.5, correlation=0.5)


def test_janitor_equals_lmeval_on_real_and_planted_text():
    import hashlib
    from textmetrics_edu.stats.contamination import janitor_clean, janitor_ngrams, janitor_spans
    ref = json.loads((L / 'janitor.json').read_text())
    ts = Path(__file__).parent / 'data' / 'lm' / 'tinyshakespeare'
    test_txt, train_txt = (ts / 'test.txt').read_text(encoding='utf-8'), (ts / 'train.txt').read_text(encoding='utf-8')
    r = ref['clean_pair']
    ng = janitor_ngrams([test_txt])
    assert len(ng) == r['registered_ngrams'] and janitor_spans(train_txt[:200000], ng) == [tuple(s) for s in r['spans']]
    assert [[len(c), hashlib.sha256(c.encode()).hexdigest()] for c in janitor_clean(train_txt[:200000], ng)] == r['chunks']


def test_janitor_refuses_what_is_not_text():
    "A number where the item or the training text goes: a named error (the explorer shows it in its box), no TypeError."
    from textmetrics_edu.stats.contamination import janitor_ngrams
    from textmetrics_edu.views.contamination import render_janitor_html
    with pytest.raises(MetricInputError, match='`texts` must be a str or an iterable of str'): janitor_ngrams(5)
    assert render_janitor_html(5, 'some training text').startswith("<div class='tme-error'>`texts`")

def test_harness_perplexities_equal_lmeval():
    from textmetrics_edu.lm.harness_perplexity import harness_perplexities
    ref = json.loads((L / 'perplexity.json').read_text())
    for m in ('gpt2', 'ngram'):
        items = read_benchmark(D / f'hellaswag_{m}.jsonl')
        assert harness_perplexities([x.loglikelihoods[x.gold] for x in items], [' ' + x.choices[x.gold] for x in items]) == ref[m]


@pytest.mark.parametrize('t,m', TASKS)
def test_benchmark_accuracy_on_the_protocol_equals_lmeval(t, m):
    "The registered metric (summed per-item statistics) gives lm-eval's printed accuracy and stderr, bit for bit, and its paired test runs."
    from textmetrics_edu.stats.benchmark import benchmark_segments, corpus_benchmark_accuracy
    ref = json.loads((L / 'results.json').read_text())['results'][f'tme_{t}_{m}']
    hyps, refs = benchmark_segments(read_benchmark(L / f'samples_tme_{t}_{m}.jsonl.gz'))
    for conv in ('acc', 'acc_norm', 'acc_bytes', 'acc_mutual_info'):
        if f'{conv},none' not in ref: continue
        r = corpus_benchmark_accuracy(hyps, refs, convention=conv)
        assert (r.score, r.stderr) == (ref[f'{conv},none'], ref[f'{conv}_stderr,none']), conv


def test_benchmark_accuracy_bad_input_is_named():
    from textmetrics_edu.stats.benchmark import corpus_benchmark_accuracy
    item = '{"choices": ["a", "b"], "gold": 0}'
    for hyp, ref, msg in (('[-1.0]', item, 'has 1 values for 2 choices'), ('[-1.0, NaN]', item, 'is nan'),
                          ('[-1, -2]', '{"choices": ["a", "b"], "gold": 5}', 'out of range'),
                          ('not json', item, 'must be JSON'), ('{"lls": [-1, -2]}', item, "no 'loglikelihoods'"),
                          ('[-1, -2]', '{"choices": ["a", "b"]}', "needs 'choices' and 'gold'")):
        with pytest.raises(MetricInputError, match=msg): corpus_benchmark_accuracy([hyp], [ref])
    with pytest.raises(MetricInputError, match='unconditional'):
        corpus_benchmark_accuracy(['[-1, -2]'], [item], convention='acc_mutual_info')


def test_rolling_windows_and_wikitext_equal_lmeval():
    "lm-eval's `get_rolling_token_windows` / `make_disjoint_window` and wikitext's detokenizer and counts (stored outputs)."
    from textmetrics_edu.lm.harness_perplexity import rolling_windows, wikitext_counts
    roll = json.loads((L / 'rolling.json').read_text(encoding='utf-8'))
    as_lists = lambda ws: [[list(a), list(b)] for a, b in ws]
    for c in roll['cases']:
        for dj in (False, True):
            assert as_lists(rolling_windows(range(c['n']), -1, c['max_seq_len'], c['context_len'], disjoint=dj)) == \
                c['disjoint' if dj else 'windows'], c
    sh = roll['shakespeare']
    for n, w in sh['by_max_seq_len'].items():
        toks = [ord(ch) for ch in sh['text']]
        assert as_lists(rolling_windows(toks, 0, int(n))) == w['windows']
        assert as_lists(rolling_windows(toks, 0, int(n), disjoint=True)) == w['disjoint']
    W = roll['wikitext']
    wc = wikitext_counts(W['page'])
    assert wc['text'] == W['detokenized']
    assert (wc['words'], wc['bytes']) == (W['process_results']['word_perplexity'][1], W['process_results']['byte_perplexity'][1])
    with pytest.raises(MetricInputError, match='context_len'): rolling_windows([1, 2, 3], 0, 2, 3)


def test_mc_requests_equal_the_ones_lmeval_built():
    "The (context, continuation) strings of item 4, zero-shot and two-shot (first_n sampler), as lm-eval 0.4.13 built them."
    from textmetrics_edu.stats.benchmark import mc_requests
    ref = json.loads((L / 'requests.json').read_text(encoding='utf-8'))
    hs = [json.loads(l) for l in (D / 'hellaswag_gpt2.jsonl').read_text(encoding='utf-8').splitlines()[:5]]
    x, shots = hs[4], [(d['context'], d['choices'][d['gold']]) for d in hs[:2]]
    assert [list(r) for r in mc_requests(x['context'], x['choices'], shots=shots)] == ref['2shot']
    assert [list(r) for r in mc_requests(x['context'], x['choices'])] == ref['0shot']
    with pytest.raises(MetricInputError, match='choices'): mc_requests('ctx', 'a bare string')
