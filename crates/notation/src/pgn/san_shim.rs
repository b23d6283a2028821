//! Temporary stand-in for the SAN grammar until `crate::san` lands: the one place the PGN
//! reader parses a SAN token.

use std::fmt;

/// A SAN move, kept as its bytes (temporary).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct SanPlus {
    bytes: [u8; 16],
    len: u8,
}

impl SanPlus {
    /// Parses a SAN token at the start of `bytes`.
    pub fn prefix(bytes: &[u8]) -> Option<(SanPlus, usize)> {
        let n = bytes
            .iter()
            .position(|&b| !(b.is_ascii_alphanumeric() || b"=+#-".contains(&b)))
            .unwrap_or(bytes.len());
        if n == 0 || n > 16 {
            return None;
        }
        let mut out = [0; 16];
        out[..n].copy_from_slice(&bytes[..n]);
        Some((
            SanPlus {
                bytes: out,
                len: n as u8,
            },
            n,
        ))
    }
}

impl fmt::Display for SanPlus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(std::str::from_utf8(&self.bytes[..usize::from(self.len)]).unwrap_or("?"))
    }
}

/// A numeric annotation glyph (temporary).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Nag(pub u8);

impl fmt::Display for Nag {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "${}", self.0)
    }
}
