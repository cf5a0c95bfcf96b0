# The two set-up commands of the README: `make run` and `make test`.
VENV ?= .venv
PY := $(VENV)/bin/python
PG_LOCAL := postgresql://postgres@127.0.0.1:5432/postgres
# PostgreSQL tests run when a server answers on loopback (CI always sets this explicitly).
CARDROOM_TEST_POSTGRES ?= $(shell pg_isready -q -h 127.0.0.1 -p 5432 2>/dev/null && echo $(PG_LOCAL))
export CARDROOM_TEST_POSTGRES

.PHONY: install run test lint chromium bench simulate messages translations

$(VENV)/.installed: pyproject.toml
	python3 -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet --editable ".[test]"
	touch $@

install: $(VENV)/.installed

run: install
	$(PY) -m webapp

chromium:
	@command -v chromium >/dev/null 2>&1 || { \
	  if [ "$$(id -u)" = 0 ]; then apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium; \
	  else echo "browser tests need Debian's chromium: sudo apt-get install chromium" >&2; exit 1; fi; }

lint: install
	$(VENV)/bin/ruff check .
	$(VENV)/bin/mypy

test: install chromium lint
	$(VENV)/bin/pytest

simulate: install
	$(VENV)/bin/cardroom simulate --game coins --games 20

bench: install
	$(PY) -m bench.engine

# Translations: refresh the template of every user-facing string; add a language with
#   .venv/bin/pybabel init -i locale/messages.pot -d locale -l de   then   make translations
messages: install
	$(VENV)/bin/pybabel extract -F babel.cfg -k _ -k N_ -k gettext -k ngettext:1,2 -k translate:2 \
	  -o locale/messages.pot --project=Cardroom --sort-by-file .

translations: install
	@if ls locale/*/LC_MESSAGES/messages.po >/dev/null 2>&1; then $(VENV)/bin/pybabel compile -d locale; \
	else echo "no catalogs yet: English is the source language"; fi
