//! `kifu check --fix -o OUT`: a repaired copy of each file (syntax recovered
//! as the parser read it, charset converted to UTF-8, canonical FF[4] SGF)
//! written to a new path, never over an input, through [`output::replace`].
//!
//! Beyond what the parser recovered, each change to a game is a [`Repair`]
//! (what, where, the text before and after); further repairs join that list.

use std::path::{Path, PathBuf};

use super::output;
use crate::diag::Code;
use crate::formats::{self, Format};
use crate::sgf::{self, Collection, GameTree, GameTreeBuilder, Node, NodeId, ParseOptions, Property, SourceMap};

/// Where repaired copies go: one file (a single input file) or a folder
/// mirroring the inputs.
pub struct FixTarget {
    out: PathBuf,
    single_file: bool,
}

impl FixTarget {
    /// `OUT` is a folder when it is one already or ends with a separator,
    /// or when the only input is a folder or an archive; a file when the
    /// only input is a file. Several inputs need a folder: naming a file
    /// for them is refused rather than turned into a folder.
    pub fn new(out: PathBuf, inputs: &[PathBuf]) -> Result<FixTarget, String> {
        let folder = output::names_folder(&out);
        match inputs {
            [only] if !folder && (only.is_dir() || crate::batch::is_archive(only)) => Ok(FixTarget { out, single_file: false }),
            [_] => Ok(FixTarget { single_file: !folder, out }),
            _ if folder => Ok(FixTarget { out, single_file: false }),
            _ => Err(format!("-o {}: {} inputs need an output folder (an existing one, or a path ending in '/')", out.display(), inputs.len())),
        }
    }

    /// The output folder, unless the output is one file.
    pub fn folder(&self) -> Option<&Path> {
        (!self.single_file).then_some(self.out.as_path())
    }

    /// Where the copy of an input goes: a record of another format gets
    /// `.sgf` after its own extension (`game.gib.sgf`), so no two inputs
    /// share an output.
    pub fn path_for(&self, relative: &Path) -> PathBuf {
        if self.single_file {
            return self.out.clone();
        }
        let other_format = Format::from_name(&relative.to_string_lossy()).is_some_and(|f| f != Format::Sgf);
        let relative = if other_format { PathBuf::from(format!("{}.sgf", relative.display())) } else { relative.to_path_buf() };
        self.out.join(relative)
    }
}

/// One change `--fix` made to a game: the code of what was wrong (the
/// diagnostic it answers, or `file-format` and `charset` for the root's
/// `FF` and `CA`), where (1-based line and column of the input), and the
/// text before and after (empty before: added).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Repair {
    pub code: &'static str,
    pub line: u32,
    pub column: u32,
    pub old: String,
    pub new: String,
}

/// A repaired file and what was changed to get it.
pub struct Repaired {
    pub text: String,
    /// Why the file holds no game (`not-sgf`, `empty-file`), when it holds none.
    pub no_game: Option<String>,
    pub changes: Vec<String>,
}

/// Rewrites one file's games (any record format, see [`formats::read`])
/// as canonical UTF-8 FF[4] SGF, listing the changes.
pub fn repair(bytes: &[u8], name: &str, options: &ParseOptions) -> Repaired {
    let parsed = formats::read(bytes, name, options);
    let mut changes = Vec::new();
    let format = formats::detect(bytes, name);
    if format != Format::Sgf {
        changes.push(format!("converted from {} to SGF", format.describe()));
    }
    if parsed.encoding != encoding_rs::UTF_8 {
        changes.push(format!("converted from {} to UTF-8", parsed.encoding.name()));
    }
    // Old identifiers are listed as repairs, which say more.
    for d in parsed.diagnostics.iter().filter(|d| d.code != Code::OldIdentifier) {
        changes.push(format!("{} at {}:{} ({})", d.code, d.line, d.column, d.message));
    }
    let mut repairs = Vec::new();
    let games = parsed.collection.games.iter().map(|game| canonical_game(game, &parsed.source, &mut repairs)).collect();
    for r in &repairs {
        changes.push(format!("{} at {}:{}: '{}' -> '{}'", r.code, r.line, r.column, r.old, r.new));
    }
    let collection = Collection { games };
    let text = sgf::write_collection(&collection);
    if changes.is_empty() && text.as_bytes() != bytes {
        changes.push("rewritten in canonical form".into());
    }
    let no_game = collection
        .games
        .is_empty()
        .then(|| parsed.diagnostics.iter().find(|d| matches!(d.code, Code::NotSgf | Code::EmptyFile)).map_or("not-sgf", |d| d.code.name()).to_string());
    Repaired { text, no_game, changes }
}

/// The game with FF[4] identifiers (`AddBlack` -> `AB`), and `FF[4]` and
/// `CA[UTF-8]` in its root (added when missing); each change is a repair.
fn canonical_game(game: &GameTree, source: &SourceMap, list: &mut Vec<Repair>) -> GameTree {
    if game.is_empty() {
        return game.clone();
    }
    let mut repairs = Repairs { source, list };
    let mut b = GameTreeBuilder::new();
    b.set_offset(game.offset());
    for node in game.nodes() {
        b.add_node(node.parent().map(|p| p.id()), node.offset());
        let is_root = node.id() == NodeId(0);
        // A missing FF goes first, a missing CA after the leading FF and GM.
        let lead = if is_root { node.properties().take_while(|p| matches!(p.id(), "FF" | "GM")).count() } else { usize::MAX };
        if is_root {
            repairs.add_missing(&mut b, node, "FF");
        }
        for (i, prop) in node.properties().enumerate() {
            if i == lead {
                repairs.add_missing(&mut b, node, "CA");
            }
            if prop.written_id() != prop.id() {
                repairs.add(Code::OldIdentifier.name(), prop.offset(), prop.written_id().to_string(), prop.id().to_string());
            }
            b.add_property(prop.id(), None, prop.offset());
            match root_value(prop.id()).filter(|_| is_root) {
                Some((code, value)) => {
                    let (old, new) = (written(&prop), format!("{}[{value}]", prop.id()));
                    if old != new {
                        repairs.add(code, prop.offset(), old, new);
                    }
                    b.add_value(value, prop.values().next().map_or(prop.offset(), |v| v.offset()));
                }
                None => prop.values().for_each(|v| b.add_value(v.text(), v.offset())),
            }
        }
        if lead == node.properties().len() {
            repairs.add_missing(&mut b, node, "CA");
        }
    }
    b.finish()
}

/// The repairs of one file, located in its source.
struct Repairs<'a> {
    source: &'a SourceMap,
    list: &'a mut Vec<Repair>,
}

impl Repairs<'_> {
    fn add(&mut self, code: &'static str, offset: u32, old: String, new: String) {
        let (line, column) = self.source.line_column(offset);
        self.list.push(Repair { code, line, column, old, new });
    }

    /// Adds the root property `id` (FF or CA) with its value unless the root has it.
    fn add_missing(&mut self, b: &mut GameTreeBuilder, root: Node<'_>, id: &str) {
        let Some((code, value)) = root_value(id).filter(|_| !root.has(id)) else { return };
        self.add(code, root.offset(), String::new(), format!("{id}[{value}]"));
        b.add_property(id, None, root.offset());
        b.add_value(value, root.offset());
    }
}

/// The root properties a copy always declares: its repair code and value.
fn root_value(id: &str) -> Option<(&'static str, &'static str)> {
    match id {
        "FF" => Some(("file-format", "4")),
        "CA" => Some(("charset", "UTF-8")),
        _ => None,
    }
}

/// A property as its values read: `FF[3]`, `CA[GB2312][UTF-8]`.
fn written(prop: &Property<'_>) -> String {
    let values: String = prop.values().map(|v| format!("[{}]", v.text())).collect();
    format!("{}{values}", prop.id())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn repair_lists_recoveries_and_charset() {
        let latin1 = b"(;GM[1]CA[ISO-8859-1]PB[Jos\xe9];B[dd]";
        let repaired = repair(latin1, "x.sgf", &ParseOptions::default());
        assert!(repaired.text.contains("PB[Jos\u{e9}]") && repaired.text.contains("CA[UTF-8]"), "{}", repaired.text);
        assert!(
            repaired.changes.iter().any(|c| c.starts_with("converted from ISO-8859-1") || c.starts_with("converted from windows-1252")),
            "{:?}",
            repaired.changes
        );
        assert!(repaired.changes.iter().any(|c| c.starts_with("missing-close-paren")), "{:?}", repaired.changes);
    }

    #[test]
    fn the_copy_is_canonical_ff4() {
        let repaired = repair(b"(;GaMe[1]FF[3]AddBlack[aa]Comment[hi];Black[cc])", "old.sgf", &ParseOptions::default());
        assert_eq!(repaired.text, "(;GM[1]FF[4]CA[UTF-8]AB[aa]C[hi];B[cc])\n");
        let expected = [
            "old-identifier at 1:3: 'GaMe' -> 'GM'",
            "file-format at 1:10: 'FF[3]' -> 'FF[4]'",
            "charset at 1:2: '' -> 'CA[UTF-8]'",
            "old-identifier at 1:15: 'AddBlack' -> 'AB'",
            "old-identifier at 1:27: 'Comment' -> 'C'",
            "old-identifier at 1:39: 'Black' -> 'B'",
        ];
        assert_eq!(repaired.changes, expected);
    }

    #[test]
    fn a_file_with_no_game_gives_no_copy() {
        for (bytes, why) in [(&b""[..], "empty-file"), (b"\x89PNG\r\n\x1a\n\x00\xff", "not-sgf")] {
            let repaired = repair(bytes, "x.sgf", &ParseOptions::default());
            assert_eq!(repaired.no_game.as_deref(), Some(why));
        }
    }
}
