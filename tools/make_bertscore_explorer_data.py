"""The BERTScore explorer's precomputed data: textmetrics_edu/data/models/bertscore_explorer.json.

    PYTHONPATH=. .venv/bin/python tools/make_bertscore_explorer_data.py

Four fixed pairs (the lesson's example, two WMT22 en-de segments: line 15 and 21 of tests/data/mt/wmt22_en-de,
Online-B against reference A, and an English paraphrase); for each: the WordPiece tokens of candidate and reference
([CLS] and [SEP] included), the cosine-similarity matrix of all-MiniLM-L6-v2's layer-6 token embeddings (float32
values written with 7 significant digits), the tokens' idf weights (bert-score 0.3.13's log((M+1)/(df+1)), over the
English sources `src.en` (2,037 lines) for English pairs, over the German references `ref.A.de` for German pairs),
our baseline (`textmetrics_edu/data/models/bertscore_baseline_*.tsv`, layer 6) and the package's P, R, F for each
setting (tested equal to what the explorer recomputes from the stored matrix). The explorer runs no model.
"""
import json
from pathlib import Path

from textmetrics_edu.models.bertscore import (baseline, bertscore_pairs, cosine_similarity_matrix, idf_table,
                                              token_weights)
from textmetrics_edu.models.encoder import encode_ids, load_encoder, token_embeddings, wordpieces

ROOT = Path(__file__).resolve().parent.parent
D = ROOT / 'tests' / 'data' / 'mt' / 'wmt22_en-de'


def line(f, i): return (D / f).read_text(encoding='utf-8').split('\n')[i - 1]


PAIRS = [('the lesson: a cat on the mat', 'en', 'A cat was sitting on the mat.', 'The cat sat on the mat.'),
         ('WMT22 en-de #15 (Online-B)', 'de', line('sys/Online-B.de', 15), line('ref.A.de', 15)),
         ('WMT22 en-de #21 (Online-B)', 'de', line('sys/Online-B.de', 21), line('ref.A.de', 21)),
         ('a paraphrase', 'en', 'The weather in Paris was warm and sunny for the whole week.', 'Paris was sunny all week.')]
IDF_CORPUS = {'en': 'src.en', 'de': 'ref.A.de'}


def main():
    enc = load_encoder(None, 6)
    corpora = {lang: [l for l in (D / f).read_text(encoding='utf-8').split('\n') if l] for lang, f in IDF_CORPUS.items()}
    tables = {lang: idf_table(c, enc) for lang, c in corpora.items()}
    out = {'model': 'all-MiniLM-L6-v2', 'layer': 6, 'made_by': 'tools/make_bertscore_explorer_data.py',
           'idf_corpus': {lang: f"tests/data/mt/wmt22_en-de/{f} ({len(corpora[lang])} lines)" for lang, f in IDF_CORPUS.items()},
           'baseline': {lang: list(baseline(lang, 6)) for lang in ('en', 'de')}, 'pairs': []}
    for name, lang, h, r in PAIRS:
        eh, er = token_embeddings([h, r], enc)
        sim = cosine_similarity_matrix(eh, er)
        ih, ir = encode_ids(h, enc), encode_ids(r, enc)
        package = {}
        for idf in (False, True):
            for resc in (False, True):
                # the package's numbers: idf over the pair's corpus, as the explorer uses it
                t = tables[lang] if idf else None
                from textmetrics_edu.models.bertscore import greedy_match, rescale
                prf = greedy_match(sim, token_weights(ih, enc.special_ids, t), token_weights(ir, enc.special_ids, t))
                if resc: prf = tuple(rescale(x, b) for x, b in zip(prf, baseline(lang, 6)))
                package[f"idf={int(idf)},rescale={int(resc)}"] = list(prf)
        assert abs(package['idf=0,rescale=0'][2] - bertscore_pairs([h], [(r,)])[0][2]) < 1e-6
        out['pairs'].append({'name': name, 'lang': lang, 'hyp': h, 'ref': r,
                             'hyp_tokens': wordpieces(h, enc), 'ref_tokens': wordpieces(r, enc),
                             'sim': [[float(f"{x:.7g}") for x in row] for row in sim.tolist()],
                             'hyp_idf': token_weights(ih, enc.special_ids, tables[lang]),
                             'ref_idf': token_weights(ir, enc.special_ids, tables[lang]),
                             'package': package})
    p = ROOT / 'textmetrics_edu' / 'data' / 'models' / 'bertscore_explorer.json'
    p.write_text(json.dumps(out, ensure_ascii=False, indent=0) + '\n', encoding='utf-8')
    print(p, p.stat().st_size, 'bytes')


if __name__ == '__main__':
    main()
