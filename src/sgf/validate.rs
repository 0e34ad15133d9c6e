//! SGF-level checks of a parsed game's properties: duplicates, values that
//! do not have the form their type requires, unknown identifiers, root
//! properties outside the root, move and setup mixed in one node, games
//! that are not Go.
//!
//! What a valid value is belongs to [`super::props`] (the catalogue and
//! [`props::check_value`]); this module decides where a problem is and how
//! serious it is. It knows no Go rules: a well-formed move off the board or
//! onto a stone is the rules layer's business.

use std::cell::Cell;
use std::collections::HashSet;

use super::props::{self, BoardSize, Move, PROPERTIES, Point, PointSet, PropInfo, PropKind, ValueType, property_info_by_code};
use super::tree::{GameTree, Node, PropId, Property};
use crate::diag::{Code, Diagnostic, Severity};

/// Checks every property of one game. Diagnostics carry the property's
/// offset; the caller sets `game` and locates them (line, column).
///
/// A game whose `GM` names another game gets one `not-go` and nothing
/// else. Properties the parser already complained about (no value, no
/// identifier) are not reported again.
pub fn check_properties(game: &GameTree) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    // The root's `GM`, `FF` and `SZ` (the first of each, as `Node::get`
    // finds them), as the tree noted them.
    let (gm, ff, sz) = (game.root_first(PropId::GM), game.root_first(PropId::FF), game.root_first(PropId::SZ));
    if let Some((n, gm)) = gm.and_then(|gm| Some((props::game_type_not_go(gm)?, gm))) {
        let message = format!("GM[{n}]: the game is not Go (GM[1]); its properties were not checked");
        out.push(Diagnostic::new(Code::NotGo, gm.offset(), message));
        return out;
    }
    let ff = ff.and_then(|p| p.first()).and_then(|v| props::parse_number(v).ok()).filter(|n| (1..=4).contains(n));
    let mut checker = Checker {
        out,
        size: props::board_size_of(sz).unwrap_or_default(),
        old_format: ff.filter(|&n| n < 4),
        sets: [PointSet::new(), PointSet::new(), PointSet::new()],
    };
    // Most nodes of a game are one move on a point, `;B[pd]`: no
    // duplicate, no mix, no point group, nothing to check. The parser
    // marked those it read; any other is looked at (and found clean).
    for node in game.nodes_not_marked_plain_moves() {
        checker.node(node);
    }
    checker.out
}

struct Checker {
    out: Vec<Diagnostic>,
    /// From the root's `SZ` (19x19 when absent or unreadable): decides
    /// whether `tt` is a pass.
    size: BoardSize,
    /// The root's `FF` when it explicitly says `FF[1]-FF[3]`.
    old_format: Option<i64>,
    /// Points seen in this node by setup, markup and territory properties.
    sets: [PointSet; 3],
}

/// `B` or `W` (`code`, the property's) with one value, a point in two
/// lower-case letters (a point on any board up to 26x26).
#[inline]
fn is_plain_move(prop: Property<'_>, code: PropId) -> bool {
    matches!(code, PropId::B | PropId::W) && prop.only_value().is_some_and(|v| matches!(*v.bytes(), [a, b] if a.is_ascii_lowercase() && b.is_ascii_lowercase()))
}

/// Whether two properties have the same identifier: by number when it
/// has one (see [`PropId`]), else by text.
fn same_id(a: Property<'_>, b: Property<'_>) -> bool {
    a.code() == b.code() && (a.code() != PropId::OTHER || a.id() == b.id())
}

/// A set of numbered identifiers (see [`PropId::index`]).
#[derive(Default)]
struct IdSet([u64; PropId::NUMBERED.div_ceil(64)]);

impl IdSet {
    /// Adds an identifier; `false` when it was already there.
    fn insert(&mut self, id: usize) -> bool {
        let (word, bit) = (id / 64, 1u64 << (id % 64));
        let fresh = self.0[word] & bit == 0;
        self.0[word] |= bit;
        fresh
    }
}

/// The identifiers met so far in a node of up to 64 properties: numbered
/// ones in two sets (seen, seen twice); the others, rare, compared as text
/// with those before them.
#[derive(Default)]
struct Repeats {
    once: IdSet,
    twice: IdSet,
}

impl Repeats {
    /// Whether `prop`, the node's `i`th property, of identifier `code`, is
    /// the second of its identifier in the node.
    fn second(&mut self, node: Node<'_>, i: usize, prop: Property<'_>, code: PropId) -> bool {
        match code.index() {
            Some(id) => !self.once.insert(id) && self.twice.insert(id),
            None => node.properties().take(i).filter(|p| same_id(*p, prop)).count() == 1,
        }
    }
}

/// In [`QUIET`]: the identifier's one value needs no look in the root,
/// or outside it.
const QUIET_IN_ROOT: u8 = 1;
const QUIET_ELSEWHERE: u8 = 2;

/// By identifier (see [`PropId::index`]): where a property of one value
/// has nothing for [`Checker::property`] to look at, when it is text
/// (any text is well formed), in no point group, not a move annotation,
/// and of `FF[4]`; a root property only in the root. The node's loop
/// skips such a property after its look for repeats, where it went
/// through every test of the catalogue's entry (a KGS root has ten).
static QUIET: [u8; PropId::NUMBERED] = {
    let mut table = [0; PropId::NUMBERED];
    let mut i = 0;
    while i < PROPERTIES.len() {
        let info = &PROPERTIES[i];
        let text = matches!(info.value, ValueType::SimpleText | ValueType::Text);
        if text && !info.old && !matches!(info.kind, PropKind::MoveAnnotation) {
            let Some(slot) = PropId::new(info.id).index() else { panic!("catalogued identifiers are numbered") };
            table[slot] = if matches!(info.kind, PropKind::Root) { QUIET_IN_ROOT } else { QUIET_IN_ROOT | QUIET_ELSEWHERE };
        }
        i += 1;
    }
    table
};

/// Whether a property of identifier `code` and one value, in the root
/// or not, is one of [`QUIET`]'s.
#[inline]
fn is_quiet(code: PropId, is_root: bool) -> bool {
    let place = if is_root { QUIET_IN_ROOT } else { QUIET_ELSEWHERE };
    code.index().is_some_and(|i| QUIET[i] & place != 0)
}

thread_local! {
    /// By identifier (see [`PropId::index`]), the last value of one
    /// property [`Checker::values`] found well formed on this thread, as
    /// [`WellFormed::key`] writes it (0 for none).
    static WELL_FORMED: [Cell<u64>; PropId::NUMBERED] = const { [const { Cell::new(0) }; PropId::NUMBERED] };
}

/// Values found well formed before, not checked again: the roots of an
/// archive's games repeat theirs (`GM[1]FF[4]SZ[19]KM[0.50]HA[2]`), and
/// a value well formed in one game is in the next, where its check took
/// about 200 instructions (a KGS root has six or seven).
struct WellFormed;

impl WellFormed {
    /// The place and the key under which [`WELL_FORMED`] remembers the
    /// value of `prop` (identifier `code`, `count` values): the value's
    /// length (plus one) and its bytes, for a property of one value of
    /// at most six bytes whose form does not depend on the board (a move's
    /// does) and whose points are in no group; `None` for any other.
    #[inline]
    fn key(prop: Property<'_>, code: PropId, count: usize, info: &PropInfo) -> Option<(usize, u64)> {
        if count != 1 || info.value == ValueType::Move || point_group(code).is_some() {
            return None;
        }
        let slot = code.index()?;
        let bytes = prop.values().next()?.bytes();
        (bytes.len() <= 6).then(|| (slot, bytes.iter().fold(bytes.len() as u64 + 1, |key, &b| key << 8 | u64::from(b))))
    }

    /// Whether the value of `key` was found well formed before.
    #[inline]
    fn holds((slot, key): (usize, u64)) -> bool {
        WELL_FORMED.with(|values| values[slot].get() == key)
    }

    fn note((slot, key): (usize, u64)) {
        WELL_FORMED.with(|values| values[slot].set(key));
    }
}

/// Properties whose points must be distinct within a node (`FF[4]`).
fn point_group(id: PropId) -> Option<(usize, &'static str)> {
    match id {
        PropId::AB | PropId::AW | PropId::AE => Some((0, "setup (AB, AW, AE)")),
        PropId::CR | PropId::MA | PropId::SL | PropId::SQ | PropId::TR => Some((1, "markup (CR, MA, SL, SQ, TR)")),
        PropId::TB | PropId::TW => Some((2, "territory (TB, TW)")),
        _ => None,
    }
}

impl Checker {
    fn push(&mut self, code: Code, offset: u32, message: String) {
        self.out.push(Diagnostic::new(code, offset, message));
    }

    fn node(&mut self, node: Node<'_>) {
        let is_root = node.id().0 == 0;
        // Identifiers repeated: told in the loop below (the second of each
        // reported as it is met), or before it for a node of more than 64
        // properties. The report comes first of a property's, as when the
        // whole node was looked over for them first (the caller orders a
        // game's reports by offset and code).
        let n = node.properties().len();
        let mut repeats = (2..=64).contains(&n).then(Repeats::default);
        if n > 64 {
            self.repeats_by_text(node);
        }
        let mut grouped = [false; 3];
        let mut first_move: Option<Property<'_>> = None;
        let mut first_setup: Option<Property<'_>> = None;
        let mut mixed_reported = false;
        let mut two_moves_reported = false;
        let mut annotated = false;
        for (i, prop) in node.properties().enumerate() {
            let code = prop.code();
            if let Some(repeats) = &mut repeats
                && repeats.second(node, i, prop, code)
                && !prop.id().is_empty()
            {
                self.repeated(prop);
            }
            let count = prop.value_count();
            // Most of a root: names, ranks, date, place, result, one value
            // each, with nothing else to look at.
            if count == 1 && is_quiet(code, is_root) {
                continue;
            }
            match code {
                PropId::B | PropId::W => {
                    if let Some(m) = first_move.filter(|m| m.code() != code && !two_moves_reported) {
                        two_moves_reported = true;
                        let message = format!("{} and {} in one node: a node holds at most one move", m.id(), prop.id());
                        self.push(Code::DuplicateProperty, prop.offset(), message);
                    }
                    first_move.get_or_insert(prop);
                    if let Some(s) = first_setup.filter(|_| !mixed_reported) {
                        mixed_reported = true;
                        self.mixed(s, prop, prop.offset());
                    }
                }
                PropId::AB | PropId::AW | PropId::AE | PropId::PL => {
                    first_setup.get_or_insert(prop);
                    if let Some(m) = first_move.filter(|_| !mixed_reported) {
                        mixed_reported = true;
                        self.mixed(prop, m, prop.offset());
                    }
                }
                _ => {}
            }
            if let Some((g, _)) = point_group(code) {
                if !grouped[g] {
                    grouped[g] = true;
                    self.sets[g].clear();
                }
            }
            annotated |= self.property(prop, code, count, is_root);
        }
        if first_move.is_none() && annotated {
            self.annotations_without_move(node);
        }
    }

    /// `TE`, `BM`, `DO` and `IT` judge the move of their node: without one
    /// they judge nothing.
    fn annotations_without_move(&mut self, node: Node<'_>) {
        for prop in node.properties() {
            if property_info_by_code(prop.code()).is_some_and(|info| info.kind == PropKind::MoveAnnotation) {
                let message = format!("{}: a move annotation in a node without a move", shown(prop));
                self.push(Code::InvalidValue, prop.offset(), message);
            }
        }
    }

    fn mixed(&mut self, setup: Property<'_>, mv: Property<'_>, offset: u32) {
        let message = format!("node holds both a move ({}) and setup ({}): setup belongs in a node of its own", mv.id(), setup.id());
        self.push(Code::MixedMoveAndSetup, offset, message);
    }

    /// Reports the second occurrence of an identifier in a node.
    fn repeated(&mut self, prop: Property<'_>) {
        let message = format!("property {} appears more than once in this node", prop.id());
        self.push(Code::DuplicateProperty, prop.offset(), message);
    }

    /// [`Checker::repeated`] for each identifier repeated in a node of more
    /// than 64 properties, by text.
    fn repeats_by_text(&mut self, node: Node<'_>) {
        let mut seen = HashSet::new();
        let mut reported = HashSet::new();
        for prop in node.properties() {
            let id = prop.id();
            if !id.is_empty() && !seen.insert(id) && reported.insert(id) {
                self.repeated(prop);
            }
        }
    }

    /// Checks one property; returns whether it is a move annotation (`TE`,
    /// `BM`, `DO`, `IT`), which a node without a move should not hold: the
    /// node's look for those, a second pass over its properties, is only
    /// made when there is one. `code` and `count` (its number of values)
    /// are the property's, read once by the node's loop: each of the
    /// property's views reads its record again.
    fn property(&mut self, prop: Property<'_>, code: PropId, count: usize, is_root: bool) -> bool {
        // Nearly every property of a game is a move on a point: nothing
        // below can object to it (the replay checks the board).
        if is_plain_move(prop, code) {
            return false;
        }
        // No identifier, or no upper-case letter: the parser reported it.
        // (A numbered identifier is upper-case letters.)
        if code == PropId::OTHER && !prop.id().bytes().any(|b| b.is_ascii_uppercase()) {
            return false;
        }
        // From here on the identifier is `info.id`.
        let Some(info) = property_info_by_code(code) else {
            let message = match fox_clock(prop) {
                Some(message) => message,
                None => format!("unknown property {}: not part of SGF FF[4] for Go", excerpt_id(prop.written_id())),
            };
            self.push(Code::UnknownProperty, prop.offset(), message);
            return false;
        };
        let annotation = info.kind == PropKind::MoveAnnotation;
        if info.old && self.old_format.is_none() {
            // Outside an FF[1]-FF[3] file the identifier often means
            // something else: its value is not held to the old type.
            let message = fox_clock(prop).unwrap_or_else(|| format!("{} ({}) is an FF[1]-FF[3] property, not part of FF[4]", info.id, info.name));
            self.push(Code::UnknownProperty, prop.offset(), message);
            return annotation;
        }
        if info.kind == PropKind::Root && !is_root {
            let message = format!("{} outside the root node: root properties belong in the first node", shown(prop));
            self.push(Code::RootPropertyOutsideRoot, prop.offset(), message);
        }
        if count == 0 {
            return annotation; // missing-value, reported by the parser
        }
        if !info.list && count > 1 {
            let message = format!("{}: {} takes one value, found {count}", shown(prop), info.id);
            self.push(Code::InvalidValue, prop.offset(), message);
        }
        // Any text (names, ranks, place, result: most of a root's values)
        // has no form to check, is in no point group and has no `FF[4]`
        // form: nothing more to look at.
        if matches!(info.value, ValueType::SimpleText | ValueType::Text) {
            return annotation;
        }
        let memo = WellFormed::key(prop, code, count, info);
        if !memo.is_some_and(WellFormed::holds) {
            let well_formed = self.values(prop, code, count, info, is_root);
            if let Some(key) = memo.filter(|_| well_formed) {
                WellFormed::note(key);
            }
        }
        if let Some(ff) = self.old_format {
            self.newer_features(prop, info, ff);
        }
        annotation
    }

    /// Checks the form of the values (all of a list, the first otherwise),
    /// then the uniqueness of points within the node, of a property whose
    /// values are not text. `code` and `count` (its number of values) as
    /// [`Checker::property`] read them. Returns whether the values checked
    /// were well formed.
    fn values(&mut self, prop: Property<'_>, code: PropId, count: usize, info: &PropInfo, is_root: bool) -> bool {
        let id = info.id;
        let checked = if info.list { count } else { 1 };
        // A point group's values (lists of points: setup, markup,
        // territory) are read once, for their form and for a point the
        // node names twice.
        let group = point_group(code);
        let mut named_twice = None;
        let mut first_error = None;
        let mut bad = 0usize;
        for v in prop.values().take(checked) {
            let form = match group {
                None => props::check_value(info, v.text(), self.size),
                // Nearly every value of a group is one point (a handicap
                // stone): read in hand, not through the reading of lists
                // and its `Result`.
                Some((g, _)) => match Point::from_letters(v.bytes()) {
                    Some(p) => {
                        if named_twice.is_none() {
                            named_twice = self.first_named_twice(g, (p, p));
                        }
                        Ok(())
                    }
                    None => props::check_point_list_value(info, v.text()).map(|points| {
                        if let (Some(rectangle), None) = (points, named_twice) {
                            named_twice = self.first_named_twice(g, rectangle);
                        }
                    }),
                },
            };
            if let Err(e) = form {
                bad += 1;
                first_error.get_or_insert(e);
            }
        }
        let well_formed = first_error.is_none();
        if let Some(e) = first_error {
            let mut message = e.message;
            if bad > 1 {
                message.push_str(&format!(" (and {} more bad values)", bad - 1));
            }
            // Replay cannot go on without the board size or a stone's point.
            let stops_replay = match id {
                "SZ" => is_root,
                "B" | "W" | "AB" | "AW" | "AE" => true,
                _ => false,
            };
            let severity = if stops_replay {
                Severity::Error
            } else if id == "AP" {
                // AP[foxwq]: a name without ':version' harms nothing, and a
                // third of the real archives measured write it so.
                Severity::Info
            } else {
                Severity::Warning
            };
            self.out.push(Diagnostic::new(Code::InvalidValue, prop.offset(), message).with_severity(severity));
        }
        if info.value == ValueType::ElistOfPoint && count > 1 && prop.values().any(|v| v.text().is_empty()) {
            let message = format!("{}: an empty {id}[] must be the only value of {id}", shown(prop));
            self.push(Code::InvalidValue, prop.offset(), message);
        }
        if let (Some((_, what)), Some(p)) = (group, named_twice) {
            let message = format!("{}[{p}]: point {p} appears twice in this node's {what}", prop.id());
            self.push(Code::InvalidValue, prop.offset(), message);
        }
        well_formed
    }

    /// Adds the points of a rectangle (a point: a rectangle of one) to the
    /// node's set of `group`, up to the first already there, which it
    /// returns: the first point of a property already named in this node
    /// by a property of the same group, and no more are added then.
    fn first_named_twice(&mut self, group: usize, (lo, hi): (Point, Point)) -> Option<Point> {
        for y in lo.y..=hi.y {
            for x in lo.x..=hi.x {
                let p = Point { x, y };
                if !self.sets[group].insert(p) {
                    return Some(p);
                }
            }
        }
        None
    }

    /// In a file that says `FF[1]-FF[3]`, the `FF[4]`-only forms of values.
    fn newer_features(&mut self, prop: Property<'_>, info: &PropInfo, ff: i64) {
        let Some(first) = prop.first() else { return };
        let feature = match info.id {
            "SZ" if first.contains(':') => "a rectangular board size (columns:rows)",
            "VW" | "DD" | "TB" | "TW" if first.is_empty() && prop.value_count() == 1 => "an empty list []",
            "B" | "W" if first.is_empty() && matches!(props::parse_move(first, self.size), Ok(Move::Pass)) => "a pass written [] (older formats write [tt])",
            _ => return,
        };
        let message = format!("{}: {feature} is an FF[4] feature, but the file says FF[{ff}]", shown(prop));
        let d = Diagnostic::new(Code::InvalidValue, prop.offset(), message).with_severity(Severity::Info);
        self.out.push(d);
    }
}

/// What Fox's byo-yomi properties are, outside FF[1]-FF[3] files: Fox
/// writes `TC[3]TT[30]` (beside `TM[1200]`) for 3 periods of 30 seconds.
/// FF[3]'s `TC` (a territory count) only shares the name.
fn fox_clock(prop: Property<'_>) -> Option<String> {
    let what = match prop.id() {
        "TC" => "the number of byo-yomi periods",
        "TT" => "the length of a byo-yomi period in seconds",
        _ => return None,
    };
    Some(format!("{}: {what}, as the Fox server writes it; not part of SGF FF[4]", shown(prop)))
}

/// `ID[value]...` for a message, shortened.
fn shown(prop: Property<'_>) -> String {
    let mut s = String::from(prop.id());
    for (i, v) in prop.values().enumerate() {
        if i == 3 {
            s.push_str("...");
            break;
        }
        s.push('[');
        props::push_excerpt(&mut s, v.text());
        s.push(']');
    }
    s
}

fn excerpt_id(id: &str) -> String {
    if id.chars().count() > 20 {
        let head: String = id.chars().take(20).collect();
        format!("{head}... ({} letters)", id.chars().count())
    } else {
        id.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sgf::{parse, parse_str};

    /// (code, severity, message) of the property checks of the first game.
    fn check(sgf: &str) -> Vec<(&'static str, Severity, String)> {
        let parsed = parse_str(sgf);
        check_properties(&parsed.collection.games[0]).into_iter().map(|d| (d.code.name(), d.severity, d.message)).collect()
    }

    fn codes(sgf: &str) -> Vec<&'static str> {
        check(sgf).into_iter().map(|(c, _, _)| c).collect()
    }

    #[test]
    fn clean_games_have_nothing_to_report() {
        for sgf in [
            "(;FF[4]GM[1]CA[UTF-8]AP[CGoban:3]ST[2]SZ[19]KM[6.5]HA[0]PB[a]PW[b]RE[B+R];B[pd];W[dp];B[];W[tt])",
            "(;FF[4]SZ[9:7]AB[aa:cc][ee]AW[gg]PL[W];W[fa]BL[30.5]OB[3]C[hi]N[x];B[ab]TE[1]MN[4]KO[])",
            "(;GM[1]FF[3]VW[aa:ii];B[tt];W[aa]LB[aa:A][bb:B:c]MA[cc]TR[dd]AR[aa:bb]LN[cc:dd]TB[ee]TW[ff])",
            "(;FF[4]DD[]TB[]TW[]VW[];B[aa]DO[]IT[]BM[2]FG[]PM[1];W[bb]FG[257:dia 1]GB[1]UC[2]V[-1.5])",
        ] {
            assert_eq!(check(sgf), [], "{sgf}");
        }
    }

    #[test]
    fn duplicate_property() {
        assert_eq!(
            check("(;C[text1] C[text2];MA[jj] MA[kk];W[ff] W[ff])"),
            [
                ("duplicate-property", Severity::Warning, "property C appears more than once in this node".into()),
                ("duplicate-property", Severity::Warning, "property MA appears more than once in this node".into()),
                ("duplicate-property", Severity::Warning, "property W appears more than once in this node".into()),
            ]
        );
        // Reported once per identifier, however many repeats.
        assert_eq!(codes("(;C[a]C[b]C[c]N[x])"), ["duplicate-property"]);
        // B and W in one node: two moves.
        assert_eq!(check("(;GM[1];B [aa] W[ab])"), [("duplicate-property", Severity::Warning, "B and W in one node: a node holds at most one move".into())]);
        // Many properties take the hashing path.
        let many: String = (0..70).map(|i| format!("X{}[{i}]", (b'A' + (i % 26) as u8) as char)).collect();
        let found = codes(&format!("(;{many})"));
        assert_eq!(found.iter().filter(|c| **c == "duplicate-property").count(), 26);
    }

    #[test]
    fn invalid_values() {
        let cases: &[(&str, Severity, &str)] = &[
            ("(;SZ[0])", Severity::Error, "SZ[0]: board size must be between 1 and 52"),
            ("(;SZ[-10])", Severity::Error, "SZ[-10]: board size must be between 1 and 52"),
            ("(;SZ[200])", Severity::Error, "SZ[200]: board size must be between 1 and 52"),
            ("(;SZ[10:53])", Severity::Error, "SZ[10:53]: board size must be between 1 and 52"),
            ("(;SZ[19x19])", Severity::Error, "SZ[19x19]: board size must be a number, or columns:rows"),
            ("(;B[a])", Severity::Error, "B[a]: a move must be two letters a-z or A-Z, or empty for a pass"),
            ("(;;W[dundefined])", Severity::Error, "W[dundefined]: a move must be two letters a-z or A-Z, or empty for a pass"),
            ("(;;B[c   c])", Severity::Error, "B[c   c]: a move must be two letters a-z or A-Z, or empty for a pass"),
            ("(;;B[90])", Severity::Error, "B[90]: a move must be two letters a-z or A-Z, or empty for a pass"),
            ("(;AW[])", Severity::Error, "AW[]: empty value where a point is required"),
            ("(;AB[aa][a][b])", Severity::Error, "AB[a]: a point must be two letters a-z or A-Z (and 1 more bad values)"),
            ("(;AE[aa:])", Severity::Error, "AE[aa:]: a rectangle must be two points joined by ':' (aa:cc)"),
            ("(;KM[5 1/2])", Severity::Warning, "KM[5 1/2]: expected a number such as 6.5"),
            ("(;HA[x])", Severity::Warning, "HA[x]: expected a whole number"),
            ("(;;PL [w 123])", Severity::Warning, "PL[w 123]: expected a colour, B or W"),
            ("(;GM[game of go])", Severity::Warning, "GM[game of go]: expected a whole number"),
            ("(;GM[0])", Severity::Warning, "GM[0]: game type must be 1 or more (1 is Go)"),
            ("(;FF[7])", Severity::Warning, "FF[7]: file format must be between 1 and 4"),
            ("(;;AR[a a: c r])", Severity::Warning, "AR[a a: c r]: expected two points joined by ':' (aa:cc)"),
            ("(;;LB[f f:text])", Severity::Warning, "LB[f f:text]: expected a point, ':' and a label (aa:text)"),
            ("(;;LB[aa][bb])", Severity::Warning, "LB[aa]: expected a point, ':' and a label (aa:text) (and 1 more bad values)"),
            ("(;AP[kifu])", Severity::Info, "AP[kifu]: expected name:version, the ':' is missing"),
            ("(;;BL[34.])", Severity::Warning, "BL[34.]: expected a number such as 6.5"),
            ("(;;WL[not much time left])", Severity::Warning, "WL[not much time left]: expected a number such as 6.5"),
            ("(;;OB[1 kk])", Severity::Warning, "OB[1 kk]: expected a whole number"),
            ("(;;DM[])", Severity::Warning, "DM[]: expected 1 (normal) or 2 (emphasised)"),
            ("(;;B[aa]KO[xxxx])", Severity::Warning, "KO[xxxx]: KO takes no value (write KO[])"),
            ("(;TM[9 hours])", Severity::Warning, "TM[9 hours]: expected a number such as 6.5"),
            ("(;;VW[][aa])", Severity::Warning, "VW[][aa]: an empty VW[] must be the only value of VW"),
            ("(;;W[ce][too much values])", Severity::Warning, "W[ce][too much values]: W takes one value, found 2"),
            ("(;;MA[aa][ab][ba][aa])", Severity::Warning, "MA[aa]: point aa appears twice in this node's markup (CR, MA, SL, SQ, TR)"),
            ("(;;TR[aa]MA[aa])", Severity::Warning, "MA[aa]: point aa appears twice in this node's markup (CR, MA, SL, SQ, TR)"),
            ("(;AB[aa:cc]AW[bb])", Severity::Warning, "AW[bb]: point bb appears twice in this node's setup (AB, AW, AE)"),
            ("(;;TB[aa]TW[aa])", Severity::Warning, "TW[aa]: point aa appears twice in this node's territory (TB, TW)"),
        ];
        for (sgf, severity, message) in cases {
            assert_eq!(check(sgf), [("invalid-value", *severity, message.to_string())], "{sgf}");
        }
        // A bad SZ outside the root does not stop replay (the root's counts).
        assert_eq!(
            check("(;;SZ[0])").iter().map(|(c, s, _)| (*c, *s)).collect::<Vec<_>>(),
            [("root-property-outside-root", Severity::Warning), ("invalid-value", Severity::Warning)]
        );
        // Off-board moves are the rules layer's business; tt is a pass up to 19x19 only.
        assert_eq!(codes("(;SZ[9];B[zz];W[tt])"), [] as [&str; 0]);
        assert_eq!(codes("(;SZ[21];B[tt])"), [] as [&str; 0]);
        // Points repeated in different nodes are fine.
        assert_eq!(codes("(;MA[aa];MA[aa]TR[bb])"), [] as [&str; 0]);
    }

    #[test]
    fn unknown_and_old_properties() {
        assert_eq!(
            check("(;XX[unknown property]LONGID[x])"),
            [
                ("unknown-property", Severity::Info, "unknown property XX: not part of SGF FF[4] for Go".into()),
                ("unknown-property", Severity::Info, "unknown property LONGID: not part of SGF FF[4] for Go".into()),
            ]
        );
        let long = "X".repeat(102);
        assert_eq!(check(&format!("(;{long}[long prop id])"))[0].2, "unknown property XXXXXXXXXXXXXXXXXXXX... (102 letters): not part of SGF FF[4] for Go");
        // Old properties: info, unless the file says FF[1]-FF[3].
        assert_eq!(
            check("(;FF[4];L[aa]M[dd];SC[aa])"),
            [
                ("unknown-property", Severity::Info, "L (Letters) is an FF[1]-FF[3] property, not part of FF[4]".into()),
                ("unknown-property", Severity::Info, "M (Mark) is an FF[1]-FF[3] property, not part of FF[4]".into()),
                ("unknown-property", Severity::Info, "SC (Secure stones) is an FF[1]-FF[3] property, not part of FF[4]".into()),
            ]
        );
        assert_eq!(codes("(;KI[11])"), ["unknown-property"]);
        assert_eq!(codes("(;FF[3]KI[11];L[aa]BS[1])"), [] as [&str; 0]);
        // In an FF[1]-FF[3] file their values are checked; elsewhere the
        // identifier may mean something else (Fox's TC[]), so they are not.
        assert_eq!(codes("(;FF[3]KI[5.5])"), ["invalid-value"]);
        assert_eq!(codes("(;FF[4]TC[]KI[5.5][x])"), ["unknown-property", "unknown-property"]);
        // Identifiers the parser already reported are not reported again.
        assert_eq!(codes("(;[aa]B[aa])"), [] as [&str; 0]);
    }

    #[test]
    fn root_property_outside_root() {
        assert_eq!(
            check("(;FF[4];SZ[12]\nRE[john wins])"),
            [("root-property-outside-root", Severity::Warning, "SZ[12] outside the root node: root properties belong in the first node".into())]
        );
        assert_eq!(codes("(;B[aa];FF[4]GM[1]CA[UTF-8]AP[a:b]ST[1])").len(), 5);
        assert_eq!(codes("(;B[aa](;W[bb])(;SZ[9]))"), ["root-property-outside-root"]);
    }

    #[test]
    fn mixed_move_and_setup() {
        assert_eq!(
            check("(;N[main];B[fg] AB[ss][rs])"),
            [("mixed-move-and-setup", Severity::Warning, "node holds both a move (B) and setup (AB): setup belongs in a node of its own".into())]
        );
        assert_eq!(codes("(;AE[aa]W[ba])"), ["mixed-move-and-setup"]);
        assert_eq!(codes("(;PL[B]AW[aa]B[bb]W[cc])"), ["mixed-move-and-setup", "duplicate-property"]);
        // Setup in the root, moves later: fine.
        assert_eq!(codes("(;AB[aa]PL[W];W[bb])"), [] as [&str; 0]);
    }

    #[test]
    fn not_go() {
        assert_eq!(
            check("(;GM[12]FF[4]SZ[0]XX[y];B[a])"),
            [("not-go", Severity::Info, "GM[12]: the game is not Go (GM[1]); its properties were not checked".into())]
        );
        assert_eq!(codes("(;GM[1]FF[4])"), [] as [&str; 0]);
        // Unreadable GM: reported, and the game is checked as Go.
        assert_eq!(codes("(;GM[go];B[a])"), ["invalid-value", "invalid-value"]);
    }

    #[test]
    fn newer_features_in_older_formats() {
        let infos = |sgf: &str| -> Vec<String> { check(sgf).into_iter().filter(|(_, s, _)| *s == Severity::Info).map(|(_, _, m)| m).collect() };
        assert_eq!(
            infos("(;FF[1]SZ[19:25];VW[][aa];VW[])"),
            [
                "SZ[19:25]: a rectangular board size (columns:rows) is an FF[4] feature, but the file says FF[1]",
                "VW[]: an empty list [] is an FF[4] feature, but the file says FF[1]",
            ]
        );
        assert_eq!(infos("(;GM[1]FF[3];B[])"), ["B[]: a pass written [] (older formats write [tt]) is an FF[4] feature, but the file says FF[3]"]);
        // No FF, or FF[4]: nothing to say.
        assert_eq!(infos("(;GM[1];B[])"), [] as [String; 0]);
        assert_eq!(infos("(;FF[4]SZ[19:25];VW[])"), [] as [String; 0]);
    }

    #[test]
    fn offsets_point_at_the_property() {
        let parsed = parse_str("(;FF[4]\n;B[aa]  C[x] C[y])");
        let d = check_properties(&parsed.collection.games[0]);
        assert_eq!(d.len(), 1);
        assert_eq!(d[0].offset, 21);
        let mut located = d[0].clone();
        parsed.source.locate(&mut located);
        assert_eq!((located.line, located.column), (2, 14));
    }

    /// The SGFC torture file: prints what kifu reports, and checks the
    /// problems the comparison table in the report relies on.
    #[test]
    fn sgfc_test_file() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/corpus/suites/sgfc/test-files/test.sgf");
        let Ok(bytes) = std::fs::read(path) else {
            eprintln!("skipped: {path} not found");
            return;
        };
        let parsed = parse(&bytes, &Default::default());
        let mut all = parsed.diagnostics.clone();
        for (i, game) in parsed.collection.games.iter().enumerate() {
            for d in check_properties(game) {
                let mut d = d.in_game(i);
                parsed.source.locate(&mut d);
                all.push(d);
            }
        }
        all.sort_by_key(|d| (d.line, d.column));
        for d in &all {
            eprintln!("{}:{} {} {} {}", d.line, d.column, d.severity, d.code, d.message);
        }
        let has = |line: u32, code: &str| all.iter().any(|d| d.line == line && d.code.name() == code);
        let expected: &[(u32, &str)] = &[
            (11, "unknown-property"),
            (13, "invalid-value"),
            (14, "invalid-value"),
            (15, "invalid-value"),
            (17, "invalid-value"),
            (18, "invalid-value"),
            (19, "not-go"),
            (23, "invalid-value"),
            (25, "invalid-value"),
            (28, "duplicate-property"),
            (30, "mixed-move-and-setup"),
            (31, "unknown-property"),
            (32, "root-property-outside-root"),
            (35, "unknown-property"),
            (37, "duplicate-property"),
            (38, "invalid-value"),
            (40, "unknown-property"),
            (46, "invalid-value"),
            (50, "invalid-value"),
            (52, "invalid-value"),
            // FF[1] and FF[3] games: FF[4]-only forms are flagged.
            (51, "invalid-value"),
            (65, "invalid-value"),
        ];
        for (line, code) in expected {
            assert!(has(*line, code), "line {line}: no {code}");
        }
    }
}
