"""Stopping a dispatch: Ctrl-C (SIGINT) raises KeyboardInterrupt within
about a second, and a CancelToken cancelled from another thread raises
CancelledError, both long before the dispatch's 20 s timeout."""

import os
import signal
import threading
import time
from pathlib import Path

import pytest

import sm5sim

# one thread that loops forever
RUNAWAY = """cs_5_0
dcl_uav_structured u0, 4
dcl_temps 1
dcl_thread_group 1, 1, 1
loop
  iadd r0.x, r0.x, l(1)
endloop
ret
"""


def runaway_kernel(tmp_path: Path) -> sm5sim.Kernel:
    listing = tmp_path / "runaway.asm"
    listing.write_text(RUNAWAY)
    k = sm5sim.Kernel(sm5sim.Shader.load(listing))
    k.bind("u0", sm5sim.Resource.zeros(16))
    return k


@pytest.mark.skipif(os.name != "posix", reason="SIGINT to this process")
def test_ctrl_c_interrupts_a_dispatch(tmp_path: Path) -> None:
    k = runaway_kernel(tmp_path)
    timer = threading.Timer(0.3, lambda: os.kill(os.getpid(), signal.SIGINT))
    start = time.monotonic()
    timer.start()
    with pytest.raises(KeyboardInterrupt):
        k.dispatch(1, timeout=20.0)
    timer.join()
    # the 20 s timeout did not stop it: the interrupt did
    assert time.monotonic() - start < 10.0


def test_a_cancel_token_stops_a_dispatch_from_another_thread(tmp_path: Path) -> None:
    k = runaway_kernel(tmp_path)
    token = sm5sim.CancelToken()
    assert not token.cancelled
    timer = threading.Timer(0.3, token.cancel)
    start = time.monotonic()
    timer.start()
    with pytest.raises(sm5sim.CancelledError, match="cancelled"):
        k.dispatch(1, timeout=20.0, cancel=token)
    timer.join()
    assert time.monotonic() - start < 10.0
    assert token.cancelled
    assert issubclass(sm5sim.CancelledError, sm5sim.DispatchError)
    # still set: the next dispatch stops at once; reset, the watchdog stops it
    with pytest.raises(sm5sim.CancelledError):
        k.dispatch(1, cancel=token)
    token.reset()
    with pytest.raises(sm5sim.DispatchError) as stopped:
        k.dispatch(1, watchdog=1000, cancel=token)
    assert not isinstance(stopped.value, sm5sim.CancelledError)


@pytest.mark.skipif(os.name != "posix", reason="SIGINT to this process")
def test_ctrl_c_interrupts_a_long_load(tmp_path: Path) -> None:
    """Shader.load runs on a thread of its own too: Ctrl-C cancels it at its
    next phase (listing, decoding, lowering) and raises KeyboardInterrupt."""
    body = "".join(f"iadd r0.x, r0.x, l({i & 1023})\n" for i in range(300_000))
    listing = tmp_path / "long.asm"
    listing.write_text(
        "cs_5_0\ndcl_uav_structured u0, 4\ndcl_temps 1\ndcl_thread_group 1, 1, 1\n"
        + body
        + "store_structured u0.x, l(0), l(0), r0.x\nret\n"
    )
    start = time.monotonic()
    sm5sim.Shader.load(listing)
    whole = time.monotonic() - start
    timer = threading.Timer(0.05, lambda: os.kill(os.getpid(), signal.SIGINT))
    start = time.monotonic()
    timer.start()
    with pytest.raises(KeyboardInterrupt):
        sm5sim.Shader.load(listing)
    timer.join()
    interrupted = time.monotonic() - start
    print(f"whole load {whole:.2f} s, interrupted after {interrupted:.2f} s")
    assert interrupted < whole
