//! Archives and compressed files read in place, through the real binary:
//! each kind, built here from fixture files, gives the diagnostics the
//! files give; a bomb of each compressed kind stops at `--max-bytes`; an
//! archive kifu cannot read is said, never read as a record.

use std::collections::BTreeSet;
use std::io::{Cursor, Write};
use std::path::Path;

use assert_cmd::Command;
use serde_json::Value;

fn kifu() -> Command {
    Command::cargo_bin("kifu").unwrap()
}

/// Records of every format, with errors, warnings and a charset to detect.
const FIXTURES: &[&str] = &[
    "fixtures/moves/occupied-point.sgf",
    "fixtures/moves/ko-retake-immediate.sgf",
    "fixtures/charset/gb2312-declared.sgf",
    "fixtures/formats/gib-occupied-point-off-board-lost-line.gib",
    "fixtures/formats/ngf-handicap-2-broken-lines.ngf",
    "fixtures/formats/ugf-review-sjis-variation-comments.ugi",
];

fn members() -> Vec<(String, Vec<u8>)> {
    FIXTURES.iter().map(|f| (format!("games/{}", Path::new(f).file_name().unwrap().to_str().unwrap()), std::fs::read(f).unwrap())).collect()
}

/// A diagnostic: record, code, line, column, message.
type Found = (String, String, u64, u64, String);

/// `kifu check --format jsonl` on `paths`: each diagnostic as (record,
/// code, line, column, message), the record named by its file name (so an
/// archive member and the file itself compare equal), and the summary.
fn diagnostics(args: &[&str], paths: &[&Path]) -> (BTreeSet<Found>, Value) {
    let out = kifu().args(["check", "--format", "jsonl", "--allow", "duplicate-game"]).args(args).args(paths).output().unwrap();
    let mut rows: Vec<Value> = String::from_utf8_lossy(&out.stdout).lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    let summary = rows.pop().unwrap()["summary"].clone();
    let found = rows
        .iter()
        .map(|d| {
            let file = d["file"].as_str().unwrap();
            let record = file.rsplit(['/', '!']).next().unwrap();
            let record = [".gz", ".bz2", ".xz", ".zst"].iter().find_map(|s| record.strip_suffix(s)).unwrap_or(record);
            (record.to_string(), d["code"].as_str().unwrap().to_string(), d["line"].as_u64().unwrap(), d["column"].as_u64().unwrap(), d["message"].to_string())
        })
        .collect();
    (found, summary)
}

fn compress(codec: &str, data: &[u8]) -> Vec<u8> {
    match codec {
        "gz" => {
            let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
            e.write_all(data).unwrap();
            e.finish().unwrap()
        }
        "bz2" => {
            let mut e = bzip2::write::BzEncoder::new(Vec::new(), bzip2::Compression::fast());
            e.write_all(data).unwrap();
            e.finish().unwrap()
        }
        "xz" => {
            let mut e = lzma_rust2::XzWriter::new(Vec::new(), lzma_rust2::XzOptions::with_preset(1)).unwrap();
            e.write_all(data).unwrap();
            e.finish().unwrap()
        }
        "zst" => ruzstd::encoding::compress_to_vec(data, ruzstd::encoding::CompressionLevel::Fastest),
        _ => unreachable!("{codec}"),
    }
}

fn tar(files: &[(String, Vec<u8>)]) -> Vec<u8> {
    let mut b = tar::Builder::new(Vec::new());
    for (name, data) in files {
        let mut header = tar::Header::new_gnu();
        header.set_size(data.len() as u64);
        header.set_mode(0o644);
        header.set_cksum();
        b.append_data(&mut header, name, &data[..]).unwrap();
    }
    b.into_inner().unwrap()
}

fn zip(files: &[(String, Vec<u8>)]) -> Vec<u8> {
    let mut z = zip::ZipWriter::new(Cursor::new(Vec::new()));
    let options = zip::write::SimpleFileOptions::default().compression_method(zip::CompressionMethod::Deflated);
    for (name, data) in files {
        z.start_file(name, options).unwrap();
        z.write_all(data).unwrap();
    }
    z.finish().unwrap().into_inner()
}

/// A 7z archive, one block a member or (solid) one block for all.
fn sevenz(files: &[(String, Vec<u8>)], solid: bool) -> Vec<u8> {
    use sevenz_rust2::{ArchiveEntry, ArchiveWriter};
    let mut w = ArchiveWriter::new(Cursor::new(Vec::new())).unwrap();
    if solid {
        let entries = files.iter().map(|(name, _)| ArchiveEntry::new_file(name)).collect();
        let readers = files.iter().map(|(_, data)| (&data[..]).into()).collect();
        w.push_archive_entries(entries, readers).unwrap();
    } else {
        for (name, data) in files {
            w.push_archive_entry(ArchiveEntry::new_file(name), Some(&data[..])).unwrap();
        }
    }
    w.finish().unwrap().into_inner()
}

/// Every archive kind, by file name.
fn archives(files: &[(String, Vec<u8>)]) -> Vec<(&'static str, Vec<u8>)> {
    let plain = tar(files);
    vec![
        ("games.zip", zip(files)),
        ("games.tar", plain.clone()),
        ("games.tar.gz", compress("gz", &plain)),
        ("games.tbz2", compress("bz2", &plain)),
        ("games.tar.bz2", compress("bz2", &plain)),
        ("games.tar.xz", compress("xz", &plain)),
        ("games.txz", compress("xz", &plain)),
        ("games.tar.zst", compress("zst", &plain)),
        ("games.7z", sevenz(files, false)),
        ("solid.7z", sevenz(files, true)),
    ]
}

#[test]
fn every_archive_kind_gives_the_diagnostics_of_the_files_themselves() {
    let paths: Vec<&Path> = FIXTURES.iter().map(Path::new).collect();
    let (expected, summary) = diagnostics(&[], &paths);
    assert_eq!(summary["files"], FIXTURES.len());
    assert!(expected.iter().any(|d| d.1 == "occupied-point") && expected.iter().any(|d| d.1 == "charset-detected" || d.1 == "unreadable-line"));
    let dir = tempfile::tempdir().unwrap();
    for (name, bytes) in archives(&members()) {
        let path = dir.path().join(name);
        std::fs::write(&path, bytes).unwrap();
        let (found, summary) = diagnostics(&[], &[&path]);
        assert_eq!(found, expected, "{name}");
        assert_eq!((summary["files"].as_u64(), summary["games"].as_u64()), (Some(FIXTURES.len() as u64), Some(FIXTURES.len() as u64)), "{name}");
    }
    // Single compressed records, named and found in a walk.
    let folder = dir.path().join("compressed");
    std::fs::create_dir(&folder).unwrap();
    for (i, (name, data)) in members().iter().enumerate() {
        let codec = ["gz", "bz2", "xz", "zst"][i % 4];
        let file = Path::new(name).file_name().unwrap().to_str().unwrap();
        std::fs::write(folder.join(format!("{file}.{codec}")), compress(codec, data)).unwrap();
    }
    assert_eq!(diagnostics(&[], &[&folder]).0, expected, "a walk");
    let named: Vec<_> = std::fs::read_dir(&folder).unwrap().map(|e| e.unwrap().path()).collect();
    assert_eq!(diagnostics(&[], &named.iter().map(|p| p.as_path()).collect::<Vec<_>>()).0, expected, "named");
}

#[test]
fn a_bomb_of_each_compressed_kind_stops_at_max_bytes() {
    // 16 MiB that compress to a few kilobytes, beside a small record.
    let bomb = vec![b' '; 16 << 20];
    let files = vec![("bomb.sgf".to_string(), bomb.clone()), ("z-small.sgf".to_string(), b"(;GM[1]SZ[9];B[ee])".to_vec())];
    let dir = tempfile::tempdir().unwrap();
    let mut paths = Vec::new();
    for codec in ["gz", "bz2", "xz", "zst"] {
        let path = dir.path().join(format!("bomb.sgf.{codec}"));
        std::fs::write(&path, compress(codec, &bomb)).unwrap();
        paths.push(path);
    }
    // Every archive kind but the plain tar, which compresses nothing.
    for (name, bytes) in archives(&files).into_iter().filter(|(name, _)| *name != "games.tar") {
        let path = dir.path().join(name);
        std::fs::write(&path, bytes).unwrap();
        paths.push(path);
    }
    for path in &paths {
        assert!(std::fs::metadata(path).unwrap().len() < 1 << 20, "{}", path.display());
        let out = kifu().args(["check", "--format", "jsonl", "--max-bytes", "100000"]).arg(path).output().unwrap();
        let text = String::from_utf8_lossy(&out.stdout);
        let rows: Vec<Value> = text.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
        let bombs: Vec<&Value> = rows.iter().filter(|r| r["file"].as_str().is_some_and(|f| f.contains("bomb.sgf"))).collect();
        assert_eq!(bombs.len(), 1, "{}: {text}", path.display());
        assert_eq!(bombs[0]["code"], "limit-exceeded", "{}: {text}", path.display());
        assert_eq!(out.status.code(), Some(1), "{}", path.display());
        let name = path.file_name().unwrap().to_str().unwrap();
        if name == "solid.7z" {
            // The member after the bomb in the same solid block needs the bomb decompressed: it is said, not read.
            assert!(text.contains("z-small.sgf") && text.contains("in the same solid block"), "{text}");
        } else if !name.starts_with("bomb.sgf") {
            let summary = &rows.last().unwrap()["summary"];
            assert_eq!(summary["games"], 1, "{name}: the small record is checked: {text}");
        }
    }
}

#[test]
fn an_archive_kifu_cannot_read_is_said_and_never_read_as_a_record() {
    let dir = tempfile::tempdir().unwrap();
    let rar = dir.path().join("games.rar");
    // Bytes that would parse as a game if they were read as SGF.
    std::fs::write(&rar, "(;GM[1]SZ[9];B[ee];W[ee])").unwrap();
    std::fs::write(dir.path().join("ok.sgf"), "(;GM[1]SZ[9];B[ee])").unwrap();
    let out = kifu().args(["check", "--format", "jsonl"]).arg(&rar).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8_lossy(&out.stdout);
    let row: Value = serde_json::from_str(text.lines().next().unwrap()).unwrap();
    assert_eq!((row["code"].as_str(), row["severity"].as_str()), (Some("unsupported-archive"), Some("error")), "{text}");
    assert!(row["message"].as_str().unwrap().contains("RAR archive"), "{row}");
    assert!(!text.contains("occupied-point"), "read as SGF: {text}");
    // In a walk it is reported beside the records checked.
    let walk = kifu().args(["check", "--format", "jsonl"]).arg(dir.path()).output().unwrap();
    let walked = String::from_utf8_lossy(&walk.stdout);
    assert!(walked.contains("games.rar") && walked.contains("unsupported-archive") && walked.contains(r#""games":1"#), "{walked}");
    // The other commands say it too.
    let info = kifu().arg("info").arg(&rar).output().unwrap();
    assert_eq!(info.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&info.stderr).contains("RAR archive"), "{}", String::from_utf8_lossy(&info.stderr));
}

#[test]
fn fix_writes_decompressed_copies_under_the_archive_name() {
    let dir = tempfile::tempdir().unwrap();
    let archive = dir.path().join("games.tar.xz");
    std::fs::write(&archive, compress("xz", &tar(&members()))).unwrap();
    let single = dir.path().join("one.sgf.bz2");
    std::fs::write(&single, compress("bz2", b"(;GM[1]SZ[9];B[ee])")).unwrap();
    // Several inputs: -o names a folder (ending in '/' when it does not exist yet).
    let out = dir.path().join("fixed/");
    kifu().args(["check", "--quiet", "--fix", "-o"]).arg(&out).arg(&archive).arg(&single).assert().code(1);
    let copy = std::fs::read_to_string(out.join("games.tar.xz/games/ngf-handicap-2-broken-lines.ngf.sgf")).unwrap();
    assert!(copy.starts_with("(;FF[4]GM[1]CA[UTF-8]"), "{copy}");
    assert!(std::fs::read_to_string(out.join("one.sgf")).unwrap().contains("B[ee]"));
}
