//! Every file of ../shared/corpus through the whole check: nothing panics,
//! every diagnostic points inside its file, only the known non-SGF files
//! are refused, and the known defects get their diagnostics. Skips when
//! the corpus is absent (it is not part of a user's clone).

use std::collections::BTreeMap;
use std::path::PathBuf;

use kifu::check::{CheckOptions, check_bytes};
use kifu::diag::Code;

mod common;

/// What one part of the corpus gave.
#[derive(Default)]
struct Tally {
    files: usize,
    games: usize,
    by_code: BTreeMap<&'static str, usize>,
    refused: Vec<PathBuf>,
}

/// Checks every file on 2 threads, asserting per-file invariants.
fn check_all(files: &[PathBuf]) -> Tally {
    let half = files.len().div_ceil(2);
    let tallies: Vec<Tally> = std::thread::scope(|s| {
        let workers: Vec<_> = files.chunks(half.max(1)).map(|chunk| s.spawn(move || check_chunk(chunk))).collect();
        workers.into_iter().map(|w| w.join().expect("no panic")).collect()
    });
    let mut total = Tally::default();
    for t in tallies {
        total.files += t.files;
        total.games += t.games;
        total.refused.extend(t.refused);
        for (code, n) in t.by_code {
            *total.by_code.entry(code).or_default() += n;
        }
    }
    total
}

fn check_chunk(files: &[PathBuf]) -> Tally {
    let mut tally = Tally::default();
    for path in files {
        let bytes = std::fs::read(path).unwrap();
        let result = check_bytes(&bytes, &CheckOptions::default());
        let lines = result.source.text().lines().count().max(1) as u32;
        for d in &result.diagnostics {
            assert!(d.line >= 1 && d.line <= lines + 1 && d.column >= 1, "{}: {d:?}", path.display());
            *tally.by_code.entry(d.code.name()).or_default() += 1;
        }
        if result.games == 0 {
            tally.refused.push(path.clone());
        }
        tally.files += 1;
        tally.games += result.games;
    }
    tally
}

fn count(t: &Tally, code: Code) -> usize {
    t.by_code.get(code.name()).copied().unwrap_or(0)
}

#[test]
fn kgs_archive_is_read_whole() {
    let Some(root) = common::corpus_dir("") else { return };
    let t = check_all(&common::sgf_files(&root.join("kgs")));
    eprintln!("kgs: {} files, {} games, {:?}", t.files, t.games, t.by_code);
    assert_eq!((t.files, t.games), (26_802, 26_802));
    assert!(t.refused.is_empty());
    // Two KGS records claim HA[9] yet Black plays first on a star point.
    assert!(count(&t, Code::OccupiedPoint) <= 2);
}

#[test]
fn fox_files_get_their_known_defects() {
    let Some(root) = common::corpus_dir("") else { return };
    let t = check_all(&common::sgf_files(&root.join("fox-pro")));
    eprintln!("fox-pro: {} files, {} games, {:?}", t.files, t.games, t.by_code);
    assert_eq!(t.files, 10_349);
    assert!(t.refused.is_empty(), "{:?}", t.refused);
    // Names cut inside UTF-8 characters, AP twice in the root, trees that lost their '('.
    assert!(count(&t, Code::InvalidBytes) > 9_000);
    assert!(count(&t, Code::DuplicateProperty) > 8_000);
    assert_eq!(count(&t, Code::MissingOpenParen), 19);
    assert!(count(&t, Code::HandicapMismatch) > 100);
}

#[test]
fn ai_games_and_suites_parse() {
    let Some(root) = common::corpus_dir("") else { return };
    let mut files = common::sgf_files(&root.join("ai-games"));
    files.extend(common::sgf_files(&root.join("suites")));
    let t = check_all(&files);
    eprintln!("ai-games + suites: {} files, {} games, {:?}", t.files, t.games, t.by_code);
    // The only refusals: littlego's deliberate non-SGF file, Pachi's
    // symbolic links stored as text, and GNU Go's empty 'nightmare.sgf'.
    for path in &t.refused {
        let p = path.to_string_lossy();
        let expected = p.contains("not-an-sgf-file") || p.contains("pachi/t-regress/old/by-") || p.ends_with("nightmare.sgf");
        assert!(expected, "refused: {p}");
    }
    assert_eq!(t.refused.len(), 25);
    // GNU Go's five files that are not UTF-8 are decoded, and say how.
    assert!(count(&t, Code::CharsetDetected) + count(&t, Code::CharsetMismatch) >= 5);
    // Fuego's CA[UTF8] is read as UTF-8, not as an unknown charset: the two
    // unknown ones are littlego's CA[FOO] and SGFC's CA[unknown].
    assert_eq!(count(&t, Code::UnknownCharset), 2);
}
