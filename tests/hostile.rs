//! Hostile and broken input, through the real binary: each shape gives a
//! clean result or a clear diagnostic within a time bound (generous: about
//! ten times what was measured on a 2-core CI machine in release mode) and,
//! where `/usr/bin/time` is available, a peak-memory bound on the `kifu`
//! process. The million nested variations are in tests/cli.rs.
//!
//! Figures measured (release build, 2 cores shared with other jobs) are
//! given per test.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::{Duration, Instant};

use serde_json::Value;

/// What one run of `kifu` cost.
struct Run {
    out: Output,
    elapsed: Duration,
    /// Peak resident set size of the `kifu` process, in MB, when
    /// `/usr/bin/time` could measure it.
    peak_mb: Option<u64>,
}

impl Run {
    fn stdout(&self) -> String {
        String::from_utf8(self.out.stdout.clone()).expect("kifu writes UTF-8")
    }
    fn stderr(&self) -> String {
        String::from_utf8_lossy(&self.out.stderr).into_owned()
    }
    fn code(&self) -> Option<i32> {
        self.out.status.code()
    }
    /// The `--format json` document on stdout.
    fn json(&self) -> Value {
        serde_json::from_slice(&self.out.stdout).unwrap_or_else(|e| panic!("not JSON ({e}); stderr: {}", self.stderr()))
    }
    /// Asserts the bounds, printing the figures.
    fn within(&self, what: &str, seconds: u64, megabytes: u64) -> &Run {
        let mem = self.peak_mb.map_or("peak memory not measured (no /usr/bin/time)".to_string(), |mb| format!("peak {mb} MB"));
        eprintln!("hostile: {what}: {:.2?}, {mem}, exit {:?}", self.elapsed, self.code());
        assert!(self.code().is_some(), "{what}: killed by a signal; stderr: {}", self.stderr());
        assert!(!self.stderr().contains("panicked"), "{what}: panic: {}", self.stderr());
        assert!(self.elapsed < Duration::from_secs(seconds), "{what}: took {:.1?} (limit {seconds} s)", self.elapsed);
        if let Some(mb) = self.peak_mb {
            assert!(mb < megabytes, "{what}: peak memory {mb} MB (limit {megabytes} MB)");
        }
        self
    }
}

fn kifu_path() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_kifu"))
}

/// Runs `kifu ARGS`, under `/usr/bin/time` when it is there (GNU time:
/// `-f %M` writes the peak RSS in KB to the `-o` file).
fn kifu(args: &[&str], paths: &[&Path]) -> Run {
    let time = Path::new("/usr/bin/time");
    let report = tempfile::NamedTempFile::new().unwrap();
    let mut cmd = if time.exists() {
        let mut c = Command::new(time);
        c.args(["-f", "%M", "-o"]).arg(report.path()).arg(kifu_path());
        c
    } else {
        Command::new(kifu_path())
    };
    cmd.args(args).args(paths);
    let started = Instant::now();
    let out = cmd.output().expect("kifu runs");
    let elapsed = started.elapsed();
    let peak_mb = std::fs::read_to_string(report.path()).ok().and_then(|s| s.lines().last()?.trim().parse::<u64>().ok()).map(|kb| kb / 1024);
    Run { out, elapsed, peak_mb }
}

fn write(dir: &tempfile::TempDir, name: &str, bytes: &[u8]) -> PathBuf {
    let path = dir.path().join(name);
    std::fs::write(&path, bytes).unwrap();
    path
}

fn codes(doc: &Value) -> Vec<String> {
    doc["diagnostics"].as_array().map_or(Vec::new(), |a| a.iter().map(|d| d["code"].as_str().unwrap().to_string()).collect())
}

fn count(doc: &Value, code: &str) -> usize {
    codes(doc).iter().filter(|c| *c == code).count()
}

/// 10,000,000 sibling variations, each one move, under the root: read,
/// replayed and counted; `--max-variations` stops early with a diagnostic.
/// Measured: 4.3 s, 629 MB peak (80 MB file); with `--max-variations 1000`
/// 0.2 s, 155 MB (the file is still read whole).
#[test]
fn ten_million_sibling_variations() {
    let n = 10_000_000;
    let mut sgf = Vec::with_capacity(n * 8 + 64);
    sgf.extend_from_slice(b"(;GM[1]FF[4]SZ[19]RU[Japanese]");
    for i in 0..n {
        sgf.extend_from_slice(if i % 2 == 0 { b"(;B[dd])" } else { b"(;W[pp])" });
    }
    sgf.extend_from_slice(b")\n");
    let dir = tempfile::tempdir().unwrap();
    let path = write(&dir, "siblings.sgf", &sgf);
    drop(sgf);

    let run = kifu(&["check", "--format", "json"], &[&path]);
    run.within("10M sibling variations: check", 60, 1500);
    let doc = run.json();
    assert_eq!(doc["summary"]["moves"].as_u64(), Some(n as u64), "every variation replayed");
    assert_eq!(run.code(), Some(0), "{:?}", &codes(&doc)[..codes(&doc).len().min(5)]);

    let run = kifu(&["check", "--format", "json", "--max-variations", "1000"], &[&path]);
    run.within("10M sibling variations: --max-variations 1000", 30, 2000);
    let doc = run.json();
    assert_eq!(run.code(), Some(1), "limit-exceeded is an error");
    let hit: Vec<&Value> = doc["diagnostics"].as_array().unwrap().iter().filter(|d| d["code"] == "limit-exceeded").collect();
    assert_eq!(hit.len(), 1, "{:?}", codes(&doc));
    assert!(hit[0]["message"].as_str().unwrap().contains("more than 1000 variations"), "{}", hit[0]);
    // The 1,001st variation starts after the 30-character root and 1,000
    // variations of 8 characters.
    assert_eq!((hit[0]["line"].as_u64(), hit[0]["column"].as_u64()), (Some(1), Some(31 + 8 * 1000)));
    assert_eq!(doc["summary"]["moves"].as_u64(), Some(1000));
}

/// A collection of `bytes` bytes: the same 120-move game over and over.
fn collection(bytes: usize) -> (Vec<u8>, usize) {
    let mut game = String::from("(;GM[1]FF[4]CA[UTF-8]SZ[19]KM[6.5]RU[Japanese]PB[Black]PW[White]RE[B+R]\n");
    // Moves along diagonals that never touch: all legal.
    let mut moves = 0;
    for y in 0..19u8 {
        for x in 0..19u8 {
            if (x + y) % 3 == 0 && moves < 120 {
                let color = if moves % 2 == 0 { 'B' } else { 'W' };
                game.push_str(&format!(";{color}[{}{}]", (b'a' + x) as char, (b'a' + y) as char));
                moves += 1;
            }
        }
        game.push('\n');
    }
    game.push_str(")\n");
    let copies = bytes.div_ceil(game.len());
    (game.repeat(copies).into_bytes(), copies)
}

fn big_collection(bytes: usize, seconds: u64, megabytes: u64) {
    let (sgf, games) = collection(bytes);
    let dir = tempfile::tempdir().unwrap();
    let path = write(&dir, "collection.sgf", &sgf);
    let run = kifu(&["check", "--format", "json"], &[&path]);
    run.within(&format!("{} MB collection ({games} games): check", sgf.len() >> 20), seconds, megabytes);
    let doc = run.json();
    assert_eq!(run.code(), Some(0), "{:?}", &codes(&doc)[..codes(&doc).len().min(5)]);
    assert_eq!(doc["summary"]["games"].as_u64(), Some(games as u64));
    assert_eq!(doc["summary"]["moves"].as_u64(), Some(games as u64 * 120));
}

/// A 20 MB collection (25,796 games of 120 moves) by default. Measured:
/// 0.9 s, 261 MB peak (before each game stopped reserving room for a
/// megabyte: 4.7 s, 383 MB).
#[test]
fn a_large_collection() {
    big_collection(20 << 20, 30, 350);
}

/// The full 200 MB (257,953 games, 31 million moves). Measured: 16.6 s,
/// 2.5 GB peak (before: 74 s, 4.9 GB). Peak memory is about 13 times the
/// file: the file, its text and the model of every game are held at once.
#[test]
#[ignore = "writes 200 MB to a temp dir and needs about 20 s and 2.5 GB; run with --ignored"]
fn a_200_mb_collection() {
    big_collection(200 << 20, 200, 3500);
}

/// 100,000 games of 24 moves on one line (17.5 MB, as a collection joined
/// into one line): every game is fingerprinted and a duplicate of the
/// first, so each needs a line:column on that line. Linear: measured 0.8 s
/// (one job), 243 MB; with a column counted from the start of the line and
/// a scan for each repeat it was 43 s, and four times as long for twice the
/// games.
#[test]
fn a_collection_on_one_line() {
    let moves: String =
        (0..24u8).map(|i| format!(";{}[{}{}]", ['B', 'W'][usize::from(i % 2)], (b'a' + i % 19) as char, (b'a' + i / 19 * 2 + i % 2) as char)).collect();
    let games = 100_000;
    let sgf = format!("(;GM[1]FF[4]SZ[19]RU[Japanese]{moves})").repeat(games);
    let dir = tempfile::tempdir().unwrap();
    let path = write(&dir, "one-line.sgf", sgf.as_bytes());
    let run = kifu(&["check", "--summary-only", "--format", "json"], &[&path]);
    run.within("100,000 games on one line: check", 20, 600);
    let summary = &run.json()["summary"];
    assert_eq!(summary["games"].as_u64(), Some(games as u64));
    assert_eq!(summary["by_code"]["duplicate-game"].as_u64(), Some(games as u64 - 1));
}

/// One comment of 10 MB, with escapes, and a game after it: read whole,
/// converted whole. Measured: check 0.08 s, 33 MB; convert 0.2 s, 53 MB.
#[test]
fn a_ten_megabyte_property_value() {
    let n = 10 << 20;
    let mut value = String::with_capacity(n + n / 64);
    while value.len() < n {
        value.push_str("a comment line with an escaped \\] bracket and a backslash \\\\, ");
        value.push('\n');
    }
    let sgf = format!("(;GM[1]FF[4]SZ[19]C[{value}];B[pd];W[dp])");
    let dir = tempfile::tempdir().unwrap();
    let path = write(&dir, "long-value.sgf", sgf.as_bytes());
    let run = kifu(&["check", "--format", "json"], &[&path]);
    run.within("10 MB property value: check", 20, 1000);
    assert_eq!(run.code(), Some(0), "{:?}", codes(&run.json()));
    assert_eq!(run.json()["summary"]["moves"].as_u64(), Some(2));

    let run = kifu(&["convert", "--to", "json"], &[&path]);
    run.within("10 MB property value: convert", 20, 1000);
    let doc: Value = serde_json::from_str(&run.stdout()).unwrap();
    let root = &doc["games"][0]["tree"]["nodes"][0];
    let c = root["props"].as_array().unwrap().iter().find(|p| p["id"] == "C").expect("C kept");
    let text = c["values"][0].as_str().unwrap();
    assert_eq!(text, value.replace("\\]", "]").replace("\\\\", "\\"), "the value, unescaped, whole");

    // Unterminated: the whole rest of the file is the value, and it says so.
    let path = write(&dir, "unterminated.sgf", format!("(;GM[1]C[{value}").as_bytes());
    let run = kifu(&["check", "--format", "json"], &[&path]);
    run.within("10 MB unterminated value: check", 20, 1000);
    assert_eq!(run.code(), Some(1));
    assert!(codes(&run.json()).contains(&"unterminated-value".to_string()));
}

/// The two 52x52 positions with every point set up: a checkerboard (every
/// stone without a liberty) and one colour only: one chain of 2,704
/// stones. Measured: check 3 ms; score 65 ms, estimate 0.2 s, 3 MB (the
/// one-colour score took 3.4 s before `Count::chain` used a bitmap).
#[test]
fn a_52x52_board_with_every_point_set_up() {
    let letter = |i: usize| (if i < 26 { b'a' + i as u8 } else { b'A' + (i - 26) as u8 }) as char;
    let dir = tempfile::tempdir().unwrap();
    for (name, black) in [("checkerboard", (|x: usize, y: usize| (x + y) % 2 == 0) as fn(usize, usize) -> bool), ("all-black", |_, _| true)] {
        let (mut ab, mut aw) = (String::from("AB"), String::from("AW"));
        for y in 0..52 {
            for x in 0..52 {
                let point = format!("[{}{}]", letter(x), letter(y));
                if black(x, y) { ab.push_str(&point) } else { aw.push_str(&point) }
            }
        }
        let aw = if aw.len() > 2 { aw } else { String::new() };
        let sgf = format!("(;GM[1]FF[4]SZ[52]KM[0]RU[Chinese]RE[B+R]{ab}{aw};B[];W[])");
        let path = write(&dir, &format!("{name}.sgf"), sgf.as_bytes());
        let run = kifu(&["check", "--format", "json"], &[&path]);
        run.within(&format!("52x52 {name}: check"), 20, 500);
        let doc = run.json();
        assert!(count(&doc, "setup-without-liberty") >= 1, "{name}: {:?}", codes(&doc));
        assert_eq!(doc["summary"]["moves"].as_u64(), Some(2));

        for dead in ["auto", "estimate"] {
            let run = kifu(&["score", "--format", "json", "--dead-stones", dead], &[&path]);
            run.within(&format!("52x52 {name}: score --dead-stones {dead}"), 20, 500);
            assert!(run.code().is_some_and(|c| c <= 1), "{name}: exit {:?}: {}", run.code(), run.stderr());
        }
    }
}

/// A node with 100,000 properties: all different (unknown-property each),
/// then all the same (duplicate-property). Measured: check 0.2-0.4 s, 47 MB
/// (the text format, a snippet per diagnostic on a 1 MB line, took 163 s
/// before the snippet window stopped collecting the whole line).
#[test]
fn a_node_with_100_000_properties() {
    let n = 100_000;
    let id = |i: usize| -> String { (0..4).map(|k| (b'A' + (i / 26usize.pow(k) % 26) as u8) as char).collect() };
    let dir = tempfile::tempdir().unwrap();
    let distinct: String = (0..n).map(|i| format!("X{}[v]", id(i))).collect();
    let same = "C[v]".repeat(n);
    for (name, props) in [("distinct", distinct), ("same", same)] {
        let path = write(&dir, &format!("{name}.sgf"), format!("(;GM[1]FF[4]SZ[19]{props};B[pd])").as_bytes());
        let run = kifu(&["check", "--format", "json"], &[&path]);
        run.within(&format!("100,000 properties ({name}): check --format json"), 30, 1000);
        let doc = run.json();
        assert_eq!(doc["summary"]["moves"].as_u64(), Some(1));
        let run = kifu(&["check"], &[&path]);
        run.within(&format!("100,000 properties ({name}): check (text, with snippets)"), 30, 1000);
        assert!(run.stdout().contains("1 file, 1 game"), "{}", &run.stdout()[run.stdout().len().saturating_sub(300)..]);
        let run = kifu(&["convert", "--to", "json"], &[&path]);
        run.within(&format!("100,000 properties ({name}): convert"), 30, 1000);
        let doc: Value = serde_json::from_str(&run.stdout()).unwrap();
        assert_eq!(doc["games"][0]["tree"]["nodes"][0]["props"].as_array().unwrap().len(), n + 3);
    }
}

/// 100,002 moves going round a triple ko: every position comes back again
/// and again. Japanese rules warn, superko rules forbid, and neither takes
/// long. Measured: 0.04 s, 9 MB under Japanese rules; 0.4-0.8 s, 76 MB under
/// superko rules (a hash per position).
#[test]
fn a_position_cycling_forever() {
    let cycle = ";B[cb];W[gb];B[cg];W[bb];B[hb];W[bg]";
    let rounds = 16_667;
    let sgf = format!(
        "(;GM[1]FF[4]SZ[9]KM[6.5]\nAB[ba][ab][bc][ga][fb][gc][bf][ag][bh][hb]\nAW[ca][db][cc][ha][ib][hc][cf][dg][ch][bb][bg]\n{})",
        cycle.repeat(rounds)
    );
    let dir = tempfile::tempdir().unwrap();
    let path = write(&dir, "triple-ko.sgf", sgf.as_bytes());
    for rules in ["japanese", "chinese", "aga", "tromp-taylor"] {
        let run = kifu(&["check", "--format", "json", "--rules", rules], &[&path]);
        run.within(&format!("100,002 triple-ko moves under {rules}"), 30, 1000);
        let doc = run.json();
        assert_eq!(doc["summary"]["moves"].as_u64(), Some(6 * rounds as u64));
        let want = if rules == "japanese" { "repeated-position" } else { "superko" };
        assert!(count(&doc, want) >= 1, "{rules}: no {want}: {:?}", &codes(&doc)[..codes(&doc).len().min(5)]);
        let run = kifu(&["score", "--format", "json", "--rules", rules], &[&path]);
        run.within(&format!("100,002 triple-ko moves under {rules}: score"), 30, 1000);
    }
}

/// NUL bytes and random binary: one line on stderr naming the file, exit 1,
/// at once. Random bytes with `(` and `;` left out cannot start a game
/// tree; with them, `(;` turns up every 64 KB or so, and those scraps are
/// read as games with diagnostics, as any broken file. Measured: NUL 0.01 s,
/// 11 MB; random 1.3-2 s (charset detection tries every candidate), 20-43 MB.
#[test]
fn nul_bytes_and_random_binary() {
    let dir = tempfile::tempdir().unwrap();
    let mut state = 0x1234_5678_9abc_def0u64;
    let random: Vec<u8> = (0..4 << 20)
        .map(|_| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state >> 24) as u8
        })
        .collect();
    let no_paren: Vec<u8> = random.iter().map(|&b| if b == b'(' || b == b';' { b'x' } else { b }).collect();
    let nul = vec![0u8; 4 << 20];
    for (name, bytes) in [("nul.sgf", &nul), ("random-no-paren.sgf", &no_paren)] {
        let path = write(&dir, name, bytes);
        let run = kifu(&["info"], &[&path]);
        run.within(&format!("4 MB {name}: info"), 20, 500);
        assert_eq!(run.code(), Some(1), "{}", run.stderr());
        assert!(run.stderr().contains(&format!("{name}: not an SGF file")), "{}", run.stderr());
        let run = kifu(&["check", "--format", "json"], &[&path]);
        run.within(&format!("4 MB {name}: check"), 20, 500);
        assert_eq!(run.code(), Some(1));
        assert!(codes(&run.json()).iter().any(|c| c == "not-sgf"), "{:?}", codes(&run.json()));
    }
    let path = write(&dir, "random.sgf", &random);
    for format in ["json", "text"] {
        let run = kifu(&["check", "--format", format], &[&path]);
        run.within(&format!("4 MB random.sgf: check --format {format}"), 30, 1000);
        assert_eq!(run.code(), Some(1), "scraps of games in noise are errors");
        if format == "json" {
            let doc = run.json();
            assert!(doc["summary"]["games"].as_u64().is_some_and(|g| g > 0), "the `(;` scraps are read as games");
            assert!(codes(&doc).iter().any(|c| c == "unexpected-char"), "{:?}", &codes(&doc)[..codes(&doc).len().min(5)]);
        }
    }
    for command in [["info", "--format", "json"], ["convert", "--to", "json"]] {
        let run = kifu(&command, &[&path]);
        run.within(&format!("4 MB random.sgf: {}", command.join(" ")), 30, 1000);
        assert!(run.code().is_some_and(|c| c <= 1), "{}", run.stderr());
        // info writes one JSON line per game, convert one (pretty) document.
        if command[0] == "info" {
            for line in run.stdout().lines() {
                serde_json::from_str::<Value>(line).expect("valid JSON");
            }
        } else {
            serde_json::from_str::<Value>(&run.stdout()).expect("valid JSON");
        }
    }
    // NUL bytes inside a game: reported, the game still read.
    let path = write(&dir, "nul-inside.sgf", b"(;GM[1]SZ[9]\0\0\0;B[ee]\0;W[cc]C[a\0b])");
    let run = kifu(&["check", "--format", "json"], &[&path]);
    run.within("NUL bytes inside a game: check", 10, 200);
    let doc = run.json();
    assert_eq!(doc["summary"]["moves"].as_u64(), Some(2));
    assert!(codes(&doc).contains(&"unexpected-char".to_string()), "{:?}", codes(&doc));
}

/// Invalid UTF-8 in every field of a game that declares UTF-8: each value
/// read with U+FFFD where its bytes are broken, the moves unharmed, the
/// output valid UTF-8 and a warning saying so. Measured: under 10 ms, 3 MB.
#[test]
fn invalid_utf8_in_every_field() {
    let bad: &[&[u8]] = &[b"\xff", b"\xc3", b"\xe4\xb8", b"\xed\xa0\x80", b"\xf4\x90\x80\x80", b"\xc0\xaf", b"\x80"];
    let mut sgf = b"(;GM[1]FF[4]CA[UTF-8]SZ[19]".to_vec();
    for (i, id) in ["PB", "PW", "BR", "WR", "GN", "EV", "RO", "PC", "DT", "KM", "RE", "RU", "C", "AN", "SO", "US", "GC", "ON", "OT", "TM"].iter().enumerate() {
        sgf.extend_from_slice(id.as_bytes());
        sgf.push(b'[');
        sgf.extend_from_slice(b"name");
        sgf.extend_from_slice(bad[i % bad.len()]);
        sgf.extend_from_slice(b"end]");
    }
    for i in 0..50 {
        let mv = format!(";{}[{}{}]C[", if i % 2 == 0 { 'B' } else { 'W' }, (b'a' + (i % 19) as u8) as char, (b'a' + (i / 19 * 2) as u8) as char);
        sgf.extend_from_slice(mv.as_bytes());
        sgf.extend_from_slice(bad[i % bad.len()]);
        sgf.extend_from_slice(b"]N[");
        sgf.extend_from_slice(bad[(i + 3) % bad.len()]);
        sgf.extend_from_slice(b"]");
    }
    sgf.push(b')');
    let dir = tempfile::tempdir().unwrap();
    let path = write(&dir, "invalid-utf8.sgf", &sgf);
    let run = kifu(&["check", "--format", "json"], &[&path]);
    run.within("invalid UTF-8 in every field: check", 10, 200);
    let doc = run.json();
    assert_eq!(doc["summary"]["moves"].as_u64(), Some(50));
    let charset_codes = ["invalid-bytes", "charset-mismatch", "charset-detected"];
    assert!(codes(&doc).iter().any(|c| charset_codes.contains(&c.as_str())), "{:?}", codes(&doc));
    for d in doc["diagnostics"].as_array().unwrap() {
        assert!(d["line"].as_u64() == Some(1) && d["column"].as_u64().unwrap() >= 1, "{d}");
    }
    let run = kifu(&["info", "--format", "json"], &[&path]);
    run.within("invalid UTF-8 in every field: info", 10, 200);
    let info: Value = serde_json::from_str(&run.stdout()).unwrap();
    let black = info["summary"]["black"].as_str().or(info[0]["summary"]["black"].as_str()).unwrap_or_else(|| panic!("{info}"));
    assert!(black.starts_with("name") && black.ends_with("end"), "{black:?}");
    let run = kifu(&["convert", "--to", "sgf"], &[&path]);
    run.within("invalid UTF-8 in every field: convert", 10, 200);
    assert!(run.stdout().contains("CA[UTF-8]"));
    // What convert wrote reads back clean.
    let back = write(&dir, "back.sgf", run.stdout().as_bytes());
    let run = kifu(&["check", "--format", "json"], &[&back]);
    assert!(!codes(&run.json()).iter().any(|c| charset_codes.contains(&c.as_str())), "{:?}", codes(&run.json()));
}
