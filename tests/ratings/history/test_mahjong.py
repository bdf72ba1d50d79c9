"""A mahjong history moves in through ``import_history`` (PostgreSQL): ``show_list`` prints exactly what ``rate``
prints for the same document as of the same date, for RR, CRR and the online list; a second import changes nothing;
a bad file saves nothing and names every error; ``export_history`` gives the history back; the admin's upload.
"""

import datetime as dt
import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from federation.models import Player
from ratings.history import HistoryError, history_check
from ratings.models import RatingEntry, RatingList, RatingSnapshot
from tournaments.models import Result, Stage, Tournament

from .conftest import rate_output, run_command

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("postgres")]

SYSTEMS = ("mahjong-rr", "mahjong-crr", "mahjong-online")


def _shown_equals_rate(doc, show_list, as_of: str, system: str = "mahjong-rr") -> dict:
    shown = show_list(system, "--as-of", as_of)
    assert shown == rate_output({**doc, "system": system, "as_of": as_of})
    return shown


def _field(players: int, prefix: str) -> list[dict]:
    return [{"player": f"{prefix}{i:03d}", "place": i + 1} for i in range(players)]


# --- the worked examples of rules/mahjong.md ------------------------------------------------------------------------


def rate_cli_example() -> dict:
    """RATE_CLI.md's document: a foreign player, a participant without a profile, a cut-off tournament."""
    return {
        "system": "mahjong-rr", "as_of": "2025-06-01", "country": "RU",
        "players": [{"id": "p4", "country": "FR"}],
        "tournaments": [
            {"id": "t1", "end_date": "2025-03-01", "players": 40, "hanchans": 8, "country": "RU",
             "ema": False, "accredited": True, "open": True, "online": False, "rank_restricted": False,
             "results": [{"player": "p1", "place": 1}, {"player": "p4", "place": 2}, {"player": None, "place": 3},
                         {"player": "p2", "place": 4}]},
            {"id": "t2", "end_date": "2025-04-01", "players": 28, "country": "RU", "accredited": True, "open": True,
             "stages": [{"hanchans": 10}, {"hanchans": 10}],
             "results": [{"player": "p1", "place": 1, "hanchans": 20}, {"player": "p2", "place": 9, "hanchans": 10}]},
        ],
    }  # fmt: skip


def cutoff_28() -> dict:
    """'28 players, 10 + 10 hanchans, 8 go through': W = 2.73 out after stage 1, 3.18 for the finalists."""
    results = [{"player": f"c{i:02d}", "place": i + 1, "hanchans": 20 if i < 8 else 10} for i in range(28)]
    return {
        "system": "mahjong-rr", "as_of": "2025-06-01",
        "tournaments": [
            {"id": "cut28", "end_date": "2025-05-01", "players": 28, "accredited": True, "open": True,
             "stages": [{"hanchans": 10}, {"hanchans": 10}], "results": results},
            {"id": "plain", "end_date": "2025-05-20", "players": 28, "hanchans": 10, "accredited": True, "open": True,
             "results": [{"player": f"c{i:02d}", "place": 28 - i} for i in range(28)]},
        ],
    }  # fmt: skip


def cutoff_32() -> dict:
    """'32 players, 4 stages of 5 hanchans, half cut each time': W = 2.12 / 2.57 / 2.87 / 3.02."""
    played = [20] * 4 + [15] * 4 + [10] * 8 + [5] * 16
    results = [{"player": f"d{i:02d}", "place": i + 1, "hanchans": h} for i, h in enumerate(played)]
    stages = [{"hanchans": 5, "players": p} for p in (32, 16, 8, 4)]
    return {
        "system": "mahjong-rr", "as_of": "2025-06-01",
        "tournaments": [
            {"id": "cut32", "end_date": "2025-05-01", "players": 32, "accredited": True, "open": True,
             "stages": stages, "results": results},
            {"id": "second", "end_date": "2025-05-02", "players": 32, "hanchans": 4, "accredited": True, "open": True,
             "results": _field(32, "d0")[:0] + [{"player": f"d{i:02d}", "place": i + 1} for i in range(32)]},
        ],
    }  # fmt: skip


def base_rank_100() -> dict:
    """'100 players, 25th place: R = 757.5757..., shown as 757.58' (delta from the unrounded R)."""
    first = [{"player": "x", "place": 25}] + [{"player": None, "place": p} for p in range(1, 101) if p != 25]
    return {
        "system": "mahjong-crr", "as_of": "2025-06-01",
        "tournaments": [
            {"id": "hundred", "end_date": "2025-05-01", "players": 100, "hanchans": 10, "results": first},
            {"id": "small", "end_date": "2025-05-10", "players": 12, "hanchans": 3,
             "results": [{"player": "x", "place": 12}]},
        ],
    }  # fmt: skip


def anniversary() -> dict:
    """'end 2024-03-10: A = 6/7 on 2025-03-10' (85.71 %), the first drop on the anniversary itself."""
    return {
        "system": "mahjong-rr", "as_of": "2025-03-10",
        "tournaments": [
            {"id": "old", "end_date": "2024-03-10", "players": 20, "hanchans": 8, "accredited": True, "open": True,
             "results": [{"player": "y", "place": 1}, {"player": "z", "place": 2}]},
            {"id": "new", "end_date": "2025-01-10", "players": 16, "hanchans": 4, "accredited": True, "open": True,
             "results": [{"player": "z", "place": 1}, {"player": "y", "place": 16}]},
            {"id": "closed", "end_date": "2025-02-10", "players": 40, "hanchans": 8, "accredited": True,
             "results": [{"player": "y", "place": 1}]},
        ],
    }  # fmt: skip


def _details(shown: dict, player: str) -> dict[str, dict]:
    row = next(row for row in shown["list"] if row["player"] == player)
    return {item["tournament"]: item for item in row["details"]}


def test_rate_cli_example_goes_in_and_show_list_prints_what_rate_prints(import_doc, show_list):
    doc = rate_cli_example()
    report = import_doc(doc)
    assert report["created"]["tournaments"] == 2
    assert report["rebuilt"] == list(SYSTEMS)
    shown = _shown_equals_rate(doc, show_list, "2025-06-01")
    # p4 is French: counted in N, not listed in RR. t2 lists 2 of its 28 players: the 26 others played stage 1
    # only, so W_avg = (2.80 + 27 * 1.90) / 28 = 1.93; W = 0.70 + (2.80 + 1.93) / 2 = 3.07 for the finalist (p1),
    # 0.70 + (1.90 + 1.93) / 2 = 2.62 out after stage 1 (p2).
    assert [row["player"] for row in shown["list"]] == ["p1", "p2"]
    assert _details(shown, "p1")["t2"]["w"] == 3.07
    assert _details(shown, "p2")["t2"]["w"] == 2.62
    assert _details(shown, "p2")["t1"]["r"] == 923.08
    assert Result.objects.get(player=None).participant_name == "Участник без профиля, место 3"
    assert Player.objects.get(external_id="p4").country == "FR"
    assert Player.objects.get(external_id="p1").last_name == "Игрок p1"
    assert list(Stage.objects.order_by("number").values_list("hanchans", "players")) == [(10, 28), (10, 1)]
    for system in ("mahjong-crr", "mahjong-online"):
        _shown_equals_rate(doc, show_list, "2025-06-01", system)


def test_cutoff_28_players_w_273_and_318(import_doc, show_list):
    doc = cutoff_28()
    import_doc(doc)
    shown = _shown_equals_rate(doc, show_list, "2025-06-01")
    assert _details(shown, "c00")["cut28"]["w"] == 3.18
    assert _details(shown, "c08")["cut28"]["w"] == 2.73
    assert shown["maxk"][0] == {"tournament": "cut28", "w": 3.18, "a": 1.0, "wa": 3.18}
    # The stages are stored with the players the results give: 28, then 8 finalists.
    assert list(Stage.objects.order_by("number").values_list("players", flat=True)) == [28, 8]


def test_cutoff_32_players_four_stages_w_212_257_287_302(import_doc, show_list):
    doc = cutoff_32()
    import_doc(doc)
    shown = _shown_equals_rate(doc, show_list, "2025-06-01")
    assert [_details(shown, f"d{i:02d}")["cut32"]["w"] for i in (31, 15, 7, 0)] == [2.12, 2.57, 2.87, 3.02]


def test_base_rank_of_25th_of_100_is_757_58(import_doc, show_list):
    doc = base_rank_100()
    import_doc(doc)
    shown = _shown_equals_rate(doc, show_list, "2025-06-01", "mahjong-crr")
    # W = 1.90 + 2.00 = 3.90; delta = 3.90 * 757.5757... = 2954.55 (not 3.90 * 757.58 = 2954.56).
    assert _details(shown, "x")["hundred"] == {
        "tournament": "hundred", "place": 25, "players": 100, "hanchans": 10, "w": 3.9, "r": 757.58, "a": 100.0,
        "delta": 2954.55, "part_a": True, "part_b": True,
    }  # fmt: skip
    assert Result.objects.filter(player=None).count() == 99


def test_decay_steps_on_the_anniversary_and_a_closed_tournament_is_excluded_with_its_reason(import_doc, show_list):
    doc = anniversary()
    import_doc(doc)
    shown = _shown_equals_rate(doc, show_list, "2025-03-10")
    assert _details(shown, "y")["old"]["a"] == 85.71
    assert shown["excluded"] == [{"tournament": "closed", "reason": "not open", "reason_ru": "не открытый"}]
    assert _shown_equals_rate(doc, show_list, "2025-03-09")["list"][0]["details"][-1]["a"] == 100.0
    # Before the first tournament: nothing published, every tournament "ends after the rating date".
    assert _shown_equals_rate(doc, show_list, "2024-01-01")["list"] == []
    # The judgements imported are recorded as judged by the import.
    old = Tournament.objects.get(external_id="old")
    assert (old.accredited, old.is_open, old.accreditation_note) == (True, True, "imported history")
    assert old.accredited_at is not None
    assert old.open_ema_judged_at is not None


# --- a generated history --------------------------------------------------------------------------------------------


def generated_history(seed: int = 14, *, players: int = 60, tournaments: int = 30) -> dict:
    """Two years and more: cut-offs (with and without stage players), participants without a profile, foreign
    players, EMA tournaments abroad, online tournaments with rank restrictions judged either way, small ones."""
    rng = random.Random(seed)
    ids = [f"p{i:03d}" for i in range(players)]
    foreign = {p: rng.choice(["FR", "DE", "NL"]) for p in ids[-10:]}
    people = [{"id": p, "name": f"Фамилия{i:03d} Имя", "country": foreign.get(p, "RU")} for i, p in enumerate(ids)]
    start = dt.date(2024, 6, 1)
    items = []
    for index in range(tournaments):
        n = rng.choice([12, 14, 16, 20, 24, 28, 32, 40])
        nulls = rng.randrange(0, 4)
        entrants = rng.sample(ids, n - nulls - rng.randrange(0, 3))
        places = rng.sample(range(1, n + 1), len(entrants) + nulls)
        item = {
            "id": f"t{index:03d}",
            "end_date": (start + dt.timedelta(days=index * 28 + rng.randrange(0, 5))).isoformat(),
            "players": n,
            "name": f"Турнир {index}",
            "accredited": rng.random() < 0.85,
            "open": rng.random() < 0.9,
        }
        players_of = entrants + [None] * nulls
        if index % 6 == 3:
            finalists = 8
            item["stages"] = [{"hanchans": 8}, {"hanchans": 4}]
            if index % 12 == 3:
                item["stages"] = [{"hanchans": 8, "players": n}, {"hanchans": 4, "players": finalists}]
            ordered = sorted(zip(places, players_of, strict=True), key=lambda pair: pair[0])
            item["results"] = [
                {"player": p, "place": place, "hanchans": 12 if place <= finalists else 8} for place, p in ordered
            ]
            if index % 12 != 3:
                # Every finalist is among the results, so the stage counts the results give are the real ones.
                item["results"] = [r for r in item["results"] if r["hanchans"] == 12 or r["player"] is not None]
        else:
            item["hanchans"] = rng.choice([3, 4, 6, 8, 10, 12])
            item["results"] = [{"player": p, "place": place} for place, p in zip(places, players_of, strict=True)]
        if index % 5 == 1:
            item["online"] = True
            if index % 10 == 1:
                item["rank_restricted"] = True
                item["rank_restriction_legitimate"] = index % 20 == 1
        if index % 7 == 2:
            item["country"] = "DE"
            item["ema"] = index % 14 == 2
        items.append(item)
    return {"system": "mahjong-rr", "country": "RU", "players": people, "tournaments": items}


@pytest.mark.parametrize("system", SYSTEMS)
def test_a_generated_history_agrees_with_rate_at_several_dates(system, import_doc, show_list):
    doc = {**generated_history(), "system": system}
    report = import_doc(doc)
    assert report["created"]["tournaments"] == 30
    assert report["created"]["players"] == 60
    listed = 0
    for as_of in ("2024-09-15", "2025-03-01", "2025-08-20", "2026-02-10", "2026-06-30", "2026-09-30"):
        shown = _shown_equals_rate(doc, show_list, as_of, system)
        listed += len(shown["list"])
    assert listed > 40
    # The newest list is today's (every tournament older than two years or not: what rate says for today).
    latest = show_list(system)
    assert latest == rate_output({**doc, "as_of": latest["as_of"]})


def test_the_generated_history_has_what_it_claims():
    doc = generated_history()
    tournaments = doc["tournaments"]
    assert dt.date.fromisoformat(tournaments[-1]["end_date"]) - dt.date.fromisoformat(tournaments[0]["end_date"]) > (
        dt.timedelta(days=730)
    )
    assert sum("stages" in t for t in tournaments) == 5
    assert any(r["player"] is None for t in tournaments for r in t["results"])
    assert sum(t.get("rank_restricted", False) for t in tournaments) == 3
    assert sum(p["country"] != "RU" for p in doc["players"]) == 10


def test_the_import_publishes_every_daily_list_up_to_today_with_progress(monkeypatch):
    from django.utils import timezone

    from ratings.mahjong.services import mahjong_daily

    doc = generated_history()
    status, _out, err = run_command("import_history", "-", stdin=json.dumps(doc), monkeypatch=monkeypatch)
    assert status == 0, err
    lines = err.splitlines()
    assert lines[0] == "0/30 tournaments 1-30"
    assert lines[-1].endswith(f" lists as of {timezone.localdate().isoformat()}")
    # Every list is published up to today: the daily job finds nothing to do, today or on any day before.
    assert mahjong_daily() == {slug: "unchanged" for slug in SYSTEMS}
    for slug in SYSTEMS:
        dates = list(RatingSnapshot.objects.filter(rating_list__slug=slug).values_list("as_of", flat=True))
        # The first list is published on the end date of the first tournament that counts in it.
        assert min(dates).isoformat() in {t["end_date"] for t in doc["tournaments"]}
        assert len(dates) > 30


def test_importing_twice_changes_nothing(import_doc):
    doc = generated_history()
    import_doc(doc)
    counts = [model.objects.count() for model in (Player, Tournament, Stage, Result, RatingSnapshot, RatingEntry)]
    snapshots = list(RatingSnapshot.objects.order_by("pk").values_list("pk", "computed_at"))
    again = import_doc(doc)
    assert set(again["created"].values()) == {0}
    assert again["unchanged"]["tournaments"] == 30
    assert again["rebuilt"] == []
    models = (Player, Tournament, Stage, Result, RatingSnapshot, RatingEntry)
    assert [model.objects.count() for model in models] == counts
    assert list(RatingSnapshot.objects.order_by("pk").values_list("pk", "computed_at")) == snapshots


def test_round_trip_export_rate_and_show_list_agree(import_doc, export_history, show_list):
    doc = generated_history()
    import_doc(doc)
    for system in SYSTEMS:
        exported = export_history(system)
        assert exported["system"] == system
        assert [t["id"] for t in exported["tournaments"]] == [t["id"] for t in doc["tournaments"]]
        assert show_list(system) == rate_output(exported)
        for as_of in ("2025-03-01", "2026-02-10"):
            assert show_list(system, "--as-of", as_of) == rate_output({**exported, "as_of": as_of})
            # The export rates as the original document does.
            assert rate_output({**exported, "as_of": as_of}) == rate_output({**doc, "system": system, "as_of": as_of})
    # The export goes back in without changing anything.
    again = import_doc(export_history("mahjong-rr"))
    assert set(again["created"].values()) == {0}


def test_a_tournament_after_today_is_published_when_its_day_comes_not_before(import_doc, show_list):
    from django.utils import timezone

    from ratings.mahjong.services import mahjong_daily

    today = timezone.localdate()
    doc = anniversary()
    for offset, item in zip((40, 50, 60), doc["tournaments"], strict=True):
        item["end_date"] = (today + dt.timedelta(days=offset)).isoformat()
    report = import_doc(doc)
    assert report["created"]["tournaments"] == 3
    assert report["rebuilt"] == []
    assert not RatingSnapshot.objects.exists()
    day = today + dt.timedelta(days=50)
    assert mahjong_daily(today=day)["mahjong-rr"] == "computed"
    shown = _shown_equals_rate(doc, show_list, day.isoformat())
    assert [row["player"] for row in shown["list"]] == ["z", "y"]


# --- errors ---------------------------------------------------------------------------------------------------------


def test_a_file_with_errors_saves_nothing_and_names_every_error(import_fails):
    doc = generated_history()
    doc["tournaments"][0]["players"] = "many"
    doc["tournaments"][1]["results"][0]["place"] = 99
    doc["tournaments"][1]["results"][2]["place"] = 0
    doc["tournaments"][1]["results"][3]["player"] = doc["tournaments"][1]["results"][1]["player"]
    doc["tournaments"][2]["end_date"] = "2025-02-30"
    doc["tournaments"][4]["country"] = "Russia"
    doc["tournaments"][5]["open"] = "yes"
    doc["tournaments"][6]["id"] = "t000"
    doc["tournaments"][9]["stages"] = [{"hanchans": 8}, {"hanchans": 4}]
    doc["tournaments"][9]["results"] = [{"player": "p001", "place": 1, "hanchans": 10}]
    doc["players"][0]["country"] = ""
    lines = import_fails(doc)
    assert lines == [
        "players[0].country: missing (players lists the players of other countries)",
        "tournaments[0].players: 'many' is not a whole number",
        f"tournaments[1].results[0].place: 99 is larger than players ({doc['tournaments'][1]['players']})",
        "tournaments[1].results[2].place: 0 is smaller than 1",
        f"tournaments[1].results[3].player: {doc['tournaments'][1]['results'][1]['player']!r} appears twice in this "
        "tournament (results[1])",
        "tournaments[2].end_date: '2025-02-30' is not a date (YYYY-MM-DD)",
        "tournaments[4].country: 'Russia' is not a two-letter country code",
        "tournaments[5].open: 'yes' is not true or false",
        "tournaments[6].id: 't000' appears twice (tournaments[0])",
        "tournaments[9].results[0].hanchans: 10 is not the total of a stage (8, 12); give every stage's players",
    ]
    assert not Tournament.objects.exists()
    assert not Player.objects.exists()
    assert not RatingSnapshot.objects.exists()


def test_a_tournament_imported_before_with_other_data_is_refused(import_doc, import_fails):
    doc = anniversary()
    import_doc(doc)
    doc["tournaments"][0]["results"][0]["place"] = 3
    assert import_fails(doc) == [
        'tournaments[0].id: "old" was imported before with other data; correct it in the admin, not by import'
    ]
    assert Result.objects.get(tournament__external_id="old", player__external_id="y").place == 1


def test_a_document_of_another_system_for_a_list_is_refused(import_fails):
    assert import_fails({**anniversary(), "system": "mahjong-crr"}, "--list", "mahjong-rr") == [
        "system: 'mahjong-crr': the list mahjong-rr is mahjong-rr"
    ]


def test_show_list_and_export_of_a_list_that_is_not_mahjong_say_so():
    from django.core.management import CommandError, call_command

    with pytest.raises(CommandError, match=r"list: gorbunov .* is not a mahjong list"):
        call_command("show_list", "mahjong-rr", "--list", "gorbunov")
    with pytest.raises(CommandError, match="--as-of: '2025-13-01' is not a date"):
        call_command("show_list", "mahjong-rr", "--as-of", "2025-13-01")
    status, _out, err = run_command("export_history", "mahjong-crr", "--list", "gorbunov")
    assert status == 1
    assert "is not a mahjong list" in err


JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 200) | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3),
    max_leaves=8,
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    tournament=st.integers(0, 4),
    key=st.sampled_from(
        ["id", "end_date", "players", "hanchans", "country", "stages", "results", "accredited", "online", "name"]
    ),
    value=JSON,
)
def test_any_value_in_any_field_is_an_error_by_path_or_accepted(tournament, key, value):
    doc = anniversary()
    doc["tournaments"] = doc["tournaments"] + [cutoff_28()["tournaments"][0], rate_cli_example()["tournaments"][0]]
    doc["tournaments"][tournament][key] = value
    counts, errors = None, []
    try:
        counts = history_check(doc=json.loads(json.dumps(doc)))
    except HistoryError as error:  # any other exception fails the test: bad input must be named, not crash
        errors = error.lines()
    assert bool(counts) != bool(errors)
    assert all(line.startswith("tournaments[") for line in errors)
    assert counts is None or counts["tournaments"] == 5
    assert not Tournament.objects.exists()


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(key=st.sampled_from(["country", "players", "as_of", "tournaments"]), value=JSON)
def test_any_value_at_the_top_is_an_error_by_path_or_accepted(key, value):
    doc = rate_cli_example()
    doc[key] = value
    counts, errors = None, []
    try:
        counts = history_check(doc=json.loads(json.dumps(doc)))
    except HistoryError as error:
        errors = error.lines()
    assert bool(counts) != bool(errors)
    assert all(line.startswith((key, "tournaments[")) for line in errors)
    assert not Tournament.objects.exists()


# --- the admin's upload ---------------------------------------------------------------------------------------------


def test_staff_upload_a_mahjong_history_through_the_admin(client):
    from django.core.files.uploadedfile import SimpleUploadedFile

    from federation.celery import app
    from ratings.models import JobRun, JobState
    from tests.factories import federation_staff

    staff = federation_staff()
    client.force_login(staff)
    url = "/admin/ratings/ratinglist/import-history/"
    doc = generated_history()
    upload = SimpleUploadedFile("mahjong.json", json.dumps(doc).encode(), content_type="application/json")
    page = client.post(url, {"file": upload, "preview": "1"})
    text = page.content.decode()
    assert "<tr><th>турниров</th><td>30</td></tr>" in text
    assert "<tr><th>игроков</th><td>60</td></tr>" in text
    assert not Tournament.objects.exists()
    old = app.conf.task_always_eager
    app.conf.task_always_eager = True
    try:
        done = client.post(url, {"confirm": "1", "sha256": page.context["sha256"]})
    finally:
        app.conf.task_always_eager = old
    assert done.status_code == 302
    run = JobRun.objects.get(kind="history_import")
    assert run.state == JobState.SUCCEEDED
    assert Tournament.objects.filter(external_id__startswith="t").count() == 30
    judged = Tournament.objects.filter(accredited=True).exclude(accredited_by=None)
    assert judged.count() == sum(t["accredited"] for t in doc["tournaments"])
    assert set(judged.values_list("accredited_by", flat=True)) == {staff.pk}
    assert RatingList.objects.get(slug="mahjong-rr").snapshots.exists()
    bad = SimpleUploadedFile("bad.json", json.dumps({**doc, "tournaments": [{"id": "x"}]}).encode())
    text = client.post(url, {"file": bad, "preview": "1"}).content.decode()
    assert "tournaments[0].end_date" in text
    assert 'name="sha256"' not in text
