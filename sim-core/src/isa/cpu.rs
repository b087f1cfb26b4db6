//! The CPU's instruction set: which vector instruction set the executor's
//! kernels (`crate::exec::kernels`) and its interpreter loop run in, the
//! widest this CPU has (detected at run time), lowered by `SM5SIM_ISA`. The
//! compiled variants give the same bits (`tests/it/cli.rs`,
//! `every_instruction_set_gives_the_same_bits`); the choice is only speed.

/// A vector instruction set the kernels and the interpreter loop are
/// compiled for, narrowest first (the discriminant indexes the kernel sets).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Isa {
    /// baseline x86-64 (SSE2), or any other architecture
    Baseline,
    /// AVX2
    Avx2,
    /// AVX-512 F, BW, DQ and VL (with AVX2)
    Avx512,
}

/// The environment variable that lowers the instruction set the executor
/// uses below what the CPU has: `baseline` or `avx2` (`avx512` changes
/// nothing). For comparing the compiled variants, which must give the same
/// bits; any other value is ignored here ([`isa_override`] says whether it
/// is valid).
pub const ISA_ENV: &str = "SM5SIM_ISA";

/// The instruction set that [`ISA_ENV`] asks for: `Ok(None)` when it is not
/// set, `Err(value)` when its value is none of `baseline`, `avx2`, `avx512`.
pub fn isa_override() -> Result<Option<Isa>, String> {
    match std::env::var(ISA_ENV) {
        Err(_) => Ok(None),
        Ok(v) => match v.as_str() {
            "baseline" => Ok(Some(Isa::Baseline)),
            "avx2" => Ok(Some(Isa::Avx2)),
            "avx512" => Ok(Some(Isa::Avx512)),
            _ => Err(v),
        },
    }
}

/// The [`Isa`] the executor uses: this CPU's widest, lowered by
/// [`ISA_ENV`] (never raised; detected once per process).
pub(crate) fn isa() -> Isa {
    static ISA: std::sync::OnceLock<Isa> = std::sync::OnceLock::new();
    *ISA.get_or_init(|| {
        let cpu = cpu_isa();
        match isa_override() {
            Ok(Some(asked)) => cpu.min(asked),
            _ => cpu,
        }
    })
}

/// This CPU's widest [`Isa`].
pub(crate) fn cpu_isa() -> Isa {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::is_x86_feature_detected as has;
        if has!("avx512f") && has!("avx512bw") && has!("avx512dq") && has!("avx512vl") {
            Isa::Avx512
        } else if has!("avx2") {
            Isa::Avx2
        } else {
            Isa::Baseline
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        Isa::Baseline
    }
}
