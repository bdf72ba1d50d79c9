"""The worked examples of `rules/mahjong.md` through the site, and each eligibility rule of each list through the
tournament section's service (``tournament_context``)."""

import datetime

import pytest

from ratings.mahjong import services
from ratings.mahjong.sections import tournament_context
from tests.factories import PlayerFactory, ResultFactory
from tests.ratings.mahjong.factories import explained_by_the_full_list, mahjong_tournament

pytestmark = pytest.mark.django_db

TODAY = datetime.date(2025, 6, 1)


@pytest.fixture(autouse=True)
def _lists():
    services.mahjong_setup_defaults()


def _status(tournament, today=TODAY, language="en"):
    context = tournament_context(tournament=tournament, today=today, language=language)
    return {status["list"].slug: status["reasons"] for status in context["statuses"]}


def _calc(client, **query):
    response = client.get("/en/ratings/mahjong/calculator.json", query)
    assert response.status_code == 200, response.content
    return response.json()


# --- worked examples -------------------------------------------------------------------------------------------


def test_base_rank_100_players_25th_place(client):
    data = _calc(client, players=100, hanchans=8)
    assert data["places"][24]["r"] == 757.58
    assert data["places"][0]["r"] == 1000.0
    assert data["places"][99]["r"] == 0.0


@pytest.mark.parametrize(
    ("players", "k_players"),
    [(20, 0.5), (28, 0.7), (30, 0.7), (32, 0.8), (80, 1.75), (100, 2.0), (124, 2.26), (140, 2.3)],
)
def test_k_players_checks(client, players, k_players):
    assert _calc(client, players=players, hanchans=10)["k_players"] == k_players


def test_ten_hanchans_give_1_90(client):
    assert _calc(client, players=20, hanchans=10)["k_hanchans"] == 1.9


def test_cutoff_28_players_two_stages(client):
    data = _calc(client, players=28, stages="10/28, 10/8")
    assert data["w_avg"] == 2.16
    assert data["places"][0]["w"] == 3.18
    assert data["places"][7]["w"] == 3.18
    assert data["places"][8]["w"] == 2.73


def test_cutoff_32_players_four_stages(client):
    data = _calc(client, players=32, stages="5/32,5/16,5/8,5/4")
    assert data["w_avg"] == 1.64
    assert [data["places"][i]["w"] for i in (31, 15, 7, 0)] == [2.12, 2.57, 2.87, 3.02]


def test_cutoff_tournament_in_the_database_and_its_section():
    players = [PlayerFactory() for _ in range(28)]
    played = [20] * 8 + [10] * 20
    t = mahjong_tournament(players=players, hanchans=20, stages=[(10, 28), (10, 8)], played=played, end=TODAY)
    context = tournament_context(tournament=t, today=TODAY, language="en")
    assert context["coefficients"].w_avg == 2.16
    assert context["coefficients"].finalist_w == 3.18
    assert [row["w"] for row in context["stages"]] == [2.73, 3.18]
    assert context["problems"] == []


def test_age_coefficient_steps_on_the_anniversary():
    t = mahjong_tournament(end=datetime.date(2024, 3, 10))
    context = tournament_context(tournament=t, today=datetime.date(2025, 3, 10), language="en")
    rr = next(s for s in context["statuses"] if s["list"].slug == "mahjong-rr")
    assert rr["counts"]
    assert rr["a"] == 85.71
    context = tournament_context(tournament=t, today=datetime.date(2025, 3, 9), language="en")
    assert next(s for s in context["statuses"] if s["list"].slug == "mahjong-rr")["a"] == 100.0
    assert _status(t, today=datetime.date(2026, 3, 10))["mahjong-rr"] == ["older than two years"]


def test_list_numbers_match_the_formula():
    """Two players, two tournaments of 16: part A pads to 5 tournaments, part B divides by MAXK1..4 (+1 +1)."""
    a, b = PlayerFactory(), PlayerFactory()
    rest = [PlayerFactory() for _ in range(14)]
    mahjong_tournament(players=[a, b, *rest], end=datetime.date(2025, 1, 5))  # W = 0.4 + 1.6 = 2.00
    mahjong_tournament(players=[b, a, *rest], end=datetime.date(2025, 2, 5), hanchans=10)  # W = 0.4 + 1.9 = 2.30
    services.mahjong_daily(today=TODAY)
    from ratings.models import RatingEntry

    entry = RatingEntry.objects.get(snapshot__rating_list__slug="mahjong-rr", player=a)
    # deltas: 2.00 * 1000 = 2000.00 and 2.30 * 933.33 = 2146.67; part A = 4146.67 / (2.00 + 2.30 + 3) = 568.04
    assert entry.details["part_a"] == 568.04
    # part B = 4146.67 / (2.30 + 2.00 + 1 + 1) = 658.20; rating = (568.036... + 658.201...) / 2 = 613.12
    assert entry.details["part_b"] == 658.2
    assert str(entry.rating) == "613.1200"
    assert entry.rank == 2  # b: 2300.00 + 1866.67 is more


# --- eligibility, list by list --------------------------------------------------------------------------------


def test_rr_counts_an_accredited_open_tournament_of_16_and_4_hanchans():
    t = mahjong_tournament(n=16, hanchans=4, end=TODAY)
    assert _status(t) == {"mahjong-rr": [], "mahjong-crr": [], "mahjong-online": ["not an online tournament"]}


def test_rr_needs_16_players():
    t = mahjong_tournament(n=15, end=TODAY)
    assert _status(t)["mahjong-rr"] == ["fewer than 16 players"]
    assert _status(t)["mahjong-crr"] == []


def test_rr_needs_4_hanchans_and_crr_3():
    t = mahjong_tournament(n=16, hanchans=3, end=TODAY)
    assert _status(t)["mahjong-rr"] == ["fewer than 4 hanchans"]
    assert _status(t)["mahjong-crr"] == []
    t2 = mahjong_tournament(n=16, hanchans=2, end=TODAY)
    assert _status(t2)["mahjong-crr"] == ["fewer than 3 hanchans"]


def test_crr_needs_12_players():
    t = mahjong_tournament(n=11, end=TODAY)
    assert _status(t)["mahjong-crr"] == ["fewer than 12 players"]
    assert _status(mahjong_tournament(n=12, end=TODAY))["mahjong-crr"] == []


def test_rr_needs_accreditation_and_openness_crr_does_not():
    t = mahjong_tournament(n=16, end=TODAY, accredited=False, is_open=False)
    assert _status(t)["mahjong-rr"] == ["not accredited by the federation", "not open"]
    assert _status(t)["mahjong-crr"] == []


def test_rr_until_2017_needs_only_16_players():
    t = mahjong_tournament(n=16, hanchans=2, end=datetime.date(2017, 12, 31), accredited=False, is_open=False)
    assert _status(t, today=datetime.date(2018, 6, 1))["mahjong-rr"] == []
    t2 = mahjong_tournament(n=16, hanchans=2, end=datetime.date(2018, 1, 1), accredited=False, is_open=False)
    assert _status(t2, today=datetime.date(2018, 6, 1))["mahjong-rr"] == [
        "fewer than 4 hanchans",
        "not accredited by the federation",
        "not open",
    ]


def test_ema_tournament_abroad_counts_with_a_player_of_the_country():
    foreigners = [PlayerFactory(country="DE") for _ in range(15)]
    ours = PlayerFactory(country="RU")
    t = mahjong_tournament(players=[ours, *foreigners], end=TODAY, country="DE", ema=True, accredited=False)
    assert _status(t)["mahjong-rr"] == []
    assert _status(t)["mahjong-crr"] == []
    without = mahjong_tournament(players=foreigners, n=16, end=TODAY, country="DE", ema=True)
    assert _status(without)["mahjong-rr"] == ["an EMA tournament abroad without a player from RU"]


def test_club_tournament_abroad_never_counts():
    t = mahjong_tournament(players=[PlayerFactory() for _ in range(16)], end=TODAY, country="DE", ema=False)
    assert _status(t)["mahjong-rr"] == ["a tournament abroad without EMA status"]
    assert _status(t)["mahjong-crr"] == ["a tournament abroad without EMA status"]


def test_online_list_takes_online_tournaments_of_12_and_3_hanchans():
    t = mahjong_tournament(n=12, hanchans=3, end=TODAY, online=True, accredited=False, is_open=False)
    status = _status(t)
    assert status["mahjong-online"] == []
    assert status["mahjong-rr"][0] == "an online tournament"
    assert status["mahjong-crr"] == ["an online tournament"]
    small = mahjong_tournament(n=11, hanchans=2, end=TODAY, online=True)
    assert _status(small)["mahjong-online"] == ["fewer than 12 players", "fewer than 3 hanchans"]


def test_online_rank_restricted_from_2021_05_19_when_judged_legitimate():
    staff = __import__("tests.factories", fromlist=["federation_staff"]).federation_staff()
    before = mahjong_tournament(
        n=12, end=datetime.date(2021, 5, 18), online=True, rank_restricted=True, online_platform="tenhou.net"
    )
    assert _status(before, today=datetime.date(2021, 6, 1))["mahjong-online"] == [
        "restricted by rank before 2021-05-19"
    ]
    after = mahjong_tournament(n=12, end=TODAY, online=True, rank_restricted=True, online_platform="Mahjong Soul")
    assert _status(after)["mahjong-online"] == ["rank restriction not judged legitimate"]
    services.mahjong_rank_restriction_judge(tournament=after, user=staff, legitimate=True)
    after.refresh_from_db()
    assert _status(after)["mahjong-online"] == []


def test_online_list_lists_everyone_rr_only_the_country():
    foreigner = PlayerFactory(country="DE")
    ours = PlayerFactory()
    rest = [PlayerFactory() for _ in range(14)]
    for end in (datetime.date(2025, 1, 1), datetime.date(2025, 2, 1)):
        mahjong_tournament(players=[foreigner, ours, *rest], end=end)
        mahjong_tournament(players=[foreigner, ours, *rest], end=end, online=True, name=f"online {end}")
    services.mahjong_daily(today=TODAY)
    from ratings.models import RatingEntry

    online = set(
        RatingEntry.objects.filter(snapshot__rating_list__slug="mahjong-online").values_list("player_id", flat=True)
    )
    rr = set(RatingEntry.objects.filter(snapshot__rating_list__slug="mahjong-rr").values_list("player_id", flat=True))
    assert foreigner.pk in online
    assert foreigner.pk not in rr
    assert ours.pk in rr
    # The foreigner still counts in N: ours took 2nd of 16 in RR (R = 933.33).
    entry = RatingEntry.objects.get(snapshot__rating_list__slug="mahjong-rr", player=ours)
    assert {score["r"] for score in explained_by_the_full_list(entry)["scores"]} == {933.33}


def test_substitutes_count_in_n_but_get_no_rating():
    players = [PlayerFactory() for _ in range(16)]
    t1 = mahjong_tournament(players=players, end=datetime.date(2025, 1, 1))
    t2 = mahjong_tournament(players=players[:15], n=17, end=datetime.date(2025, 2, 1))
    ResultFactory(tournament=t2, player=players[15], place=16, substitute=True)
    ResultFactory(tournament=t2, player=None, participant_name="Гость", place=17)
    services.mahjong_daily(today=TODAY)
    from ratings.models import RatingEntry

    entries = RatingEntry.objects.filter(snapshot__rating_list__slug="mahjong-rr")
    # The substitute's second result gives no rating: with one tournament counted, they are not listed.
    assert not entries.filter(player=players[15]).exists()
    assert t1.pk
    first = entries.get(player=players[0])
    assert {s["players"] for s in explained_by_the_full_list(first)["scores"]} == {16, 17}


def test_tournament_section_in_russian_gives_reasons_in_russian():
    t = mahjong_tournament(n=15, end=TODAY)
    assert _status(t, language="ru")["mahjong-rr"] == ["меньше 16 игроков"]


def test_the_reasons_are_in_the_language_asked_whatever_language_is_active():
    """A reason the site writes itself ("older than two years") follows the ``language`` asked, as the engine's do: a
    Russian request active in the same process no longer leaks into an English answer."""
    from django.utils import translation

    t = mahjong_tournament(n=16, end=datetime.date(2024, 3, 10))
    with translation.override("ru"):
        assert _status(t, today=datetime.date(2026, 3, 10))["mahjong-rr"] == ["older than two years"]
    with translation.override("en"):
        assert _status(t, today=datetime.date(2026, 3, 10), language="ru")["mahjong-rr"] == ["старше двух лет"]
