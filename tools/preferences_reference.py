"""Run FastChat's and fschat's rating functions on LLMFAO and on fuzzed battle sets; store their outputs as test data.

Runs OUTSIDE our environment (FastChat is not a dependency; its code is never copied into ours):

    /work/envs/bt34_fschat/bin/python tools/preferences_reference.py \
        --rating-systems /work/envs/bt34_fastchat/rating_systems.py --cases 5000 --out tests/data/preferences/

where /work/envs/bt34_fschat is a venv with `pip install fschat==0.2.36` (numpy 2.4.6, scipy 1.17.1, pandas 3.1.1,
scikit-learn 1.9.1, the versions of our lock) and rating_systems.py is `git show
0e6d3e4beaab66f4d3f93db72541a4abab8af28d:fastchat/serve/monitor/rating_systems.py` of github.com/lm-sys/FastChat.
Writes fastchat_llmfao.json and fastchat_fuzz.json.gz (see tests/data/preferences/README.md). The fuzz cases were
run in three processes (`--fuzz-only --start S --cases E` for S, E = 0, 1700; 1700, 3400; 3400, 5000) and their
`cases` lists concatenated into fastchat_fuzz.json.gz; `--style-only` adds compute_style_control afterwards."""
import argparse, gzip, importlib, json, sys, warnings
from pathlib import Path

import numpy as np
import pandas as pd

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / 'tests'))
from pref_fuzz import fuzz_battles  # noqa: E402

LLMFAO = ROOT / 'tests/data/preferences/llmfao'
WIN = {'left': 'model_a', 'right': 'model_b', 'tie': 'tie'}


def load(path):
    sys.path.insert(0, str(Path(path).parent))   # importable by name, so that its multiprocessing pool can pickle fit_bt
    return importlib.import_module(Path(path).stem)


def llmfao(name):
    d = pd.read_csv(LLMFAO / name)
    return pd.DataFrame({'model_a': d['left'], 'model_b': d['right'], 'winner': d['winner'].map(WIN)})


def floats(s): return {k: float(v) for k, v in s.items()}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--rating-systems', required=True); ap.add_argument('--cases', type=int, default=5000)
    ap.add_argument('--rounds', type=int, default=100); ap.add_argument('--out', default=str(ROOT / 'tests/data/preferences'))
    ap.add_argument('--start', type=int, default=0, help='first fuzz case (to split the run over processes)')
    ap.add_argument('--boot-every', type=int, default=20, help='compute_bootstrap_bt on fuzz cases < 200 divisible by this (0: none)')
    ap.add_argument('--fuzz-only', action='store_true', help='skip LLMFAO (fastchat_llmfao.json)')
    ap.add_argument('--style-only', action='store_true', help='only add compute_style_control to fastchat_llmfao.json')
    a = ap.parse_args()
    rs = load(a.rating_systems)
    if a.style_only: return style(rs, Path(a.out) / 'fastchat_llmfao.json')
    from fastchat.serve.monitor.elo_analysis import compute_elo_mle_with_tie
    import fastchat, sklearn, scipy
    out = {'versions': {'fschat': getattr(fastchat, '__version__', '?'), 'numpy': np.__version__, 'scipy': scipy.__version__,
                        'pandas': pd.__version__, 'scikit-learn': sklearn.__version__,
                        'FastChat rating_systems.py': '0e6d3e4beaab66f4d3f93db72541a4abab8af28d'}}
    for judge, f in () if a.fuzz_only else (('humans', 'crowd-comparisons.csv'), ('gpt4', 'gpt4-crowd-comparisons.csv'),
                     ('gpt3', 'gpt3-crowd-comparisons.csv')):
        df = llmfao(f)
        r = {'compute_bt': floats(rs.compute_bt(df)), 'compute_elo': floats(rs.compute_elo(df)),
             'compute_elo_mle_with_tie': floats(compute_elo_mle_with_tie(df))}
        if judge == 'humans':
            boot = rs.compute_bootstrap_bt(df, num_round=a.rounds, num_cpu=1)   # one process: replicates in draw order
            r['compute_bootstrap_bt'] = {'num_round': a.rounds, 'models': list(boot.columns),
                                         'ratings': boot.to_numpy().tolist()}
        out[judge] = r
        print(judge, 'done', file=sys.stderr)
    if not a.fuzz_only: (Path(a.out) / 'fastchat_llmfao.json').write_text(json.dumps(out, indent=0))
    cases = []
    dest = Path(a.out) / ('fastchat_fuzz.json.gz' if a.start == 0 else f'fastchat_fuzz_{a.start}.json.gz')
    def save():
        with gzip.open(dest, 'wt') as fh: json.dump({'versions': out['versions'], 'cases': cases}, fh)
    for c in range(a.start, a.cases):
        df = pd.DataFrame(fuzz_battles(c), columns=['model_a', 'model_b', 'winner'])
        r = {'case': c, 'compute_bt': floats(rs.compute_bt(df)), 'compute_elo': floats(rs.compute_elo(df))}
        try:
            with warnings.catch_warnings():
                warnings.simplefilter('ignore')
                r['compute_elo_mle_with_tie'] = floats(compute_elo_mle_with_tie(df))
        except Exception as e: r['compute_elo_mle_with_tie'] = {'error': f"{type(e).__name__}: {e}"}
        if a.boot_every and c < 200 and c % a.boot_every == 0:   # a few bootstraps (small) for the default tests
            b = rs.compute_bootstrap_bt(df, num_round=20, num_cpu=1)
            r['compute_bootstrap_bt'] = {'models': list(b.columns), 'ratings': b.to_numpy().tolist()}
        cases.append(r)
        if c % 250 == 0: print('case', c, file=sys.stderr); save()
    save()


def style(rs, path):
    "compute_style_control on the crowd votes, the answers' counts from llmfao/style_counts.csv (tools/llmfao_style_counts.py)."
    import csv
    cnt = {(r['prompt'], r['model']): r for r in csv.DictReader(open(LLMFAO / 'style_counts.csv'))}
    raw = pd.read_csv(LLMFAO / 'crowd-comparisons.csv', dtype=str)
    def meta(r):
        a, b = cnt[(r['prompt'], r['model_x'])], cnt[(r['prompt'], r['model_y'])]
        return {'sum_assistant_a_tokens': int(a['tokens']), 'header_count_a': int(a['headers']), 'list_count_a': int(a['lists']),
                'bold_count_a': int(a['bold']), 'sum_assistant_b_tokens': int(b['tokens']), 'header_count_b': int(b['headers']),
                'list_count_b': int(b['lists']), 'bold_count_b': int(b['bold'])}
    df = pd.DataFrame({'model_a': raw['left'], 'model_b': raw['right'], 'winner': raw['winner'].map(WIN),
                       'conv_metadata': [meta(r) for _, r in raw.iterrows()]})
    ratings, params = rs.compute_style_control(df)
    out = json.loads(path.read_text())
    out['humans']['compute_style_control'] = {'ratings': floats(ratings), 'params': [float(x) for x in params]}
    path.write_text(json.dumps(out, indent=0))


if __name__ == '__main__':
    main()
