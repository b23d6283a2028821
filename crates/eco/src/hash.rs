//! A fast hasher for position keys: the table is looked up once per ply, and keys come from
//! our own replay, never from an adversary, so a multiply-rotate hash is enough.

use std::hash::{BuildHasherDefault, Hasher};

/// Multiply-rotate hashing over 8-byte words (the FxHash recipe).
#[derive(Debug, Default, Clone, Copy)]
pub(crate) struct KeyHasher(u64);

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
    fn write_usize(&mut self, n: usize) {
        self.add(n as u64);
    }

    #[inline]
    fn finish(&self) -> u64 {
        self.0
    }
}

/// The `BuildHasher` of the table's index.
pub(crate) type BuildKeyHasher = BuildHasherDefault<KeyHasher>;

#[cfg(test)]
mod tests {
    use std::hash::BuildHasher;

    use tabia_position::Position;

    use super::*;

    #[test]
    fn different_keys_hash_differently() {
        let build = BuildKeyHasher::default();
        let a = Position::new().key();
        let b = Position::new().after("e4").map(|p| p.key());
        let hash = |k: &tabia_position::PositionKey| build.hash_one(k);
        assert_ne!(Some(hash(&a)), b.as_ref().ok().map(hash));
        assert_eq!(hash(&a), hash(&Position::new().key()));
    }
}
