"""A django-tables2 table written in Python: the same HTML its Bootstrap 5 template writes, several times faster.

django-tables2's template renders every cell through the template engine: for each cell it recomputes the column's
attributes, inspects the signature of the ``render_*`` method and formats the attributes again. On a page of 50
rows and eight columns that was most of a list page's time (issue 16). Here each column is prepared once per table
(its ``<td>`` attributes when they hold no callable, which arguments its ``render_*`` method takes), and then every
cell costs the value's own lookup and formatting only.

Kept from django-tables2, so a table behaves the same: the value lookup (``BoundRow._get_and_render_with``: accessors,
``get_FOO_display`` for a field with choices, the column's empty values and default), ``render_FOO`` / ``Column.render``
with the arguments they ask for, ``linkify``, callable attributes (computed per cell as django-tables2 does), the
``even``/``odd`` row classes and ``row_attrs``, and each column's ``localize``. The header, the footer and the
pagination are written as ``django_tables2/bootstrap5-responsive.html`` writes them (``querystring_replace``,
``table_page_range``), without its indentation (``templates/django_tables2/lean.html``).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from html import escape as _html_escape
from typing import NamedTuple
from urllib.parse import quote_plus

from django.conf import settings
from django.core.exceptions import FieldDoesNotExist
from django.db.models import Model, QuerySet
from django.forms.utils import pretty_name
from django.utils import formats
from django.utils.functional import Promise
from django.utils.html import format_html
from django.utils.http import urlencode
from django.utils.safestring import SafeString, mark_safe
from django.utils.timezone import template_localtime
from django.utils.translation import get_language
from django_tables2 import Column
from django_tables2.utils import A, AttributeDict, signature

from federation.db import fixed_rows, marked_rows, values_rows


def escape(text) -> SafeString:
    """``django.utils.html.escape`` without its ``keep_lazy`` wrapper (which looks through its arguments for a lazy
    string on every call): the same text. Hundreds of calls a list page (issue 16)."""
    return SafeString(_html_escape(str(text)))


def conditional_escape(text) -> SafeString:
    """``django.utils.html.conditional_escape``, the same way: a lazy string is evaluated, ``__html__`` kept."""
    if isinstance(text, Promise):
        text = str(text)
    if hasattr(text, "__html__"):
        return text.__html__()
    return SafeString(_html_escape(str(text)))


#: What django-tables2 offers a ``render_*`` method (``BoundRow._optional_cell_arguments``).
CELL_ARGUMENTS = ("value", "record", "column", "bound_column", "bound_row", "table")


def _has_callable(attrs) -> bool:
    return any(callable(value) or (isinstance(value, dict) and _has_callable(value)) for value in attrs.values())


#: ``_td_attributes``' answers: (the table's attributes, the column's, the HTML) by table class and column name.
_TD: dict[tuple, tuple] = {}
_TD_MAX = 512


def _td_attributes(table, bound_column) -> str | None:
    """``bound_column.attrs["td"].as_html()``, or None when the column's attributes hold a callable (computed for
    each cell). Kept per table class and column for as long as the table's and the column's attributes stay the same
    (the list tables share a column's attributes between their tables, ``federation.tables.columns_copied_once``):
    django-tables2 works out a column's ``<th>``, ``<td>`` and footer attributes and classes together, for every
    column of every page."""
    column = bound_column.column
    key = (type(table), bound_column.name)
    kept = _TD.get(key)
    if kept is not None and kept[1] is column.attrs and kept[0] == table.attrs:
        return kept[2]
    html = None if _has_callable(dict(column.attrs)) else attributes_html(bound_column.attrs["td"])
    if len(_TD) >= _TD_MAX:
        _TD.clear()
    _TD[key] = (dict(table.attrs), column.attrs, html)
    return html


def attributes_html(attributes: AttributeDict) -> str:
    """``attributes.as_html()``: each ``key="value"`` escaped, as ``format_html_join`` writes them, without its
    per-argument checks for lazy text (a table writes a few dozen a page)."""
    pairs = attributes._iteritems()  # what as_html writes: no None values, not the keys of the table's parts
    return " ".join(f'{conditional_escape(key)}="{conditional_escape(value)}"' for key, value in pairs)


class _Column:
    """One visible column, prepared once for every row of the page."""

    def __init__(self, table, bound_column, *, dynamic_table: bool):
        self.table = table
        self.bound_column = bound_column
        self.column = bound_column.column
        self.default = bound_column.default
        self.localize = self.column.localize
        self.td = None if dynamic_table else _td_attributes(table, bound_column)
        self.prepared = False  # the rest is worked out when a cell is rendered (not for rows written from values)

    def prepare(self) -> None:
        self.prepared = True
        table, bound_column = self.table, self.bound_column
        self.render = bound_column.render
        names, catch_all = signature(self.render)
        self.names = None if catch_all else tuple(names)
        self.callable = self.names is None or all(name in CELL_ARGUMENTS for name in self.names)
        # A column without render_FOO shows its value as it is (``Column.render``).
        self.plain = getattr(self.render, "__func__", None) is Column.render
        self.link = bound_column.link
        self.fast = self._fast_lookup(table, bound_column)
        # The common ``linkify=callable`` without attributes: the link's arguments worked out once too.
        self.url = self.link.url if self.link and not self.link.attrs and callable(self.link.url) else None
        if self.url is not None:
            names, catch_all = signature(self.url)
            self.url_names = None if catch_all else tuple(names)
            if self.url_names is not None and not all(name in CELL_ARGUMENTS for name in self.url_names):
                self.url = None

    def _fast_lookup(self, table, bound_column) -> bool:
        """Whether a value can be read by attributes alone: a model's rows, an accessor without arguments, a field
        without choices (django-tables2 shows ``get_FOO_display()`` for those), a plain column."""
        from django_tables2.columns.linkcolumn import BaseLinkColumn
        from django_tables2.columns.manytomanycolumn import ManyToManyColumn

        model = getattr(table.data, "model", None)
        accessor = A(bound_column.accessor)
        if model is None or accessor.callable_args or accessor.callable_kwargs:
            return False
        if isinstance(self.column, (BaseLinkColumn, ManyToManyColumn)):
            return False
        self.bits = accessor.bits
        self.empty_values = self.column.empty_values
        try:
            field = accessor.get_field(model)
        except FieldDoesNotExist:
            field = None
        return not getattr(field, "choices", None)

    def _value(self, record):
        """``Accessor.resolve`` for a model instance: attributes, callables called, stopping at ``None``."""
        current = record
        for bit in self.bits:
            if not isinstance(current, Model):
                return A(self.bound_column.accessor).resolve(record)
            current = getattr(current, bit)
            if callable(current) and not getattr(current, "do_not_call_in_templates", False):
                current = current()
            if current is None:
                break
        return current

    def call(self, row, bound_column, value=None):
        """``BoundRow._call_render`` with the arguments worked out once."""
        names = self.names
        if self.plain:
            content = value
        elif names == ("value",):
            content = self.render(value=value)
        elif names == ("record",):
            content = self.render(record=row.record)
        else:
            arguments = self._arguments(row, bound_column, value)
            if not self.callable:
                content = None
            elif names is None:
                content = self.render(**arguments)
            else:
                content = self.render(**{name: arguments[name] for name in names})
        if not self.link:
            return content
        if self.url is None:
            return self.link(content, **self._arguments(row, bound_column, value))
        if self.url_names == ("record",):
            href = self.url(record=row.record)
        else:
            arguments = self._arguments(row, bound_column, value)
            if self.url_names is None:
                href = self.url(**arguments)
            else:
                href = self.url(**{name: arguments[name] for name in self.url_names})
        return content if href is None else format_html('<a href="{}">{}</a>', href, content)

    def _arguments(self, row, bound_column, value) -> dict:
        return {
            "value": value,
            "record": row.record,
            "column": self.column,
            "bound_column": bound_column,
            "bound_row": row,
            "table": self.table,
        }

    def cell(self, row) -> str:
        if not self.prepared:
            self.prepare()
        record = row.record
        if self.fast and isinstance(record, Model):
            try:
                value = self._value(record)
            except Exception:  # as BoundRow._get_and_render_with: a lookup that fails shows the default
                value = None
            content = self.default if value in self.empty_values else self.call(row, self.bound_column, value)
        else:
            content = row._get_and_render_with(
                self.bound_column, render_func=partial(self.call, row), default=self.default
            )
        if self.td is None:
            self.bound_column.current_value = content
            self.bound_column.current_record = row.record
            td = self.bound_column.attrs["td"].as_html()
        else:
            td = self.td
        return f"<td {td}>{self.text(content)}</td>"

    def text(self, content) -> str:
        """A cell's content as the template writes it: localised (as the column asks) and escaped."""
        return content_text(content, self.localize)


def content_text(content, localize: bool | None = None) -> str:
    """A cell's content as django-tables2's template writes it: localised (as a column's ``localize`` asks) and
    escaped."""
    kind = type(content)
    if kind is SafeString:  # what localize and conditional_escape leave as it is
        return content
    if kind is str:
        return escape(content)
    if kind is not int:
        content = template_localtime(content)  # an int stays as it is
    if type(content) is int and localize is not False and not settings.USE_THOUSAND_SEPARATOR:
        return SafeString(content)  # what formats.localize writes without grouping: digits, nothing to escape
    if localize is not None:
        return conditional_escape(str(formats.localize(content, use_l10n=bool(localize))))
    return conditional_escape(formats.localize(content))


#: A row's value that is empty: the cell shows the column's default, as django-tables2 does (``lean_cells``).
EMPTY = object()


def link(href: str, text: str) -> SafeString:
    """``format_html('<a href="{}">{}</a>', href, text)``, as a column's ``linkify`` writes it."""
    return SafeString(f'<a href="{conditional_escape(href)}">{conditional_escape(text)}</a>')


def _lean_rows(table, columns: list[_Column]) -> list[str] | None:
    """The page's rows written from plain values, when the table knows how (issue 16: reading 50 rows as model
    instances and rendering each cell through django-tables2's machinery was most of a list page's time).

    A table opts in with ``lean_fields`` (what ``QuerySet.values`` reads for a row) and ``lean_cells(row)``: each
    visible column's content as its ``render_*`` method (or its plain value) gives it, ``EMPTY`` for an empty value
    (the column's default then shows); the contents are then localised and escaped as any cell's. Only for a page of
    a queryset with plain rows (no ``row_attrs``, no pinned rows, no computed ``<td>`` attributes); any other table
    is written cell by cell. A page that is not a queryset may offer ``lean_values(fields)`` for its rows as dicts.
    ``tests/ratings/test_lean_lists.py`` and ``tests/ratings/gorbunov/test_lean_rows.py`` hold each such table to the
    same HTML."""
    fields = getattr(table, "lean_fields", None)
    page = getattr(table, "page", None)
    if not fields or page is None or table.row_attrs or any(column.td is None for column in columns):
        return None
    if table.get_top_pinned_data() or table.get_bottom_pinned_data():
        return None
    data = getattr(page.object_list, "data", None)
    source = getattr(table, "lean_source", None)
    if isinstance(data, QuerySet) and source is not None:
        rows = _source_rows(table, source, data, fields)
    elif isinstance(data, QuerySet):
        rows = values_rows(data, fields)
    elif hasattr(data, "lean_values"):  # a page that reads itself (e.g. an older Gorbunov week)
        rows = data.lean_values(fields)
    else:
        return None
    # Per column: its name, its opening tag, its default as written, and how it writes any other content.
    written = [
        (column.bound_column.name, f"<td {column.td}>", column.text(column.default), column.text) for column in columns
    ]
    lines = []
    for values in rows:
        cells = table.lean_cells(values)
        parts = []
        for name, opening, default, text in written:
            content = cells[name]
            kind = type(content)
            if content is EMPTY:
                content = default
            elif kind is str:
                content = escape(content)
            elif kind is not SafeString:  # what text leaves as it is
                content = text(content)
            parts.append(f"{opening}{content}</td>")
        parity = 'class="odd"' if next(table._counter) % 2 else 'class="even"'
        lines.append(f"<tr {parity}>{''.join(parts)}</tr>")
    return lines


class LeanSource(NamedTuple):
    """Where a table's rows come from when they are the same statement on every page of the list but for a few
    values (``federation.db.marked_rows``): ``build(**values)`` is the queryset the table was given (before its
    order and its page), ``kwargs`` the table's other arguments. A view sets it as ``table.lean_source`` when the
    table shows that queryset as it is (no filter): the page's statement is then compiled once per process, table
    class, key, order and language, and its values, offset and limit are sent apart. Compiling the ORM's statement
    again on every page took longer than PostgreSQL took to answer it (issue 16)."""

    key: tuple
    build: Callable[..., QuerySet]
    values: dict
    kwargs: dict = {}


def _source_rows(table, source: LeanSource, data: QuerySet, fields: tuple[str, ...]) -> list[dict]:
    """The page's rows of ``data`` (the table's ordered, sliced queryset) read through ``marked_rows``: the statement
    is the one a table of the same class built on ``source.build`` with a stand-in for each value, ordered as this
    table is (its default order, then the order the request asks, as ``RequestConfig`` sets it), without the
    slice. ``tests/ratings/test_lean_lists.py`` holds each list to the rows of its ordinary queryset."""
    order = tuple(table.order_by or ())
    query = data.query

    def build(**marks):
        shadow = type(table)(source.build(**marks), **source.kwargs)
        shadow.order_by = order
        return shadow.data.data.values_list(*fields)

    key = ("lean", type(table).__module__, type(table).__qualname__, *source.key, order, get_language(), fields)
    if query.high_mark is None:  # not a page (a table without pagination): read as it is
        return values_rows(data, fields)
    limit = query.high_mark - query.low_mark
    if limit <= 0:
        return []
    rows = marked_rows(key, build, values=source.values, limit=limit, offset=query.low_mark)
    return [dict(zip(fields, row, strict=True)) for row in rows]


def table_rows(table) -> SafeString:
    """``<tr>`` elements of the table's current page (or its ``empty_text`` row), as its template would write them."""
    dynamic_table = _has_callable(dict(table.attrs))
    columns = [_Column(table, bound_column, dynamic_table=dynamic_table) for bound_column in table.columns]
    plain_rows = not table.row_attrs
    lines = _lean_rows(table, columns)
    if lines is None:
        lines = []
        for row in table.paginated_rows:
            parity = 'class="odd"' if row.row_counter % 2 else 'class="even"'
            attributes = parity if plain_rows else row.attrs.as_html()
            lines.append(f"<tr {attributes}>" + "".join(column.cell(row) for column in columns) + "</tr>")
    if not lines and table.empty_text:
        lines.append(f'<tr><td colspan="{len(columns)}">{conditional_escape(table.empty_text)}</td></tr>')
    return mark_safe("\n".join(lines))


def select_options(bound_field) -> SafeString:
    """The ``<option>`` elements of a select in a filter form, the selected one marked: the choices of a model field
    read with one plain query (a ``ModelChoiceIterator`` counts the rows first and reads them through a server-side
    cursor, three statements on PostgreSQL), and written without a template node per option."""
    from django.forms import ModelChoiceField

    field = bound_field.field
    if isinstance(field, ModelChoiceField):
        choices = [("", field.empty_label)] if field.empty_label is not None else []
        model = field.queryset.model
        if (
            getattr(model, "label_fields", None)
            and field.to_field_name is None
            and type(field).label_from_instance is ModelChoiceField.label_from_instance
        ):  # the model's label from its columns: no instance per option, no column the label does not show
            label = model.label
            query = field.queryset.query
            if not (query.where or query.is_sliced or query.distinct or query.annotations or query.extra):
                # All the rows, in an order: the same statement on every page, its options written once for the
                # page's version (``federation.caching.page_memo``: the clubs are part of every page's version).
                key = (model._meta.label, tuple(map(str, query.order_by)), model.label_fields)
                written = [
                    (str(pk), f'<option value="{conditional_escape(pk)}"', f">{conditional_escape(label(*rest))}")
                    for pk, *rest in fixed_rows(key, field.queryset.values_list("pk", *model.label_fields))
                ]
                return mark_safe(_options_html(choices, bound_field.value()) + _written_options(written, bound_field))
            choices += [(pk, label(*rest)) for pk, *rest in field.queryset.values_list("pk", *model.label_fields)]
        else:
            choices += [(field.prepare_value(obj), field.label_from_instance(obj)) for obj in field.queryset]
    else:
        choices = field.choices
    return mark_safe(_options_html(choices, bound_field.value()))


def _options_html(choices, value) -> str:
    """``<option>`` elements, the one of ``value`` selected; as format_html: every value and label escaped."""
    current = str(value)
    return "".join(
        f'<option value="{conditional_escape(value)}"{" selected" if str(value) == current else ""}>'
        f"{conditional_escape(label)}</option>"
        for value, label in choices
    )


def _written_options(written: list[tuple[str, str, str]], bound_field) -> str:
    """``_options_html`` of options written ahead, as (the value as text, the tag up to its value, the rest)."""
    current = str(bound_field.value())
    return "".join(
        f"{opening}{' selected' if value == current else ''}{rest}</option>" for value, opening, rest in written
    )


def _attrs_html(attrs) -> str:
    """``{{ attrs.as_html }}`` in a template: nothing when there is no such key or it is a plain dict."""
    return attributes_html(attrs) if isinstance(attrs, AttributeDict) else ""


def _with_query(request, key: str, value) -> str:
    """``{% querystring_replace key=value %}``."""
    params = dict(request.GET)
    params[key] = value
    return escape("?" + urlencode(params, doseq=True))


def export_query(query) -> str:
    """``{% querystring _export="csv" page=None %}`` of the request's ``query`` (a ``QueryDict``): the same text,
    without copying the query (``QueryDict.copy`` deep-copies it, a tenth of a list page's template). The other
    parameters keep their order and values, ``page`` is dropped, ``_export`` is set to ``csv`` where it was or added
    last; each pair is encoded as ``QueryDict.urlencode`` encodes it."""
    pairs = []
    for key, values in query.lists():
        if key == "page":
            continue
        if key == "_export":
            pairs.append((key, "csv"))
        else:
            pairs.extend((key, value) for value in values)
    if "_export" not in query:
        pairs.append(("_export", "csv"))
    return "?" + "&".join(urlencode({key: value}) for key, value in pairs)


_QUERY_MARK = "918273645546372819"


class QueryLinks:
    """``_with_query(request, key, value)`` for many values of the same key (a table's page and sort links): the
    query around the value is encoded once, each value is then quoted into it as ``urlencode`` quotes it
    (``quote_plus``). The same text: escaping works character by character, and a quoted value has none to
    escape."""

    def __init__(self, request):
        self.request = request
        self.around: dict[str, tuple[str, str] | None] = {}

    def __call__(self, key: str, value) -> str:
        if key not in self.around:
            pieces = _with_query(self.request, key, _QUERY_MARK).split(_QUERY_MARK)
            self.around[key] = (pieces[0], pieces[1]) if len(pieces) == 2 else None  # the mark asked: encode each
        around = self.around[key]
        if around is None:
            return _with_query(self.request, key, value)
        return f"{around[0]}{quote_plus(str(value))}{around[1]}"


def cell_text(value) -> str:
    """``{{ value }}`` in a template: localised and escaped."""
    return conditional_escape(formats.localize(template_localtime(value)))


_text = cell_text


def _page_number(number) -> str:
    """``cell_text`` of a page link's number (or "..."): a whole number without grouping is its digits."""
    if type(number) is int and not settings.USE_THOUSAND_SEPARATOR:
        return str(number)
    return cell_text(number)


def table_html(table, request) -> SafeString:
    """The whole table, as ``django_tables2/bootstrap5-responsive.html`` renders it."""
    links = QueryLinks(request)
    parts = ['<div class="table-container table-responsive">']
    attributes = AttributeDict({"class": "table"})
    attributes.update(table.attrs)
    parts.append(f"<table {attributes_html(attributes)}>")
    columns = list(table.columns)
    if table.show_header:
        parts.append(f"<thead {_attrs_html(table.attrs.get('thead'))}><tr>")
        for column in columns:
            header = _text(column.header)
            if column.orderable:
                href = links(table.prefixed_order_by_field, column.order_by_alias.next)
                header = f'<a href="{href}">{header}</a>'
            parts.append(f'<th {attributes_html(column.attrs["th"])} scope="col">{header}</th>')
        parts.append("</tr></thead>")
    parts.append(f"<tbody {_attrs_html(table.attrs.get('tbody'))}>{table_rows(table)}</tbody>")
    if table.has_footer():
        parts.append(f"<tfoot {_attrs_html(table.attrs.get('tfoot'))}><tr>")
        parts.extend(f"<td {attributes_html(column.attrs['tf'])}>{_text(column.footer)}</td>" for column in columns)
        parts.append("</tr></tfoot>")
    parts.append("</table>")
    page = getattr(table, "page", None)
    # ``if page``, as the template asks, would count the page's rows (reading them again when they were written
    # from values); an empty page has no other page (django-tables2 serves the last page for one out of range).
    if page is not None:
        parts.extend(pagination(links, table.prefixed_page_field, page))
    parts.append("</div>")
    return mark_safe("\n".join(parts))  # every value went through escape or conditional_escape


def pagination(links: QueryLinks, field: str, page) -> list[str]:
    """The page links under a table (none when it has one page), as ``bootstrap5-responsive.html`` writes them:
    ``field`` is the page's parameter, ``page`` a ``django.core.paginator.Page``."""
    from django.utils.translation import gettext
    from django_tables2.templatetags.django_tables2 import table_page_range

    paginator = page.paginator
    if paginator.num_pages <= 1:
        return []
    parts = ['<nav aria-label="Table navigation"><ul class="pagination justify-content-center">']
    if page.has_previous():
        href = links(field, page.previous_page_number())
        parts.append(
            f'<li class="previous page-item"><a href="{href}" class="page-link">'
            '<span aria-hidden="true">&laquo;</span> ' + escape(gettext("previous")) + "</a></li>"
        )
    if page.has_previous() or page.has_next():
        for number in table_page_range(page, paginator):
            active = " active" if page.number == number else ""
            href = f'href="{links(field, number)}"' if number != "..." else ""
            parts.append(f'<li class="page-item{active}"><a class="page-link" {href}>{_page_number(number)}</a></li>')
    if page.has_next():
        href = links(field, page.next_page_number())
        parts.append(
            f'<li class="next page-item"><a href="{href}" class="page-link">'
            + escape(gettext("next"))
            + ' <span aria-hidden="true">&raquo;</span></a></li>'
        )
    parts.append("</ul></nav>")
    return parts


class _BoundFilter:
    """What ``filter_fields`` reads of a filter form's ``BoundField``, taken from the filter's own form field: the
    form is not built. Building it (a form class made for each filter set, then every field deep-copied with its
    choices, hundreds of ``deepcopy`` calls for a list's cities) was a tenth of a list page (issue 16). The value is
    ``BoundField.value()``'s for the fields a list filter has (text, a choice, a model choice: ``prepare_value``
    keeps the submitted text)."""

    __slots__ = ("_value", "field", "html_name", "id_for_label", "label")

    def __init__(self, filterset, name: str, filter_):
        self.field = filter_.field
        prefix = filterset.form_prefix
        self.html_name = f"{prefix}-{name}" if prefix else name
        widget = self.field.widget
        self.id_for_label = widget.id_for_label(widget.attrs.get("id") or f"id_{self.html_name}")
        self.label = self.field.label if self.field.label is not None else pretty_name(name)
        if filterset.is_bound:
            self._value = widget.value_from_datadict(filterset.data, {}, self.html_name)
        else:
            initial = self.field.initial
            self._value = initial() if callable(initial) else initial

    def value(self):
        return self.field.prepare_value(self._value)


def _bound_filters(filterset) -> list:
    """The filter form's fields, in order, as ``_BoundFilter``: the form's own when the filter set has built it
    already (it filtered), or when a field is not one ``_BoundFilter`` knows."""
    from django import forms

    if hasattr(filterset, "_form"):
        return list(filterset.form)
    known = (forms.CharField, forms.ChoiceField, forms.ModelChoiceField)
    bound = [_BoundFilter(filterset, name, filter_) for name, filter_ in filterset.filters.items()]
    if any(not isinstance(b.field, known) or b.field.disabled or b.field.show_hidden_initial for b in bound):
        return list(filterset.form)
    return bound


def filter_fields(filterset, hidden_name: str = "", hidden_value="") -> SafeString:
    """The opening of a list's filter form and its fields, as ``templates/_filter_form.html`` wrote them with a
    template node per attribute: on a phone only the first field shows, the others open with "More filters" (no
    script) or stay open when one of them is set."""
    from django.utils.translation import gettext

    fields = _bound_filters(filterset)
    show_all = any(field.value() for field in fields[1:])
    parts = [
        '<form method="get" class="filter-form row g-2 align-items-end mb-3'
        f'{" show-all" if show_all else ""}" role="search">'
    ]
    if hidden_name:
        parts.append(f'<input type="hidden" name="{escape(hidden_name)}" value="{_text(hidden_value)}">')
    toggle = escape(filterset.form_prefix or "f")
    more = escape(gettext("More filters"))  # outside the f-string below: makemessages does not read calls in one
    for number, field in enumerate(fields, start=1):
        if number == 2:
            parts.append(
                f'<input type="checkbox" class="filter-toggle" id="filter-toggle-{toggle}">'
                f'<label class="col-12 d-sm-none small text-primary mb-0" for="filter-toggle-{toggle}">'
                f"{more}</label>"
            )
        extra = " filter-extra" if number > 1 else ""
        label_for = escape(field.id_for_label)
        parts.append(
            f'<div class="col-12 col-sm-6 col-lg{extra}">'
            f'<label class="form-label small mb-0" for="{label_for}">{_text(field.label)}</label>'
        )
        widget = field.field.widget
        if widget.input_type == "select":
            parts.append(
                f'<select name="{escape(field.html_name)}" id="{label_for}" class="form-select form-select-sm">'
                f"{select_options(field)}</select>"
            )
        else:
            parts.append(
                f'<input type="{escape(widget.input_type)}" name="{escape(field.html_name)}" id="{label_for}" '
                f'value="{_text(field.value() or "")}" class="form-control form-control-sm" '
                f'placeholder="{_text(widget.attrs.get("placeholder") or "")}">'
            )
        parts.append("</div>")
    return mark_safe("\n".join(parts))  # every value went through escape or conditional_escape
