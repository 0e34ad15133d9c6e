//! `--format sarif`: a SARIF 2.1.0 log for code-scanning interfaces. One
//! run: its results (one per diagnostic, move context in `properties`),
//! the invocation, the tool with every code as a rule and its help, and
//! the summary in the run's `properties`. With `--summary-only` the log
//! has no result, and the invocation says what was found.

use std::io::{self, Write};

use super::{Emitter, FileContext, Summary, plural};
use crate::diag::{Diagnostic, Severity};

pub struct SarifEmitter {
    /// No results are written: the invocation carries the summary.
    pub summary_only: bool,
    written: usize,
}

impl SarifEmitter {
    pub fn new(summary_only: bool) -> SarifEmitter {
        SarifEmitter { summary_only, written: 0 }
    }
}

impl Emitter for SarifEmitter {
    fn start(&mut self, out: &mut dyn Write) -> io::Result<()> {
        out.write_all(sarif_head().as_bytes())
    }

    fn diagnostic(&mut self, out: &mut dyn Write, file: &FileContext<'_>, d: &Diagnostic) -> io::Result<()> {
        if self.written > 0 {
            out.write_all(b",")?;
        }
        self.written += 1;
        serde_json::to_writer(&mut *out, &sarif_result(file.path, d))?;
        Ok(())
    }

    /// The whole log is always closed: a log without its tool is not SARIF.
    fn finish(&mut self, out: &mut dyn Write, summary: &Summary, _show_summary: bool) -> io::Result<()> {
        out.write_all(b"],\"invocations\":")?;
        serde_json::to_writer(&mut *out, &sarif_invocations(summary, self.summary_only))?;
        out.write_all(b",\"properties\":")?;
        serde_json::to_writer(&mut *out, &serde_json::json!({ "summary": summary }))?;
        out.write_all(b",\"tool\":")?;
        serde_json::to_writer(&mut *out, &sarif_tool())?;
        out.write_all(b"}]}\n")
    }
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
/// With `summary_only`, a note gives the summary line, the counts by code
/// being in the run's `properties`.
fn sarif_invocations(summary: &Summary, summary_only: bool) -> serde_json::Value {
    let unreadable = summary.by_code.get(crate::diag::Code::Io.name()).copied().unwrap_or(0);
    let mut invocation = serde_json::json!({ "executionSuccessful": unreadable == 0 });
    let mut notifications = Vec::new();
    if unreadable > 0 {
        notifications.push(serde_json::json!({
            "level": "error",
            "message": { "text": format!("{unreadable} {} could not be read", plural(unreadable, "file")) },
            "associatedRule": { "id": crate::diag::Code::Io.name(), "index": crate::diag::Code::Io as usize },
        }));
    }
    if summary_only {
        notifications.push(serde_json::json!({ "level": "note", "message": { "text": format!("kifu check --summary-only: {}", summary.line()) } }));
    }
    if !notifications.is_empty() {
        invocation["toolExecutionNotifications"] = notifications.into();
    }
    serde_json::json!([invocation])
}

/// The reference each rule's help links to: every code has a heading of
/// its own there, whose anchor is its name (docs/diagnostics.md is
/// generated from the registry, see `report::explain`).
const DIAGNOSTICS_DOC_PATH: &str = "docs/diagnostics.md";

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
    let rules: Vec<serde_json::Value> = crate::diag::CODES
        .iter()
        .map(|c| {
            let doc = format!("{DIAGNOSTICS_DOC_PATH}#{}", c.name);
            let url = (!repository.is_empty()).then(|| format!("{repository}/blob/main/{doc}"));
            let link = match &url {
                Some(url) => format!("[{doc}]({url})"),
                None => format!("`{doc}`"),
            };
            let explanation = c.explanation;
            let mut rule = serde_json::json!({
                "id": c.name,
                "shortDescription": { "text": c.summary },
                "fullDescription": { "text": explanation.replace('`', "") },
                "help": {
                    "text": format!("{} Default severity: {}. See {doc} (or run `kifu explain {}`).", explanation.replace('`', ""), c.severity, c.name),
                    "markdown": format!("`{}` ({} by default): {explanation}\n\nSee {link}, or run `kifu explain {}`.", c.name, c.severity, c.name),
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
    fn rules_link_to_their_code_in_the_diagnostics_doc() {
        let tool = sarif_tool_for("https://example.org/kifu/");
        let driver = &tool["driver"];
        assert_eq!(driver["informationUri"], "https://example.org/kifu");
        let rules = driver["rules"].as_array().unwrap();
        assert_eq!(rules.len(), crate::diag::CODES.len());
        let ko = &rules[crate::diag::Code::Ko as usize];
        assert_eq!(ko["id"], "ko");
        assert_eq!(ko["helpUri"], "https://example.org/kifu/blob/main/docs/diagnostics.md#ko");
        assert_eq!(ko["fullDescription"]["text"], crate::diag::Code::Ko.info().explanation);
        // Every code has its heading in the doc, which the link's anchor names.
        let doc = include_str!("../../docs/diagnostics.md");
        for c in crate::diag::CODES {
            assert!(doc.contains(&format!("\n### `{}`\n", c.name)), "{} has no heading in docs/diagnostics.md", c.name);
        }
        assert!(sarif_tool_for("")["driver"]["rules"][0].get("helpUri").is_none());
    }

    #[test]
    fn unreadable_files_make_the_invocation_unsuccessful() {
        let mut summary = Summary::default();
        assert_eq!(sarif_invocations(&summary, false)[0]["executionSuccessful"], true);
        summary.count(&Diagnostic::new(crate::diag::Code::Io, 0, "the file could not be read"));
        let invocation = &sarif_invocations(&summary, false)[0];
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
