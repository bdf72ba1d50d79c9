"""Running the history commands as staff run them: JSON in, JSON out, every error on standard error."""

import io
import json
import sys

import pytest
from django.core.management import call_command

from federation.celery import app
from ratings.rate import rate


def run_command(name, *args, stdin=None, monkeypatch=None):
    if stdin is not None:
        monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    out, err = io.StringIO(), io.StringIO()
    try:
        call_command(name, *args, stdout=out, stderr=err)
    except SystemExit as stop:
        return stop.code, out.getvalue(), err.getvalue()
    return 0, out.getvalue(), err.getvalue()


@pytest.fixture
def eager():
    """The embedded default: a job started by the admin runs inside the confirming request."""
    old = app.conf.task_always_eager
    app.conf.task_always_eager = True
    yield
    app.conf.task_always_eager = old


@pytest.fixture
def import_doc(monkeypatch):
    def run(doc, *args):
        status, out, err = run_command("import_history", "-", *args, stdin=json.dumps(doc), monkeypatch=monkeypatch)
        assert status == 0, err
        return json.loads(out)

    return run


@pytest.fixture
def import_fails(monkeypatch):
    def run(doc, *args):
        status, out, err = run_command("import_history", "-", *args, stdin=json.dumps(doc), monkeypatch=monkeypatch)
        assert status == 1, out
        assert "Traceback" not in err
        return [line for line in err.splitlines() if line]

    return run


@pytest.fixture
def show_list():
    def run(system, *args):
        status, out, err = run_command("show_list", system, *args)
        assert status == 0, err
        return json.loads(out)

    return run


@pytest.fixture
def export_history():
    def run(system, *args):
        status, out, err = run_command("export_history", system, *args)
        assert status == 0, err
        return json.loads(out)

    return run


def rate_output(doc):
    """What ``manage.py rate`` prints for ``doc``, read back as JSON (the same round trip as the commands')."""
    return json.loads(json.dumps(rate(doc), ensure_ascii=False))
