//! Hashing for the counting maps and the set of players: fixed (the same on every run, so
//! counts and ties do not depend on the number of workers) and fast on short keys.

use std::hash::{BuildHasherDefault, Hasher};

/// A hasher over 8-byte words: each word is folded in with a 64×64→128-bit multiply whose two
/// halves are xored (foldhash's step: a difference in any bit reaches every bit), and a final
/// avalanche.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct FxHasher(u64);

const K: u64 = 0x9e37_79b9_7f4a_7c15;

impl FxHasher {
    #[inline]
    fn add(&mut self, word: u64) {
        let full = u128::from(self.0 ^ word) * u128::from(K);
        self.0 = (full as u64) ^ ((full >> 64) as u64);
    }
}

impl Hasher for FxHasher {
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for chunk in &mut chunks {
            let mut word = [0; 8];
            word.copy_from_slice(chunk);
            self.add(u64::from_le_bytes(word));
        }
        let rest = chunks.remainder();
        if !rest.is_empty() {
            let mut word = [0; 8];
            word[..rest.len()].copy_from_slice(rest);
            self.add(u64::from_le_bytes(word));
        }
        self.add(bytes.len() as u64);
    }

    #[inline]
    fn write_u64(&mut self, n: u64) {
        self.add(n);
    }

    #[inline]
    fn write_usize(&mut self, n: usize) {
        self.add(n as u64);
    }

    #[inline]
    fn finish(&self) -> u64 {
        fmix(self.0)
    }
}

/// MurmurHash3's 64-bit finaliser: every input bit affects every output bit.
#[inline]
fn fmix(mut h: u64) -> u64 {
    h ^= h >> 33;
    h = h.wrapping_mul(0xff51_afd7_ed55_8ccd);
    h ^= h >> 33;
    h = h.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
    h ^ (h >> 33)
}

/// The builder of the maps' hashers.
pub(crate) type FxBuild = BuildHasherDefault<FxHasher>;

/// The 64-bit hash of a player's name as the set of players keeps it (two different names
/// share a hash with probability about 2⁻⁶⁴: among n names, about n²/2⁶⁵ collisions are
/// expected, 0.003 for ten million names).
#[inline]
pub(crate) fn name_hash(name: &[u8]) -> u64 {
    let mut hasher = FxHasher(0x2d35_8dcc_aa6c_78a5);
    hasher.write(name);
    hasher.finish()
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
