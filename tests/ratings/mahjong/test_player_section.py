"""A player's mahjong lists, on the shared player page's section and on the standalone page, in both languages: a
player in no list, in one list only, in all three with scores and their age coefficient below 100 %, one who dropped
out of the lists (the chart only), an earlier date, a tournament with markup in its name and one deleted since; the
same number of queries whatever the number of snapshots; the public API's ratings of the player read the same."""

import datetime

import pytest
from django.test import RequestFactory
from django.utils import translation

from federation.api.v1.reads import player_ratings
from ratings.mahjong import services
from ratings.mahjong.sections import player_context, player_section
from ratings.models import RatingEntry
from tests.factories import PlayerFactory
from tests.ratings.mahjong.factories import mahjong_tournament
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db

DAY = datetime.date(2025, 1, 10)


@pytest.fixture
def field():
    """Three kinds of players in tournaments from January 2024 to June 2025, the lists computed on several dates.

    ``star`` plays every tournament: eight offline (accredited, so in RR and CRR; the oldest have A below 100 % by the
    last date) and three online, one of them deleted after the lists were computed, one named with markup. ``crr``
    plays two tournaments that are not accredited: in CRR only. ``gone`` played two tournaments of early 2024, listed
    then, no longer listed when they are older than two years."""
    services.mahjong_setup_defaults()
    others = [PlayerFactory() for _ in range(17)]
    star, crr, gone = PlayerFactory(), PlayerFactory(), PlayerFactory()
    for number in range(8):
        order = others[number:] + others[:number]
        players = [*order[:number], star, *order[number:]] + ([gone] if number < 2 else [])
        name = 'Кубок <b>"Ветер" & Co</b>' if number == 3 else f"Турнир {number}"
        mahjong_tournament(
            players=players, end=datetime.date(2024, 1, 20) + datetime.timedelta(days=61 * number), name=name
        )
    for number in range(3):
        players = [*others[: 2 * number], star, *others[2 * number :]]
        mahjong_tournament(
            players=players, end=DAY + datetime.timedelta(days=30 * number), online=True, name=f"Онлайн {number}"
        )
    for number in range(2):
        mahjong_tournament(
            players=[crr, *others[:13]],
            end=datetime.date(2025, 2, 1) + datetime.timedelta(days=9 * number),
            accredited=False,
        )
    for day in ("2024-04-01", "2025-01-15", "2025-03-20", "2025-06-01", "2026-04-01"):
        services.mahjong_daily(today=datetime.date.fromisoformat(day))
    deleted = Tournament.objects.get(name="Онлайн 1")
    deleted_id = deleted.pk
    deleted.delete()
    return {"star": star, "crr": crr, "gone": gone, "nobody": PlayerFactory(), "deleted_id": deleted_id}


def _section(player):
    section = player_section(RequestFactory().get("/"), player)
    return section.html if section else None


@pytest.mark.parametrize("language", ["ru", "en"])
def test_what_the_section_shows(field, language):
    """A below 100 %, the markup escaped, a deleted tournament's id, a list without a snapshot yet, a first entry
    without a change, a player shown by the chart only, none at all."""
    with translation.override(language):
        star = _section(field["star"])
        crr = _section(field["crr"])
        gone = _section(field["gone"])
        assert _section(field["nobody"]) is None
    assert star.count("mahjong-breakdown") == 3
    assert ("14,29" if language == "ru" else "14.29") in star  # Турнир 2, 22 months old on 1 Apr 2026: A = 1/7
    name = (
        "Кубок &lt;b&gt;&quot;Ветер&quot; &amp; Co&lt;/b&gt;"
        if language == "ru"
        else "Kubok &lt;b&gt;&quot;Veter&quot; &amp; Co&lt;/b&gt;"
    )
    assert f"{name}</a>" in star
    # The newest list keeps its explanations (issue 29): a tournament deleted since is still named by its id.
    assert f"<td>{field['deleted_id']}</td>" in star
    assert "Онлайн 1" not in star
    assert "mahjong-stale" not in star
    assert ("подробнее" if language == "ru" else "details</a>") in star
    prefix = "" if language == "ru" else "/en"
    assert f'href="{prefix}/ratings/mahjong/players/{field["star"].pk}/"' in star
    assert f'href="{prefix}/ratings/mahjong/mahjong-rr/?date=2026-04-01"' in star
    assert crr.count("mahjong-breakdown") == 1
    assert crr.count("not listed (fewer" if language == "en" else "нет в списке") == 2
    assert "mahjong-breakdown" not in gone
    assert 'id="mahjong-chart"' in gone


def test_the_standalone_page_as_of_an_earlier_date(client, field):
    """On 1 May 2024 the online list had no snapshot yet (no date in its link), and RR's first entry had no change;
    the standalone page has no link to itself."""
    star = field["star"]
    early = client.get(f"/en/ratings/mahjong/players/{star.pk}/?date=2024-05-01").content.decode()
    assert 'mahjong-online/">' in early
    assert 'mahjong-rr/?date=2024-04-01">' in early
    assert '<td class="text-end"></td>' in early
    assert "details</a>" not in early
    entry = RatingEntry.objects.get(
        player=star, snapshot__rating_list__slug="mahjong-rr", snapshot__as_of=datetime.date(2024, 4, 1)
    )
    assert f'<td class="text-end fw-bold">{entry.rating:.2f}</td><td class="text-end">{entry.rank}</td>' in early
    before = client.get(f"/ratings/mahjong/players/{star.pk}/?date=2023-01-01").content.decode()
    assert "mahjong-breakdown" not in before
    assert 'mahjong-rr/">' in before  # no list had a snapshot yet: no date in the links
    assert before.count("нет в списке") == 3


@pytest.mark.parametrize("language", ["ru", "en"])
def test_the_breakdown_is_the_stored_entry(field, language):
    star = field["star"]
    with translation.override(language):
        context = player_context(player=star, as_of=None, language=language)
        html = _section(star)
    rows = {row["list"].slug: row for row in context["rows"]}
    for slug in ("mahjong-rr", "mahjong-crr", "mahjong-online"):
        entry = RatingEntry.objects.filter(player=star, snapshot__rating_list__slug=slug).latest("snapshot__as_of")
        assert rows[slug]["entry"] == entry
        assert rows[slug]["formula"] == entry.details["formula"][language]
        assert [score["t"] for score in rows[slug]["scores"]] == [score["t"] for score in entry.details["scores"]]
        assert f'data-list="{slug}"' in html
    assert html.count('<span class="badge text-bg-primary">A</span>') == sum(
        score["in_a"] for row in rows.values() for score in row["scores"]
    )


def test_queries_do_not_grow_with_the_snapshots(field, django_assert_max_num_queries):
    """Nine queries at most (the lists, their snapshots in force, the player's entries, the history, the four reads
    of the tournaments the breakdowns are worked out from, their names), with five dates computed and with more."""
    star = field["star"]
    with django_assert_max_num_queries(9):
        _section(star)
    for day in ("2026-04-02", "2026-05-01", "2026-06-01", "2026-07-01"):
        mahjong_tournament(players=[star, *PlayerFactory.create_batch(15)], end=datetime.date.fromisoformat(day))
        services.mahjong_daily(today=datetime.date.fromisoformat(day))
    with django_assert_max_num_queries(5):
        _section(star)


def test_the_api_reads_the_same_ratings(field):
    for who in ("star", "crr", "gone"):
        expected = []
        for slug in ("mahjong-rr", "mahjong-crr", "mahjong-online"):
            entries = RatingEntry.objects.filter(player=field[who], snapshot__rating_list__slug=slug)
            newest = entries.model.objects.filter(snapshot__rating_list__slug=slug).order_by("-snapshot__as_of")
            entry = entries.filter(snapshot__as_of=newest.values("snapshot__as_of")[:1]).first()
            if entry is None:
                continue
            expected.append(
                {
                    "system": slug,
                    "list": slug,
                    "list_name": entry.snapshot.rating_list.display_name("en"),
                    "rating": float(entry.rating),
                    "rank": entry.rank,
                    "as_of": entry.snapshot.as_of,
                    "details": {
                        "tournaments": entry.events,
                        "part_a": entry.details.get("part_a"),
                        "part_b": entry.details.get("part_b"),
                    },
                }
            )
        found = [item for item in player_ratings(field[who], "en") if item["system"].startswith("mahjong")]
        assert found == expected, who


def test_at_most_three_series_a_chart_and_the_places_on_their_own(field):
    """Issue 28: the ratings on one chart (at most three lines, the tournaments marked only while they leave room),
    the places on a small chart of their own with 1 at the top; a card per list that lists the player."""
    context = player_context(player=field["star"], as_of=None, language="en")
    chart, ranks = context["chart"], context["rank_chart"]
    assert 1 <= len(chart["series"]) <= 3
    assert all(s["axis"] == "rating" for s in chart["series"])
    assert len(chart["series"]) + (1 if chart["events"] else 0) <= 3
    assert ranks["reverse"] is True
    assert [s["label"] for s in ranks["series"]] == [s["label"] for s in chart["series"]]
    assert all(point["y"] >= 1 for s in ranks["series"] for point in s["points"])
    with translation.override("en"):
        section = player_section(RequestFactory().get("/"), field["star"])
    listed = [row for row in context["rows"] if row["entry"] is not None]
    assert [card.name for card in section.cards] == [row["name"] for row in listed]
    assert all(card.rank == str(row["entry"].rank) for card, row in zip(section.cards, listed, strict=True))
    assert 'id="mahjong-rank-chart"' in section.html
    assert "chart-box chart-box-small" in section.html


def test_an_earlier_date_is_explained_again_and_says_when_the_tournaments_changed_since(client, field):
    """Issue 29: an older date keeps its numbers only; its breakdown is worked out again from the tournaments. The
    online list of 1 June 2025 counted a tournament deleted since: its rating stays the published one, and the page
    says the breakdown follows the tournaments as they are now. RR's, whose tournaments did not change, says nothing."""
    star = field["star"]
    page = client.get(f"/en/ratings/mahjong/players/{star.pk}/?date=2025-06-01").content.decode()
    online = RatingEntry.objects.filter(
        player=star, snapshot__rating_list__slug="mahjong-online", snapshot__as_of__lte="2025-06-01"
    ).latest("snapshot__as_of")
    assert f"{online.rating:.2f}" in page
    assert page.count("mahjong-stale") == 1
    assert page.count("mahjong-breakdown") == 3
