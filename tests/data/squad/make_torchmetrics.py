"""torchmetrics SQuAD (scratch venv: torch 2.13.0+cpu, torchmetrics 1.9.0) on the fuzz cases and on the v1.1 slice."""
import gzip, json, sys
sys.path.insert(0, '/work/wt-task/tests/data/squad')
import torch, torchmetrics
from torchmetrics.functional.text import squad
from torchmetrics.text import SQuAD
from fuzz_cases import cases

def one(p, golds, qid='q'):
    r = squad([{'prediction_text': p, 'id': qid}], [{'answers': {'answer_start': [0] * len(golds), 'text': golds}, 'id': qid}])
    return [r['exact_match'].item(), r['f1'].item()]   # x100, float32 tensors as Python floats

out = {'torch': torch.__version__, 'torchmetrics': torchmetrics.__version__, 'fuzz_seed': 20161, 'fuzz_n': 6000}
out['fuzz'] = [one(p, g) for p, g in cases(6000, 20161)]
d = json.load(open('slice/dev-v1.1-slice.json'))['data']
qs = [q for a in d for p in a['paragraphs'] for q in p['qas']]
preds = json.load(open('slice/predictions-v1.1.json'))
out['real_v1.1'] = {}
for s, pr in preds.items():
    m = SQuAD()
    m.update([{'prediction_text': pr[q['id']], 'id': q['id']} for q in qs],
             [{'answers': {'answer_start': [a['answer_start'] for a in q['answers']], 'text': [a['text'] for a in q['answers']]}, 'id': q['id']} for q in qs])
    r = m.compute()
    out['real_v1.1'][s] = {'exact_match': r['exact_match'].item(), 'f1': r['f1'].item()}
with gzip.open('torchmetrics_outputs.json.gz', 'wt', encoding='utf-8') as fh: json.dump(out, fh)
print(out['real_v1.1'])
