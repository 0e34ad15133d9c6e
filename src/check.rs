//! Checking one file: parse it and run every check that applies, returning
//! one list of located diagnostics. The batch layer (CLI) calls this per
//! file; this module knows nothing of paths, walking or output formats.

use std::time::{Duration, Instant};

use crate::dedup;
use crate::diag::{Code, Diagnostic, Severity};
use crate::formats;
use crate::replay::{self, RuleOverrides};
use crate::score::result::{GameResult, read_result};
use crate::score::{self, DeadStones, ScoreOptions};
use crate::sgf::source::Locator;
use crate::sgf::{self, GameTree, ParseOptions, SourceMap};

/// Settings for checking a file.
#[derive(Debug, Clone, Default)]
pub struct CheckOptions {
    pub parse: ParseOptions,
    pub rules: RuleOverrides,
    /// `--score`: also rescore each game and compare with `RE[]`.
    pub score: Option<ScoreOptions>,
    /// Compute each game's [`dedup::fingerprint`], to find duplicates.
    pub fingerprints: bool,
    /// Stop checking a file after this long (`--timeout-per-file`): the
    /// games not reached are reported, never silently skipped.
    pub timeout: Option<Duration>,
}

/// What checking one file found.
#[derive(Debug)]
pub struct FileCheck {
    /// Diagnostics in file order, each with line and column.
    pub diagnostics: Vec<Diagnostic>,
    /// The decoded text, for source snippets.
    pub source: SourceMap,
    /// Games checked (all of the file's, unless the timeout stopped it).
    pub games: usize,
    /// B/W move properties in all games and variations.
    pub moves: usize,
    /// With `fingerprints`: the games long enough to fingerprint.
    pub fingerprints: Vec<GameFingerprint>,
}

/// One game's identity for duplicate detection.
#[derive(Debug, Clone, Copy)]
pub struct GameFingerprint {
    pub game: usize,
    pub key: u64,
    /// Where the game starts, for a `duplicate-game` diagnostic.
    pub offset: u32,
    pub line: u32,
    pub column: u32,
}

impl FileCheck {
    /// A file that could not be checked (unreadable, too large, kifu
    /// failed on it): one diagnostic, at its start.
    pub fn failed(code: Code, message: String) -> FileCheck {
        let mut d = Diagnostic::new(code, 0, message);
        (d.line, d.column) = (1, 1);
        FileCheck { diagnostics: vec![d], source: SourceMap::default(), games: 0, moves: 0, fingerprints: Vec::new() }
    }

    /// Adds a `duplicate-game` diagnostic for each game seen earlier in
    /// the run (`index`), and records this file's games there as `name`.
    pub fn mark_duplicates(&mut self, name: &str, index: &mut dedup::DuplicateIndex) {
        let repeats = match self.fingerprints.as_slice() {
            // Most files hold one game: its key needs no vector of its own.
            [one] => index.add_file(name, &[(one.game, one.key)]),
            all => index.add_file(name, &all.iter().map(|f| (f.game, f.key)).collect::<Vec<_>>()),
        };
        if repeats.is_empty() {
            return;
        }
        for (game, first) in repeats {
            // Fingerprints are in game order: a search per repeat, not a scan
            // (a collection of many copies of one game has as many repeats).
            let Ok(i) = self.fingerprints.binary_search_by_key(&game, |f| f.game) else { continue };
            let at = &self.fingerprints[i];
            let message = format!("the same game as {} (game {}), up to symmetry and colours", first.file, first.game + 1);
            let mut d = Diagnostic::new(Code::DuplicateGame, at.offset, message).in_game(game);
            (d.line, d.column) = (at.line, at.column);
            self.diagnostics.push(d);
        }
        self.diagnostics.sort_by_key(|d| (d.offset, d.code));
    }
}

/// Reads `bytes` (SGF, or another record format its content shows) and
/// checks every game in it.
pub fn check_bytes(bytes: &[u8], options: &CheckOptions) -> FileCheck {
    check_record(bytes, "", options)
}

/// [`check_bytes`] for a record whose name is known: its extension
/// chooses the format (see [`formats::read`]).
pub fn check_record(bytes: &[u8], name: &str, options: &CheckOptions) -> FileCheck {
    let deadline = options.timeout.map(|t| Instant::now() + t);
    let parsed = formats::read(bytes, name, &options.parse);
    let mut diagnostics = parsed.diagnostics;
    let mut moves = 0;
    let mut games = 0;
    // Room for a fingerprint a game, made at once (most files hold one).
    let mut fingerprints = Vec::with_capacity(if options.fingerprints { parsed.collection.games.len() } else { 0 });
    // Games start in increasing offsets: located in one forward pass,
    // with no line table (a file with nothing to report needs none).
    let mut locator = Locator::new(&parsed.source);
    for (index, game) in parsed.collection.games.iter().enumerate() {
        if deadline.is_some_and(|d| Instant::now() >= d) {
            let timeout = options.timeout.unwrap_or_default().as_secs_f64();
            let left = parsed.collection.games.len() - index;
            let message = format!("--timeout-per-file {timeout} s reached: {left} game(s) from this one on were not checked");
            diagnostics.push(Diagnostic::new(Code::Timeout, game.root().offset(), message).in_game(index));
            break;
        }
        if let Some(key) = options.fingerprints.then(|| dedup::fingerprint(game)).flatten() {
            let offset = game.root().offset();
            let (line, column) = locator.locate(offset);
            fingerprints.push(GameFingerprint { game: index, key, offset, line, column });
        }
        let found = sgf::validate::check_properties(game);
        let not_go = found.iter().any(|d| d.code == Code::NotGo);
        // Most games have nothing to report: no empty list moved over.
        if !found.is_empty() {
            diagnostics.extend(found.into_iter().map(|d| d.in_game(index)));
        }
        if !not_go {
            let replayed = replay::replay(game, &options.rules);
            moves += replayed.moves;
            if let Some(score_options) = &options.score {
                let score_options = ScoreOptions { rules: options.rules, ..score_options.clone() };
                diagnostics.extend(score_checks(game, &replayed, &score_options).into_iter().map(|d| d.in_game(index)));
            }
            if !replayed.diagnostics.is_empty() {
                diagnostics.extend(replayed.diagnostics.into_iter().map(|d| d.in_game(index)));
            }
        }
        games += 1;
    }
    diagnostics.sort_by_key(|d| (d.offset, d.code));
    parsed.source.locate_all(&mut diagnostics);
    FileCheck { diagnostics, source: parsed.source, games, moves, fingerprints }
}

/// `check --score`: the rescore against `RE[]`, and Art. 14 under
/// Japanese rules.
fn score_checks(game: &GameTree, replayed: &replay::Replay, options: &ScoreOptions) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let root = game.root();
    if replayed.rules.repetition_voids {
        let illegal = replayed.diagnostics.iter().find(|d| matches!(d.code, Code::Ko | Code::DoubleMove) && d.severity == Severity::Error);
        if let Some(d) = illegal {
            let offender = if d.color == Some("B") { "Black" } else { "White" };
            let message = format!(
                "{offender} made an illegal move ({} at move {}): under Japanese rules (Art. 14) {offender} loses the game",
                d.code,
                d.move_number.unwrap_or(0)
            );
            out.push(Diagnostic { code: Code::IllegalMoveLoses, severity: Severity::Info, message, ..d.clone() });
        }
    }
    let unjudged;
    let estimates = matches!(options.dead_stones, DeadStones::Auto | DeadStones::Estimate);
    let judged = !estimates || has_countable_result(game);
    let options = if !judged {
        // Nothing to compare the recount with (a resignation, no RE):
        // the komi and result notes stand without judging dead stones.
        unjudged = ScoreOptions { dead_stones: DeadStones::None, ..options.clone() };
        &unjudged
    } else {
        options
    };
    let Ok(scored) = score::score_game(game, options) else { return out };
    // Unjudged, the board was counted as it stands, which says nothing of
    // seki: only the komi and result notes stand.
    out.extend(scored.diagnostics.iter().filter(|d| judged || !matches!(d.code, Code::SekiEyesCounted | Code::ConnectionCounted)).cloned());
    if scored.verdict.cause.is_some() {
        let recorded = scored.recorded.clone().unwrap_or_default();
        let message = format!("RE[{recorded}] but the recount gives {}; {}", scored.result, scored.verdict.explanation());
        let code = if scored.verdict.is_mismatch() { Code::ResultMismatch } else { Code::ResultUnverified };
        let at = root.get("RE").map_or(root.offset(), |p| p.offset());
        out.push(Diagnostic::new(code, at, message));
    }
    out
}

/// Whether `RE[]` holds a result a recount can agree or disagree with: a
/// margin, or a draw.
fn has_countable_result(game: &GameTree) -> bool {
    let Some(re) = game.root().get_value("RE") else { return false };
    read_result(re).is_ok_and(|r| r.result.margin().is_some() || r.result == GameResult::Draw)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_margins_and_draws_are_countable_results() {
        for (re, countable) in [("RE[B+2.5]", true), ("RE[0]", true), ("RE[Draw]", true), ("RE[W+R]", false), ("RE[B+T]", false), ("RE[?]", false), ("", false)]
        {
            let text = format!("(;GM[1]SZ[9]{re};B[ee])");
            let parsed = sgf::parse(text.as_bytes(), &ParseOptions::default());
            assert_eq!(has_countable_result(&parsed.collection.games[0]), countable, "{re}");
        }
    }
}
