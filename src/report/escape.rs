//! Text from a record (or a file name) made safe to print on a terminal.
//!
//! A record can hold any character: an escape sequence in `PB[]` would
//! clear the screen, retitle the terminal or fake kifu's own output; a
//! bidirectional override would make a line read other than it is. Every
//! text output passes what it quotes through [`text`] (or [`snippet`] for
//! a source line), here and nowhere else. Characters that do not print are
//! written as escapes, as Rust writes them: `\x1b` for C0 and C1 controls
//! and DEL, `\u{202e}` for the others (bidirectional controls, line and
//! paragraph separators, zero-width characters), `\t`, `\n`, `\r` for the
//! common ones. Everything else, CJK and combining marks included, is kept.
//! The JSON outputs need none of this: JSON escapes controls itself.

use std::borrow::Cow;
use std::fmt::Write;

use unicode_width::UnicodeWidthStr;

/// Whether `c` is not printed as itself.
fn needs_escape(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            // Bidirectional marks, embeddings, overrides and isolates.
            '\u{061c}' | '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}'
            // Line and paragraph separators, zero-width space, word
            // joiner, zero-width no-break space (BOM), interlinear annotations.
            | '\u{2028}' | '\u{2029}' | '\u{200b}' | '\u{2060}' | '\u{feff}' | '\u{fff9}'..='\u{fffb}'
        )
}

fn push_escape(out: &mut String, c: char) {
    match c {
        '\t' => out.push_str("\\t"),
        '\n' => out.push_str("\\n"),
        '\r' => out.push_str("\\r"),
        c if (c as u32) < 0x100 => {
            let _ = write!(out, "\\x{:02x}", c as u32);
        }
        c => {
            let _ = write!(out, "\\u{{{:x}}}", c as u32);
        }
    }
}

/// `s` with every character that does not print written as an escape;
/// borrowed when there is none (the common case costs one scan).
pub fn text(s: &str) -> Cow<'_, str> {
    escaped(s, false)
}

/// [`text`] for a line of source shown under a diagnostic: a tab is one
/// space there, so the caret below stays under its column.
pub fn snippet(s: &str) -> Cow<'_, str> {
    escaped(s, true)
}

fn escaped(s: &str, tab_as_space: bool) -> Cow<'_, str> {
    // ASCII printable bytes and non-ASCII text are by far the most common:
    // only the rare character needing care costs more than the scan.
    let Some(first) = s.char_indices().find(|&(_, c)| needs_escape(c)).map(|(i, _)| i) else {
        return Cow::Borrowed(s);
    };
    let mut out = String::with_capacity(s.len() + 8);
    out.push_str(&s[..first]);
    for c in s[first..].chars() {
        match c {
            '\t' if tab_as_space => out.push(' '),
            c if needs_escape(c) => push_escape(&mut out, c),
            c => out.push(c),
        }
    }
    Cow::Owned(out)
}

/// The terminal cells `s` takes (CJK characters two, combining marks none).
/// Meant for escaped text, which holds no control character.
pub fn width(s: &str) -> usize {
    UnicodeWidthStr::width(s)
}

/// Displays a string escaped, for `format!` and `write!`.
pub struct Escaped<'a>(pub &'a str);

impl std::fmt::Display for Escaped<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&text(self.0))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn controls_and_invisible_characters_are_escaped() {
        assert_eq!(text("\x1b[2J\x1b[31mEvil"), "\\x1b[2J\\x1b[31mEvil");
        assert_eq!(text("a\u{7f}b\u{9b}c\u{0}"), "a\\x7fb\\x9bc\\x00");
        assert_eq!(text("x\u{202e}y\u{2066}z\u{200b}"), "x\\u{202e}y\\u{2066}z\\u{200b}");
        assert_eq!(text("one\ntwo\r\tthree"), "one\\ntwo\\r\\tthree");
        assert_eq!(snippet("a\tb\x07"), "a b\\x07");
    }

    #[test]
    fn printable_text_is_borrowed_unchanged() {
        for s in ["", "Black: 李昌镐 (9p)", "é e\u{301} 🎉", "a\u{200d}b", "50% off: [x]"] {
            assert!(matches!(text(s), Cow::Borrowed(t) if t == s), "{s:?}");
        }
    }

    #[test]
    fn widths_count_terminal_cells() {
        assert_eq!(width("abc"), 3);
        assert_eq!(width("李昌镐"), 6);
        assert_eq!(width("e\u{301}"), 1);
        assert_eq!(width(&text("\x1b")), 4);
    }

    #[test]
    fn nothing_escaped_is_left_that_would_reach_the_terminal() {
        for c in (0..0x110000).filter_map(char::from_u32) {
            let s = c.to_string();
            let shown = text(&s);
            assert!(!shown.chars().any(needs_escape), "{c:?} gave {shown:?}");
            if c.is_control() {
                assert!(shown.starts_with('\\'), "{c:?}");
            }
        }
    }
}
