"""The demo federation that ``make run`` loads: deterministic, idempotent, every rating fed through the services.

The demo is built once for this module (``demo_output``) inside a transaction that is rolled back at the end; each
test's own changes are rolled back after it as usual, so every test starts from the same freshly built demo.
"""

from collections import defaultdict
from io import StringIO

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.db import transaction

from federation import demo
from federation.demo.names import feminine_surname, transliterate
from federation.models import BotLevel, Club, Player, normalize_name
from federation.roles import FEDERATION_STAFF, ORGANISERS
from ratings.dirs.models import DirsGame, DirsRating
from ratings.models import Engine, RatingChange, RatingEntry, RatingSnapshot
from ratings.preferans.models import Deal, Game, PreferansRating
from tournaments.go.models import Board, GoTournament, Registration, Round, StandingRow
from tournaments.models import Discipline, GoSystem, Result, Stage, Tournament, TournamentStatus
from tournaments.models import Registration as TournamentRegistration
from tournaments.services import tournament_result_problems

SMALL = ["--players", "60", "--years", "1", "--force"]


def run(*args: str) -> str:
    out = StringIO()
    call_command("demo_data", *SMALL, *args, stdout=out)
    return out.getvalue()


@pytest.fixture(scope="module")
def demo_output(django_db_setup, django_db_blocker):
    """What ``demo_data`` printed while building the module's demo."""
    with django_db_blocker.unblock(), transaction.atomic():
        yield run()
        transaction.set_rollback(True)


def snapshot():
    """Names and places in creation order: what must not change between two runs with the same seed."""
    players = list(Player.objects.order_by("pk").values_list("last_name", "first_name", "last_name_latin", "city"))
    places = list(
        Result.objects.order_by("tournament__end_date", "tournament__name", "place").values_list(
            "tournament__name", "tournament__end_date", "player__last_name", "participant_name", "place"
        )
    )
    return players, places


def ratings():
    """Every rating the demo fed through the services, by names: the same seed must give the same numbers."""
    entries = sorted(
        (e.snapshot.rating_list.slug, str(e.snapshot.as_of), e.player.full_name, e.rank, str(e.rating))
        for e in RatingEntry.objects.select_related("snapshot__rating_list", "player")
    )
    dirs = sorted(DirsRating.objects.values_list("player__last_name", "player__first_name", "rating", "games"))
    standings = sorted(
        StandingRow.objects.values_list("round__tournament__tournament__name", "round__number", "registration__name",
                                        "place", "level")
    )  # fmt: skip
    preferans = sorted(
        (r.player.full_name, round(r.rating, 6), r.league, r.deals)
        for r in PreferansRating.objects.select_related("player")
    )
    return entries, dirs, standings, preferans


@pytest.mark.parametrize(
    ("cyrillic", "latin"),
    [("Щукин", "Shchukin"), ("Ёлкин", "Elkin"), ("Юлия", "Iuliia"), ("Кузнецов", "Kuznetsov"), ("Дмитрий", "Dmitrii")],
)
def test_transliteration_is_passport_style(cyrillic, latin):
    assert transliterate(cyrillic) == latin


@pytest.mark.parametrize(
    ("male", "female"),
    [("Иванов", "Иванова"), ("Соловьёв", "Соловьёва"), ("Ильин", "Ильина"), ("Вишневский", "Вишневская"),
     ("Шевченко", "Шевченко"), ("Черных", "Черных")],
)  # fmt: skip
def test_feminine_surname(male, female):
    assert feminine_surname(male) == female


@pytest.mark.django_db
def test_demo_data_is_deterministic_and_idempotent(demo_output):
    assert "Card games:" in demo_output
    assert "Mahjong:" in demo_output
    assert "LOCAL DEMO ONLY" in demo_output
    first = snapshot()
    first_ratings = ratings()
    counts = row_counts()
    assert counts[0] == 60 + 3  # and one bot per level
    assert "nothing generated" in run()
    assert row_counts() == counts
    run("--reset")
    assert snapshot() == first
    assert ratings() == first_ratings
    assert row_counts() == counts
    run("--reset", "--seed", "7")
    assert snapshot()[0] != first[0]


def row_counts() -> tuple[int, ...]:
    models = [Player, Club, Tournament, Result, RatingSnapshot, RatingEntry, RatingChange, DirsRating, DirsGame,
              GoTournament, Registration, Round, Board, StandingRow, Game, Deal, PreferansRating]  # fmt: skip
    return tuple(model.objects.count() for model in models)


@pytest.mark.django_db
def test_demo_feeds_every_rating_through_the_services(client, demo_output):
    output = demo_output
    for step in ("Gorbunov:", "Mahjong:", "Go DIRS club rating:", "Go tournaments:", "Preferans:"):
        assert step in output
    assert " s)." in output  # each step says how long it took

    gorbunov = RatingSnapshot.objects.filter(rating_list__slug="gorbunov").order_by("-as_of").first()
    assert str(gorbunov.as_of) == "2026-11-30"
    assert gorbunov.entries.count() > 10
    change = RatingChange.objects.filter(rating_list__slug="gorbunov").first()
    assert change.explanation("en").startswith("U = ")  # written by the engine from the numbers kept (issue 29)

    rr = RatingSnapshot.objects.filter(rating_list__engine=Engine.MAHJONG_RR).order_by("-as_of").first()
    assert rr is not None
    assert rr.entries.exists()
    assert RatingSnapshot.objects.filter(rating_list__engine=Engine.MAHJONG_RR).count() > 3

    assert set(GoTournament.objects.values_list("tournament__go_system", flat=True)) == {
        GoSystem.DIRS,
        GoSystem.PROFS,
        GoSystem.FUS,
    }
    for go in GoTournament.objects.select_related("tournament"):
        rounds = list(go.rounds.order_by("number"))
        assert len(rounds) == go.tournament.rounds
        assert all(r.is_published and r.completed for r in rounds)
        assert not Board.objects.filter(round__tournament=go, result="").exists()
        assert rounds[-1].standings.count() == go.registrations.count()
        assert go.tournament.status == TournamentStatus.APPROVED
        assert go.tournament.results.count() == go.registrations.count()
    assert DirsRating.objects.count() >= 10
    assert DirsGame.objects.filter(rated=True, board__isnull=True).exists()
    assert DirsGame.objects.filter(rated=False).exists()  # a few played on the wrong handicap
    assert DirsGame.objects.filter(board__isnull=False).exists()  # the DIRS tournament's games

    humans = PreferansRating.objects.filter(player__is_bot=False)
    assert humans.filter(league="pro").exists()
    assert humans.filter(league="amateur").exists()
    assert Game.objects.filter(seats__player__is_bot=True).exists()
    assert Game.objects.filter(server__isnull=False).exists()
    assert Game.objects.filter(server__isnull=True).exists()
    for deal in Deal.objects.prefetch_related("results")[:200]:
        assert sum(r.whists for r in deal.results.all()) == 0
    assert "token" not in output.lower()

    # The pages a newcomer opens after `make run` show rows.
    go = GoTournament.objects.get(tournament__go_system=GoSystem.FUS)
    player = RatingEntry.objects.filter(snapshot__rating_list__slug="gorbunov").order_by("-snapshot__as_of", "rank")
    top = player.first().player
    for url in ("/en/ratings/cards/gorbunov/", "/en/ratings/mahjong/mahjong-rr/", f"/en/go/{go.pk}/standings/",
                "/en/preferans/", f"/en/players/{top.pk}/", "/en/go/dirs/"):  # fmt: skip
        response = client.get(url)
        assert response.status_code == 200, url
        assert response.content.decode().count("<tr") > 3, url
    assert top.last_name_latin in client.get("/en/ratings/cards/gorbunov/").content.decode()


@pytest.mark.django_db
def test_demo_data_content(demo_output):
    players = Player.objects.filter(is_bot=False)
    for player in players:
        assert player.search_name == normalize_name(
            f"{player.last_name} {player.first_name} {player.last_name_latin} {player.first_name_latin}"
        )
        if player.country == "RU":
            assert player.last_name_latin == transliterate(player.last_name)
    assert players.exclude(country="RU").exists()
    assert BotLevel.objects.count() == 3
    assert Player.objects.filter(is_bot=True, bot_level__isnull=False).count() == 3
    # A few clubs' pages say where they meet and whom to ask, in both languages (issue 28); the others say nothing.
    described = Club.objects.exclude(meeting_place="")
    assert described.count() == 3
    assert all(c.meeting_place_en and c.contact and c.contact_en and c.website for c in described)
    assert Club.objects.filter(meeting_place="").exists()

    # The season ahead (issue 30) is announced, not played: the played ones are those up to the demo's today.
    played = Tournament.objects.filter(end_date__lte=demo.DEFAULT_TODAY)
    by_discipline = defaultdict(list)
    for tournament in played.prefetch_related("results"):
        by_discipline[tournament.discipline].append(tournament)
    assert set(by_discipline) == set(Discipline.values)

    for tournament in by_discipline[Discipline.CARD_GAMES]:
        places = sorted(r.place for r in tournament.results.all())
        assert places == list(range(1, len(places) + 1))
        assert 6 <= len(places) <= 40
        assert tournament.k in (1, 2, 4, 8, 16)
    for tournament in by_discipline[Discipline.MAHJONG]:
        assert tournament.participants == len(tournament.results.all())
        assert tournament.participants % 4 == 0
        assert tournament.hanchans >= 4
    for tournament in played:
        assert tournament_result_problems(tournament=tournament) == []


def test_demo_has_a_season_ahead(demo_output, client):
    """A dozen announced tournaments across the disciplines, some with players registered, one full with a waiting
    list, one moved, one cancelled; the calendar shows them."""
    ahead = Tournament.objects.filter(end_date__gt=demo.DEFAULT_TODAY)
    assert ahead.count() == 12
    assert set(ahead.values_list("discipline", flat=True)) == set(Discipline.values)
    assert set(ahead.values_list("announcement", flat=True)) == {"approved"}
    assert set(ahead.values_list("schedule", flat=True)) == {"", "moved", "cancelled"}
    registrations = TournamentRegistration.objects.filter(tournament__in=ahead)
    assert registrations.filter(status="registered").count() > 40
    (full,) = Tournament.objects.filter(registrations__status="waiting").distinct()
    assert full.registrations.filter(status="registered").count() == full.max_players
    page = client.get("/en/calendar/").content.decode()
    assert "Draft-turnir «Snezhnyi»" in page  # no English name typed: transliterated


@pytest.mark.django_db
def test_mahjong_cut_off_results_match_the_stages(demo_output):
    cut_off = Tournament.objects.filter(stages__isnull=False).distinct()
    assert cut_off.exists()
    for tournament in cut_off:
        stages = list(Stage.objects.filter(tournament=tournament).order_by("number"))
        assert stages[0].players == tournament.participants
        assert [s.players for s in stages] == sorted((s.players for s in stages), reverse=True)
        assert tournament.hanchans == sum(s.hanchans for s in stages)
        for result in tournament.results.all():
            reached = [s for s in stages if s.players >= result.place]
            assert result.hanchans_played == sum(s.hanchans for s in reached)


@pytest.mark.django_db
def test_users_groups_and_statuses(demo_output):
    users = get_user_model().objects
    admin = users.get(username="admin")
    assert admin.is_superuser
    assert admin.check_password("admin")
    organiser = users.get(username="organiser")
    assert organiser.is_staff
    assert organiser.groups.filter(name=ORGANISERS).exists()
    assert organiser.check_password("organiser")
    staff = users.get(username="staff")
    assert staff.is_staff
    assert staff.groups.filter(name=FEDERATION_STAFF).exists()
    assert staff.has_perm("tournaments.approve_tournament")
    assert "organiser" in demo_output
    statuses = set(Tournament.objects.values_list("status", flat=True))
    assert statuses == set(TournamentStatus.values)
    assert not Tournament.objects.filter(status=TournamentStatus.APPROVED, approved_by__isnull=True).exists()
    assert not Tournament.objects.exclude(status=TournamentStatus.APPROVED).filter(organiser__isnull=True).exists()


@pytest.mark.django_db
def test_a_second_run_generates_nothing_and_shows_the_logins_again(demo_output):
    assert "admin      admin " in demo_output
    users = get_user_model().objects
    staff = users.get(username="staff")
    staff.set_password("something else")
    staff.save()
    again = run()
    assert "nothing generated" in again
    assert "LOCAL DEMO ONLY" in again
    assert "admin      admin " in again
    assert "organiser  organiser " in again
    assert "staff      (password changed since, not shown)" in again
    assert "something else" not in again
