"""A player's "Tournaments and places" (``federation.tables.PlayerResults``, issue 16) is the table django-tables2
wrote before, cell for cell: the same values, links, classes, sort and page links, in both languages, on any page
and in any order the address asks; now in one query, and sortable by discipline too."""

import datetime
import re

import django_tables2 as tables
import pytest
from django.template import Context, Template
from django.test import RequestFactory
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext_lazy as _

from federation import formatting
from federation.selectors import player_results
from federation.tables import FOLD, NAME, NUMBER, PlayerResults
from tests.factories import PlayerFactory, ResultFactory, TournamentFactory
from tournaments.models import Discipline, Result, TournamentStatus

pytestmark = pytest.mark.django_db


def _norm(html: str) -> str:
    html = re.sub(r"\s+", " ", html)
    return re.sub(r">\s+<", "><", html).replace("> ", ">").replace(" <", "<").strip()


class ReferenceTable(tables.Table):
    """The django-tables2 table the player's page showed before (``PlayerResultTable``), as the reference."""

    date = tables.Column(
        verbose_name=_("Date"), accessor="tournament__end_date", attrs={"td": {"class": "text-nowrap"}}
    )
    tournament = tables.Column(
        verbose_name=_("Tournament"),
        accessor="tournament__name",
        linkify=lambda record: reverse("tournaments:tournament_detail", args=[record.tournament_id]),
        attrs=NAME,
    )
    discipline = tables.Column(verbose_name=_("Discipline"), accessor="tournament__get_discipline_display", attrs=FOLD)
    city = tables.Column(verbose_name=_("City"), accessor="tournament__city", attrs=FOLD)
    place = tables.Column(verbose_name=_("Place"), attrs=NUMBER)
    result_count = tables.Column(
        verbose_name=_("of"),
        attrs={"th": {"class": "text-end"}, "td": {"class": "text-end text-muted"}},
        orderable=False,
    )

    class Meta:
        model = Result
        fields = ["date", "tournament", "place", "result_count", "discipline", "city"]
        sequence = fields
        order_by = ("-date",)

    def render_date(self, value):
        return formatting.day(value)


CITIES = ["Москва", "", "Казань", "Омск <&>", "Тверь", "Пермь", "Абакан"]
DISCIPLINES = [Discipline.CARD_GAMES, Discipline.MAHJONG, Discipline.GO, Discipline.PREFERANS]


@pytest.fixture
def player():
    """Seven results, no two alike in any column the table sorts by (django-tables2 left ties in any order), one
    tournament without a city, one with markup in its name and city, and a draft that is not shown."""
    player = PlayerFactory()
    others = PlayerFactory.create_batch(3)
    for n, city in enumerate(CITIES):
        day = datetime.date(2025, 1, 1) + datetime.timedelta(days=37 * ((n * 3) % 7))
        tournament = TournamentFactory(
            name=f"Кубок {'<b>' if n == 3 else ''}{chr(ord('А') + (n * 5) % 7)}",
            start_date=day,
            end_date=day,
            city=city,
            discipline=DISCIPLINES[n % 4],
        )
        ResultFactory(tournament=tournament, player=player, place=(n * 4) % 7 + 1)
        for other in others[: n % 4]:
            ResultFactory(tournament=tournament, player=other, place=20 + others.index(other))
    ResultFactory(tournament__status=TournamentStatus.DRAFT, player=player, place=1)
    return player


QUERIES = [
    "",
    "?sort=place",
    "?sort=-place&per_page=3",
    "?sort=tournament&sort=-date",
    "?sort=-date&sort=date",
    "?sort=city&page=2&per_page=3",
    "?sort=-city&per_page=3&page=3",
    "?per_page=3&page=2",
    "?per_page=2&page=4",
    "?per_page=3&page=99",
    "?per_page=3&page=0",
    "?per_page=3&page=-2",
    "?per_page=3&page=abc",
    "?per_page=x",
    "?sort=nonsense",
    "?sort=result_count",
    "?sort=date,place",
    "?sort=",
    "?q=%3Cb%3E&sort=-date&per_page=4&page=2",
]


def _reference(request, player) -> str:
    table = ReferenceTable(player_results(player=player))
    tables.RequestConfig(request, paginate={"per_page": 50}).configure(table)
    template = Template("{% load django_tables2 %}{% render_table table 'django_tables2/bootstrap5-responsive.html' %}")
    return template.render(Context({"table": table, "request": request}))


@pytest.mark.parametrize("language", ["ru", "en"])
@pytest.mark.parametrize("query", QUERIES)
def test_the_table_is_the_django_tables2_table(player, language, query):
    request = RequestFactory().get(f"/players/{player.pk}/{query}")
    with translation.override(language):
        old = _reference(request, player)
        results = PlayerResults(request, player.pk, per_page=50)
        new = results.html()
    assert results.count == 7
    assert _norm(old) == _norm(new)
    if not query:
        assert "Кубок &lt;b&gt;" in new  # escaped once, as the template did
        assert "Омск &lt;&amp;&gt;" in new


def test_a_page_is_read_in_one_query_and_past_the_last_page_in_three(player, django_assert_num_queries):
    request = RequestFactory().get(f"/players/{player.pk}/", {"per_page": 3, "page": 3})
    with django_assert_num_queries(1):
        results = PlayerResults(request, player.pk, per_page=50)
    assert (results.count, results.page.number, len(results.page.object_list)) == (7, 3, 1)
    request = RequestFactory().get(f"/players/{player.pk}/", {"per_page": 3, "page": 9})
    with django_assert_num_queries(3):  # the page asked (empty), the count, the last page
        results = PlayerResults(request, player.pk, per_page=50)
    assert (results.count, results.page.number, len(results.page.object_list)) == (7, 3, 1)


@pytest.mark.parametrize(
    ("prefix", "order"),
    [
        ("", ["Го", "Коллекционные карточные игры", "Преферанс", "Риичи-маджонг"]),
        ("/en", ["Collectible card games", "Go", "Preferans", "Riichi mahjong"]),
    ],
)
def test_results_sort_by_the_name_of_the_discipline_in_the_readers_language(client, player, prefix, order):
    text = client.get(f"{prefix}/players/{player.pk}/", {"sort": "discipline"}).content.decode()
    table = text.split('<div class="table-container table-responsive">')[-1]
    disciplines = re.findall(r'<td class="d-md-table-cell d-none">([^<]*)</td><td class="d-md-table-cell', table)
    assert len(disciplines) == 7
    assert set(disciplines) == set(order)
    assert disciplines == sorted(disciplines, key=order.index)
    assert 'class="asc d-md-table-cell d-none orderable"' in text
    assert "?sort=-discipline" in text


def test_a_player_without_results_says_so(client):
    player = PlayerFactory()
    ResultFactory(tournament__status=TournamentStatus.DRAFT, player=player)
    text = client.get(f"/players/{player.pk}/").content.decode()
    assert "Результатов в утверждённых турнирах пока нет." in text
    assert "<table" not in text.split("Турниры и места")[1]
