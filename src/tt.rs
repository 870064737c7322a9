//! The transposition table: a fixed number of MiB, buckets of three entries,
//! replacement preferring depth and the current search's age.
//!
//! Mate scores are stored relative to the node (`score_to_tt`) and turned back
//! into root-relative scores on probe (`score_from_tt`), so a mate found at one
//! ply reads correctly at another.

use cozy_chess::{Move, Piece, Square};

use crate::score::MATE_BOUND;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The score is at most this (the node failed low).
    Upper,
    /// The score is at least this (the node failed high).
    Lower,
    Exact,
}

impl Bound {
    /// What a node's best score says of its value, searched with the window
    /// `alpha..beta`: at least it when it reached beta, exactly it when it
    /// raised alpha, at most it otherwise.
    pub fn of_score(best_score: i32, alpha: i32, beta: i32) -> Bound {
        if best_score >= beta {
            Bound::Lower
        } else if best_score > alpha {
            Bound::Exact
        } else {
            Bound::Upper
        }
    }
}

/// What a probe returns.
#[derive(Clone, Copy, Debug)]
pub struct TtHit {
    pub mv: Option<Move>,
    pub score: i32,
    pub static_eval: i32,
    pub depth: i32,
    pub bound: Bound,
}

/// Ten bytes: a 16-bit key check, the move, score, static eval, depth, and the
/// bound packed with the generation.
#[derive(Clone, Copy, Default)]
#[repr(C)]
struct Entry {
    key: u16,
    mv: u16,
    score: i16,
    static_eval: i16,
    depth: u8,
    /// Bits 0-1 the bound (0 means empty), bits 2-7 the generation.
    age_bound: u8,
}

const ENTRIES_PER_BUCKET: usize = 3;

/// Three entries and padding: 32 bytes, two buckets to a cache line.
#[derive(Clone, Copy, Default)]
#[repr(C, align(32))]
struct Bucket {
    entries: [Entry; ENTRIES_PER_BUCKET],
}

const GENERATION_CYCLE: u8 = 64;

pub struct TranspositionTable {
    /// The allocation: the table is `buckets[start..start + len]`, which
    /// begins on a huge-page boundary where the allocation allows it.
    buckets: Vec<Bucket>,
    start: usize,
    len: usize,
    generation: u8,
}

/// The huge-page size the table aligns to (x86-64 Linux's transparent huge
/// pages): a probe's address translation then rarely misses the TLB.
const HUGE_PAGE: usize = 2 * 1024 * 1024;

impl TranspositionTable {
    /// A table of `megabytes` MiB; panics if the memory cannot be had (use
    /// [`TranspositionTable::try_new`] for a size that comes from outside).
    pub fn new(megabytes: usize) -> Self {
        Self::try_new(megabytes).unwrap_or_else(|error| panic!("{error}"))
    }

    /// A table of `megabytes` MiB, or why the memory cannot be had.
    pub fn try_new(megabytes: usize) -> Result<Self, String> {
        let bytes = megabytes.max(1).checked_mul(1024 * 1024).ok_or_else(|| format!("{megabytes} MiB is too large"))?;
        let len = (bytes / std::mem::size_of::<Bucket>()).max(1);
        // One huge page more than the table, to start it on a boundary.
        let slack = HUGE_PAGE / std::mem::size_of::<Bucket>();
        let mut buckets: Vec<Bucket> = Vec::new();
        buckets
            .try_reserve_exact(len + slack)
            .map_err(|_| format!("cannot allocate a {megabytes} MiB transposition table"))?;
        let start = buckets.as_ptr().align_offset(HUGE_PAGE).min(slack);
        advise_huge_pages(&mut buckets.spare_capacity_mut()[start..start + len]);
        // Written only now, so the kernel backs it with huge pages as it is touched.
        buckets.resize(start + len, Bucket::default());
        Ok(TranspositionTable { buckets, start, len, generation: 0 })
    }

    pub fn clear(&mut self) {
        // The slack before the table too: filling the whole vector compiles
        // to half the instructions of filling the table's slice.
        self.buckets.fill(Bucket::default());
        self.generation = 0;
    }

    /// Called once per search, so entries of earlier searches age.
    pub fn new_search(&mut self) {
        self.generation = (self.generation + 1) % GENERATION_CYCLE;
    }

    fn bucket_index(&self, hash: u64) -> usize {
        // Multiply-shift maps the hash onto any table length without a modulo.
        self.start + ((hash as u128 * self.len as u128) >> 64) as usize
    }

    /// The low bits: the bucket index already spends the high ones.
    fn key_check(hash: u64) -> u16 {
        hash as u16
    }

    /// Asks the processor to start loading `hash`'s bucket: called as soon
    /// as a child's hash is known, so the child's probe finds it in cache.
    #[inline]
    pub fn prefetch(&self, hash: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            let bucket: *const Bucket = &self.buckets[self.bucket_index(hash)];
            // SAFETY: a prefetch is a hint that never faults, and the pointer
            // is to a live bucket of the table.
            unsafe { std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(bucket.cast()) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = hash;
    }

    pub fn probe(&self, hash: u64, ply: usize) -> Option<TtHit> {
        let key = Self::key_check(hash);
        let bucket = &self.buckets[self.bucket_index(hash)];
        bucket.entries.iter().find(|entry| entry.key == key && entry.age_bound & 3 != 0).map(|entry| TtHit {
            mv: unpack_move(entry.mv),
            score: score_from_tt(entry.score as i32, ply),
            static_eval: entry.static_eval as i32,
            depth: entry.depth as i32,
            bound: match entry.age_bound & 3 {
                1 => Bound::Upper,
                2 => Bound::Lower,
                _ => Bound::Exact,
            },
        })
    }

    #[allow(clippy::too_many_arguments)]
    pub fn store(
        &mut self,
        hash: u64,
        mv: Option<Move>,
        score: i32,
        static_eval: i32,
        depth: i32,
        bound: Bound,
        ply: usize,
    ) {
        let key = Self::key_check(hash);
        let generation = self.generation;
        let index = self.bucket_index(hash);
        let bucket = &mut self.buckets[index];

        // The same position's slot if present; otherwise the least valuable
        // entry, where value is depth minus eight plies per generation of age.
        let slot = match bucket.entries.iter().position(|entry| entry.key == key && entry.age_bound & 3 != 0) {
            Some(same) => same,
            None => (0..ENTRIES_PER_BUCKET)
                .min_by_key(|&i| {
                    let entry = &bucket.entries[i];
                    if entry.age_bound & 3 == 0 {
                        return i32::MIN;
                    }
                    let age = (GENERATION_CYCLE + generation - (entry.age_bound >> 2)) % GENERATION_CYCLE;
                    entry.depth as i32 - 8 * age as i32
                })
                .unwrap_or(0),
        };
        let entry = &mut bucket.entries[slot];

        // Keep a deeper entry of the same position unless this one is exact,
        // but never lose its move to a store that has none.
        let same_position = entry.key == key && entry.age_bound & 3 != 0;
        let packed_move = match mv {
            Some(mv) => pack_move(mv),
            None if same_position => entry.mv,
            None => 0,
        };
        if same_position
            && bound != Bound::Exact
            && depth + 3 < entry.depth as i32
            && entry.age_bound >> 2 == generation
        {
            entry.mv = packed_move;
            return;
        }
        let bound_bits = match bound {
            Bound::Upper => 1,
            Bound::Lower => 2,
            Bound::Exact => 3,
        };
        *entry = Entry {
            key,
            mv: packed_move,
            score: score_to_tt(score, ply) as i16,
            static_eval: static_eval.clamp(i16::MIN as i32, i16::MAX as i32) as i16,
            depth: depth.clamp(0, u8::MAX as i32) as u8,
            age_bound: (generation << 2) | bound_bits,
        };
    }

    /// Permille of the first thousand buckets' entries written in this search.
    pub fn hashfull(&self) -> u32 {
        let sample = self.len.min(1000);
        let used: usize = self.buckets[self.start..self.start + sample]
            .iter()
            .map(|bucket| {
                bucket.entries.iter().filter(|e| e.age_bound & 3 != 0 && e.age_bound >> 2 == self.generation).count()
            })
            .sum();
        (used * 1000 / (sample * ENTRIES_PER_BUCKET)) as u32
    }
}

/// Asks Linux to back `memory` (which starts on a page boundary) with
/// transparent huge pages, where the system leaves that to the program, as
/// its `madvise` mode does. Only a hint: a refusal changes the speed, never
/// the table.
fn advise_huge_pages<T>(memory: &mut [T]) {
    #[cfg(target_os = "linux")]
    // SAFETY: the range is memory this process owns; madvise only rounds it
    // to the pages inside it and changes how they are backed, not their contents.
    unsafe {
        libc::madvise(memory.as_mut_ptr().cast(), std::mem::size_of_val(memory), libc::MADV_HUGEPAGE);
    }
    #[cfg(not(target_os = "linux"))]
    let _ = memory;
}

/// Mate scores count plies from the root; the table stores them from the node.
pub fn score_to_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score + ply as i32
    } else if score <= -MATE_BOUND {
        score - ply as i32
    } else {
        score
    }
}

pub fn score_from_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score - ply as i32
    } else if score <= -MATE_BOUND {
        score + ply as i32
    } else {
        score
    }
}

/// From, to and promotion in 15 bits; 0 means no move (a1a1 is never a move).
fn pack_move(mv: Move) -> u16 {
    let promotion = match mv.promotion {
        None => 0,
        Some(Piece::Knight) => 1,
        Some(Piece::Bishop) => 2,
        Some(Piece::Rook) => 3,
        Some(_) => 4,
    };
    mv.from as u16 | (mv.to as u16) << 6 | promotion << 12
}

fn unpack_move(packed: u16) -> Option<Move> {
    if packed == 0 {
        return None;
    }
    let promotion = match packed >> 12 {
        1 => Some(Piece::Knight),
        2 => Some(Piece::Bishop),
        3 => Some(Piece::Rook),
        4 => Some(Piece::Queen),
        _ => None,
    };
    Some(Move { from: Square::index(packed as usize & 63), to: Square::index((packed as usize >> 6) & 63), promotion })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::score::MATE;

    #[test]
    fn a_best_score_bounds_the_value_by_where_it_falls_in_the_window() {
        let (alpha, beta) = (-10, 20);
        assert_eq!(Bound::of_score(20, alpha, beta), Bound::Lower);
        assert_eq!(Bound::of_score(35, alpha, beta), Bound::Lower);
        assert_eq!(Bound::of_score(19, alpha, beta), Bound::Exact);
        assert_eq!(Bound::of_score(-9, alpha, beta), Bound::Exact);
        assert_eq!(Bound::of_score(-10, alpha, beta), Bound::Upper);
        assert_eq!(Bound::of_score(-50, alpha, beta), Bound::Upper);
    }

    #[test]
    fn an_impossible_size_is_an_error_not_an_abort() {
        let Err(error) = TranspositionTable::try_new(usize::MAX) else { panic!("usize::MAX MiB allocated") };
        assert!(error.contains("too large"), "{error}");
        assert!(TranspositionTable::try_new(1).is_ok());
    }

    #[test]
    fn moves_survive_packing() {
        for text in ["e2e4", "a7a8q", "h2h1n", "e1h1", "b7c8r", "g2f1b"] {
            let mv: Move = text.parse().unwrap();
            assert_eq!(unpack_move(pack_move(mv)), Some(mv));
        }
    }

    #[test]
    fn mate_scores_are_stored_relative_to_the_node() {
        let mut tt = TranspositionTable::new(1);
        // Mate in 3 plies from a node at ply 4 is MATE - 7 at the root.
        tt.store(42, None, MATE - 7, 0, 5, Bound::Exact, 4);
        // Seen again at ply 2, the same mate is 2 plies closer to the root.
        assert_eq!(tt.probe(42, 2).unwrap().score, MATE - 5);
        tt.store(43, None, -(MATE - 7), 0, 5, Bound::Exact, 4);
        assert_eq!(tt.probe(43, 6).unwrap().score, -(MATE - 9));
    }

    #[test]
    fn probe_returns_what_was_stored() {
        let mut tt = TranspositionTable::new(1);
        let mv: Move = "g1f3".parse().unwrap();
        tt.store(0xDEAD_BEEF_0000_0001, Some(mv), 37, -12, 9, Bound::Lower, 0);
        let hit = tt.probe(0xDEAD_BEEF_0000_0001, 0).unwrap();
        assert_eq!((hit.mv, hit.score, hit.static_eval, hit.depth, hit.bound), (Some(mv), 37, -12, 9, Bound::Lower));
        assert!(tt.probe(0xDEAD_BEEF_0000_0002, 0).is_none());
        tt.clear();
        assert!(tt.probe(0xDEAD_BEEF_0000_0001, 0).is_none());
    }

    #[test]
    fn the_table_starts_on_a_huge_page_and_has_the_size_asked() {
        let tt = TranspositionTable::new(3);
        assert_eq!(tt.buckets[tt.start..].as_ptr() as usize % HUGE_PAGE, 0);
        assert_eq!(tt.buckets.len() - tt.start, 3 * 1024 * 1024 / 32);
        assert_eq!(tt.len, 3 * 1024 * 1024 / 32);
    }

    #[test]
    fn bucket_is_thirty_two_bytes() {
        assert_eq!(std::mem::size_of::<Bucket>(), 32);
    }
}
