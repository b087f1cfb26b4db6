//! Native Rust references of the example workloads' algorithms, shared by
//! the tests that run them through the low-level API (`workloads.rs`) and
//! by name (`api.rs`).

/// Inclusive prefix sums within each run of 512 words (scan's groups),
/// wrapping like `iadd`.
pub fn scan_512(input: &[u32]) -> Vec<u32> {
    input
        .chunks(512)
        .flat_map(|c| {
            c.iter()
                .scan(0u32, |s, &x| {
                    *s = s.wrapping_add(x);
                    Some(*s)
                })
                .collect::<Vec<_>>()
        })
        .collect()
}

/// `a · b` for row-major `n × n` matrices, each element summed in the
/// shader's order (k from 0), in f32.
pub fn matmul(a: &[f32], b: &[f32], n: usize) -> Vec<f32> {
    let mut c = vec![0f32; n * n];
    for r in 0..n {
        for col in 0..n {
            let mut acc = 0f32;
            for k in 0..n {
                acc += a[r * n + k] * b[k * n + col];
            }
            c[r * n + col] = acc;
        }
    }
    c
}

/// The iteration counts of mandelbrot.hlsl over a `w × h` image of the
/// plane's [-2, 1] × [-1.5, 1.5], at most `max_iter`, in the shader's f32
/// operations (`mad` unfused).
pub fn mandelbrot(w: u32, h: u32, max_iter: u32) -> Vec<u32> {
    let mut out = vec![0u32; (w * h) as usize];
    for y in 0..h {
        for x in 0..w {
            let cx = (x as f32 * 3.0) / w as f32 + -2.0;
            let cy = (y as f32 * 3.0) / h as f32 + -1.5;
            let (mut zx, mut zy, mut i) = (0f32, 0f32, 0u32);
            while i < max_iter && zx * zx + zy * zy < 4.0 {
                let t = zx * zx - zy * zy + cx;
                zy = 2.0 * zx * zy + cy;
                zx = t;
                i += 1;
            }
            out[(y * w + x) as usize] = i;
        }
    }
    out
}
