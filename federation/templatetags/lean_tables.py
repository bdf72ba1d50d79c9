"""``{% load lean_tables %}``: ``{% table_html table %}``, a whole table, ``{% table_rows table %}``, its rows
(``federation.table_rows``), and
``{{ field|select_options }}``, the ``<option>`` elements of a filter's select, and ``{% export_query %}``, the
current address asking for the download (``federation.table_rows``)."""

from django import template

from federation.table_rows import export_query as _export_query
from federation.table_rows import filter_fields as _filter_fields
from federation.table_rows import select_options as _select_options
from federation.table_rows import table_html as _table_html
from federation.table_rows import table_rows as _table_rows

register = template.Library()


@register.simple_tag(takes_context=True)
def table_html(context, table):
    return _table_html(table, context["request"])


@register.simple_tag
def table_rows(table):
    return _table_rows(table)


@register.filter
def select_options(bound_field):
    return _select_options(bound_field)


@register.simple_tag
def filter_fields(filterset, hidden_name="", hidden_value=""):
    return _filter_fields(filterset, hidden_name, hidden_value)


@register.simple_tag(takes_context=True)
def export_query(context):
    """``{% querystring _export="csv" page=None %}`` (``federation.table_rows.export_query``)."""
    return _export_query(context["request"].GET)
