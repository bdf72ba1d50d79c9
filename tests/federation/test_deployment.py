"""What a deployed site needs of the code (issue 26): one settings default for every entry point, production
settings that name what is missing, a wrong host answered 400 (page and API), a 500 page that tells the truth about
e-mail, errors mailed to ADMINS, the staff's password reset from the admin's login page, and the health address."""

import json
import logging
import os
import re
import subprocess
import sys
from pathlib import Path
from unittest import mock

import pytest
from django.core import mail
from django.core.exceptions import ImproperlyConfigured
from django.test import override_settings

import federation.settings as settings_package
from federation import errors, health
from tests.factories import federation_staff

ROOT = Path(__file__).resolve().parents[2]
ENTRY_POINTS = {
    "manage.py": (
        "import runpy, sys; sys.argv = ['manage.py', 'check']; runpy.run_path('manage.py', run_name='__main__')"
    ),
    "the Celery app": "import federation.celery",
    "wsgi": "import federation.wsgi",
    "asgi": "import federation.asgi",
}


@pytest.mark.parametrize("entry", list(ENTRY_POINTS))
def test_every_entry_point_started_without_settings_takes_the_same_default(entry):
    """A worker started by hand without DJANGO_SETTINGS_MODULE runs on the web's settings: one default for all."""
    code = ENTRY_POINTS[entry] + "; import os; print(os.environ['DJANGO_SETTINGS_MODULE'])"
    environment = {k: v for k, v in os.environ.items() if k not in {"DJANGO_SETTINGS_MODULE", "DATABASE_URL"}}
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=environment, capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.split()[-1] == settings_package.DEFAULT_SETTINGS


def test_the_env_file_beside_the_code_names_the_settings_for_every_entry_point(tmp_path, monkeypatch):
    """On the server deploy/install.sh writes DJANGO_SETTINGS_MODULE into .env; the environment still wins."""
    env_file = tmp_path / ".env"
    env_file.write_text("DJANGO_SETTINGS_MODULE=federation.settings.production\n")
    monkeypatch.setattr(settings_package, "ENV_FILE", env_file)
    monkeypatch.delenv("DJANGO_SETTINGS_MODULE")
    settings_package.use_default_settings()
    assert os.environ["DJANGO_SETTINGS_MODULE"] == "federation.settings.production"

    monkeypatch.setenv("DJANGO_SETTINGS_MODULE", "federation.settings.test")
    settings_package.use_default_settings()
    assert os.environ["DJANGO_SETTINGS_MODULE"] == "federation.settings.test"

    monkeypatch.setattr(settings_package, "ENV_FILE", tmp_path / "none")
    monkeypatch.delenv("DJANGO_SETTINGS_MODULE")
    settings_package.use_default_settings()
    assert os.environ["DJANGO_SETTINGS_MODULE"] == "federation.settings.local"


def test_production_settings_name_every_variable_they_miss():
    environment = {
        k: v
        for k, v in os.environ.items()
        if k not in {"DJANGO_SECRET_KEY", "DJANGO_ALLOWED_HOSTS", "DATABASE_URL", "CELERY_BROKER_URL"}
    }
    environment["DJANGO_SETTINGS_MODULE"] = "federation.settings.production"
    environment["DJANGO_ALLOWED_HOSTS"] = "ratings.example.org"
    result = subprocess.run(
        [sys.executable, "manage.py", "check"], cwd=ROOT, env=environment, capture_output=True, text=True, timeout=120
    )
    assert result.returncode != 0
    assert "ImproperlyConfigured" in result.stderr
    missing = re.findall(r"^  ([A-Z_]+): ", result.stderr, flags=re.M)
    assert missing == ["DJANGO_SECRET_KEY", "DATABASE_URL", "CELERY_BROKER_URL"]


def _production(monkeypatch, **environment):
    """``federation.settings.production`` imported afresh with these variables (and put back afterwards)."""
    import importlib

    for name, value in environment.items():
        monkeypatch.setenv(name, value)
    saved = sys.modules.pop("federation.settings.production", None)
    try:
        return importlib.import_module("federation.settings.production")
    finally:
        sys.modules.pop("federation.settings.production", None)
        if saved is not None:
            sys.modules["federation.settings.production"] = saved


FOUR = {
    "DJANGO_SECRET_KEY": "x" * 50,
    "DJANGO_ALLOWED_HOSTS": "ratings.example.org",
    "DATABASE_URL": "postgres://u:p@127.0.0.1:5432/fed",
    "CELERY_BROKER_URL": "redis://127.0.0.1:6379/0",
}


def test_production_settings_start_with_the_four_variables(monkeypatch):
    production = _production(monkeypatch, **FOUR)
    assert production.DEBUG is False
    assert production.ALLOWED_HOSTS == ["ratings.example.org"]
    assert production.DEFAULT_FROM_EMAIL == "ratings@ratings.example.org"
    assert production.SECURE_SSL_REDIRECT is True
    assert production.SECURE_REDIRECT_EXEMPT == [r"^health/$"]
    assert production.STORAGES["staticfiles"]["BACKEND"].endswith("CompressedManifestStaticFilesStorage")
    monkeypatch.delenv("CELERY_BROKER_URL")
    with pytest.raises(ImproperlyConfigured, match="CELERY_BROKER_URL"):
        _production(monkeypatch)


# --- a wrong host --------------------------------------------------------------------------------------------------


@pytest.mark.django_db
@pytest.mark.parametrize("path", ["/", "/en/players/", "/admin/login/", "/nowhere/"])
def test_a_wrong_host_is_a_400_page_that_does_not_fail_again(client, path, caplog):
    with caplog.at_level(logging.INFO):
        response = client.get(path, HTTP_HOST="203.0.113.7")
    assert response.status_code == 400
    page = response.content.decode()
    assert "<h1>" in page
    assert "host name" in page or "имени" in page
    refused = [r for r in caplog.records if r.name == "django.security.DisallowedHost"]
    assert refused
    assert all(r.levelno == logging.WARNING and not r.exc_info for r in refused)
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]


@pytest.mark.django_db
@pytest.mark.parametrize("path", ["/api/v1/lists/", "/api/preferans/games/"])
def test_a_wrong_host_on_the_json_apis_is_a_json_400(client, path):
    response = client.get(path, HTTP_HOST="scanner.example")
    assert response.status_code == 400
    assert response["Content-Type"] == "application/json"
    assert response.json()["errors"][0]["field"] == "Host"


@pytest.mark.django_db
def test_the_400_page_speaks_the_address_language(client):
    assert "host name in the address" in client.get("/en/", HTTP_HOST="x.example").content.decode()
    assert "Неверный запрос" in client.get("/", HTTP_HOST="x.example").content.decode()


# --- the 500 page and errors by e-mail -----------------------------------------------------------------------------


def _server_error(client):
    client.raise_request_exception = False
    with mock.patch("federation.views.reverse", side_effect=RuntimeError("boom")):
        return client.get("/robots.txt")


@pytest.mark.django_db
@override_settings(EMAIL_URL="", ADMINS=[("Ann", "ann@example.org")])
def test_without_e_mail_the_500_page_says_the_error_was_logged_and_nothing_is_mailed(client):
    response = _server_error(client)
    assert response.status_code == 500
    page = response.content.decode()
    assert "written to the site's log" in page
    assert "e-mail" not in page
    assert "we have been told" not in page


@pytest.mark.django_db
@override_settings(EMAIL_URL="smtp://mail.example.org:587", ADMINS=[("Ann", "ann@example.org")])
def test_with_e_mail_an_error_is_mailed_to_the_admins_and_the_500_page_says_so(client):
    response = _server_error(client)
    assert response.status_code == 500
    assert "sent to the site's administrators by e-mail" in response.content.decode()
    assert [m.to for m in mail.outbox] == [["ann@example.org"]]
    assert "boom" in mail.outbox[0].body


@pytest.mark.django_db
@override_settings(EMAIL_URL="smtp://mail.example.org:587", ADMINS=[("Ann", "ann@example.org")])
def test_a_server_error_on_the_api_is_json(rf):
    response = errors.server_error(rf.get("/api/v1/lists/"))
    assert response.status_code == 500
    assert "почте" in json.loads(response.content)["errors"][0]["message"]


def test_admins_and_the_e_mail_come_from_the_environment(monkeypatch):
    import environ

    config = environ.Env.email_url_config("smtp+tls://user:p%40ss@smtp.example.org:587")
    assert config["EMAIL_HOST"] == "smtp.example.org"
    assert config["EMAIL_HOST_PASSWORD"] == "p@ss"
    assert config["EMAIL_USE_TLS"] is True
    from email.utils import getaddresses

    parsed = getaddresses(["ann@example.org", "Boris <boris@example.org>"])
    assert [(n or a, a) for n, a in parsed] == [
        ("ann@example.org", "ann@example.org"),
        ("Boris", "boris@example.org"),
    ]


# --- the staff's password reset ------------------------------------------------------------------------------------


@pytest.mark.django_db
def test_the_admin_login_page_links_to_the_password_reset(client):
    page = client.get("/admin/login/").content.decode()
    assert 'href="/admin/password_reset/"' in page
    assert 'href="/en/admin/password_reset/"' in client.get("/en/admin/login/").content.decode()


@pytest.mark.django_db
@override_settings(EMAIL_URL="")
def test_without_e_mail_the_password_reset_says_it_cannot_send(client):
    page = client.get("/en/admin/password_reset/").content.decode()
    assert "does not send e-mail yet" in page
    assert "changepassword" in page
    assert "не отправляет" in client.get("/admin/password_reset/").content.decode()


@pytest.mark.django_db
@override_settings(EMAIL_URL="smtp://mail.example.org:587")
def test_a_staff_member_resets_a_forgotten_password_by_e_mail(client):
    federation_staff(username="ann", email="ann@example.org")
    response = client.post("/en/admin/password_reset/", {"email": "ann@example.org"})
    assert response.status_code == 302
    assert [m.to for m in mail.outbox] == [["ann@example.org"]]
    link = re.search(r"https?://testserver(/en/admin/reset/\S+/)", mail.outbox[0].body).group(1)
    form = client.get(link, follow=True)
    assert form.status_code == 200
    response = client.post(
        form.redirect_chain[-1][0], {"new_password1": "a-new-long-phrase-7", "new_password2": "a-new-long-phrase-7"}
    )
    assert response.status_code == 302
    from django.contrib.auth.models import User

    assert User.objects.get(username="ann").check_password("a-new-long-phrase-7")


# --- health --------------------------------------------------------------------------------------------------------


@pytest.mark.django_db
@override_settings(CELERY_BROKER_URL="", CELERY_TASK_ALWAYS_EAGER=True)
def test_the_health_address_answers_200_when_all_is_well(client):
    """Without a broker (the embedded default) the database and the cache are all there is to check; with one, the
    broker and a worker are checked too (deploy/smoke.sh, on the installed site)."""
    response = client.get("/health/?format=json")
    assert response.status_code == 200
    assert response.json() == {"Database(alias='default')": "OK", "Cache(alias='default')": "OK"}
    assert "no-cache" in response["Cache-Control"]


@pytest.mark.django_db
@override_settings(CELERY_BROKER_URL="redis://127.0.0.1:9/0", CELERY_TASK_ALWAYS_EAGER=False)
def test_the_health_address_answers_503_naming_what_is_down(client, monkeypatch, caplog):
    from health_check.exceptions import ServiceUnavailable

    def no_worker(self):
        raise ServiceUnavailable("Celery workers unavailable")

    monkeypatch.setattr(health.Workers, "run", no_worker)
    response = client.get("/health/", HTTP_ACCEPT="application/json")
    assert response.status_code == 503
    answer = response.json()
    assert answer["Database(alias='default')"] == "OK"
    assert "Unable to connect to Redis" in answer["Redis(db=0, host='127.0.0.1', port=9)"]
    assert "unavailable" in answer["Workers()"]
    assert client.get("/health/?format=text").status_code == 503
    # The monitor tells of it; the site's administrators are not mailed once a minute.
    assert not [r for r in caplog.records if r.name == "django.request" and r.levelno >= logging.ERROR]
