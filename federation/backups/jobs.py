"""What a backup run did, in a sentence for staff (``ratings.jobs`` shows it in the admin's job runs)."""

from __future__ import annotations

from django.template.defaultfilters import filesizeformat
from django.utils.translation import gettext as _


def describe_backup(run) -> str:
    outcome = run.outcome
    return _("Backup %(file)s written (%(size)s) in %(directory)s; %(kept)s backups kept (at most %(keep)s).") % {
        "file": outcome.get("file", "?"),
        "size": filesizeformat(outcome.get("bytes", 0)),
        "directory": outcome.get("directory", "?"),
        "kept": outcome.get("kept", 0),
        "keep": outcome.get("keep", 0),
    }


def written_backup(run) -> str:
    return _("The database was not changed; a backup file may be missing or incomplete, so the older ones were kept.")
