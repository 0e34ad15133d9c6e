//! The Japanese count held to an independent simple counter on random
//! finished positions (issue 16): every empty point is an eye of one
//! colour, some chains are left in atari in their own eye (kos nobody
//! took), boards of 9x9 to 19x19. On such a board nothing is dead and
//! nothing is in seki, so the count is simple: each eye is a point for its
//! colour, less one for each point where a chain in atari must connect.

use kifu::replay::RuleOverrides;
use kifu::score::{DeadStones, ScoreOptions, SekiEyes, score_game};
use kifu::sgf;
use proptest::prelude::*;

/// splitmix64: the generator's randomness, from one proptest seed.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn chance(&mut self, percent: u64) -> bool {
        self.next() % 100 < percent
    }
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum P {
    Empty,
    Black,
    White,
}

impl P {
    fn opponent(self) -> P {
        match self {
            P::Black => P::White,
            P::White => P::Black,
            P::Empty => P::Empty,
        }
    }
}

struct Position {
    size: usize,
    points: Vec<P>,
}

impl Position {
    fn neighbors(&self, i: usize) -> Vec<usize> {
        let (x, y, n) = (i % self.size, i / self.size, self.size);
        let mut out = Vec::with_capacity(4);
        if x > 0 {
            out.push(i - 1);
        }
        if x + 1 < n {
            out.push(i + 1);
        }
        if y > 0 {
            out.push(i - n);
        }
        if y + 1 < n {
            out.push(i + n);
        }
        out
    }

    /// Every chain: its stones and its distinct liberties.
    fn chains(&self) -> Vec<(Vec<usize>, Vec<usize>)> {
        let mut seen = vec![false; self.points.len()];
        let mut out = Vec::new();
        for start in 0..self.points.len() {
            if self.points[start] == P::Empty || seen[start] {
                continue;
            }
            let color = self.points[start];
            let (mut stones, mut liberties) = (vec![start], Vec::new());
            seen[start] = true;
            let mut i = 0;
            while i < stones.len() {
                for n in self.neighbors(stones[i]) {
                    if self.points[n] == color && !seen[n] {
                        seen[n] = true;
                        stones.push(n);
                    } else if self.points[n] == P::Empty && !liberties.contains(&n) {
                        liberties.push(n);
                    }
                }
                i += 1;
            }
            out.push((stones, liberties));
        }
        out
    }

    /// The colour whose stones alone surround the empty point `i`.
    fn eye_of(&self, i: usize) -> P {
        let around: Vec<P> = self.neighbors(i).into_iter().map(|n| self.points[n]).collect();
        if around.iter().all(|&c| c == around[0]) { around[0] } else { P::Empty }
    }

    fn sgf(&self) -> String {
        let letter = |v: usize| (b'a' + v as u8) as char;
        // A colour with no stone gets no property: `AB` with no value
        // followed by `AW[..]` would read as one property named `ABAW`.
        let setup = |name: &str, color: P| -> String {
            let values: String =
                (0..self.points.len()).filter(|&i| self.points[i] == color).map(|i| format!("[{}{}]", letter(i % self.size), letter(i / self.size))).collect();
            if values.is_empty() { String::new() } else { format!("{name}{values}") }
        };
        format!("(;GM[1]FF[4]SZ[{}]RU[Japanese]KM[0]{}{};B[];W[])", self.size, setup("AB", P::Black), setup("AW", P::White))
    }

    fn drawn(&self) -> String {
        self.points
            .chunks(self.size)
            .map(|row| {
                row.iter().map(|p| match p {
                    P::Empty => '.',
                    P::Black => 'X',
                    P::White => 'O',
                })
            })
            .map(|row| row.collect::<String>() + "\n")
            .collect()
    }
}

/// A random finished position, or `None` when the seed gives none the
/// simple counter can count (a chain with no liberty, or one that cannot
/// connect its ko: a seki or a dead group, not what this test is about).
fn finished_position(size: usize, seed: u64) -> Option<Position> {
    let mut rng = Rng(seed);
    let n = size * size;
    // Areas of each colour around a few random centres.
    let centres: Vec<(usize, P)> = (0..2 + rng.below(5)).map(|k| (rng.below(n), if k % 2 == 0 { P::Black } else { P::White })).collect();
    let distance = |a: usize, b: usize| (a % size).abs_diff(b % size) + (a / size).abs_diff(b / size);
    let points = (0..n).map(|i| centres.iter().min_by_key(|(c, _)| distance(*c, i)).expect("a centre").1).collect();
    let mut pos = Position { size, points };
    // Eyes, never side by side; the stones around an eye are locked to its
    // colour.
    let mut locked = vec![false; n];
    let mut order: Vec<usize> = (0..n).collect();
    for i in (1..n).rev() {
        order.swap(i, rng.below(i + 1));
    }
    let mut eyes = Vec::new();
    for &i in &order {
        if locked[i] || !rng.chance(40) {
            continue;
        }
        let color = pos.points[i];
        let around = pos.neighbors(i);
        if around.iter().any(|&q| pos.points[q] == P::Empty || (locked[q] && pos.points[q] != color)) {
            continue;
        }
        for &q in &around {
            pos.points[q] = color;
            locked[q] = true;
        }
        pos.points[i] = P::Empty;
        locked[i] = true;
        eyes.push(i);
    }
    // Kos left open: a stone beside an eye whose other neighbours are all
    // the opponent's is in atari in that eye.
    for &eye in &eyes {
        if !rng.chance(30) {
            continue;
        }
        let around = pos.neighbors(eye);
        let stone = around[rng.below(around.len())];
        let color = pos.points[stone];
        let others: Vec<usize> = pos.neighbors(stone).into_iter().filter(|&q| q != eye).collect();
        if others.iter().all(|&q| !locked[q] || pos.points[q] == color.opponent()) {
            for q in others {
                pos.points[q] = color.opponent();
                locked[q] = true;
            }
        }
    }
    // A chain with no liberty touches no eye: it joins the chains around.
    for _ in 0..20 {
        let chains = pos.chains();
        let choked: Vec<&(Vec<usize>, Vec<usize>)> = chains.iter().filter(|(_, libs)| libs.is_empty()).collect();
        if choked.is_empty() {
            break;
        }
        for (stones, _) in choked {
            for &s in stones {
                pos.points[s] = pos.points[s].opponent();
            }
        }
    }
    let all_empty_are_eyes = (0..n).all(|i| pos.points[i] != P::Empty || pos.eye_of(i) != P::Empty);
    let no_choked_chain = pos.chains().iter().all(|(_, libs)| !libs.is_empty());
    (all_empty_are_eyes && no_choked_chain && lives_once_connected(&pos)).then_some(pos)
}

/// Whether every chain has two liberties once each chain in atari has
/// connected in its eye: then nothing can be captured, all is alive.
fn lives_once_connected(pos: &Position) -> bool {
    let mut after = Position { size: pos.size, points: pos.points.clone() };
    for (stones, libs) in pos.chains() {
        if let [eye] = libs[..] {
            after.points[eye] = pos.points[stones[0]];
        }
    }
    after.chains().iter().all(|(_, libs)| libs.len() >= 2)
}

/// The simple counter: Black's and White's territory. Every eye counts for
/// its colour, less each point where a chain in atari must connect.
fn simple_count(pos: &Position) -> (u32, u32) {
    let mut territory = [0u32; 2];
    let side = |c: P| if c == P::Black { 0 } else { 1 };
    for i in 0..pos.points.len() {
        if pos.points[i] == P::Empty {
            territory[side(pos.eye_of(i))] += 1;
        }
    }
    let mut connections: Vec<usize> = pos.chains().into_iter().filter(|(_, libs)| libs.len() == 1).map(|(_, libs)| libs[0]).collect();
    connections.sort_unstable();
    connections.dedup();
    for c in connections {
        territory[side(pos.eye_of(c))] -= 1;
    }
    (territory[0], territory[1])
}

/// Whether the position has a chain in atari: a ko left open.
fn has_open_ko(pos: &Position) -> bool {
    pos.chains().iter().any(|(_, libs)| libs.len() == 1)
}

fn kifu_count(pos: &Position) -> (u32, u32) {
    let mut parsed = sgf::parse(pos.sgf().as_bytes(), &Default::default());
    let game = parsed.collection.games.swap_remove(0);
    let rules = RuleOverrides { seki_eyes: Some(SekiEyes::None), ..Default::default() };
    let options = ScoreOptions { rules, dead_stones: DeadStones::None, ..Default::default() };
    let s = score_game(&game, &options).expect("a board");
    assert_eq!((s.black.dead, s.white.dead, s.black.prisoners, s.white.prisoners), (0, 0, 0, 0));
    (s.black.territory, s.white.territory)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn japanese_count_matches_the_simple_counter(size in 9usize..=19, seed in any::<u64>()) {
        let pos = finished_position(size, seed);
        prop_assume!(pos.is_some());
        let pos = pos.unwrap();
        prop_assert_eq!(kifu_count(&pos), simple_count(&pos), "\n{}", pos.drawn());
    }
}

/// One colour only (the seed proptest found): its set-up is written
/// without an empty `AB`.
#[test]
fn a_board_of_one_colour_counts_every_eye() {
    let pos = finished_position(9, 16653182315214255870).expect("a finished position");
    assert!(!pos.sgf().contains("AB"));
    assert_eq!(kifu_count(&pos), simple_count(&pos));
    assert_eq!(kifu_count(&pos), (0, 18));
}

/// The generator makes what the test is about: most positions it gives
/// have an open ko, and few seeds give none.
#[test]
fn most_positions_have_an_open_ko() {
    let (mut made, mut with_ko) = (0, 0);
    for seed in 0..200u64 {
        if let Some(pos) = finished_position(9 + (seed % 11) as usize, seed) {
            made += 1;
            with_ko += usize::from(has_open_ko(&pos));
        }
    }
    eprintln!("{made} of 200 seeds give a finished position, {with_ko} of them with an open ko");
    assert!(made >= 100, "{made} of 200 seeds give a position");
    assert!(with_ko * 2 >= made, "{with_ko} of {made} positions have an open ko");
}
