"""Every page's frame written by ``{% load chrome %}`` (issue 16) is the HTML the template ``base.html`` wrote
before, byte for byte: every page of a small federation reached from the home pages, in both languages, with and
without a logo, rendered with the template it replaced (``base_before_chrome.html``) and with the site's."""

from pathlib import Path

import pytest
from django.core.cache import caches

from federation.models import SiteIdentity
from tests import admin_matrix
from tests.test_crawl import _crawl

pytestmark = pytest.mark.django_db

#: ``templates/base.html`` before its frame was written in Python: the reference.
OLD_BASE = (Path(__file__).parent / "base_before_chrome.html").read_text()


def _pages(client, urls) -> dict[str, tuple[int, bytes]]:
    for alias in caches:
        caches[alias].clear()  # the cached pages (federation.caching) would answer the second rendering
    pages = {}
    for url in urls:
        response = client.get(url)
        pages[url] = (response.status_code, response.content)
    return pages


def _old_base(settings) -> None:
    """The site's templates with the old ``base.html`` in front of them."""
    engine = dict(settings.TEMPLATES[0])
    engine["APP_DIRS"] = False
    engine["OPTIONS"] = {
        **engine["OPTIONS"],
        "loaders": [
            ("django.template.loaders.locmem.Loader", {"base.html": OLD_BASE}),
            "django.template.loaders.filesystem.Loader",
            "django.template.loaders.app_directories.Loader",
        ],
    }
    settings.TEMPLATES = [engine, *settings.TEMPLATES[1:]]


@pytest.mark.parametrize("logo", [False, True])
def test_every_page_is_the_page_the_old_template_wrote(client, settings, logo):
    admin_matrix.world_build()
    identity = {
        "name": "Федерация <Тест> & Co",
        "name_en": "Test Federation",
        "description": "Рейтинги «Теста».",
        "primary_colour": "#123456",
    }
    logo_fields = {"logo": b"\x89PNG\r\n\x1a\n", "logo_type": "png"} if logo else {"logo": b""}
    SiteIdentity.objects.update_or_create(pk=1, defaults={**identity, **logo_fields})
    seen, _problems = _crawl(client, ["/", "/en/"])
    urls = [*sorted(seen), "/players/0/", "/en/no-such-page/", "/players/?q=%00"]
    new = _pages(client, urls)
    _old_base(settings)
    old = _pages(client, urls)
    assert [url for url in urls if old[url] != new[url]] == []
    assert len([url for url in urls if new[url][0] == 200]) > 30
    assert sum(b"breadcrumb-item" in content for _status, content in new.values()) > 10
    framed = [content for _status, content in new.values() if b'href="/static/css/site.css"' in content]
    assert len(framed) > 30
    assert all((b'<img class="fed-logo" src="' in content) == logo for content in framed)
