"""The comet_minilm explorer's data: textmetrics_edu/data/models/comet_minilm_explorer.json.

    nice -n 10 .venv/bin/python tools/make_learned_metric_explorer_data.py

Six WMT22 ru-en translations (tests/data): the three segments of the first 300 where the raters and sentence chrF
disagree most (the lesson's opening example first), both translations of each. For each: the texts, the DA z, sentence
chrF, comet_minilm's score (the package), and each feature block's contribution to the regressor's first layer
(W0[block] applied to the block, 6 decimals); plus b0 and the regressor's later layers. The browser recomputes the
score from these in pure Python (views.comet_minilm.regressor_from_blocks)."""
import csv
import json
from pathlib import Path


from textmetrics_edu.metrics.chrf import sentence_chrf
from textmetrics_edu.models.comet_minilm import comet_features, comet_minilm_scores, layer_embeddings, load_estimator, mix_layers, weights_id

ROOT = Path(__file__).resolve().parent.parent
RU = ROOT / 'tests' / 'data' / 'mt' / 'wmt22_ru-en_da'
ref = (RU / 'ref.A.en').read_text(encoding='utf-8').split('\n')[:-1]
sys_ = {p.stem: p.read_text(encoding='utf-8').split('\n')[:-1] for p in sorted((RU / 'sys').glob('*.en'))}
rows = [r for r in csv.DictReader(open(RU / 'seg_scores_first300.tsv', encoding='utf-8'), delimiter='\t') if r['da_z']]
by = {}
for r in rows: by.setdefault(int(r['line']), []).append(r)
fails = []
for line, rs in by.items():
    for a in rs:
        for b in rs:
            dz, dc = float(a['da_z']) - float(b['da_z']), float(a['chrf']) - float(b['chrf'])
            if dz > 1.0 and dc < -15: fails.append((dz - dc / 20, line, a, b))
fails.sort(key=lambda f: (-f[0], f[1]))
picked, seen = [], set()
for _, line, a, b in fails:
    if line in seen: continue
    seen.add(line); picked += [a, b]
    if len(seen) == 3: break
est = load_estimator()
d = est.weights[0].shape[0] // 4
W0 = est.weights[0]
pairs = []
for r in picked:
    h, rf = sys_[r['system']][int(r['line']) - 1], ref[int(r['line']) - 1]
    E = layer_embeddings([h, rf])
    H, R = mix_layers(E[:1], est), mix_layers(E[1:], est)
    x = comet_features(H, R)[0]
    blocks = {g: [round(float(v), 6) for v in x[k * d:(k + 1) * d] @ W0[k * d:(k + 1) * d]]
              for k, g in enumerate(('h', 'r', 'h*r', '|h-r|'))}
    pairs.append(dict(name=f"ru-en line {r['line']}, {r['system']} (z {float(r['da_z']):+.2f})", system=r['system'],
                      line=int(r['line']), hyp=h, ref=rf, human_z=float(r['da_z']), chrf=sentence_chrf(h, rf).score,
                      package=comet_minilm_scores([h], [rf])[0], blocks=blocks))
later = [([[round(float(v), 7) for v in row] for row in W], [round(float(v), 7) for v in b])
         for W, b in zip(est.weights[1:], est.biases[1:])]
out = dict(weights_id=weights_id(est), b0=[round(float(v), 7) for v in est.biases[0]], later=later, pairs=pairs)
(ROOT / 'textmetrics_edu' / 'data' / 'models' / 'comet_minilm_explorer.json').write_text(json.dumps(out) + '\n', encoding='utf-8')
print(len(pairs), 'pairs')
