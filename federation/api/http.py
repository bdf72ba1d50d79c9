"""HTTP manners of the public API: the anonymous rate limit (429 with ``Retry-After``) through Django's cache, and
conditional requests (``ETag`` / ``Last-Modified``, 304).

The rate limit counts requests per client address in fixed windows with the cache's atomic ``add``/``incr`` (Redis in
production, ``DJANGO_CACHE_URL``; one process's memory otherwise), so every web worker shares one count. The rate is
``settings.API_ANON_RATE`` ("requests/seconds"), read at each request.
"""

from __future__ import annotations

import hashlib
import math
import time

from django.conf import settings
from django.core.cache import cache
from django.utils.cache import get_conditional_response, patch_vary_headers
from django.utils.http import http_date
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


def not_modified(request, etag: str, last_modified=None):
    """The 304 answer when the client's copy is current (``If-None-Match`` / ``If-Modified-Since``), else None."""
    stamp = int(last_modified.timestamp()) if last_modified is not None else None
    response = get_conditional_response(request, etag=etag, last_modified=stamp)
    if response is not None:
        _headers(response, etag, last_modified)
    return response


def _headers(response, etag: str, last_modified=None) -> None:
    response["ETag"] = etag
    if last_modified is not None:
        response["Last-Modified"] = http_date(int(last_modified.timestamp()))
    response["Cache-Control"] = f"public, max-age={settings.API_MAX_AGE}"
    patch_vary_headers(response, ["Accept-Language"])


def conditional_headers(response, etag: str, last_modified=None) -> None:
    _headers(response, etag, last_modified)


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
    from django.utils.http import parse_http_date_safe

    stamp = parse_http_date_safe(last) if last else None
    conditional = get_conditional_response(request, etag=etag, last_modified=stamp, response=response)
    return conditional
