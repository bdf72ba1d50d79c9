"""The site's tables and filter forms written in Python (``federation.table_rows``, issue 16) are the HTML that
django-tables2's Bootstrap 5 template and the old ``_filter_form.html`` wrote, cell for cell: the same values, links,
classes, sort and page links, empty text; only the indentation differs."""

import re

import pytest
from django.template import Context, RequestContext, Template
from django.test import RequestFactory
from django.utils import translation

from federation.filters import PlayerFilter
from federation.models import Player
from federation.tables import PlayerTable, paginate
from tests.factories import ClubFactory, PlayerFactory, ResultFactory, TournamentFactory
from tournaments.models import Discipline, Result, Tournament
from tournaments.tables import ResultTable, TournamentTable

pytestmark = pytest.mark.django_db

DJANGO_TABLES2 = "django_tables2/bootstrap5-responsive.html"

#: templates/_filter_form.html's fields as the template wrote them before (the reference).
OLD_FILTER_FIELDS = """{% load i18n lean_tables %}<form method="get" class="filter-form row g-2 align-items-end mb-3\
{% for field in filter.form %}{% if not forloop.first and field.value %} show-all{% endif %}{% endfor %}" role="search">
  {% if hidden_name %}<input type="hidden" name="{{ hidden_name }}" value="{{ hidden_value }}">{% endif %}
  {% for field in filter.form %}
    {% if forloop.counter == 2 %}<input type="checkbox" class="filter-toggle" id="filter-toggle-\
{{ filter.form.prefix|default:'f' }}"><label class="col-12 d-sm-none small text-primary mb-0" for="filter-toggle-\
{{ filter.form.prefix|default:'f' }}">{% translate "More filters" %}</label>{% endif %}
    <div class="col-12 col-sm-6 col-lg{% if not forloop.first %} filter-extra{% endif %}">
      <label class="form-label small mb-0" for="{{ field.id_for_label }}">{{ field.label }}</label>
      {% if field.field.widget.input_type == "select" %}
        <select name="{{ field.html_name }}" id="{{ field.id_for_label }}" class="form-select form-select-sm">
          {% for value, label in field.field.choices %}<option value="{{ value }}"\
{% if field.value|stringformat:"s" == value|stringformat:"s" %} selected{% endif %}>{{ label }}</option>{% endfor %}
        </select>
      {% else %}
        <input type="{{ field.field.widget.input_type }}" name="{{ field.html_name }}" id="{{ field.id_for_label }}" \
value="{{ field.value|default:'' }}" class="form-control form-control-sm" \
placeholder="{{ field.field.widget.attrs.placeholder|default:'' }}">
      {% endif %}
    </div>
  {% endfor %}"""


def _norm(html: str) -> str:
    html = re.sub(r"\s+", " ", html)
    return re.sub(r">\s+<", "><", html).replace("> ", ">").replace(" <", "<").strip()


def _both(table_factory, path: str, settings, **kwargs) -> tuple[str, str]:
    request = RequestFactory().get(path)
    rendered = []
    for template in (DJANGO_TABLES2, "django_tables2/lean.html"):
        settings.DJANGO_TABLES2_TEMPLATE = template
        table = table_factory()
        paginate(request, table, per_page=3, **kwargs)
        html = Template("{% load django_tables2 %}{% render_table table %}").render(
            Context({"table": table, "request": request})
        )
        rendered.append(_norm(html))
    return rendered[0], rendered[1]


@pytest.fixture
def registry():
    club = ClubFactory(name="Дракон <&>")
    players = [
        PlayerFactory(last_name=f"Петров{n}", last_name_latin=f"Petrov{n}", club=club if n % 2 else None, country="RU")
        for n in range(7)
    ]
    players.append(PlayerFactory(last_name="О'Нил", last_name_latin="", city="", country="IE"))
    tournament = TournamentFactory(name="Кубок <b>весны</b>", discipline=Discipline.MAHJONG)
    for place, player in enumerate(players, start=1):
        ResultFactory(tournament=tournament, player=player, place=place)
    Result.objects.create(tournament=tournament, player=None, participant_name="Гость", place=9)
    return players, tournament


@pytest.mark.parametrize("language", ["ru", "en"])
@pytest.mark.parametrize("path", ["/players/", "/players/?sort=-name&page=2", "/players/?page=3&city=x"])
def test_the_players_table_is_the_django_tables2_html(registry, settings, language, path):
    with translation.override(language):
        old, new = _both(
            lambda: PlayerTable(Player.objects.filter(is_bot=False).select_related("club")), path, settings
        )
    assert old == new
    assert "pagination" in new


@pytest.mark.parametrize("path", ["/t/", "/t/?sort=place&page=2", "/t/?sort=-name"])
def test_a_results_table_with_linkify_choices_booleans_and_no_profile_is_the_same(registry, settings, path):
    _players, tournament = registry
    old, new = _both(lambda: ResultTable(tournament.results.select_related("player__club")), path, settings)
    assert old == new
    old, new = _both(lambda: TournamentTable(Tournament.objects.all()), path.replace("place", "end_date"), settings)
    assert old == new
    assert "Кубок &lt;b&gt;весны&lt;/b&gt;" in new  # escaped once, as the template escaped it


def test_an_empty_table_and_a_known_count(registry, settings):
    old, new = _both(lambda: PlayerTable(Player.objects.none()), "/players/", settings)
    assert old == new
    old, new = _both(lambda: PlayerTable(Player.objects.order_by("pk")), "/players/?page=2", settings, count=8)
    assert old == new


def _filtersets():
    """Every list's filter set (the list filters set their places as the views do)."""
    from ratings.dirs.filters import DirsRatingFilter
    from ratings.dirs.models import DirsRating
    from ratings.gorbunov.filters import ListFilter
    from ratings.mahjong.filters import MahjongEntryFilter
    from ratings.models import RatingEntry
    from ratings.preferans.filters import LeaderboardFilter
    from ratings.preferans.models import PreferansRating

    places = {"cities": ["Москва", "Тверь <&>"], "countries": ["RU", "IE"]}
    return {
        "players": lambda data: PlayerFilter(data, queryset=Player.objects.all()),
        "gorbunov": lambda data: ListFilter(data, queryset=RatingEntry.objects.all(), **places),
        "mahjong": lambda data: MahjongEntryFilter(data, queryset=RatingEntry.objects.all(), **places),
        "preferans": lambda data: LeaderboardFilter(data, queryset=PreferansRating.objects.all(), **places),
        "dirs": lambda data: DirsRatingFilter(data, queryset=DirsRating.objects.all()),
    }


@pytest.mark.parametrize("name", ["players", "gorbunov", "mahjong", "preferans", "dirs"])
@pytest.mark.parametrize(
    "query",
    [{}, {"q": "петров", "city": "Москва"}, {"club": "1", "country": "RU"}, {"club": "abc", "week": "2026-W03"}],
)
def test_the_filter_form_fields_are_the_templates(registry, query, name):
    request = RequestFactory().get("/players/", query)
    filterset = _filtersets()[name](request.GET)
    context = Context({"filter": filterset, "hidden_name": "league", "hidden_value": "pro <x>", "request": request})
    old = Template(OLD_FILTER_FIELDS).render(context)
    new = Template("{% load lean_tables %}{% filter_fields filter hidden_name hidden_value %}").render(context)
    # The template wrote the class once per field set ("show-all show-all"); once is the same to a browser.
    assert _norm(re.sub(r"( show-all)+", " show-all", old)) == _norm(new)
    assert ("show-all" in new) == any(query.get(name) for name in list(filterset.filters)[1:])
    # Written without building the form; the form built (the list was filtered) writes the same.
    filterset.form  # noqa: B018
    assert Template("{% load lean_tables %}{% filter_fields filter hidden_name hidden_value %}").render(context) == new


@pytest.mark.parametrize(
    "query",
    [
        "",
        "page=3",
        "q=%D0%9F%D0%B5%D1%82%D1%80%D0%BE%D0%B2&page=2&sort=-rating",
        "_export=xlsx&city=a+b&city=%26%3D",
        "week=2026-W45&page=&x=1&_export=&page=9",
        "a=%3Cb%3E&a=&b",
    ],
)
def test_the_export_address_is_the_querystring_tags(query):
    from federation.table_rows import export_query

    request = RequestFactory().get(f"/ratings/?{query}")
    django_tag = Template('{% querystring _export="csv" page=None %}').render(RequestContext(request))
    assert export_query(request.GET) == django_tag.replace("&amp;", "&")
    assert Template("{% load lean_tables %}{% export_query %}").render(RequestContext(request)) == django_tag
