"""Sections that each discipline adds to the shared player and tournament pages.

``settings.PLAYER_PAGE_SECTIONS`` and ``settings.TOURNAMENT_PAGE_SECTIONS`` list dotted paths of functions
``(request, obj) -> str | None`` that return a rendered HTML fragment (or ``None`` when the discipline has
nothing to show for this object). The page stays one template, and each discipline keeps its queries, bounded in
number, in its own module.

A fragment is rendered without the request (``render_to_string(name, context)``): the page's context processors
(the language links, the federation's identity) run once, for the page, not again for each section; a section
template reads only its own context and the template tags (``{% get_current_language %}`` for the language).
"""

from django.conf import settings
from django.utils.module_loading import import_string
from django.utils.safestring import SafeString, mark_safe


def render_sections(setting: str, request, obj) -> list[SafeString]:
    fragments = []
    for path in getattr(settings, setting, []):
        html = import_string(path)(request, obj)
        if html:
            fragments.append(mark_safe(html))
    return fragments
