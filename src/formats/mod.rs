//! Game records that are not SGF, read into the same model: Tygem `.gib`
//! ([`gib`]), WBaduk/Oro `.ngf` ([`ngf`]) and Pandanet `.ugf`/`.ugi`
//! ([`ugf`]).
//!
//! [`read`] is the one entry point for every record kifu reads: it chooses
//! the reader by the file's name and, for a name that says nothing (or says
//! `.sgf`), by the first bytes, and returns the same [`Parsed`] as
//! [`sgf::parse`], so checking, scoring and converting work on every format
//! alike. The other formats have no specification; what each reader takes
//! from a file is documented in `docs/formats.md`.
//!
//! The decoded text of the original file is the source map: every node,
//! property and diagnostic points at the line it was read from.

pub mod gib;
pub mod ngf;
pub mod ugf;

use std::sync::Arc;

use encoding_rs::{Encoding, UTF_8};

use crate::diag::{Code, Diagnostic};
use crate::sgf::{self, Collection, GameTree, GameTreeBuilder, NodeId, ParseOptions, Parsed, SourceMap, charset};

/// A record format kifu reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Sgf,
    /// Tygem.
    Gib,
    /// WBaduk (Oro, Cyberoro).
    Ngf,
    /// Pandanet (IGS), `.ugf` and `.ugi`.
    Ugf,
}

/// File extensions of every format kifu reads, lower case: what a folder
/// walk picks up by default.
pub const EXTENSIONS: &[&str] = &["sgf", "gib", "ngf", "ugf", "ugi"];

/// `name` less `suffix` (lower case) written in any case.
fn strip_suffix_ignore_case<'a>(name: &'a [u8], suffix: &[u8]) -> Option<&'a [u8]> {
    let cut = name.len().checked_sub(suffix.len())?;
    name[cut..].eq_ignore_ascii_case(suffix).then_some(&name[..cut])
}

/// Suffixes of single compressed files, stripped before the extension is
/// looked at (`game.gib.bz2` is a Tygem record).
const COMPRESSED: &[&str] = &[".gz", ".bz2", ".xz", ".zst"];

impl Format {
    /// The format a file name says, by its extension in any case (after a
    /// compression suffix); `None` for other extensions.
    pub fn from_name(name: &str) -> Option<Format> {
        // Compared in place, in any case: a lower-case copy of the name was
        // an allocation for each file checked.
        let name = name.as_bytes();
        // `.sgf`, nearly every name: no look for a compression suffix.
        if strip_suffix_ignore_case(name, b".sgf").is_some() {
            return Some(Format::Sgf);
        }
        let name = COMPRESSED.iter().find_map(|s| strip_suffix_ignore_case(name, s.as_bytes())).unwrap_or(name);
        let dot = name.iter().rposition(|&b| b == b'.')?;
        let extension = &name[dot + 1..];
        [(b"sgf", Format::Sgf), (b"gib", Format::Gib), (b"ngf", Format::Ngf), (b"ugf", Format::Ugf), (b"ugi", Format::Ugf)]
            .into_iter()
            .find_map(|(known, format)| extension.eq_ignore_ascii_case(known).then_some(format))
    }

    /// The format the bytes show: a Tygem header, a Pandanet `[Header]`
    /// section or the shape of a WBaduk record; SGF otherwise. Costs one
    /// look at the first byte for a file that starts like SGF.
    pub fn sniff(bytes: &[u8]) -> Format {
        let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
        let start = bytes.iter().position(|b| !b.is_ascii_whitespace()).unwrap_or(bytes.len());
        let head = &bytes[start..];
        if matches!(head.first(), None | Some(b'(' | b';')) {
            Format::Sgf
        } else if head.starts_with(b"\\HS") || head.starts_with(b"\\[") {
            Format::Gib
        } else if head.len() >= 8 && head[..8].eq_ignore_ascii_case(b"[header]") {
            Format::Ugf
        } else if ngf::looks_like(head) {
            Format::Ngf
        } else {
            Format::Sgf
        }
    }

    /// How messages name the format.
    pub fn describe(self) -> &'static str {
        match self {
            Format::Sgf => "SGF",
            Format::Gib => "Tygem GIB",
            Format::Ngf => "WBaduk NGF",
            Format::Ugf => "Pandanet UGF",
        }
    }
}

/// The format a record is read as: the one its name says, unless that is
/// SGF or nothing, when the bytes decide (a Tygem file saved as `.sgf`).
pub fn detect(bytes: &[u8], name: &str) -> Format {
    match Format::from_name(name) {
        Some(format) if format != Format::Sgf => format,
        _ => Format::sniff(bytes),
    }
}

/// Reads one record of any format (see [`detect`]; `name` may be empty).
/// Never fails and never panics: what could not be read is in
/// `diagnostics`, as for [`sgf::parse`].
///
/// ```
/// let gib = b"\\HS\n\\[GAMEBLACKNAME=kim (2D)\\]\n\\HE\n\\GS\nINI 0 1 0 &4\nSTO 0 2 1 15 3\n\\GE\n";
/// let parsed = kifu::formats::read(gib, "game.gib", &Default::default());
/// let game = &parsed.collection.games[0];
/// assert_eq!(game.root().get_value("PB"), Some("kim"));
/// assert_eq!(game.main_line().nth(1).unwrap().get_value("B"), Some("pd"));
/// ```
pub fn read(bytes: &[u8], name: &str, options: &ParseOptions) -> Parsed {
    let format = detect(bytes, name);
    if format == Format::Sgf {
        return sgf::parse(bytes, options);
    }
    let declared = if format == Format::Ugf { ugf::declared_charset(bytes) } else { None };
    let (text, encoding, mut diagnostics) = decode(bytes, options, declared);
    let source = SourceMap::new(Arc::<str>::from(text));
    let text = source.text();
    let mut games = Vec::new();
    if text.trim().is_empty() {
        diagnostics.push(Diagnostic::new(Code::EmptyFile, 0, "the file is empty"));
    } else {
        let mut draft = Draft::new(options.limits.max_nodes);
        let read = match format {
            Format::Gib => gib::read(text, &mut draft, &mut diagnostics),
            Format::Ngf => ngf::read(text, &mut draft, &mut diagnostics),
            Format::Ugf => ugf::read(text, &mut draft, &mut diagnostics),
            Format::Sgf => unreachable!("SGF is read above"),
        };
        match read {
            Ok(()) => {
                if let Some(at) = draft.refused_at {
                    let limit = options.limits.max_nodes.unwrap_or_default();
                    diagnostics.push(Diagnostic::new(
                        Code::LimitExceeded,
                        at,
                        format!("more than {limit} nodes (--max-nodes); the rest of the file was not read"),
                    ));
                }
                games.push(draft.build());
            }
            Err(why) => diagnostics.push(Diagnostic::new(Code::NotSgf, 0, format!("not a {} record: {why}", format.describe()))),
        }
    }
    diagnostics.sort_by_key(|d| d.offset);
    source.locate_all(&mut diagnostics);
    Parsed { collection: Collection { games }, diagnostics, encoding, source }
}

/// A charset the file names itself (Pandanet's `Lang=`).
pub(crate) struct Declared {
    pub(crate) label: String,
    /// How the file says it, for messages: `Lang=SJIS`.
    pub(crate) written: String,
    /// Where it says it (an ASCII header: the same in bytes and text).
    pub(crate) offset: u32,
}

/// Decodes the whole file with [`sgf::charset`]: `--encoding` wins; a
/// charset the file names is used when the bytes fit it (bytes valid as
/// UTF-8 stay UTF-8, as for SGF); otherwise the charset is detected and the
/// same diagnostics as for SGF say so.
fn decode(bytes: &[u8], options: &ParseOptions, declared: Option<Declared>) -> (String, &'static Encoding, Vec<Diagnostic>) {
    // A byte order mark settles it, as for SGF.
    let Some(declared) = declared.filter(|_| options.encoding.is_none() && Encoding::for_bom(bytes).is_none()) else {
        return detected(bytes, options.encoding, "the file does not name its charset and", None);
    };
    let Some(enc) = charset::encoding_for_label(&declared.label) else {
        let message = format!("{} names an unknown charset; it was ignored", declared.written);
        let unknown = Diagnostic::new(Code::UnknownCharset, declared.offset, message);
        return detected(bytes, None, "the file names no charset kifu knows and", Some(unknown));
    };
    if bytes.is_ascii() && enc.is_ascii_compatible() {
        return (String::from_utf8_lossy(bytes).into_owned(), enc, Vec::new());
    }
    if let Ok(text) = std::str::from_utf8(bytes) {
        let why = format!("{} declares {} but the bytes are valid UTF-8; read as UTF-8", declared.written, enc.name());
        let mismatch = (enc != UTF_8).then(|| Diagnostic::new(Code::CharsetMismatch, declared.offset, why));
        return (text.to_string(), UTF_8, mismatch.into_iter().collect());
    }
    if let Some(text) = enc.decode_without_bom_handling_and_without_replacement(bytes) {
        return (text.into_owned(), enc, Vec::new());
    }
    let (text, used, mut diagnostics) = detected(bytes, None, "", None);
    for d in diagnostics.iter_mut().filter(|d| d.code == Code::CharsetDetected) {
        let rest = d.message.strip_prefix(" ").unwrap_or(&d.message);
        d.message = format!("{} declares {} but {rest}", declared.written, enc.name());
        d.code = Code::CharsetMismatch;
        d.severity = Code::CharsetMismatch.default_severity();
        d.offset = declared.offset;
    }
    (text, used, diagnostics)
}

/// [`charset::decode`], its "no CA[]" (an SGF property these formats do not
/// have) said as `instead`.
fn detected(bytes: &[u8], forced: Option<&'static Encoding>, instead: &str, first: Option<Diagnostic>) -> (String, &'static Encoding, Vec<Diagnostic>) {
    let decoded = charset::decode(bytes, forced);
    let mut diagnostics: Vec<Diagnostic> = first.into_iter().collect();
    diagnostics.extend(decoded.diagnostics.into_iter().map(|mut d| {
        if let Some(rest) = d.message.strip_prefix("no CA[] and") {
            d.message = format!("{instead}{rest}");
        }
        d
    }));
    (decoded.text.into_owned(), decoded.encoding, diagnostics)
}

/// Lines of the decoded text with the byte offset where each starts, line
/// endings (`\n`, `\r\n`) removed.
pub(crate) fn lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    let mut offset = 0;
    text.split_inclusive('\n').map(move |line| {
        let start = offset;
        offset += line.len();
        (start, line.trim_end_matches(['\n', '\r']))
    })
}

/// The offset of `part`, a slice of `line`, in the text (`line` starts at
/// `line_offset`).
pub(crate) fn offset_in(line_offset: usize, line: &str, part: &str) -> u32 {
    let at = (part.as_ptr() as usize).checked_sub(line.as_ptr() as usize).filter(|&d| d <= line.len()).unwrap_or(0);
    (line_offset + at) as u32
}

/// The SGF letters of a point, 0-based from the top left (up to 52 lines).
pub(crate) fn point(x: usize, y: usize) -> String {
    let letter = |i: usize| if i < 26 { (b'a' + i as u8) as char } else { (b'A' + (i - 26) as u8) as char };
    [letter(x), letter(y)].iter().collect()
}

/// A number as SGF writes it: `6.5`, `0`, `11` (no trailing `.0`).
pub(crate) fn real(x: f64) -> String {
    format!("{x}")
}

/// A date `Y M D` from its three numbers, as SGF's `DT` writes it.
pub(crate) fn date(year: &str, month: &str, day: &str) -> Option<String> {
    let number = |s: &str, max: u32| s.trim().parse::<u32>().ok().filter(|&n| (1..=max).contains(&n));
    let (y, m, d) = (number(year, 9999)?, number(month, 12)?, number(day, 31)?);
    (year.trim().len() == 4).then(|| format!("{y:04}-{m:02}-{d:02}"))
}

/// Handicap stones as Tygem and WBaduk place them (their records name only
/// the number): the corners in the order lower left, upper right, upper
/// left, lower right (three stones take the upper left corner, not the
/// lower right as in Japan), then the sides and the centre as usual.
/// Empty for boards below 7x7 and numbers outside 2-9.
pub(crate) fn tygem_handicap(size: usize, stones: usize) -> Vec<(usize, usize)> {
    if size < 7 || !(2..=9).contains(&stones) {
        return Vec::new();
    }
    let near = if size >= 13 { 3 } else { 2 };
    let far = size - 1 - near;
    let mut points = vec![(near, far), (far, near), (near, near), (far, far)];
    if size % 2 == 1 && size != 7 {
        let mid = size / 2;
        if stones == 5 {
            points.push((mid, mid));
        }
        points.extend([(near, mid), (far, mid)]);
        if stones == 7 {
            points.push((mid, mid));
        }
        points.extend([(mid, near), (mid, far), (mid, mid)]);
    }
    points.truncate(stones);
    points
}

/// The common shape every reader fills: a tree of nodes whose properties
/// point at the text they were read from, turned into a [`GameTree`] by
/// [`Draft::build`].
pub(crate) struct Draft {
    nodes: Vec<DraftNode>,
    max_nodes: Option<usize>,
    /// Where the first node past `--max-nodes` was refused.
    refused_at: Option<u32>,
}

struct DraftNode {
    children: Vec<usize>,
    /// How deep in the record's variations the node was met: a parent's
    /// children are written in this order (stable), so the game's own
    /// continuation stays the main line whatever order the file lists them.
    level: u32,
    offset: u32,
    props: Vec<DraftProp>,
}

struct DraftProp {
    id: &'static str,
    offset: u32,
    values: Vec<(String, u32)>,
}

/// The root node of every draft.
pub(crate) const ROOT: usize = 0;

/// A stone colour, as the readers find it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Color {
    Black,
    White,
}

impl Color {
    pub(crate) fn id(self) -> &'static str {
        match self {
            Color::Black => "B",
            Color::White => "W",
        }
    }
}

impl Draft {
    fn new(max_nodes: Option<usize>) -> Draft {
        let root = DraftNode { children: Vec::new(), level: 0, offset: 0, props: Vec::new() };
        Draft { nodes: vec![root], max_nodes, refused_at: None }
    }

    /// Sets a root property, `FF`, `GM` and `SZ` first (the rest in the
    /// order the readers find them).
    pub(crate) fn set(&mut self, node: usize, id: &'static str, value: impl Into<String>, offset: u32) {
        let props = &mut self.nodes[node].props;
        match props.iter_mut().find(|p| p.id == id) {
            Some(p) => p.values = vec![(value.into(), offset)],
            None => props.push(DraftProp { id, offset, values: vec![(value.into(), offset)] }),
        }
    }

    /// Adds a value to a node's property (a list: `AB`), or text to a
    /// comment.
    pub(crate) fn add(&mut self, node: usize, id: &'static str, value: impl Into<String>, offset: u32) {
        let props = &mut self.nodes[node].props;
        match props.iter_mut().find(|p| p.id == id) {
            Some(p) if id == "C" => p.values[0].0.push_str(&value.into()),
            Some(p) => p.values.push((value.into(), offset)),
            None => props.push(DraftProp { id, offset, values: vec![(value.into(), offset)] }),
        }
    }

    /// A new last child of `parent` holding one move (`None`: a pass), met
    /// `level` variations deep; `None` once `--max-nodes` is reached.
    pub(crate) fn play(&mut self, parent: usize, color: Color, at: Option<(usize, usize)>, level: u32, offset: u32) -> Option<usize> {
        if self.max_nodes.is_some_and(|max| self.nodes.len() >= max) {
            self.refused_at.get_or_insert(offset);
            return None;
        }
        let value = at.map_or_else(String::new, |(x, y)| point(x, y));
        let props = vec![DraftProp { id: color.id(), offset, values: vec![(value, offset)] }];
        self.nodes.push(DraftNode { children: Vec::new(), level, offset, props });
        let id = self.nodes.len() - 1;
        self.nodes[parent].children.push(id);
        Some(id)
    }

    /// The child of `parent` playing this move, if there is one.
    pub(crate) fn child_playing(&self, parent: usize, color: Color, at: Option<(usize, usize)>) -> Option<usize> {
        let value = at.map_or_else(String::new, |(x, y)| point(x, y));
        self.nodes[parent]
            .children
            .iter()
            .copied()
            .find(|&c| self.nodes[c].props.first().is_some_and(|p| p.id == color.id() && p.values.first().is_some_and(|(v, _)| *v == value)))
    }

    /// The tree, nodes in preorder (an explicit stack: records of any length).
    fn build(mut self) -> GameTree {
        for i in 0..self.nodes.len() {
            let mut children = std::mem::take(&mut self.nodes[i].children);
            children.sort_by_key(|&c| self.nodes[c].level);
            self.nodes[i].children = children;
        }
        let mut b = GameTreeBuilder::new();
        let mut stack: Vec<(usize, Option<NodeId>)> = vec![(ROOT, None)];
        while let Some((index, parent)) = stack.pop() {
            let node = &self.nodes[index];
            let id = b.add_node(parent, node.offset);
            for prop in &node.props {
                b.add_property(prop.id, None, prop.offset);
                for (value, offset) in &prop.values {
                    b.add_value(value, *offset);
                }
            }
            stack.extend(node.children.iter().rev().map(|&c| (c, Some(id))));
        }
        b.finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_choose_the_format_in_any_case_and_through_compression() {
        assert_eq!(Format::from_name("a/b/Game.GIB"), Some(Format::Gib));
        assert_eq!(Format::from_name("x.ugi"), Some(Format::Ugf));
        assert_eq!(Format::from_name("x.Ngf.bz2"), Some(Format::Ngf));
        assert_eq!(Format::from_name("archive.zip!dir/x.sgf"), Some(Format::Sgf));
        assert_eq!(Format::from_name("notes.txt"), None);
        assert_eq!(Format::from_name("gib"), None);
    }

    #[test]
    fn content_decides_for_sgf_names_and_no_names() {
        assert_eq!(detect(b"\xEF\xBB\xBF \\HS\n", "saved-as.sgf"), Format::Gib);
        assert_eq!(detect(b"\r\n[Header]\r\nVer=UGF3\r\n", ""), Format::Ugf);
        assert_eq!(detect(b"Rated game\n19\nA 1D\nB 2D\nsite\n0\n0\n6\n20200101\n5\nBlack wins!\n1\nPMABBREER\n", ""), Format::Ngf);
        assert_eq!(detect(b"(;GM[1])", "odd.gib"), Format::Gib);
        assert_eq!(detect(b"junk (;GM[1])", "x.sgf"), Format::Sgf);
        assert_eq!(detect(b"", ""), Format::Sgf);
    }

    #[test]
    fn tygem_placement() {
        let sgf = |n| tygem_handicap(19, n).into_iter().map(|(x, y)| point(x, y)).collect::<Vec<_>>().join(" ");
        assert_eq!(sgf(2), "dp pd");
        assert_eq!(sgf(3), "dp pd dd");
        assert_eq!(sgf(5), "dp pd dd pp jj");
        assert_eq!(sgf(6), "dp pd dd pp dj pj");
        assert_eq!(sgf(7), "dp pd dd pp dj pj jj");
        assert_eq!(sgf(9), "dp pd dd pp dj pj jd jp jj");
        assert_eq!(tygem_handicap(9, 4).len(), 4);
        assert!(tygem_handicap(19, 10).is_empty() && tygem_handicap(5, 2).is_empty());
    }

    #[test]
    fn dates_and_numbers() {
        assert_eq!(date("2016", " 3", "26").as_deref(), Some("2016-03-26"));
        assert_eq!(date("16", "3", "26"), None);
        assert_eq!(date("2016", "13", "26"), None);
        assert_eq!(real(6.5), "6.5");
        assert_eq!(real(0.0), "0");
        assert_eq!(real(110.0 / 10.0), "11");
    }

    #[test]
    fn variations_follow_the_main_line_whatever_the_file_order() {
        let mut d = Draft::new(None);
        d.set(ROOT, "SZ", "19", 0);
        let a = d.play(ROOT, Color::Black, Some((3, 3)), 0, 1).unwrap();
        d.play(a, Color::White, Some((4, 4)), 1, 2).unwrap(); // a variation, listed first
        d.play(a, Color::White, Some((5, 5)), 0, 3).unwrap();
        let tree = d.build();
        let line: Vec<_> = tree.main_line().skip(1).map(|n| n.properties().next().unwrap().first().unwrap().to_string()).collect();
        assert_eq!(line, ["dd", "ff"]);
        assert_eq!(tree.node(NodeId(1)).child_count(), 2);
    }

    /// Pandanet's `Lang=` against the bytes.
    #[test]
    fn a_declared_charset_is_used_when_the_bytes_fit_it() {
        let ugf = |lang: &str, name: &[u8]| {
            let mut bytes = format!("[Header]\nLang={lang}\nSize=9\nPlayerB=").into_bytes();
            bytes.extend(name);
            bytes.extend(b"\n[Data]\nEE,B1,1,0\n");
            let parsed = read(&bytes, "x.ugf", &ParseOptions::default());
            let codes: Vec<Code> = parsed.diagnostics.iter().map(|d| d.code).collect();
            (parsed.collection.games[0].root().get_value("PB").unwrap().to_string(), parsed.encoding.name(), codes)
        };
        let sjis = encoding_rs::SHIFT_JIS.encode("黒田").0.into_owned();
        assert_eq!(ugf("SJIS", &sjis), ("黒田".into(), "Shift_JIS", vec![]));
        assert_eq!(ugf("SJIS", "黒田".as_bytes()), ("黒田".into(), "UTF-8", vec![Code::CharsetMismatch]));
        assert_eq!(ugf("UTF-8", "黒田".as_bytes()), ("黒田".into(), "UTF-8", vec![]));
        assert_eq!(ugf("SJIS", b"kuroda"), ("kuroda".into(), "Shift_JIS", vec![]));
        let (_, _, codes) = ugf("KLINGON", &sjis);
        assert!(codes.contains(&Code::UnknownCharset), "{codes:?}");
        // GBK bytes invalid in Shift_JIS: detected, and the mismatch said.
        let gbk = encoding_rs::GBK.encode("让子棋柯洁让子棋柯洁").0.into_owned();
        let (name, encoding, codes) = ugf("SJIS", &gbk);
        assert_eq!((name.as_str(), encoding, codes), ("让子棋柯洁让子棋柯洁", "GBK", vec![Code::CharsetMismatch]));
    }

    #[test]
    fn max_nodes_stops_the_record() {
        let mut d = Draft::new(Some(2));
        assert!(d.play(ROOT, Color::Black, None, 0, 5).is_some());
        assert!(d.play(1, Color::White, None, 0, 9).is_none());
        assert_eq!(d.refused_at, Some(9));
    }
}
