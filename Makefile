# Two commands do everything (see README.md):
#   make lab    set up .venv and open the course in JupyterLab
#   make test   set up .venv and run every test (unit tests, notebooks through nbval, hygiene checks, and the
#               explorers driven in JupyterLab by headless Chromium: tests/browser, Chromium from apt if missing)
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed-stamp
PYTEST_ARGS ?=

# The settings under which stored notebook outputs are generated and checked (scripts/regen_notebooks.py uses them too).
export PYTHONHASHSEED := 0
export OMP_NUM_THREADS := 1
export OPENBLAS_NUM_THREADS := 1
export MKL_NUM_THREADS := 1
export IPYKERNEL_CELL_NAME := <IPY-INPUT>
export PYDEVD_DISABLE_FILE_VALIDATION := 1

.PHONY: setup lab test unit notebooks browser chromium verify regen bench clean release autograde slides apps site

setup: $(STAMP)
	@bash scripts/install_git_filters.sh $(BIN)/python

$(STAMP): pyproject.toml
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e ".[test]"
	@# Build matplotlib's font cache now, not inside the first notebook cell (its message would be output).
	$(BIN)/python -c "import matplotlib.pyplot"
	@touch $(STAMP)

lab: setup
	$(BIN)/jupyter lab $(if $(filter 0,$(shell id -u)),--allow-root) notebooks/01_error_and_fitting.ipynb

test: setup verify chromium
	$(BIN)/python -m pytest -n 2 --dist loadfile tests notebooks --nbval --nbval-current-env \
		--nbval-cell-timeout=300 -p no:cacheprovider $(PYTEST_ARGS)

unit: setup
	$(BIN)/python -m pytest -n 2 tests -m "not browser" $(PYTEST_ARGS)

# The explorers in a real browser only (make test runs them too).
browser: setup chromium
	$(BIN)/python -m pytest tests/browser -p no:cacheprovider $(PYTEST_ARGS)

# Debian's chromium for tests/browser, installed with apt-get when missing and we are root (else they skip).
chromium:
	@bash scripts/install_browser.sh

notebooks: setup
	$(BIN)/python -m pytest -n 2 --dist loadfile notebooks --nbval --nbval-current-env --nbval-cell-timeout=300 $(PYTEST_ARGS)

verify: setup
	$(BIN)/python scripts/verify_notebooks.py

regen: setup
	$(BIN)/python scripts/regen_notebooks.py $(NB)

# Exercises (README, "Exercises"): student releases from exercises/source/, and autograding a folder of submissions.
release: setup
	$(BIN)/python scripts/release_exercises.py

autograde: setup
	@test -n "$(SUBMISSIONS)" || { echo "usage: make autograde SUBMISSIONS=folder [AUTOGRADE_ARGS='--cell-timeout 60 --jobs 2']"; exit 2; }
	$(BIN)/python scripts/autograde.py "$(SUBMISSIONS)" $(AUTOGRADE_ARGS)

# Classroom (README, "For instructors"): lecture decks, the explorers as Voilà apps, the static HTML edition.
# Output in _build/ (git-ignored); reveal.js and MathJax come from the npm registry once (scripts/webassets.py).
APPS_PORT ?= 8866
slides: setup
	$(BIN)/python scripts/export_slides.py $(SLIDES_ARGS)

apps: setup
	$(BIN)/voila apps/ --no-browser --Voila.ip=127.0.0.1 --port=$(APPS_PORT) $(APPS_ARGS)

site: setup
	$(BIN)/python scripts/build_site.py

# Benchmarks (README, "Benchmarks"): writes bench/RESULTS.md. OpenBLAS's core-type overrides are unset for this
# command only, so NumPy runs its own kernel (bench/RESULTS.md names it); tests and CI keep them.
bench: setup
	$(BIN)/python -m pip install --quiet -e ".[test,bench]"
	env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE $(BIN)/python bench/run.py $(BENCH_ARGS)

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis
