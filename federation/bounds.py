"""Bounds of the site's input, in one place: what a reader may look up before sending anything.

Each section belongs to one door; the values are the decisions where the rules are silent.
"""

from __future__ import annotations

import datetime

# --- Game-server API (/api/preferans/, ratings.preferans.api) -------------------------------------------------------

#: The largest request body a game server may send (a batch of 1,000 four-player deals is about 150 KB).
API_MAX_BODY_BYTES = 2 * 1024 * 1024
#: Deals in one batch.
API_MAX_BATCH = 1000
#: JSON nested deeper than Python's parser reads (about a thousand levels) is refused as "nests too deeply"; any
#: other shape the schemas do not describe is refused at its first level (a request nests at most 4 deep).
#: A server's game and deal ids: 1 to 100 characters (the database's column), printable text only (no NUL, no
#: control characters, no lone surrogates: PostgreSQL refuses the first and UTF-8 cannot carry the last).
API_MAX_ID_CHARS = 100
#: A player's whists in one deal, either way. The rules give no bound; the calculator's is the same, and at this
#: bound the largest change one deal can make is 2 * sqrt(1004), about 63 points (rules/preferans.md, maxKd = 2).
API_MAX_WHISTS = 1000
#: The site's ids (players, games) are PostgreSQL bigints: a larger number is no id and is refused, never sent.
API_MAX_ID = 2**63 - 1
#: A game's date: not before the federation's records begin, and not more than a day ahead of the site's clock
#: (a server's clock may run a little fast; a game from the future is a typo).
API_GAME_DATE_MIN = datetime.date(2000, 1, 1)
API_GAME_DATE_AHEAD = datetime.timedelta(days=1)
