"""Sections that each discipline adds to the shared player and tournament pages.

``settings.PLAYER_PAGE_SECTIONS`` and ``settings.TOURNAMENT_PAGE_SECTIONS`` list dotted paths of functions
``(request, obj)`` that return a rendered HTML fragment (or ``None`` when the discipline has nothing to show for this
object). The page stays one template, and each discipline keeps its queries, bounded in number, in its own module.

A player's section may return a ``PlayerSection`` instead: its fragment and the ``RatingCard`` of each rating the
player holds there. The player's page shows every section's cards at the top ("where do I stand", issue 28), then the
fragments, whose details are folded; a card is built from what the section reads anyway, so it costs no query.

A fragment is rendered without the request (``render_to_string(name, context)``): the page's context processors
(the language links, the federation's identity) run once, for the page, not again for each section; a section
template reads only its own context and the template tags (``{% get_current_language %}`` for the language).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from django.conf import settings
from django.utils.module_loading import import_string
from django.utils.safestring import SafeString, mark_safe

#: The sparkline's drawing box (``viewBox``), in SVG units.
SPARK_WIDTH = 120
SPARK_HEIGHT = 28


@dataclass
class RatingCard:
    """One rating the player holds, as the card at the top of their page shows it (numbers already written in the
    page's language by ``federation.formatting``)."""

    discipline: str
    name: str
    url: str
    rating: str
    #: Where the player stands: "12" (a place in the list) or a rank's name ("2k"); ``rank_label`` says which.
    rank: str = ""
    rank_label: str = ""
    #: The change since the list before ("+12", "-4,67", "0"); ``is_new`` for a player new in the list.
    change: str = ""
    is_new: bool = False
    #: The ratings of the history, oldest first, for the sparkline.
    history: Sequence[float] = field(default_factory=list)
    #: The id of the section on the page that holds the details.
    anchor: str = ""

    @property
    def sparkline(self) -> str:
        return sparkline_points(self.history)


@dataclass
class PlayerSection:
    html: str
    cards: list[RatingCard] = field(default_factory=list)


def sparkline_points(values: Sequence[float], width: int = SPARK_WIDTH, height: int = SPARK_HEIGHT) -> str:
    """The ``points`` of an SVG polyline through ``values`` (at most the last 60), evenly spaced, the highest at the
    top: empty for fewer than two values. A picture of the trend beside the number, not a chart to read values from."""
    values = [float(v) for v in values][-60:]
    if len(values) < 2:
        return ""
    low, high = min(values), max(values)
    span = (high - low) or 1.0
    step = width / (len(values) - 1)
    margin = 2
    inner = height - 2 * margin
    return " ".join(
        f"{i * step:.1f},{margin + inner - (v - low) / span * inner if high != low else height / 2:.1f}"
        for i, v in enumerate(values)
    )


def render_sections(setting: str, request, obj) -> list[SafeString]:
    fragments = []
    for path in getattr(settings, setting, []):
        html = import_string(path)(request, obj)
        if html:
            fragments.append(mark_safe(html))
    return fragments


def render_player_sections(request, player) -> tuple[list[SafeString], list[RatingCard]]:
    """``settings.PLAYER_PAGE_SECTIONS`` for a player: the fragments and, in the same order, the rating cards."""
    fragments: list[SafeString] = []
    cards: list[RatingCard] = []
    for path in getattr(settings, "PLAYER_PAGE_SECTIONS", []):
        section = import_string(path)(request, player)
        if not section:
            continue
        if isinstance(section, PlayerSection):
            cards += section.cards
            section = section.html
        fragments.append(mark_safe(section))
    return fragments, cards
