"""Synthetic no-answer probabilities for the three v2.0 systems (none are published) and evaluate-v2.0.py's output
with them (`-n na_prob.json`, with `-t 1.0` and `-t 0.5`). Run from the scratch folder that holds slice/ and official/."""
import json, random, subprocess
preds = json.load(open('slice/predictions-v2.0.json'))
rng = random.Random(2018)
na = {}
for s, p in preds.items():
    # high where the system abstained, low elsewhere, rounded to 2 decimals so that ties occur (the script's sort is stable)
    na[s] = {q: round(min(1.0, max(0.0, (0.75 if a == '' else 0.25) + rng.gauss(0, 0.2))), 2) for q, a in p.items()}
json.dump(na, open('slice/na_probs-v2.0.json', 'w'))
out = {}
for s in preds:
    json.dump(preds[s], open('/tmp/p.json', 'w')); json.dump(na[s], open('/tmp/na.json', 'w'))
    for t in ('1.0', '0.5'):
        r = subprocess.run(['python3', 'official/evaluate-v2.0.py', 'slice/dev-v2.0-slice.json', '/tmp/p.json', '-n', '/tmp/na.json', '-t', t],
                           capture_output=True, text=True, check=True)
        out.setdefault(s, {})[t] = json.loads(r.stdout)
json.dump(out, open('script_outputs_na_prob.json', 'w'), indent=1)
