//! What the parser recovers from broken files, through the real binary:
//! nothing in the file is lost, and `--fix` writes all of it back.

use std::fs;

use assert_cmd::Command;
use serde_json::Value;

mod common;

fn kifu() -> Command {
    Command::cargo_bin("kifu").unwrap()
}

/// `kifu info --format json` on `path`: one summary per game.
fn game_summaries(path: &std::path::Path) -> Vec<Value> {
    let out = kifu().args(["info", "--format", "json"]).arg(path).output().unwrap();
    String::from_utf8(out.stdout).unwrap().lines().map(|l| serde_json::from_str::<Value>(l).unwrap()["summary"].clone()).collect()
}

#[test]
fn a_tree_that_lost_its_open_paren_keeps_its_root_and_variations() {
    let path = std::path::Path::new("fixtures/syntax/missing-open-paren.sgf");
    let games = game_summaries(path);
    assert_eq!(games.len(), 1, "one game, not one per variation: {games:?}");
    assert_eq!((&games[0]["black"], &games[0]["rules"], &games[0]["board_size"]["width"]), (&"Alice".into(), &"Chinese".into(), &9.into()));
    // --fix writes the whole game: root, first moves and both variations.
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("fixed.sgf");
    kifu().args(["check", "--fix", "-o"]).arg(&out).arg(path).assert().code(0);
    let fixed = fs::read_to_string(&out).unwrap();
    for kept in ["PB[Alice]", "RU[Chinese]", "RE[W+1]", ";B[ee]", ";W[cc]", "(;B[gg])", "(;B[gc])"] {
        assert!(fixed.contains(kept), "{kept} lost: {fixed}");
    }
    assert_eq!(game_summaries(&out).len(), 1);
}

/// The Fox files of the issue: every one with variations is one game with
/// its root (players, rules, result), and `--fix` keeps it so.
#[test]
fn fox_files_that_lost_their_open_paren_keep_their_root() {
    let Some(dir) = common::corpus_dir("fox-pro/part2/9p") else { return };
    let files: Vec<_> = common::sgf_files(&dir)
        .into_iter()
        .filter(|p| {
            let name = p.file_name().unwrap().to_string_lossy();
            name.ends_with("080010073.sgf") && (name.starts_with("15507") || name == "1550647789080010073.sgf")
        })
        .collect();
    let with_variations: Vec<_> = files.iter().filter(|p| fs::read(p).unwrap().windows(2).any(|w| w == b"(;")).collect();
    assert!(with_variations.len() >= 9, "{files:?}");
    let scratch = tempfile::tempdir().unwrap();
    for path in with_variations {
        let games = game_summaries(path);
        assert_eq!(games.len(), 1, "{}", path.display());
        assert!(games[0]["black"].is_string() && games[0]["rules"] == "Chinese" && games[0]["result"].is_string(), "{}: {}", path.display(), games[0]);
        let out = scratch.path().join(path.file_name().unwrap());
        kifu().args(["check", "--fix", "-o"]).arg(&out).arg(path).assert().code(0);
        let fixed = game_summaries(&out);
        assert_eq!(fixed.len(), 1, "{}", out.display());
        assert_eq!((&fixed[0]["black"], &fixed[0]["moves"]), (&games[0]["black"], &games[0]["moves"]), "{}", path.display());
    }
}
