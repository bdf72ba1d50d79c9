"""The words for what a history document holds, as staff read them in the admin's preview and in the import's run
(the commands print the same counts under their plain keys, which scripts read)."""

from django.utils.translation import pgettext_lazy

COUNT_LABELS = {
    "players": pgettext_lazy("history count", "players"),
    "starting ratings": pgettext_lazy("history count", "starting ratings"),
    "tournaments": pgettext_lazy("history count", "tournaments"),
    "new tournaments": pgettext_lazy("history count", "new tournaments"),
    "results": pgettext_lazy("history count", "results"),
    "stages": pgettext_lazy("history count", "stages"),
    "games": pgettext_lazy("history count", "games"),
    "new games": pgettext_lazy("history count", "new games"),
    "rounds": pgettext_lazy("history count", "rounds"),
    "byes": pgettext_lazy("history count", "byes"),
    "bots": pgettext_lazy("history count", "bots"),
    "deals": pgettext_lazy("history count", "deals"),
    "new deals": pgettext_lazy("history count", "new deals"),
    "preferans ratings": pgettext_lazy("history count", "preferans ratings"),
    "list dates rebuilt": pgettext_lazy("history count", "list dates rebuilt"),
}


def count_label(kind: str) -> str:
    """A count's label in the reader's language (a kind without one is shown as it is)."""
    return str(COUNT_LABELS.get(kind, kind))
