//! `--format json`: one document, `{"diagnostics": [...], "summary": {...}}`,
//! written as the diagnostics arrive (nothing is held until the end).

use std::io::{self, Write};

use super::{Emitter, FileContext, JsonDiagnostic, Summary};
use crate::diag::Diagnostic;

#[derive(Default)]
pub struct JsonEmitter {
    written: usize,
}

impl Emitter for JsonEmitter {
    fn start(&mut self, out: &mut dyn Write) -> io::Result<()> {
        out.write_all(b"{\"diagnostics\":[")
    }

    fn diagnostic(&mut self, out: &mut dyn Write, file: &FileContext<'_>, d: &Diagnostic) -> io::Result<()> {
        if self.written > 0 {
            out.write_all(b",")?;
        }
        self.written += 1;
        serde_json::to_writer(&mut *out, &JsonDiagnostic { file: file.path, diagnostic: d })?;
        Ok(())
    }

    /// The summary is always written: it is part of the document's shape.
    fn finish(&mut self, out: &mut dyn Write, summary: &Summary, _show_summary: bool) -> io::Result<()> {
        out.write_all(b"],\"summary\":")?;
        serde_json::to_writer(&mut *out, summary)?;
        out.write_all(b"}\n")
    }
}
