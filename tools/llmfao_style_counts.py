"""Style counts (words, markdown headers, list items, bold spans) of every LLMFAO answer the comparisons use.

    .venv/bin/python tools/llmfao_style_counts.py /work/shared/data/llm/preferences/llmfao/results.jsonl \
        > tests/data/preferences/llmfao/style_counts.csv

results.jsonl (716 KB, the answers) stays out of the repository; the counts (`stats.preferences.markdown_counts`) are
what the style-control lesson and tests need. Columns: prompt, model (ids of crowd-comparisons.csv), tokens, headers,
lists, bold."""
import csv, json, sys
from pathlib import Path

from textmetrics_edu.stats.preferences import STYLE_ELEMENTS, markdown_counts

ROOT = Path(__file__).resolve().parent.parent
used = set()
for row in csv.DictReader(open(ROOT / 'tests/data/preferences/llmfao/crowd-comparisons.csv')):
    used |= {(row['prompt'], row['model_x']), (row['prompt'], row['model_y'])}
out = csv.writer(sys.stdout, lineterminator='\n')
out.writerow(['prompt', 'model', *STYLE_ELEMENTS])
rows = {}
for line in open(sys.argv[1]):
    r = json.loads(line)
    key = (str(r['prompt']), str(r['model']))
    if key in used: rows[key] = markdown_counts(r['result'] or '')
missing = used - set(rows)
if missing: sys.exit(f"answers missing for {sorted(missing)[:5]}")
for key in sorted(rows, key=lambda k: (int(k[0]), int(k[1]))):
    out.writerow([*key, *(rows[key][e] for e in STYLE_ELEMENTS)])
