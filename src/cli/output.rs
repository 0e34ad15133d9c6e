//! Writing outputs. Every file kifu writes (`convert -o`, `--fix`) goes
//! through [`replace`]: the bytes go to a temporary file beside the target,
//! which is renamed over it only once they are all written and synced, so
//! an output is replaced by a complete result or not at all. A new file
//! gets the mode `cp` would give it (0666 less the umask); a file replaced
//! keeps its own.

use std::fs::{self, Permissions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// Writes `bytes` to `path`, replacing it whole (through a symbolic link,
/// the file it points to). A read-only file or a folder is not replaced.
pub fn replace(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let is_link = fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink());
    let path = if is_link { fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf()) } else { path.to_path_buf() };
    let existing = match fs::metadata(&path) {
        Ok(m) if m.is_dir() => return Err(io::Error::new(io::ErrorKind::IsADirectory, "is a folder")),
        Ok(m) if m.permissions().readonly() => return Err(io::Error::new(io::ErrorKind::PermissionDenied, "is read-only; not replaced")),
        Ok(m) => Some(m.permissions()),
        Err(_) => None,
    };
    let dir = match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    };
    fs::create_dir_all(dir)?;
    let mut builder = tempfile::Builder::new();
    builder.prefix(".kifu-").suffix(".tmp");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        // Created with 0666 (the umask applies, as for any new file) ...
        builder.permissions(Permissions::from_mode(0o666));
    }
    let mut temp = builder.tempfile_in(dir)?;
    temp.write_all(bytes)?;
    if let Some(permissions) = existing {
        // ... or given exactly the mode of the file it replaces.
        temp.as_file().set_permissions(permissions)?;
    }
    temp.as_file().sync_all()?;
    temp.persist(&path).map_err(|e| e.error)?;
    Ok(())
}

/// Whether `-o OUT` names a folder: an existing one, or a path ending in a
/// separator (`out/`), which is created.
pub fn names_folder(out: &Path) -> bool {
    out.is_dir() || out.as_os_str().to_string_lossy().ends_with(std::path::is_separator)
}

/// Whether two paths name the same existing file.
pub fn same_file(a: &Path, b: &Path) -> bool {
    match (fs::canonicalize(a), fs::canonicalize(b)) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    }
}

/// The outputs of one run, so that two inputs never write the same file:
/// the first in input order does, the others are refused.
#[derive(Default)]
pub struct Claimed(std::collections::HashSet<PathBuf>);

impl Claimed {
    /// Claims `target` for the input `input` (a file on disk, if it is one).
    pub fn claim(&mut self, target: PathBuf, input: Option<&Path>) -> Result<PathBuf, String> {
        if input.is_some_and(|input| same_file(input, &target)) {
            return Err(format!("refusing to write {}: it is the input", target.display()));
        }
        if !self.0.insert(target.clone()) {
            return Err(format!("not written: another input of this run is written to {}", target.display()));
        }
        Ok(target)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replace_leaves_no_temporary_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("sub/out.sgf");
        replace(&path, b"(;GM[1])").unwrap();
        assert_eq!(fs::read(&path).unwrap(), b"(;GM[1])");
        assert_eq!(fs::read_dir(path.parent().unwrap()).unwrap().count(), 1);
    }

    #[cfg(unix)]
    #[test]
    fn a_replaced_file_keeps_its_mode_and_a_link_its_target() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("out.sgf");
        fs::write(&path, "old").unwrap();
        fs::set_permissions(&path, Permissions::from_mode(0o640)).unwrap();
        let link = dir.path().join("link.sgf");
        std::os::unix::fs::symlink(&path, &link).unwrap();
        replace(&link, b"new").unwrap();
        assert!(fs::symlink_metadata(&link).unwrap().file_type().is_symlink());
        assert_eq!(fs::read(&path).unwrap(), b"new");
        assert_eq!(fs::metadata(&path).unwrap().permissions().mode() & 0o777, 0o640);
        fs::set_permissions(&path, Permissions::from_mode(0o444)).unwrap();
        assert!(replace(&path, b"newer").is_err());
        assert_eq!(fs::read(&path).unwrap(), b"new");
    }

    #[test]
    fn two_inputs_never_claim_one_output() {
        let mut claimed = Claimed::default();
        assert!(claimed.claim("out/a.sgf".into(), None).is_ok());
        assert!(claimed.claim("out/a.sgf".into(), None).unwrap_err().contains("another input"));
    }
}
