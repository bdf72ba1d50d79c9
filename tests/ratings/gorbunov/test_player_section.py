"""The Gorbunov section of a player's page, written from plain rows in Python (issue 16), is byte for byte what the
section wrote before: the old path (model instances, the section's template, its rows and the chart's include) is
kept below as the reference and both are rendered for the same players in both languages."""

import datetime
from pathlib import Path

import pytest
from django.db import connection
from django.template import Context, Template
from django.test import RequestFactory
from django.test.utils import CaptureQueriesContext
from django.utils import translation
from django.utils.html import escape
from django.utils.safestring import mark_safe
from django.utils.translation import gettext

from federation import charts, formatting
from federation.table_rows import cell_text
from federation.tables import url_with_id
from ratings.gorbunov import services
from ratings.gorbunov.params import validate
from ratings.gorbunov.sections import player_section
from ratings.models import Engine, RatingChange, RatingEntry, RatingList, StartingRating
from tests.factories import PlayerFactory
from tests.ratings.gorbunov.conftest import make_tournament, week

pytestmark = pytest.mark.django_db

# --- the reference: the section as it was written before -----------------------------------------------------------

#: ``gorbunov/player_section.html`` as it was, its rows given ready (``_old_rows``) instead of ``{% change_rows %}``.
OLD_TEMPLATE = (Path(__file__).parent / "player_section_before.html").read_text()


def _old_rows(changes, language) -> str:
    late = escape(gettext("late"))
    why = escape(gettext("why"))
    lines = []
    for change in changes:
        details = change.details or {}
        tournament = ""
        if change.tournament_id:
            url = url_with_id("tournaments:tournament_detail", change.tournament_id)
            tournament = f'<a href="{url}">{escape(change.tournament.name)}</a>'
        if details.get("late"):
            tournament += f' <span class="badge text-bg-warning">{late}</span>'
        lines.append(
            "<tr>"
            f'<td class="text-nowrap">{escape(formatting.day(change.event_date))}</td>'
            f"<td>{tournament}</td>"
            f'<td class="text-end fw-bold">{escape(formatting.delta(change.delta, 0))}</td>'
            f'<td class="text-end d-none d-md-table-cell">{cell_text(details.get("M", ""))}</td>'
            f'<td class="text-end d-none d-md-table-cell">{cell_text(details.get("U", ""))}</td>'
            f'<td class="text-end d-none d-md-table-cell">{escape(formatting.rating(details.get("Rt", ""), 2))}</td>'
            f'<td class="text-end d-none d-md-table-cell">{cell_text(details.get("K", ""))}</td>'
            f'<td class="text-end d-none d-md-table-cell">{escape(formatting.rating(change.before, 0))}</td>'
            f"<td><details><summary>{why}</summary>"
            f"{escape(formatting.plain_explanation(change.explanation(language)))}</details></td>"
            "</tr>"
        )
    return mark_safe("\n".join(lines))


def old_section(player) -> str | None:
    language = translation.get_language()
    entries = (
        RatingEntry.objects.filter(player=player, snapshot__rating_list__engine=Engine.GORBUNOV)
        .select_related("snapshot__rating_list")
        .order_by("snapshot__rating_list__ordering", "snapshot__rating_list_id", "snapshot__as_of")
    )
    by_list = {}
    for entry in entries:
        rating_list = entry.snapshot.rating_list
        if not rating_list.is_active:
            continue
        item = by_list.setdefault(rating_list.pk, {"list": rating_list, "points": [], "changes": [], "starting": None})
        item["points"].append((entry.snapshot.as_of.isoformat(), int(entry.rating)))
        item["current"] = entry
    if not by_list:
        return None
    for change in (
        RatingChange.objects.filter(player=player, rating_list_id__in=list(by_list))
        .select_related("tournament")
        .order_by("-event_date", "-id")
    ):
        by_list[change.rating_list_id]["changes"].append(change)
    for starting in StartingRating.objects.filter(player=player, rating_list_id__in=list(by_list)):
        by_list[starting.rating_list_id]["starting"] = starting
    items = []
    for index, item in enumerate(by_list.values()):
        name = item["list"].display_name(language)
        events = [charts.event(c.event_date, c.tournament.name) for c in item["changes"] if c.tournament_id]
        items.append(
            {
                "name": name,
                "slug": item["list"].slug,
                "current": item["current"],
                "starting": item["starting"],
                "chart_id": f"gorbunov-chart-{index}",
                "data_id": f"gorbunov-chart-{index}-data",
                "chart": charts.time_chart(
                    [charts.series(name, item["points"], stepped=True)], events=events, rating=gettext("Rating")
                ),
                "rows": _old_rows(item["changes"], language),
            }
        )
    return Template(OLD_TEMPLATE).render(Context({"items": items}))


# --- the players --------------------------------------------------------------------------------------------------


@pytest.fixture
def lists(gorbunov_list):
    """Three lists: the all-formats one, a sealed one shown first (``ordering``) and an inactive one, not shown."""
    gorbunov_list.ordering = 2
    gorbunov_list.save()
    sealed = RatingList.objects.create(
        slug="sealed",
        name="Силед <&>",
        name_en="",  # no English name: the Russian one on the English page
        engine=Engine.GORBUNOV,
        ordering=1,
        params=validate({"formats": ["sealed"]}),
    )
    hidden = RatingList.objects.create(
        slug="old", name="Старый", name_en="Old", engine=Engine.GORBUNOV, is_active=False, params=validate({})
    )
    return gorbunov_list, sealed, hidden


@pytest.fixture
def players(lists, season, field):
    """Everyone of the season, after seven weeks and a late result (a tournament of week 1 approved in week 6)."""
    everything, sealed, _hidden = lists
    StartingRating.objects.create(
        rating_list=everything, player=field[1], list_date=datetime.date(2025, 12, 29), rating="1234.5"
    )
    StartingRating.objects.create(rating_list=sealed, player=field[2], list_date=datetime.date(2026, 1, 5), rating=140)
    for rating_list in lists:
        for n in range(1, 6):
            services.gorbunov_publish(rating_list_id=rating_list.pk, week=week(n))
    late = make_tournament(field[::-1][:7], week(1) + datetime.timedelta(days=3), k=1.5, name="Кубок <b>&</b> «late»")
    for rating_list in lists:
        for n in range(6, 8):
            services.gorbunov_publish(rating_list_id=rating_list.pk, week=week(n))
    late_change = RatingChange.objects.get(tournament=late, player=field[11], rating_list=everything)
    assert late_change.details["late"]
    late_change.details = {**late_change.details, "K": 1.5}  # a coefficient with decimals, in the reader's language
    late_change.save()
    assert StartingRating.objects.filter(player=field[1]).exists()
    # A change with no tournament (kept by the model; the section shows an empty cell and no chart event).
    RatingChange.objects.create(
        rating_list=everything,
        player=field[3],
        event_date=week(7),
        before=150,
        after=120,
        delta=-30,
        details={"K": 2, "Rt": 133.3333},
        explanation_ru="штраф -> 120",
        explanation_en="penalty -> 120",
    )
    once = PlayerFactory()  # one tournament only: a single point, no chart
    make_tournament([once, *field[:4]], week(8) + datetime.timedelta(days=1))
    for rating_list in lists:
        services.gorbunov_publish(rating_list_id=rating_list.pk, week=week(9))
    # Ratings stored with a fraction: rounded in the heading, cut to whole points on the chart (as before).
    RatingEntry.objects.filter(player=field[4], snapshot__rating_list=everything).update(rating="123.6")
    return [*field, once, PlayerFactory()]


@pytest.mark.parametrize("language", ["ru", "en"])
def test_the_section_is_what_it_was(players, language):
    request = RequestFactory().get("/")
    shown = 0
    with translation.override(language):
        for player in players:
            old = old_section(player)
            new = player_section(request, player)
            assert new == old, player
            shown += new is not None
    assert shown == len(players) - 1  # the last player never played
    with translation.override(language):
        sample = player_section(request, players[11])
    assert "Кубок &lt;b&gt;&amp;&lt;/b&gt; «late»" in sample
    assert 'class="badge text-bg-warning"' in sample
    assert ('<td class="text-end d-none d-md-table-cell">1,5</td>' if language == "ru" else ">1.5</td>") in sample


def test_a_starting_rating_an_empty_cell_and_a_single_point(players):
    request = RequestFactory().get("/")
    with translation.override("en"):
        starting = player_section(request, players[1])
        penalty = player_section(request, players[3])
        once = player_section(request, players[12])
    assert "Starting rating 1235, carried over from the federation's list of 29 Dec 2025." in starting
    assert '<td></td><td class="text-end fw-bold">-30</td>' in penalty
    assert "penalty → 120" in penalty
    assert "fed-chart" not in once  # one week only: no chart
    with translation.override("en"):
        both = player_section(request, players[0])
    # The sealed list first (its ``ordering``), by its Russian name (it has no English one), then the other.
    assert both.index("Силед &lt;&amp;&gt;") < both.index("Gorbunov, all formats")
    assert 'id="gorbunov-chart-1-data"' in both
    assert "Old" not in both  # an inactive list


def test_the_section_reads_two_queries(players):
    request = RequestFactory().get("/")
    with CaptureQueriesContext(connection) as ctx:
        player_section(request, players[0])
    assert len(ctx.captured_queries) == 2  # three before: the starting rating is read with the ratings
    with CaptureQueriesContext(connection) as ctx:
        assert player_section(request, players[-1]) is None
    assert len(ctx.captured_queries) == 1
