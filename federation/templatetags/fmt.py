"""``{% load fmt %}``: the template side of ``federation.formatting`` (one way to write numbers and dates)."""

from django import template

from federation import formatting

register = template.Library()


@register.filter
def rating(value, places=0):
    return formatting.rating(value, int(places))


@register.filter
def delta(value, places=0):
    return formatting.delta(value, int(places))


@register.filter
def percent(value, places=1):
    return formatting.percent(value, int(places))


@register.filter
def day(value):
    return formatting.day(value)


@register.filter
def long_day(value):
    return formatting.long_day(value)


@register.filter
def country(value):
    return formatting.country(value)


@register.filter
def export_as(url, kind):
    """The same download address in another format: ``?…_export=csv`` → ``?…_export=xlsx``."""
    return str(url).replace("_export=csv", f"_export={kind}")


@register.filter
def plain(text):
    """An engine's explanation without programmer's notation (``federation.formatting.plain_explanation``)."""
    return formatting.plain_explanation(text)
