//! `--format jsonl`: one JSON object per diagnostic, one per line, then
//! `{"summary": {...}}` as the last line.

use std::io::{self, Write};

use super::{Emitter, FileContext, JsonDiagnostic, Summary};
use crate::diag::Diagnostic;

pub struct JsonLinesEmitter;

impl Emitter for JsonLinesEmitter {
    fn diagnostic(&mut self, out: &mut dyn Write, file: &FileContext<'_>, d: &Diagnostic) -> io::Result<()> {
        serde_json::to_writer(&mut *out, &JsonDiagnostic { file: file.path, diagnostic: d })?;
        out.write_all(b"\n")
    }

    fn finish(&mut self, out: &mut dyn Write, summary: &Summary, show_summary: bool) -> io::Result<()> {
        if show_summary {
            serde_json::to_writer(&mut *out, &serde_json::json!({ "summary": summary }))?;
            out.write_all(b"\n")?;
        }
        Ok(())
    }
}
