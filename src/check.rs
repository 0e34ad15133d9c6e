//! Checking one file: parse it and run every check that applies, returning
//! one list of located diagnostics. The batch layer (CLI) calls this per
//! file; this module knows nothing of paths, walking or output formats.

use crate::diag::{Code, Diagnostic};
use crate::replay::{self, RuleOverrides};
use crate::sgf::{self, ParseOptions, SourceMap};

/// Settings for checking a file.
#[derive(Debug, Clone, Copy, Default)]
pub struct CheckOptions {
    pub parse: ParseOptions,
    pub rules: RuleOverrides,
}

/// What checking one file found.
#[derive(Debug)]
pub struct FileCheck {
    /// Diagnostics in file order, each with line and column.
    pub diagnostics: Vec<Diagnostic>,
    /// The decoded text, for source snippets.
    pub source: SourceMap,
    pub games: usize,
    /// B/W move properties in all games and variations.
    pub moves: usize,
}

/// Parses `bytes` and checks every game in it.
pub fn check_bytes(bytes: &[u8], options: &CheckOptions) -> FileCheck {
    let parsed = sgf::parse(bytes, &options.parse);
    let mut diagnostics = parsed.diagnostics;
    let mut moves = 0;
    for (index, game) in parsed.collection.games.iter().enumerate() {
        let found = sgf::validate::check_properties(game);
        let not_go = found.iter().any(|d| d.code == Code::NotGo);
        diagnostics.extend(found.into_iter().map(|d| d.in_game(index)));
        if !not_go {
            let replayed = replay::replay(game, &options.rules);
            moves += replayed.moves;
            diagnostics.extend(replayed.diagnostics.into_iter().map(|d| d.in_game(index)));
        }
    }
    diagnostics.sort_by_key(|d| (d.offset, d.code));
    for d in &mut diagnostics {
        parsed.source.locate(d);
    }
    FileCheck { diagnostics, source: parsed.source, games: parsed.collection.games.len(), moves }
}
