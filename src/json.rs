//! SGF ⇄ JSON in the `kifu/1` schema (described in `docs/json.md`).
//!
//! [`to_json`] turns a parsed file into one JSON document: per game the
//! [`Summary`](crate::sgf::props::Summary) and the whole game tree, every
//! property kept in file order with its decoded values. [`from_json`] and
//! [`from_json_lines`] read such documents back into the lossless model, so
//! that SGF → JSON → SGF changes nothing but the charset (see
//! [`set_utf8_charset`]).
//!
//! Game trees can be nested as deep as the input is (a file of a million
//! nested variations is legal SGF), so neither direction recurses: the
//! writer walks the tree with an explicit stack, and the reader is a small
//! hand-written pull parser whose only unbounded nesting, `children`, is an
//! explicit stack too. The reader collects a game into flat vectors before
//! building it (so members may come in any order) and nothing it holds has
//! a recursive `Drop`. (A serde reader made deep-safe with `serde_stacker`
//! was measured growing its stack by about 1 KB per nested variation in a
//! release build and 4 KB in a debug build: 1 GB and 4 GB for a million;
//! this one needs none.)
//!
//! This module knows the model and the summary, nothing of Go rules, of
//! charsets beyond the name it is given, or of the command line.

use std::borrow::Cow;
use std::fmt::{self, Write as _};
use std::ops::Range;

use crate::sgf::source::Locator;
use crate::sgf::{Collection, GameTree, GameTreeBuilder, Node, NodeId, Parsed, SourceMap};

/// The value of the `schema` member.
pub const SCHEMA: &str = "kifu/1";

/// How to write JSON.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct JsonOptions {
    /// Adds `line`, `column` and `offset` to games, nodes and properties,
    /// and `value_positions` to properties.
    pub positions: bool,
    /// Indented, several lines (for people); otherwise one line, suitable
    /// for JSON Lines.
    pub pretty: bool,
}

/// One `kifu/1` document read back.
#[derive(Debug, Clone, PartialEq)]
pub struct JsonDocument {
    /// The `file` member, when present and not `null`.
    pub file: Option<String>,
    pub collection: Collection,
}

/// Why a JSON text could not be read as `kifu/1`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct JsonError {
    /// Where in the document, in jq syntax: `.games[0].tree.nodes[2].props[0].id`
    /// (`.` is the document itself). Very deep paths are shortened in the
    /// middle.
    pub path: String,
    /// 1-based line and column (in characters) of the text, where the
    /// problem was noticed.
    pub line: u32,
    pub column: u32,
    pub message: String,
}

impl fmt::Display for JsonError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}, column {}: at {}: {}", self.line, self.column, self.path, self.message)
    }
}

impl std::error::Error for JsonError {}

// ---------------------------------------------------------------------------
// Writing

/// One `kifu/1` document for one parsed file: compact, on one line (JSON
/// Lines), unless `options.pretty`. `file` is written as given.
pub fn to_json(file: &str, parsed: &Parsed, options: &JsonOptions) -> String {
    let positions = options.positions.then_some(&parsed.source);
    let compact = write_document(file, parsed.encoding.name(), &parsed.collection, positions);
    if options.pretty { prettify(&compact) } else { compact }
}

/// [`to_json`] with `pretty` set.
pub fn to_json_pretty(file: &str, parsed: &Parsed, options: &JsonOptions) -> String {
    to_json(file, parsed, &JsonOptions { pretty: true, ..*options })
}

/// One compact document for a collection that was not parsed from a file
/// (no positions): `encoding` is written as the `encoding` member.
pub fn collection_to_json(file: &str, encoding: &str, collection: &Collection) -> String {
    write_document(file, encoding, collection, None)
}

fn write_document(file: &str, encoding: &str, collection: &Collection, source: Option<&SourceMap>) -> String {
    let size: usize = collection.games.iter().map(|g| g.len() * 24 + g.property_count() * 32).sum();
    let mut out = String::with_capacity(size + 256);
    out.push_str("{\"schema\":");
    push_str_literal(&mut out, SCHEMA);
    out.push_str(",\"file\":");
    push_str_literal(&mut out, file);
    out.push_str(",\"encoding\":");
    push_str_literal(&mut out, encoding);
    out.push_str(",\"games\":[");
    let mut locator = source.map(Locator::new);
    for (i, game) in collection.games.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        write_game(&mut out, game, locator.as_mut());
    }
    out.push_str("]}");
    out
}

fn write_game(out: &mut String, game: &GameTree, mut loc: Option<&mut Locator<'_>>) {
    out.push_str("{\"summary\":");
    out.push_str(&summary_json(game));
    if let Some(loc) = loc.as_deref_mut() {
        out.push(',');
        write_location(loc, out, game.offset());
    }
    out.push_str(",\"tree\":");
    if game.is_empty() {
        out.push_str("{\"nodes\":[]}}");
        return;
    }
    enum Step<'a> {
        /// A tree starting at this node; `true` when a comma goes first.
        Tree(Node<'a>, bool),
        /// Closes a `children` array and the tree object holding it.
        EndChildren,
    }
    let mut stack = vec![Step::Tree(game.root(), false)];
    let mut kids: Vec<Node<'_>> = Vec::new();
    while let Some(step) = stack.pop() {
        let (mut node, comma) = match step {
            Step::EndChildren => {
                out.push_str("]}");
                continue;
            }
            Step::Tree(node, comma) => (node, comma),
        };
        if comma {
            out.push(',');
        }
        out.push_str("{\"nodes\":[");
        loop {
            write_node(out, node, loc.as_deref_mut());
            let mut children = node.children();
            match (children.next(), children.next()) {
                (None, _) => {
                    out.push_str("]}");
                    break;
                }
                (Some(only), None) => {
                    out.push(',');
                    node = only;
                }
                _ => {
                    out.push_str("],\"children\":[");
                    stack.push(Step::EndChildren);
                    kids.clear();
                    kids.extend(node.children());
                    for (i, &child) in kids.iter().enumerate().rev() {
                        stack.push(Step::Tree(child, i > 0));
                    }
                    break;
                }
            }
        }
    }
    out.push('}');
}

fn write_node(out: &mut String, node: Node<'_>, mut loc: Option<&mut Locator<'_>>) {
    out.push('{');
    if let Some(loc) = loc.as_deref_mut() {
        write_location(loc, out, node.offset());
        out.push(',');
    }
    out.push_str("\"props\":[");
    for (i, prop) in node.properties().enumerate() {
        if i > 0 {
            out.push(',');
        }
        out.push_str("{\"id\":");
        push_str_literal(out, prop.id());
        if prop.written_id() != prop.id() {
            out.push_str(",\"written_id\":");
            push_str_literal(out, prop.written_id());
        }
        out.push_str(",\"values\":[");
        for (j, value) in prop.values().enumerate() {
            if j > 0 {
                out.push(',');
            }
            push_str_literal(out, value.text());
        }
        out.push(']');
        if let Some(loc) = loc.as_deref_mut() {
            out.push(',');
            write_location(loc, out, prop.offset());
            out.push_str(",\"value_positions\":[");
            for (j, value) in prop.values().enumerate() {
                if j > 0 {
                    out.push(',');
                }
                out.push('{');
                write_location(loc, out, value.offset());
                out.push('}');
            }
            out.push(']');
        }
        out.push('}');
    }
    out.push_str("]}");
}

/// The game's summary as JSON (`null` for a tree without nodes, which the
/// parser never makes).
fn summary_json(game: &GameTree) -> String {
    if game.is_empty() {
        return "null".to_string();
    }
    serde_json::to_string(&crate::sgf::props::summary(game)).unwrap_or_else(|_| "null".to_string())
}

/// Appends `s` as a JSON string literal: `"` and `\` escaped, control
/// characters as `\n`, `\r`, `\t`, `\b`, `\f` or `\u00XX` (as serde_json
/// writes them); everything else as is (UTF-8).
fn push_str_literal(out: &mut String, s: &str) {
    out.push('"');
    let bytes = s.as_bytes();
    let (mut i, mut start) = (0, 0);
    while i < bytes.len() {
        let b = bytes[i];
        if !STRING_SPECIAL[b as usize] {
            i += 1;
            continue;
        }
        let short = match b {
            b'"' => "\\\"",
            b'\\' => "\\\\",
            b'\n' => "\\n",
            b'\r' => "\\r",
            b'\t' => "\\t",
            0x08 => "\\b",
            0x0c => "\\f",
            _ => "",
        };
        out.push_str(&s[start..i]);
        if short.is_empty() {
            let _ = write!(out, "\\u{b:04x}");
        } else {
            out.push_str(short);
        }
        i += 1;
        start = i;
    }
    out.push_str(&s[start..]);
    out.push('"');
}

/// Appends `"line":L,"column":C,"offset":O`.
fn write_location(loc: &mut Locator<'_>, out: &mut String, offset: u32) {
    let (line, column) = loc.locate(offset);
    let _ = write!(out, "\"line\":{line},\"column\":{column},\"offset\":{offset}");
}

/// Containers whose compact text is at most this long stay on one line.
const INLINE_WIDTH: usize = 72;
/// Indentation stops growing past this depth, so that pretty output of a
/// very deep tree stays linear in size.
const MAX_INDENT: usize = 32;

/// Re-indents compact JSON (as written by this module) for people: a
/// container that fits in [`INLINE_WIDTH`] stays on one line (with a space
/// after `,` and `:`), larger ones get one member per line, indented by two
/// spaces per level. Iterative, so any depth works.
fn prettify(compact: &str) -> String {
    let s = compact.as_bytes();
    let mut out = String::with_capacity(compact.len() * 2);
    let mut depth = 0usize;
    let mut i = 0;
    let mut run = 0; // start of the pending verbatim run
    let newline = |out: &mut String, depth: usize| {
        out.push('\n');
        for _ in 0..depth.min(MAX_INDENT) {
            out.push_str("  ");
        }
    };
    while i < s.len() {
        match s[i] {
            b'"' => i = string_end(s, i),
            b'{' | b'[' => {
                out.push_str(&compact[run..i]);
                if let Some(end) = inline_end(s, i) {
                    push_spaced(&mut out, &compact[i..end]);
                    i = end;
                } else {
                    out.push(s[i] as char);
                    depth += 1;
                    newline(&mut out, depth);
                    i += 1;
                }
                run = i;
            }
            b'}' | b']' => {
                out.push_str(&compact[run..i]);
                depth = depth.saturating_sub(1);
                newline(&mut out, depth);
                out.push(s[i] as char);
                i += 1;
                run = i;
            }
            b',' => {
                out.push_str(&compact[run..=i]);
                newline(&mut out, depth);
                i += 1;
                run = i;
            }
            b':' => {
                out.push_str(&compact[run..=i]);
                out.push(' ');
                i += 1;
                run = i;
            }
            _ => i += 1,
        }
    }
    out.push_str(&compact[run..]);
    out
}

/// The index just past the string literal starting at `s[i] == '"'`.
fn string_end(s: &[u8], mut i: usize) -> usize {
    i += 1;
    while i < s.len() {
        match s[i] {
            b'\\' => i += 2,
            b'"' => return i + 1,
            _ => i += 1,
        }
    }
    s.len()
}

/// Where the container opening at `s[i]` ends, if that is within
/// [`INLINE_WIDTH`] bytes.
fn inline_end(s: &[u8], start: usize) -> Option<usize> {
    let limit = (start + INLINE_WIDTH).min(s.len());
    let mut depth = 0usize;
    let mut i = start;
    while i < limit {
        match s[i] {
            b'"' => {
                i = string_end(s, i);
                continue;
            }
            b'{' | b'[' => depth += 1,
            b'}' | b']' => {
                depth -= 1;
                if depth == 0 {
                    return Some(i + 1);
                }
            }
            _ => {}
        }
        i += 1;
    }
    None
}

/// Appends compact JSON with a space after each `,` and `:` outside strings.
fn push_spaced(out: &mut String, compact: &str) {
    let s = compact.as_bytes();
    let (mut i, mut run) = (0, 0);
    while i < s.len() {
        match s[i] {
            b'"' => i = string_end(s, i),
            b',' | b':' => {
                out.push_str(&compact[run..=i]);
                out.push(' ');
                i += 1;
                run = i;
            }
            _ => i += 1,
        }
    }
    out.push_str(&compact[run..]);
}

// ---------------------------------------------------------------------------
// SGF output

/// The collection with each game's root saying `CA[UTF-8]`, which is what
/// [`write_collection`](crate::sgf::write_collection) writes: every `CA`
/// property of the root gets the single value `UTF-8` (as it was spelt and
/// where it was); a root without one gets `CA[UTF-8]` after its leading
/// `FF` and `GM` properties. Nothing else changes (offsets included).
pub fn set_utf8_charset(collection: &Collection) -> Collection {
    Collection { games: collection.games.iter().map(game_with_utf8_charset).collect() }
}

fn game_with_utf8_charset(game: &GameTree) -> GameTree {
    if game.is_empty() {
        return game.clone();
    }
    let root = game.root();
    if root.properties().filter(|p| p.id() == "CA").all(|p| p.values().map(|v| v.text()).eq(["UTF-8"])) && root.has("CA") {
        return game.clone();
    }
    let mut b = GameTreeBuilder::new();
    b.set_offset(game.offset());
    let has_ca = root.has("CA");
    // Where a missing CA goes: after the leading FF and GM properties.
    let insert_at = if has_ca { usize::MAX } else { root.properties().take_while(|p| matches!(p.id(), "FF" | "GM")).count() };
    for node in game.nodes() {
        b.add_node(node.parent().map(|p| p.id()), node.offset());
        let is_root = node.id() == NodeId(0);
        for (i, prop) in node.properties().enumerate() {
            if is_root && i == insert_at {
                b.add_property("CA", None, node.offset());
                b.add_value("UTF-8", node.offset());
            }
            let written = (prop.written_id() != prop.id()).then(|| prop.written_id());
            b.add_property(prop.id(), written, prop.offset());
            if is_root && prop.id() == "CA" {
                let offset = prop.values().next().map_or(prop.offset(), |v| v.offset());
                b.add_value("UTF-8", offset);
                continue;
            }
            for value in prop.values() {
                b.add_value(value.text(), value.offset());
            }
        }
        if is_root && insert_at == node.properties().len() {
            b.add_property("CA", None, node.offset());
            b.add_value("UTF-8", node.offset());
        }
    }
    b.finish()
}

// ---------------------------------------------------------------------------
// Reading

/// Reads one `kifu/1` document (compact or pretty). White space may
/// surround it; anything else after it is an error (several documents are
/// for [`from_json_lines`]). Never panics; an error names the JSON path.
pub fn from_json(text: &str) -> Result<JsonDocument, JsonError> {
    let mut r = Reader::new(text);
    r.skip_bom();
    let doc = r.document()?;
    if r.peek().is_some() {
        return Err(r.error_at(r.pos, "unexpected text after the document (for several documents, one per line, read them as JSON Lines)"));
    }
    Ok(doc)
}

/// Reads every `kifu/1` document of a text: JSON Lines (one compact
/// document per line, as `kifu convert` writes for many files) or, more
/// generally, documents one after another separated by white space, so a
/// single pretty-printed document reads too. Blank lines are skipped; an
/// empty text gives no documents. The first bad document stops the
/// reading: its error's line is the line in the whole text.
pub fn from_json_lines(text: &str) -> Result<Vec<JsonDocument>, JsonError> {
    let mut r = Reader::new(text);
    r.skip_bom();
    let mut docs = Vec::new();
    while r.peek().is_some() {
        r.doc_index = Some(docs.len());
        docs.push(r.document()?);
    }
    Ok(docs)
}

/// Bytes that end a run of plain string contents: `"`, `\\` and control
/// characters.
static STRING_SPECIAL: [bool; 256] = {
    let mut table = [false; 256];
    let mut i = 0;
    while i < 0x20 {
        table[i] = true;
        i += 1;
    }
    table[b'"' as usize] = true;
    table[b'\\' as usize] = true;
    table
};

/// One segment of a JSON path.
#[derive(Debug, Clone, Copy)]
enum Seg {
    Key(&'static str),
    Index(u32),
}

#[derive(Debug, Clone, Copy)]
struct Span {
    start: u32,
    end: u32,
}

impl Span {
    fn range(self) -> Range<usize> {
        self.start as usize..self.end as usize
    }
}

const NONE: u32 = u32::MAX;

/// One `{"nodes": [...], "children": [...]}` object, flat.
struct TreeRec {
    nodes: Range<u32>,
    first_child: u32,
    next_sibling: u32,
}

struct PropRec {
    id: Span,
    written: Option<Span>,
    values: Range<u32>,
}

type Result<T, E = JsonError> = std::result::Result<T, E>;

/// A pull parser for exactly the `kifu/1` shape, over the whole text.
struct Reader<'a> {
    text: &'a str,
    s: &'a [u8],
    pos: usize,
    /// The current JSON path (deepest last).
    path: Vec<Seg>,
    /// Index of the document being read, for paths in JSON Lines.
    doc_index: Option<usize>,
    // One game, flat: trees point into nodes, nodes into props, props into
    // values, values and identifiers into text.
    trees: Vec<TreeRec>,
    nodes: Vec<Range<u32>>,
    props: Vec<PropRec>,
    values: Vec<Span>,
    arena: String,
}

/// An open tree object while reading `children`, deepest last.
struct TreeFrame {
    rec: u32,
    first_member: bool,
    seen_nodes: bool,
    seen_children: bool,
    /// Inside the `children` array: (no element yet, elements so far, last child read).
    children: Option<(bool, u32, u32)>,
}

impl TreeFrame {
    fn new(rec: u32) -> TreeFrame {
        TreeFrame { rec, first_member: true, seen_nodes: false, seen_children: false, children: None }
    }
}

impl<'a> Reader<'a> {
    fn new(text: &'a str) -> Reader<'a> {
        Reader {
            text,
            s: text.as_bytes(),
            pos: 0,
            path: Vec::new(),
            doc_index: None,
            trees: Vec::new(),
            nodes: Vec::new(),
            props: Vec::new(),
            values: Vec::new(),
            arena: String::new(),
        }
    }

    // --- errors -----------------------------------------------------------

    fn error_at(&self, at: usize, message: impl Into<String>) -> JsonError {
        let at = at.min(self.s.len());
        let before = &self.s[..at];
        let line_start = before.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
        let line = before.iter().filter(|&&b| b == b'\n').count() + 1;
        let column = self.text[line_start..floor_char_boundary(self.text, at)].chars().count() + 1;
        JsonError { path: self.path_string(), line: line as u32, column: column as u32, message: message.into() }
    }

    fn error_in(&mut self, key: &'static str, at: usize, message: impl Into<String>) -> JsonError {
        self.path.push(Seg::Key(key));
        let e = self.error_at(at, message);
        self.path.pop();
        e
    }

    fn path_string(&self) -> String {
        const HEAD: usize = 8;
        const TAIL: usize = 12;
        let mut out = String::new();
        let render = |out: &mut String, seg: &Seg| match seg {
            Seg::Key(k) => {
                out.push('.');
                out.push_str(k);
            }
            Seg::Index(i) => {
                let _ = write!(out, "[{i}]");
            }
        };
        if let Some(i) = self.doc_index {
            let _ = write!(out, "(document {}) ", i + 1);
        }
        if self.path.is_empty() {
            out.push('.');
        } else if self.path.len() <= HEAD + TAIL {
            self.path.iter().for_each(|seg| render(&mut out, seg));
        } else {
            self.path[..HEAD].iter().for_each(|seg| render(&mut out, seg));
            let _ = write!(out, "…({} more)…", self.path.len() - HEAD - TAIL);
            self.path[self.path.len() - TAIL..].iter().for_each(|seg| render(&mut out, seg));
        }
        out
    }

    fn describe(&self, at: usize) -> String {
        match self.s.get(at) {
            None => "the end of the text".to_string(),
            Some(b'{') => "an object".to_string(),
            Some(b'[') => "an array".to_string(),
            Some(b'"') => "a string".to_string(),
            Some(b't' | b'f') if [&b"true"[..], b"false"].iter().any(|w| self.s[at..].starts_with(w)) => "a boolean".to_string(),
            Some(b'n') if self.s[at..].starts_with(b"null") => "null".to_string(),
            Some(b'-' | b'0'..=b'9') => "a number".to_string(),
            Some(_) => {
                let c = self.text[floor_char_boundary(self.text, at)..].chars().next().unwrap_or(' ');
                format!("{c:?}")
            }
        }
    }

    // --- tokens -----------------------------------------------------------

    fn skip_bom(&mut self) {
        if self.text.starts_with('\u{feff}') {
            self.pos = 3;
        }
    }

    /// Skips white space; the next byte, if any.
    fn peek(&mut self) -> Option<u8> {
        while let Some(&b) = self.s.get(self.pos) {
            if !matches!(b, b' ' | b'\t' | b'\n' | b'\r') {
                return Some(b);
            }
            self.pos += 1;
        }
        None
    }

    fn expect(&mut self, byte: u8, what: &str) -> Result<()> {
        if self.peek() == Some(byte) {
            self.pos += 1;
            Ok(())
        } else {
            Err(self.error_at(self.pos, format!("expected {what}, found {}", self.describe(self.pos))))
        }
    }

    /// The next member of an object whose `{` was read: its key and where
    /// the key starts, or `None` after reading the closing `}`.
    fn next_key(&mut self, first: &mut bool) -> Result<Option<(Cow<'a, str>, usize)>> {
        if self.peek() == Some(b'}') {
            self.pos += 1;
            return Ok(None);
        }
        if !*first {
            self.expect(b',', "',' or '}'")?;
        }
        *first = false;
        let at = self.pos;
        if self.peek() != Some(b'"') {
            return Err(self.error_at(self.pos, format!("expected a member name (a string), found {}", self.describe(self.pos))));
        }
        let key = self.string()?;
        self.expect(b':', "':' after the member name")?;
        Ok(Some((key, at)))
    }

    /// Whether another element of an array whose `[` was read follows
    /// (`false` after reading the closing `]`).
    fn next_element(&mut self, first: &mut bool) -> Result<bool> {
        if self.peek() == Some(b']') {
            self.pos += 1;
            return Ok(false);
        }
        if !*first {
            self.expect(b',', "',' or ']'")?;
        }
        *first = false;
        Ok(true)
    }

    /// Reads a string literal (the current byte must be `"`).
    fn string(&mut self) -> Result<Cow<'a, str>> {
        let open = self.pos;
        let s = self.s;
        let mut i = open + 1;
        let mut escaped = false;
        // A plain loop: most strings here are a few bytes long.
        loop {
            while i < s.len() && !STRING_SPECIAL[s[i] as usize] {
                i += 1;
            }
            match s.get(i) {
                None => return Err(self.error_at(open, "unterminated string")),
                Some(b'"') => break,
                Some(b'\\') => {
                    escaped = true;
                    i += 2;
                }
                Some(_) => return Err(self.error_at(i, "control character in a string (it must be escaped)")),
            }
        }
        if i >= s.len() {
            return Err(self.error_at(open, "unterminated string"));
        }
        self.pos = i + 1;
        let raw = &self.text[open + 1..i];
        if !escaped {
            return Ok(Cow::Borrowed(raw));
        }
        unescape(raw).map(Cow::Owned).map_err(|(k, message)| self.error_at(open + 1 + k, message))
    }

    /// A string, or `None` for `null`.
    fn optional_string(&mut self) -> Result<Option<Cow<'a, str>>> {
        match self.peek() {
            Some(b'"') => self.string().map(Some),
            Some(b'n') if self.s[self.pos..].starts_with(b"null") => {
                self.pos += 4;
                Ok(None)
            }
            _ => Err(self.error_at(self.pos, format!("expected a string or null, found {}", self.describe(self.pos)))),
        }
    }

    fn required_string(&mut self) -> Result<Cow<'a, str>> {
        if self.peek() == Some(b'"') { self.string() } else { Err(self.error_at(self.pos, format!("expected a string, found {}", self.describe(self.pos)))) }
    }

    /// Skips any JSON value, checking its syntax. Iterative: `summary` and
    /// unknown members may nest as deep as they like.
    fn skip_value(&mut self) -> Result<()> {
        // One entry per open container: true for an object.
        let mut open: Vec<bool> = Vec::new();
        loop {
            // A value starts here.
            match self.peek() {
                Some(b'{') => {
                    self.pos += 1;
                    if self.peek() == Some(b'}') {
                        self.pos += 1;
                    } else {
                        open.push(true);
                        self.member_name()?;
                        continue;
                    }
                }
                Some(b'[') => {
                    self.pos += 1;
                    if self.peek() == Some(b']') {
                        self.pos += 1;
                    } else {
                        open.push(false);
                        continue;
                    }
                }
                Some(b'"') => {
                    self.string()?;
                }
                Some(b'-' | b'0'..=b'9') => self.number()?,
                Some(b't') => self.literal("true")?,
                Some(b'f') => self.literal("false")?,
                Some(b'n') => self.literal("null")?,
                _ => return Err(self.error_at(self.pos, format!("expected a JSON value, found {}", self.describe(self.pos)))),
            }
            // A value ended: close containers until one wants another value.
            loop {
                let Some(&is_object) = open.last() else { return Ok(()) };
                match self.peek() {
                    Some(b',') => {
                        self.pos += 1;
                        if is_object {
                            self.member_name()?;
                        }
                        break;
                    }
                    Some(b'}') if is_object => {
                        self.pos += 1;
                        open.pop();
                    }
                    Some(b']') if !is_object => {
                        self.pos += 1;
                        open.pop();
                    }
                    _ => {
                        let want = if is_object { "',' or '}'" } else { "',' or ']'" };
                        return Err(self.error_at(self.pos, format!("expected {want}, found {}", self.describe(self.pos))));
                    }
                }
            }
        }
    }

    /// `"name":` inside a skipped object.
    fn member_name(&mut self) -> Result<()> {
        if self.peek() != Some(b'"') {
            return Err(self.error_at(self.pos, format!("expected a member name (a string), found {}", self.describe(self.pos))));
        }
        self.string()?;
        self.expect(b':', "':' after the member name")
    }

    fn literal(&mut self, word: &str) -> Result<()> {
        if self.s[self.pos..].starts_with(word.as_bytes()) {
            self.pos += word.len();
            Ok(())
        } else {
            Err(self.error_at(self.pos, format!("expected a JSON value, found {}", self.describe(self.pos))))
        }
    }

    /// `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`
    fn number(&mut self) -> Result<()> {
        let start = self.pos;
        let s = self.s;
        let mut i = self.pos;
        let digits = |i: &mut usize| {
            let from = *i;
            while s.get(*i).is_some_and(u8::is_ascii_digit) {
                *i += 1;
            }
            *i > from
        };
        if s.get(i) == Some(&b'-') {
            i += 1;
        }
        let int_start = i;
        let mut ok = digits(&mut i) && !(s[int_start] == b'0' && i - int_start > 1);
        if ok && s.get(i) == Some(&b'.') {
            i += 1;
            ok = digits(&mut i);
        }
        if ok && matches!(s.get(i), Some(b'e' | b'E')) {
            i += 1;
            if matches!(s.get(i), Some(b'+' | b'-')) {
                i += 1;
            }
            ok = digits(&mut i);
        }
        if !ok {
            return Err(self.error_at(start, "invalid number"));
        }
        self.pos = i;
        Ok(())
    }

    // --- the schema -------------------------------------------------------

    fn document(&mut self) -> Result<JsonDocument> {
        self.path.clear();
        if self.peek() != Some(b'{') {
            return Err(self.error_at(self.pos, format!("expected a kifu/1 document (an object), found {}", self.describe(self.pos))));
        }
        let open = self.pos;
        self.pos += 1;
        let mut first = true;
        let (mut schema, mut file, mut games, mut seen_file, mut seen_encoding) = (false, None, None, false, false);
        while let Some((key, at)) = self.next_key(&mut first)? {
            match &*key {
                "schema" => {
                    self.path.push(Seg::Key("schema"));
                    if schema {
                        return Err(self.error_at(at, "duplicate member"));
                    }
                    self.peek();
                    let value_at = self.pos;
                    let value = self.required_string()?;
                    if value != SCHEMA {
                        return Err(self.error_at(value_at, format!("unsupported schema {value:?}: this version of kifu reads {SCHEMA:?}")));
                    }
                    self.path.pop();
                    schema = true;
                }
                "file" => {
                    self.path.push(Seg::Key("file"));
                    if seen_file {
                        return Err(self.error_at(at, "duplicate member"));
                    }
                    file = self.optional_string()?.map(Cow::into_owned);
                    self.path.pop();
                    seen_file = true;
                }
                "encoding" => {
                    self.path.push(Seg::Key("encoding"));
                    if seen_encoding {
                        return Err(self.error_at(at, "duplicate member"));
                    }
                    self.optional_string()?;
                    self.path.pop();
                    seen_encoding = true;
                }
                "games" => {
                    self.path.push(Seg::Key("games"));
                    if games.is_some() {
                        return Err(self.error_at(at, "duplicate member"));
                    }
                    games = Some(self.games()?);
                    self.path.pop();
                }
                // Reserved for additions (kifu's own or a user's).
                _ => self.skip_value()?,
            }
        }
        if !schema {
            return Err(self.error_at(open, "missing member \"schema\" (is this a kifu/1 document?)"));
        }
        let Some(games) = games else {
            return Err(self.error_at(open, "missing member \"games\""));
        };
        Ok(JsonDocument { file, collection: Collection { games } })
    }

    fn games(&mut self) -> Result<Vec<GameTree>> {
        self.expect(b'[', "an array of games")?;
        let mut games = Vec::new();
        let mut first = true;
        while self.next_element(&mut first)? {
            self.path.push(Seg::Index(games.len() as u32));
            games.push(self.game()?);
            self.path.pop();
        }
        Ok(games)
    }

    fn game(&mut self) -> Result<GameTree> {
        let open = self.pos;
        self.expect(b'{', "a game (an object)")?;
        let mut first = true;
        let mut tree = None;
        while let Some((key, at)) = self.next_key(&mut first)? {
            if key == "summary" {
                self.path.push(Seg::Key("summary"));
                self.skip_value()?;
                self.path.pop();
            } else if key == "tree" {
                self.path.push(Seg::Key("tree"));
                if tree.is_some() {
                    return Err(self.error_at(at, "duplicate member"));
                }
                tree = Some(self.tree()?);
                self.path.pop();
            } else {
                // `summary` is derived from the tree, and positions say
                // where things were: neither is read back.
                self.skip_value()?;
            }
        }
        tree.ok_or_else(|| self.error_at(open, "missing member \"tree\""))
    }

    /// Reads a tree object and everything under it, then builds the game.
    fn tree(&mut self) -> Result<GameTree> {
        self.trees.clear();
        self.nodes.clear();
        self.props.clear();
        self.values.clear();
        self.arena.clear();
        let depth = self.path.len();
        self.expect(b'{', "a tree (an object)")?;
        let mut stack = vec![TreeFrame::new(self.new_tree())];
        while let Some(top) = stack.last_mut() {
            if let Some((first, count, last)) = &mut top.children {
                if self.next_element(first)? {
                    if *count > 0 {
                        self.path.pop();
                    }
                    self.path.push(Seg::Index(*count));
                    *count += 1;
                    self.expect(b'{', "a tree (an object)")?;
                    let rec = self.trees.len() as u32;
                    self.trees.push(TreeRec { nodes: 0..0, first_child: NONE, next_sibling: NONE });
                    if *last == NONE {
                        self.trees[top.rec as usize].first_child = rec;
                    } else {
                        self.trees[*last as usize].next_sibling = rec;
                    }
                    *last = rec;
                    stack.push(TreeFrame::new(rec));
                } else {
                    if *count > 0 {
                        self.path.pop();
                    }
                    self.path.pop(); // "children"
                    top.children = None;
                }
                continue;
            }
            self.peek();
            let close = self.pos;
            match self.next_key(&mut top.first_member)? {
                Some((key, at)) => match &*key {
                    "nodes" => {
                        self.path.push(Seg::Key("nodes"));
                        if top.seen_nodes {
                            return Err(self.error_at(at, "duplicate member"));
                        }
                        top.seen_nodes = true;
                        let nodes = self.nodes_array()?;
                        self.trees[top.rec as usize].nodes = nodes;
                        self.path.pop();
                    }
                    "children" => {
                        self.path.push(Seg::Key("children"));
                        if top.seen_children {
                            return Err(self.error_at(at, "duplicate member"));
                        }
                        top.seen_children = true;
                        self.expect(b'[', "an array of trees")?;
                        top.children = Some((true, 0, NONE));
                    }
                    other => {
                        let message = format!("unknown member {other:?} in a tree (it has \"nodes\" and \"children\")");
                        return Err(self.error_at(at, message));
                    }
                },
                None => {
                    if !top.seen_nodes {
                        return Err(self.error_at(close, "missing member \"nodes\""));
                    }
                    if self.trees[top.rec as usize].nodes.is_empty() {
                        return Err(self.error_in("nodes", close, "a tree needs at least one node"));
                    }
                    stack.pop();
                }
            }
        }
        debug_assert_eq!(self.path.len(), depth);
        Ok(self.build())
    }

    fn new_tree(&mut self) -> u32 {
        self.trees.push(TreeRec { nodes: 0..0, first_child: NONE, next_sibling: NONE });
        self.trees.len() as u32 - 1
    }

    fn nodes_array(&mut self) -> Result<Range<u32>> {
        self.expect(b'[', "an array of nodes")?;
        let start = self.nodes.len() as u32;
        let mut first = true;
        while self.next_element(&mut first)? {
            self.path.push(Seg::Index(self.nodes.len() as u32 - start));
            self.node()?;
            self.path.pop();
        }
        Ok(start..self.nodes.len() as u32)
    }

    fn node(&mut self) -> Result<()> {
        self.expect(b'{', "a node (an object)")?;
        let start = self.props.len() as u32;
        let mut first = true;
        let mut seen_props = false;
        while let Some((key, at)) = self.next_key(&mut first)? {
            match &*key {
                "props" => {
                    self.path.push(Seg::Key("props"));
                    if seen_props {
                        return Err(self.error_at(at, "duplicate member"));
                    }
                    seen_props = true;
                    self.expect(b'[', "an array of properties")?;
                    let mut first = true;
                    while self.next_element(&mut first)? {
                        self.path.push(Seg::Index(self.props.len() as u32 - start));
                        self.property()?;
                        self.path.pop();
                    }
                    self.path.pop();
                }
                "line" | "column" | "offset" => self.skip_value()?,
                other => {
                    return Err(self.error_at(at, format!("unknown member {other:?} in a node (it has \"props\")")));
                }
            }
        }
        self.nodes.push(start..self.props.len() as u32);
        Ok(())
    }

    fn property(&mut self) -> Result<()> {
        let open = self.pos;
        self.expect(b'{', "a property (an object)")?;
        let mut first = true;
        let mut id: Option<(Cow<'a, str>, usize)> = None;
        let mut written: Option<(Cow<'a, str>, usize)> = None;
        let (mut seen_written, mut values) = (false, None);
        while let Some((key, at)) = self.next_key(&mut first)? {
            match &*key {
                "id" => {
                    if id.is_some() {
                        return Err(self.error_in("id", at, "duplicate member"));
                    }
                    self.path.push(Seg::Key("id"));
                    self.peek();
                    let value_at = self.pos;
                    id = Some((self.required_string()?, value_at));
                    self.path.pop();
                }
                "written_id" => {
                    if seen_written {
                        return Err(self.error_in("written_id", at, "duplicate member"));
                    }
                    seen_written = true;
                    self.path.push(Seg::Key("written_id"));
                    self.peek();
                    let value_at = self.pos;
                    written = self.optional_string()?.map(|w| (w, value_at));
                    self.path.pop();
                }
                "values" => {
                    self.path.push(Seg::Key("values"));
                    if values.is_some() {
                        return Err(self.error_at(at, "duplicate member"));
                    }
                    self.expect(b'[', "an array of strings")?;
                    let start = self.values.len() as u32;
                    let mut first = true;
                    while self.next_element(&mut first)? {
                        self.path.push(Seg::Index(self.values.len() as u32 - start));
                        let text = self.required_string()?;
                        let span = push_arena(&mut self.arena, &text);
                        self.values.push(span);
                        self.path.pop();
                    }
                    values = Some(start..self.values.len() as u32);
                    self.path.pop();
                }
                "line" | "column" | "offset" | "value_positions" => self.skip_value()?,
                other => {
                    let message = format!("unknown member {other:?} in a property (it has \"id\", \"written_id\" and \"values\")");
                    return Err(self.error_at(at, message));
                }
            }
        }
        let Some((id, id_at)) = id else {
            return Err(self.error_at(open, "missing member \"id\""));
        };
        let Some(values) = values else {
            return Err(self.error_at(open, "missing member \"values\""));
        };
        if !id.bytes().all(|b| b.is_ascii_alphabetic()) {
            return Err(self.error_in("id", id_at, format!("{id:?} is not an SGF property identifier (ASCII letters only)")));
        }
        if written.is_none() && id.bytes().all(|b| b.is_ascii_uppercase()) {
            // The usual case, without allocating.
            let id = push_arena(&mut self.arena, &id);
            self.props.push(PropRec { id, written: None, values });
            return Ok(());
        }
        let (id, written) = match written {
            None => normalise_identifier(&id),
            Some((w, w_at)) => {
                if w.is_empty() || !w.bytes().all(|b| b.is_ascii_alphabetic()) {
                    return Err(self.error_in("written_id", w_at, format!("{w:?} is not an SGF property identifier (ASCII letters only)")));
                }
                let (reads_as, _) = normalise_identifier(&w);
                if reads_as != id {
                    let message = format!("{w:?} reads as {reads_as:?}, but \"id\" is {id:?}");
                    return Err(self.error_in("written_id", w_at, message));
                }
                let written = (*w != *id).then(|| w.into_owned());
                (id.into_owned(), written)
            }
        };
        let id = push_arena(&mut self.arena, &id);
        let written = written.map(|w| push_arena(&mut self.arena, &w));
        self.props.push(PropRec { id, written, values });
        Ok(())
    }

    /// Builds the game read into the flat vectors, adding nodes in preorder.
    fn build(&mut self) -> GameTree {
        // Room for the text and about as many records as were read.
        let mut b = GameTreeBuilder::with_capacity(self.arena.len().max(self.props.len() * 8).max(self.nodes.len() * 8));
        let mut stack: Vec<(u32, Option<NodeId>)> = vec![(0, None)];
        let mut kids = Vec::new();
        while let Some((tree, parent)) = stack.pop() {
            let rec = &self.trees[tree as usize];
            let mut last = parent;
            for node in rec.nodes.clone() {
                last = Some(b.add_node(last, 0));
                for prop in &self.props[self.nodes[node as usize].start as usize..self.nodes[node as usize].end as usize] {
                    let written = prop.written.map(|w| &self.arena[w.range()]);
                    b.add_property(&self.arena[prop.id.range()], written, 0);
                    for value in &self.values[prop.values.start as usize..prop.values.end as usize] {
                        b.add_value(&self.arena[value.range()], 0);
                    }
                }
            }
            kids.clear();
            let mut child = rec.first_child;
            while child != NONE {
                kids.push(child);
                child = self.trees[child as usize].next_sibling;
            }
            stack.extend(kids.iter().rev().map(|&c| (c, last)));
        }
        b.finish()
    }
}

fn push_arena(arena: &mut String, s: &str) -> Span {
    let start = arena.len() as u32;
    arena.push_str(s);
    Span { start, end: arena.len() as u32 }
}

/// An identifier as the SGF parser reads it: `AddBlack` is `AB` written
/// `AddBlack`; all upper case, or without any upper-case letter, it is
/// itself.
fn normalise_identifier(written: &str) -> (String, Option<String>) {
    let upper: String = written.chars().filter(char::is_ascii_uppercase).collect();
    if upper.is_empty() || upper.len() == written.len() { (written.to_string(), None) } else { (upper, Some(written.to_string())) }
}

fn floor_char_boundary(s: &str, mut i: usize) -> usize {
    while !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// Decodes the escapes of a JSON string's contents. On error: the byte
/// index of the bad escape and a message.
fn unescape(raw: &str) -> Result<String, (usize, String)> {
    let s = raw.as_bytes();
    let mut out = String::with_capacity(raw.len());
    let mut i = 0;
    let mut run = 0;
    let hex4 = |i: usize| -> Option<u32> {
        let h = raw.get(i..i + 4)?;
        if h.bytes().all(|b| b.is_ascii_hexdigit()) { u32::from_str_radix(h, 16).ok() } else { None }
    };
    while i < s.len() {
        if s[i] != b'\\' {
            i += 1;
            continue;
        }
        out.push_str(&raw[run..i]);
        let simple = match s.get(i + 1) {
            Some(b'"') => '"',
            Some(b'\\') => '\\',
            Some(b'/') => '/',
            Some(b'b') => '\u{8}',
            Some(b'f') => '\u{c}',
            Some(b'n') => '\n',
            Some(b'r') => '\r',
            Some(b't') => '\t',
            Some(b'u') => {
                let Some(u) = hex4(i + 2) else {
                    return Err((i, "invalid \\u escape (four hex digits expected)".to_string()));
                };
                let (c, len) = match u {
                    0xd800..=0xdbff => {
                        let low = if raw.get(i + 6..i + 8) == Some("\\u") { hex4(i + 8) } else { None };
                        match low {
                            Some(low @ 0xdc00..=0xdfff) => (0x10000 + ((u - 0xd800) << 10) + (low - 0xdc00), 12),
                            _ => return Err((i, "lone surrogate in \\u escape".to_string())),
                        }
                    }
                    0xdc00..=0xdfff => return Err((i, "lone surrogate in \\u escape".to_string())),
                    _ => (u, 6),
                };
                out.push(char::from_u32(c).expect("valid scalar value"));
                i += len;
                run = i;
                continue;
            }
            _ => return Err((i, "invalid escape in a string".to_string())),
        };
        out.push(simple);
        i += 2;
        run = i;
    }
    out.push_str(&raw[run..]);
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sgf::{parse_str, write_collection};

    fn parsed(sgf: &str) -> Parsed {
        let p = parse_str(sgf);
        assert!(p.diagnostics.iter().all(|d| d.severity != crate::diag::Severity::Error), "{:?}", p.diagnostics);
        p
    }

    fn round_trip(p: &Parsed, options: &JsonOptions) -> String {
        let json = to_json("t.sgf", p, options);
        let doc = from_json(&json).unwrap_or_else(|e| panic!("{e}\n{json}"));
        assert_eq!(doc.collection, p.collection, "{json}");
        assert_eq!(doc.file.as_deref(), Some("t.sgf"));
        json
    }

    fn tree_json(json: &str) -> &str {
        let start = json.find("\"tree\":").expect("a tree") + 7;
        &json[start..json.len() - 3]
    }

    #[test]
    fn main_line_is_flat_and_variations_nest() {
        let p = parsed("(;FF[4]SZ[9];B[aa];W[bb](;B[cc];W[dd])(;B[ee]))");
        let json = round_trip(&p, &JsonOptions::default());
        assert!(json.starts_with(r#"{"schema":"kifu/1","file":"t.sgf","encoding":"UTF-8","games":[{"summary":{"#), "{json}");
        assert_eq!(
            tree_json(&json),
            concat!(
                r#"{"nodes":[{"props":[{"id":"FF","values":["4"]},{"id":"SZ","values":["9"]}]},"#,
                r#"{"props":[{"id":"B","values":["aa"]}]},{"props":[{"id":"W","values":["bb"]}]}],"#,
                r#""children":[{"nodes":[{"props":[{"id":"B","values":["cc"]}]},{"props":[{"id":"W","values":["dd"]}]}]},"#,
                r#"{"nodes":[{"props":[{"id":"B","values":["ee"]}]}]}]}"#
            )
        );
        assert!(!json.contains('\n'));
    }

    #[test]
    fn summary_is_included() {
        let p = parsed("(;SZ[9]PB[Shusaku]KM[6.5];B[ee];W[])");
        let json = to_json("t.sgf", &p, &JsonOptions::default());
        let v: serde_json::Value = serde_json::from_str(&json).unwrap();
        let s = &v["games"][0]["summary"];
        assert_eq!(s["black"], "Shusaku");
        assert_eq!(s["board_size"]["width"], 9);
        assert_eq!(s["komi"], 6.5);
        assert_eq!(s["moves"][0]["point"], "ee");
        assert!(s["moves"][1]["point"].is_null());
    }

    #[test]
    fn escapes_old_identifiers_duplicates_and_odd_properties() {
        let sgf = "(;FF[3]C[a \"quote\" \\] back\\\\slash\ttab\nline é 漢 😀]AddBlack[aa][bb]B[cc]B[dd]LB[dd:x\\:y]\
                   ;;B W[ee];[zz]\u{1}X[\u{1f}\u{7f}])";
        let p = parse_str(sgf);
        let json = round_trip(&p, &JsonOptions::default());
        assert!(json.contains(r#"{"id":"AB","written_id":"AddBlack","values":["aa","bb"]}"#), "{json}");
        assert!(json.contains(r#""values":["a \"quote\" ] back\\slash\ttab\nline é 漢 😀"]"#), "{json}");
        assert!(json.contains(r#"{"id":"B","values":["cc"]},{"id":"B","values":["dd"]}"#), "{json}");
        assert!(json.contains(r#"{"id":"LB","values":["dd:x:y"]}"#), "{json}");
        assert!(json.contains(r#"{"props":[]}"#), "empty node: {json}");
        assert!(json.contains(r#"{"id":"B","values":[]},{"id":"W","values":["ee"]}"#), "zero values: {json}");
        assert!(json.contains(r#"{"id":"","values":["zz"]}"#), "value without identifier: {json}");
        assert!(json.contains(r#""values":["\u001f"#), "{json}");
        // The escaping is JSON's: serde_json reads every string back alike.
        let v: serde_json::Value = serde_json::from_str(&json).unwrap();
        assert_eq!(v["games"][0]["tree"]["nodes"][0]["props"][1]["values"][0], p.collection.games[0].root().get_value("C").unwrap());
    }

    #[test]
    fn string_literals_match_serde_json() {
        let all: String = (0u32..0x300).filter_map(char::from_u32).chain("\u{2028}\u{feff}😀\u{10ffff}".chars()).collect();
        for s in [all.as_str(), "", "\"", "\\", "a\u{0}b"] {
            let mut ours = String::new();
            push_str_literal(&mut ours, s);
            assert_eq!(ours, serde_json::to_string(s).unwrap());
            let mut r = Reader::new(&ours);
            assert_eq!(r.string().unwrap(), s);
        }
    }

    #[test]
    fn unescapes_what_others_write() {
        let (text, want) = (r#""\u00e9\/\b\f\n\r\t\"\\\ud83d\ude00x""#, "é/\u{8}\u{c}\n\r\t\"\\😀x");
        assert_eq!(Reader::new(text).string().unwrap(), want);
        for bad in [r#""\x""#, r#""\u12""#, r#""\ud83d""#, r#""\ude00x""#, "\"a\nb\"", r#""abc"#, r#""a\"#] {
            assert!(Reader::new(bad).string().is_err(), "{bad}");
        }
    }

    #[test]
    fn several_games_and_an_empty_collection() {
        let p = parsed("(;B[aa])(;W[bb])\n(;C[third])");
        round_trip(&p, &JsonOptions::default());
        let p = parse_str("no sgf here");
        let json = round_trip(&p, &JsonOptions::default());
        assert!(json.ends_with(r#""games":[]}"#), "{json}");
    }

    #[test]
    fn positions_option() {
        let text = "(;FF[4]\r\nC[é\nx]\n(;B[aa])\r(;W[bb]AB[cc][dd]))";
        let p = parsed(text);
        let json = round_trip(&p, &JsonOptions { positions: true, pretty: false });
        let v: serde_json::Value = serde_json::from_str(&json).unwrap();
        let game = &v["games"][0];
        assert_eq!((game["line"].as_u64(), game["column"].as_u64(), game["offset"].as_u64()), (Some(1), Some(1), Some(0)));
        let root = &game["tree"]["nodes"][0];
        assert_eq!(root["offset"], 1);
        let c = &root["props"][1];
        assert_eq!((c["line"].as_u64(), c["column"].as_u64(), c["offset"].as_u64()), (Some(2), Some(1), Some(9)));
        assert_eq!(c["value_positions"][0]["column"], 2);
        let ab = &game["tree"]["children"][1]["nodes"][0]["props"][1];
        assert_eq!(ab["id"], "AB");
        assert_eq!(ab["line"], 5);
        let cols: Vec<_> = ab["value_positions"].as_array().unwrap().iter().map(|p| p["column"].as_u64().unwrap()).collect();
        assert_eq!(cols, [10, 14]);
        // Every position agrees with SourceMap::line_column.
        fn check(v: &serde_json::Value, map: &SourceMap, n: &mut usize) {
            match v {
                serde_json::Value::Object(o) => {
                    if let Some(off) = o.get("offset").and_then(|x| x.as_u64()) {
                        let (l, c) = map.line_column(off as u32);
                        assert_eq!((o["line"].as_u64(), o["column"].as_u64()), (Some(l as u64), Some(c as u64)));
                        *n += 1;
                    }
                    o.values().for_each(|x| check(x, map, n));
                }
                serde_json::Value::Array(a) => a.iter().for_each(|x| check(x, map, n)),
                _ => {}
            }
        }
        let mut n = 0;
        check(&v, &p.source, &mut n);
        assert_eq!(n, 15);
        // Off by default.
        assert!(!to_json("t.sgf", &p, &JsonOptions::default()).contains("\"offset\""));
    }

    #[test]
    fn pretty_output_reads_back() {
        let p = parsed("(;FF[4]GC[a long comment [with brackets], {braces}: and \"quotes\" that does not fit on one line at all];B[aa](;W[bb])(;W[cc]))");
        let options = JsonOptions { positions: true, pretty: true };
        let json = to_json("t.sgf", &p, &options);
        assert_eq!(json, to_json_pretty("t.sgf", &p, &JsonOptions { positions: true, pretty: false }));
        assert!(json.lines().count() > 10, "{json}");
        assert!(json.contains("\n  \"schema\": \"kifu/1\",\n"), "{json}");
        assert!(json.contains(r#""value_positions": [{"line": 1, "column": 5, "offset": 4}]"#), "{json}");
        let doc = from_json(&json).unwrap();
        assert_eq!(doc.collection, p.collection);
        let a: serde_json::Value = serde_json::from_str(&json).unwrap();
        let b: serde_json::Value = serde_json::from_str(&to_json("t.sgf", &p, &JsonOptions { positions: true, pretty: false })).unwrap();
        assert_eq!(a, b);
    }

    #[test]
    fn reading_accepts_any_member_order_and_single_children() {
        let json = r#" {"games": [{"tree": {"children": [{"nodes": [{"props": [{"values": ["bb"], "id": "W"}]}]},
                        {"children": [{"nodes": [{}]}], "nodes": [{"props": [{"id": "W", "values": ["cc"]}]}]}],
                        "nodes": [{"props": [{"id": "AddBlack", "values": ["aa"]}]}, {"props": [{"id": "B", "written_id": null, "values": ["dd"]}]}]},
                        "summary": {"ignored": [[[{}]]]}, "extra": 1.5e3}],
                        "file": null, "x": [true, false, null, -0.5, "s"], "schema": "kifu/1"}
                        "#;
        let doc = from_json(json).unwrap();
        assert_eq!(doc.file, None);
        let want = parsed("(;AddBlack[aa];B[dd](;W[bb])(;W[cc];))").collection;
        assert_eq!(doc.collection, want);
        let root = doc.collection.games[0].root();
        assert_eq!((root.get("AB").unwrap().written_id(), root.get("AB").unwrap().id()), ("AddBlack", "AB"));
    }

    #[test]
    fn json_lines_and_concatenated_documents() {
        let a = parsed("(;B[aa])");
        let b = parsed("(;W[bb])(;W[cc])");
        let text = format!(
            "{}\n\n{}\r\n{}",
            to_json("a.sgf", &a, &JsonOptions::default()),
            to_json("b.sgf", &b, &JsonOptions::default()),
            to_json("c.sgf", &a, &JsonOptions { pretty: true, positions: false }),
        );
        let docs = from_json_lines(&text).unwrap();
        let files: Vec<_> = docs.iter().map(|d| d.file.as_deref().unwrap()).collect();
        assert_eq!(files, ["a.sgf", "b.sgf", "c.sgf"]);
        assert_eq!(docs[1].collection, b.collection);
        assert!(from_json_lines("").unwrap().is_empty());
        assert!(from_json(&text).unwrap_err().message.contains("JSON Lines"));
        let bad = format!("{}\n{{\"schema\":\"kifu/1\",\"games\":[{{}}]}}\n", to_json("a.sgf", &a, &JsonOptions::default()));
        let e = from_json_lines(&bad).unwrap_err();
        assert_eq!((e.line, e.path.as_str()), (2, "(document 2) .games[0]"), "{e}");
    }

    #[test]
    fn errors_name_the_path() {
        let cases: &[(&str, &str, &str)] = &[
            ("", ".", "expected a kifu/1 document"),
            ("[]", ".", "expected a kifu/1 document"),
            (r#"{"games":[]}"#, ".", "missing member \"schema\""),
            (r#"{"schema":"kifu/2","games":[]}"#, ".schema", "unsupported schema \"kifu/2\""),
            (r#"{"schema":1}"#, ".schema", "expected a string, found a number"),
            (r#"{"schema":"kifu/1"}"#, ".", "missing member \"games\""),
            (r#"{"schema":"kifu/1","games":{}}"#, ".games", "expected an array of games"),
            (r#"{"schema":"kifu/1","games":[{"summary":{}}]}"#, ".games[0]", "missing member \"tree\""),
            (r#"{"schema":"kifu/1","games":[{"tree":{"nodes":[]}}]}"#, ".games[0].tree.nodes", "at least one node"),
            (r#"{"schema":"kifu/1","games":[{"tree":{}}]}"#, ".games[0].tree", "missing member \"nodes\""),
            (r#"{"schema":"kifu/1","games":[{"tree":{"nodes":[{}],"kids":[]}}]}"#, ".games[0].tree", "unknown member \"kids\""),
            (
                r#"{"schema":"kifu/1","games":[{"tree":{"nodes":[{}],"children":[{"nodes":[{}]},{"nodes":[{"props":[{"id":"B1","values":[]}]}]}]}}]}"#,
                ".games[0].tree.children[1].nodes[0].props[0].id",
                "\"B1\" is not an SGF property identifier",
            ),
            (
                r#"{"schema":"kifu/1","games":[{"tree":{"nodes":[{"props":[{"id":"B","values":[1]}]}]}}]}"#,
                ".games[0].tree.nodes[0].props[0].values[0]",
                "expected a string, found a number",
            ),
            (r#"{"schema":"kifu/1","games":[{"tree":{"nodes":[{"props":[{"id":"B"}]}]}}]}"#, ".games[0].tree.nodes[0].props[0]", "missing member \"values\""),
            (r#"{"schema":"kifu/1","games":[{"tree":{"nodes":[{"props":[{"values":[]}]}]}}]}"#, ".games[0].tree.nodes[0].props[0]", "missing member \"id\""),
            (
                r#"{"schema":"kifu/1","games":[{"tree":{"nodes":[{"props":[{"id":"B","written_id":"White","values":[]}]}]}}]}"#,
                ".games[0].tree.nodes[0].props[0].written_id",
                "\"White\" reads as \"W\", but \"id\" is \"B\"",
            ),
            (
                r#"{"schema":"kifu/1","games":[{"tree":{"nodes":[{"props":[{"id":"é","values":[]}]}]}}]}"#,
                ".games[0].tree.nodes[0].props[0].id",
                "ASCII letters only",
            ),
            (
                r#"{"schema":"kifu/1","games":[{"tree":{"nodes":[{"props":[{"id":"B","id":"W","values":[]}]}]}}]}"#,
                ".games[0].tree.nodes[0].props[0].id",
                "duplicate member",
            ),
            (r#"{"schema":"kifu/1","games":[{"tree":{"nodes":[{"props":[],}]}}]}"#, ".games[0].tree.nodes[0]", "expected a member name"),
            (r#"{"schema":"kifu/1","games":[{"tree":{"nodes":[{"props":[]}]}}],}"#, ".", "expected a member name"),
            (r#"{"schema":"kifu/1","games":[{"tree":{"nodes":[{"props":[]}]}}]"#, ".", "expected ',' or '}', found the end of the text"),
            (r#"{"schema":"kifu/1","games":[{"summary":[1 2],"tree":{"nodes":[{}]}}]}"#, ".games[0].summary", "expected ',' or ']', found a number"),
            (r#"{"schema":"kifu/1","games":[{"summary":01,"tree":{"nodes":[{}]}}]}"#, ".games[0].summary", "invalid number"),
            (r#"{"schema":"kifu/1","games":[]} {}"#, ".", "unexpected text after the document"),
            (
                "{\"schema\":\"kifu/1\",\n\"games\":[{\"tree\":{\"nodes\":[{\"line\":1,\"props\":[{\"id\":\"C\",\"values\":[\"\\q\"]}]}]}}]}",
                ".games[0].tree.nodes[0].props[0].values[0]",
                "invalid escape",
            ),
        ];
        for (json, path, message) in cases {
            let e = from_json(json).expect_err(json);
            assert_eq!(e.path, *path, "{json}: {e}");
            assert!(e.message.contains(message), "{json}: {e}");
        }
        let e = from_json("{\"schema\":\"kifu/1\",\n  \"games\": 7}").unwrap_err();
        assert_eq!((e.line, e.column), (2, 12), "{e}");
        assert_eq!(e.to_string(), "line 2, column 12: at .games: expected an array of games, found a number");
    }

    #[test]
    fn identifiers_are_normalised_like_the_parser_does() {
        let json = r#"{"schema":"kifu/1","games":[{"tree":{"nodes":[{"props":[
            {"id":"AddBlack","values":["aa"]},{"id":"AB","written_id":"AddBlack","values":["bb"]},
            {"id":"W","written_id":"W","values":["cc"]},{"id":"tt","values":["x"]}]}]}}]}"#;
        let doc = from_json(json).unwrap();
        let sgf = write_collection(&doc.collection);
        assert_eq!(parse_str(&sgf).collection, doc.collection, "{sgf}");
        let ids: Vec<_> = doc.collection.games[0].root().properties().map(|p| (p.id(), p.written_id())).collect();
        assert_eq!(ids, [("AB", "AddBlack"), ("AB", "AddBlack"), ("W", "W"), ("tt", "tt")]);
    }

    #[test]
    fn utf8_charset_is_set_in_each_root_only() {
        let c = parse_str("(;FF[4]GM[1]SZ[9];CA[x];B[aa])(;CA[Shift_JIS]C[x]CA[a][b](;B[aa])(;W[bb]))(;C[x])(;CA[UTF-8])").collection;
        let out = set_utf8_charset(&c);
        let want = parse_str("(;FF[4]GM[1]CA[UTF-8]SZ[9];CA[x];B[aa])(;CA[UTF-8]C[x]CA[UTF-8](;B[aa])(;W[bb]))(;CA[UTF-8]C[x])(;CA[UTF-8])").collection;
        assert_eq!(out, want);
        assert_eq!(set_utf8_charset(&out), out);
        // Old identifiers stay as written.
        let c = parse_str("(;ChArset[latin1]B[aa])").collection;
        let root = set_utf8_charset(&c).games[0].root().get("CA").map(|p| (p.written_id().to_string(), p.first().map(str::to_string)));
        assert_eq!(root, Some(("ChArset".to_string(), Some("UTF-8".to_string()))));
    }

    fn nested(depth: usize) -> String {
        format!("(;FF[4]{}{})", "(;B[aa]C[x])(;W[bb]".repeat(depth), ")".repeat(depth))
    }

    /// 100,000 nested variations, both ways, on a thread with the default
    /// 2 MiB stack.
    #[test]
    fn deep_trees_do_not_overflow_the_stack() {
        std::thread::Builder::new()
            .stack_size(2 << 20)
            .spawn(|| {
                let depth = 100_000;
                let p = parse_str(&nested(depth));
                assert_eq!(p.collection.games[0].len(), 2 * depth + 1);
                assert!(p.diagnostics.is_empty(), "{:?}", &p.diagnostics[..1]);
                let json = round_trip(&p, &JsonOptions { positions: false, pretty: false });
                // Pretty output too (indentation stops growing, so it stays linear).
                let p = parse_str(&nested(depth / 10));
                let pretty = to_json("t.sgf", &p, &JsonOptions { positions: false, pretty: true });
                assert_eq!(from_json(&pretty).unwrap().collection, p.collection);
                // An error deep down names a shortened path.
                let deepest = json.rfind(r#""values":["bb"]"#).unwrap();
                let bad = format!("{}\"x\":1,{}", &json[..deepest], &json[deepest..]);
                let e = from_json(&bad).unwrap_err();
                assert!(e.message.contains("unknown member \"x\""), "{e}");
                assert!(e.path.starts_with(".games[0].tree.children[1].children[1]") && e.path.contains("more)…") && e.path.len() < 400, "{}", e.path);
                assert!(e.path.ends_with(".children[1].nodes[0].props[0]"), "{}", e.path);
                // Deep values in ignored members are skipped without recursion.
                let summary = format!("{}{}", "[".repeat(1_000_000), "]".repeat(1_000_000));
                let doc = format!(r#"{{"schema":"kifu/1","games":[{{"summary":{summary},"tree":{{"nodes":[{{}}]}}}}]}}"#);
                assert_eq!(from_json(&doc).unwrap().collection.games[0].len(), 1);
            })
            .unwrap()
            .join()
            .unwrap();
    }

    mod proptests {
        use super::*;
        use proptest::prelude::*;

        /// (identifier as written, normalised identifier)
        fn identifier() -> impl Strategy<Value = (String, String)> {
            let fixed = prop::sample::select(vec!["B", "W", "C", "AB", "AW", "LB", "SZ", "KM", "PB", "CA", "AddBlack", "CoPyright", "White", "TR"]);
            prop_oneof![
                3 => fixed.prop_map(|w| w.to_string()),
                1 => "[A-Z]{1,4}",
                1 => "[A-Z][a-zA-Z]{0,6}",
            ]
            .prop_map(|w| {
                let upper: String = w.chars().filter(char::is_ascii_uppercase).collect();
                (w, upper)
            })
        }

        fn value() -> impl Strategy<Value = String> {
            prop_oneof![
                3 => "[a-s]{2}",
                3 => r"[a-z\]\\:\n\r \t\[é漢😀]{0,8}",
                2 => any::<String>(),
                1 => "\\PC{0,12}",
            ]
        }

        /// ((identifier as written, normalised), values)
        type PropSpec = ((String, String), Vec<String>);

        #[derive(Debug, Clone)]
        struct Spec {
            /// Per node: which ancestor on the current path is its parent
            /// (0 = the previous node), and its properties.
            nodes: Vec<(usize, Vec<PropSpec>)>,
        }

        fn game() -> impl Strategy<Value = Spec> {
            let props = prop::collection::vec((identifier(), prop::collection::vec(value(), 0..4)), 0..4);
            prop::collection::vec((prop_oneof![4 => Just(0usize), 1 => 0usize..6], props), 1..40).prop_map(|nodes| Spec { nodes })
        }

        fn build(spec: &Spec) -> GameTree {
            let mut b = GameTreeBuilder::new();
            let mut path: Vec<NodeId> = Vec::new();
            for (i, (up, props)) in spec.nodes.iter().enumerate() {
                let parent = if i == 0 {
                    None
                } else {
                    let keep = path.len() - (*up).min(path.len() - 1);
                    path.truncate(keep);
                    path.last().copied()
                };
                path.push(b.add_node(parent, 0));
                for ((written, id), values) in props {
                    b.add_property(id, (written != id).then_some(written.as_str()), 0);
                    for v in values {
                        b.add_value(v, 0);
                    }
                }
            }
            b.finish()
        }

        proptest! {
            #![proptest_config(ProptestConfig { cases: 256, failure_persistence: None, ..ProptestConfig::default() })]

            #[test]
            fn json_and_sgf_round_trip(specs in prop::collection::vec(game(), 0..3)) {
                let m = Collection { games: specs.iter().map(build).collect() };
                let json = collection_to_json("x.sgf", "UTF-8", &m);
                let back = from_json(&json).map_err(|e| TestCaseError::fail(format!("{e}\n{json}")))?;
                prop_assert_eq!(&back.collection, &m);
                let pretty = prettify(&json);
                prop_assert_eq!(&from_json(&pretty).unwrap().collection, &m);
                let sgf = write_collection(&m);
                let again = parse_str(&sgf).collection;
                prop_assert_eq!(&again, &m, "SGF:\n{}", sgf);
            }
        }
    }
}
