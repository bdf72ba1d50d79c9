"""The pages of a bad request (400) and of a server error (500), which must not fail themselves.

Neither renders the site's frame (``base.html``) nor runs the context processors: a request whose ``Host`` is not one
of ``DJANGO_ALLOWED_HOSTS`` fails again at every ``request.get_host()``, and a server error may come from what the
frame reads (the database, the cache). Each is one self-contained template; the JSON APIs (``/api/``) get their
``{"errors": [...]}`` answer instead of a page. The 500 page says whether the error went out by e-mail, because it
does only when the site sends e-mail (``EMAIL_URL``) to someone (``DJANGO_ADMINS``).
"""

from __future__ import annotations

import logging

from django.conf import settings
from django.core.exceptions import DisallowedHost
from django.http import HttpResponse, JsonResponse
from django.template import loader
from django.utils.translation import gettext as _
from django.views.decorators.csrf import requires_csrf_token

logger = logging.getLogger(__name__)

API_PREFIX = "/api/"


def errors_are_mailed() -> bool:
    return bool(settings.EMAIL_URL and settings.ADMINS)


def _is_api(request) -> bool:
    return request.path.startswith(API_PREFIX)


def bad_request_page(request, message: str) -> HttpResponse:
    """400 with ``message``: JSON on the APIs, else the self-contained page in the request's language."""
    if _is_api(request):
        return JsonResponse({"errors": [{"field": "", "message": message}]}, status=400)
    return HttpResponse(loader.render_to_string("400.html", {"message": message}), status=400)


@requires_csrf_token
def bad_request(request, exception=None):
    """``handler400``: a host name the site does not answer to, or any other request Django refused as bad."""
    if isinstance(exception, DisallowedHost):
        if _is_api(request):
            return JsonResponse(
                {"errors": [{"field": "Host", "message": _("is not a host name of this site")}]}, status=400
            )
        return bad_request_page(
            request, _("This server does not answer to the host name in the address: open the site by its own name.")
        )
    return bad_request_page(request, _("The address cannot be read."))


@requires_csrf_token
def server_error(request):
    """``handler500``: whether the administrators were mailed is said as it is."""
    mailed = errors_are_mailed()
    if _is_api(request):
        message = (
            _("server error; the details have been sent to the administrators by e-mail")
            if mailed
            else _("server error")
        )
        return JsonResponse({"errors": [{"field": "", "message": message}]}, status=500)
    try:
        body = loader.render_to_string("500.html", {"mailed": mailed})
    except Exception:  # the page of last resort
        logger.exception("the 500 page could not be rendered")
        body = "<!doctype html><title>Server error</title><h1>Server error / Ошибка сервера</h1>"
    return HttpResponse(body, status=500)
