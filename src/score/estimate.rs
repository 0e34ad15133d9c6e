//! Dead stones of a finished game's final position, decided from the
//! position alone and deterministically (same board, same answer, on every
//! machine).
//!
//! The method:
//! 1. Benson's algorithm finds the chains that stay alive even if their
//!    owner never plays again (pass-alive): they are never dead, and enemy
//!    stones in a region each of whose empty points is a liberty of one of
//!    them are always dead.
//! 2. The other chains are judged by Monte-Carlo ownership: light playouts
//!    from the final position until both players pass. A playout move is,
//!    in order: a capture of an enemy chain in atari (the one just played,
//!    one next to our previous move, or one in atari at the start); an
//!    escape of an own chain the last move put in atari (capturing a
//!    neighbour in atari, or extending to two liberties); with 70% chance
//!    a random acceptable point among the 8 around the last move; else a
//!    random acceptable point of the board. Acceptable: legal (no suicide,
//!    simple ko), not the player's own eye (all four neighbours its own,
//!    not made false by enemy diagonals), and not leaving a chain of three
//!    stones or more in atari without capturing (one- and two-stone
//!    self-ataris are how eye shapes are killed).
//! 3. A chain's share is how often its points end owned by its colour (a
//!    stone, or an empty point only its colour touches). 16 playouts are
//!    run on the whole board; then, for the chains whose share is neither
//!    0 nor 1, batches of 16 more (at least 16, at most 96) until each of
//!    their shares is two standard errors away from 0.55. Chains of one
//!    colour that share a liberty can connect there, so they are judged
//!    together: each takes the stone-weighted mean share of its group.
//!    Below 0.55 a chain is dead; but on a board where 3 chains or more have a share
//!    between 0.4 and 0.8 (many fights left open: the fights disturb each
//!    other in the playouts, and a dead chain keeps its points more often
//!    than on a settled board) the threshold is 0.75, and a group that only
//!    this higher threshold kills lives if each of its chains borders two
//!    eyes by their shape, its own or those of a chain it cannot be cut
//!    from (`reader::every_chain_two_eyes`); if not, it is tried once
//!    more: the attacker plays each of the group's liberties and those of
//!    the enemy chains beside it first, 12 playouts each; if after the
//!    best of those moves the group still keeps 45% of its points, it
//!    lives. Between 0.3 and 0.7
//!    a chain is reported unsure (on the KGS games with territory markup,
//!    those bands are where the players' calls split). A capturing race
//!    has one loser: of two adjacent chains of opposite colours both found
//!    dead, one of them with a share of 0.5 or more, the winner lives, with
//!    its group: the chain the tactical reader (`score::reader`) finds
//!    capturing the other whoever moves first, else the higher share;
//!    unless one of them is walled in by dead stones of the other
//!    colour (dead stones inside a dead group's eye space) or the loser
//!    reaches a living chain of its own colour through empty points.
//! 4. Seki: an empty point that stays empty between living chains of both
//!    colours at the end of most playouts (filling it is self-atari for
//!    both) is a seki dame, and the living chains beside it are in seki.
//!    The playouts fill shared liberties at random, so they also kill
//!    chains that are in seki: a dead chain with a share of 0.3 or more
//!    that shares a liberty with a living enemy chain lives if the reader
//!    finds their race a seki with the enemy moving first and a seki or
//!    better with the chain's side moving first, the race read with the
//!    other dead chains taken off the board, but for those of its group
//!    when the group races as one: shut in one enemy chain, or shut in by
//!    small regions none of which is an eye space of its own (its chains
//!    share their liberties with the stones around them, and hold a seki
//!    together or not at all). A seki the enemy breaks by a sacrifice
//!    once the dame are filled (giving up its chain on one of the two
//!    shared liberties leaves the chain one eye) is none: such a chain
//!    is not kept, and a living one is dead.
//! 5. A group with no room of its own once both players passed (none of the
//!    empty regions beside it, dead stones taken off, is surrounded by its
//!    colour alone), beside open ground of 12 points or more and a settled
//!    enemy chain (pass-alive, or with a region of its own), is dead: the
//!    playouts, filling the open ground at random, make eyes there for it
//!    about as often as not. Enemy stones shut in a region (the empty
//!    points and stones of their colour connected to them reach no settled
//!    chain of theirs) do not take it from its owner: they are invaders,
//!    and may be the ones with no room. Of two invaders, the one inside the
//!    other's area (every enemy stone around it an invader) is the deeper,
//!    and leaves the other its room. Of two such groups of opposite
//!    colours on the same open ground (both cannot be without room: once
//!    one is dead, the ground is the other's), the one the playouts keep
//!    less often dies.
//! 6. A dead group whose liberties lie in small regions it encloses (at
//!    most 24 points to play, with its liberties on open ground) lives if
//!    the attacker, moving first, cannot capture any of its chains there
//!    (`score::life`, a search read to the end; a chain of it with no
//!    liberty in those regions is left out, and stays dead), or if read
//!    whole (its points played again once taken, the attacker winning by
//!    taking half its stones) it gets pass-alive, a seki of that local
//!    game being no life, its chains in atari left out: the playouts
//!    fill such eye spaces at random and miss the one answer that makes
//!    two eyes. A dead chain that shares a liberty with a chain this step
//!    revives is asked step 4's seki question again, with that chain
//!    (a chain inside an enemy group the playouts killed had no living
//!    enemy to be in seki with).
//! 7. The other way round, a living chain walled in with small regions
//!    of its own is dead if the attacker captures it there even when it
//!    moves first (`score::life`, the same search, with the walls short
//!    of liberties that could give way read in it too): the
//!    playouts let it take the stones inside its eye space and keep the
//!    eyes that leaves, where the attacker plays again inside (a nakade).
//!    A region holding a pass-alive chain of the attacker's is no eye space
//!    of the group's, in steps 6 and 7 alike. A seki those chains held up
//!    is broken: a living chain whose every liberty is also one of an
//!    enemy chain beside a chain step 7 killed is dead if the reader finds
//!    it losing their race whichever side moves first, the dead chains
//!    taken off (the enemy chain gains their points as liberties).
//! 8. A dead chain that shares two liberties or more with a living chain
//!    of its colour lives with it: they are miai to connect, which the
//!    playouts cut about as often as not.
//!
//! The random numbers come from the board's Zobrist hash (stones only)
//! through splitmix64 and xorshift64*, so the answer depends on the stones
//! only; no clock, thread-local or OS randomness, and no hash-map order.
//!
//! This module knows the board only; counting the score (territory, seki
//! eyes, komi) is the caller's job.

use crate::analysis::{Analysis, Chain as AnalysisChain};
use crate::board::{Board, Cell, Pt};
use crate::score::life;
use crate::score::reader::{self, Outcome};

/// What [`estimate`] decided about a final position. Every list is sorted
/// by point.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Estimate {
    /// Every dead stone (each point of each dead chain).
    pub dead: Vec<Pt>,
    /// The chains the estimator was unsure of (it kept its call, but says so).
    pub unsure: Vec<Doubt>,
    /// Empty points that are dame of a seki, and the chains in seki (one point each).
    pub seki_points: Vec<Pt>,
    /// Every chain the playouts judged (neither pass-alive nor inside the
    /// other colour's pass-alive territory), with its call.
    pub chains: Vec<ChainCall>,
}

/// The estimator's call on one chain.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ChainCall {
    /// The chain's first stone, row by row.
    pub point: Pt,
    pub dead: bool,
    /// The share of the playouts in which the chain's points (with its
    /// group's) ended its colour's: dead below about 0.55.
    pub share: f32,
}

/// A chain whose call the estimator is unsure of, and why.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Doubt {
    /// The chain's first stone, row by row.
    pub point: Pt,
    pub reason: DoubtReason,
    /// The call kept.
    pub dead: bool,
    pub share: f32,
}

/// Why a chain's call is unsure. The names are part of the JSON contract.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum DoubtReason {
    /// A ko next to the chain is left open.
    Ko,
    /// Its eye space has a vital point nobody took (who plays it first decides).
    EyeShape,
    /// A capturing race with an adjacent enemy chain is left open.
    Race,
    /// The playouts split on it with none of the above to tell why.
    Split,
}

impl DoubtReason {
    /// The name in JSON.
    pub fn name(self) -> &'static str {
        match self {
            DoubtReason::Ko => "ko",
            DoubtReason::EyeShape => "eye-shape",
            DoubtReason::Race => "race",
            DoubtReason::Split => "split",
        }
    }

    /// A few words for people.
    pub fn describe(self) -> &'static str {
        match self {
            DoubtReason::Ko => "ko left open",
            DoubtReason::EyeShape => "vital point of its eye shape left empty",
            DoubtReason::Race => "capturing race left open",
            DoubtReason::Split => "the playouts split",
        }
    }
}

/// The estimator's settings.
#[derive(Debug, Clone, Copy)]
struct Params {
    /// Playouts of the first phase, on the whole board.
    first_playouts: usize,
    /// Second phase: at least this many playouts...
    min_playouts: usize,
    /// ...and at most this many, when some chain stays in the uncertain band.
    max_playouts: usize,
    /// Playouts are run in batches of this size between convergence checks.
    batch: usize,
    /// Early stop: every chain's share is further than `z` standard
    /// errors from `dead_below`...
    z: f64,
    /// ...the variance of a share being taken as at least this.
    min_var: f64,
    /// A chain whose own share of playouts is below this is dead (on a
    /// board with fewer than `crowded` chains in doubt).
    dead_below: f64,
    /// With at least this many chains whose share lies in [doubt.0, doubt.1)...
    crowded: usize,
    doubt: (f64, f64),
    /// ...a chain whose share is below this is dead.
    dead_crowded: f64,
    /// A chain whose share lies in [unsure.0, unsure.1) is reported unsure.
    unsure: (f64, f64),
    /// An empty point left neutral (both colours beside it) in at least this
    /// share of playouts, between living chains of both colours, is a seki dame.
    seki_neutral: f64,
    /// Playouts never leave a chain of this many stones or more in atari
    /// without capturing (smaller self-ataris kill eye shapes).
    self_atari: usize,
    /// Percent of the random moves tried next to the last move first.
    local: u32,
    /// Races: of two adjacent chains of opposite colours both judged dead,
    /// the one with the higher share (at least this) is kept alive, with
    /// its group; above 1, off.
    race: f64,
    /// On a crowded board, a group whose share lies between `dead_below`
    /// and `dead_crowded` lives if, after the attacker's best first move
    /// (see `Estimator::survives_attack`, `probe_playouts` playouts per
    /// move, 0: off), its share is at least `probe_alive`.
    probe_playouts: usize,
    probe_alive: f64,
    /// Both players passed: a group with no room of its own is dead
    /// (`Estimator::kill_groups_without_room`).
    passed: bool,
}

const PARAMS: Params = Params {
    first_playouts: 16,
    min_playouts: 16,
    max_playouts: 96,
    batch: 16,
    z: 2.0,
    min_var: 0.05,
    dead_below: 0.55,
    unsure: (0.3, 0.7),
    crowded: 3,
    doubt: (0.4, 0.8),
    dead_crowded: 0.75,
    seki_neutral: 0.6,
    self_atari: 3,
    local: 70,
    race: 0.5,
    probe_playouts: 12,
    probe_alive: 0.45,
    passed: true,
};

/// Decides the dead stones, the unsure chains and the seki of a final
/// position (see the module documentation for how). Deterministic: the
/// answer depends on the stones only. About 0.5 ms for a 19x19 final
/// position (median on the KGS counted games); positions far from finished
/// cost more (more empty points, more playouts), up to a few tens of ms.
pub fn estimate(board: &Board) -> Estimate {
    estimate_with(board, Effort::Final)
}

/// How much work an estimate may take.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Effort {
    /// A finished game's final position: as many playouts and probes as
    /// the doubtful chains need (the figures of docs/accuracy.md).
    Final,
    /// A counted game whose record stops before the passes (Fox, programs'
    /// tournaments): as `Final`, but nothing is concluded from both players
    /// having passed (such records often stop with open ground left).
    Counted,
    /// A position in play (a resignation, a game stopped on time): one
    /// round of [`IN_PLAY_PLAYOUTS`] playouts, no second phase, no probes
    /// and no reading of races, well under a millisecond on 19x19. Its
    /// dead stones are a guess at who owns what, not a final count: in
    /// play, a race is still to be fought and a weak group may still run.
    InPlay,
}

/// Playouts of an estimate in play: half a finished game's first round.
/// Over the 19,136 resigned or timed-out KGS games whose estimate names a
/// winner, it is RE's in 74.3% with 4 playouts, 75.8% with 6, 76.5% with
/// 8 and 77.7% with 12; 8 cost 0.7x the time of 16.
pub const IN_PLAY_PLAYOUTS: usize = 8;

/// [`estimate`] with the given effort.
pub fn estimate_with(board: &Board, effort: Effort) -> Estimate {
    estimate_seeded(board, effort, 0)
}

/// [`estimate_with`] with other random numbers: `seed` 0 gives the
/// estimate kifu reports; the accuracy bench runs others to measure how
/// much its figures owe to the one sequence of random numbers in use.
pub fn estimate_seeded(board: &Board, effort: Effort, seed: u64) -> Estimate {
    let params = match effort {
        Effort::Final => PARAMS,
        Effort::Counted => Params { passed: false, ..PARAMS },
        Effort::InPlay => Params { first_playouts: IN_PLAY_PLAYOUTS, max_playouts: 0, probe_playouts: 0, race: f64::INFINITY, ..PARAMS },
    };
    Estimator::new(board, seed).run(&params)
}

/// Bent four in the corner, as the game ends: the defender's corner eye
/// space holds attacker stones and neither side can play there without
/// being captured, so the playouts see a seki; but the attacker can force
/// a ko there whenever it likes, after removing every ko threat (filling
/// them costs nothing under area counting, and Japanese rules call the
/// shape dead as it stands, commentary to Art. 7), and the defender
/// cannot avoid it. Points as (column, row) offsets from the corner point,
/// `true` for an attacker stone, `false` for an empty point; each shape is
/// also tried transposed.
const BENT_FOUR: [&[(usize, usize, bool)]; 3] = [
    // Attacker stones beside the corner point; the corner and the two ends
    // empty (the defender's only liberties are the ends).
    &[(0, 0, false), (1, 0, true), (2, 0, false), (0, 1, true), (0, 2, false)],
    // Three attacker stones along the edge from the corner; the defender's
    // liberties are the points beyond them on either edge.
    &[(0, 0, true), (1, 0, true), (2, 0, true), (3, 0, false), (0, 1, false)],
    // The same three attacker stones, the defender's liberties below the
    // corner point and below the third stone: the attacker fills the one
    // below the corner, and the capture leaves the bent four in the corner.
    &[(0, 0, true), (1, 0, true), (2, 0, true), (0, 1, false), (2, 1, false)],
];

/// Nodes the reader may visit for one race, and for all the races of a
/// position (a node costs a few to a few tens of microseconds: the budget
/// bounds the slowest positions to tens of milliseconds).
const READ_BUDGET: usize = 1_000;
const POSITION_BUDGET: usize = 2_000;
/// Nodes the seki search of a position may visit in all.
const SEKI_BUDGET: usize = 500;
/// An empty region of this many points beside a group is open ground: the
/// playouts fill it at random and make eyes in it about as often as not.
const OPEN_GROUND: usize = 12;

const EMPTY: u8 = 0;
const BLACK: u8 = 1;
const WHITE: u8 = 2;
const BORDER: u8 = 3;
const NO_CHAIN: u32 = u32::MAX;

fn cell_code(c: Cell) -> u8 {
    match c {
        Cell::Empty => EMPTY,
        Cell::Black => BLACK,
        Cell::White => WHITE,
        Cell::Border => BORDER,
    }
}

fn cell_of(code: u8) -> Cell {
    match code {
        EMPTY => Cell::Empty,
        BLACK => Cell::Black,
        WHITE => Cell::White,
        _ => Cell::Border,
    }
}

/// A chain of the final position.
struct Chain {
    color: u8,
    /// Range into `Estimator::stones`.
    start: u32,
    len: u32,
}

struct Estimator {
    stride: usize,
    /// On-board points, row by row.
    points: Vec<usize>,
    cells: Vec<u8>,
    chain_of: Vec<u32>,
    chains: Vec<Chain>,
    stones: Vec<usize>,
    /// Per chain, from Benson's algorithm: it lives even if its owner
    /// never plays again; it lies in the other colour's pass-alive
    /// territory.
    pass_alive: Vec<bool>,
    sure_dead: Vec<bool>,
    /// Per chain, its number of liberties.
    liberties: Vec<u32>,
    hash: u64,
}

impl Estimator {
    fn new(board: &Board, seed: u64) -> Estimator {
        let stride = board.width() + 2;
        let n = stride * (board.height() + 2);
        let mut cells = vec![BORDER; n];
        let points: Vec<usize> = board.points().map(|p| p as usize).collect();
        for &p in &points {
            cells[p] = cell_code(board.cell(p as Pt));
        }
        debug_assert!(points.first().is_none_or(|&p| p == stride + 1));
        // Chains and Benson's pass-alive chains and territory come from the
        // shared analysis; enemy stones in a pass-alive territory are dead.
        let analysis = Analysis::pass_alive_only(board);
        let nchains = analysis.chains().len();
        let mut e = Estimator {
            stride,
            stones: Vec::with_capacity(points.len()),
            points,
            cells,
            chain_of: vec![NO_CHAIN; n],
            chains: Vec::with_capacity(nchains),
            pass_alive: Vec::with_capacity(nchains),
            sure_dead: Vec::with_capacity(nchains),
            liberties: Vec::with_capacity(nchains),
            hash: board.hash() ^ seed.wrapping_mul(0x1234_5678_9abc_def1),
        };
        for (id, chain) in analysis.chains().iter().enumerate() {
            let start = e.stones.len() as u32;
            for &p in &chain.stones {
                e.chain_of[p as usize] = id as u32;
                e.stones.push(p as usize);
            }
            e.chains.push(Chain { color: cell_code(Cell::of(chain.color)), start, len: chain.stones.len() as u32 });
            e.pass_alive.push(chain.pass_alive);
            e.liberties.push(chain.liberties.len() as u32);
            e.sure_dead.push(analysis.pass_alive_area(chain.stones[0]) == Some(chain.color.opponent()));
        }
        e
    }

    fn nbrs(&self, p: usize) -> [usize; 4] {
        [p - self.stride, p - 1, p + 1, p + self.stride]
    }

    fn chain_stones(&self, id: usize) -> &[usize] {
        let c = &self.chains[id];
        &self.stones[c.start as usize..(c.start + c.len) as usize]
    }

    /// Whether `p` holds a stone of a pass-alive chain.
    fn settled(&self, p: usize) -> bool {
        self.chain_of[p] != NO_CHAIN && self.pass_alive[self.chain_of[p] as usize]
    }

    fn run(&self, params: &Params) -> Estimate {
        let nchains = self.chains.len();
        let (pass_alive, sure_dead) = (&self.pass_alive, &self.sure_dead);
        let undecided: Vec<usize> = (0..nchains).filter(|&i| !pass_alive[i] && !sure_dead[i]).collect();

        // Playouts on the whole board first; then, for the chains still in
        // doubt (a share neither 0 nor 1), more playouts, counted apart, in
        // batches, until every such chain's share is clearly on one side of
        // the threshold (or the maximum is reached).
        let mut counts = Counts::new(self.cells.len());
        let mut second: Option<Counts> = None;
        let mut in_second = vec![false; nchains];
        let mut playouts = 0usize;
        if !undecided.is_empty() {
            let (template, hot) = self.playout_board(params);
            let mut light = template.clone();
            let n = self.cells.len();
            let mut rng = Rng::new(self.hash ^ ((self.stride as u64) << 48) ^ ((n as u64) << 32));
            let max_moves = self.max_moves();
            let converged = |ids: &[usize], c: &Counts, done: usize| {
                ids.iter().all(|&id| {
                    let s = self.own_share(id, c);
                    let sd = (s * (1.0 - s)).max(params.min_var).sqrt() / (done as f64).sqrt();
                    (s - params.dead_below).abs() > params.z * sd
                })
            };
            for _ in 0..params.first_playouts {
                light.copy_from(&template);
                let first = if playouts % 2 == 0 { BLACK } else { WHITE };
                light.playout(&mut rng, first, max_moves, &hot);
                light.tally(&self.points, &mut counts);
                playouts += 1;
            }
            let doubtful: Vec<usize> = undecided
                .iter()
                .copied()
                .filter(|&id| {
                    let s = self.own_share(id, &counts);
                    s > 0.0 && s < 1.0
                })
                .collect();
            if params.max_playouts > 0 && !doubtful.is_empty() && !converged(&doubtful, &counts, playouts) {
                let mut counts2 = Counts::new(n);
                let mut done = 0;
                while done < params.max_playouts {
                    for _ in 0..params.batch {
                        light.copy_from(&template);
                        let first = if done % 2 == 0 { BLACK } else { WHITE };
                        light.playout(&mut rng, first, max_moves, &hot);
                        light.tally(&self.points, &mut counts2);
                        done += 1;
                    }
                    if done >= params.min_playouts && converged(&doubtful, &counts2, done) {
                        break;
                    }
                }
                for &id in &doubtful {
                    in_second[id] = true;
                }
                playouts += done;
                second = Some(counts2);
            }
        }
        let chain_share = |id: usize| match &second {
            Some(c2) if in_second[id] => self.own_share(id, c2),
            _ => self.own_share(id, &counts),
        };
        // The chains the playouts judge (neither pass-alive nor sure dead).
        let linked: Vec<bool> = (0..nchains).map(|id| !pass_alive[id] && !sure_dead[id]).collect();
        let root = self.groups(&linked);
        let undecided_share = |id: usize| linked[id].then(|| chain_share(id));
        let by_group = self.group_shares(&root, &(0..nchains).map(undecided_share).collect::<Vec<_>>());
        let share_of = |id: usize| by_group[id];
        let neutral_share = |p: usize| {
            let (mut k, mut n) = (counts.neutral[p], counts.playouts);
            if let Some(c2) = &second {
                k += c2.neutral[p];
                n += c2.playouts;
            }
            if n == 0 { 0.0 } else { k as f64 / n as f64 }
        };

        // A board with many chains in doubt is far from settled: the fights
        // disturb each other in the playouts, which pulls every share of
        // them toward the middle; a dead chain there keeps more of its
        // points than on a settled board.
        let in_doubt = undecided
            .iter()
            .filter(|&&id| {
                let s = share_of(id);
                s >= params.doubt.0 && s < params.doubt.1
            })
            .count();
        let dead_below = if in_doubt >= params.crowded { params.dead_crowded } else { params.dead_below };
        let mut dead_chain = vec![false; nchains];
        let mut unsure = Vec::new();
        let mut shares = vec![1.0; nchains];
        for id in 0..nchains {
            if pass_alive[id] {
                continue;
            }
            if sure_dead[id] {
                dead_chain[id] = true;
                shares[id] = 0.0;
                continue;
            }
            let s = share_of(id);
            shares[id] = s;
            if s < dead_below {
                dead_chain[id] = true;
            }
            if s >= params.unsure.0 && s < params.unsure.1 {
                unsure.push(id);
            }
        }

        // On a crowded board, a group the higher threshold kills lives if
        // each of its chains has two eyes by their shape, or if it survives
        // the attacker's best first move often enough.
        let position = reader::Position::from_cells(self.stride, &self.cells);
        if params.probe_playouts > 0 && dead_below > params.dead_below {
            let mut probed = vec![false; nchains];
            for id in 0..nchains {
                let r = root[id];
                if !linked[id] || probed[r] || shares[id] < params.dead_below || shares[id] >= dead_below {
                    continue;
                }
                probed[r] = true;
                let group: Vec<usize> = (0..nchains).filter(|&j| linked[j] && root[j] == r).collect();
                let stones: Vec<usize> = group.iter().flat_map(|&j| self.chain_stones(j).iter().copied()).collect();
                if reader::every_chain_two_eyes(&position, &stones) || self.survives_attack(&group, params) {
                    for &j in &group {
                        dead_chain[j] = false;
                    }
                }
            }
        }

        // The reader decides the races the playouts leave open, and finds
        // the seki they miss (final positions only: in play, it would read
        // every fight on the board).
        if params.race <= 1.0 {
            self.keep_race_winners(&shares, &linked, &root, params, &position, &mut dead_chain);
            let in_seki = self.keep_seki(&linked, &shares, params, &mut dead_chain, None);
            self.kill_false_seki(&mut dead_chain);
            if params.passed {
                self.kill_groups_without_room(&linked, &root, &in_seki, &shares, &mut dead_chain);
            }
            let revived = self.keep_enclosed_living(&linked, &root, &mut dead_chain);
            // A dead chain beside a revived one may be in seki with it:
            // asked before, it had no living enemy there.
            if !revived.is_empty() {
                self.keep_seki(&linked, &shares, params, &mut dead_chain, Some(&revived));
            }
            let killed = self.kill_enclosed_dying(&linked, &mut dead_chain);
            self.kill_broken_seki(&killed, &linked, &mut dead_chain);
            self.keep_double_connected(&mut dead_chain);
        }
        self.kill_bent_fours(&mut dead_chain);

        // Seki: empty points between living chains of both colours that the
        // playouts leave empty and neutral.
        let mut seki_points = Vec::new();
        let mut seki_chain = vec![false; nchains];
        if playouts > 0 {
            for &p in &self.points {
                if self.cells[p] != EMPTY || neutral_share(p) < params.seki_neutral {
                    continue;
                }
                let mut sides = 0u8;
                let mut beside = [NO_CHAIN; 4];
                for (k, q) in self.nbrs(p).into_iter().enumerate() {
                    let id = self.chain_of[q];
                    if id != NO_CHAIN && !dead_chain[id as usize] {
                        sides |= self.chains[id as usize].color;
                        beside[k] = id;
                    }
                }
                if sides == BLACK | WHITE {
                    seki_points.push(p as Pt);
                    for id in beside.into_iter().filter(|&id| id != NO_CHAIN) {
                        seki_chain[id as usize] = true;
                    }
                }
            }
        }
        for (id, _) in seki_chain.iter().enumerate().filter(|(_, s)| **s) {
            seki_points.push(self.chain_stones(id)[0] as Pt);
        }

        let mut dead: Vec<Pt> = Vec::new();
        for (id, _) in dead_chain.iter().enumerate().filter(|(_, d)| **d) {
            dead.extend(self.chain_stones(id).iter().map(|&p| p as Pt));
        }
        dead.sort_unstable();
        seki_points.sort_unstable();
        let call = |id: usize| ChainCall { point: self.chain_stones(id)[0] as Pt, dead: dead_chain[id], share: shares[id] as f32 };
        let kos = self.open_kos();
        // The reason is the group's: asked once for each.
        let mut reasons: Vec<Option<DoubtReason>> = vec![None; nchains];
        let mut unsure: Vec<Doubt> = unsure
            .into_iter()
            .map(|id| {
                let reason = *reasons[root[id]].get_or_insert_with(|| self.doubt_reason(id, &root, &shares, &linked, &kos, &position));
                let ChainCall { point, dead, share } = call(id);
                Doubt { point, reason, dead, share }
            })
            .collect();
        unsure.sort_unstable_by_key(|d| d.point);
        let mut chains: Vec<ChainCall> = (0..nchains).filter(|&id| linked[id]).map(call).collect();
        chains.sort_unstable_by_key(|c| c.point);
        Estimate { dead, unsure, seki_points, chains }
    }

    /// Why the estimator is unsure of the chain: a ko beside its group, a
    /// vital point of its group's eye space left empty, a race with an
    /// adjacent enemy chain the playouts are in doubt about too (a share
    /// between 0.2 and 0.8), or none of these.
    fn doubt_reason(&self, id: usize, root: &[usize], shares: &[f64], linked: &[bool], kos: &[[usize; 2]], position: &reader::Position) -> DoubtReason {
        let group: Vec<usize> =
            (0..self.chains.len()).filter(|&j| linked[j] && root[j] == root[id]).flat_map(|j| self.chain_stones(j).iter().copied()).collect();
        let near = |p: usize| group.iter().any(|&s| s == p || self.nbrs(s).contains(&p));
        if kos.iter().any(|&[point, stone]| near(point) || near(stone)) {
            return DoubtReason::Ko;
        }
        if reader::vital_point_empty(position, &group) {
            return DoubtReason::EyeShape;
        }
        let color = self.chains[id].color;
        let in_doubt = |share: f64| (0.2..0.8).contains(&share);
        let racing = group.iter().flat_map(|&s| self.nbrs(s)).any(|q| {
            let other = self.chain_of[q];
            other != NO_CHAIN && linked[other as usize] && self.chains[other as usize].color != color && in_doubt(shares[other as usize])
        });
        if racing { DoubtReason::Race } else { DoubtReason::Split }
    }

    /// The open kos: an empty point every neighbour of which is one
    /// colour's stone or the edge, one of those stones alone and in atari
    /// (the other colour captures it there and can be captured back at
    /// once). Each as [the empty point, the stone in atari].
    fn open_kos(&self) -> Vec<[usize; 2]> {
        let mut kos = Vec::new();
        for &p in &self.points {
            if self.cells[p] != EMPTY {
                continue;
            }
            let stones = self.nbrs(p).into_iter().filter(|&q| self.cells[q] != BORDER);
            let Some(first) = stones.clone().next() else { continue };
            let color = self.cells[first];
            if color == EMPTY || stones.clone().any(|q| self.cells[q] != color) {
                continue;
            }
            let mut in_atari = stones.filter(|&q| self.liberties[self.chain_of[q] as usize] == 1);
            if let (Some(stone), None) = (in_atari.next(), in_atari.next()) {
                if self.chains[self.chain_of[stone] as usize].len == 1 {
                    kos.push([p, stone]);
                }
            }
        }
        kos
    }

    /// Whether the group keeps at least `probe_alive` of its points after
    /// the attacker's best first move: each candidate point (the group's
    /// liberties, then those of the enemy chains beside it) is tried as the
    /// attacker's first move, followed by playouts. Random playouts miss
    /// the one move that kills a group, or kill a living group in a crowded
    /// fight by chance; a search of one move tells them apart. Stops as
    /// soon as a move kills.
    fn survives_attack(&self, group: &[usize], params: &Params) -> bool {
        let color = self.chains[group[0]].color;
        let attacker = BLACK + WHITE - color;
        let stones: Vec<usize> = group.iter().flat_map(|&id| self.chain_stones(id).iter().copied()).collect();
        let liberties = |stones: &mut dyn Iterator<Item = usize>| {
            let mut points: Vec<usize> = stones.flat_map(|p| self.nbrs(p)).filter(|&q| self.cells[q] == EMPTY).collect();
            points.sort_unstable();
            points.dedup();
            points
        };
        let mut candidates = liberties(&mut stones.iter().copied());
        let mut enemies: Vec<usize> =
            stones.iter().flat_map(|&p| self.nbrs(p)).filter(|&q| self.cells[q] == attacker).map(|q| self.chain_of[q] as usize).collect();
        enemies.sort_unstable();
        enemies.dedup();
        let outer = liberties(&mut enemies.iter().flat_map(|&id| self.chain_stones(id).iter().copied()));
        candidates.extend(outer.into_iter().filter(|q| !candidates.contains(q)).collect::<Vec<_>>());
        let (template, hot) = self.playout_board(params);
        let mut light = template.clone();
        let max_moves = self.max_moves();
        let mut rng = Rng::new(self.hash ^ (stones[0] as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15));
        let n = params.probe_playouts as f64;
        candidates.iter().filter(|&&m| template.legal(m, attacker) && !template.is_eye(m, attacker)).all(|&m| {
            let mut kept = 0.0;
            for left in (0..params.probe_playouts).rev() {
                light.copy_from(&template);
                light.play(m, attacker);
                light.playout_after(&mut rng, color, m, max_moves, &hot);
                kept += light.owned_share(&stones, color);
                if (kept + left as f64) / n < params.probe_alive {
                    return false; // the rest cannot raise it enough
                }
            }
            kept / n >= params.probe_alive
        })
    }

    /// The board the playouts start from, with the policy's settings, and
    /// one stone of each chain in atari on it.
    fn playout_board(&self, params: &Params) -> (Light, Vec<usize>) {
        let mut board = Light::from_cells(self.stride, &self.cells, &self.points);
        board.self_atari = params.self_atari;
        board.local = params.local;
        let hot = board.ataris(&self.points);
        (board, hot)
    }

    /// A playout stops after this many moves (a long ko fight).
    fn max_moves(&self) -> usize {
        3 * self.points.len() + 20
    }

    /// A capturing race has one loser: of two adjacent chains of opposite
    /// colours that are both dead (judged by playouts, `linked`), one of
    /// which keeps a share of at least `params.race`, the winner lives,
    /// with its group: the winner the reader finds (`reader::Position::race`,
    /// the chain that captures the other whoever moves first), else, when
    /// the reader cannot tell (the first move decides, a seki, or the node
    /// budget ran out), the chain with the higher share. Not a race: a chain enclosed
    /// by the other's colour, all dead, such as dead stones inside the eye
    /// space of a dead group; nor when the chain that would
    /// lose reaches a living chain of its colour through empty points (it
    /// is not shut in: GNU Go's score14, stones in the corner of a dead
    /// group that reach their own territory).
    fn keep_race_winners(&self, shares: &[f64], linked: &[bool], root: &[usize], params: &Params, position: &reader::Position, dead_chain: &mut [bool]) {
        let n = self.chains.len();
        let judged: Vec<bool> = (0..n).map(|id| dead_chain[id] && linked[id]).collect();
        let mut keep = vec![false; n];
        // Each pair of chains is read once, all of them within one budget.
        let mut races: std::collections::BTreeMap<(usize, usize), Outcome> = std::collections::BTreeMap::new();
        let mut nodes_left = POSITION_BUDGET;
        for a in 0..n {
            if !judged[a] {
                continue;
            }
            for &s in self.chain_stones(a) {
                for q in self.nbrs(s) {
                    let b = self.chain_of[q];
                    if b == NO_CHAIN || !judged[b as usize] || self.chains[b as usize].color == self.chains[a].color {
                        continue;
                    }
                    let b = b as usize;
                    if shares[a].max(shares[b]) < params.race {
                        continue;
                    }
                    if self.enclosed(a, dead_chain) || self.enclosed(b, dead_chain) || self.living_friend(b, dead_chain) {
                        continue;
                    }
                    // Who wins: the reader, else the higher share.
                    let outcome = *races.entry((a, b)).or_insert_with(|| {
                        let mut reading = position.clone().with_budget(READ_BUDGET.min(nodes_left));
                        let outcome = reading.race(s as Pt, q as Pt);
                        nodes_left = nodes_left.saturating_sub(reading.nodes());
                        outcome
                    });
                    let wins = match outcome {
                        Outcome::Alive => true,
                        Outcome::Dead => false,
                        _ => shares[a] > shares[b] && shares[a] >= params.race,
                    };
                    if wins {
                        keep[root[a]] = true;
                    }
                }
            }
        }
        for id in 0..n {
            if judged[id] && keep[root[id]] {
                dead_chain[id] = false;
            }
        }
    }

    /// A seki the playouts miss: they fill the shared liberties at random
    /// and so capture one side or the other. A dead chain they were not
    /// sure of (a share of at least `params.unsure.0`) lives when it shares
    /// a liberty with a living enemy chain and the reader finds their race
    /// a seki with the enemy moving first, and a seki or better with the
    /// chain's side moving first. The race is read with the other dead
    /// chains taken off: stones that will be removed must not shorten the
    /// liberties of the chains around them (but first with the dead chains
    /// of its group on the board, when the group is shut in one enemy
    /// chain or races as one, [`Estimator::races_as_one`]); each board
    /// read again with the dame filled ([`Estimator::with_dame_filled`]).
    /// A seki the enemy breaks by a sacrifice on the board with the dame
    /// filled (`reader::Position::sacrifice_kills`: it gives up its chain
    /// on one shared liberty, and the capture leaves the chain one eye) is
    /// none. With `revived`, only races with those chains are read (the
    /// chains step 6 revived). Returns the chains it keeps.
    fn keep_seki(&self, linked: &[bool], shares: &[f64], params: &Params, dead_chain: &mut [bool], revived: Option<&[usize]>) -> Vec<usize> {
        let cleared = self.without_dead(dead_chain);
        let root = self.groups(linked);
        // The board with the dead chains off but for `chains`.
        let restored = |chains: &[usize]| {
            let mut cells = cleared.clone();
            for &p in chains.iter().flat_map(|&j| self.chain_stones(j)) {
                cells[p] = self.cells[p];
            }
            cells
        };
        let board_of = |d: usize| restored(&[d]);
        // The chain with the dead chains of its group, when the group is
        // shut inside the one living enemy chain `e`, or races as one
        // ([`Estimator::races_as_one`]): they live or die together there,
        // in one seki or not at all.
        let group_board = |d: usize, e: usize| {
            let group: Vec<usize> = (0..self.chains.len()).filter(|&j| j == d || (dead_chain[j] && linked[j] && root[j] == root[d])).collect();
            let inside = group.iter().flat_map(|&j| self.chain_stones(j)).flat_map(|&p| self.nbrs(p)).all(|q| {
                let c = self.chain_of[q];
                c == NO_CHAIN || c as usize == e || self.chains[c as usize].color == self.chains[d].color || dead_chain[c as usize]
            });
            (group.len() > 1 && (inside || self.races_as_one(&group))).then(|| restored(&group))
        };
        // The races to read: a dead chain and a living enemy chain beside
        // it that share a liberty, fewest liberties first (a seki is a
        // race short of liberties: a long race read first would spend the
        // budget the short ones need).
        let mut races = Vec::new();
        for d in (0..self.chains.len()).filter(|&d| dead_chain[d] && linked[d] && shares[d] >= params.unsure.0) {
            let position = reader::Position::from_cells(self.stride, &board_of(d));
            let liberties = position.liberties(self.chain_stones(d)[0]);
            let mut enemies: Vec<(usize, usize)> =
                self.chain_stones(d).iter().flat_map(|&s| self.nbrs(s).map(|q| (s, q))).filter(|&(_, q)| self.chain_of[q] != NO_CHAIN).collect();
            enemies.sort_unstable_by_key(|&(_, q)| self.chain_of[q]);
            enemies.dedup_by_key(|&mut (_, q)| self.chain_of[q]);
            for (s, q) in enemies {
                let e = self.chain_of[q] as usize;
                let theirs = position.liberties(q);
                let asked = revived.is_none_or(|chains| chains.contains(&e));
                if asked
                    && self.chains[e].color != self.chains[d].color
                    && !dead_chain[e]
                    && !self.pass_alive[e]
                    && theirs.iter().any(|l| liberties.contains(l))
                {
                    races.push((liberties.len() + theirs.len(), d, s, q));
                }
            }
        }
        races.sort_unstable();
        let mut living: Vec<usize> = Vec::new();
        let mut nodes_left = SEKI_BUDGET;
        for (_, d, s, q) in races {
            if living.contains(&d) {
                continue;
            }
            let cells = board_of(d);
            let mut seki = |cells: &[u8]| {
                let mut reading = reader::Position::from_cells(self.stride, cells).with_budget(READ_BUDGET.min(nodes_left));
                let (own_first, enemy_first) = reading.race_values(s as Pt, q as Pt);
                nodes_left = nodes_left.saturating_sub(reading.nodes());
                enemy_first == Some(0) && own_first.is_some_and(|v| v >= 0)
            };
            let e = self.chain_of[q] as usize;
            // A seki the enemy breaks by a sacrifice, once the dame are
            // filled, is none ([`Estimator::kill_false_seki`]).
            let broken = |cells: &[u8]| {
                let position = reader::Position::from_cells(self.stride, cells);
                position.sacrifice_kills(q, s) && !position.sacrifice_kills(s, q)
            };
            // The group's board first, then the chain's; each as the game
            // leaves it and with the dame filled.
            let mut boards = group_board(d, e).into_iter().chain([cells]);
            if boards.any(|b| {
                let filled = self.with_dame_filled(&b, d, e, dead_chain);
                !broken(filled.as_deref().unwrap_or(&b)) && (seki(&b) || filled.is_some_and(|filled| seki(&filled)))
            }) {
                living.push(d);
            }
        }
        for &d in &living {
            dead_chain[d] = false;
        }
        living
    }

    /// Whether the chains `group` (one colour) race as one: every empty
    /// region beside them is small (under [`OPEN_GROUND`] points, so the
    /// group is shut in) and touches an enemy stone (none is an eye space
    /// of the group's own, which steps 6 and 7 read by its shape). Such a
    /// group has only the liberties it shares with the stones around it;
    /// a chain of it read alone, the others taken off as dead, loses
    /// their liberties and their blocks, and a seki the chains hold
    /// together is missed (`KGS2002/2002-08-05-7.sgf`: White's two chains
    /// in the lower left, joined by a shared liberty, against Black's
    /// stones inside and the wall around).
    fn races_as_one(&self, group: &[usize]) -> bool {
        let enemy = BLACK + WHITE - self.chains[group[0]].color;
        let mut seen = vec![false; self.cells.len()];
        let beside = group.iter().flat_map(|&j| self.chain_stones(j)).flat_map(|&p| self.nbrs(p));
        beside.filter(|&q| self.cells[q] == EMPTY).all(|q| {
            seen[q] || {
                let region = self.flood(&self.cells, q, EMPTY, &mut seen);
                region.len() < OPEN_GROUND && region.iter().flat_map(|&r| self.nbrs(r)).any(|x| self.cells[x] == enemy)
            }
        })
    }

    /// The race of chains `a` and `b` as the game's end leaves it once the
    /// dame are filled: each side fills the other chain's outside
    /// liberties (not shared) that it fills safely from a living chain of
    /// its own ([`Estimator::fills_safely`]), as the players would before
    /// counting, at no cost under territory counting. A race left with
    /// such dame open was not played out: the side that could fill them
    /// first and did not needed no move there. A liberty that would join
    /// its chain to another of its colour is no dame (its owner has a use
    /// for it) and stays empty. `None` when there is no such dame.
    fn with_dame_filled(&self, cells: &[u8], a: usize, b: usize, dead_chain: &[bool]) -> Option<Vec<u8>> {
        let position = reader::Position::from_cells(self.stride, cells);
        let (la, lb) = (position.liberties(self.chain_stones(a)[0]), position.liberties(self.chain_stones(b)[0]));
        let mut filled = cells.to_vec();
        let mut any = false;
        for (libs, others, filler, owner) in [(&la, &lb, self.chains[b].color, a), (&lb, &la, self.chains[a].color, b)] {
            let joins_friend = |l: usize| self.nbrs(l).into_iter().any(|q| cells[q] == self.chains[owner].color && self.chain_of[q] as usize != owner);
            let outside: Vec<usize> = libs.iter().copied().filter(|&l| !others.contains(&l) && !joins_friend(l)).collect();
            for &l in outside.iter().filter(|&&l| self.fills_safely(l, filler, &outside, dead_chain)) {
                filled[l] = filler;
                any = true;
            }
        }
        any.then_some(filled)
    }

    /// A dead chain with two liberties or more that are also liberties of
    /// a living chain of its colour is connected to it, and lives with it:
    /// the attacker filling one, the defender plays the other, a stone that
    /// joins both. The playouts play such miai at random and cut them
    /// about as often as not (`kgs-19-2006/2006-10-16-1.sgf`: White's K9
    /// group and its wall above share K10 and L10). Repeated until no
    /// chain more lives: a chain kept alive keeps the next.
    fn keep_double_connected(&self, dead_chain: &mut [bool]) {
        let mut changed = true;
        while changed {
            changed = false;
            for id in 0..self.chains.len() {
                if dead_chain[id] && !self.sure_dead[id] && self.shared_with_living(id, dead_chain) >= 2 {
                    dead_chain[id] = false;
                    changed = true;
                }
            }
        }
    }

    /// How many liberties of the chain are also liberties of a living
    /// chain of its colour.
    fn shared_with_living(&self, id: usize, dead_chain: &[bool]) -> usize {
        let color = self.chains[id].color;
        let friend = |q: usize| {
            let c = self.chain_of[q];
            c != NO_CHAIN && c as usize != id && self.chains[c as usize].color == color && !dead_chain[c as usize]
        };
        let mut shared: Vec<usize> =
            self.chain_stones(id).iter().flat_map(|&p| self.nbrs(p)).filter(|&l| self.cells[l] == EMPTY && self.nbrs(l).into_iter().any(friend)).collect();
        shared.sort_unstable();
        shared.dedup();
        shared.len()
    }

    /// A seki of two shared liberties that one side breaks by a sacrifice
    /// and the other cannot (`reader::Position::sacrifice_kills`): the
    /// chain the sacrifice kills is dead. The playouts never fill a shared
    /// liberty there (it is a self-atari), so they keep both chains. A
    /// chain with more liberties is read with the dame filled
    /// ([`Estimator::with_dame_filled`]): its outside liberties that the
    /// other side fills safely are no defence.
    fn kill_false_seki(&self, dead_chain: &mut [bool]) {
        let cleared = self.without_dead(dead_chain);
        let position = reader::Position::from_cells(self.stride, &cleared);
        let mut killed = Vec::new();
        for b in (0..self.chains.len()).filter(|&id| !dead_chain[id]) {
            let victim = self.chain_stones(b)[0];
            let liberties = position.liberties(victim);
            if liberties.len() < 2 || self.pass_alive[b] {
                continue;
            }
            let breaks = liberties.iter().flat_map(|&l| self.nbrs(l)).any(|q| {
                let a = self.chain_of[q];
                // `sacrifice_kills` asks chains of opposite colours only.
                if a == NO_CHAIN || dead_chain[a as usize] || self.chains[a as usize].color == self.chains[b].color {
                    return false;
                }
                // The sacrifice gives up a chain whose two liberties are
                // both the victim's.
                let theirs = position.liberties(q);
                if theirs.len() != 2 || !theirs.iter().all(|l| liberties.contains(l)) {
                    return false;
                }
                // With more liberties than the two shared, the victim is
                // read with the dame filled (none to fill: no sacrifice).
                let filled;
                let position = if liberties.len() == 2 {
                    &position
                } else {
                    let Some(cells) = self.with_dame_filled(&cleared, b, a as usize, dead_chain) else { return false };
                    filled = reader::Position::from_cells(self.stride, &cells);
                    &filled
                };
                position.sacrifice_kills(q, victim) && !position.sacrifice_kills(victim, q)
            });
            if breaks {
                killed.push(b);
            }
        }
        for b in killed {
            dead_chain[b] = true;
        }
    }

    /// The cells with the dead chains taken off.
    fn without_dead(&self, dead_chain: &[bool]) -> Vec<u8> {
        let mut cells = self.cells.clone();
        for id in (0..self.chains.len()).filter(|&id| dead_chain[id]) {
            for &p in self.chain_stones(id) {
                cells[p] = EMPTY;
            }
        }
        cells
    }

    /// A dead group with small regions of its own (its other liberties on
    /// open ground) lives if the attacker, moving first, cannot capture it
    /// there, or read whole gets pass-alive ([`life::Reading::lives_enclosed`]), with
    /// the chains of its colour that share those regions: the playouts fill
    /// such eye spaces at random. Returns the chains it revives.
    fn keep_enclosed_living(&self, linked: &[bool], root: &[usize], dead_chain: &mut [bool]) -> Vec<usize> {
        let mut revived = Vec::new();
        let n = self.chains.len();
        let mut asked = vec![false; n];
        let settled = |p| self.settled(p);
        let mut reading = life::Reading::new(self.stride, &self.cells, &settled);
        for id in 0..n {
            if !linked[id] || !dead_chain[id] || asked[root[id]] {
                continue;
            }
            asked[root[id]] = true;
            let group = (id..n).filter(|&j| linked[j] && root[j] == root[id]);
            let stones: Vec<usize> = group.flat_map(|j| self.chain_stones(j).iter().copied()).collect();
            if let Some(living) = reading.lives_enclosed(&stones) {
                for p in living {
                    let c = self.chain_of[p] as usize;
                    if dead_chain[c] {
                        dead_chain[c] = false;
                        revived.push(c);
                    }
                }
            }
        }
        revived
    }

    /// Step 7 of the method: a living chain walled in with small regions
    /// of its own is dead if the attacker captures it there even with the
    /// chain's side moving first ([`life::Reading::dies_enclosed`]). Returns the
    /// chains it kills.
    fn kill_enclosed_dying(&self, linked: &[bool], dead_chain: &mut [bool]) -> Vec<usize> {
        let settled = |p| self.settled(p);
        let mut reading = life::Reading::new(self.stride, &self.cells, &settled);
        let mut killed = Vec::new();
        for id in 0..self.chains.len() {
            let dead = |p: usize| dead_chain[self.chain_of[p] as usize];
            if linked[id] && !dead_chain[id] && reading.dies_enclosed(self.chain_stones(id), dead) {
                dead_chain[id] = true;
                killed.push(id);
            }
        }
        killed
    }

    /// A seki the chains killed by step 7 held up: a living chain whose
    /// every liberty is also one of an enemy chain beside a killed one
    /// loses its race with it once the dead chains are taken off (that
    /// chain gains their points as liberties), whichever side moves first.
    fn kill_broken_seki(&self, killed: &[usize], linked: &[bool], dead_chain: &mut [bool]) {
        let position = reader::Position::from_cells(self.stride, &self.without_dead(dead_chain));
        let chains_beside = |points: &mut dyn Iterator<Item = usize>| {
            let mut ids: Vec<usize> = points.flat_map(|p| self.nbrs(p)).map(|q| self.chain_of[q]).filter(|&c| c != NO_CHAIN).map(|c| c as usize).collect();
            ids.sort_unstable();
            ids.dedup();
            ids
        };
        let mut nodes_left = SEKI_BUDGET;
        let mut lost = Vec::new();
        for enemy in killed.iter().flat_map(|&k| chains_beside(&mut self.chain_stones(k).iter().copied())).filter(|&e| !dead_chain[e]) {
            let enemy_stone = self.chain_stones(enemy)[0];
            let enemy_liberties = position.liberties(enemy_stone);
            let near = chains_beside(&mut self.chain_stones(enemy).iter().chain(&enemy_liberties).copied());
            for c in near.into_iter().filter(|&c| linked[c] && !dead_chain[c] && self.chains[c].color != self.chains[enemy].color) {
                let stone = self.chain_stones(c)[0];
                if nodes_left == 0 || !position.liberties(stone).iter().all(|l| enemy_liberties.contains(l)) {
                    continue;
                }
                let mut reading = position.clone().with_budget(READ_BUDGET.min(nodes_left));
                if reading.race_values(stone as Pt, enemy_stone as Pt) == (Some(-1), Some(-1)) {
                    lost.push(c);
                }
                nodes_left = nodes_left.saturating_sub(reading.nodes());
            }
        }
        for c in lost {
            dead_chain[c] = true;
        }
    }

    /// A group with no room of its own at the end of a game: none of the
    /// empty regions beside it (the dead stones taken off) is surrounded by
    /// its colour alone (enemy stones shut in deeper aside,
    /// [`Estimator::invaders`]),
    /// one of them at least is open ground
    /// ([`OPEN_GROUND`] points or more), and it borders an enemy chain that
    /// is settled (pass-alive, or with a region of its own). Its owner
    /// passed with no eye and no territory beside a settled enemy; the
    /// playouts, filling the open ground at random, let it make eyes there
    /// about as often as not. It is dead. A group the seki rule kept
    /// (`in_seki`) is not asked: a seki has no room of its own either. Of
    /// such groups of both colours on the same open ground, only those
    /// with a rival there of a higher share (`shares`) die.
    fn kill_groups_without_room(&self, linked: &[bool], root: &[usize], in_seki: &[usize], shares: &[f64], dead_chain: &mut [bool]) {
        let cleared = self.without_dead(dead_chain);
        let after = Analysis::from_cells(cleared.iter().map(|&c| cell_of(c)).collect(), self.stride as Pt);
        // A region is a chain's own when every enemy chain beside it is
        // shut in deeper than the chain: those stones may be the ones to die.
        let depth = self.invaders(&after, &cleared);
        let own = |r: u32, chain: &AnalysisChain, d: u8| {
            after.region(r).chains.iter().map(|&c| c as usize).all(|c| after.chains()[c].color == chain.color || depth[c] > d)
        };
        let settled = |p: usize| {
            let chain = after.chain_at(p as Pt);
            let d = depth[after.chain_id(p as Pt).expect("a stone") as usize];
            chain.pass_alive || chain.regions.iter().any(|&r| own(r, chain, d))
        };
        let open_regions = |group: &[usize]| -> Vec<u32> {
            let regions = group.iter().flat_map(|&j| after.chain_at(self.chain_stones(j)[0] as Pt).regions.iter().copied());
            regions.filter(|&r| after.region(r).points.len() >= OPEN_GROUND).collect()
        };
        let n = self.chains.len();
        let mut asked = vec![false; n];
        let mut homeless = Vec::new();
        for id in 0..n {
            if !linked[id] || dead_chain[id] || asked[root[id]] {
                continue;
            }
            asked[root[id]] = true;
            let group: Vec<usize> = (id..n).filter(|&j| linked[j] && root[j] == root[id] && !dead_chain[j]).collect();
            let first_stones = || group.iter().map(|&j| self.chain_stones(j)[0]);
            if group.iter().any(|j| in_seki.contains(j)) || first_stones().any(settled) || open_regions(&group).is_empty() {
                continue;
            }
            let color = self.chains[id].color;
            let beside_settled_enemy = group
                .iter()
                .flat_map(|&j| self.chain_stones(j))
                .flat_map(|&s| self.nbrs(s))
                .any(|q| self.cells[q] == BLACK + WHITE - color && !dead_chain[self.chain_of[q] as usize] && settled(q));
            if beside_settled_enemy {
                homeless.push((color, group));
            }
        }
        // Open ground beside homeless groups of both colours cannot leave
        // both without room: once one is dead, the ground is the other's.
        // The playouts say which: the group they keep less often dies.
        let mut best = vec![[f64::NEG_INFINITY; 2]; after.regions().len()];
        for (color, group) in &homeless {
            for r in open_regions(group) {
                let side = &mut best[r as usize][usize::from(*color == WHITE)];
                *side = side.max(shares[group[0]]);
            }
        }
        for (color, group) in homeless {
            let other = usize::from(color != WHITE);
            let rivals = open_regions(&group).into_iter().map(|r| best[r as usize][other]).fold(f64::NEG_INFINITY, f64::max);
            if rivals == f64::NEG_INFINITY || rivals > shares[group[0]] {
                for id in group {
                    dead_chain[id] = true;
                }
            }
        }
    }

    /// Per chain of `after` (the position `cells`, dead stones taken off),
    /// how deep it is shut in the other colour's area: 0 when the empty
    /// points and stones of its colour connected to it hold a chain of its
    /// colour that is settled (pass-alive, or beside a region its colour
    /// alone surrounds); else 1 (an invader), or 2 when every enemy chain
    /// around those points is an invader too (it lies inside an invader's
    /// area). A region a chain shares only with enemy chains deeper than
    /// itself is still its room: those stones may be the ones to die.
    fn invaders(&self, after: &Analysis, cells: &[u8]) -> Vec<u8> {
        let settled = |p: usize| {
            let chain = after.chain_at(p as Pt);
            chain.pass_alive || chain.regions.iter().any(|&r| after.region(r).owner() == Some(chain.color))
        };
        let id = |p: usize| after.chain_id(p as Pt).expect("a stone") as usize;
        let mut depth = vec![0u8; after.chains().len()];
        let mut shut_in: Vec<(u8, Vec<usize>)> = Vec::new();
        for color in [BLACK, WHITE] {
            let mut seen = vec![false; cells.len()];
            for &start in &self.points {
                if cells[start] != color || seen[start] {
                    continue;
                }
                let points = self.flood(cells, start, color, &mut seen);
                if !points.iter().any(|&p| cells[p] == color && settled(p)) {
                    for &p in points.iter().filter(|&&p| cells[p] == color) {
                        depth[id(p)] = 1;
                    }
                    shut_in.push((color, points));
                }
            }
        }
        // Inside an invader's area: every enemy stone around is an invader.
        let mut nested = Vec::new();
        for (color, points) in &shut_in {
            let enemy = BLACK + WHITE - color;
            let around = points.iter().flat_map(|&p| self.nbrs(p)).filter(|&q| cells[q] == enemy);
            if around.clone().next().is_some() && around.clone().all(|q| depth[id(q)] > 0) {
                nested.extend(points.iter().filter(|&&p| cells[p] == *color).map(|&p| id(p)));
            }
        }
        for c in nested {
            depth[c] = 2;
        }
        depth
    }

    /// The points connected to `start` through empty points and stones of
    /// `color`, marked in `seen`.
    fn flood(&self, cells: &[u8], start: usize, color: u8, seen: &mut [bool]) -> Vec<usize> {
        let mut points = vec![start];
        seen[start] = true;
        let mut i = 0;
        while i < points.len() {
            let p = points[i];
            i += 1;
            for q in self.nbrs(p) {
                if (cells[q] == EMPTY || cells[q] == color) && !seen[q] {
                    seen[q] = true;
                    points.push(q);
                }
            }
        }
        points
    }

    /// Whether an empty region beside the chain (empty points connected to
    /// one of its liberties) touches a living chain of its colour.
    fn living_friend(&self, id: usize, dead_chain: &[bool]) -> bool {
        let color = self.chains[id].color;
        let mut seen: Vec<usize> = Vec::new();
        for &s in self.chain_stones(id) {
            for l in self.nbrs(s) {
                if self.cells[l] != EMPTY || seen.contains(&l) {
                    continue;
                }
                let start = seen.len();
                seen.push(l);
                let mut i = start;
                while i < seen.len() {
                    let p = seen[i];
                    i += 1;
                    for q in self.nbrs(p) {
                        let c = self.cells[q];
                        if c == EMPTY {
                            if !seen.contains(&q) {
                                seen.push(q);
                            }
                        } else if c == color && !dead_chain[self.chain_of[q] as usize] {
                            return true;
                        }
                    }
                }
            }
        }
        false
    }

    /// Whether the chain, with the empty points and stones of its colour
    /// connected to it, is walled in by dead enemy stones only (no living
    /// enemy chain beside it, and no more than 60 points).
    fn enclosed(&self, id: usize, dead_chain: &[bool]) -> bool {
        let color = self.chains[id].color;
        let mut seen = vec![self.chain_stones(id)[0]];
        let mut i = 0;
        while i < seen.len() {
            let p = seen[i];
            i += 1;
            for q in self.nbrs(p) {
                let c = self.cells[q];
                if c == BORDER || seen.contains(&q) {
                    continue;
                }
                if c == EMPTY || c == color {
                    if seen.len() >= 60 {
                        return false;
                    }
                    seen.push(q);
                } else if !dead_chain[self.chain_of[q] as usize] {
                    return false;
                }
            }
        }
        true
    }

    /// Marks dead the chains around a bent four in the corner (the shapes
    /// of [`BENT_FOUR`]), in each of the four corners and both
    /// orientations: the playouts see a seki there, or the attacker's
    /// stones dead.
    fn kill_bent_fours(&self, dead_chain: &mut [bool]) {
        let width = self.stride - 2;
        if width == 0 {
            return;
        }
        let height = self.points.len() / width;
        for corner in 0..4 {
            for shape in BENT_FOUR {
                for transpose in [false, true] {
                    // Offsets from the corner point to a board point.
                    let at = |(i, j, attacker): (usize, usize, bool)| {
                        let (i, j) = if transpose { (j, i) } else { (i, j) };
                        if i >= width || j >= height {
                            return None;
                        }
                        let x = if corner & 1 == 0 { i } else { width - 1 - i };
                        let y = if corner & 2 == 0 { j } else { height - 1 - j };
                        Some(((y + 1) * self.stride + x + 1, attacker))
                    };
                    if let Some(eye) = shape.iter().map(|&s| at(s)).collect::<Option<Vec<_>>>() {
                        self.kill_bent_four(&eye, dead_chain);
                    }
                }
            }
        }
    }

    /// If `eye` (points, and whether the attacker has a stone there) is on
    /// the board as the shape says, enclosed by living chains of the other
    /// colour (the defender) whose liberties outside it the attacker can
    /// fill, the defender's chains are dead and the attacker's stones in
    /// the eye alive, whatever the playouts made of them.
    fn kill_bent_four(&self, eye: &[(usize, bool)], dead_chain: &mut [bool]) {
        let Some(&(first, _)) = eye.iter().find(|(_, stone)| *stone) else { return };
        let attacker = self.cells[first];
        if attacker != BLACK && attacker != WHITE {
            return;
        }
        let defender = BLACK + WHITE - attacker;
        let inside = |p: usize| eye.iter().any(|&(q, _)| q == p);
        for &(p, stone) in eye {
            let want = if stone { attacker } else { EMPTY };
            if self.cells[p] != want {
                return;
            }
        }
        let mut around: Vec<usize> = Vec::new();
        for &(p, _) in eye {
            for n in self.nbrs(p) {
                if inside(n) || self.cells[n] == BORDER {
                    continue;
                }
                if self.cells[n] != defender {
                    return;
                }
                let id = self.chain_of[n] as usize;
                if !around.contains(&id) {
                    around.push(id);
                }
            }
        }
        // The defender's liberties outside the eye are dame the attacker
        // fills safely first (free under territory counting), and the
        // attacker's chains around are alive: the defender cannot escape
        // or win a race instead.
        let mut outside: Vec<usize> = Vec::new();
        for &id in &around {
            if dead_chain[id] {
                return;
            }
            for &s in self.chain_stones(id) {
                for n in self.nbrs(s).into_iter().filter(|&n| !inside(n)) {
                    if self.cells[n] == attacker && dead_chain[self.chain_of[n] as usize] {
                        return;
                    }
                    if self.cells[n] == EMPTY && !outside.contains(&n) {
                        outside.push(n);
                    }
                }
            }
        }
        if !outside.iter().all(|&n| self.fills_safely(n, attacker, &outside, dead_chain)) {
            return;
        }
        for id in around {
            dead_chain[id] = true;
        }
        for &(p, stone) in eye {
            if stone {
                dead_chain[self.chain_of[p] as usize] = false;
            }
        }
    }

    /// Whether `color` can fill the empty point `p`, one of the `closing`
    /// points it means to fill: `p` touches a living chain of `color` that
    /// is pass-alive or keeps two liberties besides them.
    fn fills_safely(&self, p: usize, color: u8, closing: &[usize], dead_chain: &[bool]) -> bool {
        self.nbrs(p).into_iter().any(|q| {
            let id = self.chain_of[q] as usize;
            if self.cells[q] != color || dead_chain[id] {
                return false;
            }
            let mut kept: Vec<usize> =
                self.chain_stones(id).iter().flat_map(|&s| self.nbrs(s)).filter(|&l| self.cells[l] == EMPTY && !closing.contains(&l)).collect();
            kept.sort_unstable();
            kept.dedup();
            self.pass_alive[id] || kept.len() >= 2
        })
    }

    /// Shares by group: chains of one colour that share a liberty can
    /// connect there, so they live or die together; each undecided chain
    /// (a share in `shares`; `None` for the chains Benson decided, which
    /// are left out) takes the stone-weighted mean share of the group the
    /// undecided chains form. On the KGS games this moves decisions where
    /// the playouts split a group into chains kept and chains lost.
    fn group_shares(&self, root: &[usize], shares: &[Option<f64>]) -> Vec<f64> {
        let n = self.chains.len();
        let (mut sum, mut stones) = (vec![0.0; n], vec![0.0; n]);
        for (id, share) in shares.iter().enumerate() {
            if let Some(s) = *share {
                let len = self.chains[id].len as f64;
                sum[root[id]] += s * len;
                stones[root[id]] += len;
            }
        }
        (0..n).map(|id| if shares[id].is_some() { sum[root[id]] / stones[root[id]] } else { 1.0 }).collect()
    }

    /// Groups: the chains in `linked` of one colour that share a liberty,
    /// transitively; the answer is a representative chain for each chain
    /// (itself for a chain not in `linked`).
    fn groups(&self, linked: &[bool]) -> Vec<usize> {
        let n = self.chains.len();
        let mut parent: Vec<usize> = (0..n).collect();
        fn root(parent: &mut [usize], mut x: usize) -> usize {
            while parent[x] != x {
                parent[x] = parent[parent[x]];
                x = parent[x];
            }
            x
        }
        for &p in &self.points {
            if self.cells[p] != EMPTY {
                continue;
            }
            let beside = self.nbrs(p).map(|q| self.chain_of[q]).map(|id| (id != NO_CHAIN && linked[id as usize]).then_some(id as usize));
            for (i, a) in beside.iter().enumerate() {
                for b in &beside[i + 1..] {
                    if let (Some(a), Some(b)) = (*a, *b) {
                        if self.chains[a].color == self.chains[b].color {
                            let (ra, rb) = (root(&mut parent, a), root(&mut parent, b));
                            parent[ra] = rb;
                        }
                    }
                }
            }
        }
        (0..n).map(|id| root(&mut parent, id)).collect()
    }

    /// Share of playouts (averaged over its stones) in which the chain's
    /// points ended owned by its own colour.
    fn own_share(&self, id: usize, counts: &Counts) -> f64 {
        if counts.playouts == 0 {
            return 1.0;
        }
        let own = &counts.own[self.chains[id].color as usize - 1];
        let stones = self.chain_stones(id);
        let sum: u64 = stones.iter().map(|&p| own[p] as u64).sum();
        sum as f64 / (stones.len() * counts.playouts) as f64
    }
}

#[cold]
#[inline(never)]
fn not_a_point(p: usize) -> ! {
    panic!("{p} is not a point of the playout board")
}

/// `v[i]` without a bounds check, for the playout board's per-point lists
/// (`cells`, `head`, `next`, `chain`, `epos`, `around`, all as long as
/// the padded board, and `empties`). Every index [`Light`] uses is one of
/// them: a point of the board, a neighbour or diagonal of one (the border
/// row around the board keeps those inside the lists), a chain link (`head`,
/// `next` only ever hold points of stones), or a place in `empties` that
/// `epos` keeps for an empty point. The points that come from outside
/// are checked where they come in ([`Light::check_point`]). The bounds
/// checks were a quarter of the playouts' instructions.
#[inline(always)]
fn at<T>(v: &[T], i: usize) -> &T {
    debug_assert!(i < v.len());
    // SAFETY: `i` is an index of `v` (see above).
    unsafe { v.get_unchecked(i) }
}

/// [`at`], to change.
#[inline(always)]
fn at_mut<T>(v: &mut [T], i: usize) -> &mut T {
    debug_assert!(i < v.len());
    // SAFETY: `i` is an index of `v` (see `at`).
    unsafe { v.get_unchecked_mut(i) }
}

/// Ownership at the end of the playouts.
struct Counts {
    /// By colour: playouts that ended with the point owned (a stone, or an
    /// empty point with only that colour beside it).
    own: [Vec<u32>; 2],
    /// Playouts that ended with the point empty and both colours beside it.
    neutral: Vec<u32>,
    playouts: usize,
}

impl Counts {
    fn new(n: usize) -> Counts {
        Counts { own: [vec![0; n], vec![0; n]], neutral: vec![0; n], playouts: 0 }
    }
}

/// Deterministic random numbers: splitmix64 for the seed, xorshift64* after.
struct Rng(u64);

impl Rng {
    fn new(seed: u64) -> Rng {
        let mut z = seed.wrapping_add(0x9e37_79b9_7f4a_7c15);
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^= z >> 31;
        Rng(if z == 0 { 0x2545_f491_4f6c_dd1d } else { z })
    }

    fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    /// A number in 0..n (n > 0).
    fn below(&mut self, n: usize) -> usize {
        (((self.next() >> 32) * n as u64) >> 32) as usize
    }
}

/// A light board for playouts: chains as circular lists with pseudo-liberty
/// count, sum and sum of squares (a chain is in atari exactly when
/// count * squares == sum * sum), and the list of empty points.
struct Light {
    stride: usize,
    cells: Vec<u8>,
    /// Per stone, the head of its chain; 0 on the border (never a point).
    head: Vec<u16>,
    next: Vec<u16>,
    /// Per chain head: its size and pseudo-liberties, in one place (a
    /// move reads and writes them together).
    chain: Vec<ChainStats>,
    empties: Vec<u16>,
    epos: Vec<u16>,
    /// Per cell, what its four neighbours and its four diagonals hold: how
    /// many of each cell value, a nibble each ([`Around`]), kept by
    /// `place` and `remove_chain`. The policy's first questions about a
    /// point (an empty neighbour? an own eye?) are one load.
    around: Vec<u32>,
    /// The point the player to move may not take (simple ko), or 0.
    ko: usize,
    /// Moves that captured, so far in the playout.
    captures: u32,
    /// The vital point of the eye space the last move left by capturing a
    /// chain of three to six stones, or 0.
    nakade: usize,
    /// Moves leaving a chain of this many stones or more in atari (without
    /// capturing) are not played.
    self_atari: usize,
    /// Percent of the moves tried first next to the last move.
    local: u32,
    /// The offsets of a point's 8 neighbours and diagonals, clockwise from
    /// the upper left: the points around the last move, one at a time.
    ring: [isize; 8],
}

/// A chain's size and its pseudo-liberties (one per stone and empty point
/// beside it): how many, their sum and the sum of their squares.
#[derive(Clone, Copy, Default)]
struct ChainStats {
    size: u16,
    nlib: u16,
    lsum: u32,
    lsq: u64,
}

impl ChainStats {
    /// Whether the pseudo-liberties are all one point (at least one).
    #[inline]
    fn one_liberty(nlib: u64, lsum: u64, lsq: u64) -> bool {
        // The pseudo-liberties at one point are the chain's stones beside
        // it, at most 4: a chain with more needs no products.
        (1..=4).contains(&nlib) && nlib * lsq == lsum * lsum
    }
}

/// The distinct liberties of a move, up to two: its own point left out.
struct TwoLiberties {
    at: usize,
    first: usize,
    /// 0, 1 or 2 (two or more).
    count: usize,
}

impl TwoLiberties {
    fn of_move_at(at: usize) -> TwoLiberties {
        TwoLiberties { at, first: 0, count: 0 }
    }

    #[inline(always)]
    fn add(&mut self, x: usize) {
        if x == self.at || self.count == 2 {
            return;
        }
        if self.count == 0 {
            self.first = x;
            self.count = 1;
        } else if x != self.first {
            self.count = 2;
        }
    }
}

/// How many of a point's four neighbours, and of its four diagonals, hold
/// each cell value: the nibble `4 * x` counts the neighbours holding `x`,
/// the nibble `16 + 4 * x` the diagonals (kept for the board's points: a
/// border cell's count is never read).
struct Around;

impl Around {
    /// The neighbours' nibble of the value `x`.
    const fn mask(x: u8) -> u32 {
        0xf << (4 * x)
    }

    /// The change a neighbour's count makes when an empty point takes a
    /// stone of colour `c` (subtracted when the stone goes).
    const fn filled_by(c: u8) -> u32 {
        (1 << (4 * c)) - 1
    }

    /// The same for a diagonal's count.
    const fn diagonal_filled_by(c: u8) -> u32 {
        Around::filled_by(c) << 16
    }

    /// The contribution of a neighbour (`shift` 0) or a diagonal (16)
    /// holding `x`.
    const fn one(x: u8, shift: u32) -> u32 {
        1 << (4 * x as u32 + shift)
    }

    /// How many of the neighbours hold `x`.
    #[inline(always)]
    fn count(around: u32, x: u8) -> usize {
        ((around >> (4 * x)) & 0xf) as usize
    }

    /// How many of the diagonals hold `x`.
    #[inline(always)]
    fn diagonal_count(around: u32, x: u8) -> usize {
        Around::count(around >> 16, x)
    }

    /// Whether a point is an eye of `c`: its neighbours all `c` (or off
    /// the board), and its diagonals not making it false (no enemy stone
    /// on the edge, at most one in the middle of the board).
    #[inline(always)]
    fn is_eye(around: u32, c: u8) -> bool {
        let opp = BLACK + WHITE - c;
        if around & (Around::mask(EMPTY) | Around::mask(opp)) != 0 {
            return false;
        }
        // On the edge (a diagonal off the board) one bad diagonal is enough.
        let on_edge = Around::diagonal_count(around, BORDER) > 0;
        Around::diagonal_count(around, opp) + usize::from(on_edge) < 2
    }
}

impl Clone for Light {
    /// A copy whose list of empty points can take every point back without
    /// growing (captures empty points during a playout).
    fn clone(&self) -> Light {
        let mut empties = Vec::with_capacity(self.cells.len());
        empties.extend_from_slice(&self.empties);
        Light {
            stride: self.stride,
            cells: self.cells.clone(),
            head: self.head.clone(),
            next: self.next.clone(),
            chain: self.chain.clone(),
            empties,
            epos: self.epos.clone(),
            around: self.around.clone(),
            ko: self.ko,
            captures: self.captures,
            nakade: self.nakade,
            self_atari: self.self_atari,
            local: self.local,
            ring: self.ring,
        }
    }
}

impl Light {
    /// Panics unless each point's eight neighbours are inside `cells` (a
    /// border all round), and the points are few enough for 16-bit links.
    fn from_cells(stride: usize, cells: &[u8], points: &[usize]) -> Light {
        let n = cells.len();
        assert!(n <= usize::from(u16::MAX), "a board of at most 65,535 cells");
        assert!(points.iter().all(|&p| p > stride && p + stride + 1 < n), "a border around the board's points");
        let mut b = Light {
            stride,
            cells: vec![BORDER; n],
            head: vec![0; n],
            next: vec![0; n],
            chain: vec![ChainStats::default(); n],
            empties: Vec::with_capacity(points.len()),
            epos: vec![0; n],
            around: vec![0; n],
            ko: 0,
            captures: 0,
            nakade: 0,
            self_atari: 2,
            local: 0,
            ring: {
                let s = stride as isize;
                [-s - 1, -s, -s + 1, 1, s + 1, s, s - 1, -1]
            },
        };
        for &p in points {
            *at_mut(&mut b.cells, p) = EMPTY;
            *at_mut(&mut b.epos, p) = b.empties.len() as u16;
            b.empties.push(p as u16);
        }
        b.count_around(points);
        // Place the stones as moves without captures (a chain without
        // liberty, possible only after setup, stays: nothing can reach it).
        for &p in points {
            let c = cells[p];
            if c == BLACK || c == WHITE {
                b.put(p, c);
            }
        }
        b
    }

    /// Fills `around` for the board's points from `cells` (the border's
    /// entries are never read: every question is about a point).
    fn count_around(&mut self, points: &[usize]) {
        for &p in points {
            let beside: u32 = self.nbrs(p).into_iter().map(|q| Around::one(self.cell(q), 0)).sum();
            let diagonal: u32 = self.diagonals(p).into_iter().map(|q| Around::one(self.cell(q), 16)).sum();
            *at_mut(&mut self.around, p) = beside + diagonal;
        }
    }

    fn copy_from(&mut self, o: &Light) {
        self.cells.copy_from_slice(&o.cells);
        self.head.copy_from_slice(&o.head);
        self.next.copy_from_slice(&o.next);
        self.chain.copy_from_slice(&o.chain);
        self.empties.clear();
        self.empties.extend_from_slice(&o.empties);
        self.epos.copy_from_slice(&o.epos);
        self.around.copy_from_slice(&o.around);
        self.ko = o.ko;
        self.captures = o.captures;
        self.nakade = o.nakade;
    }

    #[inline]
    fn nbrs(&self, p: usize) -> [usize; 4] {
        [p - self.stride, p - 1, p + 1, p + self.stride]
    }

    #[inline(always)]
    fn diagonals(&self, p: usize) -> [usize; 4] {
        let s = self.stride;
        [p - s - 1, p - s + 1, p + s - 1, p + s + 1]
    }

    /// Counts the stone of colour `c` set down at `p` in its neighbours'
    /// and diagonals' `around`.
    #[inline(always)]
    fn count_stone(&mut self, p: usize, c: u8) {
        for n in self.nbrs(p) {
            *at_mut(&mut self.around, n) += Around::filled_by(c);
        }
        for d in self.diagonals(p) {
            *at_mut(&mut self.around, d) += Around::diagonal_filled_by(c);
        }
    }

    /// Takes the stone of colour `c` lifted from `p` out of its
    /// neighbours' and diagonals' `around`.
    #[inline(always)]
    fn uncount_stone(&mut self, p: usize, c: u8) {
        for n in self.nbrs(p) {
            *at_mut(&mut self.around, n) -= Around::filled_by(c);
        }
        for d in self.diagonals(p) {
            *at_mut(&mut self.around, d) -= Around::diagonal_filled_by(c);
        }
    }

    /// Panics unless `p` is a point of the board (not the border): every
    /// point that comes from outside the playouts goes through here first.
    #[inline(always)]
    fn check_point(&self, p: usize) {
        if self.cells.get(p).is_none_or(|&c| c == BORDER) {
            not_a_point(p);
        }
    }

    #[inline(always)]
    fn cell(&self, p: usize) -> u8 {
        *at(&self.cells, p)
    }

    /// What the neighbours of `p` hold ([`Around`]).
    #[inline(always)]
    fn around(&self, p: usize) -> u32 {
        *at(&self.around, p)
    }

    /// The head of the chain of the stone at `p`.
    #[inline(always)]
    fn head(&self, p: usize) -> usize {
        *at(&self.head, p) as usize
    }

    /// The stone after `p` in its chain's circular list.
    #[inline(always)]
    fn next(&self, p: usize) -> usize {
        *at(&self.next, p) as usize
    }

    /// The size and pseudo-liberties of the chain with head `h`.
    #[inline(always)]
    fn stats(&self, h: usize) -> &ChainStats {
        at(&self.chain, h)
    }

    #[inline]
    fn add_lib(&mut self, h: usize, l: usize) {
        let s = at_mut(&mut self.chain, h);
        s.nlib += 1;
        s.lsum += l as u32;
        s.lsq += (l * l) as u64;
    }

    #[inline]
    fn sub_lib(&mut self, h: usize, l: usize) {
        let s = at_mut(&mut self.chain, h);
        s.nlib -= 1;
        s.lsum -= l as u32;
        s.lsq -= (l * l) as u64;
    }

    /// Whether the chain with head `h` has exactly one liberty.
    #[inline]
    fn in_atari(&self, h: usize) -> bool {
        let s = self.stats(h);
        ChainStats::one_liberty(s.nlib as u64, s.lsum as u64, s.lsq)
    }

    /// Whether the chain with head `h`, beside the empty point `l`, is in
    /// atari: all its pseudo-liberties are `l` (their mean and mean square
    /// are `l` and `l * l`). The mean is one product, and most tests fail
    /// on it.
    #[inline(always)]
    fn in_atari_at(&self, h: usize, l: usize) -> bool {
        let s = self.stats(h);
        let (nlib, l) = (u64::from(s.nlib), l as u64);
        u64::from(s.lsum) == nlib * l && s.lsq == nlib * l * l
    }

    /// The only liberty of a chain in atari.
    #[inline]
    fn atari_lib(&self, h: usize) -> usize {
        let s = self.stats(h);
        (s.lsum / s.nlib as u32) as usize
    }

    /// Takes `p` off the list of empty points (every empty point is on it).
    fn remove_empty(&mut self, p: usize) {
        let i = *at(&self.epos, p) as usize;
        debug_assert_eq!(*at(&self.empties, i) as usize, p);
        let last = *self.empties.last().expect("an empty point");
        *at_mut(&mut self.empties, i) = last;
        *at_mut(&mut self.epos, last as usize) = i as u16;
        self.empties.pop();
    }

    fn add_empty(&mut self, p: usize) {
        *at_mut(&mut self.epos, p) = self.empties.len() as u16;
        self.empties.push(p as u16);
    }

    /// Places a stone without capturing.
    fn put(&mut self, p: usize, c: u8) {
        self.place(p, c);
        for n in self.nbrs(p) {
            if self.cell(n) == c {
                self.join(p, n);
            }
        }
    }

    /// Sets a stone down as a chain of its own, its point taken from the
    /// pseudo-liberties of the chains beside it.
    #[inline(always)]
    fn place(&mut self, p: usize, c: u8) {
        self.remove_empty(p);
        *at_mut(&mut self.cells, p) = c;
        *at_mut(&mut self.head, p) = p as u16;
        *at_mut(&mut self.next, p) = p as u16;
        self.count_stone(p, c);
        let mut own = ChainStats { size: 1, ..ChainStats::default() };
        for n in self.nbrs(p) {
            match self.cell(n) {
                EMPTY => {
                    own.nlib += 1;
                    own.lsum += n as u32;
                    own.lsq += (n * n) as u64;
                }
                BLACK | WHITE => {
                    let h = self.head(n);
                    self.sub_lib(h, p);
                }
                _ => {}
            }
        }
        *at_mut(&mut self.chain, p) = own;
    }

    /// Merges the chain of the stone at `n` with that of `p`.
    #[inline(always)]
    fn join(&mut self, p: usize, n: usize) {
        let (a, b) = (self.head(p), self.head(n));
        if a != b {
            self.merge(a, b);
        }
    }

    fn merge(&mut self, a: usize, b: usize) {
        let (big, small) = if self.stats(a).size >= self.stats(b).size { (a, b) } else { (b, a) };
        let mut q = small;
        loop {
            *at_mut(&mut self.head, q) = big as u16;
            q = self.next(q);
            if q == small {
                break;
            }
        }
        let (after_big, after_small) = (self.next(big), self.next(small));
        *at_mut(&mut self.next, big) = after_small as u16;
        *at_mut(&mut self.next, small) = after_big as u16;
        let s = *self.stats(small);
        let b = at_mut(&mut self.chain, big);
        b.size += s.size;
        b.nlib += s.nlib;
        b.lsum += s.lsum;
        b.lsq += s.lsq;
    }

    /// Removes the chain with head `h`; returns its size. Out of line: a
    /// capture is about one move in four.
    #[inline(never)]
    fn remove_chain(&mut self, h: usize) -> usize {
        let color = self.cell(h);
        let mut q = h;
        loop {
            *at_mut(&mut self.cells, q) = EMPTY;
            self.add_empty(q);
            q = self.next(q);
            if q == h {
                break;
            }
        }
        loop {
            self.uncount_stone(q, color);
            for n in self.nbrs(q) {
                let c = self.cell(n);
                if c == BLACK || c == WHITE {
                    let hn = self.head(n);
                    self.add_lib(hn, q);
                }
            }
            q = self.next(q);
            if q == h {
                break;
            }
        }
        self.stats(h).size as usize
    }

    /// Plays a legal move: captures, and sets the ko point.
    fn play(&mut self, p: usize, c: u8) {
        self.check_point(p);
        self.play_chosen(p, c);
    }

    /// [`Light::play`] for a move the policy chose, a point of the board
    /// (an empty point, or the liberty of a chain): no check.
    fn play_chosen(&mut self, p: usize, c: u8) {
        let opp = BLACK + WHITE - c;
        self.ko = 0;
        self.nakade = 0;
        self.place(p, c);
        let mut captured = 0;
        let (mut last_capture, mut last_size) = (0, 0);
        // One look at each neighbour joins the own chains and takes the
        // enemy ones left without pseudo-liberties, as [`Light::put`] then
        // captures would: the chain stats are sums, and a capture changes
        // no chain's colour or size.
        for n in self.nbrs(p) {
            let x = self.cell(n);
            if x == c {
                self.join(p, n);
            } else if x == opp {
                let h = self.head(n);
                if self.stats(h).nlib == 0 {
                    last_size = self.remove_chain(h);
                    captured += last_size;
                    last_capture = n;
                }
            }
        }
        if captured > 0 {
            self.captures += 1;
            if captured == last_size && (3..=6).contains(&captured) {
                self.nakade = self.vital_point(last_capture, captured);
            }
        }
        let h = self.head(p);
        if captured == 1 && self.stats(h).size == 1 && self.stats(h).nlib == 1 {
            self.ko = last_capture;
        }
    }

    /// The vital point of the eye space left by capturing a chain of
    /// `size` stones, one of them `at` (a captured chain keeps its links),
    /// if the space is a killing shape ([`reader::shape`]), else 0: a
    /// square four is dead whatever is played, and the rest make two eyes.
    #[inline(never)]
    fn vital_point(&self, at: usize, size: usize) -> usize {
        let mut space = [0usize; 6];
        let mut q = at;
        for slot in space.iter_mut().take(size) {
            *slot = q;
            q = self.next(q);
        }
        match reader::shape(&space[..size], self.stride) {
            reader::Shape::Killing(vital) => vital,
            reader::Shape::Square | reader::Shape::Lives => 0,
        }
    }

    /// Legal for `c` (no suicide, no immediate ko retake).
    fn legal(&self, p: usize, c: u8) -> bool {
        self.check_point(p);
        let around = self.around(p);
        p != self.ko && (Around::count(around, EMPTY) > 0 || self.chains_give_liberty(p, c, around))
    }

    /// For a point without an empty neighbour (`around` its counts):
    /// whether a stone of `c` there has a liberty, from an own chain beside
    /// it not in atari or an enemy one in atari (taken).
    #[inline(always)]
    fn chains_give_liberty(&self, p: usize, c: u8, around: u32) -> bool {
        if Around::count(around, c) == 0 {
            return self.takes_beside(p);
        }
        // The last chain tested (0: none, never a point): a chain beside
        // `p` twice (all round an eye, most often) answers the same.
        let mut tested = 0;
        for n in self.nbrs(p) {
            match self.cell(n) {
                BORDER => {}
                x => {
                    let h = self.head(n);
                    if h != tested {
                        if (x == c) != self.in_atari_at(h, p) {
                            return true;
                        }
                        tested = h;
                    }
                }
            }
        }
        false
    }

    /// For a point whose neighbours are all enemy stones or the border
    /// (most points the scan passes over amid the enemy): whether one of
    /// their chains is in atari, taken by a stone there. No colour to read:
    /// a border cell's `head` is 0, never a stone's.
    #[inline(always)]
    fn takes_beside(&self, p: usize) -> bool {
        // The last chain tested, as in `chains_give_liberty`.
        let mut tested = 0;
        for n in self.nbrs(p) {
            let h = self.head(n);
            if h != tested && h != 0 {
                if self.in_atari_at(h, p) {
                    return true;
                }
                tested = h;
            }
        }
        false
    }

    /// A point whose neighbours are all `c` and whose diagonals do not make
    /// it false: `c` never fills it.
    fn is_eye(&self, p: usize, c: u8) -> bool {
        self.check_point(p);
        Around::is_eye(self.around(p), c)
    }

    /// For a move at an empty point: whether it captures, and the size of
    /// its chain and (up to 2) its distinct liberties afterwards (none for
    /// a suicide). The liberties of the chains it joins come from their
    /// pseudo-liberties taken together, less the entries for `p` (one per
    /// own stone beside it), with no walk over them: those are all one
    /// point exactly when each chain's are that point or none.
    fn after(&self, p: usize, c: u8) -> (bool, usize, usize) {
        let mut libs = TwoLiberties::of_move_at(p);
        let opp = BLACK + WHITE - c;
        let mut size = 1;
        // The own chains beside `p` (heads; 0, never a point, for none),
        // their pseudo-liberties summed, and the own stones beside `p`.
        let mut joined = [0usize; 4];
        let mut n_joined = 0;
        let (mut nlib, mut lsum, mut lsq, mut beside) = (0u64, 0u64, 0u64, 0u64);
        for n in self.nbrs(p) {
            match self.cell(n) {
                EMPTY => libs.add(n),
                x if x == opp && self.in_atari_at(self.head(n), p) => return (true, 0, 2),
                x if x == c => {
                    beside += 1;
                    let h = self.head(n);
                    if !joined.contains(&h) {
                        joined[n_joined] = h;
                        n_joined += 1;
                        let s = self.stats(h);
                        size += s.size as usize;
                        nlib += u64::from(s.nlib);
                        lsum += u64::from(s.lsum);
                        lsq += s.lsq;
                    }
                }
                _ => {}
            }
        }
        let at = p as u64;
        let (nlib, lsum, lsq) = (nlib - beside, lsum - beside * at, lsq - beside * at * at);
        if nlib > 0 && libs.count < 2 {
            if !ChainStats::one_liberty(nlib, lsum, lsq) {
                return (false, size, 2);
            }
            // A 32-bit division: the sum of the pseudo-liberties fits.
            libs.add((lsum as u32 / nlib as u32) as usize);
        }
        (false, size, libs.count)
    }

    /// Whether the playout policy plays `c` at the empty point `p`: not
    /// an eye of its own, legal, and capturing, or leaving two liberties,
    /// or a chain too small to matter. [`Light::is_eye`] and
    /// [`Light::legal`] by the point's empty neighbours: with two, the
    /// move is no eye and has two liberties; with none (most points the
    /// scan passes over late in a playout, own eyes and points amid the
    /// enemy), the eye needs no atari test.
    #[inline(always)]
    fn acceptable(&self, p: usize, c: u8) -> bool {
        let around = self.around(p);
        match Around::count(around, EMPTY) {
            0 => {
                if Around::is_eye(around, c) || p == self.ko || !self.chains_give_liberty(p, c, around) {
                    return false;
                }
            }
            1 if p == self.ko => return false,
            1 => {}
            _ => return p != self.ko,
        }
        // No own stone beside it: its chain is the stone alone, under the limit.
        if Around::count(around, c) == 0 && self.self_atari > 1 {
            return true;
        }
        let (captures, size, libs) = self.after(p, c);
        captures || libs >= 2 || size < self.self_atari
    }

    /// Whether `p` holds a stone of colour `c` whose chain is in atari:
    /// the cheap test the replies make on every neighbour of the last
    /// moves, inlined so that the common answer (no) costs no call.
    #[inline(always)]
    fn in_atari_of(&self, p: usize, c: u8) -> bool {
        self.cell(p) == c && self.in_atari(self.head(p))
    }

    /// The liberty of the chain at `p` if it belongs to the opponent of
    /// `c`, is in atari, and `c` may take it.
    #[inline(always)]
    fn capture_at(&self, p: usize, c: u8) -> Option<usize> {
        if !self.in_atari_of(p, BLACK + WHITE - c) {
            return None;
        }
        self.take_atari_chain(p, c)
    }

    /// [`Light::capture_at`] for a chain known to be in atari.
    #[inline(never)]
    fn take_atari_chain(&self, p: usize, c: u8) -> Option<usize> {
        let l = self.atari_lib(self.head(p));
        // `legal(l, c)` but for the ko: the move takes the chain.
        (l != self.ko && self.capture_keeps_liberties(l, c)).then_some(l)
    }

    /// Whether capturing at `l` leaves the capturing chain with two
    /// liberties or more, or takes two stones or more (not a snapback).
    fn capture_keeps_liberties(&self, l: usize, c: u8) -> bool {
        // Two empty neighbours are two liberties.
        if Around::count(self.around(l), EMPTY) >= 2 {
            return true;
        }
        let opp = BLACK + WHITE - c;
        let mut libs = TwoLiberties::of_move_at(l);
        let mut taken = 0usize;
        let mut friends = [usize::MAX; 4];
        for (i, n) in self.nbrs(l).into_iter().enumerate() {
            match self.cell(n) {
                EMPTY => libs.add(n),
                x if x == opp && self.in_atari_at(self.head(n), l) => {
                    taken += self.stats(self.head(n)).size as usize;
                    libs.add(n);
                }
                x if x == c => friends[i] = self.head(n),
                _ => {}
            }
        }
        if taken >= 2 || libs.count >= 2 {
            return true;
        }
        for h in friends.into_iter().filter(|&h| h != usize::MAX) {
            let mut q = h;
            loop {
                for n in self.nbrs(q) {
                    if self.cell(n) == EMPTY {
                        libs.add(n);
                    }
                }
                if libs.count >= 2 {
                    return true;
                }
                q = self.next(q);
                if q == h {
                    break;
                }
            }
        }
        libs.count >= 2
    }

    /// A move saving the chain of `c` at `p` if it is in atari: capturing
    /// an enemy chain in atari next to it, or extending to two liberties.
    #[inline(always)]
    fn save_at(&self, p: usize, c: u8) -> Option<usize> {
        if !self.in_atari_of(p, c) {
            return None;
        }
        self.save_atari_chain(p, c)
    }

    /// [`Light::save_at`] for a chain known to be in atari.
    #[inline(never)]
    fn save_atari_chain(&self, p: usize, c: u8) -> Option<usize> {
        let h = self.head(p);
        let mut q = h;
        loop {
            for n in self.nbrs(q) {
                if let Some(l) = self.capture_at(n, c) {
                    return Some(l);
                }
            }
            q = self.next(q);
            if q == h {
                break;
            }
        }
        let l = self.atari_lib(h);
        // `legal(l, c)` but for the ko: a move that captures or has two
        // liberties is legal, and a suicide has neither.
        if l != self.ko {
            let (captures, _, libs) = self.after(l, c);
            if captures || (libs >= 2 && self.escapes(l, c)) {
                return Some(l);
            }
        }
        None
    }

    /// Whether extending at `l` gives the chain three liberties or more
    /// (with two it is most often caught in a ladder).
    fn escapes(&self, l: usize, c: u8) -> bool {
        let mut libs = [0usize; 3];
        let mut k = 0;
        let mut add = |x: usize| {
            if x != l && !libs[..k].contains(&x) {
                libs[k] = x;
                k += 1;
            }
            k == 3
        };
        for n in self.nbrs(l) {
            match self.cell(n) {
                EMPTY if add(n) => return true,
                x if x == c => {
                    let h = self.head(n);
                    let mut q = h;
                    loop {
                        for m in self.nbrs(q) {
                            if self.cell(m) == EMPTY && add(m) {
                                return true;
                            }
                        }
                        q = self.next(q);
                        if q == h {
                            break;
                        }
                    }
                }
                _ => {}
            }
        }
        false
    }

    /// A move answering the last ones: the vital point of the eye space
    /// the last move made by capturing ([`Light::vital_point`]; a random
    /// move elsewhere would let the capturer make two eyes of one); else
    /// capture the chain just played or one next to our previous move if
    /// it is in atari; else save an own chain the last move put in atari.
    /// `hot` lists points to look at as well (chains in atari at the start
    /// of the playout).
    fn reply(&self, last: usize, prev: usize, c: u8, hot: &[usize]) -> Option<usize> {
        if self.nakade != 0 && self.legal(self.nakade, c) {
            return Some(self.nakade);
        }
        if last != 0 {
            if let Some(l) = self.capture_at(last, c) {
                return Some(l);
            }
        }
        if prev != 0 {
            for n in self.nbrs(prev) {
                if let Some(l) = self.capture_at(n, c) {
                    return Some(l);
                }
            }
        }
        for &p in hot {
            if let Some(l) = self.capture_at(p, c) {
                return Some(l);
            }
        }
        if last != 0 {
            for n in self.nbrs(last) {
                if let Some(l) = self.save_at(n, c) {
                    return Some(l);
                }
            }
        }
        for &p in hot {
            if let Some(l) = self.save_at(p, c) {
                return Some(l);
            }
        }
        None
    }

    /// The move of `c`: a reply to the last moves; else, most of the time,
    /// an acceptable point around the last move (from a random one of the
    /// 8); else (if `scan`) the first acceptable point from a random place
    /// in the list of empty points. `None`: pass.
    fn choose(&self, rng: &mut Rng, c: u8, last: usize, prev: usize, hot: &[usize], scan: bool) -> Option<usize> {
        if let Some(p) = self.reply(last, prev, c, hot) {
            return Some(p);
        }
        if last != 0 && self.local > 0 && (rng.below(100) as u32) < self.local {
            let k = rng.below(8);
            // None of the 8 empty (a crowded board): no look.
            let around = self.around(last);
            if Around::count(around, EMPTY) + Around::diagonal_count(around, EMPTY) > 0 {
                for i in 0..8 {
                    let p = last.wrapping_add_signed(self.ring[(k + i) & 7]);
                    if self.cell(p) == EMPTY && self.acceptable(p, c) {
                        return Some(p);
                    }
                }
            }
        }
        let n = self.empties.len();
        if n == 0 || !scan {
            return None;
        }
        let mut j = rng.below(n);
        for _ in 0..n {
            let p = *at(&self.empties, j) as usize;
            if self.acceptable(p, c) {
                return Some(p);
            }
            j += 1;
            if j == n {
                j = 0;
            }
        }
        None
    }

    /// Plays until both players pass. A player who found no move is not
    /// searched again until some move captures (only the replies and the
    /// points around the last move are tried meanwhile): nothing else gives
    /// it a new move, apart from a rare false eye.
    fn playout(&mut self, rng: &mut Rng, first: u8, max_moves: usize, hot: &[usize]) {
        self.playout_after(rng, first, 0, max_moves, hot);
    }

    /// A playout after the opponent of `first` played `opening` (0: none).
    fn playout_after(&mut self, rng: &mut Rng, first: u8, opening: usize, max_moves: usize, hot: &[usize]) {
        for &p in hot.iter().chain((opening != 0).then_some(&opening)) {
            self.check_point(p);
        }
        let mut c = first;
        let mut passes = 0;
        // The last move of each colour (0: none or a pass).
        let mut last = [0usize; 2];
        last[2 - first as usize] = opening;
        let mut moves = 0;
        let mut stuck: [Option<u32>; 2] = [None; 2];
        while passes < 2 && moves < max_moves {
            let ci = c as usize - 1;
            let scan = stuck[ci] != Some(self.captures);
            let hot = if moves < 2 { hot } else { &[] };
            match self.choose(rng, c, last[1 - ci], last[ci], hot, scan) {
                Some(p) => {
                    self.play_chosen(p, c);
                    passes = 0;
                    last[ci] = p;
                }
                None => {
                    if scan {
                        stuck[ci] = Some(self.captures);
                    }
                    passes += 1;
                    last[ci] = 0;
                    self.ko = 0;
                    self.nakade = 0;
                }
            }
            moves += 1;
            c = BLACK + WHITE - c;
        }
    }

    /// One stone of each chain in atari.
    fn ataris(&self, points: &[usize]) -> Vec<usize> {
        points.iter().for_each(|&p| self.check_point(p));
        points.iter().copied().filter(|&p| (self.cell(p) == BLACK || self.cell(p) == WHITE) && self.head(p) == p && self.in_atari(p)).collect()
    }

    /// Who owns `p` at the end of a playout: the colour of its stone, or
    /// the colours beside an empty point (BLACK | WHITE: neutral, EMPTY: none).
    #[inline]
    fn owner(&self, p: usize) -> u8 {
        self.check_point(p);
        match self.cell(p) {
            EMPTY => {
                let around = self.around(p);
                [BLACK, WHITE].into_iter().filter(|&x| Around::count(around, x) > 0).fold(EMPTY, |a, x| a | x)
            }
            x => x,
        }
    }

    /// The share of `stones` that `c` owns at the end of a playout.
    fn owned_share(&self, stones: &[usize], c: u8) -> f64 {
        let owned = stones.iter().filter(|&&p| self.owner(p) == c).count();
        owned as f64 / stones.len().max(1) as f64
    }

    /// Adds this playout's final ownership to the counts.
    fn tally(&self, points: &[usize], counts: &mut Counts) {
        counts.playouts += 1;
        let [black, white] = &mut counts.own;
        for &p in points {
            match self.owner(p) {
                BLACK => black[p] += 1,
                WHITE => white[p] += 1,
                EMPTY => {}
                _ => counts.neutral[p] += 1,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Color;

    fn board_from(rows: &[&str]) -> Board {
        Board::from_rows(rows).expect("a valid diagram")
    }

    /// The estimator's id of the chain at (x, y) of `b`.
    fn chain_at(est: &Estimator, b: &Board, x: usize, y: usize) -> usize {
        est.chain_of[b.point(x, y).expect("a point of the board") as usize] as usize
    }

    fn pts(b: &Board, xy: &[(usize, usize)]) -> Vec<Pt> {
        let mut v: Vec<Pt> = xy.iter().map(|&(x, y)| b.point(x, y).unwrap()).collect();
        v.sort_unstable();
        v
    }

    #[test]
    fn an_open_ko_is_a_lone_stone_in_atari_that_can_be_taken_back() {
        let b = board_from(&[
            ".......", //
            "..XO...", //
            ".XO.O..", //
            "..XO...", //
            ".......",
        ]);
        let est = Estimator::new(&b, 0);
        let at = |x, y| b.point(x, y).expect("on the board") as usize;
        assert_eq!(est.open_kos(), vec![[at(3, 2), at(2, 2)]]);
        // Two stones in atari: taking them is no ko.
        let b = board_from(&[
            ".......", //
            ".XXO...", //
            "XOO.O..", //
            ".XXO...", //
            ".......",
        ]);
        assert!(Estimator::new(&b, 0).open_kos().is_empty());
    }

    #[test]
    fn an_unsure_chain_says_why_ko_race_or_split() {
        let reason_at = |rows: &[&str], (x, y): (usize, usize), share_of_others: f64| {
            let b = board_from(rows);
            let est = Estimator::new(&b, 0);
            let linked = vec![true; est.chains.len()];
            let root = est.groups(&linked);
            let id = chain_at(&est, &b, x, y);
            let shares: Vec<f64> = (0..est.chains.len()).map(|j| if j == id { 0.5 } else { share_of_others }).collect();
            let position = reader::Position::from_cells(est.stride, &est.cells);
            est.doubt_reason(id, &root, &shares, &linked, &est.open_kos(), &position)
        };
        let race = [".......", "..XO...", "..XO...", ".......", "......."];
        assert_eq!(reason_at(&race, (2, 1), 0.5), DoubtReason::Race);
        // The enemy chain beside it is settled: no race.
        assert_eq!(reason_at(&race, (2, 1), 0.95), DoubtReason::Split);
        let ko = [".......", "..XO...", ".XO.O..", "..XO...", "......."];
        assert_eq!(reason_at(&ko, (2, 1), 0.5), DoubtReason::Ko);
        // A straight three in the corner, its middle point empty.
        let three = ["...X...", "XXXX...", "OOOO...", ".......", "......."];
        assert_eq!(reason_at(&three, (0, 1), 0.95), DoubtReason::EyeShape);
    }

    /// The stones step 5 kills on `b` (groups with no room of their own),
    /// the pass-alive chains settled, in point order.
    fn killed_without_room(b: &Board) -> Vec<Pt> {
        killed_without_room_at(b, &|_| 1.0)
    }

    /// The same, each chain with the playouts' share `share` gives its
    /// first stone.
    fn killed_without_room_at(b: &Board, share: &dyn Fn(Pt) -> f64) -> Vec<Pt> {
        let est = Estimator::new(b, 0);
        let n = est.chains.len();
        let linked: Vec<bool> = (0..n).map(|id| !est.pass_alive[id]).collect();
        let shares: Vec<f64> = (0..n).map(|id| share(est.chain_stones(id)[0] as Pt)).collect();
        let mut dead = vec![false; n];
        est.kill_groups_without_room(&linked, &est.groups(&linked), &[], &shares, &mut dead);
        let mut stones: Vec<Pt> = (0..n).filter(|&id| dead[id]).flat_map(|id| est.chain_stones(id).iter().map(|&p| p as Pt)).collect();
        stones.sort_unstable();
        stones
    }

    #[test]
    fn a_group_with_no_room_of_its_own_beside_a_settled_enemy_is_dead() {
        // The rows under the first two are empty: open ground for both.
        let killed = |top: [&str; 2]| {
            let mut rows = vec!["........."; 9];
            rows[..2].copy_from_slice(&top);
            let b = board_from(&rows);
            let stones = killed_without_room(&b);
            (b, stones)
        };
        // Beside a pass-alive group, a stone with no eye is dead.
        let (b, dead) = killed([".X.XO....", "XXXX....."]);
        assert_eq!(dead, pts(&b, &[(4, 0)]));
        // With an eye of its own (the point between its three stones), it lives.
        assert!(killed([".X.XO.O..", "XXXX.O..."]).1.is_empty());
        // Beside an enemy with no room of its own either, nothing is settled.
        assert!(killed(["XXXXO....", "........."]).1.is_empty());
    }

    #[test]
    fn invaders_do_not_take_a_groups_room() {
        // Black's wall E9-E1 has no region of its own: White's pass-alive
        // group shares the open ground on the left, and White's stone F3
        // lies in the area on the right. But F3 is shut in there (the
        // points and white stones it reaches hold no settled white chain),
        // while the wall reaches Black's pass-alive corner (eyes A3, A1):
        // the right side is Black's room, and F3 is the one with none.
        let b = board_from(&[
            ".O.OX....", //
            "OOOOX....",
            "OOOOX....",
            "....X....",
            "....X....",
            "XX..X....",
            ".X..XO...",
            "XX..X....",
            ".X..X....",
        ]);
        assert_eq!(killed_without_room(&b), pts(&b, &[(5, 6)]));
    }

    #[test]
    fn of_two_invaders_the_one_inside_the_others_area_has_no_room() {
        // White's wall E9-E1 reaches no settled white chain: it is shut in
        // between Black's pass-alive group and the edge. Black's stone F3
        // is shut in too, but inside the wall's area (every enemy stone
        // around it is the wall): the right side is the wall's room, and
        // F3 is the one with none.
        let b = board_from(&[
            ".X.XO....", //
            "XXXXO....",
            "XXXXO....",
            "....O....",
            "....O....",
            "....O....",
            "....OX...",
            "....O....",
            "....O....",
        ]);
        assert_eq!(killed_without_room(&b), pts(&b, &[(5, 6)]));
    }

    #[test]
    fn of_two_groups_without_room_on_the_same_open_ground_the_playouts_pick_the_dead() {
        // White's stone E9 beside Black's pass-alive corner, Black's stone
        // E1 beside White's: neither has room, and both border the one open
        // region. Both cannot be without room (once one dies, the ground is
        // the other's): the one the playouts keep less often dies.
        let b = board_from(&[
            ".X.XO....", //
            "XXXX.....",
            ".........",
            ".........",
            ".........",
            ".........",
            ".........",
            ".....OOOO",
            "....XO.O.",
        ]);
        let (e9, e1) = (pts(&b, &[(4, 0)]), pts(&b, &[(4, 8)]));
        assert_eq!(killed_without_room_at(&b, &|p| if p == e9[0] { 0.7 } else { 0.9 }), e9);
        assert_eq!(killed_without_room_at(&b, &|p| if p == e9[0] { 0.9 } else { 0.7 }), e1);
        // Kept equally often: nothing shows which, and both stand.
        assert!(killed_without_room(&b).is_empty());
    }

    #[test]
    fn a_seki_the_killed_chains_held_up_is_broken() {
        // White A9 and Black's chain around it share their two liberties
        // (B9, A8): a seki while White's chain from D9 to A6 keeps Black
        // short of liberties. With that chain dead, Black has its points
        // as liberties and A9 dies.
        let b = board_from(&[
            "O.XO.....", //
            ".XXO.....",
            "XXOO.....",
            "OOO......",
            ".........",
            ".........",
            ".........",
            ".........",
            ".........",
        ]);
        let est = Estimator::new(&b, 0);
        let n = est.chains.len();
        let linked = vec![true; n];
        let (corner, wall) = (chain_at(&est, &b, 0, 0), chain_at(&est, &b, 3, 0));
        let mut dead = vec![false; n];
        est.kill_broken_seki(&[], &linked, &mut dead);
        assert!(!dead[corner]);
        dead[wall] = true;
        est.kill_broken_seki(&[wall], &linked, &mut dead);
        assert!(dead[corner]);
        assert_eq!(dead.iter().filter(|&&d| d).count(), 2);
    }

    #[test]
    fn dead_single_stone_inside_territory() {
        let b = board_from(&[
            ".....X.O.", //
            "..O..X.O.",
            ".....X.O.",
            ".....X.O.",
            ".....X.O.",
            "XXXXXX.O.",
            "OOOOOOOO.",
            ".........",
            ".........",
        ]);
        let e = estimate(&b);
        assert_eq!(e.dead, pts(&b, &[(2, 1)]));
    }

    #[test]
    fn a_capture_of_three_to_six_stones_leaves_its_vital_point_to_the_loser() {
        let nakade_after = |rows: &[&str], (x, y): (usize, usize)| {
            let b = board_from(rows);
            let est = Estimator::new(&b, 0);
            let (mut light, _) = est.playout_board(&PARAMS);
            light.play(b.point(x, y).expect("on the board") as usize, BLACK);
            (light.nakade != 0).then_some(light.nakade)
        };
        let at = |rows: &[&str], x, y| board_from(rows).point(x, y).map(|p| p as usize);
        let bent_three = ["XXXX.", "XOOX.", "XO.X.", "XXXX.", "....."];
        assert_eq!(nakade_after(&bent_three, (2, 2)), at(&bent_three, 1, 1));
        let pyramid_four = ["XXXXX", "XOOOX", "XXO.X", "XXXXX", "....."];
        assert_eq!(nakade_after(&pyramid_four, (3, 2)), at(&pyramid_four, 2, 1));
        let bulky_five = ["XXXXX", "XOOOX", "XOO.X", "XXXXX", "....."];
        assert_eq!(nakade_after(&bulky_five, (3, 2)), at(&bulky_five, 2, 1));
        let rabbity_six = ["XXXXX", "XXOXX", "XOOOX", "XXOO.", "XXXXX"];
        assert_eq!(nakade_after(&rabbity_six, (4, 3)), at(&rabbity_six, 2, 2));
        // Two stones, a square four, a bent four and a T of five: no
        // single point kills.
        let none = [
            (["XXXX.", "XOO..", "XXXX.", ".....", "....."], (3, 1)),
            (["XXXX.", "XOOX.", "XOO..", "XXXX.", "....."], (3, 2)),
            (["XXXXX", "XOOOX", "XXXO.", "XXXXX", "....."], (4, 2)),
            (["XXXXX", "XOOOX", "XXOXX", "XXO..", "XXXXX"], (3, 3)),
        ];
        for (rows, capture) in none {
            assert_eq!(nakade_after(&rows, capture), None, "{rows:?}");
        }
    }

    #[test]
    fn a_group_whose_only_eye_space_is_a_bent_three_it_captures_is_dead() {
        // Black can take the three White stones at F6, their last
        // liberty, but White answers at D6 inside: one eye.
        let b = board_from(&[
            ".O.O.O.O.", //
            "OOOOOOOOO",
            "OOXXXXXOO",
            "OOXOO.XOO",
            "OOXOXXXOO",
            "OOXXX.XOO",
            "OOOOO.OOO",
            ".O.O.O.O.",
            "OOOOOOOOO",
        ]);
        let e = estimate(&b);
        assert!(e.dead.contains(&b.point(2, 2).unwrap()), "{e:?}");
        assert!(!e.dead.contains(&b.point(3, 3).unwrap()), "{e:?}");
    }

    #[test]
    fn dead_three_stones_in_a_corner() {
        let b = board_from(&[
            "OO..XO...", //
            "O...XO...",
            "....XO...",
            "....XO...",
            "....XO...",
            "....XO...",
            "....XO...",
            "....XO...",
            "....XO...",
        ]);
        let e = estimate(&b);
        assert_eq!(e.dead, pts(&b, &[(0, 0), (1, 0), (0, 1)]));
        assert!(e.unsure.is_empty(), "{e:?}");
        assert!(e.seki_points.is_empty(), "{e:?}");
    }

    #[test]
    fn living_two_eyed_group_is_pass_alive() {
        let b = board_from(&[
            ".X.XO....", //
            "XXXXO....",
            "OOOOO....",
            ".........",
            ".........",
            ".........",
            ".........",
        ]);
        let est = Estimator::new(&b, 0);
        let e = est.run(&PARAMS);
        let black = chain_at(&est, &b, 1, 1);
        assert!(est.pass_alive[black]);
        assert!(e.dead.is_empty() && e.unsure.is_empty() && e.seki_points.is_empty(), "{e:?}");
        // Only White's chain is left to the playouts.
        assert_eq!(e.chains.len(), 1);
    }

    #[test]
    fn pass_alive_chain_is_never_dead_and_enemy_inside_always_is() {
        // Black lives unconditionally (eyes at a1, f1, and d1 beside the
        // white stone at c1); the white stone cannot live there.
        let b = board_from(&[
            ".XO.X.XO", //
            "XXXXXXXO", "OOOOOOOO", "........", "........",
        ]);
        let est = Estimator::new(&b, 0);
        let e = est.run(&PARAMS);
        let black = chain_at(&est, &b, 0, 1);
        let white = chain_at(&est, &b, 2, 0);
        assert!(est.pass_alive[black]);
        assert!(est.sure_dead[white]);
        assert_eq!(e.dead, pts(&b, &[(2, 0)]));
        assert!(e.unsure.is_empty());
    }

    #[test]
    fn seki_is_found_and_nobody_is_dead() {
        // Black's corner stones and White's three stones beside them share
        // their only two liberties (b1, b2): whoever fills one is captured.
        let b = board_from(&[
            "X.OX.....", //
            "X.OX.....",
            "XXOX.....",
            "OOXX.....",
            "OOXXXXXXX",
            "OOOOOOOOO",
            ".........",
            ".........",
            ".........",
        ]);
        let e = estimate(&b);
        assert!(e.dead.is_empty(), "{e:?}");
        for (x, y) in [(1, 0), (1, 1), (0, 0), (2, 0)] {
            let p = b.point(x, y).unwrap();
            let in_seki = e.seki_points.iter().any(|&q| q == p || (b.cell(p) != Cell::Empty && b.chain(p).contains(&q)));
            assert!(in_seki, "{x},{y} not reported in seki: {e:?}");
        }
        // The outer chains are not in seki.
        let outer = b.chain(b.point(3, 0).unwrap());
        assert!(!e.seki_points.iter().any(|q| outer.contains(q)), "{e:?}");
    }

    #[test]
    fn chains_sharing_a_liberty_take_their_group_share() {
        // Black a1-a2 and c1 share the liberty b1; black f1 shares none
        // with them; the white chain c2-c3 has no white neighbour.
        let b = board_from(&[
            "......", //
            "..O...", "X.O...", "X.X..X",
        ]);
        let est = Estimator::new(&b, 0);
        let id = |x, y| chain_at(&est, &b, x, y);
        let (left, middle, right, white) = (id(0, 2), id(2, 3), id(5, 3), id(2, 1));
        let mut shares = vec![None; est.chains.len()];
        shares[left] = Some(0.9);
        shares[middle] = Some(0.0);
        shares[right] = Some(0.2);
        shares[white] = Some(0.5);
        let grouped_by = |shares: &[Option<f64>]| est.group_shares(&est.groups(&shares.iter().map(Option::is_some).collect::<Vec<_>>()), shares);
        let grouped = grouped_by(&shares);
        // Two stones at 0.9 and one at 0.0: 0.6 for both chains.
        assert!((grouped[left] - 0.6).abs() < 1e-9 && (grouped[middle] - 0.6).abs() < 1e-9, "{grouped:?}");
        assert_eq!((grouped[right], grouped[white]), (0.2, 0.5));
        // A chain Benson decided is left out of every group.
        shares[left] = None;
        let grouped = grouped_by(&shares);
        assert_eq!(grouped[middle], 0.0);
    }

    #[test]
    fn a_race_has_one_loser_unless_stones_are_shut_in_or_reach_a_friend() {
        let race = |rows: &[&str], judged: &[((usize, usize), f64)]| {
            let b = board_from(rows);
            let est = Estimator::new(&b, 0);
            let n = est.chains.len();
            let (mut shares, mut dead) = (vec![1.0; n], vec![false; n]);
            for &((x, y), s) in judged {
                let id = chain_at(&est, &b, x, y);
                shares[id] = s;
                dead[id] = true;
            }
            let root: Vec<usize> = (0..n).collect();
            let position = reader::Position::from_cells(est.stride, &est.cells);
            est.keep_race_winners(&shares, &vec![true; n], &root, &PARAMS, &position, &mut dead);
            judged.iter().map(|&((x, y), _)| dead[chain_at(&est, &b, x, y)]).collect::<Vec<_>>()
        };
        let open = ["........", ".XXO....", ".XOO....", ".XO.....", "........", "........", "........", "........", "........"];
        // Two adjacent chains in the open, both dead: the higher share lives.
        assert_eq!(race(&open, &[((1, 1), 0.7), ((3, 1), 0.6)]), [false, true]);
        // Shares under 0.5: both stay dead.
        assert_eq!(race(&open, &[((1, 1), 0.45), ((3, 1), 0.4)]), [true, true]);
        // The white chain reaches a living white chain through empty points.
        let mut friend = open;
        friend[7] = "......O.";
        assert_eq!(race(&friend, &[((1, 1), 0.7), ((3, 1), 0.6)]), [true, true]);
        // A white stone shut in by the dead black chain is no race.
        let inside = ["O.X......", "XXX......", ".........", ".........", ".........", ".........", ".........", ".........", "........."];
        assert_eq!(race(&inside, &[((0, 1), 0.7), ((0, 0), 0.6)]), [true, true]);
    }

    #[test]
    fn a_chain_the_playouts_doubted_lives_in_a_seki_the_reader_finds() {
        // Black a1-a3-b3 and White c1-c3 share b1 and b2 and nothing else.
        let rows = ["X.OX.....", "X.OX.....", "XXOX.....", "OOXX.....", "OOXXXXXXX", "OOOOOOOOO", "........."];
        let b = board_from(&rows);
        let est = Estimator::new(&b, 0);
        let id = |x, y| chain_at(&est, &b, x, y);
        let kept = |share: f64, also_dead: &[usize]| {
            let n = est.chains.len();
            let (mut shares, mut dead) = (vec![1.0; n], vec![false; n]);
            (shares[id(2, 0)], dead[id(2, 0)]) = (share, true);
            for &other in also_dead {
                dead[other] = true;
            }
            est.keep_seki(&vec![true; n], &shares, &PARAMS, &mut dead, None);
            !dead[id(2, 0)]
        };
        assert!(kept(0.4, &[]));
        assert!(!kept(0.2, &[]), "a chain the playouts were sure of stays dead");
        // The white stones below Black's chain dead too: taken off, they
        // leave Black the liberties that win the race.
        assert!(!kept(0.4, &[id(0, 3)]));
    }

    #[test]
    fn a_chain_beside_a_revived_one_is_asked_for_a_seki_again() {
        // The seki above, with both chains of it dead at first: White's
        // c1-c3 has no living enemy to be in seki with until Black's corner
        // chain is revived (as step 6 does), and then only with that chain.
        let rows = ["X.OX.....", "X.OX.....", "XXOX.....", "OOXX.....", "OOXXXXXXX", "OOOOOOOOO", "........."];
        let b = board_from(&rows);
        let est = Estimator::new(&b, 0);
        let (white, corner, wall) = (chain_at(&est, &b, 2, 0), chain_at(&est, &b, 0, 0), chain_at(&est, &b, 3, 0));
        let n = est.chains.len();
        let mut shares = vec![1.0; n];
        shares[white] = 0.4;
        let mut dead = vec![false; n];
        (dead[white], dead[corner]) = (true, true);
        est.keep_seki(&vec![true; n], &shares, &PARAMS, &mut dead, None);
        assert!(dead[white]);
        dead[corner] = false;
        est.keep_seki(&vec![true; n], &shares, &PARAMS, &mut dead, Some(&[wall]));
        assert!(dead[white], "only races with the revived chains are read");
        est.keep_seki(&vec![true; n], &shares, &PARAMS, &mut dead, Some(&[corner]));
        assert!(!dead[white]);
    }

    #[test]
    fn a_seki_is_read_with_the_dame_filled() {
        // As above, but Black's corner chain has a third liberty, a4, a
        // dame beside White's wall: Black moving first fills b1 and takes
        // White's c1-c3; once White fills the dame, neither side can.
        let rows = ["X.OX.....", "X.OX.....", "XXOX.....", ".OXX.....", "OOXXXXXXX", "OOOOOOOOO", "........."];
        let b = board_from(&rows);
        let est = Estimator::new(&b, 0);
        let id = |x, y| chain_at(&est, &b, x, y);
        let n = est.chains.len();
        let (mut shares, mut dead) = (vec![1.0; n], vec![false; n]);
        (shares[id(2, 0)], dead[id(2, 0)]) = (0.4, true);
        let mut reading = reader::Position::from_cells(est.stride, &est.cells);
        let (c1, a1) = (b.point(2, 0).unwrap(), b.point(0, 0).unwrap());
        assert_eq!(reading.race_values(c1, a1).1, Some(-1), "unfilled, Black moving first wins the race");
        let filled = est.with_dame_filled(&est.cells, id(2, 0), id(0, 0), &dead).expect("a4 is a dame White fills");
        assert_eq!(filled[b.point(0, 3).unwrap() as usize], WHITE);
        est.keep_seki(&vec![true; n], &shares, &PARAMS, &mut dead, None);
        assert!(!dead[id(2, 0)], "a seki once the dame are filled");
    }

    /// KGS2003/2003-09-10-1's lower left on a 9x9 board: Black's chain
    /// a2-e1 with the liberties a1 and c1, shared with White's stone b1,
    /// and e2, beside `third_row` (the row above).
    fn lower_left_corner(third_row: &str) -> Board {
        let rows: Vec<&str> = ["........."; 6].into_iter().chain([third_row, "XXXX.OOOO", ".O.XXO.O."]).collect();
        board_from(&rows)
    }

    #[test]
    fn a_seki_the_enemy_breaks_by_a_sacrifice_once_the_dame_are_filled_is_none() {
        // KGS2003/2003-09-10-1's lower left, reduced: Black's chain a2-e1
        // inside White's area has a1 and c1, shared with White's stone b1,
        // and e2, a dame White fills from its living wall. Black moving
        // first takes b1; White moving first fills e2 and neither side can
        // fill a1 or c1 without a self-atari: a "seki". But White gives b1
        // up with c1; Black must take at a1, and is left the two points b1
        // and c1, one eye: White throws in again and takes the chain.
        let b = lower_left_corner("OOOOOO...");
        let est = Estimator::new(&b, 0);
        let id = |x, y| chain_at(&est, &b, x, y);
        let (black, stone) = ((0, 7), (1, 8));
        let n = est.chains.len();
        let (mut shares, mut dead) = (vec![1.0; n], vec![false; n]);
        (shares[id(black.0, black.1)], dead[id(black.0, black.1)]) = (0.4, true);
        let mut reading = reader::Position::from_cells(est.stride, &est.cells);
        let (a2, b1) = (b.point(black.0, black.1).unwrap(), b.point(stone.0, stone.1).unwrap());
        assert_eq!(reading.race_values(a2, b1), (Some(1), Some(0)), "the race alone reads a seki at worst");
        est.keep_seki(&vec![true; n], &shares, &PARAMS, &mut dead, None);
        assert!(dead[id(black.0, black.1)], "White's sacrifice at c1 breaks the seki");
    }

    #[test]
    fn a_living_chain_in_a_false_seki_dies_once_the_dame_are_filled() {
        // The diagram above with Black's chain kept alive: its third
        // liberty, e2, is a dame White fills from its wall, and then White's
        // sacrifice at c1 leaves it one eye.
        let b = lower_left_corner("OOOOOO...");
        let est = Estimator::new(&b, 0);
        let black = chain_at(&est, &b, 0, 7);
        let mut dead = vec![false; est.chains.len()];
        est.kill_false_seki(&mut dead);
        assert!(dead[black], "a seki White breaks once e2 is filled");
        assert_eq!(dead.iter().filter(|&&d| d).count(), 1, "only Black's chain");
        // With e2 Black's own (a black stone at e3 instead of White's, the
        // wall cut off), there is no dame to fill and nothing is killed.
        let b = lower_left_corner("OOOOX....");
        let est = Estimator::new(&b, 0);
        let mut dead = vec![false; est.chains.len()];
        est.kill_false_seki(&mut dead);
        assert!(!dead[chain_at(&est, &b, 0, 7)]);
    }

    #[test]
    fn a_group_of_dead_chains_shut_in_one_enemy_chain_is_read_whole_for_a_seki() {
        // kgs-19-2006/2006-04-02-10's corner: White's d9, e8 and f9 inside
        // Black's chain, which has c9, e7 and f8 left. Read alone, e8 loses
        // its race; the three together leave neither side a safe fill.
        let rows = ["XX.O.OXO.", "OXXXO.XO.", "OOOX.XXO.", "..OXXXXO.", "..OOOOOO.", ".........", ".........", ".........", "........."];
        let b = board_from(&rows);
        let est = Estimator::new(&b, 0);
        let id = |x, y| chain_at(&est, &b, x, y);
        let n = est.chains.len();
        // The friends dead (and sure of it: they are not asked themselves),
        // in e8's group or not.
        let kept = |friends_in_group: bool| {
            let (mut shares, mut dead, mut linked) = (vec![1.0; n], vec![false; n], vec![true; n]);
            (shares[id(4, 1)], dead[id(4, 1)]) = (0.4, true);
            for friend in [id(3, 0), id(5, 0)] {
                (shares[friend], dead[friend], linked[friend]) = (0.1, true, friends_in_group);
            }
            est.keep_seki(&linked, &shares, &PARAMS, &mut dead, None);
            !dead[id(4, 1)]
        };
        assert!(kept(true));
        assert!(!kept(false), "read alone, its friends taken off, it is no seki");
    }

    #[test]
    fn a_group_read_whole_is_read_again_with_the_dame_filled() {
        // KGS2003/2003-05-22-6's upper right, mirrored: Black's b9-c9 and
        // a8 share a9 inside White's wall, which shares c8 and a7 with them
        // and has one liberty more, g9, a dame Black fills from its wall.
        // Unfilled, White moving first fills c8 and takes both; filled,
        // neither side can fill a shared liberty: a seki.
        let rows = [".XXOOO.X.", "XO.OXXXXX", ".OOOX....", "OOXXX....", "OX.......", "XX.......", ".........", ".........", "........."];
        let b = board_from(&rows);
        let est = Estimator::new(&b, 0);
        let id = |x, y| chain_at(&est, &b, x, y);
        let n = est.chains.len();
        let (mut shares, mut dead) = (vec![1.0; n], vec![false; n]);
        for chain in [id(1, 0), id(0, 1)] {
            (shares[chain], dead[chain]) = (0.4, true);
        }
        let mut reading = reader::Position::from_cells(est.stride, &est.cells);
        let (b9, d9) = (b.point(1, 0).unwrap(), b.point(3, 0).unwrap());
        assert_eq!(reading.race_values(b9, d9), (Some(0), Some(-1)), "unfilled, White moving first wins");
        est.keep_seki(&vec![true; n], &shares, &PARAMS, &mut dead, None);
        assert!(!dead[id(1, 0)] && !dead[id(0, 1)], "a seki once g9 is filled");
    }

    #[test]
    fn a_group_of_dead_chains_that_races_as_one_is_read_whole_for_a_seki() {
        // KGS2002/2002-08-05-7's lower left: White's upper chain (b6-c6-b5
        // on the board's coordinates) and lower one (c4 to d1) share c5
        // and race Black's a4-a2 and b1 inside Black's wall. Read alone,
        // the lower chain loses its race with a4-a2 (the upper one taken
        // off gives Black its points); with both, White moving first
        // captures and Black moving first gets a seki.
        let rows = [".........", "XXXXXXXXX", ".OOXXXXXX", ".O.XXXXXX", "X.OXXXXXX", "X.OXXXXXX", "XOOOXXXXX", ".X.OXXXXX"];
        let b = board_from(&rows);
        let est = Estimator::new(&b, 0);
        let id = |x, y| chain_at(&est, &b, x, y);
        let n = est.chains.len();
        let (upper, lower) = (id(1, 2), id(2, 4));
        let kept = |linked_upper: bool| {
            let (mut shares, mut dead, mut linked) = (vec![1.0; n], vec![false; n], vec![true; n]);
            for chain in [upper, lower] {
                (shares[chain], dead[chain]) = (0.55, true);
            }
            linked[upper] = linked_upper;
            est.keep_seki(&linked, &shares, &PARAMS, &mut dead, None);
            !dead[lower]
        };
        assert!(est.races_as_one(&[upper, lower]));
        assert!(kept(true));
        assert!(!kept(false), "read alone, the upper chain taken off, it is no seki");
        // A group beside open ground (the wall opened at a7-b7), or with
        // an eye space of its own (the point between its stones on the
        // edge), does not race as one.
        let mut open = rows;
        open[1] = "...XXXXXX";
        let b = board_from(&open);
        let est = Estimator::new(&b, 0);
        let id = |x, y| chain_at(&est, &b, x, y);
        assert!(!est.races_as_one(&[id(1, 2), id(2, 4)]));
        let b = board_from(&["O.OX.....", "OOOX.....", "XXXX.....", "........."]);
        let est = Estimator::new(&b, 0);
        assert!(!est.races_as_one(&[chain_at(&est, &b, 0, 0)]));
    }

    #[test]
    fn bent_four_in_the_corner_is_dead() {
        // fixtures/score/bent-four-in-the-corner.sgf: White's corner chain
        // has its two liberties (j3, g1) in an eye space holding the black
        // stones j2 and h1; the playouts see a seki.
        let b = board_from(&[
            "....OX...", //
            "....OX...",
            "....OX...",
            "....OX...",
            "....OXXXX",
            "...OO.XOO",
            "...OXXXO.",
            "...OXOOOX",
            "...OXO.X.",
        ]);
        let e = estimate(&b);
        assert_eq!(e.dead, pts(&b, &[(7, 5), (8, 5), (7, 6), (5, 7), (6, 7), (7, 7), (5, 8)]), "{e:?}");
        assert!(e.seki_points.is_empty(), "{e:?}");
        // GNU Go's seki_exotics/bent4_2.sgf: three white stones along the
        // edge from the corner (the other shape, transposed).
        let b = board_from(&[
            ".....OX..", //
            ".....OX..",
            ".....OX..",
            ".....OX..",
            ".....OXX.",
            "OOO..OX..",
            "XXOOOOX..",
            ".XXXXOX..",
            "OOO.XOX..",
        ]);
        let e = estimate(&b);
        assert_eq!(e.dead, pts(&b, &[(0, 6), (1, 6), (1, 7), (2, 7), (3, 7), (4, 7), (4, 8)]), "{e:?}");
        // The third shape (KGS 2017-04-11-12, markup and RE agree): Black's
        // liberties are a2 and c2; White fills a2, Black takes four stones
        // and is left with the bent four in the corner.
        let b = board_from(&[
            ".....OX..", //
            ".....OX..",
            ".....OX..",
            ".....OX..",
            ".....OXX.",
            "OOOOOOX..",
            "XXXXXOX..",
            ".X.XXOX..",
            "OOOXXOX..",
        ]);
        let e = estimate(&b);
        let black = [(0, 6), (1, 6), (2, 6), (3, 6), (4, 6), (1, 7), (3, 7), (4, 7), (3, 8), (4, 8)];
        assert_eq!(e.dead, pts(&b, &black), "{e:?}");
        assert!(e.seki_points.is_empty(), "{e:?}");
    }

    #[test]
    fn bent_four_with_outside_liberties_the_attacker_fills_safely_is_dead() {
        // As above, but White's chain has a liberty at e1 outside the
        // corner: a dame Black fills from its chain of many liberties
        // before forcing the ko. Dead as well, even where the playouts
        // called Black's two stones dead.
        let dame = [
            "....OX...", //
            "....OX...",
            "....OX...",
            "....OX...",
            "....OXXXX",
            "...OO.XOO",
            "...OXXXO.",
            "...OXOOOX",
            "...O.O.X.",
        ];
        let b = board_from(&dame);
        let est = Estimator::new(&b, 0);
        let id = |x, y| chain_at(&est, &b, x, y);
        for black_called_dead in [false, true] {
            let mut dead = vec![false; est.chains.len()];
            for stone in [id(7, 8), id(8, 7)] {
                dead[stone] = black_called_dead;
            }
            est.kill_bent_fours(&mut dead);
            assert!(dead[id(5, 8)] && dead[id(7, 5)] && !dead[id(7, 8)] && !dead[id(8, 7)], "{dead:?}");
        }
        // With e2 White's, e1 is a liberty in White's own area, which
        // Black cannot fill: the playouts decide.
        let mut own_area = dame;
        own_area[7] = "...OOOOOX";
        let b = board_from(&own_area);
        let est = Estimator::new(&b, 0);
        let mut dead = vec![false; est.chains.len()];
        est.kill_bent_fours(&mut dead);
        assert!(dead.iter().all(|d| !d));
    }

    #[test]
    fn a_chain_sharing_two_liberties_with_a_living_friend_lives_with_it() {
        // The white stone at c7 is called dead, b8 alive: they share b7
        // and c8, and Black filling one, White connects on the other.
        let rows = [
            ".........", //
            ".O.......",
            "..O......",
            ".........",
            ".........",
            ".........",
            ".........",
            ".........",
            ".........",
        ];
        // With c8 Black's, one liberty is shared: the stone can be cut off.
        let mut cut = rows;
        cut[1] = ".OX......";
        for (diagram, lives) in [(rows, true), (cut, false)] {
            let b = board_from(&diagram);
            let est = Estimator::new(&b, 0);
            let stone = chain_at(&est, &b, 2, 2);
            let mut dead = vec![false; est.chains.len()];
            dead[stone] = true;
            est.keep_double_connected(&mut dead);
            assert_eq!(!dead[stone], lives);
        }
    }

    #[test]
    fn same_answer_every_time_and_however_the_position_was_reached() {
        let rows = [
            ".XO.O.X..", //
            "XXOOOXX.X",
            ".XXOXX.XO",
            "OOXOOX.X.",
            ".OXXOOXXX",
            "O.OXXO.OO",
            ".OOX.XOO.",
            "OX.XXXO..",
            ".XX..XOO.",
        ];
        let a = board_from(&rows);
        let first = estimate(&a);
        for _ in 0..3 {
            assert_eq!(estimate(&a), first);
        }
        assert_eq!(estimate(&a.clone()), first);
        // The same stones, played as moves (none captures) instead of set up.
        let mut played = Board::new(9, 9).unwrap();
        for (y, row) in rows.iter().enumerate() {
            for (x, ch) in row.chars().enumerate() {
                let color = match ch {
                    'X' => Color::Black,
                    'O' => Color::White,
                    _ => continue,
                };
                let placed = played.play(color, played.point(x, y).unwrap());
                assert!(placed.captured.is_empty() && placed.suicided == 0);
            }
        }
        assert_eq!(played.hash(), a.hash());
        assert_eq!(estimate(&played), first);
    }

    #[test]
    fn no_panic_on_empty_full_and_tiny_boards() {
        for (w, h) in [(1, 1), (2, 2), (1, 5), (5, 1), (3, 3), (19, 19), (52, 3)] {
            let empty = Board::new(w, h).unwrap();
            assert_eq!(estimate(&empty), Estimate::default(), "{w}x{h}");
            // Full of one colour (a chain without liberty, as setup allows).
            let mut full = Board::new(w, h).unwrap();
            let points: Vec<Pt> = full.points().collect();
            for &p in &points {
                full.set(p, Cell::Black);
            }
            full.rebuild_chains();
            let e = estimate(&full);
            assert!(e.dead.iter().all(|&p| full.cell(p) == Cell::Black), "{w}x{h}");
            // Checkerboard: every stone without liberty.
            let mut checker = Board::new(w, h).unwrap();
            for &p in &points {
                let (x, y) = checker.xy(p);
                checker.set(p, if (x + y) % 2 == 0 { Cell::Black } else { Cell::White });
            }
            checker.rebuild_chains();
            let _ = estimate(&checker);
        }
        // A lone stone on 1x1, 2x2 and 3x3; two stones on 2x2.
        for n in 1..=3 {
            let mut b = Board::new(n, n).unwrap();
            b.play(Color::Black, b.point(0, 0).unwrap());
            let e = estimate(&b);
            assert!(e.dead.iter().all(|&p| b.cell(p) == Cell::Black));
        }
        let b = board_from(&["XO", ".."]);
        let _ = estimate(&b);
    }

    #[test]
    fn random_positions_give_consistent_answers() {
        let mut rng = Rng::new(7);
        for round in 0..40 {
            let (w, h) = [(5, 5), (7, 7), (9, 9), (4, 11), (13, 13)][round % 5];
            let mut b = Board::new(w, h).unwrap();
            let points: Vec<Pt> = b.points().collect();
            for _ in 0..(w * h * 2 / 3) {
                let p = points[rng.below(points.len())];
                if b.cell(p) == Cell::Empty {
                    let color = if rng.next() & 1 == 0 { Color::Black } else { Color::White };
                    let placed = b.play(color, p);
                    let _ = placed;
                }
            }
            let e = estimate(&b);
            assert_eq!(estimate(&b), e);
            assert!(e.dead.windows(2).all(|w| w[0] < w[1]));
            assert!(e.dead.iter().all(|&p| b.cell(p) != Cell::Empty));
            // Dead stones come in whole chains.
            for &p in &e.dead {
                assert!(b.chain(p).iter().all(|q| e.dead.binary_search(q).is_ok()));
            }
            assert!(e.unsure.iter().all(|d| b.cell(d.point) != Cell::Empty));
            assert!(e.seki_points.iter().all(|&p| points.contains(&p)));
        }
    }
}
