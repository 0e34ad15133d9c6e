//! Tactical reading of a final position: what random playouts get wrong
//! because one precise move decides it.
//!
//! Three questions, each answered by a small deterministic search bounded
//! by a node budget (a question that runs out of nodes is answered
//! [`Outcome::Unknown`], never guessed):
//! - **capture**: can a chain of few liberties be captured, attacker moving
//!   first, and can it escape, its owner moving first? Ladders, nets of
//!   one liberty and snapbacks fall out of the search: the attacker fills
//!   a liberty, the owner extends or captures a neighbour in atari, and a
//!   chain reaching [`SAFE_LIBERTIES`] liberties has escaped.
//! - **race**: two adjacent chains of opposite colours, neither able to
//!   live alone: each side fills the other's liberties (outside ones and
//!   shared ones), extends its own, or captures a neighbour, and where an
//!   outside liberty would be a self-atari to fill, first plays beside it
//!   (an approach move); moves that are self-atari without capturing are
//!   not played, so a shared liberty neither side can fill leaves a seki.
//!   The search ends with a capture, two passes (seki), or a chain
//!   escaping to [`SAFE_LIBERTIES`] more liberties than the race needs.
//!   A seki of two shared liberties is also asked whether one side breaks
//!   it by a sacrifice: filling one, so that the stones the other side
//!   captures leave it a nakade.
//! - **eye space**: a region of empty points (and the opponent's stones in
//!   it) enclosed by one colour gives its owner no eye, one, or two, from
//!   its shape: the nakade shapes of three to six points (straight and
//!   bent three, pyramid four, bulky five, crossed five, rabbity six) give
//!   one eye if the opponent holds the vital point and two if the owner
//!   does, so with the vital point empty the group is unsettled; the
//!   square four gives one eye whatever happens; a one-point eye is false
//!   when the opponent holds enough of its diagonals.
//!
//! [`group_status`] puts these together into a [`Verdict`] for a group:
//! alive, dead, seki, or unsettled (whoever moves first decides it), each
//! with a one-line reason. The method follows the published ideas of GNU
//! Go's reading (attack and defence of strings, semeai, eye shapes) and of
//! Benson's algorithm; no code is taken from any program.

use std::collections::HashMap;
use std::hash::{Hash, Hasher};

use crate::board::{Board, Cell, MAX_SIZE, Pt};
use crate::dedup::KeysAreHashes;

/// A chain with this many liberties is out of tactical danger.
pub const SAFE_LIBERTIES: usize = 4;
/// Nodes a question may visit before it is answered `Unknown`.
pub const NODE_BUDGET: usize = 2_000;
/// Moves a line of reading may go deep before it is answered `Unknown`:
/// the longest ladder on a 19x19 board is well within it, and it keeps the
/// recursion's stack small whatever the budget.
pub const MAX_DEPTH: usize = 200;

/// The stones or liberties [`Position::chain`] makes room for at once.
const CHAIN_CAPACITY: usize = 64;

const EMPTY: u8 = 0;
const BLACK: u8 = 1;
const WHITE: u8 = 2;
const BORDER: u8 = 3;

/// The answer to one tactical question about a chain or a pair of chains,
/// from the point of view of the chain asked about (`a` in a race).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// It lives (escapes, or wins the race) whoever moves first.
    Alive,
    /// It dies whoever moves first.
    Dead,
    /// Neither side of the race can fill the last shared liberties.
    Seki,
    /// Whoever moves first decides it.
    Unsettled,
    /// The node budget ran out first.
    Unknown,
}

/// A group's status with its reason, as [`group_status`] reads it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Verdict {
    pub outcome: Outcome,
    /// One line: what decides it ("two eyes", "nakade: vital point empty", ...).
    pub reason: &'static str,
}

/// A position to read on: the board's cells in its own layout (points
/// padded by a border, so that `p ± 1` and `p ± stride` are neighbours),
/// with a simple ko point and a node counter.
#[derive(Clone)]
pub struct Position {
    stride: usize,
    cells: Vec<u8>,
    ko: usize,
    nodes: usize,
    budget: usize,
    depth: usize,
}

fn code(c: Cell) -> u8 {
    match c {
        Cell::Empty => EMPTY,
        Cell::Black => BLACK,
        Cell::White => WHITE,
        Cell::Border => BORDER,
    }
}

fn other(c: u8) -> u8 {
    BLACK + WHITE - c
}

impl Position {
    pub fn new(board: &Board) -> Position {
        let stride = board.width() + 2;
        let mut cells = vec![BORDER; stride * (board.height() + 2)];
        for p in board.points() {
            cells[p as usize] = code(board.cell(p));
        }
        Position { stride, cells, ko: 0, nodes: 0, budget: NODE_BUDGET, depth: 0 }
    }

    /// A position from cells in the board's layout (0 empty, 1 black, 2
    /// white, 3 border; `stride` = width + 2), as the estimator holds them.
    pub(crate) fn from_cells(stride: usize, cells: &[u8]) -> Position {
        Position { stride, cells: cells.to_vec(), ko: 0, nodes: 0, budget: NODE_BUDGET, depth: 0 }
    }

    /// Sets the node budget of the next questions (and resets the count).
    pub fn with_budget(mut self, budget: usize) -> Position {
        self.budget = budget;
        self.nodes = 0;
        self
    }

    /// Nodes visited since the budget was set.
    pub fn nodes(&self) -> usize {
        self.nodes
    }

    fn nbrs(&self, p: usize) -> [usize; 4] {
        [p - self.stride, p - 1, p + 1, p + self.stride]
    }

    fn color(&self, p: Pt) -> u8 {
        self.cells[p as usize]
    }

    /// The stones of the chain at `p` and its liberties (each sorted).
    pub(crate) fn chain(&self, p: usize) -> (Vec<usize>, Vec<usize>) {
        let c = self.cells[p];
        let (mut in_chain, mut liberties) = (Seen::new(), Seen::new());
        in_chain.insert(p);
        // Sized for all but the biggest chains: grown one push at a time,
        // the list costs more in reallocations than in the walk.
        let mut stones = Vec::with_capacity(CHAIN_CAPACITY);
        stones.push(p);
        let mut count = 0;
        let mut i = 0;
        while i < stones.len() {
            let q = stones[i];
            i += 1;
            for n in self.nbrs(q) {
                let x = self.cells[n];
                if x == c && in_chain.insert(n) {
                    stones.push(n);
                } else if x == EMPTY && liberties.insert(n) {
                    count += 1;
                }
            }
        }
        // The sets give both lists sorted, with no sort.
        stones.clear();
        in_chain.extend_sorted(self.cells.len(), &mut stones);
        let mut libs = Vec::with_capacity(count);
        liberties.extend_sorted(self.cells.len(), &mut libs);
        (stones, libs)
    }

    /// The liberties of the chain at `p` (sorted).
    pub(crate) fn liberties(&self, p: usize) -> Vec<usize> {
        self.chain(p).1
    }

    /// Plays `c` at `p` if legal (empty, not the ko point, not suicide);
    /// removes what it captures and sets the ko point.
    fn play(&mut self, p: usize, c: u8) -> bool {
        self.place(p, c).is_some()
    }

    /// [`Position::play`], telling what the move did (`None`: illegal).
    fn place(&mut self, p: usize, c: u8) -> Option<Played> {
        if self.cells[p] != EMPTY || p == self.ko {
            return None;
        }
        self.cells[p] = c;
        // Two enemy chains are never adjacent, so taking one off gives no
        // other a liberty: each is tested on the board as it stands.
        let (mut captured, mut last) = (0, 0);
        for n in self.nbrs(p) {
            if self.cells[n] == other(c) && self.count_liberties(n, 1) == 0 {
                captured += self.remove(n);
                last = n;
            }
        }
        let liberties = self.count_liberties(p, 2);
        if liberties == 0 {
            self.cells[p] = EMPTY;
            return None;
        }
        let alone = self.nbrs(p).iter().all(|&n| self.cells[n] != c);
        self.ko = if captured == 1 && alone && liberties == 1 { last } else { 0 };
        Some(Played { captured: captured > 0, liberties })
    }

    /// The liberties of the chain at `p`, counted up to `limit`: the walk
    /// stops at the `limit`th.
    fn count_liberties(&self, p: usize, limit: usize) -> usize {
        // The liberties beside `p` are the chain's: often enough, no walk.
        if self.empty_beside(p) >= limit {
            return limit;
        }
        let c = self.cells[p];
        let mut seen = Seen::new();
        seen.insert(p);
        let mut stack = Vec::with_capacity(CHAIN_CAPACITY);
        stack.push(p);
        let mut count = 0;
        while let Some(q) = stack.pop() {
            for n in self.nbrs(q) {
                let x = self.cells[n];
                if x == c && seen.insert(n) {
                    stack.push(n);
                } else if x == EMPTY && seen.insert(n) {
                    count += 1;
                    if count == limit {
                        return count;
                    }
                }
            }
        }
        count
    }

    /// The empty points beside `p`.
    fn empty_beside(&self, p: usize) -> usize {
        self.nbrs(p).iter().filter(|&&n| self.cells[n] == EMPTY).count()
    }

    /// Takes the chain at `p` off the board; the stones it took.
    fn remove(&mut self, p: usize) -> usize {
        let c = self.cells[p];
        self.cells[p] = EMPTY;
        let mut stack = vec![p];
        let mut taken = 0;
        while let Some(q) = stack.pop() {
            taken += 1;
            for n in self.nbrs(q) {
                if self.cells[n] == c {
                    self.cells[n] = EMPTY;
                    stack.push(n);
                }
            }
        }
        taken
    }

    fn spend(&mut self) -> bool {
        self.nodes += 1;
        self.nodes <= self.budget && self.depth <= MAX_DEPTH
    }

    /// A copy to play the next move of a line of reading on.
    fn child(&self) -> Position {
        Position { depth: self.depth + 1, ..self.clone() }
    }

    /// Enemy chains next to the chain at `p` that are in atari: their last
    /// liberties (where the owner of `p` captures).
    fn captures_beside(&self, p: usize) -> Vec<usize> {
        self.captures_next_to(&self.chain(p).0, Seen::new())
    }

    /// [`Position::captures_beside`] for the chain of `stones` (sorted),
    /// skipping the enemy stones already in `walked`.
    fn captures_next_to(&self, stones: &[usize], mut walked: Seen) -> Vec<usize> {
        let enemy = other(self.cells[stones[0]]);
        let mut out = Vec::new();
        let mut stack = Vec::with_capacity(CHAIN_CAPACITY);
        // An enemy chain is walked again only from a stone its walks did not
        // reach, and a walk that stopped early found it out of atari.
        for &s in stones {
            for n in self.nbrs(s) {
                if self.cells[n] == enemy
                    && !walked.contains(n)
                    && let Some(l) = self.last_liberty(n, &mut walked, &mut stack)
                    && !out.contains(&l)
                {
                    out.push(l);
                }
            }
        }
        out
    }

    /// The one liberty of the chain at `p` if it is in atari. The walk
    /// stops at a second liberty; the stones it met go into `walked`
    /// (`stack`: room for the walk).
    fn last_liberty(&self, p: usize, walked: &mut Seen, stack: &mut Vec<usize>) -> Option<usize> {
        walked.insert(p);
        if self.empty_beside(p) >= 2 {
            return None;
        }
        let c = self.cells[p];
        // A walk of its own: `walked` may hold part of this chain, met by
        // a walk that stopped early.
        let mut seen = Seen::new();
        seen.insert(p);
        stack.clear();
        stack.push(p);
        let mut first = None;
        while let Some(q) = stack.pop() {
            for n in self.nbrs(q) {
                let x = self.cells[n];
                if x == c && seen.insert(n) {
                    walked.insert(n);
                    stack.push(n);
                } else if x == EMPTY && first != Some(n) {
                    if first.is_some() {
                        return None;
                    }
                    first = Some(n);
                }
            }
        }
        first
    }

    /// Whether the attacker, moving first, captures the chain at `p`
    /// (`None`: the budget ran out).
    fn attack(&mut self, p: usize) -> Option<bool> {
        if !self.spend() {
            return None;
        }
        let c = self.cells[p];
        if c != BLACK && c != WHITE {
            return Some(true);
        }
        let libs = self.liberties(p);
        if libs.len() >= 3 {
            return Some(false);
        }
        let attacker = other(c);
        if libs.len() == 1 {
            let mut next = self.child();
            return Some(next.play(libs[0], attacker));
        }
        let mut unknown = false;
        for &l in &libs {
            let mut next = self.child();
            if !next.play(l, attacker) {
                continue;
            }
            let answer = next.defend(p);
            self.nodes = next.nodes;
            match answer {
                Some(false) => return Some(true),
                None => unknown = true,
                Some(true) => {}
            }
        }
        if unknown { None } else { Some(false) }
    }

    /// Whether the owner of the chain at `p`, moving first, saves it from
    /// capture (`None`: the budget ran out).
    fn defend(&mut self, p: usize) -> Option<bool> {
        if !self.spend() {
            return None;
        }
        if self.cells[p] != BLACK && self.cells[p] != WHITE {
            return Some(false);
        }
        let c = self.cells[p];
        let libs = self.liberties(p);
        if libs.len() >= 3 {
            return Some(true);
        }
        // Captures first (they may also give liberties), then extensions.
        let mut moves = self.captures_beside(p);
        for &l in &libs {
            if !moves.contains(&l) {
                moves.push(l);
            }
        }
        let mut unknown = false;
        for m in moves {
            let mut next = self.child();
            if !next.play(m, c) || next.cells[p] != c {
                continue;
            }
            if next.liberties(p).len() < 2 {
                continue;
            }
            let answer = next.attack(p);
            self.nodes = next.nodes;
            match answer {
                Some(false) => return Some(true),
                None => unknown = true,
                Some(true) => {}
            }
        }
        if libs.len() == 2 {
            // Doing nothing may be enough.
            let mut next = self.child();
            next.ko = 0;
            match next.attack(p) {
                Some(false) => return Some(true),
                None => unknown = true,
                Some(true) => {}
            }
            self.nodes = next.nodes;
        }
        if unknown { None } else { Some(false) }
    }

    /// Capture and escape of the chain at `p`: `Alive` when it cannot be
    /// captured, `Dead` when it cannot be saved, `Unsettled` when whoever
    /// moves first decides. A chain of [`SAFE_LIBERTIES`] liberties or more
    /// is `Alive` here (the question is tactical only).
    pub fn capture(&mut self, p: Pt) -> Outcome {
        let p = p as usize;
        let c = self.cells[p];
        if c != BLACK && c != WHITE {
            return Outcome::Dead;
        }
        if self.liberties(p).len() >= SAFE_LIBERTIES {
            return Outcome::Alive;
        }
        let mut first = self.clone();
        first.ko = 0;
        let attack = first.attack(p);
        let mut second = self.clone();
        second.ko = 0;
        second.nodes = first.nodes;
        let defend = second.defend(p);
        self.nodes = second.nodes;
        match (attack, defend) {
            (Some(false), _) => Outcome::Alive,
            (Some(true), Some(false)) => Outcome::Dead,
            (Some(true), Some(true)) => Outcome::Unsettled,
            _ => Outcome::Unknown,
        }
    }

    /// A capturing race between the chains at `a` and `b` (adjacent, of
    /// opposite colours), from `a`'s side: `Alive` when `a` wins moving
    /// first or second, `Dead` when it loses either way, `Seki` when
    /// neither can fill the last liberties, `Unsettled` when the first
    /// move decides, `Unknown` past the budget.
    pub fn race(&mut self, a: Pt, b: Pt) -> Outcome {
        match self.race_values(a, b) {
            (Some(1), Some(1)) => Outcome::Alive,
            (Some(-1), Some(-1)) => Outcome::Dead,
            (Some(0), Some(0)) => Outcome::Seki,
            (Some(_), Some(_)) => Outcome::Unsettled,
            _ => Outcome::Unknown,
        }
    }

    /// The race's values for `a` (1 wins, 0 seki, -1 captured), `a`'s
    /// side moving first and `b`'s side moving first; `None` where the
    /// budget ran out.
    pub(crate) fn race_values(&mut self, a: Pt, b: Pt) -> (Option<i8>, Option<i8>) {
        let (a, b) = (a as usize, b as usize);
        let (ca, cb) = (self.cells[a], self.cells[b]);
        if (ca != BLACK && ca != WHITE) || cb != other(ca) {
            return (None, None);
        }
        let mut read = RaceTable::default();
        let mut first = self.clone();
        first.ko = 0;
        let a_first = first.race_value(&mut read, a, b, ca, ca, 0, -1, 1);
        let mut second = self.clone();
        second.ko = 0;
        second.nodes = first.nodes;
        let b_first = second.race_value(&mut read, a, b, ca, cb, 0, -1, 1);
        self.nodes = second.nodes;
        (a_first, b_first)
    }

    /// Whether the chain at `a` kills the chain at `b` in a seki of two
    /// shared liberties (each chain has exactly those two) by giving
    /// itself up: `a` fills one of them, `b` must capture at the other,
    /// and the stones captured leave `b` an eye space of one eye, or one
    /// whose vital point `a`'s side then takes (a pyramid four, say). The
    /// race search does not play such sacrifices: it ends when `a` is
    /// captured.
    pub(crate) fn sacrifice_kills(&self, a: usize, b: usize) -> bool {
        let (ca, cb) = (self.cells[a], self.cells[b]);
        let shared = self.liberties(a);
        if (ca != BLACK && ca != WHITE) || cb != other(ca) || shared.len() != 2 || self.liberties(b) != shared {
            return false;
        }
        (0..2).any(|i| {
            let (fill, last) = (shared[i], shared[1 - i]);
            let mut after = self.clone();
            after.ko = 0;
            if !after.play(fill, ca) {
                return false;
            }
            let (given, libs) = after.chain(fill);
            if libs != [last] {
                return false;
            }
            if !after.play(last, cb) {
                return false;
            }
            let (owner, libs) = after.chain(last);
            // The captured stones must be the whole eye space of `b`'s chain.
            let enclosed =
                given.iter().all(|&p| after.nbrs(p).iter().all(|&n| given.contains(&n) || after.cells[n] == BORDER || owner.binary_search(&n).is_ok()));
            let eye: Vec<Pt> = given.iter().map(|&p| p as Pt).collect();
            enclosed && libs.iter().all(|l| given.contains(l)) && !matches!(eye_space_at(&after, &eye, cb), Eyes::Two)
        })
    }

    /// Minimax value of the race for `a` (colour `ca`): 1 `a` wins, 0
    /// seki, -1 `a` is captured; `to_move` plays, `passes` in a row so
    /// far, alpha-beta window [alpha, beta]. `None`: the budget ran out.
    #[allow(clippy::too_many_arguments)]
    fn race_value(&mut self, read: &mut RaceTable, a: usize, b: usize, ca: u8, to_move: u8, passes: u8, mut alpha: i8, mut beta: i8) -> Option<i8> {
        if self.cells[a] != ca {
            return Some(-1);
        }
        if self.cells[b] != other(ca) {
            return Some(1);
        }
        if passes >= 2 {
            return Some(0);
        }
        let key = self.race_key(to_move, passes);
        if let Some(v) = read.settles(&key, alpha, beta) {
            return Some(v);
        }
        if !self.spend() {
            return None;
        }
        let window = (alpha, beta);
        let ((sa, la), (sb, lb)) = (self.chain(a), self.chain(b));
        // A chain far ahead in liberties has won: the other cannot fill
        // them all before being captured.
        if la.len() >= lb.len() + SAFE_LIBERTIES {
            return Some(1);
        }
        if lb.len() >= la.len() + SAFE_LIBERTIES {
            return Some(-1);
        }
        let maximizing = to_move == ca;
        let mine = if maximizing { a } else { b };
        let (my_stones, their_stones) = if maximizing { (&sa, &sb) } else { (&sb, &sa) };
        let (my_libs, their_libs) = if maximizing { (&la, &lb) } else { (&lb, &la) };
        let mut moves: Vec<usize> = Vec::new();
        let push = |m: usize, moves: &mut Vec<usize>| {
            if !moves.contains(&m) {
                moves.push(m);
            }
        };
        // Captures first: of the opponent's chain, or of a neighbour of mine.
        if their_libs.len() == 1 {
            push(their_libs[0], &mut moves);
        }
        // The opponent's chain is left out: in atari, it is captured first
        // above.
        let mut walked = Seen::new();
        for &s in their_stones {
            walked.insert(s);
        }
        for m in self.captures_next_to(my_stones, walked) {
            push(m, &mut moves);
        }
        // Fill the opponent's liberties, its outside ones before the
        // shared ones; then extend my own chain.
        for &l in their_libs.iter().filter(|l| !my_libs.contains(l)) {
            push(l, &mut moves);
        }
        for &l in their_libs.iter().filter(|l| my_libs.contains(l)) {
            push(l, &mut moves);
        }
        for &l in my_libs {
            push(l, &mut moves);
        }
        // Approach moves: an outside liberty of the opponent's that would be
        // a self-atari to fill is first given room from an empty neighbour.
        for &l in their_libs.iter().filter(|l| !my_libs.contains(l)) {
            if self.empty_beside(l) < 2 && self.child().place(l, to_move).is_some_and(|played| played.self_atari()) {
                for n in self.nbrs(l).into_iter().filter(|&n| self.cells[n] == EMPTY && !their_libs.contains(&n)) {
                    push(n, &mut moves);
                }
            }
        }
        let capture = (their_libs.len() == 1).then(|| their_libs[0]);
        let mut best: i8 = if maximizing { -2 } else { 2 };
        let mut unknown = false;
        // Each move, then a pass (always possible: it is how a seki ends).
        for m in moves.into_iter().map(Some).chain([None]) {
            let mut next = self.child();
            let next_passes = match m {
                Some(m) => {
                    let Some(played) = next.place(m, to_move) else {
                        continue;
                    };
                    if (capture != Some(m) && played.self_atari()) || next.cells[mine] != to_move {
                        continue;
                    }
                    0
                }
                None => {
                    next.ko = 0;
                    passes + 1
                }
            };
            let v = next.race_value(read, a, b, ca, other(to_move), next_passes, alpha, beta);
            self.nodes = next.nodes;
            let Some(v) = v else {
                unknown = true;
                continue;
            };
            if maximizing {
                best = best.max(v);
                alpha = alpha.max(v);
            } else {
                best = best.min(v);
                beta = beta.min(v);
            }
            if alpha >= beta {
                break;
            }
        }
        // A move not read might have been better, unless the best is the
        // best there is.
        let ideal = if maximizing { 1 } else { -1 };
        if unknown && best != ideal {
            return None;
        }
        read.store(key, best, window);
        Some(best)
    }

    /// The key of a race position: the cells, the ko point, the side to
    /// move and the passes before it.
    fn race_key(&self, to_move: u8, passes: u8) -> RaceKey {
        // A multiplicative hash of the cells' words, as rustc's tables hash
        // theirs (SipHash guards against chosen keys the table never meets).
        let mut hash = (self.ko as u64) << 16 | u64::from(to_move) << 8 | u64::from(passes);
        let mut add = |word: u64| hash = (hash.rotate_left(5) ^ word).wrapping_mul(0x517c_c1b7_2722_0a95);
        let mut words = self.cells.chunks_exact(8);
        for word in &mut words {
            add(u64::from_le_bytes(word.try_into().expect("eight bytes")));
        }
        for &b in words.remainder() {
            add(u64::from(b));
        }
        // The multiplication's best-mixed high bits brought down to the
        // low ones, which pick the table's bucket.
        RaceKey { hash: hash.rotate_left(26), cells: self.cells.as_slice().into(), ko: self.ko, to_move, passes }
    }
}

/// A race position as [`RaceTable`] keys it: the whole position, so that
/// two positions never share an entry, and its hash.
#[derive(PartialEq, Eq)]
struct RaceKey {
    hash: u64,
    cells: Box<[u8]>,
    ko: usize,
    to_move: u8,
    passes: u8,
}

impl Hash for RaceKey {
    fn hash<H: Hasher>(&self, state: &mut H) {
        state.write_u64(self.hash);
    }
}

/// What a legal move did, as [`Position::place`] tells it.
struct Played {
    /// Whether it took enemy stones off.
    captured: bool,
    /// Its chain's liberties, counted up to two.
    liberties: usize,
}

impl Played {
    /// Whether it left its chain in atari without capturing.
    fn self_atari(&self) -> bool {
        !self.captured && self.liberties == 1
    }
}

/// The race values already read, by position, each with what the
/// alpha-beta window it was read in makes of it: filling the same
/// liberties in another order reaches the same position, which the search
/// would otherwise read again for every order.
#[derive(Default)]
struct RaceTable(HashMap<RaceKey, (i8, Bound), KeysAreHashes>);

/// What a value read in a window says of the position's value.
#[derive(Clone, Copy)]
enum Bound {
    Exact,
    /// The value is at least this (the search stopped at the window's top).
    AtLeast,
    /// The value is at most this (nothing reached the window's bottom).
    AtMost,
}

impl RaceTable {
    /// The position's value if what was read of it settles it in the
    /// window `alpha`..`beta`.
    fn settles(&self, key: &RaceKey, alpha: i8, beta: i8) -> Option<i8> {
        let &(v, bound) = self.0.get(key)?;
        match bound {
            Bound::Exact => Some(v),
            Bound::AtLeast if v >= beta => Some(v),
            Bound::AtMost if v <= alpha => Some(v),
            _ => None,
        }
    }

    fn store(&mut self, key: RaceKey, v: i8, (alpha, beta): (i8, i8)) {
        let bound = if v <= alpha {
            Bound::AtMost
        } else if v >= beta {
            Bound::AtLeast
        } else {
            Bound::Exact
        };
        self.0.insert(key, (v, bound));
    }
}

/// A set of points of a position, one bit a cell (the largest board fits):
/// the walks over chains ask it instead of searching their lists.
struct Seen([u64; SEEN_WORDS]);

const SEEN_WORDS: usize = (MAX_SIZE + 2) * (MAX_SIZE + 2) / 64 + 1;

impl Seen {
    fn new() -> Seen {
        Seen([0; SEEN_WORDS])
    }

    /// Adds `p`; whether it was not in the set.
    #[inline]
    fn insert(&mut self, p: usize) -> bool {
        let (word, bit) = (p / 64, 1u64 << (p % 64));
        let new = self.0[word] & bit == 0;
        self.0[word] |= bit;
        new
    }

    #[inline]
    fn contains(&self, p: usize) -> bool {
        self.0[p / 64] & (1u64 << (p % 64)) != 0
    }

    /// Pushes the points of the set below `len` onto `out`, in order. A
    /// loop of its own, not [`crate::bits::members`]: on the races' walks
    /// the iterator cost 0.3% of the finished games' instructions.
    fn extend_sorted(&self, len: usize, out: &mut Vec<usize>) {
        for (i, &word) in self.0[..len.div_ceil(64)].iter().enumerate() {
            let mut bits = word;
            while bits != 0 {
                out.push(i * 64 + bits.trailing_zeros() as usize);
                bits &= bits - 1;
            }
        }
    }
}

/// What an enclosed region gives its owner.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Eyes {
    /// No eye (a false eye).
    None,
    /// One eye whatever happens.
    One,
    /// Two eyes whatever happens.
    Two,
    /// One eye if the opponent takes `vital`, two if the owner does.
    Vital(Pt),
}

/// What the region `points` (empty points and opponent stones, connected,
/// enclosed by `owner`'s stones and the edge) gives `owner`.
pub fn eye_space(board: &Board, points: &[Pt], owner: Cell) -> Eyes {
    eye_space_at(&Position::new(board), points, code(owner))
}

fn eye_space_at(pos: &Position, points: &[Pt], owner: u8) -> Eyes {
    let n = points.len();
    if n == 1 {
        return if false_eye(pos, points[0] as usize, owner) { Eyes::None } else { Eyes::One };
    }
    if n == 2 {
        return Eyes::One;
    }
    if n >= 7 {
        return Eyes::Two;
    }
    let space: Vec<usize> = points.iter().map(|&p| p as usize).collect();
    let vital = match shape(&space, pos.stride) {
        Shape::Square => return Eyes::One,
        Shape::Lives => return Eyes::Two,
        Shape::Killing(vital) => vital as Pt,
    };
    match pos.color(vital) {
        EMPTY => Eyes::Vital(vital),
        c if c == owner => Eyes::Two,
        _ => Eyes::One,
    }
}

/// What a connected space of three to six points gives as an eye space,
/// by its shape alone.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Shape {
    /// The square four: one eye whatever happens.
    Square,
    /// A killing shape (straight or bent three, pyramid four, crossed or
    /// bulky five, rabbity six): one eye if the opponent takes this vital
    /// point, two if the owner does.
    Killing(usize),
    /// Two eyes whatever happens (any other shape).
    Lives,
}

/// The shape of `space` (board points, `stride` a row): its vital point is
/// the first point with the most neighbours in it.
pub(crate) fn shape(space: &[usize], stride: usize) -> Shape {
    let inside = |p: usize| space.contains(&p);
    let degree = |p: usize| [p - stride, p - 1, p + 1, p + stride].into_iter().filter(|&q| inside(q)).count();
    let (mut hub, mut max, mut degree_sum) = (0, 0, 0);
    for &p in space {
        let d = degree(p);
        degree_sum += d;
        if d > max {
            (hub, max) = (p, d);
        }
    }
    let edges = degree_sum / 2;
    let has_square = || space.iter().any(|&p| inside(p + 1) && inside(p + stride) && inside(p + stride + 1));
    let killing = match space.len() {
        // Straight or bent three: the middle point.
        3 => true,
        4 if edges == 4 => return Shape::Square,
        // Pyramid four: the centre.
        4 => max == 3,
        // Bulky five (a square and one more; its vital point is the
        // square's point that touches three), crossed five.
        5 => (has_square() && edges == 5) || max == 4,
        // Rabbity six (a crossed five and one more beside two arms).
        6 => max == 4 && edges == 6,
        _ => false,
    };
    if killing { Shape::Killing(hub) } else { Shape::Lives }
}

/// A one-point eye is false when the opponent holds (or can take safely)
/// enough of its diagonals: two in the middle of the board, one on the
/// edge or in the corner. Here "holds" counts the opponent's stones only.
fn false_eye(pos: &Position, p: usize, owner: u8) -> bool {
    let s = pos.stride;
    let diagonals = [p - s - 1, p - s + 1, p + s - 1, p + s + 1];
    let edge = diagonals.iter().any(|&d| pos.cells[d] == BORDER);
    let bad = diagonals.iter().filter(|&&d| pos.cells[d] == other(owner)).count();
    if edge { bad >= 1 } else { bad >= 2 }
}

/// The regions the group encloses: connected sets of empty points and
/// opponent stones next to the group, bordered only by the group's own
/// stones and the edge, of at most `max_size` points.
fn enclosed_regions(pos: &Position, group: &[usize], owner: u8, max_size: usize) -> Vec<Vec<usize>> {
    let mut seen: Vec<usize> = Vec::new();
    let mut out = Vec::new();
    for &s in group {
        for start in pos.nbrs(s) {
            if pos.cells[start] != EMPTY || seen.contains(&start) {
                continue;
            }
            let mut region = vec![start];
            seen.push(start);
            let mut closed = true;
            let mut i = 0;
            while i < region.len() {
                let q = region[i];
                i += 1;
                for n in pos.nbrs(q) {
                    let c = pos.cells[n];
                    if c == BORDER || region.contains(&n) {
                        continue;
                    }
                    if c == owner {
                        if !group.contains(&n) {
                            closed = false;
                        }
                        continue;
                    }
                    region.push(n);
                    if c == EMPTY {
                        seen.push(n);
                    }
                    if region.len() > max_size {
                        closed = false;
                        break;
                    }
                }
                if !closed {
                    break;
                }
            }
            if closed {
                region.sort_unstable();
                out.push(region);
            }
        }
    }
    out
}

/// Whether the group at `stones` (its chains' stones) has fewer than two
/// eyes unless it takes the empty vital point of a nakade shape: the eye
/// part of [`status_of`], without its capture search.
pub(crate) fn vital_point_empty(pos: &Position, stones: &[usize]) -> bool {
    matches!(eyes_of(pos, stones), Some((_, Some(EyeCount { sure: 0, vital: 1, .. }))))
}

/// Whether every chain of the group at `stones` (its chains' stones, one
/// colour) touches eyes worth two: the group's enclosed regions are read
/// by their shape, and a chain counts only the regions it borders itself,
/// or those of the chains it cannot be cut from ([`cannot_be_cut`]). A
/// group of chains that share liberties without being connected can be
/// cut apart; each part then needs its own two eyes, as in Benson's test.
pub(crate) fn every_chain_two_eyes(pos: &Position, stones: &[usize]) -> bool {
    let Some((owner, Some(EyeCount { regions, worth, .. }))) = eyes_of(pos, stones) else {
        return false;
    };
    let mut seen = Seen::new();
    let mut chains: Vec<(Vec<usize>, Vec<usize>)> = Vec::new();
    for &s in stones {
        if seen.contains(s) {
            continue;
        }
        let chain = pos.chain(s);
        for &c in &chain.0 {
            seen.insert(c);
        }
        chains.push(chain);
    }
    let in_eye = |p: usize| regions.iter().any(|r| r.binary_search(&p).is_ok());
    let mut part: Vec<usize> = (0..chains.len()).collect();
    for i in 0..chains.len() {
        for j in i + 1..chains.len() {
            if cannot_be_cut(pos, owner, &chains[i].1, &chains[j].1, &in_eye) {
                let (a, b) = (part_of(&part, i), part_of(&part, j));
                part[a.max(b)] = a.min(b);
            }
        }
    }
    let parts: Vec<usize> = (0..chains.len()).map(|i| part_of(&part, i)).collect();
    parts.iter().all(|&own| {
        let members = chains.iter().zip(&parts).filter(|&(_, &p)| p == own).map(|((stones, _), _)| stones);
        let touches = |r: &Vec<usize>| members.clone().any(|stones| r.iter().any(|&q| pos.nbrs(q).iter().any(|n| stones.binary_search(n).is_ok())));
        regions.iter().zip(&worth).filter(|(r, _)| touches(r)).map(|(_, w)| w).sum::<u32>() >= 2
    })
}

/// The part chain `i` belongs to: the least chain of it.
fn part_of(part: &[usize], mut i: usize) -> usize {
    while part[i] != i {
        i = part[i];
    }
    i
}

/// Whether two chains of `owner`'s with these liberties stay joined
/// whatever the opponent does: they share two liberties outside the
/// group's eyes (a cut at one is answered at the other), or one there
/// beside a shared eye, where the cut is a self-atari that takes nothing
/// (the owner captures the cutting stone and keeps the eye).
fn cannot_be_cut(pos: &Position, owner: u8, a: &[usize], b: &[usize], in_eye: &dyn Fn(usize) -> bool) -> bool {
    let shared: Vec<usize> = a.iter().copied().filter(|p| b.binary_search(p).is_ok()).collect();
    let cuts: Vec<usize> = shared.iter().copied().filter(|&p| !in_eye(p)).collect();
    match cuts[..] {
        [cut] if shared.len() >= 2 => {
            let mut after = pos.clone();
            after.place(cut, other(owner)).is_none_or(|played| !played.captured && played.liberties < 2)
        }
        [_, _, ..] => true,
        _ => false,
    }
}

/// What the regions a group encloses give it.
struct EyeCount {
    /// Eyes it has whatever happens (a two-eye region counts two).
    sure: u32,
    /// Regions with an empty vital point: an eye or two for whoever plays it.
    vital: u32,
    /// The regions, empty points and opponent stones.
    regions: Vec<Vec<usize>>,
    /// The eyes each region is sure to give: one for a vital point left
    /// empty (one eye whoever takes it), none when its border is in atari.
    worth: Vec<u32>,
}

/// The group's colour and its eyes; the eyes are `None` when opponent
/// stones lie inside its eye space (they may live in seki there, which the
/// eye shapes do not tell). `None` when `stones` holds no stone.
fn eyes_of(pos: &Position, stones: &[usize]) -> Option<(u8, Option<EyeCount>)> {
    let owner = pos.cells[*stones.first()?];
    if owner != BLACK && owner != WHITE {
        return None;
    }
    let regions = enclosed_regions(pos, stones, owner, 12);
    if regions.iter().flatten().any(|&p| pos.cells[p] != EMPTY) {
        return Some((owner, None));
    }
    let (mut sure, mut vital) = (0u32, 0u32);
    let mut worth = Vec::with_capacity(regions.len());
    for r in &regions {
        // An eye whose border is in atari is no eye: the opponent captures there.
        if r.iter().any(|&p| pos.nbrs(p).iter().any(|&n| pos.cells[n] == owner && pos.liberties(n).len() < 2)) {
            worth.push(0);
            continue;
        }
        let pts: Vec<Pt> = r.iter().map(|&p| p as Pt).collect();
        let eyes = eye_space_at(pos, &pts, owner);
        match eyes {
            Eyes::None => {}
            Eyes::One => sure += 1,
            Eyes::Two => sure += 2,
            Eyes::Vital(_) => vital += 1,
        }
        worth.push(match eyes {
            Eyes::None => 0,
            Eyes::One | Eyes::Vital(_) => 1,
            Eyes::Two => 2,
        });
    }
    Some((owner, Some(EyeCount { sure, vital, regions, worth })))
}

/// The status of the group of `owner`'s chains at `group` (their stones),
/// from its eye spaces, and, when it has fewer than two eyes, from the
/// capture of its weakest chain.
pub fn group_status(board: &Board, group: &[Pt]) -> Verdict {
    let stones: Vec<usize> = group.iter().map(|&p| p as usize).collect();
    status_of(&Position::new(board), &stones)
}

/// [`group_status`] on a position already built.
fn status_of(pos: &Position, stones: &[usize]) -> Verdict {
    let Some((owner, eyes)) = eyes_of(pos, stones) else {
        return Verdict { outcome: Outcome::Unknown, reason: "no stones" };
    };
    let Some(EyeCount { sure, vital, regions, .. }) = eyes else {
        return Verdict { outcome: Outcome::Unknown, reason: "opponent stones inside its eye space" };
    };
    if sure >= 2 {
        return Verdict { outcome: Outcome::Alive, reason: "two eyes" };
    }
    if sure == 1 && vital >= 1 || vital >= 2 {
        return Verdict { outcome: Outcome::Alive, reason: "an eye and a vital point of its own to play, or two" };
    }
    if vital == 1 {
        return Verdict { outcome: Outcome::Unsettled, reason: "eye shape: the vital point of a nakade shape is empty" };
    }
    // Fewer than two eyes. With no liberty outside its eye space, the
    // group can neither escape nor win a race against a wall with
    // liberties of its own.
    let inside: Vec<usize> = regions.iter().flatten().copied().collect();
    let mut outside = false;
    let mut walls: Vec<usize> = Vec::new();
    for &s in stones {
        for n in pos.nbrs(s) {
            match pos.cells[n] {
                EMPTY if !inside.contains(&n) => outside = true,
                c if c == other(owner) && !inside.contains(&n) => walls.push(n),
                _ => {}
            }
        }
    }
    let mut reader = pos.clone();
    let weak_wall = walls.iter().any(|&w| reader.liberties(w).len() < SAFE_LIBERTIES);
    if !outside && !weak_wall {
        return Verdict { outcome: Outcome::Dead, reason: "at most one eye, no liberty outside its eye space, and a wall with liberties around it" };
    }
    let weakest = stones.iter().copied().min_by_key(|&s| reader.liberties(s).len()).unwrap_or(stones[0]);
    match reader.capture(weakest as Pt) {
        Outcome::Dead => Verdict { outcome: Outcome::Dead, reason: "fewer than two eyes, and its weakest chain cannot escape capture" },
        Outcome::Unsettled => {
            Verdict { outcome: Outcome::Unsettled, reason: "fewer than two eyes, and its weakest chain is captured if the opponent moves first" }
        }
        _ if sure == 1 => Verdict { outcome: Outcome::Unknown, reason: "one eye: a race or an escape decides" },
        _ => Verdict { outcome: Outcome::Unknown, reason: "no eye: a race or an escape decides" },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(rows: &[&str]) -> Board {
        Board::from_rows(rows).expect("a valid diagram")
    }

    fn at(b: &Board, x: usize, y: usize) -> Pt {
        b.point(x, y).unwrap()
    }

    /// Black c4-d4 is in atari (liberty d5); each escape gives two liberties again.
    const LADDER: [&str; 9] = [
        ".........", //
        ".........",
        "..OO.....",
        ".OXXO....",
        "..O......",
        ".........",
        ".........",
        ".........",
        ".........",
    ];

    #[test]
    fn a_ladder_captures_unless_a_stone_on_its_path_breaks_it() {
        let b = board(&LADDER);
        assert_eq!(Position::new(&b).capture(at(&b, 2, 3)), Outcome::Dead);
        let mut broken = LADDER;
        broken[6] = "......X..";
        let b = board(&broken);
        assert_eq!(Position::new(&b).capture(at(&b, 2, 3)), Outcome::Unsettled);
    }

    #[test]
    fn a_chain_in_atari_that_cannot_extend_is_dead_and_many_liberties_are_safe() {
        // White c1-c2-d2: liberties b1 and d1; after Black d1, b1 leaves it
        // in atari again.
        let b = board(&[
            "..O.X....", //
            "XXOOX....",
            "..XXX....",
            ".........",
        ]);
        assert_eq!(Position::new(&b).capture(at(&b, 2, 0)), Outcome::Dead);
        let b = board(&["....", ".XX.", "....", "...."]);
        assert_eq!(Position::new(&b).capture(at(&b, 1, 1)), Outcome::Alive);
    }

    #[test]
    fn the_budget_bounds_every_question() {
        let b = board(&LADDER);
        let mut p = Position::new(&b).with_budget(5);
        assert_eq!(p.capture(at(&b, 2, 3)), Outcome::Unknown);
    }

    #[test]
    fn a_line_of_reading_deeper_than_the_bound_is_unknown() {
        let b = board(&LADDER);
        let mut p = Position::new(&b).with_budget(usize::MAX);
        p.depth = MAX_DEPTH;
        assert_eq!(p.capture(at(&b, 2, 3)), Outcome::Unknown);
        assert_eq!(Position::new(&b).capture(at(&b, 2, 3)), Outcome::Dead, "the ladder itself is read");
    }

    /// Black a1-a3-b3 and White c1-c3 share b1 and b2, and nothing else.
    const SHARED_SEKI: [&str; 7] = [
        "X.OX.....", //
        "X.OX.....",
        "XXOX.....",
        "OOXX.....",
        "OOXXXXXXX",
        "OOOOOOOOO",
        ".........",
    ];

    #[test]
    fn a_race_ends_in_seki_when_no_one_can_fill_the_shared_liberties() {
        let seki = board(&SHARED_SEKI);
        assert_eq!(Position::new(&seki).race(at(&seki, 0, 0), at(&seki, 2, 0)), Outcome::Seki);
    }

    #[test]
    fn a_seki_of_two_shared_liberties_is_broken_by_a_sacrifice_that_leaves_a_nakade() {
        // The lower right corner of kgs-19-2006/2006-07-22-24: White's
        // corner chain and Black's three stones on the edge share the two
        // liberties (the empty points) and have no other. Black fills the
        // one beside its middle stone; White must capture four stones in
        // the shape of a pyramid, and Black takes its centre.
        #[rustfmt::skip]
        let corner = board(&[
            "......",
            "XXXXXX",
            "XXXOOX",
            "XXXOOO",
            "XXOOXO",
            "XXO.XO",
            "XOOOX.",
        ]);
        let (black, white) = (at(&corner, 4, 5).into(), at(&corner, 3, 3).into());
        let position = Position::new(&corner);
        assert!(position.sacrifice_kills(black, white));
        assert!(!position.sacrifice_kills(white, black), "White's sacrifice leaves Black a big eye space");
        // Here either sacrifice leaves a bent or bulky shape of two eyes.
        let seki = board(&SHARED_SEKI);
        let (black, white) = (at(&seki, 0, 0).into(), at(&seki, 2, 0).into());
        let position = Position::new(&seki);
        assert!(!position.sacrifice_kills(black, white) && !position.sacrifice_kills(white, black));
    }

    #[test]
    fn an_outside_liberty_that_would_be_a_self_atari_is_approached_first() {
        // The upper left corner of KGS2002/2002-10-13-17 (Black's dead A18
        // taken off), walled in: Black's C18 chain has four liberties (A17
        // and E17 outside, B18 and D19 shared), White's B19-C19 three (A19
        // outside). Black filling A19 is a self-atari until Black plays A18
        // beside it; without that approach Black could never fill A19, and
        // White moving first won the race. Now Black moving first wins,
        // and White moving first gets a seki at best.
        #[rustfmt::skip]
        let corner = board(&[
            ".OO.XOX..",
            "..XXXOX..",
            ".XXO.OX..",
            ".OO.OOOXX",
            "OOOOOOOOO",
            ".........",
            "OOOOOOOOO",
            "XXXXXXXXX",
            ".........",
        ]);
        let (black, white) = (at(&corner, 2, 1), at(&corner, 2, 0));
        assert_eq!(Position::new(&corner).race_values(black, white), (Some(1), Some(0)));
    }

    #[test]
    fn a_race_against_a_chain_in_atari_is_won_by_the_chain_with_liberties() {
        let b = board(&[
            ".OX....", //
            "OOX....", "XXX....", ".......",
        ]);
        let (black, white) = (at(&b, 2, 0), at(&b, 1, 0));
        assert_eq!(Position::new(&b).race(black, white), Outcome::Alive);
        assert_eq!(Position::new(&b).race(white, black), Outcome::Dead);
    }

    #[test]
    fn nakade_shapes_have_vital_points_and_the_square_is_one_eye() {
        let three = board(&["OOOOO", "O...O", "OOOOO", "....."]);
        let pts: Vec<Pt> = (1..4).map(|x| at(&three, x, 1)).collect();
        assert_eq!(eye_space(&three, &pts, Cell::White), Eyes::Vital(at(&three, 2, 1)));
        let square = board(&["OOOO.", "O..O.", "O..O.", "OOOO."]);
        let pts = vec![at(&square, 1, 1), at(&square, 2, 1), at(&square, 1, 2), at(&square, 2, 2)];
        assert_eq!(eye_space(&square, &pts, Cell::White), Eyes::One);
        let straight = board(&["OOOOOO", "O....O", "OOOOOO"]);
        let pts: Vec<Pt> = (1..5).map(|x| at(&straight, x, 1)).collect();
        assert_eq!(eye_space(&straight, &pts, Cell::White), Eyes::Two);
        // Pyramid four (with a black stone at its foot): the vital point is
        // the centre; once Black holds it, one eye.
        let pyramid = board(&["OOOOO", "O...O", "OOXOO", "..O.."]);
        let pts = vec![at(&pyramid, 1, 1), at(&pyramid, 2, 1), at(&pyramid, 3, 1), at(&pyramid, 2, 2)];
        assert_eq!(eye_space(&pyramid, &pts, Cell::White), Eyes::Vital(at(&pyramid, 2, 1)));
        let taken = board(&["OOOOO", "O.X.O", "OO.OO", "..O.."]);
        let pts = vec![at(&taken, 1, 1), at(&taken, 2, 1), at(&taken, 3, 1), at(&taken, 2, 2)];
        assert_eq!(eye_space(&taken, &pts, Cell::White), Eyes::One);
        // Crossed five: the centre.
        let cross = board(&["OOOOO", "OO.OO", "O...O", "OO.OO", "OOOOO"]);
        let pts = vec![at(&cross, 2, 1), at(&cross, 1, 2), at(&cross, 2, 2), at(&cross, 3, 2), at(&cross, 2, 3)];
        assert_eq!(eye_space(&cross, &pts, Cell::White), Eyes::Vital(at(&cross, 2, 2)));
    }

    #[test]
    fn a_one_point_eye_on_the_edge_is_false_with_one_enemy_diagonal() {
        let b = board(&["O.OX.", "XOO..", "....."]);
        assert_eq!(eye_space(&b, &[at(&b, 1, 0)], Cell::White), Eyes::None);
        let good = board(&["O.O..", "OOO..", "....."]);
        assert_eq!(eye_space(&good, &[at(&good, 1, 0)], Cell::White), Eyes::One);
    }

    /// The stones of the chains at these points, as a group.
    fn stones(b: &Board, chains: &[(usize, usize)]) -> Vec<usize> {
        chains.iter().flat_map(|&(x, y)| b.chain(at(b, x, y))).map(|p| p as usize).collect()
    }

    #[test]
    fn each_chain_of_a_group_needs_two_eyes_of_its_own() {
        let two = board(&[".O.O.X...", "OOOOOX...", "XXXXXX...", "........."]);
        assert!(every_chain_two_eyes(&Position::new(&two), &stones(&two, &[(1, 1)])));
        // Two chains with an eye each share a two-point eye, and a third
        // chain, one stone, borders only that shared eye: it can be cut off.
        let cut = board(&[".O.O.OX..", "OO.OOOX..", "XXOXXXX..", "........."]);
        let pos = Position::new(&cut);
        assert!(!every_chain_two_eyes(&pos, &stones(&cut, &[(1, 1), (4, 1), (2, 2)])));
        // Connected into one chain, the same stones have three eyes.
        let whole = board(&[".O.O.OX..", "OO.OOOX..", "XOOOXXX..", "........."]);
        assert!(every_chain_two_eyes(&Position::new(&whole), &stones(&whole, &[(1, 1)])));
    }

    #[test]
    fn a_chain_that_cannot_be_cut_off_shares_the_eyes_of_its_neighbour() {
        // A 9x9 board whose top rows are these, the rest empty.
        let nine = |top: &[&str]| {
            let mut rows = top.to_vec();
            rows.resize(9, ".........");
            board(&rows)
        };
        // White's D9-E8 borders one eye, C9, and shares with the two-eyed
        // chain beside it one more liberty, D8: Black's cut there is a
        // self-atari, which White takes, keeping both eyes.
        let joined = nine(&[".O.OO....", "OOO.O....", "..O......"]);
        assert!(every_chain_two_eyes(&Position::new(&joined), &stones(&joined, &[(1, 1), (3, 0)])));
        // Without E8 the cut at D8 has two liberties: it stands, and
        // D9-E9 is left with one eye.
        let cut = nine(&[".O.OO....", "OOO......", "..O......"]);
        assert!(!every_chain_two_eyes(&Position::new(&cut), &stones(&cut, &[(1, 1), (3, 0)])));
        // E7 has no eye, but shares two liberties outside the eyes with
        // the two-eyed chain, D7 and E8: a cut at one is answered at the other.
        let miai = nine(&[".O.O.....", "OOOO.....", "....O...."]);
        assert!(every_chain_two_eyes(&Position::new(&miai), &stones(&miai, &[(1, 1), (4, 2)])));
    }

    #[test]
    fn group_verdicts_read_the_eyes() {
        let two = board(&[".O.O.X...", "OOOOOX...", "XXXXXX...", "........."]);
        let v = group_status(&two, &two.chain(at(&two, 1, 1)));
        assert_eq!(v.outcome, Outcome::Alive, "{v:?}");
        // A straight three with its vital point empty.
        let nakade = board(&["O...OX...", "OOOOOX...", "XXXXXX...", "........."]);
        let v = group_status(&nakade, &nakade.chain(at(&nakade, 1, 1)));
        assert_eq!(v.outcome, Outcome::Unsettled, "{v:?}");
        // One eye of two points, no liberty outside it, a wall with many.
        let dead = board(&["O..OX....", "OOOOX....", "XXXXX....", "........."]);
        let v = group_status(&dead, &dead.chain(at(&dead, 1, 1)));
        assert_eq!(v.outcome, Outcome::Dead, "{v:?}");
        // With Black's stone inside, a seki is possible: the eye shapes do not tell.
        let inside = board(&["O.X.OX...", "OOOOOX...", "XXXXXX...", "........."]);
        let v = group_status(&inside, &inside.chain(at(&inside, 1, 1)));
        assert_eq!(v.outcome, Outcome::Unknown, "{v:?}");
    }
}
