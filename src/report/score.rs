//! `kifu score` output: for people, the breakdown, the result against
//! `RE[]`, the map of the final board and the notes; for programs, one
//! JSON object a game with the same facts.

use std::io::{self, Write};

use super::board::{grid, stone};
use super::escape::Escaped;
use super::style::Style;
use crate::diag::Diagnostic;
use crate::rules::Scoring;
use crate::score::{GameScore, MapPoint};
use crate::sgf::props::Point;

/// Which game of a file, and which line of it, was scored.
pub struct Scored<'a> {
    pub file: &'a str,
    /// 0-based index of the game in the file.
    pub game: usize,
    /// The `--variation` path; empty for the main line.
    pub variation: &'a [u32],
    pub score: &'a GameScore,
}

impl Scored<'_> {
    /// `main line`, or `variation 0,2` as `--variation` takes it.
    fn line_name(&self) -> String {
        if self.variation.is_empty() {
            "main line".to_string()
        } else {
            let path: Vec<String> = self.variation.iter().map(u32::to_string).collect();
            format!("variation {}", path.join(","))
        }
    }

    /// The notes as located diagnostics of this game.
    fn notes(&self) -> impl Iterator<Item = Diagnostic> + '_ {
        self.score.diagnostics.iter().map(|d| d.clone().in_game(self.game))
    }
}

/// The breakdown, the result against `RE[]`, the map and the notes.
pub fn write_text(out: &mut dyn Write, scored: &Scored<'_>, style: Style) -> io::Result<()> {
    let s = scored.score;
    let counting = match s.scoring {
        Scoring::Territory => "territory counting",
        Scoring::Area => "area counting",
    };
    writeln!(
        out,
        "{} (game {}, {}): {} rules, {counting}, dead stones from {}",
        Escaped(scored.file),
        scored.game + 1,
        scored.line_name(),
        s.rules,
        s.dead_stones_from
    )?;
    writeln!(out, "                  Black     White")?;
    let row = |out: &mut dyn Write, label: &str, b: String, w: String| writeln!(out, "  {label:<14}{b:>7}{w:>10}");
    let area = s.scoring == Scoring::Area;
    row(out, "territory", s.black.territory.to_string(), s.white.territory.to_string())?;
    if area {
        row(out, "stones", s.black.stones.to_string(), s.white.stones.to_string())?;
    } else {
        row(out, "prisoners", s.black.prisoners.to_string(), s.white.prisoners.to_string())?;
        row(out, "dead stones", s.black.dead.to_string(), s.white.dead.to_string())?;
    }
    row(out, "komi", String::new(), points(s.komi))?;
    if area && s.handicap_bonus != 0.0 {
        row(out, "handicap bonus", String::new(), points(s.handicap_bonus))?;
    }
    row(out, "total", points(s.black.total), points(s.white.total))?;
    let verdict = match (s.agrees, &s.recorded) {
        (Some(false), Some(re)) => {
            let sure = if s.verdict.is_mismatch() { "DISAGREES" } else { "disagrees, unverified" };
            format!("recorded RE[{}]: {sure} ({})", Escaped(re), Escaped(&s.verdict.explanation()))
        }
        (Some(true), Some(re)) if !s.verdict.verified => format!("recorded RE[{}]: agrees, unverified ({})", Escaped(re), s.verdict.doubts_text()),
        (Some(true), Some(re)) => format!("recorded RE[{}]: agrees", Escaped(re)),
        (None, Some(re)) => format!("recorded RE[{}]: no margin to compare", Escaped(re)),
        _ => "no RE[] recorded".to_string(),
    };
    writeln!(out, "  result: {}   {verdict}", s.result)?;
    if !s.finished {
        writeln!(out, "  counted before the end (the line does not end with two passes): an estimate of a position in play, not a final count")?;
    }
    let map = &s.map;
    if !s.unsure_groups.is_empty() {
        // Named as the map names them: A-T, rows from the bottom.
        let named: Vec<String> = s
            .unsure_groups
            .iter()
            .map(|g| {
                let point = Point::parse(&g.point).map_or_else(|_| g.point.clone(), |p| p.to_coordinate(map.height()));
                format!("{point} ({})", g.why)
            })
            .collect();
        writeln!(out, "  unsure of the groups at: {}", Escaped(&named.join(", ")))?;
    }
    let cell = |x, y| match map.get(x, y) {
        MapPoint::Stone(color) => stone(color),
        MapPoint::Dead(color) => stone(color).to_ascii_lowercase(),
        MapPoint::Territory(color) => {
            if stone(color) == 'X' {
                'b'
            } else {
                'w'
            }
        }
        MapPoint::SekiDame => 's',
        MapPoint::NoOnes => '-',
        MapPoint::Dame => '.',
    };
    if map.width() > 0 && map.height() > 0 {
        for line in grid(map.height(), 0..=map.width() - 1, 0..=map.height() - 1, cell, None) {
            writeln!(out, "  {line}")?;
        }
    }
    writeln!(out, "  X O stones, x o dead stones, b w territory, s seki dame, - no one's (seki eye, forced connection), . dame")?;
    for d in scored.notes() {
        let kind = format!("{}[{}]", d.severity, d.code);
        writeln!(out, "  {}: {}", style.severity(d.severity, kind), Escaped(&d.message))?;
    }
    Ok(())
}

/// One game's score as a JSON object: `file`, `game` (0-based),
/// `variation`, the fields of [`GameScore`], `notes` (the diagnostics of
/// the count: komi, result syntax, seki, dead stones); `verified`, `cause`
/// and `doubts` come with the score (see [`crate::score::verify`]).
pub fn json(scored: &Scored<'_>) -> serde_json::Value {
    let mut doc = serde_json::Map::new();
    doc.insert("file".into(), scored.file.into());
    doc.insert("game".into(), scored.game.into());
    doc.insert("variation".into(), scored.variation.into());
    if let Ok(serde_json::Value::Object(fields)) = serde_json::to_value(scored.score) {
        doc.extend(fields);
    }
    let notes: Vec<serde_json::Value> = scored.notes().filter_map(|d| serde_json::to_value(d).ok()).collect();
    doc.insert("notes".into(), notes.into());
    doc.into()
}

/// Points as people write them: `7`, `6.5`.
fn points(x: f64) -> String {
    if x.fract() == 0.0 { format!("{x:.0}") } else { format!("{x}") }
}
