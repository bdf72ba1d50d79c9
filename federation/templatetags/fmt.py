"""``{% load fmt %}``: the template side of ``federation.formatting`` (one way to write numbers and dates)."""

from django import template
from django.utils.html import format_html

from federation import formatting
from federation.i18n import current_language
from federation.latin import name_of
from federation.models import city_name

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
def name(thing):
    """A name in the reader's alphabet, the one way every page writes a name: an object's ``display_name`` (player,
    club, tournament, rating list, Go registration, the federation), or a plain text such as a city, a bot level or a
    name a view already chose (``federation.latin.display``: as typed on the Russian pages, the passport
    transliteration on the English ones; a Latin text passes through)."""
    return name_of(thing, current_language())


@register.filter
def city(value):
    """A city in the reader's alphabet: the English name staff typed for it, else transliterated
    (``federation.cities.city_name``)."""
    return city_name(value, current_language())


@register.filter
def other_name(player):
    """The player's Latin name on the Russian pages, shown beside the Cyrillic one (empty when there is none, and on
    the English pages, which show no Cyrillic)."""
    if player is None or current_language().startswith("en"):
        return ""
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
