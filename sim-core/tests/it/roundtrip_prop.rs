//! Property: decode(encode(ir)) == ir over generated instructions — every
//! operand form the format has (0–3-dimensional indices, immediate and
//! relative indices, mask / swizzle / select-1, modifiers, minimum precision,
//! 32- and 64-bit immediates) and extended opcode tokens
//! (`reference/dxbc-format.md` §3, §5).

use proptest::prelude::*;
use sim_core::front::decode::decode_program;
use sim_core::front::encode::encode_program;
use sim_core::ir::*;
use sim_core::isa::opcodes::{Class, Shape, OPCODE_TABLE};

fn selection_4() -> impl Strategy<Value = Components> {
    prop_oneof![
        (1u8..16).prop_map(|m| Components::Four(Selection::Mask(m))),
        prop::array::uniform4(0u8..4).prop_map(|s| Components::Four(Selection::Swizzle(s))),
        (0u8..4).prop_map(|c| Components::Four(Selection::Select1(c))),
    ]
}

fn modifier() -> impl Strategy<Value = Modifier> {
    prop_oneof![
        Just(Modifier::None),
        Just(Modifier::Neg),
        Just(Modifier::Abs),
        Just(Modifier::AbsNeg)
    ]
}

fn plain(ty: OperandType, components: Components, indices: Vec<Index>) -> Operand {
    Operand {
        ty,
        components,
        indices,
        modifier: Modifier::None,
        min_precision: 0,
        non_uniform: false,
        imm: vec![],
    }
}

/// A relative-index register: `r#.c` (select-1), or `x#[n].c`.
fn rel_operand() -> impl Strategy<Value = Operand> {
    prop_oneof![
        (0u32..64, 0u8..4).prop_map(|(r, c)| plain(
            OperandType::Temp,
            Components::Four(Selection::Select1(c)),
            vec![Index {
                imm: r as u64,
                rel: None
            }]
        )),
        (0u32..4, 0u32..16, 0u8..4).prop_map(|(x, e, c)| plain(
            OperandType::IndexableTemp,
            Components::Four(Selection::Select1(c)),
            vec![
                Index {
                    imm: x as u64,
                    rel: None
                },
                Index {
                    imm: e as u64,
                    rel: None
                }
            ]
        )),
    ]
}

fn index() -> impl Strategy<Value = Index> {
    prop_oneof![
        any::<u32>().prop_map(|i| Index {
            imm: i as u64,
            rel: None
        }),
        // 64-bit immediates above u32::MAX (IMMEDIATE64 representation)
        (1u64 << 32..u64::MAX).prop_map(|i| Index { imm: i, rel: None }),
        (any::<u32>(), rel_operand()).prop_map(|(i, r)| Index {
            imm: i as u64,
            rel: Some(Box::new(r))
        }),
    ]
}

fn operand() -> impl Strategy<Value = Operand> {
    let ty = prop::sample::select(vec![
        OperandType::Temp,
        OperandType::IndexableTemp,
        OperandType::ConstantBuffer,
        OperandType::ImmediateConstantBuffer,
        OperandType::Resource,
        OperandType::UnorderedAccessView,
        OperandType::ThreadGroupSharedMemory,
        OperandType::InputThreadId,
        OperandType::InputThreadIdInGroupFlattened,
        OperandType::Null,
    ]);
    let register = (
        ty,
        selection_4(),
        prop::collection::vec(index(), 0..=3),
        modifier(),
        prop::sample::select(vec![0u8, 1, 2, 4, 5]),
        any::<bool>(),
    )
        .prop_map(
            |(ty, components, indices, modifier, min_precision, non_uniform)| Operand {
                ty,
                components,
                indices,
                modifier,
                min_precision,
                non_uniform,
                imm: vec![],
            },
        );
    let imm32 = prop_oneof![
        any::<u32>().prop_map(|v| (Components::One, vec![v])),
        prop::array::uniform4(any::<u32>()).prop_map(|v| (
            Components::Four(Selection::Swizzle([0, 1, 2, 3])),
            v.to_vec()
        )),
    ]
    .prop_map(|(components, imm)| Operand {
        imm,
        ..plain(OperandType::Immediate32, components, vec![])
    });
    let imm64 = prop::array::uniform4(any::<u32>()).prop_map(|v| Operand {
        imm: v.to_vec(),
        ..plain(
            OperandType::Immediate64,
            Components::Four(Selection::Swizzle([0, 1, 2, 3])),
            vec![],
        )
    });
    prop_oneof![6 => register, 2 => imm32, 1 => imm64]
}

/// An instruction of any non-declaration row with the table's operand count.
fn instruction() -> impl Strategy<Value = Instruction> {
    let rows: Vec<_> = OPCODE_TABLE
        .iter()
        .filter(|r| matches!(r.shape, Shape::Ops { .. }) && r.class != Class::Decl)
        .collect();
    (
        prop::sample::select(rows),
        0u32..0x1000,
        any::<Option<(u32, u32)>>(),
        prop::option::of(prop::array::uniform3(-8i8..8)),
        prop::option::of(prop::array::uniform4(0u8..16)),
    )
        .prop_flat_map(|(row, controls, dim, offsets, types)| {
            let Shape::Ops { dsts, srcs } = row.shape else {
                unreachable!()
            };
            let n = (dsts + srcs) as usize;
            prop::collection::vec(operand(), n).prop_map(move |operands| Instruction {
                offset: 0,
                opcode: row.opcode,
                // controls in [23:11]; length bits nonzero so the encoder uses the short form
                token: row.opcode as u32 | (controls & 0xfff) << 11 | 1 << 24,
                extended: ExtendedOpcode {
                    sample_offsets: offsets,
                    resource_dim: dim.map(|(d, s)| (d % 13, s % 4096)),
                    return_types: types,
                },
                operands,
                raw: vec![],
            })
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    #[test]
    fn decode_of_encode_is_identity(instructions in prop::collection::vec(instruction(), 1..6)) {
        let program = DecodedProgram {
            version: ShaderVersion { program_type: ProgramType::Compute, major: 5, minor: 0 },
            instructions,
        };
        let words = encode_program(&program).expect("every generated instruction encodes");
        let back = decode_program(&words).expect("what we encode decodes");
        prop_assert_eq!(back.version, program.version);
        prop_assert_eq!(back.instructions.len(), program.instructions.len());
        for (a, b) in program.instructions.iter().zip(&back.instructions) {
            prop_assert_eq!(a.opcode, b.opcode);
            prop_assert_eq!(a.controls(), b.controls());
            prop_assert_eq!(&a.extended, &b.extended);
            prop_assert_eq!(&a.operands, &b.operands);
            prop_assert_eq!(&a.raw, &b.raw);
        }
        // and encoding the decoded program gives the same words again
        prop_assert_eq!(encode_program(&back).unwrap(), words);
    }
}
