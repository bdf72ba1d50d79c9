# The two commands a newcomer needs are `make run` and `make test`; the rest are for everyday work.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
HOST ?= 127.0.0.1:8000
PYTEST_WORKERS ?= 2

.PHONY: help run test lint format bench audit worker beat migrate demo messages check-deploy clean

## This list: every target with what it does.
help:
	@awk '/^## /{text = substr($$0, 4); next} /^#/{next} /^[a-z-]+:/{if (text) printf "  make %-13s %s\n", substr($$1, 1, length($$1) - 1), text; text = ""}' $(MAKEFILE_LIST)

$(VENV)/.run-installed: requirements.txt
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -r requirements.txt
	touch $@

$(VENV)/.dev-installed: requirements.txt requirements-dev.txt $(VENV)/.run-installed
	$(PY) -m pip install --quiet -r requirements-dev.txt
	touch $@

## Set everything up on the embedded default (SQLite, eager tasks), load the demo federation, serve it.
run: $(VENV)/.run-installed
	$(PY) manage.py migrate --noinput
	$(PY) manage.py demo_data
	$(PY) manage.py runserver $(HOST)

## The whole suite in two processes; on PostgreSQL and Redis when DATABASE_URL and CELERY_BROKER_URL are set.
# Without them the tests that need them are deselected (not skipped), and so are the browser tests when no Chromium
# starts and Playwright's own cannot be downloaded (tests/web/browser.py); in CI (CI set) a missing browser stops it.
test: $(VENV)/.dev-installed
	@skip=""; \
	case "$$DATABASE_URL" in \
	  postgres*) [ -n "$$CELERY_BROKER_URL" ] || { skip="not celery_worker"; \
	    echo "make test: no CELERY_BROKER_URL, so the tests that need a real Celery worker and Redis are deselected"; } ;; \
	  *) skip="not postgres"; \
	    echo "make test: on SQLite, so the tests that need PostgreSQL are deselected (set DATABASE_URL to run them)" ;; \
	esac; \
	$(PY) -m tests.web.browser || { [ -z "$$CI" ] || exit 1; skip="$${skip:+$$skip and }not browser"; }; \
	echo "$(PY) -m pytest -n $(PYTEST_WORKERS) --dist loadfile $${skip:+-m \"$$skip\" }$(PYTEST_ARGS)"; \
	$(PY) -m pytest -n $(PYTEST_WORKERS) --dist loadfile $${skip:+-m "$$skip"} $(PYTEST_ARGS)

## Ruff (lint and format check) and the import contract that keeps the engines pure, as CI runs them.
lint: $(VENV)/.dev-installed
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/lint-imports

## Format the code and fix what ruff can fix by itself.
format: $(VENV)/.dev-installed
	$(VENV)/bin/ruff format .
	$(VENV)/bin/ruff check --fix .

## Performance figures as a table (PostgreSQL at DATABASE_URL, or postgres://postgres@127.0.0.1:5432/bench_*).
bench: $(VENV)/.dev-installed
	@command -v wrk >/dev/null 2>&1 || { [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null && \
		DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk >/dev/null; } || \
		echo "wrk is not installed: the preferans API benchmark falls back to a Python client"
	$(PY) -m bench $(BENCH)

## Lighthouse 12.2.3 (npm, Debian's chromium) on the home page, a list, a player and a tournament: 100 or it fails.
audit: $(VENV)/.dev-installed
	$(PY) tools/audit.py

## A Celery worker (needs CELERY_BROKER_URL; without it tasks run eagerly in the web process).
worker: $(VENV)/.run-installed
	$(VENV)/bin/celery -A federation worker --loglevel=INFO

## Celery beat: the weekly Gorbunov publication and the nightly mahjong job (exactly one beat per site).
beat: $(VENV)/.run-installed
	$(VENV)/bin/celery -A federation beat --loglevel=INFO

## Apply the migrations (also creates the roles, the default rating lists and the schedules).
migrate: $(VENV)/.run-installed
	$(PY) manage.py migrate --noinput

## Delete the tournaments, players, clubs and ratings and load the demo federation again.
demo: $(VENV)/.run-installed
	$(PY) manage.py demo_data --reset

## Re-extract and compile the translations (needs Debian's gettext); the compiled .mo files are committed.
messages: $(VENV)/.dev-installed
	$(PY) manage.py makemessages -l ru -l en --ignore=.venv --ignore=staticfiles --ignore=tests --ignore=bench --no-obsolete
	$(PY) manage.py compilemessages --ignore=.venv

## Django's deployment checks with the production settings (part of CI).
check-deploy: $(VENV)/.run-installed
	DJANGO_SETTINGS_MODULE=federation.settings.production DJANGO_SECRET_KEY=$$($(PY) -c 'import secrets; print(secrets.token_urlsafe(50))') \
	DJANGO_ALLOWED_HOSTS=ratings.example.org DATABASE_URL=sqlite:///:memory: CELERY_BROKER_URL=redis://127.0.0.1:6379/0 \
	$(PY) manage.py check --deploy --fail-level WARNING

## Remove the virtualenv, collected static files and hypothesis' examples (the SQLite database stays).
clean:
	rm -rf $(VENV) staticfiles .hypothesis
