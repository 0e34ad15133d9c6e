//! Everything kifu prints, rendered in one place: diagnostics in each
//! output format (one [`Emitter`] per format, all fed the same stream of
//! per-file results, so a format never changes what is found), the score
//! breakdown and map ([`score`]), the game summary of `kifu info`
//! ([`info`]), and the escaping of record text for terminals
//! ([`escape`]), which every text output goes through.
//!
//! Diagnostics arrive typed (a move's point and position, not a drawn
//! picture); the text emitter draws them. Emitters write as files arrive
//! (nothing is held per file once printed) and close with a summary. This
//! module knows nothing of the CLI.

mod board;
pub mod escape;
pub mod explain;
mod github;
pub mod info;
mod json;
mod json_lines;
mod sarif;
pub mod score;
pub mod style;
mod text;

use std::collections::BTreeMap;
use std::io::{self, Write};

use serde::Serialize;

use crate::check::FileCheck;
use crate::diag::{Diagnostic, Severity};
use crate::sgf::SourceMap;
pub use github::GithubEmitter;
pub use json::JsonEmitter;
pub use json_lines::JsonLinesEmitter;
pub use sarif::SarifEmitter;
pub use style::Style;
pub use text::TextEmitter;

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

/// The file a diagnostic is in, as an emitter sees it.
pub struct FileContext<'a> {
    /// As given on the command line or found in a walk.
    pub path: &'a str,
    /// The decoded text, for a snippet (when the format shows one).
    pub source: Option<&'a SourceMap>,
}

/// One output format. The [`Reporter`] decides what is shown (`--quiet`,
/// `--summary-only`) and counts everything; an emitter only renders.
pub trait Emitter {
    /// Writes what comes before the first diagnostic.
    fn start(&mut self, _out: &mut dyn Write) -> io::Result<()> {
        Ok(())
    }

    /// Writes one diagnostic.
    fn diagnostic(&mut self, out: &mut dyn Write, file: &FileContext<'_>, d: &Diagnostic) -> io::Result<()>;

    /// Takes the repairs `--fix` made to one file (only the JSON document
    /// lists them; the command line says them on standard error).
    fn fixes(&mut self, _file: &str, _fixes: &[crate::repair::Fix]) {}

    /// Closes the output. `show_summary` is false under `--quiet`: a format
    /// that needs the summary to be complete (a JSON document, a SARIF log)
    /// writes it all the same.
    fn finish(&mut self, out: &mut dyn Write, summary: &Summary, show_summary: bool) -> io::Result<()>;
}

/// What of a run is printed.
#[derive(Debug, Clone, Copy, Default)]
pub struct Shown {
    /// Only errors, and no summary (where the format can do without it).
    pub quiet: bool,
    /// No diagnostic, only the summary.
    pub summary_only: bool,
    /// Colour in text output.
    pub style: Style,
    /// `check --fix`: the JSON document lists the repairs (`fixes`).
    pub fixes: bool,
}

impl Shown {
    /// Whether a diagnostic is printed (it is counted either way).
    fn shows(&self, d: &Diagnostic) -> bool {
        !self.summary_only && (!self.quiet || d.severity == Severity::Error)
    }
}

/// The emitter of a format.
pub fn emitter(format: Format, shown: Shown) -> Box<dyn Emitter> {
    match format {
        Format::Text => Box::new(TextEmitter { style: shown.style }),
        Format::Json => Box::new(JsonEmitter::new(shown.fixes)),
        Format::Jsonl => Box::new(JsonLinesEmitter),
        Format::Github => Box::new(GithubEmitter),
        Format::Sarif => Box::new(SarifEmitter::new(shown.summary_only)),
    }
}

/// Writes diagnostics in one format as results stream in, and counts them.
pub struct Reporter<W: Write> {
    emitter: Box<dyn Emitter>,
    out: W,
    started: bool,
    shown: Shown,
    pub summary: Summary,
}

impl<W: Write> Reporter<W> {
    pub fn new(format: Format, shown: Shown, out: W) -> Reporter<W> {
        Reporter { emitter: emitter(format, shown), out, started: false, shown, summary: Summary::default() }
    }

    fn start(&mut self) -> io::Result<()> {
        if !std::mem::replace(&mut self.started, true) {
            self.emitter.start(&mut self.out)?;
        }
        Ok(())
    }

    /// Reports everything found in one file.
    pub fn file(&mut self, path: &str, check: &FileCheck) -> io::Result<()> {
        self.summary.add(check);
        // A check may have dropped its text (nothing to quote when it was made).
        let source = (!check.source.text().is_empty()).then_some(&check.source);
        let shown = self.shown;
        for d in check.diagnostics.iter().filter(|d| shown.shows(d)) {
            self.start()?;
            self.emitter.diagnostic(&mut self.out, &FileContext { path, source }, d)?;
        }
        Ok(())
    }

    /// Reports the repairs `--fix` made to one file.
    pub fn fixes(&mut self, path: &str, fixes: &[crate::repair::Fix]) {
        self.emitter.fixes(path, fixes);
    }

    pub fn flush(&mut self) -> io::Result<()> {
        self.out.flush()
    }

    /// Closes the output with the summary (and the run's wall time, when given).
    pub fn finish(mut self, elapsed: Option<std::time::Duration>) -> io::Result<Summary> {
        if let Some(elapsed) = elapsed {
            self.summary.set_elapsed(elapsed);
        }
        self.start()?;
        let show_summary = !self.shown.quiet || self.shown.summary_only;
        self.emitter.finish(&mut self.out, &self.summary, show_summary)?;
        self.out.flush()?;
        Ok(self.summary)
    }
}
