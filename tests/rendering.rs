//! What people read, through the real binary: the text of `check` (caret,
//! picture), `score` (breakdown, map, notes) and `info` as snapshots
//! (tests/snapshots/, `cargo insta review` or INSTA_UPDATE=always to
//! accept a change), and the rules every output keeps: nothing from a
//! record reaches the terminal raw, carets stay under their character,
//! `--quiet` means the same in every format, the picture is the position
//! the move was played on.

use std::path::{Path, PathBuf};

use assert_cmd::Command;
use serde_json::Value;

mod common;

fn kifu() -> Command {
    let mut cmd = Command::cargo_bin("kifu").expect("binary built");
    cmd.env_remove("NO_COLOR").env_remove("CLICOLOR_FORCE");
    cmd
}

fn manifest_dir() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// Stdout, stderr and exit code of `kifu ARGS` run in the crate root.
fn run(args: &[&str]) -> (String, String, i32) {
    let out = kifu().current_dir(manifest_dir()).args(args).output().unwrap();
    (String::from_utf8(out.stdout).expect("UTF-8 stdout"), String::from_utf8(out.stderr).expect("UTF-8 stderr"), out.status.code().unwrap())
}

/// The summary line without its timing (`in 0.01 s (300 games/s)`).
fn untimed(text: &str) -> String {
    text.lines()
        .map(|l| match l.find(" in ").filter(|_| l.ends_with(" games/s)")) {
            Some(i) => &l[..i],
            None => l,
        })
        .map(|l| format!("{l}\n"))
        .collect()
}

/// A scratch folder with files written into it.
struct Scratch(tempfile::TempDir);

impl Scratch {
    fn new(files: &[(&str, &[u8])]) -> Scratch {
        let dir = tempfile::tempdir().unwrap();
        for (name, bytes) in files {
            std::fs::write(dir.path().join(name), bytes).unwrap();
        }
        Scratch(dir)
    }

    fn path(&self, name: &str) -> PathBuf {
        self.0.path().join(name)
    }

    /// Stdout, stderr and exit code of `kifu ARGS` run in the folder.
    fn run(&self, args: &[&str]) -> (String, String, i32) {
        let out = kifu().current_dir(self.0.path()).args(args).output().unwrap();
        (String::from_utf8(out.stdout).expect("UTF-8 stdout"), String::from_utf8(out.stderr).expect("UTF-8 stderr"), out.status.code().unwrap())
    }
}

/// Characters a terminal would act on rather than show.
fn raw_controls(text: &str) -> Vec<char> {
    text.chars().filter(|&c| (c.is_control() && c != '\n') || matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')).collect()
}

// ---------------------------------------------------------------------------
// Snapshots of the text outputs

#[test]
fn check_text_of_each_move_fixture() {
    let mut fixtures: Vec<PathBuf> = std::fs::read_dir(manifest_dir().join("fixtures/moves")).unwrap().map(|e| e.unwrap().path()).collect();
    fixtures.sort();
    for path in fixtures {
        let name = path.file_stem().unwrap().to_str().unwrap().to_string();
        let relative = format!("fixtures/moves/{name}.sgf");
        let (out, _, _) = run(&["check", "--color", "never", &relative]);
        insta::assert_snapshot!(format!("check_{name}"), untimed(&out));
    }
}

#[test]
fn check_text_of_syntax_and_charset_fixtures() {
    for relative in [
        "fixtures/syntax/unexpected-char.sgf",
        "fixtures/syntax/leading-junk.sgf",
        "fixtures/charset/fox-truncated-utf8.sgf",
        "fixtures/syntax/crlf-line-endings.sgf",
    ] {
        let (out, _, _) = run(&["check", relative]);
        let name = Path::new(relative).file_stem().unwrap().to_str().unwrap().to_string();
        insta::assert_snapshot!(format!("check_{name}"), untimed(&out));
    }
}

#[test]
fn score_text_of_score_fixtures() {
    for (name, extra) in [
        ("kgs-seki-eyes", &["--dead-stones", "none"][..]),
        ("kgs-one-dame-connection", &["--dead-stones", "none"][..]),
        ("japanese-seki-eyes-not-counted", &[][..]),
        ("fox-komi-x100", &[][..]),
        ("result-mismatch", &[][..]),
        ("result-unverified-unfinished", &[][..]),
        ("handicap-bonus-chinese-vs-aga", &[][..]),
        ("necessary-connection-after-dame", &[][..]),
    ] {
        let relative = format!("fixtures/score/{name}.sgf");
        let (out, _, _) = run(&[&["score", relative.as_str()][..], extra].concat());
        insta::assert_snapshot!(format!("score_{name}"), out);
    }
}

#[test]
fn info_text() {
    let (out, _, code) = run(&["info", "fixtures/example-game.sgf", "fixtures/syntax/utf8-bom.sgf"]);
    assert_eq!(code, 0);
    insta::assert_snapshot!("info_example_and_bom", out);
}

#[test]
fn explain_text() {
    let (out, _, code) = run(&["explain", "suicide"]);
    assert_eq!(code, 0);
    insta::assert_snapshot!("explain_suicide", out);
}

// ---------------------------------------------------------------------------
// Item 5: nothing from a record reaches a terminal raw

const EVIL_NAME: &[u8] = b"(;GM[1]FF[4]SZ[9]PB[\x1b[2J\x1b[31mEvil]PW[\xe2\x80\xaeolleh]RE[B+\x07R];B[ee];;W[ee])";

#[test]
fn info_escapes_control_characters_and_bidi_overrides() {
    let dir = Scratch::new(&[("e.sgf", EVIL_NAME)]);
    let (out, _, code) = dir.run(&["info", "e.sgf"]);
    assert_eq!(code, 0);
    assert_eq!(raw_controls(&out), [], "{out:?}");
    assert!(out.contains("Black: \\x1b[2J\\x1b[31mEvil\n"), "{out}");
    assert!(out.contains("White: \\u{202e}olleh\n"), "{out}");
    assert!(out.contains("Result: B+\\x07R\n"), "{out}");
    // JSON escapes as JSON does, and keeps the text.
    let (json, _, _) = dir.run(&["info", "--format", "json", "e.sgf"]);
    assert!(json.contains(r#""black":"\u001b[2J\u001b[31mEvil""#), "{json}");
    let doc: Value = serde_json::from_str(json.trim()).unwrap();
    assert_eq!(doc["summary"]["black"], "\x1b[2J\x1b[31mEvil");
}

#[test]
fn check_text_escapes_snippets_and_keeps_the_caret_aligned() {
    // The empty node is after the escape sequences on the same line.
    let dir = Scratch::new(&[("e.sgf", EVIL_NAME)]);
    let (out, _, _) = dir.run(&["check", "e.sgf"]);
    assert_eq!(raw_controls(&out), [], "{out:?}");
    let lines: Vec<&str> = out.lines().collect();
    let at = lines.iter().position(|l| l.contains("warning[empty-node]")).expect("an empty-node diagnostic");
    let (source, caret) = (lines[at + 2], lines[at + 3]);
    let shown = source.split_once(" | ").unwrap().1;
    let cells = caret.split_once(" | ").unwrap().1.find('^').unwrap();
    assert!(shown.contains("PB[\\x1b[2J\\x1b[31mEvil]PW[\\u{202e}olleh]"), "{shown}");
    assert!(shown[..cells].ends_with("B[ee]"), "the caret is not under the empty node: {shown:?} / {caret:?}");
    // Every text format, and the GitHub commands, escape; JSON keeps the text.
    let (github, _, _) = dir.run(&["check", "--format", "github", "e.sgf"]);
    assert_eq!(raw_controls(&github), [], "{github:?}");
    let (json, _, _) = dir.run(&["check", "--format", "json", "e.sgf"]);
    assert_eq!(raw_controls(&json), [], "{json:?}");
}

#[test]
fn binary_files_and_their_names_are_shown_escaped() {
    let mut junk: Vec<u8> = (0u8..=255).cycle().take(2000).collect();
    junk.splice(0..0, b"\x1b]0;pwned\x07\x1b[2J".iter().copied());
    let name = "bad\x1b[31mname.sgf";
    let dir = Scratch::new(&[("binary.sgf", &junk), (name, b"\x1b[2J not a game \x9b")]);
    for args in [&["check", "binary.sgf", name][..], &["info", "binary.sgf", name], &["score", name], &["convert", name, "--to", "json"]] {
        let (out, err, _) = dir.run(args);
        assert_eq!(raw_controls(&out), [], "{args:?}: {out:?}");
        assert_eq!(raw_controls(&err), [], "{args:?}: {err:?}");
    }
    let (out, _, _) = dir.run(&["check", name]);
    assert!(out.contains("bad\\x1b[31mname.sgf:"), "{out}");
    let (_, err, _) = dir.run(&["info", name]);
    assert!(err.contains("kifu: bad\\x1b[31mname.sgf: "), "{err}");
}

#[test]
fn score_text_escapes_the_result_and_the_notes() {
    let dir = Scratch::new(&[("e.sgf", b"(;GM[1]FF[4]SZ[5]RU[Japanese]KM[\x1b[5m]RE[\x1b[2JB+3];B[cc];W[];B[])")]);
    let (out, _, _) = dir.run(&["score", "e.sgf"]);
    assert_eq!(raw_controls(&out), [], "{out:?}");
    assert!(out.contains("RE[\\x1b[2JB+3]"), "{out}");
}

// ---------------------------------------------------------------------------
// Item 6: the picture is the position the move was played on

#[test]
fn suicide_picture_shows_the_stones_before_they_were_removed() {
    let dir = Scratch::new(&[("s.sgf", b"(;GM[1]FF[4]SZ[5]RU[Japanese];B[bb];W[ab];B[ba];W[ac];B[ee];W[bc];B[ed];W[cb];B[de];W[ca];B[aa])")]);
    let (out, _, code) = dir.run(&["check", "s.sgf"]);
    assert_eq!(code, 1);
    assert!(out.contains("error[suicide]: Black plays at A5 (aa), leaving its own 3 stones without liberty (move 11)"), "{out}");
    assert!(out.contains("  |   5 (+)X O . .\n  |   4  O X O . .\n"), "the black stones B5 and B4 are shown: {out}");
}

#[test]
fn superko_picture_shows_the_stones_the_move_captured() {
    let (out, _, _) = run(&["check", "fixtures/moves/superko-positional-cycle.sgf"]);
    // White's D9 recaptures at C9: the picture has the black stone there.
    assert!(out.contains("  |   9  . . X(+). X . O\n"), "{out}");
}

#[test]
fn real_suicide_shows_the_position_before_it() {
    let Some(dir) = common::corpus_dir("fox-pro/part1/3p") else { return };
    let path = dir.join("1399560411019999295.sgf");
    let out = kifu().args(["check", "--format", "json"]).arg(&path).output().unwrap();
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    let suicide = doc["diagnostics"].as_array().unwrap().iter().find(|d| d["code"] == "suicide").expect("a suicide");
    assert_eq!(suicide["move"], 212);
    let text = kifu().args(["check", "--color", "never"]).arg(&path).output().unwrap();
    let text = String::from_utf8(text.stdout).unwrap();
    let picture: Vec<&str> = text.lines().skip_while(|l| !l.contains("error[suicide]")).skip(4).take(10).collect();
    let row = picture.iter().find(|l| l.contains("(+)")).expect("the point in the picture");
    // The stone the move connects to is beside the point: it was on the
    // board when the move was played.
    let at = row.find("(+)").unwrap();
    let color = suicide["color"].as_str().unwrap();
    let own = if color == "B" { 'X' } else { 'O' };
    let beside = [row[..at].chars().last(), row[at + 3..].chars().next()];
    let above_below: Vec<char> = picture.iter().filter(|l| l.len() > at + 1 && *l != row).filter_map(|l| l[at + 1..].chars().next()).collect();
    assert!(beside.contains(&Some(own)) || above_below.contains(&own), "no {own} beside the point:\n{}", picture.join("\n"));
}

// ---------------------------------------------------------------------------
// Item 17: carets in terminal cells, columns in characters

#[test]
fn caret_after_cjk_text_is_under_the_move() {
    let sgf = "(;GM[1]FF[4]SZ[9]PB[李昌镐李昌镐]C[围棋围棋];B[ee];W[ee])";
    let dir = Scratch::new(&[("cjk.sgf", sgf.as_bytes())]);
    let (out, _, _) = dir.run(&["check", "cjk.sgf"]);
    let lines: Vec<&str> = out.lines().collect();
    let at = lines.iter().position(|l| l.contains("error[occupied-point]")).unwrap();
    let shown = lines[at + 2].split_once(" | ").unwrap().1;
    let cells = lines[at + 3].split_once(" | ").unwrap().1.find('^').unwrap();
    // Every character before the move is ASCII (one cell) or CJK (two).
    let cells_of = |s: &str| s.chars().map(|c| if c.is_ascii() { 1 } else { 2 }).sum::<usize>();
    let upto = shown.find(";W[ee]").unwrap() + 1;
    assert_eq!(cells, cells_of(&shown[..upto]), "caret not under W:\n{}\n{}", lines[at + 2], lines[at + 3]);
    // JSON keeps its documented column: characters.
    let (json, _, _) = dir.run(&["check", "--format", "json", "cjk.sgf"]);
    let doc: Value = serde_json::from_str(&json).unwrap();
    let d = doc["diagnostics"].as_array().unwrap().iter().find(|d| d["code"] == "occupied-point").unwrap();
    assert_eq!(d["column"].as_u64().unwrap() as usize, sgf.find(";W[ee]").map(|i| sgf[..i].chars().count() + 2).unwrap());
}

// ---------------------------------------------------------------------------
// Item 22

#[test]
fn quiet_means_only_errors_in_every_format() {
    let paths = ["fixtures/moves", "fixtures/syntax"];
    let (text, _, code) = run(&[&["check", "--quiet"][..], &paths].concat());
    assert_eq!(code, 1);
    assert!(text.lines().filter(|l| l.contains("]: ") && !l.starts_with(' ')).all(|l| l.contains(": error[")), "{text}");
    assert!(!text.contains(" files, "), "no summary line: {text}");
    let (jsonl, _, _) = run(&[&["check", "--quiet", "--format", "jsonl"][..], &paths].concat());
    let rows: Vec<Value> = jsonl.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert!(!rows.is_empty() && rows.iter().all(|r| r["severity"] == "error"), "{jsonl}");
    let (json, _, _) = run(&[&["check", "--quiet", "--format", "json"][..], &paths].concat());
    let doc: Value = serde_json::from_str(&json).unwrap();
    assert!(doc["diagnostics"].as_array().unwrap().iter().all(|d| d["severity"] == "error"));
    assert!(doc["summary"]["warnings"].as_u64().unwrap() > 0, "the summary still counts everything");
    let (sarif, _, _) = run(&[&["check", "--quiet", "--format", "sarif"][..], &paths].concat());
    let log: Value = serde_json::from_str(&sarif).unwrap();
    assert!(log["runs"][0]["results"].as_array().unwrap().iter().all(|r| r["level"] == "error"));
    let (github, _, _) = run(&[&["check", "--quiet", "--format", "github"][..], &paths].concat());
    assert!(github.lines().all(|l| l.starts_with("::error ")), "{github}");
}

#[test]
fn suicide_allowed_by_the_flag_names_the_flag() {
    let (out, _, code) = run(&["check", "--suicide", "allowed", "fixtures/moves/suicide.sgf"]);
    assert_eq!(code, 0);
    assert!(out.contains("info[suicide]") && out.contains(": allowed by --suicide allowed"), "{out}");
    assert!(!out.contains("allowed under japanese rules"), "{out}");
    let (out, _, _) = run(&["check", "--rules", "tromp-taylor", "fixtures/moves/suicide.sgf"]);
    assert!(out.contains(": allowed under tromp-taylor rules"), "{out}");
}

#[test]
fn double_move_names_its_point_and_shows_the_board() {
    let (out, _, _) = run(&["check", "fixtures/moves/double-move.sgf"]);
    assert!(out.contains("error[double-move]: White moves twice in a row, at G3 (gg) (move 3)"), "{out}");
    assert!(out.contains("  |   3  . . . .(+). .\n"), "{out}");
}

#[test]
fn fox_byo_yomi_properties_are_named_for_what_they_are() {
    let dir = Scratch::new(&[("fox.sgf", b"(;GM[1]FF[4]SZ[19]RU[Japanese]TM[1200]TC[3]TT[30];B[pd])")]);
    let (out, _, _) = dir.run(&["check", "--format", "jsonl", "fox.sgf"]);
    assert!(out.contains("TC[3]: the number of byo-yomi periods, as the Fox server writes it"), "{out}");
    assert!(out.contains("TT[30]: the length of a byo-yomi period in seconds"), "{out}");
    assert!(!out.contains("Territory count"), "{out}");
}

#[test]
fn seki_eyes_counted_only_where_a_seki_changed_the_count() {
    let (out, _, _) = run(&["score", "--dead-stones", "none", "fixtures/score/kgs-seki-eyes.sgf"]);
    assert!(out.contains("info[seki-eyes-counted]") && out.contains("counts 1 point that Art. 8 leaves to no one"), "{out}");
    // A KGS game with no seki, counted, and a resignation: no note.
    let dir = Scratch::new(&[
        ("counted.sgf", b"(;GM[1]FF[4]SZ[5]RU[Japanese]PC[KGS]KM[0.5]RE[B+9.5]AB[ba][bb][bc][bd][be]AW[da][db][dc][dd][de];B[];W[])"),
        ("resigned.sgf", b"(;GM[1]FF[4]SZ[9]RU[Japanese]PC[KGS]KM[6.5]RE[W+R];B[ee];W[cc];B[gg])"),
    ]);
    for name in ["counted.sgf", "resigned.sgf"] {
        let (out, _, _) = dir.run(&["score", name]);
        assert!(!out.contains("seki-eyes-counted"), "{out}");
        let (out, _, _) = dir.run(&["check", "--score", "--format", "jsonl", name]);
        assert!(!out.contains("seki-eyes-counted"), "{out}");
    }
}

// ---------------------------------------------------------------------------
// Item 23: one superko per cycle entered

#[test]
fn one_superko_for_a_cycle_played_round_and_round() {
    // The eternal life of superko-positional-cycle.sgf played three times round.
    let (superko, out) = superko_after_cycle(";B[ga];W[ea];B[fa];W[da];B[ga];W[ea];B[fa];W[da]");
    assert_eq!(superko.len(), 1, "{out}");
    assert_eq!(superko[0]["move"], 4);
    assert!(superko[0]["message"].as_str().unwrap().contains("a cycle of 4 moves"));
}

#[test]
fn passes_inside_a_cycle_do_not_start_a_new_one() {
    let (superko, out) = superko_after_cycle(";B[];W[];B[ga];W[ea];B[fa];W[da]");
    assert_eq!(superko.len(), 1, "{out}");
}

/// The superko diagnostics of superko-positional-cycle.sgf with `moves`
/// played after its cycle, and the whole output.
fn superko_after_cycle(moves: &str) -> (Vec<Value>, String) {
    let fixture = std::fs::read_to_string(manifest_dir().join("fixtures/moves/superko-positional-cycle.sgf")).unwrap();
    let looped = format!("{}{moves})", fixture.trim_end().trim_end_matches(')'));
    let dir = Scratch::new(&[("cycle.sgf", looped.as_bytes())]);
    let (out, _, _) = dir.run(&["check", "--format", "jsonl", "cycle.sgf"]);
    let superko = out.lines().map(|l| serde_json::from_str::<Value>(l).unwrap()).filter(|d| d["code"] == "superko").collect();
    (superko, out)
}

#[test]
fn the_real_cycle_gives_one_superko() {
    let Some(dir) = common::corpus_dir("fox-pro/part1/7p") else { return };
    let out = kifu().args(["check", "--rules", "chinese", "--format", "jsonl"]).arg(dir.join("1461856565019999405.sgf")).output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    let superko: Vec<Value> = text.lines().map(|l| serde_json::from_str::<Value>(l).unwrap()).filter(|d| d["code"] == "superko").collect();
    assert_eq!(superko.len(), 1, "{text}");
    assert!(superko[0]["message"].as_str().unwrap().contains("a cycle of 6 moves"), "{text}");
}

// ---------------------------------------------------------------------------
// Item 24

#[test]
fn score_text_names_the_line_and_points_as_the_map_does() {
    let (out, _, _) = run(&["score", "fixtures/score/seki-simple.sgf"]);
    assert!(out.lines().next().unwrap().starts_with("fixtures/score/seki-simple.sgf (game 1, main line): "), "{out}");
    let dir = Scratch::new(&[("v.sgf", b"(;GM[1]FF[4]SZ[5]RU[Chinese]KM[0.5](;B[cc];W[];B[])(;B[bb];W[];B[]))")]);
    let (out, _, _) = dir.run(&["score", "--variation", "1", "v.sgf"]);
    assert!(out.starts_with("v.sgf (game 1, variation 1): "), "{out}");
    let (json, _, _) = dir.run(&["score", "--variation", "1", "--format", "json", "v.sgf"]);
    assert_eq!(serde_json::from_str::<Value>(&json).unwrap()["variation"], serde_json::json!([1]));
}

#[test]
fn unsure_groups_are_named_in_board_coordinates() {
    let Some(dir) = common::corpus_dir("kgs/KGS2001") else { return };
    let path = dir.join("2000-10-10-1.sgf");
    let json = kifu().args(["score", "--format", "json"]).arg(&path).output().unwrap();
    let doc: Value = serde_json::from_slice(&json.stdout).unwrap();
    let unsure: Vec<&str> = doc["unsure"].as_array().expect("unsure").iter().map(|p| p.as_str().unwrap()).collect();
    // The first, from SGF letters to the board's name (19x19: no I column,
    // rows from the bottom).
    let letters = unsure.first().expect("an unsure group in this game in play").as_bytes();
    let (x, y) = ((letters[0] - b'a') as usize, (letters[1] - b'a') as usize);
    let name = format!("{}{}", "ABCDEFGHJKLMNOPQRST".as_bytes()[x] as char, 19 - y);
    let text = String::from_utf8(kifu().arg("score").arg(&path).output().unwrap().stdout).unwrap();
    let line = text.lines().find(|l| l.contains("unsure of the groups at:")).expect("the unsure line");
    assert!(line.contains(&name) && !line.contains(unsure[0]), "{name}: {line}");
}

#[test]
fn column_names_of_a_52x52_board_line_up() {
    let dir = Scratch::new(&[("big.sgf", b"(;GM[1]FF[4]SZ[52]RU[Chinese]KM[0.5];B[aa];W[ZZ];B[ZZ])")]);
    let (out, _, _) = dir.run(&["score", "--dead-stones", "none", "big.sgf"]);
    // Two header lines (two-letter names from column 26 on), then 52 rows.
    let lines: Vec<&str> = out.lines().collect();
    let top = lines.iter().position(|l| l.starts_with("   52 ")).expect("the top row");
    let (first, last, row) = (lines[top - 2], lines[top - 1], lines[top]);
    assert!(row.starts_with("   52  X"), "{row:?}");
    for (i, name) in ["A", "Z", "AA", "BA"].iter().zip([0, 24, 25, 50]).map(|(n, i)| (i, n)) {
        let col = 7 + 2 * i;
        let top = first.chars().nth(col).unwrap_or(' ');
        let bottom = last.chars().nth(col).unwrap();
        let shown: String = [top, bottom].iter().filter(|c| **c != ' ').collect();
        assert_eq!(&shown, name, "column {i}:\n{first}\n{last}\n{row}");
    }
    assert_eq!(row.chars().count(), 7 + 2 * 51 + 1, "{row:?}");
    // The picture under a diagnostic, at the far edge.
    let (out, _, _) = dir.run(&["check", "big.sgf"]);
    assert!(out.contains("error[occupied-point]"), "{out}");
    insta::assert_snapshot!("check_52x52_far_corner", untimed(&out).replace(&dir.path("big.sgf").display().to_string(), "big.sgf"));
}

#[test]
fn the_first_progress_frame_says_nothing_not_yet_known() {
    if std::process::Command::new("script").arg("--version").output().is_err() {
        eprintln!("skipped: no `script` to give kifu a terminal");
        return;
    }
    let bin = assert_cmd::cargo::cargo_bin("kifu");
    let command = format!("{} check --summary-only {}", bin.display(), manifest_dir().join("fixtures").display());
    let out = std::process::Command::new("script").args(["-qfec", &command, "/dev/null"]).env_remove("CI").output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    let frames: Vec<&str> = text.split(['\r', '\n']).filter(|f| f.contains(" files")).collect();
    assert!(!frames.is_empty(), "no progress frame: {text:?}");
    for frame in &frames {
        assert!(!frame.contains(", ,") && !frame.contains(" 0 files/s"), "{frame:?}");
    }
    assert!(frames[0].contains("0 games, 0 errors"), "{:?}", frames[0]);
}

// ---------------------------------------------------------------------------
// Item 26: score's notes and cause in JSON

#[test]
fn score_json_carries_the_notes_and_the_cause() {
    let (json, _, code) = run(&["score", "--format", "json", "fixtures/score/fox-komi-x100.sgf", "fixtures/score/result-mismatch.sgf"]);
    assert_eq!(code, 1);
    let docs: Vec<Value> = json.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    let notes = docs[0]["notes"].as_array().expect("notes");
    let scaled = notes.iter().find(|n| n["code"] == "komi-scaled").expect("komi-scaled in the notes");
    assert_eq!(scaled["severity"], "info");
    assert_eq!(scaled["game"], 0);
    assert!(scaled["line"].as_u64().unwrap() > 0);
    assert_eq!(docs[0]["cause"], Value::Null);
    assert_eq!(docs[1]["agrees"], false);
    assert_eq!(docs[1]["verified"], false);
    assert!(docs[1]["cause"].as_str().unwrap().starts_with("none found"), "{}", docs[1]);
    let (jsonl, _, _) = run(&["score", "--format", "jsonl", "fixtures/score/fox-komi-x100.sgf", "fixtures/score/result-mismatch.sgf"]);
    assert_eq!(jsonl, json);
}

// ---------------------------------------------------------------------------
// Also wanted: explain, completions, man, version, colour, --allow warnings

#[test]
fn explain_every_code_and_refuse_unknown_ones() {
    let (list, _, code) = run(&["explain", "--list"]);
    assert_eq!(code, 0);
    for info in kifu::diag::CODES {
        assert!(list.contains(&format!("\n{} ({} by default; ", info.name, info.severity)) || list.starts_with(&format!("{} (", info.name)), "{}", info.name);
    }
    let (_, err, code) = run(&["explain", "no-such-code"]);
    assert_eq!(code, 2);
    assert!(err.contains("unknown diagnostic code 'no-such-code'"), "{err}");
}

#[test]
fn completions_man_page_and_version() {
    for shell in ["bash", "zsh", "fish", "powershell"] {
        let (out, _, code) = run(&["completions", shell]);
        assert_eq!(code, 0, "{shell}");
        assert!(out.contains("check") && out.contains("summary-only"), "{shell}: {out}");
    }
    let (man, _, code) = run(&["man"]);
    assert_eq!(code, 0);
    assert!(man.starts_with(".ie") && man.contains(".TH kifu 1") && man.contains("explain"), "{man}");
    let (man, _, _) = run(&["man", "check"]);
    assert!(man.contains(".TH kifu-check 1") && man.contains("summary\\-only"), "{man}");
    let (version, _, _) = run(&["--version"]);
    assert!(version.starts_with(&format!("kifu {}", env!("CARGO_PKG_VERSION"))), "{version}");
    let in_git = std::process::Command::new("git").args(["rev-parse", "HEAD"]).current_dir(manifest_dir()).output().is_ok_and(|o| o.status.success());
    if in_git {
        assert!(version.trim_end().ends_with(')'), "the commit is named: {version}");
    }
}

#[test]
fn colour_only_when_asked_or_on_a_terminal() {
    let (plain, _, _) = run(&["check", "fixtures/moves/ko-retake-immediate.sgf"]);
    assert!(!plain.contains('\x1b'), "a pipe gets no colour: {plain:?}");
    let (painted, _, _) = run(&["check", "--color", "always", "fixtures/moves/ko-retake-immediate.sgf"]);
    assert!(painted.contains("\x1b[1;31merror[ko]\x1b[0m"), "{painted:?}");
    assert!(painted.contains("\x1b[1;31m^\x1b[0m"), "{painted:?}");
    let out = kifu()
        .current_dir(manifest_dir())
        .env("NO_COLOR", "1")
        .args(["check", "--color", "always", "fixtures/moves/ko-retake-immediate.sgf"])
        .output()
        .unwrap();
    assert!(String::from_utf8(out.stdout).unwrap().contains('\x1b'), "--color always wins over NO_COLOR");
    // Never in JSON, whatever is asked.
    let (json, _, _) = run(&["check", "--color", "always", "--format", "jsonl", "fixtures/moves/ko-retake-immediate.sgf"]);
    assert!(!json.contains('\x1b'));
    if std::process::Command::new("script").arg("--version").output().is_ok() {
        let bin = assert_cmd::cargo::cargo_bin("kifu");
        let command = format!("{} check {}", bin.display(), manifest_dir().join("fixtures/moves/ko-retake-immediate.sgf").display());
        let tty = |no_color: bool| {
            let mut cmd = std::process::Command::new("script");
            cmd.args(["-qfec", &command, "/dev/null"]).env_remove("CI").env("TERM", "xterm");
            if no_color {
                cmd.env("NO_COLOR", "1");
            } else {
                cmd.env_remove("NO_COLOR");
            }
            String::from_utf8_lossy(&cmd.output().unwrap().stdout).into_owned()
        };
        assert!(tty(false).contains("\x1b[1;31merror[ko]"), "a terminal gets colour");
        assert!(!tty(true).contains("\x1b[1;31m"), "NO_COLOR is respected");
    }
}

#[test]
fn allow_warnings_and_info_set_a_minimum_severity() {
    let count = |args: &[&str]| -> Value {
        let (json, _, _) = run(&[&["check", "--summary-only", "--format", "json"][..], args, &["fixtures"]].concat());
        serde_json::from_str::<Value>(&json).unwrap()["summary"].clone()
    };
    let all = count(&[]);
    let no_info = count(&["--allow", "info"]);
    let errors_only = count(&["--allow", "warnings"]);
    assert!(all["infos"].as_u64().unwrap() > 0 && all["warnings"].as_u64().unwrap() > 0);
    assert_eq!((no_info["infos"].as_u64(), no_info["warnings"].clone()), (Some(0), all["warnings"].clone()));
    assert_eq!((errors_only["infos"].as_u64(), errors_only["warnings"].as_u64()), (Some(0), Some(0)));
    assert_eq!(errors_only["errors"], all["errors"]);
    // After the denials: a denied warning stays, as an error.
    let denied = count(&["--allow", "warnings", "--deny", "empty-node"]);
    assert_eq!(denied["by_code"]["empty-node"], all["by_code"]["empty-node"]);
    assert_eq!(denied["errors"].as_u64().unwrap(), all["errors"].as_u64().unwrap() + all["by_code"]["empty-node"].as_u64().unwrap());
}
