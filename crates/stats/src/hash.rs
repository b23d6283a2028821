//! Hashing for the counting maps and the set of players: fixed (the same on every run, so
//! counts and ties do not depend on the number of workers) and fast on short keys.

use std::hash::{BuildHasher, BuildHasherDefault, Hasher};

/// The builder of the counting maps' hashers: foldhash with a fixed seed (the same on every
/// run and every worker).
pub(crate) type FxBuild = foldhash::fast::FixedState;

/// The 64-bit hash of a player's name as the set of players keeps it: foldhash's quality
/// variant, fixed seed (two different names share a hash with probability about 2⁻⁶⁴: among n
/// names, about n²/2⁶⁵ collisions are expected, 0.003 for ten million names).
#[inline]
pub(crate) fn name_hash(name: &[u8]) -> u64 {
    foldhash::quality::FixedState::with_seed(0x2d35_8dcc_aa6c_78a5).hash_one(name)
}

/// The hasher of a set of hashes: they are mixed already.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Identity(u64);

impl Hasher for Identity {
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 << 8) | u64::from(b);
        }
    }

    #[inline]
    fn write_u64(&mut self, n: u64) {
        self.0 = n;
    }

    #[inline]
    fn finish(&self) -> u64 {
        self.0
    }
}

/// The builder of the set of players' hasher.
pub(crate) type IdentityBuild = BuildHasherDefault<Identity>;

#[cfg(test)]
mod tests {
    use std::collections::HashSet;

    use super::*;

    #[test]
    fn names_hash_apart() {
        let names: HashSet<u64> = (0..1_000_000)
            .map(|i| name_hash(format!("player{i}").as_bytes()))
            .collect();
        assert_eq!(names.len(), 1_000_000);
        let short: HashSet<u64> = (0..=u16::MAX)
            .map(|i| name_hash(&i.to_le_bytes()))
            .collect();
        assert_eq!(short.len(), 1 << 16);
        assert_ne!(name_hash(b"a"), name_hash(b"a\0"));
        assert_eq!(name_hash(b"Carlsen, Magnus"), name_hash(b"Carlsen, Magnus"));
    }
}
