"""``{% load fmt %}``: the template side of ``federation.formatting`` (one way to write numbers and dates)."""

from django import template
from django.utils.html import format_html
from django.utils.translation import get_language

from federation import formatting

register = template.Library()


@register.filter
def rating(value, places=0):
    return formatting.rating(value, int(places))


@register.filter
def delta(value, places=0):
    return formatting.delta(value, int(places))


@register.filter
def number(value):
    return formatting.number(value)


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
def plain(text):
    """An engine's explanation without programmer's notation (``federation.formatting.plain_explanation``)."""
    return formatting.plain_explanation(text)


@register.filter
def name(player):
    """A player's name in the reader's alphabet (Latin on the English pages when known)."""
    if player is None:
        return ""
    return player.display_name(get_language() or "ru")


@register.filter
def other_name(player):
    """The player's name in the other alphabet, shown beside the first (empty when there is none)."""
    if player is None:
        return ""
    if (get_language() or "ru").startswith("en"):
        return player.full_name if player.last_name_latin else ""
    return player.full_name_latin


@register.simple_tag
def abbr(key, short=None):
    """A short name of ``ratings.glossary`` (``{% abbr "cards.Rs" %}``) with its full name on hover (the title), on
    tap or keyboard focus (site.css shows the title of a focused ``abbr.term``) and for a screen reader (read in
    place of the letters)."""
    from ratings.glossary import TERMS

    term = TERMS[key]
    return format_html(
        '<abbr class="term" title="{}" tabindex="0"><span aria-hidden="true">{}</span>'
        '<span class="visually-hidden">{}</span></abbr>',
        term.name,
        short if short is not None else term.short,
        term.name,
    )
