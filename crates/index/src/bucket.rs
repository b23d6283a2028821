//! A bucket of positions: the positions whose keys share their first bytes, in one value of
//! the `positions` table, each by the next bytes of its key (a *suffix*) and its entry.
//!
//! A position is found by 40 bits of its key (the bucket's bytes and the suffix) and then
//! *verified*: the entry names a game that reached it ([`Entry::witness`](crate::entry::Entry::witness)), whose indexed
//! moves are replayed to the position. So a key needs only 40 bits (two positions sharing
//! them are two slots, told apart by their games), and a position one game reached costs its
//! suffix and that game's id: the 96-bit key would cost more than the rest of its entry.
//! Buckets grow with the index, so that a bucket holds 16 to 32 positions (a few hundred
//! bytes: many to a page): a bucket is named by the first `bits` bits of the 40, and when
//! the positions outgrow the buckets, `IndexWriter` splits each in two in a commit.
//!
//! The value: the number of slots, their suffixes (sorted, fixed width: binary search
//! without decoding the entries), the entries' lengths, the entries.

use crate::{
    PosKey,
    varint::{self, Cursor},
};

/// Bytes of a position's key kept by the index (bucket and suffix).
pub(crate) const KEY_BYTES: usize = 5;

/// The 40 bits of a key kept. The crate's own tests keep 8 of them, so that positions share
/// their bits by the hundred and every answer depends on the verification.
pub(crate) fn bits40(key: &PosKey) -> u64 {
    let bits = key.0[..KEY_BYTES]
        .iter()
        .fold(0u64, |n, &b| (n << 8) | u64::from(b));
    if cfg!(test) {
        bits & (0xff << 32)
    } else {
        bits
    }
}

/// The bytes of a suffix when buckets take `bits` bits.
pub(crate) fn width(bits: u32) -> usize {
    (40 - bits as usize).div_ceil(8)
}

/// The bucket (its key in the table) and the suffix of 40 bits of key, with buckets of `bits`
/// bits.
fn parts(key40: u64, bits: u32) -> ([u8; 4], Vec<u8>) {
    let rest = 40 - bits;
    let bucket = (key40 >> rest) as u32;
    let suffix = key40 & ((1u64 << rest) - 1);
    let width = width(bits);
    (
        bucket.to_be_bytes(),
        suffix.to_be_bytes()[8 - width..].to_vec(),
    )
}

/// The bucket and suffix of a key.
pub(crate) fn split(key: &PosKey, bits: u32) -> ([u8; 4], Vec<u8>) {
    parts(bits40(key), bits)
}

/// Where a slot of bucket `bucket` (of `bits` bits) goes when buckets take `bits + 1`.
pub(crate) fn resplit(bucket: &[u8], suffix: &[u8], bits: u32) -> Option<([u8; 4], Vec<u8>)> {
    let bucket = u32::from_be_bytes(bucket.try_into().ok()?);
    let rest = 40 - bits;
    let suffix = suffix.iter().fold(0u64, |n, &b| (n << 8) | u64::from(b));
    Some(parts((u64::from(bucket) << rest) | suffix, bits + 1))
}

/// A bucket, decoded for a write.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Bucket {
    /// Sorted by suffix (equal suffixes: two positions, in the order they came).
    pub(crate) slots: Vec<(Vec<u8>, Vec<u8>)>,
}

impl Bucket {
    pub(crate) fn decode(bytes: &[u8], width: usize) -> Option<Bucket> {
        let view = View::new(bytes, width)?;
        let mut slots = Vec::with_capacity(view.len());
        let mut c = Cursor::new(view.lengths);
        let mut entries = Cursor::new(view.entries);
        for i in 0..view.len() {
            let len = usize::try_from(c.u64()?).ok()?;
            slots.push((view.suffix(i).to_vec(), entries.bytes(len)?.to_vec()));
        }
        entries.is_empty().then_some(Bucket { slots })
    }

    pub(crate) fn encode(&self, out: &mut Vec<u8>) {
        varint::put(out, self.slots.len() as u64);
        for (suffix, _) in &self.slots {
            out.extend_from_slice(suffix);
        }
        for (_, entry) in &self.slots {
            varint::put(out, entry.len() as u64);
        }
        for (_, entry) in &self.slots {
            out.extend_from_slice(entry);
        }
    }

    /// The indexes of the slots with this suffix.
    pub(crate) fn find(&self, suffix: &[u8]) -> std::ops::Range<usize> {
        let start = self.slots.partition_point(|(s, _)| s.as_slice() < suffix);
        let end = self.slots.partition_point(|(s, _)| s.as_slice() <= suffix);
        start..end
    }

    /// Adds a slot after those of the same suffix.
    pub(crate) fn insert(&mut self, suffix: &[u8], entry: Vec<u8>) {
        let at = self.find(suffix).end;
        self.slots.insert(at, (suffix.to_vec(), entry));
    }
}

/// A bucket read in place: the entries of a suffix without decoding the others.
#[derive(Debug, Clone, Copy)]
pub(crate) struct View<'a> {
    width: usize,
    suffixes: &'a [u8],
    lengths: &'a [u8],
    entries: &'a [u8],
    n: usize,
}

impl<'a> View<'a> {
    pub(crate) fn new(bytes: &'a [u8], width: usize) -> Option<View<'a>> {
        let mut c = Cursor::new(bytes);
        let n = usize::try_from(c.u64()?).ok()?;
        let suffixes = c.bytes(n.checked_mul(width)?)?;
        let rest_start = bytes.len() - c_len(&c);
        // The lengths: n varints.
        let mut lc = c.clone();
        for _ in 0..n {
            lc.u64()?;
        }
        let lengths_len = c_len(&c) - c_len(&lc);
        let lengths = &bytes[rest_start..rest_start + lengths_len];
        let entries = &bytes[rest_start + lengths_len..];
        Some(View {
            width,
            suffixes,
            lengths,
            entries,
            n,
        })
    }

    pub(crate) fn len(&self) -> usize {
        self.n
    }

    fn suffix(&self, i: usize) -> &'a [u8] {
        &self.suffixes[i * self.width..(i + 1) * self.width]
    }

    /// The entries whose suffix is `suffix`.
    pub(crate) fn find(&self, suffix: &[u8]) -> Option<Vec<&'a [u8]>> {
        let (mut lo, mut hi) = (0, self.n);
        while lo < hi {
            let mid = (lo + hi) / 2;
            if self.suffix(mid) < suffix {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        let mut found = Vec::new();
        if lo == self.n || self.suffix(lo) != suffix {
            return Some(found);
        }
        let mut c = Cursor::new(self.lengths);
        let mut offset = 0usize;
        for i in 0..self.n {
            let len = usize::try_from(c.u64()?).ok()?;
            if i >= lo {
                if self.suffix(i) != suffix {
                    break;
                }
                found.push(self.entries.get(offset..offset.checked_add(len)?)?);
            }
            offset = offset.checked_add(len)?;
        }
        Some(found)
    }
}

fn c_len(c: &Cursor<'_>) -> usize {
    c.remaining()
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    proptest! {
        #[test]
        fn a_split_bucket_names_its_keys_as_buckets_of_one_more_bit(mut bytes in any::<[u8; 12]>(), bits in 0u32..38) {
            // As the keys of real builds (the tests' keys keep 8 bits).
            bytes[1..5].fill(0);
            let key = PosKey(bytes);
            let (bucket, suffix) = split(&key, bits);
            prop_assert_eq!(suffix.len(), width(bits));
            prop_assert_eq!(resplit(&bucket, &suffix, bits), Some(split(&key, bits + 1)));
        }
    }

    proptest! {
        #[test]
        fn buckets_round_trip_and_find(
            slots in proptest::collection::vec((proptest::collection::vec(0u8..4, 3), proptest::collection::vec(any::<u8>(), 0..20)), 0..40),
        ) {
            let mut bucket = Bucket::default();
            for (suffix, entry) in &slots {
                bucket.insert(suffix, entry.clone());
            }
            let mut bytes = Vec::new();
            bucket.encode(&mut bytes);
            prop_assert_eq!(Bucket::decode(&bytes, 3), Some(bucket.clone()));
            let view = View::new(&bytes, 3).expect("view");
            for (suffix, _) in &slots {
                let expected: Vec<&[u8]> = bucket.slots[bucket.find(suffix)].iter().map(|(_, e)| e.as_slice()).collect();
                prop_assert_eq!(view.find(suffix), Some(expected));
            }
            prop_assert_eq!(view.find(&[9, 9, 9]), Some(Vec::new()));
        }

        #[test]
        fn garbage_is_refused_not_a_panic(bytes in proptest::collection::vec(any::<u8>(), 0..60)) {
            let _ = Bucket::decode(&bytes, 2);
            if let Some(view) = View::new(&bytes, 2) {
                let _ = view.find(&[0, 1]);
            }
        }
    }
}
