"""Schemathesis over /api/v1/'s own OpenAPI document, on a demo federation: every operation is called with data
generated from its schema (valid and invalid), and no answer may be a 5xx, use an undocumented status or content
type, break its documented schema, or accept invalid parameters."""

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
    response_schema_conformance,
    status_code_conformance,
)

pytestmark = pytest.mark.django_db

CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_schema_conformance,
    negative_data_rejection,
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


@schema.parametrize()
@settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
def test_every_operation_keeps_its_schema(case, demo, one_connection):
    case.call_and_validate(checks=CHECKS)
