"""The server-binding cursor's statements stay visible in the query log once PostgreSQL has prepared them: query
counts, the "no writes on a GET" checks and anyone reading the log see their text, never ``None``."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from federation.db import bound_cursor

pytestmark = pytest.mark.django_db


def test_a_prepared_statement_is_logged_with_its_text(postgres):
    with CaptureQueriesContext(connection) as captured:
        for n in range(8):  # psycopg prepares a statement the fifth time a connection runs it
            with bound_cursor() as cursor:
                cursor.execute("SELECT %s::int + 1", [n])
                assert cursor.fetchone() == (n + 1,)
    assert [query["sql"] for query in captured.captured_queries] == ["SELECT %s::int + 1"] * 8
