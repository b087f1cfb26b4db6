//! The Rust API by name (`sm5sim::api`, issue #33): the eight workloads
//! run through `Shader::load` / `Kernel::bind` / `set_constants` /
//! `dispatch` / `Resource::read`, no job file, against native Rust
//! references of the same algorithms (as `workloads.rs` computes them);
//! and the API's refusals of bad input, each an `ApiError` naming where.
//!
//! Integer results are bit-exact; float results are bit-exact where the
//! operation order is fixed (matmul, saxpy, mandelbrot: sm5sim evaluates
//! `mad` unfused, as the references write `a * b + c`); cas_float_add adds
//! in a schedule-dependent order, so its values are multiples of 1/4 whose
//! every partial sum is exact.

use sm5sim::api::{ApiError, Kernel, Options, Resource, Shader, Value, View};
use sm5sim::job::{random_f32_words, random_u32_words};
use sm5sim::sim_core::check::{CheckOptions, FindingKind};
use sm5sim::sim_mem::{Format, TextureDesc};
use std::path::PathBuf;

fn example(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("examples")
        .join(name)
        .join(format!("{name}.dxbc"))
}

fn kernel(name: &str) -> Kernel {
    Kernel::new(Shader::load(example(name)).unwrap())
}

fn floats(words: &[u32]) -> Vec<f32> {
    words.iter().map(|&w| f32::from_bits(w)).collect()
}

/// The configurations each workload runs under: parallel at 2 threads
/// (warp width 32), and one seeded schedule at warp width 1.
fn configs() -> Vec<Options> {
    vec![
        Options::default().threads(2).warp_width(32),
        Options::default().schedule(7).warp_width(1),
    ]
}

fn histogram(name: &str, n: u32, seed: u64) {
    let keys = random_u32_words(seed, 0, u32::MAX, n as usize);
    let mut native = vec![0u32; 256];
    for k in &keys {
        native[(k & 255) as usize] += 1;
    }
    for o in configs() {
        let mut k = kernel(name);
        let bins = Resource::zeroed_elements::<u32>(256).unwrap();
        k.bind("keys", &Resource::from_slice(&keys).unwrap())
            .unwrap()
            .bind("bins", &bins)
            .unwrap()
            .set_constants("Params", &[("key_count", n.into())])
            .unwrap();
        let groups = n.div_ceil(k.shader().thread_group()[0]);
        let d = k.dispatch([groups, 1, 1], &o).unwrap();
        assert_eq!(d.stats.groups, u64::from(groups));
        assert_eq!(bins.read::<u32>().unwrap(), native, "{name} {o:?}");
    }
}

#[test]
fn histogram_by_name() {
    histogram("histogram", 20_003, 1);
}

#[test]
fn global_histogram_by_name() {
    histogram("global_histogram", 10_001, 2);
}

#[test]
fn reduce_by_name() {
    let n = 30_000u32;
    let values = random_u32_words(3, 0, u32::MAX, n as usize);
    let native = values.iter().fold(0u32, |a, &b| a.wrapping_add(b));
    for o in configs() {
        let mut k = kernel("reduce");
        let total = Resource::zeroed(4).unwrap();
        k.bind("values", &Resource::from_slice(&values).unwrap())
            .unwrap()
            .bind("total", &total)
            .unwrap()
            .set_constants("Params", &[("value_count", n.into())])
            .unwrap();
        k.dispatch([n.div_ceil(256), 1, 1], &o).unwrap();
        assert_eq!(total.read::<u32>().unwrap(), vec![native], "{o:?}");
        // run again from zero through the kernel's own read-back
        total.fill(0u32).unwrap();
        k.dispatch([n.div_ceil(256), 1, 1], &o).unwrap();
        assert_eq!(k.read::<u32>("total").unwrap(), vec![native]);
    }
}

#[test]
fn scan_by_name() {
    let groups = 6u32;
    let n = groups * 512;
    let input = random_u32_words(4, 0, 1 << 20, n as usize);
    let native = crate::native::scan_512(&input);
    for o in configs() {
        let mut k = kernel("scan");
        let output = Resource::zeroed_elements::<u32>(n as usize).unwrap();
        // by slot name as well as by HLSL name
        k.bind("t0", &Resource::from_slice(&input).unwrap())
            .unwrap()
            .bind("output", &output)
            .unwrap();
        k.dispatch([groups, 1, 1], &o).unwrap();
        assert_eq!(output.read::<u32>().unwrap(), native, "{o:?}");
    }
}

#[test]
fn matmul_by_name() {
    let n = 32usize;
    let a = floats(&random_f32_words(5, -1.0, 1.0, n * n));
    let b = floats(&random_f32_words(6, -1.0, 1.0, n * n));
    let native = crate::native::matmul(&a, &b, n);
    for o in configs() {
        let mut k = kernel("matmul");
        let c = Resource::zeroed_elements::<f32>(n * n).unwrap();
        k.bind("A", &Resource::from_slice(&a).unwrap())
            .unwrap()
            .bind("B", &Resource::from_slice(&b).unwrap())
            .unwrap()
            .bind("C", &c)
            .unwrap()
            .set_constants("Params", &[("n", (n as u32).into())])
            .unwrap();
        k.dispatch([n as u32 / 16, n as u32 / 16, 1], &o).unwrap();
        assert_eq!(c.read::<f32>().unwrap(), native, "{o:?}");
    }
}

#[test]
fn saxpy_by_name() {
    let n = 1_001usize; // float4 elements, not a multiple of the group
    let x: Vec<[f32; 4]> = floats(&random_f32_words(7, -10.0, 10.0, 4 * n))
        .chunks(4)
        .map(|c| [c[0], c[1], c[2], c[3]])
        .collect();
    let y0: Vec<[f32; 4]> = floats(&random_f32_words(8, -10.0, 10.0, 4 * n))
        .chunks(4)
        .map(|c| [c[0], c[1], c[2], c[3]])
        .collect();
    let a = 1.7f32;
    let native: Vec<[f32; 4]> = x
        .iter()
        .zip(&y0)
        .map(|(x, y)| std::array::from_fn(|i| a * x[i] + y[i]))
        .collect();
    for o in configs() {
        let mut k = kernel("saxpy_structured");
        let y = Resource::from_slice(&y0).unwrap();
        k.bind("x", &Resource::from_slice(&x).unwrap())
            .unwrap()
            .bind("y", &y)
            .unwrap()
            .set_constants(
                "Params",
                &[("a", a.into()), ("element_count", (n as u32).into())],
            )
            .unwrap();
        k.dispatch([(n as u32).div_ceil(128), 1, 1], &o).unwrap();
        assert_eq!(y.read::<[f32; 4]>().unwrap(), native, "{o:?}");
    }
}

#[test]
fn cas_float_add_by_name() {
    let (n, slots) = (5_000u32, 7u32);
    // quarters from 0 to 2: every partial sum is exact in f32
    let values: Vec<f32> = random_u32_words(9, 0, 8, n as usize)
        .iter()
        .map(|&q| q as f32 * 0.25)
        .collect();
    let mut native = vec![0f32; slots as usize];
    for (i, v) in values.iter().enumerate() {
        native[i % slots as usize] += v;
    }
    for o in configs() {
        let mut k = kernel("cas_float_add");
        let sums = Resource::zeroed_elements::<f32>(slots as usize).unwrap();
        k.bind("values", &Resource::from_slice(&values).unwrap())
            .unwrap()
            .bind("sums", &sums)
            .unwrap()
            .set_constants(
                "Params",
                &[("value_count", n.into()), ("slot_count", slots.into())],
            )
            .unwrap();
        k.dispatch([n.div_ceil(64), 1, 1], &o).unwrap();
        assert_eq!(sums.read::<f32>().unwrap(), native, "{o:?}");
    }
}

#[test]
fn mandelbrot_by_name() {
    let (w, h, max_iter) = (50u32, 37u32, 100u32); // not multiples of 8
    let native = crate::native::mandelbrot(w, h, max_iter);
    for o in configs() {
        let mut k = kernel("mandelbrot");
        let it = Resource::zeroed_elements::<u32>((w * h) as usize).unwrap();
        k.bind("iterations", &it)
            .unwrap()
            .set_constants(
                "Params",
                &[
                    ("width", w.into()),
                    ("height", h.into()),
                    ("max_iter", max_iter.into()),
                ],
            )
            .unwrap();
        k.dispatch([w.div_ceil(8), h.div_ceil(8), 1], &o.profile(true))
            .map(|d| assert!(d.profile.is_some()))
            .unwrap();
        assert_eq!(it.read::<u32>().unwrap(), native);
    }
}

#[test]
fn textures_by_name() {
    // gaussian_blur: a 9-tap binomial blur (weights sum to 1) of a constant
    // image leaves it as it was; every texel of dst is written
    let path =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("examples/gaussian_blur/gaussian_blur.dxbc");
    let (w, h) = (40u32, 24u32); // not multiples of the 16x16 tile
    let texel = [200u8, 100, 50, 255];
    let src = Resource::texture(TextureDesc::texture2d(Format::R8G8B8A8_UNORM, w, h)).unwrap();
    src.write_subresource(0, 0, &vec![texel; (w * h) as usize])
        .unwrap();
    let dst = Resource::texture(TextureDesc::texture2d(Format::R8G8B8A8_UNORM, w, h)).unwrap();
    let mut k = Kernel::new(Shader::load(path).unwrap());
    k.bind("src", &src)
        .unwrap()
        .bind("dst", &dst)
        .unwrap()
        .set_constants("Params", &[("image_size", [w, h].into())])
        .unwrap();
    k.dispatch([w.div_ceil(16), h.div_ceil(16), 1], &Options::default())
        .unwrap();
    let out = dst.read_subresource::<[u8; 4]>(0, 0).unwrap();
    assert_eq!(out.len(), (w * h) as usize);
    assert!(out.iter().all(|&t| t == texel), "{:?}", &out[..4]);
    // a buffer where the shader declares a texture, and a view of the
    // wrong dimension, are refused
    let m = message(k.bind("src", &Resource::zeroed(16).unwrap()).map(drop));
    assert!(m.contains("declares t0 as a texture2d"), "{m}");
    let m = message(
        k.bind_view(
            "src",
            &src,
            View::texture(
                sm5sim::sim_mem::ViewDimension::Texture2DArray,
                Format::R8G8B8A8_UNORM,
            ),
        )
        .map(drop),
    );
    assert!(
        m.contains("the shader declares t0 as texture2d, not texture2darray"),
        "{m}"
    );
}

#[test]
fn samplers_bind_by_name_or_slot() {
    // a sampler name is not a resource name
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("examples/downsample_tonemap/downsample_tonemap.dxbc");
    let mut k = Kernel::new(Shader::load(path).unwrap());
    let m = message(
        k.bind("linear_clamp", &Resource::zeroed(4).unwrap())
            .map(drop),
    );
    assert!(
        m.contains("'linear_clamp' is sampler s0 in the shader; bind it with Kernel::bind_sampler"),
        "{m}"
    );
    k.bind_sampler("linear_clamp", Default::default()).unwrap();
    k.bind_sampler("s0", Default::default()).unwrap();
    let m = message(k.bind_sampler("s16", Default::default()).map(drop));
    assert!(m.contains("'s16'"), "{m}");
}

#[test]
fn reflection_names_slots_and_fields() {
    let s = Shader::load(example("histogram")).unwrap();
    let names: Vec<(Option<String>, String)> = s
        .resources()
        .into_iter()
        .map(|r| (r.name, r.slot.to_string()))
        .collect();
    assert_eq!(
        names,
        vec![
            (Some("keys".into()), "t0".into()),
            (Some("bins".into()), "u0".into()),
            (Some("Params".into()), "cb0".into()),
        ]
    );
    let (slot, cb) = s.cbuffer("Params").unwrap();
    assert_eq!((slot, cb.variables[0].name.as_str()), (0, "key_count"));
    assert_eq!(s.thread_group(), [256, 1, 1]);
}

#[test]
fn listings_load_and_run_like_containers() {
    let path = example("reduce").with_extension("asm");
    let mut k = Kernel::new(Shader::load(path).unwrap());
    let total = Resource::zeroed(4).unwrap();
    k.bind("t0", &Resource::from_slice(&[1u32, 2, 3]).unwrap())
        .unwrap()
        .bind("u0", &total)
        .unwrap()
        .set_constant_words("cb0", &[3, 0, 0, 0])
        .unwrap();
    k.dispatch([1, 1, 1], &Options::default()).unwrap();
    assert_eq!(total.read::<u32>().unwrap(), vec![6]);
}

#[test]
fn check_reports_findings_by_bound_name() {
    let path =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/races/histogram_plain_rmw_bug.dxbc");
    let mut k = Kernel::new(Shader::load(path).unwrap());
    k.bind("hist", &Resource::zeroed(32).unwrap()).unwrap();
    let d = k
        .dispatch(
            [4, 1, 1],
            &Options::default().check(CheckOptions::default()),
        )
        .unwrap();
    let f = d
        .findings
        .iter()
        .find(|f| f.kind == FindingKind::CrossGroupRmw)
        .expect("a cross-group read-modify-write");
    assert_eq!(f.resource_name.as_deref(), Some("hist"));
    // the race-free reduction has no error
    let mut k = kernel("reduce");
    k.bind("values", &Resource::from_slice(&[1u32; 300]).unwrap())
        .unwrap()
        .bind("total", &Resource::zeroed(4).unwrap())
        .unwrap()
        .set_constants("Params", &[("value_count", 300u32.into())])
        .unwrap();
    let d = k
        .dispatch(
            [2, 1, 1],
            &Options::default().check(CheckOptions::default()),
        )
        .unwrap();
    assert!(
        d.findings
            .iter()
            .all(|f| f.severity() != sm5sim::sim_core::check::Severity::Error),
        "{:?}",
        d.findings
    );
}

// ---------------------------------------------------------------------------
// Bad input: an error naming where and what, never a panic

fn message<T: std::fmt::Debug>(r: Result<T, ApiError>) -> String {
    r.expect_err("an error").to_string()
}

#[test]
fn unknown_names_list_what_the_shader_declares() {
    let mut k = kernel("histogram");
    let m = message(k.bind("kyes", &Resource::zeroed(4).unwrap()).map(drop));
    assert!(m.contains("'kyes'"), "{m}");
    assert!(
        m.contains("t0 ('keys')") && m.contains("u0 ('bins')"),
        "{m}"
    );
    let m = message(k.bind("u5", &Resource::zeroed(4).unwrap()).map(drop));
    assert!(m.contains("declares nothing at u5"), "{m}");
    let m = message(Shader::load("no/such/shader.dxbc"));
    assert!(m.contains("no/such/shader.dxbc"), "{m}");
}

#[test]
fn views_that_do_not_fit_the_declaration_are_refused() {
    let mut k = kernel("saxpy_structured");
    let x = Resource::from_slice(&[1.0f32; 5]).unwrap(); // 20 bytes
    let m = message(k.bind("x", &x).map(drop));
    assert!(
        m.starts_with("'x' (t0): 20 bytes is not a whole number of 16-byte structures"),
        "{m}"
    );
    let x = Resource::from_slice(&[1.0f32; 8]).unwrap();
    let m = message(k.bind_view("x", &x, View::Raw).map(drop));
    assert!(m.contains("structured with stride 16, not raw"), "{m}");
    let m = message(k.bind_view("x", &x, View::Structured(8)).map(drop));
    assert!(
        m.contains("stride 8 differs from the shader's declared stride 16"),
        "{m}"
    );
    let m = message(
        k.bind_view("x", &x, View::typed("R32_FLOAT").unwrap())
            .map(drop),
    );
    assert!(m.contains("the shader declares t0 structured"), "{m}");
    let m = message(View::typed("R33_FLOAT"));
    assert!(
        m.contains("'R33_FLOAT' is not a typed-buffer format"),
        "{m}"
    );
    let tex = Resource::texture(TextureDesc::texture2d(Format::R32_FLOAT, 4, 4)).unwrap();
    let m = message(k.bind("y", &tex).map(drop));
    assert!(m.contains("'y' (u0)") && m.contains("texture"), "{m}");
    let m = message(k.bind("Params", &tex).map(drop));
    assert!(m.contains("cb0"), "{m}");
}

#[test]
fn constants_are_checked_field_by_field() {
    let mut k = kernel("saxpy_structured");
    let m = message(k.set_constants("Params", &[("b", 1.into())]).map(drop));
    assert!(
        m.contains(
            "cbuffer Params: b: cbuffer Params has no variable 'b' (it has: a, element_count)"
        ),
        "{m}"
    );
    let m = message(
        k.set_constants("Params", &[("a", Value::from([1.0f32, 2.0]))])
            .map(drop),
    );
    assert!(m.starts_with("cbuffer Params: a:"), "{m}");
    let m = message(
        k.set_constants("Params", &[("element_count", (-1).into())])
            .map(drop),
    );
    assert!(m.contains("element_count"), "{m}");
    let m = message(k.set_constants("x", &[]).map(drop));
    assert!(m.contains("not a constant buffer"), "{m}");
    let m = message(k.set_constants("Parms", &[]).map(drop));
    assert!(m.contains("'Parms'"), "{m}");
    let m = message(
        k.set_constants("Params", &[("a", 1.into()), ("a", 2.into())])
            .map(drop),
    );
    assert!(m.contains("a: given twice"), "{m}");
}

#[test]
fn unbound_slots_and_bad_dispatches_are_refused() {
    let mut k = kernel("histogram");
    k.bind("keys", &Resource::from_slice(&[1u32]).unwrap())
        .unwrap();
    let m = message(k.dispatch([1, 1, 1], &Options::default()));
    assert_eq!(
        m,
        "u0 ('bins'): the shader declares it but nothing is bound there"
    );
    k.bind("bins", &Resource::zeroed(1024).unwrap()).unwrap();
    k.set_constants("Params", &[("key_count", 1.into())])
        .unwrap();
    let m = message(k.dispatch([70_000, 1, 1], &Options::default()));
    assert_eq!(
        m,
        "Dispatch(70000, 1, 1): each dimension must be at most 65535 thread groups"
    );
    // the watchdog stops a dispatch past its budget
    let e = k
        .dispatch([4, 1, 1], &Options::default().watchdog(10))
        .unwrap_err();
    assert!(
        matches!(
            e,
            ApiError::Dispatch {
                groups: [4, 1, 1],
                ..
            }
        ),
        "{e}"
    );
    assert!(
        e.to_string().contains("more than 10 warp-instructions"),
        "{e}"
    );
    // unbinding leaves the slot empty again
    assert!(k.unbind("bins"));
    assert!(!k.unbind("bins"));
    assert!(message(k.dispatch([1, 1, 1], &Options::default())).contains("u0 ('bins')"));
}

#[test]
fn reads_writes_and_sizes_are_checked() {
    let m = message(Resource::from_slice::<u8>(&[1, 2, 3]));
    assert!(m.contains("3 u8 elements"), "{m}");
    let m = message(Resource::from_slice::<u32>(&[]));
    assert!(m.contains("ByteWidth of 0"), "{m}");
    let r = Resource::from_slice(&[1u32, 2, 3]).unwrap();
    let m = message(r.read::<[f32; 4]>());
    assert!(
        m.contains("12 bytes is not a whole number of 16-byte"),
        "{m}"
    );
    assert_eq!(r.read::<u8>().unwrap()[4], 2);
    assert_eq!(r.read::<u16>().unwrap().len(), 6);
    let m = message(r.write(2, &[7u32, 8]));
    assert!(m.contains("a buffer of 12 bytes"), "{m}");
    r.write(1, &[9u32]).unwrap();
    assert_eq!(r.read::<u32>().unwrap(), vec![1, 9, 3]);
    let m = message(r.read_subresource::<u8>(0, 0));
    assert!(m.contains("no subresources"), "{m}");
    let m = message(Resource::texture(TextureDesc::texture2d(
        Format::R8G8B8A8_UNORM,
        0,
        4,
    )));
    assert!(m.contains("texture"), "{m}");
    let t = Resource::texture(TextureDesc::texture2d(Format::R8G8B8A8_UNORM, 2, 2)).unwrap();
    t.write_subresource(0, 0, &[[1u8, 2, 3, 4]; 4]).unwrap();
    assert_eq!(
        t.read_subresource::<[u8; 4]>(0, 0).unwrap()[3],
        [1, 2, 3, 4]
    );
    let m = message(t.write_subresource(0, 0, &[[1u8, 2, 3, 4]; 3]));
    assert!(m.contains("a 2x2x1 R8G8B8A8_UNORM texture"), "{m}");
    let mut k = kernel("histogram");
    k.bind("keys", &Resource::from_slice(&[1u32]).unwrap())
        .unwrap();
    let m = message(k.read::<u32>("bins"));
    assert_eq!(m, "nothing is bound as 'bins' (bound: t0 ('keys'))");
}

/// The handles the Python and C bindings will hold cross threads.
#[test]
fn handles_are_send_and_sync() {
    fn send_sync<T: Send + Sync + 'static>() {}
    send_sync::<Shader>();
    send_sync::<Resource>();
    send_sync::<Kernel>();
    send_sync::<ApiError>();
    send_sync::<Options>();
}

/// A name given to the API is echoed in its error clipped (issue #44): a
/// 16 MiB resource name, cbuffer field, format, shader name or slot name
/// with spaces shows its first 120 characters and how many bytes it left
/// out, never the whole input.
#[test]
fn huge_names_are_clipped_in_messages() {
    let huge = "n".repeat(16 << 20);
    let clipped = format!("{}…({} more bytes)", "n".repeat(120), (16 << 20) - 120);
    let short = |m: String| {
        assert!(m.len() < 20_000, "{} bytes: {}…", m.len(), &m[..200]);
        assert!(m.contains(&clipped), "{}…", &m[..m.len().min(400)]);
    };
    let mut k = kernel("histogram");
    short(message(
        k.bind(&huge, &Resource::zeroed(4).unwrap()).map(drop),
    ));
    short(message(k.read::<u32>(&huge)));
    short(message(
        k.set_constants("Params", &[(huge.as_str(), 1u32.into())]),
    ));
    short(message(
        k.set_constants(&huge, &[("key_count", 1u32.into())]),
    ));
    short(message(View::typed(&huge)));
    let listing =
        std::fs::read(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("examples/reduce/reduce.asm"))
            .unwrap();
    short(message(Shader::from_bytes(
        b"DXBC".to_vec(),
        &huge,
        &Default::default(),
    )));
    // a slot name with spaces around it binds; what is bound is listed
    // clipped
    let padded = format!("t0{}", " ".repeat(1 << 20));
    let mut k =
        Kernel::new(Shader::from_bytes(listing, "reduce.asm", &Default::default()).unwrap());
    k.bind(&padded, &Resource::zeroed(64).unwrap()).unwrap();
    let m = message(k.read::<u32>("u0"));
    assert!(m.len() < 1000, "{} bytes", m.len());
    assert!(m.contains("more bytes)"), "{m}");
    assert_eq!(sm5sim::api::clip("keys"), "keys");
    assert_eq!(
        sm5sim::api::clip(&"é".repeat(121)),
        format!("{}…(2 more bytes)", "é".repeat(120))
    );
}

/// Under the checker a watchdog stop is the result's `stopped`, but a
/// cancellation is an error, as without it.
#[test]
fn a_cancelled_checked_dispatch_is_an_error() {
    let mut k = kernel("mandelbrot");
    let it = Resource::zeroed_elements::<u32>(64 * 64).unwrap();
    k.bind("iterations", &it)
        .unwrap()
        .set_constants(
            "Params",
            &[
                ("width", 64u32.into()),
                ("height", 64u32.into()),
                ("max_iter", u32::MAX.into()),
            ],
        )
        .unwrap();
    let token = sm5sim::api::CancelToken::new();
    let o = Options::default()
        .check(CheckOptions::default())
        .timeout(Some(std::time::Duration::from_secs(60)))
        .cancel(&token);
    let canceller = {
        let token = token.clone();
        std::thread::spawn(move || {
            std::thread::sleep(std::time::Duration::from_millis(100));
            token.cancel();
        })
    };
    let start = std::time::Instant::now();
    let e = k.dispatch([8, 8, 1], &o).unwrap_err();
    canceller.join().unwrap();
    assert!(e.is_cancelled(), "{e}");
    assert!(start.elapsed().as_secs() < 30, "{:?}", start.elapsed());
    // a watchdog stop is still the checker's result
    token.reset();
    let d = k.dispatch([8, 8, 1], &o.clone().watchdog(10_000)).unwrap();
    assert!(d.stopped.is_some_and(|s| !s.contains("cancelled")));
}

/// A token set before the dispatch stops it before any group runs, in
/// every mode, even a dispatch of one group that would end before the
/// watchdog's first look (4,096 warp-instructions): nothing is written,
/// and the error names where nothing started. Reset, the same dispatch runs.
#[test]
fn a_token_set_before_the_dispatch_stops_it_before_any_group_runs() {
    let mut k = kernel("mandelbrot");
    let it = Resource::zeroed_elements::<u32>(8 * 8).unwrap();
    k.bind("iterations", &it)
        .unwrap()
        .set_constants(
            "Params",
            &[
                ("width", 8u32.into()),
                ("height", 8u32.into()),
                ("max_iter", 4u32.into()),
            ],
        )
        .unwrap();
    let token = sm5sim::api::CancelToken::new();
    token.cancel();
    let modes = [
        Options::default().threads(1),
        Options::default().schedule(3),
        Options::default().check(CheckOptions::default()),
    ];
    for o in &modes {
        let e = k
            .dispatch([1, 1, 1], &o.clone().cancel(&token))
            .unwrap_err();
        assert!(e.is_cancelled(), "{e}");
        assert!(e.to_string().contains("group (0, 0, 0), lane 0"), "{e}");
        assert!(k.read::<u32>("iterations").unwrap().iter().all(|&w| w == 0));
    }
    token.reset();
    for o in &modes {
        k.dispatch([1, 1, 1], &o.clone().cancel(&token)).unwrap();
        assert!(k.read::<u32>("iterations").unwrap().iter().any(|&w| w != 0));
    }
}
