//! `kifu.Collection`, `kifu.Game`, `kifu.Node` and `kifu.Replay`: a
//! parsed file, its games, their trees and their replays into NumPy.

use std::sync::Arc;

use kifu::arrays::{self, LineArrays};
use kifu::diag;
use kifu::replay::RuleOverrides;
use kifu::sgf::props::{self, Move};
use kifu::sgf::{self, GameTree, NodeId, Parsed, SourceMap};
use numpy::ndarray::{Array1, Array2, Array3};
use numpy::{PyArray1, PyArray2, PyArray3, PyUntypedArrayMethods};
use pyo3::exceptions::{PyIndexError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

use crate::diagnostic::Diagnostic;

pyo3::create_exception!(
    kifu,
    IllegalMoveError,
    pyo3::exceptions::PyValueError,
    "A move the rules forbid (or that is not a move) stopped a replay. `diagnostic` says which and why; `replay` holds the moves before it."
);

/// One game of a file, with what the Python objects need: its file's
/// text (to locate diagnostics) and the reading problems that concern it.
pub struct GameData {
    pub tree: GameTree,
    pub source: Arc<SourceMap>,
    pub file: Option<String>,
    pub index: usize,
    /// Decoding and syntax problems in this game's part of the file,
    /// located; what precedes the first game belongs to the first.
    pub diagnostics: Vec<diag::Diagnostic>,
}

/// Splits a parsed file into its games; returns them with the file's
/// diagnostics (all of them, located).
pub fn split(parsed: Parsed, file: Option<&str>) -> (Vec<GameData>, Vec<diag::Diagnostic>) {
    let source = Arc::new(parsed.source);
    let starts: Vec<u32> = parsed.collection.games.iter().map(GameTree::offset).collect();
    let mut per_game: Vec<Vec<diag::Diagnostic>> = vec![Vec::new(); starts.len()];
    if !starts.is_empty() {
        for d in &parsed.diagnostics {
            let index = starts.partition_point(|&start| start <= d.offset).saturating_sub(1);
            per_game[index].push(d.clone());
        }
    }
    let games = parsed
        .collection
        .games
        .into_iter()
        .zip(per_game)
        .enumerate()
        .map(|(index, (tree, diagnostics))| GameData { tree, source: source.clone(), file: file.map(str::to_string), index, diagnostics })
        .collect();
    (games, parsed.diagnostics)
}

fn diagnostics<'py>(py: Python<'py>, list: &[diag::Diagnostic], file: Option<&str>) -> PyResult<Vec<Py<Diagnostic>>> {
    list.iter().map(|d| Py::new(py, Diagnostic::new(d.clone(), file))).collect()
}

/// The games of one SGF file and the problems met reading it.
///
/// ``games`` is the list of ``Game`` in file order; ``diagnostics`` the
/// decoding and syntax diagnostics (a file that is not SGF has no game and
/// says why here). ``len()``, iteration and indexing go over the games.
#[pyclass(module = "kifu", frozen)]
pub struct Collection {
    #[pyo3(get)]
    games: Py<PyList>,
    #[pyo3(get)]
    diagnostics: Py<PyList>,
    /// The path read, or the ``name`` given to ``parse``; None otherwise.
    #[pyo3(get)]
    file: Option<String>,
    /// The charset the file was decoded with (``"UTF-8"``, ``"GBK"``, ...).
    #[pyo3(get)]
    encoding: &'static str,
}

impl Collection {
    pub fn new(py: Python<'_>, parsed: Parsed, file: Option<&str>) -> PyResult<Collection> {
        let encoding = parsed.encoding.name();
        let (games, all) = split(parsed, file);
        let games: Vec<Py<Game>> = games.into_iter().map(|g| Py::new(py, Game::from(g))).collect::<PyResult<_>>()?;
        Ok(Collection {
            games: PyList::new(py, games)?.unbind(),
            diagnostics: PyList::new(py, diagnostics(py, &all, file)?)?.unbind(),
            file: file.map(str::to_string),
            encoding,
        })
    }
}

#[pymethods]
impl Collection {
    fn __len__(&self, py: Python<'_>) -> usize {
        self.games.bind(py).len()
    }

    fn __getitem__<'py>(&self, py: Python<'py>, index: isize) -> PyResult<Bound<'py, PyAny>> {
        self.games.bind(py).as_any().get_item(index)
    }

    fn __iter__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        Ok(self.games.bind(py).as_any().try_iter()?.into_any())
    }

    fn __repr__(&self, py: Python<'_>) -> String {
        let file = self.file.as_deref().map(|f| format!("{f:?} ")).unwrap_or_default();
        format!("<kifu.Collection {file}{} games, {} diagnostics>", self.games.bind(py).len(), self.diagnostics.bind(py).len())
    }
}

/// One game: its game info, its moves, its tree, and ``replay()`` into
/// NumPy boards.
///
/// ``root`` maps each root property to its first value (``game.root["PB"]``);
/// ``values(id)`` gives all of them. ``size`` is ``(width, height)``,
/// ``komi`` the komi ``score`` reads, ``handicap`` the ``HA`` value,
/// ``rules`` the ruleset replayed under (a preset name), ``result`` the
/// ``RE`` value in canonical form, ``players`` the names and ranks.
/// ``moves()`` lists the main line (or a variation), ``root_node`` opens the
/// tree, ``variations()`` lists every line.
#[pyclass(module = "kifu", frozen)]
pub struct Game {
    data: Arc<GameData>,
}

impl From<GameData> for Game {
    fn from(data: GameData) -> Game {
        Game { data: Arc::new(data) }
    }
}

impl Game {
    pub fn tree(&self) -> &GameTree {
        &self.data.tree
    }

    pub fn file(&self) -> Option<&str> {
        self.data.file.as_deref()
    }

    pub fn index(&self) -> usize {
        self.data.index
    }

    pub fn source(&self) -> &SourceMap {
        &self.data.source
    }

    fn root(&self) -> sgf::Node<'_> {
        self.data.tree.root()
    }

    fn line(&self, variation: &[u32]) -> PyResult<Vec<sgf::Node<'_>>> {
        self.data.tree.line(variation).ok_or_else(|| no_variation(variation))
    }

    /// A located diagnostic of this game, as a Python object.
    fn located(&self, py: Python<'_>, mut d: diag::Diagnostic) -> PyResult<Py<Diagnostic>> {
        self.data.source.locate(&mut d);
        Py::new(py, Diagnostic::new(d.in_game(self.data.index), self.file()))
    }

    fn labels(&self) -> arrays::Labels {
        arrays::labels(&self.data.tree, &RuleOverrides::default())
    }
}

fn no_variation(variation: &[u32]) -> PyErr {
    PyIndexError::new_err(format!("no variation {variation:?} in this game"))
}

/// `(colour, (x, y))`, or `(colour, None)` for a pass.
type MoveTuple = (&'static str, Option<(u8, u8)>);

/// The moves of `node` (`B`/`W` with a value), read on a board of `size`.
fn node_moves(node: sgf::Node<'_>, size: props::BoardSize, source: &SourceMap, out: &mut Vec<MoveTuple>) -> PyResult<()> {
    for prop in node.properties() {
        let color = match prop.id() {
            "B" => "B",
            "W" => "W",
            _ => continue,
        };
        let Some(value) = prop.first() else { continue };
        match props::parse_move(value, size) {
            Ok(Move::Pass) => out.push((color, None)),
            Ok(Move::Play(p)) => out.push((color, Some((p.x, p.y)))),
            Err(e) => {
                let (line, column) = source.line_column(prop.offset());
                return Err(PyValueError::new_err(format!("{line}:{column}: {color}[{value}]: {e}")));
            }
        }
    }
    Ok(())
}

#[pymethods]
impl Game {
    /// The file the game was read from (None for ``parse`` without a name).
    #[getter(file)]
    fn file_name(&self) -> Option<&str> {
        self.file()
    }

    /// The 0-based position of the game in its file.
    #[getter(index)]
    fn index_in_file(&self) -> usize {
        self.data.index
    }

    /// Each root property's first value, by identifier (``"PB"``, ``"KM"``...).
    #[getter(root)]
    fn root_values<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let dict = PyDict::new(py);
        for prop in self.root().properties() {
            if !dict.contains(prop.id())? {
                dict.set_item(prop.id(), prop.first().unwrap_or_default())?;
            }
        }
        Ok(dict)
    }

    /// Every value of the root property ``id``, in order (``[]`` when absent).
    fn values(&self, id: &str) -> Vec<&str> {
        self.root().properties().filter(|p| p.id() == id).flat_map(|p| p.values().map(|v| v.text())).collect()
    }

    /// ``(width, height)`` from ``SZ`` (19x19 when absent). ValueError when
    /// ``SZ`` cannot be read.
    #[getter]
    fn size(&self) -> PyResult<(u8, u8)> {
        let size = props::board_size(self.root()).map_err(|e| PyValueError::new_err(e.to_string()))?;
        Ok((size.width, size.height))
    }

    /// The komi in points, as ``kifu score`` reads ``KM``: Fox's x100 and
    /// stone counts scaled, Fox's ``KM[0]`` of even games read as the 6.5
    /// played. None when ``KM`` is absent or unreadable (``score`` then
    /// counts 0 and says so).
    #[getter]
    fn komi(&self) -> Option<f64> {
        self.labels().komi
    }

    /// The ``HA`` value, or None.
    #[getter]
    fn handicap(&self) -> Option<i64> {
        self.labels().handicap
    }

    /// The ruleset the game is replayed and scored under: the preset
    /// ``RU`` names (``"japanese"``, ``"chinese"``, ``"aga"``,
    /// ``"new-zealand"``, ``"tromp-taylor"``, ``"korean"``, ``"ing"``), and
    /// ``"japanese"`` when ``RU`` is absent or unknown.
    #[getter]
    fn rules(&self) -> &'static str {
        self.labels().rules
    }

    /// ``RE`` in canonical form: ``"B+2.5"``, ``"W+R"``, ``"B+T"``,
    /// ``"B+F"``, ``"0"`` (a draw), ``"Void"``, ``"?"``; None when absent,
    /// empty or unreadable. Margins are in points (Fox's stones doubled).
    #[getter]
    fn result(&self) -> Option<String> {
        self.labels().result
    }

    /// ``{"black": ..., "white": ..., "black_rank": ..., "white_rank": ...}``
    /// from ``PB``, ``PW``, ``BR``, ``WR`` (None when absent).
    #[getter]
    fn players<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let root = self.root();
        let dict = PyDict::new(py);
        dict.set_item("black", props::player_black(root))?;
        dict.set_item("white", props::player_white(root))?;
        dict.set_item("black_rank", props::rank_black(root))?;
        dict.set_item("white_rank", props::rank_white(root))?;
        Ok(dict)
    }

    /// The decoding and syntax problems met in this game's part of the file
    /// (``kifu.check`` runs every check).
    #[getter]
    fn diagnostics(&self, py: Python<'_>) -> PyResult<Vec<Py<Diagnostic>>> {
        diagnostics(py, &self.data.diagnostics, self.file())
    }

    /// The moves of the main line (or of ``variation``, a list of child
    /// indices at each branch point) as ``(colour, (x, y))``: colour ``"B"``
    /// or ``"W"``, x the column from the left and y the row from the top,
    /// 0-based (the SGF letter order); ``(colour, None)`` for a pass.
    /// ValueError for a value that is not a move; IndexError for a
    /// variation the game does not have.
    #[pyo3(signature = (variation = Vec::new()), text_signature = "(self, variation=())")]
    fn moves(&self, variation: Vec<u32>) -> PyResult<Vec<MoveTuple>> {
        let size = props::board_size(self.root()).unwrap_or_default();
        let mut out = Vec::new();
        for node in self.line(&variation)? {
            node_moves(node, size, &self.data.source, &mut out)?;
        }
        Ok(out)
    }

    /// Every line of the game, as the ``variation`` paths ``moves()`` and
    /// ``replay()`` take, in tree order; ``[]`` (the main line) first.
    fn variations(&self) -> Vec<Vec<u32>> {
        let mut out = Vec::new();
        let mut stack = vec![(self.root(), Vec::new())];
        while let Some((node, path)) = stack.pop() {
            let children: Vec<_> = node.children().collect();
            match children.len() {
                0 => {
                    let mut path: Vec<u32> = path;
                    while path.last() == Some(&0) {
                        path.pop();
                    }
                    out.push(path);
                }
                1 => stack.push((children[0], path)),
                _ => {
                    for (i, child) in children.into_iter().enumerate().rev() {
                        let mut path = path.clone();
                        path.push(i as u32);
                        stack.push((child, path));
                    }
                }
            }
        }
        out
    }

    /// The root of the game tree (``node.children`` for the variations).
    #[getter]
    fn root_node(&self) -> Node {
        Node { game: self.data.clone(), id: NodeId(0) }
    }

    /// Replays the main line (or ``variation``) into NumPy arrays under the
    /// game's rules (or ``rules``, ``ko``, ``suicide``, as ``kifu check``
    /// takes them), setup and handicap applied. See ``Replay``.
    ///
    /// A move the rules forbid (occupied point, ko, superko, forbidden
    /// suicide, off the board, a double move) or that is not a move stops
    /// the replay: ``strict=True`` raises ``IllegalMoveError`` (its
    /// ``diagnostic`` says why, its ``replay`` holds the moves before);
    /// ``strict=False`` returns that partial replay, with the diagnostic
    /// as ``replay.stopped``. ValueError when the board size is unusable.
    #[pyo3(
        signature = (variation = Vec::new(), *, strict = true, rules = None, ko = None, suicide = None),
        text_signature = "(self, variation=(), *, strict=True, rules=None, ko=None, suicide=None)"
    )]
    fn replay(&self, py: Python<'_>, variation: Vec<u32>, strict: bool, rules: Option<&str>, ko: Option<&str>, suicide: Option<&str>) -> PyResult<Replay> {
        let overrides = crate::options::rule_overrides(rules, ko, suicide)?;
        let tree = &self.data.tree;
        let mut arrays = py.detach(|| arrays::replay_line(tree, &variation, &overrides)).map_err(|e| match e {
            arrays::NoReplay::NoSuchLine => no_variation(&variation),
            arrays::NoReplay::NoBoard => PyValueError::new_err("no board to replay on: SZ is unusable"),
        })?;
        let stopped = arrays.stopped.take().map(|d| self.located(py, d)).transpose()?;
        let replay = Replay::new(py, arrays, stopped)?;
        match (&replay.stopped, strict) {
            (Some(d), true) => {
                let err = IllegalMoveError::new_err(d.get().__str__());
                let value = err.value(py);
                value.setattr("diagnostic", d.clone_ref(py))?;
                value.setattr("replay", Py::new(py, replay)?)?;
                Err(err)
            }
            _ => Ok(replay),
        }
    }

    /// The game as SGF text (UTF-8, canonical form).
    fn to_sgf(&self) -> String {
        let mut out = String::new();
        sgf::write_game(&self.data.tree, &mut out);
        out
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        let players = self.players(py)?;
        let name = |key: &str| -> PyResult<String> { Ok(players.get_item(key)?.map(|v| v.to_string()).filter(|s| s != "None").unwrap_or_else(|| "?".into())) };
        let size = props::board_size(self.root()).map(|s| s.to_string()).unwrap_or_else(|_| "bad size".into());
        let file = self.file().map(|f| format!("{f:?} ")).unwrap_or_default();
        let moves = self.data.tree.main_line().flat_map(|n| n.properties()).filter(|p| matches!(p.id(), "B" | "W")).count();
        Ok(format!("<kifu.Game {file}#{} {size} {} vs {}, {moves} moves>", self.data.index, name("black")?, name("white")?))
    }
}

/// A node of a game tree: its properties, its children (variations) and
/// its parent.
#[pyclass(module = "kifu", frozen)]
pub struct Node {
    game: Arc<GameData>,
    id: NodeId,
}

impl Node {
    fn node(&self) -> sgf::Node<'_> {
        self.game.tree.node(self.id)
    }

    fn at(&self, id: NodeId) -> Node {
        Node { game: self.game.clone(), id }
    }
}

#[pymethods]
impl Node {
    /// Each property's values by identifier, in file order
    /// (``{"B": ["pd"], "C": ["a comment"]}``).
    #[getter]
    fn properties<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let dict = PyDict::new(py);
        for prop in self.node().properties() {
            let values: Vec<&str> = prop.values().map(|v| v.text()).collect();
            match dict.get_item(prop.id())? {
                Some(list) => list.cast::<PyList>()?.as_any().call_method1("extend", (values,)).map(drop)?,
                None => dict.set_item(prop.id(), values)?,
            }
        }
        Ok(dict)
    }

    /// The first value of property ``id``, or ``default``.
    #[pyo3(signature = (id, default = None))]
    fn get(&self, id: &str, default: Option<String>) -> Option<String> {
        self.node().get_value(id).map(str::to_string).or(default)
    }

    /// Every value of property ``id`` (``[]`` when absent).
    fn values(&self, id: &str) -> Vec<&str> {
        self.node().properties().filter(|p| p.id() == id).flat_map(|p| p.values().map(|v| v.text())).collect()
    }

    /// The node's move, ``(colour, (x, y))`` or ``(colour, None)`` for a
    /// pass, as ``Game.moves()`` gives them; None when it has none.
    #[getter(r#move)]
    fn node_move(&self) -> PyResult<Option<MoveTuple>> {
        let size = props::board_size(self.game.tree.root()).unwrap_or_default();
        let mut moves = Vec::new();
        node_moves(self.node(), size, &self.game.source, &mut moves)?;
        Ok(moves.into_iter().next())
    }

    /// The variations from here: the first is the main line.
    #[getter]
    fn children(&self) -> Vec<Node> {
        self.node().children().map(|c| self.at(c.id())).collect()
    }

    /// The node before this one; None at the root.
    #[getter]
    fn parent(&self) -> Option<Node> {
        self.node().parent().map(|p| self.at(p.id()))
    }

    /// Line of the node's ``;`` in the file (1-based).
    #[getter]
    fn line(&self) -> u32 {
        self.game.source.line_column(self.node().offset()).0
    }

    /// Column of the node's ``;`` (1-based, in characters).
    #[getter]
    fn column(&self) -> u32 {
        self.game.source.line_column(self.node().offset()).1
    }

    fn __repr__(&self) -> String {
        let mut props = String::new();
        for prop in self.node().properties().take(4) {
            props.push_str(prop.id());
            for v in prop.values().take(1) {
                let text: String = v.text().chars().take(12).collect();
                props.push_str(&format!("[{}]", text.escape_debug()));
            }
        }
        format!("<kifu.Node {}:{} {props}>", self.line(), self.column())
    }
}

/// A line replayed into NumPy arrays (``Game.replay()``).
///
/// ``boards``: int8 ``(n + 1, height, width)``, 1 black, -1 white, 0 empty:
/// the position before each of the n moves (setup and handicap applied),
/// then after the last. ``moves``: int16 ``(n, 2)``, ``(x, y)`` as
/// ``Game.moves()`` (``(-1, -1)`` for a pass). ``colors``: int8 ``(n,)``, 1
/// Black, -1 White. ``captures``: int16 ``(n,)``, the stones each move
/// captured. ``rules``: the ruleset replayed under. ``stopped``: the
/// diagnostic of the move that stopped the replay, or None when it went to
/// the end (``complete``). ``len()`` is n.
#[pyclass(module = "kifu", frozen)]
pub struct Replay {
    #[pyo3(get)]
    boards: Py<PyArray3<i8>>,
    #[pyo3(get)]
    moves: Py<PyArray2<i16>>,
    #[pyo3(get)]
    colors: Py<PyArray1<i8>>,
    #[pyo3(get)]
    captures: Py<PyArray1<i16>>,
    #[pyo3(get)]
    rules: &'static str,
    #[pyo3(get)]
    stopped: Option<Py<Diagnostic>>,
}

impl Replay {
    fn new(py: Python<'_>, a: LineArrays, stopped: Option<Py<Diagnostic>>) -> PyResult<Replay> {
        let n = a.len();
        let shape_error = |e: numpy::ndarray::ShapeError| PyValueError::new_err(e.to_string());
        let boards = Array3::from_shape_vec((n + 1, a.height, a.width), a.boards).map_err(shape_error)?;
        let moves = Array2::from_shape_vec((n, 2), a.moves).map_err(shape_error)?;
        Ok(Replay {
            boards: PyArray3::from_owned_array(py, boards).unbind(),
            moves: PyArray2::from_owned_array(py, moves).unbind(),
            colors: PyArray1::from_owned_array(py, Array1::from(a.colors)).unbind(),
            captures: PyArray1::from_owned_array(py, Array1::from(a.captures)).unbind(),
            rules: a.rules.name,
            stopped,
        })
    }
}

#[pymethods]
impl Replay {
    /// Whether the replay went to the end of the line.
    #[getter]
    fn complete(&self) -> bool {
        self.stopped.is_none()
    }

    fn __len__(&self, py: Python<'_>) -> usize {
        self.colors.bind(py).len()
    }

    fn __repr__(&self, py: Python<'_>) -> String {
        let shape = self.boards.bind(py).shape().to_vec();
        let end = if self.stopped.is_some() { ", stopped" } else { "" };
        format!("<kifu.Replay {} moves, boards {shape:?}, {} rules{end}>", self.__len__(py), self.rules)
    }
}
