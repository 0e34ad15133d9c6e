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

/// The `.sgf` files under `dir`, in path order (sorted walk).
pub fn sgf_files(dir: &Path) -> Vec<PathBuf> {
    walkdir::WalkDir::new(dir)
        .sort_by_file_name()
        .into_iter()
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_file() && e.path().extension().is_some_and(|x| x.eq_ignore_ascii_case("sgf")))
        .map(walkdir::DirEntry::into_path)
        .collect()
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
