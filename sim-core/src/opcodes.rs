//! The opcode table: one row per opcode number of the tokenized program
//! format, the single source of truth for the decoder, disassembler and the
//! executor's lowering.
//!
//! Numbers, enumerant names and mnemonics follow `reference/dxbc-format.md` §9
//! (from `D3D12TokenizedProgramFormat.hpp`, `D3D10_SB_OPCODE_TYPE`).

/// How the dwords after the opcode token (and its extended tokens) are laid out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shape {
    /// `dsts` destination operands followed by `srcs` source operands, and nothing else.
    Ops { dsts: u8, srcs: u8 },
    /// A declaration: `ops` operands, then raw dwords up to the instruction length
    /// (strides, counts, return-type tokens, SM5.1 space dwords).
    Decl { ops: u8 },
    /// The custom-data block (opcode 0x35), whose length is in dword 1 (§3.3).
    CustomData,
    /// `fcall`: one raw dword (the call-site index) before one operand (`fp#[i][j]`).
    CallSite,
    /// Reserved end-of-version markers; never valid in a program.
    Reserved,
}

/// What kind of work an opcode does; the class also says how source
/// modifiers are applied (float classes: sign-bit operations; integer
/// classes: two's-complement negation), per `sm5-compute-isa.md` §1.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Class {
    /// float32 arithmetic and comparisons (modifiers act on floats)
    Float,
    /// moves and selects (modifiers act on floats; without modifiers bits are copied)
    Move,
    /// integer arithmetic and comparisons
    Int,
    /// bitwise operations and bit fields
    Bits,
    /// float → int conversions (source is float)
    FloatToInt,
    /// int → float and half conversions (source is an integer)
    IntToFloat,
    /// double-precision arithmetic
    Double,
    /// flow control
    Flow,
    /// buffer and TGSM loads, stores and queries
    Memory,
    /// atomics and append/consume counters
    Atomic,
    /// `sync_*` barriers and fences
    Sync,
    /// texture loads, sampling and queries
    Texture,
    /// declarations
    Decl,
    /// anything else (other shader stages, debugging)
    Other,
}

macro_rules! opcode_table {
    ($( $num:literal $variant:ident $mnem:literal $class:ident $cs:literal $shape:expr; )*) => {
        /// An opcode of the tokenized program format; the discriminant is its number (bits 10:0 of OpcodeToken0).
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        #[repr(u16)]
        #[allow(missing_docs)]
        pub enum Opcode { $( $variant = $num, )* }

        /// The table, indexed by opcode number: `OPCODE_TABLE[n].opcode as usize == n`.
        pub static OPCODE_TABLE: &[OpcodeInfo] = &[ $( OpcodeInfo {
            opcode: Opcode::$variant, mnemonic: $mnem, class: Class::$class, compute: $cs, shape: $shape,
        }, )* ];
    };
}

/// One row of the opcode table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OpcodeInfo {
    /// The opcode.
    pub opcode: Opcode,
    /// fxc's base mnemonic (suffixes such as `_nz`, `_sat`, `_uint` and sync flags are added by the disassembler).
    pub mnemonic: &'static str,
    /// What kind of instruction it is.
    pub class: Class,
    /// Whether a compute shader may contain it (`reference/dxbc-format.md` §9, column CS).
    pub compute: bool,
    /// Operand layout.
    pub shape: Shape,
}

const fn ops(dsts: u8, srcs: u8) -> Shape {
    Shape::Ops { dsts, srcs }
}
const fn decl(ops: u8) -> Shape {
    Shape::Decl { ops }
}
const RAW: Shape = Shape::Decl { ops: 0 };
const RES: Shape = Shape::Reserved;

opcode_table! {
    0 Add "add" Float true ops(1, 2);
    1 And "and" Bits true ops(1, 2);
    2 Break "break" Flow true ops(0, 0);
    3 Breakc "breakc" Flow true ops(0, 1);
    4 Call "call" Flow true ops(0, 1);
    5 Callc "callc" Flow true ops(0, 2);
    6 Case "case" Flow true ops(0, 1);
    7 Continue "continue" Flow true ops(0, 0);
    8 Continuec "continuec" Flow true ops(0, 1);
    9 Cut "cut" Other false ops(0, 0);
    10 Default "default" Flow true ops(0, 0);
    11 DerivRtx "deriv_rtx" Float false ops(1, 1);
    12 DerivRty "deriv_rty" Float false ops(1, 1);
    13 Discard "discard" Flow false ops(0, 1);
    14 Div "div" Float true ops(1, 2);
    15 Dp2 "dp2" Float true ops(1, 2);
    16 Dp3 "dp3" Float true ops(1, 2);
    17 Dp4 "dp4" Float true ops(1, 2);
    18 Else "else" Flow true ops(0, 0);
    19 Emit "emit" Other false ops(0, 0);
    20 EmitThenCut "emit_then_cut" Other false ops(0, 0);
    21 EndIf "endif" Flow true ops(0, 0);
    22 EndLoop "endloop" Flow true ops(0, 0);
    23 EndSwitch "endswitch" Flow true ops(0, 0);
    24 Eq "eq" Float true ops(1, 2);
    25 Exp "exp" Float true ops(1, 1);
    26 Frc "frc" Float true ops(1, 1);
    27 Ftoi "ftoi" FloatToInt true ops(1, 1);
    28 Ftou "ftou" FloatToInt true ops(1, 1);
    29 Ge "ge" Float true ops(1, 2);
    30 Iadd "iadd" Int true ops(1, 2);
    31 If "if" Flow true ops(0, 1);
    32 Ieq "ieq" Int true ops(1, 2);
    33 Ige "ige" Int true ops(1, 2);
    34 Ilt "ilt" Int true ops(1, 2);
    35 Imad "imad" Int true ops(1, 3);
    36 Imax "imax" Int true ops(1, 2);
    37 Imin "imin" Int true ops(1, 2);
    38 Imul "imul" Int true ops(2, 2);
    39 Ine "ine" Int true ops(1, 2);
    40 Ineg "ineg" Int true ops(1, 1);
    41 Ishl "ishl" Bits true ops(1, 2);
    42 Ishr "ishr" Bits true ops(1, 2);
    43 Itof "itof" IntToFloat true ops(1, 1);
    44 Label "label" Flow true ops(0, 1);
    45 Ld "ld" Texture true ops(1, 2);
    46 LdMs "ldms" Texture true ops(1, 3);
    47 Log "log" Float true ops(1, 1);
    48 Loop "loop" Flow true ops(0, 0);
    49 Lt "lt" Float true ops(1, 2);
    50 Mad "mad" Float true ops(1, 3);
    51 Min "min" Float true ops(1, 2);
    52 Max "max" Float true ops(1, 2);
    53 CustomData "customdata" Decl true Shape::CustomData;
    54 Mov "mov" Move true ops(1, 1);
    55 Movc "movc" Move true ops(1, 3);
    56 Mul "mul" Float true ops(1, 2);
    57 Ne "ne" Float true ops(1, 2);
    58 Nop "nop" Other true ops(0, 0);
    59 Not "not" Bits true ops(1, 1);
    60 Or "or" Bits true ops(1, 2);
    61 Resinfo "resinfo" Texture true ops(1, 2);
    62 Ret "ret" Flow true ops(0, 0);
    63 Retc "retc" Flow true ops(0, 1);
    64 RoundNe "round_ne" Float true ops(1, 1);
    65 RoundNi "round_ni" Float true ops(1, 1);
    66 RoundPi "round_pi" Float true ops(1, 1);
    67 RoundZ "round_z" Float true ops(1, 1);
    68 Rsq "rsq" Float true ops(1, 1);
    69 Sample "sample" Texture false ops(1, 3);
    70 SampleC "sample_c" Texture false ops(1, 4);
    71 SampleCLz "sample_c_lz" Texture true ops(1, 4);
    72 SampleL "sample_l" Texture true ops(1, 4);
    73 SampleD "sample_d" Texture true ops(1, 5);
    74 SampleB "sample_b" Texture false ops(1, 4);
    75 Sqrt "sqrt" Float true ops(1, 1);
    76 Switch "switch" Flow true ops(0, 1);
    77 Sincos "sincos" Float true ops(2, 1);
    78 Udiv "udiv" Int true ops(2, 2);
    79 Ult "ult" Int true ops(1, 2);
    80 Uge "uge" Int true ops(1, 2);
    81 Umul "umul" Int true ops(2, 2);
    82 Umad "umad" Int true ops(1, 3);
    83 Umax "umax" Int true ops(1, 2);
    84 Umin "umin" Int true ops(1, 2);
    85 Ushr "ushr" Bits true ops(1, 2);
    86 Utof "utof" IntToFloat true ops(1, 1);
    87 Xor "xor" Bits true ops(1, 2);
    88 DclResource "dcl_resource" Decl true decl(1);
    89 DclConstantBuffer "dcl_constantbuffer" Decl true decl(1);
    90 DclSampler "dcl_sampler" Decl true decl(1);
    91 DclIndexRange "dcl_indexrange" Decl false decl(1);
    92 DclGsOutputPrimitiveTopology "dcl_outputtopology" Decl false RAW;
    93 DclGsInputPrimitive "dcl_inputprimitive" Decl false RAW;
    94 DclMaxOutputVertexCount "dcl_maxout" Decl false RAW;
    95 DclInput "dcl_input" Decl true decl(1);
    96 DclInputSgv "dcl_input_sgv" Decl false decl(1);
    97 DclInputSiv "dcl_input_siv" Decl false decl(1);
    98 DclInputPs "dcl_input_ps" Decl false decl(1);
    99 DclInputPsSgv "dcl_input_ps_sgv" Decl false decl(1);
    100 DclInputPsSiv "dcl_input_ps_siv" Decl false decl(1);
    101 DclOutput "dcl_output" Decl false decl(1);
    102 DclOutputSgv "dcl_output_sgv" Decl false decl(1);
    103 DclOutputSiv "dcl_output_siv" Decl false decl(1);
    104 DclTemps "dcl_temps" Decl true RAW;
    105 DclIndexableTemp "dcl_indexableTemp" Decl true RAW;
    106 DclGlobalFlags "dcl_globalFlags" Decl true RAW;
    107 Reserved107 "" Other false RES;
    108 Lod "lod" Texture false ops(1, 3);
    109 Gather4 "gather4" Texture true ops(1, 3);
    110 SamplePos "samplepos" Texture true ops(1, 2);
    111 SampleInfo "sampleinfo" Texture true ops(1, 1);
    112 Reserved112 "" Other false RES;
    113 HsDecls "hs_decls" Other false ops(0, 0);
    114 HsControlPointPhase "hs_control_point_phase" Other false ops(0, 0);
    115 HsForkPhase "hs_fork_phase" Other false ops(0, 0);
    116 HsJoinPhase "hs_join_phase" Other false ops(0, 0);
    117 EmitStream "emit_stream" Other false ops(0, 1);
    118 CutStream "cut_stream" Other false ops(0, 1);
    119 EmitThenCutStream "emit_then_cut_stream" Other false ops(0, 1);
    120 InterfaceCall "fcall" Flow true Shape::CallSite;
    121 Bufinfo "bufinfo" Memory true ops(1, 1);
    122 DerivRtxCoarse "deriv_rtx_coarse" Float false ops(1, 1);
    123 DerivRtxFine "deriv_rtx_fine" Float false ops(1, 1);
    124 DerivRtyCoarse "deriv_rty_coarse" Float false ops(1, 1);
    125 DerivRtyFine "deriv_rty_fine" Float false ops(1, 1);
    126 Gather4C "gather4_c" Texture true ops(1, 4);
    127 Gather4Po "gather4_po" Texture true ops(1, 4);
    128 Gather4PoC "gather4_po_c" Texture true ops(1, 5);
    129 Rcp "rcp" Float true ops(1, 1);
    130 F32tof16 "f32tof16" FloatToInt true ops(1, 1);
    131 F16tof32 "f16tof32" IntToFloat true ops(1, 1);
    132 Uaddc "uaddc" Int true ops(2, 2);
    133 Usubb "usubb" Int true ops(2, 2);
    134 Countbits "countbits" Bits true ops(1, 1);
    135 FirstbitHi "firstbit_hi" Bits true ops(1, 1);
    136 FirstbitLo "firstbit_lo" Bits true ops(1, 1);
    137 FirstbitShi "firstbit_shi" Bits true ops(1, 1);
    138 Ubfe "ubfe" Bits true ops(1, 3);
    139 Ibfe "ibfe" Bits true ops(1, 3);
    140 Bfi "bfi" Bits true ops(1, 4);
    141 Bfrev "bfrev" Bits true ops(1, 1);
    142 Swapc "swapc" Move true ops(2, 3);
    143 DclStream "dcl_stream" Decl false decl(1);
    144 DclFunctionBody "dcl_function_body" Decl true RAW;
    145 DclFunctionTable "dcl_function_table" Decl true RAW;
    146 DclInterface "dcl_interface" Decl true RAW;
    147 DclInputControlPointCount "dcl_input_control_point_count" Decl false RAW;
    148 DclOutputControlPointCount "dcl_output_control_point_count" Decl false RAW;
    149 DclTessDomain "dcl_tessellator_domain" Decl false RAW;
    150 DclTessPartitioning "dcl_tessellator_partitioning" Decl false RAW;
    151 DclTessOutputPrimitive "dcl_tessellator_output_primitive" Decl false RAW;
    152 DclHsMaxTessFactor "dcl_hs_max_tessfactor" Decl false RAW;
    153 DclHsForkPhaseInstanceCount "dcl_hs_fork_phase_instance_count" Decl false RAW;
    154 DclHsJoinPhaseInstanceCount "dcl_hs_join_phase_instance_count" Decl false RAW;
    155 DclThreadGroup "dcl_thread_group" Decl true RAW;
    156 DclUavTyped "dcl_uav_typed" Decl true decl(1);
    157 DclUavRaw "dcl_uav_raw" Decl true decl(1);
    158 DclUavStructured "dcl_uav_structured" Decl true decl(1);
    159 DclTgsmRaw "dcl_tgsm_raw" Decl true decl(1);
    160 DclTgsmStructured "dcl_tgsm_structured" Decl true decl(1);
    161 DclResourceRaw "dcl_resource_raw" Decl true decl(1);
    162 DclResourceStructured "dcl_resource_structured" Decl true decl(1);
    163 LdUavTyped "ld_uav_typed" Memory true ops(1, 2);
    164 StoreUavTyped "store_uav_typed" Memory true ops(1, 2);
    165 LdRaw "ld_raw" Memory true ops(1, 2);
    166 StoreRaw "store_raw" Memory true ops(1, 2);
    167 LdStructured "ld_structured" Memory true ops(1, 3);
    168 StoreStructured "store_structured" Memory true ops(1, 3);
    169 AtomicAnd "atomic_and" Atomic true ops(1, 2);
    170 AtomicOr "atomic_or" Atomic true ops(1, 2);
    171 AtomicXor "atomic_xor" Atomic true ops(1, 2);
    172 AtomicCmpStore "atomic_cmp_store" Atomic true ops(1, 3);
    173 AtomicIadd "atomic_iadd" Atomic true ops(1, 2);
    174 AtomicImax "atomic_imax" Atomic true ops(1, 2);
    175 AtomicImin "atomic_imin" Atomic true ops(1, 2);
    176 AtomicUmax "atomic_umax" Atomic true ops(1, 2);
    177 AtomicUmin "atomic_umin" Atomic true ops(1, 2);
    178 ImmAtomicAlloc "imm_atomic_alloc" Atomic true ops(2, 0);
    179 ImmAtomicConsume "imm_atomic_consume" Atomic true ops(2, 0);
    180 ImmAtomicIadd "imm_atomic_iadd" Atomic true ops(2, 2);
    181 ImmAtomicAnd "imm_atomic_and" Atomic true ops(2, 2);
    182 ImmAtomicOr "imm_atomic_or" Atomic true ops(2, 2);
    183 ImmAtomicXor "imm_atomic_xor" Atomic true ops(2, 2);
    184 ImmAtomicExch "imm_atomic_exch" Atomic true ops(2, 2);
    185 ImmAtomicCmpExch "imm_atomic_cmp_exch" Atomic true ops(2, 3);
    186 ImmAtomicImax "imm_atomic_imax" Atomic true ops(2, 2);
    187 ImmAtomicImin "imm_atomic_imin" Atomic true ops(2, 2);
    188 ImmAtomicUmax "imm_atomic_umax" Atomic true ops(2, 2);
    189 ImmAtomicUmin "imm_atomic_umin" Atomic true ops(2, 2);
    190 Sync "sync" Sync true ops(0, 0);
    191 Dadd "dadd" Double true ops(1, 2);
    192 Dmax "dmax" Double true ops(1, 2);
    193 Dmin "dmin" Double true ops(1, 2);
    194 Dmul "dmul" Double true ops(1, 2);
    195 Deq "deq" Double true ops(1, 2);
    196 Dge "dge" Double true ops(1, 2);
    197 Dlt "dlt" Double true ops(1, 2);
    198 Dne "dne" Double true ops(1, 2);
    199 Dmov "dmov" Double true ops(1, 1);
    200 Dmovc "dmovc" Double true ops(1, 3);
    201 Dtof "dtof" Double true ops(1, 1);
    202 Ftod "ftod" Double true ops(1, 1);
    203 EvalSnapped "eval_snapped" Other false ops(1, 2);
    204 EvalSampleIndex "eval_sample_index" Other false ops(1, 2);
    205 EvalCentroid "eval_centroid" Other false ops(1, 1);
    206 DclGsInstanceCount "dcl_gsinstances" Decl false RAW;
    207 Abort "abort" Other true ops(0, 0);
    208 DebugBreak "debug_break" Other true ops(0, 0);
    209 Reserved209 "" Other false RES;
    210 Ddiv "ddiv" Double true ops(1, 2);
    211 Dfma "dfma" Double true ops(1, 3);
    212 Drcp "drcp" Double true ops(1, 1);
    213 Msad "msad" Int true ops(1, 3);
    214 Dtoi "dtoi" Double true ops(1, 1);
    215 Dtou "dtou" Double true ops(1, 1);
    216 Itod "itod" Double true ops(1, 1);
    217 Utod "utod" Double true ops(1, 1);
    218 Reserved218 "" Other false RES;
    219 Gather4Feedback "gather4_s" Texture true ops(2, 3);
    220 Gather4CFeedback "gather4_c_s" Texture true ops(2, 4);
    221 Gather4PoFeedback "gather4_po_s" Texture true ops(2, 4);
    222 Gather4PoCFeedback "gather4_po_c_s" Texture true ops(2, 5);
    223 LdFeedback "ld_s" Texture true ops(2, 2);
    224 LdMsFeedback "ldms_s" Texture true ops(2, 3);
    225 LdUavTypedFeedback "ld_uav_typed_s" Memory true ops(2, 2);
    226 LdRawFeedback "ld_raw_s" Memory true ops(2, 2);
    227 LdStructuredFeedback "ld_structured_s" Memory true ops(2, 3);
    228 SampleLFeedback "sample_l_s" Texture true ops(2, 4);
    229 SampleCLzFeedback "sample_c_lz_s" Texture true ops(2, 4);
    230 SampleClampFeedback "sample_cl_s" Texture false ops(2, 4);
    231 SampleBClampFeedback "sample_b_cl_s" Texture false ops(2, 5);
    232 SampleDClampFeedback "sample_d_cl_s" Texture false ops(2, 6);
    233 SampleCClampFeedback "sample_c_cl_s" Texture false ops(2, 5);
    234 CheckAccessFullyMapped "check_access_fully_mapped" Other true ops(1, 1);
    235 Reserved235 "" Other false RES;
}

/// Number of opcode values of the format (`D3D10_SB_NUM_OPCODES`).
pub const NUM_OPCODES: usize = 236;

impl Opcode {
    /// Zero dwords fxc appends after the operands of this instruction:
    /// `samplepos` always, and `sample_l_s` / `sample_c_lz_s` when they have
    /// no `_aoffimmi` token (fxc sizes them as if it were there). The
    /// decoder keeps such trailing zeros in `Instruction::raw`; the
    /// assembler writes them, so listings re-encode bit for bit.
    pub fn fxc_padding(self, has_offsets: bool) -> usize {
        match self {
            Opcode::SamplePos => 1,
            Opcode::SampleLFeedback | Opcode::SampleCLzFeedback if !has_offsets => 1,
            _ => 0,
        }
    }

    /// The table row of this opcode.
    pub fn info(self) -> &'static OpcodeInfo {
        &OPCODE_TABLE[self as usize]
    }

    /// The opcode with this number, or `None` for numbers ≥ [`NUM_OPCODES`].
    pub fn from_number(number: u32) -> Option<Opcode> {
        OPCODE_TABLE.get(number as usize).map(|row| row.opcode)
    }

    /// Whether bit 18 of OpcodeToken0 selects `_z`/`_nz` for this opcode (§3.1).
    pub fn has_test(self) -> bool {
        matches!(
            self,
            Opcode::If
                | Opcode::Breakc
                | Opcode::Continuec
                | Opcode::Retc
                | Opcode::Callc
                | Opcode::Discard
        )
    }

    /// Whether bit 13 of OpcodeToken0 means `_sat` for this opcode (§3.1).
    pub fn has_saturate(self) -> bool {
        matches!(
            self.info().class,
            Class::Float | Class::Move | Class::Double
        ) && !matches!(
            self,
            Opcode::Eq | Opcode::Ne | Opcode::Lt | Opcode::Ge | Opcode::Swapc
        )
    }

    /// The base mnemonic.
    pub fn mnemonic(self) -> &'static str {
        self.info().mnemonic
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_opcode_number_has_its_row() {
        assert_eq!(OPCODE_TABLE.len(), NUM_OPCODES);
        for (n, row) in OPCODE_TABLE.iter().enumerate() {
            assert_eq!(row.opcode as usize, n, "row {n} is out of place");
            assert_eq!(Opcode::from_number(n as u32), Some(row.opcode));
        }
        assert_eq!(Opcode::from_number(NUM_OPCODES as u32), None);
    }

    #[test]
    fn mnemonics_are_unique_and_reserved_rows_are_marked() {
        let mut seen = std::collections::HashSet::new();
        for row in OPCODE_TABLE {
            if row.shape == Shape::Reserved {
                assert!(row.mnemonic.is_empty());
                assert!(!row.compute);
            } else {
                assert!(seen.insert(row.mnemonic), "duplicate {}", row.mnemonic);
            }
        }
        // Spot checks against reference/dxbc-format.md §9.
        assert_eq!(Opcode::from_number(0xb9), Some(Opcode::ImmAtomicCmpExch));
        assert_eq!(Opcode::from_number(0xa8), Some(Opcode::StoreStructured));
        assert_eq!(Opcode::from_number(0xbe), Some(Opcode::Sync));
        assert_eq!(Opcode::from_number(0x9b), Some(Opcode::DclThreadGroup));
        assert_eq!(Opcode::from_number(0x35), Some(Opcode::CustomData));
    }
}
