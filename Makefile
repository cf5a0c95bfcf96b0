# The two set-up commands of the README: `make run` and `make test`.
VENV ?= .venv
PY := $(VENV)/bin/python
PG_LOCAL := postgresql://postgres@127.0.0.1:5432/postgres
# PostgreSQL tests run when a server answers on loopback (CI always sets this explicitly).
CARDROOM_TEST_POSTGRES ?= $(shell pg_isready -q -h 127.0.0.1 -p 5432 2>/dev/null && echo $(PG_LOCAL))
export CARDROOM_TEST_POSTGRES

.PHONY: install install-test run test test-fast lint chromium bench simulate messages

# `make run` installs only what the product needs; `make test` adds the test and lint tools.
$(VENV)/.runtime: pyproject.toml
	python3 -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet --editable .
	touch $@

$(VENV)/.testtools: $(VENV)/.runtime
	$(PY) -m pip install --quiet --editable ".[test]"
	touch $@

install: $(VENV)/.runtime

install-test: $(VENV)/.testtools

run: install
	$(PY) -m webapp

# Chromium, the Noto CJK fonts it needs to draw the Korean page (without them Korean shows as empty boxes) and the
# colour emoji a phone draws (the deal of the day's result line), so screenshots show what a player sees.
chromium:
	@{ command -v chromium >/dev/null 2>&1 && fc-list :lang=ko family 2>/dev/null | grep -q . \
	  && fc-list 2>/dev/null | grep -qi "color emoji"; } || { \
	  if [ "$$(id -u)" = 0 ]; then apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium fonts-noto-cjk fonts-noto-color-emoji; \
	  else echo "browser tests need Debian's chromium, fonts-noto-cjk and fonts-noto-color-emoji: sudo apt-get install chromium fonts-noto-cjk fonts-noto-color-emoji" >&2; exit 1; fi; }

lint: install-test
	$(VENV)/bin/ruff check .
	$(VENV)/bin/mypy

# The bot suite runs twice more after the whole suite: three runs in a row, so a flaky bot test fails CI.
test: install-test chromium lint
	$(VENV)/bin/pytest
	$(VENV)/bin/pytest -q tests/bot
	$(VENV)/bin/pytest -q tests/bot

# The fast suite for development: everything but the browser and the soak, in parallel-friendly seconds.
test-fast: install-test
	$(VENV)/bin/pytest -m "not browser and not slow and not soak"

simulate: install
	$(VENV)/bin/cardroom simulate --game coins --games 20

bench: install-test
	$(PY) -m pip install --quiet --editable ".[bench]"
	$(PY) -m bench.engine
	$(PY) -m bench.bus

# Translations: refresh the template of every user-facing string, then bring every catalog up to date
# (tests/architecture/test_catalogs.py fails while any string lacks a translation). Catalogs are read
# and compiled in memory at run time, so there is no build step. Add a language with
#   .venv/bin/pybabel init -i locale/messages.pot -d locale -l de   and list it in engine/i18n.py LANGUAGES.
messages: install-test
	$(VENV)/bin/pybabel extract -F babel.cfg -k _ -k gettext -k ngettext:1,2 -k plurals:1,2 -k translate:2 -k N_ -k NC_:1c,2 \
	  -o locale/messages.pot --project=Cardroom --sort-by-file --width 100 .
	$(VENV)/bin/pybabel update -i locale/messages.pot -d locale --no-fuzzy-matching --ignore-obsolete --width 100
