"""The world and the prober of the admin permission matrix (``tests/test_admin_permissions.py``).

Every admin address Django registers is requested as four roles, by GET and by POST, each request inside a savepoint
that is rolled back, so one request's writes never reach the next. What a request did is read from the SQL it ran:

- ``.`` refused: 403, 404 or 405, or a redirect to the login page or to the admin's index (Django's answer for an
  object outside the user's queryset), and nothing written;
- ``R`` served and nothing written (a page, a form with errors, an action that was not offered);
- ``W`` served and something written (an allowed POST);
- ``X`` a refusal that still wrote, and ``5`` a server error: never expected, always a failure.

An autocomplete row (``autocomplete <app>.<model>.<field>``, the admin's search behind that field) is ``R`` when the
answer lists the role's object of the related model and ``.`` when it is refused or does not list it.

The writes are every INSERT, UPDATE or DELETE the request ran, but the session's (logging in, the messages).
"""

from __future__ import annotations

import datetime
import re
from dataclasses import dataclass

from axes.models import AccessAttempt, AccessFailureLog, AccessLog
from django.contrib import admin
from django.contrib.auth.models import Group
from django.contrib.contenttypes.models import ContentType
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext
from django.urls import URLResolver
from django.utils import timezone
from django_celery_beat.models import (
    ClockedSchedule,
    CrontabSchedule,
    IntervalSchedule,
    PeriodicTask,
    SolarSchedule,
)

from federation.models import BotLevel, CityName, Club, SiteIdentity
from ratings.dirs.models import DirsRating
from ratings.dirs.services import dirs_game_record
from ratings.models import JobRun, RatingChange, RatingEntry, RatingList, RatingSnapshot, StartingRating
from ratings.preferans.models import DealResult, Game, GameServer, PreferansRating
from ratings.preferans.services import DealInput, deals_apply, game_create
from tests.factories import PlayerFactory, TournamentFactory, federation_staff, organiser
from tournaments.go.models import StandingRow
from tournaments.go.services.registrations import go_registration_add, go_tournament_create
from tournaments.go.services.rounds import go_round_pair
from tournaments.models import Registration, Result, Stage, TournamentStatus

ACTION = " action "
ROLES = ("anonymous", "own", "other", "staff")
METHODS = ("GET", "POST")
WRITE = re.compile(r"^\s*(INSERT|UPDATE|DELETE)\b", re.IGNORECASE)
SESSION = re.compile(r"django_session", re.IGNORECASE)


def admin_patterns() -> list[tuple[str, str]]:
    """(key, route) of every address under /admin/: the key is the URL's name, or its route when it has none."""

    def walk(patterns, prefix=""):
        for pattern in patterns:
            if isinstance(pattern, URLResolver):
                yield from walk(pattern.url_patterns, prefix + str(pattern.pattern))
            else:
                route = prefix + str(pattern.pattern)
                yield (pattern.name or route), route

    return list(walk(admin.site.get_urls()))


def admin_actions() -> list[str]:
    """``<app>_<model>_changelist action <name>`` for every action any ModelAdmin offers a superuser."""
    from django.contrib.auth import get_user_model
    from django.test import RequestFactory

    request = RequestFactory().get("/admin/")
    request.user = get_user_model()(is_superuser=True, is_staff=True, is_active=True)
    keys = []
    for model, model_admin in admin.site._registry.items():
        for name in model_admin.get_actions(request):
            keys.append(f"{model._meta.app_label}_{model._meta.model_name}_changelist{ACTION}{name}")
    return sorted(keys)


AUTOCOMPLETE = "autocomplete "


def admin_autocompletes() -> list[str]:
    """``autocomplete <app>.<model>.<field>`` for every autocomplete field of every ModelAdmin and inline: the admin's
    search of the related model's objects, each a door to the objects it lists."""
    keys = set()
    for model_admin in admin.site._registry.values():
        for holder in [model_admin, *model_admin.inlines]:
            for name in holder.autocomplete_fields:
                keys.add(f"{AUTOCOMPLETE}{holder.model._meta.label_lower}.{name}")
    return sorted(keys)


def _autocomplete_target(key: str):
    """(source model, field name, the related model's label) of an autocomplete row."""
    from django.apps import apps

    label, name = key.removeprefix(AUTOCOMPLETE).rsplit(".", 1)
    source = apps.get_model(label)
    return source, name, source._meta.get_field(name).related_model._meta.label_lower


@dataclass
class World:
    me: object
    other_organiser: object
    staff: object
    own: dict
    other: dict
    versions: dict


def world_build() -> World:
    """One object of every model the admin shows; a tournament (and its Go settings) for each organiser."""
    me, them, staff = organiser(username="me"), organiser(username="them"), federation_staff(username="staff")
    announced = {"description": "Анонс.", "contact": "org@example.org"}  # enough to submit the announcement
    own_t = TournamentFactory(organiser=me, status=TournamentStatus.DRAFT, name="Мой", **announced)
    other_t = TournamentFactory(organiser=them, status=TournamentStatus.DRAFT, name="Чужой", **announced)
    own_t.save()
    other_t.save()
    club = Club.objects.create(name="Клуб", city="Москва")
    bot = BotLevel.objects.create(name="Бот", max_rating=1000)
    players = [PlayerFactory(club=club) for _ in range(3)]
    players[0].city = "Тверь"
    players[0].save()
    rating_list = RatingList.objects.order_by("pk").first()
    snapshot = RatingSnapshot.objects.create(rating_list=rating_list, as_of=datetime.date(2026, 3, 9))
    entry = RatingEntry.objects.create(snapshot=snapshot, player=players[0], rank=1, rating=1000)
    change = RatingChange.objects.create(
        rating_list=rating_list,
        player=players[0],
        tournament=own_t,
        snapshot=snapshot,
        event_date=datetime.date(2026, 3, 7),
        before=1000,
        after=1010,
        delta=10,
    )
    server = GameServer.objects.create(name="Сервер", token_hash="a" * 64, token_prefix="aaaa")
    games = {}
    for owner, key in ((me, "g-1"), (them, "g-2")):
        game, _ = game_create(server=None, external_id=key, player_ids=[p.pk for p in players])
        Game.objects.filter(pk=game.pk).update(owner=owner)
        game.refresh_from_db()
        deals_apply(deals=[DealInput(game=game, whists={p.pk: w for p, w in zip(players, (4, -2, -2), strict=True)})])
        games[owner.pk] = game
    game, other_game = games[me.pk], games[them.pk]
    dirs_rating = DirsRating.objects.create(
        player=players[1], rating=2100, initial_rating=2100, declared_rank="1d", entered_by=me
    )
    DirsRating.objects.create(player=players[0], rating=2100, initial_rating=2100, declared_rank="1d")
    other_dirs_rating = DirsRating.objects.create(
        player=players[2], rating=2100, initial_rating=2100, declared_rank="1d", entered_by=them
    )
    dirs_games = {
        who.pk: dirs_game_record(
            date=datetime.date(2026, 3, 7),
            club=club,
            white=players[0],
            black=black,
            handicap=0,
            komi="normal",
            winner="white",
            user=who,
        )
        for who, black in ((me, players[1]), (them, players[2]))
    }
    dirs_game = dirs_games[me.pk]
    own_stage = Stage.objects.create(tournament=own_t, number=1, hanchans=4, players=16)
    other_stage = Stage.objects.create(tournament=other_t, number=1, hanchans=4, players=16)
    own_result = Result.objects.create(tournament=own_t, player=players[0], place=1)
    own_registration = Registration.objects.create(
        tournament=own_t, player=players[1], name="Мой игрок", email="mine@example.org", status="registered"
    )
    other_registration = Registration.objects.create(
        tournament=other_t, player=players[1], name="Чужой игрок", email="theirs@example.org", status="registered"
    )
    other_result = Result.objects.create(tournament=other_t, player=players[0], place=1)
    own_go = go_tournament_create(
        user=me,
        name="Го",
        start_date=datetime.date(2026, 3, 7),
        end_date=datetime.date(2026, 3, 8),
        system="fus",
        rounds=3,
        half_stone=True,
        acceleration=False,
    )
    own_go.tournament.organiser = me
    own_go.tournament.save()
    regs = [go_registration_add(go=own_go, name=f"Игрок {n}", rating=2000 - n * 100, user=me) for n in range(2)]
    go_round = go_round_pair(go=own_go, user=me)
    standing = StandingRow.objects.create(round=go_round, registration=regs[0], place=1, start_level=0, level=0)
    who = {"user_agent": "test", "ip_address": "127.0.0.1", "username": "them", "http_accept": "*/*", "path_info": "/"}
    attempt = AccessAttempt.objects.create(**who, get_data="", post_data="", failures_since_start=1)
    access_log = AccessLog.objects.create(**who)
    failure_log = AccessFailureLog.objects.create(**who)
    clocked = ClockedSchedule.objects.create(clocked_time=timezone.now())
    solar = SolarSchedule.objects.create(event="sunrise", latitude=55.75, longitude=37.62)
    interval = IntervalSchedule.objects.create(every=10, period="minutes")
    shared = {
        "axes.accessattempt": attempt,
        "axes.accesslog": access_log,
        "axes.accessfailurelog": failure_log,
        "auth.group": Group.objects.order_by("pk").first(),
        "auth.user": them,
        "django_celery_beat.periodictask": PeriodicTask.objects.order_by("pk").first(),
        "django_celery_beat.clockedschedule": clocked,
        "django_celery_beat.crontabschedule": CrontabSchedule.objects.order_by("pk").first(),
        "django_celery_beat.solarschedule": solar,
        "django_celery_beat.intervalschedule": interval,
        "federation.club": club,
        "federation.botlevel": bot,
        "federation.cityname": CityName.objects.create(name="Тверь", name_en="Tver"),
        "federation.player": players[0],
        "federation.siteidentity": SiteIdentity.objects.create(name="Федерация"),
        "ratings.ratinglist": rating_list,
        "ratings.ratingsnapshot": snapshot,
        "ratings.ratingentry": entry,
        "ratings.ratingchange": change,
        "ratings.startingrating": StartingRating.objects.create(
            rating_list=rating_list, player=players[0], list_date=datetime.date(2019, 1, 1), rating=190
        ),
        "ratings.jobrun": JobRun.objects.create(task_id="matrix", kind="mahjong_daily", state="failed"),
        "preferans.gameserver": server,
        "preferans.game": game,
        "preferans.preferansrating": PreferansRating.objects.get(player=players[0]),
        "preferans.dealresult": DealResult.objects.filter(player=players[0]).first(),
        "dirs.dirsrating": dirs_rating,
        "dirs.dirsgame": dirs_game,
        "go.gotournament": own_go,
        "go.registration": regs[0],
        "go.round": go_round,
        "go.standingrow": standing,
    }
    assert all(value is not None for value in shared.values()), shared
    # What an organiser writes is theirs (``federation.roles``): the other organiser's own objects of every such
    # model, so that the "other" column asks for an object that is really someone else's.
    own = {
        **shared,
        "tournaments.tournament": own_t,
        "tournaments.result": own_result,
        "tournaments.stage": own_stage,
        "tournaments.registration": own_registration,
        "preferans.seat": game.seats.order_by("pk").first(),
        "preferans.deal": game.deals.order_by("pk").first(),
    }
    other = {
        **shared,
        "tournaments.tournament": other_t,
        "tournaments.result": other_result,
        "tournaments.stage": other_stage,
        "tournaments.registration": other_registration,
        "preferans.game": other_game,
        "preferans.seat": other_game.seats.order_by("pk").first(),
        "preferans.deal": other_game.deals.order_by("pk").first(),
        "dirs.dirsrating": other_dirs_rating,
        "dirs.dirsgame": dirs_games[them.pk],
    }
    versions = {
        label: obj.history.order_by("history_date").first().history_id
        for label, obj in {**own, "tournaments.tournament:other": other_t}.items()
        if hasattr(obj, "history")
    }
    versions["tournaments.tournament:own"] = own_t.history.order_by("history_date").first().history_id
    return World(me=me, other_organiser=them, staff=staff, own=own, other=other, versions=versions)


MODEL_URL = re.compile(r"^(?P<app>[a-z_]+)/(?P<model>[a-z]+)/")


def url_for(world: World, key: str, route: str, role: str) -> str:
    """The address of ``route`` for this role: the organiser's own object or another organiser's."""
    objects = world.other if role == "other" else world.own
    if key.startswith(AUTOCOMPLETE):
        source, name, _target = _autocomplete_target(key)
        return (
            f"/admin/autocomplete/?term=&app_label={source._meta.app_label}&model_name={source._meta.model_name}"
            f"&field_name={name}"
        )
    if ACTION in key:  # an action: the changelist
        key = key.split(ACTION, 1)[0]
        route = next(r for k, r in admin_patterns() if k == key)
    found = MODEL_URL.match(route)
    obj = None
    if found:
        label = f"{found['app']}.{found['model']}"
        obj = objects.get(label)
    path = route
    if "^([^/]+)/history/([^/]+)/$" in path:
        label = f"{found['app']}.{found['model']}"
        version_key = label
        if label == "tournaments.tournament":
            version_key = f"{label}:{'other' if role == 'other' else 'own'}"
        path = path.replace("^([^/]+)/history/([^/]+)/$", f"{obj.pk}/history/{world.versions[version_key]}/")
    replacements = {
        "<path:object_id>": str(obj.pk) if obj is not None else "0",
        "<int:pk>": str(obj.pk) if obj is not None else "0",
        "<id>": str(obj.pk) if obj is not None else "0",
        "<str:task_id>": "no-such-task",
        "<path:content_type_id>": str(ContentType.objects.get_for_model(objects["federation.player"]).pk),
        "<path:object_id>/": "",
    }
    if key == "view_on_site":
        path = f"r/{replacements['<path:content_type_id>']}/{objects['federation.player'].pk}/"
    for token, value in replacements.items():
        path = path.replace(token, value)
    if key == "app_list":
        path = "federation/"
    if path == "(?P<url>.*)$":
        path = "no-such-page/"
    query = ""
    if key == "autocomplete":
        query = "?term=a&app_label=tournaments&model_name=result&field_name=player"
    return f"/admin/{path}{query}"


def post_data(world: World, key: str, role: str) -> dict:
    """What a POST sends: an action on the role's object, or a payload that would delete or rename if allowed."""
    objects = world.other if role == "other" else world.own
    data = {"post": "yes", "name": "Переименовано", "last_name": "Переименовано", "apply": "1", "reason": "причина"}
    if ACTION in key:
        changelist, action = key.split(ACTION, 1)
        found = MODEL_URL.match(next(r for k, r in admin_patterns() if k == changelist))
        obj = objects[f"{found['app']}.{found['model']}"]
        data.update(action=action, _selected_action=[str(obj.pk)], keep=str(obj.pk))
    elif key.endswith("_changelist"):
        found = MODEL_URL.match(next(r for k, r in admin_patterns() if k == key))
        obj = objects[f"{found['app']}.{found['model']}"]
        data.update(action="delete_selected", _selected_action=[str(obj.pk)])
    elif key == "preferans_game_deal":  # a deal that would be rated (issue 27: −10/5/5 into another's game)
        seats = objects["preferans.game"].seats.order_by("seat", "pk")
        data.update({f"whists_{seat.player_id}": w for seat, w in zip(seats, (-10, 5, 5), strict=True)})
    elif key == "dirs_dirsrating_change":  # another club and rank for the rating's player
        data.update(declared_rank="2d", club="")
    elif key in ("federation_club_add", "federation_club_change"):  # a whole club, its public page's texts included
        data.update(city="Москва", country="RU", meeting_place="Новое место", website="https://club.example/")
    return data


def login_for(client, world: World, role: str) -> None:
    client.logout()
    if role in ("own", "other"):
        client.force_login(world.me)
    elif role == "staff":
        client.force_login(world.staff)


def outcome(response, writes: list[str]) -> str:
    status = response.status_code
    if status >= 500:
        return "5"
    location = response.get("Location", "") if status in (301, 302, 303) else ""
    refused = (
        status in (403, 404, 405)
        or "/admin/login/" in location
        or location.rstrip("/").endswith("/admin")
        or location == "/admin/"
    )
    if refused:
        return "X" if writes else "."
    return "W" if writes else "R"


def probe(client, world: World, key: str, route: str, role: str, method: str) -> tuple[str, str]:
    """Request one cell of the matrix and roll its writes back; returns (outcome, address)."""
    url = url_for(world, key, route, role)
    if ACTION in key and method == "GET":
        return "", url
    with transaction.atomic():
        with CaptureQueriesContext(connection) as queries:
            response = client.get(url) if method == "GET" else client.post(url, post_data(world, key, role))
        writes = [q["sql"] for q in queries.captured_queries if WRITE.match(q["sql"]) and not SESSION.search(q["sql"])]
        transaction.set_rollback(True)
    if key.startswith(AUTOCOMPLETE) and response.status_code == 200 and not writes:
        # The search answers, but does it list the role's object? Another organiser's is not to be found.
        target = (world.other if role == "other" else world.own)[_autocomplete_target(key)[2]]
        listed = {item["id"] for item in response.json()["results"]}
        return ("R" if str(target.pk) in listed else "."), url
    return outcome(response, writes), url
