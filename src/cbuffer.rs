//! `fields = { … }` for constant buffers: each value placed as HLSL packs
//! the variable, from the offsets, sizes and types of the shader's RDEF
//! (`sim_core::front::rdef::CbufferDesc`).
//!
//! HLSL's packing rules for constant buffers ("Packing Rules for Constant
//! Variables" in Microsoft's HLSL reference):
//! - a buffer is a sequence of 16-byte registers; a variable never straddles
//!   a register boundary unless it is larger than what is left of it;
//! - each element of an array starts a new register, the last one is not
//!   padded: `float w[3]` is 36 bytes (`c0.x`, `c1.x`, `c2.x`), and a
//!   `float3` declared after it packs into the spare 12 bytes of `c2`;
//! - a struct starts a register; its members are placed by the same rules
//!   (RDEF gives each member's offset); an array of structs steps by the
//!   struct's size rounded up to 16 bytes;
//! - a matrix is one register per row when `row_major`, one per column
//!   when `column_major` (HLSL's default); an array of matrices steps by
//!   whole registers.
//!
//! Value forms (the HLSL shape, never the storage order): a number (or a
//! boolean) for a scalar; a list of N numbers for an N-component vector; a
//! list of rows, each a list of numbers, for a matrix (`m = [[m11, m12],
//! [m21, m22]]`, as written in HLSL whatever its majorness); a table of
//! members for a struct; a list of elements for an array. Integers go into
//! float variables as floats; floats go into float variables only. A value
//! of the wrong shape or out of range is a [`FieldError`] naming its path
//! (`w[1]`, `lights[0].ids`) and what was expected.

use sim_core::front::rdef::{CbufferDesc, TypeDesc};

/// A `fields` value that does not fit its variable.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FieldError {
    /// The value's path below `fields`: `w`, `w[1]`, `light.pos`.
    pub path: String,
    /// What was expected and what was given.
    pub message: String,
}

impl FieldError {
    fn new(path: &str, message: impl Into<String>) -> Self {
        FieldError {
            path: path.to_string(),
            message: message.into(),
        }
    }
}

// D3D_SHADER_VARIABLE_CLASS
const CLASS_SCALAR: u16 = 0;
const CLASS_VECTOR: u16 = 1;
const CLASS_MATRIX_ROWS: u16 = 2;
const CLASS_MATRIX_COLUMNS: u16 = 3;
const CLASS_STRUCT: u16 = 5;

/// What one component of a variable holds (D3D_SHADER_VARIABLE_TYPE).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Base {
    Bool,
    Int,
    Uint,
    Float,
    Double,
}

fn base_of(ty: &TypeDesc) -> Option<Base> {
    Some(match ty.base_type {
        1 => Base::Bool,
        // int, min16int, min12int: 32 bits in a constant buffer
        2 | 52 | 53 => Base::Int,
        // uint, min16uint
        19 | 54 => Base::Uint,
        // float, min16float, min10float
        3 | 50 | 51 => Base::Float,
        39 => Base::Double,
        _ => return None,
    })
}

/// The HLSL spelling of `ty` for messages: `float3`, `row_major float2x3`,
/// `struct Light`.
fn describe(ty: &TypeDesc) -> String {
    match ty.class {
        CLASS_STRUCT => format!("struct {}", ty.name),
        CLASS_MATRIX_ROWS => format!("row_major {}", ty.hlsl_name()),
        CLASS_MATRIX_COLUMNS => format!("column_major {}", ty.hlsl_name()),
        _ => ty.hlsl_name(),
    }
}

/// `ty` without its array dimension.
fn element_of(ty: &TypeDesc) -> TypeDesc {
    TypeDesc {
        elements: 0,
        ..ty.clone()
    }
}

/// The bytes `ty` takes by HLSL's packing, the last register not padded.
fn packed_size(ty: &TypeDesc) -> Option<u64> {
    if ty.elements > 0 {
        let one = packed_size(&element_of(ty))?;
        return Some((u64::from(ty.elements) - 1) * one.next_multiple_of(16) + one);
    }
    let comp = if base_of(ty) == Some(Base::Double) {
        8
    } else {
        4
    };
    let (rows, cols) = (u64::from(ty.rows), u64::from(ty.columns));
    match ty.class {
        CLASS_SCALAR => Some(comp),
        CLASS_VECTOR => Some(comp * cols),
        CLASS_MATRIX_ROWS => Some((rows.checked_sub(1)?) * 16 + cols * comp),
        CLASS_MATRIX_COLUMNS => Some((cols.checked_sub(1)?) * 16 + rows * comp),
        CLASS_STRUCT => ty
            .members
            .iter()
            .map(|(_, off, m)| packed_size(m).map(|s| u64::from(*off) + s))
            .try_fold(0u64, |acc, s| s.map(|s| acc.max(s))),
        _ => None,
    }
}

/// The words of constant buffer `cb` (`n` 32-bit words, zero where no
/// field is given) with `fields` placed.
///
/// # Errors
/// A [`FieldError`] at the first field that names no variable of `cb`, or
/// whose value does not have the variable's shape or range, or lies past the
/// `n` words; also for a variable whose type cannot be placed (objects,
/// double matrices) or whose RDEF size disagrees with the packing rules.
pub fn pack_fields(
    fields: &toml::Table,
    cb: &CbufferDesc,
    n: usize,
) -> Result<Vec<u32>, FieldError> {
    pack_fields_over(fields, cb, vec![0u32; n])
}

/// [`pack_fields`] over the buffer's current `words`: the variables named
/// in `fields` are placed, every other word (variables not given, padding)
/// keeps its value, as an `UpdateSubresource` of those variables' bytes
/// would leave it.
///
/// # Errors
/// As [`pack_fields`], with `n` the length of `words`.
pub fn pack_fields_over(
    fields: &toml::Table,
    cb: &CbufferDesc,
    mut words: Vec<u32>,
) -> Result<Vec<u32>, FieldError> {
    for (name, value) in fields {
        let var = cb
            .variables
            .iter()
            .find(|v| &v.name == name)
            .ok_or_else(|| {
                let known: Vec<_> = cb.variables.iter().map(|v| v.name.as_str()).collect();
                FieldError::new(
                    name,
                    format!(
                        "cbuffer {} has no variable '{}' (it has: {})",
                        cb.name,
                        crate::api::clip(name),
                        known.join(", ")
                    ),
                )
            })?;
        let what = format!("{} {name}{}", describe(&element_of(&var.ty)), dims(&var.ty));
        match packed_size(&var.ty) {
            Some(s) if s == u64::from(var.size) => {}
            Some(s) => {
                return Err(FieldError::new(
                    name,
                    format!(
                        "cannot place {what}: RDEF gives it {} bytes, HLSL's packing {s}",
                        var.size
                    ),
                ))
            }
            None => {
                return Err(FieldError::new(
                    name,
                    format!("{what}: variables of this type cannot be set through fields"),
                ))
            }
        }
        if var.offset % 4 != 0 {
            return Err(FieldError::new(
                name,
                format!(
                    "cannot place {what}: RDEF puts it at byte {}, not on a 32-bit word",
                    var.offset
                ),
            ));
        }
        place(&var.ty, u64::from(var.offset), value, name, &mut words)?;
    }
    Ok(words)
}

/// `[3]` for an array of 3, else nothing.
fn dims(ty: &TypeDesc) -> String {
    if ty.elements > 0 {
        format!("[{}]", ty.elements)
    } else {
        String::new()
    }
}

/// Place `value` as a `ty` at byte `offset`.
fn place(
    ty: &TypeDesc,
    offset: u64,
    value: &toml::Value,
    path: &str,
    words: &mut [u32],
) -> Result<(), FieldError> {
    if ty.elements > 0 {
        let elem = element_of(ty);
        let stride = packed_size(&elem).unwrap_or(16).next_multiple_of(16);
        let items = list(value, usize::from(ty.elements), path, || {
            format!(
                "{} elements of {} (an array: one element per 16-byte register)",
                ty.elements,
                describe(&elem)
            )
        })?;
        for (k, item) in items.iter().enumerate() {
            place(
                &elem,
                offset + k as u64 * stride,
                item,
                &format!("{path}[{k}]"),
                words,
            )?;
        }
        return Ok(());
    }
    let (rows, cols) = (usize::from(ty.rows), usize::from(ty.columns));
    match ty.class {
        CLASS_STRUCT => {
            let toml::Value::Table(t) = value else {
                return Err(FieldError::new(
                    path,
                    format!(
                        "expected a table of the members of {} ({}), got {}",
                        describe(ty),
                        member_names(ty),
                        kind(value)
                    ),
                ));
            };
            for (name, v) in t {
                let (_, off, m) =
                    ty.members
                        .iter()
                        .find(|(n, _, _)| n == name)
                        .ok_or_else(|| {
                            FieldError::new(
                                &format!("{path}.{name}"),
                                format!(
                                    "{} has no member '{}' (it has: {})",
                                    describe(ty),
                                    crate::api::clip(name),
                                    member_names(ty)
                                ),
                            )
                        })?;
                place(
                    m,
                    offset + u64::from(*off),
                    v,
                    &format!("{path}.{name}"),
                    words,
                )?;
            }
            Ok(())
        }
        CLASS_SCALAR => put(ty, offset, value, path, words),
        CLASS_VECTOR => {
            let items = if cols == 1 && !value.is_array() {
                vec![value]
            } else {
                list(value, cols, path, || {
                    format!("{cols} values ({})", describe(ty))
                })?
            };
            for (c, v) in items.into_iter().enumerate() {
                put(
                    ty,
                    offset + component(ty, c),
                    v,
                    &format!("{path}[{c}]"),
                    words,
                )?;
            }
            Ok(())
        }
        CLASS_MATRIX_ROWS | CLASS_MATRIX_COLUMNS => {
            let shape = || {
                format!(
                    "{rows} rows of {cols} values ({}, rows as written in HLSL)",
                    describe(ty)
                )
            };
            let row_list = list(value, rows, path, shape)?;
            for (r, row) in row_list.into_iter().enumerate() {
                let row_path = format!("{path}[{r}]");
                let items = list(row, cols, &row_path, || {
                    format!("a row of {cols} values ({})", describe(ty))
                })?;
                for (c, v) in items.into_iter().enumerate() {
                    // row_major: a register per row; column_major: per column
                    let (register, lane) = if ty.class == CLASS_MATRIX_ROWS {
                        (r, c)
                    } else {
                        (c, r)
                    };
                    let at = offset + register as u64 * 16 + component(ty, lane);
                    put(ty, at, v, &format!("{row_path}[{c}]"), words)?;
                }
            }
            Ok(())
        }
        _ => Err(FieldError::new(
            path,
            format!(
                "{}: variables of this type cannot be set through fields",
                describe(ty)
            ),
        )),
    }
}

/// The byte offset of component `c` of a scalar, vector or matrix row.
fn component(ty: &TypeDesc, c: usize) -> u64 {
    let size = if base_of(ty) == Some(Base::Double) {
        8
    } else {
        4
    };
    c as u64 * size
}

fn member_names(ty: &TypeDesc) -> String {
    ty.members
        .iter()
        .map(|(n, _, _)| n.as_str())
        .collect::<Vec<_>>()
        .join(", ")
}

/// What kind of TOML value `v` is, for messages.
fn kind(v: &toml::Value) -> String {
    match v {
        toml::Value::Array(a) => format!("a list of {}", a.len()),
        toml::Value::Table(_) => "a table".into(),
        other => other.to_string(),
    }
}

/// The `n` items of the list `value`, or an error saying `expected()`.
fn list<'a>(
    value: &'a toml::Value,
    n: usize,
    path: &str,
    expected: impl Fn() -> String,
) -> Result<Vec<&'a toml::Value>, FieldError> {
    match value {
        toml::Value::Array(a) if a.len() == n => Ok(a.iter().collect()),
        other => Err(FieldError::new(
            path,
            format!("expected a list of {}, got {}", expected(), kind(other)),
        )),
    }
}

/// Write one component of base type `ty.base_type` at byte `at`.
fn put(
    ty: &TypeDesc,
    at: u64,
    value: &toml::Value,
    path: &str,
    words: &mut [u32],
) -> Result<(), FieldError> {
    let base = base_of(ty).ok_or_else(|| {
        FieldError::new(
            path,
            format!(
                "{}: this component type cannot be set through fields",
                describe(ty)
            ),
        )
    })?;
    let bad = |want: &str| {
        FieldError::new(
            path,
            format!("expected {want} for {}, got {}", describe(ty), kind(value)),
        )
    };
    let bits: u64 = match (base, value) {
        (Base::Float, toml::Value::Integer(i)) => u64::from((*i as f32).to_bits()),
        (Base::Float, toml::Value::Float(f)) if f.is_finite() && (*f as f32).is_infinite() => {
            return Err(bad("a number within float's range (±3.4e38)"));
        }
        (Base::Float, toml::Value::Float(f)) => u64::from((*f as f32).to_bits()),
        (Base::Double, toml::Value::Integer(i)) => (*i as f64).to_bits(),
        (Base::Double, toml::Value::Float(f)) => f.to_bits(),
        (Base::Int, toml::Value::Integer(i)) => u64::from(
            i32::try_from(*i).map_err(|_| bad("an int in -2147483648..=2147483647"))? as u32,
        ),
        (Base::Uint, toml::Value::Integer(i)) => {
            u64::from(u32::try_from(*i).map_err(|_| bad("a uint in 0..=4294967295"))?)
        }
        (Base::Bool, toml::Value::Boolean(b)) => u64::from(*b),
        (Base::Bool, toml::Value::Integer(i @ (0 | 1))) => *i as u64,
        (Base::Float | Base::Double, _) => return Err(bad("a number")),
        (Base::Int | Base::Uint, _) => return Err(bad("an integer")),
        (Base::Bool, _) => return Err(bad("true, false, 0 or 1")),
    };
    let w = usize::try_from(at / 4).unwrap_or(usize::MAX);
    let n = words.len();
    let past = || {
        FieldError::new(
            path,
            format!("lies past the end of the {}-byte buffer", n * 4),
        )
    };
    *words.get_mut(w).ok_or_else(past)? = bits as u32;
    if base == Base::Double {
        *words.get_mut(w.saturating_add(1)).ok_or_else(past)? = (bits >> 32) as u32;
    }
    Ok(())
}
