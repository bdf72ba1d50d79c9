"""The Gorbunov section of a player's page: every active list the player is rated in, in the lists' order, with the
rating, the starting rating, the chart of the history and every change with its numbers and explanation, in both
languages; two queries whatever the number of changes."""

import datetime
import re

import pytest
from django.test import RequestFactory
from django.utils import translation

from ratings.gorbunov import services
from ratings.gorbunov.params import validate
from ratings.gorbunov.sections import player_section
from ratings.models import Engine, RatingChange, RatingEntry, RatingList, StartingRating
from tests.factories import PlayerFactory
from tests.ratings.gorbunov.conftest import make_tournament, week

pytestmark = pytest.mark.django_db


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


def _section(player, language):
    with translation.override(language):
        section = player_section(RequestFactory().get("/"), player)
    return section.html if section else None


def _rows(html: str) -> list[list[str]]:
    """The changes' rows of the section's tables, each cell's text."""
    rows = []
    for body in re.findall(r"<tbody>(.*?)</tbody>", html, re.S):
        for tr in re.findall(r"<tr>(.*?)</tr>", body, re.S):
            rows.append([re.sub(r"<[^>]+>", "", td).strip() for td in re.findall(r"<td[^>]*>(.*?)</td>", tr, re.S)])
    return rows


@pytest.mark.parametrize("language", ["ru", "en"])
def test_every_change_is_shown_with_its_numbers(players, lists, language):
    _everything, sealed, _hidden = lists
    player = players[0]
    html = _section(player, language)
    # The sealed list first (its ``ordering``), each list's changes newest first; the inactive list's not at all.
    changes = sorted(
        RatingChange.objects.filter(player=player, rating_list__is_active=True),
        key=lambda c: (c.rating_list_id != sealed.pk, -c.event_date.toordinal(), -c.pk),
    )
    rows = _rows(html)
    assert len(changes) > 5
    assert len(rows) == len(changes)
    for row, change in zip(rows, changes, strict=True):
        # The tournament's name (and, on a phone, the date), then its explanation folded under "why" (on a phone with
        # M, U, Rt, K and Rs). The name in Latin letters on the English page (issue 28).
        name, why = (part.strip() for part in row[1].split("\n", 1))
        assert name == f"{change.tournament.display_name(language)} {row[0]}"
        assert why.startswith("why" if language == "en" else "почему")
        assert change.explanation(language)[:20] in why
        assert row[2] == (f"{int(change.delta):+d}" if change.delta else "0")
        assert row[3:5] == [str(change.details["M"]), str(change.details["U"])]
        assert row[7] == str(int(change.before))
    title = "Рейтинги по карточным играм (Горбунов)" if language == "ru" else "Card-game ratings (Gorbunov)"
    assert title in html
    assert f'href="/{"en/" if language == "en" else ""}ratings/cards/gorbunov/"' in html
    # The late result: its tournament's name escaped, a badge, and K with the language's decimal separator.
    late = _section(players[11], language)
    assert ("Кубок" if language == "ru" else "Kubok") + " &lt;b&gt;&amp;&lt;/b&gt; «late»" in late
    assert 'class="badge text-bg-warning"' in late
    assert ('<td class="text-end d-none d-md-table-cell">1,5</td>' if language == "ru" else ">1.5</td>") in late


def test_a_starting_rating_an_empty_cell_and_a_single_point(players):
    starting = _section(players[1], "en")
    penalty = _section(players[3], "en")
    once = _section(players[12], "en")
    assert "Starting rating 1235, carried over from the federation's list of 29 Dec 2025." in starting
    penalty_row = next(row for row in _rows(penalty) if row[2] == "-30")
    assert penalty_row[1].startswith(f"{penalty_row[0]}\n")  # no tournament: the date alone before the explanation
    assert "penalty → 120" in penalty
    assert "fed-chart" not in once  # one week only: no chart
    both = _section(players[0], "en")
    # The sealed list first (its ``ordering``), by its Russian name in Latin letters (it has no English one), then
    # the other.
    assert both.index("Siled &lt;&amp;&gt;") < both.index("Gorbunov, all formats")
    assert 'id="gorbunov-chart-1-data"' in both
    assert 'data-source="gorbunov-chart-1-data"' in both
    assert "Old" not in both  # an inactive list
    # The heading: the rating rounded, the tournaments counted.
    entry = RatingEntry.objects.filter(player=players[4], snapshot__rating_list__slug="gorbunov").latest(
        "snapshot__as_of"
    )
    assert "<strong>124</strong>" in _section(players[4], "en")
    assert f"tournaments counted: {entry.events}" in _section(players[4], "en")


def test_the_section_reads_two_queries(players, django_assert_max_num_queries):
    with django_assert_max_num_queries(2):
        assert _section(players[0], "en")
    with django_assert_max_num_queries(2):
        assert _section(players[11], "ru")  # the player with the most changes
    with django_assert_max_num_queries(1):
        assert _section(players[-1], "en") is None  # never played
