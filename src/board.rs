//! The Go board: stones, chains with liberties kept incrementally, captures,
//! simple-ko point, and Zobrist hashes of the whole position.
//!
//! A move costs O(size of the chains it touches), not O(board): each chain
//! keeps a circular list of its stones and a pseudo-liberty count (one per
//! stone/empty-point adjacency, zero exactly when the chain has no liberty).
//! Boards are 1x1 to 52x52, rectangular allowed.
//!
//! This module knows the mechanics only: which moves are legal under which
//! ko and suicide settings is decided by `replay`, from `rules`.

use crate::bits::ones;

/// A player's colour.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Color {
    Black,
    White,
}

impl Color {
    pub fn opponent(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }

    /// `B` or `W`, as SGF writes it.
    pub fn letter(self) -> &'static str {
        match self {
            Color::Black => "B",
            Color::White => "W",
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Color::Black => "Black",
            Color::White => "White",
        }
    }

    fn index(self) -> usize {
        self as usize
    }
}

/// What occupies a point.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u8)]
pub enum Cell {
    Empty = 0,
    Black = 1,
    White = 2,
    Border = 3,
}

impl Cell {
    /// The stone of `color`.
    pub fn of(color: Color) -> Cell {
        match color {
            Color::Black => Cell::Black,
            Color::White => Cell::White,
        }
    }

    pub fn color(self) -> Option<Color> {
        match self {
            Cell::Black => Some(Color::Black),
            Cell::White => Some(Color::White),
            _ => None,
        }
    }
}

/// Largest board side SGF can address (a-z, A-Z).
pub const MAX_SIZE: usize = 52;
const MAX_STRIDE: usize = MAX_SIZE + 2;
const MAX_POINTS: usize = MAX_STRIDE * MAX_STRIDE;

/// Zobrist keys: one per (point, colour), plus one for "White to move".
/// Fixed seed, so hashes are the same on every machine and every run.
/// Computed at compile time: the hot path reads them with no lazy
/// initialisation check.
struct Keys {
    /// By colour and point; the points past `MAX_POINTS` are never used
    /// (see [`Keys::stone`]). A colour's row is one table, which a board
    /// holds by colour (see [`Board::stone_keys`]).
    stones: [[u64; KEY_SLOTS]; 2],
    white_to_move: u64,
}

/// A power of two above `MAX_POINTS`: a point's index masked to it is
/// itself, and the look-up needs no bounds check (a comparison and a
/// branch a move, where a mask is one instruction).
const KEY_SLOTS: usize = MAX_POINTS.next_power_of_two();

impl Keys {
    #[inline(always)]
    fn stone(&self, p: Pt, color: Color) -> u64 {
        self.stones[color.index()][p as usize & (KEY_SLOTS - 1)]
    }
}

static KEYS: Keys = make_keys();

const fn make_keys() -> Keys {
    /// splitmix64, one step.
    const fn next(state: &mut u64) -> u64 {
        *state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = *state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    let mut state = 0x6b69_6675_5f7a_6f62u64; // "kifu_zob"
    let mut stones = [[0; KEY_SLOTS]; 2];
    let mut i = 0;
    while i < MAX_POINTS {
        stones[0][i] = next(&mut state);
        stones[1][i] = next(&mut state);
        i += 1;
    }
    Keys { stones, white_to_move: next(&mut state) }
}

/// A point index into the padded board (see [`Board::point`]).
pub type Pt = u16;

/// The result of placing a stone.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Placed {
    /// Opponent stones removed.
    pub captured: Vec<Pt>,
    /// Own stones removed because the move left its chain without liberty.
    pub suicided: usize,
}

/// What is left of a move once its stone is put (see [`Board::put_stone`]).
pub(crate) enum Removal {
    /// It left an enemy chain with no liberty: captures.
    Captures,
    /// It captures nothing and leaves its own chain with no liberty.
    Chokes,
}

/// Everything the board keeps about one point, side by side: a move
/// reads a point's cell and its chain links together, so one record (one
/// bounds check, one cache line) serves what four arrays did. Eight
/// bytes, so that a point's record is one scaled index away (ten took an
/// address computed for each of the five records a move reads).
#[derive(Clone, Copy)]
struct Spot {
    cell: Cell,
    /// At a head: stones in the chain, up to 255 (more count as 255).
    /// It only chooses which of two chains a merge relabels, the smaller;
    /// two of 255 or more are rare enough that either will do.
    stones: u8,
    /// For a stone: the chain's head point. Chain data lives at the head.
    /// For an empty point: [`NO_CHAIN`]; for the border: [`BORDER_CHAIN`].
    head: Pt,
    /// For a stone: the next stone of its chain (circular).
    next: Pt,
    /// At a head: pseudo-liberties of the chain (at most four a stone:
    /// 10,816 on the largest board).
    libs: u16,
}

const _: () = assert!(std::mem::size_of::<Spot>() == 8);

impl Spot {
    const EMPTY: Spot = Spot { cell: Cell::Empty, stones: 0, head: NO_CHAIN, next: 0, libs: 0 };
    const BORDER: Spot = Spot { cell: Cell::Border, head: BORDER_CHAIN, ..Spot::EMPTY };
}

/// The `head` of every empty point: record 0, a corner of the border,
/// never a neighbour of a point. A move takes a liberty from each
/// neighbour's head, a stone's chain or one of these two records, with no
/// test of what the neighbour holds (two instructions a neighbour on
/// every move); what this record's `libs` lose in a move is the number
/// of empty points next to it (see [`Board::put`]).
const NO_CHAIN: Pt = 0;

/// The `head` of every border record: record 1, of the border's top row,
/// whose `libs` nothing reads. Apart from [`NO_CHAIN`], so that the
/// liberties a move takes from that one are its empty neighbours alone.
const BORDER_CHAIN: Pt = 1;

/// Side of the board most games are played on.
const COMMON_SIZE: usize = 19;
const COMMON_STRIDE: usize = COMMON_SIZE + 2;

/// The empty 19x19 board, border drawn, made at compile time: a new
/// board of that size is one copy of it, where filling the points one by
/// one (a record is no all-zero pattern the allocator could hand out) and
/// drawing the border cost 1.5k instructions, 1.3% of the check of a KGS
/// game.
static EMPTY_COMMON: [Spot; COMMON_STRIDE * COMMON_STRIDE] = {
    let mut spots = [Spot::EMPTY; COMMON_STRIDE * COMMON_STRIDE];
    let mut i = 0;
    while i < spots.len() {
        let (x, y) = (i % COMMON_STRIDE, i / COMMON_STRIDE);
        if x == 0 || y == 0 || x == COMMON_STRIDE - 1 || y == COMMON_STRIDE - 1 {
            spots[i] = Spot::BORDER;
        }
        i += 1;
    }
    spots
};

/// The records of a board no longer needed, to make another in
/// ([`Board::new_in`]).
#[derive(Default)]
pub(crate) struct BoardBuffer(Vec<Spot>);

impl BoardBuffer {
    pub(crate) const NONE: BoardBuffer = BoardBuffer(Vec::new());

    /// The buffer to keep for another board (see [`crate::spare::emptied`]).
    pub(crate) fn emptied(self) -> BoardBuffer {
        BoardBuffer(crate::spare::emptied(self.0))
    }
}

/// A board position with its chains.
#[derive(Clone)]
pub struct Board {
    width: usize,
    height: usize,
    stride: usize,
    spots: Vec<Spot>,
    hash: u64,
    /// The stones' keys by colour, `KEYS`'s rows: the move path reads a
    /// key in two loads (the row, the key), where the static table's
    /// address and a point's place in it took four instructions.
    stone_keys: [&'static [u64; KEY_SLOTS]; 2],
    /// Stones on the board.
    stone_count: u32,
    /// Stones each colour has captured (prisoners held by Black, White).
    prisoners: [u32; 2],
}

impl Board {
    /// An empty board; `None` when a side is outside 1..=52.
    pub fn new(width: usize, height: usize) -> Option<Board> {
        Board::new_in(width, height, BoardBuffer::default())
    }

    /// [`Board::new`] in the records of a board no longer needed
    /// ([`Board::into_buffer`]): no allocation when they have the room.
    pub(crate) fn new_in(width: usize, height: usize, buffer: BoardBuffer) -> Option<Board> {
        if !(1..=MAX_SIZE).contains(&width) || !(1..=MAX_SIZE).contains(&height) {
            return None;
        }
        let mut spots = buffer.0;
        spots.clear();
        if (width, height) == (COMMON_SIZE, COMMON_SIZE) {
            spots.extend_from_slice(&EMPTY_COMMON);
        } else {
            draw(&mut spots, width, height);
        }
        Some(Board { width, height, stride: width + 2, spots, hash: 0, stone_keys: [&KEYS.stones[0], &KEYS.stones[1]], stone_count: 0, prisoners: [0; 2] })
    }

    /// The board's records, for [`Board::new_in`] to make another board in.
    pub(crate) fn into_buffer(self) -> BoardBuffer {
        BoardBuffer(self.spots)
    }

    pub fn width(&self) -> usize {
        self.width
    }

    pub fn height(&self) -> usize {
        self.height
    }

    /// The index of column `x`, row `y` (0-based, from the top left, as SGF
    /// counts), or `None` off the board.
    pub fn point(&self, x: usize, y: usize) -> Option<Pt> {
        (x < self.width && y < self.height).then(|| ((y + 1) * self.stride + x + 1) as Pt)
    }

    /// Column and row of a point index.
    pub fn xy(&self, p: Pt) -> (usize, usize) {
        let p = p as usize;
        (p % self.stride - 1, p / self.stride - 1)
    }

    pub fn cell(&self, p: Pt) -> Cell {
        self.spots[p as usize].cell
    }

    /// [`Board::cell`] with no bounds check, for the replay's move loop:
    /// its points come from tables of the board's points, which the
    /// compiler cannot see (the check was three instructions a move).
    ///
    /// # Safety
    ///
    /// `p` is a point of the board, as [`Board::point`] gives them.
    #[inline(always)]
    pub(crate) unsafe fn cell_on_board(&self, p: Pt) -> Cell {
        debug_assert!(self.spots.get(usize::from(p)).is_some_and(|s| s.cell != Cell::Border), "point {p} off the board");
        at(&self.spots, p).cell
    }

    /// The chain data of the stone at `p`: the record at its head.
    #[inline(always)]
    fn head_of(&self, p: Pt) -> &Spot {
        &self.spots[self.spots[p as usize].head as usize]
    }

    /// The record of `p`, an index of `spots`, read without a bounds check.
    ///
    /// Every index the move path (`put`, `merge`, `remove_chain`) uses is
    /// one: the point played (an empty point of the board, checked on
    /// entry to [`Board::play_into`], or by the caller of
    /// [`Board::put_on_empty`]), its neighbours (on the board or on
    /// its border, which the padding keeps inside `spots`), and the `head`
    /// and `next` links, which only ever hold points of stones (or 0, in a
    /// new record). Stones are only on the board: [`Board::set`] never
    /// changes a border point. The bounds checks of that path were 6% of
    /// the instructions of a whole check of a KGS game.
    #[inline(always)]
    fn spot(&self, p: impl Into<usize>) -> Spot {
        at(&self.spots, p)
    }

    /// [`Board::spot`], to change.
    #[inline(always)]
    fn spot_mut(&mut self, p: Pt) -> &mut Spot {
        at_mut(&mut self.spots, p)
    }

    /// All on-board points, row by row.
    pub fn points(&self) -> impl Iterator<Item = Pt> + '_ {
        (0..self.height).flat_map(move |y| (0..self.width).map(move |x| ((y + 1) * self.stride + x + 1) as Pt))
    }

    /// The four orthogonal neighbours (some may be border cells).
    pub fn neighbors(&self, p: Pt) -> [Pt; 4] {
        let s = self.stride as Pt;
        [p - s, p - 1, p + 1, p + s]
    }

    /// [`Board::neighbors`] as indexes of the records: sums of `usize`
    /// need no zero extension after them, as a `Pt`'s 16-bit wrap did
    /// (an instruction a neighbour on every move).
    #[inline(always)]
    fn neighbor_indexes(&self, p: Pt) -> [usize; 4] {
        neighbor_indexes(p, self.stride)
    }

    /// Zobrist hash of the stones alone (positional).
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// Hash of the stones and the player to move (situational).
    pub fn situational_hash(&self, to_move: Color) -> u64 {
        match to_move {
            Color::Black => self.hash,
            Color::White => self.hash ^ KEYS.white_to_move,
        }
    }

    /// Stones captured so far by `color`.
    pub fn prisoners(&self, color: Color) -> u32 {
        self.prisoners[color.index()]
    }

    /// Number of stones on the board.
    pub fn stone_count(&self) -> u32 {
        self.stone_count
    }

    /// Number of stones in the chain at `p` (0 for an empty point).
    /// O(chain).
    pub fn chain_len(&self, p: Pt) -> usize {
        if self.cell(p).color().is_none() { 0 } else { self.chain(p).len() }
    }

    /// Whether the stone at `p` is a chain of its own.
    pub fn is_lone_stone(&self, p: Pt) -> bool {
        self.cell(p).color().is_some() && self.spots[p as usize].next == p
    }

    /// Whether the stone at `p` is a chain of its own with one empty
    /// neighbour: after it captured one stone, the shape of a ko. `false`
    /// when `p` holds no stone.
    pub fn is_lone_stone_with_one_liberty(&self, p: Pt) -> bool {
        let spot = self.spots[usize::from(p)];
        if spot.cell.color().is_none() || spot.next != p {
            return false;
        }
        // A stone is on a point of the board, never its border, so its
        // neighbours are records of the board or the border (see `spot`):
        // read with no bounds check, where four took one each.
        self.neighbor_indexes(p).into_iter().filter(|&n| self.spot(n).cell == Cell::Empty).count() == 1
    }

    /// The stones of the chain at `p`.
    pub fn chain(&self, p: Pt) -> Vec<Pt> {
        if self.cell(p).color().is_none() {
            return Vec::new();
        }
        let mut out = vec![p];
        let mut q = self.spots[p as usize].next;
        while q != p {
            out.push(q);
            q = self.spots[q as usize].next;
        }
        out
    }

    /// The distinct liberties of the chain at `p` (computed, O(chain)).
    pub fn liberties(&self, p: Pt) -> Vec<Pt> {
        let mut libs: Vec<Pt> = Vec::new();
        for s in self.chain(p) {
            for n in self.neighbors(s) {
                if self.cell(n) == Cell::Empty && !libs.contains(&n) {
                    libs.push(n);
                }
            }
        }
        libs
    }

    /// Places a stone of `color` on the empty point `p`, captures what it
    /// kills, and removes its own chain if that is left with no liberty
    /// (the caller decides whether that suicide was allowed).
    pub fn play(&mut self, color: Color, p: Pt) -> Placed {
        let mut captured = Vec::new();
        let suicided = self.play_into(color, p, &mut captured);
        if suicided > 0 {
            captured.clear();
        }
        Placed { captured, suicided }
    }

    /// [`Board::play`] for callers that play many moves: the stones removed
    /// are appended to `removed` (which the caller clears and reuses, so a
    /// capture allocates nothing): the opponent's captured stones, or, when
    /// the move is a suicide (it then captures nothing), the mover's own.
    /// Returns the number of own stones removed by suicide.
    ///
    /// Panics unless `p` is an empty point of the board.
    pub fn play_into(&mut self, color: Color, p: Pt, removed: &mut Vec<Pt>) -> usize {
        match self.put_stone(color, p) {
            Ok(()) => 0,
            Err(removal) => self.remove(removal, color, p, removed),
        }
    }

    /// [`Board::play_into`] in two steps: the stone of `color` put on the
    /// empty point `p`, `Ok` when that is the whole move (it captures
    /// nothing and its chain has a liberty: most moves), else what
    /// [`Board::remove`] is to finish. The replay's move loop, which has
    /// just looked at the point, puts its stones with
    /// [`Board::put_on_empty`].
    ///
    /// Panics unless `p` is an empty point of the board.
    #[inline(always)]
    fn put_stone(&mut self, color: Color, p: Pt) -> Result<(), Removal> {
        // An empty point is a point of the board: what makes the unchecked
        // reads of the move path sound (see `spot`).
        if self.cell(p) != Cell::Empty {
            not_empty(p);
        }
        self.put(color, p)
    }

    /// [`Board::put_stone`] on a point the caller has just seen empty
    /// ([`Board::cell_on_board`]), with no look at it again: the replay's
    /// move loop, where that look took a bounds check.
    ///
    /// # Safety
    ///
    /// `p` is an empty point of the board (which makes the move path's
    /// unchecked reads sound, see [`Board::spot`]).
    #[inline(always)]
    pub(crate) unsafe fn put_on_empty(&mut self, color: Color, p: Pt) -> Result<(), Removal> {
        debug_assert!(self.cell(p) == Cell::Empty, "a stone put on point {p}, not empty");
        self.put(color, p)
    }

    /// Finishes the move [`Board::put_stone`] put at `p`, as
    /// [`Board::play_into`] would: the stones removed appended to
    /// `removed`, the number of the mover's own returned.
    pub(crate) fn remove(&mut self, removal: Removal, color: Color, p: Pt, removed: &mut Vec<Pt>) -> usize {
        match removal {
            // A capture frees a point next to `p`: the new chain has a
            // liberty, no need to look.
            Removal::Captures => {
                self.capture_around(color, p, removed);
                0
            }
            Removal::Chokes => self.remove_choked(color, p, removed),
        }
    }

    /// Removes the chain at `p`, left without liberty by the stone of
    /// `color` just put there (a suicide), appending its stones to
    /// `removed`; returns its size. Out of line, as rare as it is.
    #[cold]
    #[inline(never)]
    fn remove_choked(&mut self, color: Color, p: Pt, removed: &mut Vec<Pt>) -> usize {
        let before = removed.len();
        self.remove_chain(p, removed);
        let own = removed.len() - before;
        self.prisoners[color.opponent().index()] += own as u32;
        own
    }

    /// Removes the enemy chains next to `p` left without liberty by the
    /// stone just put there. Inlined: its caller on the check path, the
    /// replay's `removing`, is already out of the move loop, and a call
    /// here cost about 20 instructions a capture in saved registers.
    #[inline]
    fn capture_around(&mut self, color: Color, p: Pt, captured: &mut Vec<Pt>) {
        let enemy = Cell::of(color.opponent());
        let neighbours = self.neighbor_indexes(p);
        // `p`'s neighbours are records of the board or its border (see
        // `spot`): read with no bounds check, as the move's own reads are
        // (three instructions a neighbour). A bit for each enemy chain
        // left with no liberty, where a test of each neighbour missed
        // one time in three or four.
        let choked = |i: usize| {
            let spot = self.spot(neighbours[i]);
            u32::from((spot.cell == enemy) & (self.spot(spot.head).libs == 0)) << i
        };
        for i in ones(u64::from(choked(0) | choked(1) | choked(2) | choked(3))) {
            let n = neighbours[i];
            // A chain next to `p` twice is captured at the first.
            if self.spot(n).cell == enemy {
                let before = captured.len();
                self.remove_chain(n as Pt, captured);
                self.prisoners[color.index()] += (captured.len() - before) as u32;
            }
        }
    }

    /// Adds a stone and merges it with friendly neighbours; enemy chains
    /// lose the liberty but are not captured here. Tells whether an enemy
    /// chain was left with no liberty (to capture: most moves leave none,
    /// and the caller need not look at the neighbours again), else whether
    /// the new stone's chain has none (see [`Board::put_stone`]).
    #[inline(always)]
    fn put(&mut self, color: Color, p: Pt) -> Result<(), Removal> {
        let own = Cell::of(color);
        self.stone_count += 1;
        debug_assert!(usize::from(p) < MAX_POINTS);
        // SAFETY: `p` is an index of the records (see `spot`), of which
        // no board has more than `MAX_POINTS`, below `KEY_SLOTS`: no mask.
        self.hash ^= unsafe { *self.stone_keys[color.index()].get_unchecked(usize::from(p)) };
        let [n0, n1, n2, n3] = self.neighbor_indexes(p);
        // The records' address read once, not again after each store
        // through it (which the compiler cannot tell from a write to the
        // board's own fields once this is inlined).
        let spots = &mut self.spots[..];
        // A chain of its own that counts no stone: `join` keeps its cell,
        // and reads it whole when `p` has no friendly neighbour (`target`
        // is then `p`).
        *at_mut(spots, p) = Spot { cell: own, head: p, next: p, libs: 0, stones: 0 };
        // Each empty neighbour takes a liberty from `NO_CHAIN`'s record:
        // what it loses counts them, where a count kept by each neighbour's
        // test took two instructions a neighbour.
        let unclaimed = at(spots, NO_CHAIN).libs;
        let mut least = u16::MAX;
        // As a `u16`, the type of the cell's difference from it: the cell,
        // loaded into a register whole, is xor'ed there with no zero
        // extension after (a byte's xor took one, an instruction a
        // neighbour).
        let enemy = u16::from(Cell::of(color.opponent()) as u8);
        let mut touch = |spots: &mut [Spot], n: usize| {
            let spot = at(spots, n);
            // A stone's chain loses the liberty `p` was (each chain next to
            // `p` counted it: one at least is left to take). No test of the
            // cell, whose value is as good as random move to move: an empty
            // point's head is `NO_CHAIN`, a border point's `BORDER_CHAIN`,
            // which may go below 0.
            let libs = &mut at_mut(spots, spot.head).libs;
            *libs = libs.wrapping_sub(1);
            // The fewest liberties left to an enemy chain next to `p`: 0
            // says one is to capture. A minimum, where an `||` of tests kept
            // four flags that spilled to the stack (2.5% of a check). Any
            // other cell gives a value that is not 0: its difference from
            // `enemy` in the top bits. No choice between `*libs` and
            // `u16::MAX`, which the compiler made a branch (`min` skipped
            // for a cell not the enemy's): that branch is as good as random
            // too (cachegrind's model: 0.7 misses a move, and the task
            // clock 5-7% lower without it for 4% more instructions).
            let other = (u16::from(spot.cell as u8) ^ enemy) << 14;
            least = least.min(*libs | other);
            spot
        };
        // Four calls, not a loop, which the compiler does not unroll once
        // the body is this size: its counter and array cost more than it.
        let around = [touch(spots, n0), touch(spots, n1), touch(spots, n2), touch(spots, n3)];
        // The chain the stone joins: its first friendly neighbour's, else
        // its own. Chosen with no branch on the cells, which are as good as
        // random move to move: a test of each was 0.86 mispredicted
        // branches a move in cachegrind's model, and on the machine
        // measured the branch-free move checks 10% more games a second
        // for 22% more instructions (benches/README.md, "the move's
        // branches on this machine"). Only a second friendly chain, to
        // merge too, takes a branch.
        let head_if_own = |spot: Spot, otherwise: Pt| if spot.cell == own { spot.head } else { otherwise };
        let target = head_if_own(around[0], head_if_own(around[1], head_if_own(around[2], head_if_own(around[3], p))));
        // A bit for each neighbour of another friendly chain: bits, where
        // an `||` of tests was made branches.
        let elsewhere = |i: usize| u32::from(head_if_own(around[i], target) != target) << i;
        let others = elsewhere(0) | elsewhere(1) | elsewhere(2) | elsewhere(3);
        join(spots, p, target);
        if others != 0 {
            merge_others(spots, p, self.stride, others);
        }
        let empties = unclaimed.wrapping_sub(at(spots, NO_CHAIN).libs);
        let h = at(spots, p).head;
        at_mut(spots, h).libs += empties;
        if least == 0 {
            Err(Removal::Captures)
        } else if at(spots, h).libs != 0 {
            Ok(())
        } else {
            Err(Removal::Chokes)
        }
    }

    /// Removes the chain at `p`, appending its points to `out`, and gives
    /// back the liberties its stones took from the chains around it.
    fn remove_chain(&mut self, p: Pt, out: &mut Vec<Pt>) {
        let start = out.len();
        let color = self.cell(p).color().expect("a stone");
        let mut q = p;
        loop {
            let spot = self.spot_mut(q);
            let next = spot.next;
            *spot = Spot::EMPTY;
            self.hash ^= KEYS.stone(q, color);
            out.push(q);
            q = next;
            if q == p {
                break;
            }
        }
        self.stone_count -= (out.len() - start) as u32;
        // Each neighbour's head gets the liberty back with no test of its
        // cell, as `put` takes them: an empty point's head is `NO_CHAIN`,
        // whose `libs` `put` reads only as a difference over one move, a
        // border point's `BORDER_CHAIN`, whose `libs` nothing reads.
        for &stone in &out[start..] {
            for n in self.neighbor_indexes(stone) {
                let head = self.spot(n).head;
                let libs = &mut self.spot_mut(head).libs;
                *libs = libs.wrapping_add(1);
            }
        }
    }

    /// Sets a point as SGF setup does (AB, AW, AE): no captures. Call
    /// [`Board::rebuild_chains`] after a batch of setups.
    ///
    /// Panics unless `p` is a point of the board and `cell` a stone or
    /// empty: the border stays as [`Board::new`] drew it.
    pub fn set(&mut self, p: Pt, cell: Cell) {
        let pi = p as usize;
        assert!(self.spots[pi].cell != Cell::Border && cell != Cell::Border, "set changes a point of the board");
        if let Some(old) = self.spots[pi].cell.color() {
            self.hash ^= KEYS.stone(p, old);
            self.stone_count -= 1;
        }
        if let Some(new) = cell.color() {
            self.hash ^= KEYS.stone(p, new);
            self.stone_count += 1;
        }
        // A stone's links are made by the rebuild; an empty point's head
        // is `NO_CHAIN` from now.
        self.spots[pi] = Spot { cell, ..Spot::EMPTY };
    }

    /// Recomputes every chain from the stones (after setup). O(board).
    pub fn rebuild_chains(&mut self) {
        self.relink();
    }

    /// [`Board::rebuild_chains`], returning [`Board::dead_chains`]: found
    /// among the stones just relinked, not by a second look at every point.
    pub fn rebuild_chains_find_dead(&mut self) -> Vec<Pt> {
        let stones = self.relink();
        self.dead_among(&stones)
    }

    /// [`Board::rebuild_chains_find_dead`] for a board that had no stone
    /// before the setups since, `set` holding every point they set (in any
    /// order, repeats allowed): only those points are looked at, not the
    /// whole board (a handicap sets a few stones on 361 points).
    pub fn link_setup_on_empty(&mut self, set: &mut Vec<Pt>) -> Vec<Pt> {
        set.sort_unstable();
        set.dedup();
        let mut stones = Vec::with_capacity(set.len());
        for &p in set.iter() {
            let spot = &mut self.spots[p as usize];
            if let Some(color) = spot.cell.color() {
                stones.push((p, color));
                *spot = Spot::EMPTY;
            }
        }
        debug_assert_eq!(stones.len(), self.stone_count as usize, "every stone is among the points set");
        self.link(&stones);
        self.dead_among(&stones)
    }

    /// The heads of the chains without liberty among `stones`.
    fn dead_among(&self, stones: &[(Pt, Color)]) -> Vec<Pt> {
        stones.iter().map(|&(p, _)| p).filter(|&p| self.spots[p as usize].head == p && self.spots[p as usize].libs == 0).collect()
    }

    /// Rebuilds the chains; returns the stones, in index order (row by row).
    fn relink(&mut self) -> Vec<(Pt, Color)> {
        // A set-up position holds few stones (a handicap, a problem): list
        // them, rather than copy every cell, then lift and replay them.
        let mut stones: Vec<(Pt, Color)> = Vec::new();
        let mut lift = |first: usize, spots: &mut [Spot]| {
            for (i, spot) in spots.iter_mut().enumerate() {
                if let Some(color) = spot.cell.color() {
                    stones.push(((first + i) as Pt, color));
                    *spot = Spot::EMPTY;
                }
            }
        };
        // Eight points at a time: most chunks hold no stone, and one test
        // passes them, not eight.
        const CHUNK: usize = 8;
        let whole = self.spots.len() / CHUNK * CHUNK;
        let mut chunks = self.spots.chunks_exact_mut(CHUNK);
        for (c, chunk) in chunks.by_ref().enumerate() {
            if chunk.iter().fold(false, |any, spot| any | spot.cell.color().is_some()) {
                lift(c * CHUNK, chunk);
            }
        }
        lift(whole, chunks.into_remainder());
        self.link(&stones);
        stones
    }

    /// Links `stones`, lifted from the board (their cells empty, the hash
    /// and count still theirs), in index order (row by row, as `points()`
    /// gives them).
    fn link(&mut self, stones: &[(Pt, Color)]) {
        let (hash, stone_count) = (self.hash, self.stone_count);
        for &(p, color) in stones {
            // Set-up stones capture nothing: what is without liberty
            // stays, for the caller to find.
            let _ = self.put(color, p);
        }
        (self.hash, self.stone_count) = (hash, stone_count);
    }

    /// Chains with no liberty (possible only after setup), one point each,
    /// row by row.
    pub fn dead_chains(&self) -> Vec<Pt> {
        let mut dead = Vec::new();
        for (p, s) in self.spots.iter().enumerate() {
            if matches!(s.cell, Cell::Black | Cell::White) && s.libs == 0 && s.head as usize == p {
                dead.push(p as Pt);
            }
        }
        dead
    }

    /// A position from a diagram, one string a row from the top: `X`
    /// black, `O` white, anything else empty. `None` for an empty diagram,
    /// rows of different lengths or a side outside 1..=52.
    pub fn from_rows(rows: &[&str]) -> Option<Board> {
        let width = rows.first()?.chars().count();
        if rows.iter().any(|r| r.chars().count() != width) {
            return None;
        }
        let mut b = Board::new(width, rows.len())?;
        for (y, row) in rows.iter().enumerate() {
            for (x, c) in row.chars().enumerate() {
                let cell = match c {
                    'X' => Cell::Black,
                    'O' => Cell::White,
                    _ => continue,
                };
                let p = b.point(x, y)?;
                b.set(p, cell);
            }
        }
        b.rebuild_chains();
        Some(b)
    }

    /// Pseudo-liberty count of the chain at `p` (zero iff no liberty).
    pub fn has_liberty(&self, p: Pt) -> bool {
        self.head_of(p).libs > 0
    }
}

/// The points of an empty `width` x `height` board, with its border, in
/// `spots` (empty).
fn draw(spots: &mut Vec<Spot>, width: usize, height: usize) {
    let stride = width + 2;
    // Fill with empty points, then draw the border.
    spots.resize(stride * (height + 2), Spot::EMPTY);
    let (top, rest) = spots.split_at_mut(stride);
    let (middle, bottom) = rest.split_at_mut(stride * height);
    top.fill(Spot::BORDER);
    bottom.fill(Spot::BORDER);
    for row in middle.chunks_exact_mut(stride) {
        row[0] = Spot::BORDER;
        row[stride - 1] = Spot::BORDER;
    }
}

/// The panic of [`Board::play_into`] on a point that is not an empty
/// point of the board, out of its line.
#[cold]
#[inline(never)]
fn not_empty(p: Pt) -> ! {
    panic!("a stone is played on point {p}, which is not an empty point of the board")
}

/// The record of `p` in `spots`, read without a bounds check: the reads
/// of [`Board::spot`], on the board's records or a slice of them held in a
/// register.
#[inline(always)]
fn at(spots: &[Spot], p: impl Into<usize>) -> Spot {
    let p = p.into();
    debug_assert!(p < spots.len());
    // SAFETY: `p` is an index of `spots` (see `Board::spot`).
    *unsafe { spots.get_unchecked(p) }
}

/// [`at`], to change.
#[inline(always)]
fn at_mut(spots: &mut [Spot], p: impl Into<usize>) -> &mut Spot {
    let p = p.into();
    debug_assert!(p < spots.len());
    // SAFETY: `p` is an index of `spots` (see `Board::spot`).
    unsafe { spots.get_unchecked_mut(p) }
}

/// Puts the stone just put at `p` (a chain of its own that counts no
/// stone) into the chain headed by `target`, its first friendly
/// neighbour's, or makes it a chain of one when `target` is `p`. It goes
/// into the larger chain's ring; a lone stone `target` goes into `p`'s,
/// which keeps the head on a tie (as [`merge`] would). Every case is the
/// same stores, to `p`'s record then `target`'s (the same record when
/// `target` is `p`), their values chosen by masks: no branch.
#[inline(always)]
fn join(spots: &mut [Spot], p: Pt, target: Pt) {
    let chain = at(spots, target);
    let lone = (target != p) & (chain.stones == 1);
    // All ones when `p` heads a lone `target`, else none.
    let mask = 0u16.wrapping_sub(u16::from(lone));
    let pick = |if_lone: u16, otherwise: u16| (if_lone & mask) | (otherwise & !mask);
    let head = pick(p, target);
    // Field by field: a store each, where a whole record was put together
    // in a register first.
    let stone = at_mut(spots, p);
    stone.stones = pick(2, 0) as u8;
    stone.head = head;
    stone.next = pick(target, chain.next);
    stone.libs = chain.libs & mask;
    // `target` is a member of `p`'s chain when lone (where its count is
    // not read), the head otherwise, with `p` next in its ring either way.
    let joined = at_mut(spots, target);
    joined.head = head;
    joined.next = p;
    joined.stones = chain.stones.saturating_add(1);
}

/// [`Board::neighbor_indexes`] on a board of rows `stride` records apart.
#[inline(always)]
fn neighbor_indexes(p: Pt, stride: usize) -> [usize; 4] {
    let p = usize::from(p);
    [p - stride, p - 1, p + 1, p + stride]
}

/// Merges into the chain of `p`, the stone just put and joined, the
/// chains of the neighbours whose bits `others` sets (friendly chains
/// headed elsewhere; the bits in the order of `neighbor_indexes`). Out of
/// line: most moves touch one friendly chain at most.
#[inline(never)]
fn merge_others(spots: &mut [Spot], p: Pt, stride: usize, others: u32) {
    // The neighbours found again here, not handed over: the move loop has
    // fewer values to keep in registers.
    let neighbours = neighbor_indexes(p, stride);
    for i in ones(u64::from(others)) {
        let n = neighbours[i];
        // Two neighbours of one chain: merged with the first.
        let (head, other) = (at(spots, p).head, at(spots, n).head);
        if other != head {
            merge(spots, head, other);
        }
    }
}

/// Joins two chains (given by their heads), relabelling the smaller.
fn merge(spots: &mut [Spot], a: Pt, b: Pt) {
    let (big, small) = if at(spots, a).stones >= at(spots, b).stones { (a, b) } else { (b, a) };
    let mut q = small;
    loop {
        let spot = at_mut(spots, q);
        spot.head = big;
        q = spot.next;
        if q == small {
            break;
        }
    }
    let (b, s) = (at(spots, big), at(spots, small));
    *at_mut(spots, big) = Spot { next: s.next, libs: b.libs + s.libs, stones: b.stones.saturating_add(s.stones), ..b };
    at_mut(spots, small).next = b.next;
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board_from(rows: &[&str]) -> Board {
        Board::from_rows(rows).expect("a valid diagram")
    }

    #[test]
    fn capture_in_the_corner() {
        let mut b = board_from(&["O..", "X..", "..."]);
        let p = b.point(1, 0).unwrap();
        let placed = b.play(Color::Black, p);
        assert_eq!(placed.captured, vec![b.point(0, 0).unwrap()]);
        assert_eq!(b.prisoners(Color::Black), 1);
        assert_eq!(b.cell(b.point(0, 0).unwrap()), Cell::Empty);
    }

    #[test]
    fn suicide_removes_own_chain() {
        let mut b = board_from(&[".X.", "X..", "..."]);
        let placed = b.play(Color::White, b.point(0, 0).unwrap());
        assert_eq!(placed.suicided, 1);
        assert_eq!(b.cell(b.point(0, 0).unwrap()), Cell::Empty);
    }

    #[test]
    fn merging_keeps_liberties_right() {
        let mut b = Board::new(5, 5).unwrap();
        for x in 0..5 {
            b.play(Color::Black, b.point(x, 1).unwrap());
        }
        assert_eq!(b.chain_len(b.point(0, 1).unwrap()), 5);
        assert_eq!(b.liberties(b.point(2, 1).unwrap()).len(), 10);
        for x in 0..5 {
            b.play(Color::White, b.point(x, 0).unwrap());
        }
        // The fifth white stone leaves the white row without liberty: suicide.
        assert_eq!(b.cell(b.point(4, 0).unwrap()), Cell::Empty);
        assert_eq!(b.cell(b.point(0, 0).unwrap()), Cell::Empty);
        assert_eq!(b.prisoners(Color::Black), 5);
    }

    #[test]
    fn hash_returns_after_capture_and_retake() {
        let mut b = board_from(&[".XO.", "XO.O", ".XO.", "...."]);
        let start = b.hash();
        let ko = b.point(2, 1).unwrap();
        b.play(Color::Black, ko);
        assert_ne!(b.hash(), start);
        b.play(Color::White, b.point(1, 1).unwrap());
        assert_eq!(b.hash(), start);
    }

    #[test]
    fn sizes() {
        assert!(Board::new(0, 19).is_none());
        assert!(Board::new(53, 19).is_none());
        let b = Board::new(52, 1).unwrap();
        assert_eq!(b.points().count(), 52);
    }

    /// Chains of more than 255 stones (whose counts saturate) merged
    /// with each other: every chain is still the connected stones of one
    /// colour, with the liberties counted right, after each move.
    #[test]
    fn big_chains_merge_right() {
        let mut b = Board::new(40, 40).unwrap();
        // Two combs of Black, each over 255 stones, White between them,
        // then the Black stones that join the combs row by row.
        for y in (0..40).step_by(2) {
            for x in 0..19 {
                b.play(Color::Black, b.point(x, y).unwrap());
                b.play(Color::Black, b.point(39 - x, y).unwrap());
            }
        }
        for y in (1..40).step_by(2) {
            for (x, color) in [(0, Color::Black), (39, Color::Black), (19, Color::White), (20, Color::White)] {
                b.play(color, b.point(x, y).unwrap());
            }
        }
        assert_eq!(b.chain_len(b.point(0, 0).unwrap()), 20 * 19 + 20);
        for y in (0..40).step_by(2) {
            b.play(Color::Black, b.point(19, y).unwrap());
            b.play(Color::Black, b.point(20, y).unwrap());
            assert_chains_are_flood_fills(&b);
        }
        assert_eq!(b.chain_len(b.point(0, 0).unwrap()), 40 * 20 + 2 * 20);
    }

    /// Each chain's list is its connected stones, and its liberty count is
    /// not zero exactly when it has a liberty.
    fn assert_chains_are_flood_fills(b: &Board) {
        let mut seen = vec![false; b.spots.len()];
        for p in b.points().filter(|&p| b.cell(p) != Cell::Empty) {
            if seen[p as usize] {
                continue;
            }
            seen[p as usize] = true;
            let mut fill = vec![p];
            let mut i = 0;
            while i < fill.len() {
                for n in b.neighbors(fill[i]) {
                    if b.cell(n) == b.cell(p) && !seen[n as usize] {
                        seen[n as usize] = true;
                        fill.push(n);
                    }
                }
                i += 1;
            }
            let mut chain = b.chain(p);
            fill.sort_unstable();
            chain.sort_unstable();
            assert_eq!(chain, fill);
            assert_eq!(b.has_liberty(p), !b.liberties(p).is_empty());
        }
    }

    /// Random play on a small board, checked after every move: chains
    /// are their flood fills, each stone names its chain's head, and the
    /// head holds the chain's stone count and pseudo-liberties. Most
    /// moves next to a friendly stone join it without `merge`'s loop
    /// (`connect`): this holds them to what `merge` keeps.
    #[test]
    fn chains_stay_whole_under_random_play() {
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut random = |n: usize| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % n as u64) as usize
        };
        for size in [5, 7, 9] {
            let mut b = Board::new(size, size).unwrap();
            for turn in 0..2_000 {
                let p = b.point(random(size), random(size)).unwrap();
                if b.cell(p) == Cell::Empty {
                    b.play(if turn % 2 == 0 { Color::Black } else { Color::White }, p);
                    assert_chains_are_flood_fills(&b);
                    assert_heads_hold_their_chains(&b);
                }
            }
        }
    }

    /// Every stone's `head` is one stone of its chain, the same for all,
    /// which holds the chain's size and its pseudo-liberties; an empty
    /// point's is `NO_CHAIN`, a border point's `BORDER_CHAIN`.
    fn assert_heads_hold_their_chains(b: &Board) {
        assert!(b.points().filter(|&p| b.cell(p) == Cell::Empty).all(|p| b.spots[p as usize].head == NO_CHAIN));
        assert!(b.spots.iter().filter(|s| s.cell == Cell::Border).all(|s| s.head == BORDER_CHAIN));
        for p in b.points().filter(|&p| b.cell(p) != Cell::Empty) {
            let chain = b.chain(p);
            let head = b.spots[p as usize].head;
            assert!(chain.iter().all(|&q| b.spots[q as usize].head == head) && chain.contains(&head));
            let pseudo = chain.iter().flat_map(|&q| b.neighbors(q)).filter(|&n| b.cell(n) == Cell::Empty).count();
            assert_eq!(usize::from(b.spots[head as usize].libs), pseudo);
            assert_eq!(usize::from(b.spots[head as usize].stones), chain.len().min(255));
        }
    }

    #[test]
    fn two_lone_stones_are_headed_by_the_later() {
        let mut b = Board::new(5, 5).unwrap();
        let (first, second) = (b.point(1, 1).unwrap(), b.point(2, 1).unwrap());
        b.play(Color::Black, first);
        b.play(Color::Black, second);
        assert_eq!((b.spots[first as usize].head, b.spots[second as usize].head), (second, second));
    }

    #[test]
    fn a_board_made_in_another_is_a_new_board() {
        let cells = |b: &Board| b.spots.iter().map(|s| (s.cell, s.stones, s.head, s.next, s.libs)).collect::<Vec<_>>();
        for (first, then) in [(19, 9), (9, 19), (19, 19), (5, 52)] {
            let mut used = Board::new(first, first).unwrap();
            used.play(Color::Black, used.point(2, 2).unwrap());
            let made = Board::new_in(then, then, used.into_buffer()).unwrap();
            assert_eq!(cells(&made), cells(&Board::new(then, then).unwrap()));
            assert_eq!((made.stone_count, made.hash), (0, 0));
        }
    }

    #[test]
    fn the_common_board_is_the_one_drawn() {
        let cells = |spots: &[Spot]| spots.iter().map(|s| (s.cell, s.stones, s.head, s.next, s.libs)).collect::<Vec<_>>();
        let mut drawn = Vec::new();
        draw(&mut drawn, 19, 19);
        assert_eq!(cells(&Board::new(19, 19).unwrap().spots), cells(&drawn));
    }
}
