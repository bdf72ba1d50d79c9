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
