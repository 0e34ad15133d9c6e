//! `kifu check --fix -o OUT`: a repaired copy of each file (syntax recovered
//! as the parser read it, charset converted to UTF-8, canonical FF[4] SGF)
//! written to a new path, never over an input, through [`output::replace`].
//!
//! The repairs themselves are the library's ([`crate::repair`]): this
//! module decides where the copies go.

use std::path::{Path, PathBuf};

use super::output;
use crate::formats::Format;

/// Where repaired copies go: one file (a single input file) or a folder
/// mirroring the inputs; or nowhere (`--dry-run`: the repairs are listed).
pub struct FixTarget {
    out: PathBuf,
    single_file: bool,
    dry_run: bool,
}

impl FixTarget {
    /// `OUT` is a folder when it is one already or ends with a separator,
    /// or when the only input is a folder or an archive; a file when the
    /// only input is a file. Several inputs need a folder: naming a file
    /// for them is refused rather than turned into a folder.
    pub fn new(out: PathBuf, inputs: &[PathBuf], dry_run: bool) -> Result<FixTarget, String> {
        let folder = output::names_folder(&out);
        let single_file = match inputs {
            [only] if !folder && (only.is_dir() || crate::batch::is_archive(only)) => false,
            [_] => !folder,
            _ if folder => false,
            _ => return Err(format!("-o {}: {} inputs need an output folder (an existing one, or a path ending in '/')", out.display(), inputs.len())),
        };
        Ok(FixTarget { out, single_file, dry_run })
    }

    /// `--dry-run` without `-o`: copies are named by their input's path.
    pub fn listing_only() -> FixTarget {
        FixTarget { out: PathBuf::new(), single_file: false, dry_run: true }
    }

    /// Whether copies are written (not `--dry-run`).
    pub fn writes(&self) -> bool {
        !self.dry_run
    }

    /// The output folder, unless the output is one file or nothing is written.
    pub fn folder(&self) -> Option<&Path> {
        (!self.single_file && self.writes()).then_some(self.out.as_path())
    }

    /// The output file, when the output is one file and it is written.
    pub fn file(&self) -> Option<&Path> {
        (self.single_file && self.writes()).then_some(self.out.as_path())
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
