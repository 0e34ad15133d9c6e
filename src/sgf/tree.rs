//! The lossless game-tree model.
//!
//! A [`GameTree`] keeps every node and every property (known or not, in file
//! order, duplicates included) with its values as decoded, unescaped text.
//! It is stored flat, in preorder, so that no operation on it (building,
//! walking, dropping) recurses as deep as the input is nested, and so that
//! parsing allocates a handful of vectors per game rather than several per
//! node.
//!
//! Values are the text between `[` and `]` after charset decoding, with SGF
//! escapes removed (`\]` is `]`, `\\` is `\`, a backslash before a newline is
//! a soft line break and disappears). Composed values (`LB[dd:label]`) keep
//! their first unescaped `:` as the separator, with any later colon kept as
//! text: [`Value::composed`] splits them, and the writer escapes accordingly.
//!
//! This module knows nothing of Go rules or output formats.

use std::cell::Cell;
use std::fmt;
use std::ops::Range;
use std::sync::Arc;

use crate::spare;

/// Index of a node within its [`GameTree`]. The root is `NodeId(0)`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct NodeId(pub u32);

const NONE: u32 = u32::MAX;

/// A span of text: of the file's source text when `start` has the
/// `IN_SOURCE` bit, otherwise of the tree's own `text`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Span {
    start: u32,
    end: u32,
}

const IN_SOURCE: u32 = 1 << 31;

impl Span {
    fn range(self) -> Range<usize> {
        (self.start & !IN_SOURCE) as usize..self.end as usize
    }
}

/// A node. Its properties run from `props` to the next node's `props` (or
/// to the end): properties are only ever added to the node added last. A
/// marked node (see `plain_move`) has none there.
#[derive(Debug, Clone)]
struct NodeData {
    /// Before `props`, as `first_child` before `next_sibling`: a run's
    /// records write each pair as one number stepped by one a record
    /// (`GameTreeBuilder::add_marked_chain`).
    parent: u32,
    props: u32,
    first_child: u32,
    next_sibling: u32,
    offset: u32,
    /// For a node the parser read as one move on a point, `;B[pd]` (see
    /// [`GameTree::is_marked_plain_move`]): the four bytes after its `;`,
    /// its identifier's letter, the `[` and the point's two letters, `B`,
    /// `[`, `p`, `d` (as the source has them, so the parser writes them in
    /// one store from the bytes in hand); [`UNMARKED`] for any other node.
    /// In the node's record, which a walk down the tree reads anyway: the
    /// replay and the fingerprint get the move with that one look.
    ///
    /// A marked node has no property or value record: its one property
    /// and value are read from this record and the source, where the
    /// parser found them at fixed places after the `;` (see
    /// [`GameTree::plain_prop_data`]). Most nodes of a game are marked, and
    /// writing two records fewer for each was a tenth of a check.
    ///
    /// The second byte, the `[`, stays so only in a node of a run of marked
    /// nodes that has the next record as its one child (see
    /// [`Node::plain_run`]); any other marked node has [`RUN_END`] there.
    plain_move: [u8; 4],
}

/// The second byte of [`NodeData::plain_move`] for a marked node that may
/// have other children than the next record: one not written in a run of
/// marked nodes ([`GameTreeBuilder::add_marked_chain`]), or its last.
/// A mark's `[` itself says the opposite, so that the run's records are
/// written with the source's bytes as they are.
const RUN_END: u8 = b'[' | 0x80;

/// `plain_move` as the mark of a node that ends a run (see [`RUN_END`]).
#[inline(always)]
fn run_end(plain_move: [u8; 4]) -> [u8; 4] {
    match plain_move {
        UNMARKED => UNMARKED,
        [letter, _, x, y] => [letter, RUN_END, x, y],
    }
}

/// [`NodeData::plain_move`] of a node not marked.
pub(crate) const UNMARKED: [u8; 4] = [0; 4];

/// In the index of a [`Property`] or a [`Value`]: the index is not that of
/// a record but this bit and the id of a marked node, whose one property
/// (or its value) it is (see [`NodeData::plain_move`]). No tree holds
/// 2^31 records: a node, a property or a value is at least a byte of
/// the source, whose spans are below [`IN_SOURCE`].
const PLAIN: u32 = 1 << 31;

impl NodeData {
    /// Whether the parser marked the node as a plain move: one byte to
    /// look at, as a marked node's first letter is `B` or `W`, never 0.
    #[inline(always)]
    fn is_marked(&self) -> bool {
        self.plain_move[0] != 0
    }

    /// See [`RUN_END`].
    #[inline(always)]
    fn in_run(&self) -> bool {
        self.plain_move[1] == b'['
    }
}

/// A property. Its values run from `values` to the next property's
/// `values` (or to the end), as for a node's properties.
#[derive(Debug, Clone, Copy)]
struct PropData {
    /// Normalised identifier (upper-case letters only for FF[1]-FF[3] names).
    /// As written, it is in `GameTree::written_ids` when it differs.
    id: Span,
    values: u32,
    offset: u32,
    /// `id` as a number, set once when the property is added.
    code: PropId,
}

/// A property identifier as a number, so that code visiting every
/// property of a game (the checks, the replay) compares integers rather
/// than strings. Every `FF[4]` identifier, and every normalised
/// `FF[1]`-`FF[3]` one, is one or two upper-case letters: those are
/// numbered, one-to-one, in alphabetical order (one letter before two).
/// Any other identifier (longer, empty, not upper-case) is
/// [`PropId::OTHER`] and must be compared as text.
///
/// ```
/// use kifu::sgf::{parse_str, PropId};
/// let parsed = parse_str("(;SZ[9];B[ee])");
/// let node = parsed.collection.games[0].main_line().nth(1).unwrap();
/// assert_eq!(node.properties().next().unwrap().code(), PropId::B);
/// assert_eq!(PropId::new("B"), PropId::B);
/// assert_eq!(PropId::new("MULTIGOGM"), PropId::OTHER);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct PropId(u16);

impl PropId {
    /// Any identifier that is not one or two upper-case letters.
    pub const OTHER: PropId = PropId(0);
    pub const B: PropId = PropId::new("B");
    pub const W: PropId = PropId::new("W");
    pub const AB: PropId = PropId::new("AB");
    pub const AW: PropId = PropId::new("AW");
    pub const AE: PropId = PropId::new("AE");
    pub const PL: PropId = PropId::new("PL");
    pub const KO: PropId = PropId::new("KO");
    pub const CR: PropId = PropId::new("CR");
    pub const MA: PropId = PropId::new("MA");
    pub const SL: PropId = PropId::new("SL");
    pub const SQ: PropId = PropId::new("SQ");
    pub const TR: PropId = PropId::new("TR");
    pub const TB: PropId = PropId::new("TB");
    pub const TW: PropId = PropId::new("TW");
    pub const GM: PropId = PropId::new("GM");
    pub const FF: PropId = PropId::new("FF");
    pub const SZ: PropId = PropId::new("SZ");
    pub const RU: PropId = PropId::new("RU");
    pub const HA: PropId = PropId::new("HA");

    /// The number of an identifier (normalised, as [`Property::id`] gives it).
    pub const fn new(id: &str) -> PropId {
        PropId::of_bytes(id.as_bytes())
    }

    /// The number of an identifier the parser has already read as
    /// upper-case letters: only its length is left to look at.
    #[inline(always)]
    pub(crate) fn of_upper(id: &[u8]) -> PropId {
        debug_assert!(id.iter().all(u8::is_ascii_uppercase));
        match *id {
            [a] => PropId::of_letters(0, a),
            [a, b] => PropId::of_letters(a, b),
            _ => PropId::OTHER,
        }
    }

    /// `B` or `W`, the letter of a move the parser marked.
    #[inline(always)]
    pub(crate) const fn of_move_letter(letter: u8) -> PropId {
        PropId::of_letters(0, letter)
    }

    /// Numbers are below this: five bits a letter.
    pub(crate) const NUMBERED: usize = 27 << 5;

    /// The identifier as an index below [`PropId::NUMBERED`], for tables
    /// and sets indexed by identifier; `None` for [`PropId::OTHER`]. The
    /// number itself: where it packed the letters' bytes, turning it into
    /// an index took a dozen instructions for each property the checks
    /// visit.
    #[inline]
    pub(crate) const fn index(self) -> Option<usize> {
        if self.0 == 0 { None } else { Some(self.0 as usize) }
    }

    /// The number of upper-case letters `first` (0 for none) and
    /// `second`: each letter's rank in the alphabet from 1, in five bits
    /// (an upper-case letter's low five bits are just that).
    #[inline(always)]
    const fn of_letters(first: u8, second: u8) -> PropId {
        PropId(((first & 31) as u16) << 5 | (second & 31) as u16)
    }

    const fn of_bytes(id: &[u8]) -> PropId {
        match *id {
            [a] if a.is_ascii_uppercase() => PropId::of_letters(0, a),
            [a, b] if a.is_ascii_uppercase() && b.is_ascii_uppercase() => PropId::of_letters(a, b),
            _ => PropId::OTHER,
        }
    }
}

#[derive(Debug, Clone, Copy)]
struct ValueData {
    text: Span,
    offset: u32,
}

/// One game tree of a collection: a rooted tree of nodes.
///
/// Build one with [`GameTreeBuilder`]; read it through [`Node`], [`Property`]
/// and [`Value`] views.
///
/// A tree dropped leaves its record vectors, emptied, to its thread's next
/// parse ([`GameTreeBuilder::over_source`]) when they hold at most 64 KiB
/// each: one set a thread, so that a check of many files does not ask the
/// allocator for them again for each file.
#[derive(Clone, Default)]
pub struct GameTree {
    /// The decoded text of the file the tree was parsed from (shared by
    /// all its games): plain values and identifiers are spans of it.
    source: Arc<str>,
    /// Text not found as such in the source: unescaped values, normalised
    /// identifiers, values of trees built in memory.
    text: String,
    nodes: Vec<NodeData>,
    /// The nodes not marked as plain moves (see
    /// [`GameTree::is_marked_plain_move`]), in preorder: the root and a few
    /// more in a game of moves, so that a check of every node's properties
    /// visits them without a look at the others.
    unmarked: Vec<u32>,
    props: Vec<PropData>,
    values: Vec<ValueData>,
    /// Identifiers as written, by property index (ascending), for the few
    /// properties whose written identifier differs from the normalised one
    /// (`AddBlack` for `AB`).
    written_ids: Vec<(u32, Span)>,
    /// The root's first property of a few identifiers that the checks,
    /// the replay and the fingerprint each read, noted as the builder adds
    /// them (see [`GameTree::root_first`]).
    root_firsts: RootFirsts,
    offset: u32,
}

/// The index of the root's first property of each identifier of
/// [`RootFirsts::slot`], [`NONE`] for none, and whether the root has a
/// `B` or `W` record: what four readers of a root (the checks, the
/// replay's set-up and its visit of the root, the fingerprint) looked for
/// in a pass over its properties each (a KGS root has about seventeen).
#[derive(Debug, Clone, Copy)]
struct RootFirsts {
    indexes: [u32; 10],
    moves: bool,
}

impl Default for RootFirsts {
    fn default() -> RootFirsts {
        RootFirsts { indexes: [NONE; 10], moves: false }
    }
}

impl RootFirsts {
    /// The place of `code` among the identifiers noted.
    #[inline(always)]
    fn slot(code: PropId) -> Option<usize> {
        Some(match code {
            PropId::GM => 0,
            PropId::FF => 1,
            PropId::SZ => 2,
            PropId::RU => 3,
            PropId::HA => 4,
            PropId::AB => 5,
            PropId::AW => 6,
            PropId::AE => 7,
            PropId::PL => 8,
            PropId::KO => 9,
            _ => return None,
        })
    }

    /// Notes property `index`, of identifier `code`, added to the root.
    #[inline(always)]
    fn note(&mut self, code: PropId, index: u32) {
        match RootFirsts::slot(code) {
            Some(slot) if self.indexes[slot] == NONE => self.indexes[slot] = index,
            Some(_) => {}
            None => self.moves |= matches!(code, PropId::B | PropId::W),
        }
    }
}

/// The record vectors of a tree dropped, kept by its thread for the next
/// tree parsed there ([`GameTreeBuilder::over_source`]; see
/// [`crate::spare`]): a check of many files then builds each file's tree
/// in the vectors of the last, where it took four blocks a file from the
/// allocator and gave them back, a sixth of the allocations of a check.
#[derive(Default)]
struct Records {
    nodes: Vec<NodeData>,
    unmarked: Vec<u32>,
    props: Vec<PropData>,
    values: Vec<ValueData>,
}

thread_local! {
    /// The records of the tree the thread dropped last ([`Records::keep`]).
    static SPARE: Cell<Records> = const { Cell::new(Records::NONE) };
}

impl Records {
    const NONE: Records = Records { nodes: Vec::new(), unmarked: Vec::new(), props: Vec::new(), values: Vec::new() };

    /// The records the thread kept (empty), or none.
    fn take() -> Records {
        SPARE.try_with(Cell::take).unwrap_or_default()
    }

    /// Keeps the vectors small enough for the thread's next tree, in place
    /// of those it kept before.
    fn keep(self) {
        let kept = Records {
            nodes: spare::emptied(self.nodes),
            unmarked: spare::emptied(self.unmarked),
            props: spare::emptied(self.props),
            values: spare::emptied(self.values),
        };
        // A thread being torn down keeps nothing.
        let _ = SPARE.try_with(|cell| cell.set(kept));
    }
}

impl Drop for GameTree {
    fn drop(&mut self) {
        use std::mem::take;
        Records { nodes: take(&mut self.nodes), unmarked: take(&mut self.unmarked), props: take(&mut self.props), values: take(&mut self.values) }.keep();
    }
}

impl GameTree {
    /// The root node. Every game tree has one (it may have no properties).
    pub fn root(&self) -> Node<'_> {
        self.node(NodeId(0))
    }

    pub fn node(&self, id: NodeId) -> Node<'_> {
        Node { tree: self, id: id.0 }
    }

    /// The root's first property with identifier `code`, as
    /// `self.root().get_code(code)` finds it: for `GM`, `FF`, `SZ`, `RU`,
    /// `HA`, `AB`, `AW`, `AE`, `PL` and `KO` from where the builder noted
    /// it, with no look at the root's properties.
    #[inline]
    pub fn root_first(&self, code: PropId) -> Option<Property<'_>> {
        let Some(slot) = RootFirsts::slot(code) else { return self.root().get_code(code) };
        let index = self.root_firsts.indexes[slot];
        (index != NONE).then_some(Property { tree: self, index })
    }

    /// Whether the root has a move (`B` or `W`), with no look at its
    /// properties.
    pub fn root_has_move(&self) -> bool {
        self.root_firsts.moves || self.nodes.first().is_some_and(NodeData::is_marked)
    }

    /// Number of nodes marked as plain moves (see
    /// [`GameTree::is_marked_plain_move`]): every node not listed among
    /// the unmarked ones.
    pub(crate) fn marked_plain_moves(&self) -> usize {
        self.nodes.len() - self.unmarked.len()
    }

    /// Number of nodes in the whole tree.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// Stores a node's record, listing it among the unmarked nodes when it
    /// is one (see [`GameTree::nodes_not_marked_plain_moves`]).
    #[inline(always)]
    fn push_node_data(&mut self, data: NodeData) {
        if !data.is_marked() {
            self.unmarked.push(self.nodes.len() as u32);
        }
        self.nodes.push(data);
    }

    /// All nodes in preorder (file order).
    pub fn nodes(&self) -> impl ExactSizeIterator<Item = Node<'_>> + '_ {
        (0..self.nodes.len() as u32).map(move |id| Node { tree: self, id })
    }

    /// Whether node `id` was read by the parser as a plain move: one
    /// property, `B` or `W`, with one value of two lower-case letters
    /// (`;B[pd]`, most nodes of a game). Checks with nothing to say about
    /// such a node skip it with one look at its node record, without reading its
    /// property and value records. Only the parser marks nodes: `false`
    /// says nothing about the node.
    #[inline]
    pub fn is_marked_plain_move(&self, id: NodeId) -> bool {
        self.nodes.get(id.0 as usize).is_some_and(NodeData::is_marked)
    }

    /// The nodes not marked as plain moves (see
    /// [`GameTree::is_marked_plain_move`]), in preorder: those a check of
    /// every node's properties has to look at.
    pub fn nodes_not_marked_plain_moves(&self) -> impl Iterator<Item = Node<'_>> + '_ {
        self.unmarked.iter().map(move |&id| Node { tree: self, id })
    }

    /// The main line: the root and then always the first child.
    pub fn main_line(&self) -> MainLine<'_> {
        MainLine { tree: self, next: 0 }
    }

    /// The line a variation path names, root first: at each node with
    /// several children the next index of `variation` is taken (the first
    /// child once it runs out), as diagnostics write paths; `[]` is the main
    /// line. `None` when an index names no child.
    pub fn line(&self, variation: &[u32]) -> Option<Vec<Node<'_>>> {
        let mut choices = variation.iter();
        let mut line = vec![self.root()];
        loop {
            let node = line[line.len() - 1];
            let index = match node.child_count() {
                0 => return Some(line),
                1 => 0,
                _ => choices.next().copied().unwrap_or(0),
            };
            line.push(node.children().nth(index as usize)?);
        }
    }

    /// Byte offset of the tree's opening `(` in the decoded text.
    pub fn offset(&self) -> u32 {
        self.offset
    }

    /// Number of properties in the whole tree, for memory accounting.
    pub fn property_count(&self) -> usize {
        self.props.len() + (self.nodes.len() - self.unmarked.len())
    }

    /// The properties of node `id`, as indices into `props` (or the one
    /// index of a marked node's property, see [`PLAIN`]).
    #[inline(always)]
    fn prop_range(&self, id: u32) -> Range<u32> {
        let node = &self.nodes[id as usize];
        if node.is_marked() {
            return PLAIN | id..(PLAIN | id) + 1;
        }
        // A marked next node has no record, but its `props` says where
        // the next record would have gone: here, the end of this node's.
        let end = self.nodes.get(id as usize + 1).map_or(self.props.len() as u32, |n| n.props);
        node.props..end
    }

    /// The values of property `index`, as indices into `values` (or the
    /// one index of a marked node's value, see [`PLAIN`]).
    #[inline(always)]
    fn value_range(&self, index: u32) -> Range<u32> {
        // An index with the `PLAIN` bit is no record's: one look at the
        // records' bounds tells both.
        let Some(prop) = self.props.get(index as usize) else { return index..index + 1 };
        let end = self.props.get(index as usize + 1).map_or(self.values.len() as u32, |p| p.values);
        prop.values..end
    }

    /// The record a marked node's property would have, made from the
    /// node's record, as the parser would have written it: a call, not
    /// code in every reader of properties, which the checks run on the
    /// unmarked nodes.
    #[cold]
    #[inline(never)]
    fn plain_prop_data(&self, index: u32) -> PropData {
        let node = &self.nodes[(index & !PLAIN) as usize];
        // `;B[pd]`: the identifier right after the `;`.
        let at = node.offset + 1;
        PropData { id: source_span(at as usize..at as usize + 1), values: index, offset: at, code: PropId::of_move_letter(node.plain_move[0]) }
    }

    /// The record a marked node's value would have, made likewise.
    #[cold]
    #[inline(never)]
    fn plain_value_data(&self, index: u32) -> ValueData {
        // `;B[pd]`: the `[` two bytes after the `;`.
        let open = self.nodes[(index & !PLAIN) as usize].offset + 2;
        ValueData { text: source_span(open as usize + 1..open as usize + 3), offset: open }
    }

    #[inline(always)]
    fn str(&self, span: Span) -> &str {
        if span.start & IN_SOURCE != 0 { &self.source[span.range()] } else { &self.text[span.range()] }
    }

    /// [`GameTree::str`] as bytes: no UTF-8 boundary checks.
    #[inline(always)]
    fn bytes(&self, span: Span) -> &[u8] {
        let base = if span.start & IN_SOURCE != 0 { self.source.as_bytes() } else { self.text.as_bytes() };
        &base[span.range()]
    }
}

/// A node of a [`GameTree`].
#[derive(Clone, Copy)]
pub struct Node<'a> {
    tree: &'a GameTree,
    id: u32,
}

impl<'a> Node<'a> {
    #[inline]
    fn data(&self) -> &'a NodeData {
        &self.tree.nodes[self.id as usize]
    }

    pub fn id(&self) -> NodeId {
        NodeId(self.id)
    }

    pub fn tree(&self) -> &'a GameTree {
        self.tree
    }

    /// Byte offset of the node's `;` in the decoded text.
    pub fn offset(&self) -> u32 {
        self.data().offset
    }

    pub fn parent(&self) -> Option<Node<'a>> {
        let p = self.data().parent;
        (p != NONE).then_some(Node { tree: self.tree, id: p })
    }

    pub fn children(&self) -> Children<'a> {
        Children { tree: self.tree, next: self.data().first_child }
    }

    /// For a node the parser marked as a plain move (see
    /// [`Node::marked_plain_move`]): the moves of the run of marked nodes
    /// it starts, each the one child of the one before, up to the first
    /// that may have another child (see [`RUN_END`]; a node outside the
    /// runs the parser wrote together is a run of its own). `None` for
    /// a node not marked.
    #[inline]
    pub fn plain_run(&self) -> Option<PlainRun<'a>> {
        self.data().is_marked().then_some(PlainRun { tree: self.tree, id: self.id })
    }

    /// The line from this node down, always to the first child: the
    /// node's part of [`GameTree::main_line`] when it is on it.
    pub fn main_line(&self) -> MainLine<'a> {
        MainLine { tree: self.tree, next: self.id }
    }

    pub fn child_count(&self) -> usize {
        self.children().count()
    }

    /// For a node the parser marked as a plain move (see
    /// [`GameTree::is_marked_plain_move`]): its one property, its
    /// identifier (`B` or `W`) and the two letters of its point, read
    /// without going through the general views. `None` for any other node.
    #[inline]
    pub fn marked_plain_move(&self) -> Option<(Property<'a>, PropId, [u8; 2])> {
        // The node record alone holds the letters: no look at the
        // property and value records, nor at the source.
        let data = self.data();
        let [letter, _, x, y] = data.plain_move;
        data.is_marked().then_some((Property { tree: self.tree, index: PLAIN | self.id }, PropId::of_move_letter(letter), [x, y]))
    }

    /// For a node the parser marked as a plain move: the move as
    /// [`PlainRun::for_each_move`] gives it (the node alone, where a run
    /// goes on to the nodes after it). `None` for any other node.
    #[inline]
    pub fn plain_move(&self) -> Option<(PlainMove<'a>, u8, u16)> {
        let data = self.data();
        let xy = u16::from_le_bytes(*data.plain_move.last_chunk().expect("a mark has four bytes"));
        data.is_marked().then_some((PlainMove { tree: self.tree, data }, data.plain_move[0], xy))
    }

    /// Properties in file order.
    #[inline]
    pub fn properties(&self) -> impl ExactSizeIterator<Item = Property<'a>> + Clone + use<'a> {
        let tree = self.tree;
        tree.prop_range(self.id).map(move |i| Property { tree, index: i })
    }

    /// The first property with this (normalised) identifier.
    pub fn get(&self, id: &str) -> Option<Property<'a>> {
        match PropId::new(id) {
            PropId::OTHER => self.properties().find(|p| p.id() == id),
            code => self.get_code(code),
        }
    }

    /// The first property whose identifier is `code` (not [`PropId::OTHER`]).
    #[inline]
    pub fn get_code(&self, code: PropId) -> Option<Property<'a>> {
        debug_assert_ne!(code, PropId::OTHER);
        let tree = self.tree;
        let range = tree.prop_range(self.id);
        match tree.props.get(range.start as usize..range.end as usize) {
            // The records themselves, in one pass over them.
            Some(records) => records.iter().position(|p| p.code == code).map(|i| Property { tree, index: range.start + i as u32 }),
            None => self.properties().find(|p| p.code() == code),
        }
    }

    /// The first value of the first property with this identifier.
    pub fn get_value(&self, id: &str) -> Option<&'a str> {
        self.get(id).and_then(|p| p.values().next()).map(|v| v.text())
    }

    pub fn has(&self, id: &str) -> bool {
        self.get(id).is_some()
    }
}

impl fmt::Debug for Node<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.properties()).finish()
    }
}

/// Iterator over the main line of a tree ([`GameTree::main_line`]): each
/// node's record read once, for its first child, where the first of its
/// children ([`Node::children`]) also read the child's for its brother
/// (the fingerprint's walk down the line, a record read a move fewer).
#[derive(Clone)]
pub struct MainLine<'a> {
    tree: &'a GameTree,
    next: u32,
}

impl<'a> Iterator for MainLine<'a> {
    type Item = Node<'a>;
    #[inline]
    fn next(&mut self) -> Option<Node<'a>> {
        if self.next == NONE {
            return None;
        }
        let node = Node { tree: self.tree, id: self.next };
        self.next = node.data().first_child;
        Some(node)
    }
}

/// A run of nodes marked as plain moves ([`Node::plain_run`]). A walk
/// down the main line takes most moves so, each a step to the next
/// record, where going from node to node read each record through the
/// tree (a bounds check), its children and its mark apart.
pub struct PlainRun<'a> {
    tree: &'a GameTree,
    id: u32,
}

impl<'a> PlainRun<'a> {
    /// Calls `play` with each move of the run in turn, as
    /// [`Node::marked_plain_move`] gives it (the property as a
    /// [`PlainMove`], its identifier as its letter, `B` or `W`: the
    /// [`PropId`] took a mask a move; the point's two letters as one
    /// little-endian number, read in one load); returns the run's last
    /// node.
    #[inline(always)]
    pub fn for_each_move(self, mut play: impl FnMut(PlainMove<'a>, u8, u16)) -> Node<'a> {
        let tree = self.tree;
        let mut data = &tree.nodes[self.id as usize];
        loop {
            debug_assert!(data.is_marked());
            let letter = data.plain_move[0];
            let xy = u16::from_le_bytes(*data.plain_move.last_chunk().expect("a mark has four bytes"));
            let mv = PlainMove { tree, data };
            play(mv, letter, xy);
            if !data.in_run() {
                return Node { tree, id: mv.id() };
            }
            // Each node but the last of a run written together has the
            // next record, marked too, as its one child
            // (`add_marked_chain`).
            debug_assert!(mv.id() as usize + 1 < tree.nodes.len());
            // SAFETY: a record in a run is not the tree's last: only
            // `add_marked_chain` leaves the `[` of `in_run` in a record,
            // in each of the records it writes but the last, which it
            // marks `RUN_END` (as `link_sibling` does a parent's, and the
            // other builders a lone node's). So the next record is one of
            // `tree.nodes`, where a slice's end tested each move (two
            // instructions a move) would never be reached.
            data = unsafe { &*std::ptr::from_ref(data).add(1) };
        }
    }
}

/// The one property of a node of a [`PlainRun`], as the run's loop has
/// it: the node's record, where the [`Property`] is made only when asked
/// for (the reports, a capture). Keeping the node's id, or the property's
/// index, through each move took about five instructions a move, the
/// registers being short there, where the loop has the record in hand.
#[derive(Clone, Copy)]
pub struct PlainMove<'a> {
    tree: &'a GameTree,
    /// A record of `tree.nodes`.
    data: &'a NodeData,
}

impl<'a> PlainMove<'a> {
    /// The node's id, from where its record is among the tree's.
    #[inline]
    fn id(self) -> u32 {
        let at = self.data as *const NodeData as usize - self.tree.nodes.as_ptr() as usize;
        (at / std::mem::size_of::<NodeData>()) as u32
    }

    /// The move's property, as [`Node::marked_plain_move`] gives it.
    #[inline]
    pub fn property(self) -> Property<'a> {
        Property { tree: self.tree, index: PLAIN | self.id() }
    }
}

impl<'a> From<PlainMove<'a>> for Property<'a> {
    #[inline]
    fn from(mv: PlainMove<'a>) -> Property<'a> {
        mv.property()
    }
}

/// Iterator over the children of a node, in order.
#[derive(Clone)]
pub struct Children<'a> {
    tree: &'a GameTree,
    next: u32,
}

impl<'a> Iterator for Children<'a> {
    type Item = Node<'a>;
    fn next(&mut self) -> Option<Node<'a>> {
        if self.next == NONE {
            return None;
        }
        let node = Node { tree: self.tree, id: self.next };
        self.next = node.data().next_sibling;
        Some(node)
    }
}

/// A property of a node: an identifier and one or more values.
#[derive(Clone, Copy)]
pub struct Property<'a> {
    tree: &'a GameTree,
    index: u32,
}

impl<'a> Property<'a> {
    /// A field of the property's record (see [`GameTree::plain_prop_data`]),
    /// read in place when there is one.
    #[inline(always)]
    fn data<T>(&self, field: impl Fn(&PropData) -> T) -> T {
        match self.tree.props.get(self.index as usize) {
            Some(prop) => field(prop),
            None => field(&self.tree.plain_prop_data(self.index)),
        }
    }

    /// The identifier, normalised: `AddBlack` (`FF[1]`-`FF[3]`) reads as `AB`.
    pub fn id(&self) -> &'a str {
        self.tree.str(self.data(|p| p.id))
    }

    /// The identifier as a number ([`PropId::OTHER`] unless it is one or
    /// two upper-case letters): cheaper to compare than [`Property::id`].
    #[inline]
    pub fn code(&self) -> PropId {
        self.data(|p| p.code)
    }

    /// The identifier exactly as the file wrote it.
    pub fn written_id(&self) -> &'a str {
        let tree = self.tree;
        let written = if tree.written_ids.is_empty() {
            None
        } else {
            tree.written_ids.binary_search_by_key(&self.index, |&(i, _)| i).ok().map(|i| tree.written_ids[i].1)
        };
        tree.str(written.unwrap_or_else(|| self.data(|p| p.id)))
    }

    /// Byte offset of the identifier in the decoded text.
    pub fn offset(&self) -> u32 {
        self.data(|p| p.offset)
    }

    #[inline]
    pub fn values(&self) -> impl ExactSizeIterator<Item = Value<'a>> + Clone + use<'a> {
        let tree = self.tree;
        tree.value_range(self.index).map(move |i| Value { tree, index: i })
    }

    #[inline]
    pub fn value_count(&self) -> usize {
        self.tree.value_range(self.index).len()
    }

    /// The value of a property that has exactly one.
    #[inline]
    pub fn only_value(&self) -> Option<Value<'a>> {
        let range = self.tree.value_range(self.index);
        (range.len() == 1).then_some(Value { tree: self.tree, index: range.start })
    }

    /// The first value's text, or `None` for a property with no value.
    #[inline(always)]
    pub fn first(&self) -> Option<&'a str> {
        self.values().next().map(|v| v.text())
    }
}

impl fmt::Debug for Property<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.written_id())?;
        for v in self.values() {
            write!(f, "[{}]", v.text())?;
        }
        Ok(())
    }
}

/// One property value, decoded and unescaped.
#[derive(Clone, Copy)]
pub struct Value<'a> {
    tree: &'a GameTree,
    index: u32,
}

impl<'a> Value<'a> {
    /// A field of the value's record (see [`GameTree::plain_value_data`]), read
    /// in place when there is one.
    #[inline(always)]
    fn data<T>(&self, field: impl Fn(&ValueData) -> T) -> T {
        match self.tree.values.get(self.index as usize) {
            Some(value) => field(value),
            None => field(&self.tree.plain_value_data(self.index)),
        }
    }

    /// The value's text (escapes and soft line breaks removed).
    #[inline]
    pub fn text(&self) -> &'a str {
        self.tree.str(self.data(|v| v.text))
    }

    /// The value's text as bytes, for byte-level reading in hot loops
    /// (no UTF-8 boundary checks, which [`Value::text`] makes).
    #[inline]
    pub fn bytes(&self) -> &'a [u8] {
        self.tree.bytes(self.data(|v| v.text))
    }

    /// Byte offset of the value's `[` in the decoded text.
    pub fn offset(&self) -> u32 {
        self.data(|v| v.offset)
    }

    /// Splits a composed value at its first `:`; `None` when there is none.
    pub fn composed(&self) -> Option<(&'a str, &'a str)> {
        self.text().split_once(':')
    }
}

impl fmt::Debug for Value<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.text(), f)
    }
}

/// Two trees are equal when they have the same shape and the same
/// properties, identifiers and values in the same order. Source offsets are
/// not compared: they say where things were, not what they are.
impl PartialEq for GameTree {
    fn eq(&self, other: &GameTree) -> bool {
        // Records are not compared: a parsed tree has none for its marked
        // nodes, one built in memory the same nodes with records.
        self.nodes.len() == other.nodes.len()
            && self.nodes().zip(other.nodes()).all(|(a, b)| {
                a.data().parent == b.data().parent
                    && a.data().first_child == b.data().first_child
                    && a.data().next_sibling == b.data().next_sibling
                    && a.properties().len() == b.properties().len()
                    && a.properties().zip(b.properties()).all(|(p, q)| {
                        p.id() == q.id()
                            && p.written_id() == q.written_id()
                            && p.value_count() == q.value_count()
                            && p.values().zip(q.values()).all(|(v, w)| v.text() == w.text())
                    })
            })
    }
}

impl fmt::Debug for GameTree {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Flat on purpose: a recursive Debug would overflow on deep trees.
        let mut list = f.debug_list();
        for node in self.nodes() {
            list.entry(&(node.data().parent as i64, node));
        }
        list.finish()
    }
}

/// Builds a [`GameTree`] in preorder: open a node, add its properties, then
/// its children (each opened after the previous sibling's subtree is done).
///
/// ```
/// use kifu::sgf::GameTreeBuilder;
/// let mut b = GameTreeBuilder::new();
/// let root = b.add_node(None, 0);
/// b.add_property("SZ", None, 0);
/// b.add_value("9", 0);
/// let mv = b.add_node(Some(root), 0);
/// b.add_property("B", None, 0);
/// b.add_value("ee", 0);
/// let tree = b.finish();
/// assert_eq!(tree.main_line().count(), 2);
/// # let _ = mv;
/// ```
/// Property and value records a parse reserves room for at first (see
/// [`GameTreeBuilder::over_source`]): the root of a KGS game has about 17
/// properties and 26 values. Each block under the 1,032 bytes glibc keeps
/// freed blocks of in its per-thread cache.
const ROOM_FOR_PROPERTIES: usize = 48;
const ROOM_FOR_VALUES: usize = 64;
const _: () = assert!(ROOM_FOR_PROPERTIES * size_of::<PropData>() <= 1032 && ROOM_FOR_VALUES * size_of::<ValueData>() <= 1032);

#[derive(Default)]
pub struct GameTreeBuilder {
    tree: GameTree,
}

impl GameTreeBuilder {
    pub fn new() -> GameTreeBuilder {
        GameTreeBuilder::default()
    }

    /// Reserves room for a tree built in memory from about `bytes` bytes.
    pub fn with_capacity(bytes: usize) -> GameTreeBuilder {
        let mut b = GameTreeBuilder::over_source(Arc::from(""), bytes);
        b.tree.text.reserve(bytes / 2);
        b
    }

    /// A builder for a tree parsed from `source`, reserving room for about
    /// `bytes` bytes of it. Values and identifiers found verbatim in the
    /// source are kept as spans of it ([`GameTreeBuilder::add_property_in_source`],
    /// [`GameTreeBuilder::add_value_in_source`]), not copied.
    ///
    /// The vectors are those of the last tree the thread dropped, when it
    /// kept them (see [`GameTree`]): room for such a tree already.
    pub fn over_source(source: Arc<str>, bytes: usize) -> GameTreeBuilder {
        let Records { nodes, unmarked, props, values } = Records::take();
        let (text, written_ids, offset) = (String::new(), Vec::new(), 0);
        let mut tree = GameTree { source, text, nodes, unmarked, props, values, written_ids, root_firsts: RootFirsts::default(), offset };
        // A move node, `;B[pd]` and a line break, is 7 bytes: room for that
        // many nodes means no regrowth for typical files. A node marked as
        // a plain move has no property or value record, and a game of
        // them needs records for its root alone: room for a few dozen, a
        // block of the same size in every parse, which the allocator's
        // per-thread cache hands back at once (a block sized by the file
        // took a search of its free lists, and another to free it). More
        // properties (comments, clocks) grow the vectors as they come.
        let records = bytes / 7;
        tree.nodes.reserve(records);
        tree.props.reserve(ROOM_FOR_PROPERTIES);
        tree.values.reserve(ROOM_FOR_VALUES);
        GameTreeBuilder { tree }
    }

    pub fn set_offset(&mut self, offset: u32) {
        self.tree.offset = offset;
    }

    /// Adds a node as the last child of `parent` (`None` only for the root,
    /// which must be the first node). Nodes must be added in preorder.
    #[inline(always)]
    pub fn add_node(&mut self, parent: Option<NodeId>, offset: u32) -> NodeId {
        self.push_node(parent, offset, UNMARKED)
    }

    /// [`GameTreeBuilder::add_node`], with the node's mark (see
    /// [`NodeData::plain_move`]).
    #[inline(always)]
    fn push_node(&mut self, parent: Option<NodeId>, offset: u32, plain_move: [u8; 4]) -> NodeId {
        let t = &mut self.tree;
        let id = t.nodes.len() as u32;
        let props = t.props.len() as u32;
        let parent = parent.map_or(NONE, |p| p.0);
        t.push_node_data(NodeData { props, parent, first_child: NONE, next_sibling: NONE, offset, plain_move });
        if parent != NONE {
            if parent.wrapping_add(1) == id {
                // The node added last has no child yet: this is its first.
                t.nodes[parent as usize].first_child = id;
            } else {
                self.link_sibling(parent, id);
            }
        }
        NodeId(id)
    }

    /// Links `id` after the last child `parent` already has (not the node
    /// added just before it). In preorder, that child is the ancestor of
    /// the node added last whose parent is `parent`: walking up to it passes
    /// only nodes whose subtrees are complete, so all such walks together
    /// visit each node at most once.
    #[cold]
    fn link_sibling(&mut self, parent: u32, id: u32) {
        let nodes = &mut self.tree.nodes;
        // A second child: the parent's first is no longer alone.
        if nodes[parent as usize].in_run() {
            nodes[parent as usize].plain_move[1] = RUN_END;
        }
        let mut x = id.wrapping_sub(1);
        while x != NONE && nodes[x as usize].parent != parent {
            x = nodes[x as usize].parent;
        }
        if x == NONE {
            // Not added in preorder: start from the first child.
            x = nodes[parent as usize].first_child;
            if x == NONE {
                nodes[parent as usize].first_child = id;
                return;
            }
        }
        while nodes[x as usize].next_sibling != NONE {
            x = nodes[x as usize].next_sibling;
        }
        nodes[x as usize].next_sibling = id;
    }

    /// Adds a node holding one property with one value, both spans of the
    /// source (the parser's `;B[pd]`): `add_node`, `add_property_in_source`
    /// and `add_value_in_source` in one step. The value's offset is that of
    /// the `[` before it.
    ///
    /// `code` is the identifier's number, which the parser knows from the
    /// letters it has just read, and `plain_move` the node's mark (see
    /// [`NodeData::plain_move`]), which it tells from them too.
    #[inline(always)]
    pub(crate) fn add_plain_node(
        &mut self,
        parent: Option<NodeId>,
        offset: usize,
        id: Range<usize>,
        code: PropId,
        value: Range<usize>,
        plain_move: [u8; 4],
    ) -> NodeId {
        debug_assert_eq!(code, PropId::of_bytes(&self.tree.source.as_bytes()[id.clone()]));
        Self::check_mark(plain_move, offset, &id, &value);
        let node = self.push_node(parent, offset as u32, run_end(plain_move));
        if plain_move == UNMARKED {
            if node.0 == 0 {
                let t = &mut self.tree;
                t.root_firsts.note(code, t.props.len() as u32);
            }
            self.push_lone_property(id, code, value);
        }
        node
    }

    /// [`GameTreeBuilder::add_plain_node`] for a node whose parent is the
    /// node added last (the next move of a sequence).
    #[inline(always)]
    pub(crate) fn add_plain_child(&mut self, offset: usize, id: Range<usize>, code: PropId, value: Range<usize>, plain_move: [u8; 4]) -> NodeId {
        debug_assert_eq!(code, PropId::of_bytes(&self.tree.source.as_bytes()[id.clone()]));
        Self::check_mark(plain_move, offset, &id, &value);
        let t = &mut self.tree;
        let node = t.nodes.len() as u32;
        if let Some(parent) = t.nodes.last_mut() {
            // The node added last has no child yet: this is its first.
            parent.first_child = node;
        }
        let props = t.props.len() as u32;
        let data =
            NodeData { props, parent: node.wrapping_sub(1), first_child: NONE, next_sibling: NONE, offset: offset as u32, plain_move: run_end(plain_move) };
        t.push_node_data(data);
        if plain_move == UNMARKED {
            self.push_lone_property(id, code, value);
        }
        NodeId(node)
    }

    /// Adds a chain of nodes the parser has marked (see
    /// [`NodeData::plain_move`]), each the child of the node added before
    /// it, the first the child of the node added last (which has none
    /// yet): as many as `next` gives, each as the offset of its `;` and its
    /// mark (`;B[pd]`: its letter and value at their fixed places after the
    /// `;`), until it gives `None`, at most `max` and at most what the
    /// node records' room holds (the caller adds the next one otherwise).
    /// Returns how many were added.
    ///
    /// The commonest run of a game's records: written into the room
    /// reserved, each record with its first child already (the one to come
    /// next; none for the last, set once at the end), with no length or
    /// room to update for each.
    #[inline(always)]
    pub(crate) fn add_marked_chain(&mut self, max: usize, mut next: impl FnMut() -> Option<(usize, [u8; 4])>) -> usize {
        let t = &mut self.tree;
        let first = t.nodes.len();
        if first == 0 {
            return 0;
        }
        let props = t.props.len() as u32;
        let room = t.nodes.spare_capacity_mut();
        let room_len = room.len().min(max);
        let mut added = 0;
        // The record's first four fields as two pairs, each one number
        // that the count of records added steps (`parent` and `props`,
        // `first_child` and `next_sibling`): two 8-byte stores and two
        // `lea`s, where the four fields took four stores, a `lea` and an
        // `inc`.
        let up = u64::from(first as u32 - 1) | u64::from(props) << 32;
        let down = u64::from(first as u32 + 1) | u64::from(NONE) << 32;
        for slot in &mut room[..room_len] {
            let Some((offset, plain_move)) = next() else { break };
            debug_assert!(plain_move != UNMARKED);
            debug_assert_eq!(t.source.as_bytes().get(offset..offset + 6).map(|b| [b[1], b[2], b[3], b[4]]), Some(plain_move));
            let (up, down) = (up + added as u64, down + added as u64);
            slot.write(NodeData {
                parent: up as u32,
                props: (up >> 32) as u32,
                first_child: down as u32,
                next_sibling: (down >> 32) as u32,
                offset: offset as u32,
                plain_move,
            });
            added += 1;
        }
        if added > 0 {
            // SAFETY: the first `added` records of the room were written.
            unsafe { t.nodes.set_len(first + added) };
            t.nodes[first - 1].first_child = first as u32;
            let last = &mut t.nodes[first + added - 1];
            last.first_child = NONE;
            last.plain_move[1] = RUN_END;
        }
        added
    }

    /// The records of the one property, with its one value, of an
    /// unmarked node added by `add_plain_node` or `add_plain_child` (the
    /// first notes it if the node is the root).
    #[inline(always)]
    fn push_lone_property(&mut self, id: Range<usize>, code: PropId, value: Range<usize>) {
        let t = &mut self.tree;
        let values = t.values.len() as u32;
        t.props.push(PropData { id: source_span(id.clone()), values, offset: id.start as u32, code });
        t.values.push(ValueData { text: source_span(value.clone()), offset: value.start as u32 - 1 });
    }

    /// In debug builds: a node marked as a plain move (see
    /// [`NodeData::plain_move`]) is one letter `B` or `W` right after its
    /// `;` and a value of two lower-case letters right after that, where
    /// [`GameTree::plain_prop_data`] and [`GameTree::plain_value_data`] look for them.
    #[inline(always)]
    fn check_mark(plain_move: [u8; 4], offset: usize, id: &Range<usize>, value: &Range<usize>) {
        debug_assert!(plain_move == UNMARKED || (*id == (offset + 1..offset + 2) && *value == (offset + 3..offset + 5)));
        debug_assert!(plain_move == UNMARKED || matches!(plain_move, [b'B' | b'W', b'[', b'a'..=b'z', b'a'..=b'z']));
    }

    /// Adds a property to the node added last. `written` is the identifier
    /// as the file spelled it, when that differs from `id`.
    pub fn add_property(&mut self, id: &str, written: Option<&str>, offset: u32) {
        let id = self.push_text(id);
        if let Some(w) = written {
            let w = self.push_text(w);
            let index = self.tree.props.len() as u32;
            self.tree.written_ids.push((index, w));
        }
        self.push_property(id, offset);
    }

    /// Adds a property whose identifier is `range` of the source, as is.
    #[inline]
    pub fn add_property_in_source(&mut self, range: Range<usize>, offset: u32) {
        self.push_property(source_span(range), offset);
    }

    /// [`GameTreeBuilder::add_property_in_source`] for an identifier the
    /// parser has read as upper-case letters, with its number.
    #[inline]
    pub(crate) fn add_upper_property_in_source(&mut self, range: Range<usize>, code: PropId, offset: u32) {
        debug_assert_eq!(code, PropId::of_bytes(&self.tree.source.as_bytes()[range.clone()]));
        self.push_coded_property(source_span(range), code, offset);
    }

    #[inline]
    fn push_property(&mut self, id: Span, offset: u32) {
        let code = PropId::new(self.tree.str(id));
        self.push_coded_property(id, code, offset);
    }

    #[inline(always)]
    fn push_coded_property(&mut self, id: Span, code: PropId, offset: u32) {
        let t = &mut self.tree;
        assert!(!t.nodes.is_empty(), "add_node before add_property");
        debug_assert!(!t.nodes.last().is_some_and(NodeData::is_marked), "a marked node has its one property");
        let values = t.values.len() as u32;
        if t.nodes.len() == 1 {
            t.root_firsts.note(code, t.props.len() as u32);
        }
        t.props.push(PropData { id, values, offset, code });
    }

    /// Adds a value to the property added last.
    pub fn add_value(&mut self, text: &str, offset: u32) {
        let span = self.push_text(text);
        self.push_value(span, offset);
    }

    /// Adds a value whose text is `range` of the source, as is.
    #[inline]
    pub fn add_value_in_source(&mut self, range: Range<usize>, offset: u32) {
        self.push_value(source_span(range), offset);
    }

    /// Adds a value whose text is appended piece by piece with
    /// [`GameTreeBuilder::value_text`]; finish it with
    /// [`GameTreeBuilder::end_value`].
    pub fn begin_value(&mut self) -> u32 {
        self.tree.text.len() as u32
    }

    /// The text buffer to append a value's pieces to (see `begin_value`).
    pub fn value_text(&mut self) -> &mut String {
        &mut self.tree.text
    }

    pub fn end_value(&mut self, start: u32, offset: u32) {
        let span = Span { start, end: self.tree.text.len() as u32 };
        self.push_value(span, offset);
    }

    /// Number of nodes added so far.
    #[inline]
    pub fn node_count(&self) -> usize {
        self.tree.nodes.len()
    }

    /// Whether the node added last has properties.
    #[inline]
    pub fn last_node_has_properties(&self) -> bool {
        self.tree.nodes.last().is_some_and(|n| n.is_marked() || (n.props as usize) < self.tree.props.len())
    }

    /// Whether a property has been added to the node added last.
    #[inline]
    pub fn has_open_property(&self) -> bool {
        self.last_node_has_properties()
    }

    pub fn finish(self) -> GameTree {
        self.tree
    }

    fn push_text(&mut self, s: &str) -> Span {
        let start = self.tree.text.len() as u32;
        self.tree.text.push_str(s);
        Span { start, end: self.tree.text.len() as u32 }
    }

    #[inline]
    fn push_value(&mut self, text: Span, offset: u32) {
        let t = &mut self.tree;
        assert!(!t.props.is_empty(), "add_property before add_value");
        debug_assert!(!t.nodes.last().is_some_and(NodeData::is_marked), "a marked node has its one value");
        t.values.push(ValueData { text, offset });
    }
}

#[inline]
fn source_span(range: Range<usize>) -> Span {
    Span { start: range.start as u32 | IN_SOURCE, end: range.end as u32 }
}

/// A whole SGF file: its game trees, in order.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Collection {
    pub games: Vec<GameTree>,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The root's properties the builder notes are those a look at the
    /// root finds: first ones, normalised identifiers, one-property and
    /// marked roots, moves in the root, trees built in memory.
    #[test]
    fn noted_root_properties_are_those_found() {
        let codes = ["GM", "FF", "SZ", "RU", "HA", "AB", "AW", "AE", "PL", "KO", "C", "B"].map(PropId::new);
        let check = |game: &GameTree, what: &str| {
            let root = game.root();
            for code in codes {
                assert_eq!(game.root_first(code).map(|p| p.offset()), root.get_code(code).map(|p| p.offset()), "{what} {code:?}");
                assert_eq!(game.root_first(code).map(|p| p.first()), root.get_code(code).map(|p| p.first()), "{what} {code:?}");
            }
            assert_eq!(game.root_has_move(), root.properties().any(|p| matches!(p.code(), PropId::B | PropId::W)), "{what}");
        };
        for sgf in [
            "(;GM[1]FF[4]SZ[19]RU[Japanese]HA[2]AB[dd][pp];W[qd])",
            "(;SZ[9]SZ[13]AB[aa]AB[bb]AW[cc]GM[1]GM[2];B[ee])",
            "(;FF[3]AddBlack[aa]AddWhite[bb]SiZe[9];B[cc])",
            "(;SZ[9])",
            "(;B[ee];W[cc])",
            "(;B[ee]SZ[9]W[cc])",
            "(;C[hi];B[ee])",
            "(;GM[1];SZ[9]AB[aa])",
            "(;SZ[9];B[aa])(;SZ[13];B[bb])",
            "(;)",
        ] {
            let parsed = crate::sgf::parse_str(sgf);
            for game in &parsed.collection.games {
                check(game, sgf);
            }
        }
        let mut b = GameTreeBuilder::new();
        b.add_node(None, 0);
        b.add_property("HA", None, 1);
        b.add_value("2", 3);
        b.add_property("W", None, 6);
        b.add_value("dd", 7);
        b.add_node(Some(NodeId(0)), 10);
        b.add_property("AB", None, 11);
        b.add_value("aa", 13);
        check(&b.finish(), "built");
    }

    /// A run of plain moves (`plain_run`) goes on past a node only to its
    /// one child, and the runs have such nodes (variations, a node not marked, a
    /// run's end and a chain broken by the parser's budget included).
    #[test]
    fn runs_go_on_to_only_children() {
        let texts = [
            "(;FF[4];B[aa];W[bb];B[cc](;W[dd];B[ee];W[ff])(;W[gg]))",
            "(;B[aa];W[bb]C[x];B[cc];W[dd]\n;B[ee];W[tt];B[ff]((;W[gg])(;W[hh]);B[ii]))",
            "(;AB[aa];B[bb];W[cc](;B[dd])(;B[ee];W[ff];B[gg]))(;B[aa];W[bb])",
            "(;GM[1];B[aa];W[ab];B[ac];W[ad];B[ae];W[af];B[ag];W[ah];B[ai];W[aj])",
        ];
        let mut in_runs = 0;
        for text in texts {
            for game in &crate::sgf::parse_str(text).collection.games {
                for node in game.nodes() {
                    let Some(run) = node.plain_run() else { continue };
                    let mut ids = Vec::new();
                    let last = run.for_each_move(|mv, _, _| ids.push(mv.property().index));
                    // Each move's property is its node's, in the run's order.
                    let marked: Vec<u32> = (node.id().0..=last.id().0).map(|id| game.node(NodeId(id)).marked_plain_move().expect("marked").0.index).collect();
                    assert_eq!(ids, marked, "{text}");
                    let mut parent = node;
                    while parent.id() != last.id() {
                        in_runs += 1;
                        let child = NodeId(parent.id().0 + 1);
                        assert_eq!(parent.children().map(|c| c.id()).collect::<Vec<_>>(), [child], "{text}");
                        parent = game.node(child);
                    }
                }
            }
        }
        assert!(in_runs >= 10, "{in_runs} nodes in runs");
    }

    fn small() -> GameTree {
        let mut b = GameTreeBuilder::new();
        let root = b.add_node(None, 0);
        b.add_property("FF", None, 1);
        b.add_value("4", 3);
        let a = b.add_node(Some(root), 10);
        b.add_property("B", None, 11);
        b.add_value("aa", 12);
        b.add_node(Some(a), 20);
        b.add_property("W", None, 21);
        b.add_value("bb", 22);
        b.add_node(Some(root), 30);
        b.add_property("AB", Some("AddBlack"), 31);
        b.add_value("cc", 40);
        b.add_value("dd", 44);
        b.finish()
    }

    #[test]
    fn shape_and_views() {
        let t = small();
        assert_eq!(t.len(), 4);
        assert_eq!(t.root().child_count(), 2);
        let ids: Vec<_> = t.main_line().map(|n| n.id().0).collect();
        assert_eq!(ids, [0, 1, 2]);
        let var = t.root().children().nth(1).unwrap();
        let ab = var.get("AB").unwrap();
        assert_eq!(ab.written_id(), "AddBlack");
        assert_eq!(ab.values().map(|v| v.text()).collect::<Vec<_>>(), ["cc", "dd"]);
        assert_eq!(var.parent().unwrap().id(), NodeId(0));
        assert_eq!(t.root().get_value("FF"), Some("4"));
    }

    #[test]
    fn lines_follow_variation_paths() {
        let t = small();
        let ids = |path: &[u32]| t.line(path).map(|line| line.iter().map(|n| n.id().0).collect::<Vec<_>>());
        assert_eq!(ids(&[]), Some(vec![0, 1, 2]));
        assert_eq!(ids(&[1]), Some(vec![0, 3]));
        // Indices past the last branch point are not needed, nor read.
        assert_eq!(ids(&[0, 5]), Some(vec![0, 1, 2]));
        assert_eq!(ids(&[2]), None);
    }

    #[test]
    fn equality_ignores_offsets_but_not_content() {
        let a = small();
        let mut b = GameTreeBuilder::new();
        b.add_node(None, 99);
        b.add_property("FF", None, 99);
        b.add_value("4", 99);
        assert_ne!(a, b.finish());
        assert_eq!(a, small());
    }

    fn kids(t: &GameTree, id: u32) -> Vec<u32> {
        t.node(NodeId(id)).children().map(|n| n.id().0).collect()
    }

    #[test]
    fn siblings_after_deep_subtrees() {
        // 0 ─ 1 ─ 2 ─ 3
        //   ├ 4 ─ 5
        //   │   └ 6
        //   └ 7
        let mut b = GameTreeBuilder::new();
        let parents = [None, Some(0), Some(1), Some(2), Some(0), Some(4), Some(4), Some(0)];
        for p in parents {
            b.add_node(p.map(NodeId), 0);
        }
        let t = b.finish();
        assert_eq!(kids(&t, 0), [1, 4, 7]);
        assert_eq!(kids(&t, 1), [2]);
        assert_eq!(kids(&t, 4), [5, 6]);
        assert!(kids(&t, 7).is_empty());
        assert_eq!(t.node(NodeId(6)).parent().unwrap().id(), NodeId(4));
    }

    #[test]
    fn children_out_of_preorder_still_link() {
        // Not the documented order, but the links stay right.
        let mut b = GameTreeBuilder::new();
        for p in [None, Some(0), Some(0), Some(1), Some(0), Some(1)] {
            b.add_node(p.map(NodeId), 0);
        }
        let t = b.finish();
        assert_eq!(kids(&t, 0), [1, 2, 4]);
        assert_eq!(kids(&t, 1), [3, 5]);
    }

    #[test]
    fn properties_values_and_written_ids_by_position() {
        let mut b = GameTreeBuilder::new();
        b.add_node(None, 0);
        b.add_property("AB", Some("AddBlack"), 0);
        b.add_property("C", None, 0); // no value
        b.add_property("AW", Some("AddWhite"), 0);
        b.add_value("aa", 0);
        b.add_value("bb", 0);
        b.add_node(Some(NodeId(0)), 0); // no property
        b.add_node(Some(NodeId(1)), 0);
        b.add_property("B", None, 0);
        b.add_value("cc", 0);
        let t = b.finish();
        let root: Vec<_> = t.root().properties().map(|p| (p.id(), p.written_id(), p.value_count())).collect();
        assert_eq!(root, [("AB", "AddBlack", 0), ("C", "C", 0), ("AW", "AddWhite", 2)]);
        assert_eq!(t.node(NodeId(1)).properties().len(), 0);
        assert_eq!(t.node(NodeId(2)).get_value("B"), Some("cc"));
    }

    /// The parser marks exactly the lone `B`/`W` nodes on a point in two
    /// lower-case letters; the unmarked ones come out in preorder, across
    /// several 64-node words.
    #[test]
    fn plain_move_marks() {
        let mut sgf = String::from("(;SZ[19]");
        let mut expected = vec![0];
        for i in 1..=150u32 {
            let node = match i % 7 {
                0 => ";B[tt]",
                1 => ";W[pd]C[x]",
                2 => ";B[]",
                3 => ";AB[dd]",
                _ => ";W[dp]",
            };
            // `tt` is two lower-case letters too: marked (a pass is the
            // replay's business).
            if (1..4).contains(&(i % 7)) {
                expected.push(i);
            }
            sgf.push_str(node);
        }
        sgf.push_str("(;B[aa])(;B[Ab]))");
        expected.push(152);
        let parsed = crate::sgf::parse_str(&sgf);
        let tree = &parsed.collection.games[0];
        let unmarked: Vec<u32> = tree.nodes_not_marked_plain_moves().map(|n| n.id().0).collect();
        assert_eq!(unmarked, expected);
        for node in tree.nodes() {
            assert_eq!(tree.is_marked_plain_move(node.id()), !expected.contains(&node.id().0));
        }
        // Built in memory: nothing is marked, every node is looked at.
        assert_eq!(small().nodes_not_marked_plain_moves().count(), small().len());
    }
}
