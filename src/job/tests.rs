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

/// Each kind `step_kinds!` declares is read by serde into the variant of
/// that key, refuses a payload of the wrong shape with the kind's own
/// message at `steps[i].KIND`, and a table of no kind or two names them all.
#[test]
fn every_step_kind_reads_by_its_key() {
    use crate::job::schema::{StepKind, StepSpec};
    assert_eq!(StepKind::KEYS.len(), 7);
    for &k in StepKind::KEYS {
        let good: toml::Table = if k == "dispatch" {
            toml::from_str("dispatch = [1, 2, 3]").unwrap()
        } else {
            toml::from_str(&format!("{k} = {{ resource = \"x\" }}")).unwrap()
        };
        let spec = StepSpec::read(4, &good, false).unwrap();
        assert_eq!(spec.kind.key(), k);
        assert_eq!(spec.key, "steps[4]");

        let bad: toml::Table = toml::from_str(&format!("{k} = \"oops\"")).unwrap();
        let (key, message) = StepSpec::read(4, &bad, false).unwrap_err();
        assert_eq!(key, format!("steps[4].{k}"));
        assert!(message.starts_with("expected "), "{k}: {message}");
    }
    let two: toml::Table = toml::from_str("set = {}\nexpect = {}").unwrap();
    let (key, message) = StepSpec::read(0, &two, false).unwrap_err();
    assert_eq!(key, "steps[0]");
    assert!(
        message.contains("exactly one of dispatch, dispatch_indirect, set, expect")
            && message.contains("(found: set, expect)")
            || message.contains("(found: expect, set)"),
        "{message}"
    );
    let beside: toml::Table = toml::from_str("dispatch = [1, 1, 1]\nshader = \"a\"").unwrap();
    assert_eq!(
        StepSpec::read(0, &beside, false).unwrap_err().0,
        "steps[0].shader"
    );
    assert!(StepSpec::read(0, &beside, true).is_ok());
}
