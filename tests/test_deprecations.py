"""Every deprecated spelling of the package, each tested once, here: it still works, it warns with the package's
`TextmetricsDeprecationWarning` (`pytest.deprecated_call`), and it gives what the current spelling gives. The old
option names are read from the registry (`Option.aliases` of every registered metric), so a new alias is tested
without being listed here. Everywhere else (tests, notebooks, renderers, explorers) only current names are used:
pyproject.toml turns the package's own deprecation warnings into errors."""
from contextlib import contextmanager

import pytest

from textmetrics_edu.core import METRICS, MetricInputError, TextmetricsDeprecationWarning, discover_metrics

H = ['The cat sat on the mat today', 'A quick brown fox jumps over the dog', 'Hello there my good friend']
R = ['the cat sat on the mat today', 'the quick brown fox jumps over the lazy dog', 'hello there my dear friend']


@contextmanager
def deprecated(match=None):
    """`pytest.deprecated_call`, and every deprecation it caught is the package's own class (other warnings, such as a
    ResourceWarning of an earlier test's kernel collected meanwhile, are not the call's)."""
    with pytest.deprecated_call(match=match) as rec: yield rec
    dep = [w for w in rec.list if issubclass(w.category, DeprecationWarning)]
    assert dep and all(issubclass(w.category, TextmetricsDeprecationWarning) for w in dep), \
        [(w.category, str(w.message)) for w in rec.list]


def _old_spellings():
    "(metric, option, old name, convert) for every old spelling of a registered metric's option, once per option."
    discover_metrics()
    seen, out = set(), []
    for name, spec in sorted(METRICS.items()):
        for o in (spec.metric.options if spec.metric is not None else ()):
            for a in o.aliases:
                old, conv = (a, None) if isinstance(a, str) else a
                if (id(o), old) in seen: continue  # a family sharing its options (rouge1 ... rougeSU): tested once
                seen.add((id(o), old))
                out.append(pytest.param(name, o, old, conv, id=f'{name}-{old}'))
    return out


OLD_SPELLINGS = _old_spellings()


def test_the_registry_declares_the_known_old_spellings():
    "The registry-derived list below is not empty by accident (a renamed attribute would make it so)."
    assert {p.id for p in OLD_SPELLINGS} >= {'bleu-tokenizer', 'bleu-case_sensitive', 'rouge1-use_stemmer',
                                             'rouge1-tokenizer', 'ter-case_sensitive'}


@pytest.mark.parametrize('metric, option, old, conv', OLD_SPELLINGS)
def test_option_old_spelling(metric, option, old, conv):
    "An old option name: a deprecation warning, then the score and signature of the current name with the value converted."
    spec = METRICS[metric]
    fx = {}  # (the registered functions carry their fixed options, e.g. ROUGE's rouge_type)
    candidates = [True, False] if option.type is bool else list(option.choices or ())
    value = next(v for v in candidates if (conv(v) if conv else v) != option.default)  # a value that changes something
    new = conv(value) if conv else value
    with deprecated(match=f'`{old}` is deprecated, use `{option.name}`'):
        res = spec.corpus_fn(H, R, **{old: value}, **fx)
    cur = spec.corpus_fn(H, R, **{option.name: new}, **fx)
    assert float(res) == float(cur) and res.signature == cur.signature
    if spec.sentence_fn is not None:
        with deprecated(): s = spec.sentence_fn(H[0], R[0], **{old: value}, **fx)
        assert float(s) == float(spec.sentence_fn(H[0], R[0], **{option.name: new}, **fx))
    with pytest.raises(MetricInputError, match='not both'): spec.corpus_fn(H, R, **{old: value, option.name: new}, **fx)
    if option.choices and conv is None:  # a bad value: the error names the option as the caller spelled it
        with deprecated(), pytest.raises(MetricInputError, match=f'`{old}`'): spec.corpus_fn(H, R, **{old: 'x'}, **fx)



def test_cli_shared_flags_are_gone(tmp_path, capsys):
    "The shared flags of earlier versions (`--ter-case-sensitive`, `--beta`, ...) were removed before the first release."
    from textmetrics_edu.app.cli import main
    (tmp_path / 'h.txt').write_text('\n'.join(H) + '\n'); (tmp_path / 'r.txt').write_text('\n'.join(R) + '\n')
    for flag in ('--ter-case-sensitive', '--smooth-method', '--beta'):
        with pytest.raises(SystemExit): main(['score', str(tmp_path / 'h.txt'), '-r', str(tmp_path / 'r.txt'), '-m', 'ter', flag])
        assert f'unrecognized arguments: {flag}' in capsys.readouterr().err


