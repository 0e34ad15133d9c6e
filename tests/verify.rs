//! `result-mismatch` and `result-unverified`: what `kifu check --score` and
//! `kifu score` say when a recount disagrees with `RE[]`, driven through the
//! binary on small fixtures, one per cause.

use assert_cmd::Command;
use serde_json::Value;

fn kifu() -> Command {
    Command::cargo_bin("kifu").unwrap()
}

/// The diagnostics `kifu check --score` gives the file: (code, severity,
/// message).
fn check_score(file: &str) -> Vec<(String, String, String)> {
    check_score_with(&[], file)
}

fn check_score_with(flags: &[&str], file: &str) -> Vec<(String, String, String)> {
    let out = kifu().args(["check", "--score", "--format", "json"]).args(flags).arg(file).output().unwrap();
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{file}: {e}: {}", String::from_utf8_lossy(&out.stdout)));
    let text = |d: &Value, k: &str| d[k].as_str().unwrap().to_string();
    doc["diagnostics"].as_array().unwrap().iter().map(|d| (text(d, "code"), text(d, "severity"), text(d, "message"))).collect()
}

/// The one result diagnostic of the file.
fn verdict_of(file: &str) -> (String, String, String) {
    verdict_with(&[], file)
}

fn verdict_with(flags: &[&str], file: &str) -> (String, String, String) {
    let found: Vec<_> = check_score_with(flags, file).into_iter().filter(|(code, ..)| code.starts_with("result-")).collect();
    assert_eq!(found.len(), 1, "{file}: {found:?}");
    found.into_iter().next().unwrap()
}

/// `kifu score --format json` of the file's first game.
fn score_json(file: &str) -> Value {
    let out = kifu().args(["score", "--format", "json", file]).output().unwrap();
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{file}: {e}: {}", String::from_utf8_lossy(&out.stdout)))
}

#[test]
fn a_sure_recount_that_nothing_explains_is_a_mismatch() {
    let (code, severity, message) = verdict_of("fixtures/score/result-mismatch.sgf");
    assert_eq!((code.as_str(), severity.as_str()), ("result-mismatch", "warning"));
    assert!(message.contains("RE[B+3] but the recount gives 0; cause: none found"), "{message}");
    let json = score_json("fixtures/score/result-mismatch.sgf");
    assert_eq!(json["verified"], false);
    assert_eq!(json["doubts"], Value::Array(Vec::new()));
    assert!(json["cause"].as_str().unwrap().starts_with("none found (checked: komi"), "{json}");
}

#[test]
fn a_komi_the_margin_cannot_come_from_is_a_mismatch_naming_the_komi_that_fits() {
    let (code, severity, message) = verdict_of("fixtures/score/result-mismatch-komi.sgf");
    assert_eq!((code.as_str(), severity.as_str()), ("result-mismatch", "warning"));
    assert!(message.contains("; cause: RE's margin cannot come from komi 0: komi 6.5 makes RE fit"), "{message}");
}

#[test]
fn an_unfinished_game_is_unverified() {
    let (code, severity, message) = verdict_of("fixtures/score/result-unverified-unfinished.sgf");
    assert_eq!((code.as_str(), severity.as_str()), ("result-unverified", "info"));
    assert!(message.contains("the game is unfinished (no two passes, no markup)"), "{message}");
    assert!(message.contains("8 points still open"), "{message}");
    let json = score_json("fixtures/score/result-unverified-unfinished.sgf");
    assert_eq!(json["verified"], false);
    assert_eq!(json["doubts"][0], "unfinished");
}

/// A stone in atari nobody captured: the players left it unmarked, and RE
/// counts it alive.
#[test]
fn a_dead_stone_left_in_atari_counted_alive_is_unverified() {
    let (code, severity, message) = verdict_of("fixtures/score/result-unverified-uncaptured.sgf");
    assert_eq!((code.as_str(), severity.as_str()), ("result-unverified", "info"));
    assert!(message.contains("RE fits if the group at E4 is alive (dead in the recount, alive in RE's count)"), "{message}");
    assert!(message.contains("in doubt: a dead chain one or two moves from capture that nobody captured"), "{message}");
    let json = score_json("fixtures/score/result-unverified-uncaptured.sgf");
    assert_eq!(json["verified"], false);
    assert!(json["cause"].as_str().unwrap().starts_with("RE fits if the group at E4 is alive"), "{json}");
}

#[test]
fn a_necessary_connection_left_unmade_is_a_convention() {
    let (code, severity, message) = verdict_of("fixtures/score/result-unverified-connections.sgf");
    assert_eq!((code.as_str(), severity.as_str()), ("result-unverified", "info"));
    assert!(message.contains("RE is the count without the necessary connections"), "{message}");
}

/// The estimate finds the seki's white chain dead: so the seki is counted
/// from the board as it stands.
#[test]
fn another_seki_eye_rule_is_a_convention() {
    let (code, _, message) = verdict_with(&["--dead-stones", "none"], "fixtures/score/result-unverified-seki-eyes.sgf");
    assert_eq!(code, "result-unverified");
    assert!(message.contains("RE is the count with --seki-eyes kgs"), "{message}");
}

#[test]
fn a_confirmed_result_is_verified_and_gives_no_diagnostic() {
    let file = "fixtures/score/necessary-connection-after-dame.sgf";
    assert!(check_score(file).iter().all(|(code, ..)| !code.starts_with("result-")));
    let json = score_json(file);
    assert_eq!(json["agrees"], true);
    assert_eq!(json["verified"], true);
    assert_eq!(json["cause"], Value::Null);
}

#[test]
fn score_text_says_whether_the_disagreement_is_sure() {
    let text = |file: &str| String::from_utf8(kifu().args(["score", file]).output().unwrap().stdout).unwrap();
    assert!(text("fixtures/score/result-mismatch-komi.sgf").contains("recorded RE[W+6.5]: DISAGREES (cause: RE's margin cannot come from komi 0"));
    let unfinished = text("fixtures/score/result-unverified-unfinished.sgf");
    assert!(unfinished.contains("recorded RE[B+10]: disagrees, unverified (cause: the game is unfinished"), "{unfinished}");
    assert!(!unfinished.contains("not sure: the game is unfinished"), "said once: {unfinished}");
}
