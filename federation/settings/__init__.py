"""The settings: ``base`` (shared), ``local`` (the default: a developer's machine), ``test``, ``production``.

Every entry point (``manage.py``, the Celery app, ``wsgi``, ``asgi``) calls ``use_default_settings()``, so all of
them choose alike: ``DJANGO_SETTINGS_MODULE`` from the environment, else from the ``.env`` file beside the code
(``deploy/install.sh`` writes ``federation.settings.production`` there), else the local settings. A worker or a
command started by hand on the server without ``DJANGO_SETTINGS_MODULE`` thus runs on the same settings as the web,
and a fresh clone with no ``.env`` runs on the embedded default (SQLite, eager tasks).
"""

import os
from pathlib import Path

#: The file of environment variables beside the code; what the environment already sets wins over it.
ENV_FILE = Path(__file__).resolve().parent.parent.parent / ".env"
DEFAULT_SETTINGS = "federation.settings.local"


def read_env_file() -> None:
    """Put the ``.env`` file's variables into the environment, each one only where the environment has none."""
    if ENV_FILE.exists():
        import environ

        environ.Env.read_env(ENV_FILE)


def use_default_settings() -> None:
    read_env_file()
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", DEFAULT_SETTINGS)
