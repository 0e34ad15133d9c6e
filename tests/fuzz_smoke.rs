//! The fuzz targets (fuzz/targets.rs) on stable, as a normal test: every
//! fixture and a deterministic sample of ../shared/corpus, each as it is and
//! under seeded random byte mutations, through the parser, the charset
//! decoder, the replay, the scorer and the JSON reader. No nightly, no
//! libFuzzer: a smoke run, bounded to about 20 s in release mode, that
//! catches regressions of what the real fuzzers found. A failing input is
//! written to target/fuzz-smoke-failures/ for `cargo fuzz run TARGET FILE`.
//! The corpus part is skipped, saying so, when the corpus is absent.

#[path = "../fuzz/targets.rs"]
mod targets;

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

mod common;
use common::Rng;

/// Bytes that matter to SGF, to charsets and to JSON.
const INTERESTING: &[u8] = b"()[];\\:\n\r \t\0\"{},CA\xff\xfe\xc3\x80\xe4\x1b";

/// One to four random edits of `data`: flips, insertions, deletions,
/// duplications, truncation, and splices from `other`.
fn mutate(data: &[u8], other: &[u8], rng: &mut Rng) -> Vec<u8> {
    let mut out = data.to_vec();
    for _ in 0..1 + rng.below(4) {
        let at = rng.below(out.len() + 1);
        match rng.below(8) {
            0 if !out.is_empty() => {
                let i = rng.below(out.len());
                out[i] ^= 1 << rng.below(8);
            }
            1 => out.insert(at, INTERESTING[rng.below(INTERESTING.len())]),
            2 => out.insert(at, rng.next() as u8),
            3 if at < out.len() => {
                let end = (at + 1 + rng.below(16)).min(out.len());
                out.drain(at..end);
            }
            4 if at < out.len() => {
                let end = (at + 1 + rng.below(64)).min(out.len());
                let chunk = out[at..end].to_vec();
                let to = rng.below(out.len() + 1);
                out.splice(to..to, chunk);
            }
            5 => out.truncate(at),
            6 if !other.is_empty() => {
                let from = rng.below(other.len());
                let end = (from + 1 + rng.below(64)).min(other.len());
                out.splice(at..at, other[from..end].iter().copied());
            }
            _ => {
                let i = rng.below(out.len().max(1));
                if i < out.len() {
                    out[i] = INTERESTING[rng.below(INTERESTING.len())];
                }
            }
        }
    }
    out
}

/// The small SGF files under `dir` (at most 64 KB), in path order.
fn sgf_files(dir: &Path) -> Vec<PathBuf> {
    let mut files = common::sgf_files(dir);
    files.retain(|f| std::fs::metadata(f).is_ok_and(|m| m.len() <= 64 * 1024));
    files
}

/// `per_part` files at even steps through each part of the corpus.
fn corpus_sample(per_part: usize) -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus");
    if !dir.is_dir() {
        eprintln!("fuzz_smoke: corpus part SKIPPED: no corpus at {} (it lives outside the repository)", dir.display());
        return Vec::new();
    }
    let mut parts = vec![dir.join("kgs"), dir.join("fox-pro"), dir.join("ai-games")];
    if let Ok(suites) = std::fs::read_dir(dir.join("suites")) {
        let mut suites: Vec<PathBuf> = suites.filter_map(Result::ok).map(|e| e.path()).filter(|p| p.is_dir()).collect();
        suites.sort();
        parts.extend(suites);
    }
    let mut out = Vec::new();
    for part in parts {
        let files = sgf_files(&part);
        let step = (files.len() / per_part).max(1);
        out.extend(files.into_iter().step_by(step).take(per_part));
    }
    out
}

type Target = fn(&[u8]);

const TARGETS: [(&str, Target); 5] =
    [("parse", targets::parse), ("decode", targets::decode), ("replay", targets::replay), ("score", targets::score), ("json", targets::json)];

/// Runs one target on one input; on a panic saves the input and returns
/// where.
fn run(name: &str, target: Target, input: &[u8], what: &str) -> Result<(), String> {
    let Err(payload) = catch_unwind(AssertUnwindSafe(|| target(input))) else { return Ok(()) };
    let message = payload.downcast_ref::<String>().map(String::as_str).or(payload.downcast_ref::<&str>().copied()).unwrap_or("?");
    let message: String = message.chars().take(300).collect();
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("../fuzz-smoke-failures");
    let _ = std::fs::create_dir_all(&dir);
    let file = dir.join(format!("{name}-{:016x}", fxhash(input)));
    let _ = std::fs::write(&file, input);
    Err(format!("target {name} panicked on {what} ({message}); input saved to {}", file.display()))
}

fn fxhash(data: &[u8]) -> u64 {
    data.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &b| (h ^ b as u64).wrapping_mul(0x100_0000_01b3))
}

#[test]
fn fuzz_targets_survive_fixtures_and_mutated_corpus_files() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = sgf_files(&root.join("fixtures"));
    let fixtures = files.len();
    files.extend(corpus_sample(10));
    let inputs: Vec<(String, Vec<u8>)> = files.iter().map(|p| (p.strip_prefix(root).unwrap_or(p).display().to_string(), std::fs::read(p).unwrap())).collect();
    // Mutations per input: more for the small fixtures than for real games.
    let rounds = |i: usize| if i < fixtures { 16 } else { 8 };
    let budget = Duration::from_secs(20);
    let started = Instant::now();
    let mut failures = Vec::new();
    let mut runs = 0usize;
    let mut cut_short = false;
    let quiet = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    'inputs: for (i, (name, bytes)) in inputs.iter().enumerate() {
        let parsed = kifu::sgf::parse(bytes, &Default::default());
        let json = kifu::json::to_json(name, &parsed, &Default::default());
        let other = &inputs[(i * 7 + 3) % inputs.len()].1;
        let mut rng = Rng(0x6b69_6675 ^ (i as u64) << 20);
        for round in 0..=rounds(i) {
            if started.elapsed() > budget {
                cut_short = true;
                break 'inputs;
            }
            // Round 0: the file as it is; then mutations.
            let sgf = if round == 0 { bytes.clone() } else { mutate(bytes, other, &mut rng) };
            let doc = if round == 0 { json.clone().into_bytes() } else { mutate(json.as_bytes(), b"{\"nodes\":[{\"props\":[]}]}", &mut rng) };
            for (target, f) in TARGETS {
                let input = if target == "json" { &doc } else { &sgf };
                runs += 1;
                if let Err(e) = run(target, f, input, &format!("{name}, round {round}")) {
                    failures.push(e);
                }
            }
        }
    }
    std::panic::set_hook(quiet);
    eprintln!(
        "fuzz_smoke: {} inputs ({fixtures} fixtures), {runs} target runs in {:.1?}{}",
        inputs.len(),
        started.elapsed(),
        if cut_short { " (stopped at the time budget)" } else { "" }
    );
    for f in failures.iter().take(20) {
        eprintln!("  {f}");
    }
    assert!(runs > 5 * fixtures, "too few runs: {runs}");
    assert!(failures.is_empty(), "{} target runs failed (first shown above)", failures.len());
}
