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
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
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
    /// Wall time of the run, when measured.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seconds: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub games_per_second: Option<f64>,
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
        if let (Some(seconds), Some(rate)) = (self.seconds, self.games_per_second) {
            s.push_str(&format!(" in {seconds:.2} s ({rate:.0} games/s)"));
        }
        s
    }

    /// Records the run's wall time and the rate it gives.
    pub fn set_elapsed(&mut self, elapsed: std::time::Duration) {
        let seconds = elapsed.as_secs_f64();
        self.seconds = Some(seconds);
        self.games_per_second = Some(if seconds > 0.0 { self.games as f64 / seconds } else { 0.0 });
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
    /// Print only errors and no summary line (text).
    pub quiet: bool,
    /// Print no diagnostic, only the summary.
    pub summary_only: bool,
}

impl<W: Write> Reporter<W> {
    pub fn new(format: Format, out: W) -> Reporter<W> {
        Reporter { format, out, first: true, summary: Summary::default(), quiet: false, summary_only: false }
    }

    fn begin(&mut self) -> io::Result<()> {
        if self.first {
            match self.format {
                Format::Json => self.out.write_all(b"{\"diagnostics\":[")?,
                Format::Sarif => self.out.write_all(sarif_head().as_bytes())?,
                _ => {}
            }
        }
        Ok(())
    }

    /// Reports everything found in one file.
    pub fn file(&mut self, path: &str, check: &FileCheck) -> io::Result<()> {
        self.summary.add(check);
        if self.summary_only {
            return Ok(());
        }
        for d in &check.diagnostics {
            // A check may have dropped its text (nothing to quote when it was made).
            let source = (!check.source.text().is_empty()).then_some(&check.source);
            self.diagnostic(path, d, source)?;
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

    pub fn flush(&mut self) -> io::Result<()> {
        self.out.flush()
    }

    /// Closes the output with the summary (and the run's wall time, when given).
    pub fn finish(mut self, elapsed: Option<std::time::Duration>) -> io::Result<Summary> {
        if let Some(elapsed) = elapsed {
            self.summary.set_elapsed(elapsed);
        }
        self.begin()?;
        match self.format {
            Format::Text => {
                if !self.quiet || self.summary_only {
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
                self.out.write_all(b"],\"invocations\":")?;
                serde_json::to_writer(&mut self.out, &sarif_invocations(&self.summary))?;
                self.out.write_all(b",\"tool\":")?;
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

/// `::error file=PATH,line=L,col=C,title=kifu CODE::MESSAGE` (GitHub Actions workflow command).
fn write_github(out: &mut impl Write, path: &str, d: &Diagnostic) -> io::Result<()> {
    let level = match d.severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Info => "notice",
    };
    // A diagnostic with no position (line 0) annotates the whole file.
    let position = if d.line == 0 { String::new() } else { format!(",line={},col={}", d.line, d.column.max(1)) };
    writeln!(
        out,
        "::{level} file={}{position},title={}::{}",
        github_escape(path, true),
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

/// The published OASIS schema the log conforms to (a copy, with where it
/// came from, is in `tests/schemas/`; `tests/sarif.rs` validates against it).
const SARIF_SCHEMA: &str = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json";

/// The `uriBaseId` of relative paths: the directory kifu ran in (for a CI
/// job, the checkout), given in `originalUriBaseIds` when it is known.
const SARIF_SRCROOT: &str = "%SRCROOT%";

/// Everything before the first result: the log, its one run, the base URI.
fn sarif_head() -> String {
    let base = std::env::current_dir()
        .ok()
        .and_then(|dir| dir.to_str().map(file_uri))
        .map(|uri| {
            let uri = if uri.ends_with('/') { uri } else { format!("{uri}/") };
            format!(r#""originalUriBaseIds":{{"{SARIF_SRCROOT}":{{"uri":{}}}}},"#, serde_json::Value::from(uri))
        })
        .unwrap_or_default();
    format!(r#"{{"$schema":"{SARIF_SCHEMA}","version":"2.1.0","runs":[{{"columnKind":"unicodeCodePoints",{base}"results":["#)
}

fn sarif_level(severity: Severity) -> &'static str {
    match severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Info => "note",
    }
}

/// One SARIF result; move context goes in `properties`.
fn sarif_result(path: &str, d: &Diagnostic) -> serde_json::Value {
    // A diagnostic with no position (line 0) points at the file's first line.
    let region = if d.line == 0 { serde_json::json!({ "startLine": 1 }) } else { serde_json::json!({ "startLine": d.line, "startColumn": d.column.max(1) }) };
    let mut artifact = serde_json::json!({ "uri": sarif_uri(path) });
    if is_relative(path) {
        artifact["uriBaseId"] = SARIF_SRCROOT.into();
    }
    let mut result = serde_json::json!({
        "ruleId": d.code.name(),
        "ruleIndex": d.code as usize,
        "level": sarif_level(d.severity),
        "message": { "text": d.message },
        "locations": [{ "physicalLocation": {
            "artifactLocation": artifact,
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

/// Whether a path as given on the command line is relative (and so is
/// written relative to `%SRCROOT%`). Standard input (`-`) is not a file.
fn is_relative(path: &str) -> bool {
    let b = path.as_bytes();
    let drive = b.len() >= 2 && b[0].is_ascii_alphabetic() && b[1] == b':';
    !(path == "-" || path.starts_with('/') || path.starts_with('\\') || drive)
}

/// The URI of a path: absolute paths as `file:` URIs, relative ones as
/// relative references (`/` separators, no `./` prefix, percent-escapes).
fn sarif_uri(path: &str) -> String {
    if !is_relative(path) {
        return if path == "-" { "-".to_string() } else { file_uri(path) };
    }
    let mut path = path.replace('\\', "/");
    while let Some(rest) = path.strip_prefix("./") {
        path = rest.trim_start_matches('/').to_string();
    }
    // ':' is escaped too: unescaped in a first segment it would read as a scheme.
    percent_escape(&path, b"-._~/")
}

/// `file:///abs/path` for an absolute path (Unix or Windows).
fn file_uri(path: &str) -> String {
    let path = path.replace('\\', "/");
    let path = if path.starts_with('/') { path } else { format!("/{path}") };
    format!("file://{}", percent_escape(&path, b"-._~/:"))
}

/// Percent-escapes every byte but ASCII letters, digits and `keep`.
fn percent_escape(s: &str, keep: &[u8]) -> String {
    let mut out = String::with_capacity(s.len());
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || keep.contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// The run's one invocation: it failed when a file could not be read (the
/// other files were still checked, and their results are in the log).
fn sarif_invocations(summary: &Summary) -> serde_json::Value {
    let unreadable = summary.by_code.get(crate::diag::Code::Io.name()).copied().unwrap_or(0);
    let mut invocation = serde_json::json!({ "executionSuccessful": unreadable == 0 });
    if unreadable > 0 {
        invocation["toolExecutionNotifications"] = serde_json::json!([{
            "level": "error",
            "message": { "text": format!("{unreadable} {} could not be read", plural(unreadable, "file")) },
            "associatedRule": { "id": crate::diag::Code::Io.name(), "index": crate::diag::Code::Io as usize },
        }]);
    }
    serde_json::json!([invocation])
}

/// The diagnostics reference, read at build time: each rule's help points
/// into it, so the anchors always follow the document.
const DIAGNOSTICS_DOC: &str = include_str!("../docs/diagnostics.md");
const DIAGNOSTICS_DOC_PATH: &str = "docs/diagnostics.md";

/// For each code in the tables of docs/diagnostics.md: the anchor of the
/// section it is listed in and the text of its `meaning` column.
fn documented_codes() -> BTreeMap<&'static str, (String, &'static str)> {
    let mut codes = BTreeMap::new();
    let mut anchor = String::new();
    for line in DIAGNOSTICS_DOC.lines() {
        if line.starts_with('#') {
            anchor = heading_anchor(line.trim_start_matches('#'));
        } else if line.starts_with("| `") {
            let cells: Vec<&str> = line.split('|').map(str::trim).collect();
            if let [_, code, _, meaning, ..] = cells[..] {
                codes.entry(code.trim_matches('`')).or_insert((anchor.clone(), meaning));
            }
        }
    }
    codes
}

/// The anchor GitHub (and GitLab) give a Markdown heading: lower case,
/// punctuation other than `-` and `_` dropped, spaces as `-`.
fn heading_anchor(heading: &str) -> String {
    heading
        .trim()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            '-' | '_' => Some(c),
            c if c.is_alphanumeric() => Some(c),
            _ => None,
        })
        .flat_map(char::to_lowercase)
        .collect()
}

/// The tool block: kifu and every rule (code) it can report, in code order
/// (a result's `ruleIndex` is its code's index), each with its help.
fn sarif_tool() -> serde_json::Value {
    sarif_tool_for(env!("CARGO_PKG_REPOSITORY"))
}

/// `sarif_tool` for a repository address. Absolute links (`helpUri`,
/// `informationUri`) need it (Cargo.toml `repository`); without it the help
/// names the document and anchor in words.
fn sarif_tool_for(repository: &str) -> serde_json::Value {
    let repository = repository.trim_end_matches('/');
    let documented = documented_codes();
    let rules: Vec<serde_json::Value> = crate::diag::CODES
        .iter()
        .map(|c| {
            let (anchor, meaning) = documented.get(c.name).cloned().unwrap_or_else(|| ("codes".to_string(), c.summary));
            let doc = format!("{DIAGNOSTICS_DOC_PATH}#{anchor}");
            let url = (!repository.is_empty()).then(|| format!("{repository}/blob/main/{doc}"));
            let link = match &url {
                Some(url) => format!("[{doc}]({url})"),
                None => format!("`{doc}`"),
            };
            let mut rule = serde_json::json!({
                "id": c.name,
                "shortDescription": { "text": c.summary },
                "fullDescription": { "text": meaning.replace('`', "") },
                "help": {
                    "text": format!("{} Default severity: {}. See {doc}.", meaning.replace('`', ""), c.severity),
                    "markdown": format!("`{}` ({} by default): {meaning}\n\nSee {link}.", c.name, c.severity),
                },
                "defaultConfiguration": { "level": sarif_level(c.severity) },
            });
            if let Some(url) = url {
                rule["helpUri"] = url.into();
            }
            rule
        })
        .collect();
    let mut driver = serde_json::json!({
        "name": "kifu",
        "version": env!("CARGO_PKG_VERSION"),
        "semanticVersion": env!("CARGO_PKG_VERSION"),
        "rules": rules,
    });
    if !repository.is_empty() {
        driver["informationUri"] = repository.into();
    }
    serde_json::json!({ "driver": driver })
}

#[cfg(test)]
mod sarif_tests {
    use super::*;

    #[test]
    fn rules_link_to_their_section_of_the_diagnostics_doc() {
        let tool = sarif_tool_for("https://example.org/kifu/");
        let driver = &tool["driver"];
        assert_eq!(driver["informationUri"], "https://example.org/kifu");
        let rules = driver["rules"].as_array().unwrap();
        assert_eq!(rules.len(), crate::diag::CODES.len());
        let ko = &rules[crate::diag::Code::Ko as usize];
        assert_eq!(ko["id"], "ko");
        assert_eq!(ko["helpUri"], "https://example.org/kifu/blob/main/docs/diagnostics.md#moves-replay");
        let scoring = &rules[crate::diag::Code::ResultSyntax as usize];
        assert!(scoring["helpUri"].as_str().unwrap().ends_with("#scoring-kifu-score-kifu-check---score"));
        // Every code is in a table of the doc (not the fallback anchor).
        let documented = documented_codes();
        for c in crate::diag::CODES {
            assert!(documented.contains_key(c.name), "{} is not in docs/diagnostics.md", c.name);
        }
        assert!(sarif_tool_for("")["driver"]["rules"][0].get("helpUri").is_none());
    }

    #[test]
    fn unreadable_files_make_the_invocation_unsuccessful() {
        let mut summary = Summary::default();
        assert_eq!(sarif_invocations(&summary)[0]["executionSuccessful"], true);
        summary.count(&Diagnostic::new(crate::diag::Code::Io, 0, "the file could not be read"));
        let invocation = &sarif_invocations(&summary)[0];
        assert_eq!(invocation["executionSuccessful"], false);
        assert_eq!(invocation["toolExecutionNotifications"][0]["associatedRule"]["id"], "io-error");
    }

    #[test]
    fn uris_of_relative_absolute_and_windows_paths() {
        assert_eq!(sarif_uri("./games/a b.sgf"), "games/a%20b.sgf");
        assert_eq!(sarif_uri("games\\2019\\x.sgf"), "games/2019/x.sgf");
        assert_eq!(sarif_uri("../corpus/a:b,c%.sgf"), "../corpus/a%3Ab%2Cc%25.sgf");
        assert_eq!(sarif_uri("/tmp/a b.sgf"), "file:///tmp/a%20b.sgf");
        assert_eq!(sarif_uri("C:\\games\\x.sgf"), "file:///C:/games/x.sgf");
        assert!(is_relative("games/x.sgf") && !is_relative("/x.sgf") && !is_relative("-"));
    }
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
