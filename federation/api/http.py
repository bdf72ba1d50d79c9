"""HTTP manners of the public API: the anonymous rate limit (429 with ``Retry-After``) through Django's cache, and
conditional requests (``ETag`` / ``Last-Modified``, 304).

The answers of lists and histories are cached under the versions of what they show (``cached_json``, through
``federation.caching``); every other successful GET leaves with an ETag made of its body (``finish``).

The rate limit counts requests per client address in fixed windows with the cache's atomic ``add``/``incr`` (Redis in
production, ``DJANGO_CACHE_URL``; one process's memory otherwise), so every web worker shares one count. The rate is
``settings.API_ANON_RATE`` ("requests/seconds"), read at each request.
"""

from __future__ import annotations

import hashlib
import json
import math
import time
from collections.abc import Callable

from django.conf import settings
from django.core.cache import cache
from django.core.serializers.json import DjangoJSONEncoder
from django.http import HttpResponse
from django.utils.cache import get_conditional_response, patch_vary_headers
from django.utils.http import parse_http_date_safe
from ninja.throttling import BaseThrottle

from federation.caching import answer_key, cached_response


def _rate() -> tuple[int, int]:
    count, _slash, seconds = str(settings.API_ANON_RATE).partition("/")
    return int(count), int(seconds or 60)


def rate_allows(name: str, limit: int, window: int) -> tuple[bool, float]:
    """Whether one more request counted under ``name`` fits ``limit`` per fixed window of ``window`` seconds, and
    the seconds left in the window. Shared by the API's rate and the calendar's registration form (per address and
    per e-mail). A cache that is down allows: serve rather than refuse everyone."""
    now = time.time()
    start = int(now // window) * window
    wait = start + window - now
    key = f"{name}:{start}"
    try:
        if cache.add(key, 1, window + 1):
            return True, wait
        count = cache.incr(key)
    except ValueError:  # the window's key expired between add and incr
        cache.add(key, 1, window + 1)
        return True, wait
    except Exception:  # the cache is down: serve rather than refuse everyone
        return True, wait
    return count <= limit, wait


class AnonymousRate(BaseThrottle):
    """At most N requests per window of S seconds from one address; over it, 429 with the seconds left to wait."""

    def allow_request(self, request) -> bool:
        limit, window = _rate()
        allowed, self._wait = rate_allows(f"api-rate:{self.get_ident(request)}", limit, window)
        return allowed

    def wait(self) -> float:
        return max(1.0, math.ceil(self._wait))


def _headers(response, etag: str | None = None) -> None:
    if etag is not None:
        response["ETag"] = etag
    response["Cache-Control"] = f"public, max-age={settings.API_MAX_AGE}"
    patch_vary_headers(response, ["Accept-Language"])


def dumps(answer: dict) -> bytes:
    """JSON as the API writes it (UTF-8, dates as ISO text)."""
    return json.dumps(answer, ensure_ascii=False, separators=(",", ":"), cls=DjangoJSONEncoder).encode()


def cached_json(request, *, scopes, parts: tuple, build: Callable[[], dict]) -> HttpResponse:
    """The JSON answer ``build()`` gives, told apart from others by ``parts`` (every parameter the operation read) and
    cached under the versions of ``scopes`` (``federation.caching``): ``304`` when the client holds it, else the
    stored body, else built and stored. A cache that is down: built, not stored."""

    def respond() -> HttpResponse:
        return HttpResponse(dumps(build()), content_type="application/json; charset=utf-8")

    key = answer_key(scopes, request.path, *parts)
    response = respond() if key is None else cached_response(request, key, respond)
    _headers(response)
    return response


def finish(request, response):
    """Every successful GET of the API leaves with an ETag (from what it shows, or its body), Last-Modified when it
    knows the snapshot, and Cache-Control; a client whose copy is current gets 304."""
    if request.method not in ("GET", "HEAD") or response.status_code != 200:
        return response
    etag = response.get("ETag")
    if not etag:
        etag = f'"{hashlib.blake2b(response.content, digest_size=16).hexdigest()}"'
        _headers(response, etag)
    last = response.get("Last-Modified")
    stamp = parse_http_date_safe(last) if last else None
    conditional = get_conditional_response(request, etag=etag, last_modified=stamp, response=response)
    return conditional
