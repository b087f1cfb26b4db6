//! What a run counts: [`ExecStats`] always, [`Profile`] under `--profile`.

use crate::Program;
use std::collections::HashMap;
/// One resource's traffic in a [`Profile`]: the bytes its instructions'
/// active lanes read and wrote (4 each way per atomic), and its atomics.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ResourceTraffic {
    /// Its register file: `u` (UAV, buffer or texture), `t` (SRV), `g`
    /// (TGSM).
    pub register: char,
    /// Its register number (slot).
    pub slot: u32,
    /// Its HLSL name, from the program's reflection (RDEF or listing
    /// header), where [`Profile::by_resource`] found one.
    pub name: Option<String>,
    /// Bytes read.
    pub bytes_read: u64,
    /// Bytes written.
    pub bytes_written: u64,
    /// Atomic operations, per lane.
    pub atomics: u64,
    /// Texture texels read: one per lane of an `ld`/`ld_uav_typed` on a
    /// texture, four per `gather4`, and a sample's filter footprint
    /// ([`sim_mem::sampling::SampleCost`]).
    pub texels_read: u64,
    /// Texture texels written (`store_uav_typed` on a texture, per lane).
    pub texels_written: u64,
    /// Samples (`sample_l`, `sample_d`, `sample_c_lz`, per lane) by the
    /// filter they applied.
    pub samples: SampleCounts,
}

/// Samples by the filter they applied ([`sim_mem::sampling::SampleFilter`]).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SampleCounts {
    /// One texel of one mip.
    pub point: u64,
    /// The texels around the coordinate, one mip.
    pub bilinear: u64,
    /// Two mips blended.
    pub trilinear: u64,
    /// Several probes (anisotropic).
    pub anisotropic: u64,
}

impl SampleCounts {
    /// One more sample with `filter`.
    pub fn add(&mut self, filter: sim_mem::sampling::SampleFilter) {
        use sim_mem::sampling::SampleFilter as F;
        *match filter {
            F::Point => &mut self.point,
            F::Bilinear => &mut self.bilinear,
            F::Trilinear => &mut self.trilinear,
            F::Anisotropic => &mut self.anisotropic,
        } += 1;
    }

    /// All samples.
    pub fn total(&self) -> u64 {
        self.point + self.bilinear + self.trilinear + self.anisotropic
    }
}

impl std::ops::AddAssign for SampleCounts {
    fn add_assign(&mut self, o: Self) {
        self.point += o.point;
        self.bilinear += o.bilinear;
        self.trilinear += o.trilinear;
        self.anisotropic += o.anisotropic;
    }
}

/// One instruction's counts in a [`Profile`] ([`Profile::by_instruction`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InstructionCounts {
    /// Its program counter (index among the executed instructions).
    pub pc: usize,
    /// Its dword offset in the shader's token stream (as `sm5sim disasm`
    /// and the checker name it).
    pub dword: u32,
    /// Its text as `sm5sim disasm` prints it, without indentation.
    pub text: String,
    /// Lane-instructions: the active lanes when it issued, summed.
    pub lane_instructions: u64,
    /// Warp-instructions: how many times a warp issued it.
    pub warp_instructions: u64,
    /// For a branch, the warp-instructions where it diverged (some but not
    /// all active lanes taking it); 0 for other instructions.
    pub diverged: u64,
    /// For a buffer load or store, the bytes accessed in bounds
    /// ([`Profile::bytes_by_pc`]); else 0.
    pub bytes: u64,
    /// For a buffer load or store, the distinct 64-byte lines touched,
    /// summed over its warp-instructions ([`Profile::lines_by_pc`]).
    pub lines: u64,
    /// For `imm_atomic_cmp_exch`, the lanes' compare-exchanges that failed
    /// ([`Profile::failed_by_pc`]); else 0.
    pub failed: u64,
    /// For an atomic, with memory profiling, in its sampled
    /// warp-instructions ([`Profile::sampled_atomic_words_by_pc`]): the
    /// lanes on words in bounds, summed.
    pub sampled_atomic_lanes: u64,
    /// Likewise, the distinct words they touched, summed:
    /// `sampled_atomic_lanes / sampled_atomic_words` lanes met on a word.
    pub sampled_atomic_words: u64,
}

/// One HLSL line's counts in a [`Profile`] ([`Profile::by_line`]): the
/// counts of the instructions fxc attributes to it, summed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LineCounts {
    /// The line ([`crate::front::debug_info::SourceMap::files`] and line number).
    pub at: crate::front::debug_info::SourceLine,
    /// The executed instructions attributed to it.
    pub instructions: usize,
    /// Lane-instructions of those instructions, summed.
    pub lane_instructions: u64,
    /// Warp-instructions of those instructions, summed.
    pub warp_instructions: u64,
    /// Divergent branches among them ([`InstructionCounts::diverged`]), summed.
    pub diverged: u64,
    /// Buffer bytes they accessed, summed.
    pub bytes: u64,
    /// 64-byte lines their buffer accesses touched, summed over warp-instructions.
    pub lines: u64,
    /// Failed compare-exchanges among them, summed.
    pub failed: u64,
}

/// Counters of one executor, summed over the groups it ran.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ExecStats {
    /// Warp-instructions executed (one per instruction per warp, however many lanes were active).
    pub warp_instructions: u64,
    /// Thread groups run.
    pub groups: u64,
    /// Barriers (`sync_*_t`) completed, counted once per group.
    pub barriers: u64,
    /// Threads ended by `abort`.
    pub aborted_threads: u64,
    /// `debug_break` instructions executed, per thread.
    pub debug_breaks: u64,
}

/// Throughput counters of one executor (`sm5sim run --profile`), kept only
/// when profiling is switched on ([`GroupExecutor::set_profiling`](crate::exec::GroupExecutor::set_profiling)): a plain
/// run tests one `Option` per warp-instruction and per memory instruction.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Profile {
    /// Per instruction (program counter): lane-instructions executed, i.e.
    /// the active lanes when it issued, summed over warp-instructions.
    pub lanes_by_pc: Vec<u64>,
    /// Per instruction (program counter): warp-instructions executed, i.e.
    /// how many times a warp issued it (its SIMD efficiency is
    /// `lanes_by_pc[pc]` / (`warps_by_pc[pc]` × the warp width)).
    pub warps_by_pc: Vec<u64>,
    /// Per branch instruction (an `if`, a `breakc`, `continuec` or `retc`,
    /// by program counter): the warp-instructions where it diverged, some
    /// but not all of the active lanes taking it.
    pub diverged_by_pc: Vec<u64>,
    /// Per buffer load or store (`ld_raw`, `ld_structured`, `store_raw`,
    /// `store_structured` on a UAV or SRV): the bytes its active lanes
    /// accessed in bounds, summed over its warp-instructions.
    pub bytes_by_pc: Vec<u64>,
    /// Per buffer load or store, likewise: the distinct 64-byte lines of
    /// the buffer each warp-instruction touched, summed (coalescing: 2 per
    /// warp of 32 lanes reading consecutive dwords, 32 for a stride of 64
    /// bytes or more).
    pub lines_by_pc: Vec<u64>,
    /// Per `imm_atomic_cmp_exch`: the lanes' compare-exchanges that failed
    /// (the word held another value than the comparand), each a retry of
    /// a shader's compare-exchange loop.
    pub failed_by_pc: Vec<u64>,
    /// Per atomic on a buffer or TGSM (`atomic_*`, `imm_atomic_*`), with
    /// memory profiling ([`GroupExecutor::set_memory_profiling`](crate::exec::GroupExecutor::set_memory_profiling)), over a
    /// sample of its warp-instructions (each of an executor's first
    /// [`ATOMIC_SAMPLES_EXACT`], then one in [`ATOMIC_SAMPLE_EVERY`]; a
    /// compare-exchange loop run at once counts as lockstep's passes): the
    /// distinct words in bounds its active lanes touched, summed. Counting
    /// them costs about as much as a gathered atomic, hence the sample.
    pub sampled_atomic_words_by_pc: Vec<u64>,
    /// The active lanes on words in bounds of the same sample:
    /// `sampled_atomic_lanes_by_pc[pc] / sampled_atomic_words_by_pc[pc]`
    /// is the atomic's contention, the lanes per word.
    pub sampled_atomic_lanes_by_pc: Vec<u64>,
    /// Per atomic, its warp-instructions (or loops run at once) seen for
    /// the sample.
    pub atomic_visits_by_pc: Vec<u64>,
    /// Per resource the program accessed (UAV, SRV or TGSM region), its
    /// traffic, in the order first touched ([`Profile::by_resource`] adds
    /// the HLSL names).
    pub resources: Vec<ResourceTraffic>,
    /// Warp-instructions executed.
    pub warp_instructions: u64,
    /// Lane slots issued: warp-instructions × warp width.
    pub lane_slots: u64,
    /// Lane-instructions executed (the sum of `lanes_by_pc`).
    pub active_lanes: u64,
    /// Atomic operations (per lane; `imm_atomic_*` and `atomic_*`, UAV or TGSM).
    pub atomics: u64,
    /// Of those, compare-exchanges.
    pub compare_exchanges: u64,
    /// Compare-exchanges that failed (the value found differed from the
    /// comparand): a shader's CAS loop retries once per failure.
    pub cas_failures: u64,
    /// TGSM bytes read (loads, and 4 per atomic).
    pub tgsm_read: u64,
    /// TGSM bytes written (stores, and 4 per atomic).
    pub tgsm_written: u64,
    /// UAV bytes read (raw, structured and typed buffer loads; 4 per atomic).
    pub uav_read: u64,
    /// UAV bytes written (raw, structured and typed buffer stores; 4 per atomic).
    pub uav_written: u64,
    /// SRV bytes read (raw, structured and typed buffer loads).
    pub srv_read: u64,
}

impl Profile {
    pub(super) fn new(prog: &Program) -> Self {
        Self {
            lanes_by_pc: vec![0; prog.code.len()],
            warps_by_pc: vec![0; prog.code.len()],
            diverged_by_pc: vec![0; prog.code.len()],
            bytes_by_pc: vec![0; prog.code.len()],
            lines_by_pc: vec![0; prog.code.len()],
            failed_by_pc: vec![0; prog.code.len()],
            sampled_atomic_words_by_pc: vec![0; prog.code.len()],
            sampled_atomic_lanes_by_pc: vec![0; prog.code.len()],
            atomic_visits_by_pc: vec![0; prog.code.len()],
            ..Self::default()
        }
    }

    /// Add `other`'s counters (of the same program) to these.
    pub fn merge(&mut self, other: &Profile) {
        for (mine, theirs) in [
            (&mut self.lanes_by_pc, &other.lanes_by_pc),
            (&mut self.warps_by_pc, &other.warps_by_pc),
            (&mut self.diverged_by_pc, &other.diverged_by_pc),
            (&mut self.bytes_by_pc, &other.bytes_by_pc),
            (&mut self.lines_by_pc, &other.lines_by_pc),
            (&mut self.failed_by_pc, &other.failed_by_pc),
            (
                &mut self.sampled_atomic_words_by_pc,
                &other.sampled_atomic_words_by_pc,
            ),
            (
                &mut self.sampled_atomic_lanes_by_pc,
                &other.sampled_atomic_lanes_by_pc,
            ),
            (&mut self.atomic_visits_by_pc, &other.atomic_visits_by_pc),
        ] {
            if mine.len() < theirs.len() {
                mine.resize(theirs.len(), 0);
            }
            for (a, b) in mine.iter_mut().zip(theirs) {
                *a += b;
            }
        }
        for r in &other.resources {
            let m = self.traffic(r.register, r.slot);
            m.bytes_read += r.bytes_read;
            m.bytes_written += r.bytes_written;
            m.atomics += r.atomics;
            m.texels_read += r.texels_read;
            m.texels_written += r.texels_written;
            m.samples += r.samples;
        }
        self.warp_instructions += other.warp_instructions;
        self.lane_slots += other.lane_slots;
        self.active_lanes += other.active_lanes;
        self.atomics += other.atomics;
        self.compare_exchanges += other.compare_exchanges;
        self.cas_failures += other.cas_failures;
        self.tgsm_read += other.tgsm_read;
        self.tgsm_written += other.tgsm_written;
        self.uav_read += other.uav_read;
        self.uav_written += other.uav_written;
        self.srv_read += other.srv_read;
    }

    /// SIMD efficiency: active lanes / warp width over all executed
    /// warp-instructions (1.0 when nothing ran).
    pub fn simd_efficiency(&self) -> f64 {
        if self.lane_slots == 0 {
            1.0
        } else {
            self.active_lanes as f64 / self.lane_slots as f64
        }
    }

    /// The counts of each executed instruction of `prog` (the program
    /// profiled), in program order: where it is (pc, dword offset), its
    /// text as `sm5sim disasm` prints it, its lane- and warp-instructions.
    pub fn by_instruction(&self, prog: &Program) -> Vec<InstructionCounts> {
        let texts: HashMap<u32, String> = prog
            .decoded
            .instructions
            .iter()
            .filter(|i| i.opcode.info().class != crate::isa::opcodes::Class::Decl)
            .map(|i| {
                (
                    i.offset,
                    crate::front::disasm::instruction_text(&prog.decoded, i),
                )
            })
            .collect();
        prog.code
            .iter()
            .enumerate()
            .filter_map(|(pc, op)| {
                let warps = self.warps_by_pc.get(pc).copied().unwrap_or(0);
                (warps > 0).then(|| InstructionCounts {
                    pc,
                    dword: op.token,
                    text: texts.get(&op.token).cloned().unwrap_or_default(),
                    lane_instructions: self.lanes_by_pc.get(pc).copied().unwrap_or(0),
                    warp_instructions: warps,
                    diverged: self.diverged_by_pc.get(pc).copied().unwrap_or(0),
                    bytes: self.bytes_by_pc.get(pc).copied().unwrap_or(0),
                    lines: self.lines_by_pc.get(pc).copied().unwrap_or(0),
                    failed: self.failed_by_pc.get(pc).copied().unwrap_or(0),
                    sampled_atomic_lanes: self
                        .sampled_atomic_lanes_by_pc
                        .get(pc)
                        .copied()
                        .unwrap_or(0),
                    sampled_atomic_words: self
                        .sampled_atomic_words_by_pc
                        .get(pc)
                        .copied()
                        .unwrap_or(0),
                })
            })
            .collect()
    }

    /// The counts of `prog`'s (the program profiled) HLSL lines, in file
    /// and line order: [`Profile::by_instruction`] summed by the line each
    /// instruction comes from ([`crate::front::debug_info::SourceMap::line_at`]).
    /// `None` when the program has no debug information (fxc `/Zi`).
    pub fn by_line(&self, prog: &Program) -> Option<Vec<LineCounts>> {
        let map = prog.source_map.as_ref()?;
        let mut sums: std::collections::BTreeMap<crate::front::debug_info::SourceLine, LineCounts> =
            Default::default();
        let mut seen = std::collections::HashSet::new();
        for i in self.by_instruction(prog) {
            let Some(at) = map.line_at(i.dword) else {
                continue;
            };
            let e = sums.entry(at).or_insert(LineCounts {
                at,
                instructions: 0,
                lane_instructions: 0,
                warp_instructions: 0,
                diverged: 0,
                bytes: 0,
                lines: 0,
                failed: 0,
            });
            // (several pcs may share one instruction's dword)
            if seen.insert(i.dword) {
                e.instructions += 1;
            }
            e.lane_instructions += i.lane_instructions;
            e.warp_instructions += i.warp_instructions;
            e.diverged += i.diverged;
            e.bytes += i.bytes;
            e.lines += i.lines;
            e.failed += i.failed;
        }
        Some(sums.into_values().collect())
    }

    /// The traffic per resource, named by the program's reflection where it
    /// names the register (RDEF or the listing header; TGSM has no names).
    pub fn by_resource(&self, prog: &Program) -> Vec<ResourceTraffic> {
        let name = |register: char, slot: u32| {
            let b = prog
                .reflection
                .as_ref()?
                .resource_at(&register.to_string(), 0, slot)?;
            Some(b.name.clone())
        };
        self.resources
            .iter()
            .map(|r| ResourceTraffic {
                name: name(r.register, r.slot),
                ..r.clone()
            })
            .collect()
    }

    /// The traffic of resource `register``slot`, made on first use.
    pub(super) fn traffic(&mut self, register: char, slot: u32) -> &mut ResourceTraffic {
        let found = self
            .resources
            .iter()
            .position(|m| (m.register, m.slot) == (register, slot));
        let i = found.unwrap_or_else(|| {
            self.resources.push(ResourceTraffic {
                register,
                slot,
                name: None,
                bytes_read: 0,
                bytes_written: 0,
                atomics: 0,
                texels_read: 0,
                texels_written: 0,
                samples: SampleCounts::default(),
            });
            self.resources.len() - 1
        });
        &mut self.resources[i]
    }

    /// The lanes a warp had: lane slots / warp-instructions (0 when nothing
    /// ran). Every warp of a dispatch has the same width.
    pub fn warp_width(&self) -> u64 {
        self.lane_slots
            .checked_div(self.warp_instructions)
            .unwrap_or(0)
    }

    /// Lane-instructions per opcode mnemonic (`mad`, `ld_structured`, …;
    /// without modifiers such as `_sat`), most executed first, ties by name.
    pub fn by_opcode(&self, prog: &Program) -> Vec<(String, u64)> {
        let names: HashMap<u32, &'static str> = prog
            .decoded
            .instructions
            .iter()
            .map(|i| (i.offset, i.opcode.mnemonic()))
            .collect();
        let mut sums: std::collections::BTreeMap<&'static str, u64> = Default::default();
        for (pc, &n) in self.lanes_by_pc.iter().enumerate() {
            if n == 0 {
                continue;
            }
            let name = prog
                .code
                .get(pc)
                .and_then(|op| names.get(&op.token).copied())
                .unwrap_or("?");
            *sums.entry(name).or_default() += n;
        }
        let mut v: Vec<(String, u64)> = sums.into_iter().map(|(k, n)| (k.to_string(), n)).collect();
        v.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
        v
    }
}

/// Every warp-instruction of an atomic up to this many (per executor) is
/// in the contention sample ([`Profile::sampled_atomic_words_by_pc`]).
pub const ATOMIC_SAMPLES_EXACT: u64 = 256;

/// Past [`ATOMIC_SAMPLES_EXACT`], one warp-instruction in this many is.
pub const ATOMIC_SAMPLE_EVERY: u64 = 16;

impl Profile {
    /// Whether this visit of the atomic at `pc` is in the contention
    /// sample (and count the visit).
    pub(in crate::exec) fn sample_atomic(&mut self, pc: usize) -> bool {
        let v = self.atomic_visits_by_pc[pc];
        self.atomic_visits_by_pc[pc] += 1;
        v < ATOMIC_SAMPLES_EXACT || v.is_multiple_of(ATOMIC_SAMPLE_EVERY)
    }
}
