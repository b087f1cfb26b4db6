//! Textures and samplers in job files (issue 5): parsing and its errors
//! (each with its line:column), initialisation (word forms, `fill_texel`,
//! PNG, per-subresource lists), `set`, `expect` with a PNG, and `--dump` to
//! `.png`, `.npy` and `.bin`.
//!
//! Most tests bind textures with explicit views to `empty.hlsl`, a shader
//! that declares nothing, so they need no texture support in the executor;
//! the `shader_*` tests at the end run shaders that load, sample and store
//! textures (fxc-compiled; sources, containers and listings in
//! `tests/texture_jobs/`). PNG fixtures come from `make_fixtures.py`.

use super::{output_text as text, sm5sim};
use sm5sim::job::{read_png, Job, PngImage, StepReport};
use sm5sim::sim_core::LoadOptions;
use sm5sim::sim_mem::{AddressMode, ComparisonFunc, Filter};
use std::path::{Path, PathBuf};
use std::process::Output;

fn dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/texture_jobs")
}

/// `DIR` in the text becomes the fixtures' directory.
fn expand(toml: &str) -> String {
    toml.replace("DIR", &dir().display().to_string().replace('\\', "/"))
}

fn load(toml: &str) -> Result<Job, sm5sim::job::JobError> {
    Job::from_toml(
        &expand(toml),
        &dir().join("job.toml"),
        &dir(),
        &LoadOptions::default(),
    )
}

fn error(toml: &str) -> String {
    match load(toml) {
        Ok(_) => panic!("the job loaded:\n{toml}"),
        Err(e) => e.to_string(),
    }
}

/// Assert that `e` is reported at `line:column` for `key` with `message`.
#[track_caller]
fn assert_error(e: &str, line: usize, column: usize, key: &str, message: &str) {
    let want = format!("job.toml:{line}:{column}: {key}: ");
    assert!(e.contains(&want), "expected «{want}» in:\n{e}");
    assert!(e.contains(message), "expected «{message}» in:\n{e}");
}

/// Write `toml` (with `DIR` expanded) as `job.toml` in a fresh scratch
/// directory named `name`; returns the directory.
fn scratch_job(name: &str, toml: &str) -> PathBuf {
    let d = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("texture_jobs")
        .join(name);
    std::fs::create_dir_all(&d).unwrap();
    std::fs::write(d.join("job.toml"), expand(toml)).unwrap();
    d
}

fn run_job(d: &Path, extra: &[&str]) -> Output {
    let job = d.join("job.toml");
    let mut args = vec!["run", job.to_str().unwrap()];
    args.extend_from_slice(extra);
    sm5sim(&args)
}

fn fixture(name: &str) -> PngImage {
    read_png(&dir().join(name), None).unwrap()
}

const EMPTY: &str = "shader = \"empty.dxbc\"\n";

// ---------------------------------------------------------------------------
// Parse errors, each at its line:column

#[test]
fn a_bad_format_name_is_refused_at_its_key() {
    let e = error(&format!(
        "{EMPTY}[resources.tex]\nslot = \"t0\"\nview = \"texture2d\"\nformat = \"R8G8B8A8_UNROM\"\nwidth = 4\n"
    ));
    assert_error(
        &e,
        5,
        1,
        "resources.tex.format",
        "'R8G8B8A8_UNROM' is not a DXGI format sm5sim knows (known: R32G32B32A32_FLOAT,",
    );
    assert!(e.contains("BC7_UNORM_SRGB"), "{e}");
}

#[test]
fn a_bad_view_name_is_refused_at_its_key() {
    let e = error(&format!(
        "{EMPTY}[resources.tex]\nslot = \"t0\"\nview = \"texture2dd\"\nformat = \"R8_UNORM\"\nwidth = 4\n"
    ));
    assert_error(
        &e,
        4,
        1,
        "resources.tex.view",
        "'texture2dd' is not raw, structured, typed, constant or a texture view (texture1d, texture1darray, texture2d,",
    );
}

#[test]
fn a_texture_without_width_is_refused_at_its_table() {
    let e = error(&format!(
        "{EMPTY}\n[resources.tex]\nslot = \"u1\"\nview = \"texture2d\"\nformat = \"R8_UNORM\"\nheight = 4\n"
    ));
    assert_error(
        &e,
        3,
        12,
        "resources.tex",
        "a texture2d needs width = N and height = N",
    );
}

#[test]
fn a_png_of_the_wrong_size_is_refused_at_its_key() {
    let e = error(&format!(
        "{EMPTY}[resources.tex]\nslot = \"t0\"\nview = \"texture2d\"\nformat = \"R8G8B8A8_UNORM\"\nwidth = 8\nheight = 5\ninit = {{ png = \"rgba8.png\" }}\n"
    ));
    assert_error(
        &e,
        8,
        10,
        "resources.tex.init.png",
        "rgba8.png is 8x4, but mip 0 of 'tex' is 8x5",
    );
}

#[test]
fn a_png_for_a_later_subresource_is_refused_at_its_entry() {
    let e = error(&format!(
        "{EMPTY}[resources.tex]\nslot = \"t0\"\nview = \"texture2d\"\nformat = \"R8G8B8A8_UNORM\"\nwidth = 8\nheight = 4\nmips = 2\ninit = [\n  {{ fill_texel = [0, 0, 0, 1] }},\n  {{ mip = 1, png = \"rgba8.png\" }},\n]\n"
    ));
    assert_error(
        &e,
        11,
        14,
        "resources.tex.init[1].png",
        "rgba8.png is 8x4, but mip 1 of 'tex' is 4x2",
    );
}

#[test]
fn a_bad_filter_name_is_refused_at_its_key() {
    let e = error(&format!(
        "{EMPTY}[samplers.linear]\nslot = \"s0\"\nfilter = \"MIN_MAG_MIP_BILINEAR\"\n"
    ));
    assert_error(
        &e,
        4,
        1,
        "samplers.linear.filter",
        "'MIN_MAG_MIP_BILINEAR' is not a D3D11_FILTER name",
    );
}

#[test]
fn anisotropy_zero_is_refused_at_its_key() {
    let e = error(&format!(
        "{EMPTY}[samplers.aniso]\nslot = \"s1\"\nfilter = \"ANISOTROPIC\"\nmax_anisotropy = 0\n"
    ));
    assert_error(
        &e,
        5,
        1,
        "samplers.aniso.max_anisotropy",
        "max_anisotropy 0 is not in 1..=16",
    );
}

#[test]
fn a_sampler_without_slot_or_rdef_name_is_refused_at_its_table() {
    let e = error(&format!(
        "{EMPTY}\n[samplers.mystery]\naddress = \"WRAP\"\n"
    ));
    assert_error(
        &e,
        3,
        11,
        "samplers.mystery.slot",
        "'mystery' is not a sampler name in the shader's RDEF; give slot = \"s0\"",
    );
}

#[test]
fn other_texture_and_sampler_mistakes_are_refused() {
    let tex = |extra: &str| {
        error(&format!(
            "{EMPTY}[resources.tex]\nslot = \"t0\"\nview = \"texture2d\"\nformat = \"R8G8B8A8_UNORM\"\nwidth = 4\nheight = 4\n{extra}"
        ))
    };
    let e = tex("stride = 16\n");
    assert_error(
        &e,
        8,
        1,
        "resources.tex.stride",
        "stride belongs to buffers",
    );
    let e = tex("depth = 2\n");
    assert_error(&e, 8, 1, "resources.tex.depth", "depth is for texture3d");
    let e = tex("most_detailed_mip = 1\n");
    assert_error(
        &e,
        8,
        1,
        "resources.tex.most_detailed_mip",
        "first mip 1 of a texture with 1 mips",
    );
    // with the rule's source
    assert!(
        e.contains("(D3D11 refuses such a view: ID3D11Device::Create"),
        "{e}"
    );
    let e = tex("init = { fill_texel = [1, 2, 3, 4, 5] }\n");
    assert_error(
        &e,
        8,
        10,
        "resources.tex.init.fill_texel",
        "fill_texel takes 1 to 4 values",
    );
    let e = tex("init = { u32 = [1, 2, 3] }\n");
    assert_error(
        &e,
        8,
        10,
        "resources.tex.init.u32",
        "3 values given but 'tex' holds 16 32-bit words (all its subresources)",
    );
    let e = tex("init = [{ mip = 1, fill_u32 = 0 }]\n");
    assert!(
        e.contains("mip 1 slice 0 is not a subresource of 'tex' (1 mips, 1 slices)"),
        "{e}"
    );
    // Textures go with t#/u#; texture-only keys do not go on buffers.
    let e = error(&format!(
        "{EMPTY}[resources.tex]\nslot = \"cb0\"\nview = \"texture2d\"\nformat = \"R8_UNORM\"\nwidth = 4\n"
    ));
    assert_error(
        &e,
        4,
        1,
        "resources.tex.view",
        "textures go with t# or u# slots (this is cb0)",
    );
    let e = error(&format!(
        "{EMPTY}[resources.buf]\nslot = \"u0\"\nview = \"raw\"\nelements = 4\nwidth = 4\n"
    ));
    assert_error(&e, 6, 1, "resources.buf.width", "width belongs to textures");
    let e = error(&format!(
        "{EMPTY}[resources.buf]\nslot = \"u0\"\nview = \"raw\"\nelements = 4\ninit = {{ fill_texel = [1] }}\n"
    ));
    assert!(
        e.contains("fill_texel is for textures; 'buf' is a buffer"),
        "{e}"
    );
    // A UAV cannot be sRGB or a cube.
    let e = error(&format!(
        "{EMPTY}[resources.tex]\nslot = \"u0\"\nview = \"texture2d\"\nformat = \"R8G8B8A8_UNORM_SRGB\"\nwidth = 4\n"
    ));
    assert_error(
        &e,
        5,
        1,
        "resources.tex.format",
        "R8G8B8A8_UNORM_SRGB cannot be the format of a texture UAV",
    );
    // A texture on a slot the shader declares as a buffer.
    let e = Job::from_toml(
        "shader = \"histogram.dxbc\"\n[resources.keys]\nview = \"texture2d\"\nformat = \"R32_UINT\"\nwidth = 4\n",
        Path::new("job.toml"),
        &PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("examples/histogram"),
        &LoadOptions::default(),
    )
    .unwrap_err()
    .to_string();
    assert!(
        e.contains("job.toml:3:1: resources.keys.view: the shader declares t0 as a raw buffer, not a texture"),
        "{e}"
    );
    // Sampler keys.
    let s = |body: &str| error(&format!("{EMPTY}[samplers.s]\nslot = \"s0\"\n{body}"));
    assert_error(
        &s("address_v = \"REPEAT\"\n"),
        4,
        1,
        "samplers.s.address_v",
        "'REPEAT' is not WRAP, MIRROR, CLAMP, BORDER or MIRROR_ONCE",
    );
    assert_error(
        &s("comparison = \"LEQUAL\"\n"),
        4,
        1,
        "samplers.s.comparison",
        "'LEQUAL' is not a comparison (NEVER, LESS, EQUAL, LESS_EQUAL",
    );
    assert_error(
        &s("border_color = [1.0, 0.0]\n"),
        4,
        1,
        "samplers.s.border_color",
        "needs 4 values [r, g, b, a], not 2",
    );
    assert_error(
        &s("min_lod = 4.0\nmax_lod = 2.0\n"),
        4,
        1,
        "samplers.s.min_lod",
        "min_lod 4 > max_lod 2",
    );
    assert_error(
        &error(&format!("{EMPTY}[samplers.s]\nslot = \"s16\"\n")),
        3,
        1,
        "samplers.s.slot",
        "'s16' is not a sampler slot s0 … s15",
    );
    let e = error(&format!(
        "{EMPTY}[samplers.a]\nslot = \"s2\"\n[samplers.b]\nslot = \"s2\"\n"
    ));
    assert!(
        e.contains("samplers.b: slot s2 is already bound to 'a'"),
        "{e}"
    );
    let e = error(&format!("{EMPTY}[resources.s]\nslot = \"s0\"\n"));
    assert!(
        e.contains("'s0' is a sampler slot; samplers go under [samplers.NAME]"),
        "{e}"
    );
}

// ---------------------------------------------------------------------------
// Samplers

#[test]
fn samplers_default_to_d3d11_and_take_every_key() {
    let job = load(&format!(
        "{EMPTY}[samplers.plain]\nslot = \"s0\"\n\n[samplers.custom]\nslot = \"s3\"\nfilter = \"comparison_min_mag_linear_mip_point\"\naddress = \"BORDER\"\naddress_u = \"WRAP\"\nmip_lod_bias = -1\nmax_anisotropy = 8\ncomparison = \"LESS_EQUAL\"\nborder_color = [0.0, 0.5, 1, 0.25]\nmin_lod = 1.0\nmax_lod = 3.5\n"
    ))
    .unwrap();
    let s: Vec<_> = job
        .samplers
        .iter()
        .map(|s| (s.name.as_str(), s.slot))
        .collect();
    assert_eq!(s, vec![("custom", 3), ("plain", 0)]);
    let plain = &job.samplers[1].desc;
    assert_eq!(*plain, Default::default());
    assert_eq!(plain.filter, Filter::LINEAR);
    assert_eq!(plain.address, [AddressMode::Clamp; 3]);
    assert_eq!(plain.max_anisotropy, 1);
    let c = &job.samplers[0].desc;
    assert_eq!(c.filter.name(), "COMPARISON_MIN_MAG_LINEAR_MIP_POINT");
    assert_eq!(
        c.address,
        [AddressMode::Wrap, AddressMode::Border, AddressMode::Border]
    );
    assert_eq!(c.mip_lod_bias, -1.0);
    assert_eq!(c.max_anisotropy, 8);
    assert_eq!(c.comparison, ComparisonFunc::LessEqual);
    assert_eq!(c.border_color, [0.0, 0.5, 1.0, 0.25]);
    assert_eq!((c.min_lod, c.max_lod), (1.0, 3.5));
}

// ---------------------------------------------------------------------------
// Contents

fn texture_job(format: &str, extra: &str) -> Job {
    load(&format!(
        "{EMPTY}[resources.tex]\nslot = \"t0\"\nview = \"texture2d\"\nformat = \"{format}\"\nwidth = 2\nheight = 2\n{extra}"
    ))
    .unwrap_or_else(|e| panic!("{format}: {e}"))
}

fn stored(job: &Job, mip: u32, slice: u32) -> Vec<u8> {
    job.resource("tex")
        .unwrap()
        .texture()
        .unwrap()
        .read_subresource(mip, slice)
}

#[test]
fn fill_texel_converts_by_the_format() {
    let cases: &[(&str, &str, &[u8])] = &[
        (
            "R8G8B8A8_UNORM",
            "[1.0, 0.5, 0.0, 1.0]",
            &[255, 128, 0, 255],
        ),
        (
            "B8G8R8A8_UNORM",
            "[1.0, 0.5, 0.0, 1.0]",
            &[0, 128, 255, 255],
        ),
        (
            "R8G8B8A8_UNORM_SRGB",
            "[0.5, 0.0, 1.0, 0.5]",
            &[188, 0, 255, 128],
        ),
        ("R16G16_FLOAT", "[1.0, -2.0]", &[0x00, 0x3c, 0x00, 0xc0]),
        ("R32_UINT", "[4000000000]", &4_000_000_000u32.to_le_bytes()),
        ("R8G8_SINT", "[-3, 100]", &[0xfd, 100]),
        ("R32_FLOAT", "[0.25]", &0.25f32.to_le_bytes()),
        (
            "R10G10B10A2_UNORM",
            "[1, 0, 1, 1]",
            &[0xff, 0x03, 0xf0, 0xff],
        ),
    ];
    for (format, value, texel) in cases {
        let job = texture_job(format, &format!("init = {{ fill_texel = {value} }}\n"));
        assert_eq!(stored(&job, 0, 0), texel.repeat(4), "{format} {value}");
    }
    // Block-compressed formats cannot be filled texel by texel.
    let e = error(&format!(
        "{EMPTY}[resources.tex]\nslot = \"t0\"\nview = \"texture2d\"\nformat = \"BC1_UNORM\"\nwidth = 4\nheight = 4\ninit = {{ fill_texel = [1, 0, 0, 1] }}\n"
    ));
    assert!(
        e.contains(
            "resources.tex.init.fill_texel: BC1_UNORM texels cannot be converted from values"
        ),
        "{e}"
    );
    // Integer formats take integers.
    let e = error(&format!(
        "{EMPTY}[resources.tex]\nslot = \"t0\"\nview = \"texture2d\"\nformat = \"R32_UINT\"\nwidth = 4\ninit = {{ fill_texel = [1.5] }}\n"
    ));
    assert!(
        e.contains("1.5 is not a 32-bit unsigned integer, as R32_UINT needs"),
        "{e}"
    );
}

#[test]
fn word_forms_fill_every_subresource_in_order() {
    // 4x4 R32_UINT with the full chain (4x4, 2x2, 1x1) and 2 slices: 42 words.
    let job = load(&format!(
        "{EMPTY}[resources.tex]\nslot = \"t0\"\nview = \"texture2darray\"\nformat = \"R32_UINT\"\nwidth = 4\nheight = 4\narray_size = 2\nmips = 0\ninit = {{ iota_u32 = {{}} }}\n"
    ))
    .unwrap();
    let r = job.resource("tex").unwrap();
    assert_eq!(r.data().len_words(), 42);
    let words = |mip, slice| -> Vec<u32> {
        stored(&job, mip, slice)
            .chunks_exact(4)
            .map(|b| u32::from_le_bytes(b.try_into().unwrap()))
            .collect()
    };
    assert_eq!(words(0, 0), (0..16).collect::<Vec<_>>());
    assert_eq!(words(1, 0), (16..20).collect::<Vec<_>>());
    assert_eq!(words(2, 0), vec![20]);
    assert_eq!(words(0, 1), (21..37).collect::<Vec<_>>());
    assert_eq!(words(2, 1), vec![41]);
}

#[test]
fn per_subresource_lists_fill_each_subresource() {
    let job = load(&format!(
        "{EMPTY}[resources.tex]\nslot = \"t0\"\nview = \"texture2darray\"\nformat = \"R8G8B8A8_UNORM\"\nwidth = 8\nheight = 4\narray_size = 2\nmips = 2\ninit = [\n  {{ png = \"rgba8.png\" }},\n  {{ mip = 1, slice = 0, u32 = [1, 2, 3, 4, 5, 6, 7, 8] }},\n  {{ mip = 0, slice = 1, fill_texel = [0, 1, 0, 1] }},\n  {{ mip = 1, slice = 1, fill_u32 = 0xdeadbeef }},\n]\n"
    ))
    .unwrap();
    let png = fixture("rgba8.png");
    let bytes: Vec<u8> = png.values.iter().map(|&v| v as u8).collect();
    assert_eq!(stored(&job, 0, 0), bytes);
    assert_eq!(
        stored(&job, 1, 0),
        (1u32..=8).flat_map(|w| w.to_le_bytes()).collect::<Vec<_>>()
    );
    assert_eq!(stored(&job, 0, 1), [0, 255, 0, 255].repeat(32));
    assert_eq!(stored(&job, 1, 1), 0xdeadbeefu32.to_le_bytes().repeat(8));
}

#[test]
fn png_pixels_are_converted_by_the_format() {
    // RGB8 into RGBA8: alpha 255.
    let job = load(&format!(
        "{EMPTY}[resources.tex]\nslot = \"t0\"\nview = \"texture2d\"\nformat = \"R8G8B8A8_UNORM\"\nwidth = 4\nheight = 2\ninit = {{ png = \"rgb8.png\" }}\n"
    ))
    .unwrap();
    let rgb = fixture("rgb8.png");
    let want: Vec<u8> = rgb
        .values
        .chunks_exact(3)
        .flat_map(|p| [p[0] as u8, p[1] as u8, p[2] as u8, 255])
        .collect();
    assert_eq!(stored(&job, 0, 0), want);
    // 16-bit gray into R16_UNORM: the values; into R8_UNORM: rounded to 8 bits;
    // into R32_FLOAT: v / 65535; into R16_UINT: the integers.
    let gray = fixture("gray16.png");
    let with = |format: &str| {
        let job = load(&format!(
            "{EMPTY}[resources.tex]\nslot = \"t0\"\nview = \"texture2d\"\nformat = \"{format}\"\nwidth = 5\nheight = 3\ninit = {{ png = \"gray16.png\" }}\n"
        ))
        .unwrap();
        stored(&job, 0, 0)
    };
    let le16: Vec<u8> = gray.values.iter().flat_map(|v| v.to_le_bytes()).collect();
    assert_eq!(with("R16_UNORM"), le16);
    assert_eq!(with("R16_UINT"), le16);
    assert_eq!(
        with("R8_UNORM"),
        gray.values
            .iter()
            .map(|&v| ((v as f32 / 65535.0) as f64 * 255.0 + 0.5) as u8)
            .collect::<Vec<_>>()
    );
    assert_eq!(
        with("R32_FLOAT"),
        gray.values
            .iter()
            .flat_map(|&v| ((v as f64 / 65535.0) as f32).to_le_bytes())
            .collect::<Vec<_>>()
    );
}

// ---------------------------------------------------------------------------
// Dumps and PNG expectations through the binary

#[test]
fn png_round_trips_through_rgba8_textures() {
    let d = scratch_job(
        "round_trip_rgba8",
        "shader = \"DIR/empty.dxbc\"\n[resources.img]\nslot = \"t0\"\nview = \"texture2d\"\nformat = \"R8G8B8A8_UNORM\"\nwidth = 8\nheight = 4\ninit = { png = \"DIR/rgba8.png\" }\n\n[resources.srgb]\nslot = \"t1\"\nview = \"texture2d\"\nformat = \"R8G8B8A8_UNORM_SRGB\"\nwidth = 8\nheight = 4\ninit = { png = \"DIR/rgba8.png\" }\n",
    );
    let (out, srgb) = (d.join("out.png"), d.join("srgb.png"));
    let o = run_job(
        &d,
        &[
            "--dump",
            &format!("img={}", out.display()),
            "--dump",
            &format!("srgb={}", srgb.display()),
        ],
    );
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let want = fixture("rgba8.png");
    assert_eq!(read_png(&out, None).unwrap(), want);
    // sRGB: the stored bytes both ways.
    assert_eq!(read_png(&srgb, None).unwrap(), want);
}

#[test]
fn png_round_trips_through_16_bit_textures() {
    let d = scratch_job(
        "round_trip_16",
        "shader = \"DIR/empty.dxbc\"\n[resources.gray]\nslot = \"t0\"\nview = \"texture2d\"\nformat = \"R16_UNORM\"\nwidth = 5\nheight = 3\ninit = { png = \"DIR/gray16.png\" }\n\n[resources.rgba]\nslot = \"u0\"\nview = \"texture2d\"\nformat = \"R16G16B16A16_UNORM\"\nwidth = 4\nheight = 4\ninit = { png = \"DIR/rgba16.png\" }\n\n[resources.float]\nslot = \"t1\"\nview = \"texture2d\"\nformat = \"R32G32B32A32_FLOAT\"\nwidth = 4\nheight = 4\ninit = { png = \"DIR/rgba16.png\" }\n",
    );
    let files: Vec<PathBuf> = ["gray", "rgba", "float"]
        .iter()
        .map(|n| d.join(format!("{n}.png")))
        .collect();
    let args: Vec<String> = ["gray", "rgba", "float"]
        .iter()
        .zip(&files)
        .flat_map(|(n, f)| ["--dump".to_string(), format!("{n}={}", f.display())])
        .collect();
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let o = run_job(&d, &args);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let gray = read_png(&files[0], None).unwrap();
    assert_eq!((gray.channels, gray.bit_depth), (1, 16));
    assert_eq!(gray, fixture("gray16.png"));
    assert_eq!(read_png(&files[1], None).unwrap(), fixture("rgba16.png"));
    // float textures are written as 16-bit PNGs: v × 65535 + 0.5 recovers v.
    assert_eq!(read_png(&files[2], None).unwrap(), fixture("rgba16.png"));
}

#[test]
fn dumps_of_textures_to_npy_bin_and_png() {
    let d = scratch_job(
        "dumps",
        "shader = \"DIR/empty.dxbc\"\n[resources.rgba]\nslot = \"t0\"\nview = \"texture2d\"\nformat = \"B8G8R8A8_UNORM\"\nwidth = 8\nheight = 4\nmips = 2\ninit = [{ png = \"DIR/rgba8.png\" }, { mip = 1, fill_u32 = 7 }]\n\n[resources.rg]\nslot = \"t1\"\nview = \"texture2d\"\nformat = \"R16G16_FLOAT\"\nwidth = 3\nheight = 2\ninit = { fill_texel = [0.5, 2.0] }\n\n[resources.bc]\nslot = \"t2\"\nview = \"texture2d\"\nformat = \"BC1_UNORM\"\nwidth = 4\nheight = 4\ninit = { fill_u32 = 0 }\n\n[resources.vol]\nslot = \"t3\"\nview = \"texture3d\"\nformat = \"R32_UINT\"\nwidth = 2\nheight = 2\ndepth = 2\ninit = { iota_u32 = {} }\n",
    );
    let p = |n: &str| d.join(n);
    let o = run_job(
        &d,
        &[
            "--dump",
            &format!("rgba={}", p("rgba.npy").display()),
            "--dump",
            &format!("rgba={}", p("rgba.bin").display()),
            "--dump",
            &format!("rgba={}", p("rgba.png").display()),
            "--dump",
            &format!("rg={}", p("rg.npy").display()),
            "--dump",
            &format!("rg={}", p("rg.png").display()),
            "--dump",
            &format!("vol={}", p("vol.npy").display()),
        ],
    );
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let png = fixture("rgba8.png");
    let rgba: Vec<u8> = png.values.iter().map(|&v| v as u8).collect();
    // .npy: mip 0 slice 0 as uint8 [4, 8, 4] in R, G, B, A order.
    let f = npyz::NpyFile::new(std::fs::File::open(p("rgba.npy")).unwrap()).unwrap();
    assert_eq!(f.shape(), &[4, 8, 4]);
    assert_eq!(f.into_vec::<u8>().unwrap(), rgba);
    // .bin: the whole storage, mip 1 after mip 0, in memory (B, G, R, A) order.
    let bin = std::fs::read(p("rgba.bin")).unwrap();
    assert_eq!(bin.len(), 8 * 4 * 4 + 4 * 2 * 4);
    assert_eq!(bin[..4], [rgba[2], rgba[1], rgba[0], rgba[3]]);
    assert_eq!(bin[128..], 7u32.to_le_bytes().repeat(8));
    // .png of an 8-bit format: 8-bit RGBA.
    assert_eq!(read_png(&p("rgba.png"), None).unwrap(), png);
    // R16G16_FLOAT: float16 [2, 3, 2]; PNG 16-bit RGB with B = 0, clamped.
    let f = npyz::NpyFile::new(std::fs::File::open(p("rg.npy")).unwrap()).unwrap();
    assert_eq!(f.shape(), &[2, 3, 2]);
    assert_eq!(f.dtype().descr(), "'<f2'");
    let rg = read_png(&p("rg.png"), None).unwrap();
    assert_eq!((rg.channels, rg.bit_depth), (3, 16));
    assert_eq!(rg.values, [32768, 65535, 0].repeat(6));
    // 3D: [depth, height, width, channels].
    let f = npyz::NpyFile::new(std::fs::File::open(p("vol.npy")).unwrap()).unwrap();
    assert_eq!(f.shape(), &[2, 2, 2, 1]);
    assert_eq!(f.into_vec::<u32>().unwrap(), (0..8).collect::<Vec<_>>());
    // Refused before anything runs: BC to .npy, a 3D texture or a buffer to .png.
    for (dump, message) in [
        (
            format!("bc={}", p("bc.npy").display()),
            "BC1_UNORM is block-compressed, so it has no simple NumPy dtype; use .bin",
        ),
        (
            format!("vol={}", p("vol.png").display()),
            "'vol' is a Texture3D texture; PNGs are for 2D textures (mip 0, slice 0)",
        ),
    ] {
        let o = run_job(&d, &["--dump", &dump]);
        assert_eq!(o.status.code(), Some(2), "{}", text(&o));
        assert!(text(&o).contains(message), "{}", text(&o));
        assert!(!text(&o).contains("step"), "{}", text(&o));
    }
}

#[test]
fn expect_compares_textures_with_pngs_and_words() {
    let job = |expect: &str| {
        scratch_job(
            &format!("expect_{}", expect.len()),
            &format!(
                "shader = \"DIR/empty.dxbc\"\n[resources.img]\nslot = \"u0\"\nview = \"texture2d\"\nformat = \"R8G8B8A8_UNORM\"\nwidth = 8\nheight = 4\ninit = {{ png = \"DIR/rgba8.png\" }}\n\n[[steps]]\nexpect = {{ resource = \"img\", {expect} }}\n"
            ),
        )
    };
    let o = run_job(&job("png = \"DIR/rgba8.png\""), &[]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    assert!(text(&o).contains(": ok"), "{}", text(&o));
    // One value off by 3: fails at tolerance 2, passes at 3.
    let o = run_job(&job("png = \"DIR/rgba8_off.png\", tolerance = 2"), &[]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    let t = text(&o);
    assert!(t.contains("FAILED, 1 element(s) differ"), "{t}");
    assert!(t.contains("[10] expected "), "{t}");
    assert!(t.contains(" (x 2, y 1, G), got "), "{t}");
    let o = run_job(&job("png = \"DIR/rgba8_off.png\", tolerance = 3"), &[]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    // A 16-bit PNG compares at 16 bits: 8-bit values × 257.
    let png16 = scratch_job("expect_png16", "");
    let img = fixture("rgba8.png");
    let wide = PngImage {
        bit_depth: 16,
        values: img.values.iter().map(|&v| v * 257).collect(),
        ..img.clone()
    };
    write_png16(&png16.join("wide.png"), &wide);
    let o = run_job(
        &job(&format!("png = \"{}\"", png16.join("wide.png").display())),
        &[],
    );
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    // Word forms compare the raw storage.
    let mut words: Vec<u32> = img
        .values
        .chunks_exact(4)
        .map(|p| u32::from_le_bytes([p[0] as u8, p[1] as u8, p[2] as u8, p[3] as u8]))
        .collect();
    let list = |w: &[u32]| {
        let v: Vec<String> = w.iter().map(u32::to_string).collect();
        format!("u32 = [{}]", v.join(", "))
    };
    let o = run_job(&job(&list(&words)), &[]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    words[5] ^= 1;
    let o = run_job(&job(&list(&words)), &[]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    assert!(
        text(&o).contains("FAILED, 1 element(s) differ"),
        "{}",
        text(&o)
    );
    // Mistakes are load errors.
    let e = error(&format!(
        "{EMPTY}[resources.buf]\nslot = \"u0\"\nview = \"raw\"\nelements = 4\n[[steps]]\nexpect = {{ resource = \"buf\", png = \"rgba8.png\" }}\n"
    ));
    assert!(
        e.contains("steps[0].expect: 'buf' is a buffer; PNGs are for 2D textures"),
        "{e}"
    );
    let e = error(&format!(
        "{EMPTY}[resources.tex]\nslot = \"u0\"\nview = \"texture2d\"\nformat = \"R8G8B8A8_UNORM\"\nwidth = 4\nheight = 4\n[[steps]]\nexpect = {{ resource = \"tex\", png = \"rgba8.png\" }}\n"
    ));
    assert!(
        e.contains("steps[0].expect.png: rgba8.png is 8x4, but 'tex' (mip 0) is 4x4"),
        "{e}"
    );
    let e = error(&format!(
        "{EMPTY}[resources.tex]\nslot = \"u0\"\nview = \"texture2d\"\nformat = \"R8G8B8A8_UNORM\"\nwidth = 4\nheight = 4\n[[steps]]\nexpect = {{ resource = \"tex\", fill_u32 = 0, tolerance = 1 }}\n"
    ));
    assert!(e.contains("tolerance applies to png expectations"), "{e}");
}

/// A 16-bit RGBA PNG written by the png crate directly, not by sm5sim
/// (big-endian samples).
fn write_png16(path: &Path, img: &PngImage) {
    assert_eq!(img.channels, 4);
    let mut encoder = png::Encoder::new(
        std::io::BufWriter::new(std::fs::File::create(path).unwrap()),
        img.width,
        img.height,
    );
    encoder.set_color(png::ColorType::Rgba);
    encoder.set_depth(png::BitDepth::Sixteen);
    let data: Vec<u8> = img.values.iter().flat_map(|v| v.to_be_bytes()).collect();
    let mut writer = encoder.write_header().unwrap();
    writer.write_image_data(&data).unwrap();
    writer.finish().unwrap();
}

#[test]
fn set_steps_rewrite_textures() {
    let job = load(&format!(
        "{EMPTY}[resources.tex]\nslot = \"u0\"\nview = \"texture2d\"\nformat = \"R32_UINT\"\nwidth = 2\nheight = 2\nmips = 2\ninit = {{ fill_u32 = 1 }}\n\n[[steps]]\nset = {{ resource = \"tex\", fill_texel = [9] }}\n[[steps]]\nexpect = {{ resource = \"tex\", fill_u32 = 9 }}\n[[steps]]\nset = {{ resource = \"tex\", mip = 1, u32 = [5] }}\n[[steps]]\nexpect = {{ resource = \"tex\", u32 = [9, 9, 9, 9, 5] }}\n"
    ))
    .unwrap();
    let reports = job.run(&Default::default()).unwrap();
    assert!(reports.iter().all(StepReport::passed), "{reports:?}");
    let e = error(&format!(
        "{EMPTY}[resources.tex]\nslot = \"u0\"\nview = \"texture2d\"\nformat = \"R32_UINT\"\nwidth = 2\n[[steps]]\nset = {{ resource = \"tex\", counter = 0 }}\n"
    ));
    assert!(
        e.contains("'tex' is a texture; only buffer UAVs have a counter"),
        "{e}"
    );
}

// ---------------------------------------------------------------------------
// Shaders that use textures and samplers: these need the executor's texture
// support (ld, store_uav_typed, sample_l on textures) and the lowering of
// texture and sampler declarations.

#[test]
fn shader_ld_copies_a_png_through_a_texture() {
    let o = sm5sim(&["run", dir().join("ld_copy.toml").to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
}

#[test]
fn shader_sample_level_point_copies_and_linear_averages() {
    for job in ["sample_point.toml", "sample_linear.toml"] {
        let o = sm5sim(&["run", dir().join(job).to_str().unwrap()]);
        assert_eq!(o.status.code(), Some(0), "{job}: {}", text(&o));
    }
}

#[test]
fn shader_store_uint_writes_an_integer_texture() {
    let d = scratch_job("store_uint", "");
    let out = d.join("out.npy");
    let o = sm5sim(&[
        "run",
        dir().join("store_uint.toml").to_str().unwrap(),
        "--dump",
        &format!("dst={}", out.display()),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let f = npyz::NpyFile::new(std::fs::File::open(&out).unwrap()).unwrap();
    assert_eq!(f.shape(), &[4, 8, 1]);
    let want: Vec<u32> = (0..4)
        .flat_map(|y| (0..8).map(move |x| x + 1000 * y))
        .collect();
    assert_eq!(f.into_vec::<u32>().unwrap(), want);
}

#[test]
fn shader_declarations_decide_views_and_need_bindings() {
    let base = dir();
    let load =
        |toml: &str| Job::from_toml(toml, &base.join("job.toml"), &base, &LoadOptions::default());
    // The view, return type and slots come from the declarations (and RDEF names).
    let job = load(
        "shader = \"sample_level.dxbc\"\n[resources.src]\nformat = \"R8G8B8A8_UNORM\"\nwidth = 16\nheight = 16\n[resources.dst]\nformat = \"R8G8B8A8_UNORM\"\nwidth = 8\nheight = 8\n[resources.Params]\ninit = { fields = { scale = 1.0 } }\n[samplers.samp]\n",
    )
    .unwrap();
    assert_eq!(job.samplers[0].slot, 0);
    // Every declared sampler must be bound.
    let e = load(
        "shader = \"sample_level.dxbc\"\n[resources.src]\nformat = \"R8G8B8A8_UNORM\"\nwidth = 16\nheight = 16\n[resources.dst]\nformat = \"R8G8B8A8_UNORM\"\nwidth = 8\nheight = 8\n[resources.Params]\ninit = { fields = { scale = 1.0 } }\n",
    )
    .unwrap_err()
    .to_string();
    assert!(
        e.contains("samplers: the shader declares s0 ('samp') but the job binds no sampler there; add [samplers.samp]"),
        "{e}"
    );
    // A texture declaration needs a texture, of the declared dimension and kind.
    let e = load("shader = \"store_uint.dxbc\"\n[resources.dst]\nview = \"raw\"\nelements = 4\n")
        .unwrap_err()
        .to_string();
    assert!(
        e.contains(
            "resources.dst.view: the shader declares u0 as a texture2d; give view = \"texture2d\""
        ),
        "{e}"
    );
    let e = load(
        "shader = \"store_uint.dxbc\"\n[resources.dst]\nview = \"texture2darray\"\nformat = \"R32_UINT\"\nwidth = 4\n",
    )
    .unwrap_err()
    .to_string();
    assert!(
        e.contains("resources.dst.view: the shader declares u0 as texture2d, not texture2darray"),
        "{e}"
    );
    let e =
        load("shader = \"store_uint.dxbc\"\n[resources.dst]\nformat = \"R32_FLOAT\"\nwidth = 4\n")
            .unwrap_err()
            .to_string();
    assert!(
        e.contains(
            "resources.dst.format: R32_FLOAT does not fit u0, which the shader declares as uint"
        ),
        "{e}"
    );
}

/// A legal PNG larger than the image crate's default decode limit (64 MiB),
/// which refused such textures when sm5sim decoded through it: 4096 x 4097
/// RGBA8 is 67,125,248 bytes of pixels. The decoder's limit now comes from
/// the texture the job declares, so it loads, pixel for pixel.
#[test]
fn a_png_past_the_decoders_default_limit_loads() {
    let (w, h) = (4096u32, 4097u32);
    let d = scratch_job("big_png", "");
    let path = d.join("big.png");
    let pixel = |x: u32, y: u32| {
        [
            (x % 251) as u8,
            (y % 241) as u8,
            ((x ^ y) & 0xff) as u8,
            255,
        ]
    };
    {
        let mut encoder = png::Encoder::new(
            std::io::BufWriter::new(std::fs::File::create(&path).unwrap()),
            w,
            h,
        );
        encoder.set_color(png::ColorType::Rgba);
        encoder.set_depth(png::BitDepth::Eight);
        encoder.set_compression(png::Compression::Fast);
        let data: Vec<u8> = (0..h)
            .flat_map(|y| (0..w).flat_map(move |x| pixel(x, y)))
            .collect();
        assert!(data.len() > 64 << 20);
        let mut writer = encoder.write_header().unwrap();
        writer.write_image_data(&data).unwrap();
        writer.finish().unwrap();
    }
    let job = Job::from_toml(
        &format!(
            "{EMPTY}[resources.tex]\nslot = \"t0\"\nview = \"texture2d\"\nformat = \"R8G8B8A8_UNORM\"\nwidth = {w}\nheight = {h}\ninit = {{ png = \"{}\" }}\n",
            path.display().to_string().replace('\\', "/")
        ),
        &dir().join("job.toml"),
        &dir(),
        &LoadOptions::default(),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let data = job.resource("tex").unwrap().data();
    for (x, y) in [(0, 0), (4095, 0), (17, 2049), (4095, 4096)] {
        let word = data.load((y * w + x) as usize).unwrap();
        assert_eq!(word.to_le_bytes(), pixel(x, y), "texel ({x}, {y})");
    }
}
