//! `--format json`: one document, `{"diagnostics": [...], "summary": {...}}`,
//! written as the diagnostics arrive. With `check --fix` the document also
//! holds `"fixes": [...]` before the summary: the repairs are held until
//! the end (they follow the diagnostics array, which is still open).

use std::io::{self, Write};

use super::{Emitter, FileContext, JsonDiagnostic, Summary};
use crate::diag::Diagnostic;
use crate::repair::Fix;

#[derive(Default)]
pub struct JsonEmitter {
    written: usize,
    /// With `--fix`: each repair, as a JSON object.
    fixes: Option<Vec<String>>,
}

impl JsonEmitter {
    /// An emitter whose document lists repairs when `fixes` is set.
    pub fn new(fixes: bool) -> JsonEmitter {
        JsonEmitter { written: 0, fixes: fixes.then(Vec::new) }
    }
}

/// A repair as `fixes` lists it (field names are a contract: docs/json.md).
#[derive(serde::Serialize)]
struct JsonFix<'a> {
    file: &'a str,
    #[serde(flatten)]
    fix: &'a Fix,
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

    fn fixes(&mut self, file: &str, fixes: &[Fix]) {
        if let Some(list) = &mut self.fixes {
            list.extend(fixes.iter().filter_map(|fix| serde_json::to_string(&JsonFix { file, fix }).ok()));
        }
    }

    /// The summary is always written: it is part of the document's shape.
    fn finish(&mut self, out: &mut dyn Write, summary: &Summary, _show_summary: bool) -> io::Result<()> {
        out.write_all(b"]")?;
        if let Some(fixes) = &self.fixes {
            write!(out, ",\"fixes\":[{}]", fixes.join(","))?;
        }
        out.write_all(b",\"summary\":")?;
        serde_json::to_writer(&mut *out, summary)?;
        out.write_all(b"}\n")
    }
}
