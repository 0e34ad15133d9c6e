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
//! 4. the groups the estimator doubted: each of them, each pair, and all
//!    of them together, flipped between dead and alive;
//! 5. a difference of a point or two with the same winner, which is not
//!    checked but is the size of what conventions change;
//! 6. an unfinished game (no two passes, no markup): the position was
//!    counted as it stands.
//!
//! Otherwise the cause is "none found". A disagreement is a
//! `result-mismatch` warning when the komi explains it, when RE gives the
//! recount's margin to the other player, or when nothing explains it in a
//! finished game with no ko left open; otherwise it is `result-unverified`,
//! information.

use std::fmt;

use serde::{Serialize, Serializer};

use super::count::CountRules;
use super::result::GameResult;
use crate::board::{Board, Pt};
use crate::rules::{Rules, SekiEyes, Ties};
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
    /// One point of each chain the estimator doubted.
    pub doubted: &'a [Pt],
    /// The line ends with two passes, or with territory markup.
    pub finished: bool,
    /// One point of each living chain left in atari (an open ko, a capture
    /// not made).
    pub open_ko: &'a [Pt],
    /// Empty points the count left to no one (dame), for an unfinished game.
    pub open_points: usize,
    pub recount: &'a Recount<'a>,
}

/// What explains a disagreement, checked by recounting.
#[derive(Debug, Clone, PartialEq)]
pub enum Cause {
    /// RE's margin has a fraction `komi` cannot give; `fits` gives RE.
    Komi { komi: f64, fits: f64 },
    /// RE gives the recount's margin to the other player.
    OtherWinner { margin: f64 },
    /// RE is the count under another convention: these seki-eye rules
    /// (`None`: the game's own), with the necessary connections made or not.
    Convention { seki_eyes: Option<SekiEyes>, connections: bool },
    /// RE is the count with these groups (one point each, as the map names
    /// them) alive, and those dead.
    Groups { alive: Vec<String>, dead: Vec<String> },
    /// The same winner, and a difference of at most [`SMALL`] points: the
    /// size of what dame, a necessary connection or a seki eye change.
    Small { points: f64 },
    /// The game does not end with two passes or markup: the position was
    /// counted as it stands, with this many points still open.
    Unfinished { open: usize },
    /// No recount gives RE.
    NoneFound,
}

/// Why a recount cannot be sure of itself.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Doubt {
    /// No two passes and no markup at the end of the line.
    Unfinished,
    /// The estimator was unsure of some group.
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
    /// cannot give RE, or a sure recount found nothing that explains it.
    pub fn is_mismatch(&self) -> bool {
        match self.cause {
            Some(Cause::Komi { .. } | Cause::OtherWinner { .. }) => true,
            // The doubted groups were tried: none of them gives RE.
            Some(Cause::NoneFound) => self.doubts.iter().all(|&d| d == Doubt::UnsureGroups),
            _ => false,
        }
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
            Doubt::UnsureGroups => "kifu is unsure of some groups",
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
            Cause::Small { points } => write!(
                f,
                "the same winner, {points} point{} apart: what dame, a necessary connection or a seki eye change",
                if *points == 1.0 { "" } else { "s" }
            ),
            Cause::Convention { seki_eyes, connections } => {
                f.write_str("RE is the count ")?;
                if let Some(s) = seki_eyes {
                    write!(f, "with --seki-eyes {}", seki_eyes_name(*s))?;
                    if !connections {
                        f.write_str(" and ")?;
                    }
                }
                if !connections {
                    f.write_str("without the necessary connections")?;
                }
                Ok(())
            }
            Cause::Groups { alive, dead } => {
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
                Ok(())
            }
            Cause::Unfinished { open } => write!(
                f,
                "the game is unfinished (no two passes, no markup): the position was counted as it stands, {open} point{} still open",
                if *open == 1 { "" } else { "s" }
            ),
            Cause::NoneFound => f.write_str("none found (checked: komi, seki eyes, necessary connections, the groups kifu was unsure of)"),
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

/// How many doubted groups are tried in pairs (the pairs grow as the
/// square).
const MAX_PAIRED: usize = 12;

/// Checks a recount against RE: whether it agrees and is sure, and when it
/// disagrees, what explains it (see the module documentation).
pub fn verify(r: &Recounted<'_>) -> Verdict {
    let mut doubts = Vec::new();
    if !r.finished {
        doubts.push(Doubt::Unfinished);
    }
    if !r.doubted.is_empty() {
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
        .or_else(|| small_difference(r))
        .unwrap_or(if r.finished { Cause::NoneFound } else { Cause::Unfinished { open: r.open_points } });
    Verdict { verified: false, cause: Some(cause), doubts }
}

/// Whether a count with this difference (Black's total minus White's)
/// gives RE's result; `None` when RE has no margin.
pub fn fits(recorded: &GameResult, difference: f64, ties: Ties) -> Option<bool> {
    let winner = if difference > 0.0 {
        Some(crate::board::Color::Black)
    } else if difference < 0.0 || ties == Ties::White {
        Some(crate::board::Color::White)
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
        Some(crate::board::Color::White) => -margin,
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
    (wanted != 0.0 && (wanted + r.difference).abs() < 1e-6).then_some(Cause::OtherWinner { margin: wanted.abs() })
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

/// The other seki-eye rules and the necessary connections left out.
fn convention_cause(r: &Recounted<'_>) -> Option<Cause> {
    let rules = r.rules?;
    let own = CountRules::of(&rules);
    let settings = [None, Some(SekiEyes::None), Some(SekiEyes::Count), Some(SekiEyes::Kgs)];
    for connections in [true, false] {
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
                return Some(Cause::Convention { seki_eyes, connections });
            }
        }
    }
    None
}

/// The doubted groups flipped between dead and alive: one at a time, in
/// pairs, and all together.
fn groups_cause(r: &Recounted<'_>) -> Option<Cause> {
    let rules = CountRules::of(&r.rules?);
    // One point per chain: two doubts may name the same chain.
    let mut chains: Vec<Vec<Pt>> = Vec::new();
    for &p in r.doubted {
        if !chains.iter().any(|c| c.contains(&p)) {
            chains.push(r.board.chain(p));
        }
    }
    let doubted: Vec<Pt> = chains.iter().map(|c| c[0]).collect();
    let n = doubted.len();
    let mut tries: Vec<Vec<Pt>> = doubted.iter().map(|&p| vec![p]).collect();
    if n <= MAX_PAIRED {
        for i in 0..n {
            for j in i + 1..n {
                tries.push(vec![doubted[i], doubted[j]]);
            }
        }
    }
    if n > 2 {
        tries.push(doubted.clone());
    }
    tries.into_iter().find_map(|flipped| {
        let dead = flip(r.board, r.dead, &flipped);
        (fits(&r.recorded, (r.recount)(&dead, rules), r.ties) == Some(true)).then(|| {
            let (dead_before, alive_before): (Vec<Pt>, Vec<Pt>) = flipped.iter().partition(|p| r.dead.binary_search(p).is_ok());
            Cause::Groups { alive: named(r.board, &dead_before), dead: named(r.board, &alive_before) }
        })
    })
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
    use crate::board::Color;
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

    /// The verdict of a Japanese count with komi 0 and E4 dead, against
    /// `recorded`.
    fn verdict(recorded: GameResult, doubted: &[Pt], finished: bool, open_ko: &[Pt]) -> Verdict {
        let board = board();
        let dead = vec![e4(&board)];
        let tally = Tally { scoring: Scoring::Territory, komi: 0.0, handicap_bonus: 0.0, button: None };
        let recount = |dead: &[Pt], rules: CountRules| {
            let analysis = Analysis::without(&board, dead);
            let (black, white) = sides(&count::count(&analysis, rules), &analysis, &board, dead, tally);
            black.total - white.total
        };
        let difference = recount(&dead, CountRules::of(&Rules::JAPANESE));
        assert_eq!(difference, 5.0 - 11.0, "White: 10 points of territory and a prisoner");
        let doubted: Vec<Pt> = doubted.to_vec();
        verify(&Recounted {
            board: &board,
            recorded,
            difference,
            komi: 0.0,
            ties: Ties::Draw,
            rules: Some(Rules::JAPANESE),
            dead: &dead,
            doubted: &doubted,
            finished,
            open_ko,
            open_points: 0,
            recount: &recount,
        })
    }

    #[test]
    fn a_sure_agreeing_recount_is_verified() {
        let v = verdict(won(Color::White, 6.0), &[], true, &[]);
        assert_eq!(v, Verdict { verified: true, cause: None, doubts: vec![] });
        let v = verdict(won(Color::White, 6.0), &[], true, &[1]);
        assert!(!v.verified && v.cause.is_none());
        assert_eq!(v.doubts, [Doubt::OpenKo]);
        assert!(!verdict(GameResult::Draw, &[], true, &[]).verified);
    }

    #[test]
    fn a_doubted_group_whose_flip_gives_re_is_the_cause() {
        let e4 = e4(&board());
        let v = verdict(won(Color::Black, 5.0), &[e4], true, &[]);
        assert_eq!(v.cause, Some(Cause::Groups { alive: vec!["E4".into()], dead: vec![] }));
        assert!(!v.is_mismatch());
        assert_eq!(v.cause.unwrap().to_string(), "RE fits if the group at E4 is alive (dead in the recount, alive in RE's count)");
    }

    #[test]
    fn without_the_doubt_the_same_flip_is_not_tried() {
        let v = verdict(won(Color::Black, 5.0), &[], true, &[]);
        assert_eq!(v.cause, Some(Cause::NoneFound));
        assert!(v.is_mismatch());
    }

    #[test]
    fn nothing_found_is_a_mismatch_unless_the_game_is_open() {
        let e4 = e4(&board());
        let doubted = verdict(won(Color::Black, 20.0), &[e4], true, &[]);
        assert_eq!(doubted.cause, Some(Cause::NoneFound));
        assert!(doubted.is_mismatch(), "the doubted group was tried");
        assert!(doubted.explanation().starts_with("cause: none found (checked: komi,"), "{}", doubted.explanation());
        let open_ko = verdict(won(Color::Black, 20.0), &[], true, &[e4]);
        assert!(!open_ko.is_mismatch());
        assert!(open_ko.explanation().ends_with("; not sure: a chain is left in atari (an open ko)"), "{}", open_ko.explanation());
        let unfinished = verdict(won(Color::Black, 20.0), &[], false, &[]);
        assert_eq!(unfinished.cause, Some(Cause::Unfinished { open: 0 }));
        assert!(!unfinished.is_mismatch());
    }

    #[test]
    fn the_margin_for_the_other_player_is_a_mismatch_and_a_point_apart_is_not() {
        let other = verdict(won(Color::Black, 6.0), &[], true, &[]);
        assert_eq!(other.cause, Some(Cause::OtherWinner { margin: 6.0 }));
        assert!(other.is_mismatch());
        let close = verdict(won(Color::White, 7.0), &[], true, &[]);
        assert_eq!(close.cause, Some(Cause::Small { points: 1.0 }));
        assert!(!close.is_mismatch());
        assert_eq!(verdict(won(Color::White, 9.0), &[], true, &[]).cause, Some(Cause::NoneFound));
    }

    #[test]
    fn a_fraction_the_komi_cannot_give_names_the_komi_that_fits() {
        let v = verdict(won(Color::White, 12.5), &[], true, &[]);
        assert_eq!(v.cause, Some(Cause::Komi { komi: 0.0, fits: 6.5 }));
        assert!(v.is_mismatch());
        // Black's win by 0.5 where White wins by 6 with komi 0: komi -6.5.
        let v = verdict(won(Color::Black, 0.5), &[], true, &[]);
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
