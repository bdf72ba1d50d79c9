# The two commands a newcomer needs are `make run` and `make test`; the rest are for everyday work.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
HOST ?= 127.0.0.1:8000

.PHONY: run test lint format bench worker beat migrate demo messages check-deploy clean

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

## The whole test suite (PostgreSQL and Redis when DATABASE_URL and CELERY_BROKER_URL are set, as in CI).
test: $(VENV)/.dev-installed
	$(PY) -m pytest $(PYTEST_ARGS)

lint: $(VENV)/.dev-installed
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/lint-imports

format: $(VENV)/.dev-installed
	$(VENV)/bin/ruff format .
	$(VENV)/bin/ruff check --fix .

## Performance figures as a table (PostgreSQL at DATABASE_URL, or postgres://postgres@127.0.0.1:5432/bench_*).
bench: $(VENV)/.dev-installed
	@command -v wrk >/dev/null 2>&1 || { [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null && \
		DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk >/dev/null; } || \
		echo "wrk is not installed: the preferans API benchmark falls back to a Python client"
	$(PY) -m bench $(BENCH)

worker: $(VENV)/.run-installed
	$(VENV)/bin/celery -A federation worker --loglevel=INFO

beat: $(VENV)/.run-installed
	$(VENV)/bin/celery -A federation beat --loglevel=INFO

migrate: $(VENV)/.run-installed
	$(PY) manage.py migrate --noinput

demo: $(VENV)/.run-installed
	$(PY) manage.py demo_data --reset

## Re-extract and compile the translations (needs Debian's gettext); the compiled .mo files are committed.
messages: $(VENV)/.dev-installed
	$(PY) manage.py makemessages -l ru -l en --ignore=.venv --ignore=staticfiles --ignore=tests --ignore=bench --no-obsolete
	$(PY) manage.py compilemessages --ignore=.venv

check-deploy: $(VENV)/.run-installed
	DJANGO_SETTINGS_MODULE=federation.settings.production DJANGO_SECRET_KEY=$$($(PY) -c 'import secrets; print(secrets.token_urlsafe(50))') \
	DJANGO_ALLOWED_HOSTS=ratings.example.org DATABASE_URL=sqlite:///:memory: $(PY) manage.py check --deploy --fail-level WARNING

clean:
	rm -rf $(VENV) staticfiles .hypothesis
