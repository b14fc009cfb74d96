"""Remake the mteval-v13a.pl expectations of this folder (by hand; the tests only read the .tsv files).

Needs Perl, XML::Twig and mteval-v13a.pl, none of which this repository ships (the README says where they come
from). Usage, from the repository root:

    MTEVAL=/path/to/mteval-v13a.pl PERL5LIB=/path/to/XML-Twig/lib python tests/data/mt/nist/make_expected.py [--doctest]

Each corpus is written as mteval's SGML (src/ref/tst sets, one document, one <seg> per line, the text as it is:
mteval's own reader and tokenizer do the rest) into a temporary folder, scored with
`perl mteval-v13a.pl -r ref.sgm -s src.sgm -t tst.sgm -n --metricsMATR [-c]`, and its outputs are kept: the
printed system score (`NIST score = %2.4f`) and the full-precision system and segment scores of `NIST-sys.scr`
and `NIST-seg.scr`.
"""
from __future__ import annotations

import os
import random
import re
import subprocess
import tempfile
from pathlib import Path

HERE = Path(__file__).parent
WMT = HERE.parent / 'wmt22_en-de'
SAMPLE = HERE.parent.parent.parent.parent / 'textmetrics_edu' / 'data' / 'wmt22_en-de_sample'

# the fuzz: tokens chosen to hit every rule of mteval's tokenizer and reader
FUZZ_WORDS = ('the', 'The', 'THE', 'cat', 'Cat', 'mat', 'a', 'A', '0', '0', '00', '1', '1.5', '3,000', 'a.b', 'x,y',
              '3-4', 'x-y', '-', '--', '2-', 'Äpfel', 'äpfel', 'ÄPFEL', 'Straße', 'É', 'é', 'naïve', "don't", "'",
              '&amp;', '&quot;', '&lt;', '&gt;', '&apos;', '&', '<skipped>', 'a<b', 'x>y', 'e.g.', '.', ',', '...',
              '!', '?', '(a)', '{x}', '[y]', '~', '`', '^', '_', '\\', '|', '@', '#', '$5', '%', '*', '+', '=',
              ';', ':', '/', '€', '–', '—', '„', '“', '”', '«', '»', '·', '½', '²', 'ǅ', 'İ', 'ﬁ',
              'a\u00a0b', 'a\u2009b', 'a\u3000b', 'a\u200bb', 'a\u180eb', 'a\x1cb', 'a\x1fb', 'a\x85b', 'a\tb',
              'a\x0bb', 'a\x0cb', 'a\rb', 'a\u2028b', 'a\u202fb', '\u00a0', '  ', 'x.', '.x', ',1', '1,', '1.')


def fuzz_segment(rng: random.Random, length: int) -> str:
    "A random segment of `length` tokens over `FUZZ_WORDS`, joined by one space or, sometimes, none or several."
    out = []
    for i in range(length):
        if i: out.append(rng.choice((' ', ' ', ' ', ' ', '', '  ')))
        out.append(rng.choice(FUZZ_WORDS))
    return ''.join(out)


def fuzz_corpus(k: int) -> dict:
    """Fuzzed corpus number `k`: 100 segments, 1-3 references each (the same number in every segment, as mteval
    needs), hypotheses often copying parts of a reference; `preserve_case` on every fourth corpus."""
    rng = random.Random(1000 + k)
    nrefs = 1 + k % 3
    hyps, refs = [], []
    for _ in range(100):
        rs = [fuzz_segment(rng, rng.randint(0, 12)) for _ in range(nrefs)]
        rs[0] = 'w ' + rs[0]   # at least one word in the first reference: mteval divides by the reference length
        if rng.random() < 0.6:   # copy and disturb a reference
            toks = rng.choice(rs).split(' ')
            toks = [t for t in toks if rng.random() < 0.8] + [fuzz_segment(rng, rng.randint(0, 3))]
            if rng.random() < 0.3: rng.shuffle(toks)
            h = ' '.join(toks)
        else: h = fuzz_segment(rng, rng.randint(0, 14))
        hyps.append(h); refs.append(rs)
    return dict(hyps=hyps, refs=refs, preserve_case=k % 4 == 3)


N_FUZZ = 50


def _sgml(path, tag, sets, id_attr):
    with open(path, 'w', encoding='utf-8') as f:
        for name, segs in sets:
            attrs = f'setid="s" srclang="en"' + ('' if tag == 'srcset' else f' trglang="de" {id_attr}="{name}"')
            f.write(f'<{tag} {attrs}>\n<doc docid="d1" sysid="{name}">\n')
            for i, s in enumerate(segs, 1): f.write(f'<seg id="{i}">{s}</seg>\n')
            f.write(f'</doc>\n</{tag}>\n')


def run_mteval(systems: dict, refs: list, preserve_case: bool = False) -> dict:
    """mteval-v13a.pl -n on `systems` ({name: hyps}) against `refs` (one list of segments per reference set):
    {name: (printed score, full system score, [full segment scores])}."""
    with tempfile.TemporaryDirectory() as d:
        d = Path(d)
        n = len(refs[0])
        _sgml(d / 'src.sgm', 'srcset', [('src', ['x'] * n)], '')
        _sgml(d / 'ref.sgm', 'refset', [(f'ref{j}', r) for j, r in enumerate(refs)], 'refid')
        _sgml(d / 'tst.sgm', 'tstset', list(systems.items()), 'sysid')
        cmd = ['perl', os.environ['MTEVAL'], '-r', 'ref.sgm', '-s', 'src.sgm', '-t', 'tst.sgm', '-n', '--metricsMATR']
        if preserve_case: cmd.append('-c')
        out = subprocess.run(cmd, cwd=d, capture_output=True, text=True, check=True).stdout
        printed = dict((m.group(2), m.group(1)) for m in re.finditer(r'NIST score = (\S+)  for system "(.*)"', out))
        full = {l.split('\t')[1]: l.split('\t')[2] for l in (d / 'NIST-sys.scr').read_text().splitlines()}
        segs = {}
        for l in (d / 'NIST-seg.scr').read_text().splitlines():
            _, name, _, i, s = l.split('\t')
            segs.setdefault(name, {})[int(i)] = s
        return {s: (printed[s], full[s], [segs[s][i] for i in range(1, n + 1)]) for s in systems}


def _lines(p): return Path(p).read_text(encoding='utf-8').split('\n')[:-1]


# NLTK's doctest of `sentence_nist` (NLTK 3.10 `nist_score.py`): two hypotheses, three references
NLTK_DOCTEST = dict(
    hyps=['It is a guide to action which ensures that the military always obeys the commands of the party',
          'It is to insure the troops forever hearing the activity guidebook that party direct'],
    refs=['It is a guide to action that ensures that the military will forever heed Party commands',
          'It is the guiding principle which guarantees the military forces always being under the command of the Party',
          'It is the practical guide for the army always to heed the directions of the party'])


def doctest():
    "4. NLTK's doctest, each hypothesis alone (a one-segment corpus), all three references and each one alone."
    with open(HERE / 'mteval_nltk_doctest.tsv', 'w') as f:
        f.write('hyp\trefs\tpreserve_case\tprinted\tscore\n')
        for pc in (False, True):
            for i, h in enumerate(NLTK_DOCTEST['hyps']):
                for name, rs in [('1+2+3', NLTK_DOCTEST['refs'])] + [(str(j + 1), [r]) for j, r in enumerate(NLTK_DOCTEST['refs'])]:
                    pr, full, _ = run_mteval({'h': [h]}, [[r] for r in rs], pc)['h']
                    f.write(f'{i + 1}\t{name}\t{int(pc)}\t{pr}\t{full}\n')


def main():
    import sys
    if sys.argv[1:] == ['--doctest']: return doctest()
    doctest()
    # 1. the full WMT22 en-de test set (2037 segments, 9 systems): references A, B and A+B; A+B with -c
    refs = {'A': [_lines(WMT / 'ref.A.de')], 'B': [_lines(WMT / 'ref.B.de')]}
    refs['A+B'] = refs['A'] + refs['B']
    systems = {p.stem: _lines(p) for p in sorted((WMT / 'sys').glob('*.de'))}
    with open(HERE / 'mteval_wmt22_system.tsv', 'w') as f:
        f.write('refs\tpreserve_case\tsystem\tprinted\tscore\n')
        for name, rs, pc in [('A', refs['A'], False), ('B', refs['B'], False), ('A+B', refs['A+B'], False),
                             ('A+B', refs['A+B'], True)]:
            for s, (pr, full, _) in run_mteval(systems, rs, pc).items(): f.write(f'{name}\t{int(pc)}\t{s}\t{pr}\t{full}\n')
    # 2. the bundled 300-segment sample (4 systems): segment scores, references A and A+B
    srefs = [_lines(SAMPLE / 'ref.A.de'), _lines(SAMPLE / 'ref.B.de')]
    ssys = {p.stem: _lines(p) for p in sorted((SAMPLE / 'sys').glob('*.de'))}
    with open(HERE / 'mteval_wmt22_sample_segments.tsv', 'w') as f:
        f.write('refs\tsystem\tprinted\tscore\tsegment_scores\n')
        for name, rs in [('A', srefs[:1]), ('A+B', srefs)]:
            for s, (pr, full, seg) in run_mteval(ssys, rs).items(): f.write(f'{name}\t{s}\t{pr}\t{full}\t{" ".join(seg)}\n')
    # 3. the fuzz: N_FUZZ corpora of 100 segments (5,000 segment scores, 50 system scores)
    with open(HERE / 'mteval_fuzz.tsv', 'w') as f:
        f.write('corpus\tprinted\tscore\tsegment_scores\n')
        for k in range(N_FUZZ):
            c = fuzz_corpus(k)
            refsets = [list(r) for r in zip(*c['refs'])]
            pr, full, seg = run_mteval({'fuzz': c['hyps']}, refsets, c['preserve_case'])['fuzz']
            f.write(f'{k}\t{pr}\t{full}\t{" ".join(seg)}\n')


if __name__ == '__main__':
    main()
