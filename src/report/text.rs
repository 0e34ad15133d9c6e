//! `--format text`: compiler style, for people. Each diagnostic is
//! `path:line:col: severity[code]: message (game N)`, then the source line
//! with a caret under the column and, for a move on the board, the
//! position it was played on; the run closes with the summary line.
//!
//! What the record says reaches the terminal escaped ([`escape`]); the
//! caret is placed by terminal cells, so it stays under its character
//! after CJK text or an escape.

use std::io::{self, Write};

use super::board::focus_picture;
use super::escape::{self, Escaped};
use super::style::Style;
use super::{Emitter, FileContext, Summary};
use crate::diag::Diagnostic;

pub struct TextEmitter {
    pub style: Style,
}

impl Emitter for TextEmitter {
    fn diagnostic(&mut self, out: &mut dyn Write, file: &FileContext<'_>, d: &Diagnostic) -> io::Result<()> {
        let style = self.style;
        let game = d.game.map(|g| format!(" (game {})", g + 1)).unwrap_or_default();
        let at = format!("{}:{}:{}:", Escaped(file.path), d.line, d.column);
        let kind = format!("{}[{}]", d.severity, d.code);
        writeln!(out, "{} {}: {}{game}", style.strong(at), style.severity(d.severity, kind), Escaped(&d.message))?;
        let Some(source) = file.source.filter(|_| d.line > 0) else { return Ok(()) };
        let text = source.line_text(d.line);
        let number = d.line.to_string();
        let pad = " ".repeat(number.len());
        // Long lines (whole games on one line) are cut around the column,
        // found from the byte offset when it lies on this line: counting the
        // characters of a 1 MB line for each of 100,000 diagnostics took
        // minutes (tests/hostile.rs).
        let line_start = text.as_ptr() as usize - source.text().as_ptr() as usize;
        let (before, after) = match (d.offset as usize).checked_sub(line_start).filter(|&at| at <= text.len()) {
            Some(at) => window_at(text, at),
            None => window(text, d.column as usize),
        };
        let before = escape::snippet(&before);
        writeln!(out, "{pad} |")?;
        writeln!(out, "{number} | {before}{}", escape::snippet(&after))?;
        writeln!(out, "{pad} | {}{}", " ".repeat(escape::width(&before)), style.severity(d.severity, '^'))?;
        if let Some(focus) = &d.focus {
            for row in focus_picture(focus) {
                writeln!(out, "{pad} | {row}")?;
            }
        }
        Ok(())
    }

    fn finish(&mut self, out: &mut dyn Write, summary: &Summary, show_summary: bool) -> io::Result<()> {
        if show_summary {
            writeln!(out, "{}", summary.line())?;
        }
        Ok(())
    }
}

/// Up to 100 characters of `line` around 1-based `column`: the text
/// before the caret and from the caret on, with `...` where cut.
fn window(line: &str, column: usize) -> (String, String) {
    let at = line.char_indices().nth(column.saturating_sub(1)).map_or(line.len(), |(i, _)| i);
    window_at(line, at)
}

/// [`window`] around the character at byte `at` of `line`, looking at no
/// more than the window's width on either side.
fn window_at(line: &str, at: usize) -> (String, String) {
    const WIDTH: usize = 100;
    let mut at = at.min(line.len());
    while !line.is_char_boundary(at) {
        at -= 1;
    }
    let before: Vec<char> = line[..at].chars().rev().take(WIDTH + 1).collect();
    let after: Vec<char> = line[at..].chars().take(WIDTH + 1).collect();
    // Half the width before the caret, more when the line ends sooner.
    let remaining = after.len().min(WIDTH);
    let shown_before = before.len().min(WIDTH).min((WIDTH / 2).max(WIDTH - remaining));
    let shown_after = after.len().min(WIDTH - shown_before);
    let mut head: String = before[..shown_before].iter().rev().collect();
    let mut tail: String = after[..shown_after].iter().collect();
    if before.len() > shown_before {
        head.insert_str(0, "...");
    }
    if after.len() > shown_after {
        tail.push_str("...");
    }
    (head, tail)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The window as it was first written (every character of the line
    /// collected), to check [`window_at`] against.
    fn window_slow(line: &str, column: usize) -> (String, String) {
        const WIDTH: usize = 100;
        let chars: Vec<char> = line.chars().collect();
        let col = column.saturating_sub(1).min(chars.len());
        let start = col.saturating_sub(WIDTH / 2).min(chars.len().saturating_sub(WIDTH));
        let end = (start + WIDTH).min(chars.len());
        let mut head: String = chars[start..col].iter().collect();
        let mut tail: String = chars[col..end].iter().collect();
        if start > 0 {
            head.insert_str(0, "...");
        }
        if end < chars.len() {
            tail.push_str("...");
        }
        (head, tail)
    }

    #[test]
    fn window_keeps_the_caret_at_the_column() {
        let line = "x".repeat(300);
        let (head, tail) = window(&line, 200);
        assert!(head.starts_with("...") && tail.ends_with("..."));
        assert_eq!(window("(;B;W[aa])", 3), ("(;".to_string(), "B;W[aa])".to_string()));
    }

    #[test]
    fn window_at_matches_the_whole_line_window() {
        for len in [0, 1, 49, 50, 51, 99, 100, 101, 150, 250] {
            let line: String = (0..len).map(|i| ['a', 'é', '\t', '中'][i % 4]).collect();
            for column in 0..len + 3 {
                assert_eq!(window(&line, column), window_slow(&line, column), "len {len}, column {column}");
            }
        }
    }
}
