"""Bulk writes change the public pages' version (``federation.caching``), whichever service makes them.

A page's version is read from what it shows: the newest ids, history rows and ``updated_at`` stamps. A queryset's
``update()`` (and ``bulk_update()``, which runs it), a bulk ``delete()`` of rows without history, or
``bulk_create(update_conflicts=True)`` leaves all of those as they were, so the page kept showing the old rows (a
player merge moves results with ``update(player=keep)``; the DIRS history import writes ratings with
``bulk_update``). The models the public pages show use ``VersionedQuerySet``: each such write bumps the one
``PublicVersion`` row, which every page's version includes.

Decisions:
- The bump runs when the writing transaction commits (``transaction.on_commit``), in its own short statement: a
  long rebuild holds no lock on the counter, and a reader never sees the new counter before the new rows. Between
  the commit and the bump (the same thread, microseconds) a visitor can still get the page as it was a moment
  before, as one who asked a moment earlier would have.
- A rolled-back transaction bumps nothing. ``Model.save()`` does not bump: a single row's save is seen by the
  versions already (history, ids, ``updated_at``).
- The preferans ratings stay without it: every deal writes them with ``updated_at``, which the versions read, and a
  bump per deal would be one more statement on the hottest write path.
"""

from __future__ import annotations

from django.db import IntegrityError, models, router, transaction


def content_changed(using: str = "default") -> None:
    """Bump the public pages' version when the current transaction commits (at once outside a transaction)."""
    transaction.on_commit(_bump, using=using)


def _model():
    from django.apps import apps

    return apps.get_model("federation", "PublicVersion")  # not imported: federation.models imports this module


def _bump() -> None:
    PublicVersion = _model()
    if PublicVersion.objects.filter(pk=1).update(counter=models.F("counter") + 1):
        return
    try:  # the first bump ever (or after a flush): create the row, unless another process just did
        with transaction.atomic():
            PublicVersion.objects.create(pk=1, counter=1)
    except IntegrityError:
        PublicVersion.objects.filter(pk=1).update(counter=models.F("counter") + 1)


def version_fragment() -> tuple[str, list]:
    """The counter, as one of a page version's scalar subqueries (``federation.selectors.version_of``)."""
    return (f"SELECT COALESCE(MAX(counter), 0) FROM {_model()._meta.db_table} WHERE id = 1", [])


class VersionedQuerySet(models.QuerySet):
    """A queryset whose bulk writes bump the public pages' version."""

    def _changed(self) -> None:
        content_changed(router.db_for_write(self.model))

    def update(self, **kwargs):
        rows = super().update(**kwargs)
        if rows:
            self._changed()
        return rows

    def delete(self):
        deleted = super().delete()
        if deleted[0]:
            self._changed()
        return deleted

    def bulk_create(self, objs, *args, **kwargs):
        created = super().bulk_create(objs, *args, **kwargs)
        if created and kwargs.get("update_conflicts"):
            self._changed()
        return created


VersionedManager = models.Manager.from_queryset(VersionedQuerySet)


class VersionedDeletes:
    """Mixed into a model whose manager is ``VersionedManager``: deleting one row (the admin's delete page,
    ``instance.delete()``) bumps the version too. Django deletes it without the queryset's ``delete()``; for a model
    without history rows (DIRS ratings, a list's entries, publications, changes) nothing the versions read moved
    when the row was not the newest, so the leaderboard went on showing a deleted DIRS rating."""

    def delete(self, using=None, keep_parents=False):
        deleted = super().delete(using=using, keep_parents=keep_parents)
        content_changed(using or router.db_for_write(type(self), instance=self))
        return deleted
