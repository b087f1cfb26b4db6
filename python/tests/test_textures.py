"""Textures in and out as [h, w, c] arrays, against NumPy references."""

import numpy as np
import pytest

import sm5sim
from conftest import ROOT

# the binomial 9-tap kernel of examples/gaussian_blur: 1 8 28 56 70 56 28 8 1 / 256
WEIGHTS = np.array([1, 8, 28, 56, 70, 56, 28, 8, 1], np.float32) / np.float32(256)


def blur_reference(image: np.ndarray) -> np.ndarray:
    """The separable blur with clamp-to-edge, in float32, then UNORM8."""
    src = image.astype(np.float32) / np.float32(255)
    h, w, _ = src.shape
    pad = np.pad(src, ((4, 4), (4, 4), (0, 0)), mode="edge")
    rows = sum(WEIGHTS[k] * pad[:, k : k + w] for k in range(9))
    out = sum(WEIGHTS[k] * rows[k : k + h] for k in range(9))
    return np.clip(np.floor(out * 255 + 0.5), 0, 255).astype(np.uint8)


def test_gaussian_blur_rgba8_in_and_out() -> None:
    h, w = 24, 40  # not multiples of the 16x16 tile
    image = np.random.default_rng(11).integers(0, 256, (h, w, 4), dtype=np.uint8)
    k = sm5sim.Kernel(sm5sim.Shader.load(ROOT / "examples/gaussian_blur/gaussian_blur.dxbc"))
    # uint8 x 4 where the shader reads floats: R8G8B8A8_UNORM
    k.bind("src", image).bind("dst", np.zeros((h, w, 4), np.uint8))
    k.set_constants("Params", {"image_size": [w, h]})
    k.dispatch((-(-w // 16), -(-h // 16)))
    out = k.read("dst")
    assert out.shape == (h, w, 4) and out.dtype == np.uint8
    assert k.resource("dst").format == "R8G8B8A8_UNORM"
    # float32 sums in another order than the reference's: at most one step of 1/255
    diff = np.abs(out.astype(np.int16) - blur_reference(image).astype(np.int16))
    assert diff.max() <= 1, diff.max()
    # a constant image stays constant
    flat = np.broadcast_to(np.array([200, 100, 50, 255], np.uint8), (h, w, 4))
    k.bind("src", np.ascontiguousarray(flat))
    k.dispatch((-(-w // 16), -(-h // 16)))
    np.testing.assert_array_equal(k.read("dst"), flat)


def test_float16_texture_downsample_tonemap() -> None:
    # RGBA16F in, RGBA8 out; a bilinear sample at the output texel's centre
    # averages each 2x2 block
    h, w = 16, 24
    hdr = np.random.default_rng(12).uniform(0, 4, (2 * h, 2 * w, 4)).astype(np.float16)
    exposure = 0.8
    k = sm5sim.Kernel(
        sm5sim.Shader.load(ROOT / "examples/downsample_tonemap/downsample_tonemap.dxbc")
    )
    k.bind("hdr", hdr).bind_sampler("linear_clamp")
    k.bind("ldr", sm5sim.Resource.empty_texture("R8G8B8A8_UNORM", w, h))
    k.set_constants(
        "Params",
        {"dst_size": (w, h), "inv_dst_size": np.array([1 / w, 1 / h]), "exposure": exposure},
    )
    assert k.resource("hdr").format == "R16G16B16A16_FLOAT"
    k.dispatch((w // 8, h // 8))
    out = k.read("ldr")
    assert out.shape == (h, w, 4) and out.dtype == np.uint8
    x = hdr.astype(np.float32).reshape(h, 2, w, 2, 4).mean(axis=(1, 3))[..., :3] * exposure
    mapped = np.clip((x * (2.51 * x + 0.03)) / (x * (2.43 * x + 0.59) + 0.14), 0, 1)
    reference = np.floor(mapped ** (1 / 2.2) * 255 + 0.5)
    assert np.abs(out[..., :3].astype(np.float64) - reference).max() <= 2
    assert (out[..., 3] == 255).all()


def test_texture_resources_round_trip() -> None:
    rgba = np.arange(3 * 5 * 4, dtype=np.uint8).reshape(3, 5, 4)
    t = sm5sim.Resource.texture(rgba)
    assert t.is_texture and t.format == "R8G8B8A8_UNORM"
    np.testing.assert_array_equal(t.read_texture(), rgba)
    one = np.linspace(0, 1, 12, dtype=np.float32).reshape(3, 4)
    t = sm5sim.Resource.texture(one)
    assert t.format == "R32_FLOAT"
    assert t.read_texture().shape == (3, 4, 1)
    np.testing.assert_array_equal(t.read(), one)  # the array's own shape
    t = sm5sim.Resource.texture(rgba, format="R8G8B8A8_UINT")
    assert t.format == "R8G8B8A8_UINT"
    stack = np.arange(2 * 3 * 5, dtype=np.uint32).reshape(2, 3, 5)
    a = sm5sim.Resource.texture(stack, dimension="texture2darray")
    assert a.format == "R32_UINT"
    np.testing.assert_array_equal(a.read_texture()[..., 0], stack)
    vol = sm5sim.Resource.texture(np.ones((2, 3, 5, 2), np.float16))
    assert vol.format == "R16G16_FLOAT" and vol.read_texture().shape == (2, 3, 5, 2)
    with pytest.raises(sm5sim.ResourceError, match="'cube' is no view dimension"):
        sm5sim.Resource.texture(stack, dimension="cube")
    e = sm5sim.Resource.empty_texture("R32G32_FLOAT", 4, 2)
    assert e.read_texture().shape == (2, 4, 2) and e.read_texture().dtype == np.float32


def test_texture_shapes_and_dtypes_are_checked() -> None:
    k = sm5sim.Kernel(sm5sim.Shader.load(ROOT / "examples/gaussian_blur/gaussian_blur.dxbc"))
    with pytest.raises(sm5sim.BindingError, match=r"'src' \(t0\): the shader declares a texture2d; a uint8 array of shape \(4, 4, 4, 4\)"):
        k.bind("src", np.zeros((4, 4, 4, 4), np.uint8))
    with pytest.raises(sm5sim.BindingError, match="no DXGI format holds 3 uint8 channels"):
        k.bind("src", np.zeros((4, 4, 3), np.uint8))
    with pytest.raises(sm5sim.BindingError, match="R32_UINT does not fit t0, which the shader declares as float"):
        k.bind("src", np.zeros((4, 4), np.uint32))
    with pytest.raises(sm5sim.BindingError, match="declares t0 as a texture2d; bind a texture, not a buffer of 16 bytes"):
        k.bind("src", sm5sim.Resource.zeros(16))
    with pytest.raises(sm5sim.BindingError, match="R8G8B8A8_UNORM texels are 4 uint8"):
        k.bind("src", np.zeros((4, 4, 4), np.float32), format="R8G8B8A8_UNORM")
