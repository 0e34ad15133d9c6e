//! The rules of play, held to small fixtures and to the peer projects' own
//! expectations.
//!
//! `fixtures/moves/` has one small record per move diagnostic, named for
//! what it shows; each test asserts the exact code, severity, move number,
//! colour and point, and how `--rules`, `--ko` and `--suicide` change them.
//! The peer suites (Little Go's illegal games, Fuego's `repetition.tst`,
//! GNU Go's `seki_exotics`) are read from `../shared/corpus/suites` at run
//! time; those tests skip, saying so, when the corpus is absent.

use std::path::{Path, PathBuf};

use assert_cmd::Command;
use kifu::check::{CheckOptions, check_bytes};
use kifu::diag::{Code, Diagnostic, Severity};
use kifu::replay::{self, RuleOverrides};
use kifu::rules::{KoRule, Rules, Suicide};
use kifu::sgf;
use serde_json::Value;

use Severity::{Error, Info, Warning};

mod common;

// ---------------------------------------------------------------------------
// Helpers

fn manifest() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn fixture(name: &str) -> Vec<u8> {
    let path = manifest().join("fixtures/moves").join(name);
    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Every diagnostic of a file, checked as `kifu check` does.
fn check(bytes: &[u8], rules: RuleOverrides) -> Vec<Diagnostic> {
    check_bytes(bytes, &CheckOptions { rules, ..Default::default() }).diagnostics
}

/// The rules the game's RU[] names.
fn from_game() -> RuleOverrides {
    RuleOverrides::default()
}

/// `--rules NAME`.
fn preset(name: &str) -> RuleOverrides {
    RuleOverrides { rules: Some(Rules::preset(name).expect("a preset")), ..Default::default() }
}

/// `--ko RULE` (the ruleset from RU[]).
fn ko(rule: KoRule) -> RuleOverrides {
    RuleOverrides { ko: Some(rule), ..Default::default() }
}

/// A move diagnostic as the tests compare it.
#[derive(Debug, PartialEq)]
struct Mv {
    code: &'static str,
    severity: Severity,
    number: u32,
    color: &'static str,
    point: String,
    variation: Vec<u32>,
}

/// A move diagnostic on the main line.
fn mv(code: &'static str, severity: Severity, number: u32, color: &'static str, point: &str) -> Mv {
    Mv { code, severity, number, color, point: point.to_string(), variation: Vec::new() }
}

/// The diagnostics that belong to a move, in file order.
fn moves(diagnostics: &[Diagnostic]) -> Vec<Mv> {
    diagnostics
        .iter()
        .filter_map(|d| {
            Some(Mv {
                code: d.code.name(),
                severity: d.severity,
                number: d.move_number?,
                color: d.color?,
                point: d.point.clone()?,
                variation: d.variation.clone()?,
            })
        })
        .collect()
}

/// Every code, in file order.
fn codes(diagnostics: &[Diagnostic]) -> Vec<&'static str> {
    diagnostics.iter().map(|d| d.code.name()).collect()
}

/// The codes of diagnostics that are not about a move.
fn other_codes(diagnostics: &[Diagnostic]) -> Vec<&'static str> {
    diagnostics.iter().filter(|d| d.move_number.is_none()).map(|d| d.code.name()).collect()
}

fn errors(diagnostics: &[Diagnostic]) -> Vec<&Diagnostic> {
    diagnostics.iter().filter(|d| d.severity == Error).collect()
}

fn read(path: &Path) -> Vec<u8> {
    std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// A record with moves added at the end of its main line: the file must be
/// one line of play (no variations); its final ')' is replaced.
fn with_moves(bytes: &[u8], moves: &str) -> Vec<u8> {
    let text = String::from_utf8_lossy(bytes);
    let body = text.trim_end().strip_suffix(')').expect("the record ends with ')'");
    format!("{body}{moves})").into_bytes()
}

// ---------------------------------------------------------------------------
// 1. fixtures/moves: one record per move diagnostic

#[test]
fn occupied_point() {
    let d = check(&fixture("occupied-point.sgf"), from_game());
    assert_eq!(codes(&d), ["occupied-point"]);
    assert_eq!(moves(&d), [mv("occupied-point", Error, 3, "B", "cc")]);
    // Whatever the rules, a stone cannot go onto a stone.
    for rules in ["chinese", "tromp-taylor", "ing"] {
        assert_eq!(moves(&check(&fixture("occupied-point.sgf"), preset(rules))), [mv("occupied-point", Error, 3, "B", "cc")], "{rules}");
    }
}

#[test]
fn off_board() {
    let d = check(&fixture("off-board.sgf"), from_game());
    assert_eq!(codes(&d), ["off-board"]);
    assert_eq!(moves(&d), [mv("off-board", Error, 2, "W", "kk")]);
    assert!(d[0].message.contains("outside the 9x9 board"), "{}", d[0].message);
}

#[test]
fn suicide_and_the_suicide_rule() {
    let file = fixture("suicide.sgf");
    let d = check(&file, from_game());
    assert_eq!(codes(&d), ["suicide"]);
    assert_eq!(moves(&d), [mv("suicide", Error, 4, "W", "aa")]);
    // Rulesets that allow it make it info; New Zealand allows it for more
    // than one stone only.
    assert_eq!(moves(&check(&file, preset("ing"))), [mv("suicide", Info, 4, "W", "aa")]);
    // Tromp-Taylor allows suicide, but a one-stone suicide leaves the stones
    // as they were after move 3: positional superko forbids it.
    assert_eq!(moves(&check(&file, preset("tromp-taylor"))), [mv("suicide", Info, 4, "W", "aa"), mv("superko", Error, 4, "W", "aa")]);
    assert_eq!(moves(&check(&file, preset("new-zealand"))), [mv("suicide", Error, 4, "W", "aa")]);
    // --suicide overrides the ruleset either way.
    let allowed = RuleOverrides { suicide: Some(Suicide::Allowed), ..Default::default() };
    assert_eq!(moves(&check(&file, allowed)), [mv("suicide", Info, 4, "W", "aa")]);
    let forbidden = RuleOverrides { rules: Rules::preset("tromp-taylor"), suicide: Some(Suicide::Forbidden), ..Default::default() };
    assert_eq!(moves(&check(&file, forbidden)), [mv("suicide", Error, 4, "W", "aa")]);
}

#[test]
fn ko_retaken_at_once() {
    let file = fixture("ko-retake-immediate.sgf");
    let d = check(&file, from_game());
    assert_eq!(codes(&d), ["ko"]);
    assert_eq!(moves(&d), [mv("ko", Error, 10, "W", "dd")]);
    // Under every ko rule the immediate retake is `ko`, not `superko`.
    for over in [preset("chinese"), preset("aga"), ko(KoRule::Positional), ko(KoRule::Situational)] {
        assert_eq!(moves(&check(&file, over)), [mv("ko", Error, 10, "W", "dd")], "{over:?}");
    }
}

#[test]
fn ko_forced_by_the_ko_property_is_info() {
    let d = check(&fixture("ko-forced-by-KO-property.sgf"), from_game());
    assert_eq!(codes(&d), ["ko"]);
    assert_eq!(moves(&d), [mv("ko", Info, 10, "W", "dd")]);
    assert!(d[0].message.contains("KO[]"), "{}", d[0].message);
}

/// Eternal life: a 4-move cycle with no ko in it.
#[test]
fn superko_positional_cycle() {
    let file = fixture("superko-positional-cycle.sgf");
    let d = check(&file, from_game());
    assert_eq!(codes(&d), ["superko"]);
    assert_eq!(moves(&d), [mv("superko", Error, 4, "W", "da")]);
    assert!(d[0].message.contains("positional superko, a cycle of 4 moves"), "{}", d[0].message);
    // Every superko ruleset forbids it; the same player is to move, so the
    // situational rule does too.
    for rules in ["chinese", "aga", "new-zealand", "tromp-taylor", "ing"] {
        assert_eq!(moves(&check(&file, preset(rules))), [mv("superko", Error, 4, "W", "da")], "{rules}");
    }
    assert_eq!(moves(&check(&file, ko(KoRule::Situational))), [mv("superko", Error, 4, "W", "da")]);
    // Under simple ko every move is legal: the repetition is only a warning.
    for over in [preset("japanese"), preset("korean"), ko(KoRule::Simple)] {
        assert_eq!(moves(&check(&file, over)), [mv("repeated-position", Warning, 4, "W", "da")], "{over:?}");
    }
}

/// Sending two, returning one: after 3 moves the stones repeat but the
/// other player is to move.
#[test]
fn superko_positional_but_not_situational() {
    let file = fixture("superko-positional-not-situational.sgf");
    let d = check(&file, from_game());
    assert_eq!(codes(&d), ["superko"]);
    assert_eq!(moves(&d), [mv("superko", Error, 3, "B", "fa")]);
    assert_eq!(moves(&check(&file, preset("tromp-taylor"))), [mv("superko", Error, 3, "B", "fa")]);
    for over in [preset("aga"), preset("new-zealand"), preset("japanese"), ko(KoRule::Situational), ko(KoRule::Simple)] {
        assert_eq!(moves(&check(&file, over)), [], "{over:?}");
    }
    let japanese_positional = RuleOverrides { rules: Rules::preset("japanese"), ko: Some(KoRule::Positional), ..Default::default() };
    assert_eq!(moves(&check(&file, japanese_positional)), [mv("superko", Error, 3, "B", "fa")]);
}

/// The same cycle with White to play first (PL[W] in the setup): the set-up
/// position is remembered with White to move, so situational superko sees
/// no recurrence at move 3 (Black to move) and positional superko does.
#[test]
fn superko_after_setup_with_player_to_move() {
    let file = fixture("superko-positional-not-situational-PL.sgf");
    assert_eq!(codes(&check(&file, from_game())), Vec::<&str>::new());
    assert_eq!(moves(&check(&file, preset("chinese"))), [mv("superko", Error, 3, "W", "fa")]);
    // Simple ko: the situation does not recur either, so no repetition.
    assert_eq!(moves(&check(&file, preset("japanese"))), []);
}

#[test]
fn repeated_position_triple_ko() {
    let file = fixture("repeated-position-triple-ko.sgf");
    let d = check(&file, from_game());
    assert_eq!(codes(&d), ["repeated-position"]);
    assert_eq!(moves(&d), [mv("repeated-position", Warning, 6, "W", "bg")]);
    assert!(d[0].message.contains("first reached at the start of the game (a cycle of 6 moves)"), "{}", d[0].message);
    assert_eq!(moves(&check(&file, preset("korean"))), [mv("repeated-position", Warning, 6, "W", "bg")]);
    for rules in ["chinese", "aga", "new-zealand", "tromp-taylor", "ing"] {
        assert_eq!(moves(&check(&file, preset(rules))), [mv("superko", Error, 6, "W", "bg")], "{rules}");
    }
}

#[test]
fn double_move() {
    let d = check(&fixture("double-move.sgf"), from_game());
    assert_eq!(codes(&d), ["double-move"]);
    assert_eq!(moves(&d), [mv("double-move", Error, 3, "W", "gg")]);
}

#[test]
fn move_after_end_depends_on_resumption() {
    let file = fixture("move-after-end.sgf");
    let d = check(&file, from_game());
    assert_eq!(codes(&d), ["move-after-end"]);
    assert_eq!(moves(&d), [mv("move-after-end", Warning, 5, "B", "gg")]);
    assert_eq!(moves(&check(&file, preset("chinese"))), [mv("move-after-end", Warning, 5, "B", "gg")]);
    assert_eq!(moves(&check(&file, preset("japanese"))), [mv("move-after-end", Info, 5, "B", "gg")]);
}

/// A pass after the end resumes play under Japanese rules, and two more
/// passes stop it again; under AGA nothing resumes.
#[test]
fn move_after_end_resumed_and_ended_again() {
    let file = fixture("move-after-end-resumed.sgf");
    let d = check(&file, from_game());
    assert_eq!(moves(&d), [mv("move-after-end", Info, 4, "W", ""), mv("move-after-end", Info, 6, "W", "gg")]);
    let d = check(&file, preset("aga"));
    assert_eq!(moves(&d), [mv("move-after-end", Warning, 4, "W", ""), mv("move-after-end", Warning, 5, "B", ""), mv("move-after-end", Warning, 6, "W", "gg")]);
}

#[test]
fn handicap_mismatch() {
    let d = check(&fixture("handicap-mismatch.sgf"), from_game());
    assert_eq!(codes(&d), ["handicap-mismatch"]);
    assert_eq!((d[0].severity, d[0].line, d[0].column, d[0].move_number), (Warning, 1, 40, None));
    assert_eq!(d[0].message, "HA[3] but 2 handicap stones are set up with AB");
    // HA[0] with a set-up position (a problem): no handicap to compare.
    assert_eq!(codes(&check(&fixture("handicap-zero-with-setup.sgf"), from_game())), Vec::<&str>::new());
}

#[test]
fn setup_without_liberty() {
    let d = check(&fixture("setup-without-liberty.sgf"), from_game());
    assert_eq!(codes(&d), ["setup-without-liberty"]);
    assert_eq!((d[0].severity, d[0].line, d[0].move_number), (Warning, 2, None));
    assert!(d[0].message.contains("1 chain without liberty (at A9 (aa))"), "{}", d[0].message);
}

#[test]
fn unknown_rules_fall_back_to_japanese() {
    let file = fixture("unknown-rules.sgf");
    let d = check(&file, from_game());
    assert_eq!(codes(&d), ["unknown-rules", "move-after-end"]);
    assert_eq!((d[0].severity, d[0].line, d[0].column), (Info, 1, 27));
    assert!(d[0].message.contains("RU[Tibetan]"), "{}", d[0].message);
    // Replayed under Japanese rules: the move after two passes resumes play.
    assert_eq!(moves(&d), [mv("move-after-end", Info, 4, "W", "cc")]);
    let parsed = sgf::parse(&file, &Default::default());
    assert_eq!(replay::replay(&parsed.collection.games[0], &from_game()).rules.name, "japanese");
    // --rules decides, so there is nothing to say about RU[].
    let d = check(&file, preset("aga"));
    assert_eq!(codes(&d), ["move-after-end"]);
    assert_eq!(moves(&d), [mv("move-after-end", Warning, 4, "W", "cc")]);
}

/// Every move diagnostic code (and the replay's position codes) has its
/// fixture; every fixture but the two that show a false alarm avoided gives
/// something under the rules it names.
#[test]
fn every_replay_code_has_a_fixture() {
    let dir = manifest().join("fixtures/moves");
    let clean = ["handicap-zero-with-setup.sgf", "superko-positional-not-situational-PL.sgf"];
    let mut seen = Vec::new();
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "sgf") {
            let d = check(&read(&path), from_game());
            let name = path.file_name().unwrap().to_string_lossy();
            assert_eq!(d.is_empty(), clean.contains(&name.as_ref()), "{name}: {:?}", codes(&d));
            seen.extend(d.iter().map(|d| d.code));
        }
    }
    let replay_codes = [
        Code::HandicapMismatch,
        Code::UnknownRules,
        Code::SetupWithoutLiberty,
        Code::OccupiedPoint,
        Code::OffBoard,
        Code::Suicide,
        Code::Ko,
        Code::Superko,
        Code::DoubleMove,
        Code::RepeatedPosition,
        Code::MoveAfterEnd,
    ];
    for code in replay_codes {
        assert!(seen.contains(&code), "no fixture in fixtures/moves gives {code}");
    }
}

// ---------------------------------------------------------------------------
// The same, through the real binary

fn kifu() -> Command {
    Command::cargo_bin("kifu").expect("binary built")
}

/// `kifu check --format jsonl ARGS...`: the exit status and the diagnostic
/// lines (the summary line is checked and dropped).
fn jsonl(args: &[&str]) -> (i32, Vec<Value>) {
    let out = kifu().current_dir(manifest()).args(["check", "--format", "jsonl"]).args(args).output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    let mut rows: Vec<Value> = text.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    let summary = rows.pop().expect("a summary line");
    assert!(summary.get("summary").is_some(), "{summary}");
    (out.status.code().expect("an exit code"), rows)
}

#[test]
fn cli_jsonl_line_has_every_move_field() {
    let (status, rows) = jsonl(&["fixtures/moves/ko-retake-immediate.sgf"]);
    assert_eq!(status, 1, "an error makes the exit status 1");
    assert_eq!(rows.len(), 1, "{rows:?}");
    let row = &rows[0];
    let mut keys: Vec<&str> = row.as_object().unwrap().keys().map(String::as_str).collect();
    keys.sort_unstable();
    assert_eq!(keys, ["code", "color", "column", "file", "game", "line", "message", "move", "point", "severity", "variation"]);
    assert_eq!(row["file"], "fixtures/moves/ko-retake-immediate.sgf");
    assert_eq!(row["game"], 0);
    assert_eq!(row["code"], "ko");
    assert_eq!(row["severity"], "error");
    assert_eq!(row["message"], "White retakes the ko at D6 (dd) at once (move 10)");
    assert_eq!((row["line"].as_u64(), row["column"].as_u64()), (Some(3), Some(56)));
    assert_eq!(row["move"], 10);
    assert_eq!(row["color"], "W");
    assert_eq!(row["point"], "dd");
    assert_eq!(row["variation"], serde_json::json!([]));
}

#[test]
fn cli_rule_flags_change_the_verdict() {
    let code_move = |rows: &[Value]| -> Vec<(String, String, u64)> {
        rows.iter()
            .filter(|r| r.get("move").is_some())
            .map(|r| (r["code"].as_str().unwrap().to_string(), r["severity"].as_str().unwrap().to_string(), r["move"].as_u64().unwrap()))
            .collect()
    };
    let superko = "fixtures/moves/superko-positional-cycle.sgf";
    let (status, rows) = jsonl(&[superko]);
    assert_eq!((status, code_move(&rows)), (1, vec![("superko".into(), "error".into(), 4)]));
    let (status, rows) = jsonl(&["--rules", "aga", superko]);
    assert_eq!((status, code_move(&rows)), (1, vec![("superko".into(), "error".into(), 4)]));
    let (status, rows) = jsonl(&["--rules", "japanese", superko]);
    assert_eq!((status, code_move(&rows)), (0, vec![("repeated-position".into(), "warning".into(), 4)]));
    let (status, rows) = jsonl(&["--ko", "simple", superko]);
    assert_eq!((status, code_move(&rows)), (0, vec![("repeated-position".into(), "warning".into(), 4)]));
    let positional_only = "fixtures/moves/superko-positional-not-situational.sgf";
    let (status, rows) = jsonl(&["--ko", "situational", positional_only]);
    assert_eq!((status, code_move(&rows)), (0, vec![]));
    let suicide = "fixtures/moves/suicide.sgf";
    let (status, rows) = jsonl(&["--suicide", "allowed", suicide]);
    assert_eq!((status, code_move(&rows)), (0, vec![("suicide".into(), "info".into(), 4)]));
    let (status, rows) = jsonl(&["--rules", "tromp-taylor", "--suicide", "forbidden", suicide]);
    assert_eq!((status, code_move(&rows)), (1, vec![("suicide".into(), "error".into(), 4)]));
}

/// KataGo's rule strings in RU[] set the rules: `sui1` allows a suicide of
/// several stones, `sui0` forbids it; an unknown key is named.
#[test]
fn cli_katago_rule_strings() {
    let rows_of = |file: &str| jsonl(&[&format!("fixtures/moves/{file}")]);
    let code_move = |rows: &[Value]| -> Vec<(String, String, Option<u64>)> {
        rows.iter().map(|r| (r["code"].as_str().unwrap().to_string(), r["severity"].as_str().unwrap().to_string(), r["move"].as_u64())).collect()
    };
    let (status, rows) = rows_of("katago-rules-sui1-multi-stone-suicide.sgf");
    assert_eq!((status, code_move(&rows)), (0, vec![("suicide".into(), "info".into(), Some(7))]));
    let (status, rows) = rows_of("katago-rules-sui0-multi-stone-suicide.sgf");
    assert_eq!((status, code_move(&rows)), (1, vec![("suicide".into(), "error".into(), Some(7))]));
    let (status, rows) = rows_of("katago-rules-unknown-key.sgf");
    assert_eq!((status, code_move(&rows)), (0, vec![("unknown-rules".into(), "info".into(), None)]));
    let message = rows[0]["message"].as_str().unwrap();
    assert!(message.contains(r#"unknown KataGo rule at "fooBAR""#) && message.contains("replayed under Japanese rules"), "{message}");
}

// ---------------------------------------------------------------------------
// 2a. Little Go: sgf/Illegal games and the passes files
// (expectations from littlego/TESTING-excerpt-sgf-loading.txt)

fn littlego(name: &str) -> Option<Vec<u8>> {
    Some(read(&common::corpus_dir("suites")?.join("littlego/sgf").join(name)))
}

#[test]
fn littlego_illegal_move_is_an_occupied_point() {
    let Some(file) = littlego("Illegal games/illegal-move.sgf") else { return };
    let d = check(&file, from_game());
    // "white plays on an intersection that is already occupied": W H6 onto
    // the black stone of move 15, in the first variation.
    assert_eq!(moves(&d), [mv("occupied-point", Error, 16, "W", "hd")]);
    assert_eq!(other_codes(&d), ["unknown-rules"]);
}

#[test]
fn littlego_suicide() {
    let Some(file) = littlego("Illegal games/suicide.sgf") else { return };
    let d = check(&file, from_game());
    assert_eq!(moves(&d), [mv("suicide", Error, 4, "W", "aa")]);
    assert_eq!(other_codes(&d), ["unknown-rules"]);
}

/// Little Go refuses the file; kifu reports the setup as a warning (the
/// stones are kept, as SGF setup is not play).
#[test]
fn littlego_illegal_setup() {
    let Some(file) = littlego("Illegal games/illegal-setup.sgf") else { return };
    let d = check(&file, from_game());
    assert_eq!(codes(&d), ["unknown-rules", "setup-without-liberty"]);
    let setup = &d[1];
    assert_eq!(setup.severity, Warning);
    // AB[aa][ab] against AW[ac][ba][bb]: the black pair has no liberty.
    assert!(setup.message.starts_with("setup leaves 1 chain without liberty"), "{}", setup.message);
    assert!(errors(&d).is_empty());
}

#[test]
fn littlego_non_alternating_play() {
    let Some(file) = littlego("9x9/non-alternating-play.sgf") else { return };
    // What the file holds: moves 44 and 45 of the main line are both White.
    let parsed = sgf::parse(&file, &Default::default());
    let colours: Vec<&str> =
        parsed.collection.games[0].main_line().flat_map(|n| n.properties().filter(|p| matches!(p.id(), "B" | "W")).map(|p| p.id())).collect();
    assert_eq!((colours[43], colours[44]), ("W", "W"));
    let d = check(&file, from_game());
    assert_eq!(moves(&d), [mv("double-move", Error, 45, "W", "ge")]);
    assert_eq!(other_codes(&d), ["unknown-rules"]);
}

/// Loads under simple ko (Little Go) and situational superko (AGA);
/// refused under positional superko (Chinese).
#[test]
fn littlego_positional_superko() {
    let Some(file) = littlego("Illegal games/positional-superko.sgf") else { return };
    for over in [from_game(), preset("aga"), ko(KoRule::Simple), ko(KoRule::Situational)] {
        assert_eq!(moves(&check(&file, over)), [], "{over:?}");
    }
    for over in [preset("chinese"), ko(KoRule::Positional)] {
        assert_eq!(moves(&check(&file, over)), [mv("superko", Error, 23, "B", "eg")], "{over:?}");
    }
}

/// Loads under simple ko; refused under positional (Chinese) and
/// situational (AGA) superko.
#[test]
fn littlego_situational_superko() {
    let Some(file) = littlego("Illegal games/situational-superko.sgf") else { return };
    let d = check(&file, from_game());
    assert_eq!(moves(&d), [mv("repeated-position", Warning, 24, "W", "ba")]);
    assert!(errors(&d).is_empty());
    for over in [preset("chinese"), preset("aga"), ko(KoRule::Positional), ko(KoRule::Situational)] {
        assert_eq!(moves(&check(&file, over)), [mv("superko", Error, 24, "W", "ba")], "{over:?}");
    }
}

/// 2 and 4 passes: ended; 3 and 5: in progress (Little Go ruleset, where a
/// move after the end resumes play). Under AGA every move after the first
/// two passes is reported (Little Go loads 4-passes under AGA, with its
/// four-pass rule, but refuses 5-passes).
#[test]
fn littlego_passes() {
    let Some(dir) = common::corpus_dir("suites") else { return };
    let after_end = |n: u32, severity| mv("move-after-end", severity, n, if n % 2 == 1 { "B" } else { "W" }, "");
    // (file, ended, move-after-end under the default rules, under AGA)
    let cases: [(&str, bool, Vec<u32>, Vec<u32>); 4] = [
        ("2-passes", true, vec![], vec![]),
        ("3-passes", false, vec![3], vec![3]),
        ("4-passes", true, vec![3], vec![3, 4]),
        ("5-passes", false, vec![3, 5], vec![3, 4, 5]),
    ];
    for (name, ended, resumed, aga) in cases {
        let file = read(&dir.join(format!("littlego/sgf/9x9/{name}.sgf")));
        let d = check(&file, from_game());
        assert_eq!(moves(&d), resumed.iter().map(|&n| after_end(n, Info)).collect::<Vec<_>>(), "{name}");
        assert!(errors(&d).is_empty(), "{name}");
        let d = check(&file, preset("aga"));
        assert_eq!(moves(&d), aga.iter().map(|&n| after_end(n, Warning)).collect::<Vec<_>>(), "{name} under AGA");
        let parsed = sgf::parse(&file, &Default::default());
        let game = &parsed.collection.games[0];
        let last = game.main_line().last().unwrap().id();
        let position = replay::position_at(game, last, &from_game()).unwrap();
        assert_eq!(position.ended_by_passes, ended, "{name}");
    }
}

/// The other files Little Go refuses, and what kifu says of them. Most are
/// limits or policies of Little Go (or Fuego under it), not SGF or rules
/// errors; see each comment.
#[test]
fn littlego_other_illegal_files() {
    let Some(dir) = common::corpus_dir("suites") else { return };
    let check_file = |name: &str| check(&read(&dir.join("littlego/sgf").join(name)), from_game());
    let no_problem = |d: &[Diagnostic]| d.iter().all(|d| d.code == Code::UnknownRules);

    // Fuego's limit of 1394 moves: kifu has none, and replays all 1395.
    let bytes = read(&dir.join("littlego/sgf/Illegal games/too-many-moves.sgf"));
    let result = check_bytes(&bytes, &CheckOptions::default());
    assert_eq!(result.moves, 1395);
    assert!(no_problem(&result.diagnostics), "{:?}", result.diagnostics);

    // HA[3] with no stone set up and no move: reported, and not replayed
    // with an implied placement (nothing shows the stones were there).
    let d = check_file("Illegal games/not-enough-handicap-stones.sgf");
    assert_eq!(codes(&d), ["unknown-rules", "handicap-mismatch"]);
    assert_eq!(d[1].message, "HA[3] but 0 handicap stones are set up with AB");

    // Setup before HA, setup after the first move, PL after the first move:
    // all valid SGF (FF[4] allows setup and PL in any node); kifu says
    // nothing. Little Go refuses them as limits of its own model.
    for name in ["setup-before-handicap-setup.sgf", "setup-after-first-move.sgf", "setup-player-after-first-move.sgf"] {
        let d = check_file(&format!("Illegal games/{name}"));
        assert!(no_problem(&d), "{name}: {:?}", codes(&d));
    }

    // Encodings: warnings (the file is still read), where Little Go refuses.
    let d = check_file("Illegal games/encoding-unsupported.sgf");
    assert!(codes(&d).contains(&"unknown-charset"), "{:?}", codes(&d));
    let d = check_file("Illegal games/encoding-multiple.sgf");
    assert!(codes(&d).contains(&"multiple-charsets"), "{:?}", codes(&d));
    let d = check_file("Illegal games/encoding-detection-fails.sgf");
    assert!(codes(&d).contains(&"multiple-charsets"), "{:?}", codes(&d));
    for d in [check_file("Illegal games/encoding-unsupported.sgf"), check_file("Illegal games/encoding-multiple.sgf")] {
        assert!(errors(&d).is_empty(), "{:?}", codes(&d));
    }

    // Not SGF at all: refused by both.
    assert_eq!(codes(&check_file("Illegal games/not-an-sgf-file.sgf")), ["not-sgf"]);

    // 25x25: Little Go's limit is 19x19; SGF allows 52x52 and so does kifu.
    let d = check_file("25x25/25x25_single_black_move.sgf");
    assert!(errors(&d).is_empty(), "{:?}", codes(&d));
}

// ---------------------------------------------------------------------------
// 2b. Fuego regression/repetition.tst: is_legal under three ko rules

/// One `is_legal` check of a .tst file.
#[derive(Debug)]
struct LegalCheck {
    id: u32,
    file: String,
    /// `loadsgf FILE N` loads the position before move N.
    before_move: Option<u32>,
    ko: KoRule,
    color: &'static str,
    vertex: String,
    legal: bool,
}

/// Reads the GTP script: `loadsgf`, `go_param_rules ko_rule`, numbered
/// `is_legal` commands and their `#? [1]` / `#? [0]` expectations.
fn parse_tst(text: &str) -> Vec<LegalCheck> {
    let mut out = Vec::new();
    let (mut file, mut before_move, mut rule) = (String::new(), None, KoRule::Simple);
    let mut pending: Option<(u32, &'static str, String)> = None;
    for line in text.lines().map(str::trim) {
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.as_slice() {
            ["loadsgf", path, rest @ ..] => {
                file = path.to_string();
                before_move = rest.first().map(|n| n.parse().expect("a move number"));
            }
            ["go_param_rules", "ko_rule", name] => {
                rule = match *name {
                    "simple" => KoRule::Simple,
                    "superko" => KoRule::Situational,
                    "pos_superko" => KoRule::Positional,
                    other => panic!("unknown ko rule {other}"),
                }
            }
            [id, "is_legal", color, vertex] => {
                let color = if color.eq_ignore_ascii_case("b") { "B" } else { "W" };
                pending = Some((id.parse().expect("a command number"), color, vertex.to_string()));
            }
            ["#?", expected] => {
                let (id, color, vertex) = pending.take().expect("#? follows a command");
                let legal = match *expected {
                    "[1]" => true,
                    "[0]" => false,
                    other => panic!("unexpected expectation {other}"),
                };
                out.push(LegalCheck { id, file: file.clone(), before_move, ko: rule, color, vertex, legal });
            }
            _ => {}
        }
    }
    out
}

/// A GTP vertex (`b9`: columns A-T without I, rows from the bottom) as SGF
/// letters on a board of `size` rows.
fn vertex_to_sgf(vertex: &str, size: u32) -> String {
    let column = "abcdefghjklmnopqrstuvwxyz".find(vertex[..1].to_ascii_lowercase().as_str()).expect("a column");
    let row: u32 = vertex[1..].parse().expect("a row");
    format!("{}{}", (b'a' + column as u8) as char, (b'a' + (size - row) as u8) as char)
}

/// The loaded position as an SGF record (root, setup and the moves before
/// `before_move`), with `candidate` as the next move. Returns the record and
/// the candidate's move number.
fn position_plus_move(bytes: &[u8], before_move: Option<u32>, color: &str, vertex: &str) -> (String, u32) {
    let parsed = sgf::parse(bytes, &Default::default());
    let game = &parsed.collection.games[0];
    let size: u32 = game.root().get_value("SZ").map_or(19, |s| s.parse().unwrap());
    let mut out = String::from("(");
    let mut played = 0;
    for node in game.main_line() {
        let mut text = String::new();
        let mut stop = false;
        for p in node.properties() {
            let id = p.id();
            if !matches!(id, "SZ" | "RU" | "GM" | "AB" | "AW" | "AE" | "PL" | "B" | "W" | "KO") {
                continue;
            }
            if matches!(id, "B" | "W") {
                if before_move.is_some_and(|n| played + 1 >= n) {
                    stop = true;
                    break;
                }
                played += 1;
            }
            text.push_str(id);
            for v in p.values() {
                text.push('[');
                text.push_str(v.text());
                text.push(']');
            }
        }
        if !text.is_empty() {
            out.push(';');
            out.push_str(&text);
        }
        if stop {
            break;
        }
    }
    out.push_str(&format!(";{color}[{}])", vertex_to_sgf(vertex, size)));
    (out, played + 1)
}

/// The 15 superko checks: simple ko, situational superko (Fuego's
/// "superko") and positional superko. kifu calls a move illegal when it
/// gives an error-level `ko`, `superko`, `suicide` or `occupied-point`;
/// under simple ko a repetition is only a `repeated-position` warning.
#[test]
fn fuego_repetition_tst() {
    let Some(dir) = common::corpus_dir("suites") else { return };
    let regression = dir.join("fuego/regression");
    let checks = parse_tst(&std::fs::read_to_string(regression.join("repetition.tst")).unwrap());
    assert_eq!(checks.len(), 15);
    let illegal_codes = [Code::OccupiedPoint, Code::OffBoard, Code::Suicide, Code::Ko, Code::Superko];
    let mut mismatches = Vec::new();
    for c in &checks {
        let bytes = read(&regression.join(&c.file));
        let (record, n) = position_plus_move(&bytes, c.before_move, c.color, &c.vertex);
        let d = check(record.as_bytes(), ko(c.ko));
        let at_candidate: Vec<&Diagnostic> = d.iter().filter(|d| d.move_number == Some(n)).collect();
        let illegal = at_candidate.iter().any(|d| d.severity == Error && illegal_codes.contains(&d.code));
        let verdict = at_candidate.iter().map(|d| format!("{}:{}", d.code, d.severity)).collect::<Vec<_>>().join(",");
        eprintln!(
            "fuego {:>2} {:<28} {:?} {:<11} {} {:<3} expected {} kifu {} [{verdict}]",
            c.id,
            c.file,
            c.before_move,
            format!("{:?}", c.ko),
            c.color,
            c.vertex,
            c.legal,
            !illegal
        );
        if illegal == c.legal {
            mismatches.push(format!("{} ({} {:?}): expected legal={}, kifu says {verdict:?}\n{record}", c.id, c.file, c.ko, c.legal));
        }
        // The precise code: simpleko.sgf is a plain ko retake; the others
        // are superko violations, or under simple ko a repetition (except
        // positional-superko.sgf, whose position recurs with the other
        // player to move: no repetition of the situation).
        let expected_code = match c.id {
            10..=12 => Some(Code::Ko),
            20 | 30 | 40 => Some(Code::RepeatedPosition),
            21 | 22 | 31 | 32 | 41 | 42 | 52 => Some(Code::Superko),
            50 | 51 => None,
            other => panic!("unexpected check {other}"),
        };
        let codes_at: Vec<Code> = at_candidate.iter().map(|d| d.code).collect();
        assert_eq!(codes_at, expected_code.into_iter().collect::<Vec<_>>(), "check {}: {record}", c.id);
    }
    assert!(mismatches.is_empty(), "{}", mismatches.join("\n"));
}

#[test]
fn fuego_tst_reader_and_vertices() {
    let text = "loadsgf sgf/x.sgf 4\ngo_param_rules ko_rule pos_superko\n\n22 is_legal w a4\n#? [0]\n";
    let checks = parse_tst(text);
    assert_eq!(checks.len(), 1);
    let c = &checks[0];
    assert_eq!(
        (c.id, c.file.as_str(), c.before_move, c.ko, c.color, c.vertex.as_str(), c.legal),
        (22, "sgf/x.sgf", Some(4), KoRule::Positional, "W", "a4", false)
    );
    assert_eq!(vertex_to_sgf("a4", 9), "af");
    assert_eq!(vertex_to_sgf("J1", 9), "ii");
    assert_eq!(vertex_to_sgf("e7", 9), "ec");
    let (record, n) = position_plus_move(b"(;SZ[9]AB[aa]C[x];B[bb];W[cc];B[dd])", Some(3), "B", "e7");
    assert_eq!((record.as_str(), n), ("(;SZ[9]AB[aa];B[bb];W[cc];B[ec])", 3));
}

// ---------------------------------------------------------------------------
// 2c. GNU Go regression/games/seki_exotics

/// The records are positions (setup only; onadare_ko is a joseki with one
/// pass): nothing in them cycles. So under Japanese (their RU) and under
/// Chinese rules kifu reports nothing at all.
#[test]
fn gnugo_seki_exotics_are_positions_without_cycles() {
    let Some(dir) = common::corpus_dir("suites") else { return };
    let dir = dir.join("gnugo/regression/games/seki_exotics");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path()).filter(|p| p.extension().is_some_and(|e| e == "sgf")).collect();
    files.sort();
    assert_eq!(files.len(), 22);
    for path in &files {
        let bytes = read(path);
        let name = path.file_name().unwrap().to_string_lossy();
        for over in [from_game(), preset("japanese"), preset("chinese")] {
            let result = check_bytes(&bytes, &CheckOptions { rules: over, ..Default::default() });
            assert_eq!(codes(&result.diagnostics), Vec::<&str>::new(), "{name} {over:?}");
            let expected_moves = match name.as_ref() {
                "onadare_ko.sgf" => 37,
                _ => 0,
            };
            assert_eq!(result.moves, expected_moves, "{name}");
        }
    }
}

/// Played on from the file's position, the classical triple ko of
/// threeko1.sgf cycles in 6 moves: Black takes at A3, White at E1, Black at
/// D4, White retakes A2, Black F1, White D3, and Black is to play in the
/// starting position again. No move retakes the ko just taken.
#[test]
fn gnugo_threeko1_played_round_the_cycle() {
    let Some(dir) = common::corpus_dir("suites") else { return };
    let bytes = read(&dir.join("gnugo/regression/games/seki_exotics/threeko1.sgf"));
    let record = with_moves(&bytes, ";B[ag];W[ei];B[df];W[ah];B[fi];W[dg]");
    let d = check(&record, from_game());
    assert_eq!(moves(&d), [mv("repeated-position", Warning, 6, "W", "dg")]);
    assert!(errors(&d).is_empty());
    for rules in ["chinese", "aga"] {
        let d = check(&record, preset(rules));
        assert_eq!(moves(&d), [mv("superko", Error, 6, "W", "dg")], "{rules}");
    }
    // One move short of the cycle, nothing repeats.
    let short = with_moves(&bytes, ";B[ag];W[ei];B[df];W[ah];B[fi]");
    assert_eq!(moves(&check(&short, preset("chinese"))), []);
}

/// chosei.sgf played on: Black throws in at C1, White captures two at E1,
/// Black captures two at D1, White throws in at F1: the starting position,
/// Black to play, after 4 moves.
#[test]
fn gnugo_chosei_played_round_the_cycle() {
    let Some(dir) = common::corpus_dir("suites") else { return };
    let bytes = read(&dir.join("gnugo/regression/games/seki_exotics/chosei.sgf"));
    let record = with_moves(&bytes, ";B[ci];W[ei];B[di];W[fi]");
    let d = check(&record, from_game());
    assert_eq!(moves(&d), [mv("repeated-position", Warning, 4, "W", "fi")]);
    assert!(errors(&d).is_empty());
    for rules in ["chinese", "aga"] {
        assert_eq!(moves(&check(&record, preset(rules))), [mv("superko", Error, 4, "W", "fi")], "{rules}");
    }
}
