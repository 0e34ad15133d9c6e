//! `kifu info` output: each game's summary, as `Label: value` lines for
//! people (`?` for what the record does not say), or one JSON object a
//! game. Every value is the record's text: it is escaped for the terminal.

use std::io::{self, Write};

use super::escape::Escaped;
use crate::sgf::props::Summary;

/// The block for one game: a heading naming the file and game (1-based),
/// then one indented line a field.
pub fn write_text(out: &mut dyn Write, file: &str, game: usize, s: &Summary) -> io::Result<()> {
    writeln!(out, "{} (game {}):", Escaped(file), game + 1)?;
    let known = |v: &Option<String>| v.as_deref().map_or_else(|| "?".to_string(), |v| Escaped(v).to_string());
    for (label, name, rank) in [("Black", &s.black, &s.black_rank), ("White", &s.white, &s.white_rank)] {
        let rank = rank.as_deref().map(|r| format!(" ({})", Escaped(r))).unwrap_or_default();
        writeln!(out, "  {label}: {}{rank}", known(name))?;
    }
    writeln!(out, "  Size: {}", s.board_size)?;
    writeln!(out, "  Komi: {}", s.komi.map_or_else(|| "?".to_string(), |k| k.to_string()))?;
    writeln!(out, "  Handicap: {}", s.handicap.unwrap_or(0))?;
    writeln!(out, "  Rules: {}", known(&s.rules))?;
    writeln!(out, "  Date: {}", known(&s.date))?;
    writeln!(out, "  Result: {}", known(&s.result))?;
    writeln!(out, "  Moves: {}", s.moves.len())
}

/// The object for one game: `file`, `game` (0-based) and the summary.
pub fn json(file: &str, game: usize, s: &Summary) -> serde_json::Value {
    serde_json::json!({ "file": file, "game": game, "summary": s })
}
