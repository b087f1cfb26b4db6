//! Texture instructions: loads, samples, gathers, stores and queries on
//! texture views (FS §7.14; `sim_mem::sampling`).

use crate::check::MemOp;
use crate::exec::context::Cx;
use crate::exec::observe::{Mem, MemKind, Observer};
use crate::exec::warp::{Scratch, Warp};
use crate::ir::lowered::{Res, TexKind, TexOp};
use sim_mem::{sampling, TextureView, Tgsm, ViewDimension};
/// Texel axes of a mip of `dim` (1, 2 or 3; a cube face has 2): the
/// coordinates `_aoffimmi` offsets and the sizes `resinfo_rcpFloat` inverts.
pub(in crate::exec) fn texel_axes(dim: ViewDimension) -> usize {
    match dim {
        ViewDimension::Texture1D | ViewDimension::Texture1DArray => 1,
        ViewDimension::Texture3D => 3,
        _ => 2,
    }
}

/// Add `_aoffimmi` offsets to the texel coordinates of an `ld`/`ldms`
/// address (not to the slice or mip), wrapping: a negative result becomes a
/// huge unsigned coordinate, out of range (`sm5-compute-isa.md` §10).
pub(in crate::exec) fn offset_address(dim: ViewDimension, a: [u32; 4], off: [i32; 3]) -> [u32; 3] {
    let n = texel_axes(dim);
    let mut out = [a[0], a[1], a[2]];
    for (k, o) in out.iter_mut().enumerate().take(n) {
        *o = o.wrapping_add(off[k] as u32);
    }
    out
}

/// `resinfo`'s result from the view's integer sizes (FS §22.4.14): `_uint`
/// integers; the default, floats; `_rcpFloat`, reciprocals of the sizes
/// (width, height, depth, not array sizes) and the rest as floats.
pub(in crate::exec) fn resinfo_result(dim: ViewDimension, info: [u32; 4], mode: u8) -> [u32; 4] {
    match mode {
        2 => info,
        1 => {
            let sizes = texel_axes(dim);
            let mut out = info.map(|v| (v as f32).to_bits());
            for v in out.iter_mut().take(sizes) {
                *v = (1.0 / f32::from_bits(*v)).to_bits();
            }
            out
        }
        _ => info.map(|v| (v as f32).to_bits()),
    }
}

impl<'b> Cx<'_, 'b> {
    /// The texture view bound at `res` (None: a buffer, TGSM or unbound).
    pub(in crate::exec) fn texture_view(&self, res: Res) -> Option<TextureView<'b>> {
        match res {
            Res::SrvTexture(s) => self.b.srv_texture(s),
            Res::UavTexture(s) => self.b.uav_texture(s),
            _ => None,
        }
    }

    /// A texture instruction (`reference/sm5-compute-isa.md` §10–11; FS
    /// §22.4): per active lane, the address or coordinate and the extras are
    /// read, the texture is loaded, sampled or queried through
    /// [`sim_mem::TextureView`] and [`sim_mem::sampling`], and the result is
    /// swizzled by the resource operand. An unbound texture or sampler reads 0.
    pub(in crate::exec) fn texture<O: Observer>(
        &self,
        sc: &mut Scratch,
        tgsm: &Tgsm,
        obs: &mut O,
        warp: &mut Warp,
        op: &TexOp,
    ) {
        let w = self.w;
        let mut sa = std::mem::take(&mut sc.s[0]);
        let mut s1 = std::mem::take(&mut sc.s[1]);
        let mut s2 = std::mem::take(&mut sc.s[2]);
        let mut r = std::mem::take(&mut sc.r);
        let view = self.texture_view(op.res);
        // an unbound sampler slot samples with the default state (FS §7.18.17)
        let sampler = self.b.sampler(op.sampler).copied().unwrap_or_default();
        self.fetch(warp, &op.addr, 0b1111, &mut sa);
        let has_extras = matches!(
            op.kind,
            TexKind::Store
                | TexKind::LdMs
                | TexKind::SampleL
                | TexKind::SampleCLz
                | TexKind::SampleD
                | TexKind::Gather { .. }
        );
        if has_extras {
            self.fetch(warp, &op.extra[0], 0b1111, &mut s1);
            self.fetch(warp, &op.extra[1], 0b1111, &mut s2);
        }
        let observed = O::ON && obs.wants_accesses();
        if let (true, Res::UavTexture(_), TexKind::Ld | TexKind::Store) =
            (observed, op.res, op.kind)
        {
            let (mop, values) = if op.kind == TexKind::Store {
                (MemOp::Write, Some(&s1[..]))
            } else {
                (MemOp::Read, None)
            };
            obs.memory(&Mem {
                warp,
                pc: warp.pc as u32 - 1,
                kind: MemKind::Texture,
                op: mop,
                res: op.res,
                view: None,
                texture: view,
                tgsm,
                a: &sa,
                b: None,
                ks: &[0],
                values,
            });
        }
        let off = op.offset.map(|o| o as i32);
        // profiling: texels read and written, samples by filter
        let mut texels = (0u64, 0u64);
        let mut samples = crate::exec::SampleCounts::default();
        let get = |v: &[u32], c: usize, l: usize| v[c * w + l];
        let getf = |v: &[u32], c: usize, l: usize| f32::from_bits(v[c * w + l]);
        for l in 0..w {
            if warp.active[l] == 0 {
                continue;
            }
            let addr = [
                get(&sa, 0, l),
                get(&sa, 1, l),
                get(&sa, 2, l),
                get(&sa, 3, l),
            ];
            let coord = addr.map(f32::from_bits);
            let texel: [u32; 4] = match (op.kind, view) {
                (TexKind::Store, Some(v)) => {
                    let value = [
                        get(&s1, 0, l),
                        get(&s1, 1, l),
                        get(&s1, 2, l),
                        get(&s1, 3, l),
                    ];
                    v.store([addr[0], addr[1], addr[2]], value);
                    texels.1 += 1;
                    continue;
                }
                (TexKind::Store, None) => continue,
                (TexKind::Ld, Some(v)) => {
                    texels.0 += 1;
                    let a = offset_address(v.dimension(), addr, off);
                    if v.is_uav() {
                        v.load(a, 0, 0)
                    } else {
                        v.load(a, addr[3], 0)
                    }
                }
                (TexKind::LdMs, Some(v)) => {
                    texels.0 += 1;
                    v.load(offset_address(v.dimension(), addr, off), 0, get(&s1, 0, l))
                }
                (TexKind::SampleL | TexKind::SampleD | TexKind::SampleCLz, Some(v)) => {
                    let (lod, reference) = match op.kind {
                        TexKind::SampleL => (sampling::Lod::Explicit(getf(&s1, 0, l)), None),
                        TexKind::SampleD => (
                            sampling::Lod::Gradients {
                                ddx: [getf(&s1, 0, l), getf(&s1, 1, l), getf(&s1, 2, l)],
                                ddy: [getf(&s2, 0, l), getf(&s2, 1, l), getf(&s2, 2, l)],
                            },
                            None,
                        ),
                        _ => (sampling::Lod::Zero, Some(getf(&s1, 0, l))),
                    };
                    let (v, cost) =
                        sampling::sample_counted(&v, &sampler, coord, lod, off, reference);
                    texels.0 += u64::from(cost.texels);
                    samples.add(cost.filter);
                    v
                }
                (
                    TexKind::Gather {
                        channel,
                        po,
                        compare,
                    },
                    Some(v),
                ) => {
                    let o = if po {
                        [get(&s1, 0, l) as i32, get(&s1, 1, l) as i32]
                    } else {
                        [off[0], off[1]]
                    };
                    let reference = compare.then(|| getf(&s2, 0, l));
                    texels.0 += 4;
                    sampling::gather(&v, &sampler, coord, o, channel as usize, reference)
                }
                (TexKind::Resinfo { mode }, Some(v)) => {
                    let info = v.resinfo(addr[0]);
                    resinfo_result(v.dimension(), info, mode)
                }
                (TexKind::Resinfo { mode }, None) => {
                    resinfo_result(sim_mem::ViewDimension::Texture2D, [0; 4], mode)
                }
                (TexKind::SampleInfo { uint }, v) => {
                    let n = v.map_or(0, |v| v.sample_count());
                    if uint {
                        [n, 0, 0, 0]
                    } else {
                        [(n as f32).to_bits(), 0, 0, 0]
                    }
                }
                (TexKind::SamplePos, v) => {
                    let n = v.map_or(0, |v| v.sample_count());
                    let [x, y] = sampling::sample_position(n, addr[0]);
                    [x.to_bits(), y.to_bits(), 0, 0]
                }
                (_, None) => [0; 4],
            };
            for c in 0..4 {
                r[c * w + l] = texel[op.swz[c] as usize];
            }
        }
        let register = match op.res {
            Res::SrvTexture(s) => Some(('t', s)),
            Res::UavTexture(s) => Some(('u', s)),
            _ => None,
        };
        if let (true, Some((register, slot))) = (O::ON, register) {
            obs.texture_traffic(register, slot, texels, samples);
        }
        if !matches!(op.kind, TexKind::Store) {
            self.write(warp, &op.dst, &r);
        }
        sc.s[0] = sa;
        sc.s[1] = s1;
        sc.s[2] = s2;
        sc.r = r;
    }
}
