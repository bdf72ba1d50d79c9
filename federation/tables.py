import copy
from collections.abc import Callable
from functools import lru_cache
from typing import NamedTuple

import django_tables2 as tables
from django.conf import settings
from django.core.paginator import Page, Paginator
from django.urls import get_script_prefix, reverse
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _
from django_tables2.utils import AttributeDict

from federation import formatting
from federation.i18n import current_language
from federation.models import Player
from federation.table_rows import (
    EMPTY,
    QueryLinks,
    attributes_html,
    cell_text,
    content_text,
    escape,
    pagination,
)

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


class _ResultColumn(NamedTuple):
    """A column of a player's results: its header, what sorts it (``order_by``'s arguments, ascending; None: it does
    not sort) and the classes of its ``<th>`` and ``<td>``."""

    name: str
    header: str
    order: Callable[[], tuple] | None
    th: str
    td: str


def _classes(attrs: dict, cell: str) -> str:
    """The classes of a column's ``th`` or ``td`` as django-tables2 writes them (sorted)."""
    return " ".join(sorted(attrs.get(cell, {}).get("class", "").split()))


def _discipline_order() -> tuple:
    """Disciplines sorted by their names in the reader's language (their codes sort differently in Russian)."""
    from django.db.models import Case, F, Value, When

    from tournaments.models import Discipline

    names = [When(tournament__discipline=code, then=Value(str(name))) for code, name in Discipline.choices]
    return (Case(*names, default=F("tournament__discipline")),)


RESULT_COLUMNS = (
    _ResultColumn("date", _("Date"), lambda: ("tournament__end_date",), "", "text-nowrap"),
    _ResultColumn("tournament", _("Tournament"), lambda: ("tournament__name",), "", _classes(NAME, "td")),
    _ResultColumn("place", _("Place"), lambda: ("place",), _classes(NUMBER, "th"), _classes(NUMBER, "td")),
    _ResultColumn("result_count", _("of"), None, "text-end", "text-end text-muted"),
    _ResultColumn("discipline", _("Discipline"), _discipline_order, _classes(FOLD, "th"), _classes(FOLD, "td")),
    _ResultColumn("city", _("City"), lambda: ("tournament__city",), _classes(FOLD, "th"), _classes(FOLD, "td")),
)
_RESULT_COLUMN_NAMES = {column.name: column for column in RESULT_COLUMNS}
#: Newest first: the order without a sort asked, and after the one asked (tournaments of the same day by name).
RESULT_ORDER = ("-tournament__end_date", "tournament__name", "pk")


class PlayerResults:
    """A player's "Tournaments and places": one page of their results read in one statement (the rows and how many
    there are, ``selectors.player_results_page``) and written as the site's tables are (``table_rows.table_html``).

    The same table, sort and page links as the django-tables2 table it was (``tests/federation/test_player_results``
    holds it to that table's HTML), without the table object, the ``COUNT(*)`` and the cell renderers: they were
    most of the player's page without its sections (issue 16). As django-tables2 reads the address:

    - ``?sort=`` (repeatable, ``-`` for descending) sorts by the columns named, ignoring any other name; the header
      marks them ``asc``/``desc`` and links each column to its next order; without ``?sort=`` the newest come first.
      Decision: results of the same date and order follow by date (newest first), tournament and id, so paging
      never repeats or skips a row; the discipline sorts by its name in the reader's language (before, sorting by
      it was a server error).
    - ``?page=`` (not a whole number: the first; below 1 or past the last: the last) and ``?per_page=``
      (``federation.middleware`` clamps it into 1..``PER_PAGE_MAX``).
    """

    @staticmethod
    def _asked(request, per_page: int) -> tuple:
        """What the address asks: the sorted columns, their aliases, the statement's shape, the page's size and
        number."""
        sorted_, aliases = _results_order(request.GET.getlist("sort"))
        shape = (current_language(), *aliases)  # the discipline sorts by its name in the reader's language
        asked_size, asked_page = _whole(request.GET.get("per_page")), _whole(request.GET.get("page"))
        per_page = per_page if asked_size is None else max(asked_size, 1)
        number = 1 if asked_page is None else asked_page
        return sorted_, aliases, shape, per_page, number

    @classmethod
    def statement(cls, request, player_id: int, *, per_page: int):
        """The statement the table sends first (``federation.db.reads_together``), None below the first page."""
        from federation import selectors

        _sorted, aliases, shape, per_page, number = cls._asked(request, per_page)
        if number < 1:
            return None
        return selectors.player_results_statement(
            player_id=player_id,
            order=lambda: _order_by(aliases),
            shape=shape,
            offset=(number - 1) * per_page,
            limit=per_page,
        )

    def __init__(self, request, player_id: int, *, per_page: int):
        from federation import selectors

        self.request = request
        self.sorted, aliases, shape, per_page, number = self._asked(request, per_page)

        def read(offset: int, limit: int) -> tuple[list[tuple], int | None]:
            return selectors.player_results_page(
                player_id=player_id, order=lambda: _order_by(aliases), shape=shape, offset=offset, limit=limit
            )

        rows, count = read((number - 1) * per_page, per_page) if number >= 1 else ([], None)
        if count is None:  # below the first page or past the last: the last, as django-tables2 shows it
            count = read(0, 1)[1]
            number = max(1, -(-count // per_page))
            rows = read((number - 1) * per_page, per_page)[0]
        self.count = count
        self.page = Page(rows, number, CountedPaginator((), per_page, count=count))

    def html(self) -> SafeString:
        links = QueryLinks(self.request)
        attributes = AttributeDict({"class": "table"})
        attributes.update(getattr(settings, "DJANGO_TABLES2_TABLE_ATTRS", {}))
        parts = ['<div class="table-container table-responsive">', f"<table {attributes_html(attributes)}>"]
        parts.append("<thead ><tr>")
        language = current_language()
        for column in RESULT_COLUMNS:
            parts.append(self._header(column, links, language))
        parts.append("</tr></thead>")
        disciplines = _discipline_cells(language)
        day = formatting.day_writer(language)
        tournament_url = _escaped_id_urls("tournaments:tournament_detail")
        whole = _whole_cell if not settings.USE_THOUSAND_SEPARATOR else _cell
        date, tournament, place, count, discipline, city = (f'<td class="{c.td}">' for c in RESULT_COLUMNS)
        rows = []
        for number, (pk, end_date, name, code, town, rank, participants) in enumerate(self.page.object_list):
            named = f'<a href="{tournament_url(pk)}">{escape(name)}</a>' if name else EMPTY_CELL  # link(url, name)
            rows.append(
                f'<tr class="{"odd" if number % 2 else "even"}">'
                f"{date}{_cell(day(end_date)) if end_date else EMPTY_CELL}</td>{tournament}{named}</td>"
                f"{place}{whole(rank)}</td>{count}{whole(participants)}</td>"
                f"{discipline}{disciplines.get(code) or _cell(code)}</td>"
                f"{city}{escape(town) if type(town) is str and town else _cell(town)}</td></tr>"
            )
        parts.append(f"<tbody >{chr(10).join(rows)}</tbody>")
        parts.append("</table>")
        parts.extend(pagination(links, "page", self.page))
        parts.append("</div>")
        return mark_safe("\n".join(parts))  # every value went through escape or link

    def _header(self, column: _ResultColumn, links, language: str) -> str:
        header = _header_texts(language)[column.name]
        classes = set(column.th.split())
        if column.order is not None:
            classes.add("orderable")
            alias = self.sorted.get(column.name)
            if alias is None:  # not sorted: the link sorts it ascending
                following = column.name
            elif alias.startswith("-"):
                classes.add("desc")
                following = column.name
            else:
                classes.add("asc")
                following = f"-{column.name}"
            header = f'<a href="{links("sort", following)}">{header}</a>'
        attributes = f'class="{" ".join(sorted(classes))}" ' if classes else ""
        return f'<th {attributes}scope="col">{header}</th>'


#: What an empty cell shows (django-tables2's default).
EMPTY_CELL = "—"


def _cell(value) -> str:
    """A cell's value as django-tables2 writes it: the default when empty, otherwise localised and escaped."""
    return EMPTY_CELL if value is None or value == "" else content_text(value)


def _whole_cell(value) -> str:
    """``_cell`` of a whole number (a place, a count) when numbers are not grouped: its digits."""
    return str(value) if type(value) is int else _cell(value)


def _escaped_id_urls(viewname: str):
    """``conditional_escape(url)`` of ``id_urls``' addresses (as ``link`` writes them), the escaping done once per
    page: it is the same for every id."""
    head, tail = _url_around_id(viewname, get_language(), get_script_prefix())
    head, tail = escape(head), escape(tail)
    return lambda pk: f"{head}{int(pk)}{tail}"


def _results_order(asked: list[str]) -> tuple[dict[str, str], list[str]]:
    """What ``?sort=`` asks of a player's results: each sorted column's alias (its first, e.g. ``-date``) and the
    aliases in their order (``_order_by`` turns them into ``order_by``'s arguments)."""
    if asked:  # any ?sort=, even one naming nothing, replaces the default (django-tables2)
        aliases = [a for a in asked if getattr(_RESULT_COLUMN_NAMES.get(a.removeprefix("-")), "order", None)]
    else:
        aliases = ["-date"]
    sorted_columns: dict[str, str] = {}
    for alias in aliases:
        sorted_columns.setdefault(alias.removeprefix("-"), alias)
    return sorted_columns, aliases


def _order_by(aliases: list[str]) -> tuple:
    """``order_by``'s arguments for the aliases asked, then the newest first (``RESULT_ORDER``)."""
    from django.db.models import F

    order = []
    for alias in aliases:
        for key in _RESULT_COLUMN_NAMES[alias.removeprefix("-")].order():
            expression = F(key) if isinstance(key, str) else key
            order.append(expression.desc() if alias.startswith("-") else expression.asc())
    order.extend(F(key[1:]).desc() if key.startswith("-") else F(key).asc() for key in RESULT_ORDER)
    return tuple(order)


def _whole(text: str | None) -> int | None:
    """``int(text)`` as django-tables2 reads ``?page=`` and ``?per_page=``; None when it is not a whole number."""
    try:
        return int(text)
    except (TypeError, ValueError):
        return None


@lru_cache(maxsize=16)
def _discipline_names(language: str) -> dict[str, str]:
    """The disciplines' names in a language (translations do not change while the process runs)."""
    from tournaments.models import Discipline

    return {code: str(name) for code, name in Discipline.choices}


@lru_cache(maxsize=16)
def _header_texts(language: str) -> dict[str, str]:
    """``cell_text`` of each result column's header in a language (translated once per process)."""
    return {column.name: cell_text(column.header) for column in RESULT_COLUMNS}


@lru_cache(maxsize=16)
def _discipline_cells(language: str) -> dict[str, str]:
    """``_cell`` of each discipline's name in a language (``_discipline_names``, escaped once)."""
    return {code: _cell(name) for code, name in _discipline_names(language).items()}
