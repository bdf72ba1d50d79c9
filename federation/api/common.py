"""Errors, limits and URL wrapping shared by the site's JSON APIs (see the package's docstring).

Every error is ``{"errors": [{"field": ..., "message": ...}, ...]}``: ``field`` names where the problem is, as a
path into the request (``deals[2].whists.15``, ``per_page``, ``body``, ``Authorization``), never a 500 or an HTML page.
The field is a name and stays as it is; the message is in the API's language for the request (``JsonApi``): the
public API's follows ``?lang=`` or ``Accept-Language`` (Russian by default, as the site), the game servers' API
answers in English (see ``ratings.preferans.api``).
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable, Iterable

from django.core.exceptions import RequestDataTooBig
from django.http import Http404, HttpRequest, JsonResponse
from django.urls import Resolver404, resolve
from django.utils import translation
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt
from ninja import NinjaAPI
from ninja.errors import AuthenticationError, HttpError, Throttled, ValidationError
from ninja.parser import Parser

from federation.bounds import API_MAX_BODY_BYTES
from ratings.engines.common import FieldError


class JsonApi(NinjaAPI):
    """A NinjaAPI whose answers, errors included, are written in ``language_of(request)`` (``api_urlpatterns``
    activates it around the whole request)."""

    def __init__(self, *args, language_of: Callable[[HttpRequest], str], **kwargs):
        super().__init__(*args, **kwargs)
        self.language_of = language_of


class ApiError(Exception):
    """An answer other than 200 from inside an operation: ``status``, the field and the message; ``extra`` joins
    the body (``stored``: what a conflicting replay was stored as)."""

    def __init__(self, status: int, field: str, message: str, extra: dict | None = None):
        super().__init__(field, message)
        self.status, self.field, self.message, self.extra = status, field, message, extra or {}


def error_response(field: str, message: str, status: int, extra: dict | None = None) -> JsonResponse:
    return JsonResponse({"errors": [{"field": field, "message": message}], **(extra or {})}, status=status)


#: Tags of the tagged unions in the schemas (which shape the value took): not part of the field's path.
UNION_TAGS = {"deal", "batch", "ref", "object", "invalid"}
#: What a request's parts are called in ninja's error locations.
PARTS = {"body", "query", "path", "header", "cookie", "form"}


def field_of(loc: Iterable) -> str:
    """The path of a pydantic error location: ``("body", "payload", "batch", "deals", 2, "whists", "15")`` is
    ``deals[2].whists.15``; the request's part, the parameter's name for a whole body and the unions' tags go."""
    parts = list(loc)
    if parts and parts[0] in PARTS:
        body = parts[0] == "body"
        parts = parts[1:]
        if body and parts:
            parts = parts[1:]  # the body parameter's own name
    out = ""
    for part in parts:
        if isinstance(part, int):
            out += f"[{part}]"
        elif part == "[key]" or part in UNION_TAGS:
            continue
        else:
            out += f".{part}" if out else str(part)
    return out or "body"


def _pattern_messages() -> dict[str, str]:
    """What a parameter's pattern asks for, said in words (a pattern itself means nothing to a reader)."""
    return {
        "week": _("is not an ISO week (YYYY-Www, e.g. 2026-W10)"),
        "search": _("holds a control character"),
        "stages": _("is not stages as hanchans/players separated by commas, e.g. 10/28, 10/8"),
        "ratings": _("is not 1 to 20 ratings from 0 to 10000 separated by commas"),
        "tables": _("is not 1 to 20 ratings from 0 to 10000 separated by commas"),
    }


def _message(error: dict) -> str:
    """Pydantic's error in the active language: its kinds the APIs' parameters meet, in our words; our own
    validators' messages (``value_error``) are already translated; anything else in pydantic's English words."""
    kind = error.get("type", "")
    context = error.get("ctx") or {}
    if kind == "string_pattern_mismatch":
        location = list(error.get("loc") or ())
        named = _pattern_messages().get(str(location[-1]) if location else "")
        if named:
            return named
    if kind == "literal_error":  # pydantic writes "'a', 'b' or 'c'" in English
        expected = str(context.get("expected", "")).replace(" or ", ", ")
        return _("must be one of: %(limit)s") % {"limit": expected}
    if kind in ("union_tag_invalid", "model_attributes_type", "dict_type", "model_type"):
        return _("is not an object")
    known = {
        "missing": _("is missing"),
        "int_parsing": _("is not a whole number"),
        "int_from_float": _("is not a whole number"),
        "int_type": _("is not a whole number"),
        "float_parsing": _("is not a number"),
        "float_type": _("is not a number"),
        "finite_number": _("is not a finite number"),
        "bool_parsing": _("is not true or false"),
        "date_parsing": _("is not a date (YYYY-MM-DD)"),
        "date_from_datetime_parsing": _("is not a date (YYYY-MM-DD)"),
        "string_pattern_mismatch": _("holds characters not allowed here"),
        "string_type": _("is not a text"),
        "list_type": _("is not a list"),
    }
    if kind in known:
        return known[kind]
    if kind in ("int_parsing_size", "float_parsing_size"):  # no echo of the digits, nor of Python's limit
        return _("is too large a number")
    bounds = {
        "greater_than_equal": (_("must be at least %(limit)s"), "ge"),
        "less_than_equal": (_("must be at most %(limit)s"), "le"),
        "greater_than": (_("must be more than %(limit)s"), "gt"),
        "less_than": (_("must be less than %(limit)s"), "lt"),
        "string_too_long": (_("must have at most %(limit)s characters"), "max_length"),
        "string_too_short": (_("must have at least %(limit)s characters"), "min_length"),
        "literal_error": (_("must be one of: %(limit)s"), "expected"),
    }
    if kind in bounds:
        text, key = bounds[kind]
        return text % {"limit": context.get(key, "")}
    message = str(error.get("msg", "")) or _("is not valid")
    return message.removeprefix("Value error, ")


class JsonBodyParser(Parser):
    """JSON bodies: anything that is not JSON, or nests too deeply to read, is a 400 naming the body, in the API's
    words (Python's parser spoke of ``sys.set_int_max_str_digits()`` for a number of 5,000 digits)."""

    def parse_body(self, request):
        try:
            return json.loads(request.body)
        except RecursionError:
            raise ApiError(400, "body", _("nests too deeply")) from None
        except json.JSONDecodeError as error:
            where = {"line": error.lineno, "column": error.colno}
            raise ApiError(400, "body", _("is not JSON (line %(line)s, column %(column)s)") % where) from None
        except UnicodeDecodeError:
            raise ApiError(400, "body", _("is not UTF-8 text")) from None
        except ValueError:  # a number of more digits than Python reads (4,300)
            raise ApiError(400, "body", _("holds a number too long to read")) from None


def install_error_handlers(api: NinjaAPI, *, auth_message: str = "") -> None:
    """Every exception an operation may meet becomes a JSON answer naming the field."""

    def on_validation(request, exc: ValidationError):
        errors = [{"field": field_of(e.get("loc", ())), "message": _message(e)} for e in exc.errors[:20]]
        return JsonResponse({"errors": errors}, status=400)

    def on_api_error(request, exc: ApiError):
        return error_response(exc.field, exc.message, exc.status, exc.extra)

    def on_field_error(request, exc: FieldError):
        return error_response(exc.field, exc.message, 400)

    def on_http_error(request, exc: HttpError):
        cause = exc.__cause__
        if isinstance(cause, ApiError):
            return on_api_error(request, cause)
        if isinstance(exc, Throttled):
            return error_response("", _("too many requests: wait and send again"), 429)
        if isinstance(exc, AuthenticationError):
            return error_response("Authorization", auth_message or exc.message, 403)
        return error_response("body" if exc.status_code == 400 else "", exc.message, exc.status_code)

    def on_too_big(request, exc):
        return error_response("body", _too_big(), 413)

    def on_not_found(request, exc):
        return error_response("", _("not found"), 404)

    def on_recursion(request, exc):
        return error_response("body", _("nests too deeply"), 400)

    api.add_exception_handler(ValidationError, on_validation)
    api.add_exception_handler(ApiError, on_api_error)
    api.add_exception_handler(FieldError, on_field_error)
    api.add_exception_handler(HttpError, on_http_error)
    api.add_exception_handler(RequestDataTooBig, on_too_big)
    api.add_exception_handler(Http404, on_not_found)
    api.add_exception_handler(RecursionError, on_recursion)


def _too_big() -> str:
    return _("is larger than %(bytes)s bytes") % {"bytes": API_MAX_BODY_BYTES}


def _json_everywhere(view):
    """A body announced larger than the bound is refused unread (413); ``HEAD`` is answered as ``GET`` without the
    body; a method the address does not take is answered 405 in JSON, with its ``Allow`` header, like every other
    error."""

    @functools.wraps(view)
    def wrapped(request, *args, **kwargs):
        length = request.META.get("CONTENT_LENGTH") or ""
        if length.isdigit() and int(length) > API_MAX_BODY_BYTES:
            return error_response("body", _too_big(), 413)
        head = request.method == "HEAD"
        if head:  # HEAD wherever GET is allowed (uptime monitors, caches): the GET's headers, no body
            request.method = "GET"
        try:
            response = view(request, *args, **kwargs)
            if head:
                request.method = "HEAD"
                if response.status_code != 405:
                    response.content = b""
        except RequestDataTooBig:
            return error_response("body", _too_big(), 413)
        if response.status_code == 405 and not response.get("Content-Type", "").startswith("application/json"):
            allowed = response.get("Allow", "")
            message = _("%(method)s is not allowed here; allowed: %(allowed)s")
            answer = error_response("method", message % {"method": request.method, "allowed": allowed}, 405)
            answer["Allow"] = allowed
            return answer
        return response

    return wrapped


@csrf_exempt  # a POST to a wrong address is answered as a GET to it is, not refused as a form without its token
def not_found(request, rest: str = ""):
    """A JSON 404 for any address under an API that names no operation; when the address with a slash added does,
    the answer says so (``POST /api/preferans/games`` was an HTML 403 "CSRF verification failed")."""
    path = request.path_info
    if not path.endswith("/"):
        try:
            match = resolve(path + "/")
        except Resolver404:
            match = None
        if match is not None and getattr(match.func, "__name__", "") != "not_found":
            message = _("there is nothing at this address of the API; did you mean %(path)s (with a slash)?")
            return error_response("", message % {"path": request.path + "/"}, 404)
    return error_response("", _("there is nothing at this address of the API"), 404, _documents(path))


def _documents(path: str) -> dict:
    """Where the API's documents are, for the answer at an address under it that holds nothing."""
    for prefix in ("/api/v1/", "/api/preferans/"):
        if path.startswith(prefix):
            return {"docs": prefix + "docs/", "openapi": prefix + "openapi.json"}
    return {"apis": ["/api/v1/", "/api/preferans/"]}


def _is_api(request) -> bool:
    return request.path_info.startswith("/api/")


def csrf_failure(request, reason: str = "", template_name: str = ""):
    """``CSRF_FAILURE_VIEW``: under /api/ a JSON 403 (no address of the APIs takes a form with a CSRF token);
    elsewhere Django's own page."""
    if _is_api(request):
        return error_response("", _("refused: this address takes no form posted from a web page"), 403)
    from django.views.csrf import csrf_failure as django_csrf_failure

    return django_csrf_failure(request, reason=reason)


def _finishing(view, after):
    @functools.wraps(view)
    def wrapped(request, *args, **kwargs):
        return after(request, view(request, *args, **kwargs))

    return wrapped


def _in_language(view, language_of):
    @functools.wraps(view)
    def wrapped(request, *args, **kwargs):
        with translation.override(language_of(request)):
            return view(request, *args, **kwargs)

    return wrapped


def not_found_in(api: JsonApi):
    """``not_found`` answering in ``api``'s language for the request (for the addresses under /api/ of no API)."""
    return _in_language(not_found, api.language_of)


def api_urlpatterns(api: JsonApi, after=None) -> list:
    """The API's URL patterns with every view wrapped by ``_json_everywhere`` (and ``after(request, response)``,
    e.g. the public API's conditional answers) in the API's language for the request, and a JSON 404 for the
    rest."""
    from django.urls import path

    patterns, _app, _namespace = api.urls
    missing = not_found_in(api)
    for pattern in patterns:
        if getattr(pattern, "name", "") == "api-root":
            # django-ninja's root raises Http404, which Django answers with the site's HTML page; the address
            # stays (ninja reverses it for the document's paths), answered in JSON, with where the documents are.
            pattern.callback = missing
        elif hasattr(pattern, "callback"):
            view = pattern.callback if after is None else _finishing(pattern.callback, after)
            pattern.callback = _in_language(_json_everywhere(view), api.language_of)
    return [*patterns, path("<path:rest>", missing)]
