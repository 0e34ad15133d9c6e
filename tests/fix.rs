//! `check --fix`: each repair kind on a fixture (the fixed file and the
//! change list, as snapshots in tests/snapshots/), the JSON `fixes`,
//! `--dry-run`, and the corpus: every fixed copy holds nothing left to
//! repair, no new problem, and the positions of the original.

mod common;

use std::collections::HashMap;
use std::path::Path;

use assert_cmd::Command;
use kifu::check::{CheckOptions, check_bytes};
use kifu::diag::Code;
use kifu::repair::{self, Repaired};
use kifu::replay::{self, RuleOverrides};
use kifu::sgf::{self, GameTree, ParseOptions};

fn kifu() -> Command {
    Command::cargo_bin("kifu").unwrap()
}

/// The fixed copy and the change list of one fixture, as the user sees them.
fn fixed_and_changes(fixture: &Path) -> String {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("fixed.sgf");
    let run = kifu().args(["check", "-q", "--fix", "-o"]).arg(&out).arg(fixture).output().unwrap();
    assert_eq!(run.status.code().map(|c| c < 2), Some(true), "{}", String::from_utf8_lossy(&run.stderr));
    let text = std::fs::read_to_string(&out).unwrap();
    let listing = kifu().args(["check", "--fix", "--dry-run"]).arg(fixture).output().unwrap();
    let changes = String::from_utf8_lossy(&listing.stderr).replace(&*fixture.to_string_lossy(), "FIXTURE");
    format!("{text}\n--- changes ---\n{changes}")
}

#[test]
fn each_repair_kind_gives_its_fixed_file() {
    let mut fixtures: Vec<_> = std::fs::read_dir("fixtures/fix").unwrap().map(|e| e.unwrap().path()).collect();
    fixtures.sort();
    assert!(fixtures.len() >= 13);
    for fixture in fixtures {
        let name = fixture.file_stem().unwrap().to_string_lossy().to_string();
        insta::assert_snapshot!(format!("fix_{name}"), fixed_and_changes(&fixture));
    }
}

#[test]
fn json_lists_the_fixes_and_dry_run_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("fixed.sgf");
    let run = kifu().args(["check", "--format", "json", "--fix", "--dry-run", "-o"]).arg(&out).arg("fixtures/fix/date-with-time.sgf").output().unwrap();
    assert!(!out.exists(), "--dry-run wrote {}", out.display());
    let doc: serde_json::Value = serde_json::from_slice(&run.stdout).unwrap();
    let fixes = doc["fixes"].as_array().unwrap();
    let date = fixes.iter().find(|f| f["old"] == "DT[2017.08.09 02:47]").unwrap_or_else(|| panic!("{doc}"));
    assert_eq!(date["file"], "fixtures/fix/date-with-time.sgf");
    assert_eq!((date["game"].as_u64(), date["line"].as_u64(), date["column"].as_u64()), (Some(0), Some(1), Some(28)));
    assert_eq!((date["code"].as_str(), date["new"].as_str(), date["kept_in"].as_str()), (Some("invalid-value"), Some("DT[2017-08-09]"), Some("GC")));
    // Without --fix the document has no fixes; --fix needs -o or --dry-run.
    let plain = kifu().args(["check", "--format", "json", "fixtures/fix/date-with-time.sgf"]).output().unwrap();
    let doc: serde_json::Value = serde_json::from_slice(&plain.stdout).unwrap();
    assert!(doc.get("fixes").is_none(), "{doc}");
    kifu().args(["check", "--fix", "fixtures/fix/date-with-time.sgf"]).assert().code(2);
}

// ---------------------------------------------------------------------------
// The corpus

/// Record files under `dir` (SGF and the other formats kifu reads).
fn records(dir: &Path) -> Vec<std::path::PathBuf> {
    walkdir::WalkDir::new(dir)
        .sort_by_file_name()
        .into_iter()
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_file())
        .map(walkdir::DirEntry::into_path)
        .filter(|p| p.extension().is_some_and(|x| ["sgf", "gib", "ngf", "ugf", "ugi"].iter().any(|e| x.eq_ignore_ascii_case(e))))
        .collect()
}

/// The stones at the end of every line of a game (leaves in preorder), at most 200.
fn leaf_positions(game: &GameTree) -> Vec<Vec<u8>> {
    let leaves = game.nodes().filter(|n| n.child_count() == 0).take(200);
    leaves
        .map(|leaf| match replay::position_at(game, leaf.id(), &RuleOverrides::default()) {
            None => Vec::new(),
            Some(p) => {
                let b = &p.board;
                (0..b.height()).flat_map(|y| (0..b.width()).map(move |x| (x, y))).map(|(x, y)| b.point(x, y).map_or(9, |pt| b.cell(pt) as u8)).collect()
            }
        })
        .collect()
}

/// Problems the repairs answer: none may be left in a fixed copy.
fn repairable(code: Code, message: &str) -> bool {
    match code {
        Code::OldIdentifier => true,
        // Two moves in one node are left: which came first is not known.
        Code::DuplicateProperty => !message.contains("in one node") && !message.starts_with("property B ") && !message.starts_with("property W "),
        Code::InvalidValue => ["takes one value", "expected name:version", "a move annotation in a node without a move"].iter().any(|m| message.contains(m)),
        _ => false,
    }
}

/// What is wrong with the fixed copy of one file, if anything.
fn judge(name: &str, bytes: &[u8], options: &CheckOptions) -> Result<(), String> {
    let parse = ParseOptions::default();
    let fixed: Repaired = repair::repair_file(bytes, name, &parse);
    if fixed.no_game.is_some() {
        return Ok(());
    }
    let again = repair::repair_file(fixed.text.as_bytes(), name, &parse);
    if let Some(fix) = again.fixes.first() {
        return Err(format!("the fixed copy still needs a repair: {fix}"));
    }
    let count = |bytes: &[u8]| {
        let mut by_code: HashMap<Code, usize> = HashMap::new();
        let check = check_bytes(bytes, options);
        for d in &check.diagnostics {
            *by_code.entry(d.code).or_default() += 1;
        }
        (check, by_code)
    };
    let (after, after_codes) = count(fixed.text.as_bytes());
    if let Some(d) = after.diagnostics.iter().find(|d| repairable(d.code, &d.message)) {
        return Err(format!("the fixed copy reports {} at {}:{}: {}", d.code, d.line, d.column, d.message));
    }
    let (_, before_codes) = count(bytes);
    for (code, n) in &after_codes {
        let was = before_codes.get(code).copied().unwrap_or(0);
        // HA is checked against the root's first AB: merged with a
        // repeated AB, it may count the stones of a problem set up there.
        let merged_setup = *code == Code::HandicapMismatch && before_codes.contains_key(&Code::DuplicateProperty);
        // FF[1]-FF[3] properties FF[4] dropped are kept: an FF[4] copy
        // reports them as unknown.
        if *n > was && !merged_setup && *code != Code::UnknownProperty {
            return Err(format!("the fixed copy has {n} {code} (the original {was})"));
        }
    }
    let original = kifu::formats::read(bytes, name, &parse);
    let copy = sgf::parse(fixed.text.as_bytes(), &parse);
    if original.collection.games.len() != copy.collection.games.len() {
        return Err("not the same number of games".into());
    }
    for (i, (a, b)) in original.collection.games.iter().zip(&copy.collection.games).enumerate() {
        if leaf_positions(a) != leaf_positions(b) {
            return Err(format!("game {}: the positions differ", i + 1));
        }
    }
    Ok(())
}

/// All of fox-pro and the suites, every third file of kgs and ai-games
/// (plain records, the repairs seldom apply: well under a minute);
/// `KIFU_FIX_WHOLE_CORPUS=1` takes every file.
#[test]
fn corpus_fixed_copies_need_no_repair_and_keep_every_position() {
    let Some(corpus) = common::corpus_dir("") else { return };
    let whole = std::env::var_os("KIFU_FIX_WHOLE_CORPUS").is_some();
    let step = |part: &str| if whole || matches!(part, "fox-pro" | "suites") { 1 } else { 3 };
    let files: Vec<_> = ["fox-pro", "kgs", "ai-games", "suites"].iter().flat_map(|part| records(&corpus.join(part)).into_iter().step_by(step(part))).collect();
    let options = CheckOptions::default();
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let failures: Vec<String> = std::thread::scope(|scope| {
        let chunks: Vec<_> = files.chunks(files.len().div_ceil(threads).max(1)).collect();
        let workers: Vec<_> = chunks
            .into_iter()
            .map(|chunk| {
                let options = &options;
                scope.spawn(move || {
                    let mut failures = Vec::new();
                    for path in chunk {
                        let Ok(bytes) = std::fs::read(path) else { continue };
                        if let Err(e) = judge(&path.to_string_lossy(), &bytes, options) {
                            failures.push(format!("{}: {e}", path.display()));
                        }
                    }
                    failures
                })
            })
            .collect();
        workers.into_iter().flat_map(|w| w.join().unwrap()).collect()
    });
    eprintln!("{} files fixed, {} failures", files.len(), failures.len());
    assert!(failures.is_empty(), "{} of {} files:\n{}", failures.len(), files.len(), failures[..failures.len().min(30)].join("\n"));
}

/// Fox's even games with `KM[0]` and its `KM[375]` records: the copy says
/// the komi they were played with.
#[test]
fn corpus_fox_komi_is_written_as_played() {
    let Some(fox) = common::corpus_dir("fox-pro") else { return };
    let (mut even, mut stones) = (0, 0);
    for path in records(&fox) {
        let bytes = std::fs::read(&path).unwrap();
        let text = String::from_utf8_lossy(&bytes);
        let km0 = text.contains("KM[0]") && text.contains("HA[0]") && text.contains("RU[Japanese]");
        let km375 = text.contains("KM[375]");
        if !km0 && !km375 {
            continue;
        }
        let fixed = repair::repair_file(&bytes, &path.to_string_lossy(), &ParseOptions::default());
        let copy = sgf::parse(fixed.text.as_bytes(), &ParseOptions::default());
        let root = copy.collection.games[0].root();
        let km = root.get_value("KM").unwrap_or("");
        let (expected, seen) = if km375 { ("7.5", &mut stones) } else { ("6.5", &mut even) };
        // An even game set up with stones is not an even game.
        if km0 && (root.has("AB") || root.children().next().is_some_and(|n| n.has("AB"))) {
            continue;
        }
        assert_eq!(km, expected, "{}", path.display());
        *seen += 1;
    }
    eprintln!("{even} Fox even games with KM[0] and {stones} KM[375] records written with their komi");
    assert!(even > 400 && stones > 0, "{even} even games, {stones} KM[375]");
}
