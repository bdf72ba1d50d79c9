"""A logo upload checked before it is stored: a known image format by its first bytes, at most 200 KB; an SVG is
rebuilt from what a picture needs, and only that is stored (served with a CSP that forbids scripts anyway,
``federation.views.identity_logo``).

Decision (issue 27): an SVG is parsed with ``defusedxml`` (no DTD, no entities, no external resource: the XML
attacks a parser meets) and rebuilt from an allowlist of SVG elements and attributes, the way DOMPurify's SVG
profile does it: shapes, paths, text, gradients, patterns, masks, clips and filters stay; scripts, event handlers,
animations (``<set attributeName="onmouseover">`` sets one), ``<foreignObject>``, other namespaces' elements and
links outside the file go, and so does CSS that fetches or escapes (``@import``, ``url()`` to anything but ``#id``,
backslashes). A link within the file (``href="#x"``, ``fill="url(#g)"``) stays. Python has no maintained SVG
sanitiser (PyPI's candidates are prototypes); nh3 (ammonia) is an HTML sanitiser and writes HTML, not the XML an
SVG file must be; converting to PNG (cairosvg) would need the cairo library on every server and lose the vector.
The regular expression it replaces refused ``href="#x"`` and let ``<set>`` and ``<style>@import`` through.
"""

from __future__ import annotations

import re
from xml.etree.ElementTree import Element
from xml.sax.saxutils import escape, quoteattr

from defusedxml import DefusedXmlException
from defusedxml.ElementTree import ParseError, fromstring
from django.utils.translation import gettext as _

LOGO_MAX_BYTES = 200 * 1024

SVG = "http://www.w3.org/2000/svg"
XLINK = "http://www.w3.org/1999/xlink"
XML = "http://www.w3.org/XML/1998/namespace"

ELEMENTS = {
    "svg", "g", "defs", "symbol", "use", "title", "desc", "switch",
    "path", "rect", "circle", "ellipse", "line", "polyline", "polygon",
    "text", "tspan", "textPath",
    "linearGradient", "radialGradient", "stop", "clipPath", "mask", "pattern", "marker", "style", "image",
    "filter", "feBlend", "feColorMatrix", "feComponentTransfer", "feComposite", "feDropShadow", "feFlood",
    "feFuncA", "feFuncB", "feFuncG", "feFuncR", "feGaussianBlur", "feMerge", "feMergeNode", "feMorphology",
    "feOffset", "feTile",
}  # fmt: skip
ATTRIBUTES = {
    "id", "class", "style", "version", "x", "y", "x1", "y1", "x2", "y2", "cx", "cy", "r", "rx", "ry", "fx", "fy",
    "fr", "width", "height", "d", "points", "pathLength", "transform", "viewBox", "preserveAspectRatio",
    "fill", "fill-opacity", "fill-rule", "stroke", "stroke-width", "stroke-linecap", "stroke-linejoin",
    "stroke-miterlimit", "stroke-dasharray", "stroke-dashoffset", "stroke-opacity", "opacity", "color", "display",
    "visibility", "overflow", "clip-path", "clip-rule", "mask", "filter", "marker-start", "marker-mid",
    "marker-end", "markerWidth", "markerHeight", "markerUnits", "refX", "refY", "orient", "vector-effect",
    "shape-rendering", "text-rendering", "image-rendering", "color-interpolation", "color-interpolation-filters",
    "paint-order", "mix-blend-mode", "isolation",
    "font-family", "font-size", "font-weight", "font-style", "font-variant", "font-stretch", "text-anchor",
    "dominant-baseline", "alignment-baseline", "baseline-shift", "letter-spacing", "word-spacing",
    "text-decoration", "writing-mode", "direction", "unicode-bidi", "dx", "dy", "rotate", "textLength",
    "lengthAdjust", "startOffset", "method", "spacing", "side",
    "offset", "stop-color", "stop-opacity", "gradientUnits", "gradientTransform", "spreadMethod",
    "patternUnits", "patternContentUnits", "patternTransform", "clipPathUnits", "maskUnits", "maskContentUnits",
    "filterUnits", "primitiveUnits", "in", "in2", "result", "mode", "type", "values", "operator", "k1", "k2", "k3",
    "k4", "stdDeviation", "edgeMode", "radius", "flood-color", "flood-opacity", "tableValues", "slope",
    "intercept", "amplitude", "exponent", "media", "href",
}  # fmt: skip
#: ``url(...)`` in a value: only a reference within the file (``url(#id)``) is kept.
URL = re.compile(r"url\s*\(\s*(['\"]?)\s*(?P<target>[^)'\"]*)", re.IGNORECASE)
#: CSS that fetches, escapes or runs: a ``style`` holding any of these goes whole.
CSS_FORBIDDEN = re.compile(r"@import|\\|expression\s*\(|behavior\s*:|-moz-binding|javascript:|<", re.IGNORECASE)
#: An embedded raster image (``<image href="data:...">``): its bytes, never an address.
RASTER_DATA = re.compile(r"^data:image/(png|jpeg|gif|webp);base64,[A-Za-z0-9+/=\s]*$")


def logo_from_upload(name: str, data: bytes) -> tuple[str, bytes]:
    """``(format, bytes)`` of an uploaded logo (an SVG rebuilt by ``svg_sanitised``), or ValueError saying what is
    wrong."""
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
        return "svg", svg_sanitised(data)
    raise ValueError(_("%(name)s is not a PNG, JPEG, WebP or SVG image.") % {"name": name})


def svg_sanitised(data: bytes) -> bytes:
    """The SVG rebuilt from the allowlists (the module's docstring), as UTF-8 XML; ValueError if it cannot be read."""
    try:
        root = fromstring(data, forbid_dtd=True, forbid_entities=True, forbid_external=True)
    except DefusedXmlException:
        raise ValueError(
            _("The SVG logo cannot be read: it declares a DTD or entities, which a logo needs none of.")
        ) from None
    except (ParseError, ValueError) as error:
        raise ValueError(_("The SVG logo cannot be read as XML: %(error)s") % {"error": str(error)[:200]}) from None
    if root.tag != f"{{{SVG}}}svg":
        raise ValueError(_("The SVG logo's outer element is not <svg>."))
    try:
        body = _element(root, root=True)
    except RecursionError:
        raise ValueError(_("The SVG logo nests too deeply.")) from None
    return ('<?xml version="1.0" encoding="UTF-8"?>\n' + body).encode("utf-8")


def _local(tag: str) -> tuple[str, str]:
    namespace, _sep, name = tag[1:].partition("}") if tag.startswith("{") else ("", "", tag)
    return namespace, name


def _element(element: Element, *, root: bool = False) -> str:
    namespace, name = _local(element.tag)
    if namespace != SVG or name not in ELEMENTS:
        return ""  # a script, an animation, foreignObject, another namespace's element: gone, with its content
    css = element.text or "" if name == "style" else ""
    if CSS_FORBIDDEN.search(css) or _outside(css):
        return ""
    attributes = [f'xmlns="{SVG}"', f'xmlns:xlink="{XLINK}"'] if root else []
    for key, value in element.attrib.items():
        kept = _attribute(name, key, value)
        if kept is not None:
            attributes.append(f"{kept}={quoteattr(value)}")
    inner = escape(element.text or "") + "".join(
        _element(child) + escape(child.tail or "") for child in element if isinstance(child.tag, str)
    )
    opening = " ".join([name, *attributes])
    return f"<{opening}>{inner}</{name}>" if inner else f"<{opening}/>"


def _attribute(element: str, key: str, value: str) -> str | None:
    """The attribute's name as written back, or None to drop it."""
    namespace, name = _local(key)
    if namespace == XLINK and name == "href":
        written = "xlink:href"
    elif namespace == XML and name == "space":
        return "xml:space"
    elif namespace or name not in ATTRIBUTES:
        return None  # on...= handlers, attributeName, other namespaces' attributes (an editor's), anything unknown
    else:
        written = name
    if name == "href":
        target = value.strip()
        if target.startswith("#") or (element == "image" and RASTER_DATA.match(target)):
            return written
        return None
    if name == "style" and CSS_FORBIDDEN.search(value):
        return None
    if _outside(value) or "javascript:" in value.lower():
        return None
    return written


def _outside(value: str) -> bool:
    """Whether a value points outside the file: ``url(x)`` for anything but ``url(#id)``."""
    return any(not match["target"].strip().startswith("#") for match in URL.finditer(value))
