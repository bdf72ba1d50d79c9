"""What a visitor sees of a Go tournament (issue 16): no pairing-engine warnings (those are the director's), the
tie-break explanation with opponents by name rather than the engine's keys, and a way back to the tournament."""

import re

import pytest

from tournaments.go.models import Round

from .helpers import EN
from .test_pages import _played

pytestmark = pytest.mark.django_db


def test_a_visitor_sees_no_engine_warning_and_opponents_by_name(client):
    go = _played(7, rounds=3)  # an odd field: a bye, and the engine has things to say to the director
    rnd = Round.objects.get(tournament=go, number=1)
    rnd.issues = [{"rule": "unpaired", "players": []}]
    rnd.save(update_fields=["issues"])
    page = client.get(f"{EN}/{go.pk}/rounds/1/").content.decode()
    assert 'id="issues"' not in page
    player = go.registrations.order_by("pk").first()
    text = client.get(f"{EN}/{go.pk}/players/{player.pk}/").content.decode()
    explanation = text.split('id="explanation"', 1)[1].split("</p>", 1)[0]
    assert not re.search(r"\br\d+\b", explanation)
    assert "Player 0" in explanation
    tournament = client.get(f"{EN}/{go.pk}/").content.decode()
    assert f'href="/en/tournaments/{go.tournament.pk}/"' in tournament or go.tournament.status != "approved"
