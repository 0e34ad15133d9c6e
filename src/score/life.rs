//! Life of an enclosed group, read out: a group whose every liberty lies in
//! small regions it encloses lives if the attacker, moving first, cannot
//! capture any of its chains.
//!
//! Only the points of those regions are played, and the group's liberties
//! on open ground, which only the attacker fills, but for the joints: a
//! liberty there that joins two chains of the group and gives it nothing
//! more, where the defender answers a cut. A chain of the group
//! with no liberty in those regions is left out: its capture adds nothing
//! to the eye space. The attacker wins by capturing a chain of the group
//! read; the defender wins when the group is pass-alive (Benson's
//! condition, on the regions as they are then) or the attacker has no
//! legal move left (a pass by the attacker ends nothing a pass by the
//! defender cannot answer). The stones around the group cannot
//! be captured, and losing any one chain loses the group: both only make
//! the group weaker than it is, so "it lives" is sound.
//!
//! A group that reading finds dead is read again whole: its points are
//! played again once taken, by both sides (a position is then keyed on
//! them too); the attacker wins by taking half its stones, or any of them
//! in a ko (a group that needs a ko has no life of its own), and may pass;
//! the defender may not (its pass would end a game it has not won), so the
//! group lives only if it gets pass-alive: a seki of the local game is no
//! life there, since the rest of the board need not keep it
//! (`KGS2001/2001-03-27-3.sgf`). A chain of the group in atari is left
//! out of what lives: the attacker takes it at once. So a group lives
//! that loses a small chain and makes two eyes with the rest
//! (`KGS2002/2002-12-29-9.sgf`).
//!
//! "It dies" is sound only where those assumptions hold
//! ([`Reading::dies_enclosed`]): one chain, walled in (its liberties outside the
//! regions lead nowhere), the attacker capturing it even when it moves
//! first. A wall short of liberties may be in seki with the chain, or
//! fall to it, which a game on the chain's points alone does not see:
//! unless the reader finds the chain losing its race with that wall
//! whichever side starts, the wall's liberties are played too, and the
//! chain capturing a wall wins.
//!
//! The search is exact on its positions (a position is the cells of the
//! points played, the ko point and the side to move), memoised, and
//! bounded by a node budget; out of nodes, or too deep (a ko fought round
//! and round), the answer is "unknown".

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use crate::bits::ones;
use crate::board::{MAX_SIZE, Pt};
use crate::score::reader::Position;

const EMPTY: u8 = 0;
const BORDER: u8 = 3;

/// Points (empty or the attacker's stones) a group's regions may hold in
/// all: each region's point is two bits of a position's key.
const MAX_REGION_POINTS: usize = 24;
/// The low bits of a move in [`Search::moves`] while they are sorted: its
/// point (a board's padded layout has fewer points), the bits above its
/// rank ([`move_rank`]).
const POINT_BITS: usize = (1 << 16) - 1;
const _: () = assert!((MAX_SIZE + 2) * (MAX_SIZE + 2) <= POINT_BITS);
/// Positions a question may visit before it is answered "unknown".
const NODE_BUDGET: usize = 4_000;
/// The same, once the walls that could give way are read too: they give
/// each side more moves.
const WALLS_NODE_BUDGET: usize = 10_000;
/// Nodes the reader may visit for the race of the group with one wall.
const WALL_RACE_BUDGET: usize = 1_000;

/// The four neighbours of `p` in the padded layout.
fn nbrs(stride: usize, p: usize) -> [usize; 4] {
    [p - stride, p - 1, p + 1, p + stride]
}

/// The walks of [`Ground::small_region`] over one board for one colour
/// as the defender's, with what they found kept for the next.
struct Ground<'a> {
    stride: usize,
    cells: &'a [u8],
    defender: u8,
    settled: &'a dyn Fn(usize) -> bool,
    /// Per point, the number of the last walk that met it.
    walked: Vec<u32>,
    walk: u32,
    /// Per point, whether a walk that met it found open ground: from
    /// any of its empty points (none of them `settled`), a walk meets
    /// the same points, so it would find open ground again.
    open: Vec<bool>,
    /// The last small region's points.
    points: Vec<usize>,
    /// The defender's stones around them (a stone once for each of its
    /// points there).
    border: Vec<usize>,
}

impl<'a> Ground<'a> {
    fn new(stride: usize, cells: &'a [u8], defender: u8, settled: &'a dyn Fn(usize) -> bool) -> Ground<'a> {
        Ground {
            stride,
            cells,
            defender,
            settled,
            walked: vec![0; cells.len()],
            walk: 0,
            open: vec![false; cells.len()],
            // Room for the largest small region and the stones around it
            // (four a point at most): the walks never grow them.
            points: Vec::with_capacity(MAX_REGION_POINTS),
            border: Vec::with_capacity(4 * MAX_REGION_POINTS),
        }
    }

    /// Whether the points connected to the empty point `start` through
    /// points that are not the defender's are a small region: no more
    /// than [`MAX_REGION_POINTS`], and no stone of a pass-alive enemy
    /// chain (`settled`) among them (no eye space of the defender's,
    /// since nothing there can be taken). If so, they are in
    /// [`Ground::points`] and the defender's stones around them in
    /// [`Ground::border`].
    fn small_region(&mut self, start: usize) -> bool {
        if self.open[start] && !(self.settled)(start) {
            return false;
        }
        self.walk += 1;
        self.walked[start] = self.walk;
        self.points.clear();
        self.border.clear();
        self.points.push(start);
        let mut i = 0;
        while i < self.points.len() {
            let p = self.points[i];
            i += 1;
            for q in nbrs(self.stride, p) {
                let c = self.cells[q];
                if c == self.defender {
                    self.border.push(q);
                } else if c != BORDER && self.walked[q] != self.walk {
                    if self.points.len() == MAX_REGION_POINTS || (self.settled)(q) {
                        for &r in &self.points {
                            self.open[r] = true;
                        }
                        return false;
                    }
                    self.walked[q] = self.walk;
                    self.points.push(q);
                }
            }
        }
        true
    }
}

/// The life-and-death readings of one board: its cells (in the padded
/// layout: 0 empty, 1 black, 2 white, 3 border) and its `settled` stones
/// (those of pass-alive chains), with what one reading finds kept for the
/// next.
pub struct Reading<'a> {
    stride: usize,
    cells: &'a [u8],
    /// The walks over small regions with black, then white, as the
    /// defender: the open ground one walk finds, every later one meets
    /// again.
    grounds: [Ground<'a>; 2],
    /// [`Reading::lives_enclosed`]'s answers by the group read, its stones
    /// sorted. The stones asked about in two calls may grow to the same
    /// group (chains joined by the regions they share), and its reading
    /// does not depend on the order its stones were met in: the moves are
    /// tried by their rank and point, the keys of its positions, laid out
    /// in another order, tell the same positions apart, and Benson's
    /// condition does not depend on how it numbers the chains. So it would
    /// answer as before, in as many nodes.
    lives: Vec<(Vec<usize>, Option<Vec<usize>>)>,
    /// Per point, whether it is a stone [`Reading::dies_enclosed`] answers
    /// "no" for with no enclose: a stone of a group of more than one chain
    /// that an enclose found, or grew before it found too many points to
    /// play. Every chain of such a group has a liberty in one of its
    /// regions (the first chains kept, the others reached through a
    /// region's border), so any of them grows the same group again.
    not_dying: Vec<bool>,
}

impl<'a> Reading<'a> {
    pub fn new(stride: usize, cells: &'a [u8], settled: &'a dyn Fn(usize) -> bool) -> Reading<'a> {
        let ground = |defender| Ground::new(stride, cells, defender, settled);
        Reading { stride, cells, grounds: [ground(1), ground(2)], lives: Vec::new(), not_dying: vec![false; cells.len()] }
    }

    /// [`Local::enclose`] on the walks of the stones' colour.
    fn enclose(&mut self, stones: &[usize]) -> Result<Local, Vec<usize>> {
        let defender = stones.first().map_or(EMPTY, |&s| self.cells[s]);
        match self.grounds.get_mut(usize::from(defender).wrapping_sub(1)) {
            Some(ground) => Local::enclose(ground, stones),
            None => Err(Vec::new()),
        }
    }

    /// Marks `stones` [`Reading::not_dying`]; `false`.
    fn not_dying_all(&mut self, stones: &[usize]) -> bool {
        for &s in stones {
            self.not_dying[s] = true;
        }
        false
    }

    /// Whether the group of `stones` lives with the attacker moving first:
    /// `Some(chains)` (the stones of its chains with a liberty in those
    /// regions, grown by the chains of its colour that share them; read
    /// whole, less its chains in atari) when it does, `None` when it can be
    /// killed, is not enclosed by small regions, or the budget ran out.
    pub fn lives_enclosed(&mut self, stones: &[usize]) -> Option<Vec<usize>> {
        let local = self.enclose(stones).ok()?;
        let mut group = local.group.clone();
        group.sort_unstable();
        if let Some((_, answer)) = self.lives.iter().find(|(read, _)| *read == group) {
            return answer.clone();
        }
        let answer = lives(local, self.cells);
        self.lives.push((group, answer.clone()));
        answer
    }

    /// Whether the one chain at `stones` dies even moving first. It must be
    /// walled in: its liberties outside its small regions lead nowhere (no
    /// empty point or stone of its colour beyond them), and no enemy chain
    /// around it called `dead`. Then the attacker capturing it there,
    /// whatever it plays first, with the walls that could give way read
    /// too ([`Local::with_walls`]), decides it; the defender not playing
    /// its outside liberties loses nothing, since they lead nowhere.
    pub fn dies_enclosed(&mut self, stones: &[usize], dead: impl Fn(usize) -> bool) -> bool {
        let cells = self.cells;
        if stones.first().is_some_and(|&s| self.not_dying[s]) {
            return false;
        }
        let local = match self.enclose(stones) {
            Ok(local) => local,
            Err(grown) => return self.not_dying_all(&grown),
        };
        let position = Position::from_cells(self.stride, cells);
        if position.chain(local.group[0]).0.len() != local.group.len() {
            return self.not_dying_all(&local.group);
        }
        if !local.walled_in(cells) {
            return false;
        }
        // The walls only help the defender: a group the attacker cannot take
        // on the group's own points needs them read no further.
        if Search::new(&local, cells, true).solve(false, 0) != Some(true) {
            return false;
        }
        let Some(local) = local.with_walls(&position, cells, dead) else {
            return false;
        };
        let mut search = Search::new(&local, cells, true);
        search.budget = WALLS_NODE_BUDGET;
        search.solve(false, 0) == Some(true)
    }
}

/// [`Reading::lives_enclosed`] on the enclosed group `local`.
fn lives(mut local: Local, cells: &[u8]) -> Option<Vec<usize>> {
    if Search::new(&local, cells, false).solve(true, 0) == Some(false) {
        return Some(local.group);
    }
    // One chain read whole is read as above, only more strictly.
    let position = Position::from_cells(local.stride, cells);
    if position.chain(local.group[0]).0.len() == local.group.len() {
        return None;
    }
    local.read_whole(cells.len());
    if Search::new(&local, cells, false).solve(true, 0) != Some(false) {
        return None;
    }
    // Its chains in atari the attacker takes at once: the group lives
    // without them.
    Some(local.group.iter().copied().filter(|&s| position.chain(s).1.len() > 1).collect())
}

/// The group and the regions it encloses.
struct Local {
    stride: usize,
    defender: u8,
    /// The group's stones: one of them captured, the attacker has won.
    group: Vec<usize>,
    /// The points of the regions, sorted: both sides play there.
    region: Vec<usize>,
    /// The group's liberties on open ground: the attacker may fill them,
    /// the defender does not play there (its stones would leave the
    /// regions read), but on its joints.
    outside: Vec<usize>,
    /// The outside liberties where the defender may play: those that join
    /// stones of the group and give it no liberty off the local game
    /// ([`Local::joints`]).
    joints: Vec<usize>,
    /// The stones of the enemy chains around the group short of
    /// liberties ([`Local::with_walls`]): the defender capturing one has
    /// broken out.
    walls: Vec<usize>,
    /// Their liberties off the points above, sorted: both sides play there.
    wall_liberties: Vec<usize>,
    /// Whether the group is read whole: its points played again once
    /// taken (by both sides), the attacker winning only by taking half its
    /// stones or one of them in a ko, the attacker free to pass and the
    /// defender not, so that the group lives only if it gets pass-alive
    /// (a seki of the local game is no life).
    whole: bool,
    /// Per point, whether it is one of the regions' or (`whole`) the
    /// group's: the points Benson's condition is read on.
    inside: Vec<bool>,
}

impl Local {
    /// The group's chains with a liberty in a small region, grown by every
    /// chain of its colour beside one of those regions, the regions, and
    /// its liberties outside them. If it has no region, or more than
    /// [`MAX_REGION_POINTS`] points to play, the stones grown so far (none
    /// if no region).
    fn enclose(ground: &mut Ground, stones: &[usize]) -> Result<Local, Vec<usize>> {
        let (stride, cells, defender) = (ground.stride, ground.cells, ground.defender);
        let mut in_group = vec![false; cells.len()];
        let mut met = vec![false; cells.len()];
        let mut todo = at_small_regions(ground, stones);
        // The group holds at least the stones to walk from, and the points
        // to play are few: room made once, not one push at a time.
        let mut group = Vec::with_capacity(todo.len());
        let (mut region, mut outside) = (Vec::with_capacity(2 * MAX_REGION_POINTS), Vec::with_capacity(MAX_REGION_POINTS));
        while let Some(p) = todo.pop() {
            if in_group[p] {
                continue;
            }
            in_group[p] = true;
            group.push(p);
            for q in nbrs(stride, p) {
                if cells[q] == defender {
                    // A stone already in the group would only be popped
                    // and passed over.
                    if !in_group[q] {
                        todo.push(q);
                    }
                } else if cells[q] == EMPTY && !met[q] {
                    if ground.small_region(q) {
                        for &r in &ground.points {
                            met[r] = true;
                        }
                        region.extend_from_slice(&ground.points);
                        todo.extend_from_slice(&ground.border);
                    } else {
                        met[q] = true;
                        outside.push(q);
                    }
                }
            }
            if region.len() + outside.len() > MAX_REGION_POINTS {
                return Err(group);
            }
        }
        if region.is_empty() {
            return Err(Vec::new());
        }
        region.sort_unstable();
        outside.sort_unstable();
        let mut local = Local {
            stride,
            defender,
            group,
            region,
            outside,
            joints: Vec::new(),
            walls: Vec::new(),
            wall_liberties: Vec::new(),
            whole: false,
            inside: Vec::new(),
        };
        local.joints = local.joints(cells, &in_group, ground);
        Ok(local)
    }

    /// The outside liberties beside two chains of the group whose other
    /// neighbours are the attacker's stones or points of the local game.
    /// The attacker filling one may cut the group (two chains that share
    /// only outside liberties, such as an eye's wall and the rest); the
    /// defender answers on the other, as in the game. A stone there joins
    /// no chain outside the group and gives it no liberty the attacker
    /// could not fill, so "it lives" stays sound.
    fn joints(&self, cells: &[u8], in_group: &[bool], ground: &mut Ground) -> Vec<usize> {
        let closed = |p: usize| {
            self.nbrs(p).iter().all(|&q| match cells[q] {
                EMPTY => self.is_local(q),
                c if c == self.defender => in_group[q],
                _ => true,
            })
        };
        self.outside.iter().copied().filter(|&p| closed(p) && self.joins_chains(p, in_group, ground)).collect()
    }

    /// Whether the point `p` is beside two chains of the group (its
    /// stones marked `in_group`): the first one met walked, with
    /// [`Ground`]'s marks.
    fn joins_chains(&self, p: usize, in_group: &[bool], ground: &mut Ground) -> bool {
        let mut beside = self.nbrs(p).into_iter().filter(|&q| in_group[q]);
        let Some(first) = beside.next() else {
            return false;
        };
        ground.walk += 1;
        let walk = ground.walk;
        ground.walked[first] = walk;
        ground.points.clear();
        ground.points.push(first);
        while let Some(s) = ground.points.pop() {
            for q in self.nbrs(s) {
                if ground.cells[q] == self.defender && ground.walked[q] != walk {
                    ground.walked[q] = walk;
                    ground.points.push(q);
                }
            }
        }
        beside.any(|q| ground.walked[q] != walk)
    }

    /// The local game read whole ([`Local::whole`]).
    fn read_whole(&mut self, points: usize) {
        self.whole = true;
        self.inside = vec![false; points];
        for &p in self.region.iter().chain(&self.group) {
            self.inside[p] = true;
        }
    }

    fn nbrs(&self, p: usize) -> [usize; 4] {
        nbrs(self.stride, p)
    }

    /// Whether `p` is one of the points played in the local game.
    fn is_local(&self, p: usize) -> bool {
        [&self.region, &self.outside, &self.wall_liberties].iter().any(|points| points.binary_search(&p).is_ok())
    }

    /// Every point played in the local game.
    fn points(&self) -> impl Iterator<Item = &usize> {
        let group = if self.whole { &self.group[..] } else { &[] };
        self.region.iter().chain(&self.outside).chain(&self.wall_liberties).chain(group)
    }

    /// Whether the attacker has won on `cells`: a chain of the group taken,
    /// or (read whole) half its stones.
    fn taken(&self, cells: &[u8]) -> bool {
        let left = self.group.iter().filter(|&&s| cells[s] == self.defender).count();
        if self.whole { 2 * left < self.group.len() } else { left < self.group.len() }
    }

    /// Whether the group's liberties outside the regions touch nothing but
    /// it, the attacker's stones and the other points of the local game.
    fn walled_in(&self, cells: &[u8]) -> bool {
        self.outside.iter().all(|&p| {
            self.nbrs(p).into_iter().all(|q| match cells[q] {
                EMPTY => self.is_local(q),
                c if c == self.defender => self.group.contains(&q),
                _ => true,
            })
        })
    }

    /// Whether the reader finds the group losing its race with the wall at
    /// `w` whichever side moves first: such a wall needs no reading of
    /// its own.
    fn loses_race(&self, position: &Position, w: usize) -> bool {
        let (group_first, wall_first) = position.clone().with_budget(WALL_RACE_BUDGET).race_values(self.group[0] as Pt, w as Pt);
        group_first.is_some_and(|v| v <= 0) && wall_first == Some(-1)
    }

    /// The local game grown by the walls that could give way: every enemy
    /// chain beside the group or its outside liberties with no more
    /// liberties off the local game than the local game has points, unless
    /// the group loses its race with it ([`Local::loses_race`]). Their
    /// liberties join the points played, and the defender capturing one
    /// of them wins: a wall the group can threaten may be in seki with it
    /// (`KGS2001/2001-03-15-4.sgf`: a wall with two liberties shared with
    /// the group and two outside, which the group fills to make the wall's
    /// own fills self-atari). `None` if one of them is `dead` (stones the
    /// group takes are no wall) or the points grow past
    /// [`MAX_REGION_POINTS`]. The wall's side extending it beyond those
    /// liberties is not read: that only makes the walls weaker than they
    /// are, so "it dies" stays sound.
    fn with_walls(mut self, position: &Position, cells: &[u8], dead: impl Fn(usize) -> bool) -> Option<Local> {
        let attacker = 3 - self.defender;
        let beside: Vec<usize> =
            self.group.iter().chain(&self.outside).flat_map(|&p| self.nbrs(p)).filter(|&q| cells[q] == attacker && !self.is_local(q)).collect();
        if beside.iter().any(|&w| dead(w)) {
            return None;
        }
        let room = self.region.len() + self.outside.len();
        let (mut walls, mut wall_liberties) = (Vec::new(), Vec::new());
        let mut met: Vec<usize> = Vec::new();
        for w in beside {
            if met.contains(&w) {
                continue;
            }
            let (chain, liberties) = position.chain(w);
            met.extend(&chain);
            let off: Vec<usize> = liberties.into_iter().filter(|&q| !self.is_local(q)).collect();
            if off.len() <= room && !self.loses_race(position, w) {
                walls.extend(chain);
                wall_liberties.extend(off);
            }
        }
        wall_liberties.sort_unstable();
        wall_liberties.dedup();
        if room + wall_liberties.len() > MAX_REGION_POINTS {
            return None;
        }
        self.walls = walls;
        self.wall_liberties = wall_liberties;
        Some(self)
    }
}

/// The stones of the chains among `stones` with a liberty in a small
/// region. A chain whose liberties all lie on open ground adds nothing to
/// the eye space, and the rest of the group does not die with it: read with
/// the group, its capture would end the search for nothing.
fn at_small_regions(ground: &mut Ground, stones: &[usize]) -> Vec<usize> {
    let (stride, cells, defender) = (ground.stride, ground.cells, ground.defender);
    // Per empty point: 1 in a small region, 2 on open ground, 0 not yet looked at.
    let mut class = vec![0u8; cells.len()];
    let mut seen = vec![false; cells.len()];
    let mut kept = Vec::with_capacity(stones.len());
    let mut chain = Vec::with_capacity(stones.len());
    for &start in stones {
        if seen[start] {
            continue;
        }
        chain.clear();
        chain.push(start);
        seen[start] = true;
        let mut at_region = false;
        let mut i = 0;
        while i < chain.len() {
            let p = chain[i];
            i += 1;
            for q in nbrs(stride, p) {
                if cells[q] == defender && !seen[q] {
                    seen[q] = true;
                    chain.push(q);
                } else if cells[q] == EMPTY && !at_region {
                    if class[q] == 0 {
                        if ground.small_region(q) {
                            ground.points.iter().for_each(|&r| class[r] = 1);
                        } else {
                            class[q] = 2;
                        }
                    }
                    at_region = class[q] == 1;
                }
            }
        }
        if at_region {
            kept.extend_from_slice(&chain);
        }
    }
    kept
}

/// The rank of a move with `empty` empty neighbours, in the bits above
/// [`POINT_BITS`]: lower first, so answers `far` from the attacker's last
/// move after the others, and more empty neighbours first among those.
fn move_rank(far: bool, empty: usize) -> usize {
    (usize::from(far) << 3 | (4 - empty)) << POINT_BITS.count_ones()
}

/// The hashing of the memo's keys: a multiplicative hash of each word (as
/// rustc's own tables), where SipHash guards against chosen keys the memo
/// never meets; the table is never iterated, so its order does not matter.
#[derive(Default)]
struct WordHasher(u64);

impl WordHasher {
    fn add(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(0x517c_c1b7_2722_0a95);
    }
}

impl Hasher for WordHasher {
    /// The multiplication's best-mixed high bits brought down to the low
    /// ones, which pick the table's bucket.
    fn finish(&self) -> u64 {
        self.0.rotate_left(26)
    }

    fn write_usize(&mut self, n: usize) {
        self.add(n as u64);
    }

    fn write_u64(&mut self, word: u64) {
        self.add(word);
    }

    /// A key's words, as a slice of `u64` hashes them (whole, as bytes).
    fn write(&mut self, bytes: &[u8]) {
        let mut words = bytes.chunks_exact(8);
        for word in &mut words {
            self.add(u64::from_le_bytes(word.try_into().expect("eight bytes")));
        }
        for &b in words.remainder() {
            self.add(u64::from(b));
        }
    }
}

/// Who wins from a position with a side to move, by its key
/// ([`Search::push_key`]): a key of two words (at most 32 points played,
/// as in every first reading) held as one `u128`, stored with no
/// allocation.
enum Memo {
    Short(HashMap<u128, bool, BuildHasherDefault<WordHasher>>),
    Long(HashMap<Box<[u64]>, bool, BuildHasherDefault<WordHasher>>),
}

impl Memo {
    /// A memo for the keys of `points` points played.
    fn new(points: usize) -> Memo {
        if points <= 32 { Memo::Short(HashMap::default()) } else { Memo::Long(HashMap::default()) }
    }

    fn get(&self, key: &[u64]) -> Option<bool> {
        match self {
            Memo::Short(memo) => memo.get(&two_words(key)).copied(),
            Memo::Long(memo) => memo.get(key).copied(),
        }
    }

    fn insert(&mut self, key: &[u64], won: bool) {
        match self {
            Memo::Short(memo) => memo.insert(two_words(key), won),
            Memo::Long(memo) => memo.insert(key.into(), won),
        };
    }
}

/// A key of two words as one number.
fn two_words(key: &[u64]) -> u128 {
    u128::from(key[0]) << 64 | u128::from(key[1])
}

struct Search<'a> {
    local: &'a Local,
    /// Positions it may visit before it answers "unknown".
    budget: usize,
    /// The position read: the cells of the board, the moves of the line
    /// read played on them and taken back.
    cells: Vec<u8>,
    /// The point a simple ko forbids to the side to move.
    ko: Option<usize>,
    /// Who wins from a position with a side to move, by its key.
    memo: Memo,
    /// The keys of the positions on the line being read, one after the
    /// other: a longer key than [`Memo::Short`]'s is boxed only when its
    /// answer is stored.
    keys: Vec<u64>,
    /// The cells of the points played as a key holds them ([`key_cells`]),
    /// kept with the cells ([`Search::set`]).
    key_cells: Vec<u64>,
    /// The units held by the defender and the empty ones
    /// ([`Units::state`]), kept with the cells.
    held: u64,
    empty: u64,
    /// The moves of the positions on the line, one position's after the
    /// other's, in the order they are tried.
    moves: Vec<usize>,
    /// The stones the moves on the line took, to be put back.
    taken: Vec<usize>,
    nodes: usize,
    /// Per point, the number of the last walk of a chain that met it.
    walked: Vec<u32>,
    walk: u32,
    /// The attacker's last move.
    last: usize,
    /// Whether the attacker may not fill an outside liberty that leaves
    /// its stones there in atari (asked when the search must show a
    /// capture, not rule one out).
    wall_safe_fills: bool,
    /// Per point, its chain's number in [`Search::pass_alive`] (`usize::MAX`
    /// between calls).
    chain_of: Vec<usize>,
    /// The points given a number there, to be cleared after: the group's
    /// and the regions', and the defender's stones played beyond them (on
    /// a joint or a wall's liberty).
    numbered: Vec<usize>,
    /// The points [`Search::liberties`] has yet to walk from.
    stack: Vec<usize>,
    benson: Benson,
    /// The local game's lists of points, each once in one slice: read at
    /// every node.
    lists: Lists,
}

/// The points of a local game as [`Search`] reads them.
struct Lists {
    /// The points played, in the order of a position's key
    /// ([`Local::points`]).
    played: Vec<usize>,
    /// Per point, its place in `played` counted from 1 (0 if not played):
    /// the ko point's part of the key.
    key_place: Vec<u64>,
    /// Per point played, the word of [`Search::key_cells`] holding its cell
    /// and the cell's shift there.
    key_spot: Vec<Option<(usize, u32)>>,
    /// The points the attacker may play on ([`Search::push_moves`]).
    attacker_tries: Vec<usize>,
    /// The points the defender may play on.
    defender_tries: Vec<usize>,
    /// The points the defender may hold: the group's and those played
    /// ([`Search::number_chains`]).
    held: Vec<usize>,
    /// The points Benson's regions are walked from: the regions' and (read
    /// whole) the group's ([`Search::find_regions`]).
    eye_space: Vec<usize>,
    /// Per stone of the group, the number of its chain at the start
    /// (`usize::MAX` off the group).
    group_chain: Vec<usize>,
    /// The liberties of those chains at the start, one chain's after the
    /// other's, and where each chain's liberties end
    /// ([`Search::has_liberty`]).
    group_liberties: Vec<usize>,
    group_liberty_ends: Vec<usize>,
    /// Benson's condition's points as bit sets, if they fit in one word.
    units: Option<Units>,
}

impl Lists {
    fn new(local: &Local, cells: &[u8]) -> Lists {
        let group = if local.whole { &local.group[..] } else { &[] };
        let tries = |outside: &[usize]| local.region.iter().chain(outside).chain(&local.wall_liberties).chain(group).copied().collect();
        let played: Vec<usize> = local.points().copied().collect();
        let mut key_place = vec![0; cells.len()];
        for (i, &p) in played.iter().enumerate() {
            key_place[p] = i as u64 + 1;
        }
        // As [`key_cells`] folds them.
        let mut key_spot = vec![None; cells.len()];
        for (word, points) in played.chunks(32).enumerate() {
            for (i, &p) in points.iter().enumerate() {
                key_spot[p] = Some((word, 2 * (points.len() - 1 - i) as u32));
            }
        }
        let (group_chain, group_liberties, group_liberty_ends) = group_chains(local, cells);
        Lists {
            played,
            key_place,
            key_spot,
            attacker_tries: tries(&local.outside),
            defender_tries: tries(&local.joints),
            held: local.group.iter().chain(local.points()).copied().collect(),
            eye_space: local.region.iter().chain(group).copied().collect(),
            units: Units::new(local, cells, &group_chain, group_liberty_ends.len()),
            group_chain,
            group_liberties,
            group_liberty_ends,
        }
    }
}

/// The points [`Search::pass_alive`] reads, numbered as bits of a word:
/// read at first, one unit for each chain of the group (it keeps its
/// stones at every node), then one for each point of the regions and
/// joints; read whole, one for each point of the regions, joints and
/// group. The points the defender never holds off them (the other outside
/// liberties, the stones around the group) need no unit: a region beside
/// one reaches past the points read. Nor do the walls' liberties: none is
/// beside the group, its regions or its joints (those were local before
/// the walls were read), so the defender's chains there border no region
/// and hold no stone of the group.
struct Units {
    /// The units of the group's chains, read at first: held at every node.
    chains: u64,
    /// The points of the other units, in order.
    points: Vec<usize>,
    /// Per point, the bit of its unit if it is one of `points` (0 if not):
    /// the cells that change the units' state.
    unit_at: Vec<u64>,
    /// Per point, the bit of its unit (0 if none): read at first, a stone
    /// of the group's is its chain's.
    unit_of: Vec<u64>,
    /// Per unit, the units beside it.
    beside: Vec<u64>,
    /// Every unit.
    all: u64,
    /// The units Benson's regions are made of: the regions' points and
    /// (read whole) the group's.
    eye_space: u64,
    /// The units of the eye space beside a point the defender never holds
    /// that is no unit: a region holding one reaches past the points read.
    leaks: u64,
    /// The units of the group.
    group: u64,
}

impl Units {
    /// The units of `local` on `cells` (the group's chains numbered by
    /// `group_chain`, `chains` of them); `None` if there are more than 64.
    fn new(local: &Local, cells: &[u8], group_chain: &[usize], chains: usize) -> Option<Units> {
        let first = if local.whole { 0 } else { chains };
        let group = if local.whole { &local.group[..] } else { &[] };
        let points: Vec<usize> = local.region.iter().chain(&local.joints).chain(group).copied().collect();
        if first + points.len() > 64 {
            return None;
        }
        let mut unit_of = vec![usize::MAX; cells.len()];
        if !local.whole {
            for &s in &local.group {
                unit_of[s] = group_chain[s];
            }
        }
        for (i, &p) in points.iter().enumerate() {
            unit_of[p] = first + i;
        }
        let bit = |p: usize| 1u64 << unit_of[p];
        let mut unit_at = vec![0; cells.len()];
        for &p in &points {
            unit_at[p] = bit(p);
        }
        let unit_bits = unit_of.iter().map(|&unit| if unit == usize::MAX { 0 } else { 1 << unit }).collect();
        let mut units = Units {
            chains: if first == 64 { u64::MAX } else { (1 << first) - 1 },
            beside: vec![0; first + points.len()],
            all: u64::MAX >> (64 - (first + points.len())),
            eye_space: local.region.iter().chain(group).fold(0, |set, &p| set | bit(p)),
            leaks: 0,
            group: local.group.iter().fold(0, |set, &s| set | bit(s)),
            points,
            unit_at,
            unit_of: unit_bits,
        };
        for &p in local.region.iter().chain(&local.joints).chain(&local.group) {
            let unit = unit_of[p];
            for q in local.nbrs(p) {
                if unit_of[q] == usize::MAX {
                    if cells[q] != local.defender && cells[q] != BORDER {
                        units.leaks |= units.eye_space & 1 << unit;
                    }
                } else if unit_of[q] != unit {
                    units.beside[unit] |= bit(q);
                }
            }
        }
        Some(units)
    }

    /// The units held by the defender and the empty ones on `cells`.
    fn state(&self, cells: &[u8], defender: u8) -> (u64, u64) {
        let (mut held, mut empty) = (self.chains, 0);
        for (&p, i) in self.points.iter().zip(self.chains.count_ones()..) {
            held |= u64::from(cells[p] == defender) << i;
            empty |= u64::from(cells[p] == EMPTY) << i;
        }
        (held, empty)
    }

    /// Benson's condition as [`Search::pass_alive`] reads it, on the
    /// units' bit sets: the regions and chains found by [`Units::component`],
    /// the chains numbered by their order there.
    fn pass_alive(&self, held: u64, empty: u64, scratch: &mut Benson) -> bool {
        let regions = &mut scratch.regions;
        regions.clear();
        let mut rest = self.eye_space & !held;
        while rest != 0 {
            let (region, beside) = self.component(rest & rest.wrapping_neg(), rest);
            rest &= !region;
            // A region reaching past the points read (through the group's
            // points once taken) is no eye.
            if region & self.leaks == 0 && beside & !self.eye_space & !held == 0 {
                regions.push(region);
            }
        }
        if regions.len() < 2 {
            // No chain has two regions to keep: all of them fail.
            return self.group & held == 0;
        }
        let chains = &mut scratch.chains;
        chains.clear();
        let mut rest = held;
        while rest != 0 {
            let (chain, beside) = self.component(rest & rest.wrapping_neg(), rest);
            rest &= !chain;
            chains.push((chain, beside));
        }
        // Per region, the chains around it and those it is vital to (each
        // of its empty points their liberty), as bits of their numbers.
        let borders = &mut scratch.borders;
        borders.clear();
        for &region in regions.iter() {
            let (mut around, mut vital) = (0u64, 0u64);
            for (c, &(_, beside)) in chains.iter().enumerate() {
                if beside & region != 0 {
                    around |= 1 << c;
                    vital |= u64::from(region & empty & !beside == 0) << c;
                }
            }
            borders.push((around, vital));
        }
        // The chains still counted alive (no bits past the chains' count
        // after the first round): those with two vital regions bordered by
        // such chains only.
        let mut alive = u64::MAX;
        loop {
            let (mut once, mut twice) = (0, 0);
            for &(around, vital) in borders.iter() {
                if around & !alive == 0 {
                    twice |= once & vital;
                    once |= vital;
                }
            }
            if alive & twice == alive {
                break;
            }
            alive &= twice;
        }
        chains.iter().enumerate().all(|(c, &(chain, _))| chain & self.group == 0 || alive >> c & 1 == 1)
    }

    /// Whether a unit of `target` is beside the units of `within`
    /// connected to `seed` ([`Units::component`]), grown only until one is.
    fn touches(&self, seed: u64, within: u64, target: u64) -> bool {
        let (mut set, mut grown) = (seed, seed);
        while grown != 0 {
            let mut next = 0;
            for i in ones(grown) {
                next |= self.beside[i];
            }
            if next & target != 0 {
                return true;
            }
            grown = next & within & !set;
            set |= grown;
        }
        false
    }

    /// The units of `within` connected to `seed` through `within`, and
    /// the units beside them.
    fn component(&self, seed: u64, within: u64) -> (u64, u64) {
        let (mut set, mut beside, mut grown) = (seed, 0, seed);
        while grown != 0 {
            let mut next = 0;
            for i in ones(grown) {
                next |= self.beside[i];
            }
            beside |= next;
            grown = next & within & !set;
            set |= grown;
        }
        (set, beside)
    }
}

/// Per stone of the group on `cells`, the number of its chain; the chains'
/// liberties, one chain's after the other's; where each chain's liberties
/// end.
fn group_chains(local: &Local, cells: &[u8]) -> (Vec<usize>, Vec<usize>, Vec<usize>) {
    let mut chain_of = vec![usize::MAX; cells.len()];
    let (mut liberties, mut ends) = (Vec::new(), Vec::new());
    let mut todo = Vec::new();
    for &start in &local.group {
        if chain_of[start] != usize::MAX {
            continue;
        }
        chain_of[start] = ends.len();
        todo.push(start);
        let from = liberties.len();
        while let Some(p) = todo.pop() {
            for q in local.nbrs(p) {
                if cells[q] == local.defender && chain_of[q] == usize::MAX {
                    chain_of[q] = ends.len();
                    todo.push(q);
                } else if cells[q] == EMPTY && !liberties[from..].contains(&q) {
                    liberties.push(q);
                }
            }
        }
        ends.push(liberties.len());
    }
    (chain_of, liberties, ends)
}

/// The cells of the points `played` as a position's key holds them: two
/// bits each, 32 to a word, the first in its highest bits.
fn key_cells(played: &[usize], cells: &[u8]) -> Vec<u64> {
    played.chunks(32).map(|points| points.iter().fold(0, |word, &p| word << 2 | u64::from(cells[p]))).collect()
}

/// What [`Search::undo`] needs to take a move back.
struct Played {
    p: usize,
    /// The ko point before the move.
    ko: Option<usize>,
    /// Where the stones it took start in [`Search::taken`].
    taken_from: usize,
}

impl Played {
    fn took_stones(&self, search: &Search) -> bool {
        search.taken.len() > self.taken_from
    }
}

impl<'a> Search<'a> {
    /// A search from `cells`, no ko point.
    fn new(local: &'a Local, cells: &[u8], wall_safe_fills: bool) -> Search<'a> {
        let lists = Lists::new(local, cells);
        let key_cells = key_cells(&lists.played, cells);
        let (held, empty) = lists.units.as_ref().map_or((0, 0), |units| units.state(cells, local.defender));
        Search {
            local,
            budget: NODE_BUDGET,
            cells: cells.to_vec(),
            ko: None,
            memo: Memo::new(local.points().count()),
            keys: Vec::new(),
            key_cells,
            held,
            empty,
            moves: Vec::new(),
            taken: Vec::new(),
            nodes: 0,
            walked: vec![0; cells.len()],
            walk: 0,
            last: 0,
            wall_safe_fills,
            chain_of: vec![usize::MAX; cells.len()],
            numbered: Vec::new(),
            stack: Vec::new(),
            benson: Benson::default(),
            lists,
        }
    }

    /// Appends to [`Search::keys`] the key of the position: the cells of
    /// the points played (two bits each), the ko point's place among them
    /// and the side to move.
    fn push_key(&mut self, attacker_to_move: bool) {
        self.keys.extend_from_slice(&self.key_cells);
        let ko = self.ko.map_or(0, |k| self.lists.key_place[k]);
        self.keys.push(ko << 1 | u64::from(attacker_to_move));
    }

    /// `Some(true)` if the attacker wins (captures a chain of the group)
    /// from this position, whatever the other side does; `None` if the
    /// search could not tell.
    fn solve(&mut self, attacker_to_move: bool, depth: usize) -> Option<bool> {
        self.nodes += 1;
        let room = self.local.region.len() + if self.local.whole { self.local.group.len() } else { 0 };
        if self.nodes > self.budget || depth > 4 * room + 8 {
            return None;
        }
        let at = self.keys.len();
        self.push_key(attacker_to_move);
        if let Some(won) = self.memo.get(&self.keys[at..]) {
            self.keys.truncate(at);
            return Some(won);
        }
        let won = if self.pass_alive() {
            Some(false)
        } else {
            let from = self.moves.len();
            self.push_moves(attacker_to_move);
            let won = if attacker_to_move { self.attacker_move(from, depth) } else { self.defender_move(from, depth) };
            self.moves.truncate(from);
            won
        };
        if let Some(won) = won {
            self.memo.insert(&self.keys[at..], won);
        }
        self.keys.truncate(at);
        won
    }

    /// Whether the attacker, to move, wins; its moves are those of
    /// [`Search::moves`] from `from` on.
    fn attacker_move(&mut self, from: usize, depth: usize) -> Option<bool> {
        let attacker = 3 - self.local.defender;
        let mut unknown = false;
        for i in from..self.moves.len() {
            let p = self.moves[i];
            let Some(played) = self.play(p, attacker) else {
                continue;
            };
            if self.wall_safe_fills && self.self_atari_outside(p) {
                self.undo(played);
                continue;
            }
            // The group only loses stones to a capture.
            if played.took_stones(self) && (self.local.taken(&self.cells) || (self.local.whole && self.ko.is_some_and(|k| self.local.group.contains(&k)))) {
                self.undo(played);
                return Some(true);
            }
            self.last = p;
            let answer = self.solve(false, depth + 1);
            self.undo(played);
            match answer {
                Some(true) => return Some(true),
                None => unknown = true,
                Some(false) => {}
            }
        }
        if self.local.whole {
            // A pass: the defender must then make life itself (its pass
            // would end the game with the group not pass-alive).
            self.last = 0;
            match self.solve_after_pass(false, depth) {
                Some(true) => return Some(true),
                None => unknown = true,
                Some(false) => {}
            }
        }
        if unknown { None } else { Some(false) }
    }

    /// Whether the attacker wins with the defender to move (the defender
    /// may pass); its moves are those of [`Search::moves`] from `from` on.
    fn defender_move(&mut self, from: usize, depth: usize) -> Option<bool> {
        let defender = self.local.defender;
        let mut unknown = false;
        for i in from..self.moves.len() {
            let p = self.moves[i];
            let Some(played) = self.play(p, defender) else {
                continue;
            };
            // Its stones on a joint taking stones: their points are off
            // the local game, liberties the attacker could not fill.
            if played.took_stones(self) && self.local.joints.contains(&p) {
                self.undo(played);
                continue;
            }
            if self.local.walls.iter().any(|&w| self.cells[w] != 3 - defender) {
                self.undo(played);
                return Some(false);
            }
            if self.self_atari_on_wall(p) {
                self.undo(played);
                continue;
            }
            let answer = self.solve(true, depth + 1);
            self.undo(played);
            match answer {
                Some(false) => return Some(false),
                None => unknown = true,
                Some(true) => {}
            }
        }
        if self.local.whole {
            return if unknown { None } else { Some(true) };
        }
        match self.solve_after_pass(true, depth) {
            Some(false) => Some(false),
            _ if unknown => None,
            answer => answer,
        }
    }

    /// [`Search::solve`] after a pass: the same cells, no ko point.
    fn solve_after_pass(&mut self, attacker_to_move: bool, depth: usize) -> Option<bool> {
        let ko = self.ko.take();
        let answer = self.solve(attacker_to_move, depth + 1);
        self.ko = ko;
        answer
    }

    /// Whether the attacker's stone just played at `p`, on a liberty
    /// outside the regions, left its chain in atari: the defender would
    /// take it there, off the points the local game plays.
    fn self_atari_outside(&mut self, p: usize) -> bool {
        self.local.region.binary_search(&p).is_err() && self.liberties(p, 2) < 2
    }

    /// Whether the defender's stone just played at `p`, on a wall's
    /// liberty, is in atari: the wall's side would take it, likely off the
    /// points the local game plays.
    fn self_atari_on_wall(&mut self, p: usize) -> bool {
        self.local.wall_liberties.binary_search(&p).is_ok() && self.liberties(p, 2) < 2
    }

    /// Sets the cell at `p`, and with it its part of the key and of the
    /// units' bit sets.
    fn set(&mut self, p: usize, cell: u8) {
        let was = std::mem::replace(&mut self.cells[p], cell);
        if let Some((word, shift)) = self.lists.key_spot[p] {
            self.key_cells[word] ^= u64::from(was ^ cell) << shift;
        }
        if let Some(units) = &self.lists.units {
            let unit = units.unit_at[p];
            self.held = self.held & !unit | if cell == self.local.defender { unit } else { 0 };
            self.empty = self.empty & !unit | if cell == EMPTY { unit } else { 0 };
        }
    }

    /// Plays `color` at `p` if legal (empty, not the ko point, not
    /// suicide), removing what it captures and setting the ko point.
    fn play(&mut self, p: usize, color: u8) -> Option<Played> {
        if self.cells[p] != EMPTY || self.ko == Some(p) {
            return None;
        }
        self.set(p, color);
        let played = Played { p, ko: self.ko, taken_from: self.taken.len() };
        for q in self.local.nbrs(p) {
            // Taken off at once: the other enemy chains beside `p` are not
            // beside these stones.
            if self.cells[q] == 3 - color && !self.has_liberty(q) {
                self.take_chain(q);
            }
        }
        let took = self.taken.len() - played.taken_from;
        let (legal, ko) = if self.local.nbrs(p).iter().all(|&q| self.cells[q] != color) {
            // A lone stone's liberties are its empty neighbours; with one,
            // having taken one stone, it starts a ko.
            let liberties = self.empty_beside(p);
            (liberties > 0, took == 1 && liberties == 1)
        } else {
            // A stone joining a chain starts no ko, and needs only one
            // liberty: a capture leaves it one.
            (took > 0 || self.has_liberty(p), false)
        };
        if !legal {
            // Nothing was taken: a capture leaves a liberty.
            self.set(p, EMPTY);
            return None;
        }
        self.ko = ko.then(|| self.taken[played.taken_from]);
        Some(played)
    }

    /// Takes back the move `played`: its stone, the stones it took (of
    /// the other colour), the ko point.
    fn undo(&mut self, played: Played) {
        let color = self.cells[played.p];
        for i in played.taken_from..self.taken.len() {
            self.set(self.taken[i], 3 - color);
        }
        self.taken.truncate(played.taken_from);
        self.set(played.p, EMPTY);
        self.ko = played.ko;
    }

    /// Whether the chain at `q` has a liberty. Read at first (not whole), a
    /// chain of the group holds at every node all its stones of the start
    /// (losing one ends the line), so a liberty it had then, still empty,
    /// is one: found there, it needs no walk; nor does an empty neighbour
    /// of the stone, or an empty unit beside the chain's
    /// ([`Search::unit_liberty`]).
    fn has_liberty(&mut self, q: usize) -> bool {
        let (lists, chain) = (&self.lists, self.lists.group_chain[q]);
        if !self.local.whole && chain != usize::MAX {
            let from = if chain == 0 { 0 } else { lists.group_liberty_ends[chain - 1] };
            if lists.group_liberties[from..lists.group_liberty_ends[chain]].iter().any(|&p| self.cells[p] == EMPTY) {
                return true;
            }
        }
        self.empty_beside(q) > 0 || self.unit_liberty(q) || self.walk_liberties(q, 1) > 0
    }

    /// Whether the chain at `q`, if it holds a unit, has an empty unit
    /// beside its units: a liberty. The units of its colour connected to
    /// its own are its chain's.
    fn unit_liberty(&self, q: usize) -> bool {
        let Some(units) = &self.lists.units else {
            return false;
        };
        let unit = units.unit_of[q];
        let ours = if unit & self.held != 0 { self.held } else { units.all & !self.held & !self.empty };
        unit & ours != 0 && units.touches(unit, ours, self.empty)
    }

    /// The liberties of the chain at `p`, counted up to `limit`.
    fn liberties(&mut self, p: usize, limit: usize) -> usize {
        // The stone's own empty neighbours are liberties: often enough,
        // with no walk.
        if self.empty_beside(p) >= limit {
            return limit;
        }
        self.walk_liberties(p, limit)
    }

    /// [`Search::liberties`] by a walk of the chain.
    fn walk_liberties(&mut self, p: usize, limit: usize) -> usize {
        self.walk += 1;
        let color = self.cells[p];
        self.walked[p] = self.walk;
        let mut stack = std::mem::take(&mut self.stack);
        stack.clear();
        stack.push(p);
        let mut liberties = 0;
        'walk: while let Some(s) = stack.pop() {
            for q in self.local.nbrs(s) {
                if self.walked[q] == self.walk {
                    continue;
                }
                self.walked[q] = self.walk;
                if self.cells[q] == color {
                    stack.push(q);
                } else if self.cells[q] == EMPTY {
                    liberties += 1;
                    if liberties == limit {
                        break 'walk;
                    }
                }
            }
        }
        self.stack = stack;
        liberties
    }

    /// The empty neighbours of `p`.
    fn empty_beside(&self, p: usize) -> usize {
        self.local.nbrs(p).iter().filter(|&&q| self.cells[q] == EMPTY).count()
    }

    /// Removes the chain at `p`, its stones added to [`Search::taken`]
    /// (`p` first).
    fn take_chain(&mut self, p: usize) {
        let color = self.cells[p];
        let from = self.taken.len();
        self.set(p, EMPTY);
        self.taken.push(p);
        let mut i = from;
        while i < self.taken.len() {
            let s = self.taken[i];
            i += 1;
            for q in self.local.nbrs(s) {
                if self.cells[q] == color {
                    self.set(q, EMPTY);
                    self.taken.push(q);
                }
            }
        }
    }

    /// Appends to [`Search::moves`] the moves of the side to move: the
    /// empty points of the regions (and, for the attacker, the group's
    /// liberties outside them; for the defender, its joints), those with
    /// more empty neighbours first (the vital points of an eye space have
    /// the most); the defender's answers next to the attacker's last move
    /// before all others.
    fn push_moves(&mut self, attacker: bool) {
        let local = self.local;
        let tries = if attacker { &self.lists.attacker_tries } else { &self.lists.defender_tries };
        let from = self.moves.len();
        for &p in tries {
            if self.cells[p] == EMPTY && self.ko != Some(p) {
                let far = !attacker && !local.nbrs(p).contains(&self.last);
                let empty = local.nbrs(p).iter().filter(|&&q| self.cells[q] == EMPTY).count();
                self.moves.push(move_rank(far, empty) | p);
            }
        }
        // Ranks and points are told apart by their bits; the points of a
        // position are distinct, so the order is the same whatever sort.
        self.moves[from..].sort_unstable();
        for rank_and_p in &mut self.moves[from..] {
            *rank_and_p &= POINT_BITS;
        }
    }

    /// Benson's condition on the regions as they are: every chain of the
    /// defender's there keeps two regions each of whose empty points is
    /// its liberty, among regions bordered by such chains only.
    fn pass_alive(&mut self) -> bool {
        match &self.lists.units {
            Some(units) => units.pass_alive(self.held, self.empty, &mut self.benson),
            None => self.pass_alive_by_walks(),
        }
    }

    /// [`Search::pass_alive`] for a local game of more than 64 units: its
    /// chains and regions walked point by point.
    fn pass_alive_by_walks(&mut self) -> bool {
        let local = self.local;
        if self.find_regions() < 2 {
            // No chain has two regions to keep: all of them fail.
            return local.group.iter().all(|&s| self.cells[s] != local.defender);
        }
        let chains = self.number_chains();
        self.chains_around_regions();
        let benson = &mut self.benson;
        benson.alive.clear();
        benson.alive.resize(chains, true);
        loop {
            benson.healthy.clear();
            benson.healthy.resize(chains, 0);
            let (mut around_from, mut vital_from) = (0, 0);
            for &(around_end, vital_end) in &benson.ends {
                if benson.around[around_from..around_end].iter().all(|&c| benson.alive[c]) {
                    for &c in &benson.vital[vital_from..vital_end] {
                        benson.healthy[c] += 1;
                    }
                }
                (around_from, vital_from) = (around_end, vital_end);
            }
            let mut changed = false;
            for c in 0..chains {
                if benson.alive[c] && benson.healthy[c] < 2 {
                    benson.alive[c] = false;
                    changed = true;
                }
            }
            if !changed {
                break;
            }
        }
        let lives = local.group.iter().all(|&s| self.cells[s] != local.defender || benson.alive[self.chain_of[s]]);
        for &p in &self.numbered {
            self.chain_of[p] = usize::MAX;
        }
        lives
    }

    /// Numbers the chains of the defender (the group's and any played in
    /// the regions) in [`Search::chain_of`]; their count.
    fn number_chains(&mut self) -> usize {
        let (local, cells, chain_of) = (self.local, &self.cells, &mut self.chain_of);
        let (numbered, todo) = (&mut self.numbered, &mut self.benson.todo);
        numbered.clear();
        let mut chains = 0;
        // Every point the defender may hold: its stones played on a joint
        // or a wall's liberty may stand apart from the group once a chain
        // of it is taken.
        for &start in &self.lists.held {
            if cells[start] != local.defender || chain_of[start] != usize::MAX {
                continue;
            }
            todo.push(start);
            chain_of[start] = chains;
            numbered.push(start);
            while let Some(p) = todo.pop() {
                for q in local.nbrs(p) {
                    if cells[q] == local.defender && chain_of[q] == usize::MAX {
                        chain_of[q] = chains;
                        numbered.push(q);
                        todo.push(q);
                    }
                }
            }
            chains += 1;
        }
        chains
    }

    /// The regions for [`Search::pass_alive`], their points in
    /// [`Search::benson`]: the connected non-defender points of the
    /// regions (the walk's stamp marks those met); their count.
    fn find_regions(&mut self) -> usize {
        let (local, cells) = (self.local, &self.cells);
        self.walk += 1;
        let (seen, walk) = (&mut self.walked, self.walk);
        let benson = &mut self.benson;
        benson.points.clear();
        benson.point_ends.clear();
        for &start in &self.lists.eye_space {
            if cells[start] == local.defender || seen[start] == walk {
                continue;
            }
            seen[start] = walk;
            let points = &mut benson.points;
            let from = points.len();
            points.push(start);
            // Whether the region reaches past the points read (through
            // the group's points once taken): no eye.
            let mut open = false;
            let mut i = from;
            while i < points.len() {
                let p = points[i];
                i += 1;
                for q in local.nbrs(p) {
                    if cells[q] != local.defender && cells[q] != BORDER && seen[q] != walk {
                        if local.whole && !local.inside[q] {
                            open = true;
                            continue;
                        }
                        seen[q] = walk;
                        points.push(q);
                    }
                }
            }
            if open {
                points.truncate(from);
            } else {
                benson.point_ends.push(points.len());
            }
        }
        benson.point_ends.len()
    }

    /// For each region of [`Search::find_regions`], the chains around it
    /// and those it is vital to (each of its empty points their liberty).
    fn chains_around_regions(&mut self) {
        let (local, cells, chain_of) = (self.local, &self.cells, &self.chain_of);
        let benson = &mut self.benson;
        benson.around.clear();
        benson.vital.clear();
        benson.ends.clear();
        let mut from = 0;
        for &end in &benson.point_ends {
            let points = &benson.points[from..end];
            from = end;
            let around_from = benson.around.len();
            for &p in points {
                for q in local.nbrs(p) {
                    if cells[q] == local.defender && !benson.around[around_from..].contains(&chain_of[q]) {
                        benson.around.push(chain_of[q]);
                    }
                }
            }
            for &c in &benson.around[around_from..] {
                if points.iter().all(|&p| cells[p] != EMPTY || local.nbrs(p).iter().any(|&q| chain_of[q] == c)) {
                    benson.vital.push(c);
                }
            }
            benson.ends.push((benson.around.len(), benson.vital.len()));
        }
    }
}

/// The scratch of [`Search::pass_alive`], kept from call to call.
#[derive(Default)]
struct Benson {
    /// The stones of a chain yet to walk from.
    todo: Vec<usize>,
    /// The points of the regions, one region's after the other's.
    points: Vec<usize>,
    /// Per region, where its points end.
    point_ends: Vec<usize>,
    /// The chains around each region, one region's after the other's.
    around: Vec<usize>,
    /// The chains each region is vital to, likewise.
    vital: Vec<usize>,
    /// Per region, where its chains end in `around` and in `vital`.
    ends: Vec<(usize, usize)>,
    /// Per chain, whether it still counts as alive.
    alive: Vec<bool>,
    /// Per chain, the regions vital to it bordered by living chains only.
    healthy: Vec<usize>,
    /// [`Units::pass_alive`]'s regions, its chains (with the units beside
    /// each) and per region the chains around it and those it is vital to.
    regions: Vec<u64>,
    chains: Vec<(u64, u64)>,
    borders: Vec<(u64, u64)>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Board;

    /// The cells of a diagram (`X` black, `O` white, `.` empty) in the
    /// board's layout, and the point of the first `O`.
    fn diagram(rows: &[&str]) -> (usize, Vec<u8>, usize) {
        let board = Board::from_rows(rows).expect("a diagram");
        let stride = board.width() + 2;
        let mut cells = vec![BORDER; stride * (board.height() + 2)];
        for p in board.points() {
            cells[p as usize] = match board.cell(p).color() {
                None => EMPTY,
                Some(c) => 1 + c as u8,
            };
        }
        let white = board.points().find(|&p| board.cell(p).color() == Some(crate::board::Color::White)).expect("a white stone");
        (stride, cells, white as usize)
    }

    /// The diagram (at most 19 wide) with five empty rows below it.
    fn with_open_ground<'a>(rows: &[&'a str]) -> Vec<&'a str> {
        let open = &"..................."[..rows[0].len()];
        rows.iter().copied().chain([open; 5]).collect()
    }

    /// Whether the white group of the diagram lives, Black moving first,
    /// with open ground below the diagram (so that Black's wall is not a
    /// small region itself).
    fn lives(rows: &[&str]) -> bool {
        let (stride, cells, white) = diagram(&with_open_ground(rows));
        Reading::new(stride, &cells, &|_| false).lives_enclosed(&[white]).is_some()
    }

    #[test]
    fn a_straight_four_lives() {
        assert!(lives(&[
            "XXXXXXX", //
            "XOOOOOO", "XO....O", "XOOOOOO", "XXXXXXX",
        ]));
    }

    #[test]
    fn a_straight_three_dies_to_its_vital_point() {
        assert!(!lives(&[
            "XXXXXX", //
            "XOOOOO", "XO...O", "XOOOOO", "XXXXXX",
        ]));
    }

    #[test]
    fn two_separate_one_point_eyes_live_and_one_does_not() {
        assert!(lives(&[
            "XXXXXXX", //
            "XOOOOOO", "XO.OO.O", "XOOOOOO", "XXXXXXX",
        ]));
        assert!(!lives(&[
            "XXXXXXX", //
            "XOOOOOO", "XO.OOOO", "XOOOOOO", "XXXXXXX",
        ]));
    }

    #[test]
    fn a_false_eye_is_no_eye() {
        // The eye at the right is false: Black holds two of its diagonals
        // and takes the white stone below it.
        assert!(!lives(&[
            "XXXXXXXX", //
            "XOOOOOOX", "XO.OO.OX", "XOOOXOXX", "XXXXXXXX",
        ]));
        // The same with the stone below it connected: two eyes.
        assert!(lives(&[
            "XXXXXXXX", //
            "XOOOOOOX", "XO.OO.OX", "XOOOXOOX", "XXXXXXXX",
        ]));
    }

    #[test]
    fn liberties_on_open_ground_are_the_attackers_to_fill() {
        assert!(lives(&[
            "XXXXXXX", //
            "XOOOOOO", "XO.OO.O", "XOOOOOO", "XXXXXX.",
        ]));
        // One eye: Black fills the liberty outside, then plays in the eye.
        assert!(!lives(&[
            "XXXXXXX", //
            "XOOOOOO", "XO.OOOO", "XOOOOOO", "XXXXXX.",
        ]));
    }

    #[test]
    fn a_chain_with_no_liberty_in_the_eye_space_is_left_out() {
        // The white stone in the corner shares a liberty on open ground with
        // the two-eyed group, and has no other: Black takes it, the group
        // lives all the same.
        let open = ".".repeat(8);
        let rows: Vec<&str> = ["XXXXXXXO", "XOOOOOO.", "XO.OO.O.", "XOOOOOO.", "XXXXXXX."].into_iter().chain([open.as_str(); 5]).collect();
        let (stride, cells, corner) = diagram(&rows);
        let group = 2 * stride + 2;
        let living = Reading::new(stride, &cells, &|_| false).lives_enclosed(&[group, corner]).expect("the group lives");
        assert!(living.contains(&group) && !living.contains(&corner));
    }

    #[test]
    fn an_eye_space_an_attackers_living_chain_reaches_into_is_not_an_eye() {
        assert!(!lives(&[
            "XXXXXXX", //
            "XOOOOOO", "XO..X.O", "XOOOXOO", "XXXXXXX",
        ]));
    }

    #[test]
    fn stones_inside_a_big_eye_space_are_captured_and_the_group_lives() {
        // Black's two stones inside are short of liberties: White takes
        // them and has room for two eyes.
        assert!(lives(&[
            "XXXXXXXX", //
            "XOOOOOOO", "XO.XX..O", "XOOOOOOO", "XXXXXXXX",
        ]));
    }

    #[test]
    fn the_defender_answers_a_cut_on_its_joint() {
        // KGS2002/2002-08-03-11.sgf's shape: the eye at the right is
        // walled by two white stones below it whose other liberties lie
        // outside, each beside the rest of the group. Black fills one,
        // White connects on the other: two eyes.
        let rows = [
            "XXXXXXXX", //
            "XOOOOOOX", "XO.O.OOX", "XOO.O.OX", "XOOXOXOX", "XXXXXXXX",
        ];
        assert!(lives(&rows));
        // With the other joint already Black's, the two stones fall and
        // the eye with them (the first reading: the attacker wins).
        let cut = [
            "XXXXXXXX", //
            "XOOOOOOX", "XO.O.OOX", "XOO.OXOX", "XOOXOXOX", "XXXXXXXX",
        ];
        let (stride, cells, white) = diagram(&with_open_ground(&cut));
        let local = Reading::new(stride, &cells, &|_| false).enclose(&[white]).expect("an enclosed group");
        assert_eq!(Search::new(&local, &cells, false).solve(true, 0), Some(true));
    }

    /// Whether the white group of the diagram lives read whole
    /// ([`Local::whole`]), Black moving first, with open ground below it.
    fn lives_whole(rows: &[&str]) -> bool {
        let (stride, cells, white) = diagram(&with_open_ground(rows));
        let mut local = Reading::new(stride, &cells, &|_| false).enclose(&[white]).expect("an enclosed group");
        local.read_whole(cells.len());
        Search::new(&local, &cells, false).solve(true, 0) == Some(false)
    }

    #[test]
    fn read_whole_a_seki_of_the_local_game_is_no_life() {
        assert!(lives_whole(&[
            "XXXXXXX", //
            "XOOOOOO", "XO....O", "XOOOOOO", "XXXXXXX",
        ]));
        assert!(!lives_whole(&[
            "XXXXXX", //
            "XOOOOO", "XO...O", "XOOOOO", "XXXXXX",
        ]));
        // Black's F8 leaves White's last liberties, C8 and G8, shared with
        // Black's three stones D8-F8: a seki, which the first reading
        // (Black having to move) counts as life and the whole reading does
        // not.
        let seki = [
            "XXXXXXXX", //
            "XOOOOOOO", "XO.XX..O", "XOOOOOOO", "XXXXXXXX",
        ];
        assert!(lives(&seki));
        assert!(!lives_whole(&seki));
    }

    #[test]
    fn read_whole_a_group_lives_that_loses_a_small_chain() {
        // KGS2002/2002-12-29-9.sgf, the final position. White may take
        // Black's A14-B14 by filling their liberties on open ground (A15,
        // B15, C14): the first reading ends there, with the group dead.
        // Read whole, Black's group on the left lives all the same (White
        // taking the two stones is no gain), as RE and GNU Go have it.
        let rows = [
            "OXXX.X..XXO..OOOX..",
            "OOXXX.X.XOOO.OXX.XX",
            "OXXXOX.XXOXOOOOXXXO",
            "OOOOOOXXXXXOOXO.XXO",
            "...OOOOOXOXOXXXXXXO",
            "XX.XOXXOOOOOX...XOO",
            ".OXXOXXOXXOOOOOOOOO",
            ".OXXXXOOOXXXXXOXO.O",
            "X.X.XOO.X.X.X.XXXXX",
            "OXX.XXOXXX.XXX.....",
            "OOXXOXOOXOXXO...O..",
            ".OXOOO.OOOOOXX.....",
            "XOOO.OXX.O.OOXX.X..",
            ".XX.OOOXXXO.XXOX.X.",
            "OOXXOOXXOXOOOOOXXO.",
            ".OOOXX.XOO.....OOX.",
            "OOXX.X.XXOOOO.OXOX.",
            ".OOX.X...XOO.OO.OXX",
            ".OXX..XXXXX.O..OOOX",
        ];
        let (stride, cells, _) = diagram(&rows);
        let board = Board::from_rows(&rows).expect("a diagram");
        let analysis = crate::analysis::Analysis::new(&board);
        let settled = |p: usize| analysis.chain_id(p as Pt).is_some_and(|id| analysis.chain(id).pass_alive);
        let a14 = 6 * stride + 1;
        let local = Reading::new(stride, &cells, &settled).enclose(&[a14]).expect("an enclosed group");
        assert_ne!(Search::new(&local, &cells, false).solve(true, 0), Some(false));
        let living = Reading::new(stride, &cells, &settled).lives_enclosed(&[a14]).expect("the group lives read whole");
        assert!(living.contains(&a14));
    }

    /// Benson's condition on bit sets ([`Units::pass_alive`], the units'
    /// state kept move by move, as the key's cells) answers as the walks do
    /// ([`Search::pass_alive_by_walks`]) on the positions of random lines
    /// of play, read at first (while the group keeps its stones) and whole.
    #[test]
    fn pass_alive_on_units_agrees_with_the_walks() {
        let diagrams: [&[&str]; 3] = [
            &["XXXXXXXX", "XOOOOOOX", "XO.O.OOX", "XOO.O.OX", "XOOXOXOX", "XXXXXXXX"],
            &["XXXXXXXX", "XOOOOOOO", "XO.XX..O", "XOOOOOOO", "XXXXXXXX"],
            &["XXXXXXXXX", "XOOOOOOOO", "XO..O...O", "XO.OOO.OO", "XOOOXOOOX", "XXXXXXXXX"],
        ];
        let mut seed = 0x2545_f491_4f6c_dd1d_u64;
        let mut answers = [0; 2];
        for rows in diagrams {
            let (stride, cells, white) = diagram(&with_open_ground(rows));
            for whole in [false, true] {
                let mut local = Reading::new(stride, &cells, &|_| false).enclose(&[white]).expect("an enclosed group");
                if whole {
                    local.read_whole(cells.len());
                }
                for _ in 0..50 {
                    let mut search = Search::new(&local, &cells, false);
                    for turn in 0..30 {
                        let by_walks = search.pass_alive_by_walks();
                        let units = search.lists.units.as_ref().expect("at most 64 units");
                        assert_eq!((search.held, search.empty), units.state(&search.cells, local.defender));
                        assert_eq!(search.key_cells, key_cells(&search.lists.played, &search.cells));
                        let answer = units.pass_alive(search.held, search.empty, &mut Benson::default());
                        assert_eq!(answer, by_walks, "{rows:?}, whole {whole}, turn {turn}");
                        answers[usize::from(answer)] += 1;
                        let color = if turn % 2 == 0 { 3 - local.defender } else { local.defender };
                        let tries = if color == local.defender { &search.lists.defender_tries } else { &search.lists.attacker_tries };
                        seed ^= seed << 13;
                        seed ^= seed >> 7;
                        seed ^= seed << 17;
                        let p = tries[seed as usize % tries.len()];
                        if let Some(played) = search.play(p, color)
                            && !whole
                            && local.taken(&search.cells)
                        {
                            search.undo(played);
                        }
                    }
                }
            }
        }
        assert!(answers.iter().all(|&n| n > 100), "{answers:?}");
    }

    /// Whether the white chain at column `x`, row `y` of the diagram dies
    /// even moving first ([`Reading::dies_enclosed`]), no stone on the board dead.
    fn chain_dies(rows: &[&str], x: usize, y: usize) -> bool {
        let (stride, cells, _) = diagram(rows);
        let (chain, _) = Position::from_cells(stride, &cells).chain((y + 1) * stride + x + 1);
        Reading::new(stride, &cells, &|_| false).dies_enclosed(&chain, |_| false)
    }

    /// [`chain_dies`] for the white group at the top left of the diagram,
    /// with open ground below it (Black's wall has liberties to spare).
    fn dies(rows: &[&str]) -> bool {
        chain_dies(&with_open_ground(rows), 1, 1)
    }

    #[test]
    fn a_walled_in_chain_with_one_eye_dies_even_moving_first() {
        assert!(dies(&[
            "XXXXXXX", //
            "XOOOOOO", "XO.OOOO", "XOOOOOO", "XXXXXXX",
        ]));
        assert!(!dies(&[
            "XXXXXXX", //
            "XOOOOOO", "XO.OO.O", "XOOOOOO", "XXXXXXX",
        ]));
    }

    #[test]
    fn stones_inside_that_leave_a_straight_three_once_taken_kill() {
        // White must take the three stones at once (its last liberty is
        // beside them), and Black then plays the middle of the three.
        assert!(dies(&[
            "XXXXXXX", //
            "XOOOOOO", "XOXXX.O", "XOOOOOO", "XXXXXXX",
        ]));
    }

    #[test]
    fn a_wall_in_seki_with_the_chain_is_no_wall() {
        // KGS2001/2001-03-15-4.sgf, the final position. The white chain at
        // E14 has one eye (H13) and two liberties (J10, J12) shared with the
        // black wall from J9 to L13, whose other two are H5 and K5: when
        // Black fills J12, White plays H5, and J10 is self-atari for the
        // wall. A seki (GNU Go agrees), which the local game, never playing
        // H5, would read as White's death.
        let rows = [
            "....XOO....OXXX....",
            "...X.XO.O.OOOOX.XOX",
            ".....XXOOOXXOOX.XXX",
            "..XX...X.XXO.XOXXOO",
            "...OXXXXXXOOOOOXOO.",
            ".XXXOOOOOOXOXOXXXO.",
            "...OXXO.OXXOXXXOO..",
            "..XOXXOO.XOOOXXO...",
            "...X.XXOXXO.OXOO...",
            "..X.XXOO.XO.OXXO...",
            "...XXXXOXXOOOXXXO..",
            "....XOXXOXXO.XO.OO.",
            "....XOOOOXOOOXO.O..",
            "..OOXOXOOXXOXOXXXOO",
            "...XXOX.X.XXXOOX.XO",
            "XXXXOOXXXXXOOOXX..X",
            "OXOXOXXXOXO..OOX.X.",
            "OOOXOOXOOOOOO.OOX..",
            "...OO.O.O.....OXX..",
        ];
        assert!(!chain_dies(&rows, 4, 5));
    }

    #[test]
    fn a_short_wall_the_chain_cannot_fill_leaves_it_dead() {
        // KGS2002/2002-09-18-2.sgf, the final position. The white chain
        // at D1 has three liberties, G1 beside the three black stones
        // inside it and G6 and J1 on open ground; White takes the three
        // at G1 and Black kills in the bent three they leave. The black
        // wall B2-C2-C1 has two liberties, A2 and B1, each self-atari for
        // White: the wall holds, as GNU Go also finds.
        let rows = [
            ".OXXXXXXO..OXXX....",
            "O.OOX.XOOOOOOOXX.X.",
            ".OOXXX.XOXXOOXX....",
            "..OXOOXXXXOO.OOXXXX",
            "OOOXOOX.XXXXO.OXOOX",
            "O.OXOXX.XOOOOOOOOXX",
            "..OOOOX.XOXXXXXOOXX",
            "O..O.OX.XOOXXOOOXOO",
            "..OOOXXXOXXX.XXXXO.",
            "O....OXOOOOX..XOO.O",
            ".OO.OOO.OXXXOOXXOO.",
            "OOOOOXOOOX.XOXXXOXO",
            "XOOOOXXXOOX.OXOOOX.",
            "XXOXXX.XXXXXX.XOX.X",
            "XXXXXXOOX.XOXXXOXX.",
            "XXOXOXXOOXXOOXOXXXO",
            "XOOOOOXOXXXO.OOOXOO",
            ".XXOXOOOX.XO...OO..",
            "..XOXX.O.XOO.....OO",
        ];
        assert!(chain_dies(&rows, 3, 18));
    }

    #[test]
    fn a_region_holding_a_pass_alive_enemy_group_is_no_eye_space() {
        // kgs-19-2017-02-new/2017-02-25-13.sgf, the final position. The
        // white chain from K19 to T13 has a square four (N19-O18) for its
        // eye space, dead; its liberty T12 leads through the black group
        // from O14 to T11, which has two eyes of its own (Q13 and R12)
        // and White's chains around it. Read as part of White's eye space,
        // that group makes the local game too big to read; as Black's
        // pass-alive group, the liberty leads nowhere and the chain dies.
        let rows = [
            "......XXXOOO..OOXO.",
            "XXOX.X..OXXO..OXXOX",
            "OOXXXXXXXXXOOOOX.OX",
            "O.OXXXOXXOXXXXOXXXX",
            ".OOOXOOOOOOOOXOOOOX",
            "OOOXXXO.OXXXOOXXXOO",
            ".OXXOOOOXX.XOXX.XXO",
            "O.OXXXOXX.XXOOXX.X.",
            ".OOOXOOOXX.XOXXXXXX",
            "..OXXOOOX.XOXOXOXOX",
            "..OOXO.OOXXOXOOOOOO",
            "....OO.OXXXOXOOO...",
            "......XXOXXOXXXXO..",
            "........OOOOOXXOO..",
            "..O...XXO...OXXO...",
            ".O.OOOOO.OOOOOXO...",
            "OOOXXXOOOXOXXXXO...",
            "XOXX..XXXXX.XXOO...",
            "XXX........X.XXO...",
        ];
        let (stride, cells, _) = diagram(&rows);
        let board = Board::from_rows(&rows).expect("a diagram");
        let analysis = crate::analysis::Analysis::new(&board);
        let settled = |p: usize| analysis.chain_id(p as Pt).is_some_and(|id| analysis.chain(id).pass_alive);
        let (chain, _) = Position::from_cells(stride, &cells).chain(stride + 10);
        assert!(Reading::new(stride, &cells, &settled).dies_enclosed(&chain, |_| false));
        assert!(!Reading::new(stride, &cells, &|_| false).dies_enclosed(&chain, |_| false));
    }
}
