//! Reading and writing SGF: bytes → decoded text → game trees, and back.
//!
//! [`parse`] is the entry point: it decides the charset ([`charset`]),
//! parses the decoded text ([`parser`]) into the lossless model ([`tree`]),
//! and returns every game it could read with every problem it found, each
//! located by line and column ([`source`]). [`props`] reads typed values;
//! [`writer`] turns a model back into SGF.
//!
//! This module knows nothing of Go rules, scoring or report formats.

pub mod charset;
pub mod date;
pub mod parser;
pub mod props;
pub mod source;
pub mod tree;
pub mod validate;
pub mod writer;

pub use parser::Limits;
pub use source::SourceMap;
pub use tree::{Children, Collection, GameTree, GameTreeBuilder, MainLine, Node, NodeId, PropId, Property, Value};
pub use writer::{write_collection, write_game};

use std::sync::Arc;

use crate::diag::Diagnostic;
use encoding_rs::Encoding;

/// How to read a file.
#[derive(Debug, Clone, Copy, Default)]
pub struct ParseOptions {
    /// Charset to use whatever the file declares (`--encoding`).
    pub encoding: Option<&'static Encoding>,
    pub limits: Limits,
}

/// What [`parse`] read from one file.
#[derive(Debug)]
pub struct Parsed {
    pub collection: Collection,
    /// Problems found while decoding and parsing, in file order, located.
    pub diagnostics: Vec<Diagnostic>,
    /// The charset the file was decoded with.
    pub encoding: &'static Encoding,
    /// The decoded text, for line:column and source snippets.
    pub source: SourceMap,
}

/// Decodes and parses one SGF file. Never fails and never panics: what
/// could not be read is reported in `diagnostics` (a file that is not SGF
/// at all gives no games and a `not-sgf` or `empty-file` error).
///
/// ```
/// let parsed = kifu::sgf::parse(b"(;FF[4]SZ[9];B[ee];W[cc])", &Default::default());
/// let game = &parsed.collection.games[0];
/// let moves: Vec<_> = game.main_line().skip(1).map(|n| n.get_value("B").or(n.get_value("W"))).collect();
/// assert_eq!(moves, [Some("ee"), Some("cc")]);
/// ```
pub fn parse(bytes: &[u8], options: &ParseOptions) -> Parsed {
    let decoded = charset::decode(bytes, options.encoding);
    let source = SourceMap::new(Arc::<str>::from(decoded.text.as_ref()));
    let (collection, syntax) = parser::parse_text(source.shared_text(), options.limits);
    // Bytes that hold no game are not SGF: what charset they might be in says nothing.
    let mut diagnostics = if collection.games.is_empty() { Vec::new() } else { decoded.diagnostics };
    diagnostics.extend(syntax);
    diagnostics.sort_by_key(|d| d.offset);
    source.locate_all(&mut diagnostics);
    Parsed { collection, diagnostics, encoding: decoded.encoding, source }
}

/// Parses SGF that is already text (no charset step): for tests and for
/// SGF built in memory.
pub fn parse_str(text: &str) -> Parsed {
    let source = SourceMap::new(text);
    let (collection, mut diagnostics) = parser::parse_text(source.shared_text(), Limits::default());
    source.locate_all(&mut diagnostics);
    Parsed { collection, diagnostics, encoding: encoding_rs::UTF_8, source }
}
