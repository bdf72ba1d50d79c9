"""What every database benchmark shares: its own PostgreSQL database, and Django set up on it.

Each database benchmark measures against a database of its own (``bench_<name>`` unless ``DATABASE_URL`` names a
PostgreSQL database), created when missing; ``make bench`` runs every module in a process of its own, so each
module's Django is set up on its own database.
"""

import os
from urllib.parse import urlsplit, urlunsplit


def database_url(name: str) -> str:
    url = os.environ.get("DATABASE_URL", "")
    return url if url.startswith(("postgres://", "postgresql://")) else f"postgres://postgres@127.0.0.1:5432/{name}"


def ensure_database(url: str, *, recreate: bool = False) -> bool:
    """Create the database when missing (drop it first when ``recreate``); True when it was created."""
    import psycopg
    from psycopg import sql

    parts = urlsplit(url)
    name = parts.path.lstrip("/")
    admin_url = urlunsplit((parts.scheme, parts.netloc, "/postgres", parts.query, ""))
    with psycopg.connect(admin_url, autocommit=True) as conn:
        if recreate:
            conn.execute(sql.SQL("DROP DATABASE IF EXISTS {}").format(sql.Identifier(name)))
        if conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone():
            return False
        conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
        return True


def setup_django(name: str, *, migrate: bool = True) -> str:
    """Django on this benchmark's PostgreSQL database (test settings, 'testserver' allowed); returns the URL."""
    from django.apps import apps

    url = database_url(name)
    if not apps.ready:
        ensure_database(url)
        os.environ["DATABASE_URL"] = url
        os.environ["DJANGO_SETTINGS_MODULE"] = "federation.settings.test"
        import django

        django.setup()
    from django.conf import settings
    from django.core.management import call_command
    from django.db import connection

    if connection.vendor != "postgresql":
        raise RuntimeError(f"{name} measures PostgreSQL; Django is already set up with {connection.vendor}")
    if "testserver" not in settings.ALLOWED_HOSTS and "*" not in settings.ALLOWED_HOSTS:
        settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "testserver"]
    if migrate:
        call_command("migrate", verbosity=0)
    return url
