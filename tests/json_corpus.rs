//! Every `.sgf` file of the shared corpus (`../shared/corpus`, outside the
//! repository) survives both conversions kifu offers:
//!
//! - SGF → JSON (`kifu/1`) → model gives the model parsed from the file;
//! - model → SGF → model gives it too, as text (`parse_str`) and as the
//!   UTF-8 bytes `kifu convert --to sgf` writes (`CA[UTF-8]` set in each
//!   root, read back through the charset step).
//!
//! Skips, saying so, when the corpus is absent.

use std::path::Path;

use kifu::json::{JsonOptions, from_json, set_utf8_charset, to_json};
use kifu::sgf::{parse, parse_str, write_collection};

mod common;

#[derive(Default)]
struct Counts {
    files: usize,
    games: usize,
    nodes: usize,
    json_bytes: usize,
    /// (file, what went wrong)
    failures: Vec<(String, String)>,
}

fn check_file(path: &Path, with_positions: bool, counts: &mut Counts) {
    let bytes = match std::fs::read(path) {
        Ok(b) => b,
        Err(e) => {
            counts.failures.push((path.display().to_string(), format!("cannot read: {e}")));
            return;
        }
    };
    let parsed = parse(&bytes, &Default::default());
    counts.files += 1;
    counts.games += parsed.collection.games.len();
    counts.nodes += parsed.collection.games.iter().map(|g| g.len()).sum::<usize>();
    let name = path.display().to_string();
    let fail = |counts: &mut Counts, what: &str| counts.failures.push((name.clone(), what.to_string()));

    let options = JsonOptions { positions: with_positions, pretty: false };
    let json = to_json(&name, &parsed, &options);
    counts.json_bytes += json.len();
    if json.contains('\n') {
        fail(counts, "JSON output is not one line");
    }
    match from_json(&json) {
        Ok(doc) if doc.collection == parsed.collection && doc.file.as_deref() == Some(name.as_str()) => {}
        Ok(_) => fail(counts, "JSON → model differs from the parsed model"),
        Err(e) => fail(counts, &format!("JSON does not read back: {e}")),
    }

    let sgf = write_collection(&parsed.collection);
    if parse_str(&sgf).collection != parsed.collection {
        fail(counts, "model → SGF text → model differs");
    }

    let utf8 = set_utf8_charset(&parsed.collection);
    let again = parse(write_collection(&utf8).as_bytes(), &Default::default());
    if again.collection != utf8 {
        fail(counts, &format!("model → UTF-8 SGF bytes → model differs (read as {})", again.encoding.name()));
    }
}

#[test]
fn corpus_round_trips_through_json_and_sgf() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus");
    if !dir.is_dir() {
        eprintln!("json_corpus: SKIPPED: no corpus at {} (it lives outside the repository)", dir.display());
        return;
    }
    let files = common::sgf_files(&dir);
    let threads = 2;
    let started = std::time::Instant::now();
    let parts: Vec<Counts> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                let files = &files;
                s.spawn(move || {
                    let mut counts = Counts::default();
                    for (i, path) in files.iter().enumerate().skip(t).step_by(threads) {
                        // Positions on one file in sixteen: they only add
                        // members the reader skips.
                        check_file(path, i % 16 == 0, &mut counts);
                    }
                    counts
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().expect("checker thread")).collect()
    });
    let mut total = Counts::default();
    for part in parts {
        total.files += part.files;
        total.games += part.games;
        total.nodes += part.nodes;
        total.json_bytes += part.json_bytes;
        total.failures.extend(part.failures);
    }
    total.failures.sort();
    eprintln!(
        "json_corpus: {} files, {} games, {} nodes, {} MB of JSON in {:.1?}: {} round-trip, {} failed",
        total.files,
        total.games,
        total.nodes,
        total.json_bytes / 1_000_000,
        started.elapsed(),
        total.files - failed_files(&total.failures),
        failed_files(&total.failures),
    );
    for (file, what) in total.failures.iter().take(30) {
        eprintln!("  {file}: {what}");
    }
    assert!(total.files > 0, "no .sgf file under {}", dir.display());
    assert!(total.failures.is_empty(), "{} failures (first shown above)", total.failures.len());
}

fn failed_files(failures: &[(String, String)]) -> usize {
    let mut files: Vec<&str> = failures.iter().map(|(file, _)| file.as_str()).collect();
    files.dedup();
    files.len()
}
