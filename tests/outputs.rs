//! What kifu writes (`convert -o`, `check --fix -o`), through the real
//! binary: an output is replaced only by a complete, successful result,
//! with the mode `cp` would give it, and `-o` means the same everywhere.

use std::fs;
use std::path::Path;

use assert_cmd::Command;
use predicates::prelude::*;
use serde_json::Value;

fn kifu() -> Command {
    Command::cargo_bin("kifu").unwrap()
}

const BINARY: &[u8] = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x01\x00\xff\xfe\xab\xcd";

#[test]
fn a_failed_convert_leaves_the_output_untouched() {
    let dir = tempfile::tempdir().unwrap();
    let empty = dir.path().join("empty.sgf");
    fs::write(&empty, "").unwrap();
    let keep = dir.path().join("keep.sgf");
    fs::write(&keep, "precious\n").unwrap();
    // Exit 1: the input holds no game.
    kifu().args(["convert", "--to", "sgf", "-o"]).arg(&keep).arg(&empty).assert().code(1).stderr(predicate::str::contains("not written"));
    assert_eq!(fs::read_to_string(&keep).unwrap(), "precious\n");
    // Exit 2: the input does not exist; and one bad input of two.
    let keep_json = dir.path().join("keep.json");
    fs::write(&keep_json, "precious\n").unwrap();
    kifu().args(["convert", "--to", "json", "/nonexistent.sgf", "-o"]).arg(&keep_json).assert().code(2);
    kifu().args(["convert", "--to", "json", "fixtures/example-game.sgf", "-o"]).arg(&keep_json).arg(&empty).assert().code(1);
    assert_eq!(fs::read_to_string(&keep_json).unwrap(), "precious\n");
    assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 3, "no temporary file left");
    // A success replaces it.
    kifu().args(["convert", "--to", "json", "fixtures/example-game.sgf", "-o"]).arg(&keep_json).assert().code(0);
    assert!(fs::read_to_string(&keep_json).unwrap().contains("kifu/1"));
}

#[cfg(unix)]
#[test]
fn new_outputs_get_the_umask_mode_and_replaced_ones_keep_theirs() {
    use std::os::unix::fs::PermissionsExt;
    let mode = |p: &Path| fs::metadata(p).unwrap().permissions().mode() & 0o777;
    let dir = tempfile::tempdir().unwrap();
    // What any new file gets here (0644 under umask 022), as `cp` would give.
    let reference = dir.path().join("reference");
    fs::File::create(&reference).unwrap();
    let new_json = dir.path().join("new.json");
    kifu().args(["convert", "--to", "json", "fixtures/example-game.sgf", "-o"]).arg(&new_json).assert().code(0);
    let new_fix = dir.path().join("fixed/new.sgf");
    kifu().args(["check", "--fix", "-o"]).arg(&new_fix).arg("fixtures/example-game.sgf").assert().code(0);
    assert_eq!((mode(&new_json), mode(&new_fix)), (mode(&reference), mode(&reference)));
    for (path, wanted) in [(&new_json, 0o664), (&new_fix, 0o604)] {
        fs::set_permissions(path, fs::Permissions::from_mode(wanted)).unwrap();
    }
    kifu().args(["convert", "--to", "json", "fixtures/example-game.sgf", "-o"]).arg(&new_json).assert().code(0);
    kifu().args(["check", "--fix", "-o"]).arg(&new_fix).arg("fixtures/example-game.sgf").assert().code(0);
    assert_eq!((mode(&new_json), mode(&new_fix)), (0o664, 0o604));
}

#[test]
fn fix_writes_no_copy_of_a_file_that_holds_no_game() {
    let dir = tempfile::tempdir().unwrap();
    let inputs = dir.path().join("in");
    fs::create_dir(&inputs).unwrap();
    fs::write(inputs.join("binary.sgf"), BINARY).unwrap();
    fs::write(inputs.join("empty.sgf"), "").unwrap();
    fs::write(inputs.join("prose.sgf"), "just some notes\n").unwrap();
    fs::copy("fixtures/example-game.sgf", inputs.join("game.sgf")).unwrap();
    let out = dir.path().join("out");
    let run = kifu().args(["check", "--fix", "-o"]).arg(&out).arg(&inputs).output().unwrap();
    let stderr = String::from_utf8_lossy(&run.stderr);
    for (name, why) in [("binary.sgf", "not-sgf"), ("empty.sgf", "empty-file"), ("prose.sgf", "not-sgf")] {
        assert!(!out.join(name).exists(), "{name} copied");
        let said = format!("{name}: --fix: no copy written: the file holds no game ({why})");
        assert!(stderr.contains(&said), "{said} not in {stderr}");
    }
    assert!(!stderr.contains("IBM866") && !stderr.contains("converted from"), "{stderr}");
    assert!(out.join("game.sgf").exists());
}

#[test]
fn fix_output_is_canonical_ff4() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("old.sgf");
    fs::write(&input, "(;GaMe[1]FF[3]AddBlack[aa]Comment[hi];Black[cc])").unwrap();
    let out = dir.path().join("fixed.sgf");
    kifu().args(["check", "--fix", "-o"]).arg(&out).arg(&input).assert().code(0).stderr(
        predicate::str::contains("old-identifier at 1:15: 'AddBlack' -> 'AB'").and(predicate::str::contains("file-format at 1:10: 'FF[3]' -> 'FF[4]'")),
    );
    assert_eq!(fs::read_to_string(&out).unwrap(), "(;GM[1]FF[4]CA[UTF-8]AB[aa]C[hi];B[cc])\n");
    // The copy reads back with no old identifier.
    kifu().args(["check", "--format", "json"]).arg(&out).assert().code(0).stdout(predicate::str::contains("old-identifier").not());
}

#[test]
fn convert_into_an_existing_folder_writes_one_file_per_input() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    fs::create_dir(&out).unwrap();
    kifu().args(["convert", "--to", "json", "fixtures/example-game.sgf", "fixtures/values/escapes-and-passes.sgf", "-o"]).arg(&out).assert().code(0);
    for name in ["example-game.json", "escapes-and-passes.json"] {
        let doc: Value = serde_json::from_str(&fs::read_to_string(out.join(name)).unwrap()).unwrap();
        assert_eq!(doc["schema"], "kifu/1", "{name}");
    }
    // Two inputs of one name would write one output: the second is refused.
    let again = dir.path().join("again/");
    kifu()
        .args(["convert", "--to", "sgf", "fixtures/example-game.sgf", "fixtures/example-game.sgf", "-o"])
        .arg(&again)
        .assert()
        .code(0)
        .stderr(predicate::str::is_empty());
    let twins = dir.path().join("twins");
    fs::create_dir_all(twins.join("a")).unwrap();
    fs::create_dir_all(twins.join("b")).unwrap();
    fs::copy("fixtures/example-game.sgf", twins.join("a/g.sgf")).unwrap();
    fs::write(twins.join("b/g.sgf"), "(;GM[1]PB[other];B[aa])").unwrap();
    kifu()
        .args(["convert", "--to", "sgf", "-o"])
        .arg(&out)
        .arg(twins.join("a/g.sgf"))
        .arg(twins.join("b/g.sgf"))
        .assert()
        .code(2)
        .stderr(predicate::str::contains("another input of this run is written to"));
    assert!(fs::read_to_string(out.join("g.sgf")).unwrap().contains("Honinbo Shusaku"));
}

#[test]
fn fix_with_several_inputs_refuses_a_file_name_for_output() {
    let dir = tempfile::tempdir().unwrap();
    let single = dir.path().join("single.sgf");
    kifu()
        .args(["check", "--fix", "-o"])
        .arg(&single)
        .args(["fixtures/example-game.sgf", "fixtures/values/escapes-and-passes.sgf"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("2 inputs need an output folder"));
    assert!(!single.exists());
    let folder = dir.path().join("copies/");
    kifu().args(["check", "--fix", "-o"]).arg(&folder).args(["fixtures/example-game.sgf", "fixtures/values/escapes-and-passes.sgf"]).assert().code(0);
    assert!(folder.join("example-game.sgf").is_file() && folder.join("escapes-and-passes.sgf").is_file());
}

#[test]
fn a_file_that_is_not_sgf_is_one_line_on_stderr_from_every_command() {
    let dir = tempfile::tempdir().unwrap();
    let binary = dir.path().join("binary.sgf");
    fs::write(&binary, BINARY).unwrap();
    let said = format!("{}: not an SGF file: no SGF data found", binary.display());
    for command in [&["check"][..], &["info"], &["score"], &["convert", "--to", "json"]] {
        let out = kifu().args(command).arg(&binary).output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{command:?}");
        assert_eq!(stderr.lines().filter(|l| l.contains(&said)).count(), 1, "{command:?}: {stderr}");
        // No talk of the charset of bytes that are not SGF.
        assert!(!stderr.contains("detected") && !String::from_utf8_lossy(&out.stdout).contains("charset"), "{command:?}: {stderr}");
    }
}

#[test]
fn invalid_json_into_convert_is_said_to_be_invalid_json() {
    let dir = tempfile::tempdir().unwrap();
    for (name, text) in [("cut.json", "{\"schema\": \"kifu/1\", \"games\": ["), ("words.json", "not json"), ("empty.json", ""), ("array.json", "[1, 2]")] {
        let path = dir.path().join(name);
        fs::write(&path, text).unwrap();
        kifu()
            .args(["convert", "--to", "sgf"])
            .arg(&path)
            .assert()
            .code(1)
            .stderr(predicate::str::contains("invalid JSON").and(predicate::str::contains("not an SGF file").not()));
    }
}
