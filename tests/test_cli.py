"The command line as a user runs it: the bundled sample, the real WMT22 files, JSON, segments, explain, errors."
import json
import subprocess
import sys
from pathlib import Path

import pytest
import sacrebleu
from sacrebleu.metrics import CHRF

from textmetrics_edu.app.cli import main
from conftest import WMT22_EN_DE, WMT22_SYSTEMS, sweep

EXE = str(Path(sys.executable).parent / 'textmetrics-edu')


def run(*args):
    return subprocess.run([EXE, *map(str, args)], capture_output=True, text=True, timeout=600)


def test_no_arguments_prints_the_bundled_sample_table():
    p = run('score')
    assert p.returncode == 0, p.stderr
    lines = p.stdout.splitlines()
    assert lines[0].startswith('bundled sample: WMT22 en-de')
    assert lines[1].split() == ['system', 'bleu', 'chrf']
    rows = [l for l in lines[2:] if l and not l.startswith(('bleu:', 'chrf:'))]
    assert len(rows) >= 3
    assert any(l.startswith('bleu: BLEU|nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp') for l in lines)


@pytest.mark.parametrize('module', ['textmetrics_edu', 'textmetrics_edu.app.cli'])
def test_python_dash_m_runs_the_command_line(module):
    "`python -m textmetrics_edu` and `python -m textmetrics_edu.app.cli` are the console script (they printed nothing)"
    for args in (['--help'], ['score', '--quiet']):   # --quiet: a busy machine may pass the progress delay
        p = subprocess.run([sys.executable, '-m', module, *args], capture_output=True, text=True, timeout=600)
        assert (p.returncode, p.stdout, p.stderr) == (0, run(*args).stdout, ''), (module, args, p.stderr)
    assert p.stdout.startswith('bundled sample: WMT22 en-de')
    bad = subprocess.run([sys.executable, '-m', module, 'score', '--metrics', 'nope'], capture_output=True, text=True)
    assert bad.returncode == 2 and bad.stderr.startswith('textmetrics-edu: error:') and 'nope' in bad.stderr, bad.stderr


@pytest.mark.parametrize('refset', sweep(['A', 'B', 'all'], keep=['all']))   # A and B alone: --slow
def test_cli_reproduces_official_scores_on_all_systems(refset, wmt22):
    refs = {'A': ['ref.A.de'], 'B': ['ref.B.de'], 'all': ['ref.A.de', 'ref.B.de']}[refset]
    systems = sorted((WMT22_EN_DE / 'sys').glob('*.de'))
    out = io_main(['score', *systems, '-r', *[WMT22_EN_DE / r for r in refs], '--metrics', 'bleu,chrf', '--format', 'json',
                   '--percent'])   # (the official scores are BLEU's and chrF's)
    got = {s['name']: s['metrics'] for s in out['systems']}
    assert len(got) == 9
    for system, m in got.items():
        assert abs(m['bleu']['score'] - wmt22['official'][system, f'bleu-{refset}']) < 1e-9
        assert abs(m['chrf']['score'] - wmt22['official'][system, f'chrf-{refset}']) < 1e-9


def test_crlf_files_are_read_as_sacrebleus_cli_reads_them(tmp_path, wmt22):
    """Trailing whitespace and CRLF line ends are stripped from every line, as sacreBLEU 2.6.0's CLI does: chrF with
    whitespace on CRLF files gave 77.576 against sacreBLEU's 77.554. Real data: one WMT22 en-de system, reference A."""
    name = WMT22_SYSTEMS[0]
    hyps, refs = wmt22['systems'][name], wmt22['refs_A']
    h, r = tmp_path / f'{name}.de', tmp_path / 'ref.de'
    h.write_bytes(''.join(f'{x} \r\n' for x in hyps).encode()); r.write_bytes(''.join(f'{x}\r\n' for x in refs).encode())
    out = io_main(['score', h, '-r', r, '--metrics', 'chrf,bleu', '--chrf-whitespace', '--format', 'json', '--percent'])
    m = out['systems'][0]['metrics']
    want_chrf = CHRF(whitespace=True).corpus_score([x.rstrip() for x in hyps], [[x.rstrip() for x in refs]]).score
    want_bleu = sacrebleu.corpus_bleu([x.rstrip() for x in hyps], [[x.rstrip() for x in refs]]).score
    assert m['chrf']['score'] == pytest.approx(want_chrf, abs=1e-9) and m['bleu']['score'] == pytest.approx(want_bleu, abs=1e-9)
    # and the same files without CRLF give the same numbers
    h.write_text(''.join(f'{x}\n' for x in hyps)); r.write_text(''.join(f'{x}\n' for x in refs))
    same = io_main(['score', h, '-r', r, '--metrics', 'chrf,bleu', '--chrf-whitespace', '--format', 'json', '--percent'])
    assert same['systems'][0]['metrics']['chrf']['score'] == m['chrf']['score']


def io_main(argv):
    import contextlib, io
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf): status = main([str(a) for a in argv])
    assert status == 0
    return json.loads(buf.getvalue())


def test_segments_and_explain(tmp_path):
    h, r = tmp_path / 'h.txt', tmp_path / 'r.txt'
    h.write_text('the cat sat on the mat\nhello world\n'); r.write_text('the cat sat on a mat\nhello there world\n')
    out = io_main(['score', h, '-r', r, '--metrics', 'bleu,chrf,chrf++', '--format', 'json', '--segments'])
    m = out['systems'][0]['metrics']
    assert m['bleu']['segments'][0] == pytest.approx(sacrebleu.sentence_bleu('the cat sat on the mat', ['the cat sat on a mat']).score / 100)
    assert len(m['chrf++']['segments']) == 2 and m['chrf++']['signature'].startswith('chrF2++')
    p = run('score', h, '-r', r, '--explain', 2)
    assert p.returncode == 0 and 'p_1 = ' in p.stdout and 'BP = ' in p.stdout and 'chrP' in p.stdout


def test_metrics_listing():
    p = run('metrics')
    assert p.returncode == 0 and 'bleu' in p.stdout and 'chrf' in p.stdout


# progress on stderr (issue 37): a bar per system and metric, stdout unchanged, --quiet | --progress for every command
def test_progress_goes_to_stderr_and_quiet_silences_it(tmp_path):
    "A bar per system and metric on stderr (stdout unchanged, even piped); with --quiet nothing on stderr"
    h, r = tmp_path / 'h.txt', tmp_path / 'r.txt'
    h.write_text('the cat sat on the mat\nhello world\nit is raining\n'); r.write_text('the cat sat on a mat\nhello there world\nit rains\n')
    loud, quiet = (run('score', h, '-r', r, '-m', 'bleu,ter', '--segments', flag) for flag in ('--progress', '--quiet'))
    assert loud.returncode == quiet.returncode == 0
    assert loud.stdout == quiet.stdout and 'per segment:' in loud.stdout
    assert quiet.stderr == ''
    assert 'textmetrics-edu: [1/1] h: ter on 3 segments' in loud.stderr and '3/3' in loud.stderr
    assert 'h: ter, segment by segment' in loud.stderr and 'textmetrics-edu' not in loud.stdout
    from textmetrics_edu.app.cli import build_parser
    with pytest.raises(SystemExit): build_parser().parse_args(['score', '--quiet', '--progress'])   # one or the other


def test_progress_is_shown_once_a_run_takes_a_while(tmp_path, monkeypatch):
    "Without --progress a run shows progress after PROGRESS_DELAY seconds (0 here); the stages advance it segment by segment"
    import contextlib, io
    from textmetrics_edu.app import cli
    h = tmp_path / 'h.txt'; h.write_text(''.join(f'line {i} of the file\n' for i in range(7)))
    monkeypatch.setattr(cli, 'PROGRESS_DELAY', 0.0)
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err): status = main(['score', str(h), '-r', str(h), '-m', 'ter'])
    bars = err.getvalue().replace('\r', '\n')
    assert status == 0 and 'h: ter on 7 segments' in bars and '7/7' in bars and 'textmetrics-edu' not in out.getvalue()
    from textmetrics_edu import corpus_ter
    from textmetrics_edu.core import progress_reporter
    steps = []
    with progress_reporter(lambda n, total: steps.append((n, total))): corpus_ter(['a b', 'c d e', 'f'], ['a b', 'c e', 'g'])
    assert steps == [(0, 3)] + [(1, 3)] * 3   # the loop's start, then one report per segment


def test_every_command_takes_the_common_flags():
    "--quiet and --progress are declared once (cli.common_arguments) and every sub-command has them"
    from textmetrics_edu.app.cli import build_parser
    import argparse
    p = build_parser()
    subs = next(a for a in p._actions if isinstance(a, argparse._SubParsersAction)).choices
    assert {'score', 'metrics', 'perplexity', 'meta-eval', 'scale'} <= set(subs)
    for name, sp in subs.items():
        flags = {f for a in sp._actions for f in a.option_strings}
        assert {'--quiet', '--progress'} <= flags, name


@pytest.mark.parametrize('case', ['missing', 'lines', 'empty', 'latin1', 'unknown_metric', 'explain_range', 'no_refs'])
def test_errors_are_one_line_and_status_2(tmp_path, case):
    good = tmp_path / 'good.txt'; good.write_text('a b c\nd e f\n')
    short = tmp_path / 'short.txt'; short.write_text('a b c\n')
    empty = tmp_path / 'empty.txt'; empty.write_text('')
    latin = tmp_path / 'latin.txt'; latin.write_bytes('café\nthé\n'.encode('latin-1'))
    args = {'missing': ['score', tmp_path / 'nope.txt', '-r', good],
            'lines': ['score', good, '-r', short],
            'empty': ['score', empty, '-r', good],
            'latin1': ['score', latin, '-r', good],
            'unknown_metric': ['score', good, '-r', good, '--metrics', 'bleurt'],
            'explain_range': ['score', good, '-r', good, '--explain', 3],
            'no_refs': ['score', good]}[case]
    p = run(*args)
    assert p.returncode == 2, (p.stdout, p.stderr)
    assert p.stderr.count('\n') == 1 and p.stderr.startswith('textmetrics-edu: error: ')
    assert 'Traceback' not in p.stderr and p.stdout == ''


def test_no_flags_of_true_defaults_reach_the_metric(tmp_path, wmt22):
    """`--no-ter-lowercase` was read as "not given" (False counted as unset): TER stayed case-insensitive. Every
    boolean option whose default is True (from the registry: none can be forgotten) passes False with its --no- flag."""
    from textmetrics_edu.app.cli import build_parser, metric_kwargs
    from textmetrics_edu.core import METRICS, discover_metrics
    discover_metrics()
    checked = 0
    for name, spec in METRICS.items():
        for o in spec.options:
            if not (o.type is bool and o.default is True): continue   # the flags with a --no- form
            args = build_parser().parse_args(['score', '--metrics', name, '--no-' + o.flag[2:]])
            assert metric_kwargs(spec, args).get(o.name) is False, (name, o.flag)
            checked += 1
    assert checked >= 1
    # on real data: TER with --no-ter-lowercase is the case-sensitive TER
    hyps, refs = wmt22['systems'][WMT22_SYSTEMS[0]][:100], wmt22['refs_A'][:100]
    h, r = tmp_path / 'h.de', tmp_path / 'r.de'
    h.write_text(''.join(f'{x}\n' for x in hyps)); r.write_text(''.join(f'{x}\n' for x in refs))
    out = io_main(['score', h, '-r', r, '--metrics', 'ter', '--no-ter-lowercase', '--format', 'json'])
    from textmetrics_edu import corpus_ter
    got = out['systems'][0]['metrics']['ter']['score']
    assert got == pytest.approx(float(corpus_ter(hyps, refs, lowercase=False)), abs=1e-12)
    assert got != pytest.approx(float(corpus_ter(hyps, refs)), abs=1e-6)


@pytest.mark.parametrize('argv, message', [
    (['score', '-m', 'bleu', '--chrf-beta', 'x', 'h.txt'], "argument --chrf-beta: invalid float value: 'x'"),
    (['scale', 'h.txt'], 'the following arguments are required: -r/--refs'),
    (['diff', '--bogus'], 'unrecognized arguments: --bogus'),
    (['--bogus'], 'unrecognized arguments: --bogus'),
])
def test_argparse_errors_are_one_usage_line_and_the_message(argv, message, capsys):
    "Issue 37: a usage error printed up to 166 lines of usage (every metric's flags) before its message; now two lines."
    with pytest.raises(SystemExit) as e: main(argv)
    err = capsys.readouterr().err
    assert e.value.code == 2 and len(err.splitlines()) == 2, err
    assert err.startswith('usage: textmetrics-edu') and '--help' in err.splitlines()[0] and message in err.splitlines()[1]


def test_warnings_are_one_line_without_python_source(tmp_path):
    "Issue 37: a metric's warning on the command line is one line, without the file, line number and source that raised it."
    (tmp_path / 'h.txt').write_text('Grüße aus Köln\n', encoding='utf-8')
    (tmp_path / 'r.txt').write_text('Grüße aus Bonn\n', encoding='utf-8')
    p = run('score', tmp_path / 'h.txt', '-r', tmp_path / 'r.txt', '-m', 'rouge1')
    assert p.returncode == 0, p.stderr
    assert p.stderr.splitlines() == [l for l in p.stderr.splitlines() if l.startswith('textmetrics-edu: warning')] != []
    assert 'RougeTokenizationWarning' in p.stderr and '.py:' not in p.stderr and 'warnings.warn' not in p.stderr
