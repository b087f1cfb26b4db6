//! Content generators (`random_u32`, `random_f32`, `iota_*`) and the
//! seeded generator behind them.

use crate::job::resources::cbuffer_fields;
use crate::job::schema::Content;
use crate::job::JobResource;
use sim_core::program::Program;
use std::path::Path;
/// The SplitMix64 generator of job files: `state += 0x9E3779B97F4A7C15;
/// z = state; z = (z ^ z>>30) * 0xBF58476D1CE4E5B9; z = (z ^ z>>27) *
/// 0x94D049BB133111EB; z ^= z>>31` (all wrapping), one step per 32-bit word,
/// whose value is the high 32 bits of z.
#[derive(Debug, Clone)]
pub struct SplitMix64 {
    pub(super) state: u64,
}

impl SplitMix64 {
    /// A generator seeded with `seed`.
    pub fn new(seed: u64) -> Self {
        Self { state: seed }
    }

    /// The next 32-bit value.
    pub fn next_u32(&mut self) -> u32 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^= z >> 31;
        (z >> 32) as u32
    }
}

/// `random_u32`: `min + ((u as u64 * (max - min + 1)) >> 32)` for each generated `u`.
pub fn random_u32_words(seed: u64, min: u32, max: u32, n: usize) -> Vec<u32> {
    let mut g = SplitMix64::new(seed);
    let range = max as u64 - min as u64 + 1;
    (0..n)
        .map(|_| min + ((g.next_u32() as u64 * range) >> 32) as u32)
        .collect()
}

/// `random_f32`: `min + (u >> 8) · 2⁻²⁴ · (max − min)`, computed in double
/// precision and rounded to the nearest f32, for each generated `u`.
pub fn random_f32_words(seed: u64, min: f64, max: f64, n: usize) -> Vec<u32> {
    let mut g = SplitMix64::new(seed);
    (0..n)
        .map(|_| {
            let u = (g.next_u32() >> 8) as f64 * (1.0 / 16_777_216.0);
            ((min + u * (max - min)) as f32).to_bits()
        })
        .collect()
}

/// The first resource of `a` whose words differ in `b`: (name, first
/// differing word, its values, how many words differ).
pub(super) fn first_difference(
    a: &[(String, Vec<u32>)],
    b: &[(String, Vec<u32>)],
) -> Option<(String, usize, u32, u32, usize)> {
    a.iter().zip(b).find_map(|((name, x), (_, y))| {
        let k = x.iter().zip(y).position(|(p, q)| p != q)?;
        let n = x.iter().zip(y).filter(|(p, q)| p != q).count();
        Some((name.clone(), k, x[k], y[k], n))
    })
}

/// Check the ranges of random generators.
pub(super) fn check_generators(c: &Content) -> Result<(), String> {
    if let Some(rnd) = &c.random_u32 {
        if rnd.min > rnd.max {
            return Err(format!("random_u32: min {} > max {}", rnd.min, rnd.max));
        }
    }
    if let Some(rnd) = &c.random_f32 {
        if rnd.min.is_nan() || rnd.max.is_nan() || rnd.min > rnd.max {
            return Err("random_f32: needs min ≤ max".into());
        }
    }
    Ok(())
}

/// The words of content `c` for a resource of `n` words.
pub(super) fn generate(
    c: &Content,
    n: usize,
    program: &Program,
    r: &JobResource,
    base: &Path,
) -> Result<Vec<u32>, String> {
    if let Some(v) = &c.u32 {
        return Ok(v.clone());
    }
    if let Some(v) = &c.i32 {
        return Ok(v.iter().map(|&x| x as u32).collect());
    }
    if let Some(v) = &c.f32 {
        return Ok(v.iter().map(|x| x.to_bits()).collect());
    }
    if let Some(v) = c.fill_u32 {
        return Ok(vec![v; n]);
    }
    if let Some(v) = c.fill_f32 {
        return Ok(vec![v.to_bits(); n]);
    }
    if let Some(i) = c.iota_u32 {
        return Ok((0..n as u32)
            .map(|k| i.start.wrapping_add(k.wrapping_mul(i.step)))
            .collect());
    }
    if let Some(i) = c.iota_f32 {
        return Ok((0..n)
            .map(|k| (i.start + k as f32 * i.step).to_bits())
            .collect());
    }
    if let Some(g) = c.random_u32 {
        return Ok(random_u32_words(g.seed, g.min, g.max, n));
    }
    if let Some(g) = c.random_f32 {
        return Ok(random_f32_words(g.seed, g.min, g.max, n));
    }
    if let Some(f) = c.file.as_ref().filter(|f| crate::npy::is_npy(f)) {
        let p = base.join(f);
        let arr = crate::npy::read(&p)?;
        let words = if let Some(tex) = r.texture() {
            // the storage as it is, with mip 0 slice 0 from the file: an
            // expectation then compares that subresource only
            let sub = crate::npy::texture_bytes(&arr, &p, &r.npy(), 0)?;
            let mut bytes = r.data().to_bytes();
            let range = tex
                .subresource_range(0, 0)
                .ok_or_else(|| format!("'{}' has no mip 0, slice 0", r.name))?;
            bytes[range].copy_from_slice(&sub);
            crate::npy::le_words(&bytes)
        } else {
            crate::npy::buffer_words(&arr, &p, &r.npy(), program)?
        };
        if words.len() != n {
            return Err(format!(
                "{}: {} values for the {n} 32-bit words selected",
                p.display(),
                words.len()
            ));
        }
        return Ok(words);
    }
    if let Some(f) = &c.file {
        let p = base.join(f);
        let bytes = crate::files::read_input(&p).map_err(|e| format!("{}: {e}", p.display()))?;
        if bytes.len() != n * 4 {
            return Err(format!(
                "{}: {} bytes, but the resource holds {} bytes",
                p.display(),
                bytes.len(),
                n * 4
            ));
        }
        return Ok(crate::npy::le_words(&bytes));
    }
    if let Some(fields) = &c.fields {
        return cbuffer_fields(fields, n, program, r);
    }
    Err("no contents given".into())
}
