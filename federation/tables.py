import copy
from functools import lru_cache

import django_tables2 as tables
from django.core.paginator import Paginator
from django.urls import get_script_prefix, reverse
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _

from federation import formatting
from federation.i18n import current_language
from federation.models import Player
from federation.table_rows import EMPTY, link
from tournaments.models import Result

# Phone-first tables (issue 16): place, player and rating come first and always show; a number never wraps; the
# columns marked FOLD are hidden below 768 px (the page still carries them in the download and on a wider screen).
NUMBER = {"th": {"class": "text-end"}, "td": {"class": "text-end text-nowrap"}}
FOLD = {"th": {"class": "d-none d-md-table-cell"}, "td": {"class": "d-none d-md-table-cell"}}
NUMBER_FOLD = {"th": {"class": "text-end d-none d-md-table-cell"}, "td": {"class": "text-end d-none d-md-table-cell"}}
NAME = {"td": {"class": "name"}}
#: The rating itself: marked so the browser test can check it is on screen at 390 px.
RATING = {"th": {"class": "text-end col-rating"}, "td": {"class": "text-end text-nowrap col-rating"}}


_ID_MARK = 918273645546372819


class _ColumnsCopiedOnce(dict):
    """A table class's ``base_columns`` whose deep copy (``Table.__init__`` makes one for every table) copies each
    column, not everything it refers to: about 350 ``deepcopy`` calls a list page (issue 16).

    Decision: what a table changes of its columns it rebinds (``column.accessor``, ``column.visible`` in
    django-tables2; ``BoundColumn.attrs`` builds new dicts from ``column.attrs``), so a copy of each column keeps one
    table's changes from another's; the attributes' dicts, the link and the verbose name are shared, read only."""

    def __deepcopy__(self, memo):
        return {name: copy.copy(column) for name, column in self.items()}


def columns_copied_once(table_class):
    """Class decorator: the table's columns copied per table as ``_ColumnsCopiedOnce`` says (the list tables)."""
    table_class.base_columns = _ColumnsCopiedOnce(table_class.base_columns)
    return table_class


@lru_cache(maxsize=256)
def _url_around_id(viewname: str, language: str | None, prefix: str) -> tuple[str, str]:
    head, tail = reverse(viewname, args=[_ID_MARK]).split(str(_ID_MARK))
    return head, tail


def url_with_id(viewname: str, pk: int) -> str:
    """``reverse(viewname, args=[pk])`` for a URL with one ``<int:...>`` part, reversed once per language: a table
    links every row, and ``reverse`` is a good part of a row's cost."""
    head, tail = _url_around_id(viewname, get_language(), get_script_prefix())
    return f"{head}{int(pk)}{tail}"


def id_urls(viewname: str):
    """``url_with_id`` for the rows of one page: the URL around the id looked up once (the language and the script
    prefix do not change within a page)."""
    head, tail = _url_around_id(viewname, get_language(), get_script_prefix())
    return lambda pk: f"{head}{int(pk)}{tail}"


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
    """Whether the request sets none of the filter's fields (the table then shows every row)."""
    return not any(request.GET.get(name) for name in filterset.filters if name not in ignore)


def stored_count(summary_count) -> int | None:
    """A count kept in a publication's summary (``KT("summary__players")``: text, or None when absent)."""
    try:
        return int(summary_count)
    except (TypeError, ValueError):
        return None


#: What a list's table and its download show of a player: the name in either alphabet (``Player.display_name``)
#: and the city.
LISTED_PLAYER = ("last_name", "first_name", "last_name_latin", "first_name_latin", "city")


#: A list row's player as ``lean_fields`` read it (``federation.table_rows``).
PLAYER_NAME_FIELDS = ("player__last_name", "player__first_name", "player__last_name_latin", "player__first_name_latin")


def row_name(row: dict, language: str) -> str:
    """``Player.display_name`` of a row read with ``PLAYER_NAME_FIELDS``."""
    return Player.name_in(language, *(row[field] for field in PLAYER_NAME_FIELDS))


def empty_or(value, make=None):
    """A cell of ``lean_cells``: ``make(value)`` (the value itself without ``make``), or ``EMPTY`` when the column's
    value is empty (django-tables2's ``None`` or ""), which shows the column's default without rendering."""
    if value is None or value == "":
        return EMPTY
    return value if make is None else make(value)


def listed(queryset, *own: str, player: str = "player", club: str | None = None):
    """A list's rows read with only the columns its table and its download show (``own``, the player's name and
    city, the club's name through ``club``): the rest of a player's row (search name, ids, dates) was most of the
    cost of reading a page of 50 (issue 16). A table that shows another column names it in ``own``."""
    fields = [*own, player, *(f"{player}__{name}" for name in LISTED_PLAYER)]
    if club:
        fields += [club, f"{club}__name"]
    return queryset.only(*fields)


def order_by_name(queryset, is_descending: bool, prefix: str = ""):
    """Players by name in the reader's alphabet: the English pages sort by the Latin name (a player without one by
    the Cyrillic, which sorts after every Latin name), the Russian pages by the Cyrillic name."""
    from django.db.models import Value
    from django.db.models.functions import Coalesce, Lower, NullIf

    if current_language().startswith("en"):
        fields = [
            Coalesce(NullIf(f"{prefix}last_name_latin", Value("")), f"{prefix}last_name"),
            Coalesce(NullIf(f"{prefix}first_name_latin", Value("")), f"{prefix}first_name"),
        ]
    else:
        fields = [f"{prefix}search_name"]  # Cyrillic first, lower case, ё as е (Ё sorts with Е)
    keys = [Lower(field).desc() if is_descending else Lower(field).asc() for field in fields]
    return queryset.order_by(*keys, f"{prefix}id"), True


class PlayerIdColumn(tables.Column):
    """The player's id, in the downloads only: it tells namesakes apart (hidden on the page)."""

    def __init__(self, accessor="player_id", **kwargs):
        super().__init__(verbose_name=_("Player id"), accessor=accessor, visible=False, orderable=False, **kwargs)


class PlayerTable(tables.Table):
    player_id = PlayerIdColumn(accessor="pk")
    name = tables.Column(
        verbose_name=_("Player"), accessor="last_name", order_by=("search_name", "id"), linkify=True, attrs=NAME
    )
    city = tables.Column(verbose_name=_("City"))
    club = tables.Column(verbose_name=_("Club"), accessor="club__name", order_by=("club__name",), attrs=FOLD)
    country = tables.Column(verbose_name=_("Country"), attrs=FOLD)
    tournament_count = tables.Column(verbose_name=_("Tournaments"), attrs=NUMBER)

    class Meta:
        model = Player
        fields = ["player_id", "name", "city", "club", "country", "tournament_count"]
        order_by = ("name",)
        attrs = {"class": "table table-sm table-striped table-hover align-middle", "id": "players"}

    def render_name(self, record):
        return record.display_name(current_language())

    def order_name(self, queryset, is_descending):
        return order_by_name(queryset, is_descending)

    def value_name(self, record):
        return record.display_name(current_language())

    def render_country(self, value):
        return formatting.country(value)

    def value_country(self, value):
        return formatting.country(value)


class PlayerResultTable(tables.Table):
    # Plain columns on purpose: a DateColumn compiles a template for every cell, and callables in linkify or
    # render_* are inspected for every cell; on a page of 50 rows that is most of the rendering time.
    date = tables.Column(
        verbose_name=_("Date"), accessor="tournament__end_date", attrs={"td": {"class": "text-nowrap"}}
    )
    tournament = tables.Column(
        verbose_name=_("Tournament"),
        accessor="tournament__name",
        linkify=lambda record: url_with_id("tournaments:tournament_detail", record.tournament_id),
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

    #: A page of rows read as values and written by ``lean_cells`` (``federation.table_rows``).
    lean_fields = ("tournament__end_date", "tournament_id", "tournament__name", "tournament__discipline")
    lean_fields += ("tournament__city", "place", "result_count")

    def lean_cells(self, row: dict) -> dict:
        """Each cell as the columns above write it, from a row of ``lean_fields``."""
        from django.utils.encoding import force_str

        from tournaments.models import Tournament

        disciplines = dict(Tournament._meta.get_field("discipline").flatchoices)
        discipline = row["tournament__discipline"]
        url = url_with_id("tournaments:tournament_detail", row["tournament_id"])
        return {
            "date": empty_or(row["tournament__end_date"], self.render_date),
            "tournament": empty_or(row["tournament__name"], lambda name: link(url, name)),
            "discipline": empty_or(force_str(disciplines.get(discipline, discipline), strings_only=True)),
            "city": empty_or(row["tournament__city"]),
            "place": empty_or(row["place"]),
            "result_count": empty_or(row["result_count"]),
        }

    def render_date(self, value):
        return formatting.day(value)
