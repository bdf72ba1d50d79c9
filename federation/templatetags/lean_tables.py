"""``{% load lean_tables %}``: ``{% table_rows table %}``, a table's rows (``federation.table_rows``)."""

from django import template

from federation.table_rows import table_rows as _table_rows

register = template.Library()


@register.simple_tag
def table_rows(table):
    return _table_rows(table)
