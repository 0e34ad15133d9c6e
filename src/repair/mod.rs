//! `--fix`'s repairs: every diagnostic whose repair is unambiguous gets
//! one, applied to a copy of each game before it is written as canonical
//! UTF-8 FF[4] SGF. A repair never changes a move, the point of a setup
//! stone or what a value means; what FF[4] cannot hold where it was (the
//! time in `DT[2017.08.09 02:47]`, a second `GN`) is kept in the game's
//! `GC[]` (in `C[]` outside the root), on a line starting
//! [`KEPT_PREFIX`], and the [`Fix`] says where it went.
//!
//! The repairs work on a [`Draft`], an editable copy of the tree, and are
//! listed with the line and column of what they changed in the input.
//! [`repair_of`] says, code by code, what `--fix` does (docs/diagnostics.md
//! is generated from it).

mod date;

use serde::Serialize;

use crate::diag::Code;
use crate::formats::{self, Format};
use crate::provenance;
use crate::replay::{self, RuleOverrides};
use crate::score::result;
use crate::sgf::props::{self, BoardSize, Point, PropKind, ValueType};
use crate::sgf::{self, Collection, GameTree, GameTreeBuilder, ParseOptions, SourceMap};

pub use date::{is_ff4_date, iso_date};

/// How a line of `GC[]` or `C[]` holding what a repair moved there starts.
pub const KEPT_PREFIX: &str = "kifu --fix kept: ";

/// One change `--fix` made to a game: the code of what was wrong (the
/// diagnostic it answers, or `file-format` and `charset` for the root's
/// `FF` and `CA`), where (0-based game, 1-based line and column of the
/// input), the text before and after (empty before: added; empty after:
/// removed), and the property that now holds what the new text could not.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Fix {
    pub code: &'static str,
    pub game: usize,
    pub line: u32,
    pub column: u32,
    pub old: String,
    pub new: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub kept_in: Option<&'static str>,
}

impl std::fmt::Display for Fix {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} at {}:{}: '{}' -> '{}'", self.code, self.line, self.column, self.old, self.new)?;
        if let Some(kept) = self.kept_in {
            write!(f, " (the rest kept in {kept})")?;
        }
        Ok(())
    }
}

/// A repaired file and what was changed to get it.
pub struct Repaired {
    pub text: String,
    /// Why the file holds no game (`not-sgf`, `empty-file`), when it holds none.
    pub no_game: Option<String>,
    /// What the reading changed: another format or charset converted,
    /// syntax the parser recovered (its diagnostics).
    pub changes: Vec<String>,
    /// The repairs of the games' values, in file order within each game.
    pub fixes: Vec<Fix>,
}

/// What `--fix` does about each code: `Some(how)` when it repairs it
/// (every occurrence, or the forms `how` names), `None` when it leaves it.
pub fn repair_of(code: Code) -> Option<&'static str> {
    Some(match code {
        Code::ByteOrderMark => "The copy is UTF-8 without a byte order mark.",
        Code::UnknownCharset | Code::CharsetMismatch | Code::CharsetDetected | Code::MultipleCharsets => {
            "The copy is UTF-8 with `CA[UTF-8]`, converted from the charset the file was read in."
        }
        Code::LeadingJunk | Code::TrailingJunk | Code::MissingOpenParen | Code::MissingCloseParen | Code::UnexpectedCloseParen | Code::MissingSemicolon => {
            "The copy is the tree as it was read, written in canonical form."
        }
        Code::EmptyVariation | Code::UnexpectedChar => "The copy is the tree as it was read, without it.",
        Code::EmptyNode => "The node is dropped (its children take its place), unless it is an empty leaf beside other variations, a line of its own.",
        Code::OldIdentifier => "The identifier is written in its FF[4] form (`AddBlack` -> `AB`), and the root says `FF[4]`.",
        Code::DuplicateProperty => {
            "The values of a property repeated in a node are merged, in order, into its first occurrence (a list keeps each point once). Two moves in one node are left: which came first is not known."
        }
        Code::InvalidValue => {
            "Repaired where the meaning is certain: a property that takes one value keeps its first (a text joins its values; values equal to the first or empty are dropped; any other goes to `GC[]`, or `C[]` outside the root); an empty value FF[4] does not allow is removed (`TM[]`); `AP[name]` becomes `AP[name:]` (`AP[Aya 5.56]` becomes `AP[Aya:5.56]`); a `DT` in another date form becomes ISO (`2017.08.09 02:47` -> `2017-08-09`, the time kept in `GC[]`); a move annotation (`TE`, `BM`, `DO`, `IT`) in a node without a move goes to that node's `C[]`; a pass written `tt` in an FF[1]-FF[3] file becomes `[]`. Other invalid values are left."
        }
        Code::HandicapMismatch => {
            "When no stone is set up and the record shows the standard placement (White moves first, no early move on its points), the stones are set up with `AB`; when the record opens with `HA[n]` Black moves on distinct points and nothing else, then White, they become the root's `AB`. Other mismatches are left."
        }
        Code::ResultSyntax => {
            "An FF[4] result spelled otherwise (`draw`, `B+Resign`, `B+time`) is written in FF[4] form (`0`, `B+R`, `B+T`); a readable result in another form (`White resigns.`) too, the text as written kept in `GC[]`. A margin in Fox's stones is written in points with the komi."
        }
        Code::KomiScaled => {
            "`KM` is written as the komi it means in points (`KM[650]` -> `KM[6.5]`, `KM[375]` -> `KM[7.5]`), and a margin in stones in `RE` in points."
        }
        Code::KomiAssumed => "`KM[0]` of a Fox even game is written as the komi it was played with (`KM[6.5]`).",
        _ => return None,
    })
}

/// Rewrites one file's games (any record format, see [`formats::read`])
/// as canonical UTF-8 FF[4] SGF with their values repaired.
pub fn repair_file(bytes: &[u8], name: &str, options: &ParseOptions) -> Repaired {
    let parsed = formats::read(bytes, name, options);
    let mut changes = Vec::new();
    let format = formats::detect(bytes, name);
    if format != Format::Sgf {
        changes.push(format!("converted from {} to SGF", format.describe()));
    }
    if parsed.encoding != encoding_rs::UTF_8 {
        changes.push(format!("converted from {} to UTF-8", parsed.encoding.name()));
    }
    // Old identifiers and empty nodes are listed as fixes, which say more.
    for d in parsed.diagnostics.iter().filter(|d| !matches!(d.code, Code::OldIdentifier | Code::EmptyNode)) {
        changes.push(format!("{} at {}:{} ({})", d.code, d.line, d.column, d.message));
    }
    let mut fixes = Vec::new();
    let games = parsed.collection.games.iter().enumerate().map(|(i, game)| repair_game(game, i, &parsed.source, &mut fixes)).collect();
    let collection = Collection { games };
    let text = sgf::write_collection(&collection);
    if changes.is_empty() && fixes.is_empty() && text.as_bytes() != bytes {
        changes.push("rewritten in canonical form".into());
    }
    let no_game = collection
        .games
        .is_empty()
        .then(|| parsed.diagnostics.iter().find(|d| matches!(d.code, Code::NotSgf | Code::EmptyFile)).map_or("not-sgf", |d| d.code.name()).to_string());
    Repaired { text, no_game, changes, fixes }
}

/// The game repaired; each repair is pushed to `fixes`.
pub fn repair_game(game: &GameTree, index: usize, source: &SourceMap, fixes: &mut Vec<Fix>) -> GameTree {
    if game.is_empty() {
        return game.clone();
    }
    let root = game.root();
    let ff = root.get_value("FF").and_then(|v| props::parse_number(v).ok()).filter(|n| (1..=4).contains(n));
    let mut r = Repairer {
        draft: Draft::of(game),
        source,
        game: index,
        fixes,
        size: props::board_size(root).unwrap_or_default(),
        // Passes written `tt` are rewritten where FF[4] is not said.
        old_format: ff.is_none_or(|n| n < 4),
        said_old: ff.is_some_and(|n| n < 4),
    };
    r.identifiers(game);
    if props::non_go_game_type(root).is_none() {
        for node in 0..r.draft.nodes.len() {
            r.merge_duplicates(node);
            r.values(node);
            r.single_values(node);
            r.annotations_without_move(node);
        }
        r.komi_and_result(game);
        r.handicap(game);
    }
    r.empty_nodes();
    r.root_format();
    r.draft.build(game.offset())
}

/// An editable copy of a game tree, in preorder.
struct Draft {
    nodes: Vec<DraftNode>,
}

struct DraftNode {
    parent: Option<usize>,
    offset: u32,
    props: Vec<DraftProp>,
    /// Left out of the copy (its children take its place).
    removed: bool,
}

#[derive(Clone)]
struct DraftProp {
    id: String,
    offset: u32,
    values: Vec<DraftValue>,
}

#[derive(Clone)]
struct DraftValue {
    text: String,
    offset: u32,
}

impl DraftProp {
    fn new(id: &str, offset: u32, values: &[&str]) -> DraftProp {
        DraftProp { id: id.to_string(), offset, values: values.iter().map(|t| DraftValue { text: t.to_string(), offset }).collect() }
    }

    /// The property as SGF writes it: `AB[pd][dp]`.
    fn written(&self) -> String {
        let mut s = self.id.clone();
        for v in &self.values {
            s.push('[');
            sgf::writer::escape_into(&v.text, &mut s);
            s.push(']');
        }
        s
    }

    fn info(&self) -> Option<&'static props::PropInfo> {
        props::property_info(&self.id)
    }
}

impl Draft {
    fn of(game: &GameTree) -> Draft {
        let nodes = game
            .nodes()
            .map(|n| DraftNode {
                parent: n.parent().map(|p| p.id().0 as usize),
                offset: n.offset(),
                props: n
                    .properties()
                    .map(|p| DraftProp {
                        id: p.id().to_string(),
                        offset: p.offset(),
                        values: p.values().map(|v| DraftValue { text: v.text().to_string(), offset: v.offset() }).collect(),
                    })
                    .collect(),
                removed: false,
            })
            .collect();
        Draft { nodes }
    }

    /// The first child of a node still in the copy, and how many it has.
    fn children(&self, node: usize) -> Vec<usize> {
        // Children follow their parent in preorder.
        (node + 1..self.nodes.len()).filter(|&c| self.nodes[c].parent == Some(node)).collect()
    }

    fn build(&self, offset: u32) -> GameTree {
        let mut b = GameTreeBuilder::new();
        b.set_offset(offset);
        let mut ids = vec![None; self.nodes.len()];
        for (i, node) in self.nodes.iter().enumerate() {
            if node.removed {
                continue;
            }
            // The nearest ancestor still in the copy: removing a node in
            // preorder keeps its children where it was.
            let mut parent = node.parent;
            while let Some(p) = parent.filter(|&p| ids[p].is_none()) {
                parent = self.nodes[p].parent;
            }
            ids[i] = Some(b.add_node(parent.and_then(|p| ids[p]), node.offset));
            for prop in &node.props {
                b.add_property(&prop.id, None, prop.offset);
                for v in &prop.values {
                    b.add_value(&v.text, v.offset);
                }
            }
        }
        b.finish()
    }
}

struct Repairer<'a> {
    draft: Draft,
    source: &'a SourceMap,
    game: usize,
    fixes: &'a mut Vec<Fix>,
    size: BoardSize,
    /// The file does not say FF[4] (it says FF[1]-FF[3], or nothing).
    old_format: bool,
    /// The file says FF[1]-FF[3]: their properties are held to their types.
    said_old: bool,
}

impl Repairer<'_> {
    fn fix(&mut self, code: &'static str, offset: u32, old: String, new: String, kept_in: Option<&'static str>) {
        let (line, column) = self.source.line_column(offset);
        self.fixes.push(Fix { code, game: self.game, line, column, old, new, kept_in });
    }

    /// The FF[4] form of FF[1]-FF[3] identifiers (`AddBlack` -> `AB`):
    /// the draft holds them already; this lists them.
    fn identifiers(&mut self, game: &GameTree) {
        for node in game.nodes() {
            for prop in node.properties().filter(|p| p.written_id() != p.id()) {
                self.fix(Code::OldIdentifier.name(), prop.offset(), prop.written_id().to_string(), prop.id().to_string(), None);
            }
        }
    }

    /// Keeps `text` (an SGF fragment such as `GN[second]`) in the root's
    /// `GC[]` or another node's `C[]`; says which.
    fn keep(&mut self, node: usize, text: &str) -> &'static str {
        let id = if node == 0 { "GC" } else { "C" };
        let line = format!("{KEPT_PREFIX}{text}");
        let n = &mut self.draft.nodes[node];
        match n.props.iter_mut().find(|p| p.id == id) {
            Some(p) => match p.values.first_mut() {
                Some(v) if !v.text.is_empty() => {
                    v.text.push('\n');
                    v.text.push_str(&line);
                }
                Some(v) => v.text = line,
                None => p.values.push(DraftValue { text: line, offset: p.offset }),
            },
            None => {
                let offset = n.offset;
                n.props.push(DraftProp::new(id, offset, &[&line]));
            }
        }
        id
    }

    /// A property repeated in a node: its values merged into the first
    /// occurrence. Two moves in one node are left alone.
    fn merge_duplicates(&mut self, node: usize) {
        let mut i = 0;
        while i < self.draft.nodes[node].props.len() {
            let id = self.draft.nodes[node].props[i].id.clone();
            let mut j = i + 1;
            while !id.is_empty() && id != "B" && id != "W" && j < self.draft.nodes[node].props.len() {
                let props = &mut self.draft.nodes[node].props;
                if props[j].id != id {
                    j += 1;
                    continue;
                }
                let later = props.remove(j);
                let old = format!("{} {}", props[i].written(), later.written());
                let first = &mut props[i];
                let list = first.info().is_some_and(|info| info.list);
                for v in later.values {
                    // A point listed twice is the same stone or mark.
                    if !(list && first.values.iter().any(|w| w.text == v.text)) {
                        first.values.push(v);
                    }
                }
                let new = first.written();
                self.fix(Code::DuplicateProperty.name(), later.offset, old, new, None);
            }
            i += 1;
        }
    }

    /// Values of the wrong form with a certain repair: empty values FF[4]
    /// does not allow, `AP` without `:version`, `DT` not in ISO form,
    /// passes written `tt` where FF[4] is not said.
    fn values(&mut self, node: usize) {
        let mut i = 0;
        while i < self.draft.nodes[node].props.len() {
            let prop = self.draft.nodes[node].props[i].clone();
            let Some(info) = prop.info().filter(|info| !info.old || self.said_old) else {
                i += 1;
                continue;
            };
            let old = prop.written();
            let mut repaired = prop.clone();
            // Empty values where the type has none: they say nothing.
            let empty_refused = |v: &DraftValue| {
                v.text.is_empty() && (props::check_value(info, "", self.size).is_err() || (info.value == ValueType::ElistOfPoint && prop.values.len() > 1))
            };
            repaired.values.retain(|v| !empty_refused(v));
            if repaired.values.is_empty() {
                self.draft.nodes[node].props.remove(i);
                self.fix(Code::InvalidValue.name(), prop.offset, old, String::new(), None);
                continue;
            }
            let mut kept = None;
            let mut code = Code::InvalidValue.name();
            let first = repaired.values[0].text.clone();
            match info.id {
                "AP" if !first.contains(':') => repaired.values[0].text = application(&first),
                "DT" if !is_ff4_date(&first) => {
                    if let Some((date, rest)) = iso_date(&first) {
                        repaired.values[0].text = date;
                        if !rest.is_empty() {
                            kept = Some(rest);
                        }
                    }
                }
                "B" | "W" if self.old_format && first == "tt" && self.size.width <= 19 && self.size.height <= 19 => {
                    repaired.values[0].text.clear();
                    code = "file-format";
                }
                _ => {}
            }
            let new = repaired.written();
            if new != old {
                let kept_in = kept.map(|rest| self.keep(node, &format!("{}[{rest}]", info.id)));
                self.fix(code, prop.offset, old, new, kept_in);
                self.draft.nodes[node].props[i] = repaired;
            }
            i += 1;
        }
    }

    /// A property that takes one value and has several keeps its first:
    /// a text joins them; values equal to the first or empty go; others
    /// are kept in `GC`/`C`. `FF` and `CA` are the root's business.
    fn single_values(&mut self, node: usize) {
        for i in 0..self.draft.nodes[node].props.len() {
            let prop = &self.draft.nodes[node].props[i];
            let Some(info) = prop.info().filter(|info| !info.list && prop.values.len() > 1 && !matches!(info.id, "FF" | "CA")) else { continue };
            let old = prop.written();
            let mut repaired = prop.clone();
            let first = repaired.values[0].text.clone();
            let rest: Vec<String> = repaired.values.drain(1..).map(|v| v.text).filter(|t| !t.is_empty() && *t != first).collect();
            let mut kept_in = None;
            if info.value == ValueType::Text {
                let joined: Vec<&str> = std::iter::once(first.as_str()).chain(rest.iter().map(String::as_str)).filter(|t| !t.is_empty()).collect();
                repaired.values[0].text = joined.join("\n\n");
                self.draft.nodes[node].props[i] = repaired.clone();
            } else {
                self.draft.nodes[node].props[i] = repaired.clone();
                if !rest.is_empty() {
                    let text: String = rest.iter().map(|t| DraftProp::new(info.id, 0, &[t]).written()).collect::<Vec<_>>().join(" ");
                    kept_in = Some(self.keep(node, &text));
                }
            }
            self.fix(Code::InvalidValue.name(), repaired.offset, old, repaired.written(), kept_in);
        }
    }

    /// `TE`, `BM`, `DO`, `IT` annotate a move: in a node without one they
    /// go to the node's comment.
    fn annotations_without_move(&mut self, node: usize) {
        let props = &self.draft.nodes[node].props;
        if props.iter().any(|p| p.id == "B" || p.id == "W") {
            return;
        }
        let stray: Vec<DraftProp> = props.iter().filter(|p| p.info().is_some_and(|info| info.kind == PropKind::MoveAnnotation)).cloned().collect();
        for prop in stray {
            self.draft.nodes[node].props.retain(|p| p.id != prop.id);
            let kept_in = self.keep(node, &prop.written());
            self.fix(Code::InvalidValue.name(), prop.offset, prop.written(), String::new(), Some(kept_in));
        }
    }

    /// Fox's komi written as the komi it means (through
    /// [`provenance::played_komi`], which decides what Fox meant), a margin in
    /// stones in points, and `RE` in FF[4] form.
    fn komi_and_result(&mut self, game: &GameTree) {
        let root = game.root();
        let (rules, _) = RuleOverrides::default().resolve(root.get_value("RU"));
        let mut notes = Vec::new();
        let komi = provenance::played_komi(root, &rules, &mut notes);
        let note = notes.iter().find(|d| matches!(d.code, Code::KomiScaled | Code::KomiAssumed));
        if let (Some(note), Some(i)) = (note, self.find(0, "KM")) {
            let code = note.code.name();
            let prop = &mut self.draft.nodes[0].props[i];
            let old = prop.written();
            prop.values.truncate(1);
            prop.values[0].text = komi.points.to_string();
            let (new, offset) = (prop.written(), prop.offset);
            self.fix(code, offset, old, new, None);
        }
        for node in 0..self.draft.nodes.len() {
            if let Some(i) = self.find(node, "RE") {
                self.result(node, i, &komi);
            }
        }
    }

    /// One `RE`: a margin in stones written in points; an FF[4] result
    /// spelled otherwise written in FF[4] form.
    fn result(&mut self, node: usize, i: usize, komi: &result::Komi) {
        let prop = self.draft.nodes[node].props[i].clone();
        let Some(text) = prop.values.first().map(|v| v.text.clone()) else { return };
        let Ok(reading) = result::read_result(&text) else { return };
        let scored = matches!(reading.result, result::GameResult::Win { outcome: result::Outcome::Score(_), .. });
        let (code, canonical, keep_written) = if komi.stones && scored && !reading.margin_has_unit {
            (Code::KomiScaled, reading.in_points(komi).canonical(), false)
        } else {
            match reading.notice.as_ref().map(|n| n.kind) {
                Some(result::NoticeKind::Spelling) => (Code::ResultSyntax, reading.result.canonical(), false),
                Some(result::NoticeKind::NonStandard) => (Code::ResultSyntax, reading.result.canonical(), true),
                _ => return,
            }
        };
        // Only a form FF[4] reads back to the same result.
        let reads_back = result::read_result(&canonical).is_ok_and(|r| r.notice.is_none() && r.result == reading.in_points(komi));
        if !reads_back || canonical == text {
            return;
        }
        let old = prop.written();
        self.draft.nodes[node].props[i].values = vec![DraftValue { text: canonical, offset: prop.offset }];
        let new = self.draft.nodes[node].props[i].written();
        let kept_in = keep_written.then(|| self.keep(node, &old));
        self.fix(code.name(), prop.offset, old, new, kept_in);
    }

    /// Handicap stones the record shows but does not set up: Fox's `HA[n]`
    /// with none (the standard placement, where the replay finds it), or
    /// the first `n` Black moves standing for them.
    fn handicap(&mut self, game: &GameTree) {
        let root = game.root();
        let Ok(Some(stones)) = props::handicap(root) else { return };
        let Some(ha) = root.get("HA").map(|p| p.offset()) else { return };
        if let Some(moves) = self.leading_black_moves(stones) {
            let mut old = Vec::new();
            let mut points = Vec::new();
            for &n in &moves {
                self.draft.nodes[n].removed = true;
                old.push(self.draft.nodes[n].props[0].written());
                points.push(self.draft.nodes[n].props[0].values[0].text.clone());
            }
            let at = self.draft.nodes[moves[0]].props[0].offset;
            self.set_up(points, at, old.join(";"));
            return;
        }
        let placement = replay::handicap_to_place(game);
        if !placement.is_empty() {
            self.set_up(placement.iter().map(|p| p.to_sgf()).collect(), ha, String::new());
        }
    }

    /// Adds `AB` with `points` to the root.
    fn set_up(&mut self, points: Vec<String>, at: u32, old: String) {
        let offset = self.draft.nodes[0].offset;
        let refs: Vec<&str> = points.iter().map(String::as_str).collect();
        let ab = DraftProp::new("AB", offset, &refs);
        let new = ab.written();
        self.draft.nodes[0].props.push(ab);
        self.fix(Code::HandicapMismatch.name(), at, old, new, None);
    }

    /// The nodes of the first `stones` moves, when they stand for the
    /// handicap beyond doubt: nothing set up in the root or after it, one
    /// line (no variation) of Black moves on distinct points, each alone
    /// in its node, then White.
    fn leading_black_moves(&self, stones: i64) -> Option<Vec<usize>> {
        let stones = usize::try_from(stones).ok().filter(|n| (2..=9).contains(n))?;
        let nodes = &self.draft.nodes;
        let setup = |n: usize| nodes[n].props.iter().any(|p| matches!(p.id.as_str(), "AB" | "AW" | "AE" | "B" | "W"));
        if setup(0) {
            return None;
        }
        let mut line = Vec::new();
        let mut points: Vec<Point> = Vec::new();
        let mut node = 0;
        while line.len() < stones {
            let [child] = self.draft.children(node)[..] else { return None };
            let [prop] = &nodes[child].props[..] else { return None };
            let value = prop.values.first().filter(|_| prop.id == "B" && prop.values.len() == 1)?;
            let p = Point::parse(&value.text).ok().filter(|p| p.x < self.size.width && p.y < self.size.height && !points.contains(p))?;
            points.push(p);
            line.push(child);
            node = child;
        }
        let after = self.draft.children(node);
        let white_next = after.first().is_some_and(|&n| nodes[n].props.iter().any(|p| p.id == "W"));
        white_next.then_some(line)
    }

    /// Drops the nodes with no property, where that changes no line of
    /// play: a node with at most one child, or its parent's only child
    /// (an empty leaf beside other variations is a line of its own).
    fn empty_nodes(&mut self) {
        let mut children = vec![0usize; self.draft.nodes.len()];
        for p in self.draft.nodes.iter().filter_map(|n| n.parent) {
            children[p] += 1;
        }
        // Whether a node is its parent's only child once the nodes before
        // it are dropped: a dropped node's one child takes its place.
        let mut only_child = vec![false; self.draft.nodes.len()];
        for n in 1..self.draft.nodes.len() {
            let node = &self.draft.nodes[n];
            only_child[n] = node.parent.is_some_and(|p| if self.draft.nodes[p].removed { only_child[p] } else { children[p] == 1 });
            if node.removed || !node.props.is_empty() || (children[n] == 0 && !only_child[n]) {
                continue;
            }
            let offset = node.offset;
            self.draft.nodes[n].removed = true;
            self.fix(Code::EmptyNode.name(), offset, ";".into(), String::new(), None);
        }
    }

    /// The index of property `id` in a node of the draft.
    fn find(&self, node: usize, id: &str) -> Option<usize> {
        self.draft.nodes[node].props.iter().position(|p| p.id == id)
    }

    /// `FF[4]` and `CA[UTF-8]` in the root (added when missing: FF first,
    /// CA after the leading FF and GM), whatever they said.
    fn root_format(&mut self) {
        for (id, code, value) in [("FF", "file-format", "4"), ("CA", "charset", "UTF-8")] {
            match self.find(0, id) {
                Some(i) => {
                    let prop = &mut self.draft.nodes[0].props[i];
                    let old = prop.written();
                    let offset = prop.values.first().map_or(prop.offset, |v| v.offset);
                    prop.values = vec![DraftValue { text: value.to_string(), offset }];
                    let (new, at) = (prop.written(), prop.offset);
                    if new != old {
                        self.fix(code, at, old, new, None);
                    }
                }
                None => {
                    let root = &mut self.draft.nodes[0];
                    let at = if id == "FF" { 0 } else { root.props.iter().take_while(|p| matches!(p.id.as_str(), "FF" | "GM")).count() };
                    let offset = root.offset;
                    let prop = DraftProp::new(id, offset, &[value]);
                    let new = prop.written();
                    root.props.insert(at, prop);
                    self.fix(code, offset, String::new(), new, None);
                }
            }
        }
    }
}

/// `AP` in FF[4]'s `name:version` form: a last word that starts with a
/// digit is the version (`Aya 5.56` -> `Aya:5.56`); otherwise the
/// version is empty (`foxwq` -> `foxwq:`).
fn application(value: &str) -> String {
    let value = value.trim();
    match value.rsplit_once(' ') {
        Some((name, version)) if version.starts_with(|c: char| c.is_ascii_digit()) => format!("{}:{version}", name.trim_end()),
        _ => format!("{value}:"),
    }
}

#[cfg(test)]
mod tests;
