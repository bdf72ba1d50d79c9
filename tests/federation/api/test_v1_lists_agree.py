"""For the same history, three readings of a list agree row for row (rank, player, rating): the public API's list,
``manage.py show_list`` (what ``manage.py rate`` prints for the history) and the list's public page (its download,
which holds exactly the page's rows with the players' ids), as of the newest list and as of an older date.

One row of ``SYSTEMS`` per system that has ``show_list``: its history document (the history tests' own generator),
and the dates to compare besides the newest list. The readings of ``show_list``'s document are the same for every
system: a ``list`` of ranked rows when the document has one (mahjong), else its ``ratings`` of the players the list
ranks, best first, ranked as the page ranks them (equal ratings share a rank), or by league when it has ``leagues``
(preferans: the league's players in order, one rank each).

``selfhandicap``'s ``show_list`` is one tournament's standings, not a list: the API's Go standings of the imported
tournament, ``show_list`` and the tournament's standings page agree on every place, level and tie-break.
"""

import csv
import io
from dataclasses import dataclass, field
from typing import Any

import pytest

from federation.api.v1.schemas import ListOut
from federation.models import Player
from ratings.history import SYSTEMS as SHOW_LIST_SYSTEMS
from ratings.models import RatingList
from tests.ratings.history import test_dirs, test_gorbunov, test_mahjong, test_preferans, test_selfhandicap
from tests.ratings.history.conftest import import_doc, show_list  # noqa: F401 (fixtures)

pytestmark = [pytest.mark.django_db, pytest.mark.postgres]


@dataclass(frozen=True)
class System:
    name: str
    history: Any  # () -> the history document (import_history's input)
    dates: tuple[str, ...] = field(default=())  # older dates to compare besides the newest list
    columns: tuple[str, str] = ("Rank", "Rating")  # the page's columns of the rank and the rating (English)
    leagues: tuple[str | None, ...] = (None,)  # preferans: ("amateur", "pro"), each its own list


SYSTEMS = [
    System("gorbunov", test_gorbunov.generated_history, dates=("2019-02-13", "2019-03-25")),
    System("dirs", test_dirs.generated_history, columns=("#", "DIRS")),
    System("preferans", test_preferans.generated_history, columns=("#", "Rating"), leagues=("amateur", "pro")),
    *(
        System(name, lambda name=name: {**test_mahjong.generated_history(), "system": name}, dates=("2025-06-01",))
        for name in ("mahjong-rr", "mahjong-crr", "mahjong-online")
    ),
]


def test_every_system_with_show_list_is_in_the_table():
    lists = {name for name, (_module, slug) in SHOW_LIST_SYSTEMS.items() if slug is not None}
    assert {system.name for system in SYSTEMS} == lists
    assert set(SHOW_LIST_SYSTEMS) - lists == {"selfhandicap"}  # a tournament's standings: the test below


def _api_rows(client, slug: str, day: str | None, league: str | None = None) -> list[tuple]:
    rows, page = [], 1
    while True:
        query = (
            f"?per_page=100&page={page}&lang=en"
            + (f"&date={day}" if day else "")
            + (f"&league={league}" if league else "")
        )
        response = client.get(f"/api/v1/lists/{slug}/{query}")
        assert response.status_code == 200, response.content[:300]
        body = response.json()
        ListOut.model_validate(body)  # the answer, written without the schema, has the documented shape
        rows += [(e["rank"], e["player"]["id"], e["rating"]) for e in body["entries"]]
        if page >= body["paging"]["pages"]:
            assert len(rows) == body["paging"]["count"]
            return rows
        page += 1


def _page_rows(client, rating_list: RatingList, columns, day: str | None, league: str | None = None) -> list[tuple]:
    """The page's rows as its download gives them (the English page: commas, decimal points)."""
    from django.utils import translation

    with translation.override("en"):
        url = rating_list.get_absolute_url()
    query = "?_export=csv" + (f"&date={day}" if day else "") + (f"&league={league}" if league else "")
    response = client.get(url + query)
    assert response.status_code == 200, url
    reader = csv.DictReader(io.StringIO(response.content.decode("utf-8-sig")))
    assert set(columns) <= set(reader.fieldnames or ()), reader.fieldnames
    rank, rating = columns
    return [(int(row[rank]), int(row["Player id"]), float(row[rating])) for row in reader]


def _show_list_rows(document: dict, players: dict[str, int], league: str | None = None) -> list[tuple]:
    """The list ``show_list`` prints, as (rank, player, rating) in the list's order; ``players``: document id ->
    player id, of the players the list ranks (``_document_players``)."""
    if "list" in document:
        return [(row["rank"], players[row["player"]], float(row["rating"])) for row in document["list"]]
    ratings = {players[p]: float(r) for p, r in document["ratings"].items() if p in players}
    if league is not None:
        ids = {players[p] for p, which in document["leagues"].items() if which == league and p in players}
        ordered = sorted(ids, key=lambda pk: (-ratings[pk], pk))
        return [(n, pk, ratings[pk]) for n, pk in enumerate(ordered, start=1)]
    ordered = sorted(ratings, key=lambda pk: (-ratings[pk], pk))
    out = []
    for pk in ordered:
        rank = out[-1][0] if out and out[-1][2] == ratings[pk] else len(out) + 1
        out.append((rank, pk, ratings[pk]))
    return out


def _document_players(document: dict) -> set[str]:
    """The players the document's list ranks: its rows; or the players of its ``ratings`` that have a ``change``
    when it has changes (Gorbunov: ``ratings`` also names whoever has only a starting rating or played only an
    unrated tournament so far, and the list ranks a player from their first rated tournament); else all of its
    ``ratings`` (DIRS: every player with a rating)."""
    if "list" in document:
        return {row["player"] for row in document["list"]}
    if "changes" in document:
        return {change["player"] for change in document["changes"]}
    return set(document["ratings"])


def _ranked(rows: list[tuple]) -> list[tuple]:
    """Rows with equal ratings come in the list's own order of names: compared as a set within each rank."""
    return sorted(rows)


@pytest.mark.parametrize("system", SYSTEMS, ids=lambda s: s.name)
def test_the_api_the_page_and_show_list_give_the_same_list(client, import_doc, show_list, system):  # noqa: F811
    import_doc(system.history())
    rating_list = RatingList.objects.get(slug=SHOW_LIST_SYSTEMS[system.name][1])
    for day in (None, *system.dates):
        document = show_list(system.name, *(["--as-of", day] if day else []))
        named = _document_players(document)
        # bots are rated (their rating moves the table's strength) but hold no place on a leaderboard
        named -= set(Player.objects.filter(external_id__in=named, is_bot=True).values_list("external_id", flat=True))
        players = dict(Player.objects.filter(external_id__in=named).values_list("external_id", "pk"))
        assert len(players) == len(named), (system.name, day)
        for league in system.leagues:
            where = (system.name, day, league)
            api = _api_rows(client, rating_list.slug, day, league)
            assert len(api) >= (5 if day is None else 1), where
            page = _page_rows(client, rating_list, system.columns, day, league)
            assert [row[:2] for row in api] == [row[:2] for row in page], where
            # the page shows a rating to its cents (preferans keeps more in the API and in show_list)
            assert all(abs(a[2] - p[2]) <= 0.005 + 1e-9 for a, p in zip(api, page, strict=True)), where
            assert _ranked(api) == _ranked(_show_list_rows(document, players, league)), where


def test_a_go_tournaments_standings_agree_in_the_api_show_list_and_the_page(client, import_doc, show_list):  # noqa: F811
    from tournaments.go.models import Registration
    from tournaments.models import Tournament

    doc = test_selfhandicap.generated_tournament()
    import_doc(doc)
    tournament = Tournament.objects.get(external_id=doc["id"])
    document = show_list("selfhandicap", "--tournament", doc["id"])
    names = {
        reg.player.external_id: reg.display_name("en")
        for reg in Registration.objects.filter(tournament_id=tournament.pk).select_related("player")
    }
    expected = [(row["place"], names[row["player"]], row["level"], row["tiebreak"]) for row in document["standings"]]
    body = client.get(f"/api/v1/tournaments/{tournament.pk}/?lang=en").json()
    api = [(row["place"], row["name"], row["level"], row["tiebreak"]) for row in body["go_standings"]]
    assert len(api) == len(doc["players"]) == 11
    assert sorted(api) == sorted(expected)  # players sharing a place are listed by name
    assert [row[0] for row in api] == sorted(row[0] for row in api)
    page = client.get(f"/en/go/{tournament.pk}/standings/").content.decode()
    where = [page.index(f">{name}<") for _place, name, _level, _tiebreak in api]
    assert where == sorted(where)  # the page lists them in the API's order
