"""The device commands between dispatches (copies, CopyStructureCount,
DispatchIndirect), null views, texture views of mip and slice ranges,
subresource reads and writes, set_constants keeping the variables not given,
and Resources shared between kernels; with the refusals of each."""

import numpy as np
import pytest

import sm5sim
from conftest import ROOT, kernel

SC = ROOT / "examples" / "stream_compaction"
MIP = ROOT / "examples" / "mip_chain"


def shader(path: str) -> sm5sim.Kernel:
    return sm5sim.Kernel(sm5sim.Shader.load(ROOT / path))


def saxpy(n: int = 256) -> "tuple[sm5sim.Kernel, np.ndarray]":
    x = np.arange(4 * n, dtype=np.float32).reshape(n, 4)
    k = kernel("saxpy_structured")
    k.bind("x", x)
    return k, x


# --- sharing, copying, constants -------------------------------------------


def test_a_resource_is_shared_an_array_is_copied() -> None:
    k1, x = saxpy()
    k2, _ = saxpy()
    y = np.ones((256, 4), np.float32)
    shared = sm5sim.Resource.buffer(y)
    k1.bind("y", shared).set_constants("Params", {"a": 2.0, "element_count": 256})
    k2.bind("y", shared).set_constants("Params", {"a": 3.0, "element_count": 256})
    k1.dispatch(2)
    k2.dispatch(2)  # reads what k1 wrote
    np.testing.assert_array_equal(shared.read(), 3 * x + (2 * x + 1))
    assert k1.resource("y") is shared and k2.resource("y") is shared
    np.testing.assert_array_equal(k1.read("y"), k2.read("y"))
    # an array is copied at bind: the kernel's copy changes, the array does not
    k1.bind("y", y)
    k1.dispatch(2)
    np.testing.assert_array_equal(y, np.ones((256, 4), np.float32))
    np.testing.assert_array_equal(k1.read("y"), 2 * x + 1)


def test_set_constants_keeps_what_replace_constants_zeroes() -> None:
    k, x = saxpy()
    y = sm5sim.Resource.buffer(np.zeros((256, 4), np.float32))
    k.bind("y", y).set_constants("Params", {"a": 2.0, "element_count": 256})
    k.set_constants("Params", {"a": 3.0})  # element_count stays 256
    k.dispatch(2)
    np.testing.assert_array_equal(y.read(), 3 * x)
    k.replace_constants("Params", {"a": 5.0})  # element_count 0: nothing runs
    k.dispatch(2)
    np.testing.assert_array_equal(y.read(), 3 * x)
    k.set_constants("Params", {"element_count": 1})  # a stays 5
    k.dispatch(2)
    np.testing.assert_array_equal(y.read()[0], 5 * x[0] + 3 * x[0])
    np.testing.assert_array_equal(y.read()[1:], 3 * x[1:])
    with pytest.raises(sm5sim.FieldError, match="no variable 'b'"):
        k.replace_constants("Params", {"b": 1})
    with pytest.raises(TypeError, match="replace_constants takes a dict"):
        k.replace_constants("Params", [("a", 1.0)])  # type: ignore[arg-type]


def test_buffer_copies() -> None:
    a = sm5sim.Resource.buffer(np.arange(16, dtype=np.uint32))
    b = sm5sim.Resource.zeros(64)
    b.copy_from(a)
    assert b.read().tolist() == list(range(16))
    c = sm5sim.Resource.zeros(64)
    c.copy_region(a, src_offset=8, dst_offset=4, nbytes=12)  # words 2, 3, 4 to 1, 2, 3
    assert c.read().tolist()[:5] == [0, 2, 3, 4, 0]
    c.copy_region(a, src_offset=3, dst_offset=0, nbytes=1)  # byte granular
    assert c.read(np.uint8)[0] == 0 and c.read().tolist()[0] == 0
    c.copy_region(a, src_offset=4, dst_offset=0, nbytes=1)
    assert c.read().tolist()[0] == 1
    c.copy_region(a, src_offset=60)  # nbytes None: the rest of src
    assert c.read().tolist()[0] == 15
    # refusals: D3D11's runtime drops these copies
    with pytest.raises(sm5sim.ResourceError, match="needs the same ByteWidth"):
        sm5sim.Resource.zeros(32).copy_from(a)
    with pytest.raises(sm5sim.ResourceError, match="same resource"):
        a.copy_from(a)
    with pytest.raises(sm5sim.ResourceError, match="one is a buffer and the other a texture"):
        a.copy_from(sm5sim.Resource.empty_texture("R32_UINT", 16))
    with pytest.raises(sm5sim.ResourceError, match="not inside the source's 64 bytes"):
        c.copy_region(a, src_offset=60, nbytes=8)
    with pytest.raises(sm5sim.ResourceError, match="do not fit the destination's 32 bytes"):
        sm5sim.Resource.zeros(32).copy_region(a, dst_offset=16, nbytes=32)
    with pytest.raises(sm5sim.ResourceError, match="same buffer"):
        a.copy_region(a, src_offset=0, dst_offset=32, nbytes=4)
    with pytest.raises(sm5sim.ResourceError, match="textures take copy_texture_region"):
        a.copy_region(sm5sim.Resource.empty_texture("R32_UINT", 16), nbytes=4)
    with pytest.raises(TypeError):
        c.copy_region(np.zeros(4, np.uint32), nbytes=4)  # type: ignore[arg-type]


def test_texture_subresources_and_copies() -> None:
    t = sm5sim.Resource.empty_texture("R32_FLOAT", 8, 4, array_size=2, mip_levels=2)
    mip1 = np.arange(8, dtype=np.float32).reshape(2, 4, 1)
    t.write_subresource(1, 1, mip1)
    np.testing.assert_array_equal(t.read_subresource(1, 1), mip1)
    assert t.read_subresource(0, 1).shape == (4, 8, 1) and not t.read_subresource(1, 0).any()
    # copy_from: the same description; copy_texture_region: a box
    u = sm5sim.Resource.empty_texture("R32_FLOAT", 8, 4, array_size=2, mip_levels=2)
    u.copy_from(t)
    np.testing.assert_array_equal(u.read_subresource(1, 1), mip1)
    v = sm5sim.Resource.empty_texture("R32_FLOAT", 8, 4)
    v.copy_texture_region(t, src_mip=1, src_slice=1, src_box=((1, 0, 0), (3, 2, 1)), dst=(5, 2, 0))
    want = np.zeros((4, 8, 1), np.float32)
    want[2:4, 5:7] = mip1[0:2, 1:3]
    np.testing.assert_array_equal(v.read_subresource(), want)
    t.copy_texture_region(t, src_mip=1, src_slice=1, dst_mip=1, dst_slice=0)  # other subresource
    np.testing.assert_array_equal(t.read_subresource(1, 0), mip1)
    # whole-texture write: mip 0 of every slice, as read_texture shapes it
    t.write(np.ones((2, 4, 8, 1), np.float32))
    assert t.read_texture().shape == (2, 4, 8, 1) and t.read_texture().all()
    # refusals
    with pytest.raises(sm5sim.ResourceError, match="no subresource mip 2 slice 0"):
        t.read_subresource(2, 0)
    with pytest.raises(sm5sim.ResourceError, match="no subresource mip 0 slice 2"):
        t.write_subresource(0, 2, np.zeros((4, 8, 1), np.float32))
    with pytest.raises(sm5sim.ResourceError, match="does not hold R32_FLOAT texels"):
        t.write_subresource(0, 0, np.zeros((4, 8, 1), np.int32))
    with pytest.raises(sm5sim.ResourceError):
        t.write_subresource(0, 0, np.zeros((4, 4, 1), np.float32))  # another size
    with pytest.raises(sm5sim.ResourceError, match="written whole"):
        t.write(np.ones((2, 4, 8, 1), np.float32), offset=4)
    with pytest.raises(sm5sim.ResourceError, match="a buffer has no subresources"):
        sm5sim.Resource.zeros(16).read_subresource()
    with pytest.raises(sm5sim.ResourceError, match="differ in dimension, size"):
        v.copy_from(t)
    with pytest.raises(sm5sim.ResourceError, match="not in one type group"):
        sm5sim.Resource.empty_texture("R8G8B8A8_UNORM", 8, 4).copy_texture_region(v)
    with pytest.raises(sm5sim.ResourceError, match="same subresource"):
        v.copy_texture_region(v)
    with pytest.raises(sm5sim.ResourceError, match="the source has no subresource mip 3"):
        v.copy_texture_region(t, src_mip=3)
    with pytest.raises(sm5sim.ResourceError):
        v.copy_texture_region(t, src_box=((0, 0, 0), (9, 1, 1)))  # past the source's width
    with pytest.raises(sm5sim.ResourceError, match="buffers take copy_region"):
        v.copy_texture_region(sm5sim.Resource.zeros(16))


# --- CopyStructureCount and DispatchIndirect --------------------------------


def compaction() -> "tuple[sm5sim.Kernel, sm5sim.Resource]":
    """compact.dxbc run over 0 ... 999: the multiples of 3 appended."""
    k = sm5sim.Kernel(sm5sim.Shader.load(SC / "compact.dxbc"))
    listed = sm5sim.Resource.zeros(4000)
    k.bind("input", np.arange(1000, dtype=np.uint32)).bind("list", listed)
    k.set_constants("CompactParams", {"element_count": 1000, "divisor": 3})
    k.dispatch(16)
    return k, listed


def test_copy_structure_count() -> None:
    _, listed = compaction()
    assert listed.counter == 334
    dst = sm5sim.Resource.zeros(16)
    dst.copy_structure_count(listed, 8)
    assert dst.read().tolist() == [0, 0, 334, 0]
    assert sorted(listed.read()[:334].tolist()) == list(range(0, 1000, 3))
    with pytest.raises(sm5sim.ResourceError, match="offset 6 is not a multiple of 4"):
        dst.copy_structure_count(listed, 6)
    with pytest.raises(sm5sim.ResourceError, match="does not fit the destination's 16 bytes"):
        dst.copy_structure_count(listed, 16)
    with pytest.raises(sm5sim.ResourceError, match="goes into a buffer"):
        sm5sim.Resource.empty_texture("R32_UINT", 4).copy_structure_count(listed)
    with pytest.raises(sm5sim.ResourceError, match="goes into a buffer"):
        dst.copy_structure_count(sm5sim.Resource.empty_texture("R32_UINT", 4))


def test_dispatch_indirect() -> None:
    _, listed = compaction()
    count = sm5sim.Resource.buffer(np.array([334], np.uint32))
    totals = sm5sim.Resource.zeros(12)
    k = sm5sim.Kernel(sm5sim.Shader.load(SC / "process.dxbc"))
    k.bind("list", listed).bind("count", count).bind("totals", totals)
    # the arguments at byte 4 of a larger buffer: [6, 1, 1]
    args = sm5sim.Resource.buffer(np.array([99, 6, 1, 1, 99], np.uint32))
    assert k.indirect_groups(args, 4) == (6, 1, 1)
    done = k.dispatch_indirect(args, 4, threads=2)
    assert done.groups == (6, 1, 1) and done.stats.groups == 6
    kept = np.arange(0, 1000, 3, dtype=np.uint64)
    assert totals.read().tolist() == [int((kept * kept).sum()) % 2**32, 334, 999]
    # a count of 0 runs nothing
    zero = sm5sim.Resource.buffer(np.array([0, 1, 1], np.uint32))
    assert k.dispatch_indirect(zero).stats.groups == 0
    # refusals
    with pytest.raises(sm5sim.ResourceError, match="offset 2 is not a multiple of 4"):
        k.dispatch_indirect(args, 2)
    with pytest.raises(sm5sim.ResourceError, match="three uints at byte 12 are not inside its 20 bytes"):
        k.dispatch_indirect(args, 12)
    with pytest.raises(sm5sim.ResourceError, match="not inside its 8 bytes"):
        k.dispatch_indirect(sm5sim.Resource.zeros(8))
    with pytest.raises(sm5sim.ResourceError, match="reads its arguments from a buffer"):
        k.dispatch_indirect(sm5sim.Resource.empty_texture("R32_UINT", 4))
    with pytest.raises(sm5sim.BindingError, match="bound as a UAV of the same dispatch"):
        k.dispatch_indirect(totals)
    big = sm5sim.Resource.buffer(np.array([70_000, 1, 1], np.uint32))
    with pytest.raises(sm5sim.DispatchError, match="at most 65535"):
        k.dispatch_indirect(big)
    with pytest.raises(TypeError):
        k.dispatch_indirect(np.array([1, 1, 1], np.uint32))  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="timeout"):
        k.dispatch_indirect(args, 4, timeout=-1.0)


# --- null views and texture view ranges -------------------------------------


def test_null_views() -> None:
    k, x = saxpy()
    y = sm5sim.Resource.buffer(np.ones((256, 4), np.float32))
    k.bind("y", y).set_constants("Params", {"a": 2.0, "element_count": 256})
    k.bind("x", None)  # reads 0: y = 2 * 0 + y
    k.dispatch(2)
    np.testing.assert_array_equal(y.read(), np.ones((256, 4), np.float32))
    with pytest.raises(sm5sim.NotBoundError):
        k.read("x")
    k.bind("x", x).bind_null("y")  # writes dropped
    k.dispatch(2)
    np.testing.assert_array_equal(y.read(), np.ones((256, 4), np.float32))
    assert k.unbind("y") and not k.unbind("y")
    with pytest.raises(sm5sim.UnboundError, match="u0 \\('y'\\)"):
        k.dispatch(2)
    with pytest.raises(sm5sim.UnknownNameError, match="'z'"):
        k.bind_null("z")
    with pytest.raises(TypeError, match="null view"):
        k.bind("y", None, format="R32_FLOAT")
    with pytest.raises(TypeError, match="null view"):
        k.bind("y", None, mip=0)


def test_texture_view_ranges() -> None:
    k = sm5sim.Kernel(sm5sim.Shader.load(MIP / "downsample.dxbc"))
    tex = sm5sim.Resource.empty_texture("R32G32B32A32_FLOAT", 4, 4, mip_levels=0)
    tex.write_subresource(0, 0, np.full((4, 4, 4), 2.0, np.float32))
    k.bind("Src", tex, mip=0, mip_count=1).bind("Dst", tex, mip=1)
    assert k.srv_uav_hazards() == []
    k.set_constants("MipParams", {"dst_size": [2, 2]})
    k.dispatch(1)
    np.testing.assert_array_equal(tex.read_subresource(1), np.full((2, 2, 4), 2.0, np.float32))
    # an SRV over the UAV's mip reads as null (D3D11 unbinds it)
    k.bind("Src", tex)  # all mips, mip 1 included
    assert k.srv_uav_hazards() == [(("t0", "Src"), ("u0", "Dst"))]
    k.bind("Src", tex, mip=0, mip_count=1)
    assert k.srv_uav_hazards() == []
    # an array bound with a range is a texture of one mip
    k.bind("Src", np.zeros((4, 4, 4), np.float32), mip=0)
    # refusals
    with pytest.raises(sm5sim.BindingError, match="'Src' \\(t0\\)"):
        k.bind("Src", tex, mip=5)
    with pytest.raises(sm5sim.BindingError, match="'Dst' \\(u0\\)"):
        k.bind("Dst", tex, mip=3)  # 3 mips: 4x4, 2x2, 1x1
    with pytest.raises(sm5sim.BindingError, match="a texture view needs a texture"):
        k.bind("Src", sm5sim.Resource.zeros(64), mip=0)
    with pytest.raises(sm5sim.BindingError, match="cb0 is declared constant"):
        k.bind("MipParams", sm5sim.Resource.zeros(16), mip=0)
    b = kernel("histogram")
    with pytest.raises(sm5sim.BindingError, match="choose a texture view's subresources"):
        b.bind("keys", np.zeros(4, np.uint32), first_slice=1)


def test_a_buffer_view_of_an_element_range() -> None:
    # make_args reads word 0 of its `count` view: here word 1 of two (128,
    # two groups of 64)
    k = shader("examples/stream_compaction/make_args.dxbc")
    pair = sm5sim.Resource.buffer(np.array([7, 128], np.uint32))
    args = sm5sim.Resource.zeros(12)
    k.bind("count", pair, first_element=1, elements=1).bind("args", args)
    k.dispatch(1)
    np.testing.assert_array_equal(args.read(np.uint32), [2, 1, 1])
    with pytest.raises(sm5sim.BindingError, match="not a range"):
        k.bind("count", pair, first_element=1, elements=2)
    with pytest.raises(TypeError, match="needs elements"):
        k.bind("count", pair, first_element=1)
