"""The short names the pages write (M, Rs, W·R·A, ДИРС, w/b …), each with its one full name and what it means, in both
languages: the headers' ``<abbr>`` (``{% abbr "cards.M" %}``, ``federation.templatetags.fmt``) and the glossary of
each "how this rating works" page read the same entry, so a thing has one name everywhere.

Names chosen where the site had two (issue 28): on Russian pages ДИРС, ПРОФС and ФУС (the seed's own names), on
English pages DIRS, PROFS and FUS; a preferans deal is «сдача» in Russian (the seed's word), never «раздача»; a Go
bye is «свободный тур» in Russian.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext_lazy as _


@dataclass(frozen=True)
class Term:
    key: str
    short: str  # as the page writes it (translated where the short form differs by language)
    name: str  # the full name, shown on hover and tap
    meaning: str = ""  # one sentence for the glossary


def _terms(discipline: str, *terms: tuple) -> list[Term]:
    return [Term(f"{discipline}.{key}", *rest) for key, *rest in terms]


GLOSSARY: dict[str, list[Term]] = {
    "cards": _terms(
        "cards",
        ("M", "M", _("place"), _("The place taken in the tournament (1 is the winner).")),
        ("U", "U", _("participants"), _("The number of players in the tournament.")),
        ("Rs", "Rs", _("rating before"), _("The player's rating at the start of the tournament's week.")),
        ("Rt", "Rt", _("tournament strength"), _("The mean start-of-week rating of the tournament's players.")),
        (
            "K",
            "K",
            _("tournament coefficient"),
            _("The tournament's rank, set by the federation; the change is multiplied by it."),
        ),
        ("I", "I", _("change"), _("How much the tournament moved the rating: the basis times K, rounded.")),
        ("after", _("after"), _("rating after the tournament"), _("Rs plus I, never below 100.")),
        (
            "Rn",
            "Rn",
            _("new rating"),
            _("The rating of the next weekly list: Rs plus the changes of the week's tournaments."),
        ),
        (
            "base",
            _("basis"),
            _("basis of the change"),
            _("The change before K: it grows with a better place and a stronger field."),
        ),
    ),
    "mahjong": _terms(
        "mahjong",
        ("N", "N", _("participants"), _("Every participant of the tournament, substitutes included.")),
        ("R", "R", _("base rank"), _("The score of the place: 1000 for the winner, 0 for the last place.")),
        ("W", "W", _("tournament coefficient"), _("The weight of the tournament: K hanchans plus K players.")),
        (
            "K_players",
            _("K players"),
            _("coefficient for the number of players"),
            _("Grows with each full group of four players."),
        ),
        (
            "K_hanchans",
            _("K hanchans"),
            _("coefficient for the number of hanchans"),
            _("Grows with the number of hanchans played, up to 2.80."),
        ),
        (
            "W_avg",
            _("W avg"),
            _("mean hanchans coefficient"),
            _("In a tournament with cut-offs, the mean K hanchans of all its players."),
        ),
        (
            "A",
            "A",
            _("age coefficient"),
            _("Full for a year after the tournament, then smaller every two months, zero after two years."),
        ),
        ("WRA", "W·R·A", _("tournament result"), _("What the tournament adds to the rating: W times R times A.")),
        ("WA", "W·A", _("tournament weight"), _("W times A; the largest ones divide part B.")),
        (
            "partA",
            _("Part A"),
            _("weighted mean of the best results"),
            _("The mean of R weighted by W·A over the best tournaments."),
        ),
        (
            "partB",
            _("Part B"),
            _("best results against the heaviest tournaments"),
            _("The four largest W·R·A divided by the four largest W·A of the period."),
        ),
    ),
    "go": _terms(
        "go",
        (
            "DIRS",
            _("DIRS"),
            _("dynamic club rating"),
            _("The club rating of Go: 10 points a stone, 210 is 1 dan; moved by every game."),
        ),
        (
            "PROFS",
            _("PROFS"),
            _("simple self-handicap tournament"),
            _("Start level = rating ÷ 100, a win gives one point."),
        ),
        (
            "FUS",
            _("FUS"),
            _("self-handicap tournament with half stones and acceleration"),
            _("Start level = rating × 2 ÷ 100; a win gives the length of the winning streak."),
        ),
        (
            "level",
            _("level"),
            _("tournament level"),
            _("Start points plus the points won; the handicap follows the difference of levels."),
        ),
        ("w", "w", _("white"), _("The player had white.")),
        ("b", "b", _("black"), _("The player had black.")),
        (
            "bye",
            _("bye"),
            _("round without an opponent"),
            _("Counts as a win worth one point and does not break a streak."),
        ),
        ("komi", _("komi"), _("points given to white"), _("Normal komi to white, reverse komi to black, or none.")),
    ),
    "preferans": _terms(
        "preferans",
        ("Rs", "Rs", _("rating before the deal"), _("The player's rating before the deal.")),
        ("Rt", "Rt", _("table rating"), _("The mean rating of the other players at the table.")),
        ("Vs", "Vs", _("whists scored"), _("The player's net whists in the deal.")),
        ("Vf", "Vf", _("whists expected"), _("The whists the formula expects from the difference of Rs and Rt.")),
        ("Kd", "Kd", _("change coefficient"), _("Smaller when the player is far from the table's rating.")),
        ("Pro", _("Pro"), _("Professional league"), _("Reached at 1800, for good.")),
    ),
}

TERMS: dict[str, Term] = {term.key: term for terms in GLOSSARY.values() for term in terms}

#: Which glossary a "how this rating works" page shows.
GUIDE_GLOSSARY = {"cards": "cards", "mahjong": "mahjong", "go": "go", "preferans": "preferans"}
