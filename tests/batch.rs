//! Archive-scale checking through the real binary: archives read in place,
//! parallel runs in input order, shards, duplicates, kifu.toml, --fix.

use std::fs;
use std::io::Write;
use std::path::Path;

use assert_cmd::Command;
use serde_json::Value;

fn kifu() -> Command {
    Command::cargo_bin("kifu").unwrap()
}

/// A legal game of `n` moves along the diagonal band, no captures.
fn game(n: usize, header: &str) -> String {
    let mut s = format!("(;GM[1]FF[4]RU[Japanese]SZ[19]{header}");
    for i in 0..n {
        let (x, y) = (i % 19, (i / 19) * 2 + i % 2);
        s.push_str(&format!(";{}[{}{}]", if i % 2 == 0 { 'B' } else { 'W' }, (b'a' + x as u8) as char, (b'a' + y as u8) as char));
    }
    s + ")\n"
}

/// The same game turned a quarter (x, y) -> (18 - y, x) with colours swapped.
fn turned(n: usize) -> String {
    let mut s = "(;GM[1]FF[4]RU[Japanese]SZ[19]PB[Someone else]".to_string();
    for i in 0..n {
        let (x, y) = (i % 19, (i / 19) * 2 + i % 2);
        let (tx, ty) = (18 - y, x);
        s.push_str(&format!(";{}[{}{}]", if i % 2 == 0 { 'W' } else { 'B' }, (b'a' + tx as u8) as char, (b'a' + ty as u8) as char));
    }
    s + ")\n"
}

const ILLEGAL: &str = "(;GM[1]RU[Japanese]SZ[9];B[ee];W[ee])\n";

fn jsonl(out: &[u8]) -> (Vec<Value>, Value) {
    let mut rows: Vec<Value> = String::from_utf8_lossy(out).lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    let summary = rows.pop().expect("summary line")["summary"].clone();
    (rows, summary)
}

fn write(dir: &Path, name: &str, text: &str) {
    let path = dir.join(name);
    fs::create_dir_all(path.parent().unwrap()).unwrap();
    fs::write(path, text).unwrap();
}

#[test]
fn games_inside_zip_tar_and_tgz_are_checked_in_place() {
    let dir = tempfile::tempdir().unwrap();
    let zip_path = dir.path().join("games.zip");
    let mut zip = zip::ZipWriter::new(fs::File::create(&zip_path).unwrap());
    let options = zip::write::SimpleFileOptions::default().compression_method(zip::CompressionMethod::Deflated);
    zip.start_file("2020/bad.sgf", options).unwrap();
    zip.write_all(ILLEGAL.as_bytes()).unwrap();
    zip.start_file("notes.txt", options).unwrap();
    zip.write_all(b"not a game").unwrap();
    zip.finish().unwrap();
    for (name, gz) in [("games.tar", false), ("games.tgz", true)] {
        let file = fs::File::create(dir.path().join(name)).unwrap();
        let sink: Box<dyn Write> = if gz { Box::new(flate2::write::GzEncoder::new(file, flate2::Compression::default())) } else { Box::new(file) };
        let mut tar = tar::Builder::new(sink);
        let mut header = tar::Header::new_gnu();
        header.set_size(ILLEGAL.len() as u64);
        header.set_cksum();
        tar.append_data(&mut header, "a/bad.sgf", ILLEGAL.as_bytes()).unwrap();
        tar.into_inner().unwrap().flush().unwrap();
    }
    let out = kifu().args(["check", "--format", "jsonl"]).arg(dir.path()).output().unwrap();
    let (rows, summary) = jsonl(&out.stdout);
    let files: Vec<String> = rows.iter().map(|r| r["file"].as_str().unwrap().to_string()).collect();
    let root = dir.path().display().to_string();
    assert_eq!(files, [format!("{root}/games.tar!a/bad.sgf"), format!("{root}/games.tgz!a/bad.sgf"), format!("{root}/games.zip!2020/bad.sgf")]);
    assert!(rows.iter().all(|r| r["code"] == "occupied-point" && r["line"] == 1), "{rows:?}");
    assert_eq!(summary["files"], 3);
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn a_zip_bomb_is_bounded_by_max_bytes() {
    let dir = tempfile::tempdir().unwrap();
    let zip_path = dir.path().join("bomb.zip");
    let mut zip = zip::ZipWriter::new(fs::File::create(&zip_path).unwrap());
    zip.start_file("bomb.sgf", zip::write::SimpleFileOptions::default().compression_method(zip::CompressionMethod::Deflated)).unwrap();
    let zeros = vec![b' '; 1 << 20];
    for _ in 0..64 {
        zip.write_all(&zeros).unwrap();
    }
    zip.finish().unwrap();
    assert!(fs::metadata(&zip_path).unwrap().len() < 1 << 20, "the bomb should compress well");
    let out = kifu().args(["check", "--format", "jsonl", "--max-bytes", "1000000"]).arg(&zip_path).output().unwrap();
    let (rows, _) = jsonl(&out.stdout);
    assert_eq!(rows.len(), 1);
    assert_eq!(rows[0]["code"], "limit-exceeded");
    assert!(rows[0]["message"].as_str().unwrap().contains("--max-bytes 1000000"));
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn many_paths_named_are_taken_as_with_the_options_after_them() {
    // 32 or more paths ending the line skip clap's path-by-path parse
    // (`cli::parse_command_line`); options after them do not.
    let dir = tempfile::tempdir().unwrap();
    let mut paths = Vec::new();
    for i in 0..40 {
        let text = match i % 10 {
            3 => ILLEGAL.to_string(),
            7 => turned(30),
            _ => game(20 + i, ""),
        };
        write(dir.path(), &format!("g{i:02}.sgf"), &text);
        paths.push(dir.path().join(format!("g{i:02}.sgf")).display().to_string());
    }
    paths.insert(20, dir.path().join("missing.sgf").display().to_string());
    paths.insert(30, paths[5].clone());
    let run = |before: &[&str], after: &[&str]| {
        let out = kifu().arg("check").args(before).args(&paths).args(after).output().unwrap();
        let (rows, mut summary) = jsonl(&out.stdout);
        summary.as_object_mut().unwrap().retain(|key, _| key != "seconds" && key != "games_per_second");
        (rows, summary, String::from_utf8_lossy(&out.stderr).into_owned(), out.status.code())
    };
    let options = ["--format", "jsonl", "--jobs", "1"];
    let first = run(&options, &[]);
    assert!(first.0.iter().any(|row| row["code"] == "duplicate-game"), "{:?}", first.0);
    assert!(first.2.contains("missing.sgf: no such file or directory"), "{}", first.2);
    assert_eq!(first.3, Some(2));
    assert_eq!(run(&[], &options), first);
    assert_eq!(run(&["--format", "jsonl", "--jobs", "1", "--"], &[]), first);
    assert_eq!(run(&["--format", "jsonl", "--jobs", "2"], &[]), first);
    // A command that takes no paths still says so.
    let out = kifu().args(["explain", "ko"]).args(&paths).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("unexpected argument"));
}

#[test]
fn output_order_does_not_depend_on_jobs() {
    let run = |jobs: &str| kifu().args(["check", "--format", "jsonl", "--jobs", jobs, "fixtures"]).output().unwrap();
    let one = run("1");
    let (rows, _) = jsonl(&one.stdout);
    assert!(rows.len() > 50, "the fixtures should give many diagnostics");
    for jobs in ["2", "5"] {
        let (other, _) = jsonl(&run(jobs).stdout);
        assert_eq!(other, rows, "--jobs {jobs}");
    }
}

#[test]
fn shards_split_the_inputs_without_overlap() {
    let files_of = |args: &[&str]| -> Vec<String> {
        let out = kifu().args(["check", "--format", "json", "--allow", "duplicate-game"]).args(args).arg("fixtures").output().unwrap();
        let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
        let mut files: Vec<String> = doc["diagnostics"].as_array().unwrap().iter().map(|d| d["file"].as_str().unwrap().to_string()).collect();
        files.dedup();
        files
    };
    let all = files_of(&[]);
    let mut union = Vec::new();
    for i in 1..=3 {
        let shard = files_of(&["--shard", &format!("{i}/3")]);
        assert!(!shard.is_empty() && shard.len() < all.len());
        union.extend(shard);
    }
    union.sort();
    let mut expected = all.clone();
    expected.sort();
    assert_eq!(union, expected);
    kifu().args(["check", "--shard", "4/3", "fixtures"]).assert().code(2);
}

#[test]
fn the_same_game_turned_and_with_colours_swapped_is_a_duplicate() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "a.sgf", &game(40, "PB[First]"));
    write(dir.path(), "b.sgf", &turned(40));
    write(dir.path(), "c.sgf", &game(39, ""));
    let out = kifu().args(["check", "--format", "jsonl"]).arg(dir.path()).output().unwrap();
    let (rows, _) = jsonl(&out.stdout);
    let duplicates: Vec<&Value> = rows.iter().filter(|r| r["code"] == "duplicate-game").collect();
    assert_eq!(duplicates.len(), 1, "{rows:?}");
    assert!(duplicates[0]["file"].as_str().unwrap().ends_with("b.sgf"));
    assert!(duplicates[0]["message"].as_str().unwrap().contains("a.sgf (game 1)"));
    assert_eq!(duplicates[0]["severity"], "info");
    assert_eq!(out.status.code(), Some(0));
}

#[test]
fn hidden_folders_are_skipped_unless_asked() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), ".git/bad.sgf", ILLEGAL);
    write(dir.path(), "ok.sgf", &game(3, ""));
    kifu().arg("check").arg(dir.path()).assert().code(0);
    kifu().args(["check", "--hidden"]).arg(dir.path()).assert().code(1);
}

#[cfg(unix)]
#[test]
fn a_symlink_loop_is_reported_and_the_walk_goes_on() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "sub/bad.sgf", ILLEGAL);
    std::os::unix::fs::symlink(dir.path(), dir.path().join("sub/loop")).unwrap();
    let out = kifu().args(["check", "--format", "jsonl"]).arg(dir.path()).output().unwrap();
    let (rows, _) = jsonl(&out.stdout);
    let codes: Vec<&str> = rows.iter().map(|r| r["code"].as_str().unwrap()).collect();
    assert_eq!(codes, ["occupied-point", "symlink-loop"]);
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn kifu_toml_is_found_upwards_and_flags_win() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "kifu.toml", "[check]\nallow = [\"occupied-point\"]\nignore = [\"drafts/\"]\nextensions = [\"kif\"]\n");
    write(dir.path(), "games/bad.sgf", ILLEGAL);
    write(dir.path(), "games/other.kif", "(;GM[1]RU[Japanese]SZ[9];B[ee];B[dd])");
    write(dir.path(), "games/drafts/worse.sgf", "(;GM[1]RU[Japanese]SZ[9];B[ee];W[ff];W[gg])");
    let games = dir.path().join("games");
    let run = |args: &[&str]| {
        let out = kifu().current_dir(&games).arg("check").args(args).args(["--format", "jsonl", "."]).output().unwrap();
        let (rows, _) = jsonl(&out.stdout);
        rows.iter().map(|r| format!("{} {}", r["file"].as_str().unwrap(), r["code"].as_str().unwrap())).collect::<Vec<_>>()
    };
    assert_eq!(run(&[]), ["./other.kif double-move"]);
    assert_eq!(run(&["--no-config"]), ["./bad.sgf occupied-point", "./drafts/worse.sgf double-move"]);
    write(dir.path(), "strict.toml", "[check]\ndeny = [\"warnings\"]\n");
    kifu().current_dir(&games).args(["check", "--config", "../strict.toml", "drafts"]).assert().code(1);
    write(dir.path(), "kifu.toml", "[check]\nallwo = [\"ko\"]\n");
    kifu().current_dir(&games).args(["check", "."]).assert().code(2).stderr(predicates::str::contains("allwo"));
}

#[test]
fn fix_writes_a_repaired_copy_and_never_the_input() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("in.sgf");
    let original = b"(;GM[1]CA[ISO-8859-1]PB[Jos\xe9]\n;B[dd]".to_vec();
    fs::write(&input, &original).unwrap();
    let output = dir.path().join("out.sgf");
    kifu()
        .args(["check", "--fix", "-o"])
        .arg(&output)
        .arg(&input)
        .assert()
        .stderr(predicates::str::contains("converted from").and(predicates::str::contains("missing-close-paren")));
    assert_eq!(fs::read(&input).unwrap(), original);
    let fixed = fs::read_to_string(&output).unwrap();
    assert!(fixed.contains("PB[Jos\u{e9}]") && fixed.contains("CA[UTF-8]") && fixed.trim_end().ends_with(')'), "{fixed}");
    kifu().args(["check", "--fix", "-o"]).arg(&input).arg(&input).assert().stderr(predicates::str::contains("refusing"));
    assert_eq!(fs::read(&input).unwrap(), original);
    // An output folder inside the input folder is not walked into.
    let folder = dir.path().join("fixed");
    for _ in 0..2 {
        kifu().args(["check", "--fix", "-o"]).arg(&folder).arg(dir.path()).assert().code(0);
    }
    let written: Vec<_> =
        walkdir::WalkDir::new(&folder).into_iter().filter_map(Result::ok).filter(|e| e.file_type().is_file()).map(|e| e.into_path()).collect();
    assert_eq!(written, [folder.join("in.sgf"), folder.join("out.sgf")]);
}

#[test]
fn summary_only_prints_the_summary_and_no_progress_bar_in_pipes() {
    let out = kifu().args(["check", "--summary-only", "fixtures/moves"]).output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(text.lines().count(), 1, "{text}");
    assert!(text.contains("games/s"), "{text}");
    assert!(out.stderr.is_empty(), "stderr is a pipe: no progress bar");
    let out = kifu().args(["check", "--summary-only", "--format", "json", "fixtures/moves"]).output().unwrap();
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(doc["diagnostics"].as_array().map(Vec::len), Some(0));
    assert!(doc["summary"]["games_per_second"].as_f64().is_some());
}

use predicates::prelude::PredicateBooleanExt;

#[test]
fn timeout_per_file_names_the_games_not_checked() {
    let dir = tempfile::tempdir().unwrap();
    let collection: String = (0..3000).map(|_| game(150, "")).collect();
    write(dir.path(), "many.sgf", &collection);
    let out = kifu().args(["check", "--format", "jsonl", "--allow", "duplicate-game", "--timeout-per-file", "0.001"]).arg(dir.path()).output().unwrap();
    let (rows, summary) = jsonl(&out.stdout);
    let timeouts: Vec<&Value> = rows.iter().filter(|r| r["code"] == "timeout").collect();
    assert_eq!(timeouts.len(), 1, "{rows:?}");
    assert!(timeouts[0]["message"].as_str().unwrap().contains("were not checked"));
    // The summary counts the games checked, not those the timeout skipped.
    let first_not_checked = timeouts[0]["game"].as_u64().unwrap();
    assert!(first_not_checked < 3000);
    assert_eq!(summary["games"], first_not_checked);
    assert_eq!(summary["moves"], first_not_checked * 150);
    assert_eq!(out.status.code(), Some(1));
    kifu().args(["check", "--timeout-per-file", "0", "fixtures/example-game.sgf"]).assert().code(2);
}

#[test]
fn a_file_named_twice_or_reached_through_a_link_is_checked_once() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("games/one.sgf");
    write(dir.path(), "games/one.sgf", &game(40, ""));
    let run = |paths: &[&Path]| {
        let out = kifu().args(["check", "--format", "jsonl"]).args(paths).output().unwrap();
        let (rows, summary) = jsonl(&out.stdout);
        assert!(rows.iter().all(|r| r["code"] != "duplicate-game"), "{paths:?}: {rows:?}");
        summary["files"].as_u64()
    };
    let games = dir.path().join("games");
    assert_eq!(run(&[&file, &file]), Some(1));
    assert_eq!(run(&[&games, &file]), Some(1));
    // Named through another spelling of its folder.
    assert_eq!(run(&[&file, &dir.path().join("games/../games/one.sgf")]), Some(1));
    #[cfg(unix)]
    {
        std::os::unix::fs::symlink(&file, games.join("link.sgf")).unwrap();
        std::os::unix::fs::symlink(&games, dir.path().join("linked-games")).unwrap();
        assert_eq!(run(&[&games]), Some(1));
        assert_eq!(run(&[dir.path()]), Some(1));
        assert_eq!(run(&[&dir.path().join("linked-games/link.sgf"), &games]), Some(1));
        assert_eq!(run(&[&games.join("link.sgf"), &file]), Some(1));
        assert_eq!(run(&[&dir.path().join("linked-games/one.sgf"), &file]), Some(1));
    }
    // A real copy is another file: a duplicate game, reported.
    write(dir.path(), "games/copy.sgf", &game(40, ""));
    let out = kifu().args(["check", "--format", "jsonl"]).arg(&games).output().unwrap();
    assert!(jsonl(&out.stdout).0.iter().any(|r| r["code"] == "duplicate-game"));
}

#[test]
fn a_folder_with_no_sgf_file_is_named_and_fails_the_run() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "notes/readme.txt", "no games here");
    let notes = dir.path().join("notes");
    for command in [&["check"][..], &["check", "--format", "json"], &["info"], &["score"], &["convert", "--to", "json"]] {
        kifu().args(command).arg(&notes).assert().code(2).stderr(predicates::str::contains(format!("warning: no SGF file found under {}", notes.display())));
    }
    // Named with another folder that has games: still said, still exit 2.
    write(dir.path(), "games/a.sgf", &game(30, ""));
    kifu().args(["check"]).arg(dir.path().join("games")).arg(&notes).assert().code(2).stderr(predicates::str::contains("no SGF file found under"));
    // A shard that gets no file is not a wrong path.
    kifu().args(["check", "--shard", "2/2"]).arg(dir.path().join("games")).assert().code(0).stderr(predicates::str::is_empty());
}
