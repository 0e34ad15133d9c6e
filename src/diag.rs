//! Diagnostics: the one type every stage (parse, decode, replay, score) reports
//! problems with, and the registry of stable diagnostic codes.
//!
//! Codes are a public contract (tests, CI configurations and users match on
//! them): never rename one; add new ones at the end of their group.
//! This module knows nothing of how diagnostics are printed (see `report`).

use serde::Serialize;
use std::fmt;

use crate::board::Color;
use crate::sgf::props::Point;

/// How serious a diagnostic is. Ordered: `Info < Warning < Error`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Info,
    Warning,
    Error,
}

impl Severity {
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Info => "info",
            Severity::Warning => "warning",
            Severity::Error => "error",
        }
    }
}

impl fmt::Display for Severity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One entry of the code registry.
#[derive(Debug, Clone, Copy)]
pub struct CodeInfo {
    pub name: &'static str,
    pub severity: Severity,
    pub summary: &'static str,
}

macro_rules! codes {
    ($($ident:ident = $name:literal, $sev:ident, $summary:literal;)*) => {
        /// A stable diagnostic code. `code.name()` is the string users see.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub enum Code { $($ident,)* }

        /// Every code, with its default severity and a one-line explanation.
        pub const CODES: &[CodeInfo] = &[
            $(CodeInfo { name: $name, severity: Severity::$sev, summary: $summary },)*
        ];

        impl Code {
            pub const ALL: &'static [Code] = &[$(Code::$ident,)*];
        }
    };
}

codes! {
    // Reading the file.
    Io = "io-error", Error, "The file could not be read.";
    EmptyFile = "empty-file", Error, "The file is empty or holds only white space.";
    NotSgf = "not-sgf", Error, "No game was found in the file (no SGF game tree, or not the Tygem, WBaduk or Pandanet record its name says).";
    SymlinkLoop = "symlink-loop", Warning, "A symbolic link leads back to a folder being walked; it was not followed.";
    InternalError = "internal-error", Error, "kifu failed on this file (a bug: please report it); the other files were checked.";
    UnsupportedArchive = "unsupported-archive", Error, "An archive or compressed file kifu cannot read (by its name: .rar, .lzh, ...); nothing in it was checked.";
    // Charsets.
    ByteOrderMark = "byte-order-mark", Info, "The file starts with a byte order mark, which was honoured.";
    UnknownCharset = "unknown-charset", Warning, "CA[] names a charset kifu does not know; another was used.";
    CharsetMismatch = "charset-mismatch", Warning, "The bytes are not valid in the declared charset; a charset they fit was used.";
    CharsetDetected = "charset-detected", Info, "No usable charset was declared; kifu detected one from the bytes.";
    InvalidBytes = "invalid-bytes", Warning, "Bytes invalid in the charset used were replaced by U+FFFD.";
    MultipleCharsets = "multiple-charsets", Warning, "Game trees in one file declare different charsets; the first was used for the whole file.";
    // Syntax.
    LeadingJunk = "leading-junk", Warning, "Text before the first game tree was ignored.";
    TrailingJunk = "trailing-junk", Warning, "Text after the last game tree was ignored.";
    MissingOpenParen = "missing-open-paren", Warning, "The game tree does not start with '('; it was read from its first ';'.";
    MissingCloseParen = "missing-close-paren", Warning, "A game tree or variation is not closed by ')' before the end of the file.";
    UnexpectedCloseParen = "unexpected-close-paren", Warning, "A ')' closes nothing and was ignored.";
    UnterminatedValue = "unterminated-value", Error, "A property value is not closed by ']' before the end of the file.";
    EmptyNode = "empty-node", Warning, "A node has no properties.";
    MissingValue = "missing-value", Error, "A property identifier has no value.";
    MissingSemicolon = "missing-semicolon", Warning, "Properties appear where a node should start with ';'.";
    EmptyVariation = "empty-variation", Warning, "A variation '()' holds no node and was ignored.";
    ValueWithoutProperty = "value-without-property", Error, "A value '[...]' has no property identifier; it was kept under the previous property or dropped.";
    UnexpectedChar = "unexpected-char", Error, "Characters that are not SGF syntax were skipped.";
    UnescapedBracket = "unescaped-bracket", Warning, "A ']' inside a value is not escaped; it was taken as part of the value.";
    InvalidIdentifier = "invalid-identifier", Warning, "A property identifier has no upper-case letter or is too long.";
    OldIdentifier = "old-identifier", Info, "An FF[1]-FF[3] long identifier was read as its upper-case letters.";
    NodeAfterVariations = "node-after-variations", Error, "Nodes follow the variations of a sequence; they were attached to the last variation.";
    LimitExceeded = "limit-exceeded", Error, "A configured limit was hit; the rest of the input was not read.";
    Timeout = "timeout", Error, "--timeout-per-file was reached; the games not yet checked are named.";
    UnreadableLine = "unreadable-line", Warning, "A line of a Tygem, WBaduk or Pandanet record that kifu cannot read; it was skipped.";
    InconsistentRecord = "inconsistent-record", Warning, "Two parts of a Tygem, WBaduk or Pandanet record disagree (a move count, a move number, a mirrored point); the message says which was followed.";
    // Properties (checked on the model).
    DuplicateProperty = "duplicate-property", Warning, "A property appears twice in one node.";
    InvalidValue = "invalid-value", Warning, "A property value does not have the form its type requires.";
    UnknownProperty = "unknown-property", Info, "A property that is not part of SGF FF[4] for Go.";
    RootPropertyOutsideRoot = "root-property-outside-root", Warning, "A root property (SZ, FF, GM, CA, AP, ST) appears outside the root node.";
    MixedMoveAndSetup = "mixed-move-and-setup", Warning, "A node holds both move and setup properties.";
    NotGo = "not-go", Info, "The game is not Go (GM other than 1); it was skipped.";
    HandicapMismatch = "handicap-mismatch", Warning, "HA[] disagrees with the number of handicap stones set up.";
    UnknownRules = "unknown-rules", Info, "RU[] is missing or not recognised; the game was replayed under Japanese rules.";
    SetupWithoutLiberty = "setup-without-liberty", Warning, "Setup stones were placed with no liberty.";
    // Moves (replay).
    OccupiedPoint = "occupied-point", Error, "A move onto a point that already holds a stone.";
    OffBoard = "off-board", Error, "A move outside the board.";
    Suicide = "suicide", Error, "A move that leaves its own chain without liberty and captures nothing.";
    Ko = "ko", Error, "A single-stone ko retaken at once.";
    Superko = "superko", Error, "A move that recreates an earlier whole-board position under the superko rule in force.";
    DoubleMove = "double-move", Error, "The same colour moves twice in a row with no PL or setup between.";
    RepeatedPosition = "repeated-position", Warning, "A whole-board position repeats where the rules allow it (the game may be void).";
    MoveAfterEnd = "move-after-end", Warning, "A move after two consecutive passes.";
    // Scoring.
    ResultSyntax = "result-syntax", Warning, "RE[] is not a valid SGF result.";
    ResultMismatch = "result-mismatch", Warning, "The recount disagrees with the margin RE[] records.";
    MissingKomi = "missing-komi", Warning, "The game has no usable KM[]; it was scored with komi 0.";
    KomiScaled = "komi-scaled", Info, "KM[] was written x100 (Fox); it was read as points.";
    KomiAssumed = "komi-assumed", Info, "KM[0] in a Fox record of an even game: scored with Fox's 6.5 komi.";
    SekiEyesCounted = "seki-eyes-counted", Info, "The record comes from KGS, whose Japanese scoring counts the eyes of groups in seki unless every chain around the eye touches a seki dame; kifu followed it.";
    IllegalMoveLoses = "illegal-move-loses", Info, "Under Japanese rules (Art. 14) the player who made an illegal move loses the game.";
    // Across files.
    DuplicateGame = "duplicate-game", Info, "The same game (same moves, up to symmetry and colours) was seen earlier in the run.";
}

impl Code {
    pub fn info(self) -> &'static CodeInfo {
        &CODES[self as usize]
    }
    pub fn name(self) -> &'static str {
        self.info().name
    }
    pub fn default_severity(self) -> Severity {
        self.info().severity
    }
    /// Looks a code up by its public name.
    pub fn from_name(name: &str) -> Option<Code> {
        Code::ALL.iter().copied().find(|c| c.name() == name)
    }
}

impl fmt::Display for Code {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl Serialize for Code {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

/// A problem found in a file. `offset` is a byte offset into the decoded
/// (UTF-8) text of the file; `line` and `column` are 1-based, the column
/// counted in characters.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Diagnostic {
    pub code: Code,
    pub severity: Severity,
    pub message: String,
    /// 0-based index of the game tree in the file, when the problem is in one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub game: Option<usize>,
    pub line: u32,
    pub column: u32,
    /// For moves: 1-based count of B/W move properties along the line.
    #[serde(rename = "move", skip_serializing_if = "Option::is_none")]
    pub move_number: Option<u32>,
    /// For moves: `B` or `W`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub color: Option<&'static str>,
    /// For moves: the point as SGF letters (`dd`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub point: Option<String>,
    /// For moves: child indices taken at each branch point from the root,
    /// trailing zeros dropped, so the main line is `[]`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub variation: Option<Vec<u32>>,
    #[serde(skip)]
    pub offset: u32,
    /// For moves on the board: the point and the position the move was
    /// played on, which the text output draws. Boxed: rare, and a
    /// diagnostic without one stays small.
    #[serde(skip)]
    pub focus: Option<Box<Focus>>,
}

/// Where on the board a move diagnostic applies: the point, the colour
/// that played there, and the position the move was played on (before
/// it), whatever the move then did to the board.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Focus {
    pub point: Point,
    pub color: Color,
    pub board: Snapshot,
}

/// A board position, `width` x `height` points.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Snapshot {
    width: u8,
    height: u8,
    /// Row by row from the top (SGF's `y = 0`).
    stones: Box<[Option<Color>]>,
}

impl Snapshot {
    /// The position where `stone(x, y)` gives what is on each point.
    pub fn new(width: u8, height: u8, stone: impl Fn(u8, u8) -> Option<Color>) -> Snapshot {
        let stones = (0..height).flat_map(|y| (0..width).map(move |x| (x, y))).map(|(x, y)| stone(x, y)).collect();
        Snapshot { width, height, stones }
    }

    pub fn width(&self) -> u8 {
        self.width
    }

    pub fn height(&self) -> u8 {
        self.height
    }

    /// The stone on a point (`None` for an empty point or one off the board).
    pub fn stone(&self, x: u8, y: u8) -> Option<Color> {
        if x >= self.width || y >= self.height {
            return None;
        }
        self.stones[usize::from(y) * usize::from(self.width) + usize::from(x)]
    }
}

impl Diagnostic {
    /// A diagnostic with the code's default severity and no position yet.
    pub fn new(code: Code, offset: u32, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            code,
            severity: code.default_severity(),
            message: message.into(),
            game: None,
            line: 0,
            column: 0,
            move_number: None,
            color: None,
            point: None,
            variation: None,
            offset,
            focus: None,
        }
    }

    pub fn with_severity(mut self, severity: Severity) -> Diagnostic {
        self.severity = severity;
        self
    }

    pub fn in_game(mut self, game: usize) -> Diagnostic {
        self.game = Some(game);
        self
    }
}

/// What a user or a repository's policy says of codes: `--allow CODE`
/// drops them, `--deny CODE` makes them errors, `--deny warnings` makes
/// every warning an error.
#[derive(Debug, Clone, Default)]
pub struct Policy {
    pub allow: Vec<Code>,
    pub deny: Vec<Code>,
    pub deny_warnings: bool,
}

impl Policy {
    /// Applies the policy in place, dropping allowed diagnostics.
    pub fn apply(&self, diagnostics: &mut Vec<Diagnostic>) {
        diagnostics.retain(|d| !self.allow.contains(&d.code));
        for d in diagnostics.iter_mut() {
            if self.deny.contains(&d.code) || (self.deny_warnings && d.severity == Severity::Warning) {
                d.severity = Severity::Error;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn registry_matches_enum_order() {
        for (i, code) in Code::ALL.iter().enumerate() {
            assert_eq!(*code as usize, i);
            assert_eq!(Code::from_name(code.name()), Some(*code));
        }
    }

    #[test]
    fn every_code_is_documented() {
        let doc = include_str!("../docs/diagnostics.md");
        for code in CODES {
            assert!(doc.contains(&format!("| `{}` |", code.name)), "docs/diagnostics.md lacks {}", code.name);
        }
    }

    #[test]
    fn code_names_are_unique_kebab_case() {
        let mut names: Vec<_> = CODES.iter().map(|c| c.name).collect();
        names.sort();
        names.dedup();
        assert_eq!(names.len(), CODES.len());
        for name in names {
            assert!(name.chars().all(|c| c.is_ascii_lowercase() || c == '-'), "{name}");
        }
    }
}
