"""The EGD round trip (issue 27): a finished tournament's `.h9`, imported again as history through the director's
pages, is the same tournament (start levels from the file's ratings, games not played and special results kept,
the withdrawal kept); where a file and the replay disagree the preview says so row by row; a forfeit is written as
EGF's format writes a round without a game, and the reader takes every notation of one."""

import datetime
import re

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from federation.latin import to_ascii
from tests.factories import ClubFactory, PlayerFactory, federation_staff, organiser
from tournaments.go import egd_read, selectors, services, sheets
from tournaments.go.models import Board, GoTournament, Registration

from .egd_validator import validate
from .helpers import EN, approve

pytestmark = pytest.mark.django_db

DAY = datetime.date(2026, 4, 4)
#: Ratings that are not whole stones: a rank column alone would give other start levels (2550 is 5 dan: 2500).
RATINGS = [2550, 2480, 2430, 2390, 2350, 2310, 2260, 2220, 2170]


def _finished() -> GoTournament:
    """Nine players, four FUS rounds: members (one with a multi-word surname), typed names; the odd field's byes; a
    forfeit in round 2, both players losing in round 3, a withdrawal after round 2, an absence in round 3."""
    user = organiser(username="trip-director")
    go = services.go_tournament_create(
        user=user, name="Кубок Твери", start_date=DAY, end_date=DAY, city="Тверь", system="fus", rounds=4,
        half_stone=True, acceleration=True,
    )  # fmt: skip
    club = ClubFactory(name="Тэнгэн", city="Тверь")
    berg = PlayerFactory(
        last_name="ван дер Берг", first_name="Ян", last_name_latin="van der Berg", first_name_latin="Jan", club=club
    )
    services.go_registration_add(go=go, player=berg, rating=RATINGS[0])
    for k, rating in enumerate(RATINGS[1:], start=1):
        services.go_registration_add(go=go, surname=f"Игроков{k}", given_name="Пётр", rating=rating, user=user)
    for number in range(1, 5):
        if number == 3:
            absent = go.registrations.get(surname="Игроков8")
            services.go_absence_set(registration=absent, round_number=3, absent=True, user=user)
        rnd = services.go_round_pair(go=go, user=user)
        services.go_round_publish(go_round=rnd, user=user)
        for board in rnd.boards.order_by("number"):
            result = "white" if board.number % 2 else "black"
            if (number, board.number) == (2, 1):
                result = "black_forfeit"
            if (number, board.number) == (3, 2):
                result = "both_lose"
            services.go_result_enter(go_round=rnd, board_number=board.number, result=result, user=user)
        if number == 2:
            services.go_registration_withdraw(registration=go.registrations.get(surname="Игроков5"), user=user)
    return services.go_egd_class_set(go=go, egd_class="B", user=user)


def _table(go) -> list[tuple]:
    """The standings by line, names in Latin letters (a name typed in Cyrillic comes back as the file writes it)."""
    lines = sheets.standings_table(go=go, upto=go.tournament.rounds, language="en")
    return [
        (line.number, to_ascii(line.name), line.level, line.tiebreak, line.wins, line.withdrawn_after) for line in lines
    ]


def _games(go) -> list[tuple]:
    """Every board as (round, white's name, black's name, stones, komi, result)."""
    boards = Board.objects.filter(round__tournament=go).select_related("round", "white", "black")
    return sorted(
        (b.round.number, to_ascii(b.white.name), to_ascii(b.black.name), b.handicap, b.komi_kind, b.result)
        for b in boards
    )


def _import(client, text: str, **form) -> tuple[str, GoTournament | None]:
    url = f"{EN}/import-history/"
    page = client.post(url, {"file": SimpleUploadedFile("trip.h9", text.encode("ascii"))}).content.decode()
    found = re.search(r'name="sha256" value="([0-9a-f]{64})"', page)
    assert found, page[:3000]
    data = {
        "name": "Trip back",
        "start_date": DAY.isoformat(),
        "end_date": DAY.isoformat(),
        "country": "RU",
        "system": "fus",
        "half_stone": "on",
        "acceleration": "on",
        "tiebreak": "on",
        "komi_normal": "6.5",
        "time_minutes": "60",
        **form,
    }
    client.post(url, {"confirm": "1", "sha256": found.group(1), **data})
    return page, GoTournament.objects.filter(tournament__name="Trip back").first()


def test_the_site_s_table_comes_back_as_the_same_tournament(client):
    go = _finished()
    text = selectors.egd_table(go=go)
    validate(text)  # what EGD reads: no game not played, no special result written as a game
    assert re.search(r"^; Pl Surname +Name .* Rating Lv +TB +1 +2 +3 +4$", text, re.MULTILINE)
    assert re.search(r"^\s+\d+ van_der_Berg Jan .* 2550 ", text, re.MULTILINE)
    client.force_login(federation_staff())
    page, back = _import(client, text)
    assert back is not None
    preview = page.split('id="replay"', 1)[1].split("</section>", 1)[0]
    assert "The replay gives the file's places, levels and stones." in preview, preview
    # The same players, levels, tie-breaks, wins and places; the same games as played; the withdrawal kept.
    assert _table(back) == _table(go)
    assert _games(back) == _games(go)
    ratings = {to_ascii(r.name): r.rating for r in go.registrations.all()}
    assert {to_ascii(r.name): r.rating for r in back.registrations.all()} == ratings
    assert back.registrations.get(surname="Igrokov5").withdrawn_after == 2  # typed in Cyrillic, back in Latin
    member = back.registrations.get(surname="ван дер Берг")
    assert member.player_id is not None  # matched to the member again
    assert (member.surname_latin, member.given_name_latin) == ("van der Berg", "Jan")
    assert Board.objects.filter(round__tournament=back, result="black_forfeit").count() == 1
    assert Board.objects.filter(round__tournament=back, result="both_lose").count() == 1
    # And its own table is the first one, but for the class the director has not chosen yet.
    back = services.go_egd_class_set(go=back, egd_class="B")
    again = selectors.egd_table(go=back)
    assert again.replace("EV[Trip back]", "EV[Kubok Tveri]").replace("PC[RU,-]", "PC[RU,Tver]") == text


def test_the_preview_says_where_the_replay_disagrees_with_the_file_row_by_row(client):
    """Another program's table, its levels, places and stones its own way: the preview names each row. Replayed
    (FUS): Alpha 2250 starts at 45, Beta 2200 at 44, Gamma 2290 at 45. Round 1: Alpha beats Beta (a gap of 1: one
    stone, the file says 2), Gamma has the bye (46). Round 2: Alpha (46) beats Gamma (46) on an even game (47),
    Beta has the bye (45). So Alpha 47, Gamma 46, Beta 45: the file's places 2 and 3 are the other way round."""
    text = """; CL[C]
; EV[Elsewhere]
; Pl Name          Rk Co Club Rating Lv  1      2
  1 Alpha Ann      2d RU Tver 2250   46  2+/w2  3+/w0
  2 Beta Bob       2d RU Tver 2200   44  1-/b2  0+
  3 Gamma Gil      3k RU Tver 2290   35  0+     1-/b0
"""
    client.force_login(organiser())
    page, _go = _import(client, text, system="fus")
    differences = page.split('id="differences"', 1)[1].split("</div>", 1)[0]
    found = re.findall(r"<li>(.*?)</li>", differences)
    assert found == [
        "line 4 (Alpha Ann): final level 46 in the file, 47 in the replay",
        "line 4 (Alpha Ann), round 1: 2 stones in the file; the replayed levels (45 and 44) give 1",
        "line 5 (Beta Bob): place 2 in the file, 3 in the replay",
        "line 5 (Beta Bob): final level 44 in the file, 45 in the replay",
        "line 6 (Gamma Gil): place 3 in the file, 2 in the replay",
        "line 6 (Gamma Gil): final level 35 in the file, 46 in the replay",
    ]
    assert "The replay differs from the file in 6 places:" in differences


def test_a_forfeit_is_read_in_every_notation():
    for game, other in (("2+!/w3", "1-!/b3"), ("2+!w3", "1-!b3"), ("2+/w3!", "1-/b3!")):
        text = f"; CL[C]\n  1 A a 2d RU X {game}\n  2 B b 2d RU X {other}\n"
        table = egd_read.read_h9(text)
        assert table.problems == [], game
        first = table.players[0].entries[0]
        assert (first.opponent, first.sign, first.colour, first.stones, first.unplayed) == (2, "+", "w", 3, True)
    # The site's own: 0+ and 0- with the game after ';'; a line whose game is not its free round is a problem.
    table = egd_read.read_h9("  1 A a 2d RU X 0+ ; r1:2+!/w3\n  2 B b 2d RU X 0- ; r1:1-!/b3\n")
    assert table.problems == []
    assert table.players[0].entry(1).opponent == 2
    table = egd_read.read_h9("  1 A a 2d RU X 0- ; r1:2+!/w3\n  2 B b 2d RU X 0- ; r1:1-!/b3\n")
    assert "line 1, round 1: the game after ';' is not the free round the line gives for it" in table.problems


def test_the_imported_tournament_is_approved_staff_only_and_shown(client):
    """Sanity: the history import leaves a draft of the director's, whose pages they see."""
    go = _finished()
    client.force_login(organiser(username="importer"))
    _page, back = _import(client, selectors.egd_table(go=go))
    assert back.tournament.organiser.username == "importer"
    assert client.get(f"{EN}/{back.pk}/standings/").status_code == 200
    approve(back)
    assert Registration.objects.filter(tournament=back).count() == 9


def test_checking_again_with_other_options_replays_with_them_and_saves_nothing(client):
    """The preview replays with the options the file's header names (the site's own CM, else FUS); the director may
    choose others and check again before importing."""
    go = _finished()
    text = selectors.egd_table(go=go)
    client.force_login(organiser())
    url = f"{EN}/import-history/"
    page = client.post(url, {"file": SimpleUploadedFile("trip.h9", text.encode("ascii"))}).content.decode()
    assert "Replayed with: half-stone step; acceleration; tie-break." in page
    sha256 = re.search(r'name="sha256" value="([0-9a-f]{64})"', page).group(1)
    form = {"name": "Trip", "start_date": DAY.isoformat(), "end_date": DAY.isoformat(), "country": "RU"}
    form.update({"system": "profs", "komi_normal": "6.5", "time_minutes": "60", "tiebreak": "on"})
    page = client.post(url, {"recheck": "1", "sha256": sha256, **form}).content.decode()
    assert "Replayed with: one-stone step; no acceleration; tie-break." in page
    differences = page.split('id="differences"', 1)[1].split("</div>", 1)[0]
    assert "in the replay" in differences  # the file's levels are FUS levels
    assert GoTournament.objects.count() == 1
