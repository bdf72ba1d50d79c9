"""Services called outside a request speak the default language (Russian); these tests read their English text."""

import pytest
from django.utils import translation


@pytest.fixture(autouse=True)
def _english():
    with translation.override("en"):
        yield
