//! Tygem, WBaduk and Pandanet records through the real binary: the corpus
//! files Sabaki's and KaTrain's tests read give the root values and first
//! moves those tests expect, and convert to SGF that reads back to the same
//! game; small fixtures show the diagnostics, content detection, `info`,
//! `score` and `--fix` without the corpus.

use std::collections::BTreeMap;
use std::path::Path;

use assert_cmd::Command;
use kifu::sgf::{self, GameTree};
use proptest::prelude::*;

mod common;
#[path = "../fuzz/targets.rs"]
mod targets;

fn kifu() -> Command {
    Command::cargo_bin("kifu").unwrap()
}

/// `kifu convert --to sgf FILE`, read back.
fn converted(path: &Path) -> GameTree {
    let out = kifu().args(["convert", "--to", "sgf"]).arg(path).output().unwrap();
    assert!(out.status.success(), "{}: {}", path.display(), String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8(out.stdout).unwrap();
    let parsed = sgf::parse_str(&text);
    assert!(parsed.diagnostics.is_empty(), "{}: the SGF written reads with {:?}", path.display(), parsed.diagnostics);
    assert_eq!(parsed.collection.games.len(), 1);
    parsed.collection.games.into_iter().next().unwrap()
}

/// The root's properties, each value list joined by spaces.
fn root(game: &GameTree) -> BTreeMap<String, String> {
    game.root().properties().map(|p| (p.id().to_string(), p.values().map(|v| v.text()).collect::<Vec<_>>().join(" "))).collect()
}

/// The first `n` moves of the main line, as `B[qd]`.
fn first_moves(game: &GameTree, n: usize) -> Vec<String> {
    game.main_line().skip(1).take(n).map(|node| node.properties().map(|p| format!("{}[{}]", p.id(), p.first().unwrap_or(""))).collect()).collect()
}

fn expected(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
    pairs.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect()
}

/// A corpus file, the root values it must give and its first four moves.
type Case = (&'static str, &'static [(&'static str, &'static str)], [&'static str; 4]);

/// Sabaki's `*Tests.js` (`root.data` and the first four nodes; the root
/// comment of `review.ugi`) plus what kifu reads besides (`GN`, `PC`, `RU`:
/// Sabaki drops them). The files Sabaki's tests do not read were worked
/// out by hand from the files; `handicap2.ngf`'s first move is KaTrain's
/// test's.
#[test]
fn sabaki_and_katrain_files_give_the_values_their_tests_expect() {
    let Some(dir) = common::corpus_dir("suites/sabaki-formats") else { return };
    let base = [("CA", "UTF-8"), ("FF", "4"), ("GM", "1"), ("SZ", "19")];
    #[rustfmt::skip]
    let cases: &[Case] = &[
        // gibTests.js, "should parse simple files".
        ("gib/utf8.gib", &[("KM", "0"), ("PW", "leejw977"), ("WR", "10K"), ("PB", "jy512"), ("BR", "15K"), ("DT", "2016-03-26"), ("HA", "3"), ("AB", "dp pd dd"),
            ("GN", "Free"), ("PC", "Tygem Baduk")],
            ["W[pp]", "B[nq]", "W[qn]", "B[no]"]),
        // gibTests.js, "should be able to detect encoding": PB; the rest by hand.
        ("gib/gb2312.gib", &[("PB", "石下之臣"), ("BR", "2段"), ("PW", "harpmaster"), ("WR", "3段"), ("KM", "0"), ("DT", "2012-11-22"), ("RE", "W+11"),
            ("HA", "5"), ("AB", "dp pd dd pp jj"), ("GN", "让先"), ("PC", "弈道TYGEM对弈")],
            ["W[qn]", "B[nq]", "W[qf]", "B[qj]"]),
        ("gib/euc-kr.gib", &[("PB", "dustkd1015"), ("BR", "1급"), ("PW", "dongjik"), ("WR", "1급"), ("KM", "6.5"), ("DT", "2015-08-29"), ("RE", "B+T"),
            ("GN", "승강급 대국"), ("PC", "타이젬 바둑")],
            ["B[qc]", "W[dp]", "B[qo]", "W[dd]"]),
        // ngfTests.js.
        ("ngf/even.ngf", &[("KM", "7.5"), ("PW", "LQC"), ("WR", "9p"), ("PB", "CYY"), ("BR", "9p"), ("DT", "2017-03-16"), ("RE", "B+0.5"),
            ("GN", "Rated game"), ("PC", "www.cyberoro.com")],
            ["B[qd]", "W[dd]", "B[pq]", "W[dp]"]),
        ("ngf/handicap2.ngf", &[("PW", "ace550"), ("WR", "7d*"), ("PB", "p81587"), ("BR", "5d*"), ("HA", "2"), ("AB", "dp pd"), ("KM", "0"),
            ("DT", "2017-03-16"), ("RE", "W+R"), ("GN", "Rated game"), ("PC", "www.cyberoro.com")],
            ["W[pq]", "B[dd]", "W[fq]", "B[hq]"]),
        ("ngf/gb2312.ngf", &[("PW", "朴承华"), ("WR", "初段"), ("PB", "李载雄"), ("BR", "五段"), ("KM", "6.5"), ("DT", "2006-09-05"), ("GN", "韩国十段战")],
            ["B[qd]", "W[dd]", "B[pq]", "W[oc]"]),
        // ugfTests.js, "should parse simple files" (its KM[-5.50] is right:
        // the recount with it gives the recorded B+7.50).
        ("ugf/amateur.ugf", &[("CP", "PANDANET INC."), ("KM", "-5.50"), ("PW", "YINNI"), ("WR", "8d"), ("PB", "kaziwami"), ("BR", "7d"), ("DT", "2019-03-08"),
            ("RE", "B+7.50"), ("RU", "Japanese"), ("GN", "2019,PANDA-NET,"), ("PC", "PANDA-NET")],
            ["B[qd]", "W[dd]", "B[pq]", "W[dq]"]),
        // ugfTests.js, "should parse reviews with comments and variations": C.
        ("ugf/review.ugi", &[("C", "apetresc 2k?: Let's begin and enjoy a great game.\nken03110 2k : Hi!\n"), ("CP", "PANDANET INC."), ("KM", "6.50"),
            ("PW", "apetresc"), ("WR", "2k?"), ("PB", "ken03110"), ("BR", "2k"), ("DT", "2020-06-23"), ("RE", "B+2.50"), ("RU", "Japanese"),
            ("GN", "2020,PANDA-NET Review,apetresc-ken03110(B) IGS")],
            ["B[qd]", "W[dc]", "B[pq]", "W[dp]"]),
    ];
    for (file, values, moves) in cases {
        let path = dir.join(file);
        let game = converted(&path);
        let mut want = expected(&base);
        want.extend(expected(values));
        assert_eq!(root(&game), want, "{file}");
        assert_eq!(first_moves(&game, 4), moves, "{file}");
    }
    let review = converted(&dir.join("ugf/review.ugi"));
    let branches = review.nodes().filter(|n| n.child_count() > 1).count();
    assert_eq!(branches, 2, "review.ugi has two variations");
    let Some(katrain) = common::corpus_dir("suites/katrain/tests/data") else { return };
    assert_eq!(first_moves(&converted(&katrain.join("test.gib")), 1), ["B[pd]"]);
    assert_eq!(first_moves(&converted(&katrain.join("handicap2.ngf")), 1), ["W[pq]"]);
}

/// Every record, read, written as SGF by the binary and read back, gives
/// the same tree: the same moves, variations and values.
#[test]
fn records_round_trip_through_sgf() {
    let mut files: Vec<_> = std::fs::read_dir("fixtures/formats").unwrap().map(|e| e.unwrap().path()).collect();
    for dir in ["suites/sabaki-formats", "suites/katrain/tests/data"].iter().filter_map(|d| common::corpus_dir(d)) {
        let records = walkdir::WalkDir::new(dir).into_iter().filter_map(Result::ok).map(|e| e.into_path());
        files.extend(records.filter(|p| p.extension().is_some_and(|x| ["gib", "ngf", "ugf", "ugi"].contains(&x.to_str().unwrap()))));
    }
    files.sort();
    assert!(files.len() >= 7);
    for path in files {
        let bytes = std::fs::read(&path).unwrap();
        let read = kifu::formats::read(&bytes, &path.to_string_lossy(), &Default::default());
        let original = kifu::json::set_utf8_charset(&read.collection);
        assert_eq!(original.games, [converted(&path)], "{}", path.display());
    }
}

#[test]
fn diagnostics_point_at_the_line_of_the_original_file() {
    let out = kifu().args(["check", "--format", "json", "fixtures/formats/gib-occupied-point-off-board-lost-line.gib"]).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let found: Vec<(String, u64, u64)> = doc["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| (d["code"].as_str().unwrap().to_string(), d["line"].as_u64().unwrap(), d["column"].as_u64().unwrap()))
        .collect();
    let want = [("unknown-rules", 1, 1), ("occupied-point", 10, 1), ("unreadable-line", 11, 1), ("inconsistent-record", 12, 1), ("unreadable-line", 13, 1)];
    assert_eq!(found, want.map(|(c, l, col)| (c.to_string(), l, col)));
    // Text output quotes the record's own line.
    let text = kifu().args(["check", "fixtures/formats/gib-occupied-point-off-board-lost-line.gib"]).output().unwrap();
    assert!(String::from_utf8_lossy(&text.stdout).contains("10 | STO 0 3 2 15 3"), "{}", String::from_utf8_lossy(&text.stdout));
}

#[test]
fn charsets_are_detected_and_said() {
    let out = kifu().args(["check", "--format", "jsonl", "fixtures/formats/gib-gbk-names-handicap-3.gib"]).output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains(r#""code":"charset-detected""#) && text.contains("detected GBK"), "{text}");
    let game = converted(Path::new("fixtures/formats/gib-gbk-names-handicap-3.gib"));
    assert_eq!((game.root().get_value("PB"), game.root().get_value("PW")), (Some("柯洁"), Some("古力")));
    // Tygem puts the third handicap stone in the upper left corner.
    assert_eq!(root(&game)["AB"], "dp pd dd");
    // Pandanet's Lang=SJIS is used when the bytes fit it.
    let ugi = converted(Path::new("fixtures/formats/ugf-review-sjis-variation-comments.ugi"));
    assert_eq!(ugi.root().get_value("PB"), Some("黒田"));
    let clean = kifu().args(["check", "fixtures/formats/ugf-review-sjis-variation-comments.ugi"]).output().unwrap();
    assert!(clean.status.success() && String::from_utf8_lossy(&clean.stdout).contains("0 errors, 0 warnings, 0 info"));
}

#[test]
fn a_tygem_record_saved_as_sgf_is_recognised_by_its_content() {
    let game = converted(Path::new("fixtures/formats/gib-content-named.sgf"));
    assert_eq!(first_moves(&game, 2), ["B[pd]", "W[dp]"]);
    let piped = kifu().args(["info", "--format", "json", "-"]).write_stdin(std::fs::read("fixtures/formats/gib-content-named.sgf").unwrap()).output().unwrap();
    let info: serde_json::Value = serde_json::from_slice(&piped.stdout).unwrap();
    assert_eq!(info["summary"]["black"], "kim", "{info}");
}

#[test]
fn wbaduk_forms_comments_and_broken_lines() {
    let even = converted(Path::new("fixtures/formats/ngf-even-game-half-point-komi.ngf"));
    assert_eq!(root(&even)["KM"], "6.5");
    assert_eq!(root(&even)["PW"], "Lee Chang-ho");
    assert_eq!(first_moves(&even, 4)[3], "W[]", "AAAA is a pass");
    let gi = converted(Path::new("fixtures/formats/ngf-gi-header-gbk-comment.ngf"));
    assert_eq!(gi.main_line().nth(3).unwrap().get_value("C"), Some("黑中盘胜\n(现场消息)"));
    let out = kifu().args(["check", "--format", "jsonl", "fixtures/formats/ngf-handicap-2-broken-lines.ngf"]).output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    for code in ["inconsistent-record", "unreadable-line", "double-move"] {
        assert!(text.contains(&format!(r#""code":"{code}""#)), "{code}: {text}");
    }
}

#[test]
fn pandanet_review_variations_merge_with_the_game() {
    let game = converted(Path::new("fixtures/formats/ugf-review-sjis-variation-comments.ugi"));
    let first = game.main_line().nth(1).unwrap();
    assert_eq!(first.get_value("W"), Some("gc"));
    let lines: Vec<Vec<String>> =
        first.children().map(|c| std::iter::successors(Some(c), |n| n.children().next()).map(|n| format!("{n:?}")).collect()).collect();
    assert_eq!(lines, [vec!["[B[cg]]", "[W[], C[pass\n]]"], vec!["[B[ee]]", "[W[df], C[黒田 3k: 変化図\n]]"]]);
    assert_eq!(game.root().get_value("C"), Some("白石 1d: よろしく\n"));
}

#[test]
fn score_and_fix_work_on_other_formats() {
    let Some(dir) = common::corpus_dir("suites/sabaki-formats") else { return };
    let out = kifu().args(["score", "--format", "json"]).arg(dir.join("ugf/amateur.ugf")).output().unwrap();
    let scored: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!((scored["result"].as_str(), scored["agrees"].as_bool()), (Some("B+7.5"), Some(true)), "{scored}");
    let target = tempfile::tempdir().unwrap();
    let fixed = kifu().args(["check", "--fix", "-o"]).arg(target.path()).arg(dir.join("gib")).output().unwrap();
    let stderr = String::from_utf8_lossy(&fixed.stderr);
    assert!(stderr.contains("converted from Tygem GIB to SGF"), "{stderr}");
    let copy = std::fs::read_to_string(target.path().join("gb2312.gib.sgf")).unwrap();
    assert!(copy.starts_with("(;FF[4]GM[1]CA[UTF-8]") && copy.contains("PB[石下之臣]"), "{copy}");
}

/// `data` with byte edits: set, insert, delete, or insert a separator.
fn mutated(data: &[u8], edits: &[(usize, u8, u8)]) -> Vec<u8> {
    let mut out = data.to_vec();
    for &(at, kind, byte) in edits {
        let len = out.len();
        match kind % 4 {
            0 if len > 0 => out[at % len] = byte,
            1 => out.insert(at % (len + 1), byte),
            2 if len > 0 => {
                out.remove(at % len);
            }
            3 => out.insert(at % (len + 1), [b'\n', b',', b' ', b'\\'][usize::from(byte) % 4]),
            _ => {}
        }
    }
    out
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, failure_persistence: None, ..ProptestConfig::default() })]

    /// The fixtures, each with a few random byte edits, read under their own
    /// names (so each reader meets broken input of its format): no panic in
    /// the whole check, every diagnostic inside the decoded text, and the SGF
    /// written reads back to the same model.
    #[test]
    fn broken_records_never_break_the_pipeline(pick in any::<usize>(), edits in prop::collection::vec((any::<usize>(), any::<u8>(), any::<u8>()), 1..8)) {
        let mut files: Vec<_> = std::fs::read_dir("fixtures/formats").unwrap().map(|e| e.unwrap().path()).collect();
        files.sort();
        let path = &files[pick % files.len()];
        let bytes = mutated(&std::fs::read(path).unwrap(), &edits);
        let name = path.to_string_lossy();
        let parsed = kifu::formats::read(&bytes, &name, &Default::default());
        targets::assert_located(&parsed.source, &parsed.diagnostics);
        targets::assert_round_trips(&parsed.collection);
        let checked = kifu::check::check_record(&bytes, &name, &Default::default());
        targets::assert_located(&checked.source, &checked.diagnostics);
    }
}
