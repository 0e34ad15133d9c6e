//! Rescoring finished games: territory (Japanese, Korean) and area
//! (Chinese, AGA, NZ, Tromp-Taylor, Ing) counts, dead stones, seki, and the
//! comparison with the recorded `RE[]`.
//!
//! The final position comes from `replay`; which stones are dead comes from
//! the record's territory markup, from [`estimate`], or from the user. This
//! module knows the board, the rules and the SGF model; it knows nothing of
//! output formats.

mod count;
pub mod estimate;
mod life;
mod map;
pub mod reader;
pub mod result;
pub mod verify;

use std::collections::HashSet;

use serde::Serialize;

use crate::analysis::Analysis;
use crate::board::{Board, Cell, Color, Pt};
use crate::diag::{Code, Diagnostic};
use crate::provenance;
use crate::replay::{self, Position, RuleOverrides};
pub use crate::rules::SekiEyes;
use crate::rules::{HandicapBonus, Scoring, Ties};
use crate::sgf::props::{self, Point};
use crate::sgf::{GameTree, Node, PropId};
use count::{CountRules, Counted, Kind};
use estimate::{ChainCall, Doubt, Effort};
pub use map::{MapPoint, ScoreMap};
use result::{GameResult, Komi, NoticeKind, read_result};
use verify::{Recounted, Verdict};

/// Other runs of the estimator asked when nothing else explains a
/// disagreement with RE: whether one of them counts to RE.
const OTHER_ESTIMATES: u64 = 3;

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
    /// The estimator's random numbers: 0 (the default) gives kifu's
    /// answer; others measure how much a figure depends on them
    /// (`estimate::estimate_seeded`).
    pub estimate_seed: u64,
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
    /// The same chains, each with why the estimator was unsure of it.
    pub unsure_groups: Vec<UnsureGroup>,
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
    /// Whether kifu confirms RE, and what explains a disagreement.
    #[serde(flatten)]
    pub verdict: Verdict,
    /// What each point of the final board counts as.
    #[serde(skip)]
    pub map: ScoreMap,
    /// Notes and problems found while scoring (komi, result syntax...).
    #[serde(skip)]
    pub diagnostics: Vec<Diagnostic>,
}

/// A chain the estimator was unsure of. Field names and reason names are
/// part of the JSON contract.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct UnsureGroup {
    /// One stone of the chain, SGF letters.
    pub point: String,
    /// `ko`, `eye-shape`, `race` or `split` (see [`estimate::DoubtReason`]).
    pub reason: &'static str,
    /// The call kept: dead or alive.
    pub dead: bool,
    /// Words for people: "capturing race left open".
    #[serde(skip)]
    pub why: &'static str,
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
    // A game whose RE has a margin was counted, even when its record
    // stops before the passes (Fox, tournament programs).
    let counted = recorded_result.as_ref().is_some_and(|r| r.margin().is_some());
    let effort = if position.ended_by_passes {
        Effort::Final
    } else if counted {
        Effort::Counted
    } else {
        Effort::InPlay
    };
    let DeadStonesFound { dead, unsure, calls, from } = dead_stones(&position, end, options, effort, &mut diagnostics)?;
    let mut rules = position.rules;
    let kgs_default = provenance.apply(&mut rules, options.rules.seki_eyes.is_some(), options.rules.connections.is_some());
    let board = &position.board;
    let analysis = Analysis::without(board, &dead);
    let counted = if from == "markup" { markup_count(&analysis, board, end, &dead) } else { count::count(&analysis, CountRules::of(&rules)) };
    if kgs_default && counted.seki_eyes_counted > 0 {
        let at = root.get("PC").or(root.get("AP")).map_or(0, |p| p.offset());
        let n = counted.seki_eyes_counted;
        let message = format!(
            "the record comes from KGS, whose Japanese scoring counts the eyes of groups in seki unless every chain around the eye touches a seki dame; kifu does the same, which counts {n} point{} that Art. 8 leaves to no one (--seki-eyes none for Art. 8)",
            if n == 1 { "" } else { "s" }
        );
        diagnostics.push(Diagnostic::new(Code::SekiEyesCounted, at, message));
    }
    let kept = counted.one_dame_kept;
    if from != "markup" && kept > 0 {
        let at = root.get("PC").or(root.get("AP")).map_or(0, |p| p.offset());
        let message = format!(
            "the record comes from KGS, whose Japanese scoring keeps a point of territory where a single dame forces a connection; kifu does the same, which counts {kept} point{} that Japanese rules leave to no one (--connections every for Japanese rules)",
            if kept == 1 { "" } else { "s" }
        );
        diagnostics.push(Diagnostic::new(Code::ConnectionCounted, at, message));
    }
    let handicap_bonus = handicap_bonus(root, options, &position);
    // The button: half a point to the first player to pass.
    let button = first_passer(end, board).filter(|_| rules.button);
    let (black, white) = sides(&counted, &analysis, board, &dead, Tally { scoring, komi: komi.points, handicap_bonus, button });
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
    let agrees = recorded_result.as_ref().and_then(|r| verify::fits(r, black.total - white.total, rules.ties));
    let verdict = match recorded_result {
        Some(recorded) => {
            let recount = |recount_dead: &[Pt], count_rules: CountRules| {
                // The other conventions recount these very dead stones: the
                // analysis of the same cells is the one already made.
                let other;
                let analysis = if recount_dead == dead.as_slice() {
                    &analysis
                } else {
                    other = Analysis::without(board, recount_dead);
                    &other
                };
                let counted = count::count(analysis, count_rules);
                let (black, white) = sides(&counted, analysis, board, recount_dead, Tally { scoring, komi: komi.points, handicap_bonus, button });
                black.total - white.total
            };
            let markup = from == "markup";
            let other_estimates = || match from {
                "estimate" => (1..=OTHER_ESTIMATES).map(|k| estimate::estimate_seeded(board, effort, options.estimate_seed.wrapping_add(k)).dead).collect(),
                _ => Vec::new(),
            };
            let open_ko = chains_in_atari(&analysis, &counted);
            let unsure: Vec<Pt> = unsure.iter().map(|d| d.point).collect();
            verify::verify(&Recounted {
                board,
                recorded,
                difference: black.total - white.total,
                komi: komi.points,
                ties: rules.ties,
                rules: (!markup).then_some(rules),
                dead: &dead,
                calls: &calls,
                unsure: &unsure,
                finished: position.ended_by_passes || markup,
                open_ko: &open_ko,
                open_points: board.points().filter(|&p| board.cell(p) == Cell::Empty && counted.kinds[p as usize] == Kind::Dame).count(),
                recount: &recount,
                other_estimates: &other_estimates,
                winner_unrecorded: provenance.winner_unrecorded,
            })
        }
        None => Verdict::default(),
    };
    let points = |pts: &[Pt]| -> Vec<String> { pts.iter().map(|&p| letters(board, p)).collect() };
    Ok(GameScore {
        rules: position.rules.name,
        scoring,
        komi: komi.points,
        handicap_bonus,
        dead_stones: points(&dead),
        seki_points: points(&counted.seki.dame),
        unsure: unsure.iter().map(|d| letters(board, d.point)).collect(),
        unsure_groups: unsure
            .iter()
            .map(|d| UnsureGroup { point: letters(board, d.point), reason: d.reason.name(), dead: d.dead, why: d.reason.describe() })
            .collect(),
        dead_stones_from: from,
        black,
        white,
        winner,
        margin,
        result,
        recorded,
        agrees,
        finished: position.ended_by_passes,
        verdict,
        map: score_map(&counted, board),
        diagnostics,
    })
}

/// The player who passed first on the line from the root to `end`: a
/// `B[]`/`W[]` with no point, or `tt` on a board up to 19x19.
fn first_passer(end: Node<'_>, board: &Board) -> Option<Color> {
    let mut line: Vec<Node<'_>> = std::iter::successors(Some(end), |n| n.parent()).collect();
    line.reverse();
    let tt_is_pass = board.width() <= 19 && board.height() <= 19;
    line.iter().flat_map(|n| n.properties()).find_map(|p| {
        let color = match p.code() {
            PropId::B => Color::Black,
            PropId::W => Color::White,
            _ => return None,
        };
        let value = p.first().unwrap_or("").trim();
        (value.is_empty() || (tt_is_pass && value == "tt")).then_some(color)
    })
}

/// The last node of the line the variation path names.
fn line_end<'a>(game: &'a GameTree, path: &[u32]) -> Result<Node<'a>, ScoreError> {
    let mut node = game.root();
    let mut choices = path.iter();
    let mut moves = 0;
    loop {
        moves += node.properties().filter(|p| matches!(p.code(), PropId::B | PropId::W)).count();
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

/// The dead stones, and where the answer came from.
struct DeadStonesFound {
    dead: Vec<Pt>,
    /// The chains the estimator was unsure of.
    unsure: Vec<Doubt>,
    /// The estimator's call on each chain it judged.
    calls: Vec<ChainCall>,
    from: &'static str,
}

impl DeadStonesFound {
    /// Dead stones kifu did not estimate.
    fn given(dead: Vec<Pt>, from: &'static str) -> DeadStonesFound {
        DeadStonesFound { dead, unsure: Vec::new(), calls: Vec::new(), from }
    }
}

fn dead_stones(
    position: &Position,
    end: Node<'_>,
    options: &ScoreOptions,
    effort: Effort,
    diagnostics: &mut Vec<Diagnostic>,
) -> Result<DeadStonesFound, ScoreError> {
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
            DeadStonesFound::given(markup_dead(board, end), "markup")
        }
        DeadStones::None => DeadStonesFound::given(Vec::new(), "none"),
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
            DeadStonesFound::given(dead, "points")
        }
        _ => {
            let e = estimate::estimate_seeded(board, effort, options.estimate_seed);
            DeadStonesFound { dead: e.dead, unsure: e.unsure, calls: e.chains, from: "estimate" }
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

/// The counted position from the record's territory markup: the marked
/// points, and the points of dead stones left unmarked inside a marked
/// territory. No rule pass runs: the markup is the players' agreement.
fn markup_count(analysis: &Analysis, board: &Board, end: Node<'_>, dead: &[Pt]) -> Counted {
    let mut kinds: Vec<Kind> = analysis.cells().iter().map(|c| c.color().map_or(Kind::Dame, Kind::Stone)).collect();
    for (id, color) in [("TB", Color::Black), ("TW", Color::White)] {
        for pt in marked(board, end, id) {
            if analysis.cell(pt) == Cell::Empty {
                kinds[pt as usize] = Kind::Territory(color);
            }
        }
    }
    // Unmarked dead stones take the territory around them, spreading
    // along their chains.
    let mut changed = true;
    while changed {
        changed = false;
        for &p in dead {
            let Some(color) = board.cell(p).color() else { continue };
            let theirs = Kind::Territory(color.opponent());
            if kinds[p as usize] == Kind::Dame && analysis.neighbors(p).iter().any(|&n| kinds[n as usize] == theirs) {
                kinds[p as usize] = theirs;
                changed = true;
            }
        }
    }
    Counted { kinds, seki: count::Seki::default(), seki_eyes_counted: 0, one_dame_kept: 0, tax: [0, 0] }
}

/// What a count adds to the points on the board.
#[derive(Clone, Copy)]
struct Tally {
    scoring: Scoring,
    komi: f64,
    handicap_bonus: f64,
    /// Who takes the button's half point.
    button: Option<Color>,
}

/// Each side's count under the rules' scoring.
fn sides(counted: &Counted, analysis: &Analysis, board: &Board, dead: &[Pt], tally: Tally) -> (Side, Side) {
    let Tally { scoring, komi, handicap_bonus, button } = tally;
    let side = |color: Color| {
        let on_board = || board.points().map(|p| counted.kinds[p as usize]);
        let territory = on_board().filter(|&k| k == Kind::Territory(color)).count() as u32 - counted.tax[color as usize];
        let stones = board.points().filter(|&p| analysis.cell(p) == Cell::of(color)).count() as u32;
        let dead = dead.iter().filter(|&&p| board.cell(p).color() == Some(color.opponent())).count() as u32;
        let prisoners = board.prisoners(color);
        let mut s = Side { territory, stones, prisoners, dead, total: 0.0 };
        s.total = match scoring {
            Scoring::Territory => (territory + prisoners + dead) as f64,
            Scoring::Area => (stones + territory) as f64,
        };
        s
    };
    let mut black = side(Color::Black);
    let mut white = side(Color::White);
    white.total += komi + if scoring == Scoring::Area { handicap_bonus } else { 0.0 };
    match button {
        Some(Color::Black) => black.total += 0.5,
        Some(Color::White) => white.total += 0.5,
        None => {}
    }
    (black, white)
}

/// One point of each living chain left in atari, not in seki: an open ko,
/// or a capture nobody made.
fn chains_in_atari(analysis: &Analysis, counted: &Counted) -> Vec<Pt> {
    let in_seki = |c: usize| counted.seki.chains.get(c).copied().unwrap_or(false);
    analysis.chains().iter().enumerate().filter(|&(c, chain)| chain.liberties.len() == 1 && !in_seki(c)).map(|(_, chain)| chain.stones[0]).collect()
}

/// What each point of the final board counts as (see [`MapPoint`]).
fn score_map(counted: &Counted, board: &Board) -> ScoreMap {
    ScoreMap::new(board.width() as u8, board.height() as u8, |x, y| {
        let p = board.point(usize::from(x), usize::from(y)).expect("on board");
        match (board.cell(p).color(), counted.kinds[p as usize]) {
            (Some(color), Kind::Stone(_)) => MapPoint::Stone(color),
            (Some(color), _) => MapPoint::Dead(color),
            (None, Kind::Territory(color)) => MapPoint::Territory(color),
            (None, Kind::SekiDame) => MapPoint::SekiDame,
            (None, Kind::SekiEye | Kind::ForcedConnection) => MapPoint::NoOnes,
            _ => MapPoint::Dame,
        }
    })
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
