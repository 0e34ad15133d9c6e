//! Finding the same game twice: archive keepers merge collections from many
//! sources, and one game often arrives under different file names, headers,
//! orientations and even with the colours swapped.
//!
//! A game's [`fingerprint`] depends only on its board size, its root setup
//! stones and the points of its main-line moves, taken under the board
//! symmetry that gives the smallest value, with colours ignored. The
//! [`DuplicateIndex`] remembers fingerprints compactly (a few dozen bytes
//! per game) so that a run over millions of games stays small.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use crate::sgf::props::{self, BoardSize, Move, Point};
use crate::sgf::{GameTree, Node, PropId, Property};

/// Games shorter than this are not fingerprinted: short sequences are
/// common openings and problem diagrams, not copies.
pub const MIN_MOVES: usize = 20;

/// The symmetry-, colour- and header-independent identity of a game's main
/// line, or `None` for games too short to tell (fewer than [`MIN_MOVES`]
/// moves) or with an unreadable board size.
pub fn fingerprint(game: &GameTree) -> Option<u64> {
    let root = Root::read(game);
    let size = props::board_size_of(root.size).ok()?;
    let setup = root.setup.map(|p| p.map_or_else(Vec::new, setup_points));
    // The walks start below the root unless it has moves of its own (a
    // game's root rarely does, and a look at its properties for them was
    // a pass over a dozen or more).
    let start = if root.moves { Some(game.root()) } else { game.root().children().next() };
    // Two passes over the tree's main line, no list of the moves: the
    // first few moves decide the symmetry, then the line is hashed under it.
    let (codes, setup_code) = canonical_codes(start, &setup, size);
    let (moves, line) = start.map_or((0, 0), |start| hash_line(start, size, codes));
    if moves < MIN_MOVES {
        return None;
    }
    let size_code = (u64::from(size.width) << 8) | u64::from(size.height);
    Some(mix(line ^ mix(setup_code) ^ size_code))
}

/// What the fingerprint reads of a game's root: the first `SZ`, `AB` and
/// `AW`, and whether it has moves, as the tree noted them.
struct Root<'a> {
    size: Option<Property<'a>>,
    setup: [Option<Property<'a>>; 2],
    moves: bool,
}

impl<'a> Root<'a> {
    fn read(game: &'a GameTree) -> Root<'a> {
        Root { size: game.root_first(PropId::SZ), setup: [game.root_first(PropId::AB), game.root_first(PropId::AW)], moves: game.root_has_move() }
    }
}

/// The points of a root's `AB` or `AW`, as [`props::parse_elist_of_point`]
/// reads them (none when it fails).
fn setup_points(property: Property<'_>) -> Vec<Point> {
    few_points(property).unwrap_or_else(|| props::parse_elist_of_point(property.values().map(|v| v.text())).unwrap_or_default())
}

/// The points of a property of a few values, each one point, as handicap
/// stones are: each point once, in order, as [`props::parse_point_list`]
/// gives them, without its two passes over the values and its list grown
/// a push at a time (a handicap game's setup took about 1,100
/// instructions). `None` for any other property.
fn few_points(property: Property<'_>) -> Option<Vec<Point>> {
    // Up to as many as `parse_point_list` looks up in the list itself.
    const FEW: usize = 16;
    let values = property.values();
    if values.len() > FEW {
        return None;
    }
    let mut points = Vec::with_capacity(values.len());
    for value in values {
        let [x, y] = *value.bytes() else { return None };
        let p = Point::new(props::letter_value(x)?, props::letter_value(y)?);
        if !points.contains(&p) {
            points.push(p);
        }
    }
    Some(points)
}

/// The number of readable moves of the main line from `node` on, and
/// their hash under `codes`.
fn hash_line(mut node: Node<'_>, size: BoardSize, codes: CodeMap) -> (usize, u64) {
    let letters = LetterCodes::new(codes, size);
    let (mut moves, mut line) = (0, 0u64);
    loop {
        // Most nodes are plain moves, marked by the parser, taken a run
        // of them at a time: the letters read from one record after the
        // other, no step from node to node.
        let last = match node.plain_run() {
            Some(run) => {
                let last = run.for_each_move(|_, _, xy| line = step(line, letters.code(xy, codes, size)));
                // A run's nodes are records one after the other, a move
                // each: counted once a run, not at each move.
                moves += (last.id().0 - node.id().0) as usize + 1;
                last
            }
            None => {
                node_moves(node, size, |mv| {
                    moves += 1;
                    line = step(line, codes.move_code(mv, size));
                    true
                });
                node
            }
        };
        let Some(next) = last.children().next() else { return (moves, line) };
        node = next;
    }
}

/// Calls `visit` with each readable move of the main line, in order,
/// while it returns `true`: node by node, for the few moves that decide
/// the symmetry.
fn for_each_first_move(start: Option<Node<'_>>, size: BoardSize, mut visit: impl FnMut(Move) -> bool) {
    for node in start.into_iter().flat_map(|start| start.main_line()) {
        let more = match node.marked_plain_move() {
            Some((_, _, letters)) => visit(plain_move(u16::from_le_bytes(letters), size)),
            None => node_moves(node, size, &mut visit),
        };
        if !more {
            return;
        }
    }
}

/// The move of a node marked as a plain one: two lower-case letters (as
/// one little-endian number), a point unless they are `tt` (a pass up to
/// 19x19, which `read_move` tells).
#[inline(always)]
fn plain_move(letters: u16, size: BoardSize) -> Move {
    match letters.to_le_bytes() {
        [b't', b't'] => read_move(b"tt", size).unwrap_or(Move::Pass),
        [x, y] => Move::Play(Point::new(x - b'a', y - b'a')),
    }
}

/// Calls `visit` with the readable `B` and `W` moves of a node not marked
/// as a plain move, while it returns `true`; returns `false` once it has.
fn node_moves(node: Node<'_>, size: BoardSize, mut visit: impl FnMut(Move) -> bool) -> bool {
    for property in node.properties() {
        if (property.code() == PropId::B || property.code() == PropId::W)
            && let Some(mv) = property.only_value().and_then(|v| read_move(v.bytes(), size))
            && !visit(mv)
        {
            return false;
        }
    }
    true
}

/// The codes of the symmetry under which the game reads smallest (setup
/// first, then the moves in order), and the setup's code under it. The
/// first corner move usually decides it, so this costs a few steps, not
/// eight passes.
fn canonical_codes(start: Option<Node<'_>>, setup: &[Vec<Point>; 2], size: BoardSize) -> (CodeMap, u64) {
    let mut candidates = Candidates { codes: symmetries(size).map(|s| CodeMap::new(s, size)), len: 8 };
    // Without setup stones every symmetry gives the same setup code; with
    // them, the candidates kept share the smallest.
    let setup_code = if setup.iter().any(|points| !points.is_empty()) {
        candidates.keep_smallest(|codes| setup_code(setup, codes, size))
    } else {
        setup_code(setup, candidates.codes[0], size)
    };
    if candidates.len > 1 {
        for_each_first_move(start, size, |mv| {
            candidates.keep_smallest(|codes| codes.move_code(mv, size));
            candidates.len > 1
        });
    }
    (candidates.codes[0], setup_code)
}

/// The symmetries still in the running, in order, by their codes (made
/// once, not at each move looked at): an array, not a vector (a block
/// allocated for each game).
struct Candidates {
    codes: [CodeMap; 8],
    len: usize,
}

impl Candidates {
    /// Keeps those whose key is the smallest, each key computed once;
    /// returns that key.
    fn keep_smallest(&mut self, key: impl Fn(CodeMap) -> u64) -> u64 {
        // The smallest taken as the keys are made: a pass of its own over
        // them was made a vector loop, 64-bit compares emulated in SSE2
        // (half the instructions of a move looked at).
        let mut keys = [0; 8];
        let mut smallest = u64::MAX;
        for (key_of, codes) in keys.iter_mut().zip(&self.codes[..self.len]) {
            *key_of = key(*codes);
            smallest = smallest.min(*key_of);
        }
        let mut kept = 0;
        for (i, &key) in keys.iter().enumerate().take(self.len) {
            if key == smallest {
                self.codes[kept] = self.codes[i];
                kept += 1;
            }
        }
        self.len = kept;
        smallest
    }
}

/// A `B`/`W` value as [`props::parse_move`] reads it, without the error
/// (an unreadable move is simply left out of the fingerprint).
fn read_move(value: &[u8], size: BoardSize) -> Option<Move> {
    match *value {
        [] | [b't', b't'] if size.width <= 19 && size.height <= 19 || value.is_empty() => Some(Move::Pass),
        [x, y] => Some(Move::Play(Point::new(props::letter_value(x)?, props::letter_value(y)?))),
        _ => None,
    }
}

/// One step of the sequence hash: cheap, order-sensitive; [`mix`] finishes it.
fn step(hash: u64, code: u64) -> u64 {
    (hash.rotate_left(23) ^ code).wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

/// One of the 8 symmetries of a square board: optional transpose, then
/// optional flips. Rectangular boards have only the 4 without transpose.
#[derive(Debug, Clone, Copy)]
struct Symmetry {
    transpose: bool,
    flip_x: bool,
    flip_y: bool,
}

fn symmetries(size: BoardSize) -> [Symmetry; 8] {
    let square = size.width == size.height;
    std::array::from_fn(|i| Symmetry { transpose: square && i >= 4, flip_x: i & 1 != 0, flip_y: i & 2 != 0 })
}

/// A symmetry's point codes, `1 + (x' << 8) + y'`, where `(x', y')` is
/// the point transposed and flipped, as the map they are on the board's
/// points, `k + a·x + b·y` (a transpose swaps the coefficients, a flip
/// turns one negative and moves `k`): no branch on the symmetry at each
/// move of the line hashed (three of them were a quarter of the
/// fingerprint's instructions). Points off the board keep their own code
/// (they cannot be transformed, and they are rare enough).
#[derive(Clone, Copy)]
struct CodeMap {
    k: i64,
    a: i64,
    b: i64,
}

impl CodeMap {
    fn new(s: Symmetry, size: BoardSize) -> CodeMap {
        let (w, h) = if s.transpose { (size.height, size.width) } else { (size.width, size.height) };
        // After the transpose, x' = cx + sx·(the column), y' = cy + sy·(the row).
        let (cx, sx) = if s.flip_x { (i64::from(w) - 1, -1) } else { (0, 1) };
        let (cy, sy) = if s.flip_y { (i64::from(h) - 1, -1) } else { (0, 1) };
        let (a, b) = if s.transpose { (sy, sx << 8) } else { (sx << 8, sy) };
        CodeMap { k: 1 + (cx << 8) + cy, a, b }
    }

    #[inline(always)]
    fn point_code(self, p: Point, size: BoardSize) -> u64 {
        if !size.contains(p) {
            return off_board_code(p);
        }
        (self.k + self.a * i64::from(p.x) + self.b * i64::from(p.y)) as u64
    }

    #[inline(always)]
    fn move_code(self, mv: Move, size: BoardSize) -> u64 {
        match mv {
            Move::Pass => 0,
            Move::Play(p) => self.point_code(p, size),
        }
    }
}

/// The code of a point off the board, under every symmetry: out of the
/// line's hot loop.
#[cold]
#[inline(never)]
fn off_board_code(p: Point) -> u64 {
    0x1_0000 | (u64::from(p.x) << 8) | u64::from(p.y)
}

/// A [`CodeMap`]'s codes for the points of marked moves, read from their
/// two lower-case letters as one little-endian number `xy` (as a run's
/// `for_each_move` gives them, [`Node::plain_run`]), so that the hash loop
/// does not make a [`Point`] and test it against the [`BoardSize`] at each
/// move. One add of [`LetterCodes::edges`] both tests the board's edges
/// and gives the number the code is made from.
#[derive(Clone, Copy)]
struct LetterCodes {
    /// Added to `xy`: the sum `s` has the bytes `x - 'a' + 128 - width`
    /// and `y - 'a' + 128 - height` (a side taken at most 26, which holds
    /// every letter), each below 128 exactly when its letter is on the
    /// board, and at most 153 (a letter less `'a'` is at most 25): no
    /// carry from one into the other. (A `u32`, that wraps below `xy`'s
    /// `'a'`s and above, so that the sum needs no zero extension.)
    edges: u32,
    /// The point's code `k + a·x' + b·y'` (`x'`, `y'` its column and row),
    /// taken from the sum as `k_s + a·s + high·(s >> 8)`: the sum's bytes
    /// `sx + 256·sy` times `a`, plus `(b - 256·a)·sy`, spares splitting off
    /// the low byte `sx`, and `k_s` takes in what separates the sum's
    /// bytes from the column and the row.
    k_s: i64,
    a: i64,
    high: i64,
}

impl LetterCodes {
    fn new(codes: CodeMap, size: BoardSize) -> LetterCodes {
        let room = |side: u8| 128 - i64::from(side.min(26));
        let (rx, ry) = (room(size.width), room(size.height));
        let edges = (rx | ry << 8) as u32;
        LetterCodes {
            edges: edges.wrapping_sub(u32::from(u16::from_le_bytes([b'a'; 2]))),
            k_s: codes.k - codes.a * rx - codes.b * ry,
            a: codes.a,
            high: codes.b - 256 * codes.a,
        }
    }

    /// The code of a marked move's letters `xy`: that of `codes` for its
    /// point, or for the pass `tt` stands for on a small board.
    #[inline(always)]
    fn code(self, xy: u16, codes: CodeMap, size: BoardSize) -> u64 {
        debug_assert!(xy.to_le_bytes().iter().all(u8::is_ascii_lowercase), "a marked move's letters are lower-case");
        let s = u32::from(xy).wrapping_add(self.edges);
        if s & 0x8080 != 0 {
            return self.off_board_code(s, codes, size);
        }
        (self.k_s + self.a * i64::from(s) + self.high * i64::from(s >> 8)) as u64
    }

    /// [`LetterCodes::code`] of letters off the board, from their sum `s`
    /// (not the letters, which the hash loop need not keep): a pass (`tt`
    /// up to 19x19) or a point's own code. Rare, out of the loop.
    #[cold]
    #[inline(never)]
    fn off_board_code(self, s: u32, codes: CodeMap, size: BoardSize) -> u64 {
        codes.move_code(plain_move(s.wrapping_sub(self.edges) as u16, size), size)
    }
}

/// The root's setup stones (`AB`, `AW`) as two unordered sets, combined so
/// that swapping the colours gives the same code.
fn setup_code(setup: &[Vec<Point>; 2], codes: CodeMap, size: BoardSize) -> u64 {
    let set = |points: &[Point]| points.iter().map(|p| mix(codes.point_code(*p, size))).fold(0, u64::wrapping_add);
    let (black, white) = (set(&setup[0]), set(&setup[1]));
    mix(black.min(white)) ^ black.max(white)
}

/// A strong 64-bit mixer (splitmix64's finaliser).
fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Where a game was first seen.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FirstSeen<'a> {
    pub file: &'a str,
    pub game: usize,
}

/// The hashing of a table whose keys are already well-mixed hashes (a
/// fingerprint, a path's key): the key's own bits, not a second hash of
/// it (SipHash cost about 100 instructions a file in a check).
pub type KeysAreHashes = BuildHasherDefault<KeyBits>;

/// The [`Hasher`] of [`KeysAreHashes`].
#[derive(Default)]
pub struct KeyBits(u64);

impl Hasher for KeyBits {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write_u64(&mut self, key: u64) {
        self.0 = key;
    }

    fn write_u128(&mut self, key: u128) {
        self.0 = key as u64 ^ (key >> 64) as u64;
    }

    /// Any other key, folded in: correct, if slower (no table of kifu's
    /// has one).
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0.rotate_left(8) ^ u64::from(b)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        }
    }
}

/// The fingerprints seen so far. File names are kept once each in one
/// string, so memory grows by about 40 bytes per game plus the names.
#[derive(Debug, Default)]
pub struct DuplicateIndex {
    first: HashMap<u64, (u32, u32), KeysAreHashes>,
    names: String,
    name_ends: Vec<usize>,
}

impl DuplicateIndex {
    /// An index with room for `games` games and `name_bytes` bytes of
    /// names, so that a run whose size is known (files named on the
    /// command line) does not grow it step by step: each step copies the
    /// whole index into new memory, a page fault every 4 KB of it.
    pub fn with_capacity(games: usize, name_bytes: usize) -> DuplicateIndex {
        DuplicateIndex {
            first: HashMap::with_capacity_and_hasher(games, KeysAreHashes::default()),
            names: String::with_capacity(name_bytes),
            name_ends: Vec::with_capacity(games),
        }
    }

    /// Records the games of one file (`(game index, fingerprint)`) and
    /// returns, for each game seen before, its index and where it was first
    /// seen. A game repeated inside one file names that same file.
    pub fn add_file<'s>(&'s mut self, file: &str, games: &[(usize, u64)]) -> Vec<(usize, FirstSeen<'s>)> {
        if games.is_empty() {
            return Vec::new();
        }
        let file_index = self.name_ends.len() as u32;
        self.names.push_str(file);
        self.name_ends.push(self.names.len());
        let mut repeats = Vec::new();
        for &(game, key) in games {
            let first = *self.first.entry(key).or_insert((file_index, game as u32));
            if first != (file_index, game as u32) {
                repeats.push((game, first));
            }
        }
        repeats.into_iter().map(|(game, (file, first_game))| (game, FirstSeen { file: self.name(file), game: first_game as usize })).collect()
    }

    fn name(&self, index: u32) -> &str {
        let index = index as usize;
        let start = if index == 0 { 0 } else { self.name_ends[index - 1] };
        &self.names[start..self.name_ends[index]]
    }

    /// Number of distinct games recorded.
    pub fn len(&self) -> usize {
        self.first.len()
    }

    pub fn is_empty(&self) -> bool {
        self.first.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sgf;

    fn game_text(moves: &[(u8, u8)], colours_swapped: bool, header: &str) -> String {
        let mut s = format!("(;GM[1]SZ[19]{header}");
        for (i, (x, y)) in moves.iter().enumerate() {
            let black = (i % 2 == 0) != colours_swapped;
            s.push_str(&format!(";{}[{}{}]", if black { 'B' } else { 'W' }, (b'a' + x) as char, (b'a' + y) as char));
        }
        s.push(')');
        s
    }

    fn fingerprint_of(text: &str) -> Option<u64> {
        fingerprint(&sgf::parse_str(text).collection.games[0])
    }

    fn moves() -> Vec<(u8, u8)> {
        (0..30u32).map(|i| ((i * 7 % 19) as u8, ((i * 11 + 3) % 19) as u8)).collect()
    }

    #[test]
    fn a_symmetry_codes_each_point_transposed_then_flipped() {
        // The codes as defined, one step after another.
        let defined = |p: Point, s: Symmetry, size: BoardSize| {
            if !size.contains(p) {
                return 0x1_0000 | (u64::from(p.x) << 8) | u64::from(p.y);
            }
            let (mut x, mut y) = if s.transpose { (p.y, p.x) } else { (p.x, p.y) };
            let (w, h) = if s.transpose { (size.height, size.width) } else { (size.width, size.height) };
            if s.flip_x {
                x = w - 1 - x;
            }
            if s.flip_y {
                y = h - 1 - y;
            }
            1 + (u64::from(x) << 8) + u64::from(y)
        };
        for (width, height) in [(19, 19), (9, 13), (13, 9), (1, 1), (52, 52), (25, 3)] {
            let size = BoardSize { width, height };
            for s in symmetries(size) {
                for x in 0..width + 2 {
                    for y in 0..height + 2 {
                        let p = Point::new(x, y);
                        assert_eq!(CodeMap::new(s, size).point_code(p, size), defined(p, s, size), "{p:?} under {s:?} on {width}x{height}");
                    }
                }
            }
        }
    }

    #[test]
    fn a_marked_moves_letters_code_as_its_move() {
        for (width, height) in [(19, 19), (9, 13), (13, 9), (1, 1), (2, 3), (25, 25), (26, 26), (27, 20), (52, 52), (25, 3)] {
            let size = BoardSize { width, height };
            for s in symmetries(size) {
                let codes = CodeMap::new(s, size);
                for xy in lower_case_pairs() {
                    let letters = u16::from_le_bytes(xy);
                    let expected = codes.move_code(read_move(&xy, size).expect("letters"), size);
                    assert_eq!(LetterCodes::new(codes, size).code(letters, codes, size), expected, "{xy:?} under {s:?} on {width}x{height}");
                }
            }
        }
    }

    /// Every pair of lower-case letters.
    fn lower_case_pairs() -> impl Iterator<Item = [u8; 2]> {
        (b'a'..=b'z').flat_map(|x| (b'a'..=b'z').map(move |y| [x, y]))
    }

    #[test]
    fn same_moves_under_every_symmetry_and_colour_swap_match() {
        let base = fingerprint_of(&game_text(&moves(), false, "PB[a]PW[b]")).expect("long enough");
        type Transform = fn(u8, u8) -> (u8, u8);
        let transforms: [Transform; 4] = [|x, y| (18 - x, y), |x, y| (x, 18 - y), |x, y| (y, x), |x, y| (18 - y, 18 - x)];
        for t in transforms {
            let moved: Vec<_> = moves().into_iter().map(|(x, y)| t(x, y)).collect();
            assert_eq!(fingerprint_of(&game_text(&moved, false, "")), Some(base));
        }
        assert_eq!(fingerprint_of(&game_text(&moves(), true, "RE[B+R]")), Some(base));
    }

    #[test]
    fn different_games_and_short_games_do_not_match() {
        let base = fingerprint_of(&game_text(&moves(), false, ""));
        let mut other = moves();
        other.swap(3, 5);
        assert_ne!(fingerprint_of(&game_text(&other, false, "")), base);
        assert_eq!(fingerprint_of(&game_text(&moves()[..MIN_MOVES - 1], false, "")), None);
    }

    /// Moves `B`, `W` in turn, `;B[..]` each (a node the parser marks as a
    /// plain move when its letters are lower-case), the points spread
    /// from `seed` over the first `span` letters.
    fn line(count: u32, seed: u32, span: u32) -> String {
        (0..count)
            .map(|i| {
                let (x, y) = ((i * 7 + seed) % span, (i * 11 + seed * 3) % span);
                let letter = |n: u32| (if n < 26 { b'a' + n as u8 } else { b'A' + (n - 26) as u8 }) as char;
                format!(";{}[{}{}]", if i % 2 == 0 { 'B' } else { 'W' }, letter(x), letter(y))
            })
            .collect()
    }

    /// One game for each way a move or a stone reaches the fingerprint.
    fn pinned_games() -> Vec<String> {
        vec![
            // Marked moves only, one run.
            format!("(;GM[1]SZ[19]{})", line(40, 1, 19)),
            // Handicap stones, symmetric, then asymmetric setup of both colours.
            format!("(;GM[1]SZ[19]HA[4]AB[dd][pd][dp][pp]{})", line(30, 2, 19)),
            format!("(;GM[1]SZ[19]AB[dd][pe][cq]AW[qq][jj]{})", line(30, 3, 19)),
            // Passes (`tt`, empty) and points off the board (`zz`, upper case letters), first and later.
            format!("(;GM[1]SZ[19];B[tt];W[];B[zz]{};B[];W[tt];B[sA];W[Aa];B[ss];W[ta]{})", line(20, 4, 19), line(10, 5, 19)),
            // `tt` a point on a larger board; `zz` off a 25x25 board, on a 26x26 one; upper case on 52x52.
            format!("(;GM[1]SZ[25];B[tt];W[zz];B[yy];W[za]{})", line(30, 6, 25)),
            format!("(;GM[1]SZ[26];B[zz];W[tt];B[az]{})", line(30, 7, 26)),
            format!("(;GM[1]SZ[52]{})", line(40, 8, 52)),
            // Rectangular boards: four symmetries, off-board letters on one side.
            format!("(;GM[1]SZ[13:9];B[mh];W[ni];B[aj]{})", line(30, 9, 13)),
            format!("(;GM[1]SZ[9:13]AB[cc]AW[gk]{};B[ja];W[im])", line(30, 10, 9)),
            // Small boards.
            format!("(;GM[1]SZ[1];B[aa];W[ab]{})", line(24, 0, 2)),
            format!("(;GM[1]SZ[2:3]{})", line(24, 11, 3)),
            // Nodes not marked: a move with another property, two moves in a node,
            // runs broken by them, variations (the main line is the first).
            format!("(;GM[1]SZ[19]{})", line(30, 12, 19).replace(']', "]BL[10]")),
            format!("(;GM[1]SZ[19];B[pd]W[dp];W[pp]C[x]{};B[qq]C[y]{}(;W[dd]{})(;W[cc]))", line(10, 13, 19), line(10, 14, 19), line(6, 15, 19)),
            // The first moves symmetric, the symmetry decided late.
            format!("(;GM[1]SZ[19];B[jj];W[jj];B[aa];W[ss];B[as];W[sa];B[ab]{})", line(20, 16, 19)),
            // Moves in the root, and `SZ` and `AB` twice (the first of each counts).
            format!("(;GM[1]B[kc]SZ[13]W[dd]SZ[19]AB[cc]AB[dd]AW[jj]{})", line(30, 18, 13)),
            // Setup stones repeated, off the board, in a rectangle, unreadable
            // (none then), and more than a handful.
            format!("(;GM[1]SZ[19]AB[dd][dd][pp][Aa]AW[aa:cc]{})", line(30, 19, 19)),
            format!("(;GM[1]SZ[19]AB[dd][p]AW[qq]{})", line(30, 20, 19)),
            format!(
                "(;GM[1]SZ[19]AB{}AW[]{})",
                (0..20u8).map(|i| format!("[{}{}]", (b'a' + i % 19) as char, (b'a' + (i * 5) % 19) as char)).collect::<String>(),
                line(30, 21, 19)
            ),
            // Too short.
            format!("(;GM[1]SZ[19]{})", line(19, 17, 19)),
        ]
    }

    #[test]
    fn fingerprints_are_pinned() {
        // The values the first fingerprint gave: a change of the code must not change them.
        let pinned = [
            Some(0x09e1_84bc_0e3a_2769),
            Some(0xb11f_0719_6b72_4e1c),
            Some(0x631c_32a8_f4cb_e028),
            Some(0x555b_90c3_b570_2cd6),
            Some(0x6c2f_92f3_4f15_bbab),
            Some(0xb90c_6122_8036_7a5a),
            Some(0x1a21_7361_371c_1200),
            Some(0xdc38_4be9_9649_0a96),
            Some(0x22f2_dc0e_1799_cee2),
            Some(0x18f6_1574_c124_3c1d),
            Some(0x7a46_e68a_c8f2_0b43),
            Some(0xe6cc_4ea3_61c9_9c24),
            Some(0xcc88_4502_9105_0600),
            Some(0x4037_41c9_d4c6_4ce7),
            Some(0x7b61_f55f_5ae8_fd44),
            Some(0x2231_c222_c77d_939f),
            Some(0x816c_7a42_e04b_2de8),
            Some(0xc9f1_ce9f_cbec_e494),
            None,
        ];
        let found: Vec<_> = pinned_games().iter().map(|g| fingerprint_of(g)).collect();
        assert_eq!(found, pinned);
    }

    #[test]
    fn the_index_names_the_first_file() {
        let mut index = DuplicateIndex::default();
        assert!(index.add_file("a.sgf", &[(0, 1), (1, 2)]).is_empty());
        assert_eq!(index.add_file("b.sgf", &[(0, 3), (1, 2)]), vec![(1, FirstSeen { file: "a.sgf", game: 1 })]);
        assert_eq!(index.add_file("c.sgf", &[(0, 3), (1, 3)]), vec![(0, FirstSeen { file: "b.sgf", game: 0 }), (1, FirstSeen { file: "b.sgf", game: 0 })]);
        assert_eq!(index.len(), 3);
    }
}
