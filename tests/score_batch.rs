//! `kifu score` on the batch layer, through the real binary: folders and
//! archives walked like `check`, the same output whatever `--jobs`, games
//! in input order, `--finished-only`, the summary.

use std::fs;
use std::io::Write;
use std::path::Path;

use assert_cmd::Command;
use serde_json::Value;

fn kifu() -> Command {
    Command::cargo_bin("kifu").unwrap()
}

/// A 9x9 game: Black walls the left five columns, White the right three;
/// `end` is what follows the moves (two passes, or nothing).
fn game(result: &str, end: &str) -> String {
    let mut s = format!("(;GM[1]FF[4]RU[Japanese]SZ[9]KM[0.5]RE[{result}]");
    for y in 0..9u8 {
        let row = (b'a' + y) as char;
        s.push_str(&format!(";B[e{row}];W[f{row}]"));
    }
    s + end + ")\n"
}

/// Forty files in a folder: every fourth resigned (no two passes).
fn folder(dir: &Path) {
    for i in 0..40 {
        let text = if i % 4 == 0 { game("W+R", "") } else { game("B+8.5", ";B[];W[]") };
        fs::write(dir.join(format!("{i:02}.sgf")), text).unwrap();
    }
}

fn lines(out: &[u8]) -> Vec<Value> {
    String::from_utf8_lossy(out).lines().map(|l| serde_json::from_str(l).unwrap()).collect()
}

#[test]
fn the_output_is_the_same_in_input_order_whatever_the_jobs() {
    let dir = tempfile::tempdir().unwrap();
    folder(dir.path());
    let run = |jobs: &str| kifu().args(["score", "--format", "json", "--jobs", jobs]).arg(dir.path()).output().unwrap();
    let one = run("1");
    assert_eq!(one.status.code(), Some(0), "{}", String::from_utf8_lossy(&one.stderr));
    let games = lines(&one.stdout);
    let files: Vec<String> = games.iter().map(|g| Path::new(g["file"].as_str().unwrap()).file_name().unwrap().to_string_lossy().into_owned()).collect();
    let expected: Vec<String> = (0..40).map(|i| format!("{i:02}.sgf")).collect();
    assert_eq!(files, expected);
    assert_eq!(games.iter().filter(|g| g["finished"] == false).count(), 10);
    for jobs in ["2", "4"] {
        assert_eq!(run(jobs).stdout, one.stdout, "--jobs {jobs}");
    }
    let text = |jobs: &str| kifu().args(["score", "--jobs", jobs]).arg(dir.path()).output().unwrap().stdout;
    assert_eq!(text("1"), text("3"));
}

#[test]
fn what_is_said_of_each_file_comes_in_input_order_whatever_the_jobs() {
    let dir = tempfile::tempdir().unwrap();
    for i in 0..30 {
        let text = match i % 3 {
            0 => game("W+R", ""),
            1 => "not a game record\n".to_owned(),
            _ => "(;GM[1]FF[4]SZ[0])\n".to_owned(),
        };
        fs::write(dir.path().join(format!("{i:02}.sgf")), text).unwrap();
    }
    let said = |jobs: &str| {
        let out = kifu().args(["score", "--quiet", "--jobs", jobs]).arg(dir.path()).output().unwrap();
        String::from_utf8_lossy(&out.stderr).into_owned()
    };
    let one = said("1");
    assert_eq!(one.lines().count(), 20, "{one}");
    assert!(one.lines().next().unwrap().contains("01.sgf: not an SGF file"), "{one}");
    for _ in 0..3 {
        assert_eq!(said("2"), one);
    }
}

#[test]
fn finished_only_skips_games_without_two_passes_and_the_summary_says_so() {
    let dir = tempfile::tempdir().unwrap();
    folder(dir.path());
    let out = kifu().args(["score", "--format", "json", "--finished-only"]).arg(dir.path()).output().unwrap();
    let games = lines(&out.stdout);
    assert_eq!(games.len(), 30);
    assert!(games.iter().all(|g| g["finished"] == true && g["agrees"] == true));
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(said.contains("40 files, 30 games"), "{said}");
    assert!(said.contains("30 agree with RE[]"), "{said}");
    assert!(said.contains("10 unfinished games skipped by --finished-only"), "{said}");
    let quiet = kifu().args(["score", "--quiet", "--finished-only"]).arg(dir.path()).output().unwrap();
    assert!(quiet.stderr.is_empty(), "{}", String::from_utf8_lossy(&quiet.stderr));
}

#[test]
fn a_game_counted_before_the_end_says_so() {
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("resigned.sgf"), game("W+R", "")).unwrap();
    let out = kifu().args(["score", "--quiet"]).arg(dir.path().join("resigned.sgf")).output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("counted before the end"), "{text}");
    let summary = kifu().arg("score").arg(dir.path()).output().unwrap();
    assert!(String::from_utf8_lossy(&summary.stderr).contains("1 counted before the end"));
}

#[test]
fn archives_are_scored_in_place() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("games.zip");
    let mut zip = zip::ZipWriter::new(fs::File::create(&path).unwrap());
    for i in 0..3 {
        zip.start_file(format!("g{i}.sgf"), zip::write::SimpleFileOptions::default()).unwrap();
        zip.write_all(game("B+8.5", ";B[];W[]").as_bytes()).unwrap();
    }
    zip.finish().unwrap();
    let out = kifu().args(["score", "--format", "json", "--jobs", "2"]).arg(&path).output().unwrap();
    let names: Vec<String> = lines(&out.stdout).iter().map(|g| g["file"].as_str().unwrap().rsplit('!').next().unwrap().to_string()).collect();
    assert_eq!(names, ["g0.sgf", "g1.sgf", "g2.sgf"]);
}
