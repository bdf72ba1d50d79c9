"""How a long job reports how far it got: the ``Progress`` callable every service of a long job accepts.

The job's run (``ratings.jobs``) hands one to the service and shows the numbers to staff on the run's page.
"""

from __future__ import annotations

from collections.abc import Callable

#: ``progress(done, total, step)``: ``done`` of ``total`` steps finished, ``step`` names the one under way.
Progress = Callable[[int, int, str], None]

#: ``written(step, **detail)``: called inside the transaction that writes a step's data, to record that step with it
#: (``ratings.jobs.RunProgress.written``): a run that dies is then reported by what was committed, not by how far its
#: heartbeat said it got.
Written = Callable[..., None]
