//! Where a record comes from, and what that changes: each server's quirks
//! resolved once per game, in one place, as settings and notes. `score`,
//! `check --score`, `info` and `fix` ask [`resolve`] or [`played_komi`];
//! nothing else tests for a server.
//!
//! What is known (measured on ../shared/corpus):
//! - KGS (`PC[...Kiseido...]`/`PC[...KGS...]`, `AP[CGoban...]`): its
//!   Japanese count leaves an eye of a group in seki to nobody only when
//!   every chain around it is in seki ([`SekiEyeRule::EveryChainInSeki`]),
//!   and it keeps a point of territory where a single dame forces a
//!   connection ([`Connections::ExceptOneDame`]).
//!   Before November 2000 it wrote every counted result as a win for Black:
//!   the 8 counted games of the corpus dated before then all have `RE[B+n]`,
//!   and 6 of them count to the same margin for White; from 2000-11-17 on,
//!   counted wins for White appear and agree ([`Provenance::winner_unrecorded`]).
//! - Fox (`AP[foxwq]`, or its byo-yomi properties `TC` and `TT` with no
//!   `PC` naming another server): komi x100 (`KM[650]` = 6.5, `KM[375]` =
//!   3.75 stones = 7.5 points; read by [`komi_from_text`] for any record),
//!   and `KM[0]` in even games under its Japanese rules, played with 6.5.
//!   Its handicap stones in the second node, or `HA[n]` with none, are read
//!   by the replay for any record.

use crate::diag::{Code, Diagnostic};
use crate::rules::{Connections, Rules, Scoring, SekiEyeRule, Tax};
use crate::score::result::{Komi, komi_from_text};
use crate::sgf::{Node, Property, props};

/// A server whose records need reading in their own way.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Server {
    Kgs,
    Fox,
}

impl Server {
    /// The name `info` gives it (`normalised.source`).
    pub fn name(self) -> &'static str {
        match self {
            Server::Kgs => "kgs",
            Server::Fox => "fox",
        }
    }
}

/// What a record's origin changes for one game.
#[derive(Debug, Clone)]
pub struct Provenance {
    pub server: Option<Server>,
    /// The komi the game was played with ([`played_komi`]).
    pub komi: Komi,
    /// The seki eye rule of the server's own count, when it has one.
    pub seki_eye_rule: Option<SekiEyeRule>,
    /// The necessary connections of the server's own territory count, when
    /// it has its own.
    pub connections: Option<Connections>,
    /// Why `RE[]`'s winner says nothing of a counted game, when the server
    /// is known to have written it wrong; its margin still counts.
    pub winner_unrecorded: Option<&'static str>,
    /// What was odd, located at the property it is about (`missing-komi`,
    /// `komi-scaled`, `komi-assumed`).
    pub notes: Vec<Diagnostic>,
}

impl Provenance {
    /// The rules a count follows: `rules`, with the server's necessary
    /// connections under territory scoring unless `--connections` chose,
    /// and its seki eye rule when the rules take a seki tax and
    /// `--seki-eyes` did not choose. Returns whether the seki eye rule was
    /// applied.
    pub fn apply(&self, rules: &mut Rules, seki_eyes_chosen: bool, connections_chosen: bool) -> bool {
        if let Some(connections) = self.connections.filter(|_| rules.scoring == Scoring::Territory && !connections_chosen) {
            rules.connections = connections;
        }
        match self.seki_eye_rule {
            Some(rule) if !seki_eyes_chosen && rules.tax != Tax::None => {
                rules.seki_eye_rule = rule;
                true
            }
            _ => false,
        }
    }
}

/// Resolves a game's provenance under `rules` (the rules it is replayed
/// under; the komi depends on their scoring).
pub fn resolve(root: Node<'_>, rules: &Rules) -> Provenance {
    let server = server(root);
    let mut notes = Vec::new();
    let komi = played_komi(root, rules, &mut notes);
    let seki_eye_rule = (server == Some(Server::Kgs)).then_some(SekiEyeRule::EveryChainInSeki);
    let connections = (server == Some(Server::Kgs)).then_some(Connections::ExceptOneDame);
    let winner_unrecorded =
        (server == Some(Server::Kgs) && played_before(root, 2000, 11)).then_some("KGS wrote every counted result as a win for Black before November 2000");
    Provenance { server, komi, seki_eye_rule, connections, winner_unrecorded, notes }
}

/// Whether the record's first date (`DT[2000-10-16]`, `DT[2000-7-19]`,
/// `DT[2000-10-24,2000-10-30]`) is before the month `month` of `year`.
fn played_before(root: Node<'_>, year: u32, month: u32) -> bool {
    let Some(dt) = root.get_value("DT") else { return false };
    let mut parts = dt.split(',').next().unwrap_or("").trim().split('-').map(|n| n.parse::<u32>().ok());
    match (parts.next().flatten(), parts.next().flatten()) {
        (Some(y), Some(m)) => (y, m) < (year, month),
        _ => false,
    }
}

/// The server a record comes from, when kifu knows its quirks.
pub fn server(root: Node<'_>) -> Option<Server> {
    if is_kgs(root) {
        Some(Server::Kgs)
    } else if is_fox(root) {
        Some(Server::Fox)
    } else {
        None
    }
}

fn is_kgs(root: Node<'_>) -> bool {
    root.get_value("PC").is_some_and(|pc| pc.contains("Kiseido") || pc.contains("KGS")) || root.get_value("AP").is_some_and(|ap| ap.starts_with("CGoban"))
}

/// `AP[foxwq]` (Fox writes `AP` twice: any of them), or Fox's byo-yomi
/// properties `TC` and `TT` with no `PC` naming another server.
fn is_fox(root: Node<'_>) -> bool {
    let names_fox = |p: &Property<'_>| p.values().any(|v| v.text().eq_ignore_ascii_case("foxwq"));
    let fox_app = root.properties().filter(|p| p.id() == "AP").any(|p| names_fox(&p));
    let fox_clock = root.has("TC") && root.has("TT") && root.get_value("PC").is_none_or(|pc| pc.to_ascii_lowercase().contains("fox"));
    fox_app || fox_clock
}

/// The komi a game was played with, in points, from the root's `KM[]`:
/// Fox's x100 and stones scaled, Fox's `KM[0]` of even games under
/// territory scoring (its Japanese rules) read as the 6.5 played; 0 when
/// absent or unreadable. What was odd is said in `diagnostics`
/// (`missing-komi`, `komi-scaled`, `komi-assumed`). This is the one komi
/// reader: `score`, `info`, the array labels and `fix` call it.
pub fn played_komi(root: Node<'_>, rules: &Rules, diagnostics: &mut Vec<Diagnostic>) -> Komi {
    let area = rules.scoring == Scoring::Area;
    let zero = Komi { points: 0.0, stones: false, note: None };
    let Some(km) = root.get("KM") else {
        diagnostics.push(Diagnostic::new(Code::MissingKomi, root.offset(), "no KM[]: scored with komi 0"));
        return zero;
    };
    match komi_from_text(km.first().unwrap_or(""), area) {
        Ok(komi) if komi.points == 0.0 && !area && is_fox(root) && is_even(root) => {
            diagnostics.push(Diagnostic::new(
                Code::KomiAssumed,
                km.offset(),
                "KM[0] in a Fox record of an even game: Fox plays these with 6.5 komi and writes 0; scored with 6.5 (--komi 0 to keep 0)",
            ));
            Komi { points: 6.5, stones: false, note: None }
        }
        Ok(komi) => {
            if let Some(note) = &komi.note {
                diagnostics.push(Diagnostic::new(Code::KomiScaled, km.offset(), note.clone()));
            }
            komi
        }
        Err(e) => {
            diagnostics.push(Diagnostic::new(Code::MissingKomi, km.offset(), format!("{e}: scored with komi 0")));
            zero
        }
    }
}

/// The komi `score` counts a game with under the rules its `RU[]` names
/// (Japanese when it names none kifu knows), as [`played_komi`] reads it;
/// `None` when `KM[]` is absent or unreadable (`score` then counts 0 and
/// says so). For `info` and the array labels.
pub fn record_komi(root: Node<'_>) -> Option<f64> {
    let rules = root.get_value("RU").and_then(Rules::from_ru).unwrap_or(Rules::JAPANESE);
    komi_if_known(root, &rules)
}

/// [`played_komi`] under `rules`, `None` when `KM[]` is absent or unreadable.
pub fn komi_if_known(root: Node<'_>, rules: &Rules) -> Option<f64> {
    let mut notes = Vec::new();
    let komi = played_komi(root, rules, &mut notes);
    (!notes.iter().any(|d| d.code == Code::MissingKomi)).then_some(komi.points)
}

/// A game without handicap. Fox puts handicap stones (black setup alone)
/// in the root or in the node after it. Fox writes `KM[0]` for its even
/// Japanese games, played with 6.5 komi: in the corpus all 436 such
/// counted games fit 6.5 and none fits 0.
fn is_even(root: Node<'_>) -> bool {
    let setup = std::iter::once(root).chain(root.children().next()).any(|n| n.has("AB") && !n.has("AW"));
    props::handicap(root).ok().flatten().unwrap_or(0) == 0 && !setup
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sgf::parse_str;

    fn resolved(sgf: &str, rules: &str) -> Provenance {
        let parsed = parse_str(sgf);
        resolve(parsed.collection.games[0].root(), &Rules::preset(rules).unwrap())
    }

    #[test]
    fn servers() {
        let server = |sgf: &str| resolved(sgf, "japanese").server;
        assert_eq!(server("(;PC[The KGS Go Server at http://www.gokgs.com/])"), Some(Server::Kgs));
        assert_eq!(server("(;AP[CGoban:3])"), Some(Server::Kgs));
        assert_eq!(server("(;AP[foxwq]AP[foxwq])"), Some(Server::Fox));
        assert_eq!(server("(;AP[x:1]AP[FoxWQ])"), Some(Server::Fox));
        assert_eq!(server("(;TC[3]TT[30])"), Some(Server::Fox));
        assert_eq!(server("(;TC[3]TT[30]PC[Tygem])"), None);
        assert_eq!(server("(;AP[Sabaki:0.5])"), None);
    }

    #[test]
    fn kgs_results_before_november_2000_have_no_winner() {
        let unrecorded = |sgf: &str| resolved(sgf, "japanese").winner_unrecorded.is_some();
        let kgs = "PC[The Kiseido Go Server (KGS) at http://kgs.kiseido.com/]";
        assert!(unrecorded(&format!("(;{kgs}DT[2000-7-19])")));
        assert!(unrecorded(&format!("(;{kgs}DT[2000-10-24,2000-10-30])")));
        assert!(!unrecorded(&format!("(;{kgs}DT[2000-11-17])")));
        assert!(!unrecorded(&format!("(;{kgs}DT[2006-01-08])")));
        assert!(!unrecorded(&format!("(;{kgs})")), "no date, nothing known");
        assert!(!unrecorded("(;AP[Sabaki:0.5]DT[1999-05-01])"), "another program");
    }

    #[test]
    fn fox_komi() {
        let komi = |sgf: &str, rules: &str| resolved(sgf, rules).komi.points;
        assert_eq!(komi("(;AP[foxwq]KM[650])", "japanese"), 6.5);
        assert_eq!(komi("(;AP[foxwq]KM[375])", "chinese"), 7.5);
        assert_eq!(komi("(;AP[foxwq]KM[0])", "japanese"), 6.5);
        // Not for area scoring, a handicap (HA or stones in the second node), or another server.
        assert_eq!(komi("(;AP[foxwq]KM[0])", "chinese"), 0.0);
        assert_eq!(komi("(;AP[foxwq]KM[0]HA[2])", "japanese"), 0.0);
        assert_eq!(komi("(;AP[foxwq]KM[0];AB[dd][pp])", "japanese"), 0.0);
        assert_eq!(komi("(;KM[0])", "japanese"), 0.0);
        let notes = resolved("(;AP[foxwq]KM[0])", "japanese").notes;
        assert_eq!(notes.iter().map(|d| d.code).collect::<Vec<_>>(), [Code::KomiAssumed]);
        assert_eq!(resolved("(;SZ[9])", "japanese").notes[0].code, Code::MissingKomi);
    }

    #[test]
    fn record_komi_follows_the_record_rules() {
        let komi = |sgf: &str| record_komi(parse_str(sgf).collection.games[0].root());
        assert_eq!(komi("(;AP[foxwq]RU[Chinese]KM[375])"), Some(7.5));
        assert_eq!(komi("(;AP[foxwq]RU[Japanese]KM[0])"), Some(6.5));
        assert_eq!(komi("(;AP[foxwq]RU[Chinese]KM[0])"), Some(0.0));
        assert_eq!(komi("(;KM[6.5])"), Some(6.5));
        assert_eq!(komi("(;KM[six])"), None);
        assert_eq!(komi("(;SZ[19])"), None);
    }

    #[test]
    fn kgs_seki_eye_rule_unless_chosen_or_untaxed() {
        let kgs = resolved("(;PC[KGS])", "japanese");
        let mut rules = Rules::JAPANESE;
        assert!(kgs.apply(&mut rules, false, false));
        assert_eq!(rules.seki_eye_rule, SekiEyeRule::EveryChainInSeki);
        let mut rules = Rules::JAPANESE;
        assert!(!kgs.apply(&mut rules, true, false));
        assert_eq!(rules.seki_eye_rule, SekiEyeRule::AnyChainInSeki);
        let mut chinese = Rules::preset("chinese").unwrap();
        assert!(!kgs.apply(&mut chinese, false, false));
        let mut japanese = Rules::JAPANESE;
        assert!(!resolved("(;AP[foxwq])", "japanese").apply(&mut japanese, false, false));
    }

    #[test]
    fn kgs_connections_under_territory_counting_unless_chosen() {
        let kgs = resolved("(;PC[KGS])", "japanese");
        for seki_eyes_chosen in [false, true] {
            let mut rules = Rules::JAPANESE;
            kgs.apply(&mut rules, seki_eyes_chosen, false);
            assert_eq!(rules.connections, Connections::ExceptOneDame);
        }
        let mut chosen = Rules::JAPANESE;
        kgs.apply(&mut chosen, false, true);
        assert_eq!(chosen.connections, Connections::Every);
        let mut chinese = Rules::preset("chinese").unwrap();
        kgs.apply(&mut chinese, false, false);
        assert_eq!(chinese.connections, Connections::Every);
        let mut japanese = Rules::JAPANESE;
        resolved("(;AP[foxwq])", "japanese").apply(&mut japanese, false, false);
        assert_eq!(japanese.connections, Connections::Every);
    }
}
