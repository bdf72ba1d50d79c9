"""``{% load chrome %}``: the frame of every page (``templates/base.html``) written in Python: the links and meta tags
of the head, the menu bar, the breadcrumbs and the footer.

As a template they were about 150 nodes rendered on every page (issue 16). Here what depends only on the language
(the menu's labels and addresses, the footer's links, the static files' addresses) is written once per process and
language, and what depends on the request (its address, the language switch, the current section, the
federation's name and colours: ``site``, which staff edit) is filled in on every page. Each tag reads the same
context the template read (``site``, ``site_urls``, ``language_links``, ``nav_section``, ``breadcrumbs``,
``request``: ``federation.context_processors``) and writes the same HTML, byte for byte
(``tests/federation/test_chrome.py`` renders every kind of page with the template it replaced).
"""

from __future__ import annotations

from functools import lru_cache

from django import template
from django.core.signals import setting_changed
from django.dispatch import receiver
from django.templatetags.static import static
from django.utils.safestring import SafeString
from django.utils.translation import get_language, gettext

from federation.table_rows import conditional_escape, escape

register = template.Library()

#: The menu: (the ``site_urls`` key, its label, the sections it is the current one for).
MENU = (
    ("players", "Players", ("players",)),
    ("tournaments", "Tournaments", ("tournaments",)),
    ("gorbunov", "Card games", ("gorbunov",)),
    ("mahjong", "Mahjong", ("mahjong",)),
    ("go", "Go", ("go", "dirs")),
    ("preferans", "Preferans", ("preferans",)),
)
#: The footer's links: (the ``site_urls`` key, its label).
FOOTER = (("about", "About the federation"), ("contact", "Contact"), ("guides", "How the ratings work"))


@lru_cache(maxsize=64)
def _static(path: str) -> str:
    """``{% static path %}``: a static file's address does not change while the process runs (the manifest of
    hashed names is read once)."""
    return escape(static(path))


@receiver(setting_changed)
def _forget_static(*, setting, **kwargs):
    if setting in ("STATIC_URL", "STORAGES"):
        _static.cache_clear()


def _site_urls(context) -> dict:
    return context.get("site_urls") or {}


@lru_cache(maxsize=128)
def _menu(language: str | None, section: str, urls: tuple) -> SafeString:
    """The menu's items in a language, the current section's marked."""
    addresses = dict(urls)
    items = []
    for key, label, sections in MENU:
        current = ' active" aria-current="page' if section in sections else ""
        items.append(
            f'        <li class="nav-item"><a class="nav-link{current}" href="{escape(addresses.get(key, ""))}">'
            f"{escape(gettext(label))}</a></li>\n"
        )
    return SafeString("".join(items))


@lru_cache(maxsize=32)
def _footer_links(language: str | None, urls: tuple) -> SafeString:
    addresses = dict(urls)
    return SafeString(
        "".join(
            f'  <a class="link-secondary" href="{escape(addresses.get(key, ""))}">{escape(gettext(label))}</a>\n'
            for key, label in FOOTER
        )
    )


def _urls_key(context) -> tuple:
    """``site_urls`` as a cache key: the same addresses on every page of a language and script prefix
    (``context_processors.site_urls``)."""
    return tuple(_site_urls(context).items())


def _origin(request) -> str:
    """``{{ request.scheme }}://{{ request.get_host }}``, escaped (the host is checked once, not at every use)."""
    if request is None:
        return "://"
    return escape(f"{request.scheme}://{request.get_host()}")


@register.simple_tag(takes_context=True)
def head_links(context) -> SafeString:
    """From the canonical address to the site's icon: the links and the meta tags of every page's head."""
    request = context.get("request")
    site = context.get("site") or {}
    origin = _origin(request)
    path = escape(request.path) if request is not None else ""
    full_path = escape(request.get_full_path()) if request is not None else ""
    name, description = escape(site.get("name", "")), escape(site.get("description", ""))
    logo = escape(site.get("logo_url", ""))
    lines = [f'<link rel="canonical" href="{origin}{path}">']
    lines += [
        f'<link rel="alternate" hreflang="{escape(link["code"])}" href="{origin}{escape(link["url"])}">'
        for link in context.get("language_links") or ()
    ]
    lines += [
        '<meta property="og:type" content="website">',
        f'<meta property="og:site_name" content="{name}">',
        f'<meta property="og:title" content="{name}">',
        f'<meta property="og:description" content="{description}">',
        f'<meta property="og:url" content="{origin}{full_path}">',
        f'<meta property="og:locale" content="{"en_GB" if get_language() == "en" else "ru_RU"}">',
        f'<meta property="og:image" content="{origin}{logo}">' if site.get("has_logo") else "",
        f'<meta name="theme-color" content="{escape(site.get("primary_colour", ""))}">',
        f'<link rel="stylesheet" href="{_static("vendor/bootstrap-5.3.8/bootstrap.min.css")}">',
        f'<link rel="stylesheet" href="{_static("css/site.css")}">',
        f'<link rel="stylesheet" href="{escape(site.get("css_url", ""))}">',
        f'<link rel="icon" href="{logo if site.get("has_logo") else _static("favicon.svg")}">',
    ]
    return SafeString("\n  ".join(lines))


def _language_switch(context) -> str:
    links = []
    for link in context.get("language_links") or ():
        code = conditional_escape(link["code"])
        style, mark = ("btn-light", 'aria-current="true"') if link.get("current") else ("btn-outline-light", "")
        links.append(
            f'\n          <a href="{conditional_escape(link["url"])}" lang="{code}" hreflang="{code}"'
            f'\n             class="btn btn-sm {style}"'
            f"\n             {mark}>{conditional_escape(link['label'])}</a>"
            "\n        "
        )
    return "".join(links)


@register.simple_tag(takes_context=True)
def site_header(context) -> SafeString:
    """The skip link and the menu bar: the federation's name and logo, the language switch, the menu."""
    site = context.get("site") or {}
    urls = _site_urls(context)
    logo = (
        f'<img class="fed-logo" src="{escape(site.get("logo_url", ""))}" alt="" width="32" height="32">'
        if site.get("has_logo")
        else ""
    )
    menu = _menu(get_language(), context.get("nav_section") or "", _urls_key(context))
    # Translated outside the f-string: makemessages (xgettext) does not read calls inside one.
    skip, main_menu = escape(gettext("Skip to content")), escape(gettext("Main menu"))
    languages, menu_button = escape(gettext("Language")), escape(gettext("Menu"))
    return SafeString(
        f'<a class="visually-hidden-focusable" href="#content">{skip}</a>\n'
        '<nav class="navbar navbar-expand-lg navbar-dark fed-navbar mb-3" '
        f'aria-label="{main_menu}">\n'
        '  <div class="container">\n'
        f'    <a class="navbar-brand d-flex align-items-center gap-2" href="{escape(urls.get("home", ""))}">{logo}'
        f'<span class="d-none d-sm-inline">{escape(site.get("name", ""))}</span>'
        f'<span class="d-sm-none">{escape(site.get("short_name", ""))}</span></a>\n'
        '    <div class="d-flex gap-1 ms-auto order-lg-last" id="language-switch" role="group" '
        f'aria-label="{languages}">\n'
        f"        {_language_switch(context)}\n"
        "      </div>\n"
        '    <button class="navbar-toggler ms-2" type="button" data-bs-toggle="collapse" data-bs-target="#nav" '
        f'aria-controls="nav" aria-expanded="false" aria-label="{menu_button}">\n'
        '      <span class="navbar-toggler-icon"></span>\n'
        "    </button>\n"
        '    <div class="collapse navbar-collapse" id="nav">\n'
        '      <ul class="navbar-nav me-auto">\n'
        f"{menu}"
        "        \n"
        "      </ul>\n"
        "    </div>\n"
        "  </div>\n"
        "</nav>"
    )


@register.simple_tag(takes_context=True)
def breadcrumb_trail(context) -> SafeString:
    """``breadcrumbs`` (a list of ``{"label", "url"}``, the last one the page itself) after the home page."""
    crumbs = context.get("breadcrumbs")
    if not crumbs:
        return SafeString("")
    items = []
    for number, crumb in enumerate(crumbs, start=1):
        label = conditional_escape(crumb.get("label", ""))
        if crumb.get("url") and number < len(crumbs):
            items.append(f'<li class="breadcrumb-item"><a href="{conditional_escape(crumb["url"])}">{label}</a></li>')
        else:
            items.append(f'<li class="breadcrumb-item active" aria-current="page">{label}</li>')
    home = escape(_site_urls(context).get("home", ""))
    trail, home_label = escape(gettext("Breadcrumbs")), escape(gettext("Home"))  # outside the f-string, for xgettext
    return SafeString(
        f'<nav aria-label="{trail}"><ol class="breadcrumb small mb-2">\n'
        f'    <li class="breadcrumb-item"><a href="{home}">{home_label}</a></li>\n'
        f"    {''.join(items)}\n"
        "  </ol></nav>"
    )


@register.simple_tag(takes_context=True)
def site_footer(context) -> SafeString:
    """The footer (the federation's name, its pages, the guides) and the page's Bootstrap script."""
    site = context.get("site") or {}
    links = _footer_links(get_language(), _urls_key(context))
    return SafeString(
        '<footer class="container text-muted small my-4 border-top pt-2 d-flex flex-wrap gap-3">\n'
        f"  <span>{escape(site.get('name', ''))}</span>\n"
        f"{links}"
        "</footer>\n"
        f'<script src="{_static("vendor/bootstrap-5.3.8/bootstrap.bundle.min.js")}"></script>'
    )
