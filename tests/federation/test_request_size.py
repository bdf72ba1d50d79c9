"""Bodies larger than the address takes are refused before anything reads them (issue 27: a 100 MB post was read
whole, to a temporary file, before the 2 MB refusal of the import)."""

import pytest
from django.conf import settings

from federation import bounds
from ratings.movein.upload import MAX_BYTES as HISTORY_MAX_BYTES
from tests.factories import TournamentFactory, federation_staff, organiser
from tournaments.models import TournamentStatus

pytestmark = pytest.mark.django_db

HUNDRED_MB = 100 * 1024 * 1024


class Unread:
    """A request body that fails the test if anything reads it."""

    def __init__(self):
        self.read_bytes = 0

    def read(self, size=-1):
        self.read_bytes += 1
        raise AssertionError("the body was read")

    readline = read


def _post(client, path, length, content_type="multipart/form-data; boundary=x"):
    body = Unread()
    response = client.generic(
        "POST", path, b"", content_type=content_type, CONTENT_LENGTH=str(length), **{"wsgi.input": body}
    )
    return response, body


def test_a_100_mb_upload_is_refused_unread(client):
    user = organiser()
    tournament = TournamentFactory(organiser=user, status=TournamentStatus.DRAFT)
    client.force_login(user)
    response, body = _post(client, f"/en/admin/tournaments/tournament/{tournament.pk}/import/", HUNDRED_MB)
    assert response.status_code == 413
    assert body.read_bytes == 0
    assert "100.0\xa0MB" in response.content.decode() or "100,0" in response.content.decode()


def test_the_api_refuses_a_large_body_unread_in_json(client):
    response, body = _post(client, "/api/preferans/deals/", HUNDRED_MB, "application/json")
    assert response.status_code == 413
    assert response.json()["errors"][0]["field"] == "body"
    assert body.read_bytes == 0


def test_the_caps_match_the_largest_legitimate_uploads():
    """Every address takes the 2 MB uploads with their form around them; the history page its 20 MB document; the
    largest body that is not a file is a game server's batch of deals."""
    assert bounds.UPLOAD_MAX_BYTES == settings.RESULT_IMPORT_MAX_BYTES
    assert bounds.UPLOAD_MAX_BYTES < settings.REQUEST_BODY_MAX_BYTES <= bounds.UPLOAD_MAX_BYTES + 128 * 1024
    larger = settings.REQUEST_BODY_LARGER["admin:ratings_ratinglist_import_history"]
    assert HISTORY_MAX_BYTES < larger <= HISTORY_MAX_BYTES + 128 * 1024
    assert settings.DATA_UPLOAD_MAX_MEMORY_SIZE == bounds.API_MAX_BODY_BYTES


def test_the_history_page_takes_its_20_mb_document(client):
    client.force_login(federation_staff())
    response, _body = _post(client, "/en/admin/ratings/ratinglist/import-history/", 15 * 1024 * 1024)
    assert response.status_code != 413
    response, body = _post(client, "/en/admin/ratings/ratinglist/import-history/", HUNDRED_MB)
    assert response.status_code == 413
    assert body.read_bytes == 0
