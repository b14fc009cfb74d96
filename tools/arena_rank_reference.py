"""arena-rank 0.1.1's Bradley-Terry ratings and sandwich variances on the LLMFAO crowd battles, stored as test data:
tests/data/preferences/arena_rank_llmfao.json. arena-rank pins numpy 2.3.3 and jax 0.8.1, so it runs in its own venv:

    python3 -m venv /work/envs/arena && /work/envs/arena/bin/pip install arena-rank==0.1.1
    .venv/bin/python -c "import json; from textmetrics_edu.stats.preferences import read_battles, battles_records; \
json.dump([dict(model_a=a, model_b=b, winner=w) for a, b, w in battles_records(read_battles( \
'tests/data/preferences/llmfao/crowd-comparisons.csv'))], open('/tmp/llmfao_battles.json', 'w'))"
    /work/envs/arena/bin/python tools/arena_rank_reference.py /tmp/llmfao_battles.json tests/data/preferences/arena_rank_llmfao.json

(winner: model_a, model_b or tie, which arena-rank maps to 1, 0 and 0.5). tests/test_preferences.py compares.
"""
import json
import sys
from importlib.metadata import version

import pandas as pd
from arena_rank.models.bradley_terry import BradleyTerry
from arena_rank.utils.data_utils import PairDataset

src, dst = sys.argv[1:3]
df = pd.DataFrame(json.load(open(src)))
ds = PairDataset.from_pandas(df)
res = BradleyTerry(n_competitors=ds.n_competitors, init_rating=1000.0).compute_ratings_and_cis(ds, significance_level=0.05)
out = {'versions': {k: version(k) for k in ('arena-rank', 'jax', 'numpy')}, 'init_rating': 1000.0,
       'competitors': list(ds.competitors), **{k: [float(x) for x in v] for k, v in res.items() if k != 'competitors'}}
json.dump(out, open(dst, 'w'), indent=1)
print(f'wrote {dst}: {len(out["competitors"])} models')
