"""Versions of what the public pages and the API show: a few counters in Django's cache, bumped when a write commits.

Pretix's way (``base/cache.py``): every cached answer's key carries the versions of the *scopes* it shows, and
changing a scope means giving it a new version; the old entries are never found again and age out of the cache.

Scopes (``SCOPES``), each a part of the federation's data:

- ``registry``: players, clubs, bots' levels, the federation's identity (every page shows names);
- ``tournaments``: tournaments, their stages, results, announcements and registrations (the calendar);
- ``ratings``: the rating lists, their publications, entries, changes and starting ratings (Gorbunov, mahjong);
- ``dirs``: the DIRS club rating (its games and ratings);
- ``go``: self-handicap tournaments (registrations, rounds, boards, standings);
- ``preferans``: games, deals, ratings.

How a scope gets a new version:

- a model of ``SCOPE_OF_MODEL`` saved one row at a time (the admin, a service's ``save()``): by the ``post_save`` /
  ``m2m_changed`` receivers connected in ``federation.apps``; a row deleted (the admin's delete page, a cascade from
  it): every scope, since a delete cascades across them; the ``ROW_TABLES`` have no delete receiver (it would slow
  every delete of their rows, see there);
- a bulk write, which sends no signal (``QuerySet.update()``, ``bulk_create``, ``bulk_update``, raw SQL, ``COPY``):
  the service that makes it calls ``changed(Model, ...)`` (or ``bump(scope)``);
- a fix made by hand in SQL: ``python manage.py refresh_pages`` gives every scope a new version.

A bump happens when the writing transaction commits (``transaction.on_commit``; at once outside a transaction), so a
reader never sees a new version before the new rows; a rolled-back transaction bumps nothing.

A version is the moment of its bump in nanoseconds: the newest of a page's versions is its ``Last-Modified``. A
version missing from the cache (emptied, evicted, or never bumped) is created as "now", so nothing stored before it
can be found again.

Decisions:
- The cache down (``read`` gets nothing back): the answer is built without the cache (``federation.caching``). A bump
  that fails because the cache is down at that moment is logged; entries stored before it can be served until they
  expire (``PUBLIC_PAGE_CACHE_SECONDS``, an hour by default) if the cache comes back with its data (a Redis restarted
  without persistence, as deployed, comes back empty). ``refresh_pages`` ends such a window at once.
- Bumps are not merged within a transaction: each single-row write adds one short cache write at its commit, and the
  services that write many rows write them in bulk and bump once.
"""

from __future__ import annotations

import hashlib
import logging
import time
from functools import cache
from pathlib import Path

from django.conf import settings
from django.core.cache import caches
from django.db import transaction
from django.db.models.signals import post_delete

logger = logging.getLogger(__name__)

SCOPES = ("registry", "tournaments", "ratings", "dirs", "go", "preferans")

#: Models of the project's apps that no public page or API answer shows (tests/federation/test_versions.py checks
#: that every model is in one of the two).
NOT_SHOWN = {
    "ratings.JobRun",
    "ratings.HistoryUpload",
    "ratings.JobStep",
    "preferans.GameServer",
    "go.DirectorLog",
}

#: Each model the public pages show, by ``app_label.ModelName``, and the scope its writes change.
SCOPE_OF_MODEL = {
    "federation.Player": "registry",
    "federation.Club": "registry",
    "federation.BotLevel": "registry",
    "federation.CityName": "registry",
    "federation.SiteIdentity": "registry",
    "tournaments.Tournament": "tournaments",
    "tournaments.Stage": "tournaments",
    "tournaments.Result": "tournaments",
    "tournaments.Registration": "tournaments",
    "ratings.RatingList": "ratings",
    "ratings.RatingSnapshot": "ratings",
    "ratings.RatingEntry": "ratings",
    "ratings.RatingChange": "ratings",
    "ratings.StartingRating": "ratings",
    "dirs.DirsRating": "dirs",
    "dirs.DirsGame": "dirs",
    "go.GoTournament": "go",
    "go.Registration": "go",
    "go.Absence": "go",
    "go.Round": "go",
    "go.Board": "go",
    "go.Bye": "go",
    "go.StandingRow": "go",
    "preferans.Game": "preferans",
    "preferans.Seat": "preferans",
    "preferans.Deal": "preferans",
    "preferans.DealResult": "preferans",
    "preferans.PreferansRating": "preferans",
}

#: Row tables: many rows to one parent, deleted with it (a cascade) or in bulk by a service. They get no delete
#: receiver: a model with one makes Django fetch and delete its rows one by one instead of in one statement (a
#: snapshot of 20,000 entries took 3 s instead of 0.06 s). Their parent's delete, or the service, bumps.
ROW_TABLES = {
    "ratings.RatingEntry",
    "ratings.RatingChange",
    "tournaments.Result",
    "preferans.Deal",
    "preferans.DealResult",
    "preferans.Seat",
    "go.Board",
    "go.Bye",
    "go.Absence",
    "go.StandingRow",
}

KEY = "version:"


def _cache():
    return caches[getattr(settings, "PUBLIC_PAGE_CACHE", "default")]


def bump(*scopes: str, using: str = "default") -> None:
    """Give ``scopes`` new versions when the current transaction on ``using`` commits (at once outside one)."""
    unknown = set(scopes) - set(SCOPES)
    if unknown:
        raise ValueError(f"unknown scopes: {sorted(unknown)}")
    transaction.on_commit(lambda: _set(scopes), using=using)


def changed(*models, using: str = "default") -> None:
    """``bump`` the scopes of these models (classes of ``SCOPE_OF_MODEL``): what a service calls after writing them
    in bulk. A model no page shows bumps nothing."""
    scopes = {SCOPE_OF_MODEL[model._meta.label] for model in models if model._meta.label in SCOPE_OF_MODEL}
    if scopes:
        bump(*sorted(scopes), using=using)


def bump_all() -> bool:
    """Every scope, at once (``manage.py refresh_pages``); whether the cache took the new versions."""
    _set(SCOPES)
    return read(SCOPES) is not None


def _set(scopes) -> None:
    now = time.time_ns()
    try:
        _cache().set_many({KEY + scope: now for scope in scopes}, timeout=None)
    except Exception:  # the page cache must never fail a write: see the module's decisions
        logger.exception("the public pages' versions of %s could not be bumped", ", ".join(scopes))


def read(scopes) -> list[int] | None:
    """The versions of ``scopes``, in their order; None when the cache cannot be read or written (down)."""
    keys = [KEY + scope for scope in scopes]
    try:
        cache_ = _cache()
        found = cache_.get_many(keys)
        missing = [key for key in keys if key not in found]
        if missing:
            now = time.time_ns()
            for key in missing:
                cache_.add(key, now, timeout=None)  # another process may have just made it: theirs stays
            found.update(cache_.get_many(missing))
            if any(key not in found for key in keys):
                return None
    except Exception:
        logger.warning("the public pages' versions could not be read from the cache", exc_info=True)
        return None
    return [int(found[key]) for key in keys]


def model_changed(sender, **kwargs) -> None:
    """Receiver of ``post_save``, ``post_delete`` and ``m2m_changed`` for the models of ``SCOPE_OF_MODEL``."""
    if kwargs.get("raw"):  # loading a fixture: migrate and loaddata bump nothing
        return
    action = kwargs.get("action")
    if action is not None and not action.startswith("post_"):
        return
    using = kwargs.get("using") or "default"
    if kwargs.get("signal") is post_delete:  # a delete cascades into other scopes' rows: every page may change
        bump(*SCOPES, using=using)
        return
    model = type(kwargs["instance"]) if action is not None else sender
    scope = SCOPE_OF_MODEL.get(model._meta.label)
    if scope is not None:
        bump(scope, using=using)


def watch_models() -> None:
    """Connect ``model_changed`` to every model of ``SCOPE_OF_MODEL`` (and their many-to-many tables); deletes but
    for the ``ROW_TABLES``."""
    from django.apps import apps
    from django.db.models.signals import m2m_changed, post_save

    for label in SCOPE_OF_MODEL:
        model = apps.get_model(label)
        uid = f"federation.versions:{label}"
        post_save.connect(model_changed, sender=model, dispatch_uid=uid + ":save")
        if label not in ROW_TABLES:
            post_delete.connect(model_changed, sender=model, dispatch_uid=uid + ":delete")
        for field in model._meta.local_many_to_many:
            m2m_changed.connect(model_changed, sender=field.remote_field.through, dispatch_uid=f"{uid}:{field.name}")


#: What the deployed code is made of: a change in any of these files changes every page's version.
CODE_FOLDERS = ("federation", "ratings", "tournaments", "templates", "static", "locale")
CODE_SUFFIXES = {".py", ".html", ".txt", ".mo", ".js", ".css", ".svg", ".json"}


@cache
def code_version() -> tuple[str, float]:
    """A digest of the code, templates, static files and translations, and the newest file's time: worked out once
    per process, so a deployment changes every page's version without a constant to bump by hand."""
    digest = hashlib.blake2b(digest_size=12)
    newest = 0.0
    for folder in CODE_FOLDERS:
        root = Path(settings.BASE_DIR) / folder
        for path in sorted(root.rglob("*")):
            if path.suffix not in CODE_SUFFIXES or "__pycache__" in path.parts or not path.is_file():
                continue
            digest.update(str(path.relative_to(settings.BASE_DIR)).encode())
            digest.update(path.read_bytes())
            newest = max(newest, path.stat().st_mtime)
    return digest.hexdigest(), newest
