"""Each bound a test waits under is multiplied for a busy machine (``tests/support/patience.py``),
except SimCord's settle: a settle runs, in real time, every bot timer due within its bound, so a
stretched bound would fire timers a file means to leave parked (a 120 s clock under a 160 s settle
made each click wait two real minutes)."""

from __future__ import annotations

import pytest

from tests.support.patience import FACTOR, patient

pytestmark = pytest.mark.simcord(settle_timeout=40)


def test_the_factor_stretches_a_bound_and_never_shortens_it():
    assert FACTOR >= 1.0 and patient(2.5) == 2.5 * FACTOR


async def test_a_settle_bound_set_by_the_file_is_kept_as_set(simcord_env):
    assert simcord_env.settle_timeout == 40
