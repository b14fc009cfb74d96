"""Convert our MT-Bench votes (tests/data/judges/votes.tsv) into the two vote files FastChat's
`llm_judge/compute_agreement.py` reads: human_judgments.json and gpt4_pair_judgments.json in the current folder.

    python tools/make_fastchat_votefiles.py tests/data/judges/votes.tsv

(then run compute_agreement.py outside this repository; see tests/data/judges/README.md).
"""
import csv, json, sys
rows = list(csv.DictReader(open(sys.argv[1]), delimiter='\t'))
human = [dict(question_id=int(r['question_id']), model_a=r['model_a'], model_b=r['model_b'], winner=r['human_winner'],
              judge=r['judge'], turn=int(r['turn'])) for r in rows]
gpt = {}
for r in rows:
    k = (int(r['question_id']), r['model_a'], r['model_b'], int(r['turn']))
    assert gpt.setdefault(k, r['gpt4_pair_winner']) == r['gpt4_pair_winner']
gpt4 = [dict(question_id=k[0], model_a=k[1], model_b=k[2], turn=k[3], winner=w, judge=['gpt-4', 'pair-v2']) for k, w in gpt.items()]
json.dump(human, open('human_judgments.json', 'w'))
json.dump(gpt4, open('gpt4_pair_judgments.json', 'w'))
print(len(human), 'human votes,', len(gpt4), 'gpt-4 pair verdicts')
