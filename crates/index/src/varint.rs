//! The little binary encoding of the values: LEB128 varints and length-prefixed strings.

/// Appends `n` as a LEB128 varint.
pub(crate) fn put(out: &mut Vec<u8>, mut n: u64) {
    while n >= 0x80 {
        out.push((n as u8) | 0x80);
        n >>= 7;
    }
    out.push(n as u8);
}

/// Appends a length-prefixed string.
pub(crate) fn put_str(out: &mut Vec<u8>, s: &str) {
    put(out, s.len() as u64);
    out.extend_from_slice(s.as_bytes());
}

/// A reader of what [`put`] and [`put_str`] wrote; `None` at the end of the bytes or on a
/// malformed value (a value written by another format is refused, never a panic).
#[derive(Debug, Clone)]
pub(crate) struct Cursor<'a> {
    bytes: &'a [u8],
}

impl<'a> Cursor<'a> {
    pub(crate) fn new(bytes: &'a [u8]) -> Cursor<'a> {
        Cursor { bytes }
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.bytes.is_empty()
    }

    /// The bytes not read yet.
    pub(crate) fn remaining(&self) -> usize {
        self.bytes.len()
    }

    pub(crate) fn u64(&mut self) -> Option<u64> {
        let mut n = 0u64;
        for shift in (0..64).step_by(7) {
            let (&byte, rest) = self.bytes.split_first()?;
            self.bytes = rest;
            n |= u64::from(byte & 0x7f) << shift;
            if byte < 0x80 {
                return Some(n);
            }
        }
        None
    }

    pub(crate) fn u32(&mut self) -> Option<u32> {
        self.u64().and_then(|n| u32::try_from(n).ok())
    }

    pub(crate) fn u16(&mut self) -> Option<u16> {
        self.u64().and_then(|n| u16::try_from(n).ok())
    }

    pub(crate) fn u8(&mut self) -> Option<u8> {
        let (&byte, rest) = self.bytes.split_first()?;
        self.bytes = rest;
        Some(byte)
    }

    pub(crate) fn bytes(&mut self, len: usize) -> Option<&'a [u8]> {
        if self.bytes.len() < len {
            return None;
        }
        let (head, rest) = self.bytes.split_at(len);
        self.bytes = rest;
        Some(head)
    }

    pub(crate) fn str(&mut self) -> Option<&'a str> {
        let len = usize::try_from(self.u64()?).ok()?;
        std::str::from_utf8(self.bytes(len)?).ok()
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    proptest! {
        #[test]
        fn varints_round_trip(values in proptest::collection::vec(any::<u64>(), 0..20), s in ".*") {
            let mut out = Vec::new();
            for &v in &values {
                put(&mut out, v);
            }
            put_str(&mut out, &s);
            let mut cursor = Cursor::new(&out);
            for &v in &values {
                prop_assert_eq!(cursor.u64(), Some(v));
            }
            prop_assert_eq!(cursor.str(), Some(s.as_str()));
            prop_assert!(cursor.is_empty());
        }

        #[test]
        fn garbage_never_panics(bytes in proptest::collection::vec(any::<u8>(), 0..64)) {
            let mut cursor = Cursor::new(&bytes);
            while cursor.u64().is_some() {}
            let mut cursor = Cursor::new(&bytes);
            while cursor.str().is_some() {}
        }
    }

    #[test]
    fn a_cut_varint_is_none() {
        let mut out = Vec::new();
        put(&mut out, 300);
        assert_eq!(Cursor::new(&out[..1]).u64(), None);
        assert_eq!(Cursor::new(&[0xff; 11]).u64(), None);
    }
}
