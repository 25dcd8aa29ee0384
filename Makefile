# Verbatim's two commands: `make run` (start the desk) and `make test` (every test).
# Both install what they need first; nothing here reaches anything but the package registries.
PY      ?= python3
VENV    := .venv
BIN     := $(VENV)/bin
STAMP   := $(VENV)/.installed
PORT    ?= 8501

.PHONY: run test eval bench lint format setup browser ocr postgres icu clean

$(STAMP): requirements.txt | icu
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -r requirements.txt
	touch $(STAMP)

setup: $(STAMP) browser ocr postgres

# Debian's ICU headers and a C++ compiler: PyICU (UTS #39 confusables for look-alike hosts) builds against them.
icu:
	@{ pkg-config --exists icu-i18n 2>/dev/null && command -v g++ >/dev/null 2>&1; } || { \
	  if [ "$$(id -u)" = 0 ]; then apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq libicu-dev pkg-config g++ >/dev/null; \
	  else echo "ICU is missing: run 'sudo apt-get install libicu-dev pkg-config g++' so that PyICU can be built" >&2; fi; }

# Debian's Chromium for the real-browser tests (Playwright's own download does not work here).
browser:
	@command -v chromium >/dev/null 2>&1 || { \
	  if [ "$$(id -u)" = 0 ]; then apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; \
	  else echo "chromium is missing: run 'sudo apt-get install chromium' for the browser tests" >&2; fi; }

# Debian's Tesseract and its English data, for OCR of scanned PDFs (the --ocr option; PyMuPDF runs it).
ocr:
	@{ command -v tesseract >/dev/null 2>&1 && tesseract --list-langs 2>/dev/null | grep -qx eng; } || { \
	  if [ "$$(id -u)" = 0 ]; then apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq tesseract-ocr tesseract-ocr-eng >/dev/null; \
	  else echo "tesseract is missing: run 'sudo apt-get install tesseract-ocr tesseract-ocr-eng' for OCR of scanned PDFs" >&2; fi; }

# Debian's PostgreSQL server programs: the tests start a throwaway cluster of their own on a loopback
# port (tests/pg.py); the team desk's store and task queue run on PostgreSQL.
postgres:
	@ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || { \
	  if [ "$$(id -u)" = 0 ]; then apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null; \
	  else echo "PostgreSQL is missing: run 'sudo apt-get install postgresql' for the team store and its tests" >&2; fi; }

# Start the review desk on the bundled sample brief, with its offline sources (ui/server.py serves ui/app.py).
run: $(STAMP)
	$(BIN)/streamlit run ui/server.py --server.port $(PORT) --server.address 127.0.0.1

# Every test: lint, types, unit, integration, quality floors and real-browser tests.
test: setup
	$(BIN)/ruff check core ui tests
	$(BIN)/mypy
	$(BIN)/python -m pytest

eval: $(STAMP)
	$(BIN)/python -m tests.quality.run

bench: $(STAMP)
	$(BIN)/python -m tests.bench.run

lint: $(STAMP)
	$(BIN)/ruff check core ui tests
	$(BIN)/ruff format --check core ui tests
	$(BIN)/mypy

format: $(STAMP)
	$(BIN)/ruff format core ui tests
	$(BIN)/ruff check --fix core ui tests

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
