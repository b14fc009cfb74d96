"""The strings lm-evaluation-harness 0.4.13 scores for one multiple-choice item, zero-shot and two-shot, stored as test data.

    HF_DATASETS_OFFLINE=1 /work/envs/lmeval/bin/python tools/lmeval_request_reference.py   (the venv of tools/lmeval_reference.py)

A local task over the first 5 HellaSwag items of tests/data/benchmark/hellaswag_gpt2.jsonl (`doc_to_text: context`,
`doc_to_choice: choices`, `doc_to_target: gold`, `target_delimiter: " "`, `fewshot_delimiter: "\\n\\n"`, few-shot
examples from the same split with the `first_n` sampler); `ConfigurableTask.build_all_requests` builds the
`loglikelihood` requests, and the (context, continuation) arguments of item 4's requests go to
tests/data/benchmark/lmeval/requests.json, with num_fewshot 0 and 2.
"""
import json
import os
import tempfile
from pathlib import Path

os.environ.setdefault('HF_DATASETS_OFFLINE', '1'); os.environ.setdefault('HF_HUB_OFFLINE', '1')
from lm_eval.tasks import TaskManager  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
D = ROOT / 'tests' / 'data' / 'benchmark'
tmp = Path(tempfile.mkdtemp())
(tmp / 'items.jsonl').write_text(''.join((D / 'hellaswag_gpt2.jsonl').read_text(encoding='utf-8').splitlines(True)[:5]),
                                 encoding='utf-8')
out = {'lm_eval': '0.4.13', 'doc_id': 4, 'target_delimiter': ' ', 'fewshot_delimiter': '\n\n', 'sampler': 'first_n'}
for k in (0, 2):
    name = f'tme_request_{k}shot'
    (tmp / f'{name}.yaml').write_text(
        f"task: {name}\ndataset_path: json\ndataset_kwargs:\n  data_files:\n    test: {tmp / 'items.jsonl'}\n"
        "test_split: test\nfewshot_split: test\nfewshot_config:\n  sampler: first_n\noutput_type: multiple_choice\n"
        "doc_to_text: context\ndoc_to_choice: choices\ndoc_to_target: gold\ntarget_delimiter: \" \"\n"
        f"fewshot_delimiter: \"\\n\\n\"\nnum_fewshot: {k}\nmetric_list:\n  - metric: acc\n")
    task = TaskManager(include_path=str(tmp)).load_task_or_group([name])[name]
    task.build_all_requests(limit=None, rank=0, world_size=1)
    out[f'{k}shot'] = [list(i.args) for i in task.instances if i.doc_id == 4]
(D / 'lmeval' / 'requests.json').write_text(json.dumps(out, indent=1, ensure_ascii=False) + '\n', encoding='utf-8')
print(json.dumps(out, indent=1)[:1500])
