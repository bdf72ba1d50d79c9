"""Pairing rules through the service, hand changes before publishing, and bad input refused with nothing changed."""

import pytest

from ratings.dirs.models import DirsRating
from tests.factories import PlayerFactory, UserFactory, organiser
from tournaments import pairing
from tournaments.go import services
from tournaments.go.models import Absence, Board, Bye, Registration

from .helpers import EN, boards, create, edit, pair, play, register, result

pytestmark = pytest.mark.django_db


@pytest.fixture
def director(client):
    client.force_login(organiser())
    return client


def _messages(response) -> str:
    return response.content.decode()


def test_pairing_rules_no_rematch_nine_stones_byes(director):
    """Seven players, six rounds: never a rematch, never over 9 stones, no second bye while others have none."""
    go = create(director, name="Rules", rounds=6)
    ratings = [2400, 2300, 2250, 2000, 1900, 1200, 700]  # 700 is 34 levels below 2400: never paired with the top
    for i, rating in enumerate(ratings):
        register(director, go, f"P{i}", rating)
    met: set[frozenset[int]] = set()
    bye_counts: dict[int, int] = {}
    for number in range(1, 7):
        rnd = services.go_round_pair(go=go)
        services.go_round_publish(go_round=rnd)
        for b in rnd.boards.all():
            pair_key = frozenset((b.white_id, b.black_id))
            assert pair_key not in met
            met.add(pair_key)
            assert b.handicap <= 9
            assert abs(b.white_level - b.black_level) <= 18
        everyone = list(go.registrations.values_list("pk", flat=True))
        for bye in rnd.byes.all():
            fewest_other = min(bye_counts.get(pk, 0) for pk in everyone if pk != bye.registration_id)
            if bye_counts.get(bye.registration_id, 0) > fewest_other:
                assert pairing.RULE_BYE_REPEAT in [i["rule"] for i in rnd.issues]
            bye_counts[bye.registration_id] = bye_counts.get(bye.registration_id, 0) + 1
        for b in rnd.boards.all():
            services.go_result_enter(go_round=rnd, board_number=b.number, result="white")
        rnd.refresh_from_db()
        assert rnd.completed, number
    assert sum(bye_counts.values()) >= 6


def test_unpair_pair_by_hand_swap_bye_and_publish(director):
    go = create(director, name="Hand", rounds=3)
    regs = [
        register(director, go, name, rating) for name, rating in (("A", 2100), ("B", 2000), ("C", 1900), ("D", 1800))
    ]
    rnd = pair(director, go)
    assert boards(rnd) == [("A", "B", 1, "reverse"), ("C", "D", 1, "reverse")]
    page = _messages(edit(director, go, 1, action="unpair", board=2))
    assert "Not paired" in page
    assert boards(rnd) == [("A", "B", 1, "reverse")]
    rnd.refresh_from_db()
    assert {i["rule"] for i in rnd.issues} == {"unpaired"}
    # A bye for a paired player is refused.
    page = _messages(edit(director, go, 1, action="bye", first=regs[0].pk))
    assert "A already plays on board 1." in page
    edit(director, go, 1, action="pair", first=regs[3].pk, second=regs[2].pk)
    assert boards(rnd) == [("A", "B", 1, "reverse"), ("C", "D", 1, "reverse")]
    rnd.refresh_from_db()
    assert rnd.issues == []
    assert [o["action"] for o in rnd.overrides] == ["unpair", "pair"]
    # Swap B and D: A-D (gap 6: 3 stones, reverse komi) and C-B (B is higher: B white).
    edit(director, go, 1, action="swap", first=regs[1].pk, second=regs[3].pk)
    assert boards(rnd) == [("A", "D", 3, "reverse"), ("B", "C", 1, "reverse")]
    # Re-pairing gives the engine's pairing back, with the same seed.
    edit(director, go, 1, action="repair")
    assert boards(rnd) == [("A", "B", 1, "reverse"), ("C", "D", 1, "reverse")]
    rnd.refresh_from_db()
    assert rnd.overrides == []
    edit(director, go, 1, action="publish")
    rnd.refresh_from_db()
    assert rnd.is_published
    # Published: no more hand changes; unpublish works until the first result.
    page = _messages(edit(director, go, 1, action="swap", first=regs[1].pk, second=regs[3].pk))
    assert "unpublish it before changing the pairing" in page
    edit(director, go, 1, action="unpublish")
    rnd.refresh_from_db()
    assert not rnd.is_published
    edit(director, go, 1, action="publish")
    result(director, go, 1, 1, "white")
    page = _messages(edit(director, go, 1, action="unpublish"))
    assert "already has results: it cannot be unpublished" in page


def test_bad_results_are_refused_and_nothing_changes(director):
    go = create(director, name="Bad", rounds=2)
    for name, rating in (("A", 2100), ("B", 2000)):
        register(director, go, name, rating)
    rnd = pair(director, go)
    page = _messages(result(director, go, 1, 1, "white"))
    assert "Round 1 is not published yet." in page
    edit(director, go, 1, action="publish")
    page = _messages(result(director, go, 1, 7, "white"))
    assert "Board 7 is not in round 1." in page
    page = _messages(result(director, go, 1, 1, "draw"))
    assert "This tournament does not allow draws." in page
    assert Board.objects.get(round=rnd).result == ""
    result(director, go, 1, 1, "black")
    page = _messages(result(director, go, 1, 1, "white"))
    assert "Board 1 already has a result (black wins)." in page
    assert Board.objects.get(round=rnd).result == "black"
    # A stale version (someone changed the board meanwhile) is refused too.
    with pytest.raises(services.GoError, match="already has a result"):
        services.go_result_enter(go_round=rnd, board_number=1, result="white", version=0)


def test_draws_where_allowed(director):
    go = create(director, name="Draws", rounds=2, draws_allowed="on")
    for name, rating in (("A", 2100), ("B", 2100)):
        register(director, go, name, rating)
    rnd = pair(director, go)
    edit(director, go, 1, action="publish")
    result(director, go, 1, 1, "draw")
    rnd.refresh_from_db()
    assert rnd.completed
    assert {r.level for r in rnd.standings.all()} == {42}


def test_registration_refusals(director):
    go = create(director, name="Reg")
    register(director, go, "A", 2100)
    response = director.post(f"{EN}/{go.pk}/register/", {"surname": "a", "rating": 1500}, follow=True)
    assert "a is already registered." in _messages(response)
    response = director.post(f"{EN}/{go.pk}/register/", {"surname": "Z", "rating": 4000}, follow=True)
    assert "Rating 4000 is outside the tournament scale (0..3000)." in _messages(response)
    response = director.post(f"{EN}/{go.pk}/register/", {"surname": "Y", "rating": -5}, follow=True)
    assert "Rating -5 is outside" in _messages(response)
    member = PlayerFactory(last_name="Петров", first_name="Пётр")
    response = director.post(f"{EN}/{go.pk}/register/", {"player": member.pk}, follow=True)
    assert "has no DIRS rating: type a rating." in _messages(response)
    DirsRating.objects.create(player=member, rating=150, initial_rating=150, declared_rank="6k")
    director.post(f"{EN}/{go.pk}/register/", {"player": member.pk})
    reg = Registration.objects.get(tournament=go, player=member)
    assert (reg.rating, reg.rating_source) == (1500, "dirs")
    response = director.post(f"{EN}/{go.pk}/register/", {"player": member.pk}, follow=True)
    assert "Петров Пётр is already registered." in _messages(response)
    assert Registration.objects.filter(tournament=go).count() == 2


def test_late_entry_withdrawal_and_absence(director):
    go = create(director, name="Late", rounds=3)
    a, b, c = (register(director, go, n, r) for n, r in (("A", 2100), ("B", 2000), ("C", 1900)))
    director.post(f"{EN}/{go.pk}/absence/", {"registration": c.pk, "round_number": 1, "absent": "on"})
    assert Absence.objects.filter(registration=c, round_number=1).exists()
    rnd = pair(director, go)
    assert boards(rnd) == [("A", "B", 1, "reverse")]
    assert not Bye.objects.filter(round=rnd).exists()
    edit(director, go, 1, action="publish")
    # Marking a paired player absent in a published round is refused.
    response = director.post(
        f"{EN}/{go.pk}/absence/", {"registration": a.pk, "round_number": 1, "absent": "on"}, follow=True
    )
    assert "Round 1 is published: unpublish it first." in _messages(response)
    late = register(director, go, "L", 1850)
    assert late.first_round == 2
    play(director, go, rnd, {("A", "B"): "A"})
    # Withdrawing asks first: the first post shows the question, nothing changes until it is confirmed.
    page = director.post(f"{EN}/{go.pk}/registrations/{b.pk}/withdraw/").content.decode()
    assert "Withdraw B?" in page
    assert 'name="confirmed" value="1"' in page
    b.refresh_from_db()
    assert b.withdrawn_after is None
    director.post(f"{EN}/{go.pk}/registrations/{b.pk}/withdraw/", {"confirmed": "1"})
    b.refresh_from_db()
    assert b.withdrawn_after == 1
    rnd2 = pair(director, go)
    # Present: A (43), C (38), L (37): the bye goes to the lowest-ranked, L; A plays C.
    assert boards(rnd2) == [("A", "C", 3, "none")]
    assert [x.registration.name for x in rnd2.byes.all()] == ["L"]
    edit(director, go, 2, action="publish")
    play(director, go, rnd2, {("A", "C"): "C"})
    rnd2.refresh_from_db()
    lv = {r.registration.name: r.level for r in rnd2.standings.select_related("registration")}
    # L: start 37 + bye 1; C: absent in round 1, wins round 2 for 1 (streak 1); B withdrawn keeps 40.
    assert lv == {"A": 43, "B": 40, "C": 39, "L": 38}


def test_only_the_director_runs_the_tournament(client, director):
    go = create(director, name="Mine")
    response = client.post(f"{EN}/{go.pk}/pair/")
    assert response.status_code == 302
    other = UserFactory()
    client.force_login(other)
    assert client.post(f"{EN}/{go.pk}/pair/").status_code == 404  # a draft is not even shown to others
    assert client.get(f"{EN}/{go.pk}/").status_code == 404
    assert client.get(f"{EN}/new/").status_code == 403


def _numbered(rnd) -> list[tuple[int, str, str]]:
    return [
        (b.number, b.white.name, b.black.name)
        for b in Board.objects.filter(round=rnd).select_related("white", "black").order_by("number")
    ]


def test_boards_are_numbered_again_after_every_hand_change(director):
    """The top pair sits on board 1 after any hand change, as the pairing numbers boards (by their best player)."""
    go = create(director, name="Numbers", rounds=3)
    regs = {
        name: register(director, go, name, rating)
        for name, rating in (("A", 2100), ("B", 2000), ("C", 1900), ("D", 1800), ("E", 1700), ("F", 1600))
    }
    rnd = pair(director, go)
    assert _numbered(rnd) == [(1, "A", "B"), (2, "C", "D"), (3, "E", "F")]
    edit(director, go, 1, action="unpair", board=1)
    assert _numbered(rnd) == [(1, "C", "D"), (2, "E", "F")]
    edit(director, go, 1, action="pair", first=regs["B"].pk, second=regs["A"].pk)
    assert _numbered(rnd) == [(1, "A", "B"), (2, "C", "D"), (3, "E", "F")]
    rnd.refresh_from_db()
    assert rnd.overrides[-1]["en"] == "paired by hand on board 1: B - A"
    # Swap B and E: A-E holds the best player, then B-F, then C-D.
    edit(director, go, 1, action="swap", first=regs["B"].pk, second=regs["E"].pk)
    assert [(n, {w, b}) for n, w, b in _numbered(rnd)] == [(1, {"A", "E"}), (2, {"B", "F"}), (3, {"C", "D"})]
    edit(director, go, 1, action="unpair", board=2)
    edit(director, go, 1, action="bye", first=regs["B"].pk)
    assert [(n, {w, b}) for n, w, b in _numbered(rnd)] == [(1, {"A", "E"}), (2, {"C", "D"})]
    edit(director, go, 1, action="unpair", board=1)
    edit(director, go, 1, action="unbye", first=regs["B"].pk)
    edit(director, go, 1, action="pair", first=regs["E"].pk, second=regs["F"].pk)
    assert [(n, {w, b}) for n, w, b in _numbered(rnd)] == [(1, {"C", "D"}), (2, {"E", "F"})]
    edit(director, go, 1, action="pair", first=regs["A"].pk, second=regs["B"].pk)
    assert _numbered(rnd) == [(1, "A", "B"), (2, "C", "D"), (3, "E", "F")]


def test_a_player_who_joins_later_cannot_be_put_on_an_earlier_board(director):
    go = create(director, name="Later", rounds=3)
    a, _b = (register(director, go, n, r) for n, r in (("A", 2100), ("B", 2000)))
    pair(director, go)
    edit(director, go, 1, action="publish")
    late = register(director, go, "L", 1900)
    assert late.first_round == 2
    edit(director, go, 1, action="unpublish")
    page = _messages(edit(director, go, 1, action="swap", first=a.pk, second=late.pk))
    assert "L joins from round 2." in page
    page = _messages(edit(director, go, 1, action="bye", first=late.pk))
    assert "L joins from round 2." in page
    assert [(b.white.name, b.black.name) for b in Board.objects.select_related("white", "black")] == [("A", "B")]
