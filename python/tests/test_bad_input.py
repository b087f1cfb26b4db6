"""Bad input: an exception of class sm5sim.Error (a subclass per kind)
whose message is the Rust API's, naming where and what; never a crash."""

import re

import numpy as np
import pytest

import sm5sim
from conftest import ROOT, example, kernel


def test_errors_are_one_family() -> None:
    for cls in (
        sm5sim.LoadError,
        sm5sim.UnknownNameError,
        sm5sim.BindingError,
        sm5sim.FieldError,
        sm5sim.ResourceError,
        sm5sim.NotBoundError,
        sm5sim.UnboundError,
        sm5sim.ShaderError,
        sm5sim.DispatchError,
    ):
        assert issubclass(cls, sm5sim.Error) and issubclass(cls, Exception)


def test_unknown_names_list_what_the_shader_declares() -> None:
    k = kernel("histogram")
    with pytest.raises(sm5sim.UnknownNameError) as e:
        k.bind("kyes", np.zeros(4, np.uint32))
    assert str(e.value) == (
        "histogram.dxbc: 'kyes' is neither a resource name in the shader's RDEF nor a slot name; "
        "it declares t0 ('keys'), u0 ('bins'), cb0 ('Params')"
    )
    with pytest.raises(sm5sim.BindingError, match="declares nothing at u5"):
        k.bind("u5", np.zeros(4, np.uint32))
    with pytest.raises(sm5sim.LoadError, match="no/such/shader.dxbc"):
        sm5sim.Shader.load("no/such/shader.dxbc")
    with pytest.raises(sm5sim.LoadError, match="garbage"):
        sm5sim.Shader.from_bytes(b"DXBC not really", name="garbage")


def test_wrong_dtype_and_shape_for_structured_buffers() -> None:
    k = kernel("saxpy_structured")
    with pytest.raises(sm5sim.BindingError) as e:
        k.bind("x", np.zeros(20, np.float32))
    assert str(e.value) == (
        "'x' (t0): the shader declares a structured buffer of 16-byte float4 elements; "
        "a float32 array of shape (20,) is not an array of them "
        "(give shape [n, 4], or a structured dtype of itemsize 16)"
    )
    with pytest.raises(sm5sim.BindingError, match=r"shape \(5, 3\)"):
        k.bind("x", np.zeros((5, 3), np.float32))
    with pytest.raises(sm5sim.BindingError, match="does not hold float4s"):
        k.bind("x", np.zeros((5, 4), np.int32))
    # the dtype is said first, with the way to convert it (a shape hint
    # for float64, [n, 2], led to a second refusal)
    with pytest.raises(sm5sim.BindingError) as e:
        k.bind("x", np.zeros((5, 4), np.float64))
    assert str(e.value) == (
        "'x' (t0): the shader declares a structured buffer of 16-byte float4 elements; "
        "a float64 array of shape (5, 4) does not hold float4s: its dtype is not float32 "
        '(bind(..., cast="same_kind") converts it)'
    )
    with pytest.raises(sm5sim.BindingError, match="itemsize 16"):
        k.bind("y", np.zeros(5, [("a", "<f4"), ("b", "<f4")]))
    with pytest.raises(TypeError, match="bind takes a NumPy array, an sm5sim.Resource or None, not list"):
        k.bind("x", [1.0, 2.0])
    with pytest.raises(TypeError, match="big-endian"):
        k.bind("x", np.zeros((5, 4), ">f4"))
    # a Resource is checked by the API's own rules
    with pytest.raises(sm5sim.BindingError) as e:
        k.bind("x", sm5sim.Resource.buffer(np.zeros(5, np.float32)))
    assert str(e.value).startswith("'x' (t0): 20 bytes is not a whole number of 16-byte structures")
    with pytest.raises(sm5sim.BindingError, match=r"'y' \(u0\).*texture"):
        k.bind("y", sm5sim.Resource.empty_texture("R32_FLOAT", 4, 4))


def test_constants_are_checked_field_by_field() -> None:
    k = kernel("saxpy_structured")
    with pytest.raises(sm5sim.FieldError) as e:
        k.set_constants("Params", {"b": 1})
    assert str(e.value) == (
        "cbuffer Params: b: cbuffer Params has no variable 'b' (it has: a, element_count)"
    )
    with pytest.raises(sm5sim.FieldError, match="^cbuffer Params: a:"):
        k.set_constants("Params", {"a": [1.0, 2.0]})
    with pytest.raises(sm5sim.FieldError, match="element_count"):
        k.set_constants("Params", {"element_count": -1})
    with pytest.raises(sm5sim.FieldError, match="element_count"):
        k.set_constants("Params", {"element_count": 1.5})
    with pytest.raises(sm5sim.FieldError, match="cbuffer Params: a: a str is no value"):
        k.set_constants("Params", {"a": "two"})
    with pytest.raises(sm5sim.BindingError, match="not a constant buffer"):
        k.set_constants("x", {})
    with pytest.raises(sm5sim.UnknownNameError, match="'Parms'"):
        k.set_constants("Parms", {})
    with pytest.raises(TypeError, match="dict"):
        k.set_constants("Params", [("a", 1.0)])  # type: ignore[arg-type]
    # NumPy scalars and arrays are values too
    k.set_constants("Params", {"a": np.float32(2.5), "element_count": np.uint32(7)})


def test_unbound_slots_and_bad_dispatches() -> None:
    k = kernel("histogram")
    k.bind("keys", np.ones(1, np.uint32))
    with pytest.raises(sm5sim.UnboundError) as e:
        k.dispatch(1)
    assert str(e.value) == "u0 ('bins'): the shader declares it but nothing is bound there"
    k.bind("bins", np.zeros(256, np.uint32)).set_constants("Params", {"key_count": 1})
    with pytest.raises(sm5sim.DispatchError) as e:
        k.dispatch((70_000, 1, 1))
    assert str(e.value) == "Dispatch(70000, 1, 1): each dimension must be at most 65535 thread groups"
    with pytest.raises(sm5sim.DispatchError, match="more than 10 warp-instructions"):
        k.dispatch(4, watchdog=10)
    with pytest.raises(TypeError, match="groups"):
        k.dispatch((1, 2, 3, 4))
    with pytest.raises(TypeError, match="groups"):
        k.dispatch(-1)
    with pytest.raises(TypeError, match="timeout"):
        k.dispatch(1, timeout=-1.0)
    assert k.unbind("bins") and not k.unbind("bins")
    with pytest.raises(sm5sim.UnboundError, match=re.escape("u0 ('bins')")):
        k.dispatch(1)


def test_reads_and_sizes_are_checked() -> None:
    with pytest.raises(sm5sim.ResourceError, match="ByteWidth of 0"):
        sm5sim.Resource.buffer(np.zeros(0, np.uint32))
    with pytest.raises(sm5sim.ResourceError, match=r"a uint8 array of shape \(3,\)"):
        sm5sim.Resource.buffer(np.zeros(3, np.uint8))
    r = sm5sim.Resource.buffer(np.array([1, 2, 3], np.uint32))
    with pytest.raises(sm5sim.ResourceError, match="12 bytes is not a whole number of 8-byte"):
        r.read(np.float64)
    with pytest.raises(sm5sim.ResourceError, match=r"do not make shape \(2, 2\)"):
        r.read(np.uint32, shape=(2, 2))
    assert r.read(np.uint8)[4] == 2
    with pytest.raises(sm5sim.ResourceError, match="a buffer of 12 bytes"):
        r.write(np.array([7, 8], np.uint32), offset=8)
    r.write(np.array([9], np.uint32), offset=4)
    assert r.read().tolist() == [1, 9, 3]
    with pytest.raises(sm5sim.ResourceError, match="no texels"):
        r.read_texture()
    with pytest.raises(sm5sim.ResourceError, match="texture"):
        sm5sim.Resource.empty_texture("R8G8B8A8_UNORM", 0, 4)
    with pytest.raises(sm5sim.ResourceError, match="'R33_FLOAT' is no DXGI format"):
        sm5sim.Resource.empty_texture("R33_FLOAT", 4, 4)
    k = kernel("histogram")
    k.bind("keys", np.ones(1, np.uint32))
    with pytest.raises(sm5sim.NotBoundError) as e:
        k.read("bins")
    assert str(e.value) == "nothing is bound as 'bins' (bound: t0 ('keys'))"


def test_samplers_are_not_resources() -> None:
    k = sm5sim.Kernel(
        sm5sim.Shader.load(ROOT / "examples/downsample_tonemap/downsample_tonemap.dxbc")
    )
    with pytest.raises(sm5sim.ShaderError, match="'linear_clamp' is sampler s0 in the shader"):
        k.bind("linear_clamp", np.zeros(4, np.uint32))
    k.bind_sampler("linear_clamp").bind_sampler("s0")
    with pytest.raises(sm5sim.UnknownNameError, match="'s16'"):
        k.bind_sampler("s16")


def test_reflection() -> None:
    s = sm5sim.Shader.load(example("saxpy_structured"))
    assert s.name == "saxpy_structured.dxbc" and s.thread_group == (128, 1, 1)
    info = {r.name: r for r in s.resources}
    assert [(r.name, r.slot, r.kind) for r in s.resources] == [
        ("x", "t0", "srv"),
        ("y", "u0", "uav"),
        ("Params", "cb0", "cbuffer"),
    ]
    assert info["x"].stride == 16 and info["x"].element_type == "float4"
    assert info["Params"].stride is None
    fields = s.cbuffer("Params")
    assert [(f.name, f.type, f.offset) for f in fields] == [("a", "float", 0), ("element_count", "uint", 4)]
    t = sm5sim.Shader.load(ROOT / "examples/gaussian_blur/gaussian_blur.dxbc")
    assert [r.dimension for r in t.resources if r.kind != "cbuffer"] == ["texture2d", "texture2d"]


def test_huge_names_are_clipped_in_messages() -> None:
    """A 16 MiB name is echoed as its first 120 characters and the count of
    bytes left out, never whole (issue #44)."""
    huge = "n" * (16 << 20)
    clipped = "n" * 120 + f"…({(16 << 20) - 120} more bytes)"
    k = kernel("histogram")
    cases = [
        (sm5sim.UnknownNameError, lambda: k.bind(huge, np.zeros(4, np.uint32))),
        (sm5sim.UnknownNameError, lambda: k.set_constants(huge, {"key_count": 1})),
        (sm5sim.FieldError, lambda: k.set_constants("Params", {huge: 1})),
        (sm5sim.NotBoundError, lambda: k.read(huge)),
        (sm5sim.LoadError, lambda: sm5sim.Shader.from_bytes(b"DXBC", huge)),
        (sm5sim.ResourceError, lambda: sm5sim.Resource.texture(np.zeros((1, 1, 4), np.uint8), format=huge)),
        (sm5sim.ResourceError, lambda: sm5sim.Resource.empty_texture(huge, 1)),
    ]
    for cls, call in cases:
        with pytest.raises(cls) as e:
            call()
        m = str(e.value)
        assert len(m) < 20_000 and clipped in m, (cls, len(m), m[:300])
