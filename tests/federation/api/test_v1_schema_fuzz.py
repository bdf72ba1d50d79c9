"""Schemathesis over /api/v1/'s own OpenAPI document, on a demo federation: every operation is called with data
generated from its schema (valid and invalid), and no answer may be a 5xx, use an undocumented status or content
type, break its documented schema, accept invalid parameters, or refuse valid ones.

Strict (issue 27): a 400 to a request valid by the document is a failure (``positive_data_acceptance``), so the
document states every bound the validation enforces on a parameter. A rule between two parameters cannot be written
in a parameter's schema; the operation's description says it in words, and ``consistent_query`` below keeps the
generated valid requests within it (so a request the document calls valid is one its description allows too):

- the Gorbunov calculator: Rt is at least (rating + 100 × (U − 1)) / U (nobody in the field is below 100);
- the mahjong calculator: the first stage's players are the tournament's, each later stage has at most the
  players of the one before, and the stages hold at most 100 hanchans in all.
"""

import re

import pytest
import schemathesis
from django.core.signals import request_finished, request_started
from django.core.wsgi import get_wsgi_application
from django.db import close_old_connections
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    negative_data_rejection,
    positive_data_acceptance,
    response_schema_conformance,
    status_code_conformance,
)

from federation.api.v1.views import STAGES_PATTERN

pytestmark = pytest.mark.django_db

CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_schema_conformance,
    negative_data_rejection,
    positive_data_acceptance,
]


@pytest.fixture
def one_connection():
    """The requests run in the test's transaction, as Django's test client runs them: Django's WSGI handler would
    close the connection between requests (its autocommit differs from the settings' inside the transaction)."""
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    yield
    request_started.connect(close_old_connections)
    request_finished.connect(close_old_connections)


schema = schemathesis.openapi.from_wsgi("/api/v1/openapi.json", get_wsgi_application())

STAGE = re.compile(r"([0-9]+)/([0-9]+)")


def _whole(value, low: int, high: int) -> int | None:
    try:
        number = int(str(value))
    except ValueError:
        return None
    return number if low <= number <= high else None


@schemathesis.hook  # global (schemathesis runs before_call hooks only so); it touches only these two paths
def before_call(ctx, case, **kwargs):
    """Keep the requests generated as valid within the rules between their parameters (the module's docstring), in
    every phase; the ones generated as invalid are sent as they are."""
    meta = case.meta
    if meta is None or not meta.generation.mode.is_positive or not case.query:
        return
    _consistent(case.operation.path, case.query)


def _consistent(path: str, query: dict) -> None:
    if path.endswith("/calculators/mahjong/") and query.get("stages"):
        players = _whole(query.get("players"), 2, 2000)
        if players is not None and re.fullmatch(STAGES_PATTERN, str(query["stages"])):
            fixed, previous, room = [], players, 100
            for hanchans, count in STAGE.findall(str(query["stages"]))[:100]:
                hanchans = min(int(hanchans), room)
                if hanchans < 1:
                    break
                previous = players if not fixed else min(int(count), previous)
                fixed.append(f"{hanchans}/{previous}")
                room -= hanchans
            query["stages"] = ", ".join(fixed)
    if path.endswith("/calculators/gorbunov/"):
        u = _whole(query.get("u"), 2, 256)
        rating = _whole(query.get("rating", 100), 100, 10_000)
        try:
            rt = float(query.get("rt"))
        except (TypeError, ValueError):
            rt = None
        if u is not None and rating is not None and rt is not None and 100 <= rt <= 10_000:
            lowest = -(-(rating + 100 * (u - 1)) // u)  # the smallest whole Rt the field allows
            query["rt"] = max(rt, lowest)


@schema.parametrize()
@settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
def test_every_operation_keeps_its_schema(case, demo, one_connection):
    case.call_and_validate(checks=CHECKS)
