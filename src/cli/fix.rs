//! `kifu check --fix -o OUT`: a repaired copy of each file (syntax recovered
//! as the parser read it, charset converted to UTF-8, canonical SGF) written
//! to a new path, never over an input. Each copy is written to a temporary
//! file in the destination folder and renamed into place, so a crash never
//! leaves half a file.

use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use crate::formats::{self, Format};
use crate::json;
use crate::sgf::{self, ParseOptions};

/// Where repaired copies go: one file (a single input file) or a folder
/// mirroring the inputs.
pub struct FixTarget {
    out: PathBuf,
    single_file: bool,
}

impl FixTarget {
    /// `OUT` is a file when the only input is one file and `OUT` is not an
    /// existing folder; otherwise a folder.
    pub fn new(out: PathBuf, inputs: &[PathBuf]) -> FixTarget {
        let single_input_file = matches!(inputs, [only] if only.is_file() && !crate::batch::is_archive(only));
        FixTarget { single_file: single_input_file && !out.is_dir(), out }
    }

    /// The output folder, unless the output is one file.
    pub fn folder(&self) -> Option<&Path> {
        (!self.single_file).then_some(self.out.as_path())
    }

    /// Where the copy of an input goes: a record of another format gets
    /// `.sgf` after its own extension (`game.gib.sgf`), so no two inputs
    /// share an output.
    pub fn path_for(&self, relative: &Path) -> PathBuf {
        if self.single_file {
            return self.out.clone();
        }
        let other_format = Format::from_name(&relative.to_string_lossy()).is_some_and(|f| f != Format::Sgf);
        let relative = if other_format { PathBuf::from(format!("{}.sgf", relative.display())) } else { relative.to_path_buf() };
        self.out.join(relative)
    }
}

/// A repaired file and what was changed to get it.
pub struct Repaired {
    pub text: String,
    pub changes: Vec<String>,
}

/// Rewrites one file's games (any record format, see
/// [`formats::read`]) as canonical UTF-8 SGF, listing the changes.
pub fn repair(bytes: &[u8], name: &str, options: &ParseOptions) -> Repaired {
    let parsed = formats::read(bytes, name, options);
    let mut changes = Vec::new();
    let format = formats::detect(bytes, name);
    if format != Format::Sgf {
        changes.push(format!("converted from {} to SGF", format.describe()));
    }
    if parsed.encoding != encoding_rs::UTF_8 {
        changes.push(format!("converted from {} to UTF-8", parsed.encoding.name()));
    }
    for d in &parsed.diagnostics {
        changes.push(format!("{} at {}:{} ({})", d.code, d.line, d.column, d.message));
    }
    let text = sgf::write_collection(&json::set_utf8_charset(&parsed.collection));
    if changes.is_empty() && text.as_bytes() != bytes {
        changes.push("rewritten in canonical form".into());
    }
    Repaired { text, changes }
}

/// Writes `bytes` to `path` through a temporary file in the same folder.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let dir = match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    };
    fs::create_dir_all(dir)?;
    let mut temp = tempfile::NamedTempFile::new_in(dir)?;
    temp.write_all(bytes)?;
    temp.as_file().sync_all()?;
    temp.persist(path).map_err(|e| e.error)?;
    Ok(())
}

/// Whether two paths name the same existing file.
pub fn same_file(a: &Path, b: &Path) -> bool {
    match (fs::canonicalize(a), fs::canonicalize(b)) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn repair_lists_recoveries_and_charset() {
        let latin1 = b"(;GM[1]CA[ISO-8859-1]PB[Jos\xe9];B[dd]";
        let repaired = repair(latin1, "x.sgf", &ParseOptions::default());
        assert!(repaired.text.contains("PB[Jos\u{e9}]") && repaired.text.contains("CA[UTF-8]"), "{}", repaired.text);
        assert!(
            repaired.changes.iter().any(|c| c.starts_with("converted from ISO-8859-1") || c.starts_with("converted from windows-1252")),
            "{:?}",
            repaired.changes
        );
        assert!(repaired.changes.iter().any(|c| c.starts_with("missing-close-paren")), "{:?}", repaired.changes);
    }

    #[test]
    fn atomic_write_leaves_no_temporary_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("sub/out.sgf");
        write_atomically(&path, b"(;GM[1])").unwrap();
        assert_eq!(fs::read(&path).unwrap(), b"(;GM[1])");
        assert_eq!(fs::read_dir(path.parent().unwrap()).unwrap().count(), 1);
    }
}
