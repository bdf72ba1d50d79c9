import django_tables2 as tables
from django.core.paginator import Paginator
from django.db.models import Case, F, Value, When
from django.db.models.functions import Coalesce, Lower, NullIf
from django.utils.translation import gettext_lazy as _

from federation import formatting
from federation.i18n import current_language
from federation.latin import name_of
from federation.models import Player, city_name
from tournaments.models import Discipline

# Phone-first tables (issue 16): place, player and rating come first and always show; a number never wraps; the
# columns marked FOLD are hidden below 768 px (the page still carries them in the download and on a wider screen).
NUMBER = {"th": {"class": "text-end"}, "td": {"class": "text-end text-nowrap"}}
FOLD = {"th": {"class": "d-none d-md-table-cell"}, "td": {"class": "d-none d-md-table-cell"}}
NUMBER_FOLD = {"th": {"class": "text-end d-none d-md-table-cell"}, "td": {"class": "text-end d-none d-md-table-cell"}}
NAME = {"td": {"class": "name"}}
#: The rating itself: marked so the browser test can check it is on screen at 390 px.
RATING = {"th": {"class": "text-end col-rating"}, "td": {"class": "text-end text-nowrap col-rating"}}


class CountedPaginator(Paginator):
    """A paginator told how many rows there are (a count stored with the publication), so it does not count them:
    ``COUNT(*)`` over 20,000 rows was a good part of a list page (issue 16).

    Decision: the stored count is the publication's (``summary["players"]`` of a Gorbunov week, ``["entries"]`` of
    a mahjong date). A profile deleted after the publication (a merge of duplicates deletes the other profile and
    its entries) leaves it one too high until the list is published or rebuilt again; the rows are read as they
    are. A list without a stored count (older data) is counted."""

    def __init__(self, object_list, per_page, *args, count: int, **kwargs):
        super().__init__(object_list, per_page, *args, **kwargs)
        self.count = count  # instead of the cached property


def paginate(request, table, *, per_page: int, count: int | None = None) -> None:
    """``RequestConfig(request, paginate={"per_page": ...}).configure(table)``, with the number of rows when the
    caller knows it."""
    options = {"per_page": per_page}
    if count is not None:
        options.update(paginator_class=CountedPaginator, count=count)
    tables.RequestConfig(request, paginate=options).configure(table)


def unfiltered(request, filterset, *, ignore=()) -> bool:
    """Whether the request sets none of the fields of ``filterset`` (a filter set or its class): the table then
    shows every row."""
    return not any(request.GET.get(name) for name in filterset.base_filters if name not in ignore)


def stored_count(summary_count) -> int | None:
    """A count kept in a publication's summary (``KT("summary__players")``: text, or None when absent)."""
    try:
        return int(summary_count)
    except (TypeError, ValueError):
        return None


#: What a list's table and its download show of a player: the name in either alphabet (``Player.display_name``)
#: and the city.
LISTED_PLAYER = ("last_name", "first_name", "last_name_latin", "first_name_latin", "city", "country")


def listed(queryset, *own: str, player: str = "player", club: str | None = None):
    """A list's rows read with only the columns its table and its download show (``own``, the player's name and
    city, the club's name through ``club``): the rest of a player's row (search name, ids, dates) was most of the
    cost of reading a page of 50 (issue 16). A table that shows another column names it in ``own``."""
    fields = [*own, player, *(f"{player}__{name}" for name in LISTED_PLAYER)]
    if club:
        fields += [club, f"{club}__name", f"{club}__name_en"]
    return queryset.only(*fields)


def order_by_name(queryset, is_descending: bool, prefix: str = ""):
    """Players by name in the reader's alphabet: the English pages sort by the Latin name (a player without one by
    the Cyrillic, which sorts after every Latin name), the Russian pages by the Cyrillic name."""
    if current_language().startswith("en"):
        fields = [
            Lower(Coalesce(NullIf(f"{prefix}last_name_latin", Value("")), f"{prefix}last_name")),
            Lower(Coalesce(NullIf(f"{prefix}first_name_latin", Value("")), f"{prefix}first_name")),
        ]
    else:
        fields = [F(f"{prefix}search_name")]  # Cyrillic first, lower case already, ё as е (Ё sorts with Е): its index
    keys = [field.desc() if is_descending else field.asc() for field in fields]
    return queryset.order_by(*keys, f"{prefix}id"), True


class NameColumn(tables.Column):
    """A column of names (a city, a club, a tournament): the download writes each as the page does, in the reader's
    alphabet (``federation.latin.name_of``); the page's own rows are written by its template with the ``name``
    filter."""

    def value(self, value, **kwargs):
        return name_of(value, current_language())


class CityColumn(tables.Column):
    """A column of cities: the download writes each as the page does (``federation.cities.city_name``)."""

    def value(self, value, **kwargs):
        return city_name(value, current_language())


class PlayerIdColumn(tables.Column):
    """The player's id, in the downloads only: it tells namesakes apart (hidden on the page)."""

    def __init__(self, accessor="player_id", **kwargs):
        super().__init__(verbose_name=_("Player id"), accessor=accessor, visible=False, orderable=False, **kwargs)


class PlayerTable(tables.Table):
    """The players' list: its rows written by ``federation/player_table.html`` (the HTML of the name, the club and the
    country lives there), the ``value_*`` methods for the downloads."""

    player_id = PlayerIdColumn(accessor="pk")
    name = tables.Column(verbose_name=_("Player"), accessor="last_name", order_by=("search_name", "id"), attrs=NAME)
    city = CityColumn(verbose_name=_("City"))
    club = NameColumn(verbose_name=_("Club"), accessor="club", order_by=("club__name",), attrs=FOLD)
    country = tables.Column(verbose_name=_("Country"), attrs=FOLD)
    tournament_count = tables.Column(verbose_name=_("Tournaments"), attrs=NUMBER)

    class Meta:
        model = Player
        fields = ["player_id", "name", "city", "club", "country", "tournament_count"]
        order_by = ("name",)
        attrs = {"class": "table table-sm table-striped table-hover align-middle", "id": "players"}
        template_name = "federation/player_table.html"

    def order_name(self, queryset, is_descending):
        return order_by_name(queryset, is_descending)

    def value_name(self, record):
        return record.display_name(current_language())

    def value_country(self, value):
        return formatting.country(value)


#: Results of the same date, place, city... follow newest first, then by tournament and id: paging never repeats or
#: skips a row.
RESULT_ORDER = ("-tournament__end_date", "tournament__name", "pk")


def _results_by(queryset, key, is_descending: bool):
    """``queryset`` sorted by ``key`` (a field or an expression), then ``RESULT_ORDER``."""
    key = F(key) if isinstance(key, str) else key
    return queryset.order_by(key.desc() if is_descending else key.asc(), *RESULT_ORDER), True


class PlayerResultTable(tables.Table):
    """A player's "Tournaments and places" (``selectors.player_results``), newest first; its rows written by
    ``federation/player_results_table.html``. Decision: the discipline sorts by its name in the reader's language."""

    date = tables.Column(
        verbose_name=_("Date"), accessor="tournament__end_date", attrs={"td": {"class": "text-nowrap"}}
    )
    tournament = NameColumn(
        verbose_name=_("Tournament"), accessor="tournament", order_by=("tournament__name",), attrs=NAME
    )
    place = tables.Column(verbose_name=_("Place"), attrs=NUMBER)
    result_count = tables.Column(
        verbose_name=_("of"),
        orderable=False,
        attrs={"th": {"class": "text-end"}, "td": {"class": "text-end text-muted"}},
    )
    discipline = tables.Column(verbose_name=_("Discipline"), accessor="tournament__discipline", attrs=FOLD)
    city = CityColumn(verbose_name=_("City"), accessor="tournament__city", attrs=FOLD)

    class Meta:
        order_by = ("-date",)
        template_name = "federation/player_results_table.html"

    def order_date(self, queryset, is_descending):
        return _results_by(queryset, "tournament__end_date", is_descending)

    def order_tournament(self, queryset, is_descending):
        return _results_by(queryset, "tournament__name", is_descending)

    def order_place(self, queryset, is_descending):
        return _results_by(queryset, "place", is_descending)

    def order_discipline(self, queryset, is_descending):
        names = [When(tournament__discipline=code, then=Value(str(name))) for code, name in Discipline.choices]
        return _results_by(queryset, Case(*names, default=F("tournament__discipline")), is_descending)

    def order_city(self, queryset, is_descending):
        return _results_by(queryset, "tournament__city", is_descending)


class ClubTable(tables.Table):
    """The clubs' list, by city then name (``federation.clubs.club_list``); each name links to the club's page."""

    club_id = tables.Column(verbose_name=_("Club id"), accessor="pk", visible=False, orderable=False)
    name = tables.Column(verbose_name=_("Club"), linkify=True, order_by=("sort_name", "pk"), attrs=NAME)
    city = CityColumn(verbose_name=_("City"), order_by=("city", "sort_name", "pk"), default="—")
    country = tables.Column(verbose_name=_("Country"), order_by=("country", "city", "sort_name", "pk"), attrs=FOLD)
    player_count = tables.Column(verbose_name=_("Players"), order_by=("player_count", "sort_name", "pk"), attrs=NUMBER)

    class Meta:
        order_by = ("city",)
        attrs = {"class": "table table-sm table-striped table-hover align-middle", "id": "clubs"}
        template_name = "django_tables2/slim.html"
        empty_text = _("No club matches the filter.")

    def render_name(self, record):
        return record.display_name(current_language())

    def value_name(self, record):
        return record.display_name(current_language())

    def render_city(self, value):
        return city_name(value, current_language())

    def render_country(self, value):
        return formatting.country(value)

    def value_country(self, value):
        return formatting.country(value)


class ClubTournamentTable(tables.Table):
    """A club's tournaments (``federation.clubs.club_tournaments``), newest first: the tournaments its players
    played, how many of them and their best place."""

    end_date = tables.DateColumn(verbose_name=_("Date"), attrs={"td": {"class": "text-nowrap"}}, orderable=False)
    name = tables.Column(verbose_name=_("Tournament"), linkify=True, attrs=NAME, orderable=False)
    # On a phone: the date, the tournament and the best place (the number of the club's players folds away).
    club_players = tables.Column(verbose_name=_("Club players"), attrs=NUMBER_FOLD, orderable=False)
    best_place = tables.Column(
        verbose_name=_("Best place"),
        attrs={"th": {"class": "text-end text-wrap"}, "td": {"class": "text-end text-nowrap"}},  # a two-word header
        orderable=False,
    )
    discipline = tables.Column(verbose_name=_("Discipline"), attrs=FOLD, orderable=False)

    class Meta:
        attrs = {"class": "table table-sm table-striped align-middle", "id": "club-tournaments"}
        template_name = "django_tables2/slim.html"

    def render_end_date(self, value):
        return formatting.day(value)

    def render_name(self, record):
        return record.display_name(current_language())
