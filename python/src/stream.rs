//! `kifu.games()`: the games of files, folders and archives, read and
//! parsed on Rust threads (the library's walk and ordered map, as `kifu
//! check` runs them) while Python takes them one at a time, in input order.
//!
//! A bounded channel sits between the threads and the iterator, so a
//! consumer slower than the parsing holds the walk back: memory stays flat
//! however many files there are. Dropping the iterator stops the threads.

use std::collections::VecDeque;
use std::io;
use std::ops::ControlFlow;
use std::path::PathBuf;
use std::sync::Mutex;
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, TryRecvError};
use std::time::Duration;

use kifu::batch::{self, Item, Walk};
use kifu::check::FileCheck;
use kifu::diag::{self, Code};
use kifu::formats;
use kifu::sgf::ParseOptions;
use pyo3::prelude::*;

use crate::diagnostic::Diagnostic;
use crate::game::{Game, GameData, split};

/// Files parsed ahead of the iterator, at most (besides the map's window).
const AHEAD: usize = 32;

/// What reading one file gave.
enum Delivered {
    Games(Vec<GameData>),
    /// A file with no game: unreadable, too large, not SGF, empty.
    Failed(String, Vec<diag::Diagnostic>),
}

/// Starts reading `paths` on `jobs` threads.
pub fn start(paths: Vec<PathBuf>, walk: Walk, parse: ParseOptions, jobs: usize) -> GameStream {
    let (tx, rx) = mpsc::sync_channel(AHEAD);
    std::thread::spawn(move || {
        // Folders with no record in them are not said here (the CLI warns).
        let produce = |f: &mut dyn FnMut(Item) -> ControlFlow<()>| {
            walk.for_each(&paths, f);
        };
        let work = |item: Item| read(item, walk.max_bytes, &parse);
        let deliver = |d: Delivered| tx.send(d).map_err(|_| io::Error::other("the iterator was dropped"));
        // The only error is the iterator gone: nothing left to do.
        let _ = batch::ordered_map(jobs, batch::FileTable::Shared, produce, work, deliver);
    });
    GameStream { rx: Mutex::new(rx), pending: VecDeque::new(), failures: Vec::new(), files: 0, games: 0 }
}

/// Reads and parses one item (on a worker thread).
fn read(item: Item, max_bytes: u64, parse: &ParseOptions) -> Delivered {
    let Item { name, content, .. } = item;
    let bytes = match content.read(max_bytes) {
        Ok(bytes) => bytes,
        Err((code, message)) => return Delivered::Failed(name, FileCheck::failed(code, message).diagnostics),
    };
    match std::panic::catch_unwind(|| formats::read(&bytes, &name, parse)) {
        Ok(parsed) if parsed.collection.games.is_empty() => Delivered::Failed(name, parsed.diagnostics),
        Ok(parsed) => Delivered::Games(split(parsed, Some(&name)).0),
        Err(_) => {
            let message = "kifu failed on this file (a bug: please report it with the file)".to_string();
            Delivered::Failed(name, FileCheck::failed(Code::InternalError, message).diagnostics)
        }
    }
}

/// The iterator ``kifu.games()`` returns: ``(path, Game)`` for every game of
/// every file, in input order.
///
/// A file that gives no game (unreadable, too large, not SGF, empty) stops
/// nothing: its diagnostics are added to ``failures``, and its errors logged
/// as warnings on the ``"kifu"`` logger. ``files`` and ``games`` count what was
/// read so far. Problems inside a game that was read are in
/// ``game.diagnostics``.
#[pyclass(module = "kifu")]
pub struct GameStream {
    rx: Mutex<Receiver<Delivered>>,
    /// Games of the last file read, not yet handed out.
    pending: VecDeque<GameData>,
    failures: Vec<Py<Diagnostic>>,
    files: usize,
    games: usize,
}

#[pymethods]
impl GameStream {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__(&mut self, py: Python<'_>) -> PyResult<Option<(String, Game)>> {
        loop {
            if let Some(game) = self.pending.pop_front() {
                self.games += 1;
                let name = game.file.clone().unwrap_or_default();
                return Ok(Some((name, Game::from(game))));
            }
            let rx = &self.rx;
            let receiver = || rx.lock().unwrap_or_else(|e| e.into_inner());
            // What is ready is taken at once; otherwise wait without the
            // GIL, waking now and then for Ctrl-C.
            let ready = receiver().try_recv();
            let next = match ready {
                Ok(delivered) => Ok(delivered),
                Err(TryRecvError::Disconnected) => Err(RecvTimeoutError::Disconnected),
                Err(TryRecvError::Empty) => py.detach(|| receiver().recv_timeout(Duration::from_millis(100))),
            };
            match next {
                Ok(Delivered::Games(games)) => {
                    self.files += 1;
                    self.pending.extend(games);
                }
                Ok(Delivered::Failed(name, diagnostics)) => {
                    self.files += 1;
                    let logger = py.import("logging")?.call_method1("getLogger", ("kifu",))?;
                    for d in diagnostics {
                        let d = Diagnostic::new(d, Some(&name));
                        if d.inner().severity == diag::Severity::Error {
                            logger.call_method1("warning", ("%s", d.__str__()))?;
                        }
                        self.failures.push(Py::new(py, d)?);
                    }
                }
                Err(RecvTimeoutError::Timeout) => py.check_signals()?,
                Err(RecvTimeoutError::Disconnected) => return Ok(None),
            }
        }
    }

    /// The diagnostics of the files that gave no game, so far.
    #[getter]
    fn failures(&self, py: Python<'_>) -> Vec<Py<Diagnostic>> {
        self.failures.iter().map(|d| d.clone_ref(py)).collect()
    }

    /// Files (and archive members) read so far.
    #[getter]
    fn files(&self) -> usize {
        self.files
    }

    /// Games handed out so far.
    #[getter]
    fn games(&self) -> usize {
        self.games
    }

    fn __repr__(&self) -> String {
        format!("<kifu.GameStream {} files, {} games, {} failures so far>", self.files, self.games, self.failures.len())
    }
}
