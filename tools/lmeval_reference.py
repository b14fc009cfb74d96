"""Run lm-evaluation-harness itself on our stored log-likelihoods and store what it computes, as test data.

lm-eval cannot join the package's lock, so this runs in a separate environment outside the repository:

    python3 -m venv /work/envs/lmeval
    /work/envs/lmeval/bin/python -m pip install torch==2.13.0 lm-eval==0.4.13 transformers     # (the CPU wheel of torch)
    HF_DATASETS_OFFLINE=1 HF_HUB_OFFLINE=1 /work/envs/lmeval/bin/python tools/lmeval_reference.py

It imports nothing from textmetrics_edu. For each file tests/data/benchmark/<task>_<model>.jsonl (made by
tools/make_benchmark_loglikelihoods.py) it writes a task YAML (local JSON data, `output_type: multiple_choice`,
`doc_to_text: context`, `doc_to_choice: choices`, `doc_to_target: gold`, target delimiter " "), and runs
`lm_eval.simple_evaluate` with a `ReplayLM` that answers each `loglikelihood` request (context, " " + choice) with the
stored number (and `is_greedy`, False where the file has none), `log_samples=True`, `bootstrap_iters=0`-free defaults.
lm-eval's own `EvaluationTracker` writes the samples files, renamed to tests/data/benchmark/lmeval/samples_<task>.jsonl;
`results.json` keeps lm-eval's `results` dict; `table.txt` is `lm_eval.utils.make_table`'s printed table.

Then `fuzz.jsonl`: seeded random items (2-5 choices with ASCII and non-ASCII text, log-likelihoods drawn from a small
grid so that ties and equal per-character scores occur, some -inf) scored by lm-eval's own
`ConfigurableTask.process_results` (of the task above) and aggregated by `lm_eval.api.metrics.mean`, `mean_stderr`
and `brier_score`, in benchmarks of 50 items with the same number of choices.
"""
from __future__ import annotations

import json
import math
import os
import random
import shutil
import tempfile
from pathlib import Path

os.environ.setdefault('HF_DATASETS_OFFLINE', '1'); os.environ.setdefault('HF_HUB_OFFLINE', '1')
os.environ.setdefault('DISABLE_MULTIPROC', '1')

import lm_eval  # noqa: E402
from lm_eval.api.model import LM  # noqa: E402
from lm_eval.api import metrics as M  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / 'tests' / 'data' / 'benchmark'
OUT = DATA / 'lmeval'
N_FUZZ, FUZZ_BENCH, SEED = 6000, 50, 20261202


class ReplayLM(LM):
    "An lm-eval model that answers loglikelihood requests with stored numbers."
    def __init__(self, table):
        super().__init__()
        self.table = table

    def loglikelihood(self, requests, disable_tqdm: bool = False):
        return [self.table[(r.task_name, *r.args)] for r in requests]

    def loglikelihood_rolling(self, requests, disable_tqdm: bool = False): raise NotImplementedError

    def generate_until(self, requests, disable_tqdm: bool = False): raise NotImplementedError


def task_yaml(name: str, path: Path, metrics: list) -> str:
    ml = ''.join(f"  - metric: {m}\n" for m in metrics)
    return (f"task: {name}\ndataset_path: json\ndataset_kwargs:\n  data_files:\n    test: {path}\ntest_split: test\n"
            f"output_type: multiple_choice\ndoc_to_text: context\ndoc_to_choice: choices\ndoc_to_target: gold\n"
            f"target_delimiter: \" \"\nmetric_list:\n{ml}")


def fuzz_items(rng: random.Random):
    alphabet = list('abcxyz ') + ['é', 'ß', 'ü', '中', '文', '🙂', 'ø']
    grid = [0.0, -0.5, -1.0, -1.5, -2.0, -3.0, -4.0, -6.0, -8.0, -12.0]
    for b in range(N_FUZZ // FUZZ_BENCH):
        k = rng.randint(2, 5)
        for _ in range(FUZZ_BENCH):
            choices = [''.join(rng.choice(alphabet) for _ in range(rng.randint(1, 6))) for _ in range(k)]
            if rng.random() < 0.5:
                lls = [rng.choice(grid) for _ in range(k)]
            else:
                lls = [round(-rng.random() * 20, 4) for _ in range(k)]
            if rng.random() < 0.05: lls[rng.randrange(k)] = -math.inf
            if rng.random() < 0.1 and lls[0] > -math.inf:  # equal per-character scores
                lls = [lls[0] * len(c) / len(choices[0]) for c in choices]
            unc = [rng.choice(grid) - 1.0 for _ in range(k)]
            greedy = [rng.random() < 0.3 for _ in range(k)]
            yield b, {'context': 'q', 'choices': choices, 'gold': rng.randrange(k)}, lls, unc, greedy


def main():
    OUT.mkdir(parents=True, exist_ok=True)
    files = sorted(p for p in DATA.glob('*_*.jsonl'))
    table, tasks = {}, []
    tmp = Path(tempfile.mkdtemp())
    for p in files:
        rows = [json.loads(l) for l in p.read_text(encoding='utf-8').splitlines() if l.strip()]
        name = f"tme_{p.stem}"
        metrics = ['acc', 'acc_norm', 'acc_bytes', 'brier_score']
        if all('unconditional_loglikelihoods' in r for r in rows): metrics.append('acc_mutual_info')
        if all('is_greedy' in r for r in rows): metrics.append('exact_match')
        for r in rows:
            g = r.get('is_greedy') or [False] * len(r['choices'])
            for j, c in enumerate(r['choices']):
                table[(name, r['context'], ' ' + c)] = (r['loglikelihoods'][j], g[j])
                if 'unconditional_loglikelihoods' in r: table[(name, '', ' ' + c)] = (r['unconditional_loglikelihoods'][j], False)
        (tmp / f'{name}.yaml').write_text(task_yaml(name, p, metrics))
        tasks.append(name)
    from lm_eval.tasks import TaskManager
    tm = TaskManager(include_path=str(tmp))
    res = lm_eval.simple_evaluate(model=ReplayLM(table), tasks=tasks, task_manager=tm, log_samples=True)
    from lm_eval.loggers import EvaluationTracker
    from lm_eval.utils import make_table
    import logging; logging.getLogger('lm_eval').setLevel(logging.DEBUG)
    tr = EvaluationTracker(output_path=str(tmp / 'out'))
    tr.save_results_aggregated(results=res, samples=res['samples'])  # (sets the file names' date stamp)
    for t in tasks: tr.save_results_samples(task_name=t, samples=res['samples'][t])
    for f in (tmp / 'out').rglob('samples_*.jsonl'):
        t = next(t for t in tasks if f.name.startswith(f'samples_{t}_'))
        shutil.copy(f, OUT / f'samples_{t}.jsonl')
    (OUT / 'results.json').write_text(json.dumps({'results': res['results'], 'lm_eval': lm_eval.__version__ if hasattr(lm_eval, '__version__') else '0.4.13'},
                                                 indent=1, default=str) + '\n')
    tab = make_table(res)
    (OUT / 'table.txt').write_text(tab)
    print(tab)
    # fuzz: lm-eval's own process_results and aggregations
    task = tm.load_task_or_group([tasks[0]])[tasks[0]]
    rng = random.Random(SEED)
    by_bench, lines = {}, []
    for b, doc, lls, unc, greedy in fuzz_items(rng):
        use = ['acc', 'acc_norm', 'acc_bytes', 'brier_score', 'exact_match', 'acc_mutual_info']
        task._metric_fn_list = {m: None for m in use}  # process_results reads only the names
        out = task.process_results(doc, [(l, g) for l, g in zip(lls, greedy)] + [(u, False) for u in unc])
        by_bench.setdefault(b, []).append(out)
        lines.append({'bench': b, 'choices': doc['choices'], 'gold': doc['gold'], 'loglikelihoods': lls,
                      'unconditional_loglikelihoods': unc, 'is_greedy': greedy,
                      'lmeval': {k: (v if k != 'brier_score' else None) for k, v in out.items()}})
    aggs = {}
    for b, outs in by_bench.items():
        aggs[b] = {k: M.mean([o[k] for o in outs]) for k in ('acc', 'acc_norm', 'acc_bytes', 'acc_mutual_info', 'exact_match')}
        aggs[b].update({f'{k}_stderr': M.mean_stderr([o[k] for o in outs]) for k in ('acc', 'acc_norm', 'acc_bytes', 'acc_mutual_info')})
        aggs[b]['brier_score'] = float(M.brier_score([o['brier_score'] for o in outs]))
    import gzip
    text = ''.join(json.dumps(l, ensure_ascii=False) + '\n' for l in lines)  # -inf as -Infinity
    (OUT / 'fuzz.jsonl.gz').write_bytes(gzip.compress(text.encode('utf-8'), mtime=0))
    (OUT / 'fuzz_aggregates.json').write_text(json.dumps(aggs, indent=0) + '\n')
    print(len(lines), 'fuzz items in', len(aggs), 'benchmarks')


if __name__ == '__main__':
    main()
