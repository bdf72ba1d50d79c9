"""A crawl of the site as every role (issue 13): from the home pages, every link to a page of the site is followed, and
every page answers without a server error, to GET and to HEAD. The admin's own addresses are walked one by one, with
what each role may do there, by ``tests/test_admin_permissions.py``; here the crawl follows the admin's links too,
so a page reached only through another (a filter, a page of a list, a sort) is asked as well.
"""

import re
from urllib.parse import urljoin, urlsplit

import pytest

from tests import admin_matrix

pytestmark = pytest.mark.django_db

#: Pages per role: enough to reach every kind of page of the small world below, and to bound the run.
MAX_PAGES = 120
LINK = re.compile(r'href="([^"#]+)"')
#: Downloads and actions, not pages (the CSV exports are w16's and tested there).
SKIP = re.compile(r"(logout|/delete/|[?&](export|_export|format)=|\.csv|\.h9|\.txt|/static/|/media/)")


def _crawl(client, starts):
    seen, queue, problems = set(), list(starts), []
    while queue and len(seen) < MAX_PAGES:
        url = queue.pop(0)
        if url in seen:
            continue
        seen.add(url)
        response = client.get(url)
        if response.status_code >= 500:
            problems.append((url, response.status_code))
            continue
        head = client.head(url)
        if head.status_code >= 500 or (response.status_code == 200 and head.status_code != 200):
            problems.append((url, f"HEAD {head.status_code}"))
        if response.status_code != 200 or not response["Content-Type"].startswith("text/html"):
            continue
        for href in LINK.findall(response.content.decode()):
            target = urljoin(url, href.replace("&amp;", "&"))
            parts = urlsplit(target)
            if parts.netloc or SKIP.search(target):
                continue
            path = parts.path + (f"?{parts.query}" if parts.query else "")
            if path not in seen:
                queue.append(path)
    return seen, problems


@pytest.mark.parametrize("role", ["anonymous", "own", "staff"])
def test_every_page_reached_from_the_home_pages_answers_without_a_server_error(client, role):
    world = admin_matrix.world_build()
    admin_matrix.login_for(client, world, role)
    starts = ["/", "/en/"] + (["/admin/"] if role != "anonymous" else [])
    seen, problems = _crawl(client, starts)
    assert not problems
    assert len(seen) > 30
    assert any(url.startswith("/players/") for url in seen)
