"""Every role at every door of the admin: each address Django registers, as anonymous, an organiser on their own
object, an organiser on another organiser's object and federation staff, by GET and by POST.

Each row is ``"<url name, or route if unnamed>": ("<GET>", "<POST>")``, one character per role in the order
anonymous, own, other, staff (``tests/admin_matrix.py`` reads the characters):

- ``.`` refused (403/404/405, or sent to the login page or the admin index) and nothing written;
- ``R`` served, nothing written (a page; a form with errors; an action not offered to this role);
- ``W`` served and written (what this role may do; rolled back after the request);
- ``w`` served, written or not by the set-up (a task run eagerly writes, one sent to a broker does not).

Actions are rows ``"<changelist> action <name>"``, POSTed on the role's object (no GET). A new admin address or
action fails ``test_every_admin_address_has_a_row`` until its row is written here: decide who may open it first.

The POST of a refused cell carries a payload that would rename or delete if it got through (``post_data``).
"""

import pytest

from tests import admin_matrix as matrix

pytestmark = pytest.mark.django_db

ROWS = {
    "index": (".RRR", ".RRR"),
    "login": ("R...", "RRRR"),
    "logout": ("....", ".WWW"),  # django-axes records the logout
    "password_change": (".RRR", ".RRR"),
    "password_change_done": (".RRR", "...."),
    "autocomplete": (".RRR", "...."),
    "jsi18n": (".RRR", "...."),
    "view_on_site": (".RRR", ".RRR"),
    # django-axes' record of logins: staff read it and unlock (delete); nobody adds.
    "axes_accesslog_changelist": ("...R", "...W"),
    "axes_accesslog_add": ("....", "...."),
    "axes_accesslog_history": ("...R", "...R"),
    "axes_accesslog_delete": ("...R", "...W"),
    "axes_accesslog_change": ("...R", "...W"),
    "axes/accesslog/<path:object_id>/": (".RRR", ".RRR"),
    "axes_accessfailurelog_changelist": ("...R", "...W"),
    "axes_accessfailurelog_add": ("....", "...."),
    "axes_accessfailurelog_history": ("...R", "...R"),
    "axes_accessfailurelog_delete": ("...R", "...W"),
    "axes_accessfailurelog_change": ("...R", "...W"),
    "axes/accessfailurelog/<path:object_id>/": (".RRR", ".RRR"),
    "axes_accessattempt_changelist": ("...R", "...W"),
    "axes_accessattempt_add": ("....", "...."),
    "axes_accessattempt_history": ("...R", "...R"),
    "axes_accessattempt_delete": ("...R", "...W"),
    "axes_accessattempt_change": ("...R", "...W"),
    "axes/accessattempt/<path:object_id>/": (".RRR", ".RRR"),
    "axes_accessattempt_changelist action cleanup_expired_attempts": ("", "...R"),
    "axes_accessattempt_changelist action delete_selected": ("", "...W"),
    "axes_accessfailurelog_changelist action delete_selected": ("", "...W"),
    "axes_accesslog_changelist action delete_selected": ("", "...W"),
    "auth_group_changelist": ("....", "...."),
    "auth_group_add": ("....", "...."),
    "auth_group_history": ("....", "...."),
    "auth_group_delete": ("....", "...."),
    "auth_group_change": ("....", "...."),
    "auth/group/<path:object_id>/": (".RRR", ".RRR"),
    "auth_user_password_change": ("....", "...."),
    "auth_user_changelist": ("....", "...."),
    "auth_user_add": ("....", "...."),
    "auth_user_history": ("....", "...."),
    "auth_user_delete": ("....", "...."),
    "auth_user_change": ("....", "...."),
    "auth/user/<path:object_id>/": (".RRR", ".RRR"),
    "django_celery_beat_periodictask_changelist": ("...R", "...W"),
    "django_celery_beat_periodictask_add": ("...R", "...R"),
    "django_celery_beat_periodictask_history": ("...R", "...R"),
    "django_celery_beat_periodictask_delete": ("...R", "...W"),
    "django_celery_beat_periodictask_change": ("...R", "...R"),
    "django_celery_beat/periodictask/<path:object_id>/": (".RRR", ".RRR"),
    "django_celery_beat_clockedschedule_changelist": ("...R", "...W"),
    "django_celery_beat_clockedschedule_add": ("...R", "...R"),
    "django_celery_beat_clockedschedule_history": ("...R", "...R"),
    "django_celery_beat_clockedschedule_delete": ("...R", "...W"),
    "django_celery_beat_clockedschedule_change": ("...R", "...R"),
    "django_celery_beat/clockedschedule/<path:object_id>/": (".RRR", ".RRR"),
    "django_celery_beat_crontabschedule_changelist": ("...R", "...W"),
    "django_celery_beat_crontabschedule_add": ("...R", "...R"),
    "django_celery_beat_crontabschedule_history": ("...R", "...R"),
    "django_celery_beat_crontabschedule_delete": ("...R", "...W"),
    "django_celery_beat_crontabschedule_change": ("...R", "...R"),
    "django_celery_beat/crontabschedule/<path:object_id>/": (".RRR", ".RRR"),
    "django_celery_beat_solarschedule_changelist": ("...R", "...W"),
    "django_celery_beat_solarschedule_add": ("...R", "...R"),
    "django_celery_beat_solarschedule_history": ("...R", "...R"),
    "django_celery_beat_solarschedule_delete": ("...R", "...W"),
    "django_celery_beat_solarschedule_change": ("...R", "...R"),
    "django_celery_beat/solarschedule/<path:object_id>/": (".RRR", ".RRR"),
    "django_celery_beat_intervalschedule_changelist": ("...R", "...W"),
    "django_celery_beat_intervalschedule_add": ("...R", "...R"),
    "django_celery_beat_intervalschedule_history": ("...R", "...R"),
    "django_celery_beat_intervalschedule_delete": ("...R", "...W"),
    "django_celery_beat_intervalschedule_change": ("...R", "...R"),
    "django_celery_beat/intervalschedule/<path:object_id>/": (".RRR", ".RRR"),
    "federation_club_simple_history": ("...R", "...."),
    "federation_club_changelist": (".RRR", ".RRR"),
    # Clubs and their public pages' texts (issue 28) are staff's: organisers only read them.
    "federation_club_add": ("...R", "...W"),
    "federation_club_history": ("...R", "...R"),
    "federation_club_delete": ("...R", "...R"),
    "federation_club_change": (".RRR", "...W"),
    "federation/club/<path:object_id>/": (".RRR", ".RRR"),
    "federation_botlevel_simple_history": ("...R", "...."),
    "federation_botlevel_changelist": ("...R", "...W"),
    "federation_botlevel_add": ("...R", "...R"),
    "federation_botlevel_history": ("...R", "...R"),
    "federation_botlevel_delete": ("...R", "...W"),
    "federation_botlevel_change": ("...R", "...R"),
    "federation/botlevel/<path:object_id>/": (".RRR", ".RRR"),
    # The English names of cities (issue 28): staff's alone, as the bot levels.
    "federation_cityname_simple_history": ("...R", "...."),
    "federation_cityname_changelist": ("...R", "...W"),
    "federation_cityname_add": ("...R", "...R"),
    "federation_cityname_history": ("...R", "...R"),
    "federation_cityname_delete": ("...R", "...W"),
    "federation_cityname_change": ("...R", "...R"),
    "federation/cityname/<path:object_id>/": (".RRR", ".RRR"),
    "federation_siteidentity_changelist": ("...R", "...R"),
    "federation_siteidentity_add": ("....", "...."),  # one row: the world has it, so nobody adds another
    "federation_siteidentity_history": ("...R", "...R"),
    "federation_siteidentity_delete": ("....", "...."),
    "federation_siteidentity_change": ("...R", "...R"),
    "federation/siteidentity/<path:object_id>/": (".RRR", ".RRR"),
    "federation_player_simple_history": ("...R", "...."),
    "federation_player_changelist": (".RRR", ".RRR"),
    "federation_player_add": (".RRR", ".RRR"),
    "federation_player_history": ("...R", "...R"),
    "federation_player_delete": ("...R", "...R"),
    "federation_player_change": (".RRR", "...R"),
    "federation/player/<path:object_id>/": (".RRR", ".RRR"),
    "tournaments_tournament_import": (".R.R", ".R.R"),
    "tournaments_tournament_results": (".R.R", ".R.R"),
    "tournaments_tournament_players": (".RRR", ".RRR"),
    "tournaments_tournament_simple_history": ("...R", "...."),
    "tournaments_tournament_changelist": (".RRR", ".RR."),
    "tournaments_tournament_add": (".RRR", ".RRR"),
    "tournaments_tournament_history": ("...R", "...R"),
    "tournaments_tournament_delete": ("...R", "...."),
    "tournaments_tournament_change": (".R.R", ".R.R"),
    "tournaments/tournament/<path:object_id>/": (".RRR", ".RRR"),
    "ratings_ratinglist_progress": ("....", "...."),
    "ratings_jobrun_again": ("....", "...W"),
    "ratings_jobrun_changelist": ("...R", "...R"),
    "ratings_jobrun_add": ("....", "...."),
    "ratings_jobrun_history": ("...R", "...R"),
    "ratings_jobrun_delete": ("....", "...."),
    "ratings_jobrun_change": ("...R", "...R"),
    "ratings/jobrun/<path:object_id>/": (".RRR", ".RRR"),
    "ratings_mahjong_rebuild": ("...R", "...R"),
    "ratings_ratinglist_simple_history": ("...R", "...."),
    "ratings_ratinglist_changelist": ("...R", "...R"),
    "ratings_ratinglist_add": ("...R", "...R"),
    "ratings_ratinglist_history": ("...R", "...R"),
    "ratings_ratinglist_delete": ("....", "...."),
    "ratings_ratinglist_change": ("...R", "...R"),
    "ratings/ratinglist/<path:object_id>/": (".RRR", ".RRR"),
    "ratings_ratinglist_import_history": ("...R", "...R"),
    "ratings_startingrating_simple_history": ("...R", "...."),
    "ratings_startingrating_changelist": ("...R", "...W"),
    "ratings_startingrating_add": ("...R", "...R"),
    "ratings_startingrating_history": ("...R", "...R"),
    "ratings_startingrating_delete": ("...R", "...W"),
    "ratings_startingrating_change": ("...R", "...R"),
    "ratings/startingrating/<path:object_id>/": (".RRR", ".RRR"),
    "ratings_ratingsnapshot_changelist": ("...R", "...R"),
    "ratings_ratingsnapshot_add": ("....", "...."),
    "ratings_ratingsnapshot_history": ("...R", "...R"),
    "ratings_ratingsnapshot_delete": ("....", "...."),
    "ratings_ratingsnapshot_change": ("...R", "...."),
    "ratings/ratingsnapshot/<path:object_id>/": (".RRR", ".RRR"),
    "ratings_ratingentry_changelist": ("...R", "...R"),
    "ratings_ratingentry_add": ("....", "...."),
    "ratings_ratingentry_history": ("...R", "...R"),
    "ratings_ratingentry_delete": ("....", "...."),
    "ratings_ratingentry_change": ("...R", "...."),
    "ratings/ratingentry/<path:object_id>/": (".RRR", ".RRR"),
    "ratings_ratingchange_changelist": ("...R", "...R"),
    "ratings_ratingchange_add": ("....", "...."),
    "ratings_ratingchange_history": ("...R", "...R"),
    "ratings_ratingchange_delete": ("....", "...."),
    "ratings_ratingchange_change": ("...R", "...."),
    "ratings/ratingchange/<path:object_id>/": (".RRR", ".RRR"),
    "preferans_gameserver_changelist": ("...R", "...W"),
    "preferans_gameserver_add": ("...R", "...W"),
    "preferans_gameserver_history": ("...R", "...R"),
    "preferans_gameserver_delete": ("...R", "...W"),
    "preferans_gameserver_change": ("...R", "...W"),
    "preferans/gameserver/<path:object_id>/": (".RRR", ".RRR"),
    "preferans_game_import": (".RRR", ".RRR"),
    "preferans_game_deal": (".R.R", ".W.W"),  # a deal −10/5/5 rated into another's game was stored (issue 27)
    "preferans_game_changelist": (".RRR", ".RRR"),
    "preferans_game_add": (".RRR", ".RRR"),
    "preferans_game_history": ("...R", "...R"),
    "preferans_game_delete": ("...R", "...R"),
    "preferans_game_change": (".R.R", ".R.R"),  # each game its owner's (issue 27)
    "preferans/game/<path:object_id>/": (".RRR", ".RRR"),
    "preferans_preferansrating_changelist": (".RRR", ".RRR"),
    "preferans_preferansrating_add": ("....", "...."),
    "preferans_preferansrating_history": ("...R", "...R"),
    "preferans_preferansrating_delete": ("....", "...."),
    "preferans_preferansrating_change": (".RRR", "...."),
    "preferans/preferansrating/<path:object_id>/": (".RRR", ".RRR"),
    "preferans_dealresult_changelist": (".RRR", ".RRR"),
    "preferans_dealresult_add": ("....", "...."),
    "preferans_dealresult_history": ("...R", "...R"),
    "preferans_dealresult_delete": ("....", "...."),
    "preferans_dealresult_change": (".RRR", "...."),
    "preferans/dealresult/<path:object_id>/": (".RRR", ".RRR"),
    "dirs_dirsrating_changelist": (".RRR", ".RRW"),
    "dirs_dirsrating_add": (".RRR", ".RRR"),
    "dirs_dirsrating_history": ("...R", "...R"),
    "dirs_dirsrating_delete": ("...R", "...W"),
    "dirs_dirsrating_change": (".RRR", ".W.W"),  # its organiser (``entered_by``) and staff; others read it
    "dirs/dirsrating/<path:object_id>/": (".RRR", ".RRR"),
    "dirs_dirsgame_changelist": (".RRR", ".RRW"),
    "dirs_dirsgame_add": (".RRR", ".RRR"),
    "dirs_dirsgame_history": ("...R", "...R"),
    "dirs_dirsgame_delete": ("...R", "...W"),
    "dirs_dirsgame_change": (".RRR", "...W"),
    "dirs/dirsgame/<path:object_id>/": (".RRR", ".RRR"),
    "go_gotournament_changelist": (".RRR", ".RRR"),
    "go_gotournament_add": ("...R", "...R"),
    "go_gotournament_history": ("...R", "...R"),
    "go_gotournament_delete": ("...R", "...R"),
    "go_gotournament_change": (".RRR", "...R"),
    "go/gotournament/<path:object_id>/": (".RRR", ".RRR"),
    "go_registration_changelist": (".RRR", ".RRR"),
    "go_registration_add": ("...R", "...R"),
    "go_registration_history": ("...R", "...R"),
    "go_registration_delete": ("...R", "...R"),
    "go_registration_change": (".RRR", "...R"),
    "go/registration/<path:object_id>/": (".RRR", ".RRR"),
    "go_round_changelist": (".RRR", ".RRW"),
    "go_round_add": ("....", "...."),
    "go_round_history": ("...R", "...R"),
    "go_round_delete": ("...R", "...W"),
    "go_round_change": (".RRR", "...R"),
    "go/round/<path:object_id>/": (".RRR", ".RRR"),
    "go_standingrow_changelist": (".RRR", ".RRW"),
    "go_standingrow_add": ("....", "...."),
    "go_standingrow_history": ("...R", "...R"),
    "go_standingrow_delete": ("...R", "...W"),
    "go_standingrow_change": (".RRR", "...W"),
    "go/standingrow/<path:object_id>/": (".RRR", ".RRR"),
    "app_list": (".RRR", ".RRR"),
    "(?P<url>.*)$": ("....", "...."),
    "auth_group_changelist action delete_selected": ("", "...."),
    "auth_user_changelist action delete_selected": ("", "...."),
    "dirs_dirsgame_changelist action delete_selected": ("", ".RRW"),
    "dirs_dirsrating_changelist action delete_selected": ("", ".RRW"),
    "django_celery_beat_clockedschedule_changelist action delete_selected": ("", "...W"),
    "django_celery_beat_crontabschedule_changelist action delete_selected": ("", "...W"),
    "django_celery_beat_intervalschedule_changelist action delete_selected": ("", "...W"),
    "django_celery_beat_periodictask_changelist action delete_selected": ("", "...W"),
    "django_celery_beat_periodictask_changelist action disable_tasks": ("", "...W"),
    "django_celery_beat_periodictask_changelist action enable_tasks": ("", "...W"),
    "django_celery_beat_periodictask_changelist action run_tasks": ("", "...w"),
    "django_celery_beat_periodictask_changelist action toggle_tasks": ("", "...W"),
    "django_celery_beat_solarschedule_changelist action delete_selected": ("", "...W"),
    "federation_botlevel_changelist action delete_selected": ("", "...W"),
    "federation_cityname_changelist action delete_selected": ("", "...W"),
    "ratings_startingrating_changelist action delete_selected": ("", "...W"),
    "federation_club_changelist action delete_selected": ("", ".RRR"),
    "federation_player_changelist action delete_selected": ("", ".RRR"),
    "federation_player_changelist action merge_players": ("", ".RRR"),
    "go_gotournament_changelist action delete_selected": ("", ".RRR"),
    "go_registration_changelist action delete_selected": ("", ".RRR"),
    "go_round_changelist action delete_selected": ("", ".RRW"),
    "go_standingrow_changelist action delete_selected": ("", ".RRW"),
    "preferans_game_changelist action delete_selected": ("", ".RRR"),
    "preferans_gameserver_changelist action delete_selected": ("", "...W"),
    "preferans_gameserver_changelist action issue_new_token": ("", "...W"),
    "ratings_ratinglist_changelist action gorbunov_publish_now": ("", "...W"),
    "ratings_ratinglist_changelist action gorbunov_rebuild": ("", "...R"),
    "ratings_ratinglist_changelist action mahjong_compute_today": ("", "...W"),
    "ratings_ratinglist_changelist action mahjong_rebuild_dates": ("", "...R"),
    "tournaments_tournament_changelist action approve": ("", ".RRW"),
    "tournaments_tournament_changelist action delete_selected": ("", ".RR."),
    "tournaments_tournament_changelist action mahjong_accredit": ("", ".RRR"),
    "tournaments_tournament_changelist action mahjong_check": ("", ".RRR"),
    "tournaments_tournament_changelist action mahjong_rank_restriction_legitimate": ("", ".RRR"),
    "tournaments_tournament_changelist action mahjong_rank_restriction_not_legitimate": ("", ".RRR"),
    "tournaments_tournament_changelist action mahjong_withdraw_accreditation": ("", ".RRR"),
    "tournaments_tournament_changelist action return_to_draft": ("", ".RRW"),
    "tournaments_tournament_changelist action submit": ("", ".WRW"),
    # The announcement (issue 30): the organiser submits their own, staff alone approve or withdraw it; closing,
    # reopening registration and cancelling are the organiser's on their own tournament.
    "tournaments_tournament_changelist action submit_announcement": ("", ".WRW"),
    "tournaments_tournament_changelist action approve_announcement": ("", ".RRW"),
    "tournaments_tournament_changelist action withdraw_announcement": ("", ".RRW"),
    "tournaments_tournament_changelist action close_registration": ("", ".WRW"),
    "tournaments_tournament_changelist action reopen_registration": ("", ".WRW"),
    "tournaments_tournament_changelist action cancel_tournament": ("", ".WRW"),
    # Online registrations (issue 30): the organiser sees and moves those of their own tournaments, nobody adds one
    # here (players register on the site), staff alone delete or match a newcomer to the registry.
    "tournaments_registration_changelist": (".RRR", ".RRW"),
    "tournaments_registration_add": ("....", "...."),
    "tournaments_registration_history": ("...R", "...R"),
    "tournaments_registration_simple_history": ("...R", "...."),
    "tournaments_registration_delete": ("...R", "...W"),
    "tournaments_registration_change": (".R.R", ".W.R"),  # staff: the payload lacks the e-mail they must keep
    "tournaments/registration/<path:object_id>/": (".RRR", ".RRR"),
    "tournaments_registration_changelist action confirm": ("", ".WRW"),
    "tournaments_registration_changelist action to_field": ("", ".WRW"),
    "tournaments_registration_changelist action to_waiting_list": ("", ".WRW"),
    "tournaments_registration_changelist action cancel": ("", ".WRW"),
    "tournaments_registration_changelist action delete_selected": ("", ".RRW"),
    # The admin's search behind each autocomplete field: ``R`` when it lists the role's object (admin_matrix).
    "autocomplete federation.player.club": (".RRR", "...."),
    "autocomplete federation.player.user": ("....", "...."),
    "autocomplete go.gotournament.tournament": (".R.R", "...."),  # another organiser's tournament is not found
    "autocomplete preferans.seat.player": (".RRR", "...."),
    "autocomplete ratings.ratingentry.player": (".RRR", "...."),
    "autocomplete ratings.startingrating.player": (".RRR", "...."),
}


#: Every model an organiser may write (an add, change or delete permission in ``federation.roles``), with who owns one
#: (the path from the object to its owner; None for the members' registry, which organisers only add to) and the
#: rows above that are its doors. ``test_every_model_an_organiser_writes_has_its_doors`` fails on a permission given
#: to organisers without its row here: decide who owns the new model's objects and which doors check it first.
ORGANISER_WRITES = {
    "federation.player": (None, ["federation_player_add", "federation_player_change", "federation_player_delete"]),
    "tournaments.tournament": (
        "organiser",
        [
            "tournaments_tournament_add",
            "tournaments_tournament_change",
            "tournaments_tournament_delete",
            "tournaments_tournament_history",
            "tournaments_tournament_simple_history",
            "tournaments_tournament_changelist",
            "tournaments_tournament_changelist action submit",
            "tournaments_tournament_changelist action approve",
            "tournaments_tournament_changelist action return_to_draft",
            "tournaments_tournament_changelist action delete_selected",
            "tournaments_tournament_changelist action mahjong_accredit",
            "tournaments_tournament_changelist action mahjong_check",
            "tournaments_tournament_changelist action mahjong_withdraw_accreditation",
            "tournaments_tournament_changelist action mahjong_rank_restriction_legitimate",
            "tournaments_tournament_changelist action mahjong_rank_restriction_not_legitimate",
            "tournaments_tournament_changelist action submit_announcement",
            "tournaments_tournament_changelist action approve_announcement",
            "tournaments_tournament_changelist action withdraw_announcement",
            "tournaments_tournament_changelist action close_registration",
            "tournaments_tournament_changelist action reopen_registration",
            "tournaments_tournament_changelist action cancel_tournament",
            "autocomplete go.gotournament.tournament",
        ],
    ),
    "tournaments.result": ("tournament.organiser", ["tournaments_tournament_results", "tournaments_tournament_import"]),
    "tournaments.registration": (
        "tournament.organiser",
        [
            "tournaments_registration_changelist",
            "tournaments_registration_change",
            "tournaments_registration_history",
            "tournaments_registration_simple_history",
            "tournaments_registration_changelist action confirm",
            "tournaments_registration_changelist action to_field",
            "tournaments_registration_changelist action to_waiting_list",
            "tournaments_registration_changelist action cancel",
            "tournaments_registration_changelist action delete_selected",
        ],
    ),
    "tournaments.stage": ("tournament.organiser", ["tournaments_tournament_change"]),
    "preferans.game": (
        "owner",
        [
            "preferans_game_add",
            "preferans_game_change",
            "preferans_game_delete",
            "preferans_game_history",
            "preferans_game_changelist",
            "preferans_game_changelist action delete_selected",
        ],
    ),
    "preferans.seat": ("game.owner", ["preferans_game_add", "preferans_game_change"]),
    "preferans.deal": ("game.owner", ["preferans_game_deal", "preferans_game_import"]),
    "dirs.dirsrating": (
        "entered_by",
        [
            "dirs_dirsrating_add",
            "dirs_dirsrating_change",
            "dirs_dirsrating_delete",
            "dirs_dirsrating_history",
            "dirs_dirsrating_changelist",
            "dirs_dirsrating_changelist action delete_selected",
        ],
    ),
    "dirs.dirsgame": (
        "entered_by",
        [
            "dirs_dirsgame_add",
            "dirs_dirsgame_change",
            "dirs_dirsgame_delete",
            "dirs_dirsgame_history",
            "dirs_dirsgame_changelist",
            "dirs_dirsgame_changelist action delete_selected",
        ],
    ),
}


def _organiser_writable() -> set[str]:
    from federation.roles import ORGANISER_PERMISSIONS

    labels = set()
    for name in ORGANISER_PERMISSIONS:
        app, codename = name.split(".", 1)
        action, _sep, model = codename.partition("_")
        if action in ("add", "change", "delete"):
            labels.add(f"{app}.{model}")
    return labels


def test_every_model_an_organiser_writes_has_its_doors():
    assert set(ORGANISER_WRITES) == _organiser_writable()
    doors = {door for _owner, keys in ORGANISER_WRITES.values() for door in keys}
    assert not doors - set(ROWS), "a door of ORGANISER_WRITES without its row in ROWS"


def _owner_of(obj, path: str):
    for name in path.split("."):
        obj = getattr(obj, name)
    return obj


def test_the_other_column_asks_for_another_organisers_object():
    """Each owned model's object in the matrix's world is the organiser's own in the "own" column and the other
    organiser's in the "other" column, so the matrix really knocks on someone else's door."""
    world = matrix.world_build()
    for label, (path, _doors) in ORGANISER_WRITES.items():
        if path is None:
            continue
        assert _owner_of(world.own[label], path) == world.me, label
        assert _owner_of(world.other[label], path) == world.other_organiser, label


def test_no_organiser_writes_another_organisers_object():
    """At every door of an owned model, the "other" column never writes; and where it is the object's own page,
    another organiser's object is not even shown (but DIRS ratings and games, which the public pages show anyway)."""
    for label, (path, doors) in ORGANISER_WRITES.items():
        for door in doors:
            get, post = ROWS[door]
            if path is None or door.endswith("_add"):
                continue
            assert "W" not in (get[2:3] + post[2:3]), (label, door)
            # The deals' import is one page for every game: the file names the games, and the import refuses
            # another's (tests/ratings/preferans/test_admin.py).
            per_object = door.endswith(("_change", "_deal", "_results", "_import")) and door != "preferans_game_import"
            if per_object and label not in ("dirs.dirsrating", "dirs.dirsgame"):
                assert (get[2], post[2]) == (".", "."), (label, door)


def _keys():
    return [key for key, _ in matrix.admin_patterns()] + matrix.admin_actions() + matrix.admin_autocompletes()


def test_every_admin_address_has_a_row():
    missing = sorted(set(_keys()) - set(ROWS))
    gone = sorted(set(ROWS) - set(_keys()))
    assert not missing, f"admin addresses without a row in ROWS (decide who may open them): {missing}"
    assert not gone, f"rows for addresses the admin no longer has: {gone}"


def test_every_model_admin_of_the_site_keeps_history_for_staff():
    """Each ModelAdmin of the site's apps builds on ``FederationModelAdmin`` (history for staff only)."""
    from django.contrib import admin

    from federation.admin_security import FederationModelAdmin

    ours = {"federation", "tournaments", "ratings", "preferans", "dirs", "go", "gorbunov", "mahjong"}
    loose = [
        type(model_admin).__name__
        for model, model_admin in admin.site._registry.items()
        if model._meta.app_label in ours and not isinstance(model_admin, FederationModelAdmin)
    ]
    assert not loose


ROUTES = dict(matrix.admin_patterns())


@pytest.mark.parametrize("key", sorted(ROWS))
def test_admin_address_as_every_role(client, key):
    world = matrix.world_build()
    route = ROUTES.get(key, "")
    expected_get, expected_post = ROWS[key]
    seen = {}
    for method, expected in (("GET", expected_get), ("POST", expected_post)):
        if not expected:
            continue
        got = ""
        urls = []
        for role in matrix.ROLES:
            matrix.login_for(client, world, role)
            cell, url = matrix.probe(client, world, key, route, role, method)
            got += cell
            urls.append(url)
        seen[method] = (got, urls)
    expected = {m: e for m, e in (("GET", expected_get), ("POST", expected_post)) if e}
    got = {
        m: "".join(
            "w" if (want == "w" and cell in "RW") else cell for want, cell in zip(expected[m], s[0], strict=True)
        )
        for m, s in seen.items()
    }
    assert got == expected, seen
