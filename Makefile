# Scorekeeper: `make run` serves the app, `make test` runs everything CI runs.
VENV    ?= .venv
PY      := $(VENV)/bin/python
STAMP   := $(VENV)/.installed
HOST    ?= 127.0.0.1
PORT    ?= 5000
# gunicorn worker processes (each reads a request whole, then runs it on one of its
# threads); on SQLite they take turns at the file. Empty:
# `scorekeeper serve` starts two per CPU core, at most four (scorekeeper/cli.py).
WORKERS ?=
PG_TEST_URL ?= postgresql+psycopg://postgres@127.0.0.1:5432/test
# Debian packages the app and its tests need: Pango and HarfBuzz's subsetter for
# WeasyPrint, fonts for every script a player's name may be in (Latin, Cyrillic,
# Persian) and the suit symbols, Chromium for the browser tests, poppler for looking at
# PDFs, zbar for reading the QR codes back in the tests.
SYSTEM_PACKAGES := libpango-1.0-0 libpangoft2-1.0-0 libharfbuzz-subset0 fonts-dejavu-core fonts-noto-core \
                   chromium poppler-utils zbar-tools

.PHONY: run test lint unit bench system-deps translations catalogs clean

$(STAMP): pyproject.toml
	python3 -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e '.[test]'
	touch $(STAMP)

system-deps:
	@missing=""; for p in $(SYSTEM_PACKAGES); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ]; then \
	    echo "installing Debian packages:$$missing"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing >/dev/null; \
	  else echo "missing Debian packages (install them as root):$$missing"; fi; \
	fi

# Migrates, then runs gunicorn (scorekeeper/cli.py has the flags).
run: $(STAMP) system-deps catalogs
	$(VENV)/bin/scorekeeper serve --host=$(HOST) --port=$(PORT) $(if $(WORKERS),--workers=$(WORKERS))

lint: $(STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/mypy

# The whole suite on SQLite, then again on PostgreSQL (the engine's own tests need no
# database and run once, and so does tests/test_wheel.py: it builds the wheel, installs
# it alone in a new virtual environment and starts it; tests marked `once` check what
# no database changes: layout, colours, charts, imports, blank pads, and the browser's
# tests of one phone's pages, whose server side the HTTP tests cover on both; a whole
# game on a phone, the live sheet between phones and a ruling kept from a phone run on
# both, in one language). Two pytest workers, one a core; on PostgreSQL each worker
# empties a database of its own (tests/conftest.py).
TEST_WORKERS ?= 2
test: $(STAMP) system-deps catalogs lint node_modules/.package-lock.json
	$(PY) -m pytest -q -n $(TEST_WORKERS)
	SCOREKEEPER_TEST_DATABASE_URL=$(PG_TEST_URL) $(PY) -m pytest -q -n $(TEST_WORKERS) tests \
	  --ignore=tests/scoring --ignore=tests/test_wheel.py -m "not once"

# axe-core for tests/browser/test_accessibility.py, at the version package-lock.json pins.
node_modules/.package-lock.json: package-lock.json
	npm ci --no-audit --no-fund

bench: $(STAMP)
	$(PY) -m pip install -q -e '.[bench]'
	$(PY) bench/engine.py
	@for b in bench/*.py; do [ "$$b" = bench/engine.py ] || $(PY) $$b; done

# Re-extract every marked string (Python _/_l/N_, templates), merge it into the Persian
# and Russian catalogs, compile. New or changed strings come out untranslated or fuzzy:
# translate them in the .po files; tests/test_i18n.py fails until every one is done.
translations: $(STAMP)
	$(VENV)/bin/pybabel -q extract -F babel.cfg -k _l -k lazy_gettext -k _column -c TRANSLATORS: \
	  --add-location=file --sort-output --project=Scorekeeper \
	  -o scorekeeper/translations/messages.pot .
	$(VENV)/bin/pybabel -q update -i scorekeeper/translations/messages.pot \
	  -d scorekeeper/translations --ignore-obsolete
	$(MAKE) catalogs

# The compiled catalogs (.mo) are built, never committed.
MO := $(patsubst %.po,%.mo,$(wildcard scorekeeper/translations/*/LC_MESSAGES/messages.po))

catalogs: $(MO)

%.mo: %.po | $(STAMP)
	$(VENV)/bin/pybabel -q compile -i $< -o $@

clean:
	rm -rf $(VENV) build *.egg-info
