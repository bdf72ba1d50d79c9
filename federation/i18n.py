"""The visitor's language, the one way every page, table and section asks for it."""

from django.conf import settings
from django.utils.translation import get_language


def current_language() -> str:
    """The language of the request being served ("ru" or "en"); the site's default outside a request."""
    return get_language() or settings.LANGUAGE_CODE
