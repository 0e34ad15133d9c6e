//! Property tests of the replay: random legal games, generated with the
//! engine itself on 9x9, 13x13 and 19x19, replay with no move diagnostic;
//! the same games with one illegal move injected get exactly that
//! diagnostic, at that move.

use std::collections::HashSet;

use kifu::board::{Board, Cell, Color, Pt};
use kifu::diag::Diagnostic;
use kifu::replay::{RuleOverrides, replay};
use proptest::prelude::*;

mod common;
use common::Rng;

fn letters(board: &Board, p: Pt) -> String {
    let (x, y) = board.xy(p);
    let l = |i: usize| (b'a' + i as u8) as char;
    format!("{}{}", l(x), l(y))
}

/// A random game: moves that are legal under positional superko (so no
/// rule in any preset objects), with an occasional pass (never two).
struct Game {
    size: usize,
    moves: Vec<(Color, Option<Pt>)>,
    /// The position after each move, to inject illegal moves into.
    boards: Vec<Board>,
}

fn random_game(size: usize, length: usize, seed: u64) -> Game {
    let mut rng = Rng(seed);
    let mut board = Board::new(size, size).unwrap();
    let mut seen = HashSet::from([board.hash()]);
    let mut moves = Vec::new();
    let mut boards = vec![board.clone()];
    let mut color = Color::Black;
    let mut last_was_pass = false;
    while moves.len() < length {
        let empties: Vec<Pt> = board.points().filter(|&p| board.cell(p) == Cell::Empty).collect();
        let mut chosen = None;
        for _ in 0..20 {
            if empties.is_empty() {
                break;
            }
            let p = empties[rng.below(empties.len())];
            let mut trial = board.clone();
            let placed = trial.play(color, p);
            if placed.suicided == 0 && !seen.contains(&trial.hash()) {
                chosen = Some((p, trial));
                break;
            }
        }
        match chosen {
            Some((p, trial)) => {
                board = trial;
                seen.insert(board.hash());
                moves.push((color, Some(p)));
                last_was_pass = false;
            }
            None if !last_was_pass => {
                moves.push((color, None));
                last_was_pass = true;
            }
            None => break,
        }
        boards.push(board.clone());
        color = color.opponent();
    }
    Game { size, moves, boards }
}

fn to_sgf(game: &Game, rules: &str, extra: Option<(Color, String)>, upto: usize) -> String {
    let board = &game.boards[0];
    let mut s = format!("(;GM[1]FF[4]SZ[{}]RU[{rules}]", game.size);
    for (color, p) in &game.moves[..upto] {
        let point = p.map(|p| letters(board, p)).unwrap_or_default();
        s.push_str(&format!(";{}[{point}]", color.letter()));
    }
    if let Some((color, point)) = extra {
        s.push_str(&format!(";{}[{point}]", color.letter()));
    }
    s.push(')');
    s
}

fn move_diagnostics(sgf: &str) -> Vec<Diagnostic> {
    let parsed = kifu::sgf::parse_str(sgf);
    assert!(parsed.diagnostics.is_empty(), "{:?}", parsed.diagnostics);
    let r = replay(&parsed.collection.games[0], &RuleOverrides::default());
    r.diagnostics.into_iter().filter(|d| d.move_number.is_some()).collect()
}

fn sizes() -> impl Strategy<Value = usize> {
    prop_oneof![Just(9usize), Just(13), Just(19)]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn random_legal_games_replay_clean(size in sizes(), length in 10usize..260, seed: u64, rules in prop_oneof![Just("Japanese"), Just("Chinese"), Just("AGA"), Just("Tromp-Taylor")]) {
        let game = random_game(size, length, seed);
        let sgf = to_sgf(&game, rules, None, game.moves.len());
        let found = move_diagnostics(&sgf);
        prop_assert!(found.is_empty(), "{:?}\n{sgf}", found);
    }

    #[test]
    fn one_injected_illegal_move_is_found_exactly(size in sizes(), length in 10usize..200, seed: u64, kind in 0usize..4, at_frac in 0.0f64..1.0) {
        let game = random_game(size, length, seed);
        let at = ((game.moves.len() as f64 * at_frac) as usize).max(1);
        let board = &game.boards[at];
        let (last_color, _) = game.moves[at - 1];
        let to_move = last_color.opponent();
        let stones: Vec<Pt> = board.points().filter(|&p| board.cell(p) != Cell::Empty).collect();
        let empties: Vec<Pt> = board.points().filter(|&p| board.cell(p) == Cell::Empty).collect();
        let mut rng = Rng(seed ^ 0x5eed);
        let (code, color, point) = match kind {
            0 if !stones.is_empty() => ("occupied-point", to_move, letters(board, stones[rng.below(stones.len())])),
            1 => ("off-board", to_move, "zz".to_string()),
            2 => {
                // The same colour again, on a point that is plainly legal for it.
                let legal = empties.iter().copied().find(|&p| {
                    let mut t = board.clone();
                    t.play(last_color, p).suicided == 0 && t.hash() != board.hash()
                });
                match legal {
                    Some(p) if game.moves[at - 1].1.is_some() => ("double-move", last_color, letters(board, p)),
                    _ => return Ok(()),
                }
            }
            _ => {
                // A suicide, where the position offers one.
                let suicide = empties.iter().copied().find(|&p| board.clone().play(to_move, p).suicided > 0);
                match suicide {
                    Some(p) => ("suicide", to_move, letters(board, p)),
                    None => return Ok(()),
                }
            }
        };
        let sgf = to_sgf(&game, "Japanese", Some((color, point.clone())), at);
        let found = move_diagnostics(&sgf);
        let got: Vec<_> = found.iter().map(|d| (d.code.name(), d.move_number.unwrap(), d.point.clone().unwrap())).collect();
        prop_assert_eq!(got, vec![(code, at as u32 + 1, point)], "{}", sgf);
    }
}
