"""The federation's identity as every page reads it: the ``SiteIdentity`` row, or the defaults until staff save one.

Kept in Django's cache for ``IDENTITY_SECONDS`` so that a page costs no query for it; saving the row in the admin
deletes the cached copy (``federation.apps``), so with a shared cache (Redis) a change shows at once everywhere,
and with the default per-process cache within ``IDENTITY_SECONDS`` on the other processes. The cached pages
(``federation.caching``) include its ``updated_at`` in their version, read from the same cached copy, so a page
and its version always agree.
"""

from __future__ import annotations

from functools import lru_cache

from django.conf import settings
from django.core.cache import cache
from django.urls import get_script_prefix, reverse
from django.utils.translation import get_language, gettext

from federation.i18n import current_language
from federation.latin import display
from federation.models import SiteIdentity

DEFAULT_IDENTITY = {
    "name": "Федерация интеллектуальных игр",
    "name_en": "Mind Games Federation",
    "description": "Рейтинги федерации: коллекционные карточные игры, риичи-маджонг, го и преферанс.",
    "description_en": "The federation's ratings: collectible card games, riichi mahjong, Go and preferans.",
}


IDENTITY_SECONDS = 60
CACHE_KEY = "federation:identity"


def current_identity() -> SiteIdentity:
    identity = cache.get(CACHE_KEY)
    if identity is None:
        identity = SiteIdentity.objects.filter(pk=1).first()
        if identity is None:
            identity = SiteIdentity(**getattr(settings, "DEFAULT_IDENTITY", DEFAULT_IDENTITY))
        cache.set(CACHE_KEY, identity, IDENTITY_SECONDS)
    return identity


def forget_identity(**kwargs) -> None:
    """Signal receiver: the next page reads the row again."""
    cache.delete(CACHE_KEY)


def _description(name: str, language: str) -> str:
    """The search engines' sentence when staff wrote none in this language (the English pages, most often)."""
    if not language.startswith("en"):
        return ""
    return gettext("Ratings, players and tournaments of %(name)s.") % {"name": name}


@lru_cache(maxsize=16)
def _addresses(language: str | None, prefix: str) -> tuple[str, str]:
    """The logo's and the colours' addresses, reversed once per language and script prefix."""
    return reverse("federation:identity_logo"), reverse("federation:identity_css")


def identity_context(identity: SiteIdentity | None = None, language: str | None = None) -> dict:
    identity = identity or current_identity()
    language = language or current_language()
    name = identity.display_name(language)
    version = int(identity.updated_at.timestamp()) if identity.updated_at else 0
    logo_url, css_url = _addresses(get_language(), get_script_prefix())
    return {
        "name": name,
        "short_name": display(identity.short_name, language=language) or name,
        "description": identity.localised("description", language) or _description(name, language),
        "has_logo": bool(identity.logo),
        "logo_url": f"{logo_url}?v={version}" if identity.logo else "",
        "css_url": f"{css_url}?v={version}",
        "has_about": bool(identity.about or identity.about_en),
        "has_contact": bool(identity.contact or identity.contact_en or identity.email),
        "primary_colour": identity.primary_colour,
        "accent_colour": identity.accent_colour,
    }
