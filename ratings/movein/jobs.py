"""What a history import's run says it did, for its page in the admin."""

from django.utils.translation import gettext as _

from ratings.movein.labels import count_label


def describe_import(run) -> str:
    outcome = run.outcome or {}
    created = outcome.get("created", {})
    parts = [f"{count_label(kind)}: {count}" for kind, count in created.items() if count]
    text = _("History imported (%(system)s): %(created)s.") % {
        "system": outcome.get("system", ""),
        "created": ", ".join(parts) or _("nothing new"),
    }
    if outcome.get("rebuilt"):
        text += " " + _("Lists rebuilt: %(lists)s.") % {"lists": ", ".join(outcome["rebuilt"])}
    return text


def written_import(run) -> str:
    """What a failed import left: each batch is its own transaction, so the batches before the failure stay, and
    running the same file again adds only what is missing."""
    return _(
        "The batches imported before the failure are kept; import the same file again to add the rest "
        "(what is already there is recognised and left as it is)."
    )
