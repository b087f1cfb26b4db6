//! Resources: shared handles to a buffer's or a texture's storage, made
//! from typed slices and read back as typed slices.

use super::ApiError;
use sim_mem::{Buffer, Texture, TextureDesc};
use std::sync::Arc;

/// What a resource's contents live in.
#[derive(Debug)]
pub enum Storage {
    /// a buffer (raw, structured, typed or constant views)
    Buffer(Buffer),
    /// a texture
    Texture(Texture),
}

impl Storage {
    /// The raw storage, as 32-bit words: a buffer's contents, or a texture's
    /// subresources in D3D order (see [`sim_mem::texture`]).
    pub fn data(&self) -> &Buffer {
        match self {
            Storage::Buffer(b) => b,
            Storage::Texture(t) => t.data(),
        }
    }
}

/// A buffer or a texture (D3D11's `ID3D11Buffer` / `ID3D11Texture*D`): a
/// handle to storage that a clone shares, so that a resource bound to a
/// [`super::Kernel`] is read back through the handle the caller kept.
/// Views are chosen when it is bound ([`super::View`]).
///
/// The storage is 32-bit words, little-endian when seen as bytes; elements
/// of [`Element`] types are laid out back to back in it, as a D3D buffer
/// holds a C array of them.
#[derive(Debug, Clone)]
pub struct Resource {
    storage: Arc<Storage>,
}

impl From<Storage> for Resource {
    fn from(storage: Storage) -> Self {
        Resource {
            storage: Arc::new(storage),
        }
    }
}

impl Resource {
    /// A zero-filled buffer of `bytes` bytes (`ByteWidth`).
    ///
    /// # Errors
    /// [`ApiError::Resource`] for 0 bytes (D3D11 refuses a `ByteWidth` of
    /// 0), a size that is not a multiple of 4, or storage the allocator
    /// refuses.
    pub fn zeroed(bytes: usize) -> Result<Resource, ApiError> {
        let what = || format!("a buffer of {bytes} bytes");
        if bytes == 0 {
            return Err(ApiError::Resource {
                what: what(),
                message: "D3D11 refuses a ByteWidth of 0 (ID3D11Device::CreateBuffer)".into(),
            });
        }
        let b = Buffer::zeroed(bytes).map_err(|e| ApiError::Resource {
            what: what(),
            message: e.to_string(),
        })?;
        Ok(Storage::Buffer(b).into())
    }

    /// A zero-filled buffer of `n` elements of `T` (`n · T::BYTES` bytes).
    ///
    /// # Errors
    /// As [`Resource::zeroed`].
    pub fn zeroed_elements<T: Element>(n: usize) -> Result<Resource, ApiError> {
        let bytes = n.checked_mul(T::BYTES).ok_or_else(|| ApiError::Resource {
            what: format!("a buffer of {n} {} elements", T::NAME),
            message: "too large".into(),
        })?;
        Self::zeroed(bytes)
    }

    /// A buffer holding `data` (its elements back to back, little-endian):
    /// `from_slice(&[1.0f32, 2.0])`, `from_slice(&[[0.0f32; 4]; 16])` for
    /// 16 `float4`s.
    ///
    /// # Errors
    /// [`ApiError::Resource`] for an empty slice or one whose bytes are not
    /// a whole number of 32-bit words (e.g. three `u8`s).
    pub fn from_slice<T: Element>(data: &[T]) -> Result<Resource, ApiError> {
        let bytes = to_bytes(data);
        Self::from_bytes(&bytes).map_err(|e| match e {
            ApiError::Resource { message, .. } => ApiError::Resource {
                what: format!("a buffer of {} {} elements", data.len(), T::NAME),
                message,
            },
            e => e,
        })
    }

    /// A buffer holding these little-endian bytes.
    ///
    /// # Errors
    /// As [`Resource::zeroed`].
    pub fn from_bytes(bytes: &[u8]) -> Result<Resource, ApiError> {
        let what = || format!("a buffer of {} bytes", bytes.len());
        if bytes.is_empty() {
            return Err(ApiError::Resource {
                what: what(),
                message: "D3D11 refuses a ByteWidth of 0 (ID3D11Device::CreateBuffer)".into(),
            });
        }
        let b = Buffer::from_bytes(bytes).map_err(|e| ApiError::Resource {
            what: what(),
            message: e.to_string(),
        })?;
        Ok(Storage::Buffer(b).into())
    }

    /// A zero-filled texture (`D3D11_TEXTURE*_DESC`;
    /// [`TextureDesc::texture2d`] for one mip and slice).
    ///
    /// # Errors
    /// [`ApiError::Resource`] for a description D3D11 refuses (the message
    /// says which field).
    pub fn texture(desc: TextureDesc) -> Result<Resource, ApiError> {
        let t = Texture::new(desc).map_err(|e| ApiError::Resource {
            what: format!(
                "a {}x{}x{} {} texture",
                desc.width,
                desc.height,
                desc.depth,
                desc.format.name()
            ),
            message: e.to_string(),
        })?;
        Ok(Storage::Texture(t).into())
    }

    /// The storage.
    pub fn storage(&self) -> &Storage {
        &self.storage
    }

    /// The raw storage as 32-bit words ([`Storage::data`]).
    pub fn data(&self) -> &Buffer {
        self.storage.data()
    }

    /// The buffer, unless this is a texture.
    pub fn as_buffer(&self) -> Option<&Buffer> {
        match &*self.storage {
            Storage::Buffer(b) => Some(b),
            Storage::Texture(_) => None,
        }
    }

    /// The texture, if this is one.
    pub fn as_texture(&self) -> Option<&Texture> {
        match &*self.storage {
            Storage::Texture(t) => Some(t),
            Storage::Buffer(_) => None,
        }
    }

    /// Whether `other` is a handle to the same storage.
    pub fn same(&self, other: &Resource) -> bool {
        Arc::ptr_eq(&self.storage, &other.storage)
    }

    /// Size of the storage in bytes.
    pub fn len_bytes(&self) -> usize {
        self.data().len_bytes()
    }

    /// The whole storage as elements of `T` (a texture's: its subresources
    /// in D3D order, see [`sim_mem::texture`]; [`Resource::read_subresource`]
    /// reads one). Call it when no dispatch is running.
    ///
    /// # Errors
    /// [`ApiError::Resource`] when the storage is not a whole number of `T`s.
    pub fn read<T: Element>(&self) -> Result<Vec<T>, ApiError> {
        elements_from_bytes(&self.data().to_bytes()).map_err(|message| ApiError::Resource {
            what: self.describe(),
            message,
        })
    }

    /// Overwrite the storage from element `first` on with `data`.
    ///
    /// # Errors
    /// [`ApiError::Resource`] when `data` does not fit, or does not start
    /// and end on 32-bit words (nothing is written then).
    pub fn write<T: Element>(&self, first: usize, data: &[T]) -> Result<(), ApiError> {
        let err = |message: String| ApiError::Resource {
            what: self.describe(),
            message,
        };
        let offset = first
            .checked_mul(T::BYTES)
            .ok_or_else(|| err("element offset too large".into()))?;
        let bytes = to_bytes(data);
        if !offset.is_multiple_of(4) || !bytes.len().is_multiple_of(4) {
            return Err(err(format!(
                "writes start and end on 32-bit words: {} {} elements at element {first} do not",
                data.len(),
                T::NAME
            )));
        }
        let words: Vec<u32> = bytes
            .chunks_exact(4)
            .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect();
        self.data()
            .write_words(offset / 4, &words)
            .map_err(|e| err(e.to_string()))
    }

    /// Fill the whole storage with `value` (a `T` repeated; its size must
    /// divide the storage's).
    ///
    /// # Errors
    /// As [`Resource::write`].
    pub fn fill<T: Element>(&self, value: T) -> Result<(), ApiError> {
        let n = self.len_bytes() / T::BYTES;
        if n * T::BYTES != self.len_bytes() {
            return Err(ApiError::Resource {
                what: self.describe(),
                message: format!("not a whole number of {}-byte {}s", T::BYTES, T::NAME),
            });
        }
        self.write(0, &vec![value; n])
    }

    /// Subresource (`mip`, `slice`) of a texture as elements of `T`, rows
    /// tightly packed: a 2D RGBA8 mip is `height · width` `[u8; 4]`s.
    ///
    /// # Errors
    /// [`ApiError::Resource`] for a buffer, a subresource out of range, or
    /// one that is not a whole number of `T`s.
    pub fn read_subresource<T: Element>(&self, mip: u32, slice: u32) -> Result<Vec<T>, ApiError> {
        let err = |message: String| ApiError::Resource {
            what: self.describe(),
            message,
        };
        let t = self
            .as_texture()
            .ok_or_else(|| err("a buffer has no subresources; use read".into()))?;
        if t.subresource_range(mip, slice).is_none() {
            return Err(err(format!("no subresource mip {mip} slice {slice}")));
        }
        elements_from_bytes(&t.read_subresource(mip, slice)).map_err(err)
    }

    /// Overwrite subresource (`mip`, `slice`) of a texture with `data`
    /// (rows tightly packed, exactly the subresource's size).
    ///
    /// # Errors
    /// [`ApiError::Resource`] for a buffer, a subresource out of range or
    /// data of another size.
    pub fn write_subresource<T: Element>(
        &self,
        mip: u32,
        slice: u32,
        data: &[T],
    ) -> Result<(), ApiError> {
        let err = |message: String| ApiError::Resource {
            what: self.describe(),
            message,
        };
        let t = self
            .as_texture()
            .ok_or_else(|| err("a buffer has no subresources; use write".into()))?;
        t.write_subresource(mip, slice, &to_bytes(data))
            .map_err(|e| err(e.to_string()))
    }

    /// The hidden append/consume counter of a UAV of this buffer.
    pub fn counter(&self) -> u32 {
        self.data().counter().load(sim_mem::sync::Ordering::Relaxed)
    }

    /// Set the hidden counter (`D3D11_BUFFER_UAV_FLAG_APPEND`'s initial count).
    pub fn set_counter(&self, value: u32) {
        self.data()
            .counter()
            .store(value, sim_mem::sync::Ordering::Relaxed);
    }

    /// What the resource is, for messages: "a buffer of N bytes" or "a
    /// WxHxD FORMAT texture" (width × height × depth and its DXGI format).
    pub fn describe(&self) -> String {
        match &*self.storage {
            Storage::Buffer(b) => format!("a buffer of {} bytes", b.len_bytes()),
            Storage::Texture(t) => {
                let d = t.desc();
                format!(
                    "a {}x{}x{} {} texture",
                    d.width,
                    d.height,
                    d.depth,
                    d.format.name()
                )
            }
        }
    }
}

/// A plain value stored little-endian in a resource: the numbers of HLSL
/// (and of NumPy's dtypes) and arrays of them (`[f32; 4]` for a `float4`).
/// Conversions go through bytes, so no `unsafe` is needed.
pub trait Element: Copy + 'static {
    /// Bytes per element.
    const BYTES: usize;
    /// Its name in messages (`f32`, `[f32; 4]` shows as `f32x4`).
    const NAME: &'static str;
    /// Append the element's little-endian bytes.
    fn put(self, out: &mut Vec<u8>);
    /// The element from its `BYTES` little-endian bytes.
    fn get(bytes: &[u8]) -> Self;
}

macro_rules! element {
    ($($t:ty),*) => {$(
        impl Element for $t {
            const BYTES: usize = std::mem::size_of::<$t>();
            const NAME: &'static str = stringify!($t);
            fn put(self, out: &mut Vec<u8>) {
                out.extend_from_slice(&self.to_le_bytes());
            }
            fn get(bytes: &[u8]) -> Self {
                let mut b = [0u8; std::mem::size_of::<$t>()];
                b.copy_from_slice(&bytes[..Self::BYTES]);
                <$t>::from_le_bytes(b)
            }
        }
    )*};
}
element!(u8, i8, u16, i16, u32, i32, u64, i64, f32, f64);

impl<T: Element, const N: usize> Element for [T; N] {
    const BYTES: usize = T::BYTES * N;
    const NAME: &'static str = "array";
    fn put(self, out: &mut Vec<u8>) {
        for v in self {
            v.put(out);
        }
    }
    fn get(bytes: &[u8]) -> Self {
        std::array::from_fn(|i| T::get(&bytes[i * T::BYTES..]))
    }
}

pub(crate) fn to_bytes<T: Element>(data: &[T]) -> Vec<u8> {
    let mut out = Vec::with_capacity(data.len() * T::BYTES);
    for &v in data {
        v.put(&mut out);
    }
    out
}

fn elements_from_bytes<T: Element>(bytes: &[u8]) -> Result<Vec<T>, String> {
    if T::BYTES == 0 || !bytes.len().is_multiple_of(T::BYTES) {
        return Err(format!(
            "{} bytes is not a whole number of {}-byte {} elements",
            bytes.len(),
            T::BYTES,
            T::NAME
        ));
    }
    Ok(bytes.chunks_exact(T::BYTES).map(T::get).collect())
}
