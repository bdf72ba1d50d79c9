"""Whole tournaments run through the director's pages, checked against levels and tie-breaks worked out by hand.

FUS (half stone, acceleration, 5 rounds) with six players A..F (ratings 2100..1600, start levels 42..32):
round by round the pairs follow `rules/go.md` "Pairing" (the safe walk, no rematch); the hand computation is in
the comments. PROFS (one stone, no acceleration, tie-break on, 3 rounds) with five players P..T shows the byes.
"""

import pytest

from tests.factories import organiser
from tournaments.go.models import Registration, StandingRow

from .helpers import EN, boards, byes, create, edit, pair, play, register

pytestmark = pytest.mark.django_db


@pytest.fixture
def director(client):
    user = organiser()
    client.force_login(user)
    return client


def standings(rnd) -> list[tuple[int, str, int, int, int | None]]:
    return [
        (r.place, r.registration.name, r.start_level, r.level, r.tiebreak)
        for r in StandingRow.objects.filter(round=rnd).select_related("registration").order_by("place", "id")
    ]


def levels(rnd) -> dict[str, int]:
    return {r.registration.name: r.level for r in StandingRow.objects.filter(round=rnd).select_related("registration")}


def run_round(director, go, expected_boards, winners, expected_levels, expected_byes=()):
    rnd = pair(director, go)
    assert boards(rnd) == expected_boards
    assert byes(rnd) == sorted(expected_byes)
    response = edit(director, go, rnd.number, action="publish")
    assert response.status_code == 200
    play(director, go, rnd, winners)
    rnd.refresh_from_db()
    assert rnd.completed
    assert levels(rnd) == expected_levels
    return rnd


def test_a_five_round_fus_tournament(director, django_assert_max_num_queries):
    go = create(director)
    for name, rating in (("A", 2100), ("B", 2000), ("C", 1900), ("D", 1800), ("E", 1700), ("F", 1600)):
        register(director, go, name, rating)
    # Round 1: levels 42 40 38 36 34 32; gaps of 2 = 1 stone, reverse komi.
    run_round(
        director,
        go,
        [("A", "B", 1, "reverse"), ("C", "D", 1, "reverse"), ("E", "F", 1, "reverse")],
        {("A", "B"): "A", ("C", "D"): "D", ("E", "F"): "F"},
        {"A": 43, "B": 40, "C": 38, "D": 37, "E": 34, "F": 33},
    )
    # Round 2: A met B, so A-C; B-D would leave E-F (a rematch), so B-E and D-F.
    run_round(
        director,
        go,
        [("A", "C", 3, "none"), ("B", "E", 3, "reverse"), ("D", "F", 2, "reverse")],
        {("A", "C"): "C", ("B", "E"): "B", ("D", "F"): "D"},
        {"A": 43, "B": 41, "C": 39, "D": 39, "E": 34, "F": 33},  # D: streak 2 -> +2
    )
    # Round 3: A-D (A met B, C); B-C would leave E-F, so B-F and C-E.
    run_round(
        director,
        go,
        [("A", "D", 2, "reverse"), ("B", "F", 4, "reverse"), ("C", "E", 3, "none")],
        {("A", "D"): "A", ("B", "F"): "F", ("C", "E"): "E"},
        {"A": 44, "B": 41, "C": 39, "D": 39, "E": 35, "F": 34},
    )
    # Round 4: A-E (gap 9: 5 stones, no komi); B-C would leave D-F (met), so B-D and C-F.
    run_round(
        director,
        go,
        [("A", "E", 5, "none"), ("B", "D", 1, "reverse"), ("C", "F", 3, "none")],
        {("A", "E"): "A", ("B", "D"): "D", ("C", "F"): "C"},
        {"A": 46, "B": 41, "C": 40, "D": 40, "E": 35, "F": 34},  # A: streak 2, capped at 5 - 4 + 1 = 2
    )
    # Round 5: everyone's last opponent; F's win after a win is capped at 5 - 5 + 1 = 1.
    last = run_round(
        director,
        go,
        [("A", "F", 6, "reverse"), ("B", "C", 1, "none"), ("D", "E", 3, "none")],
        {("A", "F"): "F", ("B", "C"): "B", ("D", "E"): "E"},
        {"A": 46, "B": 42, "C": 40, "D": 40, "E": 36, "F": 35},
    )
    # Tie-break by hand, e.g. C: R1 vs D (0) - (-2) = 2; R2 vs A 6 - 5 = 1; R3 vs E -4 + 5 = 1; R4 vs F 0; R5 vs B 1.
    assert standings(last) == [
        (1, "A", 42, 46, -5),
        (2, "B", 40, 42, 2),
        (3, "C", 38, 40, 5),
        (4, "D", 36, 40, 0),
        (5, "E", 34, 36, 0),
        (6, "F", 32, 35, -2),
    ]
    with django_assert_max_num_queries(8):
        page = director.get(f"{EN}/{go.pk}/standings/")
    text = page.content.decode()
    assert page.status_code == 200
    assert "after round 5" in text
    assert text.index(">C<") < text.index(">D<")
    # The pairing page of round 4 shows the handicap in words.
    page = director.get(f"{EN}/{go.pk}/rounds/4/")
    assert "5 stones, no komi" in page.content.decode()
    # All rounds played: pairing again is refused with the reason.
    response = director.post(f"{EN}/{go.pk}/pair/", follow=True)
    assert "All 5 rounds have been played." in response.content.decode()
    # A player's games page.
    a = Registration.objects.get(tournament=go, name="A")
    page = director.get(f"{EN}/{go.pk}/players/{a.pk}/")
    assert page.status_code == 200
    assert "level 46 = start 42" in page.content.decode()


def test_a_profs_tournament_with_byes(director):
    run_profs(director)


def run_profs(director):
    go = create(director, name="PROFS Cup", system="profs", rounds=3, half_stone=None, acceleration=None, tiebreak="on")
    for name, rating in (("P", 1500), ("Q", 1400), ("R", 1300), ("S", 1200), ("T", 1100)):
        register(director, go, name, rating)
    # Round 1: the bye goes to the lowest-ranked, T; one-stone gaps give 1 stone, no komi.
    run_round(
        director,
        go,
        [("P", "Q", 1, "none"), ("R", "S", 1, "none")],
        {("P", "Q"): "Q", ("R", "S"): "R"},
        {"P": 15, "Q": 15, "R": 14, "S": 12, "T": 12},
        ["T"],
    )
    # Round 2: T has had a bye, so S (lowest with none) sits out; P met Q, so P-R and Q-T.
    run_round(
        director,
        go,
        [("P", "R", 1, "none"), ("Q", "T", 3, "none")],
        {("P", "R"): "P", ("Q", "T"): "T"},
        {"P": 16, "Q": 15, "R": 14, "S": 13, "T": 13},
        ["S"],
    )
    # Round 3: R gets the bye; P-S would leave Q-T (met), so P-T and Q-S.
    last = run_round(
        director,
        go,
        [("P", "T", 3, "none"), ("Q", "S", 2, "none")],
        {("P", "T"): "T", ("Q", "S"): "Q"},
        {"P": 16, "Q": 16, "R": 15, "S": 13, "T": 14},
        ["R"],
    )
    # P and Q are level at 16: P's tie-break 1 + 0 + 1 = 2 beats Q's -1 - 1 + 1 = -1.
    assert standings(last) == [
        (1, "P", 15, 16, 2),
        (2, "Q", 14, 16, -1),
        (3, "R", 13, 15, -1),
        (4, "T", 11, 14, -2),
        (5, "S", 12, 13, 2),
    ]
    return go


def test_egd_export_of_the_profs_tournament_line_by_line(director):
    go = run_profs(director)
    # The class is the director's: until it is chosen, the table is refused with the reason.
    response = director.get(f"{EN}/{go.pk}/egd.h9", follow=True)
    assert "EGD class (A to D) before the EGD table is made" in response.content.decode()
    assert 'id="egd"' in director.get(f"{EN}/{go.pk}/").content.decode()
    director.post(f"{EN}/{go.pk}/egd-class/", {"egd_class": "C"})
    response = director.get(f"{EN}/{go.pk}/egd.h9")
    assert response.status_code == 200
    assert response["Content-Disposition"] == f'attachment; filename="tournament-{go.pk}.h9"'
    lines = response.content.decode("ascii").splitlines()
    assert lines == [
        "; CL[C]",
        "; EV[PROFS Cup]",
        "; PC[RU,Moscow]",
        "; DT[2026-03-07,2026-03-08]",
        "; HA[h9]",
        "; KM[6.5]",
        "; TM[60]",
        "; CM[PROFS (one stone, no acceleration) self-handicap tournament, acceleration off; one-stone levels: "
        "d stones, no komi; tie-break: final level, then the sum of (opponent's final level - own) - "
        "(the same before the game)]",
        "; Games not played (forfeits) and results for both players are written 0+ (a win) and 0- (a loss), as EGF",
        "; writes a round without a game; after a line's ';' each is given as played: r<round>:<game>, ! not played.",
        ";",
        "; Pl Surname Name Rk  Co Club      Rating Lv TB 1     2     3",
        "   1 P       -    6k  RU Moscow_GC   1500 16  2 2-/w1 3+/w1 4-/w3",
        "   2 Q       -    7k  RU Moscow_GC   1400 16 -1 1+/b1 4-/w3 5+/w2",
        "   3 R       -    8k  RU Moscow_GC   1300 15 -1 5+/w1 1-/b1 0+",
        "   4 T       -    10k RU Moscow_GC   1100 14 -2 0+    2+/b3 1+/b3",
        "   5 S       -    9k  RU Moscow_GC   1200 13  2 3-/b1 0+    2-/b2",
    ]


def test_egd_export_refused_before_the_end(director):
    go = create(director, name="Unfinished")
    register(director, go, "A", 2100)
    register(director, go, "B", 2000)
    director.post(f"{EN}/{go.pk}/egd-class/", {"egd_class": "B"})
    response = director.get(f"{EN}/{go.pk}/egd.h9", follow=True)
    assert "The EGD table is made once the tournament is finished: all 5 rounds with every result in." in (
        response.content.decode()
    )
