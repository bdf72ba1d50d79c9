"""The SVG logo is rebuilt from what a picture needs (issue 27): a link within the file stays, anything that runs,
animates an attribute or fetches goes."""

import pytest
from django.utils import translation

from federation.logo import logo_from_upload, svg_sanitised

HEAD = b'<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 10 10">'


def _clean(body: bytes) -> str:
    kind, data = logo_from_upload("logo.svg", HEAD + body + b"</svg>")
    assert kind == "svg"
    return data.decode()


def test_links_within_the_file_are_kept():
    """The regular expression before refused ``href="#x"``, a valid reference to the file's own shape."""
    text = _clean(
        b'<defs><linearGradient id="g"><stop offset="0" stop-color="#123"/></linearGradient>'
        b'<circle id="x" r="4"/></defs><use href="#x" fill="url(#g)"/><use xlink:href="#x"/>'
    )
    assert 'href="#x"' in text
    assert 'xlink:href="#x"' in text
    assert 'fill="url(#g)"' in text
    assert '<stop offset="0" stop-color="#123"/>' in text


@pytest.mark.parametrize(
    ("body", "gone"),
    [
        (b'<circle r="1"><set attributeName="onmouseover" to="alert(1)"/></circle>', "set"),
        (b'<rect width="1"><animate attributeName="href" values="javascript:alert(1)"/></rect>', "animate"),
        (b"<style>@import url(https://evil.example/x.css);</style>", "@import"),
        (b"<style>.a{background:url(https://evil.example/t.png)}</style>", "evil.example"),
        (b'<rect style="fill:url(https://evil.example/p)" width="1"/>', "evil.example"),
        (b"<script>alert(1)</script>", "alert"),
        (b'<circle r="1" onload="alert(1)"/>', "onload"),
        (b'<a href="javascript:alert(1)"><circle r="1"/></a>', "javascript"),
        (b'<foreignObject><div xmlns="http://www.w3.org/1999/xhtml">x</div></foreignObject>', "foreignObject"),
        (b'<image href="https://evil.example/tracker.png" width="1" height="1"/>', "evil.example"),
        (b'<use href="https://evil.example/sprite.svg#a"/>', "evil.example"),
    ],
)
def test_what_runs_or_fetches_is_removed(body, gone):
    text = _clean(b'<rect width="2" height="2" fill="#f00"/>' + body)
    assert gone not in text
    assert '<rect width="2" height="2" fill="#f00"/>' in text


@translation.override("en")
def test_entities_and_doctypes_are_refused():
    bomb = b'<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY a "aaaa">]><svg xmlns="http://www.w3.org/2000/svg">&a;</svg>'
    with pytest.raises(ValueError, match="declares a DTD or entities"):
        svg_sanitised(bomb)


@translation.override("en")
def test_not_svg_inside_is_refused():
    with pytest.raises(ValueError, match="not <svg>"):
        svg_sanitised(b'<?xml version="1.0"?><html><svg xmlns="http://www.w3.org/2000/svg"/></html>')
