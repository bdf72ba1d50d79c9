from collections import defaultdict
from io import StringIO

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command

from federation.demo import feminine_surname, transliterate
from federation.models import BotLevel, Club, Player, normalize_name
from federation.roles import FEDERATION_STAFF, ORGANISERS
from tournaments.models import Discipline, Result, Stage, Tournament, TournamentStatus
from tournaments.services import tournament_result_problems

SMALL = ["--players", "60", "--years", "1", "--force"]


def run(*args: str) -> str:
    out = StringIO()
    call_command("demo_data", *SMALL, *args, stdout=out)
    return out.getvalue()


def snapshot():
    """Names and places in creation order: what must not change between two runs with the same seed."""
    players = list(Player.objects.order_by("pk").values_list("last_name", "first_name", "last_name_latin", "city"))
    places = list(
        Result.objects.order_by("tournament__end_date", "tournament__name", "place").values_list(
            "tournament__name", "tournament__end_date", "player__last_name", "participant_name", "place"
        )
    )
    return players, places


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
def test_demo_data_is_deterministic_and_idempotent():
    output = run()
    assert "Card games:" in output
    assert "Mahjong:" in output
    assert "LOCAL DEMO ONLY" in output
    first = snapshot()
    counts = (Player.objects.count(), Club.objects.count(), Tournament.objects.count(), Result.objects.count())
    assert counts[0] == 60 + 3  # and one bot per level
    assert "nothing done" in run()
    assert (Player.objects.count(), Club.objects.count(), Tournament.objects.count(), Result.objects.count()) == counts
    run("--reset")
    assert snapshot() == first
    run("--reset", "--seed", "7")
    assert snapshot()[0] != first[0]


@pytest.mark.django_db
def test_demo_data_content():
    run()
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

    by_discipline = defaultdict(list)
    for tournament in Tournament.objects.prefetch_related("results"):
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
    for tournament in Tournament.objects.all():
        assert tournament_result_problems(tournament=tournament) == []


@pytest.mark.django_db
def test_mahjong_cut_off_results_match_the_stages():
    run()
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
def test_users_groups_and_statuses():
    output = run()
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
    assert "organiser" in output
    statuses = set(Tournament.objects.values_list("status", flat=True))
    assert statuses == set(TournamentStatus.values)
    assert not Tournament.objects.filter(status=TournamentStatus.APPROVED, approved_by__isnull=True).exists()
    assert not Tournament.objects.exclude(status=TournamentStatus.APPROVED).filter(organiser__isnull=True).exists()


@pytest.mark.django_db
def test_demo_data_refuses_without_debug_unless_forced(settings):
    settings.DEBUG = False
    with pytest.raises(CommandError, match="known passwords"):
        call_command("demo_data", "--players", "60", "--years", "1", stdout=StringIO())
    assert not Player.objects.exists()
