"""Bounds on what any address may ask, held before a view reads it (``federation.bounds``).

- A path or query string with a NUL is refused with a 400 page: PostgreSQL refuses NUL in text, so any filter
  that reached the database with one was a 500 (``?list=%00`` on the Gorbunov calculator, a search box...).
- A query string longer than ``QUERY_STRING_MAX_CHARS`` is refused the same way.
- ``per_page`` (django-tables2's page size, on every list page) is clamped into 1..``PER_PAGE_MAX``; one that is
  not a whole number is dropped, so the page's own size applies.

The game servers' JSON API (``/api/``) answers its own bad input as JSON and is left alone here.
"""

from __future__ import annotations

from django.utils.translation import gettext as _

from federation import bounds
from federation.errors import bad_request_page

API_PREFIX = "/api/"


def _bad_request(request, message: str):
    return bad_request_page(request, message)


def _clamped(raw: str) -> str | None:
    try:
        value = int(raw.strip())
    except ValueError:
        return None
    return str(min(max(value, 1), bounds.PER_PAGE_MAX))


class InputBoundsMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if request.path.startswith(API_PREFIX):
            return self.get_response(request)
        query = request.META.get("QUERY_STRING", "")
        if len(query) > bounds.QUERY_STRING_MAX_CHARS:
            return _bad_request(request, _("The address is too long."))
        texts = [request.path, *request.GET.keys(), *(v for values in request.GET.lists() for v in values[1])]
        if any(character in text for text in texts for character in bounds.FORBIDDEN_CHARACTERS):
            return _bad_request(request, _("The address contains a character that is not allowed."))
        sizes = [key for key in request.GET if key == "per_page" or key.endswith("-per_page")]
        if sizes:
            query = request.GET.copy()
            for key in sizes:
                value = _clamped(query.get(key, ""))
                if value is None:
                    query.pop(key)
                else:
                    query[key] = value
            query._mutable = False
            request.GET = query
        return self.get_response(request)
