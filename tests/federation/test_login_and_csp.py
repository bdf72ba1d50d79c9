"""Login throttling (django-axes) and the Content-Security-Policy: no inline script on any page of the site."""

import re
from pathlib import Path

import pytest
from django.conf import settings

from tests.factories import federation_staff

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parent.parent.parent
LOGIN = "/admin/login/"


def _login(client, username, password):
    return client.post(LOGIN, {"username": username, "password": password, "next": "/admin/"})


def test_forty_wrong_passwords_then_the_right_one_is_refused(client):
    staff = federation_staff(username="olga")
    answers = [_login(client, "olga", f"wrong-{n}").status_code for n in range(40)]
    assert answers[: settings.AXES_FAILURE_LIMIT - 1] == [200] * (settings.AXES_FAILURE_LIMIT - 1)
    assert set(answers[settings.AXES_FAILURE_LIMIT :]) == {429}
    right = _login(client, "olga", "pass-word-123")
    assert right.status_code == 429
    assert "lockout.html" in [template.name for template in right.templates]
    assert "_auth_user_id" not in client.session
    assert client.get("/admin/").status_code == 302  # still not signed in
    assert staff.is_active


def test_a_right_password_before_the_limit_signs_in_and_resets_the_count(client):
    federation_staff(username="olga")
    for n in range(settings.AXES_FAILURE_LIMIT - 1):
        assert _login(client, "olga", f"wrong-{n}").status_code == 200
    assert _login(client, "olga", "pass-word-123").status_code == 302
    client.logout()
    for n in range(settings.AXES_FAILURE_LIMIT - 1):
        assert _login(client, "olga", f"wrong-{n}").status_code == 200
    assert _login(client, "olga", "pass-word-123").status_code == 302


def test_one_name_locked_out_leaves_the_others_alone(client):
    federation_staff(username="olga")
    federation_staff(username="ivan")
    for n in range(settings.AXES_FAILURE_LIMIT):
        _login(client, "olga", f"wrong-{n}")
    assert _login(client, "ivan", "pass-word-123").status_code == 302


@pytest.mark.parametrize("url", ["/", "/players/", "/ratings/cards/calculator/", "/admin/login/"])
def test_every_page_carries_a_policy_without_inline_scripts(client, url):
    policy = client.get(url)["Content-Security-Policy"]
    directives = dict(part.strip().split(" ", 1) for part in policy.split(";") if part.strip())
    assert directives["script-src"] == "'self'"
    assert directives["object-src"] == "'none'"
    assert directives["frame-ancestors"] == "'none'"


def _templates():
    roots = [ROOT / "templates", *ROOT.glob("*/templates"), *ROOT.glob("*/*/templates")]
    return sorted({path for root in roots for path in root.rglob("*.html")})


def test_no_template_has_an_inline_script_or_event_handler():
    """The policy refuses inline scripts, so none may be written: code lives in static/js, data in json_script."""
    inline = []
    for path in _templates():
        text = path.read_text()
        for tag in re.findall(r"<script\b[^>]*>", text):
            if "src=" not in tag:
                inline.append(f"{path.relative_to(ROOT)}: {tag}")
        for handler in re.findall(r"\son[a-z]+\s*=\s*[\"']", text):
            inline.append(f"{path.relative_to(ROOT)}: {handler.strip()}")
    assert len(_templates()) > 20
    assert not inline
