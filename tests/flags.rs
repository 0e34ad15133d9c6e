//! Flags through the real binary: each is honoured or refused as a usage
//! error (exit 2, a message naming it), never silently ignored; `kifu.toml`
//! errors name the file and the key; `score` says why a game was not scored.

use std::fs;

use assert_cmd::Command;
use predicates::prelude::*;
use serde_json::Value;

mod common;

fn kifu() -> Command {
    Command::cargo_bin("kifu").unwrap()
}

/// Territory counting, ties to White: B+9 with the six dead chains at
/// A9 (aa), A6 (ad), G9 (ga), G5 (ge), H4 (hf) and H2 (hh) on 9x9.
const WORKED: &str = "fixtures/score/territory-counting-ties-to-white.sgf";

fn usage_error(args: &[&str], said: &str) {
    kifu().args(args).assert().code(2).stdout(predicate::str::is_empty()).stderr(predicate::str::contains(said));
}

#[test]
fn numbers_that_are_not_finite_are_refused() {
    for value in ["nan", "inf", "-inf", "1e400", "NaN"] {
        usage_error(&["score", &format!("--komi={value}"), WORKED], "not a finite number");
        usage_error(&["score", &format!("--handicap-bonus={value}"), WORKED], "not a finite number");
        usage_error(&["check", "--score", &format!("--komi={value}"), WORKED], "not a finite number");
        usage_error(&["check", &format!("--timeout-per-file={value}"), WORKED], "not a finite number");
    }
    usage_error(&["check", "--timeout-per-file", "1e300", WORKED], "--timeout-per-file must be a positive number of seconds");
    usage_error(&["score", "--komi", "seven", WORKED], "'seven' is not a number");
    // A negative komi is a komi (exit 1: RE[] disagrees with it).
    kifu().args(["score", "--komi", "-2.5", WORKED]).assert().code(1).stdout(predicate::str::contains("-2.5"));
}

#[test]
fn rescoring_flags_without_score_are_refused() {
    for flag in
        [&["--komi", "6.5"][..], &["--variation", "1"], &["--dead-stones", "none"], &["--ties", "white"], &["--seki-eyes", "count"], &["--handicap-bonus", "1"]]
    {
        let mut args = vec!["check"];
        args.extend(flag);
        args.push(WORKED);
        usage_error(&args, &format!("{} only apply with --score", flag[0]));
    }
    // With --score they are honoured; stones and lines of one game belong to `kifu score`.
    kifu().args(["check", "--score", "--komi", "6.5", WORKED]).assert().code(0);
    usage_error(&["check", "--score", "--variation", "1", WORKED], "use them with kifu score");
    usage_error(&["check", "--score", "--dead-stones", "aa", WORKED], "use them with kifu score");
}

#[test]
fn other_ignored_flags_are_honoured_or_refused() {
    usage_error(&["convert", "--to", "sgf", "--positions", WORKED], "--positions");
    usage_error(&["check", "--deny", "ko", "--allow", "ko", WORKED], "--deny ko and --allow ko contradict each other");
    usage_error(&["check", "--jobs", "0", WORKED], "at least 1");
    usage_error(&["check", "--ext", "games/*.kifu", "fixtures"], "not a file extension");
    // `--ext '*.kifu'` and `.kifu` mean kifu.
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("game.kifu"), "(;GM[1]SZ[9];B[ee];B[cc])").unwrap();
    for ext in ["*.kifu", ".kifu", "KIFU"] {
        kifu().args(["check", "--format", "json", "--ext", ext]).arg(dir.path()).assert().code(1).stdout(predicate::str::contains("double-move"));
    }
}

#[test]
fn a_flag_wins_over_kifu_toml_for_the_code_it_names() {
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("kifu.toml"), "[check]\ndeny = [\"empty-node\"]\n").unwrap();
    fs::write(dir.path().join("a.sgf"), "(;GM[1];;B[aa])").unwrap();
    kifu().current_dir(dir.path()).args(["check", "a.sgf"]).assert().code(1);
    kifu().current_dir(dir.path()).args(["check", "--allow", "empty-node", "a.sgf"]).assert().code(0).stdout(predicate::str::contains("empty-node").not());
    // And the other way: the file allows it, the flag denies it.
    fs::write(dir.path().join("kifu.toml"), "[check]\nallow = [\"empty-node\"]\n").unwrap();
    kifu().current_dir(dir.path()).args(["check", "a.sgf"]).assert().code(0);
    kifu().current_dir(dir.path()).args(["check", "--deny", "empty-node", "a.sgf"]).assert().code(1).stdout(predicate::str::contains("error[empty-node]"));
}

#[test]
fn kifu_toml_errors_name_the_file_and_the_key() {
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("kifu.toml");
    let game = dir.path().join("a.sgf");
    fs::copy(WORKED, &game).unwrap();
    for (text, said) in [
        ("rules = \"klingon\"", "kifu.toml: rules = \"klingon\": unknown ruleset"),
        ("deny = [\"nope\"]", "kifu.toml: deny: unknown diagnostic code 'nope'"),
        ("allow = [\"nope\"]", "kifu.toml: allow: unknown diagnostic code 'nope'"),
        ("extensions = [\"*.k/f\"]", "kifu.toml: extensions '*.k/f': not a file extension"),
        ("deny = [\"ko\"]\nallow = [\"ko\"]", "kifu.toml: deny ko and"),
    ] {
        fs::write(&config, format!("[check]\n{text}\n")).unwrap();
        let out = kifu().current_dir(dir.path()).args(["check", "a.sgf"]).output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{text}: {stderr}");
        assert!(stderr.contains(said) && !stderr.contains("--rules") && !stderr.contains("--deny"), "{text}: {stderr}");
    }
    // The flag, when it is the flag that is wrong.
    usage_error(&["check", "--no-config", "--rules", "klingon", WORKED], "--rules klingon: unknown ruleset");
}

#[test]
fn dead_stones_in_both_notations_and_bad_points_are_usage_errors() {
    let score = |list: &str| kifu().args(["score", "--ties", "white", "--format", "json", "--dead-stones", list, WORKED]).output().unwrap();
    for list in ["aa,ad,ga,ge,hf,hh", "A9,A6,G9,G5,H4,H2", "a9, ad ,g9,ge,h4,hh"] {
        let out = score(list);
        assert_eq!(out.status.code(), Some(0), "{list}: {}", String::from_utf8_lossy(&out.stderr));
        let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(doc["result"], "B+9", "{list}");
    }
    // Not a point at all: refused before anything is read.
    usage_error(&["score", "--dead-stones", "x1y", WORKED], "--dead-stones x1y");
    // Empty, or off this board: said on stderr and in the JSON, exit 2.
    for (list, said) in [
        ("E1", "--dead-stones E1 (ei): no stone there"),
        ("K10", "--dead-stones K10: [K10]: off a board 9 rows high"),
        ("jj", "--dead-stones jj: off the board"),
    ] {
        let out = score(list);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{list}");
        assert!(stderr.contains(said), "{list}: {stderr}");
        let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
        assert!(doc["error"].as_str().unwrap().contains(said), "{list}: {doc}");
    }
}

#[test]
fn dead_stones_markup_on_a_game_without_markup_says_so() {
    kifu()
        .args(["score", "--dead-stones", "markup", "fixtures/score/ties-to-white.sgf"])
        .assert()
        .stdout(predicate::str::contains("warning[missing-markup]: --dead-stones markup: the game has no TB/TW/DD markup"));
    kifu().args(["score", "--dead-stones", "markup", WORKED]).assert().stdout(predicate::str::contains("missing-markup").not());
}

#[test]
fn a_missing_variation_is_named() {
    let game = "fixtures/syntax/missing-open-paren.sgf";
    for (variation, said) in [
        ("5", "no variation 5 at the branch point after move 2, which has 2 (0-1)"),
        ("0,1", "no variation 1 after move 3: the line has no branch point there"),
    ] {
        kifu()
            .args(["score", "--variation", variation, game])
            .assert()
            .code(2)
            .stderr(predicate::str::contains(said).and(predicate::str::contains("SZ").not()));
    }
    kifu()
        .args(["score", "--variation", "1", game])
        .assert()
        .stderr(predicate::str::contains("no variation").not())
        .stdout(predicate::str::contains("(game 1, variation 1)"));
}

#[test]
fn score_skips_games_that_are_not_go() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("two.sgf");
    fs::write(&path, "(;GM[1]SZ[9];B[ee];W[cc])(;GM[19]SZ[9]AB[aa:bb])").unwrap();
    let out = kifu().args(["score", "--format", "json"]).arg(&path).output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    let rows: Vec<Value> = String::from_utf8(out.stdout).unwrap().lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert!(rows[0]["result"].is_string(), "{}", rows[0]);
    assert_eq!(rows[1]["error"], "not a game of Go (GM[19]); not scored");
    assert_eq!(rows[1]["code"], "not-go");
    assert!(String::from_utf8_lossy(&out.stderr).contains("(game 2): not-go: not a game of Go (GM[19])"));
    // The libsgfcplusplus file of the issue: its game 2 is GM[19].
    let Some(dir) = common::corpus_dir("suites/libsgfcplusplus/test/test-files") else { return };
    let out = kifu().arg("score").arg(dir.join("compressed-point-list.sgf")).output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("(game 1, main line)") && !stdout.contains("(game 2"), "{stdout}");
    assert!(String::from_utf8_lossy(&out.stderr).contains("(game 2): not-go: not a game of Go (GM[19])"));
}

#[test]
fn score_help_says_its_exit_status() {
    let out = kifu().args(["score", "--help"]).output().unwrap();
    let help = String::from_utf8_lossy(&out.stdout);
    assert!(help.contains("Exit status") && help.contains("1 when a recount disagrees with RE[]"), "{help}");
}

#[test]
fn user_facing_text_names_rules_by_what_they_are() {
    // Help, man pages and fixture names say "territory counting, ties to
    // White", not the name of a file the rules came from.
    let mut texts = vec![String::from_utf8(kifu().arg("man").output().unwrap().stdout).unwrap()];
    for sub in ["check", "score", "convert", "info"] {
        texts.push(String::from_utf8(kifu().args(["man", sub]).output().unwrap().stdout).unwrap());
        texts.push(String::from_utf8(kifu().args([sub, "--help"]).output().unwrap().stdout).unwrap());
    }
    for text in &texts {
        let lower = text.to_lowercase();
        assert!(!lower.contains("seed") && !lower.contains("the issue"), "{text}");
    }
    assert!(texts.iter().any(|t| t.contains("ties to White")), "the --ties help names the rule");
    for doc in ["README.md", "docs/diagnostics.md", "docs/accuracy.md"] {
        let text = fs::read_to_string(doc).unwrap();
        assert!(!text.contains("the issue's figure") && !text.to_lowercase().contains("seed 00"), "{doc}");
    }
    for entry in fs::read_dir("fixtures/score").unwrap() {
        let name = entry.unwrap().file_name().to_string_lossy().to_lowercase();
        assert!(!name.contains("seed"), "{name}");
    }
}
