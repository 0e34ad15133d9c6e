//! Replays every move of every variation of a game under the rules in
//! force, and reports what is illegal or suspicious.
//!
//! The tree is walked depth first with an explicit stack. At a branch point
//! the position is saved once, and each later branch restarts from that copy,
//! so a shared prefix is never replayed twice and deep trees cost no stack.
//! An illegal move is still played where it can be (a move onto a stone
//! cannot), so one error does not bury the game in follow-on errors.
//!
//! This module knows the board, the rules and the SGF model; it knows
//! nothing of scoring or output formats.

use std::cell::Cell as TakeCell;
use std::mem::MaybeUninit;

use crate::board::{Board, BoardBuffer, Cell, Color, Pt, Removal};
use crate::diag::{Code, Diagnostic, Focus, Severity, Snapshot};
use crate::rules::{Connections, KoRule, Rules, SekiEyes, Suicide, Ties};
use crate::sgf::props::{self, BoardSize, Move, Point};
use crate::sgf::tree::PlainMove;
use crate::sgf::{Children, GameTree, Node, NodeId, PropId, Property, Value};
use crate::spare;

/// Rule choices from the command line; `None` means "from the game".
#[derive(Debug, Clone, Copy, Default)]
pub struct RuleOverrides {
    pub rules: Option<Rules>,
    pub ko: Option<KoRule>,
    pub suicide: Option<Suicide>,
    /// `--seki-eyes`: sets the seki tax.
    pub seki_eyes: Option<SekiEyes>,
    /// `--connections`: which necessary connections a territory count makes.
    pub connections: Option<Connections>,
    /// `--ties`.
    pub ties: Option<Ties>,
    /// `--komi`: replaces `KM[]`.
    pub komi: Option<f64>,
}

impl RuleOverrides {
    /// The rules in force for a game, and a note when RU[] did not decide.
    pub fn resolve(&self, ru: Option<&str>) -> (Rules, Option<String>) {
        let (mut rules, note) = match (self.rules, ru) {
            (Some(r), _) => (r, None),
            (None, Some(ru)) => match Rules::from_ru(ru) {
                Some(r) => (r, None),
                None => match Rules::ru_problem(ru) {
                    Some(problem) => (Rules::JAPANESE, Some(format!("RU[{ru}]: {problem}; replayed under Japanese rules"))),
                    None => (Rules::JAPANESE, Some(format!("RU[{ru}] is not a ruleset kifu knows; replayed under Japanese rules"))),
                },
            },
            (None, None) => (Rules::JAPANESE, Some("no RU[]: replayed under Japanese rules".to_string())),
        };
        if let Some(ko) = self.ko {
            rules.ko = ko;
        }
        if let Some(suicide) = self.suicide {
            rules.suicide = suicide;
        }
        if let Some(seki_eyes) = self.seki_eyes {
            seki_eyes.apply(&mut rules);
        }
        if let Some(connections) = self.connections {
            rules.connections = connections;
        }
        if let Some(ties) = self.ties {
            rules.ties = ties;
        }
        if self.komi.is_some() {
            rules.komi = self.komi;
        }
        (rules, note)
    }
}

/// What replaying one game found.
#[derive(Debug)]
pub struct Replay {
    pub rules: Rules,
    /// Diagnostics with offsets (not yet located) and move context.
    pub diagnostics: Vec<Diagnostic>,
    /// Move properties replayed, over all variations.
    pub moves: usize,
}

/// Replays a game. The caller has checked it is a game of Go.
///
/// The replay's working buffers (the board, the positions seen) are kept
/// by the thread for its next replay, so that checking many games
/// allocates none of them after the first (a few at most 64 KiB each, a
/// thread, whatever the games replayed).
pub fn replay(game: &GameTree, overrides: &RuleOverrides) -> Replay {
    match start(game, overrides) {
        Ok((mut r, implicit_handicap)) => {
            r.walk(game, &implicit_handicap);
            let replay = Replay { rules: r.rules, diagnostics: std::mem::take(&mut r.diagnostics), moves: r.moves };
            r.into_buffers().keep();
            replay
        }
        // A bad SZ is reported by the property checks; nothing can be replayed.
        Err((rules, diagnostics)) => Replay { rules, diagnostics, moves: 0 },
    }
}

/// A replayer for `game` holding the notes on the game as a whole (rules
/// not given by `RU[]`, `HA[]` against the stones), and the standard
/// handicap placement to apply after the root's setup; the rules and the
/// notes alone when the board size is unusable.
// Inlined: the replayer is built where `replay` keeps it, where returned
// it was copied twice (memcpy of the whole struct each time).
#[inline(always)]
fn start(game: &GameTree, overrides: &RuleOverrides) -> Result<(Replayer, Vec<Point>), (Rules, Vec<Diagnostic>)> {
    let root = game.root();
    let settings = RootSettings::of(game);
    let (rules, note) = overrides.resolve(settings.ru.and_then(|p| p.first()));
    let mut diagnostics = Vec::new();
    if let Some(note) = note {
        let at = settings.ru.map_or(root.offset(), |p| p.offset());
        diagnostics.push(Diagnostic::new(Code::UnknownRules, at, note));
    }
    let Ok(size) = props::board_size_of(settings.sz) else {
        return Err((rules, diagnostics));
    };
    let mut buffers = Buffers::take();
    let Some(board) = Board::new_in(size.width as usize, size.height as usize, std::mem::take(&mut buffers.board)) else {
        return Err((rules, diagnostics));
    };
    let implicit_handicap = check_handicap(game, &settings, size, &mut diagnostics);
    let mut r = Replayer::new(rules, board, diagnostics, game.len(), buffers);
    r.overrides = *overrides;
    Ok((r, implicit_handicap))
}

/// One line of a game replayed move by move, for callers that look at the
/// position before and after every move (`arrays` builds training data
/// so). The rules, the handicap and the reports are those of [`replay`];
/// the caller walks the nodes: [`LineReplay::enter`] each node, then
/// [`LineReplay::play`] each of its `B`/`W` properties.
pub struct LineReplay {
    r: Replayer,
    implicit_handicap: Vec<Point>,
}

/// What [`LineReplay::play`] did with one move property.
pub struct Played<'a> {
    /// The move as read; `None` when the value is not a move (`B[1a]`),
    /// which the replay skips (the property checks report it).
    pub mv: Option<Move>,
    /// The position after it.
    pub board: &'a Board,
    /// Opponent stones it captured.
    pub captured: &'a [Pt],
    /// Whether it removed its own chain (a suicide; the rules say whether
    /// that was legal).
    pub suicide: bool,
    /// What the rules say of it (ko, occupied point, ...), with offsets
    /// into the decoded text and move context, not yet located.
    pub diagnostics: &'a [Diagnostic],
}

impl LineReplay {
    /// `None` when the board size is unusable.
    pub fn new(game: &GameTree, overrides: &RuleOverrides) -> Option<LineReplay> {
        let (r, implicit_handicap) = start(game, overrides).ok()?;
        Some(LineReplay { r, implicit_handicap })
    }

    pub fn rules(&self) -> Rules {
        self.r.rules
    }

    pub fn board(&self) -> &Board {
        &self.r.state.board
    }

    /// Applies what acts before a node's moves: its setup (`AB`, `AW`,
    /// `AE`), `PL`, and after the root's setup the standard handicap
    /// placement, when `HA[]` asks for stones the record does not set up.
    /// Returns whether `KO[]` forces the node's moves.
    pub fn enter(&mut self, node: Node<'_>) -> bool {
        let forced = self.r.enter(node);
        if node.parent().is_none() && !self.implicit_handicap.is_empty() {
            let stones = std::mem::take(&mut self.implicit_handicap);
            self.r.place_handicap(&stones);
        }
        forced
    }

    /// Plays one `B` or `W` property of the node entered last (`forced`:
    /// what [`LineReplay::enter`] returned). Any other property, or one
    /// without a value, is no move: `None`.
    pub fn play(&mut self, prop: Property<'_>, forced: bool) -> Option<Played<'_>> {
        let color = move_color(prop)?;
        let value = prop.values().next()?;
        let mv = read_move(value, self.r.size);
        let start = self.r.diagnostics.len();
        self.r.captured.clear();
        self.r.visit_move(color, prop, forced);
        let board = &self.r.state.board;
        let suicide = match mv {
            Some(Move::Play(p)) => board.point(p.x as usize, p.y as usize).is_some_and(|pt| board.cell(pt) == Cell::Empty),
            _ => false,
        };
        // After a suicide the buffer holds the mover's own stones.
        let captured = if suicide { &[][..] } else { &self.r.captured[..] };
        Some(Played { mv, board, captured, suicide, diagnostics: &self.r.diagnostics[start..] })
    }
}

/// A position reached by replaying one line of a game.
#[derive(Clone)]
pub struct Position {
    pub board: Board,
    pub rules: Rules,
    /// The player to move next (after the last move of the line).
    pub to_move: Color,
    /// Move properties played along the line.
    pub moves: u32,
    /// Whether the line ends with two consecutive passes.
    pub ended_by_passes: bool,
}

/// The position after `target`, replaying only the line from the root to
/// it (illegal moves are played where they can be, silently: `replay`
/// reports them). `None` when the board size is unusable.
pub fn position_at(game: &GameTree, target: NodeId, overrides: &RuleOverrides) -> Option<Position> {
    let settings = RootSettings::of(game);
    let (rules, _) = overrides.resolve(settings.ru.and_then(|p| p.first()));
    let size = props::board_size_of(settings.sz).ok()?;
    let board = Board::new(size.width as usize, size.height as usize)?;
    let implicit_handicap = check_handicap(game, &settings, size, &mut Vec::new());
    let mut line: Vec<Node<'_>> = std::iter::successors(Some(game.node(target)), |n| n.parent()).collect();
    line.reverse();
    // About one position a node: the table of positions seen need not grow.
    let mut r = Replayer::new(rules, board, Vec::new(), line.len(), Buffers::default());
    let mut last_mover = None;
    for node in line {
        // Most nodes: one move, played from the letters in hand as the
        // walk's runs play them (the root is visited as in the walk).
        if let Some((mv, letter, xy)) = node.plain_move().filter(|_| node.parent().is_some()) {
            r.plain_move(mv, letter, xy);
            last_mover = Some(if letter == b'B' { Color::Black } else { Color::White });
            continue;
        }
        r.visit(node);
        if node.parent().is_none() && !implicit_handicap.is_empty() {
            r.place_handicap(&implicit_handicap);
            last_mover = Some(Color::Black);
        }
        let mut pl = false;
        for p in node.properties() {
            match p.code() {
                PropId::B => last_mover = Some(Color::Black),
                PropId::W => last_mover = Some(Color::White),
                PropId::PL => pl = true,
                _ => {}
            }
        }
        if pl && let Ok(Some(pl)) = props::player_to_move(node) {
            last_mover = Some(if pl == props::Color::Black { Color::White } else { Color::Black });
        }
    }
    let to_move = last_mover.map_or(Color::Black, Color::opponent);
    Some(Position { board: r.state.board, rules, to_move, moves: r.state.move_number, ended_by_passes: r.state.turn.ended() })
}

/// The standard handicap placement the replay sets up for a game whose
/// `HA[n]` sets up no stone while the record shows them there (Fox):
/// White moves first and no early move lands on one of those points.
/// Empty for every other game.
pub fn handicap_to_place(game: &GameTree) -> Vec<Point> {
    match props::board_size(game.root()) {
        Ok(size) => check_handicap(game, &RootSettings::of(game), size, &mut Vec::new()),
        Err(_) => Vec::new(),
    }
}

/// Checks HA[] against the handicap stones set up: in the root, or (as
/// Fox writes them) in the node after it. When HA asks for stones and none
/// are set up (Fox again), returns the standard placement to replay with.
fn check_handicap(game: &GameTree, settings: &RootSettings<'_>, size: BoardSize, diagnostics: &mut Vec<Diagnostic>) -> Vec<Point> {
    let root = game.root();
    let Some(ha) = settings.ha else { return Vec::new() };
    let Ok(Some(handicap)) = props::handicap_of(ha) else { return Vec::new() };
    // The stones counted, not listed (the replay's set-up reads them).
    let count = |p: Property<'_>| props::point_list_len(p.values().map(|v| v.text())).unwrap_or(0);
    let stones_in = |n: Node<'_>| n.get("AB").map(count);
    let stones = settings.ab.map(count).or_else(|| root.children().next().filter(|n| !n.has("B") && !n.has("W")).and_then(stones_in)).unwrap_or(0);
    // HA[0] and HA[1] place no handicap stones: AB stones there set up a
    // position (a problem or a study), which is nothing to compare.
    let expected = handicap as usize;
    if handicap <= 1 || stones == expected {
        return Vec::new();
    }
    let placement = if stones == 0 { implied_handicap(game, size, expected) } else { Vec::new() };
    let message = if placement.is_empty() {
        format!("HA[{handicap}] but {stones} handicap stone{} set up with AB", if stones == 1 { " is" } else { "s are" })
    } else {
        let points: Vec<String> = placement.iter().map(|p| p.to_coordinate(size.height)).collect();
        format!("HA[{handicap}] but no handicap stones are set up; replayed with the standard placement ({})", points.join(", "))
    };
    diagnostics.push(Diagnostic::new(Code::HandicapMismatch, ha.offset(), message));
    placement
}

/// The root's properties the replay's set-up reads (the first of each
/// identifier, as `Node::get` finds it), as the tree noted them.
#[derive(Default)]
struct RootSettings<'a> {
    ru: Option<Property<'a>>,
    sz: Option<Property<'a>>,
    ha: Option<Property<'a>>,
    ab: Option<Property<'a>>,
}

impl<'a> RootSettings<'a> {
    fn of(game: &'a GameTree) -> RootSettings<'a> {
        RootSettings { ru: game.root_first(PropId::RU), sz: game.root_first(PropId::SZ), ha: game.root_first(PropId::HA), ab: game.root_first(PropId::AB) }
    }
}

/// The standard placement, when the record shows the stones were there:
/// White moves first and no early move lands on one of those points.
fn implied_handicap(game: &GameTree, size: BoardSize, stones: usize) -> Vec<Point> {
    let placement = standard_handicap(size, stones);
    let moves: Vec<(&str, &str)> =
        game.main_line().flat_map(|n| n.properties().filter(|p| matches!(p.id(), "B" | "W")).map(|p| (p.id(), p.first().unwrap_or("")))).take(30).collect();
    let white_first = moves.first().is_some_and(|(color, _)| *color == "W");
    let clash = moves.iter().any(|(_, value)| Point::parse(value).is_ok_and(|p| placement.contains(&p)));
    if white_first && !clash { placement } else { Vec::new() }
}

/// The fixed handicap placement (Japanese order) on 9x9, 13x13 and 19x19.
fn standard_handicap(size: BoardSize, stones: usize) -> Vec<Point> {
    let (lo, mid, hi) = match (size.width, size.height) {
        (19, 19) => (3, 9, 15),
        (13, 13) => (3, 6, 9),
        (9, 9) => (2, 4, 6),
        _ => return Vec::new(),
    };
    let p = |x: u8, y: u8| Point { x, y };
    let corners = [p(hi, lo), p(lo, hi), p(hi, hi), p(lo, lo)];
    let sides = [p(lo, mid), p(hi, mid), p(mid, lo), p(mid, hi)];
    let center = p(mid, mid);
    let mut out: Vec<Point> = match stones {
        2..=4 => corners[..stones].to_vec(),
        5 => corners.to_vec(),
        6 | 7 => [&corners[..], &sides[..2]].concat(),
        8 | 9 => [&corners[..], &sides[..]].concat(),
        _ => return Vec::new(),
    };
    if stones % 2 == 1 && stones >= 5 {
        out.push(center);
    }
    out
}

/// The position and what the rules need to know about the line so far.
#[derive(Clone)]
struct State {
    board: Board,
    /// The point the given colour may not play at once (simple ko), as
    /// [`ko_ban`] writes it: [`NO_KO`] for none.
    ko: u32,
    /// Who moved last, and the passes just before now.
    turn: Turn,
    move_number: u32,
    repetition_reported: bool,
    /// The last move that recreated an earlier position, or a pass right
    /// after such moves (`u32::MAX` for none): under superko, the moves
    /// that go on round the same cycle right after it are not reported
    /// again.
    last_repetition: u32,
}

/// Who moved last, and whether the moves just before now were passes, in
/// one byte: a move tests it with one instruction and writes it with one
/// store, where the last mover and a count of passes took two tests and
/// two stores. Its bits: the colour that moved last (1 for Black, 2 for
/// White, neither at the start and after `PL` or a setup),
/// [`Turn::ONE_PASS`] and [`Turn::ENDED`].
#[derive(Clone, Copy)]
struct Turn(u8);

impl Turn {
    /// The last move was a pass, the first in a row.
    const ONE_PASS: u8 = 4;
    /// The last two moves, or more, were passes: the game ended.
    const ENDED: u8 = 8;
    /// No move yet.
    const OPEN: Turn = Turn(0);

    /// After a move of `color` on a point: its bit, `1 << color`, made as
    /// `color + 1` (the same for 0 and 1), an instruction where the shift
    /// took two.
    #[inline(always)]
    fn moved(color: Color) -> Turn {
        Turn(color as u8 + 1)
    }

    /// After a pass of `color`.
    fn passed(self, color: Color) -> Turn {
        let passes = if self.0 & (Turn::ONE_PASS | Turn::ENDED) != 0 { Turn::ENDED } else { Turn::ONE_PASS };
        Turn(1 << color as u8 | passes)
    }

    /// Whether a move of `color` now is out of turn: `color` moved last,
    /// or the game ended.
    #[inline(always)]
    fn out_of_turn(self, color: Color) -> bool {
        self.0 & (Turn::moved(color).0 | Turn::ENDED) != 0
    }

    fn moved_last(self, color: Color) -> bool {
        self.0 & 1 << color as u8 != 0
    }

    fn ended(self) -> bool {
        self.0 & Turn::ENDED != 0
    }

    /// The same passes, with no player having moved last (`PL`, a setup).
    fn opened(self) -> Turn {
        Turn(self.0 & (Turn::ONE_PASS | Turn::ENDED))
    }

    /// The same last mover, the passes forgotten (play resumed).
    fn resumed(self) -> Turn {
        Turn(self.0 & 3)
    }
}

/// The simple-ko ban of point `pt` for `color`, as one number: each move
/// tests it with one comparison.
#[inline(always)]
fn ko_ban(pt: Pt, color: Color) -> u32 {
    u32::from(pt) << 1 | color as u32
}

/// The points of a board by the two lower-case letters of a move, `pd`:
/// two look-ups and a sum, where the general [`Board::point`] took the
/// letters' values, a test of each against the board's size and a
/// multiplication, all on the path of every move.
///
/// It gives only points of the board it was made for, or of any board of
/// that size: the replayer's board, which keeps its size through a
/// replay (a branch point's copy is of the same board), reads them with
/// no bounds check ([`Replayer::place`]).
struct LetterPoints {
    /// By a letter less 0x60 (1 to 26 for `a` to `z`): the
    /// column's part of the point's index, its row's, or [`OFF_BOARD`].
    columns: [u16; 32],
    rows: [u16; 32],
}

/// In [`LetterPoints`], a letter beyond the board's side: the sum of the
/// two parts is this or more, where any point of the board is less.
const OFF_BOARD: u16 = 1 << 15;

impl LetterPoints {
    fn new(board: &Board) -> LetterPoints {
        let mut letters = LetterPoints { columns: [OFF_BOARD; 32], rows: [OFF_BOARD; 32] };
        let corner = board.point(0, 0).expect("a board has a point");
        // Column x and row y is `point(x, 0) + (point(0, y) - point(0, 0))`.
        for x in 0..board.width().min(26) {
            letters.columns[x + 1] = board.point(x, 0).expect("a column of the board");
        }
        for y in 0..board.height().min(26) {
            letters.rows[y + 1] = board.point(0, y).expect("a row of the board") - corner;
        }
        letters
    }

    /// The point of the letters `xy`, column then row (as one
    /// little-endian number), `None` when it is off the board.
    ///
    /// # Safety
    ///
    /// Both letters are lower-case: a table's index is the letter less
    /// 0x60 (1 to 26), unchecked, where the letter's low five bits took a
    /// mask and a bounds check was left to the compiler to drop (the
    /// subtraction goes into the load's displacement: two instructions
    /// fewer a move).
    #[inline(always)]
    unsafe fn point(&self, xy: u16) -> Option<Pt> {
        let [x, y] = xy.to_le_bytes();
        debug_assert!(x.is_ascii_lowercase() && y.is_ascii_lowercase());
        // SAFETY: `x` and `y` are `a` to `z` (this function's contract),
        // so each less 0x60 is 1 to 26, within the tables' 32.
        let (column, row) = unsafe { (*self.columns.get_unchecked(usize::from(x) - 0x60), *self.rows.get_unchecked(usize::from(y) - 0x60)) };
        let p = u32::from(column) + u32::from(row);
        (p < u32::from(OFF_BOARD)).then_some(p as Pt)
    }
}

/// [`State::ko`] when no point is banned.
const NO_KO: u32 = u32::MAX;

/// What [`Replayer::enter_node`] found in a node.
struct Entered {
    /// `KO[]`: the node's moves are executed whatever the rules say.
    forced: bool,
    /// The node has a `B` or `W` property.
    moves: bool,
}

/// A branch point: where each later child restarts from.
struct Branch<'a> {
    state: State,
    positions: Mark,
    path_len: usize,
    children: Children<'a>,
    next_index: u32,
}

struct Replayer {
    rules: Rules,
    size: BoardSize,
    /// The board's points by the letters of a plain move.
    letters: LetterPoints,
    state: State,
    /// Positions reached on the current line, and the move that first
    /// reached each.
    positions: Positions,
    /// What a position's key adds to the stones' hash for the player who
    /// moved last (by [`Color`] index): nothing under a positional ko
    /// rule. By the mover, not the player to move: the common move
    /// indexes it with its colour as it has it.
    moved_keys: [u64; 2],
    /// Whether a branch point is open: positions added while none is are
    /// never taken back, so [`Positions`] need not note them.
    in_branch: bool,
    /// Child index taken at each branch point on the current line.
    path: Vec<u32>,
    /// Stones removed by the last move that removed any (kept to reuse
    /// its buffer): captured, or the mover's own after a suicide. Stale
    /// after a move that removes none, which does not clear it.
    captured: Vec<Pt>,
    /// The points a node's setup sets (kept to reuse its buffer).
    setup: Vec<Pt>,
    diagnostics: Vec<Diagnostic>,
    moves: usize,
    /// What `--ko` and `--suicide` replaced of the ruleset: messages
    /// name the flag rather than the ruleset then.
    overrides: RuleOverrides,
}

/// The working buffers of a replay no longer needed, kept for the next one
/// on the same thread (see [`crate::spare`]): a check of a folder of games
/// allocated them afresh for each game, four blocks a game and two more
/// for a handicap's setup, a fifth of the allocations of a check. They are
/// kept empty; buffers with no room are as good, the replayer makes room
/// as needed. Those of variations (the branch path, the positions'
/// history) are not kept: most games have none, and five vectors are
/// moved in registers, where seven took a `memcpy` at each move.
#[derive(Default)]
struct Buffers {
    board: BoardBuffer,
    peak: Vec<MaybeUninit<Slot>>,
    slots: Vec<[u64; 2]>,
    captured: Vec<Pt>,
    setup: Vec<Pt>,
}

thread_local! {
    /// Each thread's buffers for its next replay ([`Buffers::keep`]).
    static KEPT: TakeCell<Buffers> = const { TakeCell::new(Buffers::NONE) };
}

impl Buffers {
    const NONE: Buffers = Buffers { board: BoardBuffer::NONE, peak: Vec::new(), slots: Vec::new(), captured: Vec::new(), setup: Vec::new() };

    /// The buffers the thread kept; empty ones when it kept none (its first
    /// replay, or a replay that is still using them).
    fn take() -> Buffers {
        KEPT.try_with(TakeCell::take).unwrap_or_default()
    }

    /// Keeps the buffers for the thread's next replay, those small enough
    /// (see [`spare::emptied`]).
    fn keep(self) {
        let kept = Buffers {
            board: self.board.emptied(),
            peak: spare::emptied(self.peak),
            slots: spare::emptied(self.slots),
            captured: spare::emptied(self.captured),
            setup: spare::emptied(self.setup),
        };
        // A thread being torn down keeps nothing.
        let _ = KEPT.try_with(|cell| cell.set(kept));
    }
}

impl Replayer {
    /// A replayer expecting about `positions` positions on a line, in
    /// `buffers` (whose `board` is not used: `board` is made in it).
    fn new(rules: Rules, board: Board, diagnostics: Vec<Diagnostic>, positions: usize, buffers: Buffers) -> Replayer {
        let size = BoardSize { width: board.width() as u8, height: board.height() as u8 };
        let points = board.width() * board.height();
        let white = match rules.ko {
            KoRule::Positional => 0,
            KoRule::Simple | KoRule::Situational => board.situational_hash(Color::White) ^ board.hash(),
        };
        Replayer {
            rules,
            size,
            letters: LetterPoints::new(&board),
            moved_keys: [white, 0],
            state: State { board, ko: NO_KO, turn: Turn::OPEN, move_number: 0, repetition_reported: false, last_repetition: u32::MAX },
            positions: Positions::with_capacity(positions, points, buffers.peak, buffers.slots),
            in_branch: false,
            path: Vec::new(),
            // Room for the captures of most moves from the start: growing
            // from empty took a block and a copy at each doubling in most games.
            captured: {
                let mut captured = buffers.captured;
                captured.reserve(32);
                captured
            },
            setup: buffers.setup,
            diagnostics,
            moves: 0,
            overrides: RuleOverrides::default(),
        }
    }

    /// The replayer's buffers, for the next replay ([`Buffers::keep`]).
    fn into_buffers(self) -> Buffers {
        let Replayer { state, positions, captured, setup, .. } = self;
        Buffers { board: state.board.into_buffer(), peak: positions.peak, slots: positions.table.slots, captured, setup }
    }

    #[inline(never)]
    fn walk<'a>(&mut self, game: &'a GameTree, implicit_handicap: &[Point]) {
        let root = game.root();
        // The moves of the plain runs counted at once: each marked node
        // is one move, and the walk takes every node but the root through
        // a run (`plain_move`), where a count a move was an instruction.
        // The root, even marked, is visited as any other node, and counted
        // so (`visit_move`).
        self.moves += game.marked_plain_moves() - usize::from(game.is_marked_plain_move(root.id()));
        self.visit(root);
        if !implicit_handicap.is_empty() {
            self.place_handicap(implicit_handicap);
        }
        let mut branches: Vec<Branch<'a>> = Vec::new();
        let mut current = self.descend(root.children(), &mut branches);
        loop {
            if let Some(node) = current {
                let children = match node.plain_run() {
                    // Most moves: a run of nodes each the one child of the
                    // one before, with no brothers to look for.
                    Some(run) => run.for_each_move(|mv, letter, xy| self.plain_move(mv, letter, xy)).children(),
                    None => {
                        self.visit(node);
                        node.children()
                    }
                };
                current = self.descend(children, &mut branches);
                continue;
            }
            let Some(branch) = branches.last_mut() else { break };
            match branch.children.next() {
                Some(child) => {
                    self.state.clone_from(&branch.state);
                    self.positions.take_back(branch.positions);
                    self.path.truncate(branch.path_len);
                    self.path.push(branch.next_index);
                    branch.next_index += 1;
                    current = Some(child);
                }
                None => {
                    branches.pop();
                    self.in_branch = !branches.is_empty();
                }
            }
        }
    }

    /// The node to visit after the one just visited, whose `children`
    /// these are: its first child. When it has more, the position is saved
    /// for the others first.
    #[inline(always)]
    fn descend<'a>(&mut self, mut children: Children<'a>, branches: &mut Vec<Branch<'a>>) -> Option<Node<'a>> {
        let first = children.next()?;
        if children.clone().next().is_some() {
            self.open_branch(children, branches);
        }
        Some(first)
    }

    /// Saves the position for `others`, the children after the first.
    #[inline(never)]
    fn open_branch<'a>(&mut self, others: Children<'a>, branches: &mut Vec<Branch<'a>>) {
        branches.push(Branch { state: self.state.clone(), positions: self.positions.mark(), path_len: self.path.len(), children: others, next_index: 1 });
        self.path.push(0);
        self.in_branch = true;
    }

    fn visit(&mut self, node: Node<'_>) {
        let mut props = node.properties();
        // The commonest node by far, one move and nothing else: straight
        // to the board.
        if props.len() == 1 {
            let prop = props.next().expect("one property");
            if let Some(color) = move_color(prop) {
                return self.visit_move(color, prop, false);
            }
        }
        let entered = self.enter_node(node);
        // A node with no move (a root) is not looked at again.
        if entered.moves {
            for prop in node.properties() {
                if let Some(color) = move_color(prop) {
                    self.visit_move(color, prop, entered.forced);
                }
            }
        }
    }

    /// What acts before a node's moves: setup and PL. Returns whether KO[]
    /// forces the node's moves (it changes how they are reported).
    fn enter(&mut self, node: Node<'_>) -> bool {
        self.enter_node(node).forced
    }

    /// [`Replayer::enter`], also telling whether the node has a move.
    fn enter_node(&mut self, node: Node<'_>) -> Entered {
        // One look at the identifiers first: the root's, as the tree noted
        // them (`GameTree::root_first`), with no pass over its properties.
        let (mut setup, mut pl) = (false, false);
        let mut entered = Entered { forced: false, moves: false };
        if node.id() == NodeId(0) {
            let tree = node.tree();
            let has = |code| tree.root_first(code).is_some();
            (setup, pl) = (has(PropId::AB) || has(PropId::AW) || has(PropId::AE), has(PropId::PL));
            entered = Entered { forced: has(PropId::KO), moves: tree.root_has_move() };
        } else {
            for prop in node.properties() {
                match prop.code() {
                    PropId::B | PropId::W => entered.moves = true,
                    PropId::AB | PropId::AW | PropId::AE => setup = true,
                    PropId::PL => pl = true,
                    PropId::KO => entered.forced = true,
                    _ => {}
                }
            }
        }
        if setup {
            self.setup(node, pl);
        }
        if pl {
            self.state.turn = self.state.turn.opened();
        }
        entered
    }

    /// A node the parser marked as one move on a point, `;B[pd]`, the
    /// commonest by far: played from the letters in hand. Its property is
    /// made only for the rare paths that need it (see [`PlainMove`]).
    /// Always inline: with `position_at` as a second caller, the compiler
    /// took it out of the walk's loop (+9% of a check's instructions).
    #[inline(always)]
    fn plain_move(&mut self, mv: PlainMove<'_>, letter: u8, xy: u16) {
        // The colour's index is the letter's low bit (`B` 0x42, `W` 0x57):
        // a number, where a comparison with `B` was made again at each use
        // of the colour (a `cmp` and a `setcc`, five times a move).
        debug_assert!(matches!(letter, b'B' | b'W'));
        let color = if letter & 1 == 0 { Color::Black } else { Color::White };
        if xy == u16::from_le_bytes(*b"tt") {
            // A pass up to 19x19, a point beyond: the general reading decides.
            self.replay_move(color, mv.property(), false);
            return;
        }
        // Counted with the tree's other marked nodes (see `walk`).
        self.state.move_number += 1;
        self.check_turn(color, mv);
        self.state.turn = Turn::moved(color);
        // SAFETY: a mark's point letters are lower-case (the parser marks
        // no other node, see `NodeData::plain_move`).
        match unsafe { self.letters.point(xy) } {
            // SAFETY: `LetterPoints` gives only points of the board.
            Some(pt) => unsafe { self.place(color, pt, mv) },
            None => self.off_board(color, mv.property()),
        }
    }

    /// Replays one B or W property; `forced`: the node has KO[].
    #[inline]
    fn visit_move(&mut self, color: Color, prop: Property<'_>, forced: bool) {
        self.moves += usize::from(self.replay_move(color, prop, forced));
    }

    /// [`Replayer::visit_move`] but for the count of moves (a marked
    /// node's is counted with the others, see `walk`); returns whether
    /// `prop` has a value, a move to count.
    #[inline]
    fn replay_move(&mut self, color: Color, prop: Property<'_>, forced: bool) -> bool {
        let Some(value) = prop.values().next() else { return false };
        self.state.move_number += 1;
        let start = self.diagnostics.len();
        // An unreadable move is reported by the property checks.
        if let Some(mv) = read_move(value, self.size) {
            self.play(color, mv, prop);
        }
        if forced {
            self.forced(start);
        }
        true
    }

    /// KO[] asks to execute the move whatever the rules say: what the move
    /// broke (diagnostics from `start` on) is only info.
    #[cold]
    fn forced(&mut self, start: usize) {
        for d in &mut self.diagnostics[start..] {
            if d.severity > Severity::Info {
                d.severity = Severity::Info;
                d.message.push_str(" (KO[] in the node: executed as the record says)");
            }
        }
    }

    /// Applies AB, AW and AE, listing the points they set in the buffer
    /// kept for that; `pl`: the node has a `PL`.
    fn setup(&mut self, node: Node<'_>, pl: bool) {
        let mut set = std::mem::take(&mut self.setup);
        self.set_up(node, &mut set, pl);
        set.clear();
        self.setup = set;
    }

    /// [`Replayer::setup`], listing the points set in `set` (empty).
    fn set_up(&mut self, node: Node<'_>, set: &mut Vec<Pt>, pl: bool) {
        let on_empty = self.state.board.stone_count() == 0;
        let mut at = 0;
        for prop in node.properties() {
            let cell = match prop.code() {
                PropId::AB => Cell::Black,
                PropId::AW => Cell::White,
                PropId::AE => Cell::Empty,
                _ => continue,
            };
            at = prop.offset();
            let listed = set.len();
            // Unreadable points are reported by the property checks.
            if !list_points(&self.state.board, prop, set) {
                continue;
            }
            for &pt in &set[listed..] {
                self.state.board.set(pt, cell);
            }
        }
        if set.is_empty() {
            return;
        }
        let board = &mut self.state.board;
        // On an empty board (a handicap, a problem) the stones are among
        // the points set: no need to look at every point.
        let dead = if on_empty { board.link_setup_on_empty(set) } else { board.rebuild_chains_find_dead() };
        self.state.ko = NO_KO;
        self.state.turn = self.state.turn.opened();
        if let Some(&p) = dead.first() {
            let (x, y) = board.xy(p);
            let point = Point { x: x as u8, y: y as u8 };
            let message = format!("setup leaves {} chain{} without liberty (at {})", dead.len(), if dead.len() == 1 { "" } else { "s" }, self.describe(point));
            self.diagnostics.push(Diagnostic::new(Code::SetupWithoutLiberty, at, message));
        }
        // The set-up position is remembered with the player PL names (Black
        // when there is none, as the caller's look at the identifiers told:
        // a handicap's root is not looked over again for one), so a
        // situational cycle back to it is found.
        let to_move = match pl.then(|| props::player_to_move(node)) {
            Some(Ok(Some(props::Color::White))) => Color::White,
            _ => Color::Black,
        };
        let key = self.key(to_move);
        self.remember(key);
    }

    fn place_handicap(&mut self, stones: &[Point]) {
        for p in stones {
            if let Some(pt) = self.state.board.point(p.x as usize, p.y as usize) {
                self.state.board.set(pt, Cell::Black);
            }
        }
        self.state.board.rebuild_chains();
        self.state.turn = self.state.turn.opened();
        let key = self.key(Color::White);
        self.remember(key);
    }

    /// Plays one move, reporting what the rules say of it. The reports
    /// are rare: they live in `#[cold]` functions of their own, which keeps
    /// this path, run for every move, short.
    #[inline(always)]
    fn play(&mut self, color: Color, mv: Move, prop: Property<'_>) {
        self.check_turn(color, prop);
        let point = match mv {
            Move::Pass => {
                self.state.turn = self.state.turn.passed(color);
                self.state.ko = NO_KO;
                let key = self.key(color.opponent());
                self.remember(key);
                // A pass inside a superko cycle does not leave it.
                if self.state.last_repetition.wrapping_add(1) == self.state.move_number {
                    self.state.last_repetition = self.state.move_number;
                }
                return;
            }
            Move::Play(point) => point,
        };
        self.state.turn = Turn::moved(color);
        match self.state.board.point(point.x as usize, point.y as usize) {
            // SAFETY: `Board::point` gives only points of the board.
            Some(pt) => unsafe { self.place(color, pt, prop) },
            None => self.off_board(color, prop),
        }
    }

    /// Reports a move by the player who moved last, or after two passes.
    /// `prop`: the move's property, or what makes it (a [`PlainMove`]).
    #[inline(always)]
    fn check_turn<'t>(&mut self, color: Color, prop: impl Into<Property<'t>>) {
        if self.state.turn.out_of_turn(color) {
            self.out_of_turn(color, prop.into());
        }
    }

    /// The end of [`Replayer::play`] for a move on `pt`.
    ///
    /// # Safety
    ///
    /// `pt` is a point of the board: the board's reads of it go unchecked.
    #[inline(always)]
    unsafe fn place<'t>(&mut self, color: Color, pt: Pt, prop: impl Into<Property<'t>> + Copy) {
        // The ko point is empty (the stone it held was just captured).
        if self.state.ko == ko_ban(pt, color) {
            self.ko_retaken(color, pt, prop.into());
        }
        // SAFETY: `pt` is a point of the board (this function's contract).
        if unsafe { self.state.board.cell_on_board(pt) } != Cell::Empty {
            return self.occupied(color, pt, prop.into());
        }
        // SAFETY: `pt` is a point of the board, empty as just seen.
        if let Err(removal) = unsafe { self.state.board.put_on_empty(color, pt) } {
            return self.removing(removal, color, pt, prop.into());
        }
        self.state.ko = NO_KO;
        self.check_repetition(color, pt, prop, false);
    }

    /// The end of [`Replayer::play`] for a move that removes stones: its
    /// captures (and the simple-ko ban one may make), or its suicide. Out
    /// of line, one move in twenty: the path of the others tests nothing
    /// of what was removed.
    #[inline(never)]
    fn removing(&mut self, removal: Removal, color: Color, pt: Pt, prop: Property<'_>) {
        self.captured.clear();
        let suicided = self.state.board.remove(removal, color, pt, &mut self.captured);
        self.state.ko = match self.captured.as_slice() {
            [single] if suicided == 0 && self.state.board.is_lone_stone_with_one_liberty(pt) => ko_ban(*single, color.opponent()),
            _ => NO_KO,
        };
        if suicided > 0 && !self.suicide(color, pt, suicided, prop) {
            // The forbidden suicide is the error; the position it leaves is no news.
            return;
        }
        self.check_repetition(color, pt, prop, true);
    }

    /// `double-move` and `move-after-end`.
    #[cold]
    #[inline(never)]
    fn out_of_turn(&mut self, color: Color, prop: Property<'_>) {
        let (text, offset) = (move_text(prop), prop.offset());
        let n = self.state.move_number;
        if self.state.turn.moved_last(color) {
            // Read again here, off the path every move takes.
            let mv = prop.values().next().and_then(|v| read_move(v, self.size));
            let (msg, focus) = match mv {
                None | Some(Move::Pass) => (format!("{} moves twice in a row: a pass (move {n})", color.name()), None),
                Some(Move::Play(point)) => {
                    let focus = self.focus_now(point, color);
                    let at = focus.as_ref().map_or_else(|| format!("{text}, outside the board"), |_| self.describe(point));
                    (format!("{} moves twice in a row, at {at} (move {n})", color.name()), focus)
                }
            };
            self.report(Code::DoubleMove, offset, msg, color, text, focus);
        }
        if self.state.turn.ended() {
            let msg = format!("{} plays after the game ended with two passes (move {n})", color.name());
            let resumption_allowed = self.rules.resumption_allowed;
            let d = self.report(Code::MoveAfterEnd, offset, msg, color, text, None);
            if resumption_allowed {
                d.severity = Severity::Info;
                d.message.push_str(": play resumed, as Japanese Art. 9 allows");
                // Resumed play starts afresh: two more passes stop it again.
                self.state.turn = self.state.turn.resumed();
            }
        }
    }

    #[cold]
    #[inline(never)]
    fn off_board(&mut self, color: Color, prop: Property<'_>) {
        let (text, offset) = (move_text(prop), prop.offset());
        let n = self.state.move_number;
        let msg = format!("{} plays at {text}, outside the {}x{} board (move {n})", color.name(), self.size.width, self.size.height);
        self.report(Code::OffBoard, offset, msg, color, text, None);
    }

    #[cold]
    #[inline(never)]
    fn occupied(&mut self, color: Color, pt: Pt, prop: Property<'_>) {
        let point = self.point_of(pt);
        let (text, offset) = (move_text(prop), prop.offset());
        let n = self.state.move_number;
        let at = self.describe(point);
        let msg = format!("{} plays at {at}, which already holds a stone (move {n})", color.name());
        let focus = self.focus_now(point, color);
        self.report(Code::OccupiedPoint, offset, msg, color, text, focus);
    }

    #[cold]
    #[inline(never)]
    fn ko_retaken(&mut self, color: Color, pt: Pt, prop: Property<'_>) {
        let point = self.point_of(pt);
        let (text, offset) = (move_text(prop), prop.offset());
        let n = self.state.move_number;
        let at = self.describe(point);
        let msg = format!("{} retakes the ko at {at} at once (move {n})", color.name());
        let focus = self.focus_now(point, color);
        self.report(Code::Ko, offset, msg, color, text, focus);
    }

    /// Reports a suicide of `stones` stones, just played; returns whether
    /// the rules allow it.
    #[cold]
    #[inline(never)]
    fn suicide(&mut self, color: Color, pt: Pt, stones: usize, prop: Property<'_>) -> bool {
        let point = self.point_of(pt);
        let (text, offset) = (move_text(prop), prop.offset());
        let n = self.state.move_number;
        let at = self.describe(point);
        let msg = format!("{} plays at {at}, leaving its own {stones} stone{} without liberty (move {n})", color.name(), if stones == 1 { "" } else { "s" });
        let focus = self.focus_before(point, color, true);
        let allowed = self.rules.suicide_allowed(stones).then(|| match self.overrides.suicide {
            Some(Suicide::Allowed) => ": allowed by --suicide allowed".to_string(),
            Some(_) => ": allowed by --suicide multi-stone-only".to_string(),
            None => format!(": allowed under {} rules", self.rules.name),
        });
        let d = self.report(Code::Suicide, offset, msg, color, text, Some(focus));
        let Some(note) = allowed else { return false };
        d.severity = Severity::Info;
        d.message.push_str(&note);
        true
    }

    /// Superko (where the rules forbid recurrence) or repeated-position,
    /// for the move just played at `pt`; `removed`: it removed stones,
    /// which `captured` holds.
    #[inline(always)]
    fn check_repetition<'t>(&mut self, color: Color, pt: Pt, prop: impl Into<Property<'t>>, removed: bool) {
        let key = self.key_after(color);
        let n = self.state.move_number;
        let stones = self.state.board.stone_count();
        // SAFETY: the positions were made for this board's points, and a
        // board holds at most a stone a point.
        let Some(first) = (unsafe { self.positions.first_or_insert(key, stones, n, self.in_branch) }) else { return };
        self.repetition(color, pt, prop.into(), first, removed);
    }

    /// Reports the return to the position first reached at move `first`:
    /// once per line under simple ko, once per cycle entered under superko.
    #[cold]
    #[inline(never)]
    fn repetition(&mut self, color: Color, pt: Pt, prop: Property<'_>, first: u32, removed: bool) {
        if !removed {
            // Stones of an earlier move: only a move that removes stones
            // clears the buffer (`removing`), not the others (a store a move).
            self.captured.clear();
        }
        let (text, offset) = (move_text(prop), prop.offset());
        let n = self.state.move_number;
        let already_ko = self.diagnostics.last().is_some_and(|d| d.code == Code::Ko && d.move_number == Some(n));
        let entering = self.state.last_repetition.wrapping_add(1) != n;
        self.state.last_repetition = n;
        let point = self.point_of(pt);
        // The move's own chain is gone when it was a suicide (allowed).
        let suicided = self.state.board.cell(pt) == Cell::Empty;
        let cycle = n - first;
        let reached = if first == 0 { "the start of the game".to_string() } else { format!("move {first}") };
        match self.rules.ko {
            KoRule::Simple if !self.state.repetition_reported && !already_ko => {
                self.state.repetition_reported = true;
                let consequence = match self.overrides.ko {
                    Some(_) => "--ko simple allows it".to_string(),
                    None if self.rules.repetition_voids => format!("under {} rules the game may end with no result", self.rules.name),
                    None => format!("{} rules allow it", self.rules.name),
                };
                let msg = format!("move {n} repeats the whole-board position first reached at {reached} (a cycle of {cycle} moves); {consequence}");
                let focus = self.focus_before(point, color, suicided);
                self.report(Code::RepeatedPosition, offset, msg, color, text, Some(focus));
            }
            KoRule::Positional | KoRule::Situational if entering && !already_ko => {
                let kind = if self.rules.ko == KoRule::Positional { "positional" } else { "situational" };
                let at = self.describe(point);
                let msg = format!("{} at {at} recreates the position of {reached} ({kind} superko, a cycle of {cycle} moves; move {n})", color.name());
                let focus = self.focus_before(point, color, suicided);
                self.report(Code::Superko, offset, msg, color, text, Some(focus));
            }
            _ => {}
        }
    }

    /// The position key the ko rule compares (no branch on the colour,
    /// which alternates move to move).
    #[inline]
    fn key(&self, to_move: Color) -> u64 {
        self.key_after(to_move.opponent())
    }

    /// [`Replayer::key`] after a move of `mover`.
    #[inline]
    fn key_after(&self, mover: Color) -> u64 {
        self.state.board.hash() ^ self.moved_keys[mover as usize]
    }

    /// Records the position `key` as reached now, unless it was before.
    fn remember(&mut self, key: u64) {
        let stones = self.state.board.stone_count();
        // SAFETY: as in `check_repetition`.
        unsafe { self.positions.first_or_insert(key, stones, self.state.move_number, self.in_branch) };
    }

    fn report(&mut self, code: Code, offset: u32, message: String, color: Color, point: &str, focus: Option<Box<Focus>>) -> &mut Diagnostic {
        let mut d = Diagnostic::new(code, offset, message);
        d.move_number = Some(self.state.move_number);
        d.color = Some(color.letter());
        d.point = Some(point.to_string());
        let mut path = self.path.clone();
        while path.last() == Some(&0) {
            path.pop();
        }
        d.variation = Some(path);
        d.focus = focus;
        self.diagnostics.push(d);
        self.diagnostics.last_mut().expect("just pushed")
    }

    /// The column and row of `pt`, a point of the board.
    fn point_of(&self, pt: Pt) -> Point {
        let (x, y) = self.state.board.xy(pt);
        Point { x: x as u8, y: y as u8 }
    }

    /// `Q16 (pd)`: the board coordinate and the SGF letters.
    fn describe(&self, point: Point) -> String {
        format!("{} ({})", point.to_coordinate(self.size.height), point.to_sgf())
    }

    /// The focus on `point` of a move not yet played: the board as it is.
    /// `None` off the board.
    fn focus_now(&self, point: Point, color: Color) -> Option<Box<Focus>> {
        let board = &self.state.board;
        board.point(point.x as usize, point.y as usize)?;
        let snapshot = snapshot(board, |p| board.cell(p).color());
        Some(Box::new(Focus { point, color, board: snapshot }))
    }

    /// The focus on `point` of the move just played there: the position
    /// before it, the stones it removed (`removed_own`: its own, by
    /// suicide) put back.
    fn focus_before(&self, point: Point, color: Color, removed_own: bool) -> Box<Focus> {
        let board = &self.state.board;
        let pt = board.point(point.x as usize, point.y as usize);
        let restored = if removed_own { color } else { color.opponent() };
        let snapshot = snapshot(board, |p| match p {
            _ if Some(p) == pt => None,
            _ if self.captured.contains(&p) => Some(restored),
            _ => board.cell(p).color(),
        });
        Box::new(Focus { point, color, board: snapshot })
    }
}

/// Adds to `set` the points of `board` a point list property names
/// (`AB[dd][aa:bb]`; points off the board left out), as
/// [`props::parse_point_list`] reads it, but with no list of its own and
/// points named twice listed twice: setting a point twice sets it once.
/// When a value is unreadable, adds none and returns false.
fn list_points(board: &Board, prop: Property<'_>, set: &mut Vec<Pt>) -> bool {
    let listed = set.len();
    for value in prop.values() {
        // Nearly every value is one point (a handicap stone): read in
        // hand, not through the reading of rectangles and its `Result`.
        if let Some(p) = props::Point::from_letters(value.bytes()) {
            set.extend(board.point(usize::from(p.x), usize::from(p.y)));
            continue;
        }
        let Ok((lo, hi)) = props::parse_point_or_rectangle(value.text()) else {
            set.truncate(listed);
            return false;
        };
        for y in lo.y..=hi.y {
            set.extend((lo.x..=hi.x).filter_map(|x| board.point(usize::from(x), usize::from(y))));
        }
    }
    true
}

/// The stones `stone_at` gives for each point of `board`.
fn snapshot(board: &Board, stone_at: impl Fn(Pt) -> Option<Color>) -> Snapshot {
    Snapshot::new(board.width() as u8, board.height() as u8, |x, y| board.point(usize::from(x), usize::from(y)).and_then(&stone_at))
}

/// The colour of a move property (B or W), `None` for any other.
#[inline]
fn move_color(prop: Property<'_>) -> Option<Color> {
    match prop.code() {
        PropId::B => Some(Color::Black),
        PropId::W => Some(Color::White),
        _ => None,
    }
}

/// The text of a move property that was played (it has a value).
fn move_text(prop: Property<'_>) -> &str {
    prop.first().unwrap_or_default()
}

/// A move value: the common two lower-case letters read directly, the rest
/// by `props::parse_move` (passes, upper-case letters, errors).
fn read_move(value: Value<'_>, size: BoardSize) -> Option<Move> {
    match *value.bytes() {
        [a, b] if a.is_ascii_lowercase() && b.is_ascii_lowercase() && !(a == b't' && b == b't' && size.width <= 19 && size.height <= 19) => {
            Some(Move::Play(Point { x: a - b'a', y: b - b'a' }))
        }
        _ => props::parse_move(value.text(), size).ok(),
    }
}

/// The positions reached on the current line, each with the move that
/// first reached it, found by Zobrist key and stone count.
///
/// Two positions with different numbers of stones differ. On a line, a
/// move adds one stone and takes off the ones it captures: the count
/// grows by one a move, except when a move captures (or a set-up node
/// changes the stones). So most moves reach more stones than any
/// position before them on the line: such a position is new, with no
/// look-up, and is kept in `peak` at its count, in order. Only
/// a position with no more stones than some earlier one (after a
/// capture, a pass, a set-up) is looked up: in `peak` at its count, and
/// in `table`, which then takes it when it is new.
///
/// What makes that right: every position recorded on the line has fewer
/// stones than `top` (a position recorded in `peak` raises it past
/// its count; one recorded in `table` had fewer stones than that
/// already), so one with `top` stones or more is new; and
/// `peak[c]`, set when the line first reaches `c` stones, is the only
/// position of `c` stones not in `table`. Going back to a branch point
/// lowers `top` to where it was there and takes from `table` what was
/// added since: both hold again what they held there.
///
/// `peak`'s length is `top`, not the vector's: its slots are room, written
/// before they are read (the common move writes the one at `top`, where a
/// push tested the vector's capacity and, short of registers, read the
/// move number again from the stack), and not filled when made (zeroing
/// them cost more than the push's test).
struct Positions {
    /// By stone count, below `top`: the position that first reached that
    /// many stones on the line ([`Slot::NONE`] for a count it jumped over,
    /// by set-up). The slots from `top` on are not written yet, or stale.
    peak: Vec<MaybeUninit<Slot>>,
    top: usize,
    /// The other positions.
    table: Seen,
    /// Keys added to `table` since the first branch point still open, in
    /// order, so that going back to one can take them back.
    history: Vec<u64>,
}

/// Where [`Positions`] stood at a branch point.
#[derive(Clone, Copy)]
struct Mark {
    peak: usize,
    history: usize,
}

impl Positions {
    /// Room for about `positions` positions on a board of `points`
    /// points before growing.
    /// `peak` and `slots` are buffers (empty) to make them in.
    fn with_capacity(positions: usize, points: usize, mut peak: Vec<MaybeUninit<Slot>>, slots: Vec<[u64; 2]>) -> Positions {
        // Most positions go to `peak`, one for each count up to the most
        // stones on the board: the table holds the few others (on KGS
        // games about one position in sixteen: 10.9 captures a game of 198
        // moves, and the passes). A slot for each count the board can
        // hold, 0 to `points`: the common move writes its slot with no
        // test of the room (see `first_or_insert`).
        peak.reserve_exact(points + 1);
        peak.resize_with(peak.capacity(), MaybeUninit::uninit);
        Positions { peak, top: 0, table: Seen::with_capacity(positions / 8, slots), history: Vec::new() }
    }

    /// The move that first reached the position `key`, of `stones`
    /// stones; when none did, `None`, after recording `move_number` as
    /// that move. `in_branch`: a branch point is open, which may take the
    /// position back.
    ///
    /// # Safety
    ///
    /// `stones` is at most the `points` the positions were made for (a
    /// stone count of that board).
    #[inline(always)]
    unsafe fn first_or_insert(&mut self, key: u64, stones: u32, move_number: u32, in_branch: bool) -> Option<u32> {
        let count = stones as usize;
        if count >= self.top {
            // More stones than any position before on the line: new.
            let slot = Slot { key, reached: move_number };
            if count == self.top {
                debug_assert!(count < self.peak.len());
                // SAFETY: `peak` has a slot for each count up to the
                // board's points (`with_capacity`), and `count` is one
                // (this function's contract): where a test of the room
                // took two instructions a move.
                unsafe { self.peak.get_unchecked_mut(count) }.write(slot);
            } else {
                self.jump_to(count, slot);
            }
            self.top = count + 1;
            return None;
        }
        // SAFETY: every slot below `top` was written: `top` grows only
        // past a slot written (here, or by `jump_to` with the counts it
        // jumped over), and `take_back` only lowers it.
        let first = unsafe { self.peak[count].assume_init() };
        if first.reached != Slot::NONE.reached && first.key == key {
            return Some(first.reached);
        }
        let found = self.table.first_or_insert(key, move_number);
        if found.is_none() && in_branch {
            self.history.push(key);
        }
        found
    }

    /// Records `slot` as the first position of `count` stones, after a
    /// jump of the count (a set-up): the counts jumped over were reached
    /// by no position. `peak` has room for every count (`with_capacity`).
    #[cold]
    #[inline(never)]
    fn jump_to(&mut self, count: usize, slot: Slot) {
        self.peak[self.top..count].fill(MaybeUninit::new(Slot::NONE));
        self.peak[count].write(slot);
    }

    /// Where things stand, to come back to with [`Positions::take_back`].
    fn mark(&self) -> Mark {
        Mark { peak: self.top, history: self.history.len() }
    }

    /// Forgets the positions recorded since `mark`.
    fn take_back(&mut self, mark: Mark) {
        self.top = mark.peak;
        for key in self.history.drain(mark.history..) {
            self.table.remove(key);
        }
    }
}

/// Positions by Zobrist key (see [`Positions`]): key → the move that first
/// reached it. A `HashMap` would hash the keys again (they are
/// already uniformly random) and costs more per lookup than the rest of a
/// move; this is open addressing with linear probing in a power-of-two
/// table kept at most half full, the key's low bits giving the slot, and
/// one probe sequence per move both to look up and to insert.
struct Seen {
    /// Slots of `[key, reached]`: `reached` is the move that first reached
    /// `key`, plus one, and 0 when the slot is free (key 0 is a real key:
    /// the empty board's). All zero is a free slot, and an array of
    /// integers, unlike a struct with padding, is filled by one `memset`,
    /// not a loop writing each slot (see [`Seen::zeroed`]).
    /// A power of two long (`with_capacity`, `grow`), so that an index
    /// masked by its length less one is one of its slots.
    slots: Vec<[u64; 2]>,
    len: usize,
}

/// A position in [`Positions::peak`]: its key and the move that first
/// reached it ([`Slot::NONE`] for none: the move itself, where the move
/// plus one, 0 for none, took an addition a move).
#[derive(Clone, Copy)]
struct Slot {
    key: u64,
    reached: u32,
}

impl Slot {
    /// A count of stones no position on the line reached: no move is the
    /// 2^32 - 1st (a record of that many moves is longer than a file may be).
    const NONE: Slot = Slot { key: 0, reached: u32::MAX };
}

impl Seen {
    /// A table for about `positions` keys before it needs to grow, made in
    /// `slots` (an empty buffer).
    fn with_capacity(positions: usize, slots: Vec<[u64; 2]>) -> Seen {
        let size = (2 * positions).next_power_of_two().max(16);
        Seen { slots: Seen::zeroed(slots, size), len: 0 }
    }

    /// `size` free slots, in `slots` (empty). Not `vec![[0; 2]; size]`,
    /// which asks the allocator for zeroed memory: glibc's `calloc` skips
    /// its per-thread cache of freed blocks and cost more than the
    /// `malloc` and `memset`.
    fn zeroed(mut slots: Vec<[u64; 2]>, size: usize) -> Vec<[u64; 2]> {
        debug_assert!(slots.is_empty());
        slots.reserve_exact(size);
        slots.resize(size, [0; 2]);
        slots
    }

    /// The slot at `i`, masked by the table's length less one: read with
    /// no bounds check, where each probe of a capture's position took one.
    #[inline(always)]
    fn slot_mut(&mut self, i: usize) -> &mut [u64; 2] {
        let i = i & (self.slots.len() - 1);
        debug_assert!(self.slots.len().is_power_of_two());
        // SAFETY: `slots` is a power of two long (see `slots`), not 0, so
        // `i`, masked by the length less one, is below it.
        unsafe { self.slots.get_unchecked_mut(i) }
    }

    /// The slot holding `key`, or the free slot where it would go.
    #[inline]
    fn find(&self, key: u64) -> usize {
        let mask = self.slots.len() - 1;
        let mut i = key as usize & mask;
        loop {
            let [k, reached] = self.slots[i];
            if reached == 0 || k == key {
                return i;
            }
            i = (i + 1) & mask;
        }
    }

    /// The move that first reached `key`; when none did, `None`, after
    /// recording `move_number` as that move.
    #[inline]
    fn first_or_insert(&mut self, key: u64, move_number: u32) -> Option<u32> {
        debug_assert_ne!(move_number, u32::MAX);
        // `find`, with the insertion done where the free slot is found: the
        // probe loop tells which case it is, no second look at the slot.
        let mask = self.slots.len() - 1;
        let mut i = key as usize & mask;
        loop {
            let slot = self.slot_mut(i);
            if slot[1] == 0 {
                *slot = [key, u64::from(move_number) + 1];
                break;
            }
            if slot[0] == key {
                return Some((slot[1] - 1) as u32);
            }
            i = (i + 1) & mask;
        }
        self.len += 1;
        if 2 * self.len > self.slots.len() {
            self.grow();
        }
        None
    }

    /// Forgets `key` (when a branch is left). Backward-shift deletion: the
    /// entries after it in its probe run move up into the hole where their
    /// own probe passes, so no later lookup stops early at it.
    fn remove(&mut self, key: u64) {
        let mut hole = self.find(key);
        if self.slots[hole][1] == 0 {
            return;
        }
        let mask = self.slots.len() - 1;
        let mut j = hole;
        loop {
            j = (j + 1) & mask;
            let slot = self.slots[j];
            if slot[1] == 0 {
                break;
            }
            // The entry at j may fill the hole when the hole lies on its
            // probe path, from its home slot up to j.
            let home = slot[0] as usize & mask;
            if j.wrapping_sub(home) & mask >= j.wrapping_sub(hole) & mask {
                self.slots[hole] = slot;
                hole = j;
            }
        }
        self.slots[hole] = [0; 2];
        self.len -= 1;
    }

    #[cold]
    #[inline(never)]
    fn grow(&mut self) {
        let size = 2 * self.slots.len();
        let old = std::mem::replace(&mut self.slots, Seen::zeroed(Vec::new(), size));
        for slot in old.into_iter().filter(|s| s[1] != 0) {
            let i = self.find(slot[0]);
            self.slots[i] = slot;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// (code, move, point, variation) of every move diagnostic.
    fn moves(sgf: &str) -> Vec<(&'static str, u32, String, Vec<u32>)> {
        let parsed = crate::sgf::parse_str(sgf);
        let r = replay(&parsed.collection.games[0], &RuleOverrides::default());
        r.diagnostics
            .iter()
            .filter(|d| d.move_number.is_some())
            .map(|d| (d.code.name(), d.move_number.unwrap(), d.point.clone().unwrap(), d.variation.clone().unwrap()))
            .collect()
    }

    const KO: &str = "RU[Japanese]SZ[5]AB[ba][ab][bc]AW[ca][bb][db][cc]";

    #[test]
    fn a_replay_in_the_buffers_of_others_finds_what_a_fresh_one_does() {
        // Boards of other sizes, captures, a repetition (the table of
        // positions), a setup: each replayed after the others on one
        // thread, in the buffers they leave, and alone on a new thread.
        let games = [
            format!("(;{KO};B[cb];W[bb])"),
            "(;SZ[19];B[pd];W[dp];B[pp];W[dd];B[aa];W[ba];B[ab];W[bb];B[tt];W[tt];B[cc])".to_string(),
            "(;SZ[7]AB[aa][ba]AW[ab][bb][ca];B[dd])".to_string(),
            format!("(;{};B[cb];W[bb];B[ee];W[ae];B[cb];W[bb])", KO.replace("Japanese", "Chinese")),
            "(;SZ[52:3];B[zA];W[aa])".to_string(),
        ];
        let fresh: Vec<_> = games.iter().map(|g| std::thread::scope(|s| s.spawn(|| moves(g)).join().unwrap())).collect();
        for _ in 0..2 {
            for (game, alone) in games.iter().zip(&fresh) {
                assert_eq!(&moves(game), alone, "{game}");
            }
        }
    }

    #[test]
    fn ko_retake() {
        assert_eq!(moves(&format!("(;{KO};B[cb];W[bb])")), [("ko", 2, "bb".into(), vec![])]);
        // After a move elsewhere the retake is legal.
        assert_eq!(moves(&format!("(;{KO};B[cb];W[ee];B[ae];W[bb])")), []);
    }

    #[test]
    fn ko_under_superko_rules_is_still_ko() {
        let sgf = format!("(;{};B[cb];W[bb])", KO.replace("Japanese", "Chinese"));
        assert_eq!(moves(&sgf), [("ko", 2, "bb".into(), vec![])]);
    }

    #[test]
    fn occupied_off_board_double_move() {
        let got = moves("(;RU[Japanese]SZ[9];B[ee];W[ee];B[zz];B[aa])");
        assert_eq!(got, [("occupied-point", 2, "ee".into(), vec![]), ("off-board", 3, "zz".into(), vec![]), ("double-move", 4, "aa".into(), vec![])]);
    }

    #[test]
    fn suicide_depends_on_rules() {
        let body = "SZ[3]AB[ba][ab];W[aa]";
        assert_eq!(moves(&format!("(;RU[Japanese]{body})")), [("suicide", 1, "aa".into(), vec![])]);
        let parsed = crate::sgf::parse_str(&format!("(;RU[Tromp-Taylor]{body})"));
        let r = replay(&parsed.collection.games[0], &RuleOverrides::default());
        assert_eq!(r.diagnostics[0].severity, Severity::Info);
    }

    #[test]
    fn handicap_then_white_first_is_normal() {
        assert_eq!(moves("(;RU[Japanese]SZ[19]HA[2]AB[dd][pp];W[pd];B[dp])"), []);
    }

    #[test]
    fn pl_allows_the_same_colour_again() {
        assert_eq!(moves("(;RU[Japanese]SZ[9];B[ee];PL[B];B[cc])"), []);
    }

    #[test]
    fn move_after_end_is_info_under_japanese() {
        let parsed = crate::sgf::parse_str("(;RU[AGA]SZ[9];B[ee];W[];B[];W[cc])");
        let r = replay(&parsed.collection.games[0], &RuleOverrides::default());
        assert_eq!(r.diagnostics.iter().map(|d| (d.code.name(), d.severity)).collect::<Vec<_>>(), [("move-after-end", Severity::Warning)]);
        let parsed = crate::sgf::parse_str("(;RU[Japanese]SZ[9];B[ee];W[];B[];W[cc])");
        let r = replay(&parsed.collection.games[0], &RuleOverrides::default());
        assert_eq!(r.diagnostics[0].severity, Severity::Info);
    }

    #[test]
    fn variations_restart_from_their_branch_point() {
        // Each branch plays at ee after B[aa]: legal in both; an occupied
        // point only in the branch that already has a stone there.
        let got = moves("(;RU[Japanese]SZ[9];B[aa](;W[ee];B[ee])(;W[cc];B[ee])(;W[ee];B[gg];W[aa]))");
        assert_eq!(got, [("occupied-point", 3, "ee".into(), vec![]), ("occupied-point", 4, "aa".into(), vec![2])]);
    }

    #[test]
    fn unknown_rules_note() {
        let parsed = crate::sgf::parse_str("(;SZ[9];B[ee])");
        let r = replay(&parsed.collection.games[0], &RuleOverrides::default());
        assert_eq!(r.diagnostics[0].code, Code::UnknownRules);
        assert_eq!(r.rules.name, "japanese");
    }

    #[test]
    fn handicap_mismatch() {
        let parsed = crate::sgf::parse_str("(;RU[Japanese]SZ[19]HA[3]AB[dd][pp];W[pd])");
        let r = replay(&parsed.collection.games[0], &RuleOverrides::default());
        assert_eq!(r.diagnostics[0].code, Code::HandicapMismatch);
        // Fox writes the stones in the second node.
        let parsed = crate::sgf::parse_str("(;RU[Japanese]SZ[19]HA[2];AB[dd][pp];W[pd])");
        let r = replay(&parsed.collection.games[0], &RuleOverrides::default());
        assert!(r.diagnostics.is_empty(), "{:?}", r.diagnostics);
    }

    #[test]
    fn missing_handicap_stones_get_the_standard_placement() {
        let parsed = crate::sgf::parse_str("(;RU[Japanese]SZ[19]HA[4];W[qc];B[pc];W[dq])");
        let r = replay(&parsed.collection.games[0], &RuleOverrides::default());
        let codes: Vec<_> = r.diagnostics.iter().map(|d| d.code).collect();
        assert_eq!(codes, [Code::HandicapMismatch], "{:?}", r.diagnostics);
        assert!(r.diagnostics[0].message.contains("Q16, D4, Q4, D16"), "{}", r.diagnostics[0].message);
        // A record that plays on a standard point had no stones there.
        let parsed = crate::sgf::parse_str("(;RU[Japanese]SZ[19]HA[2];W[pd])");
        let r = replay(&parsed.collection.games[0], &RuleOverrides::default());
        assert!(!r.diagnostics[0].message.contains("standard placement"));
        assert_eq!(r.diagnostics.len(), 1, "{:?}", r.diagnostics);
    }

    #[test]
    fn ko_forced_by_ko_property_is_info() {
        let parsed = crate::sgf::parse_str(&format!("(;{KO};B[cb];W[bb]KO[])"));
        let r = replay(&parsed.collection.games[0], &RuleOverrides::default());
        assert_eq!((r.diagnostics[0].code, r.diagnostics[0].severity), (Code::Ko, Severity::Info));
    }

    /// The position table against a `HashMap`: random inserts, and
    /// removals in the order a branch takes its keys back, with colliding
    /// low bits on purpose.
    #[test]
    fn seen_table_matches_a_hash_map() {
        let mut seen = Seen::with_capacity(0, Vec::new());
        let mut model = std::collections::HashMap::new();
        let mut history = Vec::new();
        let mut state = 1u64;
        for step in 0..20_000u32 {
            state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            // Few distinct low bits, spread over the table: long probe
            // runs, some wrapping round its end.
            let key = ((state >> 40) << 20) | (((state >> 56) * 4099) & 0xffff);
            if state % 7 == 0 && !history.is_empty() {
                let keep = (state as usize >> 8) % history.len();
                for key in history.drain(keep..) {
                    seen.remove(key);
                    model.remove(&key);
                }
                continue;
            }
            let expected = model.get(&key).copied();
            assert_eq!(seen.first_or_insert(key, step), expected, "step {step}");
            if expected.is_none() {
                model.insert(key, step);
                history.push(key);
            }
            assert_eq!(seen.len, model.len());
        }
        for (&key, &first) in &model {
            assert_eq!(seen.first_or_insert(key, u32::MAX - 1), Some(first));
        }
    }

    /// [`Positions`] against a plain table of every position reached on
    /// the line (what the replay kept before it looked at stone counts):
    /// random games on boards of 2x2 to 5x5, where captures bring
    /// positions back often, with passes, set-up changes (the count
    /// jumps), the player to move in the key (the same stones under two
    /// keys) and branch points gone back to, several times each.
    #[test]
    fn positions_match_a_plain_table() {
        let mut rng = 0x6b69_6675u64;
        let mut next = |n: u64| {
            rng = rng.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (rng >> 33) % n
        };
        let (mut repeats, mut take_backs) = (0, 0);
        for game in 0..400 {
            let size = 2 + game % 4;
            let mut board = Board::new(size, size).expect("a board");
            let mut positions = Positions::with_capacity(4, size * size, Vec::new(), Vec::new());
            let mut model = std::collections::HashMap::new();
            let mut added = Vec::new();
            let mut marks: Vec<(Board, Mark, usize)> = Vec::new();
            for n in 0..400u32 {
                let color = if next(2) == 0 { Color::Black } else { Color::White };
                let empties: Vec<Pt> = board.points().filter(|&p| board.cell(p) == Cell::Empty).collect();
                match next(24) {
                    0 if marks.len() < 5 => marks.push((board.clone(), positions.mark(), added.len())),
                    1 if !marks.is_empty() => {
                        let (at, mark, len) = marks.last().expect("a mark").clone();
                        board = at;
                        positions.take_back(mark);
                        for key in added.drain(len..) {
                            model.remove(&key);
                        }
                        if next(2) == 0 {
                            marks.pop();
                        }
                        take_backs += 1;
                        continue;
                    }
                    2 => {
                        let p = board.points().nth(next((size * size) as u64) as usize).expect("a point");
                        board.set(p, [Cell::Empty, Cell::Black, Cell::White][next(3) as usize]);
                        board.rebuild_chains();
                    }
                    _ if !empties.is_empty() && next(8) != 0 => {
                        let mut removed = Vec::new();
                        board.play_into(color, empties[next(empties.len() as u64) as usize], &mut removed);
                    }
                    _ => {} // a pass
                }
                let stones = board.stone_count();
                assert_eq!(stones as usize, board.points().filter(|&p| board.cell(p) != Cell::Empty).count());
                let key = board.situational_hash(color);
                let expected = model.get(&key).copied();
                // SAFETY: `stones` counts the stones of a board of `size * size` points.
                assert_eq!(unsafe { positions.first_or_insert(key, stones, n, !marks.is_empty()) }, expected, "game {game}, step {n}");
                match expected {
                    Some(_) => repeats += 1,
                    None => {
                        model.insert(key, n);
                        added.push(key);
                    }
                }
            }
        }
        // The games do what they are for.
        assert!(repeats > 10_000 && take_backs > 1_000, "{repeats} repeats, {take_backs} take-backs");
    }

    /// The stones of a focus's board, one row a string (`X`, `O`, `.`).
    fn focus_rows(d: &Diagnostic) -> Vec<String> {
        let focus = d.focus.as_deref().expect("a focus");
        let b = &focus.board;
        (0..b.height())
            .map(|y| {
                (0..b.width())
                    .map(|x| match b.stone(x, y) {
                        Some(Color::Black) => 'X',
                        Some(Color::White) => 'O',
                        None => '.',
                    })
                    .collect()
            })
            .collect()
    }

    /// Every move diagnostic's focus is the position the move was played
    /// on: before the ko retake, before the suicide removed its stones,
    /// before the superko move captured.
    #[test]
    fn focus_is_the_position_the_move_was_played_on() {
        let parsed = crate::sgf::parse_str(&format!("(;{KO};B[cb];W[bb])"));
        let r = replay(&parsed.collection.games[0], &RuleOverrides::default());
        let d = &r.diagnostics[0];
        assert_eq!(d.focus.as_ref().map(|f| (f.point, f.color)), Some((Point { x: 1, y: 1 }, Color::White)));
        assert_eq!(focus_rows(d), [".XO..", "X.XO.", ".XO..", ".....", "....."]);

        let parsed = crate::sgf::parse_str("(;RU[Japanese]SZ[3]AB[ba][ab];W[aa])");
        let r = replay(&parsed.collection.games[0], &RuleOverrides::default());
        assert_eq!(r.diagnostics[0].code, Code::Suicide);
        assert_eq!(focus_rows(&r.diagnostics[0]), [".X.", "X..", "..."]);
        // A suicide of two stones: both shown as they were, the point empty.
        let parsed = crate::sgf::parse_str("(;RU[Japanese]SZ[3]AB[ca][bb][ab]AW[ba];W[aa])");
        let r = replay(&parsed.collection.games[0], &RuleOverrides::default());
        assert!(r.diagnostics[0].message.contains("2 stones"), "{:?}", r.diagnostics);
        assert_eq!(focus_rows(&r.diagnostics[0]), [".OX", "XX.", "..."]);
    }
}
