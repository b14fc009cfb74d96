# The two commands of the README:
#   make docs   the main job: environment, install, export, execute every notebook, build the site into _docs/
#   make test   the tests: execute every notebook (its assertions are the lesson's checks) while building _docs/,
#               then pytest tests/ (conformance on a representative real-data slice, properties, CLI, and the built
#               site in headless Chromium); under 10 minutes on a 2-core machine. With `quarto` on PATH both build
#               (and test) the Quarto site instead of the static one: `PATH=<quarto>/bin:$PATH make test`
# and, for CI:
#   make test-slow  the exhaustive sweeps deselected by `make test` (tests marked slow: all systems, all references,
#               every option combination), `pytest tests --slow -m slow`
# The environment (.venv) installs from the committed lock `requirements-dev.lock` (exact versions, as pip constraints),
# so a new upstream release cannot change what these commands run; the library's own requirements stay ranges.
#   make lock         regenerate the lock: the newest releases settings.ini's ranges allow (tools/lock.py)
#   make test-latest  the tests in a separate venv (.venv-latest) with the newest releases, after a list of what drifted
#                     from the lock; run it before resolving an issue (it does not block landing)
SHELL := /bin/bash
PYTHON ?= python3
VENV ?= .venv
# Python caches the bytecode of what it imports (in .venv and the checkout's __pycache__/, which git ignores) even
# where the calling environment says not to: otherwise every kernel and test process compiles torch, transformers,
# scikit-learn ... again from source (~25 s of imports instead of ~10 s, in each of them).
unexport PYTHONDONTWRITEBYTECODE
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
LOCK := requirements-dev.lock
# The constraints the venv is installed with: the lock, or none (LOCKED= : the newest releases; lock, test-latest).
# PIP_CONSTRAINT, not -c: pip passes it on to the isolated build environments of packages built from source too.
LOCKED ?= $(LOCK)
PIP_ENV = $(if $(LOCKED),PIP_CONSTRAINT=$(abspath $(LOCKED)))
NOW = $$(date +%s)

.PHONY: docs test test-slow test-latest lock setup system-deps export hooks readme lint clean help

help:
	@echo "make docs   build the documentation site into _docs/ (installs everything first)"
	@echo "make test   execute every notebook (building the site) and run pytest (installs everything first)"
	@echo "make test-slow  the exhaustive real-data sweeps (tests marked slow; CI runs it after make test)"
	@echo "make lock   regenerate requirements-dev.lock (the newest releases settings.ini allows)"
	@echo "make test-latest  what drifted from the lock, then the tests with the newest releases (.venv-latest)"

# pip's own output goes to $(VENV)/install.log, shown only when the install fails: a good install is one line. (That log
# holds what is not ours to fix: setuptools' note on editable installs of a flat layout, and warnings of this machine's
# pip configuration about local index folders.) --no-compile: pip would byte-compile all 20,000 modules of the
# environment one at a time (~70 s of a fresh clone's install here); Python compiles the few thousand that are
# imported, once, when they are first imported, and caches them (below).
$(STAMP): settings.ini setup.py $(LOCKED)
	@t0=$(NOW); echo "installing the environment into $(VENV) ($(if $(LOCKED),from $(LOCKED),newest releases))"; \
	  test -x $(PY) || $(PYTHON) -m venv $(VENV) || exit 1; \
	  log=$(VENV)/install.log; \
	  { $(PIP_ENV) $(PY) -m pip install --upgrade pip setuptools wheel && \
	    $(PIP_ENV) $(PY) -m pip install --no-compile -e ".[dev]"; } > $$log 2>&1 \
	  || { tail -40 $$log; echo "install failed: see $$log"; exit 1; }; \
	  touch $(STAMP); echo "installed in $$(( $(NOW) - t0 )) s (pip's log: $$log)"

# A fresh venv with the newest releases, written to the lock
lock:
	rm -rf .venv-lock
	$(MAKE) --no-print-directory .venv-lock/.installed VENV=.venv-lock LOCKED=
	.venv-lock/bin/python tools/lock.py write .venv-lock $(LOCK)
	rm -rf .venv-lock

# The same fresh install in .venv-latest, what differs from the lock, then the tests there (exit status: the tests')
test-latest:
	rm -rf .venv-latest
	$(MAKE) --no-print-directory .venv-latest/.installed VENV=.venv-latest LOCKED=
	.venv-latest/bin/python tools/lock.py diff .venv-latest $(LOCK)
	$(MAKE) --no-print-directory test VENV=.venv-latest LOCKED=

system-deps:
	bash tools/install-system-deps.sh

# The one export command. tools/export.py, not a bare nbdev_export: a notebook's cells go to the modules of their roles
# (`#| export views.bleu`), which nbdev 2 appends to the routed module's file (nbdev issue #742), so a bare
# nbdev_export duplicates routed cells on every run (see the script)
export: $(STAMP)
	$(PY) tools/export.py

# Notebooks are committed without outputs. (1) JupyterLab saves them cleaned: nbdev's pre-save hook (settings.ini:
# jupyter_hooks, clear_all), configured for this environment's Jupyter only (.venv/etc/jupyter, tools/jupyter_hooks.py).
# (2) Git's clean filter (.gitattributes, tools/nb_clean_filter.py) strips whatever another editor leaves from
# `git diff` and commits. Nothing is added to the venv's start-up: the package is exported by `make export` only.
hooks: $(STAMP)
	@$(PY) tools/jupyter_hooks.py >/dev/null
	@if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then \
	  git config filter.nbclean.clean 'python3 tools/nb_clean_filter.py' && git config filter.nbclean.smudge cat; fi
	@echo 'notebooks are saved and committed without outputs (Jupyter pre-save hook, git filter nbclean)'

setup: $(STAMP) system-deps export hooks

docs: setup
	$(PY) tools/build_site.py

# The notebooks are executed once, by the site build (a cell that raises fails it, as under nbdev_test), and the
# browser tests then use that fresh _docs/ instead of executing every notebook a second time.
# pytest-xdist (dev requirement): one pytest worker per core, each test file whole in one worker (module fixtures and
# the precomputed tool outputs are not duplicated), one Chromium per worker. Without it pytest runs in one process.
XDIST = $(shell $(PY) -c 'import xdist' 2>/dev/null && echo '-n 2 --dist loadfile')

test: setup lint
	@t0=$(NOW); $(PY) tools/build_site.py --no-export || exit $$?; t1=$(NOW); \
	  $(PY) -m pytest tests -q -p no:cacheprovider $(XDIST) --durations=15; rc=$$?; \
	  echo "make test: the site (every notebook executed) $$(( t1 - t0 )) s, pytest $$(( $(NOW) - t1 )) s, exit $$rc"; exit $$rc

# Unused imports and undefined names in the package (from its notebooks), tests, tools and benchmarks: pyproject.toml's
# [tool.ruff]; then undefined names in the notebooks themselves (tools/lint_notebooks.py). A few seconds; `make test`
# runs it first. A finding in textmetrics_edu/ is fixed in its notebook, then `make export`.
lint: $(STAMP)
	$(PY) -m ruff check --no-cache .
	$(PY) tools/lint_notebooks.py

# The sweeps `make test` leaves out (tests/conftest.py: `--slow`, marker `slow`). No site build: none of them is a browser test.
test-slow: setup
	$(PY) -m pytest tests -q -p no:cacheprovider $(XDIST) --durations=15 --slow -m slow

readme: setup
	$(PY) tools/make_readme.py

clean:
	rm -rf _docs _proc _proc_course _proc_quarto build dist *.egg-info .venv-latest .venv-lock
