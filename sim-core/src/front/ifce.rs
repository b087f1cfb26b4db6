//! The `IFCE` chunk: class linkage's class types, class instances and
//! interface slots, which fxc's listing shows as "Available Class Types",
//! "Available Class Instances" and "Interface slots". A D3D11 runtime maps
//! the class instance bound to an interface slot to a function table with
//! it: the slot's record lists, for each class type ID it takes, the
//! table (`ft#`) to call through.
//!
//! Layout (little-endian words; offsets from the chunk's start), decoded
//! from fxc 10.1 output and checked against its listings
//! (`tests/conformance/class_linkage/`, `d3d11/tests/shaders/`):
//! - header: instance count, type count, slot-record count, slot count,
//!   instance-records offset, type-records offset, slot-records offset, and
//!   two words of 0;
//! - a type record (12 bytes): name offset, u16 0, u16 constant-buffer
//!   stride, u16 texture count, u16 sampler count; a type's ID is its index;
//! - an instance record (16 bytes): name offset, u16 type ID, u16 1, u16
//!   constant buffer, u16 offset in it, u16 texture, u16 sampler (0xFFFF:
//!   none);
//! - a slot record (16 bytes): the slots it covers (an interface array
//!   covers several), its type count, the offset of that many u16 type IDs
//!   and the offset of as many u32 table numbers.
//!
//! Every read is bounds-checked: a malformed chunk is an error, not a panic.

/// A class type (its ID is its index in [`ClassLinkage::types`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClassType {
    /// its HLSL name
    pub name: String,
    /// its data's size in 16-byte constants
    pub cb_stride: u16,
}

/// A class instance the shader declares (one with data in a cbuffer).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClassInstance {
    /// its HLSL name
    pub name: String,
    /// its class type's ID
    pub type_id: u16,
}

/// Interface slots `first .. first + count` (one HLSL interface variable or
/// array) and the function table each class type calls through there.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SlotRange {
    /// its first interface slot
    pub first: u32,
    /// how many slots it covers
    pub count: u32,
    /// (class type ID, function table `ft#`) pairs
    pub tables: Vec<(u16, u32)>,
}

/// What an `IFCE` chunk says.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ClassLinkage {
    /// class types, by ID
    pub types: Vec<ClassType>,
    /// class instances the shader declares
    pub instances: Vec<ClassInstance>,
    /// interface slots in order
    pub slots: Vec<SlotRange>,
}

fn word(d: &[u8], at: usize) -> Result<u32, String> {
    d.get(at..at + 4)
        .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
        .ok_or_else(|| format!("IFCE: byte {at} is past the chunk's {} bytes", d.len()))
}

fn half(d: &[u8], at: usize) -> Result<u16, String> {
    d.get(at..at + 2)
        .map(|b| u16::from_le_bytes([b[0], b[1]]))
        .ok_or_else(|| format!("IFCE: byte {at} is past the chunk's {} bytes", d.len()))
}

fn name(d: &[u8], at: u32) -> Result<String, String> {
    let rest = d
        .get(at as usize..)
        .ok_or_else(|| format!("IFCE: a name at byte {at} is past the chunk"))?;
    let end = rest
        .iter()
        .position(|&c| c == 0)
        .ok_or_else(|| format!("IFCE: the name at byte {at} has no end"))?;
    Ok(String::from_utf8_lossy(&rest[..end]).into_owned())
}

/// The most records a chunk may declare of each kind (fxc's limits are far
/// below: 253 class types).
const MAX_RECORDS: u32 = 4096;

impl ClassLinkage {
    /// Read an `IFCE` chunk's data.
    ///
    /// # Errors
    /// A message naming the byte that is out of the chunk or the count that
    /// is too large.
    pub fn parse(d: &[u8]) -> Result<ClassLinkage, String> {
        let count = |i: usize| -> Result<u32, String> {
            let n = word(d, i * 4)?;
            if n > MAX_RECORDS {
                return Err(format!("IFCE: {n} records in header word {i}"));
            }
            Ok(n)
        };
        let (instances, types, records) = (count(0)?, count(1)?, count(2)?);
        let (instance_at, type_at, slot_at) = (word(d, 16)?, word(d, 20)?, word(d, 24)?);
        let mut out = ClassLinkage::default();
        for i in 0..types as usize {
            let at = type_at as usize + 12 * i;
            out.types.push(ClassType {
                name: name(d, word(d, at)?)?,
                cb_stride: half(d, at + 6)?,
            });
        }
        for i in 0..instances as usize {
            let at = instance_at as usize + 16 * i;
            out.instances.push(ClassInstance {
                name: name(d, word(d, at)?)?,
                type_id: half(d, at + 4)?,
            });
        }
        let mut first = 0u32;
        for i in 0..records as usize {
            let at = slot_at as usize + 16 * i;
            let (span, n) = (word(d, at)?, word(d, at + 4)?);
            if n > MAX_RECORDS || span > MAX_RECORDS {
                return Err(format!(
                    "IFCE: slot record {i} has {span} slots and {n} types"
                ));
            }
            let (ids, tables) = (word(d, at + 8)? as usize, word(d, at + 12)? as usize);
            let mut pairs = Vec::with_capacity(n as usize);
            for k in 0..n as usize {
                pairs.push((half(d, ids + 2 * k)?, word(d, tables + 4 * k)?));
            }
            out.slots.push(SlotRange {
                first,
                count: span,
                tables: pairs,
            });
            first += span;
        }
        Ok(out)
    }

    /// The function table interface slot `slot` calls through for an
    /// instance of the class type called `type_name`; None when the slot
    /// does not take that type.
    pub fn table_for(&self, slot: u32, type_name: &str) -> Option<u32> {
        let id = self.types.iter().position(|t| t.name == type_name)? as u16;
        let range = self
            .slots
            .iter()
            .find(|r| (r.first..r.first + r.count).contains(&slot))?;
        range.tables.iter().find(|(t, _)| *t == id).map(|p| p.1)
    }

    /// How many interface slots there are.
    pub fn slot_count(&self) -> u32 {
        self.slots.iter().map(|r| r.count).sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::front::container::{ChecksumPolicy, Container};

    #[test]
    fn slots_map_class_types_to_function_tables() {
        let bytes = std::fs::read("../tests/conformance/class_linkage/class_linkage.dxbc").unwrap();
        let c = Container::parse(&bytes, ChecksumPolicy::Verify).unwrap();
        let l = ClassLinkage::parse(c.chunk(b"IFCE").unwrap().data).unwrap();
        // the listing: Plus7 ID 0, Twice ID 1; slot 0 takes type 0 through
        // table 0 and type 1 through table 1
        let names: Vec<_> = l.types.iter().map(|t| t.name.as_str()).collect();
        assert_eq!(names, ["Plus7", "Twice"]);
        assert_eq!(l.slot_count(), 1);
        assert_eq!(l.table_for(0, "Twice"), Some(1));
        assert_eq!(l.table_for(0, "Plus7"), Some(0));
        assert_eq!(l.table_for(1, "Twice"), None);
        assert_eq!(l.table_for(0, "Nothing"), None);
        // d3d11/tests/shaders/classes.hlsl: op (slot 0) and sc[2] (slots 1-2)
        let bytes = std::fs::read("../d3d11/tests/shaders/classes.dxbc").unwrap();
        let c2 = Container::parse(&bytes, ChecksumPolicy::Verify).unwrap();
        let l2 = ClassLinkage::parse(c2.chunk(b"IFCE").unwrap().data).unwrap();
        assert_eq!(l2.slot_count(), 3);
        assert_eq!((l2.slots[1].first, l2.slots[1].count), (1, 2));
        assert_eq!(l2.table_for(0, "Plus7"), Some(0));
        assert_eq!(l2.table_for(2, "Times3"), Some(3));
        assert_eq!(l2.table_for(1, "Twice"), None);
        // every prefix of the chunk is an error or a linkage, never a panic
        let data = c.chunk(b"IFCE").unwrap().data;
        for n in 0..data.len() {
            let _ = ClassLinkage::parse(&data[..n]);
        }
    }
}
