"""Bounds on what any address may ask, held before a view reads it (``federation.bounds``).

- A path or query string with a NUL is refused with a 400 page: PostgreSQL refuses NUL in text, so any filter
  that reached the database with one was a 500 (``?list=%00`` on the Gorbunov calculator, a search box...).
- A query string longer than ``QUERY_STRING_MAX_CHARS`` is refused the same way.
- ``per_page`` (django-tables2's page size, on every list page) is clamped into 1..``PER_PAGE_MAX``; one that is
  not a whole number is dropped, so the page's own size applies.

The game servers' JSON API (``/api/``) answers its own bad input as JSON and is left alone here.
"""

from __future__ import annotations

from django.conf import settings
from django.http import HttpResponse
from django.template.defaultfilters import filesizeformat
from django.urls import Resolver404, resolve
from django.utils import translation
from django.utils.html import escape
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


class RequestBodyLimitMiddleware:
    """A body announced larger than its address takes is refused (413) before anything reads it (issue 27: a 100 MB
    post was read whole, to a temporary file, before the 2 MB refusal). ``settings.REQUEST_BODY_MAX_BYTES`` is every
    address's cap, ``settings.REQUEST_BODY_LARGER`` the addresses (URL names) that take more: the history upload.

    A body without a ``Content-Length`` (chunked) is not read by Django at all under WSGI, so the announced length is
    what counts. First in the chain: the CSRF check reads a posted form, files and all.
    """

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        length = request.META.get("CONTENT_LENGTH") or ""
        if length.isdigit() and int(length) > settings.REQUEST_BODY_MAX_BYTES:
            limit = self._limit(request)
            if int(length) > limit:
                return self._refused(request, int(length), limit)
        return self.get_response(request)

    @staticmethod
    def _limit(request) -> int:
        # Before LocaleMiddleware: an address under /en/ resolves only with its language active.
        language = translation.get_language_from_path(request.path_info) or settings.LANGUAGE_CODE
        try:
            with translation.override(language):
                match = resolve(request.path_info)
        except Resolver404:
            return settings.REQUEST_BODY_MAX_BYTES
        return settings.REQUEST_BODY_LARGER.get(match.view_name, settings.REQUEST_BODY_MAX_BYTES)

    @staticmethod
    def _refused(request, length: int, limit: int):
        language = translation.get_language_from_path(request.path_info) or settings.LANGUAGE_CODE
        with translation.override(language):
            if request.path_info.startswith(API_PREFIX):
                from federation.api.common import error_response

                return error_response("body", _("is larger than %(bytes)s bytes") % {"bytes": limit}, 413)
            message = _(
                "The request is %(size)s; this address takes at most %(limit)s. Nothing was read or saved: send a "
                "smaller file (a federation's history may be up to %(history)s, on its own page)."
            ) % {
                "size": filesizeformat(length),
                "limit": filesizeformat(limit),
                "history": filesizeformat(bounds.HISTORY_UPLOAD_MAX_BYTES),
            }
            title = _("Too large")
        page = (
            f'<!doctype html><html lang="{language}"><head><meta charset="utf-8"><title>{escape(title)}</title>'
            f"</head><body><h1>{escape(title)}</h1><p>{escape(message)}</p></body></html>"
        )
        response = HttpResponse(page, status=413, content_type="text/html; charset=utf-8")
        response["Connection"] = "close"  # the body was not read: the connection cannot carry another request
        return response
