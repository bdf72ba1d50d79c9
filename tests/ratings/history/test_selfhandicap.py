"""A finished self-handicap tournament (PROFS / FUS) moves in through ``import_history``: players, rounds as played,
stored standings; ``show_list selfhandicap`` prints exactly what ``rate`` prints; the round trip through
``export_history`` is exact; a bad document saves nothing and names every error; the admin's upload imports one.
"""

import json
import random

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from federation.models import Player
from ratings.history import HistoryError, history_check, history_import
from ratings.models import JobRun, JobState
from tests.factories import federation_staff
from tournaments.go.models import Absence, Board, BoardResult, Bye, GoTournament, Registration, Round, StandingRow
from tournaments.models import GoSystem, Tournament
from tournaments.pairing.selfhandicap import rate_document

from .conftest import rate_output
from .test_admin_upload import URL

pytestmark = pytest.mark.django_db


def tiebreak_example() -> dict:
    """rules/go.md part 1, the tie-break: ann (white) plays bob in round 1 standing 3 levels above him (13 vs 10);
    at the end both stand at 13, so ann's term for that game is (13 - 13) - (10 - 13) = +3 and bob's -3. PROFS,
    3 rounds; worked by hand: dan 16 (-1), fay 16 (-3), eve 14, ann 13 (+6), bob 13 (-6), cid 11."""
    return {
        "system": "selfhandicap",
        "id": "tb-2019",
        "name": "Кубок клуба",
        "date": "2019-03-02",
        "city": "Москва",
        "rounds": 3,
        "options": {"half_stone": False, "acceleration": False},
        "players": [
            {"id": "ann", "rating": 1300, "name": "Антонова Анна"},
            {"id": "bob", "rating": 1000},
            {"id": "cid", "rating": 1100},
            {"id": "dan", "rating": 1400},
            {"id": "eve", "rating": 1200},
            {"id": "fay", "rating": 1400},
        ],
        "games": [
            [
                {"white": "ann", "black": "bob", "winner": "bob"},
                {"white": "dan", "black": "fay", "winner": "dan"},
                {"white": "eve", "black": "cid", "winner": "eve"},
            ],
            [
                {"white": "bob", "black": "cid", "winner": "bob"},
                {"white": "fay", "black": "ann", "winner": "fay"},
                {"white": "dan", "black": "eve", "winner": "eve"},
            ],
            [
                {"white": "eve", "black": "bob", "winner": "bob"},
                {"white": "dan", "black": "ann", "winner": "dan"},
                {"white": "fay", "black": "cid", "winner": "fay"},
            ],
        ],
    }


def fus_example() -> dict:
    """rules/go.md part 1, the FUS worked example: an 8 kyu (rating 1300, start 2 * 1300 // 100 = 26) who wins
    rounds 1-4 has 26 + 1 + 2 + 3 + 2 = 34 before round 5, the start level of a 4 kyu (1700 -> 34): an even game.
    Winning round 5 too makes 1 + 2 + 3 + 2 + 1 = 9 points. The 4 kyu registers late (absent in rounds 1-4)."""
    others = [{"id": f"c{i}", "rating": 1300} for i in range(1, 5)]
    return {
        "system": "selfhandicap",
        "id": "fus-5",
        "rounds": 5,
        "options": {"half_stone": True, "acceleration": True},
        "players": [
            {"id": "ann", "rating": 1300},
            {"id": "kim", "rating": 1700, "absent": [1, 2, 3, 4]},
            *others,
        ],
        "games": [
            *([{"white": f"c{r}", "black": "ann", "winner": "ann"}] for r in range(1, 5)),
            [{"white": "kim", "black": "ann", "winner": "ann"}, {"white": "c1", "black": "c2", "winner": "c1"}],
        ],
    }


def fourteen_rounds() -> dict:
    """rules/go.md part 1, acceleration: winning every one of 14 rounds gives 56 points (1 + 2 + ... capped by the
    rounds left: 1..7, then 7, 6, ..., 1)."""
    players = [{"id": "ace", "rating": 1000}] + [{"id": f"o{i:02d}", "rating": 1000} for i in range(1, 15)]
    return {
        "system": "selfhandicap",
        "id": "fourteen",
        "rounds": 14,
        "options": {"half_stone": False, "acceleration": True, "tiebreak": False},
        "players": players,
        "games": [[{"white": f"o{r:02d}", "black": "ace", "winner": "ace"}] for r in range(1, 15)],
    }


def generated_tournament(seed: int = 5, players: int = 11, rounds: int = 5) -> dict:
    """Five FUS rounds of an odd field (a bye every round), paired as the site pairs them (``rate``'s
    ``pair_next``), random results with a draw now and then, two players absent in round 3, and one board played on
    a handicap the director changed by hand."""
    rng = random.Random(seed)
    doc = {
        "system": "selfhandicap",
        "id": f"gen-{seed}",
        "date": "2020-05-09",
        "rounds": rounds,
        "options": {"half_stone": True, "acceleration": True, "draws": True, "komi": {"normal": 7.5}},
        "players": [{"id": f"p{i:02d}", "rating": rng.randrange(1000, 1800)} for i in range(players)],
        "games": [],
    }
    doc["players"][4]["absent"] = [3]
    doc["players"][5]["absent"] = [3]
    for _round in range(rounds):
        paired = rate_document({**doc, "pair_next": True, "seed": seed})["next_round"]
        played = []
        for board in paired:
            if "bye" in board:
                played.append({"bye": board["bye"]})
                continue
            chance = rng.random()
            winner = None if chance < 0.1 else board["white"] if chance < 0.55 else board["black"]
            played.append({"white": board["white"], "black": board["black"], "winner": winner})
        doc["games"].append(played)
    first = next(item for item in doc["games"][1] if "white" in item)
    first["handicap"], first["komi"] = 0, "normal"
    return doc


def _counts() -> tuple[int, ...]:
    models = (Player, Tournament, GoTournament, Registration, Absence, Round, Board, Bye, StandingRow)
    return tuple(model.objects.count() for model in models)


def test_the_tiebreak_example_goes_in_and_show_list_prints_what_rate_prints(postgres, import_doc, show_list):
    doc = tiebreak_example()
    report = import_doc(doc)
    assert report["created"] == {"players": 6, "tournaments": 1, "rounds": 3, "games": 9, "byes": 0}
    shown = show_list("selfhandicap")
    assert shown == rate_output(doc)
    table = [(s["place"], s["player"], s["level"], s["tiebreak"]) for s in shown["standings"]]
    assert table == [
        (1, "dan", 16, -1),
        (2, "fay", 16, -3),
        (3, "eve", 14, -1),
        (4, "ann", 13, 6),
        (5, "bob", 13, -6),
        (6, "cid", 11, 5),
    ]
    by_player = {s["player"]: s for s in shown["standings"]}
    assert "[round 1 vs bob: (13 - 13) - (10 - 13) = +3]" in by_player["ann"]["explanation"]["en"]
    assert "[тур 1, ann: (13 - 13) - (13 - 10) = -3]" in by_player["bob"]["explanation"]["ru"]
    tournament = Tournament.objects.get(external_id="tb-2019")
    assert (tournament.name, tournament.city, str(tournament.end_date)) == ("Кубок клуба", "Москва", "2019-03-02")
    assert (tournament.go_system, tournament.rounds, tournament.half_stone) == (GoSystem.PROFS, 3, False)
    ann = Player.objects.get(external_id="ann")
    assert (ann.last_name, ann.first_name) == ("Антонова", "Анна")
    assert Player.objects.get(external_id="bob").last_name == "Игрок bob"
    first = Board.objects.get(round__number=1, white__player=ann)
    assert (first.white_level, first.black_level, first.handicap, first.komi_kind) == (13, 10, 3, "none")
    assert first.result == BoardResult.BLACK
    last = StandingRow.objects.filter(round__number=3).order_by("place")
    assert [(row.place, row.level) for row in last] == [(1, 16), (2, 16), (3, 14), (4, 13), (5, 13), (6, 11)]


def test_the_fus_example_plays_an_even_game_in_round_5(client, postgres, import_doc, show_list):
    doc = fus_example()
    import_doc(doc)
    shown = show_list("selfhandicap", "--tournament", "fus-5")
    assert shown == rate_output(doc)
    assert shown["standings"][0]["player"] == "ann"
    assert (shown["standings"][0]["start_level"], shown["standings"][0]["level"]) == (26, 35)
    board = Board.objects.get(round__number=5, black__player__external_id="ann")
    assert (board.white_level, board.black_level, board.handicap, board.komi_kind) == (34, 34, 0, "normal")
    assert str(board.komi) == "6.5"
    kim = Registration.objects.get(player__external_id="kim")
    assert sorted(Absence.objects.filter(registration=kim).values_list("round_number", flat=True)) == [1, 2, 3, 4]
    tournament = Tournament.objects.get(external_id="fus-5")
    assert (tournament.go_system, tournament.half_stone, tournament.acceleration) == (GoSystem.FUS, True, True)
    page = client.get(f"/en/go/{tournament.pk}/rounds/5/")
    assert page.status_code == 200
    assert "Player kim" in page.content.decode()


def test_fourteen_wins_in_a_row_give_56_points(postgres, import_doc, show_list):
    doc = fourteen_rounds()
    import_doc(doc)
    shown = show_list("selfhandicap")
    assert shown == rate_output(doc)
    ace = shown["standings"][0]
    assert (ace["player"], ace["start_level"], ace["level"], ace["tiebreak"]) == ("ace", 10, 66, None)
    assert "wins 1 + 2 + 3 + 4 + 5 + 6 + 7 + 7 + 6 + 5 + 4 + 3 + 2 + 1" in ace["explanation"]["en"]


def test_a_generated_tournament_with_byes_agrees_with_rate_and_a_second_import_changes_nothing(
    postgres, import_doc, show_list
):
    doc = generated_tournament()
    assert all(any("bye" in item for item in items) for items in doc["games"])
    report = import_doc(doc)
    assert report["created"]["byes"] == 5
    assert show_list("selfhandicap") == rate_output(doc)
    assert Board.objects.filter(result=BoardResult.DRAW).exists()
    assert Bye.objects.count() == 5
    counts = _counts()
    stamps = list(Board.objects.order_by("pk").values_list("entered_at", flat=True))
    again = import_doc(doc)
    assert set(again["created"].values()) == {0}
    assert again["unchanged"] == {"players": 11, "tournaments": 1, "rounds": 5, "games": 24, "byes": 5}
    assert _counts() == counts
    assert list(Board.objects.order_by("pk").values_list("entered_at", flat=True)) == stamps


def test_export_and_the_round_trip_are_exact(postgres, import_doc, export_history, show_list):
    doc = generated_tournament(seed=8)
    import_doc(doc)
    exported = export_history("selfhandicap")
    assert rate_output(exported) == show_list("selfhandicap") == rate_output(doc)
    assert exported["options"] == {
        "half_stone": True,
        "acceleration": True,
        "draws": True,
        "tiebreak": True,
        "komi": {"normal": 7.5, "none": 0.5, "reverse": 6.5},
    }
    changed = next(item for item in exported["games"][1] if "handicap" in item)
    assert (changed["handicap"], changed["komi"]) == (0, "normal")
    assert exported["players"][4]["absent"] == [3]
    for model in (StandingRow, Bye, Board, Absence, Round, Registration, GoTournament, Tournament, Player):
        model.objects.all().delete()
    import_doc(exported)
    assert export_history("selfhandicap", "--tournament", "gen-8") == exported


def test_without_an_id_the_content_names_the_tournament_and_show_list_picks_the_newest(
    postgres, import_doc, show_list, export_history
):
    older = {key: value for key, value in tiebreak_example().items() if key not in ("id", "date")}
    older["date"] = "2018-01-01"
    import_doc(older)
    assert set(import_doc(older)["created"].values()) == {0}
    derived = Tournament.objects.get().external_id
    assert derived.startswith("sh-")
    assert len(derived) == 19
    newer = fus_example()
    newer["date"] = "2019-01-01"
    import_doc(newer)
    assert show_list("selfhandicap") == rate_output(newer)
    assert show_list("selfhandicap", "--as-of", "2018-06-01") == rate_output(older)
    assert show_list("selfhandicap", "--tournament", derived) == rate_output(older)
    assert export_history("selfhandicap")["id"] == "fus-5"


def test_a_bad_document_saves_nothing_and_names_every_error(postgres, import_fails):
    doc = generated_tournament()
    doc["rounds"] = 5
    doc["options"]["half_stone"] = "yes"
    doc["options"]["komi"] = {"normal": 6.55, "huge": 1}
    doc["players"][1]["rating"] = 3100
    doc["players"][2]["absent"] = [9]
    doc["players"].append({"id": "p00", "rating": 1000})
    doc["games"][0][0]["winner"] = "nobody"
    doc["games"][1].append({"white": "zed", "black": "zed", "winner": "zed"})
    doc["games"][2].append({"bye": "p04"})
    doc["date"] = "2020-02-30"
    doc["pair_next"] = True
    lines = import_fails(doc)
    assert lines == [
        "date: '2020-02-30' is not a date (YYYY-MM-DD)",
        "options.half_stone: 'yes' is not true or false",
        "options.komi.huge: unknown key (expected one of none, normal, reverse)",
        "options.komi.normal: 6.55 is not a komi of 0 to 99.5 points",
        "pair_next: the site imports a finished tournament: nothing is left to pair",
        "players[1].rating: 3100 is not a whole rating 0 to 3000",
        "players[2].absent[0]: 9 is not another round 1..5",
        'players[11].id: "p00" is registered twice (players[0])',
        "games[0][0].winner: 'nobody' is neither white nor black",
        "games[1][6].white: 'zed' is not a player of the tournament",
        "games[1][6].black: 'zed' is not a player of the tournament",
        'games[2][5].bye: "p04" is marked absent in round 3',
    ]
    assert _counts() == (0,) * 9
    short = {**tiebreak_example(), "rounds": 4}
    assert import_fails(short) == [
        "games: 3 rounds of results, but the tournament has 4 rounds: only a finished tournament is imported "
        "(a tournament in progress is run on the site)"
    ]
    assert _counts() == (0,) * 9


def test_text_no_column_can_store_and_a_field_of_one_are_refused(postgres, import_fails):
    doc = tiebreak_example()
    doc["name"] = "Кубок\x00"
    doc["players"][2]["id"] = "c\x00d"
    assert import_fails(doc) == ["name: contains a NUL character", "players[2].id: contains a NUL character"]
    alone = {**tiebreak_example(), "rounds": 1, "players": [{"id": "ann", "rating": 1300}], "games": [[]]}
    assert import_fails(alone) == ["players: a tournament has at least 2 players"]
    assert _counts() == (0,) * 9


def test_a_tournament_on_the_site_with_other_results_is_refused(postgres, import_doc, import_fails):
    doc = tiebreak_example()
    import_doc(doc)
    doc["games"][2][0]["winner"] = "eve"
    assert import_fails(doc) == [
        "id: tournament 'tb-2019' is on the site with other players or results; the site's record is kept "
        "(correct it on the tournament's pages)"
    ]
    assert Board.objects.filter(result=BoardResult.BLACK, round__number=3, black__player__external_id="bob").exists()


def test_a_tournament_run_on_the_site_reads_as_a_document(postgres, import_doc, export_history, show_list):
    """A tournament whose registrations are typed names (not members) exports them as ``reg-<id>``; importing that
    export elsewhere gives the same standings."""
    import_doc(tiebreak_example())
    Registration.objects.filter(player__external_id="cid").update(player=None, name="Сидоров Иван", name_latin="")
    exported = export_history("selfhandicap")
    cid = Registration.objects.get(name="Сидоров Иван")
    assert {"id": f"reg-{cid.pk}", "rating": 1100, "name": "Сидоров Иван"} in exported["players"]
    assert rate_output(exported) == show_list("selfhandicap")


def test_list_commands_refuse_what_a_tournament_document_is_not(postgres, monkeypatch):
    from .conftest import run_command

    status, _out, err = run_command("export_history", "selfhandicap")
    assert status == 1
    assert err.strip() == "tournament: no finished self-handicap tournament on the site"
    status, _out, err = run_command("import_history", "-", "--list", "gorbunov", stdin="{}", monkeypatch=monkeypatch)
    assert (status, err.strip()) == (1, "system: missing (the document must name its system)")
    doc = json.dumps(tiebreak_example())
    status, _out, err = run_command("import_history", "-", "--list", "gorbunov", stdin=doc, monkeypatch=monkeypatch)
    assert (status, err.strip()) == (1, "list: selfhandicap keeps no rating list (no --list)")
    status, _out, err = run_command("export_history", "dirs", "--tournament", "x")
    assert (status, err.strip()) == (1, "tournament: dirs documents are not one tournament (no --tournament)")


def test_staff_upload_a_tournament_in_the_admin(client, postgres, eager):
    staff = federation_staff()
    client.force_login(staff)
    doc = generated_tournament()
    upload = SimpleUploadedFile("t.json", json.dumps(doc).encode("utf-8"), content_type="application/json")
    page = client.post(URL, {"file": upload, "preview": "1"})
    text = page.content.decode()
    assert "<tr><th>игроков</th><td>11</td></tr>" in text
    assert "<tr><th>партий</th><td>24</td></tr>" in text
    assert "<tr><th>свободных туров</th><td>5</td></tr>" in text
    assert not Tournament.objects.exists()
    done = client.post(URL, {"confirm": "1", "sha256": page.context["sha256"]})
    run = JobRun.objects.get(kind="history_import")
    assert run.state == JobState.SUCCEEDED
    assert done["Location"].endswith(f"/admin/ratings/jobrun/{run.pk}/change/")
    tournament = Tournament.objects.get(external_id="gen-5")
    assert tournament.organiser == staff
    assert (tournament.status, tournament.approved_by) == ("approved", staff)  # finished history: public at once
    assert f"/tournaments/{tournament.pk}/" in client.get("/en/tournaments/?discipline=go").content.decode()
    assert StandingRow.objects.filter(round__number=5).count() == 11
    assert "туров: 5" in client.get(done["Location"]).content.decode()
    bad = {**doc, "rounds": 0}
    upload = SimpleUploadedFile("t.json", json.dumps(bad).encode("utf-8"), content_type="application/json")
    text = client.post(URL, {"file": upload, "preview": "1"}).content.decode()
    assert "rounds: 0 is not a whole number of rounds 1..30" in text
    assert 'name="sha256"' not in text


# --- fuzzing the reading: any change to a good document is imported or refused by path, never a crash -----------

values = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(10**12), max_value=10**12),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=12),
    st.lists(st.integers(min_value=-2, max_value=40), max_size=3),
    st.dictionaries(st.text(max_size=5), st.integers(), max_size=2),
)
PATHS = [
    ("rounds",),
    ("id",),
    ("date",),
    ("name",),
    ("options",),
    ("options", "half_stone"),
    ("options", "komi"),
    ("players",),
    ("players", 0),
    ("players", 0, "rating"),
    ("players", 1, "id"),
    ("players", 2, "absent"),
    ("games",),
    ("games", 0),
    ("games", 1, 0),
    ("games", 1, 0, "winner"),
    ("games", 2, 0, "white"),
    ("games", 0, 0, "handicap"),
    ("games", 0, 0, "komi"),
    ("pair_next",),
]


@settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    database=None,
)
@given(path=st.sampled_from(PATHS), value=values)
def test_any_change_is_read_or_refused_by_path(postgres, path, value):
    doc = tiebreak_example()
    target = doc
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    try:
        counts, lines = history_check(doc=doc), []
    except HistoryError as error:
        counts, lines = {}, error.lines()
    if counts:
        assert counts["tournaments"] == 1
    else:
        assert lines
        assert all(line.split(": ", 1)[0] and ": " in line for line in lines)
    assert not Tournament.objects.exists()


@settings(
    max_examples=15,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    database=None,
)
@given(ident=st.text(max_size=110), name=st.text(max_size=210), city=st.text(max_size=110), who=st.text(max_size=60))
def test_any_names_are_imported_or_refused_by_path(postgres, ident, name, city, who):
    doc = {**tiebreak_example(), "id": ident, "name": name, "city": city}
    doc["players"][1]["name"] = who
    try:
        report, lines = history_import(doc=doc), []
    except HistoryError as error:
        report, lines = None, error.lines()
    if report is None:
        assert lines
        assert all(line.split(": ", 1)[0] in ("id", "name", "city", "players[1].name") for line in lines)
    else:
        assert report.created.get("tournaments", 0) + report.unchanged.get("tournaments", 0) == 1
        assert Tournament.objects.filter(external_id=ident.strip()).exists()
