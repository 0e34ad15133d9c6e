//! Game info normalised for the people who filter archives: ranks as
//! numbers, dates in ISO 8601, the result as winner, margin and reason,
//! the komi `score` uses, the rules preset, and whether a player is a
//! known program. The raw values stay in [`Summary`]; this is what can be
//! read from them without guessing, `None` where nothing can.

use serde::Serialize;

use crate::board::Color;
use crate::rules::Rules;
use crate::score::result::{GameResult, Komi, Outcome, read_result};
use crate::sgf::date::first_date;
use crate::sgf::props::{self, Summary};
use crate::sgf::tree::GameTree;

/// The normalised fields of one game (`info --format json` puts them
/// under `normalised`, `--format csv` in columns).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Normalised {
    pub black: Player,
    pub white: Player,
    /// The first date of `DT`, `YYYY-MM-DD` (or `YYYY-MM`, `YYYY`).
    pub date: Option<String>,
    pub result: Option<Result>,
    /// The komi in points, as `score` reads it (Fox's `KM[375]` is 7.5).
    pub komi: Option<f64>,
    /// `HA`, 0 when absent or unreadable.
    pub handicap: u32,
    /// The rules preset `RU` names (`japanese`, `chinese`, ...).
    pub rules: Option<&'static str>,
    /// The server whose quirks kifu reads the record by (`kgs`, `fox`).
    pub source: Option<&'static str>,
}

/// A player's rank and whether the name is that of a known program.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Player {
    pub rank: Option<Rank>,
    pub bot: bool,
}

/// A rank as a kind and level (`15k`, `9d`, `1p`) and one number that
/// orders them: `value` is `1 - level` for kyu ranks (1k is 0, 15k is
/// -14), the level for amateur dan ranks (1 to 9), and `9 + level` for
/// professional ranks (1p is 10).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Rank {
    pub kind: RankKind,
    pub level: u8,
    pub value: i16,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum RankKind {
    Kyu,
    Dan,
    Pro,
}

/// The result as winner (`B`, `W`, or `None` for a draw, void or unknown
/// result), margin in points (scored wins and draws) and how it ended.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Result {
    pub winner: Option<&'static str>,
    pub margin: Option<f64>,
    pub reason: Reason,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Reason {
    Score,
    Resign,
    Time,
    Forfeit,
    Draw,
    Void,
    /// The winner is known but not how (`B+`), or nothing is (`?`).
    Unknown,
}

impl Reason {
    /// The name JSON and CSV give it.
    pub fn as_str(self) -> &'static str {
        match self {
            Reason::Score => "score",
            Reason::Resign => "resign",
            Reason::Time => "time",
            Reason::Forfeit => "forfeit",
            Reason::Draw => "draw",
            Reason::Void => "void",
            Reason::Unknown => "unknown",
        }
    }
}

/// The normalised fields of a game, from its root and `summary`.
pub fn normalise(game: &GameTree, summary: &Summary) -> Normalised {
    let root = game.root();
    let rules = summary.rules.as_deref().and_then(Rules::from_ru);
    let komi = root.has("KM").then(|| crate::provenance::played_komi(root, &rules.unwrap_or(Rules::JAPANESE), &mut Vec::new()));
    let player = |name: &Option<String>, rank: &Option<String>| Player {
        rank: rank.as_deref().and_then(parse_rank),
        bot: name.as_deref().is_some_and(is_known_program),
    };
    Normalised {
        black: player(&summary.black, &summary.black_rank),
        white: player(&summary.white, &summary.white_rank),
        date: summary.date.as_deref().and_then(first_date).map(|(d, _)| d.iso()),
        result: summary.result.as_deref().and_then(|re| result(re, komi.as_ref())),
        komi: komi.map(|k| k.points),
        handicap: props::handicap(root).ok().flatten().and_then(|h| u32::try_from(h).ok()).unwrap_or(0),
        rules: rules.map(|r| r.name),
        source: crate::provenance::server(root).map(crate::provenance::Server::name),
    }
}

fn result(re: &str, komi: Option<&Komi>) -> Option<Result> {
    let reading = read_result(re).ok()?;
    let read = komi.map_or(reading.result, |k| reading.in_points(k));
    let (winner, reason) = match read {
        GameResult::Win { winner, outcome } => (
            Some(winner),
            match outcome {
                Outcome::Score(_) => Reason::Score,
                Outcome::Resign => Reason::Resign,
                Outcome::Time => Reason::Time,
                Outcome::Forfeit => Reason::Forfeit,
                Outcome::Unknown => Reason::Unknown,
            },
        ),
        GameResult::Draw => (None, Reason::Draw),
        GameResult::Void => (None, Reason::Void),
        GameResult::Unknown => (None, Reason::Unknown),
        GameResult::NoResult => return None,
    };
    Some(Result { winner: winner.map(Color::letter), margin: read.margin(), reason })
}

/// Reads a rank as servers and programs write it: `9d`, `15k`, `1p`,
/// `3d?` and `2k*` (KGS's unsure and unestablished marks), `9 Dan
/// Professional`, `P9段` (Fox), `9段`, `1级`/`1級`, `9단`, `5급`,
/// `初段`, `九段`. `None` for anything else (`NR`, `?`, a bare number).
pub fn parse_rank(text: &str) -> Option<Rank> {
    let text = text.trim().to_lowercase();
    let (pro_prefix, text) = match ["pro ", "프로", "p"].iter().find_map(|p| text.strip_prefix(p)) {
        Some(rest) => (true, rest.trim_start()),
        None => (false, text.as_str()),
    };
    let text = text.strip_prefix("아마").unwrap_or(text);
    let (level, rest) = leading_level(text)?;
    let rest = rest.trim_start();
    // Fox writes professionals as `P9` as well as `P9段`.
    let units = ["kyu", "dan", "k", "d", "p", "級", "级", "급", "段", "단"];
    let unit = units.into_iter().find(|u| rest.starts_with(u)).or((pro_prefix && rest.is_empty()).then_some(""))?;
    // After the unit: nothing, a server's mark, or words (`IGS`, `Professional`).
    let after = &rest[unit.len()..];
    if !(after.is_empty() || after.starts_with(['*', '?', '+', '(']) || after.starts_with(char::is_whitespace)) {
        return None;
    }
    let kind = match unit {
        "p" => RankKind::Pro,
        "k" | "kyu" | "級" | "级" | "급" => RankKind::Kyu,
        _ if pro_prefix || after.trim_start().starts_with("pro") => RankKind::Pro,
        _ => RankKind::Dan,
    };
    let level_fits = match kind {
        RankKind::Kyu => (1..=50).contains(&level),
        RankKind::Dan | RankKind::Pro => (1..=9).contains(&level),
    };
    let value = match kind {
        RankKind::Kyu => 1 - i16::from(level),
        RankKind::Dan => i16::from(level),
        RankKind::Pro => 9 + i16::from(level),
    };
    level_fits.then_some(Rank { kind, level, value })
}

/// A level in Arabic digits (`15`) or one Chinese numeral (`初` is 1).
fn leading_level(text: &str) -> Option<(u8, &str)> {
    let digits = text.bytes().take_while(u8::is_ascii_digit).count();
    if digits > 0 {
        return Some((text[..digits].parse().ok()?, &text[digits..]));
    }
    let first = text.chars().next()?;
    let level = "初二三四五六七八九".chars().position(|c| c == first).or_else(|| (first == '一').then_some(0))?;
    Some((level as u8 + 1, &text[first.len_utf8()..]))
}

/// Go programs by the names they play under, compared without case,
/// spaces, dashes or underscores; a player name is a program's when it is
/// that name or that name followed by something other than a letter
/// (`GNU Go 3.8`, `Zen19D`, `KataGo-b40`). docs/info.md lists them.
pub const KNOWN_PROGRAMS: &[&str] = &[
    "alphago",
    "aya",
    "ayamc",
    "crazystone",
    "deepzengo",
    "dolbaram",
    "elfopengo",
    "fineart",
    "fuego",
    "gnugo",
    "golaxy",
    "handtalk",
    "katago",
    "leela",
    "leelazero",
    "leelaz",
    "manyfaces",
    "mogo",
    "pachi",
    "phoenixgo",
    "zen",
    "绝艺",
    "星阵",
    "天壤",
];

/// Whether `name` is one of [`KNOWN_PROGRAMS`].
pub fn is_known_program(name: &str) -> bool {
    let name = name.to_lowercase();
    KNOWN_PROGRAMS.iter().any(|program| {
        let mut rest = name.as_str();
        for want in program.chars() {
            match rest.trim_start_matches([' ', '-', '_']).strip_prefix(want) {
                Some(after) => rest = after,
                None => return false,
            }
        }
        !rest.starts_with(char::is_alphabetic)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rank(text: &str) -> Option<(RankKind, u8, i16)> {
        parse_rank(text).map(|r| (r.kind, r.level, r.value))
    }

    #[test]
    fn ranks_as_servers_write_them() {
        use RankKind::*;
        for (text, want) in [
            ("9d", (Dan, 9, 9)),
            ("15k", (Kyu, 15, -14)),
            ("1k", (Kyu, 1, 0)),
            ("1p", (Pro, 1, 10)),
            ("9P", (Pro, 9, 18)),
            ("3d?", (Dan, 3, 3)),
            ("2k*", (Kyu, 2, -1)),
            ("5k ", (Kyu, 5, -4)),
            ("9k* IGS", (Kyu, 9, -8)),
            ("9 Dan", (Dan, 9, 9)),
            ("9 Dan Professional", (Pro, 9, 18)),
            ("P9段", (Pro, 9, 18)),
            ("P5", (Pro, 5, 14)),
            ("P3p", (Pro, 3, 12)),
            ("7段", (Dan, 7, 7)),
            ("1级", (Kyu, 1, 0)),
            ("2級", (Kyu, 2, -1)),
            ("9단", (Dan, 9, 9)),
            ("프로9단", (Pro, 9, 18)),
            ("5급", (Kyu, 5, -4)),
            ("初段", (Dan, 1, 1)),
            ("九段", (Dan, 9, 9)),
        ] {
            assert_eq!(rank(text), Some(want), "{text:?}");
        }
    }

    #[test]
    fn what_is_not_a_rank() {
        for text in ["", "NR", "UR ", "?", "-", "9", "P", "0d", "10d", "12p", "9dx9", "1.5k", "kyu"] {
            assert_eq!(rank(text), None, "{text:?}");
        }
    }

    #[test]
    fn programs_by_name() {
        for name in ["GNU Go 3.8", "gnugo-3.8", "Zen19D", "KataGo", "katago-b40c256", "Leela Zero 0.17", "AlphaGo Zero", "绝艺", "CrazyStone"] {
            assert!(is_known_program(name), "{name}");
        }
        for name in ["Zenith", "Lee Sedol", "Leelaandme", "alphabet", "柯洁"] {
            assert!(!is_known_program(name), "{name}");
        }
    }
}
