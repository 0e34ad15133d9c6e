//! Finding what to check: files named on the command line, folders walked
//! recursively, games inside zip, tar (plain or compressed) and 7z archives
//! and single compressed files (read in place, never extracted), and
//! standard input.
//!
//! Items come out one at a time in a deterministic order (command-line
//! order, then sorted by name; archive members in archive order), so that a
//! run over millions of files holds nothing per file. Problems met on the
//! way (unreadable folders, symlink loops, broken archives) are items too:
//! they are reported like any diagnostic and never stop the walk.

use std::fs::File;
use std::io::{self, BufReader, Read};
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};

use super::archive::{self, ArchiveKind, Codec, EmitMember, Kind};
use crate::dedup::KeysAreHashes;
use crate::diag::Code;
use crate::formats;

/// Which part of the input set a run takes: the `index`-th (1-based) of
/// `count` slices. The k-th file of the walk (0-based) belongs to slice
/// `k % count + 1`, so slices are balanced and the same on every machine.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shard {
    pub index: usize,
    pub count: usize,
}

impl Shard {
    /// Reads `I/N` with 1 <= I <= N.
    pub fn parse(s: &str) -> Result<Shard, String> {
        let (i, n) = s.split_once('/').ok_or("expected I/N, e.g. 2/8")?;
        let (index, count) = match (i.trim().parse::<usize>(), n.trim().parse::<usize>()) {
            (Ok(i), Ok(n)) => (i, n),
            _ => return Err("expected I/N with whole numbers, e.g. 2/8".into()),
        };
        if count == 0 || index == 0 || index > count {
            return Err(format!("{index}/{count}: I must be between 1 and N"));
        }
        Ok(Shard { index, count })
    }

    fn takes(self, k: usize) -> bool {
        k % self.count == self.index - 1
    }
}

/// Says whether a path met in a folder walk is left out: called with the
/// entry's absolute path and whether it is a folder.
pub type PathFilter = Box<dyn Fn(&Path, bool) -> bool + Send + Sync>;

/// How to find inputs.
pub struct Walk {
    /// Extensions of SGF files, lower case without the dot.
    pub extensions: Vec<String>,
    /// Walk into hidden folders and pick hidden files.
    pub hidden: bool,
    /// Paths to leave out (the CLI's `kifu.toml` patterns).
    pub ignore: Option<PathFilter>,
    pub shard: Option<Shard>,
    /// Files and archive members larger than this are not read.
    pub max_bytes: u64,
    /// A folder never walked into (canonical path): `--fix`'s output.
    pub skip_dir: Option<PathBuf>,
    /// Walk into the folders of folders; `false` takes only the files
    /// directly inside a folder named.
    pub recursive: bool,
}

/// Files larger than this are not read unless told otherwise: far above
/// any real collection, far below what would exhaust memory.
pub const DEFAULT_MAX_BYTES: u64 = 1 << 30;

impl Default for Walk {
    /// The records of every format kifu reads ([`formats::EXTENSIONS`]),
    /// hidden ones left out, every folder walked, files up to
    /// [`DEFAULT_MAX_BYTES`].
    fn default() -> Walk {
        let extensions = formats::EXTENSIONS.iter().map(|e| e.to_string()).collect();
        Walk { extensions, hidden: false, ignore: None, shard: None, max_bytes: DEFAULT_MAX_BYTES, skip_dir: None, recursive: true }
    }
}

/// What an item holds, or why it cannot be read.
pub enum Content {
    /// A file, with its size when the walk already knew it (a file named on
    /// the command line), so reading it need not ask again.
    Path {
        path: PathBuf,
        size: Option<u64>,
    },
    /// A file named on the command line, read where the walk opened it:
    /// its bytes, or why they could not be read. (A descriptor held until
    /// a worker reads would leave as many open as items queued.)
    Read {
        path: PathBuf,
        bytes: Result<Vec<u8>, (Code, String)>,
    },
    /// A compressed file (`game.sgf.gz`), decompressed when read.
    Compressed(PathBuf, Codec),
    Stdin,
    /// An archive member, already read.
    Bytes(Vec<u8>),
    /// The item could not be found, listed or read; the code says how bad.
    Problem(Code, String),
}

/// One thing to check: a file, an archive member, or standard input.
pub struct Item {
    /// How reports name it: the path, `archive.zip!member.sgf`, or `-`.
    pub name: String,
    /// Where a repaired copy goes, relative to the `--fix` output folder.
    pub relative: PathBuf,
    pub content: Content,
}

impl super::Held for Item {
    fn held_bytes(&self) -> usize {
        match &self.content {
            Content::Bytes(bytes) | Content::Read { bytes: Ok(bytes), .. } => bytes.len(),
            _ => 0,
        }
    }
}

impl Item {
    fn problem(name: String, code: Code, message: String) -> Item {
        Item { relative: PathBuf::from(&name), name, content: Content::Problem(code, message) }
    }
}

impl Content {
    /// The file on disk the item is read from, if it is one.
    pub fn path(&self) -> Option<&Path> {
        match self {
            Content::Path { path, .. } | Content::Read { path, .. } | Content::Compressed(path, _) => Some(path),
            _ => None,
        }
    }

    /// The bytes of the item, read whole (`max_bytes` bounds it).
    pub fn read(self, max_bytes: u64) -> Result<Vec<u8>, (Code, String)> {
        match self {
            Content::Bytes(bytes) => Ok(bytes),
            Content::Read { bytes, .. } => bytes,
            Content::Problem(code, message) => Err((code, message)),
            Content::Stdin => whole(read_bounded(io::stdin().lock(), max_bytes), max_bytes),
            Content::Compressed(path, codec) => {
                let bad = |e: io::Error| (Code::Io, format!("cannot decompress: {e}"));
                let file = File::open(&path).map_err(|e| (Code::Io, format!("cannot read: {e}")))?;
                read_bounded(archive::decompress(codec, BufReader::new(file)).map_err(bad)?, max_bytes).map_err(bad)?.ok_or_else(|| too_big(max_bytes))
            }
            Content::Path { path, size } => whole(read_file(&path, size, max_bytes), max_bytes),
        }
    }
}

/// A read of a file whole as [`Content::read`] says it.
fn whole(read: io::Result<Option<Vec<u8>>>, max_bytes: u64) -> Result<Vec<u8>, (Code, String)> {
    read.map_err(|e| (Code::Io, format!("cannot read: {e}")))?.ok_or_else(|| too_big(max_bytes))
}

/// Opens and reads a file whole ([`read_open`]).
fn read_file(path: &Path, known_size: Option<u64>, max_bytes: u64) -> io::Result<Option<Vec<u8>>> {
    read_open(File::open(path)?, known_size, max_bytes)
}

/// Reads an open file whole in one `read` when its size is known, with an
/// `fstat` first when it must be asked: `read_to_end` would look for the
/// size again, seek, and read once more to see the end. A read that stops
/// at the size the file had when looked at is the end; one that fills the
/// byte asked for beyond it finds the file grew, and the rest is read as it
/// comes. `None` past `max_bytes`.
fn read_open(mut file: File, known_size: Option<u64>, max_bytes: u64) -> io::Result<Option<Vec<u8>>> {
    // A size looked at earlier is trusted unless it says "too big": the file
    // may have shrunk since.
    let size = match known_size {
        Some(size) if size <= max_bytes => size,
        _ => file.metadata()?.len(),
    };
    if size > max_bytes {
        return Ok(None);
    }
    let mut bytes = Vec::with_capacity(size as usize + 1);
    loop {
        match read_spare(&mut file, &mut bytes) {
            Ok(0) => break,
            Ok(_) => {}
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        }
        if bytes.len() as u64 == size || bytes.len() == bytes.capacity() {
            break;
        }
    }
    if bytes.len() as u64 > size {
        file.take(max_bytes + 1 - bytes.len() as u64).read_to_end(&mut bytes)?;
    }
    Ok((bytes.len() as u64 <= max_bytes).then_some(bytes))
}

/// One `read` into `bytes`' spare capacity, which is not zeroed first (a
/// `memset` of the whole file, 0.7k instructions a KGS file); what it
/// reads is appended.
#[cfg(unix)]
fn read_spare(file: &mut File, bytes: &mut Vec<u8>) -> io::Result<usize> {
    use std::os::fd::AsRawFd;
    let spare = bytes.spare_capacity_mut();
    // SAFETY: `read` writes at most `spare.len()` bytes, into memory the
    // vector owns past its length.
    let n = unsafe { libc::read(file.as_raw_fd(), spare.as_mut_ptr().cast(), spare.len()) };
    let n = usize::try_from(n).map_err(|_| io::Error::last_os_error())?;
    debug_assert!(n <= spare.len());
    // SAFETY: the `n` bytes after the length are those `read` wrote.
    unsafe { bytes.set_len(bytes.len() + n) };
    Ok(n)
}

#[cfg(not(unix))]
fn read_spare(file: &mut File, bytes: &mut Vec<u8>) -> io::Result<usize> {
    let len = bytes.len();
    bytes.resize(bytes.capacity(), 0);
    let read = file.read(&mut bytes[len..]);
    bytes.truncate(len + *read.as_ref().unwrap_or(&0));
    read
}

fn too_big(max_bytes: u64) -> (Code, String) {
    (Code::LimitExceeded, format!("larger than --max-bytes {max_bytes}; not read"))
}

/// Reads at most `max_bytes`; `None` when there is more (a zip bomb stops here).
fn read_bounded(reader: impl Read, max_bytes: u64) -> io::Result<Option<Vec<u8>>> {
    let mut bytes = Vec::new();
    reader.take(max_bytes.saturating_add(1)).read_to_end(&mut bytes)?;
    Ok((bytes.len() as u64 <= max_bytes).then_some(bytes))
}

/// Whether kifu reads this file as an archive of several members (by its
/// name).
pub fn is_archive(path: &Path) -> bool {
    matches!(kind_of(path), Some(Kind::Archive(_)))
}

fn kind_of(path: &Path) -> Option<Kind> {
    kind_of_name(parent_and_name(path).1)
}

/// [`kind_of`] from the path's last part, when the caller has split it.
fn kind_of_name(name: Option<&std::ffi::OsStr>) -> Option<Kind> {
    archive::kind(name?.to_str()?)
}

/// `(path.parent(), path.file_name())`, read from the bytes when the path
/// plainly ends with `folder/name` (every path a shell glob names): `Path`
/// parses the components for each, a few hundred instructions a call, and
/// a file named asked for them six times.
fn parent_and_name(path: &Path) -> (Option<&Path>, Option<&std::ffi::OsStr>) {
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        let bytes = path.as_os_str().as_bytes();
        // Not a folder part that `Path` trims (`a//b`, `a/./b`, `./b`, `/b`),
        // nor a last part it reads otherwise (`a/`, `a/.`, `a/..`).
        if let Some(slash) = memchr::memrchr(b'/', bytes)
            && slash > 0
            && !matches!(bytes[slash - 1], b'/' | b'.')
            && !matches!(&bytes[slash + 1..], b"" | b"." | b"..")
        {
            let (folder, name) = (&bytes[..slash], &bytes[slash + 1..]);
            return (Some(Path::new(std::ffi::OsStr::from_bytes(folder))), Some(std::ffi::OsStr::from_bytes(name)));
        }
    }
    (path.parent(), path.file_name())
}

/// A path's [`parent_and_name`].
type Split<'p> = (Option<&'p Path>, Option<&'p std::ffi::OsStr>);

/// What the walk finds, before anything is read.
enum Found {
    /// `key`: the file's own path, links resolved ([`PathKey`]), to take it
    /// once; `size`, when the walk looked at the file itself; `file`, when
    /// it opened it (a file named).
    File {
        path: PathBuf,
        relative: PathBuf,
        /// What its name says it holds, told once ([`kind_of`] parses the
        /// path for its name).
        kind: Option<Kind>,
        key: PathKey,
        size: Option<u64>,
        file: Option<File>,
    },
    Stdin,
    Problem {
        name: String,
        code: Code,
        message: String,
    },
}

impl Walk {
    /// Calls `f` with each item in order, opening archives into their
    /// members; stops early when `f` says so. Returns the folders of
    /// `paths` in which no file to check was found (a wrong path, or
    /// files with other extensions), for the caller to say so.
    pub fn for_each(&self, paths: &[PathBuf], f: &mut dyn FnMut(Item) -> ControlFlow<()>) -> Vec<PathBuf> {
        self.visit(paths, true, &mut |found| match found {
            Found::Stdin => f(Item { name: "-".into(), relative: "stdin.sgf".into(), content: Content::Stdin }),
            Found::Problem { name, code, message } => f(Item::problem(name, code, message)),
            Found::File { path, relative, kind, size, file, .. } => {
                // `to_str` first: the lossy conversion's checking of a valid
                // name costs three times as much.
                let name = path.to_str().map_or_else(|| path.to_string_lossy().into_owned(), str::to_owned);
                match kind {
                    Some(Kind::Archive(kind)) => self.archive_members(&path, kind, &relative, f),
                    Some(Kind::Compressed(codec)) => {
                        let relative = PathBuf::from(archive::decompressed_name(&relative.to_string_lossy()));
                        f(Item { name, relative, content: Content::Compressed(path, codec) })
                    }
                    Some(Kind::Unsupported(format)) => {
                        let message = format!("a {format}: kifu cannot read it (it reads {}); nothing in it was checked", archive::READ);
                        f(Item::problem(name, Code::UnsupportedArchive, message))
                    }
                    None => {
                        let content = match file {
                            Some(file) => Content::Read { bytes: whole(read_open(file, size, self.max_bytes), self.max_bytes), path },
                            None => Content::Path { path, size },
                        };
                        f(Item { name, relative, content })
                    }
                }
            }
        })
    }

    /// The number of files and archives the run takes (archives count as
    /// one), for the progress bar; nothing is opened.
    pub fn count(&self, paths: &[PathBuf]) -> usize {
        let mut n = 0;
        self.visit(paths, false, &mut |_| {
            n += 1;
            ControlFlow::Continue(())
        });
        n
    }

    /// The walk itself: each file, archive, `-` or problem, numbered for
    /// the shard in walk order. A file named twice, or reached again
    /// through a symbolic link, is taken the first time only. `open`: open
    /// the files named ([`Named::open`]) rather than only look. Returns the
    /// folders in which nothing was found.
    fn visit(&self, paths: &[PathBuf], open: bool, f: &mut dyn FnMut(Found) -> ControlFlow<()>) -> Vec<PathBuf> {
        let mut k = 0;
        // A key a named file at least: the set is not grown step by step.
        let mut seen = Seen(std::collections::HashSet::with_capacity_and_hasher(paths.len(), KeysAreHashes::default()));
        let found_so_far = std::cell::Cell::new(0usize);
        let mut empty_folders = Vec::new();
        let mut parents = Parents::default();
        let mut take = |found: Found| {
            found_so_far.set(found_so_far.get() + 1);
            if let Found::File { key, .. } = &found {
                if !seen.first_time(*key) {
                    return ControlFlow::Continue(());
                }
            }
            let taken = self.shard.is_none_or(|s| s.takes(k));
            k += 1;
            if taken { f(found) } else { ControlFlow::Continue(()) }
        };
        for path in paths {
            let flow = if path.as_os_str() == "-" {
                take(Found::Stdin)
            } else {
                // The path split once for all that follows (its kind, its
                // folder, the file's key, its relative name).
                let split = parent_and_name(path);
                let kind = kind_of_name(split.1);
                let looked = if open && kind.is_none() { Named::open(path, split, &mut parents) } else { Named::look(path) };
                match looked {
                    Ok(Named::Folder) => {
                        let before = found_so_far.get();
                        let flow = self.walk_dir(path, &mut take);
                        if found_so_far.get() == before {
                            empty_folders.push(path.clone());
                        }
                        flow
                    }
                    Ok(Named::File { size, is_link, file }) => {
                        let relative = split.1.map_or_else(|| path.clone(), PathBuf::from);
                        // Only another named path can lead to the file again.
                        let key = if paths.len() > 1 { parents.key(path, split, is_link) } else { PathKey::of(path, None) };
                        take(Found::File { path: path.clone(), relative, kind, key, size: Some(size), file })
                    }
                    Err(e) => {
                        let name = path.display().to_string();
                        let message = if e.kind() == io::ErrorKind::NotFound { "no such file or directory".into() } else { format!("cannot read: {e}") };
                        take(Found::Problem { name, code: Code::Io, message })
                    }
                }
            };
            if flow.is_break() {
                break;
            }
        }
        empty_folders
    }

    fn walk_dir(&self, dir: &Path, f: &mut dyn FnMut(Found) -> ControlFlow<()>) -> ControlFlow<()> {
        let absolute_dir = std::path::absolute(dir).unwrap_or_else(|_| dir.to_path_buf());
        let depth = if self.recursive { usize::MAX } else { 1 };
        // In file-name order, compared as whole paths: entries of one folder
        // share its path up to their names, so the order is the same, and
        // `file_name()` would parse each path again at every comparison (3% of
        // a check of the KGS tree).
        let walker = walkdir::WalkDir::new(dir).follow_links(true).max_depth(depth).sort_by(|a, b| a.path().as_os_str().cmp(b.path().as_os_str())).into_iter();
        let walker = walker.filter_entry(|e| e.depth() == 0 || (self.hidden || !is_hidden(e)) && !self.ignored(&absolute_dir, dir, e) && !self.skipped(e));
        // The canonical path of a file is the folder's and its relative
        // path, unless a link leads to it: resolving every path would cost
        // a system call per file, and joining them an allocation.
        let canonical_dir = std::fs::canonicalize(dir).unwrap_or_else(|_| absolute_dir.clone());
        let mut linked_folder_depth: Option<usize> = None;
        for entry in walker {
            if let Ok(e) = &entry {
                if linked_folder_depth.is_some_and(|depth| e.depth() <= depth) {
                    linked_folder_depth = None;
                }
                if e.depth() > 0 && e.path_is_symlink() && e.file_type().is_dir() && linked_folder_depth.is_none() {
                    linked_folder_depth = Some(e.depth());
                }
            }
            let found = match entry {
                Ok(e) if e.file_type().is_file() => {
                    let kind = kind_of(e.path());
                    if !self.wanted(e.path(), kind) {
                        continue;
                    }
                    let relative = e.path().strip_prefix(dir).unwrap_or(e.path()).to_path_buf();
                    let key = if linked_folder_depth.is_some() || e.path_is_symlink() {
                        PathKey::of(&std::fs::canonicalize(e.path()).unwrap_or_else(|_| e.path().to_path_buf()), None)
                    } else {
                        PathKey::of(&canonical_dir, Some(&relative))
                    };
                    Found::File { path: e.into_path(), relative, kind, key, size: None, file: None }
                }
                Ok(_) => continue,
                Err(e) => walk_problem(dir, &e),
            };
            f(found)?;
        }
        ControlFlow::Continue(())
    }

    /// A record, an archive, an archive kifu cannot read (to say so), or a
    /// compressed record (`game.sgf.gz`).
    fn wanted(&self, path: &Path, kind: Option<Kind>) -> bool {
        match kind {
            Some(Kind::Compressed(_)) => self.is_sgf_name(Path::new(archive::decompressed_name(&path.to_string_lossy()))),
            Some(_) => true,
            None => self.is_sgf_name(path),
        }
    }

    fn is_sgf_name(&self, path: &Path) -> bool {
        let ext = path.extension().and_then(|e| e.to_str());
        ext.is_some_and(|e| self.extensions.iter().any(|x| x.eq_ignore_ascii_case(e)))
    }

    fn skipped(&self, entry: &walkdir::DirEntry) -> bool {
        let Some(skip) = &self.skip_dir else { return false };
        entry.file_type().is_dir() && std::fs::canonicalize(entry.path()).is_ok_and(|p| &p == skip)
    }

    fn ignored(&self, absolute_dir: &Path, dir: &Path, entry: &walkdir::DirEntry) -> bool {
        let Some(ignore) = &self.ignore else { return false };
        let relative = entry.path().strip_prefix(dir).unwrap_or(entry.path());
        ignore(&absolute_dir.join(relative), entry.file_type().is_dir())
    }

    /// Opens an archive and hands out its SGF members, each read whole (up
    /// to `max_bytes`).
    fn archive_members(&self, path: &Path, kind: ArchiveKind, relative: &Path, f: &mut dyn FnMut(Item) -> ControlFlow<()>) -> ControlFlow<()> {
        let archive_name = path.display().to_string();
        let mut emit = |member: &str, bytes: io::Result<Option<Vec<u8>>>| {
            let name = format!("{archive_name}!{member}");
            let content = match bytes {
                Ok(Some(bytes)) => Content::Bytes(bytes),
                Ok(None) => Content::Problem(too_big(self.max_bytes).0, too_big(self.max_bytes).1),
                Err(e) if e.kind() == io::ErrorKind::FileTooLarge => Content::Problem(Code::LimitExceeded, e.to_string()),
                Err(e) => Content::Problem(Code::Io, format!("cannot read the archive member: {e}")),
            };
            f(Item { name, relative: relative.join(safe_relative(member)), content })
        };
        let result = match kind {
            ArchiveKind::Zip => self.zip_members(path, &mut emit),
            ArchiveKind::Tar(None) => File::open(path).and_then(|file| self.tar_members(BufReader::new(file), &mut emit)),
            ArchiveKind::Tar(Some(codec)) => {
                File::open(path).and_then(|file| archive::decompress(codec, BufReader::new(file))).and_then(|tar| self.tar_members(tar, &mut emit))
            }
            ArchiveKind::SevenZ => archive::sevenz_members(path, &|name| self.is_sgf_name(Path::new(name)), self.max_bytes, &mut emit),
        };
        match result {
            Ok(flow) => flow,
            Err(e) => f(Item::problem(archive_name, Code::Io, format!("cannot read the archive: {e}"))),
        }
    }

    fn zip_members(&self, path: &Path, emit: &mut EmitMember) -> io::Result<ControlFlow<()>> {
        let mut zip = zip::ZipArchive::new(BufReader::new(File::open(path)?)).map_err(io::Error::other)?;
        for i in 0..zip.len() {
            let member = zip.by_index(i).map_err(io::Error::other)?;
            if !member.is_file() || !self.is_sgf_name(Path::new(member.name())) {
                continue;
            }
            let name = member.name().to_string();
            if emit(&name, read_bounded(member, self.max_bytes)).is_break() {
                return Ok(ControlFlow::Break(()));
            }
        }
        Ok(ControlFlow::Continue(()))
    }

    fn tar_members(&self, reader: impl Read, emit: &mut EmitMember) -> io::Result<ControlFlow<()>> {
        let mut tar = tar::Archive::new(reader);
        for entry in tar.entries()? {
            let entry = entry?;
            let name = entry.path()?.display().to_string();
            if !entry.header().entry_type().is_file() || !self.is_sgf_name(Path::new(&name)) {
                continue;
            }
            if emit(&name, read_bounded(entry, self.max_bytes)).is_break() {
                return Ok(ControlFlow::Break(()));
            }
        }
        Ok(ControlFlow::Continue(()))
    }
}

/// A path named on the command line, looked at once.
enum Named {
    Folder,
    /// Anything else, with its size; `is_link` when the path itself is a
    /// symbolic link; `file` when the look opened it.
    File {
        size: u64,
        is_link: bool,
        file: Option<File>,
    },
}

impl Named {
    /// Opens the path and asks the open file what it is (`fstat`): a second
    /// look by path would walk the path in the kernel again. A link is not
    /// opened but looked at by path (its target's canonical path is the
    /// file's key), and so is a path that cannot be opened (the errors of
    /// a look, and a file that cannot be read is still taken once).
    fn open(path: &Path, split: Split<'_>, parents: &mut Parents) -> io::Result<Named> {
        let Ok(file) = parents.open(path, split) else { return Named::look(path) };
        let m = file.metadata()?;
        Ok(if m.is_dir() { Named::Folder } else { Named::File { size: m.len(), is_link: false, file: Some(file) } })
    }

    /// One look at the path, not one for each question (a link is followed
    /// to see what it leads to).
    fn look(path: &Path) -> io::Result<Named> {
        let m = std::fs::symlink_metadata(path)?;
        let (m, is_link) = if m.is_symlink() { (std::fs::metadata(path)?, true) } else { (m, false) };
        Ok(if m.is_dir() { Named::Folder } else { Named::File { size: m.len(), is_link, file: None } })
    }
}

/// The folder of the last file named, kept for the files named after it
/// in the same folder (a shell glob names a run of them): its canonical
/// path, resolved once, so that naming 2,000 files costs no `readlink` for
/// each part of each path; and from the second file on, the folder open,
/// to open each file by its name in it: the kernel then walks one part of
/// the path rather than all.
#[derive(Default)]
struct Parents(Option<Parent>);

struct Parent {
    path: PathBuf,
    /// The key of a file in it, hashed up to its name: the folder's
    /// canonical path, resolved once, and a `/`.
    key_prefix: Option<KeyPrefix>,
    /// Files opened in it so far.
    opened: usize,
    /// Opened for the second file; an error when it cannot be (the files
    /// are then opened by their paths).
    dir: Option<io::Result<File>>,
}

impl Parents {
    /// The key of a named file: that of its canonical path, its folder's
    /// joined with its name, unless the path is a link itself (then
    /// resolved whole). The folder's part is hashed once (no joined path
    /// is built).
    fn key(&mut self, path: &Path, split: Split<'_>, is_link: bool) -> PathKey {
        let resolve = |p: &Path| std::fs::canonicalize(p).unwrap_or_else(|_| p.to_path_buf());
        let ((Some(parent), Some(name)), false) = (split, is_link) else { return PathKey::of(&resolve(path), None) };
        let parent = if parent.as_os_str().is_empty() { Path::new(".") } else { parent };
        self.of(parent).key_prefix.get_or_insert_with(|| KeyPrefix::of(&resolve(parent))).with(name.as_encoded_bytes())
    }

    /// Opens a named file for reading unless its path's last part is a
    /// symbolic link.
    fn open(&mut self, path: &Path, split: Split<'_>) -> io::Result<File> {
        let Some((folder, name)) = folder_and_name(path, split) else { return no_follow::open(path) };
        let parent = self.of(folder);
        parent.opened += 1;
        if parent.opened == 1 {
            return no_follow::open(path);
        }
        match parent.dir.get_or_insert_with(|| no_follow::open_folder(folder)) {
            Ok(dir) => no_follow::open_in(dir, name),
            Err(_) => no_follow::open(path),
        }
    }

    /// The entry of `folder`, which replaces the last one if another.
    fn of(&mut self, folder: &Path) -> &mut Parent {
        // The bytes compared, not the components (`Path`'s `==` parses
        // both): a folder spelt otherwise is opened once more, no more.
        if self.0.as_ref().is_some_and(|last| last.path.as_os_str() != folder.as_os_str()) {
            self.0 = None;
        }
        self.0.get_or_insert_with(|| Parent { path: folder.to_path_buf(), key_prefix: None, opened: 0, dir: None })
    }
}

/// A path's folder (`.` for a bare name) and last part, when the path ends
/// with that part: `Path::file_name` looks past a trailing `/` or `/.`,
/// which the kernel does not (`game.sgf/` is no file).
fn folder_and_name<'p>(path: &Path, (folder, name): Split<'p>) -> Option<(&'p Path, &'p std::ffi::OsStr)> {
    let name = name?;
    if !path.as_os_str().as_encoded_bytes().ends_with(name.as_encoded_bytes()) {
        return None;
    }
    let folder = folder?;
    Some((if folder.as_os_str().is_empty() { Path::new(".") } else { folder }, name))
}

/// Opening without following a link at the end of the path. Elsewhere
/// than on Unix nothing is opened so (links cannot be told apart without a
/// look): named paths are looked at instead.
#[cfg(unix)]
mod no_follow {
    use std::ffi::OsStr;
    use std::fs::File;
    use std::io;
    use std::os::fd::{AsRawFd, FromRawFd};
    use std::os::unix::{ffi::OsStrExt, fs::OpenOptionsExt};
    use std::path::Path;

    pub fn open(path: &Path) -> io::Result<File> {
        File::options().read(true).custom_flags(libc::O_NOFOLLOW).open(path)
    }

    pub fn open_folder(path: &Path) -> io::Result<File> {
        File::options().read(true).custom_flags(libc::O_DIRECTORY).open(path)
    }

    /// Opens the file `name` in the open folder `dir` (`openat`).
    pub fn open_in(dir: &File, name: &OsStr) -> io::Result<File> {
        // A name that fits is made a C string on the stack, not in a new
        // allocation (as `std::fs` does for its paths).
        let mut buffer = [0u8; 256];
        let heap;
        let name = match name.as_bytes() {
            bytes if bytes.len() < buffer.len() => {
                buffer[..bytes.len()].copy_from_slice(bytes);
                std::ffi::CStr::from_bytes_with_nul(&buffer[..=bytes.len()]).map_err(|_| io::Error::from(io::ErrorKind::InvalidInput))?
            }
            bytes => {
                heap = std::ffi::CString::new(bytes)?;
                heap.as_c_str()
            }
        };
        // SAFETY: `dir` is an open descriptor and `name` ends with a NUL.
        let fd = unsafe { libc::openat(dir.as_raw_fd(), name.as_ptr(), libc::O_RDONLY | libc::O_CLOEXEC | libc::O_NOFOLLOW) };
        if fd < 0 {
            return Err(io::Error::last_os_error());
        }
        // SAFETY: the descriptor is new, and the file its only owner.
        Ok(unsafe { File::from_raw_fd(fd) })
    }
}

#[cfg(not(unix))]
mod no_follow {
    use std::ffi::OsStr;
    use std::fs::File;
    use std::io;
    use std::path::Path;

    pub fn open(_: &Path) -> io::Result<File> {
        Err(io::ErrorKind::Unsupported.into())
    }

    pub fn open_folder(path: &Path) -> io::Result<File> {
        open(path)
    }

    pub fn open_in(_: &File, _: &OsStr) -> io::Result<File> {
        Err(io::ErrorKind::Unsupported.into())
    }
}

/// A 128-bit hash of a canonical path, for [`Seen`].
#[derive(Clone, Copy)]
struct PathKey(u128);

impl PathKey {
    /// The key of `path`, or of `path.join(relative)` without building it.
    fn of(path: &Path, relative: Option<&Path>) -> PathKey {
        match relative {
            Some(relative) => KeyPrefix::of(path).with(relative.as_os_str().as_encoded_bytes()),
            None => KeyPrefix::start(path.as_os_str().as_encoded_bytes()).with(b""),
        }
    }
}

/// The two hashes of a [`PathKey`] fed with the start of a path: a folder's
/// files' keys go on from it. The bytes are hashed, not the components
/// (`Path`'s own hash parses them): canonical paths are already in one
/// form. A hasher fed in parts gives the hash of the parts put together.
#[derive(Clone)]
struct KeyPrefix([std::hash::DefaultHasher; 2]);

impl KeyPrefix {
    /// The hashes fed with `bytes`.
    fn start(bytes: &[u8]) -> KeyPrefix {
        use std::hash::{DefaultHasher, Hasher};
        KeyPrefix([0, 1].map(|salt| {
            let mut h = DefaultHasher::new();
            h.write_u64(salt);
            h.write(bytes);
            h
        }))
    }

    /// The hashes fed with the folder `path` and the `/` that joins a name
    /// to it.
    fn of(path: &Path) -> KeyPrefix {
        use std::hash::Hasher;
        let path = path.as_os_str().as_encoded_bytes();
        let mut prefix = KeyPrefix::start(path);
        if !path.ends_with(b"/") {
            prefix.0.iter_mut().for_each(|h| h.write(b"/"));
        }
        prefix
    }

    /// The key of the path that goes on with `rest`.
    fn with(&self, rest: &[u8]) -> PathKey {
        use std::hash::Hasher;
        let [mut h0, mut h1] = self.0.clone();
        h0.write(rest);
        h1.write(rest);
        PathKey(u128::from(h0.finish()) << 64 | u128::from(h1.finish()))
    }
}

/// The files a walk has taken, by [`PathKey`] (about 20 bytes a file).
#[derive(Default)]
struct Seen(std::collections::HashSet<u128, KeysAreHashes>);

impl Seen {
    /// Whether this is the first time the walk meets the file.
    fn first_time(&mut self, key: PathKey) -> bool {
        self.0.insert(key.0)
    }
}

fn is_hidden(entry: &walkdir::DirEntry) -> bool {
    entry.file_name().to_str().is_some_and(|name| name.starts_with('.'))
}

/// A walk error as a problem item: a symlink loop is a warning, anything
/// else an I/O error.
fn walk_problem(dir: &Path, e: &walkdir::Error) -> Found {
    let name = e.path().unwrap_or(dir).display().to_string();
    match e.loop_ancestor() {
        Some(ancestor) => Found::Problem { name, code: Code::SymlinkLoop, message: format!("symbolic link back to {}; not followed", ancestor.display()) },
        None => {
            let message = e.io_error().map_or_else(|| e.to_string(), |io| format!("cannot read: {io}"));
            Found::Problem { name, code: Code::Io, message }
        }
    }
}

/// A member path made safe to join under an output folder: no root, no `..`.
fn safe_relative(member: &str) -> PathBuf {
    Path::new(member).components().filter(|c| matches!(c, std::path::Component::Normal(_))).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_path_is_split_as_path_splits_it() {
        let paths = [
            "a/b.sgf",
            "dir/sub/game.sgf",
            "game.sgf",
            "/abs/x.sgf",
            "/x.sgf",
            "a//b",
            "a/./b",
            "./b",
            "a/",
            "a/.",
            "a/..",
            "../b",
            "a/../b",
            "a.b/c",
            "..",
            ".",
            "/",
            "",
            "a/b/",
            "x./y",
            "a/.b",
            "a/b.",
            "a/...",
        ];
        for p in paths {
            let path = Path::new(p);
            assert_eq!(parent_and_name(path), (path.parent(), path.file_name()), "{p}");
        }
    }

    #[test]
    fn shards_are_one_based_and_cover_every_file_once() {
        assert_eq!(Shard::parse("2/8"), Ok(Shard { index: 2, count: 8 }));
        for bad in ["0/8", "9/8", "1/0", "x/2", "3"] {
            assert!(Shard::parse(bad).is_err(), "{bad}");
        }
        let shards: Vec<Shard> = (1..=3).map(|i| Shard { index: i, count: 3 }).collect();
        for k in 0..30 {
            assert_eq!(shards.iter().filter(|s| s.takes(k)).count(), 1);
        }
    }

    #[test]
    fn a_walk_that_is_not_recursive_takes_the_folder_files_only() {
        let dir = std::env::temp_dir().join(format!("kifu-walk-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("sub")).unwrap();
        for file in ["b.sgf", "a.sgf", "notes.txt", "sub/c.sgf"] {
            std::fs::write(dir.join(file), "(;)").unwrap();
        }
        let names = |walk: Walk| {
            let mut names = Vec::new();
            walk.for_each(std::slice::from_ref(&dir), &mut |item| {
                names.push(item.relative.display().to_string());
                ControlFlow::Continue(())
            });
            names
        };
        assert_eq!(names(Walk::default()), ["a.sgf", "b.sgf", "sub/c.sgf"]);
        assert_eq!(names(Walk { recursive: false, ..Walk::default() }), ["a.sgf", "b.sgf"]);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_file_is_read_whole_up_to_max_bytes() {
        let dir = std::env::temp_dir().join(format!("kifu-read-file-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        for len in [0, 1, 4096, 70_000] {
            let path = dir.join(format!("{len}.sgf"));
            let data: Vec<u8> = (0..len).map(|i| (i % 251) as u8).collect();
            std::fs::write(&path, &data).unwrap();
            let size = len as u64;
            // The size asked for, known, or out of date (the file grew or shrank since).
            for known in [None, Some(size), Some(size / 2), Some(size + 10)] {
                assert_eq!(read_file(&path, known, size).unwrap().as_ref(), Some(&data), "{len} bytes, size {known:?}");
                if len > 0 {
                    assert_eq!(read_file(&path, known, size - 1).unwrap(), None, "{len} bytes, one over, size {known:?}");
                }
            }
        }
        assert!(read_file(&dir.join("absent.sgf"), None, 10).is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[cfg(unix)]
    #[test]
    fn files_named_in_one_folder_are_read_once_with_the_errors_of_a_look() {
        let dir = std::env::temp_dir().join(format!("kifu-named-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        for file in ["a.sgf", "b.sgf", "c.sgf"] {
            std::fs::write(dir.join(file), file).unwrap();
        }
        let named = ["a.sgf", "b.sgf", "a.sgf", "missing.sgf", "c.sgf/", "c.sgf"];
        let mut paths: Vec<PathBuf> = named.iter().map(|name| dir.join(name)).collect();
        std::os::unix::fs::symlink(dir.join("b.sgf"), dir.join("link.sgf")).unwrap();
        paths.insert(2, dir.join("link.sgf"));
        let mut items = Vec::new();
        Walk::default().for_each(&paths, &mut |item| {
            let name = item.name.strip_prefix(&format!("{}/", dir.display())).unwrap().to_string();
            items.push((name, item.content.read(100).map_err(|(_, message)| message.split(" (").next().unwrap().to_string())));
            ControlFlow::Continue(())
        });
        let read = |name: &str| (name.to_string(), Ok(name.as_bytes().to_vec()));
        let failed = |name: &str, why: &str| (name.to_string(), Err(why.to_string()));
        let expected =
            [read("a.sgf"), read("b.sgf"), failed("missing.sgf", "no such file or directory"), failed("c.sgf/", "cannot read: Not a directory"), read("c.sgf")];
        assert_eq!(items, expected);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_path_is_opened_in_its_folder_only_when_it_ends_with_its_name() {
        fn split(path: &str) -> Option<(&str, &str)> {
            folder_and_name(Path::new(path), parent_and_name(Path::new(path))).map(|(folder, name)| (folder.to_str().unwrap(), name.to_str().unwrap()))
        }
        assert_eq!(split("g/a.sgf"), Some(("g", "a.sgf")));
        assert_eq!(split("/g/a.sgf"), Some(("/g", "a.sgf")));
        assert_eq!(split("a.sgf"), Some((".", "a.sgf")));
        for path in ["g/a.sgf/", "g/a.sgf/.", "/", "g/..", ""] {
            assert_eq!(split(path), None, "{path}");
        }
    }

    #[test]
    fn a_path_key_in_parts_is_the_key_of_the_joined_path() {
        for (dir, relative) in [("/data/games", "kgs/a.sgf"), ("/", "a.sgf"), ("/data/", "b.sgf")] {
            let joined = Path::new(dir).join(relative);
            assert_eq!(PathKey::of(Path::new(dir), Some(Path::new(relative))).0, PathKey::of(&joined, None).0, "{dir} + {relative}");
        }
        assert_ne!(PathKey::of(Path::new("/data/a.sgf"), None).0, PathKey::of(Path::new("/data/b.sgf"), None).0);
    }

    #[test]
    fn member_paths_cannot_escape_the_output_folder() {
        assert_eq!(safe_relative("../../etc/x.sgf"), PathBuf::from("etc/x.sgf"));
        assert_eq!(safe_relative("/abs/y.sgf"), PathBuf::from("abs/y.sgf"));
    }
}
