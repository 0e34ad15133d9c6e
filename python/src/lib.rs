//! The Python module `kifu` (imported as `kifu._kifu` and re-exported by
//! `kifu/__init__.py`): thin bindings over the `kifu` library. Every
//! answer comes from the library (parse, checks, replay, arrays, score,
//! walk); this crate only turns arguments into options and results into
//! Python objects.

mod diagnostic;
mod game;
mod options;
mod stream;

use std::path::PathBuf;

use kifu::batch::{self, Content, Item};
use kifu::check::{CheckOptions, FileCheck, check_bytes};
use kifu::dedup::DuplicateIndex;
use kifu::diag::{Code, Policy};
use kifu::formats;
use kifu::report;
use kifu::score as scoring;
use kifu::sgf::{self, ParseOptions, Parsed, SourceMap};
use pyo3::exceptions::{PyOSError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyString;

use diagnostic::Diagnostic;
use game::{Collection, Game, IllegalMoveError, Node, Replay};
use options::{Input, ScoreArgs, WalkArgs};
use stream::GameStream;

/// Reads one record file into a ``Collection`` (its games and the problems
/// met reading it): SGF, or a Tygem ``.gib``, WBaduk ``.ngf`` or Pandanet
/// ``.ugf``/``.ugi`` record, as ``kifu check`` reads them. A file that is not
/// a record gives no game and says why in ``diagnostics``; OSError when it
/// cannot be read.
///
/// ``encoding`` forces a charset whatever the file declares (``"GB18030"``,
/// ``"Shift_JIS"``...); ``max_nodes``, ``max_variations`` and ``max_bytes``
/// bound what is read, as the command line's flags do.
#[pyfunction]
#[pyo3(signature = (path, *, encoding = None, max_nodes = None, max_variations = None, max_bytes = None))]
fn read(
    py: Python<'_>,
    path: PathBuf,
    encoding: Option<&str>,
    max_nodes: Option<usize>,
    max_variations: Option<usize>,
    max_bytes: Option<u64>,
) -> PyResult<Collection> {
    let options = options::parse_options(encoding, max_nodes, max_variations)?;
    let (name, parsed) = read_parsed(py, path, &options, max_bytes)?;
    Collection::new(py, parsed, Some(&name))
}

/// Reads and parses one file: OSError when it cannot be read; a file over
/// `max_bytes` is parsed as empty, with the `limit-exceeded` diagnostic.
fn read_parsed(py: Python<'_>, path: PathBuf, options: &ParseOptions, max_bytes: Option<u64>) -> PyResult<(String, Parsed)> {
    let name = path.display().to_string();
    match (Content::Path { path, size: None }).read(max_bytes.unwrap_or(batch::DEFAULT_MAX_BYTES)) {
        Ok(bytes) => Ok((name.clone(), py.detach(|| formats::read(&bytes, &name, options)))),
        Err((Code::Io, message)) => Err(PyOSError::new_err(format!("{name}: {message}"))),
        Err((code, message)) => {
            let mut parsed = sgf::parse(b"", options);
            parsed.diagnostics = FileCheck::failed(code, message).diagnostics;
            Ok((name, parsed))
        }
    }
}

/// Parses a record given as ``bytes`` (decoded as the file declares, like
/// ``read``) or ``str`` (already text) into a ``Collection``: SGF, or the
/// format ``name``'s extension or the bytes show. ``name`` becomes its
/// ``file``.
#[pyfunction]
#[pyo3(signature = (data, *, name = None, encoding = None, max_nodes = None, max_variations = None))]
fn parse(
    py: Python<'_>,
    data: &Bound<'_, PyAny>,
    name: Option<String>,
    encoding: Option<&str>,
    max_nodes: Option<usize>,
    max_variations: Option<usize>,
) -> PyResult<Collection> {
    let mut options = options::parse_options(encoding, max_nodes, max_variations)?;
    let bytes = if let Ok(text) = data.cast::<PyString>() {
        options.encoding = Some(sgf::charset::encoding_for_label("utf-8").expect("UTF-8 is a charset"));
        text.to_str()?.as_bytes().to_vec()
    } else {
        match Input::from_py(data)? {
            Input::Bytes(bytes) => bytes,
            Input::Path(_) => return Err(pyo3::exceptions::PyTypeError::new_err("parse() takes SGF as bytes or str; use read() for a path")),
        }
    };
    let parsed = py.detach(|| formats::read(&bytes, name.as_deref().unwrap_or(""), &options));
    Collection::new(py, parsed, name.as_deref())
}

/// Checks SGF files as ``kifu check`` does and returns every
/// ``Diagnostic``, in file order; each has the fields of ``kifu check
/// --format jsonl`` as attributes (``d.to_dict()`` is that JSON object).
///
/// ``path_or_bytes``: a file, a folder (walked; ``extensions`` besides
/// those of the record formats and ``hidden`` as ``--ext`` and ``--hidden``) or an archive, or the bytes of
/// one file (named ``name``, ``"-"`` as standard input is). A file that
/// cannot be read is a diagnostic too (``io-error``), never an exception.
///
/// The options are the command line's flags: ``rules``, ``ko``,
/// ``suicide``; ``score=True`` (``--score``) with ``dead_stones``, ``komi``,
/// ``handicap_bonus``, ``seki_eyes``, ``connections``, ``ties``; ``allow`` and ``deny``
/// (codes, or ``"warnings"``); ``encoding``, ``max_bytes``, ``max_nodes``,
/// ``max_variations``, ``timeout_per_file`` (seconds); ``jobs`` threads for
/// folders. No ``kifu.toml`` is read.
#[pyfunction]
#[pyo3(signature = (
    path_or_bytes, rules = None, *, ko = None, suicide = None,
    score = false, dead_stones = "auto", komi = None, handicap_bonus = None, seki_eyes = None, connections = None, ties = "draw",
    allow = Vec::new(), deny = Vec::new(),
    encoding = None, max_bytes = None, max_nodes = None, max_variations = None, timeout_per_file = None,
    extensions = Vec::new(), hidden = false, jobs = None, name = "-".to_string(),
))]
#[pyo3(
    text_signature = "(path_or_bytes, rules=None, *, ko=None, suicide=None, score=False, dead_stones='auto', komi=None, handicap_bonus=None, seki_eyes=None, connections=None, ties='draw', allow=(), deny=(), encoding=None, max_bytes=None, max_nodes=None, max_variations=None, timeout_per_file=None, extensions=(), hidden=False, jobs=None, name='-')"
)]
#[allow(clippy::too_many_arguments)]
fn check(
    py: Python<'_>,
    path_or_bytes: &Bound<'_, PyAny>,
    rules: Option<&str>,
    ko: Option<&str>,
    suicide: Option<&str>,
    score: bool,
    dead_stones: &str,
    komi: Option<f64>,
    handicap_bonus: Option<f64>,
    seki_eyes: Option<&str>,
    connections: Option<&str>,
    ties: &str,
    allow: Vec<String>,
    deny: Vec<String>,
    encoding: Option<&str>,
    max_bytes: Option<u64>,
    max_nodes: Option<usize>,
    max_variations: Option<usize>,
    timeout_per_file: Option<f64>,
    extensions: Vec<String>,
    hidden: bool,
    jobs: Option<usize>,
    name: String,
) -> PyResult<Vec<Py<Diagnostic>>> {
    let input = Input::from_py(path_or_bytes)?;
    let rules = options::rule_overrides(rules, ko, suicide)?;
    let score = match score {
        true => Some(ScoreArgs { dead_stones, komi, handicap_bonus, seki_eyes, connections, ties, variation: Vec::new() }.resolve(rules)?),
        false => None,
    };
    let policy = options::policy(allow, deny)?;
    let timeout = match timeout_per_file {
        Some(t) if !(t > 0.0 && t.is_finite()) => return Err(PyValueError::new_err("timeout_per_file must be a positive number of seconds")),
        t => t.map(std::time::Duration::from_secs_f64),
    };
    let parse = options::parse_options(encoding, max_nodes, max_variations)?;
    let fingerprints = !policy.allow.contains(&Code::DuplicateGame);
    let check_options = CheckOptions { parse, rules, score, fingerprints, timeout };
    let files = match input {
        Input::Bytes(bytes) => vec![(name, py.detach(|| check_bytes(&bytes, &check_options)))],
        Input::Path(path) => {
            let walk = WalkArgs { extensions, hidden, recursive: true, max_bytes, shard: None }.resolve()?;
            let jobs = options::jobs(jobs);
            py.detach(|| check_paths(vec![path], &walk, &check_options, jobs))
        }
    };
    let mut out = Vec::new();
    let mut duplicates = DuplicateIndex::default();
    for (name, mut check) in files {
        finish_check(&mut check, &name, &mut duplicates, &policy);
        for d in check.diagnostics {
            out.push(Py::new(py, Diagnostic::new(d, Some(&name)))?);
        }
    }
    Ok(out)
}

/// The cross-file steps of a check, as `kifu check` takes them: duplicates
/// against the files before, then the policy.
fn finish_check(check: &mut FileCheck, name: &str, duplicates: &mut DuplicateIndex, policy: &Policy) {
    check.mark_duplicates(name, duplicates);
    policy.apply(&mut check.diagnostics);
}

/// Checks every file of a walk on `jobs` threads, in input order.
fn check_paths(paths: Vec<PathBuf>, walk: &batch::Walk, options: &CheckOptions, jobs: usize) -> Vec<(String, FileCheck)> {
    let mut files = Vec::new();
    let produce = |f: &mut dyn FnMut(Item) -> std::ops::ControlFlow<()>| {
        walk.for_each(&paths, f);
    };
    let work = |item: Item| {
        let checked = match item.content.read(walk.max_bytes) {
            Err((code, message)) => FileCheck::failed(code, message),
            Ok(bytes) => std::panic::catch_unwind(|| check_bytes(&bytes, options))
                .unwrap_or_else(|_| FileCheck::failed(Code::InternalError, "kifu failed on this file (a bug: please report it with the file)".into())),
        };
        (item.name, checked)
    };
    let deliver = |file| {
        files.push(file);
        Ok(())
    };
    batch::ordered_map(jobs, batch::FileTable::Shared, produce, work, deliver).expect("collecting results cannot fail");
    files
}

/// Rescores finished games as ``kifu score`` does and returns the fields of
/// ``kifu score --format json``: for a ``Game``, one dict; for a path, a
/// list with one dict per game of the file (None for a game with no board
/// to score).
///
/// ``dead_stones``: ``"auto"`` (the record's markup, else estimated),
/// ``"markup"``, ``"estimate"``, ``"none"``, or points (``"dd,pq"``).
/// ``rules``, ``ko``, ``suicide``, ``komi``, ``handicap_bonus``,
/// ``seki_eyes`` (``"none"``, ``"count"``, ``"kgs"``), ``connections``
/// (``"every"``, ``"kgs"``, ``"none"``), ``ties``
/// (``"draw"``, ``"white"``) and ``variation`` (child indices) as the flags.
/// ValueError for a ``Game`` with no board to score.
#[pyfunction]
#[pyo3(signature = (
    path_or_game, rules = None, dead_stones = "auto", *, ko = None, suicide = None,
    komi = None, handicap_bonus = None, seki_eyes = None, connections = None, ties = "draw", variation = Vec::new(), encoding = None,
))]
#[pyo3(
    text_signature = "(path_or_game, rules=None, dead_stones='auto', *, ko=None, suicide=None, komi=None, handicap_bonus=None, seki_eyes=None, connections=None, ties='draw', variation=(), encoding=None)"
)]
#[allow(clippy::too_many_arguments)]
fn score<'py>(
    py: Python<'py>,
    path_or_game: &Bound<'py, PyAny>,
    rules: Option<&str>,
    dead_stones: &str,
    ko: Option<&str>,
    suicide: Option<&str>,
    komi: Option<f64>,
    handicap_bonus: Option<f64>,
    seki_eyes: Option<&str>,
    connections: Option<&str>,
    ties: &str,
    variation: Vec<u32>,
    encoding: Option<&str>,
) -> PyResult<Bound<'py, PyAny>> {
    let overrides = options::rule_overrides(rules, ko, suicide)?;
    let options = ScoreArgs { dead_stones, komi, handicap_bonus, seki_eyes, connections, ties, variation }.resolve(overrides)?;
    if let Ok(game) = path_or_game.cast::<Game>() {
        let game = game.get();
        let doc = py.detach(|| score_doc(game.tree(), game.source(), game.file().unwrap_or("-"), game.index(), &options));
        return match doc {
            Some(doc) => options::json_to_py(py, &doc),
            None => Err(PyValueError::new_err("no board to score (SZ is unusable)")),
        };
    }
    let path: PathBuf = path_or_game.extract().map_err(|_| pyo3::exceptions::PyTypeError::new_err("score() takes a Game or a path"))?;
    let (name, parsed) = read_parsed(py, path, &options::parse_options(encoding, None, None)?, None)?;
    let docs = py
        .detach(|| parsed.collection.games.iter().enumerate().map(|(index, game)| score_doc(game, &parsed.source, &name, index, &options)).collect::<Vec<_>>());
    let list = pyo3::types::PyList::empty(py);
    for doc in docs {
        match doc {
            Some(doc) => list.append(options::json_to_py(py, &doc)?)?,
            None => list.append(py.None())?,
        }
    }
    Ok(list.into_any())
}

/// What `kifu score --format json` prints for one game (its notes
/// located in `source`); `None` when it cannot be scored (no board, not
/// Go, or no such variation).
fn score_doc(game: &sgf::GameTree, source: &SourceMap, file: &str, index: usize, options: &scoring::ScoreOptions) -> Option<serde_json::Value> {
    let mut score = scoring::score_game(game, options).ok()?;
    source.locate_all(&mut score.diagnostics);
    Some(report::score::json(&report::score::Scored { file, game: index, variation: &options.variation, score: &score }))
}

/// Iterates over ``(path, Game)`` for every game of every file under
/// ``paths`` (a path or an iterable of paths: files, folders, zip and tar
/// archives read in place), in input order, with files read and parsed on
/// ``jobs`` Rust threads (default: every core) while the GIL is released.
/// Memory stays flat however many files there are.
///
/// ``path`` names the game's file (``archive.zip!member.sgf`` inside
/// archives). ``recursive=False`` takes only the files directly inside a
/// folder. ``extensions`` (besides the record formats'), ``hidden``, ``encoding``, ``max_bytes``,
/// ``max_nodes``, ``max_variations`` and ``shard`` (``"I/N"``) are the
/// command line's flags. A bad file never raises: see ``GameStream``.
#[pyfunction]
#[pyo3(signature = (
    paths, jobs = None, recursive = true, *, extensions = Vec::new(), hidden = false,
    encoding = None, max_bytes = None, max_nodes = None, max_variations = None, shard = None,
))]
#[pyo3(
    text_signature = "(paths, jobs=None, recursive=True, *, extensions=(), hidden=False, encoding=None, max_bytes=None, max_nodes=None, max_variations=None, shard=None)"
)]
#[allow(clippy::too_many_arguments)]
fn games(
    paths: &Bound<'_, PyAny>,
    jobs: Option<usize>,
    recursive: bool,
    extensions: Vec<String>,
    hidden: bool,
    encoding: Option<&str>,
    max_bytes: Option<u64>,
    max_nodes: Option<usize>,
    max_variations: Option<usize>,
    shard: Option<String>,
) -> PyResult<GameStream> {
    let paths = options::paths(paths)?;
    let walk = WalkArgs { extensions, hidden, recursive, max_bytes, shard }.resolve()?;
    let parse = options::parse_options(encoding, max_nodes, max_variations)?;
    Ok(stream::start(paths, walk, parse, options::jobs(jobs)))
}

/// kifu: fast, trustworthy Go game records (SGF).
///
/// read(path) and parse(data) give a Collection of Game; games(paths)
/// iterates over the games of files, folders and archives, parsed on Rust
/// threads; check() reports every problem as Diagnostic objects, as ``kifu
/// check`` does; score() rescores finished games; Game.replay() gives NumPy
/// boards for training pipelines.
#[pymodule]
fn _kifu(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add_function(wrap_pyfunction!(read, m)?)?;
    m.add_function(wrap_pyfunction!(parse, m)?)?;
    m.add_function(wrap_pyfunction!(check, m)?)?;
    m.add_function(wrap_pyfunction!(score, m)?)?;
    m.add_function(wrap_pyfunction!(games, m)?)?;
    m.add_class::<Collection>()?;
    m.add_class::<Game>()?;
    m.add_class::<Node>()?;
    m.add_class::<Replay>()?;
    m.add_class::<Diagnostic>()?;
    m.add_class::<GameStream>()?;
    m.add("IllegalMoveError", m.py().get_type::<IllegalMoveError>())?;
    Ok(())
}
