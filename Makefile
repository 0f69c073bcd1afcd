# Scorekeeper: `make run` serves the app, `make test` runs everything CI runs, `make
# check` is the quick loop while working (lint, types, the tests that need no browser,
# no server and no PostgreSQL).
VENV    ?= .venv
PY      := $(VENV)/bin/python
# What `make run` needs, then the test tools on top (`make test`, `make check`).
STAMP      := $(VENV)/.installed
TEST_STAMP := $(VENV)/.installed-test
HOST    ?= 127.0.0.1
PORT    ?= 5000
# gunicorn worker processes (each reads a request whole, then runs it on one of its
# threads); on SQLite they take turns at the file. Empty:
# `scorekeeper serve` starts two per CPU core, at most four (scorekeeper/cli.py).
WORKERS ?=
# Debian packages the app needs: Pango and HarfBuzz's subsetter for WeasyPrint, fonts
# for every script a player's name may be in (Latin, Cyrillic, Persian) and the suit
# symbols.
SYSTEM_PACKAGES := libpango-1.0-0 libpangoft2-1.0-0 libharfbuzz-subset0 fonts-dejavu-core fonts-noto-core
# And its tests: Chromium for the browser tests, poppler for looking at PDFs, zbar for
# reading the QR codes back, the PostgreSQL server (its throwaway one, tests/conftest.py).
TEST_PACKAGES := chromium poppler-utils zbar-tools postgresql

.PHONY: run test check lint lint-js bench system-deps test-system-deps translations catalogs clean

$(STAMP): pyproject.toml
	python3 -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e .
	touch $(STAMP)

$(TEST_STAMP): $(STAMP)
	$(PY) -m pip install -q -e '.[test]'
	touch $(TEST_STAMP)

# Installs the Debian packages named in $(1) that are missing (as root; otherwise it
# names them).
define debian_packages
@missing=""; for p in $(1); do \
  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "ok installed" || missing="$$missing $$p"; \
done; \
if [ -n "$$missing" ]; then \
  if [ "$$(id -u)" = 0 ]; then \
    echo "installing Debian packages:$$missing"; \
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing >/dev/null; \
  else echo "missing Debian packages (install them as root):$$missing"; fi; \
fi
endef

system-deps:
	$(call debian_packages,$(SYSTEM_PACKAGES))

test-system-deps:
	$(call debian_packages,$(SYSTEM_PACKAGES) $(TEST_PACKAGES))

# Migrates, then runs gunicorn (scorekeeper/cli.py has the flags).
run: $(STAMP) system-deps catalogs
	$(VENV)/bin/scorekeeper serve --host=$(HOST) --port=$(PORT) $(if $(WORKERS),--workers=$(WORKERS))

lint: $(TEST_STAMP) lint-js
	$(VENV)/bin/ruff check .
	$(VENV)/bin/mypy

# ESLint on every script the browser runs (eslint.config.js says how each is read).
lint-js: node_modules/.package-lock.json
	npx --no-install eslint

# The whole suite on SQLite (the package's doctests and the engine's tests included),
# then on PostgreSQL the tests a database can change (tests/conftest.py says which):
# on the server SCOREKEEPER_TEST_DATABASE_URL names, else on a throwaway one the tests
# start and remove. Two pytest workers, one a core; each has its own database.
TEST_WORKERS ?= 2
test: $(TEST_STAMP) test-system-deps catalogs lint node_modules/.package-lock.json
	env -u SCOREKEEPER_TEST_DATABASE_URL $(PY) -m pytest -q -n $(TEST_WORKERS)
	$(PY) -m pytest -q -n $(TEST_WORKERS) tests --on-postgresql -m "postgresql and not once"

# While working: lint, types and the tests that need no browser, no server and no
# PostgreSQL, nor the print tests marked slow (2,324 tests, 297 s of CPU: about 2½
# minutes on two cores).
check: $(TEST_STAMP) catalogs lint
	env -u SCOREKEEPER_TEST_DATABASE_URL $(PY) -m pytest -q -n $(TEST_WORKERS) -m "not browser and not slow"

# axe-core for tests/browser/test_accessibility.py and ESLint, at the versions
# package-lock.json pins.
node_modules/.package-lock.json: package-lock.json
	npm ci --no-audit --no-fund

bench: $(TEST_STAMP)
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
