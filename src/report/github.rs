//! `--format github`: GitHub Actions workflow commands, one a line,
//! `::error file=PATH,line=L,col=C,title=kifu CODE::MESSAGE` (`warning`,
//! `notice` for the other severities), closed by a `::notice` with the
//! summary. A runner reads these from the job's log, which shows escape
//! sequences as a terminal would: what the record says is escaped too.

use std::io::{self, Write};

use super::escape;
use super::{Emitter, FileContext, Summary};
use crate::diag::{Diagnostic, Severity};

pub struct GithubEmitter;

impl Emitter for GithubEmitter {
    fn diagnostic(&mut self, out: &mut dyn Write, file: &FileContext<'_>, d: &Diagnostic) -> io::Result<()> {
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
            github_escape(file.path, true),
            github_escape(&format!("kifu {}", d.code), true),
            github_escape(&d.message, false)
        )
    }

    fn finish(&mut self, out: &mut dyn Write, summary: &Summary, show_summary: bool) -> io::Result<()> {
        if show_summary {
            writeln!(out, "::notice title=kifu::{}", github_escape(&summary.line(), false))?;
        }
        Ok(())
    }
}

/// Escapes a workflow-command value as the runner reads it (`%`, CR and LF;
/// properties also `:` and `,`); the other characters that do not print
/// are escaped for the log ([`escape::text`]).
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
    escape::text(&out).into_owned()
}
