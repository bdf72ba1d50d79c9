"""Playwright driving Chromium (Debian's, or Playwright's own download: ``tests.web.browser``) against pytest-django's
live server.

Playwright's sync API runs an event loop in the test's thread, which makes Django refuse ORM calls there unless told
otherwise.
"""

import os

import pytest

from tests.web.browser import INSTALL, launch_options


@pytest.fixture(scope="session")
def browser():
    os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    from playwright.sync_api import Error, expect, sync_playwright

    # Assertions wait as long as actions do: on a loaded CI machine (two test processes, a browser each, the live
    # servers) a search-as-you-type answer can take longer than expect()'s default 5 s.
    expect.set_options(timeout=15000)

    with sync_playwright() as playwright:
        try:
            browser = playwright.chromium.launch(**launch_options())
        except Error:
            pytest.fail(f"browser tests need Chromium: {INSTALL}", pytrace=False)
        yield browser
        browser.close()


@pytest.fixture
def page(browser):
    context = browser.new_context(locale="en-US", viewport={"width": 390, "height": 844})
    page = context.new_page()
    page.set_default_timeout(15000)
    yield page
    context.close()
