//! `kifu info` output: each game's summary, as `Label: value` lines for
//! people (`?` for what the record does not say), one JSON object a game,
//! or CSV rows. Record text is escaped for the terminal in text and CSV.

use std::io::{self, Write};

use super::escape::Escaped;
use crate::info::{Normalised, Player};
use crate::sgf::props::Summary;

/// The block for one game: a heading naming the file and game (1-based),
/// then one indented line a field. The komi is the one `score` uses, with
/// `KM[]` beside it when that says something else (`Komi: 7.5 (KM[375])`).
pub fn write_text(out: &mut dyn Write, file: &str, game: usize, s: &Summary, n: &Normalised) -> io::Result<()> {
    writeln!(out, "{} (game {}):", Escaped(file), game + 1)?;
    let known = |v: &Option<String>| v.as_deref().map_or_else(|| "?".to_string(), |v| Escaped(v).to_string());
    for (label, name, rank) in [("Black", &s.black, &s.black_rank), ("White", &s.white, &s.white_rank)] {
        let rank = rank.as_deref().map(|r| format!(" ({})", Escaped(r))).unwrap_or_default();
        writeln!(out, "  {label}: {}{rank}", known(name))?;
    }
    writeln!(out, "  Size: {}", s.board_size)?;
    let komi = match (n.komi, s.komi) {
        (Some(used), Some(written)) if used != written => format!("{used} (KM[{written}])"),
        (Some(used), _) => used.to_string(),
        (None, _) => "?".to_string(),
    };
    writeln!(out, "  Komi: {komi}")?;
    writeln!(out, "  Handicap: {}", s.handicap.unwrap_or(0))?;
    writeln!(out, "  Rules: {}", known(&s.rules))?;
    writeln!(out, "  Date: {}", known(&s.date))?;
    writeln!(out, "  Result: {}", known(&s.result))?;
    writeln!(out, "  Moves: {}", s.moves.len())
}

/// The object for one game: `file`, `game` (0-based), the summary (the
/// record's values) and the normalised fields.
pub fn json(file: &str, game: usize, s: &Summary, normalised: &Normalised) -> serde_json::Value {
    serde_json::json!({ "file": file, "game": game, "summary": s, "normalised": normalised })
}

/// The CSV columns, in order (docs/info.md describes each).
pub const CSV_COLUMNS: &[&str] = &[
    "file",
    "game",
    "size",
    "black",
    "black_rank",
    "black_rank_value",
    "black_bot",
    "white",
    "white_rank",
    "white_rank_value",
    "white_bot",
    "date",
    "result",
    "winner",
    "margin",
    "reason",
    "komi",
    "handicap",
    "rules",
    "moves",
    "source",
];

pub fn write_csv_header(out: &mut dyn Write) -> io::Result<()> {
    writeln!(out, "{}", CSV_COLUMNS.join(","))
}

/// One CSV row (RFC 4180 quoting; `game` is 1-based as in text). Empty
/// cells for what the record does not say.
pub fn write_csv_row(out: &mut dyn Write, file: &str, game: usize, s: &Summary, n: &Normalised) -> io::Result<()> {
    let text = |v: &Option<String>| v.as_deref().map(|v| Escaped(v).to_string()).unwrap_or_default();
    let number = |v: Option<f64>| v.map(|v| v.to_string()).unwrap_or_default();
    let player = |name: &Option<String>, rank: &Option<String>, p: &Player| {
        [text(name), text(rank), p.rank.map(|r| r.value.to_string()).unwrap_or_default(), p.bot.to_string()]
    };
    let result = n.result.as_ref();
    let mut cells = vec![Escaped(file).to_string(), (game + 1).to_string(), s.board_size.to_string()];
    cells.extend(player(&s.black, &s.black_rank, &n.black));
    cells.extend(player(&s.white, &s.white_rank, &n.white));
    cells.extend([
        n.date.clone().unwrap_or_default(),
        text(&s.result),
        result.and_then(|r| r.winner).unwrap_or_default().to_string(),
        number(result.and_then(|r| r.margin)),
        result.map(|r| r.reason.as_str()).unwrap_or_default().to_string(),
        number(n.komi),
        n.handicap.to_string(),
        n.rules.unwrap_or_default().to_string(),
        s.moves.len().to_string(),
        n.source.unwrap_or_default().to_string(),
    ]);
    let quoted: Vec<String> = cells.iter().map(|c| csv_cell(c)).collect();
    writeln!(out, "{}", quoted.join(","))
}

/// A cell quoted when it holds a comma, a quote or a line break.
fn csv_cell(cell: &str) -> String {
    if cell.contains([',', '"', '\n', '\r']) { format!("\"{}\"", cell.replace('"', "\"\"")) } else { cell.to_string() }
}
