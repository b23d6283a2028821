//! A fast hasher for position keys and other keys made by our own replay, never by an adversary:
//! a multiply-rotate hash with a final mix is enough (hashbrown reads the top bits). Shared by
//! the ECO table index (tabia-eco) and the opening tree (tabia-book).

use std::hash::{BuildHasherDefault, Hash, Hasher};

/// Multiply-rotate hashing over 8-byte words, with a final avalanche.
#[derive(Debug, Default, Clone, Copy)]
pub struct KeyHasher(u64);

const SEED: u64 = 0x51_7c_c1_b7_27_22_0a_95;

impl KeyHasher {
    #[inline]
    fn add(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(SEED);
    }
}

impl Hasher for KeyHasher {
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for chunk in &mut chunks {
            let mut word = [0u8; 8];
            word.copy_from_slice(chunk);
            self.add(u64::from_le_bytes(word));
        }
        let rest = chunks.remainder();
        if !rest.is_empty() {
            let mut word = [0u8; 8];
            word[..rest.len()].copy_from_slice(rest);
            self.add(u64::from_le_bytes(word));
        }
    }

    #[inline]
    fn write_u64(&mut self, n: u64) {
        self.add(n);
    }

    #[inline]
    fn write_u32(&mut self, n: u32) {
        self.add(u64::from(n));
    }

    #[inline]
    fn write_u16(&mut self, n: u16) {
        self.add(u64::from(n));
    }

    #[inline]
    fn write_usize(&mut self, n: usize) {
        self.add(n as u64);
    }

    #[inline]
    fn finish(&self) -> u64 {
        // murmur3's finaliser: every input bit reaches the top bits.
        let mut h = self.0;
        h ^= h >> 33;
        h = h.wrapping_mul(0xff51_afd7_ed55_8ccd);
        h ^= h >> 33;
        h = h.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
        h ^ (h >> 33)
    }
}

/// The `BuildHasher` for maps keyed by [`crate::PositionKey`] and other replay-made keys.
pub type BuildKeyHasher = BuildHasherDefault<KeyHasher>;

/// The 64-bit hash of a value (the same on every run and machine).
pub fn hash_of<T: Hash>(value: &T) -> u64 {
    let mut hasher = KeyHasher::default();
    value.hash(&mut hasher);
    hasher.finish()
}

#[cfg(test)]
mod tests {
    use std::hash::BuildHasher;

    use super::*;
    use crate::Position;

    #[test]
    fn different_keys_hash_differently_and_the_same_key_alike() {
        let build = BuildKeyHasher::default();
        let start = Position::new().key();
        let after = Position::new().after("e4").expect("a legal move").key();
        assert_ne!(build.hash_one(start), build.hash_one(after));
        assert_eq!(build.hash_one(start), build.hash_one(Position::new().key()));
        assert_eq!(hash_of(&start), build.hash_one(start));
    }
}
