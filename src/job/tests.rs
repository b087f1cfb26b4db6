use super::*;
use crate::job::resources::f32_close;

#[test]
fn splitmix_matches_the_reference_sequence() {
    // First outputs of SplitMix64 seeded with 0 (Vigna's reference code):
    // 0xe220a8397b1dcdaf, 0x6e789e6aa1b965f4, 0x06c45d188009454f.
    let mut g = SplitMix64::new(0);
    assert_eq!(g.next_u32(), 0xe220a839);
    assert_eq!(g.next_u32(), 0x6e789e6a);
    assert_eq!(g.next_u32(), 0x06c45d18);
}

#[test]
fn random_ranges_are_inclusive_and_bounded() {
    let v = random_u32_words(7, 10, 12, 1000);
    assert!(v.iter().all(|&x| (10..=12).contains(&x)));
    assert!(v.contains(&10) && v.contains(&12));
    let f = random_f32_words(1, -1.0, 1.0, 1000);
    assert!(f.iter().all(|&x| (-1.0..1.0).contains(&f32::from_bits(x))));
    assert_eq!(random_u32_words(3, 0, u32::MAX, 4), {
        let mut g = SplitMix64::new(3);
        (0..4).map(|_| g.next_u32()).collect::<Vec<_>>()
    });
}

#[test]
fn ulp_distance_crosses_zero() {
    assert!(f32_close(0x8000_0000, 0, 0, None));
    assert!(f32_close(1.0f32.to_bits(), 1.0f32.to_bits() + 2, 2, None));
    assert!(!f32_close(1.0f32.to_bits(), 1.0f32.to_bits() + 3, 2, None));
    assert!(f32_close(1.0f32.to_bits(), 1.1f32.to_bits(), 0, Some(0.2)));
}

#[test]
fn slots_parse() {
    assert_eq!(
        parse_slot("u3"),
        Some(Slot {
            kind: SlotKind::Uav,
            index: 3
        })
    );
    assert_eq!(
        parse_slot("b1"),
        Some(Slot {
            kind: SlotKind::ConstantBuffer,
            index: 1
        })
    );
    assert_eq!(
        parse_slot("CB0"),
        Some(Slot {
            kind: SlotKind::ConstantBuffer,
            index: 0
        })
    );
    assert_eq!(parse_slot("x1"), None);
    assert_eq!(parse_slot("t"), None);
}
