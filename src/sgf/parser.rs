//! The SGF syntax layer: decoded text in, game trees and syntax diagnostics
//! out.
//!
//! Tokens (identifiers, values, white space) are nom parsers over bytes; the
//! tree structure is an explicit stack, never recursion, so that a million
//! nested variations cost heap, not stack. Real files are messy: wherever the
//! intent is clear the parser repairs and goes on, and says what it did.
//!
//! This module knows nothing of charsets (the text is already UTF-8), of
//! property meanings, or of Go.

use nom::IResult;
use nom::Parser as _;
use nom::bytes::complete::{take_while, take_while1};

use std::sync::Arc;

use super::tree::{Collection, GameTree, GameTreeBuilder, NodeId, PropId, UNMARKED};
use crate::diag::{Code, Diagnostic};

/// Limits on what one file may hold; `None` is unlimited.
#[derive(Debug, Clone, Copy, Default)]
pub struct Limits {
    /// Stop reading after this many nodes in the whole file.
    pub max_nodes: Option<usize>,
    /// Stop reading after this many variations (each `(` opening one inside
    /// a game tree) in the whole file.
    pub max_variations: Option<usize>,
}

/// The path a file holds when that is all it holds, one line of printable
/// ASCII with a `/` and no spaces, ending `.sgf`: what git checks out for a
/// symbolic link where links are off (`core.symlinks`), which several
/// test suites' records are.
fn link_target(text: &[u8]) -> Option<&str> {
    let line = text.trim_ascii();
    let plain = (1..=255).contains(&line.len()) && line.iter().all(|b| b.is_ascii_graphic()) && line.contains(&b'/');
    let named = line.len() > 4 && line[line.len() - 4..].eq_ignore_ascii_case(b".sgf");
    (plain && named).then(|| std::str::from_utf8(line).ok()).flatten()
}

fn is_space(b: u8) -> bool {
    // Includes form feed and vertical tab, which old files contain.
    matches!(b, b' ' | b'\t' | b'\n' | b'\r' | 0x0b | 0x0c)
}

fn space(i: &[u8]) -> IResult<&[u8], &[u8]> {
    take_while(is_space).parse(i)
}

fn identifier(i: &[u8]) -> IResult<&[u8], &[u8]> {
    take_while1(|b: u8| b.is_ascii_alphabetic()).parse(i)
}

/// Whether an identifier starts at the head of `i`: letters, white space,
/// then `[`. Lets the parser tell `AddBlack[` from stray prose.
fn identifier_then_value(i: &[u8]) -> bool {
    match identifier(i) {
        Ok((rest, _)) => space(rest).is_ok_and(|(rest, _)| rest.first() == Some(&b'[')),
        Err(_) => false,
    }
}

/// One sequence being read: `attach` is the node its first node hangs from,
/// `last` its last node so far.
struct Frame {
    attach: Option<NodeId>,
    last: Option<NodeId>,
    has_variations: bool,
}

/// The game tree and the variations open in it, innermost last. The
/// tree's own frame is kept out of the vector: a game with no variation
/// (most) then allocates none.
struct Frames {
    tree: Frame,
    variations: Vec<Frame>,
}

impl Frames {
    fn len(&self) -> usize {
        1 + self.variations.len()
    }

    fn last_mut(&mut self) -> &mut Frame {
        self.variations.last_mut().unwrap_or(&mut self.tree)
    }

    fn push(&mut self, frame: Frame) {
        self.variations.push(frame);
    }

    /// Closes the innermost frame; false when that was the tree's own.
    fn pop(&mut self) -> bool {
        self.variations.pop().is_some()
    }
}

struct Parser<'t> {
    text: &'t str,
    /// The same text, shared with the trees (their plain values point into it).
    source: &'t Arc<str>,
    s: &'t [u8],
    pos: usize,
    game: usize,
    nodes_total: usize,
    /// `limits.max_nodes`, or no limit.
    node_budget: usize,
    variations_total: usize,
    /// `limits.max_variations`, or no limit.
    variation_budget: usize,
    limit_hit: bool,
    diagnostics: Vec<Diagnostic>,
}

/// Parses decoded SGF text into a collection, collecting syntax
/// diagnostics. Never panics; always returns every game it could read.
pub fn parse_text(source: &Arc<str>, limits: Limits) -> (Collection, Vec<Diagnostic>) {
    let text: &str = source;
    let mut p = Parser {
        text,
        source,
        s: text.as_bytes(),
        pos: 0,
        game: 0,
        nodes_total: 0,
        node_budget: limits.max_nodes.unwrap_or(usize::MAX),
        variations_total: 0,
        variation_budget: limits.max_variations.unwrap_or(usize::MAX),
        limit_hit: false,
        diagnostics: Vec::new(),
    };
    let games = p.collection();
    (Collection { games }, p.diagnostics)
}

impl<'t> Parser<'t> {
    fn diag(&mut self, code: Code, offset: usize, message: impl Into<String>) {
        self.diagnostics.push(Diagnostic::new(code, offset as u32, message));
    }

    fn game_diag(&mut self, code: Code, offset: usize, message: impl Into<String>) {
        let d = Diagnostic::new(code, offset as u32, message).in_game(self.game);
        self.diagnostics.push(d);
    }

    fn peek(&self) -> Option<u8> {
        self.s.get(self.pos).copied()
    }

    /// Skips white space (the hot path of `space`, without nom's framing:
    /// most calls find none or a single newline).
    #[inline]
    fn skip_space(&mut self) {
        while self.s.get(self.pos).is_some_and(|&b| is_space(b)) {
            self.pos += 1;
        }
    }

    fn collection(&mut self) -> Vec<GameTree> {
        let mut games = Vec::new();
        loop {
            let next = self.find_tree_start();
            // A tree that lost its opening '(' (some Fox files) starts at a
            // node before the next '(': read it from there, root and all, or
            // its variations would be taken for games and the rest for junk.
            let unopened = self.find_unopened_tree(next.unwrap_or(self.s.len()));
            let Some(start) = unopened.or(next) else {
                if !games.is_empty() {
                    self.report_junk_until(self.s.len(), true);
                }
                break;
            };
            self.report_junk_until(start, !games.is_empty());
            self.pos = start;
            if unopened.is_some() {
                self.game_diag(Code::MissingOpenParen, start, "the game tree does not start with '('; read from its first ';'");
            }
            games.push(self.game_tree(unopened.is_none()));
            self.game += 1;
            if self.limit_hit {
                break;
            }
        }
        if games.is_empty() {
            if self.s.iter().all(|&b| is_space(b)) {
                self.diag(Code::EmptyFile, 0, "the file is empty");
            } else if let Some(target) = link_target(self.s) {
                let message = format!("no SGF data found: the file holds only a path, {target} (a symbolic link checked out as a text file?)");
                self.diag(Code::NotSgf, 0, message);
            } else {
                self.diag(Code::NotSgf, 0, "no SGF data found: no '(;' starts a game tree");
            }
        }
        games
    }

    /// The next `(` that starts a game tree: `(;`, or `(B[` with the `;`
    /// forgotten.
    fn find_tree_start(&self) -> Option<usize> {
        let mut from = self.pos;
        while let Some(i) = memchr::memchr(b'(', &self.s[from..]) {
            let at = from + i;
            let (rest, _) = space(&self.s[at + 1..]).ok()?;
            if rest.first() == Some(&b';') || identifier_then_value(rest) {
                return Some(at);
            }
            from = at + 1;
        }
        None
    }

    /// The first `;` before `end` that starts a node of a tree whose
    /// opening `(` was lost: `;`, an identifier starting with an upper-case
    /// letter (`GM`, `AddBlack`: not prose such as `; see [1]`), then `[`.
    fn find_unopened_tree(&self, end: usize) -> Option<usize> {
        memchr::memchr_iter(b';', &self.s[self.pos..end]).map(|i| self.pos + i).find(|&at| {
            let rest = &self.s[skip_space(self.s, at + 1)..];
            rest.first().is_some_and(u8::is_ascii_uppercase) && identifier_then_value(rest)
        })
    }

    /// Reports non-blank text from `self.pos` to `end` as junk.
    fn report_junk_until(&mut self, end: usize, after_game: bool) {
        let junk = &self.text[self.pos..end];
        let trimmed = junk.trim_matches(|c: char| c.is_ascii_whitespace() || c == '\u{0c}');
        if trimmed.is_empty() {
            return;
        }
        let offset = self.pos + (junk.len() - junk.trim_start().len());
        let shown = excerpt(trimmed);
        if after_game && trimmed.bytes().all(|b| b == b')' || is_space(b)) {
            self.diag(Code::UnexpectedCloseParen, offset, "extra ')' after the game tree ignored");
        } else if after_game {
            self.diag(Code::TrailingJunk, offset, format!("text after the game tree ignored: {shown}"));
        } else {
            self.diag(Code::LeadingJunk, offset, format!("text before the first game tree ignored: {shown}"));
        }
    }

    /// Reads one game tree starting at its `(` (or, when `opened` is false,
    /// at its first `;`).
    fn game_tree(&mut self, opened: bool) -> GameTree {
        let open = self.pos;
        // Room for about this game only: up to the next tree, `(;` (the next game
        // of a collection, or this game's first variation: the tree grows
        // past that as needed), at most a megabyte, not for the rest of the
        // file. Reserving for the rest gave each game of a 200 MB
        // collection room for a megabyte: 4.9 GB and 4 times slower
        // (tests/hostile.rs). The scan stops at a '(' the parser reaches
        // anyway (see `next_tree_start`), so over the file it costs about
        // one pass.
        //
        // The rest of a small file is taken as it stands: the scan, a pass
        // over the rest of a one-game file (its root's `(KGS)` passed over
        // on the way), cost more than the few records too many reserved,
        // which the thread keeps for its next tree anyway (see `GameTree`).
        let rest = &self.s[open + 1..];
        let window = &rest[..rest.len().min(1 << 20)];
        let size = if window.len() <= SIZED_AS_IT_STANDS { window.len() } else { next_tree_start(window).unwrap_or(window.len()) } + 1;
        let mut b = GameTreeBuilder::over_source(Arc::clone(self.source), size);
        b.set_offset(open as u32);
        let mut stack = Frames { tree: Frame { attach: None, last: None, has_variations: false }, variations: Vec::new() };
        if opened {
            self.pos += 1;
        }
        loop {
            self.skip_space();
            let Some(c) = self.peek() else {
                self.report_unclosed(stack.len());
                break;
            };
            match c {
                b'(' => self.open_variation(&mut b, &mut stack),
                b')' => {
                    self.pos += 1;
                    if !stack.pop() {
                        break;
                    }
                }
                b';' => self.nodes(&mut b, stack.last_mut()),
                c if c == b'[' || c.is_ascii_uppercase() || identifier_then_value(&self.s[self.pos..]) => {
                    let frame = stack.last_mut();
                    if !frame.has_variations {
                        self.game_diag(Code::MissingSemicolon, self.pos, "properties outside a node: a ';' is missing before them");
                    }
                    let at = self.pos;
                    self.node(&mut b, frame, at, false);
                }
                _ => self.junk(),
            }
            if self.limit_hit {
                break;
            }
        }
        if b.node_count() == 0 {
            // `(;` was seen, so a node exists unless limits stopped us first.
            b.add_node(None, open as u32);
        }
        b.finish()
    }

    fn report_unclosed(&mut self, open: usize) {
        let unterminated = self.diagnostics.last().is_some_and(|d| d.code == Code::UnterminatedValue);
        if !unterminated {
            let what = if open == 1 { "the game tree is".to_string() } else { format!("{open} trees or variations are") };
            self.game_diag(Code::MissingCloseParen, self.s.len(), format!("end of file: {what} not closed by ')'"));
        }
    }

    fn open_variation(&mut self, b: &mut GameTreeBuilder, stack: &mut Frames) {
        let at = self.pos;
        self.pos += 1;
        self.skip_space();
        if self.peek() == Some(b')') {
            self.pos += 1;
            self.game_diag(Code::EmptyVariation, at, "empty variation '()' ignored");
            return;
        }
        let frame = stack.last_mut();
        if frame.last.is_none() {
            if b.node_count() == 0 {
                self.game_diag(Code::EmptyVariation, at, "the game tree starts with a variation; an empty root node was added");
                frame.last = Some(b.add_node(None, at as u32));
            } else {
                // `((;`: a variation opened twice. Reading the second '(' as
                // nothing keeps the parentheses of the rest of the file
                // balanced (as SGFC does); the tree's shape is the same.
                self.game_diag(Code::EmptyVariation, at, "'(' opens a variation that holds no node; ignored");
                return;
            }
        }
        if self.variations_total >= self.variation_budget {
            self.limit_hit = true;
            let n = self.variations_total;
            self.game_diag(Code::LimitExceeded, at, format!("more than {n} variations (--max-variations); the rest of the file was not read"));
            return;
        }
        self.variations_total += 1;
        frame.has_variations = true;
        let attach = frame.last.or(frame.attach);
        stack.push(Frame { attach, last: None, has_variations: false });
    }

    /// Reads the nodes of a sequence from the `;` at `self.pos`, up to the
    /// next `(` or `)` (or the end of the text).
    ///
    /// Most nodes are `;B[pd]`: upper-case identifiers directly followed by
    /// one plain value each (no escape, no `[` inside). Those are read here
    /// in one pass; at the first thing of any other shape the node is
    /// finished by the general parsers ([`Parser::properties`], or
    /// [`Parser::node`] for a node that needs a diagnostic), which read
    /// exactly what this fast path would have.
    fn nodes(&mut self, b: &mut GameTreeBuilder, frame: &mut Frame) {
        let s = self.s;
        let mut at = self.pos;
        'nodes: loop {
            debug_assert_eq!(s[at], b';');
            if self.nodes_total >= self.node_budget || frame.has_variations {
                self.pos = at + 1;
                return self.node(b, frame, at, true);
            }
            let parent = match frame.last.or(frame.attach) {
                None if b.node_count() > 0 => Some(NodeId(0)),
                parent => parent,
            };
            self.nodes_total += 1;
            // The commonest node of all, `;B[pd]` alone, in one step.
            if let Some(Lone { code, open, close, after: mut next, plain_move }) = lone_property_node(s, at) {
                b.add_plain_node(parent, at, at + 1..open, code, open + 1..close, plain_move);
                // Most often the next node is another one: it hangs from this.
                let budget;
                (next, budget) = plain_chain(b, s, next, self.node_budget - self.nodes_total);
                self.nodes_total = self.node_budget - budget;
                frame.last = Some(NodeId(b.node_count() as u32 - 1));
                if next < s.len() && s[next] == b';' {
                    at = next;
                    continue;
                }
                self.pos = next;
                return;
            }
            let id = b.add_node(parent, at as u32);
            frame.last = Some(id);
            let mut pos = at + 1;
            let mut in_values = false;
            loop {
                let id_start = pos;
                while pos < s.len() && s[pos].is_ascii_uppercase() {
                    pos += 1;
                }
                let open = pos;
                if open == id_start || open >= s.len() || s[open] != b'[' {
                    pos = id_start;
                    break;
                }
                let Some(close) = plain_value_end(s, open + 1) else {
                    pos = id_start;
                    break;
                };
                b.add_upper_property_in_source(id_start..open, PropId::of_upper(&s[id_start..open]), id_start as u32);
                b.add_value_in_source(open + 1..close, open as u32);
                pos = skip_space(s, close + 1);
                match s.get(pos) {
                    Some(c) if c.is_ascii_uppercase() => {}
                    Some(b';') => {
                        at = pos;
                        continue 'nodes;
                    }
                    None | Some(b'(' | b')') => {
                        self.pos = pos;
                        return;
                    }
                    Some(_) => {
                        in_values = true;
                        break;
                    }
                }
            }
            // Something else: the general parsers read the rest of the node.
            self.pos = pos;
            if in_values {
                self.values(b);
            }
            self.properties(b);
            if !b.last_node_has_properties() {
                self.game_diag(Code::EmptyNode, at, "node with no properties");
            }
            if self.peek() != Some(b';') {
                return;
            }
            at = self.pos;
        }
    }

    /// Adds a node to `frame` and reads its properties.
    fn node(&mut self, b: &mut GameTreeBuilder, frame: &mut Frame, at: usize, had_semicolon: bool) {
        if self.nodes_total >= self.node_budget {
            self.limit_hit = true;
            self.game_diag(Code::LimitExceeded, at, format!("more than {} nodes (--max-nodes); the rest of the file was not read", self.nodes_total));
            return;
        }
        let mut parent = frame.last.or(frame.attach);
        if frame.has_variations {
            self.game_diag(Code::NodeAfterVariations, at, "a node follows the variations of its sequence; it was read as one more variation");
            parent = frame.last;
            frame.has_variations = false;
        }
        if parent.is_none() && b.node_count() > 0 {
            // A second root can only come from broken nesting; hang it under the root.
            parent = Some(NodeId(0));
        }
        let id = b.add_node(parent, at as u32);
        self.nodes_total += 1;
        frame.last = Some(id);
        self.properties(b);
        if !b.last_node_has_properties() && had_semicolon {
            self.game_diag(Code::EmptyNode, at, "node with no properties");
        }
    }

    /// Reads the properties of the node added last, up to the next
    /// structural character.
    ///
    /// The common case, an upper-case identifier directly followed by
    /// plain values (`B[pd]`, `AB[dd][pp]`), is read inline here; anything
    /// else goes through the general token parsers.
    fn properties(&mut self, b: &mut GameTreeBuilder) {
        let s = self.s;
        loop {
            let mut pos = self.pos;
            while pos < s.len() && is_space(s[pos]) {
                pos += 1;
            }
            self.pos = pos;
            let Some(&c) = s.get(pos) else { return };
            if c.is_ascii_uppercase() {
                let at = pos;
                let mut end = at + 1;
                while end < s.len() && s[end].is_ascii_uppercase() {
                    end += 1;
                }
                if end < s.len() && s[end] == b'[' {
                    b.add_upper_property_in_source(at..end, PropId::of_upper(&s[at..end]), at as u32);
                    self.pos = end;
                    self.values(b);
                } else {
                    self.property(b);
                }
                continue;
            }
            match c {
                b';' | b'(' | b')' => return,
                b'[' => {
                    let at = self.pos;
                    if b.has_open_property() {
                        self.game_diag(Code::ValueWithoutProperty, at, "value without a property identifier; kept as another value of the property before it");
                    } else {
                        self.game_diag(Code::ValueWithoutProperty, at, "value without a property identifier; kept under an empty identifier");
                        b.add_property("", None, at as u32);
                    }
                    self.values(b);
                }
                _ if identifier_then_value(&s[pos..]) => self.property(b),
                _ => self.junk(),
            }
        }
    }

    fn property(&mut self, b: &mut GameTreeBuilder) {
        let at = self.pos;
        let Ok((rest, ident)) = identifier(&self.s[at..]) else { return self.junk() };
        self.pos = self.s.len() - rest.len();
        let written = &self.text[at..self.pos];
        if ident.iter().all(u8::is_ascii_uppercase) {
            b.add_property_in_source(at..self.pos, at as u32);
        } else if !ident.iter().any(u8::is_ascii_uppercase) {
            self.game_diag(Code::InvalidIdentifier, at, format!("property identifier '{written}' has no upper-case letter"));
            b.add_property(written, None, at as u32);
        } else {
            let upper: String = written.chars().filter(|c| c.is_ascii_uppercase()).collect();
            self.game_diag(Code::OldIdentifier, at, format!("old-style identifier '{written}' read as {upper}"));
            b.add_property(&upper, Some(written), at as u32);
        }
        self.skip_space();
        if self.peek() == Some(b'[') {
            self.values(b);
        } else {
            self.game_diag(Code::MissingValue, at, format!("property {written} has no value"));
        }
    }

    /// Reads one or more `[...]` values, separated by white space.
    #[inline]
    fn values(&mut self, b: &mut GameTreeBuilder) {
        let s = self.s;
        let mut pos = self.pos;
        while pos < s.len() && s[pos] == b'[' {
            match plain_value_end(s, pos + 1) {
                Some(close) => {
                    b.add_value_in_source(pos + 1..close, pos as u32);
                    pos = close + 1;
                }
                None => {
                    self.pos = pos;
                    self.value(b);
                    pos = self.pos;
                }
            }
            while pos < s.len() && is_space(s[pos]) {
                pos += 1;
            }
        }
        self.pos = pos;
    }

    /// Reads one value from its `[`, unescaping into the tree's text.
    #[inline(never)]
    fn value(&mut self, b: &mut GameTreeBuilder) {
        let open = self.pos;
        if let Some(close) = plain_value_end(self.s, open + 1) {
            b.add_value_in_source(open + 1..close, open as u32);
            self.pos = close + 1;
            return;
        }
        let start = b.begin_value();
        let mut from = open + 1;
        let mut depth = 0usize; // unescaped '[' inside the value
        loop {
            let Some(i) = memchr::memchr3(b'\\', b']', b'[', &self.s[from..]) else {
                b.value_text().push_str(&self.text[from..]);
                b.end_value(start, open as u32);
                self.pos = self.s.len();
                self.game_diag(Code::UnterminatedValue, open, "end of file inside a value: ']' is missing");
                return;
            };
            let at = from + i;
            b.value_text().push_str(&self.text[from..at]);
            match self.s[at] {
                b'\\' => from = self.escape(b, at),
                b'[' => {
                    depth += 1;
                    b.value_text().push('[');
                    from = at + 1;
                }
                _ if depth > 0 && !self.value_ends_at(at) => {
                    depth -= 1;
                    b.value_text().push(']');
                    self.game_diag(Code::UnescapedBracket, at, "unescaped ']' inside a value (it should be written '\\]'); kept in the value");
                    from = at + 1;
                }
                _ => {
                    b.end_value(start, open as u32);
                    self.pos = at + 1;
                    return;
                }
            }
        }
    }

    /// Handles the backslash at `at`; returns where scanning resumes.
    fn escape(&self, b: &mut GameTreeBuilder, at: usize) -> usize {
        let next = at + 1;
        match self.s.get(next) {
            None => next,
            // A soft line break: backslash + newline (any convention) vanishes.
            Some(b'\r') if self.s.get(next + 1) == Some(&b'\n') => next + 2,
            Some(b'\n') if self.s.get(next + 1) == Some(&b'\r') => next + 2,
            Some(b'\n' | b'\r') => next + 1,
            Some(_) => {
                let ch = self.text[next..].chars().next().expect("char boundary");
                b.value_text().push(ch);
                next + ch.len_utf8()
            }
        }
    }

    /// Whether the `]` at `at` ends the value: what follows it is what may
    /// follow a value (another value, a property, a node, a tree edge).
    fn value_ends_at(&self, at: usize) -> bool {
        let rest = &self.s[at + 1..];
        let (rest, _) = space(rest).unwrap_or((rest, &[]));
        match rest.first() {
            None | Some(b'[' | b';' | b'(' | b')') => true,
            Some(_) => identifier_then_value(rest),
        }
    }

    /// Skips characters that are not SGF syntax, reporting them once.
    fn junk(&mut self) {
        let at = self.pos;
        let mut end = at;
        while end < self.s.len() {
            let c = self.s[end];
            if matches!(c, b';' | b'(' | b')' | b'[') || c.is_ascii_uppercase() || (c.is_ascii_lowercase() && identifier_then_value(&self.s[end..])) {
                break;
            }
            end += 1;
        }
        while !self.text.is_char_boundary(end) {
            end += 1;
        }
        let shown = excerpt(self.text[at..end].trim_end());
        self.pos = end;
        self.game_diag(Code::UnexpectedChar, at, format!("not SGF syntax, skipped: {shown}"));
    }
}

/// Bytes that end a plain value, one that can be kept as a span of the
/// source: `]` ends it; `[` and `\\` need the general reader.
static VALUE_STOP: [bool; 256] = {
    let mut t = [false; 256];
    t[b']' as usize] = true;
    t[b'[' as usize] = true;
    t[b'\\' as usize] = true;
    t
};

/// Where the plain value starting at `from` (just after its `[`) ends: the
/// index of its `]`, when no `[` or backslash comes before it.
#[inline]
fn plain_value_end(s: &[u8], from: usize) -> Option<usize> {
    // Most values (moves, numbers, names, dates) are a few bytes: the
    // first 16 looked at together (or one by one near the end of the
    // text) before handing longer ones to memchr.
    let rest = s.get(from..)?;
    let short = match rest.first_chunk::<16>() {
        Some(window) => match first_value_stop(window) {
            Some(i) => return (window[i] == b']').then_some(from + i),
            None => &window[..],
        },
        None => {
            for (i, &c) in rest.iter().enumerate() {
                if VALUE_STOP[c as usize] {
                    return (c == b']').then_some(from + i);
                }
            }
            rest
        }
    };
    let from = from + short.len();
    let i = memchr::memchr3(b']', b'[', b'\\', s.get(from..)?)?;
    (s[from + i] == b']').then_some(from + i)
}

/// The index of the first [`VALUE_STOP`] byte of `window`: on x86_64 the
/// three comparisons made on the 16 bytes at once (SSE2, which every
/// x86_64 processor has), about 10 instructions where the byte loop took
/// about 4 a byte (a KGS root's 26 values average 7 bytes, a `PC` 55).
#[inline(always)]
fn first_value_stop(window: &[u8; 16]) -> Option<usize> {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{_mm_cmpeq_epi8, _mm_loadu_si128, _mm_movemask_epi8, _mm_or_si128, _mm_set1_epi8};
        // SAFETY: the load reads the 16 bytes of `window` (unaligned
        // loads are what `loadu` is for); SSE2 is part of x86_64.
        let stops = unsafe {
            let v = _mm_loadu_si128(window.as_ptr().cast());
            let stop = |b: u8| _mm_cmpeq_epi8(v, _mm_set1_epi8(b as i8));
            _mm_movemask_epi8(_mm_or_si128(_mm_or_si128(stop(b']'), stop(b'[')), stop(b'\\'))) as u32
        };
        (stops != 0).then(|| stops.trailing_zeros() as usize)
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        window.iter().position(|&c| VALUE_STOP[c as usize])
    }
}

/// The most of a file after a tree's `(` that the tree's records are
/// reserved for with no look for the next tree: room for at most 2,340
/// nodes (`bytes / 7`), 56 KiB, under what a thread keeps of a tree's
/// records for the next.
const SIZED_AS_IT_STANDS: usize = 16 << 10;

/// Where the next game or variation, `(;`, starts in `s`: a `(` followed
/// (after white space) by `;`. A `(` in a value, such as the KGS
/// `PC[... (KGS) ...]` in every root, is passed over: stopping there would
/// size the game's records for its root alone. At most a few are, so the
/// scan never runs far past a `(` the parser reaches anyway.
fn next_tree_start(s: &[u8]) -> Option<usize> {
    let mut from = 0;
    for _ in 0..4 {
        let at = from + memchr::memchr(b'(', &s[from..])?;
        if s.get(skip_space(s, at + 1)) == Some(&b';') {
            return Some(at);
        }
        from = at + 1;
    }
    memchr::memchr(b'(', &s[from..]).map(|i| from + i)
}

/// Skips white space from `pos`.
#[inline]
fn skip_space(s: &[u8], mut pos: usize) -> usize {
    while pos < s.len() && is_space(s[pos]) {
        pos += 1;
    }
    pos
}

/// Reads `;B[pd]` nodes from `next` (see [`lone_property_node`]), each a
/// child of the node added last, while `budget` allows. Returns where it
/// stopped and the budget left.
#[inline(never)]
fn plain_chain(b: &mut GameTreeBuilder, s: &[u8], mut next: usize, mut budget: usize) -> (usize, usize) {
    while budget > 0 {
        let mut at = next;
        // A window is the eight bytes from `at`, with one test of `at`
        // against the last place one starts: where the text from `at`
        // kept as a slice took its pointer, length and `at` stepped apart.
        let last = s.len().checked_sub(8);
        budget -= b.add_marked_chain(budget, || {
            if at > last? {
                return None;
            }
            debug_assert!(at + 8 <= s.len());
            // SAFETY: `at` is at most `s.len() - 8`, just tested, so the
            // eight bytes from it are in `s` (a slice's checks of the
            // window stayed, with `last` spilled).
            let w = unsafe { s.as_ptr().add(at).cast::<[u8; 8]>().read_unaligned() };
            let (plain_move, length) = marked_move_window(u64::from_le_bytes(w))?;
            at += length;
            Some((at - length, plain_move))
        });
        next = at;
        if budget == 0 || next >= s.len() || s[next] != b';' {
            break;
        }
        let Some(Lone { code, open, close, after, plain_move }) = lone_property_node(s, next) else { break };
        b.add_plain_child(next, next + 1..open, code, open + 1..close, plain_move);
        budget -= 1;
        next = after;
    }
    (next, budget)
}

/// The commonest node of all in a chain, `;B[pd]` or `;W[pd]` followed by
/// `;` or by a line feed and `;`, told from the eight bytes from its `;`
/// (`w`, little-endian): its mark (the letters the node's record keeps,
/// see [`GameTreeBuilder::add_marked_chain`]) and its length up to the
/// next `;`. Tested here before the general reading,
/// [`lone_property_node`], which finds the same node with the same mark
/// but asks more of each byte: the identifier any upper-case letter, the
/// value any plain one.
#[inline(always)]
fn marked_move_window(w: u64) -> Option<([u8; 4], usize)> {
    const FIXED: u64 = 0x0000_ff00_00ff_00ff; // bytes 0, 2 and 5
    const SHAPE: u64 = (b']' as u64) << 40 | (b'[' as u64) << 16 | b';' as u64;
    let byte = |i: u32| (w >> (8 * i)) as u8;
    let (letter, x, y) = (byte(1), byte(3), byte(4));
    if w & FIXED != SHAPE || !matches!(letter, b'B' | b'W') || !x.is_ascii_lowercase() || !y.is_ascii_lowercase() {
        return None;
    }
    // Bytes 6 and 7 as one number: a line feed and `;` (most nodes of a
    // KGS file) in one comparison, where two bytes' tests took six
    // instructions and two 64-bit constants.
    let end = (w >> 48) as u16;
    let length = if end == u16::from_le_bytes(*b"\n;") {
        7
    } else if end as u8 == b';' {
        6
    } else {
        return None;
    };
    // The mark is the four bytes after the `;`, `B[pd`: one shift.
    Some((((w >> 8) as u32).to_le_bytes(), length))
}

/// Whether the node whose `;` is at `at` is a single property with a single
/// plain value, `;B[pd]`, with a one- or two-letter upper-case identifier
/// right after the `;` and nothing but white space after its `]` up to the
/// next `;`, `(` or `)` (or the end of the text).
#[inline(always)]
fn lone_property_node(s: &[u8], at: usize) -> Option<Lone> {
    // The commonest of all, `;B[pd]` then `;` or a line feed and `;`, in
    // one look at eight bytes.
    if let Some(w) = s.get(at..at + 8) {
        let w = u64::from_le_bytes(w.try_into().expect("eight bytes"));
        const FIXED: u64 = 0x0000_ff00_00ff_00ff; // bytes 0, 2 and 5
        const SHAPE: u64 = (b']' as u64) << 40 | (b'[' as u64) << 16 | b';' as u64;
        let byte = |i: u32| (w >> (8 * i)) as u8;
        let (x, y) = (byte(3), byte(4));
        // Two lower-case letters, the usual value, need no look-up in VALUE_STOP.
        let letters = x.is_ascii_lowercase() && y.is_ascii_lowercase();
        if w & FIXED == SHAPE && byte(1).is_ascii_uppercase() && (letters || !VALUE_STOP[x as usize] && !VALUE_STOP[y as usize]) {
            let code = PropId::of_upper(&[byte(1)]);
            let plain_move = if letters && matches!(code, PropId::B | PropId::W) { [byte(1), b'[', x, y] } else { UNMARKED };
            if byte(6) == b'\n' && byte(7) == b';' {
                return Some(Lone { code, open: at + 2, close: at + 5, after: at + 7, plain_move });
            }
            if byte(6) == b';' {
                return Some(Lone { code, open: at + 2, close: at + 5, after: at + 6, plain_move });
            }
        }
    }
    let head = s.get(at + 1..at + 4)?;
    if !head[0].is_ascii_uppercase() {
        return None;
    }
    let (code, open) = if head[1] == b'[' {
        (PropId::of_upper(&head[..1]), at + 2)
    } else if head[1].is_ascii_uppercase() && head[2] == b'[' {
        (PropId::of_upper(&head[..2]), at + 3)
    } else {
        return None;
    };
    // Moves, `[pd]`, first.
    let (close, plain_move) = match s.get(open + 1..open + 4) {
        Some(&[x, y, b']']) if !VALUE_STOP[x as usize] && !VALUE_STOP[y as usize] => {
            (open + 3, if is_plain_move(code, x, y) { [head[0], b'[', x, y] } else { UNMARKED })
        }
        _ => (plain_value_end(s, open + 1)?, UNMARKED),
    };
    let after = skip_space(s, close + 1);
    match s.get(after) {
        None | Some(b';' | b'(' | b')') => Some(Lone { code, open, close, after, plain_move }),
        Some(_) => None,
    }
}

/// A node holding a single property with a single plain value, as
/// [`lone_property_node`] finds it.
struct Lone {
    /// The identifier's number, from the letters in hand (the tree need
    /// not read them again).
    code: PropId,
    /// Where its `[` and `]` are, and what follows (after white space).
    open: usize,
    close: usize,
    after: usize,
    /// When it is one move on a point, `B[pd]`: its three letters, the
    /// node's mark (see [`GameTree::is_marked_plain_move`]), told from the
    /// bytes in hand; else [`UNMARKED`].
    plain_move: [u8; 4],
}

/// `B` or `W` with a value of two lower-case letters.
#[inline(always)]
fn is_plain_move(code: PropId, x: u8, y: u8) -> bool {
    matches!(code, PropId::B | PropId::W) && x.is_ascii_lowercase() && y.is_ascii_lowercase()
}

/// A short, quoted, one-line excerpt of skipped text for a message.
fn excerpt(s: &str) -> String {
    let one_line: String = s.chars().take(40).map(|c| if c.is_control() { ' ' } else { c }).collect();
    if s.chars().count() > 40 { format!("'{one_line}...'") } else { format!("'{one_line}'") }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The value's end found 16 bytes at a time is where the first stop
    /// byte is, from every place of texts with stops at every distance,
    /// near the end of the text too.
    #[test]
    fn plain_value_ends_where_the_first_stop_is() {
        let reference = |s: &[u8], from: usize| {
            let i = from + s.get(from..)?.iter().position(|&c| VALUE_STOP[c as usize])?;
            (s[i] == b']').then_some(i)
        };
        for stop in [b']', b'[', b'\\'] {
            for len in 0..40 {
                let mut text = vec![b'a'; len];
                for at in 0..=len {
                    if at < len {
                        text[at] = stop;
                    }
                    for from in 0..=len + 1 {
                        assert_eq!(plain_value_end(&text, from), reference(&text, from), "{len} {at} {from}");
                    }
                    if at < len {
                        text[at] = b'a';
                    }
                }
            }
        }
        let text = b"PC[The Kiseido Go Server (KGS) at http://kgs.kiseido.com/]KM[0.50]";
        assert_eq!(plain_value_end(text, 3), Some(57));
    }

    fn parse(s: &str) -> (Collection, Vec<&'static str>) {
        let (c, d) = parse_text(&Arc::from(s), Limits::default());
        (c, d.iter().map(|d| d.code.name()).collect())
    }

    fn shape(c: &Collection) -> Vec<(usize, usize)> {
        // (nodes on the main line, children of the last main-line node... ) kept simple: (len, root children)
        c.games.iter().map(|g| (g.len(), g.root().child_count())).collect()
    }

    #[test]
    fn a_link_checked_out_as_text_is_named_so() {
        let text: Arc<str> = Arc::from("../games/2011-06-05-tazaki-pachi30s.sgf");
        let (c, d) = parse_text(&text, Limits::default());
        assert!(c.games.is_empty());
        assert_eq!(d[0].code, Code::NotSgf);
        assert!(d[0].message.contains("holds only a path, ../games/2011-06-05-tazaki-pachi30s.sgf"), "{}", d[0].message);
        // Anything else that is not SGF keeps the plain message.
        for other in ["hello world", "../games/notes.txt", "a b/c.sgf"] {
            let (_, d) = parse(other);
            assert_eq!(d, ["not-sgf"], "{other}");
        }
    }

    #[test]
    fn simple_game() {
        let (c, d) = parse("(;FF[4]SZ[19];B[pd];W[dp])");
        assert!(d.is_empty(), "{d:?}");
        let g = &c.games[0];
        assert_eq!(g.main_line().count(), 3);
        assert_eq!(g.root().get_value("SZ"), Some("19"));
    }

    #[test]
    fn escapes_and_soft_breaks() {
        let (c, d) = parse("(;C[a\\]b\\\\c\\\nd\\:e]LB[dd:x\\:y])");
        assert!(d.is_empty(), "{d:?}");
        let root = c.games[0].root();
        assert_eq!(root.get_value("C"), Some("a]b\\cd:e"));
        let lb = root.get("LB").unwrap().values().next().unwrap();
        assert_eq!(lb.composed(), Some(("dd", "x:y")));
    }

    #[test]
    fn variations_nest_without_recursion() {
        let depth = 200_000;
        let s = format!("(;FF[4]{}{})", "(;B[aa]".repeat(depth), ")".repeat(depth));
        let (c, d) = parse(&s);
        assert!(d.is_empty(), "{:?}", &d[..d.len().min(3)]);
        assert_eq!(c.games[0].len(), depth + 1);
    }

    #[test]
    fn old_long_identifiers() {
        let (c, d) = parse("(;AddBlack[aa][bb]CoPyright[x])");
        assert_eq!(d, ["old-identifier", "old-identifier"]);
        let root = c.games[0].root();
        assert_eq!(root.get("AB").unwrap().written_id(), "AddBlack");
        assert_eq!(root.get_value("CP"), Some("x"));
    }

    #[test]
    fn recovery_cases() {
        let cases: &[(&str, &[&str])] = &[
            ("", &["empty-file"]),
            ("junk", &["not-sgf"]),
            ("()", &["not-sgf"]),
            ("junk (;B[aa])", &["leading-junk"]),
            ("(;B[aa]) junk", &["trailing-junk"]),
            ("(;B[aa]))", &["unexpected-close-paren"]),
            ("(;B[aa]", &["missing-close-paren"]),
            ("(;B[aa", &["unterminated-value"]),
            ("(;)", &["empty-node"]),
            ("(;B;W[aa])", &["missing-value"]),
            ("(B[pp];W[dd])", &["missing-semicolon"]),
            (";GM[1];B[pp])", &["missing-open-paren"]),
            ("(;B[aa]())", &["empty-variation"]),
            ("(;[aa])", &["value-without-property"]),
            ("(; illegal_chars FF[4])", &["unexpected-char"]),
            ("(;US[Matsuyama[3d]])", &["unescaped-bracket"]),
            ("(;B[ag];W[ah](;B[ai]);W[bd])", &["node-after-variations"]),
        ];
        for (input, want) in cases {
            let (_, got) = parse(input);
            assert_eq!(&got, want, "input {input:?}");
        }
    }

    #[test]
    fn a_tree_that_lost_its_open_paren_keeps_its_root_and_variations() {
        let (c, d) = parse(";GM[1]SZ[9]PB[Alice];B[ee];W[cc](;B[gg])(;B[gc]))");
        assert_eq!(d, ["missing-open-paren"]);
        assert_eq!((c.games.len(), c.games[0].len(), c.games[0].main_line().count()), (1, 5, 4));
        assert_eq!(c.games[0].root().get_value("PB"), Some("Alice"));
        // Junk before it is still junk, and the games after it are read.
        let (c, d) = parse("saved by X\n;GM[1];B[ee](;W[aa])(;W[bb]))\n(;GM[1];B[cc])");
        assert_eq!(d, ["leading-junk", "missing-open-paren"]);
        assert_eq!(c.games.len(), 2);
        // Prose with a ';' is not a node: `; see [1]` has no upper-case identifier.
        let (c, d) = parse("notes; see [1]\n(;GM[1];B[ee])");
        assert_eq!(d, ["leading-junk"]);
        assert_eq!(shape(&c), [(2, 1)]);
    }

    #[test]
    fn broken_game_does_not_hide_the_next() {
        let (c, d) = parse("(;B[aa] ??? (;W[bb]))\n(;B[cc])");
        assert_eq!(c.games.len(), 2, "{d:?}");
        assert_eq!(c.games[1].root().get_value("B"), Some("cc"));
    }

    #[test]
    fn unescaped_bracket_value() {
        let (c, _) = parse("(;US[Matsuyama[3d]]PB[x])");
        assert_eq!(c.games[0].root().get_value("US"), Some("Matsuyama[3d]"));
        assert_eq!(c.games[0].root().get_value("PB"), Some("x"));
    }

    #[test]
    fn sgfmill_shapes() {
        let (c, _) = parse("(;C[abc]AB[ab](;B[bc])(;B[bd]))");
        assert_eq!(shape(&c), [(3, 2)]);
        let (c, _) = parse("(;C[abc] AB[ab]\n[bc]\t;B[bc])");
        assert_eq!(c.games[0].root().get("AB").unwrap().value_count(), 2);
    }

    #[test]
    fn max_nodes_limit() {
        let (c, d) = parse_text(&Arc::from("(;B[aa];W[bb];B[cc])"), Limits { max_nodes: Some(2), ..Limits::default() });
        assert_eq!(c.games[0].len(), 2);
        assert_eq!(d[0].code, Code::LimitExceeded);
    }

    #[test]
    fn max_variations_limit() {
        let text = "(;GM[1](;B[aa](;W[bb])(;W[cc]))(;B[dd]))\n(;GM[1](;B[ee]))";
        for max in 0..6 {
            let (c, d) = parse_text(&Arc::from(text), Limits { max_variations: Some(max), ..Limits::default() });
            let hit: Vec<_> = d.iter().filter(|d| d.code == Code::LimitExceeded).collect();
            // Five variations in all, in file order: the first `max` are read.
            assert_eq!(hit.len(), usize::from(max < 5), "max {max}: {d:?}");
            let nodes: usize = c.games.iter().map(|g| g.len()).sum();
            let want = [1, 2, 3, 4, 6, 7][max];
            assert_eq!(nodes, want, "max {max}");
            if let Some(hit) = hit.first() {
                assert!(hit.message.contains(&format!("more than {max} variations")), "{}", hit.message);
                assert_eq!(c.games.len(), if max < 4 { 1 } else { 2 });
            }
        }
    }

    /// What the fast paths read, spelled out: (parent, offset) of each node
    /// and (id, offset, values with offsets) of each property.
    fn detail(c: &Collection) -> Vec<String> {
        let mut out = Vec::new();
        for g in &c.games {
            for n in g.nodes() {
                out.push(format!("{:?}@{}", n.parent().map(|p| p.id().0), n.offset()));
                for p in n.properties() {
                    let values: Vec<_> = p.values().map(|v| format!("{}@{}", v.text(), v.offset())).collect();
                    out.push(format!(" {}@{} {values:?}", p.id(), p.offset()));
                }
            }
        }
        out
    }

    #[test]
    fn move_nodes_in_every_layout() {
        // The same game laid out as KGS, Fox and others write it.
        let layouts = [
            "(;GM[1]\n;B[pd]\n;W[dd]\n;B[pp]\n)",
            "(;GM[1];B[pd];W[dd];B[pp])",
            "(;GM[1]\r\n;B[pd]\r\n;W[dd]\r\n;B[pp]\r\n)",
            "(;GM[1] ; B[pd] ;W [dd]\t;B[pp] )",
            "(;GM[1];B[pd]\n;W[dd];B[pp]",
        ];
        for text in layouts {
            let (c, d) = parse(text);
            let moves: Vec<_> = c.games[0].main_line().skip(1).map(|n| n.get_value("B").or(n.get_value("W")).unwrap()).collect();
            assert_eq!(moves, ["pd", "dd", "pp"], "{text:?}");
            assert!(d.is_empty() || d == ["missing-close-paren"], "{text:?}: {d:?}");
        }
        let (c, _) = parse("(;GM[1]\n;B[pd]\n;W[]\n;B[tt]C[x];AB[aa][bb]\n;W[dd]LB[dd:1])");
        assert_eq!(
            detail(&c),
            [
                "None@1",
                " GM@2 [\"1@4\"]",
                "Some(0)@8",
                " B@9 [\"pd@10\"]",
                "Some(1)@15",
                " W@16 [\"@17\"]",
                "Some(2)@20",
                " B@21 [\"tt@22\"]",
                " C@26 [\"x@27\"]",
                "Some(3)@30",
                " AB@31 [\"aa@33\", \"bb@37\"]",
                "Some(4)@42",
                " W@43 [\"dd@44\"]",
                " LB@48 [\"dd:1@50\"]",
            ]
        );
    }

    #[test]
    fn move_nodes_and_the_general_parser_agree() {
        // Each case once as written and once with a plain move before it,
        // so that the fast path hands over mid-sequence.
        let cases = [
            ";B[p\\]d]",
            ";B[p[d]]",
            ";B[pd];",
            ";B[pd]junk;W[aa]",
            ";B[pd](;W[aa])(;W[bb])",
            ";b[pd]",
            ";Black[pd]",
            ";B[pd]\x0c;W[aa]",
            ";B[pd][qq]",
            ";B[pd] [qq]",
            ";[pd]",
            ";B[pd]\n\n;W[aa]",
            ";B[pd]\n(;W[aa])",
            ";B[pd]",
        ];
        for case in cases {
            for text in [format!("(;GM[1]{case})"), format!("(;GM[1];W[aa]\n{case})"), format!("(;GM[1];W[aa]{case}")] {
                let (fast, fast_d) = parse(&text);
                // The general parser alone: the same text with every node
                // made unusual by a leading space after its ';'.
                let slow_text = text.replace(';', "; ");
                let (slow, slow_d) = parse(&slow_text);
                assert_eq!(fast, slow, "{text:?}");
                assert_eq!(fast_d, slow_d, "{text:?}");
            }
        }
    }

    #[test]
    fn max_nodes_inside_a_run_of_moves() {
        for max in 1..6 {
            let (c, d) = parse_text(&Arc::from("(;GM[1]\n;B[aa]\n;W[bb]\n;B[cc]\n;W[dd])"), Limits { max_nodes: Some(max), ..Limits::default() });
            assert_eq!(c.games[0].len(), max.min(5), "max {max}");
            assert_eq!(d.iter().any(|d| d.code == Code::LimitExceeded), max < 5, "max {max}");
        }
    }
}
