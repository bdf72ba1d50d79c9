"""A Gorbunov history moves in through ``import_history``; ``show_list`` prints exactly what ``rate`` prints for the
same document; a second import changes nothing; a bad file saves nothing; ``export_history`` gives the history back.
"""

import datetime as dt
import random

import pytest

from federation.models import Player
from ratings.models import RatingChange, RatingList, RatingSnapshot, StartingRating
from tournaments.models import Result, Tournament

from .conftest import rate_output

pytestmark = pytest.mark.django_db


def worked_example_a(place: int, tournament_format: str = "constructed") -> dict:
    """rules/gorbunov.md, example A: U = 12, Rs = 190, Rt = 130 (the other eleven hold 1370 between them), K = 4."""
    others = {f"p{i}": 125 for i in range(10)} | {"p10": 120}
    field = [p for p in others]
    field.insert(place - 1, "x")
    return {
        "system": "gorbunov",
        "ratings": {"x": 190, **others},
        "options": {"sealed_cap": True},
        "tournaments": [
            {
                "id": "A",
                "date": "2019-03-07",
                "k": 4,
                "format": tournament_format,
                "results": [{"player": p, "place": i + 1} for i, p in enumerate(field)],
            }
        ],
    }


def worked_example_b(place: int) -> dict:
    """Example B: U = 16, Rs = 150, Rt = 230 (the other fifteen hold 3530), K = 4."""
    others = {f"q{i}": 235 for i in range(14)} | {"q14": 240}
    field = list(others)
    field.insert(place - 1, "x")
    return {
        "system": "gorbunov",
        "ratings": {"x": 150, **others},
        "tournaments": [
            {
                "id": "B",
                "date": "2019-03-07",
                "k": 4,
                "format": "constructed",
                "results": [{"player": p, "place": i + 1} for i, p in enumerate(field)],
            }
        ],
    }


@pytest.mark.parametrize(
    ("doc", "delta"),
    [
        (worked_example_a(1), 37),
        (worked_example_a(2), 23),
        (worked_example_a(6), -15),
        (worked_example_a(10), -47),
        (worked_example_a(10, "sealed"), -45),
        (worked_example_b(1), 108),
        (worked_example_b(4), 68),
        (worked_example_b(12), 4),
        (worked_example_b(13), -4),
    ],
)
def test_each_worked_example_goes_in_and_show_list_prints_what_rate_prints(doc, delta, import_doc, show_list):
    import_doc(doc)
    shown = show_list("gorbunov")
    assert shown == rate_output(doc)
    change = next(c for c in shown["changes"] if c["player"] == "x")
    assert change["delta"] == delta


def generated_history(seed: int = 7, *, players: int = 40, tournaments: int = 30) -> dict:
    """Weeks of tournaments of every format and K, some too small to rate, some with their own optional rules."""
    rng = random.Random(seed)
    ids = [f"m{i:03d}" for i in range(players)]
    start = dt.date(2019, 1, 7)
    items = []
    for index in range(tournaments):
        size = rng.choice([3, 4, 6, 8, 9, 12, 16])
        field = rng.sample(ids, size)
        item = {
            "id": f"t{index:03d}",
            "date": (start + dt.timedelta(days=rng.randrange(0, 120))).isoformat(),
            "k": rng.choice([1, 2, 4, 8]),
            "format": rng.choice(["constructed", "sealed", "draft", "limited"]),
            "name": f"Кубок {index}",
            "results": [{"player": p, "place": i + 1} for i, p in enumerate(field)],
        }
        if index % 5 == 0:
            item["sqrt_rule"] = index % 10 == 0
        if index % 7 == 0:
            item["sealed_cap"] = False
        items.append(item)
    return {
        "system": "gorbunov",
        "ratings_date": "2019-01-01",
        "ratings": {p: rng.randrange(100, 400) for p in ids[: players // 2]},
        "options": {"sqrt_rule": True},
        "players": [{"id": "m000", "name": "Иванова Анна", "name_latin": "Ivanova Anna", "city": "Тверь"}],
        "tournaments": items,
    }


def test_a_generated_history_agrees_with_rate_as_of_every_week(import_doc, show_list):
    doc = generated_history()
    import_doc(doc)
    assert show_list("gorbunov") == rate_output(doc)
    rating_list = RatingList.objects.get(slug="gorbunov")
    for as_of in RatingSnapshot.objects.filter(rating_list=rating_list).values_list("as_of", flat=True)[::5]:
        earlier = {**doc, "tournaments": [t for t in doc["tournaments"] if t["date"] < as_of.isoformat()]}
        assert show_list("gorbunov", "--as-of", (as_of + dt.timedelta(days=3)).isoformat()) == rate_output(earlier)


def test_starting_ratings_are_dated_and_names_are_given_or_placeholders(import_doc):
    import_doc(generated_history())
    rows = StartingRating.objects.filter(rating_list__slug="gorbunov")
    assert rows.count() == 20
    assert set(rows.values_list("list_date", flat=True)) == {dt.date(2019, 1, 1)}
    anna = Player.objects.get(external_id="m000")
    assert (anna.last_name, anna.first_name, anna.city, anna.last_name_latin) == ("Иванова", "Анна", "Тверь", "Ivanova")
    other = Player.objects.get(external_id="m001")
    assert other.full_name == "Игрок m001"
    assert other.full_name_latin == "Player m001"
    assert Tournament.objects.get(external_id="t001").name == "Кубок 1"


def test_importing_twice_changes_nothing(import_doc):
    doc = generated_history()
    import_doc(doc)
    counts = (Player.objects.count(), Tournament.objects.count(), Result.objects.count(), RatingChange.objects.count())
    snapshots = list(RatingSnapshot.objects.order_by("pk").values_list("pk", "as_of"))
    again = import_doc(doc)
    assert set(again["created"].values()) == {0}
    assert again["rebuilt"] == []
    assert counts == (
        Player.objects.count(),
        Tournament.objects.count(),
        Result.objects.count(),
        RatingChange.objects.count(),
    )
    assert snapshots == list(RatingSnapshot.objects.order_by("pk").values_list("pk", "as_of"))


def test_a_file_with_errors_names_every_error_and_saves_nothing(import_fails):
    doc = generated_history()
    doc["ratings"]["m001"] = 50
    doc["tournaments"][2]["k"] = 0
    doc["tournaments"][4]["results"][1]["place"] = 1
    doc["tournaments"][5]["format"] = "booster"
    doc["tournaments"][6]["date"] = "2019-02-30"
    doc["tournaments"][7]["id"] = "t000"
    doc["players"].append({"id": "m002", "country": "Russia"})
    lines = import_fails(doc)
    assert lines == [
        "ratings.m001: 50 is below the floor of 100",
        "tournaments[2].k: 0 is not a positive whole number",
        "tournaments[4].results[1].place: 1 is also the place of results[0]; ties are refused",
        "tournaments[6].date: '2019-02-30' is not a date (YYYY-MM-DD)",
        'tournaments[7].id: "t000" is also tournaments[0]',
        "players[1].country: 'Russia' is not a two-letter code",
        "tournaments[5].format: 'booster': the list takes only constructed, limited, sealed, draft, combined, arena",
    ]
    assert not Player.objects.exists()
    assert not Tournament.objects.exists()
    assert not StartingRating.objects.exists()


def test_a_tournament_imported_before_with_other_results_is_refused(import_doc, import_fails):
    doc = generated_history()
    import_doc(doc)
    doc["tournaments"][3]["results"].reverse()
    assert import_fails(doc) == [
        'tournaments[3].id: "t003" was imported before with other data; correct it in the admin, not by import'
    ]


def test_the_export_is_the_history_and_the_round_trip_is_exact(import_doc, export_history, show_list):
    doc = generated_history()
    import_doc(doc)
    exported = export_history("gorbunov")
    assert rate_output(exported) == show_list("gorbunov") == rate_output(doc)
    # Moving out and in again: the exported document into an empty site gives the same document back.
    RatingSnapshot.objects.all().delete()
    RatingChange.objects.all().delete()
    StartingRating.objects.all().delete()
    Result.objects.all().delete()
    Tournament.objects.all().delete()
    Player.objects.all().delete()
    import_doc(exported)
    assert export_history("gorbunov") == exported
    assert show_list("gorbunov") == rate_output(exported)


def test_ids_longer_than_a_federation_id_are_named_and_nothing_is_saved(import_fails):
    doc = generated_history()
    doc["tournaments"][0]["results"][0]["player"] = "x" * 101
    doc["tournaments"][1]["id"] = "t" * 101
    assert import_fails(doc) == [
        "tournaments[0].results[0].player: longer than 100 characters",
        "tournaments[1].id: longer than 100 characters",
    ]
    assert not Player.objects.exists()


def test_an_export_of_tournaments_born_on_the_site_imports_back_unchanged(import_doc, export_history):
    from tests.factories import PlayerFactory, ResultFactory, TournamentFactory

    tournament = TournamentFactory(start_date=dt.date(2019, 3, 7), k=2)
    players = [PlayerFactory() for _ in range(4)]
    for place, player in enumerate(players, start=1):
        ResultFactory(tournament=tournament, player=player, place=place)
    exported = export_history("gorbunov")
    assert exported["tournaments"][0]["id"] == f"site-{tournament.pk}"
    assert exported["tournaments"][0]["results"][0]["player"] == f"site-{players[0].pk}"
    counts = (Player.objects.count(), Tournament.objects.count(), Result.objects.count())
    again = import_doc(exported)
    assert again["created"] == {"players": 0, "starting ratings": 0, "tournaments": 0}
    assert counts == (Player.objects.count(), Tournament.objects.count(), Result.objects.count())


def test_rate_on_the_export_agrees_with_the_site_until_a_late_result_and_again_after_a_rebuild(
    import_doc, export_history, show_list
):
    """Issue 27, the README's "Agreement": a tournament approved after its week was published is rated in the next
    publication with the ratings of its own week, and its change lands in that publication (rules/gorbunov.md,
    "Decision (late results)"); ``rate`` reads the export's tournaments in date order and has its change land in the
    week it was played, so the two differ for the players it moved (``rate``'s contract has no way to say "rated
    later"). A rebuild rates every tournament in its own week, as ``rate`` does: then they agree again."""
    from ratings.gorbunov.services import gorbunov_publish, gorbunov_rebuild, publication_monday
    from tournaments.models import Discipline, TournamentStatus

    players = [f"p{i}" for i in range(6)]

    def tournament(key, day, order):
        return {
            "id": key,
            "date": day,
            "k": 4,
            "format": "constructed",
            "results": [{"player": p, "place": n + 1} for n, p in enumerate(order)],
        }

    doc = {
        "system": "gorbunov",
        "ratings": {p: 150 + 20 * n for n, p in enumerate(players)},
        "tournaments": [
            tournament("t1", "2019-03-06", players),
            tournament("t3", "2019-03-20", players[::-1]),
        ],
    }
    import_doc(doc)
    exported = export_history("gorbunov")
    assert rate_output(exported) == show_list("gorbunov")  # no late result: they agree

    # A tournament of the first week, approved only now: the next publication rates it, late.
    rating_list = RatingList.objects.get(slug="gorbunov")
    late = Tournament.objects.create(
        name="Опоздавший",
        discipline=Discipline.CARD_GAMES,
        start_date=dt.date(2019, 3, 7),
        end_date=dt.date(2019, 3, 7),
        card_format="constructed",
        k=4,
        status=TournamentStatus.APPROVED,
    )
    for place, person in enumerate(players[::-1], start=1):
        Result.objects.create(tournament=late, player=Player.objects.get(external_id=person), place=place)
    gorbunov_publish(rating_list_id=rating_list.pk, week=publication_monday() + dt.timedelta(days=7))
    exported = export_history("gorbunov")
    assert len(exported["tournaments"]) == 3
    site, by_rate = show_list("gorbunov"), rate_output(exported)
    assert site["ratings"] != by_rate["ratings"]

    gorbunov_rebuild(rating_list_id=rating_list.pk)
    assert show_list("gorbunov")["ratings"] == rate_output(export_history("gorbunov"))["ratings"]


def test_a_past_week_reads_from_the_half_year_that_holds_everyone(import_doc):
    """Issue 29: the first publication of January and of July holds every player, so a past week's page reads half a
    year of changes at most; every week's list, rank by rank, is still each player's newest rating up to it."""
    from ratings.gorbunov.selectors import list_rows

    import_doc(generated_history())
    rating_list = RatingList.objects.get(slug="gorbunov")
    snapshots = list(RatingSnapshot.objects.filter(rating_list=rating_list).order_by("as_of"))
    whole = [s for s in snapshots if s.summary.get("whole")]
    assert whole
    assert all(s.as_of.month in (1, 7) and s.as_of.day <= 7 for s in whole)
    players = set()
    ratings: dict[int, int] = {}
    for snapshot in snapshots:
        for player_id, rating in snapshot.entries.values_list("player_id", "rating"):
            ratings[player_id] = int(rating)
        players |= set(ratings)
        if snapshot.summary.get("whole"):
            assert set(snapshot.entries.values_list("player_id", flat=True)) == players
        newest = snapshot.pk == snapshots[-1].pk
        rows = list_rows(snapshot=snapshot, newest=newest)
        shown = {entry.player_id: (int(entry.rating), rows.rank(entry)) for entry in rows.entries}
        ordered = sorted(ratings.values(), reverse=True)
        expected = {pid: (rating, ordered.index(rating) + 1) for pid, rating in ratings.items()}
        assert shown == expected, snapshot.as_of
