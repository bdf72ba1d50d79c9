"""The public, read-only API ``/api/v1/`` (django-ninja): rating lists of every system as of any date or week,
players, clubs, tournaments and the calculators, with its OpenAPI document at ``/api/v1/openapi.json`` and its pages
at ``/api/v1/docs/`` (served from the site's own static files).

The versioning promise is in the README ("Public API"). Every answer is JSON, in the language of ``?lang=`` or else
``Accept-Language`` (Russian by default, as the site), error messages included; errors are
``{"errors": [{"field", "message"}]}``; every successful answer carries ``ETag`` (and ``Last-Modified`` where it
shows a publication) and honours ``If-None-Match`` / ``If-Modified-Since``; anonymous clients are held to
``settings.API_ANON_RATE`` (429 with ``Retry-After``); any site may read it (CORS, GET only).
"""

from federation.api.v1 import calendar  # noqa: F401  (registers the calendar's operations on ``api``)
from federation.api.v1.views import api

__all__ = ["api"]
