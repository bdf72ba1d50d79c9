"""The rows of a django-tables2 table written in Python, the same HTML its template writes, several times faster.

django-tables2's template renders every cell through the template engine: for each cell it recomputes the column's
attributes, inspects the signature of the ``render_*`` method and formats the attributes again. On a page of 50
rows and eight columns that was most of a list page's time (issue 16). Here each column is prepared once per table
(its ``<td>`` attributes when they hold no callable, which arguments its ``render_*`` method takes), and then every
cell costs the value's own lookup and formatting only.

Kept from django-tables2, so a table behaves the same: the value lookup (``BoundRow._get_and_render_with``: accessors,
``get_FOO_display`` for a field with choices, the column's empty values and default), ``render_FOO`` / ``Column.render``
with the arguments they ask for, ``linkify``, callable attributes (computed per cell as django-tables2 does), the
``even``/``odd`` row classes and ``row_attrs``, and each column's ``localize``. The header and the pagination stay in
the template (``templates/django_tables2/lean.html``), a dozen nodes a page.
"""

from __future__ import annotations

from functools import partial

from django.utils import formats
from django.utils.html import conditional_escape, format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.timezone import template_localtime
from django_tables2.utils import signature

#: What django-tables2 offers a ``render_*`` method (``BoundRow._optional_cell_arguments``).
CELL_ARGUMENTS = ("value", "record", "column", "bound_column", "bound_row", "table")


def _has_callable(attrs) -> bool:
    return any(callable(value) or (isinstance(value, dict) and _has_callable(value)) for value in attrs.values())


class _Column:
    """One visible column, prepared once for every row of the page."""

    def __init__(self, table, bound_column):
        self.table = table
        self.bound_column = bound_column
        self.column = bound_column.column
        self.default = bound_column.default
        self.localize = self.column.localize
        dynamic = _has_callable(dict(table.attrs)) or _has_callable(dict(self.column.attrs))
        self.td = None if dynamic else bound_column.attrs["td"].as_html()
        self.render = bound_column.render
        names, catch_all = signature(self.render)
        self.names = None if catch_all else tuple(names)
        self.callable = self.names is None or all(name in CELL_ARGUMENTS for name in self.names)
        self.link = bound_column.link
        # The common ``linkify=callable`` without attributes: the link's arguments worked out once too.
        self.url = self.link.url if self.link and not self.link.attrs and callable(self.link.url) else None
        if self.url is not None:
            names, catch_all = signature(self.url)
            self.url_names = None if catch_all else tuple(names)
            if self.url_names is not None and not all(name in CELL_ARGUMENTS for name in self.url_names):
                self.url = None

    def call(self, row, bound_column, value=None):
        """``BoundRow._call_render`` with the arguments worked out once."""
        arguments = {
            "value": value,
            "record": row.record,
            "column": self.column,
            "bound_column": bound_column,
            "bound_row": row,
            "table": self.table,
        }
        if not self.callable:
            content = None
        elif self.names is None:
            content = self.render(**arguments)
        else:
            content = self.render(**{name: arguments[name] for name in self.names})
        if not self.link:
            return content
        if self.url is None:
            return self.link(content, **arguments)
        if self.url_names is None:
            href = self.url(**arguments)
        else:
            href = self.url(**{name: arguments[name] for name in self.url_names})
        return content if href is None else format_html('<a href="{}">{}</a>', href, content)

    def cell(self, row) -> str:
        content = row._get_and_render_with(self.bound_column, render_func=partial(self.call, row), default=self.default)
        if self.td is None:
            self.bound_column.current_value = content
            self.bound_column.current_record = row.record
            td = self.bound_column.attrs["td"].as_html()
        else:
            td = self.td
        content = template_localtime(content)
        if self.localize is None:
            content = formats.localize(content)
        else:
            content = str(formats.localize(content, use_l10n=bool(self.localize)))
        return f"<td {td}>{conditional_escape(content)}</td>"


def table_rows(table) -> SafeString:
    """``<tr>`` elements of the table's current page (or its ``empty_text`` row), as its template would write them."""
    columns = [_Column(table, bound_column) for bound_column in table.columns]
    plain_rows = not table.row_attrs
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
        choices += [(field.prepare_value(obj), field.label_from_instance(obj)) for obj in field.queryset]
    else:
        choices = field.choices
    current = str(bound_field.value())
    return mark_safe(  # noqa: S308 - format_html escapes every value and label
        "".join(
            format_html('<option value="{}"{}>{}</option>', value, " selected" if str(value) == current else "", label)
            for value, label in choices
        )
    )
