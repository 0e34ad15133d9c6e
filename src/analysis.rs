//! One analysis of a position, computed once and shared: its chains with
//! their liberties, its empty regions with the colours around them, and
//! Benson's pass-alive chains and territory (as KataGo's
//! `Board::calculateArea` finds them).
//!
//! The count, its seki and connection rules, and the estimator ask these
//! questions of the final position; before this module each of them had
//! its own flood fills. An [`Analysis`] is immutable: a rule that tries a
//! stone (a dame filled, a connection made) analyses the changed cells with
//! [`Analysis::from_cells`], or with [`Analysis::chains_only`] when it asks
//! about chains alone.
//!
//! Points are the board's [`Pt`] indices, so a caller can go between the
//! board and the analysis freely.

use std::ops::Range;

use crate::board::{Board, Cell, Color, Pt};

/// Index of a chain in [`Analysis::chains`].
pub type ChainId = u32;
/// Index of an empty region in [`Analysis::regions`].
pub type RegionId = u32;

const NONE: u32 = u32::MAX;

/// A maximal connected set of stones of one colour.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Chain {
    pub color: Color,
    /// Row by row from the first stone found.
    pub stones: Vec<Pt>,
    /// The distinct empty points next to the chain.
    pub liberties: Vec<Pt>,
    /// The empty regions the chain touches, each once.
    pub regions: Vec<RegionId>,
    /// Benson: no sequence of opponent moves can capture the chain, even if
    /// its owner always passes.
    pub pass_alive: bool,
}

/// A maximal connected set of empty points.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Region {
    pub points: Vec<Pt>,
    /// Whether a black, a white stone touches the region.
    pub black: bool,
    pub white: bool,
    /// The chains that touch the region, each once.
    pub chains: Vec<ChainId>,
    /// Benson: the colour whose pass-alive territory this region is (the
    /// other colour can never live in it).
    pub pass_alive: Option<Color>,
}

impl Region {
    /// The colour whose stones alone surround the region (an eye, or
    /// territory), if there is one.
    pub fn owner(&self) -> Option<Color> {
        match (self.black, self.white) {
            (true, false) => Some(Color::Black),
            (false, true) => Some(Color::White),
            _ => None,
        }
    }
}

/// The chains, regions and pass-alive status of one position.
#[derive(Debug, Clone)]
pub struct Analysis {
    /// The position's cells, padded as the board's (indexed by [`Pt`]).
    cells: Vec<Cell>,
    stride: Pt,
    chain_at: Vec<ChainId>,
    region_at: Vec<RegionId>,
    chains: Vec<Chain>,
    regions: Vec<Region>,
    /// Per point: the colour whose pass-alive stones or territory it is.
    pass_alive_area: Vec<Option<Color>>,
}

impl Analysis {
    /// The analysis of the board as it stands.
    pub fn new(board: &Board) -> Analysis {
        Analysis::without(board, &[])
    }

    /// The analysis of the board with the stones at `removed` lifted (the
    /// dead stones, at the end of a game).
    pub fn without(board: &Board, removed: &[Pt]) -> Analysis {
        let (cells, stride) = padded_cells(board, removed);
        Analysis::from_cells(cells, stride)
    }

    /// The chains of the board and Benson's pass-alive chains and area,
    /// with no region kept ([`Analysis::regions`] is empty): what the
    /// estimator asks, without the cost of the regions.
    pub fn pass_alive_only(board: &Board) -> Analysis {
        let (cells, stride) = padded_cells(board, &[]);
        let mut a = Analysis::chains_only(cells, stride);
        for color in [Color::Black, Color::White] {
            a.find_pass_alive(color);
        }
        a
    }

    /// The analysis of padded cells laid out as the board's, rows `stride`
    /// apart, with a border all around (as [`Analysis::cells`] gives them).
    pub fn from_cells(cells: Vec<Cell>, stride: Pt) -> Analysis {
        let mut a = Analysis::chains_only(cells, stride);
        a.find_regions();
        for color in [Color::Black, Color::White] {
            a.find_pass_alive(color);
        }
        a
    }

    /// The chains of padded cells and their liberties only: no region is
    /// found ([`Analysis::regions`] is empty) and no chain is pass-alive.
    /// Enough for a rule that asks only about chains
    /// ([`Analysis::self_atari`], [`Analysis::liberties_if_played`]), at a
    /// fraction of the cost.
    pub fn chains_only(cells: Vec<Cell>, stride: Pt) -> Analysis {
        let n = cells.len();
        let mut a = Analysis {
            cells,
            stride,
            chain_at: vec![NONE; n],
            region_at: vec![NONE; n],
            // Sized up front (57 on 19x19): the lists grow from there
            // only on boards of many chains or regions.
            chains: Vec::with_capacity(n / 8),
            regions: Vec::with_capacity(n / 8),
            pass_alive_area: vec![None; n],
        };
        a.find_chains();
        a
    }

    /// The padded cells (border cells included), indexed by [`Pt`].
    pub fn cells(&self) -> &[Cell] {
        &self.cells
    }

    /// Distance between rows in [`Analysis::cells`].
    pub fn stride(&self) -> Pt {
        self.stride
    }

    pub fn cell(&self, p: Pt) -> Cell {
        self.cells[p as usize]
    }

    /// The four orthogonal neighbours of a point of the board (some may be
    /// border cells).
    pub fn neighbors(&self, p: Pt) -> [Pt; 4] {
        [p - self.stride, p - 1, p + 1, p + self.stride]
    }

    pub fn chains(&self) -> &[Chain] {
        &self.chains
    }

    pub fn chain(&self, id: ChainId) -> &Chain {
        &self.chains[id as usize]
    }

    /// The chain of the stone at `p`; `None` for an empty point.
    pub fn chain_id(&self, p: Pt) -> Option<ChainId> {
        let id = self.chain_at[p as usize];
        (id != NONE).then_some(id)
    }

    /// The chain of the stone at `p`.
    ///
    /// Panics when `p` holds no stone.
    pub fn chain_at(&self, p: Pt) -> &Chain {
        self.chain(self.chain_id(p).expect("a stone"))
    }

    pub fn regions(&self) -> &[Region] {
        &self.regions
    }

    pub fn region(&self, id: RegionId) -> &Region {
        &self.regions[id as usize]
    }

    /// The empty region of the empty point `p`; `None` for a stone.
    pub fn region_id(&self, p: Pt) -> Option<RegionId> {
        let id = self.region_at[p as usize];
        (id != NONE).then_some(id)
    }

    /// The colour whose pass-alive stones or pass-alive territory `p` is
    /// (opponent stones inside that territory included: they are dead).
    pub fn pass_alive_area(&self, p: Pt) -> Option<Color> {
        self.pass_alive_area[p as usize]
    }

    /// Whether a stone of `color` at the empty point `p` would leave its
    /// chain with at most one liberty and capture nothing.
    pub fn self_atari(&self, p: Pt, color: Color) -> bool {
        // Stops at the second liberty: the chains of open boards have
        // hundreds.
        let mut first = None;
        let mut second_liberty = |l: Pt| l != p && *first.get_or_insert(l) != l;
        for n in self.neighbors(p) {
            let found = match self.cells[n as usize] {
                Cell::Empty => second_liberty(n),
                Cell::Border => false,
                cell if cell == Cell::of(color) => self.chain_at(n).liberties.iter().any(|&l| second_liberty(l)),
                _ => self.chain_at(n).liberties.len() == 1,
            };
            if found {
                return false;
            }
        }
        true
    }

    /// The liberties the chain of a stone of `color` put at the empty point
    /// `p` would have, captures aside, those `keep` accepts. They are
    /// filtered before the list drops repeats: the few kept make a short
    /// list to search, where a chain of an open board has dozens.
    pub fn liberties_if_played(&self, p: Pt, color: Color, keep: impl Fn(Pt) -> bool) -> Vec<Pt> {
        let mut liberties: Vec<Pt> = Vec::new();
        for n in self.neighbors(p) {
            let cell = self.cells[n as usize];
            let around: &[Pt] = if cell == Cell::Empty {
                std::slice::from_ref(&n)
            } else if cell == Cell::of(color) {
                &self.chain_at(n).liberties
            } else {
                &[]
            };
            for &l in around {
                if l != p && keep(l) && !liberties.contains(&l) {
                    liberties.push(l);
                }
            }
        }
        liberties
    }

    fn find_chains(&mut self) {
        // Per cell: 1 + the index of the last chain that listed it as a
        // liberty, so a liberty list needs no `contains` (open boards have
        // chains of hundreds of liberties). Each chain is flooded into the
        // same two lists, then copied out at its size: one allocation each.
        let mut listed = vec![0; self.cells.len()];
        let (mut stones, mut liberties) = (Vec::with_capacity(self.cells.len()), Vec::with_capacity(self.cells.len()));
        for start in 0..self.cells.len() {
            let Some(color) = self.cells[start].color() else { continue };
            if self.chain_at[start] != NONE {
                continue;
            }
            let id = self.chains.len() as ChainId;
            self.chain_at[start] = id;
            stones.clear();
            liberties.clear();
            stones.push(start as Pt);
            let mut i = 0;
            while i < stones.len() {
                for n in self.neighbors(stones[i]) {
                    let cell = self.cells[n as usize];
                    if cell == Cell::of(color) && self.chain_at[n as usize] == NONE {
                        self.chain_at[n as usize] = id;
                        stones.push(n);
                    } else if cell == Cell::Empty && listed[n as usize] != id + 1 {
                        listed[n as usize] = id + 1;
                        liberties.push(n);
                    }
                }
                i += 1;
            }
            self.chains.push(Chain { color, stones: stones.clone(), liberties: liberties.clone(), regions: Vec::new(), pass_alive: false });
        }
    }

    fn find_regions(&mut self) {
        let (mut points, mut chains) = (Vec::with_capacity(self.cells.len()), Vec::with_capacity(self.chains.len()));
        for start in 0..self.cells.len() {
            if self.cells[start] != Cell::Empty || self.region_at[start] != NONE {
                continue;
            }
            let id = self.regions.len() as RegionId;
            self.region_at[start] = id;
            points.clear();
            chains.clear();
            points.push(start as Pt);
            let (mut black, mut white) = (false, false);
            let mut i = 0;
            while i < points.len() {
                for n in self.neighbors(points[i]) {
                    match self.cells[n as usize] {
                        Cell::Empty if self.region_at[n as usize] == NONE => {
                            self.region_at[n as usize] = id;
                            points.push(n);
                        }
                        Cell::Black | Cell::White => {
                            let chain = self.chain_at[n as usize];
                            let c = &mut self.chains[chain as usize];
                            black |= c.color == Color::Black;
                            white |= c.color == Color::White;
                            if c.regions.last() != Some(&id) {
                                c.regions.push(id);
                                chains.push(chain);
                            }
                        }
                        _ => {}
                    }
                }
                i += 1;
            }
            self.regions.push(Region { points: points.clone(), black, white, chains: chains.clone(), pass_alive: None });
        }
    }

    /// Benson's algorithm for `color`. The regions here are the maximal
    /// connected sets of points that are not `color`'s stones (empty points
    /// and opponent stones). A region is vital to a chain when each of its
    /// empty points is a liberty of the chain (suicide forbidden: the
    /// opponent stones need not be). A chain with fewer than two vital
    /// regions, among the regions that touch only chains not yet found
    /// capturable, can be captured; repeat until no chain falls. The rest
    /// are pass-alive, and so is each region around them only that has at
    /// most one point away from their stones, or that is vital to one of
    /// them: the opponent cannot make two eyes there.
    fn find_pass_alive(&mut self, color: Color) {
        let own = Cell::of(color);
        let n = self.cells.len();
        // Per point of a region: its index in `areas`.
        let mut area_at = vec![NONE; n];
        /// A region, its lists as ranges of the lists all regions share.
        struct Area {
            points: Range<usize>,
            /// The chains of `color` next to every empty point.
            vital_for: Range<usize>,
            borders: Range<usize>,
            /// Points with no stone of `color` beside them, up to 2.
            inner: u8,
        }
        let mut areas: Vec<Area> = Vec::with_capacity(n / 8);
        let chain_count = self.chains.len();
        let (mut points, mut vital, mut borders): (Vec<Pt>, Vec<ChainId>, Vec<ChainId>) =
            (Vec::with_capacity(n), Vec::with_capacity(chain_count), Vec::with_capacity(chain_count));
        // Per chain: the last area that listed it as a border, so a border
        // list needs no `contains` (an open area borders dozens of chains).
        let mut bordered = vec![NONE; self.chains.len()];
        for start in 0..n {
            if self.cells[start] != Cell::Empty || area_at[start] != NONE {
                continue;
            }
            let id = areas.len() as u32;
            area_at[start] = id;
            let (first_point, first_vital, first_border) = (points.len(), vital.len(), borders.len());
            points.push(start as Pt);
            let mut inner = 0;
            let mut first_empty = true;
            // An area with two points away from the stones and no chain
            // beside all its empty points is neither vital to a chain nor
            // territory, whatever else it holds: its other points need only
            // be found (the open ground of a game in play, most often).
            let mut hopeless = false;
            let mut i = first_point;
            while i < points.len() {
                let p = points[i];
                i += 1;
                if hopeless {
                    for q in self.neighbors(p) {
                        let cell = self.cells[q as usize];
                        if cell != own && cell != Cell::Border && area_at[q as usize] == NONE {
                            area_at[q as usize] = id;
                            points.push(q);
                        }
                    }
                    continue;
                }
                let mut beside: [ChainId; 4] = [NONE; 4];
                for (k, q) in self.neighbors(p).into_iter().enumerate() {
                    let cell = self.cells[q as usize];
                    if cell == own {
                        let c = self.chain_at[q as usize];
                        beside[k] = c;
                        if bordered[c as usize] != id {
                            bordered[c as usize] = id;
                            borders.push(c);
                        }
                    } else if cell != Cell::Border && area_at[q as usize] == NONE {
                        area_at[q as usize] = id;
                        points.push(q);
                    }
                }
                if beside.iter().all(|&c| c == NONE) && inner < 2 {
                    inner += 1;
                }
                if self.cells[p as usize] == Cell::Empty {
                    if first_empty {
                        let mut sorted = beside;
                        sorted.sort_unstable();
                        for (k, &c) in sorted.iter().enumerate() {
                            if c != NONE && (k == 0 || sorted[k - 1] != c) {
                                vital.push(c);
                            }
                        }
                        first_empty = false;
                    } else {
                        let mut kept = first_vital;
                        for r in first_vital..vital.len() {
                            if beside.contains(&vital[r]) {
                                vital[kept] = vital[r];
                                kept += 1;
                            }
                        }
                        vital.truncate(kept);
                    }
                }
                hopeless = !first_empty && vital.len() == first_vital && inner >= 2;
            }
            areas.push(Area { points: first_point..points.len(), vital_for: first_vital..vital.len(), borders: first_border..borders.len(), inner });
        }
        let mut captured = vec![false; self.chains.len()];
        let mut unsafe_area = vec![false; areas.len()];
        let mut vital_regions = vec![0u32; self.chains.len()];
        loop {
            vital_regions.fill(0);
            for (a, area) in areas.iter().enumerate() {
                if !unsafe_area[a] {
                    for &c in &vital[area.vital_for.clone()] {
                        vital_regions[c as usize] += 1;
                    }
                }
            }
            let mut fell = false;
            for (c, chain) in self.chains.iter().enumerate() {
                if chain.color != color || captured[c] || vital_regions[c] >= 2 {
                    continue;
                }
                captured[c] = true;
                fell = true;
            }
            if !fell {
                break;
            }
            // The areas beside a captured chain are those that list it as
            // a border: a few lists to read, not every stone's neighbours.
            for (a, area) in areas.iter().enumerate() {
                unsafe_area[a] = unsafe_area[a] || borders[area.borders.clone()].iter().any(|&c| captured[c as usize]);
            }
        }
        for (c, chain) in self.chains.iter_mut().enumerate() {
            if chain.color == color && !captured[c] {
                chain.pass_alive = true;
                for &s in &chain.stones {
                    self.pass_alive_area[s as usize] = Some(color);
                }
            }
        }
        for (a, area) in areas.iter().enumerate() {
            // The opponent cannot make two eyes in a region with at most one
            // point away from the pass-alive stones, nor any eye in one each
            // of whose empty points is a liberty of a pass-alive chain.
            if unsafe_area[a] || area.borders.is_empty() || (area.inner > 1 && area.vital_for.is_empty()) {
                continue;
            }
            for &p in &points[area.points.clone()] {
                self.pass_alive_area[p as usize] = Some(color);
                if let Some(r) = self.region_id(p) {
                    self.regions[r as usize].pass_alive = Some(color);
                }
            }
        }
    }
}

/// The board's cells with the stones at `removed` lifted, padded as the
/// board's, and the distance between their rows.
fn padded_cells(board: &Board, removed: &[Pt]) -> (Vec<Cell>, Pt) {
    let last = board.points().last().map_or(0, |p| p as usize);
    // One border row below the last point, plus its right border: every
    // neighbour of a point of the board is an index of `cells`.
    let mut cells = vec![Cell::Border; last + board.width() + 3];
    for p in board.points() {
        cells[p as usize] = board.cell(p);
    }
    for &p in removed {
        cells[p as usize] = Cell::Empty;
    }
    let first = board.point(0, 0).expect("a board has a point");
    (cells, board.neighbors(first)[3] - first)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn analysis(rows: &[&str]) -> (Board, Analysis) {
        let board = Board::from_rows(rows).expect("a diagram");
        let a = Analysis::new(&board);
        (board, a)
    }

    fn at(board: &Board, x: usize, y: usize) -> Pt {
        board.point(x, y).unwrap()
    }

    #[test]
    fn chains_liberties_and_regions() {
        let (b, a) = analysis(&[
            "XX.O.", //
            "X.XO.", "XXXO.",
        ]);
        let black = a.chain_at(at(&b, 0, 0));
        assert_eq!((black.color, black.stones.len(), black.liberties.len()), (Color::Black, 7, 2));
        assert_eq!(black.regions.len(), 2);
        assert_eq!(a.chains().len(), 2);
        let eye = a.region(a.region_id(at(&b, 1, 1)).unwrap());
        assert_eq!((eye.owner(), eye.points.len(), eye.chains.len()), (Some(Color::Black), 1, 1));
        let shared = a.region(a.region_id(at(&b, 2, 0)).unwrap());
        assert_eq!((shared.owner(), shared.black, shared.white), (None, true, true));
        let right = a.region(a.region_id(at(&b, 4, 0)).unwrap());
        assert_eq!((right.owner(), right.points.len()), (Some(Color::White), 3));
        assert_eq!((a.region_id(at(&b, 0, 0)), a.chain_id(at(&b, 2, 0))), (None, None));
    }

    #[test]
    fn two_eyes_are_pass_alive_one_is_not() {
        let (b, a) = analysis(&[
            ".X.XO..", //
            "XXXXO..", "OOOOO..", ".......",
        ]);
        assert!(a.chain_at(at(&b, 1, 0)).pass_alive, "two eyes, A4 and C4");
        assert_eq!(a.pass_alive_area(at(&b, 0, 0)), Some(Color::Black));
        assert_eq!(a.region(a.region_id(at(&b, 2, 0)).unwrap()).pass_alive, Some(Color::Black));
        // White's open area is not pass-alive: Black could live there.
        assert!(!a.chain_at(at(&b, 4, 0)).pass_alive);
        assert_eq!(a.pass_alive_area(at(&b, 6, 3)), None);

        let (b, a) = analysis(&[
            ".XXXO..", //
            "XXXXO..", "OOOOO..",
        ]);
        assert!(!a.chain_at(at(&b, 1, 0)).pass_alive, "one eye");
        assert_eq!(a.pass_alive_area(at(&b, 0, 0)), None);
    }

    #[test]
    fn an_area_too_small_for_two_eyes_is_pass_alive_territory() {
        // Black lives with B8-B9... the two-point eyes E and G; the corner
        // A9-C8 has two points away from Black's stones: White might live.
        let (b, a) = analysis(&[
            "...X.X.X", //
            "O..X.X.X", "XXXXXXXX",
        ]);
        assert!(a.chain_at(at(&b, 3, 0)).pass_alive);
        assert_eq!(a.pass_alive_area(at(&b, 4, 0)), Some(Color::Black));
        assert_eq!(a.pass_alive_area(at(&b, 0, 1)), None);
        // A corner of two points: the white stone in it is dead.
        let (b, a) = analysis(&[
            ".X.X", //
            "OX.X", "XXXX",
        ]);
        assert_eq!(a.pass_alive_area(at(&b, 0, 1)), Some(Color::Black), "the white stone is dead");
        assert_eq!(a.pass_alive_area(at(&b, 0, 0)), Some(Color::Black));
        assert_eq!(a.pass_alive_area(at(&b, 1, 1)), Some(Color::Black));
    }

    #[test]
    fn a_region_each_of_whose_points_is_a_liberty_is_pass_alive_territory() {
        // White's block has two points away from Black's stones, but its
        // only empty points, B4 and B2, are liberties of Black's living wall.
        let (b, a) = analysis(&[
            "X.X.XX", //
            "XXXXXX", "X.OOOX", "XOOOOX", "X.OOOX", "XXXXXX",
        ]);
        assert!(a.chain_at(at(&b, 0, 1)).pass_alive);
        assert_eq!(a.pass_alive_area(at(&b, 3, 3)), Some(Color::Black), "the white stones are dead");
        assert_eq!(a.pass_alive_area(at(&b, 1, 2)), Some(Color::Black));
    }

    #[test]
    fn pass_alive_only_is_the_full_analysis_without_regions() {
        for rows in [&[".X.XO..", "XXXXO..", "OOOOO..", "......."][..], &["X.X.XX", "XXXXXX", "X.OOOX", "XOOOOX", "X.OOOX", "XXXXXX"]] {
            let board = Board::from_rows(rows).unwrap();
            let (full, only) = (Analysis::new(&board), Analysis::pass_alive_only(&board));
            let chains = |a: &Analysis| a.chains().iter().map(|c| (c.stones.clone(), c.liberties.clone(), c.pass_alive)).collect::<Vec<_>>();
            assert_eq!(chains(&only), chains(&full));
            assert!(board.points().all(|p| only.pass_alive_area(p) == full.pass_alive_area(p)));
            assert!(only.regions().is_empty());
        }
    }

    #[test]
    fn removed_stones_are_empty() {
        let board = Board::from_rows(&["XO.", "XO.", "XO."]).unwrap();
        let white: Vec<Pt> = (0..3).map(|y| board.point(1, y).unwrap()).collect();
        let a = Analysis::without(&board, &white);
        assert_eq!((a.chains().len(), a.regions().len()), (1, 1));
        assert_eq!(a.region(0).owner(), Some(Color::Black));
        assert!(!a.chain(0).pass_alive, "one region is one vital region at most");
    }

    #[test]
    fn self_atari_and_liberties_if_played() {
        let (b, a) = analysis(&[
            ".XO..", //
            "XXO..", "OOO..",
        ]);
        assert!(a.self_atari(at(&b, 0, 0), Color::Black), "Black fills its last liberty");
        assert!(!a.self_atari(at(&b, 0, 0), Color::White), "White captures");
        assert!(!a.self_atari(at(&b, 3, 0), Color::White));
        assert_eq!(a.liberties_if_played(at(&b, 3, 0), Color::White, |_| true).len(), 3);
        assert_eq!(a.liberties_if_played(at(&b, 3, 0), Color::White, |l| l != at(&b, 4, 0)).len(), 2);
    }
}
