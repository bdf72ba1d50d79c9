"""The federation's calendar (issue 30): tournaments announced ahead, online registration confirmed by e-mail, the
iCalendar and Atom feeds. Not an app of its own: its models are ``tournaments.Tournament`` (the announcement's
fields) and ``tournaments.Registration``, so the announced tournament is the record that later takes its results.
"""
