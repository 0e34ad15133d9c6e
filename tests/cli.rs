//! Drives the real `kifu` binary over the fixtures: codes, positions, exit
//! statuses, formats and conversions, as users and CI scripts see them.

use assert_cmd::Command;
use predicates::prelude::*;
use serde_json::Value;

fn kifu() -> Command {
    Command::cargo_bin("kifu").expect("binary built")
}

/// Runs `kifu check --format jsonl` on a fixture; returns its diagnostics
/// (the last line is the summary).
fn diagnostics(path: &str) -> Vec<Value> {
    let out = kifu().args(["check", "--format", "jsonl", path]).output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    let mut rows: Vec<Value> = text.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    let summary = rows.pop().expect("summary line");
    assert!(summary.get("summary").is_some(), "{summary}");
    rows
}

#[test]
fn each_syntax_fixture_gives_its_code_at_its_position() {
    // (fixture, code, line, column)
    let cases = [
        ("missing-close-paren", "missing-close-paren", 1, 31),
        ("leading-junk", "leading-junk", 1, 1),
        ("trailing-junk", "trailing-junk", 2, 1),
        ("unterminated-value", "unterminated-value", 1, 32),
        ("empty-node", "empty-node", 1, 25),
        ("missing-value", "missing-value", 1, 20),
        ("empty-file", "empty-file", 1, 1),
        ("not-sgf", "not-sgf", 1, 1),
        ("missing-semicolon", "missing-semicolon", 1, 2),
        ("unescaped-bracket", "unescaped-bracket", 1, 34),
        ("empty-variation", "empty-variation", 1, 25),
        ("value-without-property", "value-without-property", 1, 20),
        ("unexpected-char", "unexpected-char", 1, 27),
        ("node-after-variations", "node-after-variations", 1, 39),
        ("extra-close-paren", "unexpected-close-paren", 1, 32),
        ("old-long-identifiers", "old-identifier", 1, 8),
        ("collection-with-broken-game", "unexpected-char", 1, 31),
        ("crlf-line-endings", "missing-value", 6, 2),
        ("utf8-bom", "byte-order-mark", 1, 1),
        ("missing-open-paren", "missing-open-paren", 1, 1),
    ];
    for (fixture, code, line, column) in cases {
        let path = format!("fixtures/syntax/{fixture}.sgf");
        let found = diagnostics(&path);
        let hit = found.iter().find(|d| d["code"] == code);
        let hit = hit.unwrap_or_else(|| panic!("{fixture}: no {code} in {found:?}"));
        assert_eq!((hit["line"].as_u64(), hit["column"].as_u64()), (Some(line), Some(column)), "{fixture}: {hit}");
        assert_eq!(hit["file"], path.as_str());
        assert!(!hit["message"].as_str().unwrap().is_empty());
    }
}

#[test]
fn clean_file_exits_zero() {
    kifu().args(["check", "fixtures/example-game.sgf"]).assert().code(0).stdout(predicate::str::contains("1 file, 1 game"));
}

#[test]
fn errors_exit_one_and_warnings_do_not() {
    kifu().args(["check", "fixtures/syntax/missing-value.sgf"]).assert().code(1);
    kifu().args(["check", "fixtures/syntax/empty-node.sgf"]).assert().code(0);
}

#[test]
fn text_format_is_compiler_style_with_a_caret() {
    kifu()
        .args(["check", "fixtures/syntax/missing-value.sgf"])
        .assert()
        .code(1)
        .stdout(predicate::str::contains("fixtures/syntax/missing-value.sgf:1:20: error[missing-value]: property B has no value"))
        .stdout(predicate::str::contains("1 | (;FF[4]GM[1]SZ[19];B;W[dp])\n  |                    ^"));
}

#[test]
fn missing_file_is_named_and_the_others_still_checked() {
    kifu()
        .args(["check", "--format", "jsonl", "no/such/file.sgf", "fixtures/syntax/missing-value.sgf"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("no/such/file.sgf"))
        .stdout(predicate::str::contains("missing-value"));
}

#[test]
fn a_broken_game_does_not_hide_the_next() {
    kifu()
        .args(["info", "--format", "json", "fixtures/syntax/collection-with-broken-game.sgf"])
        .assert()
        .code(0)
        .stdout(predicate::str::contains("second game"));
}

#[test]
fn directories_are_walked_for_sgf_files() {
    let out = kifu().args(["check", "--format", "json", "fixtures/syntax"]).output().unwrap();
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    let files = std::fs::read_dir("fixtures/syntax").unwrap().count();
    assert_eq!(doc["summary"]["files"].as_u64(), Some(files as u64));
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn stdin_is_read_from_dash() {
    kifu().args(["info", "-"]).write_stdin("(;GM[1]PB[Stdin Player];B[aa])").assert().code(0).stdout(predicate::str::contains("Stdin Player"));
}

#[test]
fn non_sgf_file_is_one_line_on_stderr() {
    kifu()
        .args(["info", "fixtures/syntax/not-sgf.sgf", "fixtures/example-game.sgf"])
        .assert()
        .code(1)
        .stderr(predicate::str::contains("fixtures/syntax/not-sgf.sgf: not an SGF file"))
        .stdout(predicate::str::contains("Honinbo Shusaku"));
}

#[test]
fn info_json_has_the_summary_block() {
    let out = kifu().args(["info", "--format", "json", "fixtures/example-game.sgf"]).output().unwrap();
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    let s = &doc["summary"];
    assert_eq!(s["black"], "Honinbo Shusaku");
    assert_eq!(s["white_rank"], "8d");
    assert_eq!(s["komi"], 6.5);
    assert_eq!(s["board_size"]["width"], 9);
    assert_eq!(s["moves"][0], serde_json::json!({"color": "B", "point": "ee"}));
    let last = s["moves"].as_array().unwrap().last().unwrap().clone();
    assert_eq!(last, serde_json::json!({"color": "B", "point": null}));
}

const FOX_RECORD: &str = "fixtures/info/fox-stone-komi-and-ranks.sgf";

#[test]
fn info_json_normalises_ranks_date_result_and_fox_komi() {
    let out = kifu().args(["info", "--format", "json", FOX_RECORD]).output().unwrap();
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    let n = &doc["normalised"];
    assert_eq!(n["black"], serde_json::json!({"rank": {"kind": "dan", "level": 3, "value": 3}, "bot": true}));
    assert_eq!(n["white"], serde_json::json!({"rank": {"kind": "pro", "level": 9, "value": 18}, "bot": false}));
    assert_eq!(n["date"], "2017-08-09");
    // KM[375] is 3.75 stones: komi 7.5 points, and RE's bare margin is in stones too.
    assert_eq!(n["komi"], 7.5);
    assert_eq!(n["result"], serde_json::json!({"winner": "W", "margin": 5.5, "reason": "score"}));
    assert_eq!(n["rules"], "chinese");
    assert_eq!(n["handicap"], 0);
    assert_eq!(n["source"], "fox", "read as a Fox record");
    assert_eq!(doc["summary"]["komi"], 375.0, "the summary keeps the value as written");
}

#[test]
fn info_shows_the_komi_score_uses_beside_what_km_says() {
    let komi_line = |sgf: &str| {
        let out = kifu().args(["info", "-"]).write_stdin(sgf).output().unwrap();
        String::from_utf8(out.stdout).unwrap().lines().find(|l| l.trim_start().starts_with("Komi:")).unwrap().trim().to_string()
    };
    assert_eq!(komi_line("(;GM[1]SZ[19]KM[375]AP[foxwq]RU[Chinese];B[pd])"), "Komi: 7.5 (KM[375])");
    assert_eq!(komi_line("(;GM[1]SZ[19]KM[0]AP[foxwq]RU[Japanese];B[pd])"), "Komi: 6.5 (KM[0])");
    assert_eq!(komi_line("(;GM[1]SZ[19]KM[6.5];B[pd])"), "Komi: 6.5");
    assert_eq!(komi_line("(;GM[1]SZ[19];B[pd])"), "Komi: ?");
    let out = kifu()
        .args(["score", "--dead-stones", "none", "--format", "json", "-"])
        .write_stdin("(;GM[1]SZ[9]KM[375]AP[foxwq]RU[Chinese];B[ee];W[];B[])")
        .output()
        .unwrap();
    let score: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(score["komi"], 7.5, "score uses the komi info shows: {score}");
}

#[test]
fn info_csv_has_a_header_and_a_quoted_row_a_game() {
    let out = kifu().args(["info", "--format", "csv", FOX_RECORD, "fixtures/example-game.sgf"]).output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 3, "{text}");
    assert!(lines[0].starts_with("file,game,size,black,black_rank,black_rank_value,black_bot,"), "{}", lines[0]);
    assert_eq!(
        lines[1],
        "fixtures/info/fox-stone-komi-and-ranks.sgf,1,19x19,\"Zen19D, test\",3d?,3,true,柯洁,P9段,18,false,2017-08-09,W+2.75,W,5.5,score,7.5,0,chinese,3,fox"
    );
    assert!(lines[2].starts_with("fixtures/example-game.sgf,1,9x9,Honinbo Shusaku,"), "{}", lines[2]);
}

#[test]
fn convert_to_json_and_back_is_lossless() {
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("game.json");
    kifu().args(["convert", "fixtures/values/compressed-and-composed.sgf", "--to", "json", "-o"]).arg(&json).assert().code(0);
    let doc: Value = serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    assert_eq!(doc["schema"], "kifu/1");
    let direct = kifu().args(["convert", "fixtures/values/compressed-and-composed.sgf", "--to", "sgf"]).output().unwrap();
    let via_json = kifu().args(["convert", "--to", "sgf"]).arg(&json).output().unwrap();
    assert_eq!(String::from_utf8_lossy(&via_json.stdout), String::from_utf8_lossy(&direct.stdout));
    let sgf = String::from_utf8(direct.stdout).unwrap();
    assert!(sgf.contains("CA[UTF-8]") && sgf.contains("LB[dd:one][ff:two:2]"), "{sgf}");
}

#[test]
fn many_files_convert_to_json_lines() {
    let out = kifu().args(["convert", "--to", "json", "fixtures/example-game.sgf", "fixtures/values/escapes-and-passes.sgf"]).output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    let docs: Vec<Value> = text.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(docs.len(), 2);
    assert_eq!(docs[1]["file"], "fixtures/values/escapes-and-passes.sgf");
}

#[test]
fn convert_refuses_to_overwrite_an_input() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("in.sgf");
    std::fs::copy("fixtures/example-game.sgf", &input).unwrap();
    let before = std::fs::read(&input).unwrap();
    kifu().args(["convert", "--to", "sgf", "-o"]).arg(&input).arg(&input).assert().code(2);
    assert_eq!(std::fs::read(&input).unwrap(), before);
}

#[test]
fn charset_is_decoded_and_output_is_utf8() {
    let out = kifu().args(["info", "fixtures/syntax/utf8-bom.sgf"]).output().unwrap();
    assert!(String::from_utf8(out.stdout).unwrap().contains("柯洁"));
}

#[test]
fn usage_errors_exit_two_and_help_has_examples() {
    kifu().args(["check"]).assert().code(2);
    kifu().args(["frobnicate"]).assert().code(2);
    kifu().args(["check", "--encoding", "no-such-charset", "fixtures/example-game.sgf"]).assert().code(2);
    kifu().arg("--help").assert().code(0).stdout(predicate::str::contains("Examples:"));
}

/// A million nested variations: parsed, replayed and converted without
/// overflowing the stack.
#[test]
fn a_million_nested_variations() {
    let depth = 1_000_000;
    let mut sgf = String::with_capacity(depth * 9 + 32);
    sgf.push_str("(;GM[1]FF[4]SZ[19]RU[Japanese]");
    for i in 0..depth {
        // Alternate B and W on two points far apart, passing in between, so
        // every move is legal.
        sgf.push_str(if i % 2 == 0 { "(;B[]" } else { "(;W[]" });
    }
    sgf.push_str(&")".repeat(depth));
    sgf.push(')');
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("deep.sgf");
    std::fs::write(&path, &sgf).unwrap();
    let out = kifu().args(["check", "--format", "json"]).arg(&path).output().unwrap();
    assert!(out.status.code().is_some(), "killed: {}", String::from_utf8_lossy(&out.stderr));
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(doc["summary"]["moves"].as_u64(), Some(depth as u64));
    let json = dir.path().join("deep.json");
    kifu().args(["convert", "--to", "json", "-o"]).arg(&json).arg(&path).assert().code(0);
    let back = kifu().args(["convert", "--to", "sgf"]).arg(&json).output().unwrap();
    assert_eq!(back.status.code(), Some(0));
    assert!(back.stdout.len() > depth * 4, "every move written back");
}
