"""``manage.py rate`` as other tools use it (RATE_CLI.md): JSON in, JSON out, one line on error, no database.

The command runs in this process (these tests have no database access, so any query would fail them); one smoke
test starts a real ``manage.py rate`` against a database that does not exist.
"""

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.management import call_command

ROOT = Path(__file__).resolve().parents[2]


def rate(doc, monkeypatch, *, raw: str | None = None) -> tuple[int, str, str]:
    """Exit status, standard output and standard error of ``manage.py rate -`` fed ``doc`` (or ``raw``)."""
    monkeypatch.setattr(sys, "stdin", io.StringIO(raw if raw is not None else json.dumps(doc)))
    out, err = io.StringIO(), io.StringIO()
    try:
        call_command("rate", "-", stdout=out, stderr=err)
    except SystemExit as stop:
        return stop.code, out.getvalue(), err.getvalue()
    return 0, out.getvalue(), err.getvalue()


@pytest.fixture
def ok(monkeypatch):
    def run(doc):
        status, out, err = rate(doc, monkeypatch)
        assert status == 0, err
        return json.loads(out)

    return run


@pytest.fixture
def fails(monkeypatch):
    def run(doc, *, raw=None):
        status, out, err = rate(doc, monkeypatch, raw=raw)
        assert status == 1
        assert out == ""
        assert "Traceback" not in err
        lines = err.strip().splitlines()
        assert len(lines) == 1, err
        return lines[0]

    return run


GORBUNOV = {
    "system": "gorbunov",
    "ratings": {"ann": 190},
    "options": {"sqrt_rule": False},
    "tournaments": [
        {
            "id": "t1",
            "date": "2026-03-07",
            "k": 4,
            "format": "constructed",
            "results": [{"player": p, "place": i + 1} for i, p in enumerate(["ann", "bob", "cid", "dan"])],
        }
    ],
}


def test_a_real_manage_py_rate_reads_a_file_and_touches_no_database(tmp_path):
    path = tmp_path / "in.json"
    path.write_text(json.dumps(GORBUNOV))
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "federation.settings.test",
        # A database that does not exist: the command must not touch any table.
        "DATABASE_URL": "postgres://nobody@127.0.0.1:1/no_such_database",
    }
    result = subprocess.run(
        [sys.executable, "manage.py", "rate", str(path)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=env,
        check=False,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["ratings"]["ann"] == 202


def test_gorbunov_from_a_file(tmp_path):
    path = tmp_path / "in.json"
    path.write_text(json.dumps(GORBUNOV))
    out = io.StringIO()
    call_command("rate", str(path), stdout=out)
    out = json.loads(out.getvalue())
    # U = 4, Rt = (190 + 3 * 100) / 4 = 122.5. ann: base = 4 + 1 - 2 + 1 + (122.5 - 190) * 8 / 200 = 1.3 -> 3 (rule 1)
    # I = 3 * 4 = 12.
    assert out["ratings"]["ann"] == 202
    first = next(c for c in out["changes"] if c["player"] == "ann")
    assert first == {**first, "tournament": "t1", "player": "ann", "before": 190, "delta": 12}
    assert set(out["ratings"]) == {"ann", "bob", "cid", "dan"}


def test_mahjong_rr_list(ok):
    out = ok(
        {
            "system": "mahjong-rr",
            "as_of": "2025-06-01",
            "country": "RU",
            "players": [{"id": "p4", "country": "FR"}],
            "tournaments": [
                {
                    "id": "t1",
                    "end_date": "2025-03-01",
                    "players": 40,
                    "hanchans": 8,
                    "accredited": True,
                    "open": True,
                    "results": [
                        {"player": "p1", "place": 1},
                        {"player": "p4", "place": 2},
                        {"player": None, "place": 3},
                    ],
                },
                {
                    "id": "t2",
                    "end_date": "2025-04-01",
                    "players": 28,
                    "hanchans": 10,
                    "accredited": True,
                    "open": True,
                    "results": [{"player": "p1", "place": 1}, {"player": "p2", "place": 9}],
                },
                {
                    "id": "t3",
                    "end_date": "2025-04-01",
                    "players": 12,
                    "hanchans": 10,
                    "accredited": True,
                    "open": True,
                    "results": [{"player": "p1", "place": 1}],
                },
            ],
        }
    )
    assert out["as_of"] == "2025-06-01"
    assert [e["player"] for e in out["list"]] == ["p1"]
    entry = out["list"][0]
    assert entry["rank"] == 1
    assert entry["tournaments"] == 2
    # t1: W = 1.6 + 1.0 = 2.60, R = 1000; t2: W = 1.9 + 0.7 = 2.60, R = 1000. Part A = 5200 / (5.2 + 3) = 634.15;
    # part B = 5200 / (2.6 + 2.6 + 1 + 1) = 722.22; rating = (634.146... + 722.222...) / 2 = 678.18.
    assert entry["part_a"] == pytest.approx(634.15)
    assert entry["part_b"] == pytest.approx(722.22)
    assert entry["rating"] == pytest.approx(678.18)
    assert out["excluded"][0]["tournament"] == "t3"
    assert "16" in out["excluded"][0]["reason"]


def test_preferans_three_player_table(ok):
    out = ok(
        {
            "system": "preferans",
            "ratings": {"a": 1000, "b": 1800, "c": 1800},
            "deals": [{"game": "g1", "whists": {"a": -5, "b": 3, "c": 2}}],
        }
    )
    assert out["ratings"]["a"] == pytest.approx(1001.8597, abs=1e-4)
    assert out["ratings"]["b"] == pytest.approx(1800.8546, abs=1e-4)
    assert out["ratings"]["c"] == pytest.approx(1799.0491, abs=1e-4)
    assert out["leagues"]["a"] == "amateur"
    assert out["max_ratings"]["a"] == pytest.approx(1001.8597, abs=1e-4)


def test_dirs_contract_example(ok):
    out = ok(
        {
            "system": "dirs",
            "ratings": {"ann": 150, "bob": 137},
            "games": [{"white": "ann", "black": "bob", "winner": "ann", "handicap": 1, "komi": "reverse"}],
        }
    )
    assert out["ratings"] == {"ann": 152, "bob": 135}
    assert out["accelerations"] == {"ann": 1, "bob": 0}
    assert out["games"][0]["rated"] is True
    assert out["games"][0]["white_after"] == 152
    assert out["games"][0]["black_after"] == 135


def test_selfhandicap_standings_and_next_round(ok):
    out = ok(
        {
            "system": "selfhandicap",
            "options": {"half_stone": True, "acceleration": True},
            "rounds": 5,
            "players": [{"id": "ann", "rating": 1300}, {"id": "bob", "rating": 1700}, {"id": "cid", "rating": 1500}],
            "games": [[{"white": "bob", "black": "ann", "winner": "ann"}, {"bye": "cid"}]],
            "pair_next": True,
        }
    )
    levels = {s["player"]: s["level"] for s in out["standings"]}
    # FUS start levels: 2 * rating // 100. ann 26 + 1 (a win, streak 1) = 27; cid 30 + 1 (bye) = 31; bob 34.
    assert levels == {"ann": 27, "bob": 34, "cid": 31}
    assert [s["player"] for s in out["standings"]] == ["bob", "cid", "ann"]
    boards = [b for b in out["next_round"] if "white" in b]
    byes = [b["bye"] for b in out["next_round"] if "bye" in b]
    assert len(boards) == 1
    assert len(byes) == 1
    assert byes != ["cid"]  # never a second bye while others have had none


@pytest.mark.parametrize(
    ("doc", "field"),
    [
        (
            {
                "system": "gorbunov",
                "tournaments": [
                    {
                        "id": "t1",
                        "date": "2026-03-07",
                        "k": 1,
                        "results": [{"player": "a", "place": 1}, {"player": "b", "place": 5}],
                    }
                ],
            },
            "tournaments[0].results[1].place",
        ),
        (
            {"system": "gorbunov", "tournaments": [{"id": "t1", "date": "2026-13-07", "k": 1, "results": []}]},
            "tournaments[0].date",
        ),
        (
            {
                "system": "gorbunov",
                "tournaments": [
                    {
                        "id": "t1",
                        "date": "2026-03-07",
                        "k": 1,
                        "results": [{"player": "a", "place": 1}, {"player": "a", "place": 2}],
                    }
                ],
            },
            "tournaments[0].results[1].player",
        ),
        (
            {"system": "mahjong-crr", "as_of": "yesterday", "tournaments": []},
            "as_of",
        ),
        (
            {"system": "preferans", "deals": [{"game": "g", "whists": {"a": 1, "b": 1, "c": -1, "d": -1, "e": 0}}]},
            "deals[0].whists",
        ),
        (
            {
                "system": "preferans",
                "deals": [
                    {"game": "g", "whists": {"a": 1, "b": -1, "c": 0}},
                    {"game": "g", "whists": {"a": 1, "b": -1, "x": 0}},
                ],
            },
            "deals[1].whists",
        ),
        (
            {"system": "dirs", "games": [{"white": "ann", "black": "bob", "winner": "carl"}]},
            "games[0].winner",
        ),
        ({"system": "chess"}, "system"),
    ],
    ids=[
        "place-larger-than-players",
        "date-not-a-date",
        "player-twice",
        "mahjong-date-not-a-date",
        "table-of-five",
        "player-missing-from-table",
        "winner-neither-player",
        "unknown-system",
    ],
)
def test_bad_input_names_the_field(doc, field, fails):
    line = fails(doc)
    assert line.startswith(field + ":"), line


def test_place_larger_than_players_says_the_numbers(fails):
    line = fails(
        {
            "system": "gorbunov",
            "tournaments": [
                {
                    "id": "t1",
                    "date": "2026-03-07",
                    "k": 1,
                    "results": [{"player": "a", "place": 1}, {"player": "b", "place": 5}],
                }
            ],
        }
    )
    assert "5" in line
    assert "2" in line


def test_not_json_is_one_line(fails):
    assert fails(None, raw="{not json").startswith("input:")
