//! Typed views of property values: points, moves, board sizes, numbers,
//! colours and texts as SGF `FF[4]` defines them for Go (`GM[1]`), the
//! catalogue of known properties ([`property_info`]), getters for the
//! game-info properties, and the [`Summary`] of one game that `kifu info`
//! shows (drawn by `report::info`).
//!
//! Everything here reads the lossless model ([`super::tree`]) and never
//! changes it. A value that does not have the form its type requires gives
//! a [`ValueError`], never a panic. Whether a well-formed move is legal (on
//! the board, on an empty point) is for the rules layer, not for this
//! module.

use std::borrow::Cow;
use std::fmt::{self, Write as _};

use serde::Serialize;

use super::tree::{GameTree, Node, PropId, Property, Value};

/// Largest board side SGF can describe (letters `a`-`z` then `A`-`Z`).
pub const MAX_BOARD_SIZE: u8 = 52;

// ---------------------------------------------------------------------------
// Errors

/// A property value that does not have the form its type requires.
///
/// `message` is one human-readable line saying what was found and what was
/// expected, e.g. `SZ[0]: board size must be between 1 and 52` (the
/// identifier is there when the error comes from a getter that knows it;
/// the bare parsers start with the bracketed value, `[0]: ...`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ValueError {
    pub message: String,
}

impl ValueError {
    fn new(value: &str, reason: impl fmt::Display) -> ValueError {
        let mut message = String::with_capacity(value.len().min(48) + 48);
        message.push('[');
        push_excerpt(&mut message, value);
        message.push_str("]: ");
        let _ = write!(message, "{reason}");
        ValueError { message }
    }

    /// Prefixes the message with the property identifier: `[0]: ...`
    /// becomes `SZ[0]: ...`.
    pub fn for_property(mut self, id: &str) -> ValueError {
        self.message.insert_str(0, id);
        self
    }
}

impl fmt::Display for ValueError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for ValueError {}

/// Appends a one-line excerpt of a value (at most 40 characters, control
/// characters shown as spaces, `]` escaped as SGF writes it).
pub(crate) fn push_excerpt(out: &mut String, value: &str) {
    const MAX: usize = 40;
    for (i, c) in value.chars().enumerate() {
        if i == MAX {
            out.push_str("...");
            return;
        }
        match c {
            ']' | '\\' => {
                out.push('\\');
                out.push(c);
            }
            c if c.is_control() => out.push(' '),
            c => out.push(c),
        }
    }
}

// ---------------------------------------------------------------------------
// Points and moves

/// A point of the board: 0-based column `x` (left to right) and row `y`
/// (top to bottom), as SGF writes them: letters `a`-`z` are 0-25 and `A`-`Z`
/// are 26-51.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Point {
    pub x: u8,
    pub y: u8,
}

/// A point's coordinate from its letter, as SGF writes it: `a`-`z` 0-25,
/// `A`-`Z` 26-51.
pub(crate) fn letter_value(b: u8) -> Option<u8> {
    match b {
        b'a'..=b'z' => Some(b - b'a'),
        b'A'..=b'Z' => Some(b - b'A' + 26),
        _ => None,
    }
}

fn letter(n: u8) -> char {
    match n {
        0..=25 => (b'a' + n) as char,
        26..=51 => (b'A' + n - 26) as char,
        _ => '?',
    }
}

/// Column letters as Go players write them: `I` is skipped.
const COLUMNS: &[u8; 25] = b"ABCDEFGHJKLMNOPQRSTUVWXYZ";

impl Point {
    pub fn new(x: u8, y: u8) -> Point {
        Point { x, y }
    }

    /// Reads a point: exactly two letters (`dd`, `pQ`). No white space.
    pub fn parse(s: &str) -> Result<Point, ValueError> {
        Point::from_letters(s.as_bytes()).ok_or_else(|| ValueError::new(s, "a point must be two letters a-z or A-Z"))
    }

    /// [`Point::parse`] of a value's bytes, with no error to make: the
    /// reading in hand of the commonest value of a list of points (a
    /// handicap stone, a mark).
    #[inline]
    pub(crate) fn from_letters(value: &[u8]) -> Option<Point> {
        match *value {
            [x, y] => Some(Point { x: letter_value(x)?, y: letter_value(y)? }),
            _ => None,
        }
    }

    /// The point as SGF writes it (`dd`). A coordinate above 51, which no
    /// parsed point has, is written `?`.
    pub fn to_sgf(self) -> String {
        let mut s = String::with_capacity(2);
        s.push(letter(self.x));
        s.push(letter(self.y));
        s
    }

    /// The point as Go players write it on a board `height` rows high:
    /// columns `A`-`T` skipping `I` (continuing `U`-`Z`, then `AA`, `AB`,
    /// ... past 25 columns), rows counted from 1 at the bottom. On 19x19,
    /// `dd` is `D16`, `pd` is `Q16` and `aa` is `A19`. A point below the
    /// board (`y >= height`) has no such name and is given in SGF letters.
    pub fn to_coordinate(self, height: u8) -> String {
        if self.y >= height {
            return self.to_sgf();
        }
        let mut s = String::with_capacity(5);
        // Bijective base 25: A..Z, AA..AZ, BA..
        let mut letters = [0u8; 4];
        let mut len = 0;
        let mut n = u32::from(self.x) + 1;
        while n > 0 {
            n -= 1;
            letters[len] = COLUMNS[(n % 25) as usize];
            len += 1;
            n /= 25;
        }
        for &b in letters[..len].iter().rev() {
            s.push(b as char);
        }
        let _ = write!(s, "{}", height - self.y);
        s
    }

    /// Reads a point as Go players write it on a board `height` rows high
    /// (the inverse of [`Point::to_coordinate`]): `Q16`, `k10` (letters in
    /// either case, no `I`), the row from 1 at the bottom.
    pub fn from_coordinate(s: &str, height: u8) -> Result<Point, ValueError> {
        let digits = s.find(|c: char| c.is_ascii_digit()).unwrap_or(s.len());
        let (letters, row) = s.split_at(digits);
        let not_a_point = || ValueError::new(s, "a point is a column A-T (no I) and a row from 1, e.g. K10");
        if letters.is_empty() || row.is_empty() || !row.bytes().all(|b| b.is_ascii_digit()) {
            return Err(not_a_point());
        }
        let mut x: u32 = 0;
        for b in letters.bytes().map(|b| b.to_ascii_uppercase()) {
            let digit = COLUMNS.iter().position(|&c| c == b).ok_or_else(not_a_point)?;
            x = x.saturating_mul(25).saturating_add(digit as u32 + 1);
        }
        let row: u32 = row.parse().unwrap_or(u32::MAX);
        if x > 52 || row == 0 || row > u32::from(height) {
            return Err(ValueError::new(s, format!("off a board {height} rows high")));
        }
        Ok(Point { x: x as u8 - 1, y: height - row as u8 })
    }
}

impl fmt::Display for Point {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", letter(self.x), letter(self.y))
    }
}

/// A move: a pass or a stone played on a point.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Move {
    Pass,
    Play(Point),
}

/// Reads a `B`/`W` value: empty is a pass, and so is `tt` on boards up to
/// 19x19 (the `FF[3]` habit). Any other two letters are a play, even off the
/// board (the rules layer reports `off-board`); anything else (`a`,
/// `dundefined`, `c c`) is a [`ValueError`].
pub fn parse_move(value: &str, size: BoardSize) -> Result<Move, ValueError> {
    if value.is_empty() || (value == "tt" && size.width <= 19 && size.height <= 19) {
        return Ok(Move::Pass);
    }
    match Point::parse(value) {
        Ok(p) => Ok(Move::Play(p)),
        Err(_) => Err(ValueError::new(value, "a move must be two letters a-z or A-Z, or empty for a pass")),
    }
}

/// A set of points of the largest board, for uniqueness checks: no
/// allocation, 43 words.
#[derive(Clone)]
pub(crate) struct PointSet([u64; 43]);

impl PointSet {
    pub(crate) fn new() -> PointSet {
        PointSet([0; 43])
    }

    /// Adds a point; `false` when it was already there.
    pub(crate) fn insert(&mut self, p: Point) -> bool {
        let i = usize::from(p.y.min(51)) * 52 + usize::from(p.x.min(51));
        let (word, bit) = (i / 64, 1u64 << (i % 64));
        let fresh = self.0[word] & bit == 0;
        self.0[word] |= bit;
        fresh
    }

    pub(crate) fn clear(&mut self) {
        self.0 = [0; 43];
    }
}

/// One value of a list of points: a point or a compressed rectangle
/// `aa:cc` (corners in either order), as `(min corner, max corner)`.
#[inline]
pub fn parse_point_or_rectangle(value: &str) -> Result<(Point, Point), ValueError> {
    // Nearly every value is one point (a handicap stone, a mark): read in
    // the caller, which takes the `Result` apart there, rather than made
    // and returned through memory.
    match Point::from_letters(value.as_bytes()) {
        Some(p) => Ok((p, p)),
        None => parse_rectangle(value),
    }
}

/// [`parse_point_or_rectangle`] of any value but a point's two letters.
#[inline(never)]
fn parse_rectangle(value: &str) -> Result<(Point, Point), ValueError> {
    // A bad point: no look for a ':'.
    if value.len() == 2 {
        return Point::parse(value).map(|p| (p, p));
    }
    if value.is_empty() {
        return Err(ValueError::new(value, "empty value where a point is required"));
    }
    match value.split_once(':') {
        None => Point::parse(value).map(|p| (p, p)),
        Some((a, b)) => match (Point::parse(a), Point::parse(b)) {
            (Ok(a), Ok(b)) => Ok((Point { x: a.x.min(b.x), y: a.y.min(b.y) }, Point { x: a.x.max(b.x), y: a.y.max(b.y) })),
            _ => Err(ValueError::new(value, "a rectangle must be two points joined by ':' (aa:cc)")),
        },
    }
}

/// Reads a list of points (`AB`, `AW`, `AE`, `MA`, `CR`, `SQ`, `TR`, `SL`
/// and the old `L`, `M`...): each value a point or a rectangle `aa:cc`
/// (`FF[4]` compressed point lists, corners in either order). An empty value
/// is an error; use [`parse_elist_of_point`] where `FF[4]` allows one (`VW`,
/// `DD`, `TB`, `TW`). Points come out in the order given, each once.
pub fn parse_point_list<'a>(values: impl Iterator<Item = &'a str>) -> Result<Vec<Point>, ValueError> {
    // A handful of points (handicap stones, a few marks) is looked up in
    // the list itself; a point set (43 words to clear) only for more.
    const FEW: usize = 16;
    let mut seen: Option<PointSet> = None;
    let mut points = Vec::new();
    for value in values {
        let (lo, hi) = parse_point_or_rectangle(value)?;
        for y in lo.y..=hi.y {
            for x in lo.x..=hi.x {
                let p = Point { x, y };
                let fresh = match &mut seen {
                    Some(set) => set.insert(p),
                    None if points.len() < FEW => !points.contains(&p),
                    None => {
                        let mut set = PointSet::new();
                        points.iter().for_each(|&q| {
                            set.insert(q);
                        });
                        seen.insert(set).insert(p)
                    }
                };
                if fresh {
                    points.push(p);
                }
            }
        }
    }
    Ok(points)
}

/// How many points [`parse_point_list`] reads from `values` (each point
/// once), without making the list: no allocation.
pub fn point_list_len<'a>(values: impl Iterator<Item = &'a str>) -> Result<usize, ValueError> {
    let mut seen = PointSet::new();
    let mut count = 0;
    for value in values {
        let (lo, hi) = parse_point_or_rectangle(value)?;
        for y in lo.y..=hi.y {
            for x in lo.x..=hi.x {
                count += usize::from(seen.insert(Point { x, y }));
            }
        }
    }
    Ok(count)
}

/// Reads an "elist of point" (`VW`, `DD`, `TB`, `TW`): a single empty value
/// (`VW[]`: the empty list) or a list of points as [`parse_point_list`]. An
/// empty value among other values is an error.
pub fn parse_elist_of_point<'a>(values: impl Iterator<Item = &'a str> + Clone) -> Result<Vec<Point>, ValueError> {
    let mut count = 0;
    let mut empty = false;
    for v in values.clone() {
        count += 1;
        empty |= v.is_empty();
    }
    if empty {
        return if count == 1 { Ok(Vec::new()) } else { Err(ValueError::new("", "an empty value must be the only value of its property")) };
    }
    parse_point_list(values)
}

// ---------------------------------------------------------------------------
// Board size

/// The board size from `SZ`: `width` columns by `height` rows, each
/// 1..=52. `Default` is 19x19, the size when `SZ` is absent.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
pub struct BoardSize {
    pub width: u8,
    pub height: u8,
}

impl Default for BoardSize {
    fn default() -> BoardSize {
        BoardSize { width: 19, height: 19 }
    }
}

impl BoardSize {
    pub fn square(size: u8) -> BoardSize {
        BoardSize { width: size, height: size }
    }

    /// Reads an `SZ` value: `19`, or `19:13` (`FF[4]`: columns:rows; a square
    /// `19:19` is accepted).
    pub fn parse(s: &str) -> Result<BoardSize, ValueError> {
        let side = |part: &str| -> Result<u8, ValueError> {
            match short_number(part).map_or_else(|| parse_number_text(part.trim()), Ok) {
                Ok(n) if (1..=i64::from(MAX_BOARD_SIZE)).contains(&n) => Ok(n as u8),
                Ok(_) | Err(NumberError::TooLarge) => Err(ValueError::new(s, "board size must be between 1 and 52")),
                Err(NumberError::Syntax) => Err(ValueError::new(s, "board size must be a number, or columns:rows")),
            }
        };
        // `19`, nearly every SZ, needs no look for a ':'.
        if short_number(s).is_some() {
            return side(s).map(BoardSize::square);
        }
        match s.split_once(':') {
            None => side(s).map(BoardSize::square),
            Some((w, h)) => Ok(BoardSize { width: side(w)?, height: side(h)? }),
        }
    }

    /// Whether a point lies on this board.
    pub fn contains(self, p: Point) -> bool {
        p.x < self.width && p.y < self.height
    }
}

impl fmt::Display for BoardSize {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}x{}", self.width, self.height)
    }
}

// ---------------------------------------------------------------------------
// Simple value types

enum NumberError {
    Syntax,
    TooLarge,
}

/// One or two ASCII digits, the commonest Number by far (`19`, `0`, `4`),
/// read directly: what [`parse_number_text`] would read, without its
/// general steps (trim, sign, `str::parse`), which cost more than the rest
/// of checking such a value.
#[inline]
fn short_number(s: &str) -> Option<i64> {
    match *s.as_bytes() {
        [d] if d.is_ascii_digit() => Some(i64::from(d - b'0')),
        [a, b] if a.is_ascii_digit() && b.is_ascii_digit() => Some(i64::from(a - b'0') * 10 + i64::from(b - b'0')),
        _ => None,
    }
}

/// `[+|-]digit{digit}`, without trimming.
fn parse_number_text(s: &str) -> Result<i64, NumberError> {
    let digits = s.strip_prefix(['+', '-']).unwrap_or(s);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(NumberError::Syntax);
    }
    s.parse::<i64>().map_err(|_| NumberError::TooLarge)
}

/// The `GM[]` of a game that is not Go (a number above 1); `None` for Go
/// (`GM[1]`, or no usable `GM`, which FF[4] reads as Go).
pub fn non_go_game_type(root: Node<'_>) -> Option<i64> {
    root.get("GM").and_then(game_type_not_go)
}

/// [`non_go_game_type`] of the root's `GM` property, found in hand.
pub fn game_type_not_go(gm: Property<'_>) -> Option<i64> {
    gm.first().and_then(|v| parse_number(v).ok()).filter(|&n| n > 1)
}

/// Reads a Number: an integer with an optional leading `+` or `-`
/// (surrounding white space is tolerated).
#[inline]
pub fn parse_number(s: &str) -> Result<i64, ValueError> {
    // Read in the caller, which takes the `Result` apart there, rather
    // than made and returned through memory; the rest out of line.
    match short_number(s) {
        Some(n) => Ok(n),
        None => parse_long_number(s),
    }
}

/// [`parse_number`] of any value but one or two digits.
#[inline(never)]
fn parse_long_number(s: &str) -> Result<i64, ValueError> {
    parse_number_text(s.trim()).map_err(|e| match e {
        NumberError::Syntax => ValueError::new(s, "expected a whole number"),
        NumberError::TooLarge => ValueError::new(s, "number out of range"),
    })
}

/// The commonest Reals, a komi (`6.5`, `0.5`, `7`) or a time (`600`): up to
/// four digits, then `.5` or nothing, read directly. Exact: every such
/// value is a whole number or a half in `f64`, as `str::parse` gives it.
#[inline]
fn short_real(s: &str) -> Option<f64> {
    // Up to four digits, then up to two after a point (`6.5`, KGS's `6.50`).
    let b = s.as_bytes();
    let dot = [2, 3].into_iter().find(|&k| b.len() > k && b[b.len() - k] == b'.').map(|k| b.len() - k);
    let (int, frac) = match dot {
        Some(i) => (&b[..i], &b[i + 1..]),
        None => (b, &b[..0]),
    };
    if int.is_empty() || int.len() > 4 || !int.iter().chain(frac).all(u8::is_ascii_digit) {
        return None;
    }
    let n = int.iter().chain(frac).fold(0u32, |n, &d| n * 10 + u32::from(d - b'0'));
    // Both exact, so the quotient is the correctly rounded value of the
    // decimal, as `str::parse` gives.
    Some(f64::from(n) / [1.0, 10.0, 100.0][frac.len()])
}

/// Reads a Real: a Number optionally followed by `.` and digits (`6.5`,
/// `-3`, `375`; not `34.`, `.5`, `1e3` or `5 1/2`).
pub fn parse_real(s: &str) -> Result<f64, ValueError> {
    if let Some(x) = short_real(s) {
        return Ok(x);
    }
    let t = s.trim();
    let unsigned = t.strip_prefix(['+', '-']).unwrap_or(t);
    let (int, frac) = match unsigned.split_once('.') {
        Some((i, f)) => (i, Some(f)),
        None => (unsigned, None),
    };
    let digits = |d: &str| !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit());
    if !digits(int) || frac.is_some_and(|f| !digits(f)) {
        return Err(ValueError::new(s, "expected a number such as 6.5"));
    }
    t.parse::<f64>().map_err(|_| ValueError::new(s, "expected a number such as 6.5"))
}

/// The Double type of annotations (`GB`, `TE`...): normal or emphasised.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Double {
    Normal = 1,
    Emphasized = 2,
}

/// Reads a Double: `1` or `2`.
pub fn parse_double(s: &str) -> Result<Double, ValueError> {
    match s.trim() {
        "1" => Ok(Double::Normal),
        "2" => Ok(Double::Emphasized),
        _ => Err(ValueError::new(s, "expected 1 (normal) or 2 (emphasised)")),
    }
}

/// A player's colour. Serialised as `"B"` or `"W"`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
pub enum Color {
    #[serde(rename = "B")]
    Black,
    #[serde(rename = "W")]
    White,
}

impl Color {
    pub fn as_str(self) -> &'static str {
        match self {
            Color::Black => "B",
            Color::White => "W",
        }
    }

    pub fn opponent(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Reads a Color: `B` or `W` (`FF[4]` says upper case; lower case is
/// accepted).
pub fn parse_color(s: &str) -> Result<Color, ValueError> {
    match s.trim() {
        "B" | "b" => Ok(Color::Black),
        "W" | "w" => Ok(Color::White),
        _ => Err(ValueError::new(s, "expected a colour, B or W")),
    }
}

/// A SimpleText for display: every line break (and tab, vertical tab, form
/// feed) becomes one space. Soft line breaks were already removed when the
/// file was read. Borrows when there is nothing to change.
pub fn parse_simple_text(s: &str) -> Cow<'_, str> {
    if !s.bytes().any(|b| matches!(b, b'\n' | b'\r' | b'\t' | 0x0b | 0x0c)) {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\r' if chars.peek() == Some(&'\n') => {
                chars.next();
                out.push(' ');
            }
            '\n' if chars.peek() == Some(&'\r') => {
                chars.next();
                out.push(' ');
            }
            '\n' | '\r' | '\t' | '\u{0b}' | '\u{0c}' => out.push(' '),
            c => out.push(c),
        }
    }
    Cow::Owned(out)
}

/// A Text for display: line breaks kept (normalised to `\n`), other white
/// space (tab, vertical tab, form feed) shown as a space.
pub fn parse_text(s: &str) -> Cow<'_, str> {
    if !s.bytes().any(|b| matches!(b, b'\r' | b'\t' | 0x0b | 0x0c)) {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\r' => {
                if chars.peek() == Some(&'\n') {
                    chars.next();
                }
                out.push('\n');
            }
            '\t' | '\u{0b}' | '\u{0c}' => out.push(' '),
            c => out.push(c),
        }
    }
    Cow::Owned(out)
}

// ---------------------------------------------------------------------------
// The property catalogue

/// What a property is about (`FF[4]` "property type", with the Go-specific
/// and `FF[1]-FF[3]` properties filed where they belong).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PropKind {
    Root,
    GameInfo,
    Move,
    Setup,
    NodeAnnotation,
    MoveAnnotation,
    Markup,
    Timing,
    Misc,
}

/// The value type of a property (`FF[4]` "property value").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ValueType {
    /// The value must be empty: `KO[]`, `DO[]`, `IT[]`.
    None,
    Number,
    Real,
    Double,
    Color,
    SimpleText,
    Text,
    Point,
    Move,
    Stone,
    /// Points or rectangles `aa:cc`; no empty value.
    ListOfPoint,
    /// As `ListOfPoint` (in Go a stone is a point).
    ListOfStone,
    /// A lone empty value, or a list of points.
    ElistOfPoint,
    /// `point:point` (`AR`, `LN`).
    ComposedPointPoint,
    /// `point:simpletext` (`LB`).
    ComposedPointSimpleText,
    /// `SZ`: a Number, or `Number:Number` (columns:rows).
    ComposedNumberNumber,
    /// `AP`: `name:version`.
    ComposedSimpleTextSimpleText,
    /// `FG`: empty, or `Number:SimpleText`.
    Figure,
}

/// One entry of the property catalogue.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PropInfo {
    pub id: &'static str,
    /// What the identifier stands for, e.g. "Add Black".
    pub name: &'static str,
    pub kind: PropKind,
    pub value: ValueType,
    /// Whether the property takes more than one value.
    pub list: bool,
    /// An `FF[1]-FF[3]` property that `FF[4]` dropped.
    pub old: bool,
}

macro_rules! catalogue {
    ($($id:literal, $name:literal, $kind:ident, $value:ident, $list:literal, $old:literal;)*) => {
        /// Every property kifu knows, sorted by identifier.
        pub static PROPERTIES: &[PropInfo] = &[
            $(PropInfo { id: $id, name: $name, kind: PropKind::$kind, value: ValueType::$value, list: $list, old: $old },)*
        ];
    };
}

catalogue! {
    "AB", "Add Black", Setup, ListOfStone, true, false;
    "AE", "Add Empty", Setup, ListOfPoint, true, false;
    "AN", "Annotator", GameInfo, SimpleText, false, false;
    "AP", "Application", Root, ComposedSimpleTextSimpleText, false, false;
    "AR", "Arrow", Markup, ComposedPointPoint, true, false;
    "AW", "Add White", Setup, ListOfStone, true, false;
    "B", "Black move", Move, Move, false, false;
    "BL", "Black time left", Timing, Real, false, false;
    "BM", "Bad move", MoveAnnotation, Double, false, false;
    "BR", "Black rank", GameInfo, SimpleText, false, false;
    "BS", "Black species", GameInfo, Number, false, true;
    "BT", "Black team", GameInfo, SimpleText, false, false;
    "C", "Comment", NodeAnnotation, Text, false, false;
    "CA", "Charset", Root, SimpleText, false, false;
    "CH", "Check mark", NodeAnnotation, Double, false, true;
    "CP", "Copyright", GameInfo, SimpleText, false, false;
    "CR", "Circle", Markup, ListOfPoint, true, false;
    "DD", "Dim points", Markup, ElistOfPoint, true, false;
    "DM", "Even position", NodeAnnotation, Double, false, false;
    "DO", "Doubtful move", MoveAnnotation, None, false, false;
    "DT", "Date", GameInfo, SimpleText, false, false;
    "EL", "Evaluation of a computer move", Misc, Number, false, true;
    "EV", "Event", GameInfo, SimpleText, false, false;
    "EX", "Expected move", Misc, Move, false, true;
    "FF", "File format", Root, Number, false, false;
    "FG", "Figure", Misc, Figure, false, false;
    "GB", "Good for Black", NodeAnnotation, Double, false, false;
    "GC", "Game comment", GameInfo, Text, false, false;
    "GM", "Game", Root, Number, false, false;
    "GN", "Game name", GameInfo, SimpleText, false, false;
    "GW", "Good for White", NodeAnnotation, Double, false, false;
    "HA", "Handicap", GameInfo, Number, false, false;
    "HO", "Hotspot", NodeAnnotation, Double, false, false;
    "ID", "Game identifier", GameInfo, SimpleText, false, true;
    "IT", "Interesting move", MoveAnnotation, None, false, false;
    "KI", "Integer komi", GameInfo, Number, false, true;
    "KM", "Komi", GameInfo, Real, false, false;
    "KO", "Ko: play even if illegal", Move, None, false, false;
    "L", "Letters", Markup, ListOfPoint, true, true;
    "LB", "Label", Markup, ComposedPointSimpleText, true, false;
    "LN", "Line", Markup, ComposedPointPoint, true, false;
    "LT", "Lose on time enforced", Timing, None, false, true;
    "M", "Mark", Markup, ListOfPoint, true, true;
    "MA", "Mark", Markup, ListOfPoint, true, false;
    "MN", "Move number", Move, Number, false, false;
    "N", "Node name", NodeAnnotation, SimpleText, false, false;
    "OB", "Overtime stones left, Black", Timing, Number, false, false;
    "OM", "Moves per overtime period", Timing, Number, false, true;
    "ON", "Opening", GameInfo, SimpleText, false, false;
    "OP", "Overtime period length", Timing, Real, false, true;
    "OT", "Overtime", GameInfo, SimpleText, false, false;
    "OV", "Operator overhead", Timing, Real, false, true;
    "OW", "Overtime stones left, White", Timing, Number, false, false;
    "PB", "Player Black", GameInfo, SimpleText, false, false;
    "PC", "Place", GameInfo, SimpleText, false, false;
    "PL", "Player to play", Setup, Color, false, false;
    "PM", "Print move mode", Misc, Number, false, false;
    "PW", "Player White", GameInfo, SimpleText, false, false;
    "RE", "Result", GameInfo, SimpleText, false, false;
    "RG", "Region", Markup, ListOfPoint, true, true;
    "RO", "Round", GameInfo, SimpleText, false, false;
    "RU", "Rules", GameInfo, SimpleText, false, false;
    "SC", "Secure stones", Markup, ListOfPoint, true, true;
    "SE", "Self-test moves", Markup, ListOfPoint, true, true;
    "SI", "Sigma", NodeAnnotation, Double, false, true;
    "SL", "Selected", Markup, ListOfPoint, true, false;
    "SO", "Source", GameInfo, SimpleText, false, false;
    "SQ", "Square", Markup, ListOfPoint, true, false;
    "ST", "Style of variations", Root, Number, false, false;
    "SZ", "Board size", Root, ComposedNumberNumber, false, false;
    "TB", "Territory Black", Markup, ElistOfPoint, true, false;
    "TC", "Territory count", Misc, Number, false, true;
    "TE", "Tesuji (good move)", MoveAnnotation, Double, false, false;
    "TM", "Time limit", GameInfo, Real, false, false;
    "TR", "Triangle", Markup, ListOfPoint, true, false;
    "TW", "Territory White", Markup, ElistOfPoint, true, false;
    "UC", "Unclear position", NodeAnnotation, Double, false, false;
    "US", "User", GameInfo, SimpleText, false, false;
    "V", "Value", NodeAnnotation, Real, false, false;
    "VW", "View", Misc, ElistOfPoint, true, false;
    "W", "White move", Move, Move, false, false;
    "WL", "White time left", Timing, Real, false, false;
    "WR", "White rank", GameInfo, SimpleText, false, false;
    "WS", "White species", GameInfo, Number, false, true;
    "WT", "White team", GameInfo, SimpleText, false, false;
}

/// Looks a property up by its (normalised) identifier: every general and
/// Go-specific `FF[4]` property, and the `FF[1]-FF[3]` ones still found in
/// archives (`old`).
pub fn property_info(id: &str) -> Option<&'static PropInfo> {
    property_info_by_code(PropId::new(id))
}

/// [`property_info`] by the identifier's number (see [`PropId`]): every
/// catalogued identifier is one or two upper-case letters, so
/// [`PropId::OTHER`] is none of them.
pub fn property_info_by_code(code: PropId) -> Option<&'static PropInfo> {
    // The catalogue's index (plus one; 0 for none) by identifier, built at
    // compile time: a look-up is one load, with no test that it is built.
    static BY_CODE: [u8; PropId::NUMBERED] = {
        let mut table = [0; PropId::NUMBERED];
        let mut i = 0;
        while i < PROPERTIES.len() {
            let Some(slot) = PropId::new(PROPERTIES[i].id).index() else { panic!("catalogued identifiers are numbered") };
            assert!(i < 255, "fewer than 255 properties");
            table[slot] = i as u8 + 1;
            i += 1;
        }
        table
    };
    let i = usize::from(BY_CODE[code.index()?]);
    i.checked_sub(1).map(|i| &PROPERTIES[i])
}

/// Checks that one value of a known property has the form its type
/// requires, with the ranges `FF[4]` sets for Go (`SZ` 1..=52, `FF` 1..=4,
/// `GM` >= 1, `ST` 0..=3, `PM` 0..=2, `HA` >= 0). An empty value of an
/// elist is accepted here (whether it stands alone is the caller's
/// business). Points are not checked against the board. The error message
/// starts with the identifier: `SZ[0]: ...`.
pub fn check_value(info: &PropInfo, value: &str, size: BoardSize) -> Result<(), ValueError> {
    let checked = match info.value {
        ValueType::None => {
            if value.trim().is_empty() {
                Ok(())
            } else {
                Err(ValueError::new(value, format_args!("{} takes no value (write {}[])", info.id, info.id)))
            }
        }
        ValueType::Number => parse_number(value).and_then(|n| check_range(info.id, value, n)),
        ValueType::Real => parse_real(value).map(drop),
        ValueType::Double => parse_double(value).map(drop),
        ValueType::Color => parse_color(value).map(drop),
        ValueType::SimpleText | ValueType::Text => Ok(()),
        ValueType::Point | ValueType::Stone => Point::parse(value).map(drop),
        ValueType::Move => parse_move(value, size).map(drop),
        ValueType::ListOfPoint | ValueType::ListOfStone | ValueType::ElistOfPoint => point_list_value(info.value, value).map(drop),
        ValueType::ComposedPointPoint => match value.split_once(':') {
            None => Err(ValueError::new(value, "expected two points joined by ':' (aa:cc)")),
            Some((a, b)) => match (Point::parse(a), Point::parse(b)) {
                (Ok(a), Ok(b)) if a == b => Err(ValueError::new(value, "start and end point must differ")),
                (Ok(_), Ok(_)) => Ok(()),
                _ => Err(ValueError::new(value, "expected two points joined by ':' (aa:cc)")),
            },
        },
        ValueType::ComposedPointSimpleText => match value.split_once(':') {
            None => Err(ValueError::new(value, "expected a point, ':' and a label (aa:text)")),
            Some((p, _)) => Point::parse(p).map(drop).map_err(|_| ValueError::new(value, "expected a point, ':' and a label (aa:text)")),
        },
        ValueType::ComposedNumberNumber => BoardSize::parse(value).map(drop),
        ValueType::ComposedSimpleTextSimpleText => match value.split_once(':') {
            Some(_) => Ok(()),
            None => Err(ValueError::new(value, "expected name:version, the ':' is missing")),
        },
        ValueType::Figure => {
            if value.is_empty() {
                Ok(())
            } else {
                match value.split_once(':') {
                    Some((n, _)) if parse_number(n).is_ok() => Ok(()),
                    _ => Err(ValueError::new(value, "expected an empty value or flags:name (a number, ':' and a name)")),
                }
            }
        }
    };
    checked.map_err(|e| e.for_property(info.id))
}

/// [`check_value`] of a value of a list of points (`info.value` is
/// `ListOfPoint`, `ListOfStone` or `ElistOfPoint`), with the points it
/// names, as `(min corner, max corner)`: `None` for an empty `ElistOfPoint`.
pub(crate) fn check_point_list_value(info: &PropInfo, value: &str) -> Result<Option<(Point, Point)>, ValueError> {
    debug_assert!(matches!(info.value, ValueType::ListOfPoint | ValueType::ListOfStone | ValueType::ElistOfPoint));
    point_list_value(info.value, value).map_err(|e| e.for_property(info.id))
}

fn point_list_value(kind: ValueType, value: &str) -> Result<Option<(Point, Point)>, ValueError> {
    if kind == ValueType::ElistOfPoint && value.is_empty() {
        return Ok(None);
    }
    parse_point_or_rectangle(value).map(Some)
}

fn check_range(id: &str, value: &str, n: i64) -> Result<(), ValueError> {
    let (range, what) = match id {
        "FF" => (1..=4, "file format must be between 1 and 4"),
        "GM" => (1..=i64::MAX, "game type must be 1 or more (1 is Go)"),
        "ST" => (0..=3, "style must be between 0 and 3"),
        "PM" => (0..=2, "print mode must be 0, 1 or 2"),
        "HA" => (0..=i64::MAX, "handicap cannot be negative"),
        _ => return Ok(()),
    };
    if range.contains(&n) { Ok(()) } else { Err(ValueError::new(value, what)) }
}

// ---------------------------------------------------------------------------
// Game-info getters

/// Reads the first value of `id` as `parse` does, prefixing errors with
/// the identifier.
fn typed<'a, T>(node: &Node<'a>, id: &str, parse: impl FnOnce(&'a str) -> Result<T, ValueError>) -> Result<Option<T>, ValueError> {
    match node.get_value(id) {
        None => Ok(None),
        Some(v) => parse(v).map(Some).map_err(|e| e.for_property(id)),
    }
}

fn number_in_range<'a>(node: &Node<'a>, id: &str) -> Result<Option<i64>, ValueError> {
    typed(node, id, |v| parse_number(v).and_then(|n| check_range(id, v, n).map(|()| n)))
}

fn text_of<'a>(node: &Node<'a>, id: &str) -> Option<Cow<'a, str>> {
    let v = node.get_value(id)?;
    if v.trim().is_empty() { None } else { Some(parse_simple_text(v)) }
}

/// `SZ`: the board size; 19x19 when absent.
pub fn board_size(node: Node<'_>) -> Result<BoardSize, ValueError> {
    board_size_of(node.get("SZ"))
}

/// [`board_size`] of a node's `SZ` property, found in hand (`None`: the
/// node has none).
#[inline(always)]
pub fn board_size_of(sz: Option<Property<'_>>) -> Result<BoardSize, ValueError> {
    match sz.and_then(|p| p.values().next()) {
        None => Ok(BoardSize::default()),
        // `SZ[19]`, nearly every game's (the checks, the replay and the
        // fingerprint each ask): its bytes, with no look at them as text,
        // in the caller, which takes the `Result` apart there.
        Some(v) if v.bytes() == b"19" => Ok(BoardSize::square(19)),
        Some(v) => board_size_in(v),
    }
}

/// [`board_size_of`] of any value but `19`.
#[inline(never)]
fn board_size_in(sz: Value<'_>) -> Result<BoardSize, ValueError> {
    BoardSize::parse(sz.text()).map_err(|e| e.for_property("SZ"))
}

/// `KM`: the komi, as written (a Real).
pub fn komi(node: Node<'_>) -> Result<Option<f64>, ValueError> {
    typed(&node, "KM", parse_real)
}

/// `HA`: the number of handicap stones.
pub fn handicap(node: Node<'_>) -> Result<Option<i64>, ValueError> {
    node.get("HA").map_or(Ok(None), handicap_of)
}

/// [`handicap`] of a node's `HA` property, found in hand.
pub fn handicap_of(ha: Property<'_>) -> Result<Option<i64>, ValueError> {
    match ha.first() {
        None => Ok(None),
        Some(v) => parse_number(v).and_then(|n| check_range("HA", v, n).map(|()| n)).map(Some).map_err(|e| e.for_property("HA")),
    }
}

/// `RE`: the result as written (parsing it is another module's job).
pub fn result(node: Node<'_>) -> Option<Cow<'_, str>> {
    text_of(&node, "RE")
}

/// `RU`: the rules as written.
pub fn rules(node: Node<'_>) -> Option<Cow<'_, str>> {
    text_of(&node, "RU")
}

/// `PB`: Black's name. Game-info texts are SimpleText: line breaks read as
/// spaces; an empty value reads as absent.
pub fn player_black(node: Node<'_>) -> Option<Cow<'_, str>> {
    text_of(&node, "PB")
}

/// `PW`: White's name.
pub fn player_white(node: Node<'_>) -> Option<Cow<'_, str>> {
    text_of(&node, "PW")
}

/// `BR`: Black's rank.
pub fn rank_black(node: Node<'_>) -> Option<Cow<'_, str>> {
    text_of(&node, "BR")
}

/// `WR`: White's rank.
pub fn rank_white(node: Node<'_>) -> Option<Cow<'_, str>> {
    text_of(&node, "WR")
}

/// `DT`: the date as written.
pub fn date(node: Node<'_>) -> Option<Cow<'_, str>> {
    text_of(&node, "DT")
}

/// `GM`: the game type; 1 (Go) when absent.
pub fn game_type(node: Node<'_>) -> Result<i64, ValueError> {
    number_in_range(&node, "GM").map(|n| n.unwrap_or(1))
}

/// `FF`: the file format, 1..=4; 1 when absent.
pub fn file_format(node: Node<'_>) -> Result<i64, ValueError> {
    number_in_range(&node, "FF").map(|n| n.unwrap_or(1))
}

/// `PL`: who plays next.
pub fn player_to_move(node: Node<'_>) -> Result<Option<Color>, ValueError> {
    typed(&node, "PL", parse_color)
}

// ---------------------------------------------------------------------------
// Summary

/// One move of the main line, as written.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct MoveEntry {
    pub color: Color,
    /// The SGF letters as written (`"pd"`); `None` for a pass. A value
    /// that is not a move keeps its text here.
    pub point: Option<String>,
}

/// What `kifu info` shows about one game. The JSON field names are a
/// public contract.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Summary {
    /// From `SZ`; 19x19 when absent or unreadable.
    pub board_size: BoardSize,
    pub black: Option<String>,
    pub white: Option<String>,
    pub black_rank: Option<String>,
    pub white_rank: Option<String>,
    /// `KM` as written; `None` when absent or unreadable.
    pub komi: Option<f64>,
    pub handicap: Option<i64>,
    pub rules: Option<String>,
    pub date: Option<String>,
    pub result: Option<String>,
    /// Every `B` and `W` property with a value on the main line, root
    /// included, in order.
    pub moves: Vec<MoveEntry>,
}

/// Summarises a game from its root's game info and its main line. Never
/// fails: unreadable values are left out (or, for moves, kept as text).
pub fn summary(game: &GameTree) -> Summary {
    let root = game.root();
    let board_size = board_size(root).unwrap_or_default();
    let owned = |c: Option<Cow<'_, str>>| c.map(Cow::into_owned);
    let mut moves = Vec::new();
    for node in game.main_line() {
        for prop in node.properties() {
            let color = match prop.id() {
                "B" => Color::Black,
                "W" => Color::White,
                _ => continue,
            };
            let Some(value) = prop.first() else { continue };
            let point = match parse_move(value, board_size) {
                Ok(Move::Pass) => None,
                _ => Some(value.to_string()),
            };
            moves.push(MoveEntry { color, point });
        }
    }
    Summary {
        board_size,
        black: owned(player_black(root)),
        white: owned(player_white(root)),
        black_rank: owned(rank_black(root)),
        white_rank: owned(rank_white(root)),
        komi: komi(root).ok().flatten(),
        handicap: handicap(root).ok().flatten(),
        rules: owned(rules(root)),
        date: owned(date(root)),
        result: owned(result(root)),
        moves,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sgf::parse_str;
    use proptest::prelude::*;

    fn game(sgf: &str) -> GameTree {
        let parsed = parse_str(sgf);
        parsed.collection.games.into_iter().next().expect("one game")
    }

    fn pt(s: &str) -> Point {
        Point::parse(s).unwrap()
    }

    #[test]
    fn points_parse_and_write() {
        assert_eq!(pt("aa"), Point { x: 0, y: 0 });
        assert_eq!(pt("pd"), Point { x: 15, y: 3 });
        assert_eq!(pt("zA"), Point { x: 25, y: 26 });
        assert_eq!(pt("ZZ"), Point { x: 51, y: 51 });
        assert_eq!(pt("pd").to_sgf(), "pd");
        assert_eq!(Point::new(26, 51).to_sgf(), "AZ");
        assert_eq!(Point::new(52, 200).to_sgf(), "??");
        assert_eq!(pt("Qr").to_string(), "Qr");
        for bad in ["", "a", "abc", "a1", "c c", " cc", "äb", "[]"] {
            let e = Point::parse(bad).unwrap_err();
            assert!(e.message.contains("two letters"), "{bad:?}: {e}");
        }
    }

    #[test]
    fn coordinates_read_back() {
        for (text, height, sgf) in
            [("D16", 19, "dd"), ("q16", 19, "pd"), ("A19", 19, "aa"), ("T1", 19, "ss"), ("J11", 19, "ii"), ("E5", 9, "ee"), ("AA52", 52, "za")]
        {
            assert_eq!(Point::from_coordinate(text, height).map(Point::to_sgf), Ok(sgf.to_string()), "{text}");
        }
        for bad in ["I5", "K0", "K20", "10", "K", "K1x", "dd", ""] {
            assert!(Point::from_coordinate(bad, 19).is_err(), "{bad}");
        }
    }

    #[test]
    fn coordinates_as_players_write_them() {
        assert_eq!(pt("dd").to_coordinate(19), "D16");
        assert_eq!(pt("pd").to_coordinate(19), "Q16");
        assert_eq!(pt("aa").to_coordinate(19), "A19");
        assert_eq!(pt("ss").to_coordinate(19), "T1");
        assert_eq!(pt("ii").to_coordinate(19), "J11");
        assert_eq!(pt("ee").to_coordinate(9), "E5");
        // Past 25 columns: Z, then AA, AB, ... AZ, BA, BB.
        assert_eq!(pt("ya").to_coordinate(52), "Z52");
        assert_eq!(pt("za").to_coordinate(52), "AA52");
        assert_eq!(pt("Aa").to_coordinate(52), "AB52");
        assert_eq!(pt("Xa").to_coordinate(52), "AZ52");
        assert_eq!(pt("Ya").to_coordinate(52), "BA52");
        assert_eq!(pt("ZZ").to_coordinate(52), "BB1");
        // Below the board: no such coordinate, SGF letters instead.
        assert_eq!(pt("ak").to_coordinate(9), "ak");
    }

    #[test]
    fn moves() {
        let b19 = BoardSize::default();
        let b21 = BoardSize::square(21);
        assert_eq!(parse_move("", b19), Ok(Move::Pass));
        assert_eq!(parse_move("", b21), Ok(Move::Pass));
        assert_eq!(parse_move("tt", b19), Ok(Move::Pass));
        assert_eq!(parse_move("tt", BoardSize { width: 19, height: 9 }), Ok(Move::Pass));
        assert_eq!(parse_move("tt", b21), Ok(Move::Play(Point::new(19, 19))));
        assert_eq!(parse_move("tt", BoardSize { width: 20, height: 9 }), Ok(Move::Play(Point::new(19, 19))));
        assert_eq!(parse_move("pd", b19), Ok(Move::Play(pt("pd"))));
        // Off the board is still a move; the rules layer reports it.
        assert_eq!(parse_move("zz", b19), Ok(Move::Play(Point::new(25, 25))));
        for bad in ["a", "dundefined", "c   c", "90", " ", "pd "] {
            let e = parse_move(bad, b19).unwrap_err();
            assert!(e.message.contains("a move must be two letters"), "{bad:?}: {e}");
        }
        assert_eq!(parse_move("a", b19).unwrap_err().message, "[a]: a move must be two letters a-z or A-Z, or empty for a pass");
    }

    #[test]
    fn point_lists_and_rectangles() {
        let list = |v: &[&str]| parse_point_list(v.iter().copied());
        assert_eq!(list(&["aa", "bb"]).unwrap(), [pt("aa"), pt("bb")]);
        let square = list(&["aa:bb"]).unwrap();
        assert_eq!(square, [pt("aa"), pt("ba"), pt("ab"), pt("bb")]);
        assert_eq!(list(&["bb:aa"]).unwrap(), square);
        assert_eq!(list(&["ba:ab"]).unwrap(), square);
        assert_eq!(list(&["ab:ba"]).unwrap(), square);
        assert_eq!(list(&["aa:ss"]).unwrap().len(), 361);
        assert_eq!(list(&["aa:ZZ", "aa:ZZ"]).unwrap().len(), 52 * 52);
        // Each point once, in first-seen order.
        assert_eq!(list(&["bb", "aa:bb"]).unwrap(), [pt("bb"), pt("aa"), pt("ba"), pt("ab")]);
        assert_eq!(list(&[]).unwrap(), []);
        assert!(list(&[""]).unwrap_err().message.contains("empty value"));
        assert!(list(&["aa", "a"]).is_err());
        assert!(list(&["aa:"]).unwrap_err().message.contains("rectangle"));
        assert!(list(&["a a: c r"]).is_err());
        assert!(list(&["aa:bb:cc"]).is_err());
    }

    #[test]
    fn point_list_len_counts_what_the_list_holds() {
        let lists: &[&[&str]] = &[
            &["aa", "bb"],
            &["aa:bb"],
            &["bb", "aa:bb"],
            &["dd", "pd", "dp", "pp", "jj", "dd"],
            &["aa:ss"],
            &["aa:ZZ", "aa:ZZ"],
            &[],
            &[""],
            &["aa", "a"],
            &["aa:"],
        ];
        for &list in lists {
            let read = parse_point_list(list.iter().copied()).map(|v| v.len()).map_err(|e| e.message);
            assert_eq!(point_list_len(list.iter().copied()).map_err(|e| e.message), read, "{list:?}");
        }
    }

    #[test]
    fn elists() {
        let elist = |v: &[&str]| parse_elist_of_point(v.iter().copied());
        assert_eq!(elist(&[""]).unwrap(), []);
        assert_eq!(elist(&["aa:ab"]).unwrap(), [pt("aa"), pt("ab")]);
        assert!(elist(&["", "aa"]).unwrap_err().message.contains("only value"));
        assert!(elist(&["aa", ""]).is_err());
        assert!(elist(&["x"]).is_err());
    }

    #[test]
    fn board_sizes() {
        assert_eq!(BoardSize::parse("19"), Ok(BoardSize::square(19)));
        assert_eq!(BoardSize::parse(" 9 "), Ok(BoardSize::square(9)));
        assert_eq!(BoardSize::parse("19:13"), Ok(BoardSize { width: 19, height: 13 }));
        assert_eq!(BoardSize::parse("19:19"), Ok(BoardSize::square(19)));
        assert_eq!(BoardSize::parse("1"), Ok(BoardSize::square(1)));
        assert_eq!(BoardSize::parse("52:1"), Ok(BoardSize { width: 52, height: 1 }));
        for bad in ["0", "-10", "200", "53", "10:53", "0:5", "99999999999999999999999"] {
            let e = BoardSize::parse(bad).unwrap_err();
            assert_eq!(e.message, format!("[{bad}]: board size must be between 1 and 52"));
        }
        for bad in ["", "abc", "19:", ":19", "19x19", "1 9", "19:13:1"] {
            let e = BoardSize::parse(bad).unwrap_err();
            assert!(e.message.ends_with("board size must be a number, or columns:rows"), "{bad:?}: {e}");
        }
        assert_eq!(BoardSize::default().to_string(), "19x19");
        assert!(BoardSize::square(9).contains(pt("ii")));
        assert!(!BoardSize::square(9).contains(pt("ij")));
        assert!(!BoardSize { width: 9, height: 13 }.contains(pt("ja")));
    }

    #[test]
    fn short_readings_agree_with_the_general_ones() {
        let cases = [
            "0", "7", "19", "07", "00", "99", "6.5", "0.5", "375", "1000.5", "9999", "12345", "6.", ".5", "6.50", "0.50", "0.25", "7.05", "9999.99", "3.141",
            "1.2.3", "6..5", "a", "", "1a", "-1", "+2", " 3", "5.5 ",
        ];
        for s in cases {
            if let Some(n) = short_number(s) {
                assert_eq!(parse_number_text(s.trim()).ok(), Some(n), "{s}");
            }
            if let Some(x) = short_real(s) {
                assert_eq!(s.trim().parse::<f64>().ok(), Some(x), "{s}");
            }
        }
        assert_eq!(short_number("19"), Some(19));
        assert_eq!(short_real("6.5"), Some(6.5));
        assert_eq!(short_real("5.50"), Some(5.5));
        assert_eq!(short_real("12345"), None);
    }

    #[test]
    fn numbers_and_reals() {
        assert_eq!(parse_number("12"), Ok(12));
        assert_eq!(parse_number("07"), Ok(7));
        assert_eq!(parse_number("0"), Ok(0));
        assert_eq!(parse_number("+5"), Ok(5));
        assert_eq!(parse_number("-3"), Ok(-3));
        assert_eq!(parse_number(" 7\n"), Ok(7));
        for bad in ["", "x", "+", "-", "1.5", "1 2", "1e3", "0x10"] {
            assert_eq!(parse_number(bad).unwrap_err().message, format!("[{}]: expected a whole number", bad.replace('\n', " ")));
        }
        assert_eq!(parse_number("99999999999999999999").unwrap_err().message, "[99999999999999999999]: number out of range");

        assert_eq!(parse_real("6.5"), Ok(6.5));
        assert_eq!(parse_real("-3"), Ok(-3.0));
        assert_eq!(parse_real("375"), Ok(375.0));
        assert_eq!(parse_real("+0.50"), Ok(0.5));
        assert_eq!(parse_real(" 0.00 "), Ok(0.0));
        for bad in ["", "5 1/2", "34.", ".5", "1e3", "inf", "NaN", "6,5", "9 hours", "-", "+.5"] {
            let e = parse_real(bad).unwrap_err();
            assert!(e.message.ends_with("expected a number such as 6.5"), "{bad:?}: {e}");
        }
    }

    #[test]
    fn doubles_colors_texts() {
        assert_eq!(parse_double("1"), Ok(Double::Normal));
        assert_eq!(parse_double("2"), Ok(Double::Emphasized));
        for bad in ["", "0", "3", "x"] {
            assert!(parse_double(bad).is_err(), "{bad:?}");
        }
        assert_eq!(parse_color("B"), Ok(Color::Black));
        assert_eq!(parse_color("w"), Ok(Color::White));
        assert_eq!(parse_color("b"), Ok(Color::Black));
        assert_eq!(parse_color("W"), Ok(Color::White));
        assert_eq!(parse_color("w 123").unwrap_err().message, "[w 123]: expected a colour, B or W");
        assert!(parse_color("").is_err());
        assert!(parse_color("Black").is_err());
        assert_eq!(Color::Black.opponent(), Color::White);
        assert_eq!(Color::White.to_string(), "W");

        assert!(matches!(parse_simple_text("plain"), Cow::Borrowed("plain")));
        assert_eq!(parse_simple_text("a\nb\r\nc\rd\te"), "a b c d e");
        assert_eq!(parse_simple_text("a\n\rb"), "a b");
        assert!(matches!(parse_text("two\nlines"), Cow::Borrowed(_)));
        assert_eq!(parse_text("a\r\nb\rc\td"), "a\nb\nc d");
    }

    #[test]
    fn error_messages_are_one_line_and_short() {
        let long = format!("{}\n]x", "y".repeat(50));
        let e = parse_number(&long).unwrap_err();
        assert!(!e.message.contains('\n'));
        assert!(e.message.starts_with(&format!("[{}...]", "y".repeat(40))), "{e}");
        let e = parse_number("a]b\\c").unwrap_err();
        assert_eq!(e.message, "[a\\]b\\\\c]: expected a whole number");
        assert_eq!(e.clone().for_property("HA").to_string(), "HA[a\\]b\\\\c]: expected a whole number");
        let boxed: Box<dyn std::error::Error> = Box::new(e);
        assert!(boxed.to_string().contains("whole number"));
    }

    #[test]
    fn catalogue_is_sorted_and_complete() {
        for pair in PROPERTIES.windows(2) {
            assert!(pair[0].id < pair[1].id, "{} before {}", pair[0].id, pair[1].id);
        }
        let ff4 = "B KO MN W AB AE AW PL C DM GB GW HO N UC V BM DO IT TE AR CR DD LB LN MA SL SQ TR \
                   AP CA FF GM ST SZ AN BR BT CP DT EV GN GC ON OT PB PC PW RE RO RU SO TM US WR WT \
                   BL OB OW WL FG PM VW HA KM TB TW";
        for id in ff4.split_whitespace() {
            let info = property_info(id).unwrap_or_else(|| panic!("{id} missing"));
            assert!(!info.old, "{id}");
            assert_eq!(info.id, id);
        }
        let old = "BS WS CH SI EL EX ID KI L M OM OP OV LT RG SC SE TC";
        for id in old.split_whitespace() {
            assert!(property_info(id).unwrap_or_else(|| panic!("{id} missing")).old, "{id}");
        }
        assert_eq!(PROPERTIES.len(), ff4.split_whitespace().count() + old.split_whitespace().count());
        assert!(property_info("XX").is_none());
        assert!(property_info("").is_none());
        assert!(property_info("b").is_none());
        assert!(property_info("ABC").is_none());
        assert!(PROPERTIES.iter().all(|p| PropId::new(p.id) != PropId::OTHER), "every identifier has a number");
        let sz = property_info("SZ").unwrap();
        assert_eq!((sz.kind, sz.value, sz.list), (PropKind::Root, ValueType::ComposedNumberNumber, false));
        let ab = property_info("AB").unwrap();
        assert_eq!((ab.kind, ab.value, ab.list), (PropKind::Setup, ValueType::ListOfStone, true));
        let tb = property_info("TB").unwrap();
        assert_eq!(tb.value, ValueType::ElistOfPoint);
        assert_eq!(property_info("KM").unwrap().kind, PropKind::GameInfo);
        assert_eq!(property_info("BL").unwrap().kind, PropKind::Timing);
        assert_eq!(property_info("TE").unwrap().kind, PropKind::MoveAnnotation);
        assert_eq!(property_info("AP").unwrap().value, ValueType::ComposedSimpleTextSimpleText);
        assert_eq!(property_info("FG").unwrap().value, ValueType::Figure);
    }

    #[test]
    fn check_value_by_type() {
        let size = BoardSize::default();
        let ok = |id: &str, v: &str| check_value(property_info(id).unwrap(), v, size).is_ok();
        let err = |id: &str, v: &str| check_value(property_info(id).unwrap(), v, size).unwrap_err().message;
        assert!(ok("KO", "") && ok("DO", "") && ok("IT", " "));
        assert_eq!(err("KO", "xxxx"), "KO[xxxx]: KO takes no value (write KO[])");
        assert!(ok("MN", "-2") && ok("OB", "3"));
        assert!(!ok("OB", "1 kk"));
        assert!(ok("FF", "4") && ok("FF", "1"));
        assert_eq!(err("FF", "7"), "FF[7]: file format must be between 1 and 4");
        assert_eq!(err("GM", "game of go"), "GM[game of go]: expected a whole number");
        assert!(ok("GM", "12") && !ok("GM", "0"));
        assert!(ok("ST", "3") && !ok("ST", "4"));
        assert!(ok("PM", "0") && !ok("PM", "3"));
        assert!(ok("HA", "0") && ok("HA", "9"));
        assert_eq!(err("HA", "-1"), "HA[-1]: handicap cannot be negative");
        assert_eq!(err("HA", "x"), "HA[x]: expected a whole number");
        assert!(ok("KM", "6.5") && !ok("KM", "5 1/2") && !ok("TM", "9 hours") && !ok("BL", "34."));
        assert!(ok("DM", "1") && !ok("DM", ""));
        assert!(ok("PL", "W") && !ok("PL", "w 123"));
        assert!(ok("C", "") && ok("PB", "anything [at] all"));
        assert!(ok("B", "") && ok("B", "tt") && ok("W", "zz"));
        assert_eq!(err("B", "a"), "B[a]: a move must be two letters a-z or A-Z, or empty for a pass");
        assert!(!ok("B", "c   c") && !ok("B", "90"));
        assert!(ok("AB", "aa") && ok("AB", "aa:cc") && !ok("AW", "") && !ok("AE", "a"));
        assert!(ok("VW", "") && ok("TB", "") && ok("DD", "aa:bb") && !ok("VW", "x"));
        assert!(ok("AR", "aa:cr") && ok("LN", "ab:cd"));
        assert_eq!(err("AR", "a a: c r"), "AR[a a: c r]: expected two points joined by ':' (aa:cc)");
        assert!(err("AR", "aa").contains("joined by ':'"));
        assert!(err("LN", "aa:aa").contains("must differ"));
        assert!(ok("LB", "ff:text") && ok("LB", "aa:") && ok("LB", "aa:a:b"));
        assert_eq!(err("LB", "aa"), "LB[aa]: expected a point, ':' and a label (aa:text)");
        assert!(!ok("LB", "f f:text"));
        assert!(ok("SZ", "19") && ok("SZ", "19:13") && ok("SZ", "19:19"));
        assert_eq!(err("SZ", "0"), "SZ[0]: board size must be between 1 and 52");
        assert_eq!(err("SZ", "200"), "SZ[200]: board size must be between 1 and 52");
        assert!(ok("AP", "CGoban:3") && ok("AP", "x:"));
        assert_eq!(err("AP", "CGoban"), "AP[CGoban]: expected name:version, the ':' is missing");
        assert!(ok("FG", "") && ok("FG", "257:Figure 1") && !ok("FG", "Figure 1") && !ok("FG", "x:y"));
    }

    #[test]
    fn game_info_getters() {
        let g = game("(;FF[4]GM[1]SZ[19:13]KM[6.5]HA[2]RE[B+R]RU[Chinese]PB[Ke\nJie]PW[Shin]BR[9p]WR[]DT[2024-01-02]PL[w])");
        let r = g.root();
        assert_eq!(board_size(r), Ok(BoardSize { width: 19, height: 13 }));
        assert_eq!(komi(r), Ok(Some(6.5)));
        assert_eq!(handicap(r), Ok(Some(2)));
        assert_eq!(result(r).as_deref(), Some("B+R"));
        assert_eq!(rules(r).as_deref(), Some("Chinese"));
        assert_eq!(player_black(r).as_deref(), Some("Ke Jie"));
        assert_eq!(player_white(r).as_deref(), Some("Shin"));
        assert_eq!(rank_black(r).as_deref(), Some("9p"));
        assert_eq!(rank_white(r), None, "empty value reads as absent");
        assert_eq!(date(r).as_deref(), Some("2024-01-02"));
        assert_eq!(game_type(r), Ok(1));
        assert_eq!(file_format(r), Ok(4));
        assert_eq!(player_to_move(r), Ok(Some(Color::White)));

        let empty = game("(;C[nothing])");
        let r = empty.root();
        assert_eq!(board_size(r), Ok(BoardSize::square(19)));
        assert_eq!(komi(r), Ok(None));
        assert_eq!(handicap(r), Ok(None));
        assert_eq!(result(r), None);
        assert_eq!(game_type(r), Ok(1));
        assert_eq!(file_format(r), Ok(1));
        assert_eq!(player_to_move(r), Ok(None));

        let bad = game("(;FF[7]GM[game of go]SZ[0]KM[5 1/2]HA[x]PL[w 123])");
        let r = bad.root();
        assert_eq!(board_size(r).unwrap_err().message, "SZ[0]: board size must be between 1 and 52");
        assert_eq!(komi(r).unwrap_err().message, "KM[5 1/2]: expected a number such as 6.5");
        assert_eq!(handicap(r).unwrap_err().message, "HA[x]: expected a whole number");
        assert_eq!(game_type(r).unwrap_err().message, "GM[game of go]: expected a whole number");
        assert_eq!(file_format(r).unwrap_err().message, "FF[7]: file format must be between 1 and 4");
        assert_eq!(player_to_move(r).unwrap_err().message, "PL[w 123]: expected a colour, B or W");
        assert_eq!(game_type(game("(;GM[12])").root()), Ok(12));
    }

    #[test]
    fn summary_of_a_game() {
        let g = game(
            "(;FF[4]SZ[19]PB[柯洁]BR[9p]PW[AlphaGo]KM[7.5]RU[Chinese]DT[2017-05-23]RE[W+0.5]\
             B[aa];W[pd];B[];W[tt](;B[dundefined];W[ss]C[x]B[qq])(;B[cc]))",
        );
        let s = summary(&g);
        let moves: Vec<_> = s.moves.iter().map(|m| (m.color.as_str(), m.point.as_deref())).collect();
        assert_eq!(moves, [("B", Some("aa")), ("W", Some("pd")), ("B", None), ("W", None), ("B", Some("dundefined")), ("W", Some("ss")), ("B", Some("qq")),]);
        let json = serde_json::to_value(&s).unwrap();
        assert_eq!(
            json,
            serde_json::json!({
                "board_size": {"width": 19, "height": 19},
                "black": "柯洁", "white": "AlphaGo", "black_rank": "9p", "white_rank": null,
                "komi": 7.5, "handicap": null, "rules": "Chinese", "date": "2017-05-23", "result": "W+0.5",
                "moves": [
                    {"color": "B", "point": "aa"}, {"color": "W", "point": "pd"},
                    {"color": "B", "point": null}, {"color": "W", "point": null},
                    {"color": "B", "point": "dundefined"}, {"color": "W", "point": "ss"},
                    {"color": "B", "point": "qq"}
                ]
            })
        );
    }

    #[test]
    fn summary_of_odd_games() {
        // tt is a move on a big board; bad komi and size are left out.
        let s = summary(&game("(;SZ[21]KM[x]HA[3];B[tt];W;B[aa][bb])"));
        assert_eq!(s.board_size, BoardSize::square(21));
        assert_eq!(s.komi, None);
        assert_eq!(s.handicap, Some(3));
        let moves: Vec<_> = s.moves.iter().map(|m| (m.color, m.point.as_deref())).collect();
        assert_eq!(moves, [(Color::Black, Some("tt")), (Color::Black, Some("aa"))]);
        let s = summary(&game("(;SZ[0]PB[]KM[-3])"));
        assert_eq!(s.board_size, BoardSize::square(19));
        assert_eq!(s.black, None);
        assert_eq!(s.komi, Some(-3.0));
        let s = summary(&game("(;SZ[19:9]PW[x]WR[3k])"));
        assert_eq!((s.white.as_deref(), s.white_rank.as_deref(), s.board_size), (Some("x"), Some("3k"), BoardSize { width: 19, height: 9 }));
    }

    proptest! {
        #[test]
        fn point_round_trip(x in 0u8..52, y in 0u8..52) {
            let p = Point { x, y };
            prop_assert_eq!(Point::parse(&p.to_sgf()), Ok(p));
        }

        #[test]
        fn parse_move_never_panics(s in any::<String>(), w in 0u8..=255, h in 0u8..=255) {
            let _ = parse_move(&s, BoardSize { width: w, height: h });
        }

        #[test]
        fn parse_move_on_letter_pairs(s in "[a-zA-Z]{2}") {
            prop_assert!(parse_move(&s, BoardSize::default()).is_ok());
        }

        #[test]
        fn value_parsers_never_panic(s in any::<String>()) {
            let _ = BoardSize::parse(&s);
            let _ = parse_real(&s);
            let _ = parse_number(&s);
            let _ = parse_point_list(std::iter::once(s.as_str()));
            for info in PROPERTIES {
                let _ = check_value(info, &s, BoardSize::default());
            }
        }

        #[test]
        fn coordinates_never_panic(x in 0u8..=255, y in 0u8..=255, h in 0u8..=255) {
            let _ = Point { x, y }.to_coordinate(h);
        }
    }
}
