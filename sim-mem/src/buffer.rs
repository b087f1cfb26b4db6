//! Buffers (arrays of `AtomicU32` words) and raw/structured views of them.

use crate::addressing::{raw_word_index, structured_word_index, Extent};
use crate::atomic::AtomicOp;
use crate::format::Format;
use crate::sync::{AtomicU32, Ordering};

/// Errors creating memory objects.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MemError {
    /// Buffer sizes are whole 32-bit words.
    #[error("buffer size {0} bytes is not a multiple of 4")]
    UnalignedSize(usize),
    /// A structured stride must be a nonzero multiple of 4, at most 2048 (FS §21).
    #[error("structured stride {0} must be a nonzero multiple of 4, at most 2048")]
    BadStride(u32),
    /// Too much data for the buffer.
    #[error("{given} bytes do not fit a buffer of {size} bytes at offset {offset}")]
    Overflow {
        /// bytes given
        given: usize,
        /// buffer size in bytes
        size: usize,
        /// write offset in bytes
        offset: usize,
    },
    /// The allocator refused the buffer's storage (the machine's memory, or
    /// the process's address-space limit, is exhausted).
    #[error("cannot allocate {bytes} bytes for a buffer: out of memory")]
    OutOfMemory {
        /// bytes asked for
        bytes: usize,
    },
}

/// The storage of an SRV or UAV: `len_words` 32-bit words, little-endian when
/// seen as bytes, plus the hidden append/consume counter that D3D attaches to
/// a UAV view (kept here because sm5sim binds one view per buffer).
#[derive(Debug)]
pub struct Buffer {
    words: Box<[AtomicU32]>,
    counter: AtomicU32,
}

impl Buffer {
    /// A zero-filled buffer of `size_bytes` bytes.
    ///
    /// # Errors
    /// [`MemError::UnalignedSize`] unless `size_bytes` is a multiple of 4;
    /// [`MemError::OutOfMemory`] when the allocator refuses the storage (it
    /// is reserved before any word is written, so the refusal is an error,
    /// not an abort).
    pub fn zeroed(size_bytes: usize) -> Result<Self, MemError> {
        if !size_bytes.is_multiple_of(4) {
            return Err(MemError::UnalignedSize(size_bytes));
        }
        let n = size_bytes / 4;
        let mut words = Vec::new();
        words
            .try_reserve_exact(n)
            .map_err(|_| MemError::OutOfMemory { bytes: size_bytes })?;
        words.extend((0..n).map(|_| AtomicU32::new(0)));
        Ok(Self {
            words: words.into_boxed_slice(),
            counter: AtomicU32::new(0),
        })
    }

    /// A buffer holding these words.
    pub fn from_words(words: &[u32]) -> Self {
        Self::from_words_iter(words.iter().copied())
    }

    fn from_words_iter(words: impl Iterator<Item = u32>) -> Self {
        Self {
            words: words.map(AtomicU32::new).collect(),
            counter: AtomicU32::new(0),
        }
    }

    /// A buffer holding these little-endian bytes.
    ///
    /// # Errors
    /// [`MemError::UnalignedSize`] unless the length is a multiple of 4.
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, MemError> {
        if !bytes.len().is_multiple_of(4) {
            return Err(MemError::UnalignedSize(bytes.len()));
        }
        Ok(Self::from_words_iter(
            bytes
                .chunks_exact(4)
                .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])),
        ))
    }

    /// Size in 32-bit words.
    pub fn len_words(&self) -> usize {
        self.words.len()
    }

    /// Size in bytes.
    pub fn len_bytes(&self) -> usize {
        self.words.len() * 4
    }

    /// The words themselves.
    pub fn words(&self) -> &[AtomicU32] {
        &self.words
    }

    /// Word `i`, or `None` past the end.
    pub fn load(&self, i: usize) -> Option<u32> {
        self.words.get(i).map(|w| w.load(Ordering::Relaxed))
    }

    /// A copy of every word. Call it when no dispatch is running (a dispatch
    /// ends with a full join, so every write is visible then).
    pub fn to_words(&self) -> Vec<u32> {
        self.words
            .iter()
            .map(|w| w.load(Ordering::Relaxed))
            .collect()
    }

    /// A copy of the contents as little-endian bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        self.words
            .iter()
            .flat_map(|w| w.load(Ordering::Relaxed).to_le_bytes())
            .collect()
    }

    /// Overwrite words starting at word `offset`.
    ///
    /// # Errors
    /// [`MemError::Overflow`] if they do not fit; nothing is written then.
    pub fn write_words(&self, offset: usize, words: &[u32]) -> Result<(), MemError> {
        let end = offset
            .checked_add(words.len())
            .filter(|&e| e <= self.words.len())
            .ok_or(MemError::Overflow {
                given: words.len() * 4,
                size: self.len_bytes(),
                offset: offset * 4,
            })?;
        for (dst, &src) in self.words[offset..end].iter().zip(words) {
            dst.store(src, Ordering::Relaxed);
        }
        Ok(())
    }

    /// Copy `count` words of `src` from word `src_offset` to word
    /// `dst_offset` of this buffer, word by word with no copy in between
    /// (`CopyResource`, and `CopySubresourceRegion` on buffers at whole
    /// words). `src` is another buffer (a buffer's copy within itself is
    /// dropped by the D3D11 runtime and refused by the API above). Call it
    /// when no dispatch is running.
    ///
    /// # Errors
    /// [`MemError::Overflow`] if either range is not inside its buffer;
    /// nothing is written then.
    pub fn copy_words_from(
        &self,
        dst_offset: usize,
        src: &Buffer,
        src_offset: usize,
        count: usize,
    ) -> Result<(), MemError> {
        let range = |offset: usize, len: usize| {
            offset
                .checked_add(count)
                .filter(|&end| end <= len)
                .map(|end| offset..end)
                .ok_or(MemError::Overflow {
                    given: count.saturating_mul(4),
                    size: len * 4,
                    offset: offset.saturating_mul(4),
                })
        };
        let from = range(src_offset, src.words.len())?;
        let to = range(dst_offset, self.words.len())?;
        for (d, s) in self.words[to].iter().zip(&src.words[from]) {
            d.store(s.load(Ordering::Relaxed), Ordering::Relaxed);
        }
        Ok(())
    }

    /// Bytes `offset .. offset + out.len()` of the buffer, little-endian,
    /// at byte granularity (a copy's source, `CopySubresourceRegion` on
    /// buffers).
    ///
    /// # Errors
    /// [`MemError::Overflow`] if the range is not inside the buffer.
    pub fn read_bytes(&self, offset: usize, out: &mut [u8]) -> Result<(), MemError> {
        self.byte_range(offset, out.len())?;
        crate::texture::read_bytes(&self.words, offset, out);
        Ok(())
    }

    /// Overwrite bytes `offset .. offset + bytes.len()` at byte
    /// granularity: whole words are stored, the bytes of a word written in
    /// part are merged into it (a copy's destination).
    ///
    /// # Errors
    /// [`MemError::Overflow`] if they do not fit; nothing is written then.
    pub fn write_bytes(&self, offset: usize, bytes: &[u8]) -> Result<(), MemError> {
        self.byte_range(offset, bytes.len())?;
        crate::texture::write_bytes(&self.words, offset, bytes);
        Ok(())
    }

    fn byte_range(&self, offset: usize, len: usize) -> Result<(), MemError> {
        match offset.checked_add(len) {
            Some(end) if end <= self.len_bytes() => Ok(()),
            _ => Err(MemError::Overflow {
                given: len,
                size: self.len_bytes(),
                offset,
            }),
        }
    }

    /// The hidden counter used by `imm_atomic_alloc` / `imm_atomic_consume`.
    pub fn counter(&self) -> &AtomicU32 {
        &self.counter
    }

    /// A copy of every word and of the hidden counter, to put back with
    /// [`Buffer::restore`]. Call it when no dispatch is running.
    pub fn contents(&self) -> Contents {
        Contents {
            words: self.to_words(),
            counter: self.counter.load(Ordering::Relaxed),
        }
    }

    /// Put back what [`Buffer::contents`] copied: the words (as many as
    /// both have: all of them, for this buffer's own copy) and the hidden
    /// counter.
    pub fn restore(&self, contents: &Contents) {
        for (dst, &src) in self.words.iter().zip(&contents.words) {
            dst.store(src, Ordering::Relaxed);
        }
        self.counter.store(contents.counter, Ordering::Relaxed);
    }
}

/// A buffer's words and hidden counter at one moment ([`Buffer::contents`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Contents {
    /// the words, in order
    pub words: Vec<u32>,
    /// the append/consume counter
    pub counter: u32,
}

/// How a view interprets its buffer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ViewKind {
    /// Byte-address view (`ByteAddressBuffer`): addresses are byte offsets.
    Raw,
    /// Structured view: addresses are (structure index, byte offset in the structure).
    Structured {
        /// bytes per structure
        stride: u32,
    },
    /// Typed buffer view: elements of a DXGI format, addressed by element index.
    Typed {
        /// element format
        format: Format,
    },
}

/// A raw, structured or typed view of a [`Buffer`]: of the whole buffer, or
/// of a range of its elements ([`BufferView::elements`]: D3D11's
/// `FirstElement` and `NumElements`).
///
/// Bounds are measured against the view (`reference/sm5-compute-isa.md` §14);
/// the rules are those of [`crate::addressing`]. Word indices
/// ([`BufferView::word_index`]) count from the view's first word.
#[derive(Debug, Clone, Copy)]
pub struct BufferView<'a> {
    buffer: &'a Buffer,
    /// the words the view sees
    words: &'a [AtomicU32],
    kind: ViewKind,
}

impl<'a> BufferView<'a> {
    /// A raw view.
    pub fn raw(buffer: &'a Buffer) -> Self {
        Self {
            buffer,
            words: &buffer.words,
            kind: ViewKind::Raw,
        }
    }

    /// A structured view with `stride` bytes per structure; a trailing partial
    /// structure is outside the view.
    ///
    /// # Errors
    /// [`MemError::BadStride`] unless `stride` is a nonzero multiple of 4 that is at most 2048.
    pub fn structured(buffer: &'a Buffer, stride: u32) -> Result<Self, MemError> {
        if stride == 0 || !stride.is_multiple_of(4) || stride > 2048 {
            return Err(MemError::BadStride(stride));
        }
        Ok(Self {
            buffer,
            words: &buffer.words,
            kind: ViewKind::Structured { stride },
        })
    }

    /// A typed view of elements of `format`; a trailing partial element is
    /// outside the view.
    pub fn typed(buffer: &'a Buffer, format: Format) -> Self {
        Self {
            buffer,
            words: &buffer.words,
            kind: ViewKind::Typed { format },
        }
    }

    /// The view of elements `first .. first + count` of this view (an
    /// element: a 4-byte word of a raw view, a structure, a typed element),
    /// as D3D11's `FirstElement` and `NumElements` select them (FS §5.2.5:
    /// a raw view's elements are 32-bit). Bounds, `bufinfo` and word
    /// indices are then the range's.
    ///
    /// # Errors
    /// [`MemError::Overflow`] when the range is not inside the view;
    /// [`MemError::UnalignedSize`] when a typed view's range does not start
    /// and end on 32-bit words (elements of 1 or 2 bytes at an odd
    /// position), which views of words cannot express.
    pub fn elements(self, first: u64, count: u64) -> Result<Self, MemError> {
        let size = match self.kind {
            ViewKind::Raw => 4,
            ViewKind::Structured { stride } => u64::from(stride),
            ViewKind::Typed { format } => format.size_bytes() as u64,
        };
        let (start, len) = (first.saturating_mul(size), count.saturating_mul(size));
        let end = start.saturating_add(len);
        if end > self.size_bytes() {
            return Err(MemError::Overflow {
                given: len as usize,
                size: self.size_bytes() as usize,
                offset: start as usize,
            });
        }
        if !start.is_multiple_of(4) || !len.is_multiple_of(4) {
            return Err(MemError::UnalignedSize(start as usize));
        }
        Ok(Self {
            words: &self.words[(start / 4) as usize..(end / 4) as usize],
            ..self
        })
    }

    /// The buffer behind the view (all of it, whatever range the view sees).
    pub fn buffer(&self) -> &'a Buffer {
        self.buffer
    }

    /// The words the view sees: the buffer's, or its range's.
    pub fn words(&self) -> &'a [AtomicU32] {
        self.words
    }

    /// The view's kind.
    pub fn kind(&self) -> ViewKind {
        self.kind
    }

    /// Size of the view in bytes.
    pub fn size_bytes(&self) -> u64 {
        self.words.len() as u64 * 4
    }

    /// What `bufinfo` reports (FS §22.4.1): bytes for a raw view, structures for a structured one.
    pub fn bufinfo(&self) -> u32 {
        let n = match self.kind {
            ViewKind::Raw => self.size_bytes(),
            ViewKind::Structured { stride } => self.size_bytes() / stride as u64,
            ViewKind::Typed { format } => self.size_bytes() / format.size_bytes() as u64,
        };
        u32::try_from(n).unwrap_or(u32::MAX)
    }

    /// Word index of dword `k` of an access at address (`a`, `b`): for a raw
    /// view `a` is the byte offset (`b` unused); for a structured one `a` is
    /// the structure index and `b` the byte offset. `None` when out of bounds.
    #[inline]
    pub fn word_index(&self, a: u32, b: u32, k: u32) -> Option<usize> {
        match self.kind {
            ViewKind::Raw => raw_word_index(self.size_bytes(), a, k),
            ViewKind::Structured { stride } => {
                structured_word_index(self.size_bytes(), stride, a, b, k)
            }
            // Word access to typed views is for R32 formats (atomics): element = word.
            ViewKind::Typed { format } if format.size_bytes() == 4 => {
                (k == 0 && (a as u64) < self.size_bytes() / 4).then_some(a as usize)
            }
            ViewKind::Typed { .. } => None,
        }
    }

    /// The view's bounds for word access when it is raw or structured
    /// (`None` for a typed view, whose words go through [`BufferView::word_index`]).
    #[inline]
    pub fn extent(&self) -> Option<Extent> {
        let stride = match self.kind {
            ViewKind::Raw => 0,
            ViewKind::Structured { stride } => stride,
            ViewKind::Typed { .. } => return None,
        };
        Some(Extent {
            size_bytes: self.size_bytes(),
            stride,
        })
    }

    /// The view's bounds for one-word access (atomics) as an [`Extent`]:
    /// [`BufferView::extent`] for a raw or structured view, and for a
    /// typed view of 4-byte elements (the atomics' R32_UINT / R32_SINT)
    /// structures of 4 bytes, whose word `a` at byte offset 0 is element
    /// `a`, as [`BufferView::word_index`] gives it; `None` for other typed
    /// views.
    #[inline]
    pub fn word_extent(&self) -> Option<Extent> {
        match self.kind {
            ViewKind::Typed { format } if format.size_bytes() == 4 => Some(Extent {
                size_bytes: self.size_bytes(),
                stride: 4,
            }),
            _ => self.extent(),
        }
    }

    /// Bytes of typed element `element`, or `None` out of range (or not a typed view).
    fn element_range(&self, element: u32) -> Option<(usize, usize)> {
        let ViewKind::Typed { format } = self.kind else {
            return None;
        };
        let size = format.size_bytes() as u64;
        let start = element as u64 * size;
        (start + size <= self.size_bytes()).then_some((start as usize, size as usize))
    }

    /// Typed load (`ld` on a buffer SRV, `ld_uav_typed`): element `element`
    /// converted by the view's format; out of range reads as an all-zero
    /// element (0 in present channels, the defaults in missing ones).
    pub fn typed_load(&self, element: u32) -> [u32; 4] {
        let ViewKind::Typed { format } = self.kind else {
            return [0; 4];
        };
        let mut bytes = [0u8; 16];
        if let Some((start, size)) = self.element_range(element) {
            for (i, b) in bytes.iter_mut().enumerate().take(size) {
                let at = start + i;
                let word = self.words[at / 4].load(Ordering::Relaxed);
                *b = (word >> (8 * (at % 4))) as u8;
            }
        }
        format.decode(&bytes)
    }

    /// Typed store (`store_uav_typed`): converts `value` by the view's format
    /// and writes element `element`; dropped when out of range. Elements
    /// smaller than a word are merged into their word with a
    /// compare-exchange loop, so neighbours written by other threads survive.
    pub fn typed_store(&self, element: u32, value: [u32; 4]) {
        let ViewKind::Typed { format } = self.kind else {
            return;
        };
        let Some((start, size)) = self.element_range(element) else {
            return;
        };
        let bytes = format.encode(value);
        if size % 4 == 0 {
            for (i, chunk) in bytes.chunks_exact(4).enumerate() {
                let v = u32::from_le_bytes([chunk[0], chunk[1], chunk[2], chunk[3]]);
                self.words[start / 4 + i].store(v, Ordering::Relaxed);
            }
            return;
        }
        // 1- or 2-byte element: inside one word (elements are size-aligned).
        let shift = 8 * (start % 4) as u32;
        let mut bits = 0u32;
        for (i, &b) in bytes.iter().enumerate() {
            bits |= (b as u32) << (8 * i);
        }
        let mask = (((1u64 << (8 * size)) - 1) as u32) << shift;
        let word = &self.words[start / 4];
        let _ = word.fetch_update(Ordering::Relaxed, Ordering::Relaxed, |old| {
            Some((old & !mask) | ((bits << shift) & mask))
        });
    }

    /// Load word `i` (from [`Self::word_index`]); 0 when out of range.
    #[inline]
    pub fn load(&self, i: Option<usize>) -> u32 {
        i.and_then(|i| self.words.get(i))
            .map_or(0, |w| w.load(Ordering::Relaxed))
    }

    /// Store word `i`; dropped when out of range.
    #[inline]
    pub fn store(&self, i: Option<usize>, v: u32) {
        if let Some(w) = i.and_then(|i| self.words.get(i)) {
            w.store(v, Ordering::Relaxed);
        }
    }

    /// Atomic read-modify-write of word `i`; returns the old value, or `None`
    /// (nothing written) when out of range.
    #[inline]
    pub fn atomic(&self, i: Option<usize>, op: AtomicOp) -> Option<u32> {
        i.and_then(|i| self.words.get(i)).map(|w| op.apply(w))
    }
}

#[cfg(all(test, not(loom)))]
mod tests {
    use super::*;

    /// A typed view of 4-byte elements addresses words through
    /// `word_extent` as `word_index` does (element = word, out of bounds
    /// past the last whole element, dword 0 only); other typed views have
    /// none, raw and structured views their own extent.
    #[test]
    fn word_extents_index_as_word_index() {
        for bytes in [40usize, 4, 0] {
            let b = Buffer::zeroed(bytes).unwrap();
            for format in [Format::R32_UINT, Format::R32_SINT, Format::R32_FLOAT] {
                let v = BufferView::typed(&b, format);
                let e = v.word_extent().unwrap();
                for a in [0u32, 1, 9, 10, 11, u32::MAX / 4 + 1, u32::MAX] {
                    assert_eq!(e.word_index(a, 0, 0), v.word_index(a, 0, 0), "{bytes} {a}");
                }
            }
            assert!(BufferView::typed(&b, Format::R16_UINT)
                .word_extent()
                .is_none());
            assert_eq!(
                BufferView::raw(&b).word_extent(),
                BufferView::raw(&b).extent()
            );
        }
    }

    #[test]
    fn bytes_round_trip_little_endian() {
        let b = Buffer::from_bytes(&[1, 0, 0, 0, 0xff, 0xff, 0xff, 0x7f]).unwrap();
        assert_eq!(b.to_words(), vec![1, 0x7fff_ffff]);
        assert_eq!(b.to_bytes(), vec![1, 0, 0, 0, 0xff, 0xff, 0xff, 0x7f]);
        assert_eq!(
            Buffer::from_bytes(&[1, 2, 3]).unwrap_err(),
            MemError::UnalignedSize(3)
        );
    }

    #[test]
    fn write_words_refuses_overflow_without_writing() {
        let b = Buffer::zeroed(8).unwrap();
        assert!(b.write_words(1, &[5, 6]).is_err());
        assert_eq!(b.to_words(), vec![0, 0]);
        b.write_words(1, &[5]).unwrap();
        assert_eq!(b.to_words(), vec![0, 5]);
    }

    #[test]
    fn copy_words_from_copies_a_range_or_refuses_without_writing() {
        let src = Buffer::from_words(&[1, 2, 3, 4]);
        let dst = Buffer::from_words(&[9, 9, 9]);
        dst.copy_words_from(1, &src, 2, 2).unwrap();
        assert_eq!(dst.to_words(), vec![9, 3, 4]);
        // past the destination's end, past the source's end, an overflowing offset
        assert!(dst.copy_words_from(2, &src, 0, 2).is_err());
        assert!(dst.copy_words_from(0, &src, 3, 2).is_err());
        assert!(dst.copy_words_from(usize::MAX, &src, 0, 1).is_err());
        assert_eq!(dst.to_words(), vec![9, 3, 4]);
        dst.copy_words_from(0, &src, 0, 0).unwrap();
        assert_eq!(dst.to_words(), vec![9, 3, 4]);
    }

    #[test]
    fn structured_view_counts_whole_structures() {
        let b = Buffer::zeroed(40).unwrap();
        let v = BufferView::structured(&b, 16).unwrap();
        assert_eq!(v.bufinfo(), 2);
        assert_eq!(BufferView::raw(&b).bufinfo(), 40);
        // structure 2 would be bytes 32..48: outside.
        assert_eq!(v.word_index(2, 0, 0), None);
        assert!(BufferView::structured(&b, 6).is_err());
    }
}

#[cfg(all(test, not(loom)))]
mod typed_tests {
    use super::*;

    #[test]
    fn typed_views_convert_and_bound_by_element() {
        let b = Buffer::zeroed(8).unwrap();
        let v = BufferView::typed(&b, Format::R8_UNORM);
        assert_eq!(v.bufinfo(), 8);
        v.typed_store(1, [1.0f32.to_bits(), 0, 0, 0]);
        v.typed_store(2, [0.5f32.to_bits(), 0, 0, 0]);
        v.typed_store(8, [1.0f32.to_bits(), 0, 0, 0]); // out of range: dropped
        assert_eq!(b.to_words(), vec![0x0080_ff00, 0]);
        assert_eq!(v.typed_load(1), [1.0f32.to_bits(), 0, 0, 1.0f32.to_bits()]);
        assert_eq!(
            v.typed_load(9),
            [0, 0, 0, 1.0f32.to_bits()],
            "out of range reads a zero element"
        );
        let w = BufferView::typed(&b, Format::R32G32_UINT);
        assert_eq!(w.bufinfo(), 1);
        w.typed_store(0, [7, 9, 1, 1]);
        assert_eq!(b.to_words(), vec![7, 9]);
        assert_eq!(w.typed_load(0), [7, 9, 0, 1]);
        // R32 typed views allow word (atomic) access by element.
        let r = BufferView::typed(&b, Format::R32_UINT);
        assert_eq!(r.word_index(1, 0, 0), Some(1));
        assert_eq!(r.word_index(2, 0, 0), None);
        assert_eq!(w.word_index(0, 0, 0), None);
    }

    #[test]
    fn sub_word_stores_from_many_threads_keep_their_neighbours() {
        let b = Buffer::zeroed(64).unwrap();
        let v = BufferView::typed(&b, Format::R8_UINT);
        std::thread::scope(|s| {
            for t in 0..4u32 {
                s.spawn(move || {
                    for round in 0..200u32 {
                        for e in (t..64).step_by(4) {
                            v.typed_store(e, [(e + round) & 0xff, 0, 0, 0]);
                        }
                    }
                });
            }
        });
        for e in 0..64u32 {
            assert_eq!(v.typed_load(e)[0], (e + 199) & 0xff);
        }
    }
}
