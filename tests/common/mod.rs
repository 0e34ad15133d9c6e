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

/// Checks that the part of `doc` (a path under the crate) between
/// `<!-- generated: NAME ... -->` and `<!-- end: NAME -->` is `content`, as
/// the test computes it now; `KIFU_REGENERATE_DOCS=1` rewrites the part
/// instead, so tables of results cannot go stale unnoticed.
pub fn check_generated_part(doc: &str, name: &str, content: &str) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(doc);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{doc}: {e}"));
    let begin = format!("<!-- generated: {name} ");
    let end = format!("<!-- end: {name} -->");
    let (Some(b), Some(e)) = (text.find(&begin), text.find(&end)) else { panic!("{doc} lacks the markers {begin}...--> and {end}") };
    let start = b + text[b..].find("-->\n").expect("the begin marker ends with -->") + 4;
    if text[start..e] == *content {
        return;
    }
    if std::env::var_os("KIFU_REGENERATE_DOCS").is_some() {
        std::fs::write(&path, format!("{}{content}{}", &text[..start], &text[e..])).unwrap();
    } else {
        panic!(
            "{doc}: the generated part {name} is stale: run `KIFU_REGENERATE_DOCS=1 cargo test --release --test score_suites` and commit it\nnow:\n{content}\nin the file:\n{}",
            &text[start..e]
        );
    }
}
