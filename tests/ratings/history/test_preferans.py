"""The preferans history moves in through ``import_history``: starting ratings with peaks and leagues, bots, games
whose players leave early, every deal in order; ``show_list preferans`` prints exactly what ``rate`` prints; the
round trip through ``export_history`` is exact; a second import changes nothing; the admin's upload does the same."""

import json
import random

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from federation.models import BotLevel, Player
from ratings.engines.common import EngineError
from ratings.history import HistoryError, history_check
from ratings.models import HistoryUpload, JobRun, JobState, StartingRating
from ratings.preferans.models import Deal, DealResult, Game, PreferansRating, Seat
from tests.factories import federation_staff

from .conftest import rate_output

pytestmark = pytest.mark.usefixtures("postgres")


def worked_examples() -> dict:
    """rules/preferans.md, "Worked examples": the four two-player rows and the table of three, each at its own
    table of players starting where the example starts them (1800 and 2000 are Pro: they reached 1800)."""
    return {
        "system": "preferans",
        "ratings_date": "2019-01-01",
        "ratings": {
            "x1": 1000,
            "y1": 1800,
            "x2": 1000,
            "y2": 1800,
            "x3": 2000,
            "y3": 1500,
            "x4": 2000,
            "y4": 1500,
            "a": 1000,
            "b": 1800,
            "c": 1800,
            "p": 2000,
            "q": 1500,
            "s": 4500,
            "t": 4500,
            "h": 1399,
        },
        "bots": {"bot-easy": 1400, "bot-low": 1200},
        "deals": [
            {"game": "row-1", "whists": {"x1": -5, "y1": 5}, "date": "2019-02-01"},
            {"game": "row-2", "whists": {"x2": 10, "y2": -10}},
            {"game": "row-3", "whists": {"x3": 4, "y3": -4}},
            {"game": "row-4", "whists": {"x4": 10, "y4": -10}},
            {"game": "three", "whists": {"a": -5, "b": 3, "c": 2}},
            # "Decision (the formula over the prose)": 2000 at a 1500 table, +2 whists: Rd = -1.37.
            {"game": "prose", "whists": {"p": 2, "q": -2}},
            # "Decision (smoothing above 4000)": 4500 against 4500, +4: Rd = 2·√4 = 4, times 4000/4500 = 3.5556.
            {"game": "smooth", "whists": {"s": 4, "t": -4}},
            # Bots: a human alone with bots gains at most up to their highest maximum (1399 -> 1400), and a bot is
            # never above its level's maximum.
            {"game": "bots", "whists": {"h": 30, "bot-easy": -15, "bot-low": -15}},
            {"game": "bots", "whists": {"h": -30, "bot-easy": 30, "bot-low": 0}},
        ],
    }


def test_the_worked_examples_go_in_and_show_list_prints_what_rate_prints(import_doc, show_list):
    doc = worked_examples()
    report = import_doc(doc)
    assert report["created"]["deals"] == 9
    assert report["created"]["starting ratings"] == 16
    assert report["created"]["bots"] == 2
    shown = show_list("preferans")
    assert shown == rate_output(doc)
    deltas = [round(deal["changes"][0]["delta"], 4) for deal in shown["deals"][:4]]
    assert deltas == [1.8597, 4.3782, 0.8045, 2.8702]
    assert round(shown["ratings"]["a"], 4) == 1001.8597
    assert round(shown["ratings"]["b"], 4) == 1800.8546
    assert round(shown["ratings"]["c"], 4) == 1799.0491
    assert round(shown["deals"][5]["changes"][0]["delta"], 2) == -1.37
    assert round(shown["deals"][6]["changes"][0]["delta"], 4) == 3.5556
    assert shown["deals"][7]["changes"][0]["after"] == 1400.0  # the all-bot ceiling
    assert shown["deals"][8]["changes"][1]["after"] == 1400.0  # the bot's own maximum
    assert shown["leagues"]["c"] == "pro"  # reached 1800 before: Pro for good though now below it
    assert shown["max_ratings"]["c"] == 1800.0
    assert PreferansRating.objects.get(player__external_id="c").league == "pro"
    start = StartingRating.objects.get(player__external_id="b")
    assert (float(start.rating), float(start.max_rating), start.league) == (1800.0, 1800.0, "pro")
    assert str(start.list_date) == "2019-01-01"


def generated_history(seed: int = 5, humans: int = 24, games: int = 60) -> dict:
    """Games of 2 to 4 among humans and three bots; some players leave a game early (missing from its later
    deals); starting ratings, peaks and leagues for some; dates that move forward now and then."""
    rng = random.Random(seed)
    ids = [f"h{i:02d}" for i in range(humans)]
    bots = {"bot-easy": 1400.0, "bot-normal": 1800.0, "bot-hard": 2400.5}
    ratings = {p: round(rng.uniform(700, 2300), 2) for p in ids[:16]}
    ratings["bot-hard"] = 2000.25
    max_ratings = {p: round(ratings[p] + rng.choice((0, 15.5, 250)), 2) for p in ids[:10]}
    leagues = {p: "pro" for p in ids[10:13]}
    for p in ids[:10]:
        if max_ratings[p] >= 1800 and p in leagues:
            del leagues[p]
    deals = []
    day = 0
    for game in range(games):
        table = rng.sample([*ids, *bots], rng.choice((2, 3, 3, 4)))
        seated = list(table)
        for number in range(rng.randint(1, 6)):
            if number and len(seated) > 2 and rng.random() < 0.2:
                seated.pop(rng.randrange(len(seated)))  # someone leaves the game
            whists = [rng.randint(-30, 30) for _ in seated[1:]]
            entry = {"game": f"g{game:03d}", "whists": dict(zip(seated, [-sum(whists), *whists], strict=True))}
            if rng.random() < 0.1:
                day += 1
                entry["date"] = f"2020-01-{1 + day:02d}"
            deals.append(entry)
    deals[0]["date"] = "2020-01-01"
    return {
        "system": "preferans",
        "ratings_date": "2019-12-31",
        "ratings": ratings,
        "max_ratings": max_ratings,
        "leagues": leagues,
        "bots": bots,
        "players": [{"id": "h00", "name": "Иванов Иван", "name_latin": "Ivanov Ivan", "city": "Тверь"}],
        "deals": deals,
    }


def _counts():
    return (
        Player.objects.count(),
        Game.objects.count(),
        Seat.objects.count(),
        Deal.objects.count(),
        DealResult.objects.count(),
        PreferansRating.objects.count(),
        StartingRating.objects.count(),
        BotLevel.objects.count(),
    )


def test_a_generated_history_agrees_with_rate_and_a_second_import_changes_nothing(import_doc, show_list):
    doc = generated_history()
    deals = doc["deals"]
    left = [
        i
        for i in range(1, len(deals))
        if deals[i]["game"] == deals[i - 1]["game"] and len(deals[i]["whists"]) < len(deals[i - 1]["whists"])
    ]
    assert len(left) >= 5  # players do leave games in this history
    import_doc(doc)
    assert show_list("preferans") == rate_output(doc)
    bot = Player.objects.get(external_id="bot-hard")
    assert bot.is_bot
    assert float(bot.bot_level.max_rating) == 2400.5
    assert Player.objects.get(external_id="h00").last_name == "Иванов"
    counts = _counts()
    ratings = list(PreferansRating.objects.order_by("player_id").values_list("rating", "max_rating", "league"))
    again = import_doc(doc)
    assert set(again["created"].values()) == {0}
    assert _counts() == counts
    assert list(PreferansRating.objects.order_by("player_id").values_list("rating", "max_rating", "league")) == ratings
    # More deals later, in new games: only those are added, rated from where the site stands.
    more = generated_history(seed=6, games=10)["deals"]
    for deal in more:
        deal["game"] = "later-" + deal["game"]
        deal.pop("date", None)
    longer = {**doc, "deals": doc["deals"] + more}
    report = import_doc(longer)
    assert report["created"]["deals"] == len(more)
    assert show_list("preferans") == rate_output(longer)


def test_show_list_as_of_a_date_is_rate_on_the_deals_up_to_that_day(import_doc, show_list):
    doc = generated_history()
    import_doc(doc)
    cut = next(i for i, deal in enumerate(doc["deals"]) if deal.get("date", "") > "2020-01-03")
    assert 0 < cut < len(doc["deals"])
    assert show_list("preferans", "--as-of", "2020-01-03") == rate_output({**doc, "deals": doc["deals"][:cut]})
    before = show_list("preferans", "--as-of", "2019-12-31")
    assert before["deals"] == []
    assert before == rate_output({**doc, "deals": []})


def test_export_and_the_round_trip_are_exact(import_doc, export_history, show_list):
    doc = generated_history()
    import_doc(doc)
    exported = export_history("preferans")
    assert rate_output(exported) == show_list("preferans") == rate_output(doc)
    DealResult.objects.all().delete()
    Deal.objects.all().delete()
    Game.objects.all().delete()
    PreferansRating.objects.all().delete()
    StartingRating.objects.all().delete()
    Player.objects.all().delete()
    BotLevel.objects.all().delete()
    import_doc(exported)
    assert export_history("preferans") == exported
    assert show_list("preferans") == rate_output(doc)


def test_a_document_with_errors_names_every_one_and_saves_nothing(import_fails):
    doc = worked_examples()
    doc["ratings"]["x1"] = 1000.12345
    doc["max_ratings"] = {"y1": 1700, "b": 1900}
    doc["leagues"] = {"b": "amateur", "a": "master"}
    doc["bots"] = {"robot": 1800.125}
    doc["deals"][1]["whists"] = {"x2": 10, "y2": -9}
    doc["deals"][2]["date"] = "2019-01-15"
    doc["deals"].append({"game": "three", "whists": {"a": 1, "z": -1}})
    doc["deals"].append({"game": "row-9", "whists": {"x1": 10_000_000, "y1": -10_000_000}})
    assert import_fails(doc) == [
        'leagues.a: \'master\' is neither "amateur" nor "pro"',
        "deals[1].whists: the whists sum to 1, not to zero",
        'deals[9].whists: player "z" is not at the table of game "three" (a, b, c)',
        "max_ratings.y1: 1700 is below the starting rating 1800",
        'leagues.b: "amateur", but the peak 1900 reached the Pro threshold 1800 (a player who reaches it is Pro for '
        "good)",
        "ratings.x1: 1000.12345: the site keeps a starting rating to 4 decimals",
        "bots.robot: 1800.125: a level's maximum is 0 or more, to 2 decimals",
        "deals[2].date: 2019-01-15 is before the deal before it (2019-02-01)",
        "deals[10].whists.x1: 10000000: a deal gives at most 1000",
        "deals[10].whists.y1: -10000000: a deal gives at most 1000",
    ]
    assert _counts() == (0, 0, 0, 0, 0, 0, 0, 0)


def test_a_document_that_disagrees_with_the_site_saves_nothing(import_doc, import_fails):
    doc = worked_examples()
    import_doc(doc)
    counts = _counts()
    changed = {**doc, "deals": [doc["deals"][1], *doc["deals"]]}
    assert import_fails(changed) == ["deals[0]: differs from the site's deal in that place; the site's history is kept"]
    moved = {**doc, "ratings": {**doc["ratings"], "a": 1200}}
    assert import_fails(moved) == [
        "ratings.a: the site started this player at 1000 (peak 1000, amateur), not 1200 (peak 1200, amateur)"
    ]
    continued = {**doc, "deals": [*doc["deals"], {"game": "three", "whists": {"a": 1, "b": -1}}]}
    assert import_fails(continued) == [
        'deals[9].game: game "three" is stored on the site: an import adds new games only'
    ]
    human_as_bot = {**doc, "bots": {"a": 1800}}
    assert "bots.a: is a player of the site, not a bot" in import_fails(human_as_bot)
    assert _counts() == counts


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    path=st.sampled_from(
        ["ratings", "max_ratings", "leagues", "bots", "deals", "deal-players", "deal-date", "players", "ratings_date"]
    ),
    value=st.one_of(
        st.none(),
        st.booleans(),
        st.integers(-(10**9), 10**9),
        st.floats(allow_nan=False),
        st.text(max_size=5),
        st.lists(
            st.one_of(
                st.integers(-3, 3),
                st.sampled_from(["a", "b", "c", "x1"]),
                st.dictionaries(st.text(max_size=2), st.none(), max_size=1),
            ),
            max_size=3,
        ),
        st.dictionaries(st.text(max_size=3), st.one_of(st.integers(-3, 3), st.text(max_size=2)), max_size=3),
    ),
    index=st.integers(0, 4),
)
@example(path="deal-players", value=[{"x": None}], index=8)
def test_any_damaged_field_is_named_and_never_a_traceback(path, value, index):
    doc = worked_examples()
    if path == "deals":
        doc["deals"][index] = value if index % 2 else {**doc["deals"][index], "whists": value}
    elif path.startswith("deal-"):
        doc["deals"][index][path.removeprefix("deal-")] = value
    elif path in ("ratings", "max_ratings", "bots") and index % 2:
        doc[path] = {"x1": value}
    else:
        doc[path] = value
    try:
        counts = history_check(doc=doc)
    except (HistoryError, EngineError) as error:
        lines = error.lines() if isinstance(error, HistoryError) else [str(error)]
        assert lines
        assert all(": " in line for line in lines)
    else:
        assert counts["deals"] == 9
    assert not Player.objects.exists()


def test_the_player_page_says_the_rating_peak_and_league_were_carried_over(client, import_doc):
    doc = generated_history()
    doc["ratings"]["h10"], doc["max_ratings"]["h10"], doc["leagues"]["h10"] = 1700.5, 1850.25, "pro"
    import_doc(doc)
    player = Player.objects.get(external_id="h10")
    page = client.get(f"/en/players/{player.pk}/").content.decode()
    text = "Starting rating 1700.50 (highest 1850.25, league: Pro), carried over from the federation's list of "
    assert text + "31 Dec 2019." in page
    page = client.get(f"/players/{player.pk}/").content.decode()
    text = "Начальный рейтинг 1700,50 (наивысший 1850,25, лига: Профи) перенесён из списка федерации от "
    assert text + "31.12.2019." in page  # the reader's date, not ISO


def test_staff_upload_a_preferans_history_preview_then_confirm(client, eager, show_list):
    client.force_login(federation_staff())
    url = "/admin/ratings/ratinglist/import-history/"
    doc = generated_history()
    upload = SimpleUploadedFile("pref.json", json.dumps(doc).encode(), content_type="application/json")
    page = client.post(url, {"file": upload, "preview": "1"})
    text = page.content.decode()
    assert f"<tr><th>сдач</th><td>{len(doc['deals'])}</td></tr>" in text
    assert "<tr><th>ботов</th><td>3</td></tr>" in text
    assert not Deal.objects.exists()
    done = client.post(url, {"confirm": "1", "sha256": page.context["sha256"]})
    assert done.status_code == 302
    run = JobRun.objects.get(kind="history_import")
    assert run.state == JobState.SUCCEEDED
    assert Deal.objects.count() == len(doc["deals"])
    assert HistoryUpload.objects.get().system == "preferans"
    assert f"сдач: {len(doc['deals'])}" in client.get(done["Location"]).content.decode()
    assert show_list("preferans") == rate_output(doc)
    bad = {**doc, "deals": [*doc["deals"], {"game": "x", "whists": {"h00": 1}}]}
    upload = SimpleUploadedFile("bad.json", json.dumps(bad).encode(), content_type="application/json")
    text = client.post(url, {"file": upload, "preview": "1"}).content.decode()
    assert f"deals[{len(doc['deals'])}].whists: a table has 2 to 4 players, this one has 1" in text
    assert 'name="sha256"' not in text


def test_a_player_carried_over_starts_their_first_game_from_the_starting_rating(import_doc):
    """A starting rating recorded for a player who has not played yet is where their rating row starts when their
    first game is created later (a game server's or the admin's), not at 1000."""
    from ratings.preferans.services import game_create

    import_doc(worked_examples())
    newcomer, other = Player.objects.create(last_name="Новиков"), Player.objects.create(last_name="Старов")
    rating_list = StartingRating.objects.first().rating_list
    StartingRating.objects.create(
        rating_list=rating_list, player=newcomer, list_date="2019-01-01", rating=1750, max_rating=1820, league=""
    )
    game_create(server=None, external_id="late", player_ids=[newcomer.pk, other.pk])
    row = PreferansRating.objects.get(player=newcomer)
    assert (row.rating, row.max_rating, row.league) == (1750.0, 1820.0, "pro")
    assert PreferansRating.objects.get(player=other).rating == 1000.0


def test_check_only_prints_the_counts_and_saves_nothing(monkeypatch):
    from .conftest import run_command

    status, out, err = run_command(
        "import_history", "-", "--check", stdin=json.dumps(worked_examples()), monkeypatch=monkeypatch
    )
    assert status == 0, err
    assert json.loads(out) == {
        "players": 18,  # bots included
        "bots": 2,
        "starting ratings": 16,
        "games": 8,
        "deals": 9,
        "new deals": 9,
    }
    assert _counts() == (0, 0, 0, 0, 0, 0, 0, 0)
