"""The admin's preview of a long deals file (issue 13): every deal checked and rated, the first ones listed, and the
games of the file found and created in a few statements (a 2 MB file timed out a statement per game)."""

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import connection
from django.test.utils import CaptureQueriesContext

from federation import bounds
from ratings.preferans.models import Deal, DealResult, Game
from tests.factories import PlayerFactory

pytestmark = pytest.mark.django_db
URL = "/en/admin/preferans/game/import/"


def _file(players, games, deals_per_game=3, first_game=1):
    lines = ["game;date;deal;player_id;whists"]
    for g in range(first_game, first_game + games):
        table = [players[(g + k) % len(players)] for k in range(3)]
        for d in range(1, deals_per_game + 1):
            for player, whists in zip(table, (4 + d, -2, -2 - d), strict=True):
                lines.append(f"g-{g};2026-03-07;{d};{player.pk};{whists}")
    return "\n".join(lines) + "\n"


def _upload(client, text):
    return client.post(URL, {"file": SimpleUploadedFile("deals.csv", text.encode())})


def test_a_long_file_is_rated_whole_but_lists_its_first_deals(admin_client):
    players = [PlayerFactory() for _ in range(6)]
    games = 100  # 300 deals
    response = _upload(admin_client, _file(players, games))
    assert response.status_code == 200
    context = response.context
    assert context["deal_count"] == 300
    assert len(context["preview"]) == bounds.PREFERANS_PREVIEW_DEALS
    assert context["not_shown"] == 300 - bounds.PREFERANS_PREVIEW_DEALS
    assert "100 more deals are checked and rated" in response.content.decode()
    assert not Game.objects.exists()
    assert not Deal.objects.exists()


def test_the_preview_lists_the_changes_the_confirmation_stores(admin_client):
    players = [PlayerFactory() for _ in range(5)]
    preview = _upload(admin_client, _file(players, 4))
    listed = [change for deal in preview.context["preview"] for change in deal["changes"]]
    done = admin_client.post(URL, {"confirm": "1", "sha256": preview.context["sha256"]})
    assert done.status_code == 302
    stored = list(DealResult.objects.order_by("deal__game__external_id", "deal__number", "id"))
    assert len(stored) == len(listed) == 4 * 3 * 3
    assert [(r.whists, round(r.delta, 6), round(r.rating_after, 6)) for r in stored] == [
        (whists, round(delta, 6), round(after, 6)) for _name, whists, delta, after in listed
    ]


def test_the_games_of_a_file_cost_a_few_statements_not_a_handful_each(admin_client):
    players = [PlayerFactory() for _ in range(6)]
    with CaptureQueriesContext(connection) as small:
        _upload(admin_client, _file(players, 5, first_game=1))
    with CaptureQueriesContext(connection) as large:
        _upload(admin_client, _file(players, 200, first_game=1000))
    assert len(large.captured_queries) <= len(small.captured_queries) + 30


def test_a_new_games_table_is_checked_for_the_whole_file(admin_client):
    a, b = PlayerFactory(), PlayerFactory()
    text = f"game;date;deal;player_id;whists\ng-1;2026-03-07;1;{a.pk};1\ng-1;2026-03-07;1;999999;-1\n"
    body = _upload(admin_client, text).content.decode()
    assert "there is no player 999999" in body
    assert not Game.objects.exists()
    text = f"game;date;deal;player_id;whists\ng-1;2026-03-07;1;{a.pk};0\n"
    body = _upload(admin_client, text).content.decode()
    assert "a table has 2 to 4 players, this one has 1" in body
    assert b.pk


def test_line_ends_of_old_spreadsheets_and_unreadable_rows_are_told_by_row_not_a_500(admin_client):
    """A lone carriage return ended a line in the fuzzer's file and the csv module's error was a 500; such line ends
    are read as line ends now, and a row the csv module cannot read at all is refused by its number."""
    players = [PlayerFactory() for _ in range(3)]
    text = _file(players, games=1, deals_per_game=1).replace("\n", "\r")  # a classic Mac OS spreadsheet's CSV
    page = _upload(admin_client, text)
    assert page.status_code == 200
    assert page.context["deal_count"] == 1
    huge = "game;date;deal;player_id;whists\n" + 'g-1;2026-03-07;1;1;"' + "9" * 200_000 + '"\n'
    page = _upload(admin_client, huge)
    assert page.status_code == 200
    assert "Row 2 cannot be read as CSV (field larger than field limit (131072))." in page.content.decode()
    assert not Deal.objects.exists()
