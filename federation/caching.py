"""Public pages served like static files: cached by what they show, answered with ``304`` on a repeat visit.

A page decorated with ``cached_page(version)`` is keyed by its *version*: a short string read in one query (on
PostgreSQL remembered by the process until a committed write is notified, ``federation.changes``) from what the
page depends on (for a rating list, its snapshots: how many, the newest id and when it was computed; for a
player, every snapshot and the player's own changes, results and games; and always the player registry and the
federation's identity). The version, the language and the full address make the ``ETag``. Then:

- a request whose ``If-None-Match`` carries that ETag gets ``304 Not Modified`` without rendering anything;
- otherwise the rendered page is taken from the cache under that ETag, or rendered once and stored there;
- ``Last-Modified`` is the moment this server first rendered this version (so it only ever moves forward, and an
  ``If-Modified-Since`` at or after it gets a ``304`` too).

Invalidation is exact and needs no hook: a new publication (or a rebuild, a renamed player, a new deal) changes the
version, hence the key and the ETag, at the next request. Old entries simply age out of the cache.

``Cache-Control: public, no-cache`` lets a browser, a proxy or a CDN keep the page and obliges them to revalidate
each time (cheap: a ``304``), so nobody sees an old list after a publication. A federation that accepts a delay for
less load can set ``PUBLIC_PAGE_SHARED_MAX_AGE`` (seconds): shared caches (a CDN) then serve the page that long
without asking (``s-maxage``).

What a page shows beside what its address asks for (a list filter's choices of clubs, cities and countries, an
unfiltered list's count) is kept too, by the page's path and version (``page_memo``), so that a page of the same
list asked for the first time (another page number, another sort) reads and writes its rows but not those again.
They are read only while a version is known: a private page, a download or a page without a version reads them
every time.

Not cached (rendered every time, ``Cache-Control: private``): a signed-in visitor's pages (they show staff links),
a request carrying flash messages, downloads (``_export``), and anything but a ``200``.

``Vary``. Decision: a public page does not vary on ``Cookie``, whether just rendered or from the cache (before, a
freshly rendered page whose view looked at ``request.user`` sent ``Vary: Cookie``, the same page from the cache did
not). The language is chosen by the address alone (Russian at the root, English under ``/en/``: no cookie and no
``Accept-Language`` choose it), and a public page is the same for every anonymous visitor; the pages that do depend
on a cookie (signed in, flash messages) are ``private``, so a shared cache never stores them. ``Vary: Cookie`` would
make a CDN keep one copy per cookie (any analytics cookie) or refuse to keep the page at all, which is the opposite of
what ``Cache-Control: public`` asks. ``PublicPageVaryMiddleware`` (listed before ``SessionMiddleware``, so it sees the
response after the session added its ``Vary``) takes ``Cookie`` out of the ``Vary`` of the responses this module
marked public; ``Vary: Accept-Language``, which Django's ``LocaleMiddleware`` sends at the root, is left as it is.
A CDN set with ``PUBLIC_PAGE_SHARED_MAX_AGE`` may show a signed-in member the public copy of a page (without the
staff links) for that long: the staff work in the admin.
"""

from __future__ import annotations

import hashlib
import threading
from collections.abc import Callable
from contextvars import ContextVar
from functools import wraps

from django.conf import settings
from django.core.cache import caches
from django.http import HttpRequest, HttpResponse, HttpResponseNotModified
from django.utils import timezone
from django.utils.cache import patch_cache_control
from django.utils.http import http_date, parse_http_date_safe
from django.utils.translation import get_language

from federation.changes import UNKNOWN

#: Bump when a change of templates or code must not be served from an older rendering.
RENDERING = "2026-12-01.1"
PREFIX = "page:"


#: The path and version of the page being rendered by ``cached_page`` (None outside one): ``page_memo``'s scope.
_PAGE: ContextVar[tuple[str, str] | None] = ContextVar("federation_page", default=None)
#: ``page_memo``'s values by (path, version, key); emptied when it holds ``PAGE_MEMO_MAX``.
_MEMO: dict[tuple, object] = {}
_MEMO_LOCK = threading.Lock()
PAGE_MEMO_MAX = 512


def page_memo(key: tuple, compute: Callable[[], object]):
    """``compute()``, kept for the page being rendered as long as its version stays the same: a value that depends
    only on what the version covers and on ``key`` (not on the query string, unless ``key`` holds what it reads of
    it), e.g. the clubs a filter offers. Outside a cached page (private, a download, no version) it is computed
    every time. The value is shared between requests: do not change it."""
    page = _PAGE.get()
    if page is None:
        return compute()
    memo_key = (*page, *key)
    try:
        return _MEMO[memo_key]
    except KeyError:
        pass
    value = compute()
    with _MEMO_LOCK:
        if len(_MEMO) >= PAGE_MEMO_MAX:
            _MEMO.clear()
        _MEMO[memo_key] = value
    return value


def forget_page_memo() -> None:
    """Empty ``page_memo`` (the tests do before each test: a rolled-back database may give a version again)."""
    with _MEMO_LOCK:
        _MEMO.clear()


def _cache():
    return caches[getattr(settings, "PUBLIC_PAGE_CACHE", "default")]


def _private(request: HttpRequest) -> bool:
    if request.method not in ("GET", "HEAD") or "_export" in request.GET:
        return True
    if "messages" in request.COOKIES:
        return True
    if settings.SESSION_COOKIE_NAME in request.COOKIES:
        user = getattr(request, "user", None)
        return bool(user is not None and user.is_authenticated)
    return False


def etag_for(request: HttpRequest, version: str) -> str:
    digest = hashlib.blake2b(
        f"{RENDERING}|{version}|{get_language()}|{request.get_full_path()}".encode(), digest_size=16
    ).hexdigest()
    return f'"{digest}"'


def _matches(request: HttpRequest, etag: str) -> bool:
    header = request.META.get("HTTP_IF_NONE_MATCH", "")
    if not header:
        return False
    if header.strip() == "*":
        return True
    tags = {tag.strip().removeprefix("W/") for tag in header.split(",")}
    return etag in tags


def _headers(response: HttpResponse, etag: str, modified: float) -> HttpResponse:
    response.public_page = True  # PublicPageVaryMiddleware: the same for every anonymous visitor
    response["ETag"] = etag
    response["Last-Modified"] = http_date(modified)
    shared = int(getattr(settings, "PUBLIC_PAGE_SHARED_MAX_AGE", 0) or 0)
    if shared:
        patch_cache_control(response, public=True, max_age=0, s_maxage=shared)
    else:
        patch_cache_control(response, public=True, no_cache=True)
    return response


def cached_page(version: Callable[..., str | None], *, reads: Callable[..., list] | None = None):
    """Serve the view like a static page, keyed by ``version(request, *args, **kwargs)`` (None: do not cache,
    e.g. a list that does not exist, which the view then answers with its 404).

    ``reads(request, *args, **kwargs)``: the statements the view sends first (``federation.db.reads_together``).
    When the version must be read from the database (this process does not remember it), they are sent together
    with it, in one round trip instead of two or more; a page then found in the cache read them for nothing."""

    def decorator(view):
        @wraps(view)
        def wrapped(request: HttpRequest, *args, **kwargs):
            if _private(request):
                response = view(request, *args, **kwargs)
                patch_cache_control(response, private=True)
                return response
            if reads is not None:
                from federation.changes import version_statement
                from federation.db import reads_together

                statement, current = version_statement(version, request, *args, **kwargs)
                if statement is not None:
                    with reads_together([statement, *reads(request, *args, **kwargs)]):
                        return answer(request, UNKNOWN, args, kwargs)
                return answer(request, current, args, kwargs)
            return answer(request, UNKNOWN, args, kwargs)

        def answer(request: HttpRequest, current, args: tuple, kwargs: dict):
            """The page, its ``304`` or its cached copy; ``current`` is the version when the caller already has it."""
            if current is UNKNOWN:
                current = version(request, *args, **kwargs)
            if current is None:
                return view(request, *args, **kwargs)
            etag = etag_for(request, current)
            cache = _cache()
            stored = cache.get(PREFIX + etag)
            if stored is not None:
                modified, content_type, content = stored
                since = parse_http_date_safe(request.META.get("HTTP_IF_MODIFIED_SINCE", ""))
                if _matches(request, etag) or (
                    "HTTP_IF_NONE_MATCH" not in request.META and since is not None and since >= int(modified)
                ):
                    return _headers(HttpResponseNotModified(), etag, modified)
                response = HttpResponse(content, content_type=content_type)
                return _headers(response, etag, modified)
            token = _PAGE.set((request.path, current))
            try:
                response = view(request, *args, **kwargs)
                if response.status_code != 200 or getattr(response, "streaming", False):
                    return response
                if hasattr(response, "render") and callable(response.render):
                    response = response.render()
            finally:
                _PAGE.reset(token)
            modified = timezone.now().timestamp()
            cache.set(
                PREFIX + etag,
                (modified, response["Content-Type"], response.content),
                getattr(settings, "PUBLIC_PAGE_CACHE_SECONDS", 24 * 3600),
            )
            if _matches(request, etag):  # rendered here, and the client already holds it (another server's)
                return _headers(HttpResponseNotModified(), etag, modified)
            return _headers(response, etag, modified)

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
