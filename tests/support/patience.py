"""How long a test waits, at most, for what it waits on.

Every bound in the tests is an upper limit on waiting for an event (a REST call, a line on stderr,
the bot settling), tuned on a quiet machine. A busy one (a laptop compiling beside the tests, CI
next to other jobs) does the same work more slowly, so each bound is multiplied by
``TABLETOP_TEST_PATIENCE`` (default 4). Waiting longer costs nothing when the event comes: a test
that passes takes as long as before; only a failing one takes longer to say so. How fast things
are is measured by the benchmarks, never asserted here.
"""

from __future__ import annotations

import os

FACTOR = max(1.0, float(os.environ.get("TABLETOP_TEST_PATIENCE", "4")))


def patient(seconds: float) -> float:
    """``seconds``, as long as this machine may need for it."""
    return seconds * FACTOR
