"""A developer opens the public API's documentation: it renders from the site's own files (no other host is asked)
and lists the operations of /api/v1/, and trying one answers with a list."""

import pytest
from playwright.sync_api import expect

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_api_docs_page_opens_and_lists_the_operations(live_server, page):
    asked = []
    page.on("request", lambda request: asked.append(request.url))
    page.goto(f"{live_server.url}/api/v1/docs/")
    expect(page.get_by_text("Federation ratings: public API").first).to_be_visible()
    expect(page.locator(".opblock-summary-path", has_text="/api/v1/lists/{slug}/").first).to_be_visible()
    expect(page.locator(".opblock-summary-path", has_text="/api/v1/players/{id}/history/").first).to_be_visible()
    assert asked
    assert all(url.startswith(live_server.url) or url.startswith("data:") for url in asked), asked

    page.locator(".opblock-summary-path", has_text="/api/v1/lists/").first.click()
    page.get_by_role("button", name="Try it out").click()
    page.get_by_role("button", name="Execute").click()
    expect(page.locator(".response-col_status", has_text="200").first).to_be_visible()
