""" "How this rating works" pages: for each discipline, a short text for players and a worked example that the
engine itself computes and explains (``ratings.rate``, the same code as the lists and ``manage.py rate``), in the
reader's language. The example inputs are fixed here, so the page always shows the rules in force."""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext_lazy as _

from federation.formatting import plain_explanation
from ratings.rate import rate


@dataclass(frozen=True)
class Guide:
    slug: str
    title: str
    template: str
    lists_url: str  # a URL name


GUIDES: dict[str, Guide] = {
    "cards": Guide(
        "cards", _("How the card-game (Gorbunov) rating works"), "ratings/guides/cards.html", "ratings:gorbunov:index"
    ),
    "mahjong": Guide(
        "mahjong",
        _("How the mahjong ratings (RR, CRR, online) work"),
        "ratings/guides/mahjong.html",
        "ratings:mahjong:index",
    ),
    "go": Guide("go", _("How the Go club rating (DIRS) works"), "ratings/guides/go.html", "dirs:leaderboard"),
    "preferans": Guide(
        "preferans", _("How the preferans rating works"), "ratings/guides/preferans.html", "preferans:index"
    ),
}

#: Which guide explains a rating list's engine (for the "how it works" links on lists and players' pages).
ENGINE_GUIDE = {
    "gorbunov": "cards",
    "mahjong-rr": "mahjong",
    "mahjong-crr": "mahjong",
    "mahjong-online": "mahjong",
    "dirs": "go",
    "preferans": "preferans",
}

CARDS = {
    "system": "gorbunov",
    "ratings": {"Анна": 190, "Борис": 120, "Вера": 100, "Глеб": 150},
    "tournaments": [
        {
            "id": "t1",
            "date": "2026-03-07",
            "k": 2,
            "format": "constructed",
            "results": [
                {"player": "Анна", "place": 1},
                {"player": "Борис", "place": 2},
                {"player": "Вера", "place": 3},
                {"player": "Глеб", "place": 4},
            ],
        }
    ],
}
MAHJONG = {
    "system": "mahjong-rr",
    "as_of": "2025-06-01",
    "country": "RU",
    "tournaments": [
        {"id": "A", "end_date": "2025-03-01", "players": 40, "hanchans": 8, "accredited": True, "open": True,
         "results": [{"player": "Анна", "place": 1}, {"player": "Борис", "place": 12}]},
        {"id": "B", "end_date": "2025-04-12", "players": 28, "hanchans": 8, "accredited": True, "open": True,
         "results": [{"player": "Анна", "place": 5}, {"player": "Борис", "place": 2}]},
    ],
}  # fmt: skip
DIRS = {
    "system": "dirs",
    "ratings": {"Анна": 150, "Борис": 137},
    "games": [{"white": "Анна", "black": "Борис", "winner": "Анна", "handicap": 1, "komi": "reverse"}],
}
PREFERANS = {
    "system": "preferans",
    "ratings": {"Анна": 1000, "Борис": 1200, "Вера": 1100},
    "deals": [{"game": "g1", "whists": {"Анна": -5, "Борис": 3, "Вера": 2}}],
}


def _text(explanation: dict, language: str) -> str:
    return plain_explanation(explanation["ru" if language.startswith("ru") else "en"], language)


def worked_example(slug: str, language: str) -> dict:
    """The example's input and the engine's own result and explanation for each player, in ``language``."""
    if slug == "cards":
        out = rate(CARDS)
        rows = [
            {"player": c["player"], "place": place, "before": c["before"], "delta": c["delta"], "after": c["after"],
             "explanation": _text(c["explanation"], language)}
            for place, c in enumerate(out["changes"], start=1)
        ]  # fmt: skip
        return {"input": CARDS["tournaments"][0], "rows": rows}
    if slug == "mahjong":
        out = rate(MAHJONG)
        rows = [
            {"player": e["player"], "place": e["rank"], "after": e["rating"],
             "explanation": _text(e["explanation"], language)}
            for e in out["list"]
        ]  # fmt: skip
        return {"input": MAHJONG["tournaments"], "rows": rows}
    if slug == "go":
        out = rate(DIRS)
        game = out["games"][0]
        rows = [{"player": "Анна", "before": 150, "after": game["white_after"]},
                {"player": "Борис", "before": 137, "after": game["black_after"]}]  # fmt: skip
        return {"input": DIRS["games"][0], "rows": rows, "explanation": _text(game["explanation"], language)}
    out = rate(PREFERANS)
    rows = [
        {"player": c["player"], "before": c["before"], "delta": c["delta"], "after": c["after"],
         "whists": PREFERANS["deals"][0]["whists"][c["player"]], "explanation": _text(c["explanation"], language)}
        for c in out["deals"][0]["changes"]
    ]  # fmt: skip
    return {"input": PREFERANS["deals"][0], "rows": rows}
