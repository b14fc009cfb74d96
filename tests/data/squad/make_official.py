"""Run the official SQuAD evaluation scripts' functions (v1.1, v2.0; kept outside the repository) on the shipped slice
and on the seeded fuzz cases; write the outputs the tests compare against."""
import gzip, importlib.util, json, sys
sys.path.insert(0, '/work/wt-task/tests/data/squad')
from fuzz_cases import cases

def load(path, name):
    spec = importlib.util.spec_from_file_location(name, path); m = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(m); return m

v11 = load('official/evaluate-v1.1.py', 'ev11'); v20 = load('official/evaluate-v2.0.py', 'ev20')
out = {'fuzz_seed': 20161, 'fuzz_n': 6000}
cs = cases(6000, 20161)
out['fuzz_v1.1'] = [[int(v11.metric_max_over_ground_truths(v11.exact_match_score, p, g)),
                     v11.metric_max_over_ground_truths(v11.f1_score, p, g)] for p, g in cs]
ds = [{'paragraphs': [{'qas': [{'id': str(i), 'answers': [{'text': t} for t in g]} for i, (p, g) in enumerate(cs)]}]}]
ex, f1 = v20.get_raw_scores(ds, {str(i): p for i, (p, g) in enumerate(cs)})
out['fuzz_v2.0'] = [[ex[str(i)], f1[str(i)]] for i in range(len(cs))]
# real data: per-question (exact, f1) of every system, in dataset order
for ver, mod in (('1.1', v11), ('2.0', v20)):
    d = json.load(open(f'slice/dev-v{ver}-slice.json'))['data']
    preds = json.load(open(f'slice/predictions-v{ver}.json'))
    qs = [q for a in d for p in a['paragraphs'] for q in p['qas']]
    per = {}
    for s, pr in preds.items():
        if ver == '1.1':
            per[s] = [[int(mod.metric_max_over_ground_truths(mod.exact_match_score, pr[q['id']], [a['text'] for a in q['answers']])),
                       mod.metric_max_over_ground_truths(mod.f1_score, pr[q['id']], [a['text'] for a in q['answers']])] for q in qs]
        else:
            e, f = mod.get_raw_scores(d, pr)
            per[s] = [[e[q['id']], f[q['id']]] for q in qs]
    out[f'real_v{ver}'] = per
with gzip.open('official_outputs.json.gz', 'wt', encoding='utf-8') as fh: json.dump(out, fh)
print('ok', sum(a != b for a, b in zip(out['fuzz_v1.1'], out['fuzz_v2.0'])), 'fuzz cases where v1.1 and v2.0 differ')
