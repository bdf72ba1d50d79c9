"""Playwright driving Debian's Chromium (/usr/bin/chromium) against pytest-django's live server.

Playwright's own browser download cannot run here, so the tests launch the system Chromium by path. Playwright's
sync API runs an event loop in the test's thread, which makes Django refuse ORM calls there unless told otherwise.
"""

import os
import shutil

import pytest

CHROMIUM = os.environ.get("CHROMIUM_PATH") or shutil.which("chromium") or "/usr/bin/chromium"


@pytest.fixture(scope="session")
def browser():
    os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM,
            args=[
                "--no-sandbox",
                "--disable-gpu",
                "--disable-quic",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
            ],
        )
        yield browser
        browser.close()


@pytest.fixture
def page(browser):
    context = browser.new_context(locale="en-US", viewport={"width": 390, "height": 844})
    page = context.new_page()
    page.set_default_timeout(15000)
    yield page
    context.close()
