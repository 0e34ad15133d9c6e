//! The bodies of the fuzz targets, in one place: the cargo-fuzz targets
//! (`fuzz/fuzz_targets/*.rs`, nightly or `RUSTC_BOOTSTRAP=1`) and the
//! stable smoke test (`tests/fuzz_smoke.rs`) both include this file by
//! path. Each function takes arbitrary bytes and panics only when kifu
//! breaks a promise: a panic inside kifu, a diagnostic placed outside the
//! decoded text, or a model that does not survive its own writer or the
//! JSON round trip.

#![allow(dead_code)]

use kifu::diag::Diagnostic;
use kifu::json;
use kifu::replay::{self, RuleOverrides};
use kifu::score::{self, DeadStones, ScoreOptions};
use kifu::sgf::{self, Collection, ParseOptions, SourceMap};

/// Inputs longer than this are cut: the targets look for wrong answers,
/// not for slowness on huge files (tests/hostile.rs does that).
pub const MAX_INPUT: usize = 1 << 20;

fn cap(data: &[u8]) -> &[u8] {
    &data[..data.len().min(MAX_INPUT)]
}

/// Every diagnostic lies inside the decoded text: line from 1 to the number
/// of lines + 1, column from 1 to the length of its line (line ending
/// included) + 1, offset at most the text's length.
pub fn assert_located(source: &SourceMap, diagnostics: &[Diagnostic]) {
    let text = source.text();
    // Lines split independently of SourceMap: at "\n", "\r\n" or a lone "\r".
    let mut lines: Vec<usize> = Vec::new(); // characters per line, ending included
    let mut chars = 0;
    let mut it = text.chars().peekable();
    while let Some(c) = it.next() {
        chars += 1;
        if c == '\r' && it.peek() == Some(&'\n') {
            continue;
        }
        if c == '\n' || c == '\r' {
            lines.push(chars);
            chars = 0;
        }
    }
    lines.push(chars);
    for d in diagnostics {
        assert!(d.offset as usize <= text.len(), "{}: offset {} past the end ({} bytes)", d.code, d.offset, text.len());
        assert!(d.line >= 1 && d.column >= 1, "{}: unlocated ({}:{})", d.code, d.line, d.column);
        assert!(d.line as usize <= lines.len() + 1, "{}: line {} of {}", d.code, d.line, lines.len());
        let width = lines.get(d.line as usize - 1).copied().unwrap_or(0);
        assert!(d.column as usize <= width + 1, "{}: column {} on line {} of {} characters", d.code, d.column, d.line, width);
    }
}

/// The model survives the writer and the JSON round trip.
pub fn assert_round_trips(collection: &Collection) {
    let written = sgf::write_collection(collection);
    let again = sgf::parse_str(&written);
    if again.collection != *collection {
        panic!("model → SGF → model differs; written:\n{}", &written[..written.len().min(2000)]);
    }
    let doc = json::collection_to_json("fuzz.sgf", "UTF-8", collection);
    match json::from_json(&doc) {
        Ok(back) => assert!(back.collection == *collection, "model → JSON → model differs; JSON:\n{}", &doc[..doc.len().min(2000)]),
        Err(e) => panic!("JSON written by kifu does not read back: {e}"),
    }
}

/// The parser on raw bytes (charset step included).
pub fn parse(data: &[u8]) {
    let parsed = sgf::parse(cap(data), &ParseOptions::default());
    assert_located(&parsed.source, &parsed.diagnostics);
    assert_round_trips(&parsed.collection);
    // The limits stop early but never wrongly: a limit-exceeded diagnostic
    // exactly when the limit is smaller than what the file holds.
    let nodes: usize = parsed.collection.games.iter().map(|g| g.len()).sum();
    if nodes > 1 && !parsed.diagnostics.iter().any(|d| d.code == kifu::diag::Code::LimitExceeded) {
        let limits = sgf::Limits { max_nodes: Some(nodes - 1), ..Default::default() };
        let limited = sgf::parse(cap(data), &ParseOptions { limits, ..Default::default() });
        assert!(limited.diagnostics.iter().any(|d| d.code == kifu::diag::Code::LimitExceeded), "max_nodes {} of {nodes}: no limit-exceeded", nodes - 1);
        assert_located(&limited.source, &limited.diagnostics);
    }
}

/// The charset step alone: whatever the bytes, valid text and diagnostics
/// inside it; a forced charset too.
pub fn decode(data: &[u8]) {
    let data = cap(data);
    let decoded = sgf::charset::decode(data, None);
    let source = SourceMap::new(decoded.text.as_ref());
    let mut diagnostics = decoded.diagnostics.clone();
    source.locate_all(&mut diagnostics);
    assert_located(&source, &diagnostics);
    if let Some(decl) = sgf::charset::declared_charset(data) {
        assert!(decl.offset < data.len() && decl.value.len() <= data.len());
    }
    // A forced charset chosen by the first byte.
    let forced = [encoding_rs::SHIFT_JIS, encoding_rs::GBK, encoding_rs::UTF_16LE, encoding_rs::UTF_16BE, encoding_rs::BIG5, encoding_rs::WINDOWS_1252];
    let enc = forced[data.first().map_or(0, |&b| b as usize % forced.len())];
    let decoded = sgf::charset::decode(data, Some(enc));
    let source = SourceMap::new(decoded.text.as_ref());
    let mut diagnostics = decoded.diagnostics.clone();
    source.locate_all(&mut diagnostics);
    assert_located(&source, &diagnostics);
}

/// Parse, then replay every game (all variations) under its rules and under
/// positional superko.
pub fn replay(data: &[u8]) {
    let check = kifu::check::check_bytes(cap(data), &Default::default());
    assert_located(&check.source, &check.diagnostics);
    let parsed = sgf::parse(cap(data), &ParseOptions::default());
    let superko = RuleOverrides { rules: kifu::rules::Rules::preset("chinese"), ..Default::default() };
    for game in &parsed.collection.games {
        let r = replay::replay(game, &superko);
        for d in &r.diagnostics {
            assert!(d.offset as usize <= parsed.source.text().len(), "{}: offset past the end", d.code);
        }
    }
}

/// Parse, then score every game with the default options and with the
/// dead stones estimated.
pub fn score(data: &[u8]) {
    let parsed = sgf::parse(cap(data), &ParseOptions::default());
    for game in &parsed.collection.games {
        for dead_stones in [DeadStones::Auto, DeadStones::Estimate] {
            let options = ScoreOptions { dead_stones, ..Default::default() };
            if let Ok(s) = score::score_game(game, &options) {
                assert!(!s.margin.is_nan(), "margin is NaN: {}", s.result);
                let _ = s.verdict.explanation();
            }
        }
    }
}

/// The JSON reader on arbitrary text; what it accepts survives being
/// written and read again.
pub fn json(data: &[u8]) {
    let text = String::from_utf8_lossy(cap(data));
    match json::from_json_lines(&text) {
        Ok(docs) => {
            for doc in docs {
                let again = json::collection_to_json(doc.file.as_deref().unwrap_or(""), "UTF-8", &doc.collection);
                match json::from_json(&again) {
                    Ok(back) => assert!(back.collection == doc.collection, "JSON → model → JSON → model differs"),
                    Err(e) => panic!("JSON written by kifu does not read back: {e}"),
                }
            }
        }
        Err(e) => {
            assert!(e.line >= 1 && e.column >= 1, "JSON error unlocated: {e}");
            assert!(e.line as usize <= text.lines().count() + 1, "JSON error past the end: {e}");
        }
    }
}
