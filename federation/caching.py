"""Public pages and API answers cached the ordinary way: Django's cache framework, keyed by versions, with ``ETag``,
``Last-Modified`` and ``304`` through Django's ``condition`` decorator.

An answer's key is made of:

- the versions of the scopes it shows (``federation.versions``: bumped when a write that changes them commits);
- the deployed code's own version (``versions.code_version``: a digest of the code, templates and translations);
- the site's configured address (``SITE_URL``: the canonical links are written from it, never from the request's
  host), the language, the path, and the query parameters the view reads, normalised: any other parameter is
  dropped before the view sees the request, so an unknown parameter neither makes a new entry nor changes the
  ``ETag``, and the page (its links included) is the same as without it;
- the federation's date today, so that a text that depends on the date ("will be rated on Monday 7 December") is
  right whenever it is read. (Nothing on the cached pages depends on the time of day.)

Then ``304`` when the client holds that ``ETag`` (or an ``If-Modified-Since`` at or after the newest version), else
the body stored in the cache under it, else the view renders it and it is stored for ``PUBLIC_PAGE_CACHE_SECONDS``.

Not stored, only answered (``Cache-Control: private``, rendered each time): a signed-in visitor's page (it shows
staff links), a request carrying flash messages, a download (``_export``), anything but a ``200``. A page asked with
a free-text parameter (a search) gets its ``ETag`` and ``304`` but is not stored: every search would otherwise be an
entry of its own.

A cache that does not answer (Redis down) never fails a page: the page is rendered as if nothing were cached
(``Cache-Control: no-cache``, no ``ETag``), and the settings make the Redis backend ignore its errors
(django-redis' ``IGNORE_EXCEPTIONS``).

``Cache-Control: public, no-cache`` lets a browser, a proxy or a CDN keep the page and obliges them to revalidate it
(a ``304``); ``PUBLIC_PAGE_SHARED_MAX_AGE`` (seconds) lets a CDN serve it that long without asking (``s-maxage``).

``Vary``: a public page does not vary on ``Cookie``. Its language comes from its address alone, and the pages that do
depend on a cookie are ``private``; ``PublicPageVaryMiddleware`` takes ``Cookie`` out of the ``Vary`` of the
responses marked public, so a CDN keeps one copy of each (``Vary: Accept-Language`` at the root stays).
"""

from __future__ import annotations

import datetime as dt
import hashlib
import logging
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from functools import wraps

from django.conf import settings
from django.core.cache import caches
from django.http import HttpRequest, HttpResponse, QueryDict
from django.utils import timezone
from django.utils.cache import patch_cache_control
from django.utils.translation import get_language
from django.views.decorators.http import condition

from federation import versions

logger = logging.getLogger(__name__)

PREFIX = "answer:"
#: Query parameters every list reads: django-tables2's page, size and order, and the download.
TABLE_PARAMS = ("page", "per_page", "sort", "_export")

Scopes = Iterable[str] | Callable[..., Iterable[str]]


@dataclass(frozen=True)
class AnswerKey:
    etag: str
    modified: dt.datetime
    store: bool


def answer_key(scopes: Iterable[str], *parts, store: bool = True) -> AnswerKey | None:
    """The key of an answer that shows ``scopes`` and is told apart from others by ``parts``; None when the cache is
    down (answer without it)."""
    scopes = sorted(set(scopes))
    found = versions.read(scopes)
    if found is None:
        return None
    code, code_time = versions.code_version()
    text = "\x1f".join(
        str(part) for part in (code, settings.SITE_URL, timezone.localdate(), get_language(), *scopes, *found, *parts)
    )
    digest = hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=16).hexdigest()
    newest = max([code_time, *(version / 1e9 for version in found)])
    return AnswerKey(f'"{digest}"', dt.datetime.fromtimestamp(int(newest), tz=dt.UTC), store)


def _cache():
    return caches[getattr(settings, "PUBLIC_PAGE_CACHE", "default")]


def stored_answer(key: AnswerKey, build: Callable[[], HttpResponse]) -> HttpResponse:
    """The answer stored under ``key``, else ``build()``, stored when it is a whole ``200``."""
    cache_key = PREFIX + key.etag
    stored = _cache().get(cache_key) if key.store else None
    if stored is not None:
        content_type, content = stored
        return HttpResponse(content, content_type=content_type)
    response = build()
    if hasattr(response, "render") and callable(response.render):
        response = response.render()
    if key.store and response.status_code == 200 and not response.streaming:
        seconds = getattr(settings, "PUBLIC_PAGE_CACHE_SECONDS", 3600)
        _cache().set(cache_key, (response["Content-Type"], response.content), seconds)
    return response


def cached_response(request: HttpRequest, key: AnswerKey, build: Callable[[], HttpResponse]) -> HttpResponse:
    """The answer under ``key``: ``304`` when the client holds it (Django's ``condition``), else the stored answer,
    else ``build()`` (stored when it is a whole ``200``)."""

    @condition(etag_func=lambda request: key.etag, last_modified_func=lambda request: key.modified)
    def answer(request):
        return stored_answer(key, build)

    return answer(request)


def _public(response: HttpResponse) -> HttpResponse:
    response.public_page = True  # PublicPageVaryMiddleware: the same for every anonymous visitor
    shared = int(getattr(settings, "PUBLIC_PAGE_SHARED_MAX_AGE", 0) or 0)
    if shared:
        patch_cache_control(response, public=True, max_age=0, s_maxage=shared)
    else:
        patch_cache_control(response, public=True, no_cache=True)
    return response


def _private(request: HttpRequest) -> bool:
    if request.method not in ("GET", "HEAD") or "_export" in request.GET:
        return True
    if "messages" in request.COOKIES:
        return True
    if settings.SESSION_COOKIE_NAME in request.COOKIES:
        user = getattr(request, "user", None)
        return bool(user is not None and user.is_authenticated)
    return False


def keep_params(request: HttpRequest, names: Iterable[str]) -> str:
    """Drop every query parameter but ``names`` (and empty values), sorted by name, from the request the view sees;
    the normalised query string."""
    kept = QueryDict(mutable=True)
    for name in sorted(set(names)):
        values = [value for value in request.GET.getlist(name) if value != ""]
        if values:
            kept.setlist(name, values)
    query = kept.urlencode()
    kept._mutable = False
    request.GET = kept
    request.META["QUERY_STRING"] = query
    return query


#: Values of the dated lists' ``?week=`` and ``?date=`` that are stored (anything else is echoed in an error).
DATED = {"week": r"\d{4}-W\d{2}", "date": r"\d{4}-\d{2}-\d{2}"}


def cached_page(*, scopes: Scopes, params: Iterable = (), free: Mapping[str, str | None] | Iterable[str] = ()):
    """Serve a public GET view from the cache (see the module's docstring).

    ``scopes``: what the page shows (``federation.versions.SCOPES``), or a function of the view's arguments giving
    them. ``params``: the query parameters the view reads, by name or as a django-filter ``FilterSet`` class (its
    filters' names). ``free``: those of them that take any text (a search), each with the pattern of the values
    that may be stored (None: none), e.g. ``DATED``."""
    params = tuple(name for item in params for name in getattr(item, "base_filters", (item,)))
    free = dict(free) if isinstance(free, Mapping) else dict.fromkeys(free)

    def decorator(view):
        @wraps(view)
        def wrapped(request: HttpRequest, *args, **kwargs):
            query = keep_params(request, params)
            if _private(request):
                response = view(request, *args, **kwargs)
                patch_cache_control(response, private=True)
                return response
            shown = scopes(request, *args, **kwargs) if callable(scopes) else scopes
            store = all(
                pattern is not None and re.fullmatch(pattern, request.GET[name])
                for name, pattern in free.items()
                if name in request.GET
            )
            key = answer_key(shown, request.path, query, store=store)
            if key is None:  # the cache is down: rendered as if nothing were cached
                response = view(request, *args, **kwargs)
                patch_cache_control(response, no_cache=True)
                return response
            return _public(cached_response(request, key, lambda: view(request, *args, **kwargs)))

        return wrapped

    return decorator


class PublicPageVaryMiddleware:
    """Takes ``Cookie`` out of ``Vary`` on the public pages ``cached_page`` answered (see the module's docstring)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        if getattr(response, "public_page", False) and response.has_header("Vary"):
            kept = [part.strip() for part in response["Vary"].split(",") if part.strip().lower() != "cookie"]
            if kept:
                response["Vary"] = ", ".join(kept)
            else:
                del response["Vary"]
        return response
