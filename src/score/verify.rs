//! Why a recount disagrees with `RE[]`, and whether kifu can be sure.
//!
//! A cause is named when a recount shows it: the final position is
//! counted again with one thing changed, and the cause is the change that
//! gives exactly RE's result. In order:
//!
//! 1. the komi: RE's margin has a fraction the game's komi cannot give
//!    (`KM[0]` where 6.5 was played, Fox's komi in stones read as points):
//!    the komi that makes RE fit is named;
//! 2. RE gives the recount's margin to the other player (a result written
//!    for the wrong side);
//! 3. a counting convention: the other seki-eye rules (`--seki-eyes`), the
//!    necessary connections left unmade, or both;
//! 4. a group whose status is in real doubt, counted the other way (see
//!    [`Suspicion`]): a chain kifu's call was not confident of, alone or
//!    with its group, and the two sides of a race it is in; a dead chain
//!    one or two moves from capture, which players often leave unmarked;
//!    a chain left in atari (an open ko) and the chains beside it. Single
//!    flips and those natural pairs only: flipping groups in many
//!    combinations would fit any RE by chance;
//! 5. the dead stones of another run of the estimator, with other random
//!    numbers for its playouts (a call that changes with them is no sure
//!    call);
//! 6. a difference of a point or two with the same winner, which is not
//!    checked but is the size of what conventions change;
//! 7. an unfinished game (no two passes, no markup): the position was
//!    counted as it stands.
//!
//! Otherwise the cause is "none found". A disagreement is a
//! `result-mismatch` warning when the komi explains it, when RE gives the
//! recount's margin to the other player, or when nothing explains it in a
//! finished game; otherwise it is `result-unverified`, information.

use std::fmt;
use std::ops::Range;

use serde::{Serialize, Serializer};

use super::count::CountRules;
use super::estimate::ChainCall;
use super::result::GameResult;
use crate::board::{Board, Color, Pt};
use crate::rules::{Connections, Rules, SekiEyes, Ties};
use crate::sgf::props::Point;

/// Black's total minus White's (komi, handicap bonus and button included)
/// of the final position with these dead stones, under these count rules.
pub type Recount<'a> = dyn Fn(&[Pt], CountRules) -> f64 + 'a;

/// What [`verify`] needs of a scored game.
pub struct Recounted<'a> {
    pub board: &'a Board,
    pub recorded: GameResult,
    /// Black's total minus White's in the recount.
    pub difference: f64,
    pub komi: f64,
    pub ties: Ties,
    /// The rules the count followed; `None` when the record's markup was
    /// counted (the players' agreement: no rule pass to vary).
    pub rules: Option<Rules>,
    pub dead: &'a [Pt],
    /// The estimator's call on each chain it judged; empty when the dead
    /// stones came from elsewhere.
    pub calls: &'a [ChainCall],
    /// One point of each chain the estimator said it was unsure of.
    pub unsure: &'a [Pt],
    /// The line ends with two passes, or with territory markup.
    pub finished: bool,
    /// One point of each living chain left in atari (an open ko, a capture
    /// not made).
    pub open_ko: &'a [Pt],
    /// Empty points the count left to no one (dame), for an unfinished game.
    pub open_points: usize,
    pub recount: &'a Recount<'a>,
    /// The dead stones other runs of the estimator give (other random
    /// numbers for its playouts), asked only when nothing else explains
    /// the disagreement; none when the dead stones did not come from it.
    pub other_estimates: &'a dyn Fn() -> Vec<Vec<Pt>>,
    /// Why RE's winner says nothing (a server known to write it wrong).
    pub winner_unrecorded: Option<&'static str>,
}

/// What explains a disagreement, checked by recounting.
#[derive(Debug, Clone, PartialEq)]
pub enum Cause {
    /// RE's margin has a fraction `komi` cannot give; `fits` gives RE.
    Komi { komi: f64, fits: f64 },
    /// RE gives the recount's margin to the other player.
    OtherWinner { margin: f64 },
    /// RE gives the recount's margin to the other player, but its winner
    /// is known to say nothing, for this reason.
    WinnerUnrecorded { margin: f64, why: &'static str },
    /// RE is the count under another convention: these seki-eye rules
    /// and these necessary connections (`None`: the game's own).
    Convention { seki_eyes: Option<SekiEyes>, connections: Option<Connections> },
    /// RE is the count with these groups (one point each, as the map names
    /// them) alive, and those dead; `why` they were in doubt.
    Groups { alive: Vec<String>, dead: Vec<String>, why: Suspicion },
    /// The same winner, and a difference of at most [`SMALL`] points: the
    /// size of what dame, a necessary connection or a seki eye change.
    Small { points: f64 },
    /// The game does not end with two passes or markup: the position was
    /// counted as it stands, with this many points still open.
    Unfinished { open: usize },
    /// No recount gives RE.
    NoneFound,
}

/// Why a group's status is in real doubt, so that counting it the other
/// way is a cause worth checking.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Suspicion {
    /// kifu's call on it was not confident: the estimator said it was
    /// unsure, or its share of the playouts lies in [`NOT_CONFIDENT`].
    NotConfident,
    /// It and an adjacent enemy group are the two sides of a race whose
    /// calls were not confident.
    Race,
    /// A dead chain with one or two liberties: a capture nobody made.
    /// Players often leave such stones unmarked in the scoring, and the
    /// server then counts them alive.
    Uncaptured,
    /// A living chain left in atari (an open ko), or a chain beside one.
    OpenKo,
    /// Another run of the playouts, with other random numbers, calls it so.
    Playouts,
}

impl Suspicion {
    fn describe(self) -> &'static str {
        match self {
            Suspicion::NotConfident => "kifu's call on it was not confident",
            Suspicion::Race => "a capturing race kifu was not confident of",
            Suspicion::Uncaptured => "a dead chain one or two moves from capture that nobody captured, which players often leave unmarked",
            Suspicion::OpenKo => "a chain is left in atari there (an open ko)",
            Suspicion::Playouts => "another run of kifu's playouts, with other random numbers, calls it so",
        }
    }
}

/// Why a recount cannot be sure of itself.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Doubt {
    /// No two passes and no markup at the end of the line.
    Unfinished,
    /// Some group's call was not confident (see [`NOT_CONFIDENT`]).
    UnsureGroups,
    /// A living chain is left in atari.
    OpenKo,
}

/// What the recount says of `RE[]`. Field names are part of the JSON
/// contract.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Verdict {
    /// The recount agrees with RE's margin and is sure of itself.
    pub verified: bool,
    /// When the recount disagrees with RE: what explains it.
    #[serde(serialize_with = "as_text")]
    pub cause: Option<Cause>,
    /// Why the recount cannot be sure (empty when it is).
    pub doubts: Vec<Doubt>,
}

impl Verdict {
    /// Whether the disagreement is one a user should act on: the komi
    /// cannot give RE, RE names the other winner, or nothing explains it in
    /// a finished game (every group in doubt was counted the other way and
    /// none gives RE).
    pub fn is_mismatch(&self) -> bool {
        matches!(self.cause, Some(Cause::Komi { .. } | Cause::OtherWinner { .. } | Cause::NoneFound))
    }

    /// `cause: ...`, with why the recount cannot be sure when it is not a
    /// mismatch: for messages.
    pub fn explanation(&self) -> String {
        let mut text = self.cause.as_ref().map(|c| format!("cause: {c}")).unwrap_or_default();
        // An unfinished game's cause says so already.
        let unfinished_said = matches!(self.cause, Some(Cause::Unfinished { .. }));
        let doubts: Vec<Doubt> = self.doubts.iter().copied().filter(|&d| !(unfinished_said && d == Doubt::Unfinished)).collect();
        if !self.is_mismatch() && !doubts.is_empty() {
            text.push_str("; not sure: ");
            text.push_str(&doubts_text(&doubts));
        }
        text
    }

    /// Why the recount cannot be sure, for messages: `the game is
    /// unfinished, kifu is unsure of some groups`.
    pub fn doubts_text(&self) -> String {
        doubts_text(&self.doubts)
    }
}

fn doubts_text(doubts: &[Doubt]) -> String {
    let named: Vec<&str> = doubts
        .iter()
        .map(|d| match d {
            Doubt::Unfinished => "the game is unfinished",
            Doubt::UnsureGroups => "kifu's call on some groups was not confident",
            Doubt::OpenKo => "a chain is left in atari (an open ko)",
        })
        .collect();
    named.join(", ")
}

fn as_text<S: Serializer>(cause: &Option<Cause>, s: S) -> Result<S::Ok, S::Error> {
    match cause {
        Some(c) => s.collect_str(c),
        None => s.serialize_none(),
    }
}

impl fmt::Display for Cause {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Cause::Komi { komi, fits } => write!(f, "RE's margin cannot come from komi {komi}: komi {fits} makes RE fit"),
            Cause::OtherWinner { margin } => write!(f, "RE gives the recount's margin, {margin}, to the other player"),
            Cause::WinnerUnrecorded { margin, why } => write!(f, "RE's margin, {margin}, is the recount's, but not its winner: {why}"),
            Cause::Small { points } => write!(
                f,
                "the same winner, {points} point{} apart: what dame, a necessary connection or a seki eye change",
                if *points == 1.0 { "" } else { "s" }
            ),
            Cause::Convention { seki_eyes, connections } => {
                f.write_str("RE is the count ")?;
                if let Some(s) = seki_eyes {
                    write!(f, "with --seki-eyes {}", seki_eyes_name(*s))?;
                    if connections.is_some() {
                        f.write_str(" and ")?;
                    }
                }
                match connections {
                    Some(Connections::Every) => f.write_str("with every necessary connection made"),
                    Some(Connections::ExceptOneDame) => f.write_str("without the connections a single dame forces"),
                    Some(Connections::Ignored) => f.write_str("without the necessary connections"),
                    None => Ok(()),
                }
            }
            Cause::Groups { alive, dead, why } => {
                f.write_str("RE fits if ")?;
                if !alive.is_empty() {
                    write!(f, "{} {} alive (dead in the recount, alive in RE's count)", groups(alive), are(alive))?;
                }
                if !dead.is_empty() {
                    if !alive.is_empty() {
                        f.write_str(" and ")?;
                    }
                    write!(f, "{} {} dead (alive in the recount, dead in RE's count)", groups(dead), are(dead))?;
                }
                write!(f, "; in doubt: {}", why.describe())
            }
            Cause::Unfinished { open } => write!(
                f,
                "the game is unfinished (no two passes, no markup): the position was counted as it stands, {open} point{} still open",
                if *open == 1 { "" } else { "s" }
            ),
            Cause::NoneFound => {
                f.write_str("none found (checked: komi, seki eyes, necessary connections, the groups kifu was not confident of, dead chains one or two moves from capture, chains left in atari, other runs of the playouts)")
            }
        }
    }
}

fn seki_eyes_name(s: SekiEyes) -> &'static str {
    match s {
        SekiEyes::None => "none",
        SekiEyes::Count => "count",
        SekiEyes::Kgs => "kgs",
    }
}

fn groups(points: &[String]) -> String {
    format!("the group{} at {}", if points.len() == 1 { "" } else { "s" }, points.join(", "))
}

fn are(points: &[String]) -> &'static str {
    if points.len() == 1 { "is" } else { "are" }
}

/// Checks a recount against RE: whether it agrees and is sure, and when it
/// disagrees, what explains it (see the module documentation).
pub fn verify(r: &Recounted<'_>) -> Verdict {
    let mut doubts = Vec::new();
    if !r.finished {
        doubts.push(Doubt::Unfinished);
    }
    if !r.unsure.is_empty() || r.calls.iter().any(|c| NOT_CONFIDENT.contains(&c.share)) {
        doubts.push(Doubt::UnsureGroups);
    }
    if !r.open_ko.is_empty() {
        doubts.push(Doubt::OpenKo);
    }
    let Some(agrees) = fits(&r.recorded, r.difference, r.ties) else { return Verdict { verified: false, cause: None, doubts } };
    if agrees {
        return Verdict { verified: doubts.is_empty(), cause: None, doubts };
    }
    let cause = komi_cause(r)
        .or_else(|| other_winner(r))
        .or_else(|| convention_cause(r))
        .or_else(|| groups_cause(r))
        .or_else(|| playouts_cause(r))
        .or_else(|| small_difference(r))
        .unwrap_or(if r.finished { Cause::NoneFound } else { Cause::Unfinished { open: r.open_points } });
    Verdict { verified: false, cause: Some(cause), doubts }
}

/// Whether a count with this difference (Black's total minus White's)
/// gives RE's result; `None` when RE has no margin.
pub fn fits(recorded: &GameResult, difference: f64, ties: Ties) -> Option<bool> {
    let winner = if difference > 0.0 {
        Some(Color::Black)
    } else if difference < 0.0 || ties == Ties::White {
        Some(Color::White)
    } else {
        None
    };
    match recorded {
        GameResult::Draw => Some(winner.is_none()),
        _ => {
            let margin = recorded.margin()?;
            Some(recorded.winner() == winner && (margin - difference.abs()).abs() < 1e-6)
        }
    }
}

/// RE's difference, Black's total minus White's.
fn recorded_difference(recorded: &GameResult) -> Option<f64> {
    let margin = recorded.margin()?;
    Some(match recorded.winner() {
        Some(Color::White) => -margin,
        _ => margin,
    })
}

/// The komi, when RE's margin has a fraction the komi cannot give: any
/// count is a whole number of points plus the komi's fraction.
fn komi_cause(r: &Recounted<'_>) -> Option<Cause> {
    let wanted = recorded_difference(&r.recorded)?;
    let fraction = |x: f64| (x.rem_euclid(1.0) * 4.0).round() / 4.0 % 1.0;
    if fraction(wanted) == fraction(r.difference) {
        return None;
    }
    // White's total rises with the komi, so Black's lead falls with it.
    Some(Cause::Komi { komi: r.komi, fits: r.komi + r.difference - wanted })
}

/// RE with the recount's margin and the other winner.
fn other_winner(r: &Recounted<'_>) -> Option<Cause> {
    let wanted = recorded_difference(&r.recorded)?;
    let margin = wanted.abs();
    (wanted != 0.0 && (wanted + r.difference).abs() < 1e-6).then_some(match r.winner_unrecorded {
        Some(why) => Cause::WinnerUnrecorded { margin, why },
        None => Cause::OtherWinner { margin },
    })
}

/// The largest difference, with the same winner, that counting conventions
/// explain (KGS: 33 of the 7,073 counted games differ by 1 or 2 points
/// with no exact convention found).
const SMALL: f64 = 2.0;

/// A difference too small to say the record is wrong.
fn small_difference(r: &Recounted<'_>) -> Option<Cause> {
    let wanted = recorded_difference(&r.recorded)?;
    let points = (wanted - r.difference).abs();
    (wanted * r.difference > 0.0 && points <= SMALL).then_some(Cause::Small { points })
}

/// The other seki-eye rules and necessary connections: the game's own
/// connections first, then the other ones, none last.
fn convention_cause(r: &Recounted<'_>) -> Option<Cause> {
    let rules = r.rules?;
    let own = CountRules::of(&rules);
    let settings = [None, Some(SekiEyes::None), Some(SekiEyes::Count), Some(SekiEyes::Kgs)];
    let mut connections = vec![own.connections];
    connections.extend([Connections::Every, Connections::ExceptOneDame, Connections::Ignored].into_iter().filter(|&c| c != own.connections));
    for connections in connections {
        for seki_eyes in settings {
            let mut varied = rules;
            if let Some(s) = seki_eyes {
                s.apply(&mut varied);
            }
            let count_rules = CountRules { connections, ..CountRules::of(&varied) };
            if count_rules == own {
                continue;
            }
            if fits(&r.recorded, (r.recount)(r.dead, count_rules), r.ties) == Some(true) {
                let seki_eyes = seki_eyes.filter(|_| (count_rules.tax, count_rules.seki_eye_rule) != (own.tax, own.seki_eye_rule));
                return Some(Cause::Convention { seki_eyes, connections: (connections != own.connections).then_some(connections) });
            }
        }
    }
    None
}

/// A share of the playouts ([`ChainCall::share`]) in this range is a call
/// kifu is not confident of, whichever way it went (the estimator kills
/// below 0.55, or 0.75 on a crowded board). Tuned on the KGS tuning half
/// (docs/accuracy.md): a wider band finds RE in few more games and fits
/// altered REs by chance in many more.
pub const NOT_CONFIDENT: Range<f32> = 0.25..0.85;

/// A chain that may be counted the other way.
struct Unit {
    stones: Vec<Pt>,
    color: Color,
    liberties: Vec<Pt>,
    why: Option<Suspicion>,
}

/// One recount to try: these chains (one point each) flipped.
struct Try {
    flipped: Vec<Pt>,
    why: Suspicion,
}

/// The groups in real doubt (see [`Suspicion`]), each counted the other
/// way alone, with its group, and with the other side of its race; the
/// first recount that gives RE is the cause.
fn groups_cause(r: &Recounted<'_>) -> Option<Cause> {
    let rules = CountRules::of(&r.rules?);
    let tries = suspects(r);
    tries.into_iter().find_map(|t| {
        let dead = flip(r.board, r.dead, &t.flipped);
        (fits(&r.recorded, (r.recount)(&dead, rules), r.ties) == Some(true)).then(|| {
            let (dead_before, alive_before): (Vec<Pt>, Vec<Pt>) = t.flipped.iter().partition(|p| r.dead.binary_search(p).is_ok());
            Cause::Groups { alive: named(r.board, &dead_before), dead: named(r.board, &alive_before), why: t.why }
        })
    })
}

/// Another run of the estimator whose dead stones give RE: the groups it
/// calls otherwise are the cause.
fn playouts_cause(r: &Recounted<'_>) -> Option<Cause> {
    let rules = CountRules::of(&r.rules?);
    (r.other_estimates)().into_iter().filter(|dead| dead != r.dead).find_map(|dead| {
        (fits(&r.recorded, (r.recount)(&dead, rules), r.ties) == Some(true)).then(|| {
            let alive = chain_points(r.board, r.dead.iter().filter(|p| dead.binary_search(p).is_err()));
            let killed = chain_points(r.board, dead.iter().filter(|p| r.dead.binary_search(p).is_err()));
            Cause::Groups { alive: named(r.board, &alive), dead: named(r.board, &killed), why: Suspicion::Playouts }
        })
    })
}

/// One point of each chain among `stones` (its first, row by row).
fn chain_points<'p>(board: &Board, stones: impl Iterator<Item = &'p Pt>) -> Vec<Pt> {
    let mut points: Vec<Pt> = stones.map(|&p| board.chain(p).into_iter().min().unwrap_or(p)).collect();
    points.sort_unstable();
    points.dedup();
    points
}

/// The recounts worth trying, simplest first: single chains, then whole
/// groups (chains of one colour sharing a liberty, which the estimator
/// judges together), then the two sides of a race.
fn suspects(r: &Recounted<'_>) -> Vec<Try> {
    let units = units(r);
    let group = group_of(&units);
    let mut tries: Vec<Try> = Vec::new();
    let mut push = |mut flipped: Vec<Pt>, why: Suspicion| {
        flipped.sort_unstable();
        if !tries.iter().any(|t| t.flipped == flipped) {
            tries.push(Try { flipped, why });
        }
    };
    for u in &units {
        if let Some(why) = u.why {
            push(vec![u.stones[0]], why);
        }
    }
    let members = |g: usize| -> Vec<usize> { (0..units.len()).filter(|&i| group[i] == g).collect() };
    let roots: Vec<usize> = (0..units.len()).filter(|&i| group[i] == i).collect();
    // A group is tried whole when kifu's call on it was not confident or
    // an open ko touches it, or when each of its chains is a dead chain
    // one or two moves from capture.
    let suspicion = |g: &[usize]| {
        let whys = || g.iter().map(|&i| units[i].why);
        let uncaptured = Some(Suspicion::Uncaptured);
        whys().flatten().find(|&w| w != Suspicion::Uncaptured).or_else(|| whys().all(|w| w == uncaptured).then_some(Suspicion::Uncaptured))
    };
    let points = |g: &[usize]| -> Vec<Pt> { g.iter().map(|&i| units[i].stones[0]).collect() };
    for &g in &roots {
        let g = members(g);
        if let (true, Some(why)) = (g.len() > 1, suspicion(&g)) {
            push(points(&g), why);
        }
    }
    for (k, &a) in roots.iter().enumerate() {
        for &b in &roots[k + 1..] {
            let (ga, gb) = (members(a), members(b));
            if units[a].color == units[b].color || !touching(r.board, &units, &ga, &gb) {
                continue;
            }
            let has = |g: &[usize], s: Suspicion| g.iter().any(|&i| units[i].why == Some(s));
            let why = if has(&ga, Suspicion::NotConfident) && has(&gb, Suspicion::NotConfident) {
                Suspicion::Race
            } else if has(&ga, Suspicion::OpenKo) || has(&gb, Suspicion::OpenKo) {
                Suspicion::OpenKo
            } else {
                continue;
            };
            push([points(&ga), points(&gb)].concat(), why);
        }
    }
    tries
}

/// The chains the estimator judged, and the chains in doubt it did not
/// judge (dead chains in pass-alive territory, an open ko under
/// `--dead-stones none`), each with why it is in doubt, if it is: not
/// confident, dead with one or two liberties, or in atari or beside a
/// living chain in atari.
fn units(r: &Recounted<'_>) -> Vec<Unit> {
    let board = r.board;
    let mut units: Vec<Unit> = Vec::new();
    // The unit of the chain at `p`; none on an empty point.
    let add = |p: Pt, units: &mut Vec<Unit>| -> Option<usize> {
        if let Some(i) = units.iter().position(|u| u.stones.contains(&p)) {
            return Some(i);
        }
        let color = board.cell(p).color()?;
        units.push(Unit { color, liberties: board.liberties(p), stones: board.chain(p), why: None });
        Some(units.len() - 1)
    };
    for c in r.calls {
        let i = add(c.point, &mut units);
        if let Some(i) = i.filter(|_| NOT_CONFIDENT.contains(&c.share)) {
            units[i].why = Some(Suspicion::NotConfident);
        }
    }
    for &p in r.unsure {
        if let Some(i) = add(p, &mut units) {
            units[i].why = Some(Suspicion::NotConfident);
        }
    }
    for p in uncaptured(r) {
        if let Some(i) = add(p, &mut units) {
            units[i].why.get_or_insert(Suspicion::Uncaptured);
        }
    }
    for &p in r.open_ko {
        let Some(ko) = add(p, &mut units) else { continue };
        let stones = units[ko].stones.clone();
        for u in units.iter_mut().filter(|u| u.why.is_none()) {
            if u.stones[0] == stones[0] || u.stones.iter().any(|&s| board.neighbors(s).iter().any(|q| stones.contains(q))) {
                u.why = Some(Suspicion::OpenKo);
            }
        }
    }
    units
}

/// Each unit's group, as the index of its first unit: chains of one
/// colour that share a liberty.
fn group_of(units: &[Unit]) -> Vec<usize> {
    let mut group: Vec<usize> = (0..units.len()).collect();
    for i in 0..units.len() {
        for j in 0..i {
            let joined = units[i].color == units[j].color && units[i].liberties.iter().any(|l| units[j].liberties.contains(l));
            if joined && group[i] != group[j] {
                let (from, to) = (group[i].max(group[j]), group[i].min(group[j]));
                group.iter_mut().filter(|g| **g == from).for_each(|g| *g = to);
            }
        }
    }
    group
}

/// Whether a stone of one set of units touches a stone of the other.
fn touching(board: &Board, units: &[Unit], a: &[usize], b: &[usize]) -> bool {
    let beside = |s: Pt| board.neighbors(s);
    a.iter().flat_map(|&i| &units[i].stones).any(|&s| b.iter().any(|&j| units[j].stones.iter().any(|t| beside(s).contains(t))))
}

/// One point of each dead chain with one or two liberties.
fn uncaptured(r: &Recounted<'_>) -> Vec<Pt> {
    let mut seen: Vec<Pt> = Vec::new();
    let mut out = Vec::new();
    for &p in r.dead {
        if seen.contains(&p) {
            continue;
        }
        seen.extend(r.board.chain(p));
        if r.board.liberties(p).len() <= 2 {
            out.push(p);
        }
    }
    out
}

/// The dead stones with the chains at `flipped` changed: dead ones alive,
/// living ones dead. Sorted.
fn flip(board: &Board, dead: &[Pt], flipped: &[Pt]) -> Vec<Pt> {
    let mut out = dead.to_vec();
    for &p in flipped {
        let chain = board.chain(p);
        if dead.binary_search(&p).is_ok() {
            out.retain(|q| !chain.contains(q));
        } else {
            out.extend(chain);
        }
    }
    out.sort_unstable();
    out.dedup();
    out
}

/// Points as the map names them: `D4`.
fn named(board: &Board, points: &[Pt]) -> Vec<String> {
    points
        .iter()
        .map(|&p| {
            let (x, y) = board.xy(p);
            Point { x: x as u8, y: y as u8 }.to_coordinate(board.height() as u8)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::super::{Tally, count, sides};
    use super::*;
    use crate::analysis::Analysis;
    use crate::rules::Scoring;
    use crate::score::result::Outcome;

    /// Black owns the A file, White the D and E files; the black stone E4
    /// is dead in White's area, or alive and the area dame.
    const BOARD: [&str; 5] = [".XO..", ".XO.X", ".XO..", ".XO..", ".XO.."];

    fn board() -> Board {
        Board::from_rows(&BOARD).unwrap()
    }

    fn e4(board: &Board) -> Pt {
        board.point(4, 1).unwrap()
    }

    fn won(winner: Color, margin: f64) -> GameResult {
        GameResult::Win { winner, outcome: Outcome::Score(margin) }
    }

    /// What the estimator said of a board, and how the game ended.
    #[derive(Default)]
    struct Said {
        calls: Vec<ChainCall>,
        unsure: Vec<Pt>,
        open_ko: Vec<Pt>,
        unfinished: bool,
        winner_unrecorded: Option<&'static str>,
    }

    /// Black's total minus White's in a Japanese count with komi 0.
    fn difference(board: &Board, dead: &[Pt]) -> f64 {
        let tally = Tally { scoring: Scoring::Territory, komi: 0.0, handicap_bonus: 0.0, button: None };
        let analysis = Analysis::without(board, dead);
        let (black, white) = sides(&count::count(&analysis, CountRules::of(&Rules::JAPANESE)), &analysis, board, dead, tally);
        black.total - white.total
    }

    /// RE as the count with these dead stones gives it.
    fn re_of(board: &Board, dead: &[Pt]) -> GameResult {
        let d = difference(board, dead);
        won(if d > 0.0 { Color::Black } else { Color::White }, d.abs())
    }

    /// The verdict of a Japanese count with komi 0 and these dead stones,
    /// against `recorded`.
    fn verdict_on(board: &Board, dead: &[Pt], said: &Said, recorded: GameResult) -> Verdict {
        // Other count rules (the convention tries) give nothing here.
        let recount = |dead: &[Pt], rules: CountRules| if rules == CountRules::of(&Rules::JAPANESE) { difference(board, dead) } else { f64::NAN };
        verify(&Recounted {
            board,
            recorded,
            difference: difference(board, dead),
            komi: 0.0,
            ties: Ties::Draw,
            rules: Some(Rules::JAPANESE),
            dead,
            calls: &said.calls,
            unsure: &said.unsure,
            finished: !said.unfinished,
            open_ko: &said.open_ko,
            open_points: 0,
            recount: &recount,
            other_estimates: &Vec::new,
            winner_unrecorded: said.winner_unrecorded,
        })
    }

    /// The verdict on [`BOARD`] with E4 dead.
    fn verdict(recorded: GameResult, said: &Said) -> Verdict {
        let board = board();
        let dead = vec![e4(&board)];
        assert_eq!(difference(&board, &dead), 5.0 - 11.0, "White: 10 points of territory and a prisoner");
        verdict_on(&board, &dead, said, recorded)
    }

    fn unsure(p: Pt) -> Said {
        Said { unsure: vec![p], ..Said::default() }
    }

    fn call(p: Pt, dead: bool, share: f32) -> ChainCall {
        ChainCall { point: p, dead, share }
    }

    #[test]
    fn another_run_of_the_playouts_that_counts_to_re_is_the_cause() {
        let board = board();
        let dead = vec![e4(&board)];
        let recorded = re_of(&board, &[]);
        let recount = |dead: &[Pt], _: CountRules| difference(&board, dead);
        let verdict = |others: Vec<Vec<Pt>>| {
            let other_estimates = || others.clone();
            verify(&Recounted {
                board: &board,
                recorded,
                difference: difference(&board, &dead),
                komi: 0.0,
                ties: Ties::Draw,
                rules: Some(Rules::JAPANESE),
                dead: &dead,
                calls: &[],
                unsure: &[],
                finished: true,
                open_ko: &[],
                open_points: 0,
                recount: &recount,
                other_estimates: &other_estimates,
                winner_unrecorded: None,
            })
        };
        let v = verdict(vec![dead.clone(), Vec::new()]);
        assert_eq!(v.cause, Some(Cause::Groups { alive: vec!["E4".into()], dead: vec![], why: Suspicion::Playouts }));
        assert!(!v.is_mismatch());
        let v = verdict(vec![dead.clone()]);
        assert_eq!(v.cause, Some(Cause::NoneFound), "the same dead stones again explain nothing");
        assert!(v.is_mismatch());
    }

    #[test]
    fn a_sure_agreeing_recount_is_verified() {
        let v = verdict(won(Color::White, 6.0), &Said::default());
        assert_eq!(v, Verdict { verified: true, cause: None, doubts: vec![] });
        let v = verdict(won(Color::White, 6.0), &Said { open_ko: vec![e4(&board())], ..Said::default() });
        assert!(!v.verified && v.cause.is_none());
        assert_eq!(v.doubts, [Doubt::OpenKo]);
        assert!(!verdict(GameResult::Draw, &Said::default()).verified);
    }

    #[test]
    fn a_group_kifu_was_unsure_of_whose_flip_gives_re_is_the_cause() {
        let e4 = e4(&board());
        let v = verdict(won(Color::Black, 5.0), &unsure(e4));
        assert_eq!(v.cause, Some(Cause::Groups { alive: vec!["E4".into()], dead: vec![], why: Suspicion::NotConfident }));
        assert!(!v.is_mismatch());
        assert_eq!(
            v.cause.unwrap().to_string(),
            "RE fits if the group at E4 is alive (dead in the recount, alive in RE's count); in doubt: kifu's call on it was not confident"
        );
    }

    #[test]
    fn a_call_is_in_doubt_when_its_share_is_near_the_threshold() {
        let e4 = e4(&board());
        let near = Said { calls: vec![call(e4, true, 0.5)], ..Said::default() };
        let v = verdict(won(Color::Black, 5.0), &near);
        assert_eq!(v.cause, Some(Cause::Groups { alive: vec!["E4".into()], dead: vec![], why: Suspicion::NotConfident }));
        assert_eq!(v.doubts, [Doubt::UnsureGroups]);
        let sure = Said { calls: vec![call(e4, true, 0.05)], ..Said::default() };
        let v = verdict(won(Color::Black, 5.0), &sure);
        assert_eq!(v.cause, Some(Cause::NoneFound), "a confident call is not tried");
        assert!(v.doubts.is_empty() && v.is_mismatch());
    }

    #[test]
    fn without_the_doubt_the_same_flip_is_not_tried() {
        let v = verdict(won(Color::Black, 5.0), &Said::default());
        assert_eq!(v.cause, Some(Cause::NoneFound));
        assert!(v.is_mismatch());
    }

    #[test]
    fn a_dead_chain_left_in_atari_is_tried_alive() {
        // E4 has one liberty, E3: White never captured it.
        let board = Board::from_rows(&[".XO.O", ".XOOX", ".XO..", ".XO..", ".XO.."]).unwrap();
        let e4 = e4(&board);
        let re = re_of(&board, &[]);
        let v = verdict_on(&board, &[e4], &Said::default(), re);
        assert_eq!(v.cause, Some(Cause::Groups { alive: vec!["E4".into()], dead: vec![], why: Suspicion::Uncaptured }));
        assert!(!v.is_mismatch());
        assert!(
            v.cause
                .unwrap()
                .to_string()
                .ends_with("; in doubt: a dead chain one or two moves from capture that nobody captured, which players often leave unmarked")
        );
    }

    #[test]
    fn a_dead_chain_with_two_liberties_is_tried_alive_and_with_three_is_not() {
        let cause = |rows: &[&str]| {
            let board = Board::from_rows(rows).unwrap();
            let e4 = e4(&board);
            verdict_on(&board, &[e4], &Said::default(), re_of(&board, &[])).cause
        };
        // E4's liberties: E5 and E3; then D4 as well. (A3 keeps RE from
        // being the recount's margin for the other player.)
        let two = cause(&[".XO..", ".XOOX", "XXO..", ".XO..", ".XO.."]);
        assert_eq!(two, Some(Cause::Groups { alive: vec!["E4".into()], dead: vec![], why: Suspicion::Uncaptured }));
        let three = cause(&[".XO..", ".XO.X", "XXO..", ".XO..", ".XO.."]);
        assert!(!matches!(three, Some(Cause::Groups { .. })), "{three:?}");
    }

    /// The cause found on a board whose dead stones E4 and E2 share the
    /// liberty E3, against the RE of the count with both alive, which
    /// neither alone gives.
    fn cause_with_e4_and_e2_alive(rows: &[&str], said: impl Fn(Pt, Pt) -> Said) -> Option<Cause> {
        let board = Board::from_rows(rows).unwrap();
        let (e4, e2) = (e4(&board), board.point(4, 3).unwrap());
        let dead = [e4, e2];
        let re = re_of(&board, &[]);
        let fits_alone = |p: Pt| fits(&re, difference(&board, &flip(&board, &dead, &[p])), Ties::Draw);
        assert_eq!((fits_alone(e4), fits_alone(e2)), (Some(false), Some(false)), "only both together give RE");
        verdict_on(&board, &dead, &said(e4, e2), re).cause
    }

    #[test]
    fn dead_stones_left_in_atari_together_are_tried_together() {
        let cause = cause_with_e4_and_e2_alive(&[".XO.O", ".XOOX", ".XO..", ".XOOX", ".XO.O"], |_, _| Said::default());
        assert_eq!(cause, Some(Cause::Groups { alive: vec!["E4".into(), "E2".into()], dead: vec![], why: Suspicion::Uncaptured }));
    }

    #[test]
    fn the_chains_of_a_group_are_flipped_together() {
        // Not in atari, but judged together: the estimator's call on the group was not confident.
        let said = |e4, e2| Said { calls: vec![call(e4, true, 0.5), call(e2, true, 0.5)], ..Said::default() };
        let cause = cause_with_e4_and_e2_alive(&[".XO..", ".XO.X", ".XO..", ".XO.X", ".XO.."], said);
        assert_eq!(cause, Some(Cause::Groups { alive: vec!["E4".into(), "E2".into()], dead: vec![], why: Suspicion::NotConfident }));
    }

    #[test]
    fn the_two_sides_of_a_race_in_doubt_are_tried_together() {
        let board = board();
        let (b5, c5) = (board.point(1, 0).unwrap(), board.point(2, 0).unwrap());
        let tries = |white_share: f32| {
            let said = Said { calls: vec![call(b5, false, 0.6), call(c5, false, white_share)], ..Said::default() };
            let r = Recounted {
                board: &board,
                recorded: won(Color::Black, 1.0),
                difference: 0.0,
                komi: 0.0,
                ties: Ties::Draw,
                rules: Some(Rules::JAPANESE),
                dead: &[],
                calls: &said.calls,
                unsure: &said.unsure,
                finished: true,
                open_ko: &said.open_ko,
                open_points: 0,
                recount: &|_: &[Pt], _: CountRules| 0.0,
                other_estimates: &Vec::new,
                winner_unrecorded: None,
            };
            suspects(&r).into_iter().map(|t| (t.flipped, t.why)).collect::<Vec<_>>()
        };
        assert!(tries(0.7).contains(&(vec![b5, c5], Suspicion::Race)), "{:?}", tries(0.7));
        assert_eq!(tries(1.0), [(vec![b5], Suspicion::NotConfident)], "a confident neighbour is not tried");
    }

    #[test]
    fn a_chain_left_in_atari_and_its_neighbours_are_tried() {
        let board = board();
        let e4 = e4(&board);
        let open_ko = Said { open_ko: vec![e4], ..Said::default() };
        let v = verdict_on(&board, &[], &open_ko, re_of(&board, &[e4]));
        assert_eq!(v.cause, Some(Cause::Groups { alive: vec![], dead: vec!["E4".into()], why: Suspicion::OpenKo }));
        assert!(!v.is_mismatch());
        let v = verdict_on(&board, &[], &open_ko, won(Color::Black, 20.0));
        assert_eq!(v.cause, Some(Cause::NoneFound));
        assert!(v.is_mismatch(), "the ko was tried: nothing explains RE");
        assert_eq!(v.doubts, [Doubt::OpenKo]);
    }

    #[test]
    fn nothing_found_is_a_mismatch_unless_the_game_is_unfinished() {
        let e4 = e4(&board());
        let doubted = verdict(won(Color::Black, 20.0), &unsure(e4));
        assert_eq!(doubted.cause, Some(Cause::NoneFound));
        assert!(doubted.is_mismatch(), "the doubted group was tried");
        assert!(doubted.explanation().starts_with("cause: none found (checked: komi,"), "{}", doubted.explanation());
        let unfinished = verdict(won(Color::Black, 20.0), &Said { unfinished: true, ..Said::default() });
        assert_eq!(unfinished.cause, Some(Cause::Unfinished { open: 0 }));
        assert!(!unfinished.is_mismatch());
        let c5 = board().point(2, 0).unwrap();
        let with_ko = verdict(won(Color::White, 7.0), &Said { open_ko: vec![c5], ..Said::default() });
        assert!(with_ko.explanation().ends_with("; not sure: a chain is left in atari (an open ko)"), "{}", with_ko.explanation());
    }

    #[test]
    fn the_margin_for_the_other_player_is_a_mismatch_and_a_point_apart_is_not() {
        let other = verdict(won(Color::Black, 6.0), &Said::default());
        assert_eq!(other.cause, Some(Cause::OtherWinner { margin: 6.0 }));
        assert!(other.is_mismatch());
        let why = "the server wrote every result as a win for Black";
        let unrecorded = verdict(won(Color::Black, 6.0), &Said { winner_unrecorded: Some(why), ..Said::default() });
        assert_eq!(unrecorded.cause, Some(Cause::WinnerUnrecorded { margin: 6.0, why }));
        assert!(!unrecorded.is_mismatch());
        let close = verdict(won(Color::White, 7.0), &Said::default());
        assert_eq!(close.cause, Some(Cause::Small { points: 1.0 }));
        assert!(!close.is_mismatch());
        assert_eq!(verdict(won(Color::White, 9.0), &Said::default()).cause, Some(Cause::NoneFound));
    }

    #[test]
    fn a_fraction_the_komi_cannot_give_names_the_komi_that_fits() {
        let v = verdict(won(Color::White, 12.5), &Said::default());
        assert_eq!(v.cause, Some(Cause::Komi { komi: 0.0, fits: 6.5 }));
        assert!(v.is_mismatch());
        // Black's win by 0.5 where White wins by 6 with komi 0: komi -6.5.
        let v = verdict(won(Color::Black, 0.5), &Said::default());
        assert_eq!(v.cause, Some(Cause::Komi { komi: 0.0, fits: -6.5 }));
    }

    #[test]
    fn results_fit_by_winner_and_margin_and_ties_follow_the_rules() {
        assert_eq!(fits(&won(Color::Black, 2.5), 2.5, Ties::Draw), Some(true));
        assert_eq!(fits(&won(Color::Black, 2.5), -2.5, Ties::Draw), Some(false));
        assert_eq!(fits(&GameResult::Draw, 0.0, Ties::Draw), Some(true));
        assert_eq!(fits(&GameResult::Draw, 0.0, Ties::White), Some(false));
        assert_eq!(fits(&GameResult::Win { winner: Color::Black, outcome: Outcome::Resign }, 2.5, Ties::Draw), None);
    }

    #[test]
    fn flipping_changes_whole_chains_both_ways() {
        let board = Board::from_rows(&["XX.OO"]).unwrap();
        let (a, d) = (board.point(0, 0).unwrap(), board.point(3, 0).unwrap());
        let dead = flip(&board, &[], &[a]);
        assert_eq!(dead, board.chain(a));
        assert_eq!(flip(&board, &dead, &[a, d]), board.chain(d));
    }
}
