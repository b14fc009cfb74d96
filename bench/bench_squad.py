"""Benchmark (not a test): SQuAD EM/F1 against the official evaluate-v2.0.py's functions, in the same run, on the
shipped slice (626 questions x 3 leaderboard systems, tests/data/squad). The official script is not committed: pass
its path (`--script /path/to/evaluate-v2.0.py`, see tests/data/squad/README.md); without it the bench times ours alone.
Both sides compute the script's printed dict for each system (ours: `squad_evaluate(...).official()`). Prints CPU seconds of each side (`time.process_time`, best of the repeats) and the ratio ours/theirs; both sides'
outputs are checked equal first.

    .venv/bin/python bench/bench_squad.py --script /work/scratch-task/squad/official/evaluate-v2.0.py [--repeats 5]
"""
import argparse
import importlib.util
import json
from pathlib import Path

from textmetrics_edu.metrics.squad import squad_evaluate
from timing import best  # noqa: E402  (bench/timing.py)

D = Path(__file__).resolve().parent.parent / 'tests' / 'data' / 'squad'


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--script', help='path of the official evaluate-v2.0.py (kept outside the repository)')
    ap.add_argument('--repeats', type=int, default=5)
    a = ap.parse_args()
    data = json.loads((D / 'dev-v2.0-slice.json').read_text())
    preds = json.loads((D / 'predictions-v2.0.json').read_text())
    ours = lambda: [squad_evaluate(data, p).official() for p in preds.values()]
    t_ours = best(ours, a.repeats)
    if not a.script:
        print(f"ours {t_ours:.4f} s (3 systems x 626 questions); give --script for the ratio"); return
    spec = importlib.util.spec_from_file_location('ev20', a.script); ev = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(ev)
    def theirs():
        out = []
        for p in preds.values():
            has = ev.make_qid_to_has_ans(data['data'])
            e, f = ev.get_raw_scores(data['data'], p)
            o = ev.make_eval_dict(e, f)
            ev.merge_eval(o, ev.make_eval_dict(e, f, qid_list=[k for k, v in has.items() if v]), 'HasAns')
            ev.merge_eval(o, ev.make_eval_dict(e, f, qid_list=[k for k, v in has.items() if not v]), 'NoAns')
            out.append(dict(o))
        return out
    assert ours() == theirs()
    t_theirs = best(theirs, a.repeats)
    print(f"SQuAD v2.0, 3 systems x 626 questions: ours {t_ours:.4f} s, evaluate-v2.0.py {t_theirs:.4f} s, "
          f"ratio ours/theirs {t_ours / t_theirs:.2f}")


if __name__ == '__main__':
    main()
