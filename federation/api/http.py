"""HTTP manners of the public API: the anonymous rate limit (429 with ``Retry-After``) through Django's cache, and
conditional requests (``ETag`` / ``Last-Modified``, 304).

The rate limit counts requests per client address in fixed windows with the cache's atomic ``add``/``incr`` (Redis in
production, ``DJANGO_CACHE_URL``; one process's memory otherwise), so every web worker shares one count. The rate is
``settings.API_ANON_RATE`` ("requests/seconds"), read at each request.
"""

from __future__ import annotations

import contextlib
import hashlib
import math
import time

from django.conf import settings
from django.core.cache import cache
from django.http import HttpResponse
from django.utils.cache import get_conditional_response, patch_vary_headers
from django.utils.http import http_date, parse_http_date_safe
from ninja.throttling import BaseThrottle


def _rate() -> tuple[int, int]:
    count, _slash, seconds = str(settings.API_ANON_RATE).partition("/")
    return int(count), int(seconds or 60)


class AnonymousRate(BaseThrottle):
    """At most N requests per window of S seconds from one address; over it, 429 with the seconds left to wait."""

    def allow_request(self, request) -> bool:
        limit, window = _rate()
        now = time.time()
        start = int(now // window) * window
        self._wait = start + window - now
        key = f"api-rate:{self.get_ident(request)}:{start}"
        try:
            if cache.add(key, 1, window + 1):
                return True
            count = cache.incr(key)
        except ValueError:  # the window's key expired between add and incr
            cache.add(key, 1, window + 1)
            return True
        except Exception:  # the cache is down: serve rather than refuse everyone
            return True
        return count <= limit

    def wait(self) -> float:
        return max(1.0, math.ceil(self._wait))


def etag_for(*parts) -> str:
    digest = hashlib.blake2b("\x1f".join(str(p) for p in parts).encode("utf-8", "surrogatepass"), digest_size=12)
    return f'"{digest.hexdigest()}"'


def not_modified(request, etag: str):
    """The 304 answer when the client's copy is current by its ``If-None-Match``, else None."""
    response = get_conditional_response(request, etag=etag)
    if response is not None:
        _headers(response, etag)
    return response


def _headers(response, etag: str, stamp: int | None = None) -> None:
    response["ETag"] = etag
    if stamp is not None:
        response["Last-Modified"] = http_date(stamp)
    response["Cache-Control"] = f"public, max-age={settings.API_MAX_AGE}"
    patch_vary_headers(response, ["Accept-Language"])


def versioned_answer(request, etag: str, build) -> HttpResponse:
    """The answer to ``request`` whose content ``etag`` names (made of the version of what it shows and of every
    parameter): 304 when the client holds it (``If-None-Match``, ``If-Modified-Since``), else the body stored in the
    cache under the ETag, else ``build()`` -> (JSON bytes, the snapshot's time or None), stored there for
    ``API_CACHE_SECONDS``. A cache that does not answer is a miss, never an error."""
    if early := not_modified(request, etag):
        return early
    key = f"api-v1:answer:{etag}"
    try:
        stored = cache.get(key)
    except Exception:
        stored = None
    if stored is None:
        body, modified = build()
        stamp = int(modified.timestamp()) if modified is not None else None
        with contextlib.suppress(Exception):
            cache.set(key, (body, stamp), settings.API_CACHE_SECONDS)
    else:
        body, stamp = stored
    response = HttpResponse(body, content_type="application/json; charset=utf-8")
    _headers(response, etag, stamp)
    return get_conditional_response(request, etag=etag, last_modified=stamp, response=response)


def finish(request, response):
    """Every successful GET of the API leaves with an ETag (from what it shows, or its body), Last-Modified when it
    knows the snapshot, and Cache-Control; a client whose copy is current gets 304."""
    if request.method not in ("GET", "HEAD") or response.status_code != 200:
        return response
    etag = response.get("ETag")
    if not etag:
        etag = etag_for(hashlib.blake2b(response.content, digest_size=16).hexdigest())
        _headers(response, etag)
    last = response.get("Last-Modified")
    stamp = parse_http_date_safe(last) if last else None
    conditional = get_conditional_response(request, etag=etag, last_modified=stamp, response=response)
    return conditional
