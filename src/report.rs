//! Printing diagnostics: one emitter per output format, all fed the same
//! stream of per-file results, so a format never changes what is found.
//!
//! Emitters write as files arrive (nothing is held per file once printed)
//! and close with a summary. This module knows nothing of the CLI.

use std::collections::BTreeMap;
use std::io::{self, Write};

use serde::Serialize;

use crate::check::FileCheck;
use crate::diag::{Diagnostic, Severity};
use crate::sgf::SourceMap;

/// Output formats for diagnostics.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// Compiler style, with a source snippet under each diagnostic.
    Text,
    /// One JSON document with every diagnostic and the summary.
    Json,
    /// One JSON object per diagnostic, one per line, then the summary.
    Jsonl,
    /// GitHub Actions workflow commands (`::error file=...::message`).
    Github,
    /// SARIF 2.1.0, for code-scanning interfaces.
    Sarif,
}

/// Totals over a run.
#[derive(Debug, Default, Clone, Serialize)]
pub struct Summary {
    pub files: usize,
    pub games: usize,
    pub moves: usize,
    pub errors: usize,
    pub warnings: usize,
    pub infos: usize,
    /// Number of diagnostics per code.
    pub by_code: BTreeMap<&'static str, usize>,
}

impl Summary {
    pub fn add(&mut self, check: &FileCheck) {
        self.files += 1;
        self.games += check.games;
        self.moves += check.moves;
        for d in &check.diagnostics {
            self.count(d);
        }
    }

    /// Counts a diagnostic that belongs to no parsed file (e.g. unreadable).
    pub fn count(&mut self, d: &Diagnostic) {
        match d.severity {
            Severity::Error => self.errors += 1,
            Severity::Warning => self.warnings += 1,
            Severity::Info => self.infos += 1,
        }
        *self.by_code.entry(d.code.name()).or_default() += 1;
    }

    /// One line: `3 files, 2 games, 40 moves: 1 error, 2 warnings (ko: 1, ...)`.
    pub fn line(&self) -> String {
        let codes: Vec<String> = self.by_code.iter().map(|(c, n)| format!("{c}: {n}")).collect();
        let mut s = format!(
            "{} {}, {} {}, {} {}: {} {}, {} {}, {} info",
            self.files,
            plural(self.files, "file"),
            self.games,
            plural(self.games, "game"),
            self.moves,
            plural(self.moves, "move"),
            self.errors,
            plural(self.errors, "error"),
            self.warnings,
            plural(self.warnings, "warning"),
            self.infos
        );
        if !codes.is_empty() {
            s.push_str(&format!(" ({})", codes.join(", ")));
        }
        s
    }
}

fn plural(n: usize, word: &str) -> String {
    if n == 1 { word.to_string() } else { format!("{word}s") }
}

/// A diagnostic as the JSON formats print it (field names are a contract).
#[derive(Serialize)]
struct JsonDiagnostic<'a> {
    file: &'a str,
    #[serde(flatten)]
    diagnostic: &'a Diagnostic,
}

/// Writes diagnostics in one format as results stream in.
pub struct Reporter<W: Write> {
    format: Format,
    out: W,
    /// Only for `Format::Json`: whether a diagnostic was written yet.
    first: bool,
    pub summary: Summary,
    /// Print the summary line (text) at the end.
    pub quiet: bool,
}

impl<W: Write> Reporter<W> {
    pub fn new(format: Format, out: W) -> Reporter<W> {
        Reporter { format, out, first: true, summary: Summary::default(), quiet: false }
    }

    fn begin(&mut self) -> io::Result<()> {
        if self.first {
            match self.format {
                Format::Json => self.out.write_all(b"{\"diagnostics\":[")?,
                Format::Sarif => self.out.write_all(SARIF_HEAD.as_bytes())?,
                _ => {}
            }
        }
        Ok(())
    }

    /// Reports everything found in one file.
    pub fn file(&mut self, path: &str, check: &FileCheck) -> io::Result<()> {
        self.summary.add(check);
        for d in &check.diagnostics {
            self.diagnostic(path, d, Some(&check.source))?;
        }
        Ok(())
    }

    /// Reports one diagnostic (`source` gives the snippet, when there is one).
    pub fn diagnostic(&mut self, path: &str, d: &Diagnostic, source: Option<&SourceMap>) -> io::Result<()> {
        self.begin()?;
        match self.format {
            Format::Text => {
                if !self.quiet || d.severity == Severity::Error {
                    write_text(&mut self.out, path, d, source)?;
                }
            }
            Format::Jsonl => {
                serde_json::to_writer(&mut self.out, &JsonDiagnostic { file: path, diagnostic: d })?;
                self.out.write_all(b"\n")?;
            }
            Format::Json => {
                if !self.first {
                    self.out.write_all(b",")?;
                }
                serde_json::to_writer(&mut self.out, &JsonDiagnostic { file: path, diagnostic: d })?;
            }
            Format::Github => write_github(&mut self.out, path, d)?,
            Format::Sarif => {
                if !self.first {
                    self.out.write_all(b",")?;
                }
                serde_json::to_writer(&mut self.out, &sarif_result(path, d))?;
            }
        }
        self.first = false;
        Ok(())
    }

    /// Closes the output with the summary.
    pub fn finish(mut self) -> io::Result<Summary> {
        self.begin()?;
        match self.format {
            Format::Text => {
                if !self.quiet {
                    writeln!(self.out, "{}", self.summary.line())?;
                }
            }
            Format::Jsonl => {
                serde_json::to_writer(&mut self.out, &serde_json::json!({ "summary": &self.summary }))?;
                self.out.write_all(b"\n")?;
            }
            Format::Json => {
                self.out.write_all(b"],\"summary\":")?;
                serde_json::to_writer(&mut self.out, &self.summary)?;
                self.out.write_all(b"}\n")?;
            }
            Format::Github => {
                if !self.quiet {
                    writeln!(self.out, "::notice title=kifu::{}", github_escape(&self.summary.line(), false))?;
                }
            }
            Format::Sarif => {
                self.out.write_all(b"],\"tool\":")?;
                serde_json::to_writer(&mut self.out, &sarif_tool())?;
                self.out.write_all(b"}]}\n")?;
            }
        }
        self.out.flush()?;
        Ok(self.summary)
    }
}

/// `path:line:col: severity[code]: message`, then the source line with a caret.
fn write_text(out: &mut impl Write, path: &str, d: &Diagnostic, source: Option<&SourceMap>) -> io::Result<()> {
    let game = d.game.map(|g| format!(" (game {})", g + 1)).unwrap_or_default();
    writeln!(out, "{path}:{}:{}: {}[{}]: {}{game}", d.line, d.column, d.severity, d.code, d.message)?;
    let Some(source) = source else { return Ok(()) };
    if d.line == 0 {
        return Ok(());
    }
    let text = source.line_text(d.line);
    let number = d.line.to_string();
    let pad = " ".repeat(number.len());
    // Long lines (whole games on one line) are cut around the column,
    // found from the byte offset when it lies on this line: counting the
    // characters of a 1 MB line for each of 100,000 diagnostics took
    // minutes (tests/hostile.rs).
    let line_start = text.as_ptr() as usize - source.text().as_ptr() as usize;
    let (shown, caret) = match (d.offset as usize).checked_sub(line_start).filter(|&at| at <= text.len()) {
        Some(at) => window_at(text, at),
        None => window(text, d.column as usize),
    };
    writeln!(out, "{pad} |")?;
    writeln!(out, "{number} | {shown}")?;
    writeln!(out, "{pad} | {}^", " ".repeat(caret))?;
    if let Some(picture) = &d.picture {
        for row in picture.lines() {
            writeln!(out, "{pad} | {row}")?;
        }
    }
    Ok(())
}

/// `::error file=PATH,line=L,col=C,title=kifu CODE::MESSAGE`
fn write_github(out: &mut impl Write, path: &str, d: &Diagnostic) -> io::Result<()> {
    let level = match d.severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Info => "notice",
    };
    writeln!(
        out,
        "::{level} file={},line={},col={},title={}::{}",
        github_escape(path, true),
        d.line,
        d.column,
        github_escape(&format!("kifu {}", d.code), true),
        github_escape(&d.message, false)
    )
}

/// Escapes a workflow-command value (properties also escape `:` and `,`).
fn github_escape(s: &str, property: bool) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '%' => out.push_str("%25"),
            '\r' => out.push_str("%0D"),
            '\n' => out.push_str("%0A"),
            ':' if property => out.push_str("%3A"),
            ',' if property => out.push_str("%2C"),
            c => out.push(c),
        }
    }
    out
}

const SARIF_HEAD: &str =
    r#"{"$schema":"https://json.schemastore.org/sarif-2.1.0.json","version":"2.1.0","runs":[{"columnKind":"unicodeCodePoints","results":["#;

fn sarif_level(severity: Severity) -> &'static str {
    match severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Info => "note",
    }
}

/// One SARIF result; move context goes in `properties`.
fn sarif_result(path: &str, d: &Diagnostic) -> serde_json::Value {
    let mut region = serde_json::json!({ "startLine": d.line.max(1), "startColumn": d.column.max(1) });
    if d.line == 0 {
        region = serde_json::json!({ "startLine": 1 });
    }
    let mut result = serde_json::json!({
        "ruleId": d.code.name(),
        "ruleIndex": d.code as usize,
        "level": sarif_level(d.severity),
        "message": { "text": d.message },
        "locations": [{ "physicalLocation": {
            "artifactLocation": { "uri": sarif_uri(path) },
            "region": region,
        }}],
    });
    let mut props = serde_json::Map::new();
    if let Some(g) = d.game {
        props.insert("game".into(), g.into());
    }
    if let Some(m) = d.move_number {
        props.insert("move".into(), m.into());
    }
    if let Some(c) = d.color {
        props.insert("color".into(), c.into());
    }
    if let Some(p) = &d.point {
        props.insert("point".into(), p.clone().into());
    }
    if let Some(v) = &d.variation {
        props.insert("variation".into(), serde_json::json!(v));
    }
    if !props.is_empty() {
        result["properties"] = props.into();
    }
    result
}

/// A relative URI reference for a path (SARIF wants `/`, percent-escapes).
fn sarif_uri(path: &str) -> String {
    let mut out = String::new();
    for b in path.replace('\\', "/").bytes() {
        match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' | b'/' => out.push(b as char),
            _ => out.push_str(&format!("%{b:02X}")),
        }
    }
    out
}

/// The tool block: kifu and every rule (code) it can report.
fn sarif_tool() -> serde_json::Value {
    let rules: Vec<serde_json::Value> = crate::diag::CODES
        .iter()
        .map(|c| {
            serde_json::json!({
                "id": c.name,
                "shortDescription": { "text": c.summary },
                "defaultConfiguration": { "level": sarif_level(c.severity) },
            })
        })
        .collect();
    serde_json::json!({ "driver": {
        "name": "kifu",
        "version": env!("CARGO_PKG_VERSION"),
        "rules": rules,
    }})
}

/// Up to 100 characters of `line` around 1-based `column`, with the caret's
/// 0-based position in that window.
fn window(line: &str, column: usize) -> (String, usize) {
    let at = line.char_indices().nth(column.saturating_sub(1)).map_or(line.len(), |(i, _)| i);
    window_at(line, at)
}

/// [`window`] around the character at byte `at` of `line`, looking at no
/// more than the window's width on either side.
fn window_at(line: &str, at: usize) -> (String, usize) {
    const WIDTH: usize = 100;
    let mut at = at.min(line.len());
    while !line.is_char_boundary(at) {
        at -= 1;
    }
    let before: Vec<char> = line[..at].chars().rev().take(WIDTH + 1).collect();
    let after: Vec<char> = line[at..].chars().take(WIDTH + 1).collect();
    // Half the width before the caret, more when the line ends sooner.
    let remaining = after.len().min(WIDTH);
    let shown_before = before.len().min(WIDTH).min((WIDTH / 2).max(WIDTH - remaining));
    let shown_after = after.len().min(WIDTH - shown_before);
    let tab = |c: &char| if *c == '\t' { ' ' } else { *c };
    let mut shown: String = before[..shown_before].iter().rev().map(tab).collect();
    shown.extend(after[..shown_after].iter().map(tab));
    let mut caret = shown_before;
    if before.len() > shown_before {
        shown.insert_str(0, "...");
        caret += 3;
    }
    if after.len() > shown_after {
        shown.push_str("...");
    }
    (shown, caret)
}

/// The window as it was first written (every character of the line
/// collected), to check [`window_at`] against.
#[cfg(test)]
fn window_slow(line: &str, column: usize) -> (String, usize) {
    const WIDTH: usize = 100;
    let chars: Vec<char> = line.chars().map(|c| if c == '\t' { ' ' } else { c }).collect();
    let col = column.saturating_sub(1).min(chars.len());
    let start = col.saturating_sub(WIDTH / 2).min(chars.len().saturating_sub(WIDTH));
    let end = (start + WIDTH).min(chars.len());
    let mut shown: String = chars[start..end].iter().collect();
    let mut caret = col - start;
    if start > 0 {
        shown.insert_str(0, "...");
        caret += 3;
    }
    if end < chars.len() {
        shown.push_str("...");
    }
    (shown, caret)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn window_keeps_the_caret_under_the_column() {
        let line = "x".repeat(300);
        let (shown, caret) = window(&line, 200);
        assert_eq!(&shown[..3], "...");
        assert!(caret < shown.chars().count());
        let (shown, caret) = window("(;B;W[aa])", 3);
        assert_eq!((shown.as_str(), caret), ("(;B;W[aa])", 2));
    }

    #[test]
    fn window_at_matches_the_whole_line_window() {
        for len in [0, 1, 49, 50, 51, 99, 100, 101, 150, 250] {
            let line: String = (0..len).map(|i| ['a', 'é', '\t', '中'][i % 4]).collect();
            for column in 0..len + 3 {
                assert_eq!(window(&line, column), window_slow(&line, column), "len {len}, column {column}");
            }
        }
    }
}
