from django.conf import settings
from django.urls import NoReverseMatch, Resolver404, resolve, reverse
from django.utils import translation
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _


def language_links(request):
    """The same page in each language, for the switch in the header (Russian at the root, English under /en/).

    Only an address the site resolves is translated; any other (a 404 page) links to each language's home page.
    The raw path is never echoed: ``GET //evil.example/x`` gave links a browser resolves to another site.
    The page's own match (``request.resolver_match``) is reversed in each language, as ``translate_url`` does after
    resolving the address again; a page rendered before the address was resolved (a middleware's answer) resolves it
    here.
    """
    current = get_language()
    match = getattr(request, "resolver_match", None)
    if match is None:
        try:
            match = resolve(request.path_info)
        except Resolver404:
            match = None
    query = request.META.get("QUERY_STRING", "")
    links = []
    for code, _name in settings.LANGUAGES:
        with translation.override(code):
            if match is not None:
                try:
                    url = reverse(match.view_name, args=match.args, kwargs=match.kwargs)
                except NoReverseMatch:
                    url = request.path
                if query:
                    url = f"{url}?{query}"
            else:
                url = reverse("federation:home")
            if not url.startswith("/") or url.startswith("//") or url.startswith("/\\"):
                url = reverse("federation:home")
        links.append(
            {"code": code, "label": "Русский" if code == "ru" else "English", "url": url, "current": code == current}
        )
    return {"language_links": links}


#: The addresses every page links to (the menu, the footer), by name in the ``site_urls`` context.
SITE_URLS = {
    "home": "federation:home",
    "players": "federation:player_list",
    "clubs": "federation:club_list",
    "tournaments": "tournaments:tournament_list",
    "calendar": "calendar:list",
    "gorbunov": "ratings:gorbunov:index",
    "mahjong": "ratings:mahjong:index",
    "go": "go:index",
    "preferans": "preferans:index",
    "about": "federation:about",
    "contact": "federation:contact",
    "guides": "ratings:guide_index",
}


#: The menu: the ``site_urls`` key of each item, its label, and the sections it is the current item for.
MENU = (
    ("players", _("Players"), ("players",)),
    ("clubs", _("Clubs"), ("clubs",)),
    ("tournaments", _("Tournaments"), ("tournaments",)),
    ("calendar", _("Calendar"), ("calendar",)),
    ("gorbunov", _("Card games"), ("gorbunov",)),
    ("mahjong", _("Mahjong"), ("mahjong",)),
    ("go", _("Go"), ("go", "dirs")),
    ("preferans", _("Preferans"), ("preferans",)),
)


def site_urls() -> dict[str, str]:
    """The addresses of ``SITE_URLS`` in the active language."""
    return {key: reverse(name) for key, name in SITE_URLS.items()}


def site_identity(request):
    """``site``: the federation's name, description, logo and colours for the header, the footer and the meta tags;
    ``site_urls``: the menu's and the footer's addresses; ``nav_section``: the name of the current menu section
    (``url_name``'s namespace) for the highlight."""
    from federation.identity import identity_context

    match = getattr(request, "resolver_match", None)
    section = ""
    if match is not None:
        namespaces = match.namespaces
        section = namespaces[-1] if namespaces else ""
        if match.view_name in ("federation:player_list", "federation:player_detail"):
            section = "players"
        elif match.view_name in ("federation:club_list", "federation:club_detail"):
            section = "clubs"
    urls = site_urls()
    menu = [{"label": label, "url": urls[key], "current": section in sections} for key, label, sections in MENU]
    return {
        "site": identity_context(),
        "nav_section": section,
        "site_urls": urls,
        "menu": menu,
        "site_address": settings.SITE_URL.rstrip("/"),
    }
