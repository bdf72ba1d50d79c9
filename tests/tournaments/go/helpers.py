"""Driving a Go tournament through the director's pages, as a person with a browser would (Django test client)."""

import datetime

from tournaments.go.models import Board, GoTournament, Registration, Round
from tournaments.go.names import split_name

EN = "/en/go"


def create(client, **fields) -> GoTournament:
    data = {
        "name": "Go Cup",
        "start_date": "2026-03-07",
        "end_date": "2026-03-08",
        "city": "Moscow",
        "country": "RU",
        "system": "fus",
        "rounds": 5,
        "half_stone": "on",
        "acceleration": "on",
        "tiebreak": "on",
        "komi_normal": "6.5",
        "komi_none": "0.5",
        "komi_reverse": "6.5",
        "rate_in_club": "on",
        "time_minutes": 60,
    }
    for key, value in fields.items():
        if value is None:
            data.pop(key, None)
        else:
            data[key] = value
    response = client.post(f"{EN}/new/", data)
    assert response.status_code == 302, response.content.decode()[:2000]
    return GoTournament.objects.get(tournament__name=data["name"])


def register(client, go, name, rating, **extra) -> Registration:
    """A typed name, surname first, as the form's two fields."""
    surname, given_name = split_name(name)
    data = {"surname": surname, "given_name": given_name, "rating": rating, "country": "RU", "club_name": "Moscow GC"}
    data.update(extra)
    response = client.post(f"{EN}/{go.pk}/register/", data)
    assert response.status_code == 302
    return Registration.objects.get(tournament=go, name=name)


def pair(client, go) -> Round:
    response = client.post(f"{EN}/{go.pk}/pair/")
    assert response.status_code == 302
    return go.rounds.order_by("-number").first()


def edit(client, go, number, **data):
    return client.post(f"{EN}/{go.pk}/rounds/{number}/edit/", data, follow=True)


def result(client, go, number, board, value, **extra):
    return client.post(f"{EN}/{go.pk}/rounds/{number}/result/", {"board": board, "result": value, **extra}, follow=True)


def boards(rnd) -> list[tuple[str, str, int, str]]:
    return [
        (b.white.name, b.black.name, b.handicap, b.komi_kind)
        for b in Board.objects.filter(round=rnd).select_related("white", "black").order_by("number")
    ]


def byes(rnd) -> list[str]:
    return sorted(b.registration.name for b in rnd.byes.select_related("registration"))


def play(client, go, rnd, winners: dict[tuple[str, str], str]):
    """Enter a result for each board; ``winners`` maps (white, black) names to the winner's name."""
    for b in Board.objects.filter(round=rnd).select_related("white", "black"):
        winner = winners[(b.white.name, b.black.name)]
        value = "white" if winner == b.white.name else "black"
        response = result(client, go, rnd.number, b.number, value)
        assert response.status_code == 200


def today() -> datetime.date:
    return datetime.date(2026, 3, 7)


def approve(go: GoTournament) -> GoTournament:
    """Federation staff approve the tournament: from then on it is everyone's to see (and locked for its
    organiser). Before that, a draft or submitted tournament is its director's and staff's alone."""
    from tournaments.models import Tournament, TournamentStatus

    Tournament.objects.filter(pk=go.pk).update(status=TournamentStatus.APPROVED)
    return GoTournament.objects.select_related("tournament").get(pk=go.pk)
