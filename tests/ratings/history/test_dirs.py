"""The DIRS club history moves in through ``import_history``: every game, of any handicap, recorded in order with
its rated flag and reason; ``show_list dirs`` prints exactly what ``rate`` prints; the round trip is exact."""

import random

import pytest

from federation.models import Player
from ratings.dirs.models import DirsGame, DirsRating
from ratings.engines import dirs
from ratings.models import StartingRating

from .conftest import rate_output

pytestmark = pytest.mark.django_db


def worked_streak() -> dict:
    """rules/go.md part 2: 95 with acceleration 3 wins -> 95 -> 98 -> 101 -> 103 -> 105 (acceleration 4); a high-kyu
    streak after a loss +2 +2 +4; a game on 10 stones and one on the wrong komi are recorded, not rated."""
    return {
        "system": "dirs",
        "ratings_date": "2019-01-01",
        "ratings": {"ann": 95, "bob": 95, "cid": 150, "dan": 150, "eve": 40},
        "accelerations": {"ann": 3},
        "games": [
            {"white": "bob", "black": "ann", "winner": "ann", "handicap": 0, "komi": "normal", "date": "2019-02-01"},
            {"white": "cid", "black": "dan", "winner": "cid"},
            {"white": "cid", "black": "dan", "winner": "dan"},
            {"white": "dan", "black": "cid", "winner": "dan"},
            {"white": "cid", "black": "eve", "winner": "eve", "handicap": 10, "komi": "none"},
            {"white": "ann", "black": "bob", "winner": "bob", "handicap": 1, "komi": "normal"},
        ],
    }


def test_the_worked_rules_go_in_and_show_list_prints_what_rate_prints(import_doc, show_list):
    doc = worked_streak()
    import_doc(doc)
    shown = show_list("dirs")
    assert shown == rate_output(doc)
    assert shown["games"][0]["black_after"] == 105
    assert shown["accelerations"]["ann"] == 4
    ten = shown["games"][4]
    assert ten["rated"] is False
    assert "10" in ten["reason"]["en"]
    stored = DirsGame.objects.order_by("id")[4]
    assert (stored.handicap, stored.rated) == (10, False)
    assert StartingRating.objects.get(player__external_id="ann").acceleration == 3


def generated_history(seed: int = 3, players: int = 30, games: int = 300) -> dict:
    rng = random.Random(seed)
    ids = [f"g{i:02d}" for i in range(players)]
    ratings = {p: rng.randrange(0, 260) for p in ids[: players - 3]}
    current = dict(ratings)
    items = []
    for _ in range(games):
        white, black = rng.sample(ids, 2)
        a, b = current.get(white, 0), current.get(black, 0)
        if a < b:
            white, black = black, white
            a, b = b, a
        prescribed = dirs.prescribed_handicap(a, b)
        handicap, komi = prescribed.stones, prescribed.komi
        if rng.random() < 0.15:
            handicap, komi = rng.randrange(0, 14), rng.choice(["normal", "none", "reverse"])
        winner = rng.choice([white, black])
        items.append({"white": white, "black": black, "winner": winner, "handicap": handicap, "komi": komi})
        outcome = rate_output({"system": "dirs", "ratings": current, "games": [items[-1]]})
        current = outcome["ratings"]
    return {"system": "dirs", "ratings": ratings, "accelerations": {ids[0]: 2}, "games": items}


def test_a_generated_history_agrees_with_rate_and_a_second_import_changes_nothing(import_doc, show_list):
    doc = generated_history()
    import_doc(doc)
    assert show_list("dirs") == rate_output(doc)
    counts = (Player.objects.count(), DirsGame.objects.count(), DirsRating.objects.count())
    again = import_doc(doc)
    assert set(again["created"].values()) == {0}
    assert counts == (Player.objects.count(), DirsGame.objects.count(), DirsRating.objects.count())
    # More games later: only those are added, rated from where the site stands.
    longer = {**doc, "games": doc["games"] + generated_history(seed=4)["games"][:50]}
    import_doc(longer)
    assert DirsGame.objects.count() == len(longer["games"])
    assert show_list("dirs") == rate_output(longer)


def test_a_document_that_disagrees_with_the_site_or_itself_saves_nothing(import_doc, import_fails):
    doc = worked_streak()
    bad = {**doc, "ratings": {**doc["ratings"], "bob": -5}, "games": [*doc["games"], {"white": "ann", "black": "ann"}]}
    bad["games"][1] = {**bad["games"][1], "komi": "half", "date": "2019-13-01"}
    assert import_fails(bad) == [
        "ratings.bob: -5 is below 000",
        "games[1].komi: 'half' is not one of normal, none, reverse",
        "games[6].winner: missing",
        "games[1].date: '2019-13-01' is not a date (YYYY-MM-DD)",
    ]
    assert not Player.objects.exists()
    import_doc(doc)
    changed = {**doc, "games": [doc["games"][1], *doc["games"]]}
    assert import_fails(changed) == ["games[0]: differs from the site's game in that place; the site's history is kept"]


def test_export_and_the_round_trip_are_exact(import_doc, export_history, show_list):
    doc = worked_streak()
    import_doc(doc)
    exported = export_history("dirs")
    assert rate_output(exported) == show_list("dirs") == rate_output(doc)
    DirsGame.objects.all().delete()
    DirsRating.objects.all().delete()
    StartingRating.objects.all().delete()
    Player.objects.all().delete()
    import_doc(exported)
    assert export_history("dirs") == exported


def test_show_list_as_of_a_date_stops_at_that_day(import_doc, show_list):
    doc = worked_streak()
    doc["games"][2]["date"] = "2019-03-01"
    import_doc(doc)
    assert show_list("dirs", "--as-of", "2019-02-15") == rate_output({**doc, "games": doc["games"][:2]})


def test_the_player_page_says_the_dirs_rating_was_carried_over(client, import_doc):
    import_doc(worked_streak())
    ann = Player.objects.get(external_id="ann")
    page = client.get(f"/en/players/{ann.pk}/").content.decode()
    assert "Starting rating 095 (acceleration 3), carried over from the federation's list of 1 Jan 2019." in page
    page = client.get(f"/players/{ann.pk}/").content.decode()
    assert "Начальный рейтинг 095 (ускорение 3) перенесён из списка федерации от 01.01.2019." in page
