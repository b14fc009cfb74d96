"""What bert-score and torchmetrics print for the BERTScore lesson's checks: tests/data/models/bertscore_tools/outputs.json.

    PYTHONPATH=. .venv/bin/python tools/make_bertscore_tool_outputs.py          # write the file
    PYTHONPATH=. .venv/bin/python tools/make_bertscore_tool_outputs.py --check  # recompute, compare with the file

The lesson (nbs/24_bertscore.ipynb) compares the package's live numbers with these stored outputs instead of loading
both tools in the site build (about 10 s of CPU); tests/test_bertscore.py compares with the tools themselves, on far
more data, and its slow set recomputes this file (`--check`'s comparison). Contents, all with the shipped
all-MiniLM-L6-v2 at layer 6, offline:
- `bert_score`: bert-score 0.3.13's `score` (P, R, F per segment) on the first 12 WMT22 en-de segments of Online-B:
  against reference A without idf (`A`), against A and B with idf (`AB_idf`), and against A rescaled with the
  package's German baseline file passed as `baseline_path` (`A_rescaled`);
- `torchmetrics`: torchmetrics 1.9's `bert_score` F1 of three paraphrase pairs scored in one batch (`batch`) and
  one pair at a time (`alone`): the permutation of issue Lightning-AI/torchmetrics#2728.
"""
import json
import sys
import warnings
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / 'tests' / 'data' / 'models' / 'bertscore_tools' / 'outputs.json'
D = ROOT / 'tests' / 'data' / 'mt' / 'wmt22_en-de'
N_SEGMENTS = 12
TM_HYPS = ['The weather in Paris was warm and sunny for the whole week.', 'Hi there.', 'The cat sat on the mat.']
TM_REFS = ['Paris was sunny all week.', 'Hello there, how are you doing today my friend?', 'The cat sat on a mat.']


def wmt_slice():
    "(hyps, refs A, refs B): the first N_SEGMENTS lines of Online-B and the two references"
    read = lambda f: (D / f).read_text(encoding='utf-8').split('\n')[:N_SEGMENTS]
    return read('sys/Online-B.de'), read('ref.A.de'), read('ref.B.de')


def compute() -> dict:
    import bert_score
    import transformers
    from torchmetrics.functional.text import bert_score as tm_bert_score
    import textmetrics_edu
    from textmetrics_edu.models.bertscore import BASELINE_FILE
    from textmetrics_edu.models.encoder import load_encoder
    transformers.logging.set_verbosity_error()
    path = load_encoder().path
    hyps, ref_a, ref_b = wmt_slice()
    prf = lambda t: [[float(x) for x in row] for row in zip(*(v.tolist() for v in t))]   # per segment (P, R, F)
    base = Path(textmetrics_edu.__file__).parent / 'data' / 'models' / BASELINE_FILE.format(lang='de')
    from importlib.metadata import version   # (bert_score.__version__ of the 0.3.13 wheel says 0.3.12)
    out = {'versions': {k: version(k) for k in ('bert-score', 'torchmetrics', 'transformers', 'torch')},
           'n_segments': N_SEGMENTS, 'bert_score': {}}
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        out['bert_score']['A'] = prf(bert_score.score(hyps, [[a] for a in ref_a], model_type=path, num_layers=6, idf=False, nthreads=0))
        out['bert_score']['AB_idf'] = prf(bert_score.score(hyps, [[a, b] for a, b in zip(ref_a, ref_b)], model_type=path,
                                                           num_layers=6, idf=True, nthreads=0))
        out['bert_score']['A_rescaled'] = prf(bert_score.score(hyps, ref_a, model_type=path, num_layers=6, lang='de',
                                                               rescale_with_baseline=True, baseline_path=str(base)))
        out['torchmetrics'] = {
            'hyps': TM_HYPS, 'refs': TM_REFS,
            'batch': [float(x) for x in tm_bert_score(TM_HYPS, TM_REFS, model_name_or_path=path, num_layers=6)['f1']],
            'alone': [float(tm_bert_score([h], [r], model_name_or_path=path, num_layers=6)['f1'])
                      for h, r in zip(TM_HYPS, TM_REFS)]}
    return out


def main(argv):
    new = compute()
    if '--check' in argv:
        old = json.loads(OUT.read_text(encoding='utf-8'))
        assert old == new, 'the stored outputs differ from what the tools give now'
        print(f'{OUT.relative_to(ROOT)}: equal to what the tools give now')
        return
    OUT.write_text(json.dumps(new, indent=1) + '\n', encoding='utf-8')
    print(f'wrote {OUT.relative_to(ROOT)}')


if __name__ == '__main__':
    main(sys.argv[1:])
