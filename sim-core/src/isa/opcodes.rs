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
    Ops {
        /// destination operands
        dsts: u8,
        /// source operands
        srcs: u8,
    },
    /// A declaration: `ops` operands, then raw dwords up to the instruction length
    /// (strides, counts, return-type tokens, SM5.1 space dwords).
    Decl {
        /// operands before the raw dwords
        ops: u8,
    },
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
    ($( $num:literal $variant:ident $mnem:literal $class:ident $shape:expr, $types:literal, $sem:expr; )*) => {
        /// An opcode of the tokenized program format; the discriminant is its number (bits 10:0 of OpcodeToken0).
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        #[repr(u16)]
        #[allow(missing_docs)]
        pub enum Opcode { $( $variant = $num, )* }

        /// The table, indexed by opcode number: `OPCODE_TABLE[n].opcode as usize == n`.
        pub static OPCODE_TABLE: &[OpcodeInfo] = &[ $( OpcodeInfo {
            opcode: Opcode::$variant, mnemonic: $mnem, class: Class::$class,
            compute: $sem.in_compute(), min_model: min_compute_model($num),
            shape: $shape, operand_types: $types, sem: $sem,
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
    /// The lowest shader model, `(major, minor)`, whose compute profile may
    /// contain it: `(4, 0)`, `(4, 1)` or `(5, 0)` ([`min_compute_model`]).
    /// A cs_4_0 or cs_4_1 program with a later row is refused at load
    /// (`LoadError::Profile`).
    pub min_model: (u8, u8),
    /// Operand layout.
    pub shape: Shape,
    /// Each operand's type, destinations first, one letter each
    /// ([`Opcode::operand_type`], [`Opcode::follows_destination_precision`]):
    /// `f` float, `i` integer, `u` untyped (bits moved or stored as they
    /// are), upper case for a source read at the first destination's
    /// minimum precision. Empty for rows without operands of their own
    /// (declarations, flow control without a condition).
    pub operand_types: &'static str,
    /// What the executor does with it: its lowering target.
    pub(crate) sem: Sem,
}

/// An instruction's semantics, as the executor runs it: the lowering target
/// of its row. Every row has one (the table's macro takes no row without),
/// so an instruction is either lowered by its row's target or listed as
/// not executed ([`Sem::NotCompute`], [`Sem::Reserved`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Sem {
    /// A component-wise ALU instruction: `OpKind::Alu` with this operation,
    /// whose lane function and static facts are in `crate::isa::lanes`
    /// (`for_each_lane_op!`). Nothing else is written for it.
    Alu(AluOp),
    /// A double-precision instruction: `OpKind::Double`.
    Double(DoubleOp),
    /// A two-destination ALU instruction: `OpKind::Alu2`.
    Alu2(Alu2Op),
    /// Lowered by code of its own in `Lowering::instruction` (flow control,
    /// memory, atomics, textures, `sync`, …), onto its own `OpKind`.
    Own,
    /// A declaration (`Lowering::declaration`).
    Decl,
    /// Not valid in a compute shader: a program containing it is refused
    /// (`LoadError::Invalid`). Not executed.
    NotCompute,
    /// A reserved number; never valid. Not executed.
    Reserved,
}

impl Sem {
    /// Whether a compute shader may contain the instruction.
    pub(crate) const fn in_compute(self) -> bool {
        !matches!(self, Sem::NotCompute | Sem::Reserved)
    }
}

const fn alu(op: AluOp) -> Sem {
    Sem::Alu(op)
}
const fn double(op: DoubleOp) -> Sem {
    Sem::Double(op)
}
const fn alu2(op: Alu2Op) -> Sem {
    Sem::Alu2(op)
}
#[allow(non_upper_case_globals)]
const own: Sem = Sem::Own;
#[allow(non_upper_case_globals)]
const decl: Sem = Sem::Decl;
#[allow(non_upper_case_globals)]
const not_compute: Sem = Sem::NotCompute;
#[allow(non_upper_case_globals)]
const reserved: Sem = Sem::Reserved;

/// The lowest shader model whose compute profile may contain opcode `n`
/// ([`OpcodeInfo::min_model`]), from two sources:
///
/// - the version that introduced the opcode, which its enumerant's prefix in
///   `D3D10_SB_OPCODE_TYPE` names (TPF; `reference/dxbc-format.md` §9):
///   0–107 `D3D10_SB` (SM4.0); 108–112 `D3D10_1_SB` (SM4.1: `lod`,
///   `gather4`, `samplepos`, `sampleinfo`, as MSDN "Shader Model 4
///   Assembly" lists them); 113–209 `D3D11_SB`, 210–218 `D3D11_1_SB` and
///   219–235 `D3DWDDM1_3_SB` (SM5.0: the D3D11.1 and tiled-resource
///   additions are cs_5_0 instructions too). MSDN's SM4.1 list also names
///   `ld2dms`, but its opcode is `D3D10_SB_OPCODE_LD_MS` and `Texture2DMS`
///   is a Shader Model 4 object: SM4.1 extended it (multisampled depth),
///   so it stays SM4.0 here;
/// - the D3D11 opcodes that compute on D3D10.x hardware has too (FS §18.7,
///   "Compute Shader on D3D10.x hardware"; `reference/sm5-compute-isa.md`
///   §15): `dcl_thread_group`, `dcl_uav_raw`, `dcl_uav_structured`,
///   `dcl_tgsm_structured`, `dcl_resource_raw`, `dcl_resource_structured`,
///   `ld_raw`, `store_raw`, `ld_structured`, `store_structured` and `sync`.
///   Everything else of SM5 is cs_5_0 only: typed UAVs (`dcl_uav_typed`,
///   `ld_uav_typed`, `store_uav_typed`), `dcl_tgsm_raw`, atomics and
///   append/consume, doubles, the SM5 ALU additions (`countbits`,
///   `firstbit_*`, `bfi`, `ubfe`, `ibfe`, `bfrev`, `f32tof16`, `f16tof32`,
///   `uaddc`, `usubb`, `swapc`, `rcp`, `msad`), `bufinfo`, `gather4_c`,
///   `gather4_po*`, class linkage and `abort`/`debug_break` (MSDN "Compute
///   Shader Overview": on 10.x hardware "no atomic instructions are
///   available", "no double-precision values are available", only
///   `RWStructuredBuffer` and `RWByteAddressBuffer` UAVs).
pub const fn min_compute_model(n: u16) -> (u8, u8) {
    match n {
        0..=107 => (4, 0),
        108..=112 => (4, 1),
        // dcl_thread_group; dcl_uav_raw, dcl_uav_structured;
        // dcl_tgsm_structured, dcl_resource_raw, dcl_resource_structured;
        // ld_raw, store_raw, ld_structured, store_structured; sync
        155 | 157 | 158 | 160..=162 | 165..=168 | 190 => (4, 0),
        _ => (5, 0),
    }
}

/// The type of an instruction's operand ([`Opcode::operand_type`]): how an
/// immediate there is meant, and so printed and read back.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OperandDataType {
    /// a float32
    Float,
    /// an integer
    Int,
    /// bits moved or stored as they are (a `mov`'s source, a stored value):
    /// Microsoft's disassembler prints them as a float only when they look
    /// like one
    Untyped,
}

const fn ops(dsts: u8, srcs: u8) -> Shape {
    Shape::Ops { dsts, srcs }
}
const fn decl_ops(ops: u8) -> Shape {
    Shape::Decl { ops }
}
const RAW: Shape = Shape::Decl { ops: 0 };
const RES: Shape = Shape::Reserved;

opcode_table! {
    0 Add "add" Float ops(1, 2), "fFF", alu(AluOp::Add);
    1 And "and" Bits ops(1, 2), "iII", alu(AluOp::And);
    2 Break "break" Flow ops(0, 0), "", own;
    3 Breakc "breakc" Flow ops(0, 1), "i", own;
    4 Call "call" Flow ops(0, 1), "i", own;
    5 Callc "callc" Flow ops(0, 2), "ii", own;
    6 Case "case" Flow ops(0, 1), "i", own;
    7 Continue "continue" Flow ops(0, 0), "", own;
    8 Continuec "continuec" Flow ops(0, 1), "i", own;
    9 Cut "cut" Other ops(0, 0), "", not_compute;
    10 Default "default" Flow ops(0, 0), "", own;
    11 DerivRtx "deriv_rtx" Float ops(1, 1), "fF", not_compute;
    12 DerivRty "deriv_rty" Float ops(1, 1), "fF", not_compute;
    13 Discard "discard" Flow ops(0, 1), "i", not_compute;
    14 Div "div" Float ops(1, 2), "fFF", alu(AluOp::Div);
    15 Dp2 "dp2" Float ops(1, 2), "fFF", alu(AluOp::Dp2);
    16 Dp3 "dp3" Float ops(1, 2), "fFF", alu(AluOp::Dp3);
    17 Dp4 "dp4" Float ops(1, 2), "fFF", alu(AluOp::Dp4);
    18 Else "else" Flow ops(0, 0), "", own;
    19 Emit "emit" Other ops(0, 0), "", not_compute;
    20 EmitThenCut "emit_then_cut" Other ops(0, 0), "", not_compute;
    21 EndIf "endif" Flow ops(0, 0), "", own;
    22 EndLoop "endloop" Flow ops(0, 0), "", own;
    23 EndSwitch "endswitch" Flow ops(0, 0), "", own;
    24 Eq "eq" Float ops(1, 2), "fff", alu(AluOp::Eq);
    25 Exp "exp" Float ops(1, 1), "fF", alu(AluOp::Exp);
    26 Frc "frc" Float ops(1, 1), "fF", alu(AluOp::Frc);
    27 Ftoi "ftoi" FloatToInt ops(1, 1), "ff", alu(AluOp::Ftoi);
    28 Ftou "ftou" FloatToInt ops(1, 1), "ff", alu(AluOp::Ftou);
    29 Ge "ge" Float ops(1, 2), "fff", alu(AluOp::Ge);
    30 Iadd "iadd" Int ops(1, 2), "iII", alu(AluOp::Iadd);
    31 If "if" Flow ops(0, 1), "i", own;
    32 Ieq "ieq" Int ops(1, 2), "iii", alu(AluOp::Ieq);
    33 Ige "ige" Int ops(1, 2), "iii", alu(AluOp::Ige);
    34 Ilt "ilt" Int ops(1, 2), "iii", alu(AluOp::Ilt);
    35 Imad "imad" Int ops(1, 3), "iIII", alu(AluOp::Imad);
    36 Imax "imax" Int ops(1, 2), "iII", alu(AluOp::Imax);
    37 Imin "imin" Int ops(1, 2), "iII", alu(AluOp::Imin);
    38 Imul "imul" Int ops(2, 2), "iiII", alu2(Alu2Op::Imul);
    39 Ine "ine" Int ops(1, 2), "iii", alu(AluOp::Ine);
    40 Ineg "ineg" Int ops(1, 1), "iI", alu(AluOp::Ineg);
    41 Ishl "ishl" Bits ops(1, 2), "iIi", alu(AluOp::Ishl);
    42 Ishr "ishr" Bits ops(1, 2), "iIi", alu(AluOp::Ishr);
    43 Itof "itof" IntToFloat ops(1, 1), "ii", alu(AluOp::Itof);
    44 Label "label" Flow ops(0, 1), "i", own;
    45 Ld "ld" Texture ops(1, 2), "iii", own;
    46 LdMs "ldms" Texture ops(1, 3), "iiii", own;
    47 Log "log" Float ops(1, 1), "fF", alu(AluOp::Log);
    48 Loop "loop" Flow ops(0, 0), "", own;
    49 Lt "lt" Float ops(1, 2), "fff", alu(AluOp::Lt);
    50 Mad "mad" Float ops(1, 3), "fFFF", alu(AluOp::Mad);
    51 Min "min" Float ops(1, 2), "fFF", alu(AluOp::Min);
    52 Max "max" Float ops(1, 2), "fFF", alu(AluOp::Max);
    53 CustomData "customdata" Decl Shape::CustomData, "", decl;
    54 Mov "mov" Move ops(1, 1), "uU", alu(AluOp::Mov);
    55 Movc "movc" Move ops(1, 3), "uiUU", alu(AluOp::Movc);
    56 Mul "mul" Float ops(1, 2), "fFF", alu(AluOp::Mul);
    57 Ne "ne" Float ops(1, 2), "fff", alu(AluOp::Ne);
    58 Nop "nop" Other ops(0, 0), "", own;
    59 Not "not" Bits ops(1, 1), "iI", alu(AluOp::Not);
    60 Or "or" Bits ops(1, 2), "iII", alu(AluOp::Or);
    61 Resinfo "resinfo" Texture ops(1, 2), "iii", own;
    62 Ret "ret" Flow ops(0, 0), "", own;
    63 Retc "retc" Flow ops(0, 1), "i", own;
    64 RoundNe "round_ne" Float ops(1, 1), "fF", alu(AluOp::RoundNe);
    65 RoundNi "round_ni" Float ops(1, 1), "fF", alu(AluOp::RoundNi);
    66 RoundPi "round_pi" Float ops(1, 1), "fF", alu(AluOp::RoundPi);
    67 RoundZ "round_z" Float ops(1, 1), "fF", alu(AluOp::RoundZ);
    68 Rsq "rsq" Float ops(1, 1), "fF", alu(AluOp::Rsq);
    69 Sample "sample" Texture ops(1, 3), "ffff", not_compute;
    70 SampleC "sample_c" Texture ops(1, 4), "fffff", not_compute;
    71 SampleCLz "sample_c_lz" Texture ops(1, 4), "fffff", own;
    72 SampleL "sample_l" Texture ops(1, 4), "fffff", own;
    73 SampleD "sample_d" Texture ops(1, 5), "ffffff", own;
    74 SampleB "sample_b" Texture ops(1, 4), "fffff", not_compute;
    75 Sqrt "sqrt" Float ops(1, 1), "fF", alu(AluOp::Sqrt);
    76 Switch "switch" Flow ops(0, 1), "i", own;
    77 Sincos "sincos" Float ops(2, 1), "ffF", alu2(Alu2Op::Sincos);
    78 Udiv "udiv" Int ops(2, 2), "iiII", alu2(Alu2Op::Udiv);
    79 Ult "ult" Int ops(1, 2), "iii", alu(AluOp::Ult);
    80 Uge "uge" Int ops(1, 2), "iii", alu(AluOp::Uge);
    81 Umul "umul" Int ops(2, 2), "iiII", alu2(Alu2Op::Umul);
    82 Umad "umad" Int ops(1, 3), "iIII", alu(AluOp::Imad);
    83 Umax "umax" Int ops(1, 2), "iII", alu(AluOp::Umax);
    84 Umin "umin" Int ops(1, 2), "iII", alu(AluOp::Umin);
    85 Ushr "ushr" Bits ops(1, 2), "iIi", alu(AluOp::Ushr);
    86 Utof "utof" IntToFloat ops(1, 1), "ii", alu(AluOp::Utof);
    87 Xor "xor" Bits ops(1, 2), "iII", alu(AluOp::Xor);
    88 DclResource "dcl_resource" Decl decl_ops(1), "", decl;
    89 DclConstantBuffer "dcl_constantbuffer" Decl decl_ops(1), "", decl;
    90 DclSampler "dcl_sampler" Decl decl_ops(1), "", decl;
    91 DclIndexRange "dcl_indexrange" Decl decl_ops(1), "", not_compute;
    92 DclGsOutputPrimitiveTopology "dcl_outputtopology" Decl RAW, "", not_compute;
    93 DclGsInputPrimitive "dcl_inputprimitive" Decl RAW, "", not_compute;
    94 DclMaxOutputVertexCount "dcl_maxout" Decl RAW, "", not_compute;
    95 DclInput "dcl_input" Decl decl_ops(1), "", decl;
    96 DclInputSgv "dcl_input_sgv" Decl decl_ops(1), "", not_compute;
    97 DclInputSiv "dcl_input_siv" Decl decl_ops(1), "", not_compute;
    98 DclInputPs "dcl_input_ps" Decl decl_ops(1), "", not_compute;
    99 DclInputPsSgv "dcl_input_ps_sgv" Decl decl_ops(1), "", not_compute;
    100 DclInputPsSiv "dcl_input_ps_siv" Decl decl_ops(1), "", not_compute;
    101 DclOutput "dcl_output" Decl decl_ops(1), "", not_compute;
    102 DclOutputSgv "dcl_output_sgv" Decl decl_ops(1), "", not_compute;
    103 DclOutputSiv "dcl_output_siv" Decl decl_ops(1), "", not_compute;
    104 DclTemps "dcl_temps" Decl RAW, "", decl;
    105 DclIndexableTemp "dcl_indexableTemp" Decl RAW, "", decl;
    106 DclGlobalFlags "dcl_globalFlags" Decl RAW, "", decl;
    107 Reserved107 "" Other RES, "", reserved;
    108 Lod "lod" Texture ops(1, 3), "ffff", not_compute;
    109 Gather4 "gather4" Texture ops(1, 3), "ffff", own;
    110 SamplePos "samplepos" Texture ops(1, 2), "iii", own;
    111 SampleInfo "sampleinfo" Texture ops(1, 1), "ii", own;
    112 Reserved112 "" Other RES, "", reserved;
    113 HsDecls "hs_decls" Other ops(0, 0), "", not_compute;
    114 HsControlPointPhase "hs_control_point_phase" Other ops(0, 0), "", not_compute;
    115 HsForkPhase "hs_fork_phase" Other ops(0, 0), "", not_compute;
    116 HsJoinPhase "hs_join_phase" Other ops(0, 0), "", not_compute;
    117 EmitStream "emit_stream" Other ops(0, 1), "i", not_compute;
    118 CutStream "cut_stream" Other ops(0, 1), "i", not_compute;
    119 EmitThenCutStream "emit_then_cut_stream" Other ops(0, 1), "i", not_compute;
    120 InterfaceCall "fcall" Flow Shape::CallSite, "i", own;
    121 Bufinfo "bufinfo" Memory ops(1, 1), "ii", own;
    122 DerivRtxCoarse "deriv_rtx_coarse" Float ops(1, 1), "fF", not_compute;
    123 DerivRtxFine "deriv_rtx_fine" Float ops(1, 1), "fF", not_compute;
    124 DerivRtyCoarse "deriv_rty_coarse" Float ops(1, 1), "fF", not_compute;
    125 DerivRtyFine "deriv_rty_fine" Float ops(1, 1), "fF", not_compute;
    126 Gather4C "gather4_c" Texture ops(1, 4), "fffff", own;
    127 Gather4Po "gather4_po" Texture ops(1, 4), "ffiff", own;
    128 Gather4PoC "gather4_po_c" Texture ops(1, 5), "ffifff", own;
    129 Rcp "rcp" Float ops(1, 1), "fF", alu(AluOp::Rcp);
    130 F32tof16 "f32tof16" FloatToInt ops(1, 1), "ff", alu(AluOp::F32tof16);
    131 F16tof32 "f16tof32" IntToFloat ops(1, 1), "ii", alu(AluOp::F16tof32);
    132 Uaddc "uaddc" Int ops(2, 2), "iiII", alu2(Alu2Op::Uaddc);
    133 Usubb "usubb" Int ops(2, 2), "iiII", alu2(Alu2Op::Usubb);
    134 Countbits "countbits" Bits ops(1, 1), "iI", alu(AluOp::Countbits);
    135 FirstbitHi "firstbit_hi" Bits ops(1, 1), "iI", alu(AluOp::FirstbitHi);
    136 FirstbitLo "firstbit_lo" Bits ops(1, 1), "iI", alu(AluOp::FirstbitLo);
    137 FirstbitShi "firstbit_shi" Bits ops(1, 1), "iI", alu(AluOp::FirstbitShi);
    138 Ubfe "ubfe" Bits ops(1, 3), "iIii", alu(AluOp::Ubfe);
    139 Ibfe "ibfe" Bits ops(1, 3), "iIii", alu(AluOp::Ibfe);
    140 Bfi "bfi" Bits ops(1, 4), "iIiii", alu(AluOp::Bfi);
    141 Bfrev "bfrev" Bits ops(1, 1), "iI", alu(AluOp::Bfrev);
    142 Swapc "swapc" Move ops(2, 3), "uuUUU", alu2(Alu2Op::Swapc);
    143 DclStream "dcl_stream" Decl decl_ops(1), "", not_compute;
    144 DclFunctionBody "dcl_function_body" Decl RAW, "", decl;
    145 DclFunctionTable "dcl_function_table" Decl RAW, "", decl;
    146 DclInterface "dcl_interface" Decl RAW, "", decl;
    147 DclInputControlPointCount "dcl_input_control_point_count" Decl RAW, "", not_compute;
    148 DclOutputControlPointCount "dcl_output_control_point_count" Decl RAW, "", not_compute;
    149 DclTessDomain "dcl_tessellator_domain" Decl RAW, "", not_compute;
    150 DclTessPartitioning "dcl_tessellator_partitioning" Decl RAW, "", not_compute;
    151 DclTessOutputPrimitive "dcl_tessellator_output_primitive" Decl RAW, "", not_compute;
    152 DclHsMaxTessFactor "dcl_hs_max_tessfactor" Decl RAW, "", not_compute;
    153 DclHsForkPhaseInstanceCount "dcl_hs_fork_phase_instance_count" Decl RAW, "", not_compute;
    154 DclHsJoinPhaseInstanceCount "dcl_hs_join_phase_instance_count" Decl RAW, "", not_compute;
    155 DclThreadGroup "dcl_thread_group" Decl RAW, "", decl;
    156 DclUavTyped "dcl_uav_typed" Decl decl_ops(1), "", decl;
    157 DclUavRaw "dcl_uav_raw" Decl decl_ops(1), "", decl;
    158 DclUavStructured "dcl_uav_structured" Decl decl_ops(1), "", decl;
    159 DclTgsmRaw "dcl_tgsm_raw" Decl decl_ops(1), "", decl;
    160 DclTgsmStructured "dcl_tgsm_structured" Decl decl_ops(1), "", decl;
    161 DclResourceRaw "dcl_resource_raw" Decl decl_ops(1), "", decl;
    162 DclResourceStructured "dcl_resource_structured" Decl decl_ops(1), "", decl;
    163 LdUavTyped "ld_uav_typed" Memory ops(1, 2), "iii", own;
    164 StoreUavTyped "store_uav_typed" Memory ops(1, 2), "uuu", own;
    165 LdRaw "ld_raw" Memory ops(1, 2), "iii", own;
    166 StoreRaw "store_raw" Memory ops(1, 2), "iiu", own;
    167 LdStructured "ld_structured" Memory ops(1, 3), "iiii", own;
    168 StoreStructured "store_structured" Memory ops(1, 3), "iiiu", own;
    169 AtomicAnd "atomic_and" Atomic ops(1, 2), "iii", own;
    170 AtomicOr "atomic_or" Atomic ops(1, 2), "iii", own;
    171 AtomicXor "atomic_xor" Atomic ops(1, 2), "iii", own;
    172 AtomicCmpStore "atomic_cmp_store" Atomic ops(1, 3), "iiii", own;
    173 AtomicIadd "atomic_iadd" Atomic ops(1, 2), "iii", own;
    174 AtomicImax "atomic_imax" Atomic ops(1, 2), "iii", own;
    175 AtomicImin "atomic_imin" Atomic ops(1, 2), "iii", own;
    176 AtomicUmax "atomic_umax" Atomic ops(1, 2), "iii", own;
    177 AtomicUmin "atomic_umin" Atomic ops(1, 2), "iii", own;
    178 ImmAtomicAlloc "imm_atomic_alloc" Atomic ops(2, 0), "ii", own;
    179 ImmAtomicConsume "imm_atomic_consume" Atomic ops(2, 0), "ii", own;
    180 ImmAtomicIadd "imm_atomic_iadd" Atomic ops(2, 2), "iiii", own;
    181 ImmAtomicAnd "imm_atomic_and" Atomic ops(2, 2), "iiii", own;
    182 ImmAtomicOr "imm_atomic_or" Atomic ops(2, 2), "iiii", own;
    183 ImmAtomicXor "imm_atomic_xor" Atomic ops(2, 2), "iiii", own;
    184 ImmAtomicExch "imm_atomic_exch" Atomic ops(2, 2), "iiii", own;
    185 ImmAtomicCmpExch "imm_atomic_cmp_exch" Atomic ops(2, 3), "iiiii", own;
    186 ImmAtomicImax "imm_atomic_imax" Atomic ops(2, 2), "iiii", own;
    187 ImmAtomicImin "imm_atomic_imin" Atomic ops(2, 2), "iiii", own;
    188 ImmAtomicUmax "imm_atomic_umax" Atomic ops(2, 2), "iiii", own;
    189 ImmAtomicUmin "imm_atomic_umin" Atomic ops(2, 2), "iiii", own;
    190 Sync "sync" Sync ops(0, 0), "", own;
    191 Dadd "dadd" Double ops(1, 2), "iII", double(DoubleOp::Add);
    192 Dmax "dmax" Double ops(1, 2), "iII", double(DoubleOp::Max);
    193 Dmin "dmin" Double ops(1, 2), "iII", double(DoubleOp::Min);
    194 Dmul "dmul" Double ops(1, 2), "iII", double(DoubleOp::Mul);
    195 Deq "deq" Double ops(1, 2), "iii", double(DoubleOp::Eq);
    196 Dge "dge" Double ops(1, 2), "iii", double(DoubleOp::Ge);
    197 Dlt "dlt" Double ops(1, 2), "iii", double(DoubleOp::Lt);
    198 Dne "dne" Double ops(1, 2), "iii", double(DoubleOp::Ne);
    199 Dmov "dmov" Double ops(1, 1), "uU", double(DoubleOp::Mov);
    200 Dmovc "dmovc" Double ops(1, 3), "uuUU", double(DoubleOp::Movc);
    201 Dtof "dtof" Double ops(1, 1), "ii", double(DoubleOp::ToF32);
    202 Ftod "ftod" Double ops(1, 1), "ii", double(DoubleOp::FromF32);
    203 EvalSnapped "eval_snapped" Other ops(1, 2), "iii", not_compute;
    204 EvalSampleIndex "eval_sample_index" Other ops(1, 2), "iii", not_compute;
    205 EvalCentroid "eval_centroid" Other ops(1, 1), "ii", not_compute;
    206 DclGsInstanceCount "dcl_gsinstances" Decl RAW, "", not_compute;
    207 Abort "abort" Other ops(0, 0), "", own;
    208 DebugBreak "debug_break" Other ops(0, 0), "", own;
    209 Reserved209 "" Other RES, "", reserved;
    210 Ddiv "ddiv" Double ops(1, 2), "iII", double(DoubleOp::Div);
    211 Dfma "dfma" Double ops(1, 3), "iIII", double(DoubleOp::Fma);
    212 Drcp "drcp" Double ops(1, 1), "iI", double(DoubleOp::Rcp);
    213 Msad "msad" Int ops(1, 3), "iIII", alu(AluOp::Msad);
    214 Dtoi "dtoi" Double ops(1, 1), "ii", double(DoubleOp::ToI32);
    215 Dtou "dtou" Double ops(1, 1), "ii", double(DoubleOp::ToU32);
    216 Itod "itod" Double ops(1, 1), "ii", double(DoubleOp::FromI32);
    217 Utod "utod" Double ops(1, 1), "ii", double(DoubleOp::FromU32);
    218 Reserved218 "" Other RES, "", reserved;
    219 Gather4Feedback "gather4_s" Texture ops(2, 3), "fffff", own;
    220 Gather4CFeedback "gather4_c_s" Texture ops(2, 4), "ffffff", own;
    221 Gather4PoFeedback "gather4_po_s" Texture ops(2, 4), "fffiff", own;
    222 Gather4PoCFeedback "gather4_po_c_s" Texture ops(2, 5), "fffifff", own;
    223 LdFeedback "ld_s" Texture ops(2, 2), "iiii", own;
    224 LdMsFeedback "ldms_s" Texture ops(2, 3), "iiiii", own;
    225 LdUavTypedFeedback "ld_uav_typed_s" Memory ops(2, 2), "iiii", own;
    226 LdRawFeedback "ld_raw_s" Memory ops(2, 2), "iiii", own;
    227 LdStructuredFeedback "ld_structured_s" Memory ops(2, 3), "iiiii", own;
    228 SampleLFeedback "sample_l_s" Texture ops(2, 4), "ffffff", own;
    229 SampleCLzFeedback "sample_c_lz_s" Texture ops(2, 4), "ffffff", own;
    230 SampleClampFeedback "sample_cl_s" Texture ops(2, 4), "ffffff", not_compute;
    231 SampleBClampFeedback "sample_b_cl_s" Texture ops(2, 5), "fffffff", not_compute;
    232 SampleDClampFeedback "sample_d_cl_s" Texture ops(2, 6), "ffffffff", not_compute;
    233 SampleCClampFeedback "sample_c_cl_s" Texture ops(2, 5), "fffffff", not_compute;
    234 CheckAccessFullyMapped "check_access_fully_mapped" Other ops(1, 1), "ii", own;
    235 Reserved235 "" Other RES, "", reserved;
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

    /// The type of operand `k` (destinations first), from the row's
    /// `operand_types`; past them (a declaration's operands), by class:
    /// float for float arithmetic, conversions from float and textures,
    /// integer otherwise.
    pub fn operand_type(self, k: usize) -> OperandDataType {
        let row = self.info();
        match row
            .operand_types
            .as_bytes()
            .get(k)
            .map(u8::to_ascii_lowercase)
        {
            Some(b'f') => OperandDataType::Float,
            Some(b'u') => OperandDataType::Untyped,
            Some(_) => OperandDataType::Int,
            None => match row.class {
                Class::Float | Class::FloatToInt | Class::Texture => OperandDataType::Float,
                _ => OperandDataType::Int,
            },
        }
    }

    /// Whether source operand `k` is read at the first destination's
    /// minimum precision, so that Microsoft's disassembler prints a
    /// precision that differs from it as `{own as destination}` (an upper
    /// case letter in the row's `operand_types`). From fxc's listings
    /// (`tests/front_end/min_precision_*.asm`): the sources of float,
    /// integer, bitwise, move and double arithmetic follow, except
    /// comparisons, conversions, a `movc`'s condition, shift counts, and
    /// the bit-field operations' operands after the width.
    pub fn follows_destination_precision(self, k: usize) -> bool {
        self.info()
            .operand_types
            .as_bytes()
            .get(k)
            .is_some_and(u8::is_ascii_uppercase)
    }
}

/// Single-destination (component-wise) ALU operations: the lowering
/// targets of [`Sem::Alu`] rows. Each has its lane function, with its
/// static facts, in `crate::isa::lanes` (`for_each_lane_op!`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum AluOp {
    // float
    Add,
    Mul,
    Mad,
    Div,
    Dp2,
    Dp3,
    Dp4,
    Min,
    Max,
    Exp,
    Log,
    Frc,
    RoundNe,
    RoundNi,
    RoundPi,
    RoundZ,
    Rcp,
    Rsq,
    Sqrt,
    Eq,
    Ne,
    Lt,
    Ge,
    Mov,
    Movc,
    // integer
    Iadd,
    Imad,
    Imax,
    Imin,
    Umax,
    Umin,
    Ineg,
    Ieq,
    Ine,
    Ilt,
    Ige,
    Ult,
    Uge,
    Msad,
    // bits
    And,
    Or,
    Xor,
    Not,
    Ishl,
    Ishr,
    Ushr,
    Ubfe,
    Ibfe,
    Bfi,
    Bfrev,
    Countbits,
    FirstbitHi,
    FirstbitLo,
    FirstbitShi,
    // conversions
    Ftoi,
    Ftou,
    Itof,
    Utof,
    F16tof32,
    F32tof16,
}

/// Double-precision operations, the lowering targets of [`Sem::Double`]
/// rows (FS §22.14–§22.17; `sm5-compute-isa.md` §8).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum DoubleOp {
    Add,
    Mul,
    Min,
    Max,
    Div,
    Fma,
    Rcp,
    Mov,
    Movc,
    Eq,
    Ge,
    Lt,
    Ne,
    ToF32,
    ToI32,
    ToU32,
    FromF32,
    FromI32,
    FromU32,
}

/// Two-destination ALU operations: the lowering targets of [`Sem::Alu2`] rows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Alu2Op {
    Imul,
    Umul,
    Udiv,
    Uaddc,
    Usubb,
    Sincos,
    Swapc,
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

    /// Every row's semantics fit its row, and the rows not executed are
    /// exactly those a compute shader may not contain.
    #[test]
    fn every_row_has_semantics_that_fit_it() {
        let mut not_executed = Vec::new();
        for row in OPCODE_TABLE {
            let dsts = match row.shape {
                Shape::Ops { dsts, .. } => dsts,
                _ => 0,
            };
            match row.sem {
                Sem::Alu(_) | Sem::Double(_) => assert_eq!(dsts, 1, "{:?}", row.opcode),
                Sem::Alu2(_) => assert_eq!(dsts, 2, "{:?}", row.opcode),
                Sem::Decl => assert_eq!(row.class, Class::Decl, "{:?}", row.opcode),
                Sem::Own => assert_ne!(row.class, Class::Decl, "{:?}", row.opcode),
                Sem::NotCompute | Sem::Reserved => not_executed.push(row.opcode),
            }
            if let Sem::Alu(_) | Sem::Double(_) | Sem::Alu2(_) = row.sem {
                assert!(
                    matches!(
                        row.class,
                        Class::Float
                            | Class::Move
                            | Class::Int
                            | Class::Bits
                            | Class::FloatToInt
                            | Class::IntToFloat
                            | Class::Double
                    ),
                    "{:?}",
                    row.opcode
                );
            }
        }
        let refused: Vec<Opcode> = OPCODE_TABLE
            .iter()
            .filter(|r| !r.compute)
            .map(|r| r.opcode)
            .collect();
        assert_eq!(not_executed, refused);
        // the instructions of other stages, the reserved numbers
        assert_eq!(not_executed.len(), 55);
    }

    /// One letter per operand, destinations first; upper case (a source
    /// read at the destination's precision) only on sources.
    #[test]
    fn every_row_types_each_of_its_operands() {
        for row in OPCODE_TABLE {
            let (dsts, n) = match row.shape {
                Shape::Ops { dsts, srcs } => (dsts as usize, (dsts + srcs) as usize),
                Shape::CallSite => (0, 1),
                _ => (0, 0),
            };
            let types = row.operand_types.as_bytes();
            assert_eq!(types.len(), n, "{:?}", row.opcode);
            for (k, t) in types.iter().enumerate() {
                assert!(b"fiuFIU".contains(t), "{:?}", row.opcode);
                assert!(k >= dsts || t.is_ascii_lowercase(), "{:?}", row.opcode);
            }
        }
        use OperandDataType as T;
        assert_eq!(Opcode::Movc.operand_type(1), T::Int);
        assert_eq!(Opcode::Movc.operand_type(2), T::Untyped);
        assert_eq!(Opcode::StoreStructured.operand_type(3), T::Untyped);
        assert_eq!(Opcode::Add.operand_type(2), T::Float);
        assert!(Opcode::Add.follows_destination_precision(1));
        assert!(!Opcode::Ishl.follows_destination_precision(2));
        assert!(!Opcode::Lt.follows_destination_precision(1));
    }

    /// The profile column: SM4.0 rows, the SM4.1 additions, the compute
    /// rows cs_4_x has, and spot checks of what it has not.
    #[test]
    fn every_row_knows_its_lowest_compute_profile() {
        use Opcode as O;
        for row in OPCODE_TABLE {
            assert_eq!(row.min_model, min_compute_model(row.opcode as u16));
        }
        for o in [
            O::Add,
            O::Imul,
            O::Udiv,
            O::Ld,
            O::LdMs,
            O::Resinfo,
            O::SampleL,
        ] {
            assert_eq!(o.info().min_model, (4, 0), "{o:?}");
        }
        for o in [O::Gather4, O::SampleInfo, O::SamplePos, O::Lod] {
            assert_eq!(o.info().min_model, (4, 1), "{o:?}");
        }
        for o in [
            O::DclThreadGroup,
            O::DclUavRaw,
            O::DclUavStructured,
            O::DclTgsmStructured,
            O::DclResourceRaw,
            O::DclResourceStructured,
            O::LdRaw,
            O::StoreRaw,
            O::LdStructured,
            O::StoreStructured,
            O::Sync,
        ] {
            assert_eq!(o.info().min_model, (4, 0), "{o:?}");
        }
        for o in [
            O::Countbits,
            O::FirstbitHi,
            O::Bfi,
            O::Ubfe,
            O::Ibfe,
            O::Bfrev,
            O::Rcp,
            O::F32tof16,
            O::F16tof32,
            O::Swapc,
            O::Msad,
            O::Bufinfo,
            O::Gather4C,
            O::Gather4Po,
            O::DclUavTyped,
            O::LdUavTyped,
            O::StoreUavTyped,
            O::DclTgsmRaw,
            O::AtomicIadd,
            O::ImmAtomicAlloc,
            O::ImmAtomicConsume,
            O::Dadd,
            O::Dtoi,
            O::InterfaceCall,
            O::DclInterface,
            O::Abort,
            O::LdRawFeedback,
        ] {
            assert_eq!(o.info().min_model, (5, 0), "{o:?}");
        }
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
