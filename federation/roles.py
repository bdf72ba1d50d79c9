"""The two roles of the site as groups with permissions, kept in step with the code after every migrate.

Organisers create tournaments and enter results; federation staff also approve, accredit, set K above 2, merge
players, publish rating lists and see the schedules. Superusers are for the site's maintainers only.

Every object an organiser may change after creating it has an owner, checked at every door of the admin: a
tournament (and its results and stages) its ``organiser``, a preferans game (its seats and deals) its ``owner``, a
DIRS rating its ``entered_by``. ``tests/test_admin_permissions.py`` lists every model these permissions let an
organiser write and fails on one without its doors in the matrix.
"""

from django.contrib.auth.models import Group, Permission

ORGANISERS = "Organisers"
FEDERATION_STAFF = "Federation staff"

ORGANISER_PERMISSIONS = [
    # Clubs, and what their public pages say (meeting place, contact, website), are staff's to edit: a club has no
    # owner among the organisers, who read clubs to pick a player's (issue 28; tests/test_admin_permissions.py).
    "federation.view_club",
    "federation.add_player",
    "federation.view_player",
    "tournaments.add_tournament",
    "tournaments.change_tournament",
    "tournaments.view_tournament",
    "tournaments.add_result",
    "tournaments.change_result",
    "tournaments.delete_result",
    "tournaments.view_result",
    "tournaments.add_stage",
    "tournaments.change_stage",
    "tournaments.delete_stage",
    "tournaments.view_stage",
    # The registrations of their own tournaments (issue 30): confirm, waiting list, cancel; no add, no delete.
    "tournaments.view_registration",
    "tournaments.change_registration",
    "go.view_gotournament",
    "go.view_registration",
    "go.view_round",
    "go.view_board",
    "go.view_bye",
    "go.view_standingrow",
    "dirs.add_dirsgame",
    "dirs.view_dirsgame",
    "dirs.add_dirsrating",
    "dirs.view_dirsrating",
    "dirs.change_dirsrating",
    "preferans.add_game",
    "preferans.change_game",
    "preferans.view_game",
    # A game's table, in the game's own page (locked once a deal is rated): without these an organiser's game by
    # hand had no seats and took no deal.
    "preferans.add_seat",
    "preferans.change_seat",
    "preferans.delete_seat",
    "preferans.view_seat",
    "preferans.add_deal",
    "preferans.view_deal",
    "preferans.view_dealresult",
    "preferans.view_preferansrating",
]

#: Staff get every permission of these apps, including the custom ones (approve, accredit, high K, publish).
#: ``axes``: the record of failed logins; staff read it and unlock a name by deleting its attempts.
STAFF_APPS = ["federation", "tournaments", "ratings", "dirs", "go", "preferans", "django_celery_beat", "axes"]

#: Reading the admin's history pages (who changed what): ``federation.admin_security.AUDIT_PERMISSION``.
STAFF_EXTRA_PERMISSIONS = ["admin.view_logentry"]


def ensure_roles(**kwargs) -> None:
    organisers, _ = Group.objects.get_or_create(name=ORGANISERS)
    organisers.permissions.set(_permissions(ORGANISER_PERMISSIONS))
    staff, _ = Group.objects.get_or_create(name=FEDERATION_STAFF)
    staff.permissions.set(
        [*Permission.objects.filter(content_type__app_label__in=STAFF_APPS), *_permissions(STAFF_EXTRA_PERMISSIONS)]
    )


def _permissions(names: list[str]) -> list[Permission]:
    wanted = {tuple(name.split(".", 1)) for name in names}
    found = Permission.objects.filter(content_type__app_label__in={app for app, _ in wanted}).select_related(
        "content_type"
    )
    return [p for p in found if (p.content_type.app_label, p.codename) in wanted]
