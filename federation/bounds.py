"""Every bound the site puts on its input, in one place: what a list page, a calculator and an imported file may ask.

A reader looking for "how big may it be" starts here; the code that enforces each bound imports it from here.
Each bound is chosen well beyond anything the rules or a real federation reach, and well below what would take a
server down. Where a bound is not from the rules, the comment says why it is what it is.
"""

from __future__ import annotations

import datetime

# ---------------------------------------------------------------------------------------------------------------
# Addresses and list pages
# ---------------------------------------------------------------------------------------------------------------

#: ``?per_page=`` of every list page (django-tables2) is clamped into 1..PER_PAGE_MAX by
#: ``federation.middleware.InputBoundsMiddleware``: a negative size was a 500, a million rendered everything.
#: 500 rows is the longest list a person reads on one page (the Gorbunov list's "all on one page" link asks it).
PER_PAGE_MAX = 500
#: A query string longer than this is refused (400) before any view reads it.
QUERY_STRING_MAX_CHARS = 4096
#: Characters no address may hold: PostgreSQL refuses NUL in any text, so a filter with one was a 500.
FORBIDDEN_CHARACTERS = ("\x00",)

# ---------------------------------------------------------------------------------------------------------------
# Ratings and calculators (rules/*.md give no upper bound; these are far above any rating ever seen)
# ---------------------------------------------------------------------------------------------------------------

#: The Gorbunov calculator's Rt and "your rating": the lists' highest ratings are a few thousand points.
GORBUNOV_RATING_MAX = 10_000
#: The coefficient K: the model's own validator (``Tournament.k``) allows 1..16.
GORBUNOV_K_MAX = 16

# ---------------------------------------------------------------------------------------------------------------
# Dates a person may type or a file may hold
# ---------------------------------------------------------------------------------------------------------------

#: The federation's records start in the 1990s; 1900 leaves room for any old tournament typed in.
DATE_MIN = datetime.date(1900, 1, 1)
#: A date far in the future is a typo; 2100 is beyond any planned tournament.
DATE_MAX = datetime.date(2100, 12, 31)

# ---------------------------------------------------------------------------------------------------------------
# Uploaded files (the admin's imports: results CSV/XLSX, preferans deals CSV)
# ---------------------------------------------------------------------------------------------------------------

#: The size of an uploaded file as sent (``settings.RESULT_IMPORT_MAX_BYTES`` keeps its name for the results).
UPLOAD_MAX_BYTES = 2 * 1024 * 1024
#: A federation's history document (``ratings.movein.upload``), the largest file the site takes.
HISTORY_UPLOAD_MAX_BYTES = 20 * 1024 * 1024
#: What a multipart form adds around its file (boundaries, the other fields: a CSRF token, a few flags).
MULTIPART_OVERHEAD_BYTES = 64 * 1024
#: An .xlsx is a zip: its parts are measured uncompressed, from the zip's directory, before anything is parsed.
#: A 206 KB workbook held a 200 MB string and took 19 s and 500 MB to parse; a real result sheet of 5,000 rows is
#: about 1 MB uncompressed.
XLSX_MAX_UNCOMPRESSED_BYTES = 20 * 1024 * 1024
#: ...and no part may expand more than this (a sheet of text compresses about 10:1; a bomb, 1000:1).
XLSX_MAX_RATIO = 100
#: Parts of a workbook (sheets, styles, strings...): a real one has a dozen or two.
XLSX_MAX_PARTS = 200
#: A CSV file's rows are read one by one and the file is refused at the first row beyond its limit, never read
#: whole first (``tournaments.importing.MAX_ROWS`` for results).
#: The admin's preview of a preferans deals file rates every deal but lists only the first ones.
PREFERANS_PREVIEW_DEALS = 200

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
