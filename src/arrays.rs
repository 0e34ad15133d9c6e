//! One line of a game as arrays, for training pipelines: the board before
//! every move and after the last, the moves, their colours and captures.
//! The Python module (`game.replay()`) and `kifu export --to npz` both
//! build them here.
//!
//! The replay is [`replay`](crate::replay)'s, move by move: the game's
//! rules, its setup and handicap. The first move the rules forbid (an
//! error: occupied point, ko, superko, forbidden suicide, off the board, a
//! double move), or whose value is not a move, stops it, and its
//! diagnostic says why; the arrays then hold the moves before it. Nothing
//! is skipped silently.

use crate::board::{Board, Cell};
use crate::diag::{Code, Diagnostic, Severity};
use crate::provenance;
use crate::replay::{LineReplay, RuleOverrides};
use crate::rules::Rules;
use crate::score::result::read_result;
use crate::sgf::props::{self, Move};
use crate::sgf::{GameTree, PropId};

/// A black stone on the boards, and Black in `colors`.
pub const BLACK: i8 = 1;
/// A white stone on the boards, and White in `colors`.
pub const WHITE: i8 = -1;
/// An empty point.
pub const EMPTY: i8 = 0;
/// A pass in `moves`.
pub const PASS: [i16; 2] = [-1, -1];

/// A line replayed into flat arrays (row-major, as NumPy lays them out).
#[derive(Debug, Clone, PartialEq)]
pub struct LineArrays {
    pub width: usize,
    pub height: usize,
    /// `(n + 1) × height × width`, rows from the top: the position before
    /// each of the `n` moves (setup and handicap applied), then the
    /// position after the last.
    pub boards: Vec<i8>,
    /// `n × 2`: `(x, y)`, 0-based, x the column from the left and y the row
    /// from the top (the SGF letter order); [`PASS`] for a pass.
    pub moves: Vec<i16>,
    /// `n`: [`BLACK`] or [`WHITE`].
    pub colors: Vec<i8>,
    /// `n`: the opponent stones each move captured.
    pub captures: Vec<i16>,
    /// The rules the line was replayed under.
    pub rules: Rules,
    /// Why the replay stopped before the end of the line: the first move
    /// the rules forbid, or that is not a move. Its offset is into the
    /// decoded text (not yet located).
    pub stopped: Option<Diagnostic>,
}

impl LineArrays {
    /// `n`, the number of moves.
    pub fn len(&self) -> usize {
        self.colors.len()
    }

    pub fn is_empty(&self) -> bool {
        self.colors.is_empty()
    }

    /// The position before move `i` (0-based); after the last for `len()`.
    pub fn board(&self, i: usize) -> &[i8] {
        let size = self.width * self.height;
        &self.boards[i * size..(i + 1) * size]
    }
}

/// Why a line cannot be replayed at all.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NoReplay {
    /// The variation path names no line of the game.
    NoSuchLine,
    /// `SZ[]` gives no usable board.
    NoBoard,
}

/// Replays the line `variation` names (`[]` for the main line; see
/// [`GameTree::line`]).
pub fn replay_line(game: &GameTree, variation: &[u32], overrides: &RuleOverrides) -> Result<LineArrays, NoReplay> {
    let line = game.line(variation).ok_or(NoReplay::NoSuchLine)?;
    let mut replay = LineReplay::new(game, overrides).ok_or(NoReplay::NoBoard)?;
    let (width, height) = (replay.board().width(), replay.board().height());
    let mut out = LineArrays {
        width,
        height,
        boards: Vec::with_capacity((line.len() + 1) * width * height),
        moves: Vec::with_capacity(2 * line.len()),
        colors: Vec::with_capacity(line.len()),
        captures: Vec::with_capacity(line.len()),
        rules: replay.rules(),
        stopped: None,
    };
    // The position now, kept up to date move by move (a stone, its
    // captures), read whole from the board only after setup or a suicide.
    let mut current = vec![EMPTY; width * height];
    // The position after the last move, when setup changed it since.
    let mut after_last: Option<Vec<i8>> = None;
    for node in line {
        let hash = replay.board().hash();
        let forced = replay.enter(node);
        if replay.board().hash() != hash {
            if !out.is_empty() && after_last.is_none() {
                after_last = Some(current.clone());
            }
            read_board(replay.board(), &mut current);
        }
        for prop in node.properties() {
            if !matches!(prop.code(), PropId::B | PropId::W) || prop.value_count() == 0 {
                continue;
            }
            out.boards.extend_from_slice(&current);
            let color = if prop.code() == PropId::B { BLACK } else { WHITE };
            let played = replay.play(prop, forced).expect("a move property with a value");
            let stop = match played.mv {
                None => Some(not_a_move(prop.id(), prop.first().unwrap_or_default(), prop.offset(), out.len() + 1)),
                Some(_) => played.diagnostics.iter().find(|d| d.severity == Severity::Error).cloned(),
            };
            if let Some(d) = stop {
                // The board just pushed is the position after the last move kept.
                out.stopped = Some(d);
                return Ok(out);
            }
            match played.mv {
                Some(Move::Play(p)) => {
                    current[p.y as usize * width + p.x as usize] = color;
                    for &pt in played.captured {
                        let (x, y) = played.board.xy(pt);
                        current[y * width + x] = EMPTY;
                    }
                    if played.suicide {
                        read_board(played.board, &mut current);
                    }
                    out.moves.extend([p.x as i16, p.y as i16]);
                }
                _ => out.moves.extend(PASS),
            }
            out.colors.push(color);
            out.captures.push(played.captured.len() as i16);
            after_last = None;
        }
    }
    out.boards.extend_from_slice(after_last.as_deref().unwrap_or(&current));
    Ok(out)
}

/// What a training set keeps about a game besides its moves.
#[derive(Debug, Clone, PartialEq)]
pub struct Labels {
    /// The ruleset the game is replayed under.
    pub rules: &'static str,
    /// The komi in points as `score` reads it (Fox's x100 and stones
    /// scaled); `None` when `KM[]` is absent or unreadable.
    pub komi: Option<f64>,
    /// `HA[]`.
    pub handicap: Option<i64>,
    /// `RE[]` in canonical form (`B+2.5`, `W+R`, `0`, `Void`, `?`), margins
    /// in points; `None` when absent, empty or unreadable.
    pub result: Option<String>,
}

/// The labels of a game under the rules `overrides` leave it.
pub fn labels(game: &GameTree, overrides: &RuleOverrides) -> Labels {
    let root = game.root();
    let (rules, _) = overrides.resolve(root.get_value("RU"));
    let mut notes = Vec::new();
    let komi = provenance::played_komi(root, &rules, &mut notes);
    let result = root.get_value("RE").and_then(|re| read_result(re).ok()).map(|r| r.in_points(&komi).canonical()).filter(|r| !r.is_empty());
    let komi_known = !notes.iter().any(|d| d.code == Code::MissingKomi);
    Labels { rules: rules.name, komi: komi_known.then_some(komi.points), handicap: props::handicap(root).ok().flatten(), result }
}

/// Copies the board into `out` (row by row from the top).
fn read_board(board: &Board, out: &mut [i8]) {
    for (cell, p) in out.iter_mut().zip(board.points()) {
        *cell = match board.cell(p) {
            Cell::Black => BLACK,
            Cell::White => WHITE,
            _ => EMPTY,
        };
    }
}

/// The diagnostic for a move property whose value is not a move.
fn not_a_move(id: &str, value: &str, offset: u32, move_number: usize) -> Diagnostic {
    let mut d = Diagnostic::new(Code::InvalidValue, offset, format!("{id}[{value}] is not a move (move {move_number}); the replay stops here"));
    d.severity = Severity::Error;
    d.move_number = Some(move_number as u32);
    d.color = Some(if id == "B" { "B" } else { "W" });
    d.point = Some(value.to_string());
    d
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::replay;
    use crate::sgf::parse_str;

    fn arrays(sgf: &str) -> LineArrays {
        let parsed = parse_str(sgf);
        replay_line(&parsed.collection.games[0], &[], &RuleOverrides::default()).expect("a board")
    }

    /// A board as rows of `X`, `O`, `.`.
    fn rows(a: &LineArrays, i: usize) -> Vec<String> {
        a.board(i).chunks(a.width).map(|row| row.iter().map(|&c| ['O', '.', 'X'][(c + 1) as usize]).collect()).collect()
    }

    #[test]
    fn a_capture_and_a_pass() {
        // White's stone at ba is captured by B[ca].
        let a = arrays("(;SZ[3]RU[Japanese];B[ab];W[ba];B[bb];W[];B[aa];W[];B[ca])");
        assert_eq!(a.len(), 7);
        assert_eq!(a.boards.len(), 8 * 9);
        assert_eq!(a.moves, [0, 1, 1, 0, 1, 1, -1, -1, 0, 0, -1, -1, 2, 0]);
        assert_eq!(a.colors, [BLACK, WHITE, BLACK, WHITE, BLACK, WHITE, BLACK]);
        assert_eq!(a.captures, [0, 0, 0, 0, 0, 0, 1]);
        assert_eq!(rows(&a, 0), ["...", "...", "..."]);
        assert_eq!(rows(&a, 2), [".O.", "X..", "..."]);
        assert_eq!(rows(&a, 7), ["X.X", "XX.", "..."]);
        assert!(a.stopped.is_none());
    }

    #[test]
    fn setup_and_the_implied_handicap_come_first() {
        let a = arrays("(;SZ[9]RU[Japanese]AB[aa]AW[ii];W[ee]AB[cc];B[dd])");
        assert_eq!(rows(&a, 0)[0], "X........");
        assert_eq!(rows(&a, 0)[8], "........O");
        // The second node's setup acts before its move.
        assert_eq!(&rows(&a, 1)[2..5], ["..X......", ".........", "....O...."]);
        // Fox: HA[2] with no stones, White first: the standard placement.
        let a = arrays("(;SZ[19]RU[Japanese]HA[2];W[qc];B[cp])");
        assert_eq!(a.board(0).iter().filter(|&&c| c == BLACK).count(), 2);
        assert_eq!(a.board(0)[3 * 19 + 15], BLACK);
    }

    #[test]
    fn an_illegal_move_stops_the_replay_with_its_diagnostic() {
        let ko = "RU[Japanese]SZ[5]AB[ba][ab][bc]AW[ca][bb][db][cc]";
        let a = arrays(&format!("(;{ko};B[cb];W[bb];B[ee])"));
        assert_eq!(a.len(), 1);
        assert_eq!(a.boards.len(), 2 * 25);
        let d = a.stopped.as_ref().expect("stopped");
        assert_eq!((d.code, d.move_number, d.point.as_deref()), (Code::Ko, Some(2), Some("bb")));
        // The last board is the position after the last move kept.
        assert_eq!(rows(&a, 1)[1], "X.XO.");
        // KO[] in the node: the record says the move was executed.
        let a = arrays(&format!("(;{ko};B[cb];W[bb]KO[];B[ee])"));
        assert_eq!((a.len(), a.stopped.is_none()), (3, true));
        let a = arrays("(;SZ[9]RU[Japanese];B[ee];W[ee])");
        assert_eq!(a.stopped.map(|d| d.code), Some(Code::OccupiedPoint));
        let a = arrays("(;SZ[9]RU[Japanese];B[ee];W[1a];B[cc])");
        let d = a.stopped.expect("stopped");
        assert_eq!((d.code, d.severity, d.move_number), (Code::InvalidValue, Severity::Error, Some(2)));
    }

    #[test]
    fn suicide_where_the_rules_allow_it_removes_the_stones() {
        // White's two stones at aa and ab are left without liberty.
        let a = arrays("(;RU[Tromp-Taylor]SZ[3]AW[aa]AB[ba][bb][ac];W[ab];B[cc])");
        assert!(a.stopped.is_none(), "{:?}", a.stopped);
        assert_eq!(rows(&a, 1), [".X.", ".X.", "X.."]);
        assert_eq!(a.captures, [0, 0]);
        let a = arrays("(;RU[Japanese]SZ[3]AW[aa]AB[ba][bb][ac];W[ab])");
        assert_eq!(a.stopped.map(|d| d.code), Some(Code::Suicide));
    }

    #[test]
    fn the_last_board_is_after_the_last_move_whatever_setup_follows() {
        let a = arrays("(;SZ[3]RU[Japanese];B[aa];W[cc];AE[aa])");
        assert_eq!(rows(&a, 2), ["X..", "...", "..O"]);
        // A record of setup alone: one board, the set-up position.
        let a = arrays("(;SZ[3]AB[bb])");
        assert_eq!((a.len(), rows(&a, 0)[1].as_str()), (0, ".X."));
    }

    #[test]
    fn labels_read_komi_and_result_as_score_does() {
        let labels = |sgf: &str| super::labels(&parse_str(sgf).collection.games[0], &RuleOverrides::default());
        let fox = labels("(;SZ[19]RU[Chinese]KM[375]RE[B+2.75]HA[0])");
        assert_eq!((fox.rules, fox.komi, fox.handicap, fox.result.as_deref()), ("chinese", Some(7.5), Some(0), Some("B+5.5")));
        let bare = labels("(;SZ[19]RE[W+Resign])");
        assert_eq!((bare.rules, bare.komi, bare.result.as_deref()), ("japanese", None, Some("W+R")));
        assert_eq!(labels("(;KM[six]RE[])").komi, None);
        assert_eq!(labels("(;KM[six]RE[])").result, None);
    }

    #[test]
    fn variations_and_unusable_boards() {
        let parsed = parse_str("(;SZ[5];B[aa](;W[bb])(;W[cc];B[dd]))");
        let game = &parsed.collection.games[0];
        let line = replay_line(game, &[1], &RuleOverrides::default()).unwrap();
        assert_eq!(line.moves, [0, 0, 2, 2, 3, 3]);
        assert_eq!(replay_line(game, &[2], &RuleOverrides::default()), Err(NoReplay::NoSuchLine));
        let parsed = parse_str("(;SZ[99];B[aa])");
        assert_eq!(replay_line(&parsed.collection.games[0], &[], &RuleOverrides::default()), Err(NoReplay::NoBoard));
    }

    /// Every board against the position `replay::position_at` reaches, on
    /// a real game with captures (the fixture from README).
    #[test]
    fn boards_match_the_position_after_each_node() {
        let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/example-game.sgf")).unwrap();
        let parsed = parse_str(&text);
        let game = &parsed.collection.games[0];
        let a = replay_line(game, &[], &RuleOverrides::default()).unwrap();
        let nodes: Vec<_> = game.main_line().filter(|n| n.has("B") || n.has("W")).collect();
        assert_eq!(nodes.len(), a.len());
        assert!(a.captures.iter().any(|&c| c > 0), "the fixture should capture something");
        for (i, node) in nodes.iter().enumerate() {
            let position = replay::position_at(game, node.id(), &RuleOverrides::default()).unwrap();
            let mut expected = vec![EMPTY; a.width * a.height];
            read_board(&position.board, &mut expected);
            assert_eq!(a.board(i + 1), expected, "after move {}", i + 1);
        }
    }
}
