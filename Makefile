# Two commands do everything (see README.md):
#   make lab    set up .venv and open the course in JupyterLab (on README.md; PORT=, NO_BROWSER=1, LANG=zh)
#   make test   set up .venv and run every test (unit tests, notebooks through nbval, hygiene checks, and the
#               end-to-end tests: hub, autograder, lab, site/slides, Dask, the explorers in headless Chromium)
# While working (CONTRIBUTING.md, "Which tests to run"):
#   make check  ruff + the fast tests + the English chapters through nbval (a few minutes; no e2e tests)
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed-stamp
PYTEST_ARGS ?=
# LANG=zh (or en) on make's command line picks the course's language (make lab, make classroom). LANG is also the
# locale's variable, and make hands command-line variables to every command it runs: there it becomes C.UTF-8
# (a locale every machine has), not the invalid locale "zh".
COURSE_LANG := $(LANG)
ifneq ($(filter zh en,$(LANG)),)
override LANG := C.UTF-8
endif

# The settings under which stored notebook outputs are generated and checked (scripts/regen_notebooks.py uses them too).
export PYTHONHASHSEED := 0
export OMP_NUM_THREADS := 1
export OPENBLAS_NUM_THREADS := 1
export MKL_NUM_THREADS := 1
export IPYKERNEL_CELL_NAME := <IPY-INPUT>
export PYDEVD_DISABLE_FILE_VALIDATION := 1
# Python writes a module's bytecode the first time it is imported, even where the machine sets
# PYTHONDONTWRITEBYTECODE (CI does): the install compiles nothing (scripts/pip_install.sh), so without this every
# process would compile NumPy, SciPy and scikit-learn again. The set-up writes what kernels and sandboxed grading
# runs import (scripts/warm_imports.py); the sandbox itself cannot write.
export PYTHONDONTWRITEBYTECODE :=

.PHONY: bench-browser setup lab hub test check lint unit notebooks browser chromium verify regen bench clean release classroom sandbox autograde slides site translate translate-update translate-status

setup: $(STAMP)
	@bash scripts/install_git_filters.sh $(BIN)/python
	@# The course's own modules as bytecode, kept current (an unchanged module costs nothing; .gitignore keeps
	@# them out): kernels and sandboxed grading runs import evallib without compiling it (scripts/pip_install.sh).
	@$(BIN)/python -m compileall -q evallib scripts >/dev/null

# The venv with the extras $(1) (uv when it can be had: several times faster, bench/RESULTS.md "Set-up time"; else
# pip: scripts/pip_install.sh), then matplotlib's font cache and the bytecode of what kernels import (built now,
# not inside a notebook's first cell or in every sandboxed grading run: scripts/warm_imports.py).
define install
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	bash scripts/pip_install.sh $(BIN) -e ".[$(1)]"
	$(BIN)/python -m scripts.warm_imports
endef

$(STAMP): pyproject.toml
	$(call install,test)
	@touch $(STAMP)

# make lab [PORT=8888] [NO_BROWSER=1] [LANG=zh]: JupyterLab on the whole course, opening on README.md rendered
# (README.zh-CN.md with LANG=zh), which links every chapter and exercise set; the printed URL opens it too. The file
# browser shows the course (README, notebooks/, exercises/, apps/, evallib/, docs/): build and packaging folders are
# hidden by .jupyter/jupyter_server_config.json. Settings from .jupyter/ in this repository (no news pop-up,
# Markdown opens rendered). NO_BROWSER=1 on a headless machine: open the printed URL. As root it adds --allow-root.
PORT ?= 8888
LAB_PAGE = $(if $(filter zh,$(COURSE_LANG)),README.zh-CN.md,README.md)
lab: setup
	JUPYTER_CONFIG_PATH="$(CURDIR)/.jupyter$${JUPYTER_CONFIG_PATH:+:$$JUPYTER_CONFIG_PATH}" $(BIN)/jupyter lab --ServerApp.root_dir="$(CURDIR)" \
		--LabApp.app_settings_dir="$(CURDIR)/.jupyter/lab/settings" --ServerApp.port=$(PORT) \
		--LabApp.default_url=/lab/tree/$(LAB_PAGE) \
		$(if $(NO_BROWSER),--no-browser) $(if $(filter 0,$(shell id -u)),--allow-root)

# JupyterHub, nbgitpuller, Dask (the classroom extra): make test runs the hub and Dask tests, make lab needs none of it.
# On a fresh clone it installs everything at once (one resolution, one bytecode pass) and counts as `setup` too.
CLASSROOM := $(VENV)/.classroom-stamp
ALL_EXTRAS := test,classroom
$(CLASSROOM): pyproject.toml
	$(call install,$(ALL_EXTRAS))
	@touch $(STAMP) $(CLASSROOM)

# Everything (CI: .ci/run). The Chinese chapters' translated cells run again in Chinese in the English chapters'
# nbval kernels (conftest.py); `pytest --lf` re-runs only what failed last time (the cache is .pytest_cache/).
test: $(CLASSROOM) setup verify chromium sandbox
	$(BIN)/python -m pytest -n 2 --dist loadfile --no-loadscope-reorder tests notebooks --nbval --nbval-current-env \
		--nbval-cell-timeout=300 $(PYTEST_ARGS)

# The working loop: lint, format check, every test but the end-to-end ones (marker e2e, tests/conftest.py), and
# the English chapters through nbval. PYTEST_ARGS="--lf" re-runs the last failures; -x stops at the first.
check: setup lint verify
	EVALLIB_NBVAL_ZH=none $(BIN)/python -m pytest -n 2 --dist loadfile --no-loadscope-reorder -m "not e2e" tests notebooks --nbval \
		--nbval-current-env --nbval-cell-timeout=300 $(PYTEST_ARGS)

lint: setup
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

# The fast tests without the notebooks (seconds to a minute).
unit: setup
	$(BIN)/python -m pytest -n 2 tests -m "not e2e" $(PYTEST_ARGS)

# The explorers in a real browser only (make test runs them too).
browser: setup chromium
	$(BIN)/python -m pytest tests/browser $(PYTEST_ARGS)

# Debian's chromium for tests/browser, installed with apt-get when missing and we are root (else they skip).
chromium:
	@bash scripts/install_browser.sh

notebooks: setup
	$(BIN)/python -m pytest -n 2 --dist loadfile notebooks --nbval --nbval-current-env --nbval-cell-timeout=300 $(PYTEST_ARGS)

verify: setup
	$(BIN)/python -m scripts.verify_notebooks

regen: setup
	$(BIN)/python -m scripts.regen_notebooks $(NB)

# The Chinese edition (README.zh-CN.md, CONTRIBUTING.md "A second language"): catalogs notebooks/zh/*.po and
# exercises/zh/*.po, merged with the English sources like gettext's msgmerge (changed cells become fuzzy);
# NB=notebooks/02_evaluation_methods.md (or an exercise source) starts or updates that one catalog.
translate-update: setup
	$(BIN)/python -m scripts.i18n update $(NB)
	$(BIN)/python -m scripts.evallib_catalog update

# Merge, then build notebooks/zh/*.ipynb (executed, like make regen) and exercises/zh/*.ipynb from the catalogs.
translate: translate-update
	$(BIN)/python -m scripts.i18n build $(NB)

# Every chapter and set: current and stale translations, then each stale cell (shown in English with the marker);
# then evallib's own catalog (explorer labels, grading messages: scripts/evallib_catalog.py).
translate-status: setup
	$(BIN)/python -m scripts.i18n status
	$(BIN)/python -m scripts.evallib_catalog status

# Exercises (README, "Exercises"): self-study notebooks from exercises/source/*.md, the classroom bundle without
# solutions, and autograding a folder of submissions in bubblewrap (installed with apt-get when missing, as root).
release: setup
	$(BIN)/python -m scripts.release_exercises
	@# and the Chinese sets (exercises/zh/): an English edit shows there as English with the stale marker
	$(BIN)/python -m scripts.i18n build $(wildcard exercises/zh/[0-9][0-9]_*.po)

classroom: setup
	@test -n "$(OUT)" || { echo "usage: make classroom OUT=dir [LANG=zh] [CLASSROOM_ARGS='--roster ids.txt --seed-file ~/seed']"; exit 2; }
	$(if $(filter zh,$(COURSE_LANG)),$(BIN)/python -m scripts.i18n warn $(wildcard exercises/zh/[0-9][0-9]_*.po))
	$(BIN)/python -m scripts.release_exercises --classroom "$(OUT)" $(if $(filter zh,$(COURSE_LANG)),--lang zh) $(CLASSROOM_ARGS)

sandbox:
	@bash scripts/install_sandbox.sh

autograde: setup sandbox
	@test -n "$(SUBMISSIONS)" || { echo "usage: make autograde SUBMISSIONS=folder [AUTOGRADE_ARGS='--cell-timeout 60 --jobs 2']"; exit 2; }
	$(BIN)/python -m scripts.autograde "$(SUBMISSIONS)" $(AUTOGRADE_ARGS)

# Classroom (README, "For instructors"): lecture decks and the static HTML edition; both carry the explorers,
# which move in the page with no kernel (explorers/NN_*.html on the site: one chapter's explorers, full page).
# Output in _build/ (git-ignored); reveal.js and MathJax come from the npm registry once (scripts/webassets.py).
slides: setup
	$(BIN)/python -m scripts.export_slides $(SLIDES_ARGS)

site: setup
	@$(BIN)/python -m scripts.i18n warn
	$(BIN)/python -m scripts.build_site

# A JupyterHub for a class on this machine (README, "For instructors"): http://127.0.0.1:8000, shared password;
# configurable-http-proxy comes from the npm registry into _build/node once. Config: classroom/jupyterhub_config.py.
hub: $(CLASSROOM) setup
	$(BIN)/python -m classroom.hubtools

# Benchmarks (README, "Benchmarks"): writes bench/RESULTS.md. OpenBLAS's core-type overrides are unset for this
# command only, so NumPy runs its own kernel (bench/RESULTS.md names it); tests and CI keep them.
bench: setup
	$(BIN)/python -m pip install --quiet -e ".[test,bench]"
	env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE $(BIN)/python -m bench.run $(BENCH_ARGS)

# Explorer latency in Chromium (issue 26): every control of every explorer, in JupyterLab and on the site's pages,
# keydown to the frame painting the new state; writes bench/latency.json and its tables in bench/RESULTS.md.
bench-browser: setup chromium
	$(BIN)/python -m bench.bench_browser $(BENCH_ARGS)

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis
