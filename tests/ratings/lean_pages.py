"""For the tests of the lists written from plain values (``lean_fields`` / ``lean_cells``, ``federation.table_rows``):
the same page rendered both ways."""

from django.core.cache import cache


def both_pages(client, monkeypatch, table_class, url: str, query: dict) -> tuple[str, str]:
    """The page as written from values, then cell by cell through the table's ``render_*`` methods (the table
    without ``lean_fields``); the page cache emptied before each."""
    cache.clear()
    lean = client.get(url, query)
    assert lean.status_code == 200
    with monkeypatch.context() as patched:
        patched.setattr(table_class, "lean_fields", ())
        cache.clear()
        generic = client.get(url, query)
    assert generic.status_code == 200
    return lean.content.decode(), generic.content.decode()
