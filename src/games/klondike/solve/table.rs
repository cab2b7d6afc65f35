//! The set of positions seen: 128-bit keys in one open-addressing table
//! whose memory is kept from deal to deal. A 16-bit generation stamp
//! replaces the top of each stored key, so clearing the table between
//! deals is one increment (the memory is only wiped when the stamp wraps).

/// Slots in a fresh table (grows by doubling).
const INITIAL_CAPACITY: usize = 1 << 16;

const STAMP_SHIFT: u32 = 48;
const STAMP_MASK: u64 = (1 << STAMP_SHIFT) - 1;

/// A set of 128-bit keys, 112 bits of each stored (the other 16 hold the
/// generation), in 16-byte slots, four to a cache line.
pub(super) struct KeySet {
    /// `[0]`: the key's first half; `[1]`: its second half with the top
    /// 16 bits holding the generation that wrote it (0: never written).
    slots: Vec<[u64; 2]>,
    len: usize,
    generation: u16,
}

impl KeySet {
    pub(super) fn new() -> KeySet {
        KeySet {
            slots: vec![[0; 2]; INITIAL_CAPACITY],
            len: 0,
            generation: 1,
        }
    }

    /// Forgets every key, in O(1) except once every 65535 calls.
    pub(super) fn clear(&mut self) {
        self.len = 0;
        if self.generation == u16::MAX {
            self.slots.iter_mut().for_each(|slot| *slot = [0; 2]);
            self.generation = 1;
        } else {
            self.generation += 1;
        }
    }

    #[inline]
    fn stamped(&self, key: (u64, u64)) -> u64 {
        (key.1 & STAMP_MASK) | u64::from(self.generation) << STAMP_SHIFT
    }

    /// Inserts `key`; false if it was already there.
    #[inline]
    pub(super) fn insert(&mut self, key: (u64, u64)) -> bool {
        if 4 * (self.len + 1) > 3 * self.slots.len() {
            self.grow();
        }
        let stamped = self.stamped(key);
        let mask = self.slots.len() - 1;
        let mut at = key.0 as usize & mask;
        loop {
            let slot = &mut self.slots[at];
            if slot[1] >> STAMP_SHIFT != u64::from(self.generation) {
                *slot = [key.0, stamped];
                self.len += 1;
                return true;
            }
            if slot[0] == key.0 && slot[1] == stamped {
                return false;
            }
            at = (at + 1) & mask;
        }
    }

    /// Asks the processor to fetch `key`'s first slot into the cache (a
    /// hint only: it changes no result).
    #[inline]
    pub(super) fn prefetch(&self, key: (u64, u64)) {
        let slot = &self.slots[key.0 as usize & (self.slots.len() - 1)];
        #[cfg(target_arch = "x86_64")]
        // SAFETY: a prefetch never faults and changes no memory; `slot`
        // is a live element of the table.
        unsafe {
            use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
            _mm_prefetch::<_MM_HINT_T0>((slot as *const [u64; 2]).cast());
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = slot;
    }

    /// Doubles the table, keeping this generation's keys.
    fn grow(&mut self) {
        let doubled = vec![[0; 2]; 2 * self.slots.len()];
        let old = std::mem::replace(&mut self.slots, doubled);
        let generation = u64::from(self.generation);
        let mask = self.slots.len() - 1;
        for slot in old {
            if slot[1] >> STAMP_SHIFT == generation {
                let mut at = slot[0] as usize & mask;
                while self.slots[at][1] >> STAMP_SHIFT == generation {
                    at = (at + 1) & mask;
                }
                self.slots[at] = slot;
            }
        }
    }
}
