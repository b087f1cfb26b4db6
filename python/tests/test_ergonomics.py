"""Python ergonomics (issue #45): cast= on bind, read(out=), a progress
callback, and dispatches from several Python threads at once."""

import threading

import numpy as np
import pytest

import sm5sim

from conftest import kernel


def test_cast_converts_to_the_declared_element_type():
    n = 200
    x64 = np.arange(n * 4, dtype=np.float64).reshape(n, 4) / 3
    k = kernel("saxpy_structured")
    k.bind("x", x64, cast="same_kind").bind("y", np.zeros((n, 4), np.float32))
    k.set_constants("Params", {"a": 1.0, "element_count": n})
    k.dispatch_threads(n)
    np.testing.assert_array_equal(k.read("y"), x64.astype(np.float32))
    # NumPy's rules: float64 to float32 is not "safe"
    with pytest.raises(sm5sim.BindingError, match='cast="safe".*Cannot cast'):
        k.bind("x", x64, cast="safe")
    # an array of the right dtype is bound as it is
    k.bind("x", x64.astype(np.float32), cast="no")
    with pytest.raises(TypeError, match="casting rules"):
        k.bind("x", x64, cast="nearest")
    # a typed format's channels are the target too
    r = kernel("histogram")
    with pytest.raises(sm5sim.BindingError, match="cast needs the dtype to convert to"):
        r.bind("keys", np.zeros(4, np.int64), cast="unsafe")


def test_read_into_an_existing_array():
    k = kernel("mandelbrot")
    w, h = 16, 16
    k.bind("iterations", np.zeros((h, w), np.uint32))
    k.set_constants("Params", {"width": w, "height": h, "max_iter": 20})
    k.dispatch_threads((w, h))
    out = np.full((h, w), 7, np.uint32)
    got = k.read("iterations", out=out)
    assert got is out
    np.testing.assert_array_equal(out, k.read("iterations"))
    # the resource's own read takes out too; out's dtype reads the bytes
    res = k.resource("iterations")
    as_int = np.empty(h * w, np.int32)
    assert res.read(out=as_int) is as_int
    np.testing.assert_array_equal(as_int, k.read("iterations").ravel().view(np.int32))
    with pytest.raises(sm5sim.ResourceError, match="do not make shape"):
        k.read("iterations", out=np.empty(3, np.uint32))
    with pytest.raises(TypeError, match="pass dtype and shape, or out"):
        k.read("iterations", np.uint32, out=out)
    with pytest.raises(TypeError, match="out is a NumPy array"):
        k.read("iterations", out=[0] * 4)
    frozen = np.empty((h, w), np.uint32)
    frozen.flags.writeable = False
    with pytest.raises(TypeError, match="out:.*read-only"):
        k.read("iterations", out=frozen)


def test_progress_is_called_until_the_last_group():
    k = kernel("mandelbrot")
    w, h = 64, 64
    k.bind("iterations", np.zeros((h, w), np.uint32))
    k.set_constants("Params", {"width": w, "height": h, "max_iter": 64})
    seen = []
    d = k.dispatch_threads((w, h), progress=lambda done, total: seen.append((done, total)))
    groups = d.groups[0] * d.groups[1]
    assert seen and seen[-1] == (groups, groups)
    assert all(total == groups for _, total in seen)
    assert [done for done, _ in seen] == sorted(done for done, _ in seen)


def test_an_exception_in_progress_stops_the_dispatch():
    k = kernel("mandelbrot")
    k.bind("iterations", np.zeros((64, 64), np.uint32))
    # points inside the set never leave: a dispatch that would run 60 s
    k.set_constants("Params", {"width": 64, "height": 64, "max_iter": 2**32 - 1})

    def stop(done: int, total: int) -> None:
        raise ValueError(f"enough at {done} of {total}")

    with pytest.raises(ValueError, match="enough at"):
        k.dispatch_threads((64, 64), progress=stop, timeout=60.0)


def test_dispatches_from_two_threads_run_at_once_with_one_worker_each():
    """A dispatch with threads=1 runs on its caller's thread: another
    thread's dispatch finishes while the first is still running (they took
    turns on a one-worker pool before)."""
    long = kernel("mandelbrot")
    long.bind("iterations", np.zeros((64, 64), np.uint32))
    long.set_constants("Params", {"width": 64, "height": 64, "max_iter": 2**32 - 1})
    token = sm5sim.CancelToken()
    errors = []

    def run_long() -> None:
        try:
            long.dispatch_threads((64, 64), threads=1, cancel=token, timeout=120.0)
        except sm5sim.CancelledError:
            pass
        except Exception as e:  # noqa: BLE001 (reported below)
            errors.append(e)

    first = threading.Thread(target=run_long)
    first.start()
    short = kernel("mandelbrot")
    short.bind("iterations", np.zeros((16, 16), np.uint32))
    short.set_constants("Params", {"width": 16, "height": 16, "max_iter": 8})
    done = threading.Event()
    second = threading.Thread(
        target=lambda: (short.dispatch_threads((16, 16), threads=1), done.set())
    )
    second.start()
    finished = done.wait(timeout=60.0)
    still_running = first.is_alive()
    token.cancel()
    first.join()
    second.join()
    assert not errors, errors
    assert finished and still_running
    assert (short.read("iterations") > 0).all()


def test_changing_a_kernel_while_another_thread_dispatches_it_is_refused():
    k = kernel("mandelbrot")
    k.bind("iterations", np.zeros((64, 64), np.uint32))
    k.set_constants("Params", {"width": 64, "height": 64, "max_iter": 2**32 - 1})
    token = sm5sim.CancelToken()
    started = threading.Event()

    def run() -> None:
        try:
            k.dispatch_threads(
                (64, 64), threads=1, cancel=token, progress=lambda d, t: started.set()
            )
        except sm5sim.CancelledError:
            pass

    t = threading.Thread(target=run)
    t.start()
    try:
        assert started.wait(timeout=60.0)
        with pytest.raises(RuntimeError, match="being dispatched on another thread"):
            k.set_constants("Params", {"max_iter": 3})
        with pytest.raises(RuntimeError, match="being dispatched on another thread"):
            k.bind("iterations", np.zeros((64, 64), np.uint32))
        with pytest.raises(RuntimeError):
            k.unbind("iterations")
    finally:
        token.cancel()
        t.join()
    # once it returned, the kernel changes again
    k.set_constants("Params", {"max_iter": 3})
