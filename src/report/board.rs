//! Boards drawn as text: the picture under a move diagnostic and the map
//! of a score. One character a point, columns named as players name them
//! (`A`-`T` without `I`, then `U`-`Z`, `AA`...), rows numbered from 1 at
//! the bottom. Past 25 columns the names take two letters, written one
//! above the other so the columns stay one character wide and aligned.

use std::ops::RangeInclusive;

use crate::board::Color;
use crate::diag::Focus;
use crate::sgf::props::Point;

/// Lines of a board window: columns `xs`, rows `ys` of a board `height`
/// rows high, `cell(x, y)` for each point, the point `mark` (if any)
/// between parentheses.
pub(crate) fn grid(height: u8, xs: RangeInclusive<u8>, ys: RangeInclusive<u8>, cell: impl Fn(u8, u8) -> char, mark: Option<(u8, u8)>) -> Vec<String> {
    let mut lines = column_names(xs.clone());
    for y in ys {
        let mut line = format!("{:>3} ", u16::from(height) - u16::from(y));
        for x in xs.clone() {
            line.push(match mark {
                Some(m) if m == (x, y) => '(',
                Some(m) if x > 0 && m == (x - 1, y) => ')',
                _ => ' ',
            });
            line.push(cell(x, y));
        }
        if mark == Some((*xs.end(), y)) {
            line.push(')');
        }
        lines.push(line.trim_end().to_string());
    }
    lines
}

/// The header lines naming columns `xs`: one line, or two when a name in
/// the range has two letters (the first letters above the last ones).
fn column_names(xs: RangeInclusive<u8>) -> Vec<String> {
    let names: Vec<String> = xs.map(column_name).collect();
    let rows = names.iter().map(String::len).max().unwrap_or(1);
    (0..rows)
        .map(|row| {
            let mut line = String::from("    ");
            for name in &names {
                // Names are right-aligned: a one-letter name is on the last line.
                let pad = rows - name.len();
                line.push(' ');
                line.push(if row < pad { ' ' } else { char::from(name.as_bytes()[row - pad]) });
            }
            line.trim_end().to_string()
        })
        .collect()
}

/// The name of column `x`: `A`-`T` skipping `I`, `U`-`Z`, then `AA`...
fn column_name(x: u8) -> String {
    let name = Point { x, y: 0 }.to_coordinate(1);
    name.trim_end_matches(|c: char| c.is_ascii_digit()).to_string()
}

/// The character of a stone.
pub(crate) fn stone(color: Color) -> char {
    match color {
        Color::Black => 'X',
        Color::White => 'O',
    }
}

/// The picture under a move diagnostic: the position the move was played
/// on, up to 4 points each way around the point, the point in ( ) (`+`
/// when empty).
pub(crate) fn focus_picture(focus: &Focus) -> Vec<String> {
    let board = &focus.board;
    let Point { x: px, y: py } = focus.point;
    let xs = px.saturating_sub(4)..=px.saturating_add(4).min(board.width() - 1);
    let ys = py.saturating_sub(4)..=py.saturating_add(4).min(board.height() - 1);
    let cell = |x, y| match board.stone(x, y) {
        Some(color) => stone(color),
        None if (x, y) == (px, py) => '+',
        None => '.',
    };
    grid(board.height(), xs, ys, cell, Some((px, py)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn column_names_skip_i_and_stack_two_letters() {
        assert_eq!(column_names(6..=9), ["     G H J K"]);
        assert_eq!(column_names(23..=26), ["         A A", "     Y Z A B"]);
        assert_eq!(column_names(50..=51), ["     B B", "     A B"]);
    }

    #[test]
    fn the_mark_surrounds_its_point_at_either_edge() {
        let lines = grid(3, 0..=2, 0..=0, |_, _| '.', Some((0, 0)));
        assert_eq!(lines, ["     A B C", "  3 (.). ."]);
        let lines = grid(3, 0..=2, 2..=2, |_, _| '.', Some((2, 2)));
        assert_eq!(lines, ["     A B C", "  1  . .(.)"]);
    }
}
