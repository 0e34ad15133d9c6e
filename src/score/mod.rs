//! Rescoring finished games: territory (Japanese, Korean) and area
//! (Chinese, AGA, NZ, Tromp-Taylor, Ing) counts, dead stones, seki, and the
//! comparison with the recorded `RE[]`.
//!
//! The final position comes from `replay`; which stones are dead comes from
//! the record's territory markup, from [`estimate`], or from the user. This
//! module knows the board, the rules and the SGF model; it knows nothing of
//! output formats.

pub mod estimate;
mod map;
pub mod reader;
pub mod result;

use std::collections::HashSet;

use serde::Serialize;

use crate::board::{Board, Cell, Color, Pt};
use crate::diag::{Code, Diagnostic};
use crate::provenance;
use crate::replay::{self, Position, RuleOverrides};
pub use crate::rules::SekiEyes;
use crate::rules::{HandicapBonus, Scoring, SekiEyeRule, Tax, Ties};
use crate::sgf::props::{self, Point};
use crate::sgf::{GameTree, Node};
pub use map::{MapPoint, ScoreMap};
use result::{GameResult, Komi, NoticeKind, read_result};

/// Where the dead stones come from (`--dead-stones`).
#[derive(Debug, Clone, Default, PartialEq)]
pub enum DeadStones {
    /// Markup when the last node has it, otherwise estimate (none for
    /// rules without a dead-stone phase).
    #[default]
    Auto,
    /// The territory markup (`TB`/`TW`, `DD`) of the last node.
    Markup,
    /// Decided by kifu from the position.
    Estimate,
    /// The board as it stands.
    None,
    /// The chains at these points are dead.
    Points(Vec<Point>),
}

impl std::str::FromStr for DeadStones {
    type Err = props::ValueError;

    /// `auto`, `markup`, `estimate`, `none`, or points like `dd,pq`.
    fn from_str(s: &str) -> Result<DeadStones, props::ValueError> {
        Ok(match s {
            "auto" => DeadStones::Auto,
            "markup" => DeadStones::Markup,
            "estimate" => DeadStones::Estimate,
            "none" => DeadStones::None,
            list => DeadStones::Points(list.split(',').map(|p| Point::parse(p.trim())).collect::<Result<_, _>>()?),
        })
    }
}

/// Settings for rescoring.
#[derive(Debug, Clone, Default)]
pub struct ScoreOptions {
    /// The rules, with `--komi`, `--seki-eyes` and `--ties` among them.
    pub rules: RuleOverrides,
    pub dead_stones: DeadStones,
    /// `--handicap-bonus`: points given to White, replacing the ruleset's.
    pub handicap_bonus: Option<f64>,
    /// `--variation`: child index at each branch point, as diagnostics
    /// write it; the main line is empty.
    pub variation: Vec<u32>,
}

/// One side's count. Field names are part of the JSON contract.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Side {
    /// Empty points counted for this side.
    pub territory: u32,
    /// Living stones on the board (counted under area scoring only).
    pub stones: u32,
    /// Stones this side captured during the game.
    pub prisoners: u32,
    /// Opponent stones found dead at the end.
    pub dead: u32,
    pub total: f64,
}

/// The rescore of one game. Field names are part of the JSON contract.
#[derive(Debug, Clone, Serialize)]
pub struct GameScore {
    pub rules: &'static str,
    pub scoring: Scoring,
    pub komi: f64,
    pub handicap_bonus: f64,
    pub black: Side,
    pub white: Side,
    /// Dead stones, SGF letters.
    pub dead_stones: Vec<String>,
    /// Empty points that are dame of a seki, SGF letters.
    pub seki_points: Vec<String>,
    /// Chains whose status the estimator was unsure of (one point each).
    pub unsure: Vec<String>,
    /// Where the dead stones came from: markup, estimate, none or points.
    pub dead_stones_from: &'static str,
    pub winner: Option<&'static str>,
    pub margin: f64,
    /// Canonical RE form: `B+2.5`, `W+0.5`, `0` for a draw.
    pub result: String,
    pub recorded: Option<String>,
    /// Whether the recount matches RE; null when RE has no margin.
    pub agrees: Option<bool>,
    /// Whether the line ends with two passes.
    pub finished: bool,
    /// What each point of the final board counts as.
    #[serde(skip)]
    pub map: ScoreMap,
    /// Notes and problems found while scoring (komi, result syntax...).
    #[serde(skip)]
    pub diagnostics: Vec<Diagnostic>,
}

/// Why a game could not be scored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ScoreError {
    /// `GM[]` says the game is not Go.
    NotGo(i64),
    /// No board kifu can play on (`SZ[]`).
    NoBoard,
    /// `--variation` takes a child that the branch point after `moves`
    /// moves does not have (it has `children`; none when the line has no
    /// branch point left).
    NoVariation { index: u32, moves: usize, children: usize },
    /// A `--dead-stones` point is off the board or holds no stone.
    DeadStone { point: String, empty: bool },
}

impl std::fmt::Display for ScoreError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ScoreError::NotGo(gm) => write!(f, "not a game of Go (GM[{gm}]); not scored"),
            ScoreError::NoBoard => write!(f, "no board to score (bad SZ[])"),
            ScoreError::NoVariation { index, moves, children: 0 } => {
                write!(f, "--variation: no variation {index} after move {moves}: the line has no branch point there")
            }
            ScoreError::NoVariation { index, moves, children } => {
                write!(f, "--variation: no variation {index} at the branch point after move {moves}, which has {children} (0-{})", children - 1)
            }
            ScoreError::DeadStone { point, empty: true } => write!(f, "--dead-stones {point}: no stone there"),
            ScoreError::DeadStone { point, empty: false } => write!(f, "--dead-stones {point}: off the board"),
        }
    }
}

/// Rescores one game, or says why it cannot be.
pub fn score_game(game: &GameTree, options: &ScoreOptions) -> Result<GameScore, ScoreError> {
    let root = game.root();
    if let Some(gm) = props::non_go_game_type(root) {
        return Err(ScoreError::NotGo(gm));
    }
    let end = line_end(game, &options.variation)?;
    let position = replay::position_at(game, end.id(), &options.rules).ok_or(ScoreError::NoBoard)?;
    let mut diagnostics = Vec::new();
    let scoring = position.rules.scoring;
    let provenance = provenance::resolve(root, &position.rules);
    let komi = match position.rules.komi {
        Some(points) => Komi { points, stones: false, note: None },
        None => {
            diagnostics.extend(provenance.notes.iter().cloned());
            provenance.komi.clone()
        }
    };
    let recorded = root.get("RE").and_then(|p| p.first()).map(str::to_string);
    let recorded_result = recorded.as_deref().and_then(|re| recorded_result(re, root, &komi, &mut diagnostics));
    let (dead, unsure, from) = dead_stones(&position, end, options, &mut diagnostics)?;
    let mut rules = position.rules;
    let kgs_default = provenance.apply(&mut rules, options.rules.seki_eyes.is_some());
    let mut count = Count::new(&position.board, &dead);
    if from == "markup" {
        count.territory_from_markup(&position.board, end);
    } else {
        count.territory_by_flood_fill(rules.tax, rules.seki_eye_rule);
        if scoring == Scoring::Territory {
            count.discount_necessary_connections();
        }
    }
    if kgs_default && count.seki_eyes_counted > 0 {
        let at = root.get("PC").or(root.get("AP")).map_or(0, |p| p.offset());
        let n = count.seki_eyes_counted;
        let message = format!(
            "the record comes from KGS, whose Japanese scoring counts the eyes of groups in seki unless every chain around the eye touches a seki dame; kifu does the same, which counts {n} point{} that Art. 8 leaves to no one (--seki-eyes none for Art. 8)",
            if n == 1 { "" } else { "s" }
        );
        diagnostics.push(Diagnostic::new(Code::SekiEyesCounted, at, message));
    }
    let handicap_bonus = handicap_bonus(root, options, &position);
    let (black, white) = count.sides(&position.board, scoring, komi.points, handicap_bonus);
    let margin = (black.total - white.total).abs();
    let winner = if black.total > white.total {
        Some("B")
    } else if white.total > black.total || rules.ties == Ties::White {
        Some("W")
    } else {
        None
    };
    let result = match winner {
        Some(w) => format!("{w}+{}", trim_float(margin)),
        None => "0".to_string(),
    };
    let agrees = recorded_result.as_ref().and_then(|r| agreement(r, winner, margin));
    let board = &position.board;
    let points = |pts: &[Pt]| -> Vec<String> { pts.iter().map(|&p| letters(board, p)).collect() };
    Ok(GameScore {
        rules: position.rules.name,
        scoring,
        komi: komi.points,
        handicap_bonus,
        dead_stones: points(&dead),
        seki_points: points(&count.seki),
        unsure: points(&unsure),
        dead_stones_from: from,
        black,
        white,
        winner,
        margin,
        result,
        recorded,
        agrees,
        finished: position.ended_by_passes,
        map: count.map(board),
        diagnostics,
    })
}

/// A short guess at why a recount disagrees with `RE[]`, for messages.
pub fn likely_cause(score: &GameScore) -> &'static str {
    if !score.finished {
        "the game may be unfinished: the record does not end with two passes"
    } else if !score.unsure.is_empty() {
        "likely dead stones: kifu was unsure of some groups"
    } else if score.diagnostics.iter().any(|d| matches!(d.code, Code::MissingKomi | Code::KomiScaled)) {
        "likely komi"
    } else {
        "likely dead stones or komi"
    }
}

/// The last node of the line the variation path names.
fn line_end<'a>(game: &'a GameTree, path: &[u32]) -> Result<Node<'a>, ScoreError> {
    let mut node = game.root();
    let mut choices = path.iter();
    let mut moves = 0;
    loop {
        moves += node.properties().filter(|p| matches!(p.id(), "B" | "W")).count();
        let count = node.child_count();
        if count == 0 {
            // Choices left over name branch points the line does not reach.
            return match choices.next() {
                Some(&index) if index > 0 => Err(ScoreError::NoVariation { index, moves, children: 0 }),
                _ => Ok(node),
            };
        }
        let index = if count > 1 { choices.next().copied().unwrap_or(0) } else { 0 };
        node = node.children().nth(index as usize).ok_or(ScoreError::NoVariation { index, moves, children: count })?;
    }
}

/// The recorded result in points (Fox writes margins in stones when its
/// komi is), reporting what is odd about how RE[] is written.
fn recorded_result(re: &str, root: Node<'_>, komi: &Komi, diagnostics: &mut Vec<Diagnostic>) -> Option<GameResult> {
    let at = root.get("RE").map_or(root.offset(), |p| p.offset());
    match read_result(re) {
        Ok(reading) => {
            if let Some(notice) = &reading.notice {
                let d = Diagnostic::new(Code::ResultSyntax, at, notice.message.clone());
                diagnostics.push(if notice.kind == NoticeKind::Spelling { d.with_severity(crate::diag::Severity::Info) } else { d });
            }
            Some(reading.in_points(komi))
        }
        Err(e) => {
            diagnostics.push(Diagnostic::new(Code::ResultSyntax, at, e.message));
            None
        }
    }
}

/// The dead stones, the chains the estimator was unsure of, and where the
/// answer came from.
type DeadStonesFound = (Vec<Pt>, Vec<Pt>, &'static str);

fn dead_stones(position: &Position, end: Node<'_>, options: &ScoreOptions, diagnostics: &mut Vec<Diagnostic>) -> Result<DeadStonesFound, ScoreError> {
    let board = &position.board;
    let has_markup = end.has("TB") || end.has("TW") || end.has("DD");
    let method = match &options.dead_stones {
        DeadStones::Auto if has_markup => DeadStones::Markup,
        DeadStones::Auto if !position.rules.dead_stones_removed => DeadStones::None,
        DeadStones::Auto => DeadStones::Estimate,
        other => other.clone(),
    };
    Ok(match method {
        DeadStones::Markup => {
            if !has_markup {
                let message = "--dead-stones markup: the game has no TB/TW/DD markup at its end; no territory or dead stones counted";
                diagnostics.push(Diagnostic::new(Code::MissingMarkup, end.offset(), message));
            }
            (markup_dead(board, end), Vec::new(), "markup")
        }
        DeadStones::None => (Vec::new(), Vec::new(), "none"),
        DeadStones::Points(points) => {
            let mut dead = Vec::new();
            for p in points {
                let on_board = board.point(p.x as usize, p.y as usize);
                let point = if on_board.is_some() { format!("{} ({})", p.to_coordinate(board.height() as u8), p.to_sgf()) } else { p.to_sgf() };
                match on_board {
                    Some(pt) if board.cell(pt) != Cell::Empty => dead.extend(board.chain(pt)),
                    found => return Err(ScoreError::DeadStone { point, empty: found.is_some() }),
                }
            }
            dead.sort_unstable();
            dead.dedup();
            (dead, Vec::new(), "points")
        }
        _ => {
            let e = estimate::estimate(board);
            (e.dead, e.unsure, "estimate")
        }
    })
}

/// Stones inside the other colour's marked territory, `DD` stones, and
/// chains whose every liberty is the other colour's marked territory.
fn markup_dead(board: &Board, end: Node<'_>) -> Vec<Pt> {
    let mut dead = Vec::new();
    for (id, owner) in [("TB", Color::Black), ("TW", Color::White), ("DD", Color::Black), ("DD", Color::White)] {
        for pt in marked(board, end, id) {
            let cell = board.cell(pt);
            let is_dead = if id == "DD" { cell.color() == Some(owner) } else { cell.color() == Some(owner.opponent()) };
            if is_dead {
                dead.push(pt);
            }
        }
    }
    dead.extend(chains_enclosed_by_marked_territory(board, end, &dead));
    dead.sort_unstable();
    dead.dedup();
    dead
}

/// Chains not marked dead whose liberties all lie in the other colour's
/// marked territory. Some programs (GNU Go's self-play records) mark only
/// the empty points of a territory, never the dead stones inside it; a
/// chain with no liberty of its own or shared cannot be alive. Server
/// markup (KGS) marks the dead stones, so this finds nothing there.
fn chains_enclosed_by_marked_territory(board: &Board, end: Node<'_>, dead: &[Pt]) -> Vec<Pt> {
    let mut territory_of = vec![None; board.points().last().map_or(0, |p| p as usize + 1)];
    for (id, color) in [("TB", Color::Black), ("TW", Color::White)] {
        for pt in marked(board, end, id) {
            if board.cell(pt) == Cell::Empty {
                territory_of[pt as usize] = Some(color);
            }
        }
    }
    let mut seen: HashSet<Pt> = dead.iter().copied().collect();
    let mut enclosed = Vec::new();
    for p in board.points() {
        let Some(color) = board.cell(p).color() else { continue };
        if seen.contains(&p) {
            continue;
        }
        let chain = board.chain(p);
        seen.extend(chain.iter().copied());
        let liberties = board.liberties(p);
        if !liberties.is_empty() && liberties.iter().all(|&l| territory_of[l as usize] == Some(color.opponent())) {
            enclosed.extend(chain);
        }
    }
    enclosed
}

/// The on-board points a point-list property of `node` names.
fn marked(board: &Board, node: Node<'_>, id: &str) -> Vec<Pt> {
    node.properties()
        .filter(|p| p.id() == id)
        .filter_map(|p| props::parse_elist_of_point(p.values().map(|v| v.text())).ok())
        .flatten()
        .filter_map(|p| board.point(p.x as usize, p.y as usize))
        .collect()
}

fn handicap_bonus(root: Node<'_>, options: &ScoreOptions, position: &Position) -> f64 {
    if let Some(b) = options.handicap_bonus {
        return b;
    }
    if position.rules.scoring != Scoring::Area {
        return 0.0;
    }
    let stones = props::handicap(root).ok().flatten().unwrap_or(0).max(0) as f64;
    if stones < 2.0 {
        return 0.0;
    }
    match position.rules.handicap_bonus {
        HandicapBonus::None => 0.0,
        HandicapBonus::PerStone => stones,
        HandicapBonus::PerStoneLessOne => stones - 1.0,
    }
}

/// Whether the recount matches the recorded result; `None` when the
/// record gives no margin to compare.
fn agreement(recorded: &GameResult, winner: Option<&str>, margin: f64) -> Option<bool> {
    match recorded {
        GameResult::Draw => Some(winner.is_none()),
        _ => {
            let m = recorded.margin()?;
            let w = recorded.winner()?.letter();
            Some(winner == Some(w) && (m - margin).abs() < 1e-6)
        }
    }
}

/// What each point of the final board counts as.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Owner {
    /// Neutral: both colours (or neither) beside the region; can be filled.
    Dame,
    /// A seki dame: neither colour can fill it.
    Seki,
    /// An eye of stones in seki (Art. 8), or a point a necessary
    /// connection fills: counts for nobody, but is no dame to fill.
    SekiEye,
    Territory(Color),
}

/// The board with dead stones lifted, and what each empty point counts as.
struct Count {
    /// The final board's cells with dead stones removed (indexed by Pt).
    cells: Vec<Cell>,
    /// Distance between rows in `cells` (the board's layout).
    stride: Pt,
    dead: Vec<Pt>,
    owner: Vec<Owner>,
    seki: Vec<Pt>,
    /// Points counted as territory that Art. 8 would leave to no one (the
    /// eyes of groups in seki that `SekiEyeRule::EveryChainInSeki` counts).
    seki_eyes_counted: u32,
}

impl Count {
    fn new(board: &Board, dead: &[Pt]) -> Count {
        let n = board.points().last().map_or(0, |p| p as usize + 1);
        let mut cells = vec![Cell::Border; n + board.width() + 3];
        for p in board.points() {
            cells[p as usize] = board.cell(p);
        }
        for &p in dead {
            cells[p as usize] = Cell::Empty;
        }
        let first = board.point(0, 0).expect("a board has a point");
        let stride = board.neighbors(first)[3] - first;
        Count { owner: vec![Owner::Dame; cells.len()], cells, stride, dead: dead.to_vec(), seki: Vec::new(), seki_eyes_counted: 0 }
    }

    /// Each side's count under the rules' scoring.
    fn sides(&self, board: &Board, scoring: Scoring, komi: f64, handicap_bonus: f64) -> (Side, Side) {
        let side = |color: Color| {
            let cell = Cell::of(color);
            let territory = self.owner.iter().filter(|&&o| o == Owner::Territory(color)).count() as u32;
            let stones = board.points().filter(|&p| self.cells[p as usize] == cell).count() as u32;
            let dead = self.dead.iter().filter(|&&p| board.cell(p).color() == Some(color.opponent())).count() as u32;
            let prisoners = board.prisoners(color);
            let mut s = Side { territory, stones, prisoners, dead, total: 0.0 };
            s.total = match scoring {
                Scoring::Territory => (territory + prisoners + dead) as f64,
                Scoring::Area => (stones + territory) as f64,
            };
            s
        };
        let black = side(Color::Black);
        let mut white = side(Color::White);
        white.total += komi + if scoring == Scoring::Area { handicap_bonus } else { 0.0 };
        (black, white)
    }

    /// What each point of the final board counts as (see [`MapPoint`]).
    fn map(&self, board: &Board) -> ScoreMap {
        ScoreMap::new(board.width() as u8, board.height() as u8, |x, y| {
            let p = board.point(usize::from(x), usize::from(y)).expect("on board");
            match (board.cell(p).color(), self.cells[p as usize], self.owner[p as usize]) {
                (Some(color), Cell::Black | Cell::White, _) => MapPoint::Stone(color),
                (Some(color), _, _) => MapPoint::Dead(color),
                (None, _, Owner::Territory(color)) => MapPoint::Territory(color),
                (None, _, Owner::Seki) => MapPoint::SekiDame,
                (None, _, Owner::SekiEye) => MapPoint::NoOnes,
                _ => MapPoint::Dame,
            }
        })
    }

    /// Territory as the markup says: the marked points, and the points of
    /// dead stones left unmarked inside a marked territory.
    fn territory_from_markup(&mut self, board: &Board, end: Node<'_>) {
        for (id, color) in [("TB", Color::Black), ("TW", Color::White)] {
            for pt in marked(board, end, id) {
                if self.cells[pt as usize] == Cell::Empty {
                    self.owner[pt as usize] = Owner::Territory(color);
                }
            }
        }
        // Unmarked dead stones take the territory around them, spreading
        // along their chains.
        let mut changed = true;
        while changed {
            changed = false;
            for &p in &self.dead {
                let Some(color) = board.cell(p).color() else { continue };
                let theirs = Owner::Territory(color.opponent());
                if self.owner[p as usize] == Owner::Dame && self.neighbors(p).iter().any(|&n| self.owner[n as usize] == theirs) {
                    self.owner[p as usize] = theirs;
                    changed = true;
                }
            }
        }
    }

    /// Empty regions reached by one colour only are its territory, except
    /// the eyes of stones in seki that the seki tax leaves to nobody.
    fn territory_by_flood_fill(&mut self, tax: Tax, seki_eye_rule: SekiEyeRule) {
        let seki_dame = self.seki_dame();
        let mut seen = vec![false; self.cells.len()];
        let mut stack = Vec::new();
        let mut region = Vec::new();
        for start in 0..self.cells.len() {
            if self.cells[start] != Cell::Empty || seen[start] {
                continue;
            }
            region.clear();
            let (mut black, mut white) = (false, false);
            // Whether some chain around is in seki, and whether all are at a seki dame.
            let (mut touches_seki, mut all_at_dame) = (false, true);
            stack.push(start as Pt);
            seen[start] = true;
            while let Some(p) = stack.pop() {
                region.push(p);
                for n in self.neighbors(p) {
                    match self.cells[n as usize] {
                        Cell::Empty if !seen[n as usize] => {
                            seen[n as usize] = true;
                            stack.push(n);
                        }
                        Cell::Black => {
                            black = true;
                            touches_seki |= seki_dame.chains_touch(n);
                            all_at_dame &= seki_dame.at_dame.contains(&n);
                        }
                        Cell::White => {
                            white = true;
                            touches_seki |= seki_dame.chains_touch(n);
                            all_at_dame &= seki_dame.at_dame.contains(&n);
                        }
                        _ => {}
                    }
                }
            }
            // `Tax::All`'s 2 points a living group are not taken here.
            let nobodys = match (tax, seki_eye_rule) {
                (Tax::None, _) => false,
                (_, SekiEyeRule::AnyChainInSeki) => touches_seki,
                (_, SekiEyeRule::EveryChainInSeki) => all_at_dame,
            };
            let owner = match (black, white) {
                _ if region.iter().any(|p| seki_dame.points.contains(p)) => Owner::Seki,
                (true, false) if !nobodys => Owner::Territory(Color::Black),
                (false, true) if !nobodys => Owner::Territory(Color::White),
                (true, true) | (false, false) => Owner::Dame,
                _ => Owner::SekiEye,
            };
            if touches_seki && matches!(owner, Owner::Territory(_)) {
                self.seki_eyes_counted += region.len() as u32;
            }
            for &p in &region {
                self.owner[p as usize] = owner;
            }
        }
        self.seki = seki_dame.points;
        self.seki.sort_unstable();
    }

    /// Neutral points that neither colour can fill without putting its own
    /// chain in atari (Art. 8), and the chains that touch them.
    fn seki_dame(&self) -> SekiDame {
        let board_chains = Chains::new(self);
        let mut points = Vec::new();
        for p in 0..self.cells.len() as Pt {
            if self.cells[p as usize] != Cell::Empty {
                continue;
            }
            let colors: Vec<Cell> = self.neighbors(p).into_iter().map(|n| self.cells[n as usize]).collect();
            let both = colors.contains(&Cell::Black) && colors.contains(&Cell::White);
            if both && self.self_atari(&board_chains, p, Cell::Black) && self.self_atari(&board_chains, p, Cell::White) {
                points.push(p);
            }
        }
        let mut chains = Vec::new();
        for &p in &points {
            for n in self.neighbors(p) {
                if matches!(self.cells[n as usize], Cell::Black | Cell::White) && !chains.contains(&n) {
                    chains.extend(board_chains.at(n).stones.iter().filter(|q| !chains.contains(q)).collect::<Vec<_>>());
                }
            }
        }
        let at_dame = chains.clone();
        // A living chain left in atari inside a small eye lives only because
        // taking it is a ko nobody can win (a seki by ko, as in a double-ko
        // seki). In atari elsewhere it is just a stone left to capture.
        let small_eye_points: Vec<Pt> = self.one_colour_regions(&board_chains, MAX_LINKING_EYE).into_iter().flat_map(|(region, _)| region).collect();
        for p in 0..self.cells.len() as Pt {
            if matches!(self.cells[p as usize], Cell::Black | Cell::White) && !chains.contains(&p) && board_chains.at(p).liberties.len() == 1 {
                let chain = board_chains.at(p).stones.clone();
                let in_small_eye = chain.iter().flat_map(|&s| self.neighbors(s)).any(|n| small_eye_points.contains(&n));
                if in_small_eye {
                    chains.extend(chain);
                }
            }
        }
        // Stones in seki are groups, not single chains: chains that share a
        // small eye live or die together, so when one of them is in seki
        // all are, and none of their eyes counts (seki_exotics/seki_score:
        // a ring of chains joined by one-point eyes, one of them touching
        // the seki dame). A chain beside a larger region of its own colour
        // has its own life: the seki does not reach it (in KGS games, the
        // territory of whole living groups was lost that way).
        if !chains.is_empty() {
            let mut own_life = vec![false; board_chains.all.len()];
            for (region, around) in self.one_colour_regions(&board_chains, usize::MAX) {
                if region.len() > MAX_LINKING_EYE {
                    for s in around {
                        own_life[board_chains.index[s as usize] as usize] = true;
                    }
                }
            }
            let has_own_life = |c: Pt| own_life[board_chains.index[c as usize] as usize];
            loop {
                let before = chains.len();
                for owner_chains in self.small_eyes(&board_chains, MAX_LINKING_EYE) {
                    if owner_chains.iter().any(|c| chains.contains(c)) {
                        for c in owner_chains {
                            if !chains.contains(&c) && !has_own_life(c) {
                                chains.extend(&board_chains.at(c).stones);
                            }
                        }
                    }
                }
                if chains.len() == before {
                    break;
                }
            }
        }
        SekiDame { points, chains, at_dame }
    }

    /// For each empty region of at most `max` points that touches one
    /// colour only: one stone of every chain around it.
    fn small_eyes(&self, board_chains: &Chains, max: usize) -> Vec<Vec<Pt>> {
        self.one_colour_regions(board_chains, max).into_iter().map(|(_, chains)| chains).collect()
    }

    /// Empty regions of at most `max` points that touch one colour only,
    /// with one stone of every chain around each.
    fn one_colour_regions(&self, board_chains: &Chains, max: usize) -> Vec<(Vec<Pt>, Vec<Pt>)> {
        let mut seen = vec![false; self.cells.len()];
        let mut out = Vec::new();
        for start in 0..self.cells.len() {
            if self.cells[start] != Cell::Empty || seen[start] {
                continue;
            }
            let mut region = vec![start as Pt];
            seen[start] = true;
            let mut stones: Vec<Pt> = Vec::new();
            let mut i = 0;
            while i < region.len() {
                for n in self.neighbors(region[i]) {
                    match self.cells[n as usize] {
                        Cell::Empty if !seen[n as usize] => {
                            seen[n as usize] = true;
                            region.push(n);
                        }
                        Cell::Black | Cell::White => stones.push(n),
                        _ => {}
                    }
                }
                i += 1;
            }
            let one_colour = stones.windows(2).all(|w| self.cells[w[0] as usize] == self.cells[w[1] as usize]);
            if region.len() > max || stones.is_empty() || !one_colour {
                continue;
            }
            let mut ids: Vec<u32> = stones.iter().map(|&s| board_chains.index[s as usize]).collect();
            ids.sort_unstable();
            ids.dedup();
            out.push((region, ids.into_iter().map(|id| board_chains.all[id as usize].stones[0]).collect()));
        }
        out
    }

    /// Territory counting: points a player must fill once the dame are
    /// filled (commentary to Art. 9) are not territory. A chain whose only
    /// liberties are one point of its own territory and dame the opponent
    /// can fill safely will be in atari there, and must connect, unless
    /// filling one of those dame itself links it to more territory. Each
    /// such connection may leave the next chain short, so this repeats.
    /// KGS's territory markup leaves out the same points: 49 of the 60 it
    /// leaves out in the marked Japanese games of the corpus, and 1 it
    /// counts (the simpler one-dame rule found 30).
    fn discount_necessary_connections(&mut self) {
        let mut probe =
            Count { cells: self.cells.clone(), stride: self.stride, dead: Vec::new(), owner: self.owner.clone(), seki: Vec::new(), seki_eyes_counted: 0 };
        probe.fill_one_sided_dame();
        loop {
            let connections = probe.necessary_connections();
            if connections.is_empty() {
                break;
            }
            for p in connections {
                let Owner::Territory(color) = probe.owner[p as usize] else { continue };
                probe.cells[p as usize] = Cell::of(color);
                self.owner[p as usize] = Owner::SekiEye;
            }
        }
    }

    /// Fills, in the probe's cells, each dame only one colour can fill
    /// without self-atari, as the players would before counting.
    fn fill_one_sided_dame(&mut self) {
        let mut chains = Chains::new(self);
        let mut changed = true;
        while changed {
            changed = false;
            for d in 0..self.cells.len() as Pt {
                if self.cells[d as usize] != Cell::Empty || self.owner[d as usize] != Owner::Dame {
                    continue;
                }
                let mut safe = [Cell::Black, Cell::White]
                    .into_iter()
                    .filter(|&c| self.neighbors(d).iter().any(|&n| self.cells[n as usize] == c) && !self.self_atari(&chains, d, c));
                if let (Some(color), None) = (safe.next(), safe.next()) {
                    self.cells[d as usize] = color;
                    chains.add_stone(self, d);
                    changed = true;
                }
            }
        }
    }

    /// Own-territory points where a chain must connect once the opponent
    /// fills the dame around it (see `discount_necessary_connections`).
    fn necessary_connections(&self) -> Vec<Pt> {
        let chains = Chains::new(self);
        let mut out = Vec::new();
        for chain in &chains.all {
            let Some(color) = self.cells[chain.stones[0] as usize].color() else { continue };
            let libs = &chain.liberties;
            let own: Vec<Pt> = libs.iter().copied().filter(|&n| self.owner[n as usize] == Owner::Territory(color)).collect();
            let dame: Vec<Pt> = libs.iter().copied().filter(|&n| self.owner[n as usize] == Owner::Dame).collect();
            if own.len() != 1 || own.len() + dame.len() != libs.len() {
                continue;
            }
            let opponent_fills_all = dame.iter().all(|&d| !self.self_atari(&chains, d, Cell::of(color.opponent())));
            let territory_if_filled = |d: Pt| {
                let libs = chains.liberties_if_played(self, d, Cell::of(color));
                libs.iter().filter(|&&n| matches!(self.owner[n as usize], Owner::Territory(_))).count()
            };
            let filling_links_out = dame.iter().any(|&d| territory_if_filled(d) >= 2);
            // Connecting must give the chain a liberty the opponent cannot
            // take; filling an eye only its own stones surround does not, so
            // its owner fills a dame instead and keeps the eye.
            let connection_saves = chains.liberties_if_played(self, own[0], Cell::of(color)).iter().any(|l| !dame.contains(l));
            if opponent_fills_all && !filling_links_out && connection_saves {
                out.push(own[0]);
            }
        }
        out
    }

    /// Whether a stone of `color` at the empty point `p` would leave its
    /// chain with at most one liberty (and capture nothing).
    fn self_atari(&self, chains: &Chains, p: Pt, color: Cell) -> bool {
        // Stops at the second liberty: the chains of open boards have
        // hundreds.
        let mut first = None;
        let mut second_liberty = |l: Pt| l != p && *first.get_or_insert(l) != l;
        for n in self.neighbors(p) {
            let cell = self.cells[n as usize];
            let found = if cell == Cell::Empty {
                second_liberty(n)
            } else if cell == color {
                chains.at(n).liberties.iter().any(|&l| second_liberty(l))
            } else {
                cell.color().is_some() && chains.at(n).liberties.len() == 1
            };
            if found {
                return false;
            }
        }
        true
    }

    fn neighbors(&self, p: Pt) -> [Pt; 4] {
        [p - self.stride, p - 1, p + 1, p + self.stride]
    }
}

/// The largest eye through which chains share their fate in a seki.
const MAX_LINKING_EYE: usize = 2;

/// Seki dame and the stones of the chains in seki.
struct SekiDame {
    points: Vec<Pt>,
    /// Stones of the groups in seki (chains joined by small eyes).
    chains: Vec<Pt>,
    /// Stones of the chains that touch a seki dame themselves.
    at_dame: Vec<Pt>,
}

impl SekiDame {
    fn chains_touch(&self, p: Pt) -> bool {
        self.chains.contains(&p)
    }
}

/// Every chain of a count's board, found in one pass: the questions the
/// count asks (self-atari, liberties after a move) then need no flood fill
/// each.
struct Chains {
    /// Per cell: the index in `all` of the chain there, or `NO_CHAIN`.
    index: Vec<u32>,
    all: Vec<ChainInfo>,
    /// Per cell: 1 + the index of the last chain that listed it as a
    /// liberty (a list without `contains`: open boards have chains of
    /// hundreds of liberties).
    listed: Vec<u32>,
}

struct ChainInfo {
    stones: Vec<Pt>,
    liberties: Vec<Pt>,
}

const NO_CHAIN: u32 = u32::MAX;

impl Chains {
    fn new(count: &Count) -> Chains {
        let mut index = vec![NO_CHAIN; count.cells.len()];
        let mut listed = vec![0; count.cells.len()];
        let mut all = Vec::new();
        for start in 0..count.cells.len() {
            let color = count.cells[start];
            if index[start] != NO_CHAIN || color.color().is_none() {
                continue;
            }
            let id = all.len() as u32;
            index[start] = id;
            let (mut stones, mut liberties) = (vec![start as Pt], Vec::new());
            let mut i = 0;
            while i < stones.len() {
                for n in count.neighbors(stones[i]) {
                    let cell = count.cells[n as usize];
                    if cell == color && index[n as usize] == NO_CHAIN {
                        index[n as usize] = id;
                        stones.push(n);
                    } else if cell == Cell::Empty && listed[n as usize] != id + 1 {
                        listed[n as usize] = id + 1;
                        liberties.push(n);
                    }
                }
                i += 1;
            }
            all.push(ChainInfo { stones, liberties });
        }
        Chains { index, all, listed }
    }

    /// Updates the chains for the stone just put at `p` (no capture): it
    /// joins the chains of its colour around it and takes a liberty from
    /// the others. The joined chains are left empty in `all`.
    fn add_stone(&mut self, count: &Count, p: Pt) {
        let color = count.cells[p as usize];
        let id = self.all.len() as u32;
        let (mut stones, mut liberties) = (vec![p], Vec::new());
        let mut list = |l: Pt, liberties: &mut Vec<Pt>| {
            if l != p && self.listed[l as usize] != id + 1 {
                self.listed[l as usize] = id + 1;
                liberties.push(l);
            }
        };
        for n in count.neighbors(p) {
            let cell = count.cells[n as usize];
            let old = self.index[n as usize];
            if cell == Cell::Empty {
                list(n, &mut liberties);
            } else if cell == color {
                if old == id {
                    continue;
                }
                let joined = std::mem::replace(&mut self.all[old as usize], ChainInfo { stones: Vec::new(), liberties: Vec::new() });
                for &s in &joined.stones {
                    self.index[s as usize] = id;
                }
                stones.extend(joined.stones);
                for l in joined.liberties {
                    list(l, &mut liberties);
                }
            } else if cell.color().is_some() {
                self.all[old as usize].liberties.retain(|&l| l != p);
            }
        }
        self.index[p as usize] = id;
        self.all.push(ChainInfo { stones, liberties });
    }

    /// The chain of the stone at `p`.
    fn at(&self, p: Pt) -> &ChainInfo {
        &self.all[self.index[p as usize] as usize]
    }

    /// The liberties the chain of a stone of `color` put at the empty point
    /// `p` would have (captures aside).
    fn liberties_if_played(&self, count: &Count, p: Pt, color: Cell) -> Vec<Pt> {
        let mut liberties: Vec<Pt> = Vec::new();
        for n in count.neighbors(p) {
            let cell = count.cells[n as usize];
            let around: &[Pt] = if cell == Cell::Empty {
                std::slice::from_ref(&n)
            } else if cell == color {
                &self.at(n).liberties
            } else {
                &[]
            };
            for &l in around {
                if l != p && !liberties.contains(&l) {
                    liberties.push(l);
                }
            }
        }
        liberties
    }
}

fn letters(board: &Board, p: Pt) -> String {
    let (x, y) = board.xy(p);
    Point { x: x as u8, y: y as u8 }.to_sgf()
}

/// `12.5` → "12.5", `3.0` → "3".
fn trim_float(x: f64) -> String {
    let s = format!("{x:.2}");
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}
