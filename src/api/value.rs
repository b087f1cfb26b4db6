//! Values of constant-buffer fields, in their HLSL shape.

/// The value of a cbuffer variable ([`super::Kernel::set_constants`]), in
/// its HLSL shape (never its storage order): a number or boolean for a
/// scalar, a list of N numbers for an N-component vector, a list of rows
/// for a matrix (as written in HLSL, whatever its majorness), a list of
/// elements for an array, named members for a struct. Integers go into
/// float variables as floats; floats go into float variables only. The
/// packing is HLSL's ([`crate::cbuffer`]).
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    /// `bool`
    Bool(bool),
    /// `int`, `uint` (and integer values of `float`s)
    Int(i64),
    /// `float`, `double`
    Float(f64),
    /// a vector, a matrix's rows, an array's elements
    List(Vec<Value>),
    /// a struct's members by name
    Struct(Vec<(String, Value)>),
}

impl Value {
    /// The TOML form [`crate::cbuffer::pack_fields`] reads.
    pub(crate) fn to_toml(&self) -> toml::Value {
        match self {
            Value::Bool(b) => toml::Value::Boolean(*b),
            Value::Int(i) => toml::Value::Integer(*i),
            Value::Float(f) => toml::Value::Float(*f),
            Value::List(v) => toml::Value::Array(v.iter().map(Value::to_toml).collect()),
            Value::Struct(m) => {
                toml::Value::Table(m.iter().map(|(k, v)| (k.clone(), v.to_toml())).collect())
            }
        }
    }
}

impl From<bool> for Value {
    fn from(v: bool) -> Self {
        Value::Bool(v)
    }
}

macro_rules! int_value {
    ($($t:ty),*) => {$(
        impl From<$t> for Value {
            fn from(v: $t) -> Self {
                Value::Int(i64::from(v))
            }
        }
    )*};
}
int_value!(u8, i8, u16, i16, u32, i32, i64);

impl From<f32> for Value {
    fn from(v: f32) -> Self {
        Value::Float(f64::from(v))
    }
}

impl From<f64> for Value {
    fn from(v: f64) -> Self {
        Value::Float(v)
    }
}

impl<T: Into<Value>, const N: usize> From<[T; N]> for Value {
    fn from(v: [T; N]) -> Self {
        Value::List(v.into_iter().map(Into::into).collect())
    }
}

impl<T: Into<Value>> From<Vec<T>> for Value {
    fn from(v: Vec<T>) -> Self {
        Value::List(v.into_iter().map(Into::into).collect())
    }
}
