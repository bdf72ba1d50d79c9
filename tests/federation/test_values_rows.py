"""``federation.db.values_rows`` (a list page's rows through the server-binding cursor, issue 16) gives the rows
``QuerySet.values`` gives: the same names, order, types and conversions; a club filter's options written from the
club's label columns are the ones its ``ModelChoiceField`` offered; a table's page and sort links, encoded once
around the value, are the ones ``{% querystring_replace %}`` wrote; a list table's columns are its own."""

from decimal import Decimal

import pytest
from django.db.models import F, Window
from django.db.models.functions import Rank
from django.utils import translation

from federation.db import values_rows
from federation.filters import PlayerFilter
from federation.models import Club, Player
from federation.table_rows import select_options
from ratings.dirs.models import DirsRating
from ratings.preferans.models import PreferansRating
from tests.factories import ClubFactory, PlayerFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def players():
    club = ClubFactory(name="Дракон <&>", city="Тула")
    first = PlayerFactory(last_name="Петров", city="Тула", club=club)
    second = PlayerFactory(last_name="Сидоров", city="", club=None)
    third = PlayerFactory(last_name="Абрамов", city="Казань", club=club)
    PreferansRating.objects.create(player=first, rating=Decimal("1081.0200"), max_rating=Decimal("1200"), deals=12)
    PreferansRating.objects.create(player=second, rating=Decimal("999.5000"), max_rating=Decimal("999.5"), deals=3)
    DirsRating.objects.create(player=first, rating=120, initial_rating=100, declared_rank="10k", games=4)
    DirsRating.objects.create(player=second, rating=95, initial_rating=100, declared_rank="10k", games=2)
    DirsRating.objects.create(player=third, rating=120, initial_rating=100, declared_rank="10k", games=7)
    return first, second, third


def test_rows_through_the_bound_cursor_are_the_orm_values(postgres, players):
    first, second, _third = players
    ratings = PreferansRating.objects.select_related("player__club").order_by("-rating")
    fields = ("rating", "max_rating", "deals", "player_id", "player__last_name", "player__club__name")

    rows = values_rows(ratings, fields)

    assert rows == list(ratings.values(*fields))
    assert rows == [
        {
            "rating": 1081.02,
            "max_rating": 1200.0,
            "deals": 12,
            "player_id": first.pk,
            "player__last_name": "Петров",
            "player__club__name": "Дракон <&>",
        },
        {
            "rating": 999.5,
            "max_rating": 999.5,
            "deals": 3,
            "player_id": second.pk,
            "player__last_name": "Сидоров",
            "player__club__name": None,
        },
    ]


def test_an_annotation_selected_first_keeps_its_name(postgres, players):
    """A window's rank named first in ``values`` is the first column of the statement: each value under its name."""
    first, second, third = players
    board = DirsRating.objects.annotate(place=Window(Rank(), order_by=F("rating").desc())).order_by("-rating", "pk")

    rows = values_rows(board, ("place", "rating", "games", "player_id"))

    assert rows == list(board.values("place", "rating", "games", "player_id"))
    assert rows == [
        {"place": 1, "rating": 120, "games": 4, "player_id": first.pk},
        {"place": 1, "rating": 120, "games": 7, "player_id": third.pk},
        {"place": 3, "rating": 95, "games": 2, "player_id": second.pk},
    ]


def test_a_page_of_a_query_and_one_that_matches_nothing(postgres, players):
    ratings = PreferansRating.objects.order_by("-rating")

    assert values_rows(ratings[1:2], ("deals",)) == [{"deals": 3}]
    assert values_rows(ratings.filter(player__in=[]), ("deals",)) == []
    assert values_rows(ratings.filter(deals__gt=100), ("deals",)) == []


def test_club_options_are_written_from_the_clubs_name_and_city(players):
    ClubFactory(name="Альфа", city="")
    form = PlayerFilter({"club": str(Club.objects.get(name="Альфа").pk)}, queryset=Player.objects.all()).form
    alpha = Club.objects.get(name="Альфа")
    dragon = Club.objects.get(name="Дракон <&>")

    with translation.override("ru"):
        html = select_options(form["club"])

    assert html == (
        '<option value="">Все клубы</option>'
        f'<option value="{alpha.pk}" selected>Альфа</option>'
        f'<option value="{dragon.pk}">Дракон &lt;&amp;&gt; (Тула)</option>'
    )
    assert [str(club) for club in Club.objects.order_by("name")] == ["Альфа", "Дракон <&> (Тула)"]


@pytest.mark.parametrize(
    "query",
    [
        "",
        "q=%D0%98%D0%B2%D0%B0%D0%BD%D0%BE%D0%B2+%26+%3Cx%3E%27&city=&sort=-rank&page=3",
        "page=2&page=5&club=7",
        "q=918273645546372819",  # the mark itself, asked: each link encoded on its own
    ],
)
def test_page_and_sort_links_are_the_query_with_one_value_replaced(query):
    """A table's page and sort links (``QueryLinks``) are ``{% querystring_replace %}``'s, whatever the query."""
    from django.test import RequestFactory

    from federation.table_rows import QueryLinks, _with_query

    request = RequestFactory().get(f"/ratings/cards/gorbunov/?{query}")
    links = QueryLinks(request)

    for key, value in (("page", 1), ("page", 12), ("sort", "-rank"), ("sort", "name"), ("page", 400)):
        assert links(key, value) == _with_query(request, key, value)
    assert QueryLinks(RequestFactory().get("/x/?q=a%26b&page=2"))("page", 3) == "?q=a%26b&amp;page=3"


def test_a_list_tables_columns_are_its_own(players):
    """The list tables copy their columns once per table (``columns_copied_once``): hiding a column or giving it an
    accessor in one table leaves the next table and the class as they were."""
    from ratings.preferans.tables import LeaderboardTable

    first = LeaderboardTable(PreferansRating.objects.all())
    first.columns.hide("city")
    first.columns["club"].column.accessor = "player__city"

    second = LeaderboardTable(PreferansRating.objects.all())

    assert [column.name for column in first.columns.itervisible()] == [
        "rank",
        "player",
        "rating",
        "max_rating",
        "deals",
        "club",
    ]
    assert [column.name for column in second.columns.itervisible()] == [
        "rank",
        "player",
        "rating",
        "max_rating",
        "deals",
        "city",
        "club",
    ]
    assert second.columns["club"].column.accessor == "player__club__name"
    assert LeaderboardTable.base_columns["club"].accessor == "player__club__name"
    assert LeaderboardTable.base_columns["city"].visible is True
