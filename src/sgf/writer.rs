//! Serialises game trees back to SGF text, exactly as the model holds them
//! (duplicates stay duplicated, unknown properties stay): repairs are the
//! business of `--fix`, not of the writer.
//!
//! Layout: the root node's properties wrap at about 80 columns; each later
//! node follows on the same line until that is full; every variation starts
//! on a line of its own. The walk uses an explicit stack, so trees of any
//! depth are written without recursion.

use super::tree::{Collection, GameTree, Node};

const WRAP: usize = 80;

/// Writes a whole collection, one game tree after another.
pub fn write_collection(collection: &Collection) -> String {
    let mut out = String::new();
    for game in &collection.games {
        write_game(game, &mut out);
        out.push('\n');
    }
    out
}

/// Appends one game tree to `out`.
pub fn write_game(game: &GameTree, out: &mut String) {
    let mut w = Writer { out, line_start: 0 };
    w.line_start = w.out.len();
    // Each entry: a node to write, and whether it opens a variation.
    enum Step<'a> {
        Node(Node<'a>, bool),
        Close,
    }
    let mut stack = vec![Step::Close, Step::Node(game.root(), true)];
    while let Some(step) = stack.pop() {
        let (node, opens) = match step {
            Step::Close => {
                w.out.push(')');
                continue;
            }
            Step::Node(node, opens) => (node, opens),
        };
        if opens {
            w.newline_unless_at_start();
            w.out.push('(');
        } else if w.column() > WRAP {
            w.newline();
        }
        w.node(node);
        let mut children = node.children();
        match (children.next(), children.next()) {
            (None, _) => {}
            (Some(only), None) => stack.push(Step::Node(only, false)),
            _ => {
                let all: Vec<Node<'_>> = node.children().collect();
                for child in all.into_iter().rev() {
                    stack.push(Step::Close);
                    stack.push(Step::Node(child, true));
                }
            }
        }
    }
}

struct Writer<'o> {
    out: &'o mut String,
    line_start: usize,
}

impl Writer<'_> {
    fn column(&self) -> usize {
        self.out.len() - self.line_start
    }

    fn newline(&mut self) {
        self.out.push('\n');
        self.line_start = self.out.len();
    }

    fn newline_unless_at_start(&mut self) {
        if self.column() > 0 {
            self.newline();
        }
    }

    fn node(&mut self, node: Node<'_>) {
        self.out.push(';');
        let mut previous_had_no_value = false;
        for prop in node.properties() {
            if self.column() > WRAP {
                self.newline();
            } else if previous_had_no_value {
                // Keeps `B W[aa]` from reading back as the identifier `BW`.
                self.out.push(' ');
            }
            self.out.push_str(prop.written_id());
            for value in prop.values() {
                self.out.push('[');
                escape_into(value.text(), self.out);
                self.out.push(']');
            }
            previous_had_no_value = prop.value_count() == 0;
        }
        if let Some(nl) = self.out[self.line_start..].rfind('\n') {
            // A multi-line value moved the column.
            self.line_start += nl + 1;
        }
    }
}

/// Escapes a value's text: `]` and `\` get a backslash, and so does `[`,
/// which SGF does not require but which keeps an unmatched `[` from being
/// read back as the start of a nested bracket pair.
pub fn escape_into(text: &str, out: &mut String) {
    let mut rest = text;
    while let Some(i) = rest.find([']', '[', '\\']) {
        out.push_str(&rest[..i]);
        out.push('\\');
        out.push_str(&rest[i..i + 1]);
        rest = &rest[i + 1..];
    }
    out.push_str(rest);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sgf::parser::{Limits, parse_text};

    fn round_trip(s: &str) -> String {
        let (c, _) = parse_text(&s.into(), Limits::default());
        let out = write_collection(&c);
        let (again, _) = parse_text(&out.as_str().into(), Limits::default());
        assert_eq!(c, again, "written:\n{out}");
        out
    }

    #[test]
    fn writes_variations_and_escapes() {
        let out = round_trip("(;FF[4]C[a\\]b\\\\](;B[aa];W[bb])(;B[cc]))");
        assert_eq!(out, "(;FF[4]C[a\\]b\\\\]\n(;B[aa];W[bb])\n(;B[cc]))\n");
    }

    #[test]
    fn keeps_duplicates_and_valueless_properties() {
        round_trip("(;B[aa]B[bb];B W[cc]; AddBlack[dd])");
    }

    #[test]
    fn deep_tree() {
        let depth = 100_000;
        round_trip(&format!("(;FF[4]{}{})", "(;B[aa]".repeat(depth), ")".repeat(depth)));
    }

    #[test]
    fn long_main_line_wraps() {
        let moves: String = (0..100).map(|i| if i % 2 == 0 { ";B[aa]" } else { ";W[bb]" }).collect();
        let out = round_trip(&format!("(;FF[4]{moves})"));
        assert!(out.lines().all(|l| l.len() <= WRAP + 10), "{out}");
    }
}
