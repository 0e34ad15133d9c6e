//! Helpers shared by the integration tests. Each test file uses a part.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

/// `../shared/corpus/<part>` (`""` for the whole corpus), or `None`, said on
/// stderr, when it is absent: the corpus is not part of a user's clone.
pub fn corpus_dir(part: &str) -> Option<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus").join(part);
    if dir.is_dir() {
        Some(dir)
    } else {
        eprintln!("skipped: {} is absent (the corpus is not part of a user's clone)", dir.display());
        None
    }
}

/// splitmix64: a tiny deterministic generator for random games and mutations.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (0 when `n` is 0).
    pub fn below(&mut self, n: usize) -> usize {
        if n == 0 { 0 } else { (self.next() % n as u64) as usize }
    }
}
