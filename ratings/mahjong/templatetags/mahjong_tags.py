"""``{% load mahjong_tags %}``: ``{% player_ratings %}``, the mahjong part of a player's page written in Python
(``ratings.mahjong.player_html``) from the context of ``ratings.mahjong.sections.player_context``."""

from django import template

from ratings.mahjong.player_html import player_html

register = template.Library()


@register.simple_tag(takes_context=True)
def player_ratings(context):
    return player_html(context, in_section=bool(context.get("in_section")))
