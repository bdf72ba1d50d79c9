"""A logo upload checked before it is stored: a known image format by its first bytes, at most 200 KB, and an SVG
with nothing that runs (no script, no event handler, no external reference); served with a CSP that forbids
scripts anyway (``federation.views.identity_logo``)."""

from __future__ import annotations

import re

from django.utils.translation import gettext as _

LOGO_MAX_BYTES = 200 * 1024
_SVG_FORBIDDEN = re.compile(
    rb"<script|\son[a-z]+\s*=|javascript:|<foreignObject|xlink:href\s*=\s*[\"']?(?!#)|href\s*=\s*[\"']?(?!#)", re.I
)


def logo_from_upload(name: str, data: bytes) -> tuple[str, bytes]:
    """``(format, bytes)`` of an uploaded logo, or ValueError saying what is wrong."""
    if len(data) > LOGO_MAX_BYTES:
        raise ValueError(_("The logo is larger than 200 KB."))
    if data.startswith(b"\x89PNG\r\n\x1a\n"):
        return "png", data
    if data.startswith(b"\xff\xd8\xff"):
        return "jpeg", data
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return "webp", data
    head = data[:1000].lstrip().lower()
    if head.startswith(b"<svg") or (head.startswith(b"<?xml") and b"<svg" in data[:2000].lower()):
        if _SVG_FORBIDDEN.search(data):
            raise ValueError(_("The SVG logo contains a script, an event handler or a link; such a file is refused."))
        return "svg", data
    raise ValueError(_("%(name)s is not a PNG, JPEG, WebP or SVG image.") % {"name": name})
