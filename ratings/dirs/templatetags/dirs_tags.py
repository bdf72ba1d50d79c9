"""Labels for the DIRS pages: names in the visitor's alphabet and kyu/dan on the DIRS scale."""

from django import template

from federation.i18n import current_language
from ratings.engines import dirs

register = template.Library()


@register.filter
def player_name(player) -> str:
    return player.display_name(current_language())


@register.filter
def dirs_rank(rating) -> str:
    """Kyu/dan on the DIRS scale (`rules/go.md`, scales): 205 -> 1k, 210 -> 1d."""
    return dirs.rank_of(max(int(rating), 0)).short
