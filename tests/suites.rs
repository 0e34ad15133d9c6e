//! The peer projects' own expectations (../shared/corpus/suites), held
//! against kifu's parser: sgfmill's grammar cases, the FF[4] example, the
//! Sabaki, KaTrain and libsgfc++ files. Skips when the corpus is absent.

use std::path::{Path, PathBuf};

use kifu::diag::{Code, Severity};
use kifu::sgf::{self, Parsed};

mod common;

fn parse_file(path: &Path) -> Parsed {
    let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    sgf::parse(&bytes, &Default::default())
}

fn errors(parsed: &Parsed) -> Vec<Code> {
    parsed.diagnostics.iter().filter(|d| d.severity == Severity::Error).map(|d| d.code).collect()
}

/// Decodes a Python bytes literal as the TSV writes it: b"..." or br"...".
fn python_bytes(literal: &str) -> Vec<u8> {
    let raw = literal.starts_with("br");
    let body = literal.trim_start_matches("br").trim_start_matches('b');
    let body = &body[1..body.len() - 1];
    if raw {
        return body.as_bytes().to_vec();
    }
    let mut out = Vec::new();
    let mut chars = body.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            let mut buf = [0; 4];
            out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
            continue;
        }
        match chars.next() {
            Some('n') => out.push(b'\n'),
            Some('t') => out.push(b'\t'),
            Some('r') => out.push(b'\r'),
            Some('x') => {
                let hex: String = chars.by_ref().take(2).collect();
                out.push(u8::from_str_radix(&hex, 16).unwrap());
            }
            Some(other) => out.push(other as u8),
            None => out.push(b'\\'),
        }
    }
    out
}

/// sgfmill's parse cases: every ERROR case gives kifu a warning or error
/// diagnostic or no game; every OK case parses with the expected shape and
/// no error (kifu is more lenient than sgfmill in a few cases, listed).
#[test]
fn sgfmill_grammar_cases() {
    let Some(dir) = common::corpus_dir("suites") else { return };
    let tsv = std::fs::read_to_string(dir.join("sgfmill/grammar_cases.tsv")).unwrap();
    // Inputs sgfmill rejects that kifu repairs, with the warning it gives.
    let lenient =
        [(r#"b"(B[ag])""#, Code::MissingSemicolon), (r#"b"(;B[ag]""#, Code::MissingCloseParen), (r#"b"(;B[ag];W[ah](;B[ai])""#, Code::MissingCloseParen)];
    let mut checked = 0;
    for line in tsv.lines().filter(|l| !l.starts_with('#')) {
        let cols: Vec<&str> = line.split('\t').collect();
        let (function, expected, literal) = (cols[1], cols[2], cols[3]);
        if function == "tokenise" {
            continue;
        }
        let bytes = python_bytes(literal);
        let parsed = sgf::parse(&bytes, &Default::default());
        let full = kifu::check::check_bytes(&bytes, &Default::default());
        let games = &parsed.collection.games;
        if let Some(&(_, code)) = lenient.iter().find(|(l, _)| *l == literal) {
            assert!(parsed.diagnostics.iter().any(|d| d.code == code), "{literal}: {:?}", parsed.diagnostics);
        } else if expected.starts_with("ERROR") {
            let reported = full.diagnostics.iter().any(|d| d.severity >= Severity::Warning);
            assert!(games.is_empty() || reported, "{literal} should be reported: {:?}", full.diagnostics);
        } else {
            let shape = expected.split('=').nth(1).unwrap();
            let game = &games[0];
            let main_line = game.main_line().count();
            let branch = game.main_line().find(|n| n.child_count() > 1).map_or(0, |n| n.child_count());
            let (seq, children): (usize, usize) = {
                let t = shape.trim_matches(|c| c == '(' || c == ')');
                let mut it = t.split(',').map(|x| x.trim().parse().unwrap());
                (it.next().unwrap(), it.next().unwrap())
            };
            assert!(errors(&parsed).is_empty(), "{literal}: {:?}", parsed.diagnostics);
            if children == 0 {
                assert_eq!((main_line, branch), (seq, 0), "{literal}");
            } else {
                // sgfmill counts the root sequence and its child trees.
                assert_eq!(game.root().child_count().max(branch), children, "{literal}");
            }
        }
        checked += 1;
    }
    assert_eq!(checked, 36);
}

#[test]
fn ff4_example_parses_without_error() {
    let Some(dir) = common::corpus_dir("suites") else { return };
    let parsed = parse_file(&dir.join("sgf-parse/resources/test/ff4_ex.sgf"));
    assert!(errors(&parsed).is_empty(), "{:?}", parsed.diagnostics);
    assert_eq!(parsed.collection.games.len(), 2);
}

#[test]
fn sabaki_complex_is_one_tree() {
    let Some(dir) = common::corpus_dir("suites") else { return };
    let parsed = parse_file(&dir.join("sabaki/tests/sgf/complex.sgf"));
    assert_eq!(parsed.collection.games.len(), 1);
    assert!(errors(&parsed).is_empty(), "{:?}", parsed.diagnostics);
}

#[test]
fn katrain_files() {
    let Some(dir) = common::corpus_dir("suites") else { return };
    let data = dir.join("katrain/tests/data");
    let panda = parse_file(&data.join("panda1.sgf"));
    let last = panda.collection.games[0].main_line().last().unwrap();
    assert_eq!(last.get("TW").unwrap().value_count(), 94);
    assert_eq!(last.get_value("OS"), Some("Trilan"));
    let old = parse_file(&data.join("xmgt97.sgf"));
    assert!(old.collection.games[0].nodes().any(|n| n.properties().any(|p| p.written_id() != p.id())));
    for name in ["ogs.sgf", "fox sgf error.sgf", "fox sgf works.sgf", "LS vs AG - G4 - English.sgf"] {
        let parsed = parse_file(&data.join(name));
        assert_eq!(parsed.collection.games.len(), 1, "{name}: {:?}", parsed.diagnostics);
    }
}

#[test]
fn libsgfc_files() {
    let Some(dir) = common::corpus_dir("suites") else { return };
    let test = dir.join("libsgfcplusplus/test");
    let deep = walk_find(&test, "deep-game-tree.sgf").unwrap();
    let parsed = parse_file(&deep);
    assert!(errors(&parsed).is_empty(), "{:?}", parsed.diagnostics);
    assert!(parsed.collection.games.iter().any(|g| g.len() >= 5000), "the 5000-node tree");
    let compressed = walk_find(&test, "compressed-point-list.sgf").unwrap();
    let parsed = parse_file(&compressed);
    assert!(errors(&parsed).is_empty(), "{:?}", parsed.diagnostics);
}

#[test]
fn littlego_not_an_sgf_file() {
    let Some(dir) = common::corpus_dir("suites") else { return };
    let parsed = parse_file(&dir.join("littlego/sgf/Illegal games/not-an-sgf-file.sgf"));
    assert!(parsed.collection.games.is_empty());
    assert_eq!(parsed.diagnostics[0].code, Code::NotSgf);
}

/// The SGFC torture file: every problem kifu finds is located inside the
/// file, and the syntax problems SGFC reports are among them
/// (docs/sgfc-comparison.md has the line-by-line comparison).
#[test]
fn sgfc_torture_file() {
    let Some(dir) = common::corpus_dir("suites") else { return };
    let parsed = parse_file(&dir.join("sgfc/test-files/test.sgf"));
    let lines = parsed.source.text().lines().count() as u32;
    for d in &parsed.diagnostics {
        assert!(d.line >= 1 && d.line <= lines + 1, "{d:?}");
    }
    let codes: Vec<Code> = parsed.diagnostics.iter().map(|d| d.code).collect();
    for code in [Code::LeadingJunk, Code::UnexpectedChar, Code::EmptyVariation, Code::MissingValue, Code::OldIdentifier] {
        assert!(codes.contains(&code), "{code} missing from {codes:?}");
    }
    assert!(parsed.collection.games.len() > 10);
}

fn walk_find(dir: &Path, name: &str) -> Option<PathBuf> {
    walkdir::WalkDir::new(dir).into_iter().filter_map(Result::ok).find(|e| e.file_name() == name).map(|e| e.into_path())
}
