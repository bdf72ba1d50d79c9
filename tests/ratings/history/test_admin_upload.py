"""The admin's history upload: staff upload a document, see its counts or every error, confirm, and the import runs
as a job whose page says what it did; organisers cannot open it."""

import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from federation.models import Player
from ratings.models import HistoryUpload, JobRun, JobState, StartingRating
from tests.factories import federation_staff, organiser
from tournaments.models import Tournament

from .test_gorbunov import generated_history

pytestmark = pytest.mark.django_db

URL = "/admin/ratings/ratinglist/import-history/"


def _file(doc, name="history.json"):
    return SimpleUploadedFile(name, json.dumps(doc).encode("utf-8"), content_type="application/json")


def test_staff_preview_counts_then_confirm_imports_as_a_job(client, eager):
    staff = federation_staff()
    client.force_login(staff)
    assert client.get(URL).status_code == 200
    doc = generated_history()
    page = client.post(URL, {"file": _file(doc), "preview": "1"})
    text = page.content.decode()
    assert page.status_code == 200
    assert 'name="sha256"' in text
    assert "<tr><th>турниров</th><td>30</td></tr>" in text
    assert "<tr><th>начальных рейтингов</th><td>20</td></tr>" in text
    assert not Tournament.objects.exists()
    sha256 = page.context["sha256"]
    done = client.post(URL, {"confirm": "1", "sha256": sha256})
    assert done.status_code == 302
    run = JobRun.objects.get(kind="history_import")
    assert run.state == JobState.SUCCEEDED
    assert done["Location"].endswith(f"/admin/ratings/jobrun/{run.pk}/change/")
    assert Tournament.objects.count() == len(doc["tournaments"])
    assert StartingRating.objects.count() == len(doc["ratings"])
    upload = HistoryUpload.objects.get()
    assert upload.uploaded_by == staff
    page = client.get(done["Location"]).content.decode()
    assert "турниров: 30" in page


def test_a_bad_document_lists_every_error_and_cannot_be_confirmed(client):
    client.force_login(federation_staff())
    doc = generated_history()
    doc["tournaments"][1]["k"] = "four"
    doc["tournaments"][2]["results"][0]["place"] = 99
    page = client.post(URL, {"file": _file(doc), "preview": "1"})
    text = page.content.decode()
    assert "tournaments[1].k: &#x27;four&#x27; is not a positive whole number" in text
    assert "tournaments[2].results[0].place: 99 is larger than players" in text
    assert 'name="sha256"' not in text
    page = client.post(URL, {"file": SimpleUploadedFile("h.json", b"{not json"), "preview": "1"})
    assert "Файл не в формате JSON (строка 1, столбец 2)." in page.content.decode()
    assert not Player.objects.exists()


def test_organisers_cannot_open_the_history_upload(client):
    client.force_login(organiser())
    assert client.get(URL).status_code == 403
    assert client.post(URL, {"file": _file(generated_history()), "preview": "1"}).status_code == 403
    assert not Player.objects.exists()
