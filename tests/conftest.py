import pytest


@pytest.fixture(autouse=True)
def _media_and_language(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"
