"""The preferans section of the player's page, in both languages: a player with a rating only, a long history (more
games and deals than the section lists, tables of two to four, bots at the table, a bot's own page, a promotion to
Pro, a game late in the UTC day), starting ratings carried from the federation's list (a known and an unknown
league, no peak), names that need escaping and one without a Latin spelling."""

import datetime
import random
import re
from decimal import Decimal

import pytest
from django.utils import translation

from federation import formatting
from federation.models import BotLevel
from ratings.models import Engine, RatingList, StartingRating
from ratings.preferans.models import DealResult, Game, PreferansRating
from ratings.preferans.sections import player_section
from ratings.preferans.services import DealInput, deals_apply, game_create
from tests.factories import PlayerFactory

pytestmark = pytest.mark.django_db
LANGUAGES = ["ru", "en"]
START = datetime.datetime(2026, 1, 5, 18, tzinfo=datetime.UTC)


def _section(rf, player, language):
    with translation.override(language):
        section = player_section(rf.get("/"), player)
    return section.html if section else None


def _carried(player, **kwargs):
    rating_list = RatingList.objects.get(engine=Engine.PREFERANS)
    return StartingRating.objects.create(rating_list=rating_list, player=player, **kwargs)


def _play(tables, rng, start=START, prefix="t"):
    """One game per table (ids), each of 1 to 4 deals, a day apart; the last one at 22:30 UTC (the next day in
    Moscow, the site's time zone)."""
    for index, table in enumerate(tables):
        played_at = start + datetime.timedelta(days=index)
        if index == len(tables) - 1:
            played_at = played_at.replace(hour=22, minute=30)
        game, _ = game_create(server=None, external_id=f"{prefix}{index}", player_ids=table, played_at=played_at)
        for _deal in range(rng.randint(1, 4)):
            whists = [rng.randint(-25, 25) for _ in table[:-1]]
            whists.append(-sum(whists))
            deals_apply(deals=[DealInput(game=game, whists=dict(zip(table, whists, strict=True)))])


@pytest.fixture
def history():
    """A player ``me`` with 14 games and about 35 deals (the section lists 10 and 20), starting from the federation's
    list; opponents with names to escape, one without a Latin name, a bot, and a climber promoted to Pro."""
    me = PlayerFactory(last_name="Иванов", first_name="Пётр", last_name_latin="Ivanov", first_name_latin="Petr")
    _carried(me, list_date=datetime.date(2025, 12, 31), rating=Decimal("1450.1250"), league="pro")
    odd = PlayerFactory(last_name="О'Нил <b>&\"", first_name="", last_name_latin="", first_name_latin="")
    _carried(
        odd, list_date=datetime.date(2024, 6, 1), rating=Decimal("990"), max_rating=Decimal("1234.5678"), league="x"
    )
    climber = PlayerFactory(last_name="Быстров", last_name_latin="Bystrov")
    PreferansRating.objects.create(player=climber, rating=1795, max_rating=1795, league="amateur")
    level = BotLevel.objects.create(name="Средний", max_rating=Decimal("1300"))
    bot = PlayerFactory(last_name="Бот", first_name="Средний", is_bot=True, bot_level=level, last_name_latin="Bot")
    bot2 = PlayerFactory(last_name="Бот2", is_bot=True, bot_level=level, last_name_latin="")
    others = [PlayerFactory() for _ in range(3)]
    tables = [
        [me.pk, odd.pk, others[0].pk],
        [others[1].pk, me.pk],
        [me.pk, bot.pk, climber.pk, others[2].pk],
        [me.pk, bot.pk, bot2.pk],  # all opponents bots: a gain is capped
        [climber.pk, me.pk, others[0].pk],
    ]
    rng = random.Random(16)
    _play([tables[i % len(tables)] for i in range(14)], rng)
    return {"me": me, "odd": odd, "climber": climber, "bot": bot, "other": others[1]}


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_rating_only(rf, language):
    player = PlayerFactory()
    PreferansRating.objects.create(
        player=player, rating=1578.0573582173774, max_rating=1900, league="amateur", deals=50
    )
    html = _section(rf, player, language)
    with translation.override(language):
        assert f'id="preferans-rating">{formatting.rating(1578.0573582173774, 2)}</dd>' in html
        assert f">{formatting.rating(1900, 2)}</dd>" in html
    assert ">50</dd>" in html
    assert ("Любитель" if language == "ru" else "Amateur") in html
    assert "/ratings/how/preferans/" in html
    assert "preferans-games" not in html
    assert "preferans-chart" not in html
    assert "preferans-starting" not in html


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_large_rating_and_a_starting_rating_without_games(rf, language):
    player = PlayerFactory()
    PreferansRating.objects.create(player=player, rating=12345.678, max_rating=12345.678, league="pro", deals=0)
    _carried(
        player, list_date=datetime.date(2025, 1, 2), rating=Decimal("12000"), max_rating=Decimal("0"), league="pro"
    )
    html = _section(rf, player, language)
    with translation.override(language):
        twelve = formatting.rating(12000, 2)
        carried = formatting.day(datetime.date(2025, 1, 2))  # 02.01.2025 or 2 Jan 2025, as the page's other dates
    assert "preferans-starting" in html
    assert twelve in html
    assert carried in html
    assert ("Starting rating" if language == "en" else "Начальный рейтинг") in html


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_history_shows_what_a_reader_expects(rf, history, language):
    """The lists are cut at 10 games and 20 deals, newest first, each linked to its game; the chart has every game;
    names are escaped; the bots' cap is explained; the starting rating is told."""
    me = history["me"]
    html = _section(rf, me, language)
    assert html.count("</tr>") == 1 + 10 + 1 + 20
    assert "&#x27;" in html or "&#39;" in html  # the odd name escaped
    assert "<b>" not in html
    assert ("все соперники боты" if language == "ru" else "all opponents are bots") in html
    assert "preferans-starting" in html
    assert html.count('"x": "2026-') == 14  # the chart: a point for every game
    prefix = "/en" if language == "en" else ""
    games = list(Game.objects.filter(seats__player=me).order_by("-played_at").values_list("pk", flat=True))
    recent = html.split('id="preferans-games"', 1)[1].split("</table>", 1)[0]
    assert re.findall(r'href="([^"]+)"', recent) == [f"{prefix}/preferans/games/{pk}/" for pk in games[:10]]
    last = DealResult.objects.filter(player=me).order_by("-deal_id").first()
    with translation.override(language):
        assert f"{formatting.rating(last.rating_after, 2)}</td>" in html.split('id="preferans-deals"', 1)[1]
        assert formatting.rating(PreferansRating.objects.get(player=me).rating, 2) in html


@pytest.mark.parametrize("who", ["odd", "climber", "bot", "other"])
def test_everyone_at_the_tables_has_a_section(rf, history, who):
    html = _section(rf, history[who], "en")
    assert 'id="preferans-chart"' in html
    assert "Recent deals" in html
    with translation.override("en"):
        league = PreferansRating.objects.get(player=history[who]).get_league_display()
    assert f'<dd class="col-6 col-sm-9">{league}</dd>' in html


def test_no_rating_no_section(rf):
    assert player_section(rf.get("/"), PlayerFactory()) is None


def test_queries_do_not_grow_with_the_history(rf, history, django_assert_max_num_queries):
    player = PlayerFactory()
    PreferansRating.objects.create(player=player, rating=1000, max_rating=1000)
    with django_assert_max_num_queries(3):
        player_section(rf.get("/"), player)
    with django_assert_max_num_queries(7):
        player_section(rf.get("/"), history["me"])
    _play([[history["me"].pk, history["other"].pk]] * 30, random.Random(5), START + datetime.timedelta(days=40), "u")
    with django_assert_max_num_queries(7):
        player_section(rf.get("/"), history["me"])
