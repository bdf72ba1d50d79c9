from django.conf import settings
from django.urls import translate_url
from django.utils.translation import get_language


def language_links(request):
    """The same page in each language, for the switch in the header (Russian at the root, English under /en/)."""
    current = get_language()
    query = request.META.get("QUERY_STRING", "")
    links = []
    for code, _name in settings.LANGUAGES:
        url = translate_url(request.path, code)
        if query:
            url = f"{url}?{query}"
        links.append(
            {"code": code, "label": "Русский" if code == "ru" else "English", "url": url, "current": code == current}
        )
    return {"language_links": links}


def site_identity(request):
    """``site``: the federation's name, description, logo and colours for the header, the footer and the meta tags;
    ``nav``: the name of the current menu section (``url_name``'s namespace) for the highlight."""
    from federation.identity import identity_context

    match = getattr(request, "resolver_match", None)
    section = ""
    if match is not None:
        namespaces = match.namespaces
        section = namespaces[-1] if namespaces else ""
        if match.view_name in ("federation:player_list", "federation:player_detail"):
            section = "players"
    return {"site": identity_context(), "nav_section": section}
