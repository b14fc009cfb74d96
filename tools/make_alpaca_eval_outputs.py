"""Run alpaca_eval's own metrics on the shipped annotations and store what they return:
tests/data/alpaca_eval/alpaca_eval_outputs.json (see tests/data/alpaca_eval/README.md).

    /work/envs/alpaca_eval/bin/python tools/make_alpaca_eval_outputs.py tests/data/alpaca_eval

Needs a separate environment with `pip install alpaca-eval==0.6.6` (it does not join our lock: openai, datasets, ...).
For every annotations/<model>.jsonl: `alpaca_eval.metrics.get_winrate` (win rate, SE, discrete win rate, counts), and
`get_length_controlled_winrate` with the unregularised GLM `length_controlled_noreg` and two stand-in difficulty
vectors (0 everywhere, and sin(i)): the GLM's `df_gamed.csv` (which also carries `instruction_difficulty`) lives only
on the Hugging Face hub, so `hf_hub_download` is replaced by a function returning a local CSV with that column and
no gamed rows (the noreg GLM uses nothing else of it). The lengths enter as strings of that many characters.
"""
import json
import math
import sys
import tempfile
from pathlib import Path

import pandas as pd
import alpaca_eval
from alpaca_eval.metrics import get_winrate
import alpaca_eval.metrics.glm_winrate as glm

d = Path(sys.argv[1])
tmp = Path(tempfile.mkdtemp())
DIFFICULTIES = {'zero': [0.0] * 805, 'sin': [math.sin(i) for i in range(805)]}
out = {'alpaca_eval': alpaca_eval.__version__, 'pandas': pd.__version__, 'models': {}}
import numpy, sklearn
out.update(numpy=numpy.__version__, sklearn=sklearn.__version__)
for p in sorted((d / 'annotations').glob('*.jsonl')):
    recs = [json.loads(l) for l in open(p)]
    df = pd.DataFrame([{'generator_1': r['generator_1'], 'generator_2': r['generator_2'], 'preference': r['preference'],
                        'annotator': 'weighted_alpaca_eval_gpt4_turbo',
                        'output_1': 'x' * r['len_output_1'], 'output_2': 'x' * r['len_output_2']} for r in recs])
    res = {k: (float(v) if isinstance(v, float) else int(v)) for k, v in get_winrate(df).items()}
    for name, diff in DIFFICULTIES.items():
        csv = tmp / f'df_gamed_{name}.csv'
        pd.DataFrame({'index': range(805), 'instruction_difficulty': diff, 'model': 'none', 'preference': 1.5,
                      'not_gamed_baseline': False, 'std_delta_len': 0.0}).to_csv(csv, index=False)
        glm.hf_hub_download = lambda *a, _csv=csv, **k: str(_csv)
        # the stand-in df_gamed has rows; noreg ignores them (only its difficulty column is read)
        m = glm.get_length_controlled_winrate(df.copy(), glm_name='length_controlled_noreg', save_weights_dir=tmp / p.stem / name,
                                              is_warn_extreme_changes=False)
        res[f'lc_noreg_{name}'] = {k: float(m[k]) for k in ('length_controlled_winrate', 'lc_standard_error')}
        if p.stem != 'gpt4_1106_preview':
            w = pd.read_csv(tmp / p.stem / name / 'length_controlled_noreg' / 'baseline_gpt4_1106_preview.csv', index_col=0)
            res[f'lc_noreg_{name}']['weights'] = {k: float(v) for k, v in w.iloc[0].items()}
    out['models'][p.stem] = res
    print(p.stem, res['win_rate'], res['lc_noreg_zero']['length_controlled_winrate'], flush=True)
(d / 'alpaca_eval_outputs.json').write_text(json.dumps(out, indent=1) + '\n')
