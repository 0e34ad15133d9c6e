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
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    #[default]
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

/// What an explanation shows as its example.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Example {
    /// A record that gives the code when checked (`kifu check --score`):
    /// `kifu explain` shows what kifu says of it, and a test holds each
    /// record to its code.
    Record(&'static str),
    /// A command line that gives the code.
    Command(&'static str),
}

/// A group of codes (a section of docs/diagnostics.md).
#[derive(Debug, Clone, Copy)]
pub struct Group {
    pub title: &'static str,
    /// A paragraph on the whole group, or empty.
    pub intro: &'static str,
}

/// One entry of the code registry.
#[derive(Debug, Clone, Copy)]
pub struct CodeInfo {
    pub name: &'static str,
    pub severity: Severity,
    /// One line: what the code means.
    pub summary: &'static str,
    /// A paragraph: when kifu reports it, what it did about it, and what
    /// to do.
    pub explanation: &'static str,
    pub example: Example,
    /// Index into [`GROUPS`].
    pub group: usize,
}

macro_rules! codes {
    ($([$title:literal, $intro:literal] { $($ident:ident = $name:literal, $sev:ident, $summary:literal, $explanation:literal, $kind:ident $example:literal;)* })*) => {
        /// A stable diagnostic code. `code.name()` is the string users see.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub enum Code { $($($ident,)*)* }

        /// The groups codes are listed in, in order.
        pub const GROUPS: &[Group] = &[$(Group { title: $title, intro: $intro },)*];

        /// Every code, with its default severity, its explanation and an
        /// example, in the order of [`Code`].
        pub const CODES: &[CodeInfo] = &codes!(@infos 0usize; []; $([$($ident = $name, $sev, $summary, $explanation, $kind $example;)*])*);

        impl Code {
            pub const ALL: &'static [Code] = &[$($(Code::$ident,)*)*];
        }
    };
    // Numbers the groups: each group's codes get its index.
    (@infos $group:expr; [$($done:expr,)*]; [$($ident:ident = $name:literal, $sev:ident, $summary:literal, $explanation:literal, $kind:ident $example:literal;)*] $($rest:tt)*) => {
        codes!(@infos $group + 1; [$($done,)* $(CodeInfo {
            name: $name,
            severity: Severity::$sev,
            summary: $summary,
            explanation: $explanation,
            example: Example::$kind($example),
            group: $group,
        },)*]; $($rest)*)
    };
    (@infos $group:expr; [$($done:expr,)*];) => { [$($done,)*] };
}

codes! {
    ["Reading the file", ""] {
        Io = "io-error", Error,
            "The file could not be read.",
            "A path named on the command line, or an entry met in a walk, could not be opened or read: it does not exist, permissions forbid it, or reading failed. kifu says so on standard error too (the report may be going to a file), goes on with the other files, and exits with status 2.",
            Command "kifu check no-such-file.sgf";
        EmptyFile = "empty-file", Error,
            "The file is empty or holds only white space.",
            "There is no game to read. Often a download or an export that failed; `--fix` writes no copy of it.",
            Command "printf '\\n\\n' > empty.sgf; kifu check empty.sgf";
        NotSgf = "not-sgf", Error,
            "No game was found in the file (no SGF game tree, or not the Tygem, WBaduk or Pandanet record its name says).",
            "The file has a name kifu picks up (`.sgf`, `.gib`, `.ngf`, `.ugf`, `.ugi`, or an `--ext`) but holds no game: no `(;`...`)` game tree, or not the record its name says; a text file, binary data. Nothing else is reported for it. A file that holds only a path ending `.sgf` is named so: it is most likely a symbolic link that git checked out as a text file (`core.symlinks` off).",
            Record "This is a text file with a .sgf name. It holds no game at all.";
        SymlinkLoop = "symlink-loop", Warning,
            "A symbolic link leads back to a folder being walked; it was not followed.",
            "Walks follow symbolic links; one that points to a folder the walk is already inside would make it endless, so it is skipped, and the walk goes on.",
            Command "mkdir -p games && ln -s .. games/up && kifu check games";
        InternalError = "internal-error", Error,
            "kifu failed on this file (a bug: please report it); the other files were checked.",
            "kifu itself failed on this file (a panic it caught). The other files were checked as usual. It is a bug in kifu whatever the file holds: please report it with the file.",
            Command "kifu check game.sgf   # game.sgf:1:1: error[internal-error]: kifu failed on this file (a bug: please report it with the file)";
        UnsupportedArchive = "unsupported-archive", Error,
            "An archive or compressed file kifu cannot read (by its name: .rar, .lzh, ...); nothing in it was checked.",
            "An archive or compressed file of a kind kifu does not read, known by its name (`.rar`, `.lzh`, `.cab`, `.arj`, `.lz`, `.lzma`, `.Z`, ...): nothing in it was checked, and it is never read as a game record. Named on the command line it is an error; found in a folder walk it is a warning. Unpack it, or convert it to `.zip`, `.tar.gz` or `.7z`, which kifu reads in place.",
            Command "kifu check games-2019.rar";
    }
    ["Charsets", ""] {
        ByteOrderMark = "byte-order-mark", Info,
            "The file starts with a byte order mark, which was honoured.",
            "A UTF-8 or UTF-16 byte order mark opens the file. It decided the charset (over any `CA[]`); nothing is wrong, it is only said. `--fix` copies drop it.",
            Record "\u{feff}(;GM[1]FF[4]SZ[9];B[ee])";
        UnknownCharset = "unknown-charset", Warning,
            "CA[] names a charset kifu does not know; another was used.",
            "The name in `CA[]` is no charset kifu knows (it knows the WHATWG encoding names and their usual aliases): the bytes were read as UTF-8 when they are valid UTF-8, otherwise in the charset detected from them. `--encoding NAME` reads the file in a charset you name.",
            Record "(;GM[1]FF[4]CA[Klingon]SZ[9];B[ee])";
        CharsetMismatch = "charset-mismatch", Warning,
            "The bytes are not valid in the declared charset; a charset they fit was used.",
            "`CA[]` names a charset the bytes cannot be in (most often `CA[UTF-8]` on a file written in GB2312 or Latin-1), so kifu read them in one they fit. Check the names in the record; `--encoding NAME` forces a charset.",
            Command "printf '(;GM[1]FF[4]CA[UTF-8]PB[\\xb3\\xa3\\xea\\xbb];B[ee])' > t.sgf; kifu check t.sgf";
        CharsetDetected = "charset-detected", Info,
            "No usable charset was declared; kifu detected one from the bytes.",
            "The file has no `CA[]` (or one kifu cannot use) and its bytes are not UTF-8: kifu guessed the charset from them (GB18030, Shift_JIS, EUC-KR, Latin-1...) and says which. A guess can be wrong on short texts; `--encoding NAME` decides.",
            Command "printf '(;GM[1]FF[4]PB[\\xb3\\xa3\\xea\\xbb\\xd6\\xd0\\xb9\\xfa];B[ee])' > t.sgf; kifu check t.sgf";
        InvalidBytes = "invalid-bytes", Warning,
            "Bytes invalid in the charset used were replaced by U+FFFD.",
            "Some bytes are not valid in the charset the file was read in, typically a name cut in the middle of a UTF-8 character (as the Fox server writes them). Each run of such bytes became U+FFFD (the replacement character); the rest of the file is intact.",
            Command "printf '(;GM[1]FF[4]CA[UTF-8]PB[\\xe6\\x9f];B[ee])' > t.sgf; kifu check t.sgf";
        MultipleCharsets = "multiple-charsets", Warning,
            "Game trees in one file declare different charsets; the first was used for the whole file.",
            "A collection whose games declare different `CA[]` values: one file has one charset, so the first game's was used throughout, and the names of the other games may read wrong.",
            Record "(;GM[1]FF[4]CA[UTF-8]SZ[9];B[ee])(;GM[1]FF[4]CA[ISO-8859-1]SZ[9];B[ee])";
    }
    ["Syntax", ""] {
        LeadingJunk = "leading-junk", Warning,
            "Text before the first game tree was ignored.",
            "Something other than white space comes before the first `(`: a mail header, a note, a web page around the record. It was skipped; the message quotes the start of it.",
            Record "Game record from the club evening, see below.\n(;GM[1]FF[4]SZ[9];B[ee])";
        TrailingJunk = "trailing-junk", Warning,
            "Text after the last game tree was ignored.",
            "Something other than white space follows the last game tree's `)`. It was skipped; the message quotes the start of it.",
            Record "(;GM[1]FF[4]SZ[9];B[ee])\n--- saved by some client";
        MissingOpenParen = "missing-open-paren", Warning,
            "The game tree does not start with '('; it was read from its first ';'.",
            "The record begins with `;` where `(;` should be (Fox files sometimes lose their first byte). The tree was read from that `;`, root included, as if the `(` were there.",
            Record ";GM[1]FF[4]SZ[9];B[ee];W[cc])";
        MissingCloseParen = "missing-close-paren", Warning,
            "A game tree or variation is not closed by ')' before the end of the file.",
            "The file ends inside a game tree or a variation, often a truncated download. Everything up to the end was read.",
            Record "(;GM[1]FF[4]SZ[9];B[ee];W[cc]";
        UnexpectedCloseParen = "unexpected-close-paren", Warning,
            "A ')' closes nothing and was ignored.",
            "A `)` where no game tree or variation is open: one too many at the end of a record, or a tree closed twice.",
            Record "(;GM[1]FF[4]SZ[9];B[ee];W[cc]))";
        UnterminatedValue = "unterminated-value", Error,
            "A property value is not closed by ']' before the end of the file.",
            "A value opened by `[` runs to the end of the file: its `]` is missing (or was escaped by a stray `\\`). The value was cut at the end of the file, so whatever followed it is inside it.",
            Record "(;GM[1]FF[4]SZ[9];B[ee];W[cc]C[this comment never ends";
        EmptyNode = "empty-node", Warning,
            "A node has no properties.",
            "A `;` with no property after it (`;;`). It was kept as an empty node, which `--fix` copies drop.",
            Record "(;GM[1]FF[4]SZ[9];B[ee];;W[cc])";
        MissingValue = "missing-value", Error,
            "A property identifier has no value.",
            "An identifier with no `[...]` after it, such as `B` alone. The property was dropped: in a move node the move is lost, which usually gives a `double-move` later.",
            Record "(;GM[1]FF[4]SZ[9];B;W[cc])";
        MissingSemicolon = "missing-semicolon", Warning,
            "Properties appear where a node should start with ';'.",
            "Properties follow a `(` or a `)` with no `;` to start their node. They were read as a node of their own.",
            Record "(GM[1]FF[4]SZ[9];B[ee];W[cc])";
        EmptyVariation = "empty-variation", Warning,
            "A variation '()' holds no node and was ignored.",
            "A pair of parentheses with nothing inside. Dropped; nothing is lost.",
            Record "(;GM[1]FF[4]SZ[9];B[ee]())";
        ValueWithoutProperty = "value-without-property", Error,
            "A value '[...]' has no property identifier; it was kept under the previous property or dropped.",
            "A `[...]` that no identifier comes before. Right after a property it was taken as one more value of it; after a `;` it had no property to belong to and was dropped, so a move may be lost.",
            Record "(;GM[1]FF[4]SZ[9];[ee];W[cc])";
        UnexpectedChar = "unexpected-char", Error,
            "Characters that are not SGF syntax were skipped.",
            "Between nodes and properties SGF allows only white space, identifiers, values, `;`, `(` and `)`. The characters quoted were skipped, and reading went on after them.",
            Record "(;GM[1]FF[4]SZ[9];B[ee] @@@ ;W[cc])";
        UnescapedBracket = "unescaped-bracket", Warning,
            "A ']' inside a value is not escaped; it was taken as part of the value.",
            "A value holds a `]` that should have been written `\\]`: what follows it did not read as SGF, so the `]` was taken as part of the value (`US[Matsuyama[3d]]` keeps `Matsuyama[3d]`).",
            Record "(;GM[1]FF[4]SZ[9]US[Matsuyama[3d]];B[ee])";
        InvalidIdentifier = "invalid-identifier", Warning,
            "A property identifier has no upper-case letter or is too long.",
            "FF[4] identifiers are upper-case letters; this one has none (`b[ee]`) or is longer than any real property. It was kept as written, and means nothing to kifu.",
            Record "(;GM[1]FF[4]SZ[9];b[ee])";
        OldIdentifier = "old-identifier", Info,
            "An FF[1]-FF[3] long identifier was read as its upper-case letters.",
            "FF[1]-FF[3] allowed lower-case letters in identifiers (`AddBlack`, `CoPyright`); they are read as their upper-case letters (`AB`, `CP`), as FF[4] says. `--fix` copies write the short form.",
            Record "(;FF[3]GaMe[1]SiZe[9]AddBlack[cc];White[ee])";
        NodeAfterVariations = "node-after-variations", Error,
            "Nodes follow the variations of a sequence; they were attached to the last variation.",
            "In SGF, variations end a sequence: `(;A(;B)(;C);D)` is not a tree. The nodes after the variations were attached to the end of the last variation, the likeliest meaning.",
            Record "(;GM[1]FF[4]SZ[9];B[ee](;W[cc]);W[gg])";
        LimitExceeded = "limit-exceeded", Error,
            "A configured limit was hit; the rest of the input was not read.",
            "One of the limits that bound hostile input was reached: `--max-bytes N` (the size of a file or archive member: it is not read at all), `--max-nodes N` (nodes in the whole file) or `--max-variations N` (variations in the whole file, counted in file order, the main line first). The message names the one hit; raise it to read such files.",
            Command "kifu check --max-nodes 2 game.sgf";
        Timeout = "timeout", Error,
            "--timeout-per-file was reached; the games not yet checked are named.",
            "`--timeout-per-file S` stops checking a file between two games once S seconds have passed, so one huge collection cannot hold up a run. The message says how many games were left unchecked; they are not counted in the summary.",
            Command "kifu check --timeout-per-file 0.1 huge-collection.sgf";
        UnreadableLine = "unreadable-line", Warning,
            "A line of a Tygem, WBaduk or Pandanet record that kifu cannot read; it was skipped.",
            "A line of a Tygem (`.gib`), WBaduk (`.ngf`) or Pandanet (`.ugf`, `.ugi`) record that kifu cannot read: a move line without a point, a point off the board, a line of unknown kind among the moves. It was skipped, and the message says why; a skipped move often gives a `double-move` after it.",
            Command "kifu check game.gib";
        InconsistentRecord = "inconsistent-record", Warning,
            "Two parts of a Tygem, WBaduk or Pandanet record disagree (a move count, a move number, a mirrored point); the message says which was followed.",
            "Tygem, WBaduk and Pandanet records say some things twice: a move number on each move line, a move count in the header, WBaduk's mirrored copy of each point. Here two of them disagree (a number out of sequence, a count against the moves read), and the message says which one kifu followed.",
            Command "kifu check game.ngf";
    }
    ["Properties (checked on the model)", ""] {
        DuplicateProperty = "duplicate-property", Warning,
            "A property appears twice in one node.",
            "An identifier appears twice in one node (`AP` twice in Fox roots), or a node holds both a B and a W move. Both were kept; the first is the one kifu reads.",
            Record "(;GM[1]FF[4]SZ[9]AP[foxwq]AP[foxwq];B[ee])";
        InvalidValue = "invalid-value", Warning,
            "A property value does not have the form its type requires.",
            "A value that is not what FF[4] says its property holds: a number that is no number (`HA[x]`), a point off the alphabet, a clock string in `TM[]`, several values where one is allowed. The value is kept as written; a typed reading of it fails. Some (an FF[4] feature in an FF[3] file, an `AP` without its version) are only info.",
            Record "(;GM[1]FF[4]SZ[9]HA[x];B[ee])";
        UnknownProperty = "unknown-property", Info,
            "A property that is not part of SGF FF[4] for Go.",
            "An identifier FF[4] does not define for Go: a server's own (Fox's `TC` and `TT` byo-yomi, `RL`), an AI tool's (`MD`, `SY`), or an FF[1]-FF[3] property in a newer file. It is kept unchanged, in `--fix` copies too.",
            Record "(;GM[1]FF[4]SZ[9]XY[something];B[ee])";
        RootPropertyOutsideRoot = "root-property-outside-root", Warning,
            "A root property (SZ, FF, GM, CA, AP, ST) appears outside the root node.",
            "Root properties describe the whole file and belong in the first node; one later in the tree was kept but not applied (a `SZ` there does not resize the board).",
            Record "(;GM[1]FF[4]SZ[9];B[ee]SZ[19];W[cc])";
        MixedMoveAndSetup = "mixed-move-and-setup", Warning,
            "A node holds both move and setup properties.",
            "FF[4] keeps moves (B, W) and setup (AB, AW, AE, PL) in separate nodes. kifu applied the setup first, then the move.",
            Record "(;GM[1]FF[4]SZ[9];B[ee]AW[cc])";
        NotGo = "not-go", Info,
            "The game is not Go (GM other than 1); it was skipped.",
            "`GM[]` names another game (SGF also records Othello, chess, backgammon...): its moves were not replayed and `kifu score` does not count it.",
            Record "(;GM[2]FF[4]SZ[8];B[dc])";
        HandicapMismatch = "handicap-mismatch", Warning,
            "HA[] disagrees with the number of handicap stones set up.",
            "`HA[n]` with a different number of `AB` stones in the root (or, as Fox writes them, in the node after it). When no stone is set up at all, White moves first and no early move lands on a standard handicap point, kifu replays with the standard placement and says so.",
            Record "(;GM[1]FF[4]SZ[19]RU[Japanese]HA[3]AB[dd][pp];W[pd];B[dp])";
        UnknownRules = "unknown-rules", Info,
            "RU[] is missing or not recognised; the game was replayed under Japanese rules.",
            "The game has no `RU[]`, or one kifu cannot read, so it was replayed under Japanese rules. `RU` is read leniently (case, spaces, `JP`, `CN`, `NZ`, `TT--`, `Tromp/Taylor`, `GOE`...), and KataGo's rule strings are read setting by setting (`koPOSITIONALscoreAREAtaxNONEsui1`, their JSON form, KataGo's names); a KataGo string with a key or value kifu does not know is this info too, naming it. `--rules NAME` decides for every game.",
            Record "(;GM[1]FF[4]SZ[9]RU[Tibetan];B[ee])";
        SetupWithoutLiberty = "setup-without-liberty", Warning,
            "Setup stones were placed with no liberty.",
            "`AB`/`AW`/`AE` left a chain with no liberty, a position no game can reach. The chain was removed, as a capture would, and the replay went on.",
            Record "(;GM[1]FF[4]SZ[9]RU[Japanese]AB[aa]AW[ba][ab];B[ee])";
    }
    ["Moves (replay)", "Every move diagnostic names the move number, the colour and the point. The picture under it in text output is the position the move was played on (before it, whatever it then did to the board), with the point between parentheses: `(X)` where a stone already stands, `(+)` where the point was empty. An illegal move is still played where it can be (a move onto a stone or off the board cannot), so one error does not bury the game in follow-on errors. A node with `KO[]` (\"execute this move even if illegal\") has its move diagnostics lowered to info."] {
        OccupiedPoint = "occupied-point", Error,
            "A move onto a point that already holds a stone.",
            "The move is on a point where a stone stands: a move lost earlier in the record, or a record built by hand. It cannot be played and is skipped.",
            Record "(;GM[1]FF[4]SZ[9]RU[Japanese];B[ee];W[cc];B[cc])";
        OffBoard = "off-board", Error,
            "A move outside the board.",
            "The point lies outside the board `SZ[]` gives (`kk` on 9x9). It cannot be played and is skipped. A record written for another size is the usual cause.",
            Record "(;GM[1]FF[4]SZ[9]RU[Japanese];B[ee];W[kk])";
        Suicide = "suicide", Error,
            "A move that leaves its own chain without liberty and captures nothing.",
            "Where the rules forbid suicide (Japanese, Chinese, AGA...), an error; the board is left as it was. Where they allow it (Tromp-Taylor, Ing; New Zealand for more than one stone), or under `--suicide allowed`, it is info and the chain is removed; the message names what allows it.",
            Record "(;GM[1]FF[4]SZ[9]RU[Japanese];B[ba];W[ee];B[ab];W[aa])";
        Ko = "ko", Error,
            "A single-stone ko retaken at once.",
            "The move retakes a single-stone ko the opponent has just taken, with no move elsewhere in between: illegal under every ruleset. The move is played all the same, so the record can be followed.",
            Record "(;GM[1]FF[4]SZ[9]RU[Japanese];B[dc];W[ec];B[cd];W[fd];B[de];W[ee];B[gg];W[dd];B[ed];W[dd])";
        Superko = "superko", Error,
            "A move that recreates an earlier whole-board position under the superko rule in force.",
            "Under positional superko (Chinese, Tromp-Taylor) no earlier arrangement of the stones may recur; under situational superko (AGA, New Zealand, Ing) none with the same player to move. Reported once for each cycle the line enters, at the move that enters it, naming the earlier move and the cycle's length; the moves that go on round the same cycle are not reported again. A ko retaken at once is `ko`, not `superko`.",
            Record "(;GM[1]FF[4]SZ[9]RU[Chinese]AB[ca][fa][db][eb][ib][ec][fc][gc][hc]AW[da][ha][bb][cb][fb][gb][hb][dc][bd][dd][ed][fd][gd][hd];B[ga];W[ea];B[fa];W[da])";
        DoubleMove = "double-move", Error,
            "The same colour moves twice in a row with no PL or setup between.",
            "Two moves of one colour follow each other with no `PL[]` or setup node between: a move was lost from the record, or it is a position built move by move (test suites do this). The message names the point of the second move and shows the board it was played on.",
            Record "(;GM[1]FF[4]SZ[9]RU[Japanese];B[ee];W[cc];W[gg];B[cg])";
        RepeatedPosition = "repeated-position", Warning,
            "A whole-board position repeats where the rules allow it (the game may be void).",
            "Under simple ko (Japanese, Korean) a whole-board position may recur, through a triple ko or another long cycle; Art. 12 then lets the game end with no result. Reported once for each line of play, at the move that first repeats, naming the move that first reached the position and the cycle's length.",
            Record "(;GM[1]FF[4]SZ[9]RU[Japanese]AB[ba][ab][bc][ga][fb][gc][bf][ag][bh][hb]AW[ca][db][cc][ha][ib][hc][cf][dg][ch][bb][bg];B[cb];W[gb];B[cg];W[bb];B[hb];W[bg])";
        MoveAfterEnd = "move-after-end", Warning,
            "A move after two consecutive passes.",
            "Two passes end a game; a move after them is a warning, except under Japanese and Korean rules, where play may resume (Art. 9) and it is info.",
            Record "(;GM[1]FF[4]SZ[9]RU[AGA];B[ee];W[cc];B[];W[];B[gg])";
    }
    ["Scoring (`kifu score`, `kifu check --score`)", "`kifu check --score` judges dead stones only for games whose `RE[]` has a margin or is a draw (the only ones a recount can contradict); for the others (resignations, time, no `RE`) it still reports the komi and result notes below. `kifu score --format json` gives these notes in each game's `notes`."] {
        ResultSyntax = "result-syntax", Warning,
            "RE[] is not a valid SGF result.",
            "`RE[]` is not `B+2.5`, `W+R`, `B+T`, `B+F`, `0`, `Draw`, `Void` or `?` as FF[4] writes them. Only info when just the spelling is off (`draw`, `B+Resign`): the result is still read.",
            Record "(;GM[1]FF[4]SZ[9]RU[Japanese]KM[6.5]RE[john wins];B[ee])";
        ResultMismatch = "result-mismatch", Warning,
            "The recount disagrees with the margin RE[] records, and nothing kifu checked explains it.",
            "The recount of the final position, under the game's rules and komi, gives another winner or margin than `RE[]`, and kifu found RE wrong: the komi cannot give RE's margin (`KM[0]` where 6.5 was played, a Fox komi in stones read as points: the message names the komi that makes RE fit), or RE gives the recount's margin to the other player, or the game ended (two passes or markup) and no recount kifu tried gives RE (\"cause: none found\"): not the other seki-eye rules, not the necessary connections left out, and not any group whose status is in real doubt counted the other way, alone, with its group or with the other side of its race (groups kifu's call was not confident of, dead chains with one or two liberties, chains left in atari and those beside them). Groups kifu was sure of are not tried: flipping many groups would fit any RE by chance. Such a record most likely has a wrong `RE[]` or `KM[]`, or dead stones the players agreed on wrongly (docs/accuracy.md says how often kifu itself is wrong). Where something explains the difference, the same disagreement is `result-unverified`. `kifu score` shows the count and its map.",
            Record "(;GM[1]FF[4]SZ[5]RU[Japanese]KM[0.5]RE[W+10.5];B[cc];W[];B[])";
        MissingKomi = "missing-komi", Warning,
            "The game has no usable KM[]; it was scored with komi 0.",
            "No `KM[]`, or one that is not a number: the game was scored with no komi. `--komi N` gives it.",
            Record "(;GM[1]FF[4]SZ[5]RU[Japanese]RE[B+25];B[cc];W[];B[])";
        KomiScaled = "komi-scaled", Info,
            "KM[] was written x100 (Fox); it was read as points.",
            "The Fox server writes komi a hundred times too large, in stones under Chinese rules: `KM[650]` is 6.5 points, `KM[375]` is 3.75 stones, 7.5 points. kifu reads it so, and says so.",
            Record "(;GM[1]FF[4]SZ[5]RU[Japanese]KM[650]RE[W+R];B[cc])";
        KomiAssumed = "komi-assumed", Info,
            "KM[0] in a Fox record of an even game: scored with Fox's 6.5 komi.",
            "A Fox record (`AP[foxwq]`, or Fox's `TC`/`TT` byo-yomi properties) of an even game under Japanese rules with `KM[0]`: Fox played it with 6.5 komi and writes 0, so kifu scores it with 6.5. `--komi 0` keeps 0.",
            Record "(;GM[1]FF[4]SZ[5]RU[Japanese]AP[foxwq]KM[0]RE[W+R];B[cc])";
        SekiEyesCounted = "seki-eyes-counted", Info,
            "The KGS rule for the eyes of groups in seki changed the count of this KGS record.",
            "Japanese rules (Art. 8) count the eyes of groups in seki for no one; KGS's scoring counts them unless every chain around the eye touches a seki dame. kifu follows KGS for KGS records, and says so where it changed the count, naming how many points. `--seki-eyes none` applies Art. 8.",
            Command "kifu score --dead-stones none kgs-game-with-seki.sgf";
        ConnectionCounted = "connection-counted", Info,
            "KGS's count keeps a point where a single dame forces a connection: it changed the count of this KGS record.",
            "Japanese rules (commentary to Art. 9) take from territory a point where a chain must connect once the dame are filled. KGS's results keep such a point as its owner's territory when a single dame forces the connection (the chain's only liberties are that point and one dame either player can fill), and take it when two dame or more do, or when the chain is already in atari there. kifu follows KGS for KGS records, and says so where it changed the count, naming how many points. `--connections every` applies Japanese rules as written.",
            Command "kifu score kgs-game-with-open-dame.sgf";
        IllegalMoveLoses = "illegal-move-loses", Info,
            "Under Japanese rules (Art. 14) the player who made an illegal move loses the game.",
            "With `--score` under Japanese rules, an illegal move (`ko`, `double-move`) decides the game against whoever made it, whatever `RE[]` says. The note names the move.",
            Record "(;GM[1]FF[4]SZ[9]RU[Japanese]KM[6.5]RE[W+R];B[dc];W[ec];B[cd];W[fd];B[de];W[ee];B[gg];W[dd];B[ed];W[dd])";
        ResultUnverified = "result-unverified", Info,
            "The recount disagrees with RE[], but kifu cannot be sure: the message says what explains it.",
            "The recount disagrees with `RE[]`, but something explains the difference that does not make the record wrong: RE is the count under another `--seki-eyes` rule or with other necessary connections (every one, all but those a single dame forces, or none); RE is the count with a group whose status is in real doubt counted the other way (the message names their points, \"dead in the recount, alive in RE's count\" or the reverse, and why the group was in doubt: kifu's call on it was not confident, a capturing race it was not confident of, a dead chain left in atari that nobody captured, which players often leave unmarked, or a chain left in atari, an open ko); RE is the count with the dead stones another run of kifu's playouts (other random numbers) gives; RE has the recount's margin with the other winner from a server known to write the winner wrong (KGS before November 2000 wrote every counted result as a win for Black); the winner is the same and the margins are a point or two apart; or the game does not end with two passes or markup, so the position may not be final. The message names the cause kifu checked by recounting, then why it is not sure. `kifu score --format json` gives the same as `verified`, `cause` and `doubts`.",
            Record "(;GM[1]FF[4]SZ[5]RU[Japanese]KM[0.5]RE[W+10.5];B[cc])";
        MissingMarkup = "missing-markup", Warning,
            "--dead-stones markup on a game with no TB/TW/DD markup at its end: no territory or dead stones were counted.",
            "`--dead-stones markup` takes the dead stones and the territory from the `TB`/`TW`/`DD` markup of the last node of the line scored. A game without any there was counted with no territory and no dead stones, which is seldom the right count: `--dead-stones auto` (the default) estimates them instead.",
            Command "kifu score --dead-stones markup game-without-markup.sgf";
    }
    ["Across files (`kifu check` on several files)", ""] {
        DuplicateGame = "duplicate-game", Info,
            "The same game (same moves, up to symmetry and colours) was seen earlier in the run.",
            "A game whose main line (20 moves or more) has the same moves as one seen earlier in the run, under any of the 8 board symmetries and whatever the colours, headers or file names. The message names the first file and game. `--allow duplicate-game` skips the index.",
            Command "cp game.sgf copy.sgf; kifu check game.sgf copy.sgf";
    }
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
/// every warning an error, `--allow info` and `--allow warnings` drop
/// what is below warnings or errors once the denials are applied.
#[derive(Debug, Clone, Default)]
pub struct Policy {
    pub allow: Vec<Code>,
    pub deny: Vec<Code>,
    pub deny_warnings: bool,
    /// Diagnostics less severe than this are dropped (`Info`: none is).
    pub min_severity: Severity,
}

impl Policy {
    /// The severity a diagnostic of `severity` has under the policy, or
    /// `None` when it is dropped.
    fn judge(&self, code: Code, severity: Severity) -> Option<Severity> {
        if self.allow.contains(&code) {
            return None;
        }
        let denied = self.deny.contains(&code) || (self.deny_warnings && severity == Severity::Warning);
        let severity = if denied { Severity::Error } else { severity };
        (severity >= self.min_severity).then_some(severity)
    }

    /// Applies the policy in place, dropping allowed diagnostics.
    pub fn apply(&self, diagnostics: &mut Vec<Diagnostic>) {
        diagnostics.retain_mut(|d| match self.judge(d.code, d.severity) {
            Some(severity) => {
                d.severity = severity;
                true
            }
            None => false,
        });
    }

    /// Whether a code at its default severity is reported at all (a run
    /// need not look for what it would drop).
    pub fn reports(&self, code: Code) -> bool {
        self.judge(code, code.default_severity()).is_some()
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

    /// The examples `kifu explain` shows are true: each record gives its
    /// code when checked with `--score`.
    #[test]
    fn every_record_example_gives_its_code() {
        let options = crate::check::CheckOptions { score: Some(Default::default()), ..Default::default() };
        let mut wrong = Vec::new();
        for info in CODES {
            if let Example::Record(text) = info.example {
                let found = crate::check::check_bytes(text.as_bytes(), &options);
                if !found.diagnostics.iter().any(|d| d.code.name() == info.name) {
                    let codes: Vec<String> = found.diagnostics.iter().map(|d| format!("{}: {}", d.code, d.message)).collect();
                    wrong.push(format!("{}: got {codes:?}", info.name));
                }
            }
        }
        assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    }

    #[test]
    fn allowed_severities_go_after_denials() {
        let d = |code: Code| Diagnostic::new(code, 0, "");
        let policy = Policy { deny: vec![Code::DuplicateGame], min_severity: Severity::Error, ..Policy::default() };
        let mut found = vec![d(Code::DuplicateGame), d(Code::UnknownProperty), d(Code::EmptyNode), d(Code::Ko)];
        policy.apply(&mut found);
        assert_eq!(found.iter().map(|d| (d.code, d.severity)).collect::<Vec<_>>(), [(Code::DuplicateGame, Severity::Error), (Code::Ko, Severity::Error)]);
        assert!(policy.reports(Code::DuplicateGame) && !policy.reports(Code::EmptyNode));
        let policy = Policy { deny_warnings: true, min_severity: Severity::Error, ..Policy::default() };
        assert!(policy.reports(Code::EmptyNode) && !policy.reports(Code::UnknownProperty));
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
