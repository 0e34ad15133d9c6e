//! The recorded result (`RE[]`) and komi (`KM[]`) as real files write them.
//!
//! # Results
//!
//! `FF[4]` makes one format mandatory for `RE`: `0` or `Draw` for a draw,
//! `B+`/`W+` with an optional score (a Real: `B+0.5`, `W+64`), `B+R`/
//! `B+Resign`, `B+T`/`B+Time`, `B+F`/`B+Forfeit`, `Void` for no result or
//! suspended play, `?` for an unknown result. A bare `B+` is therefore
//! valid: the winner is known, the margin is not ([`Outcome::Unknown`]).
//!
//! Real files write more than that. [`read_result`] accepts what it can read
//! without guessing and says so with a [`ResultNotice`]; [`parse_result`]
//! is the same without the notice. What it reads, beyond `FF[4]`:
//!
//! | written | read as | notice |
//! |---|---|---|
//! | `draw`, `B+time`, `w+r`, `B + 3.5` (other letter case, spaces) | the `FF[4]` result | [`NoticeKind::Spelling`] |
//! | `Jigo`, `D+J` | draw | non-standard |
//! | `B`, `W` (WBaduk/YuanYu files) | win, margin unknown | non-standard |
//! | `B+Illegal` (CGOS), `W+Repetition`, `B+V` (UEC Cup: violation) | win by the loser's rule violation: [`Outcome::Forfeit`] | non-standard |
//! | `B+J`, `B+AW`, `B+AJ` (UEC Cup: referee, agreement on the winner) | win, margin unknown | non-standard |
//! | `B+J5.5` (UEC Cup: referee gave the score) | `B+5.5` | non-standard |
//! | `B+RO` (UEC Cup: the operator resigned) | `B+R` | non-standard |
//! | `W+Time Over`, `W+timeout`, `B+Resigned` | `W+T`, `B+R` | non-standard |
//! | `B+, comment text` | win, margin unknown; the comment is ignored | non-standard |
//! | `B+4目`, `W+7.5目`, `B+3.5 points` (目/点/집 are points) | `B+4`, `W+7.5` | non-standard |
//! | `B+2.75子` (子 = Chinese stones, 1 stone = 2 points) | `B+5.5` | non-standard |
//! | English: `White resigns.`, `Black resigns. W 25.5 B 17.0`, `Black wins by resignation`, `B wins by 3.5`, `black wins by 5 3/4 points`, `White wins on time`, `white wins` | `B+R`, `W+R`, `B+R`, `B+3.5`, `B+5.75`, `W+T`, `W+` | non-standard |
//! | `has adjourned.`, `adjourned` (NNGS) | [`GameResult::NoResult`]: unfinished | non-standard |
//! | `no result`, `unknown` | `Void`, `?` | non-standard |
//! | Chinese: `黑胜2又3/4子` (5.5), `白胜1/4子` (0.5), `黑胜半子` (1), `黑中盘胜` (R), `白超时胜` (T), `白胜` (W+), `黑胜3目半`, `黑胜3.5点`, `和棋`/`平局` (draw), `无胜负` (void) | points: stones × 2 | non-standard |
//! | Japanese: `黒中押し勝ち` (R), `白3目半勝ち`, `黒半目勝`, `持碁` (draw), `無勝負` (void), `257手完, 黒中押し勝ち` (move count ignored) | | non-standard |
//! | Korean: `백 불계승` (R), `흑 3.5집 승`, `백 7집반 승`, `흑 시간승` (T), `흑 기권승` (F), `무승부` (draw) | | non-standard |
//! | `RE[]` (empty) | [`GameResult::NoResult`] | [`NoticeKind::Empty`] |
//! | `W+0`, `B+0.0` (Fox: games not decided by counting) | win, margin unknown: a win by 0 is not a score | [`NoticeKind::OddMargin`] |
//! | `B+0.02`, `W+3.2` (not a multiple of 1/4) | kept as written | [`NoticeKind::OddMargin`] |
//!
//! Anything else is a [`ResultError`]: text naming no colour (`john wins`),
//! two results (`B+1.5 ? W+timeout`), a negative or malformed margin
//! (`W+-3`, `B+.5`, `B+3.5.1`), unknown words (`B+Foo`).
//!
//! # Komi
//!
//! [`komi_from_text`] (preferred: it sees whether a decimal point was
//! written) and [`normalise_komi`] turn `KM` into points. Fox writes komi
//! ×100 as a whole number: `KM[650]` is 6.5 points and `KM[375]`/`KM[325]`
//! are 3.75/3.25 Chinese stones, i.e. 7.5/6.5 points. The rule:
//!
//! * a whole number (no decimal point written) that is a multiple of 25 with
//!   100 < |km| < 1000 is ×100 (KGS writes big komi with decimals, `100.00`,
//!   `-60.50`: never scaled by [`komi_from_text`]; [`normalise_komi`], which
//!   only sees the number, leaves |km| ≤ 100 alone for the same reason);
//! * after that, a komi with a quarter fraction (.25, .75) is in Chinese
//!   stones and is doubled: points only come in halves. The number is the
//!   same under any rules; under territory rules the note says the rules
//!   and the komi disagree.
//!
//! When the komi is in stones, a bare margin in the same file's `RE` is in
//! stones too (Fox: `KM[375]` with `RE[B+2.75]`): [`Reading::in_points`].

use std::fmt::{self, Write as _};

use crate::board::Color;
use crate::sgf::props::{ValueError, parse_real, push_excerpt};

// ---------------------------------------------------------------------------
// Types

/// How a game was won.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Outcome {
    /// Won by this many points (> 0; a quarter fraction only when the file
    /// counts in stones and the margin was bare, see [`Reading::in_points`]).
    Score(f64),
    Resign,
    Time,
    /// Won by forfeit, including the loser's rule violation (`B+Illegal`,
    /// `W+Repetition`, UEC `B+V`).
    Forfeit,
    /// The winner is known, how or by how much is not (`B+`, `B+J`, `W`).
    Unknown,
}

/// A game's result as recorded.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum GameResult {
    Win {
        winner: Color,
        outcome: Outcome,
    },
    /// `0`, `Draw`: jigo.
    Draw,
    /// `Void`: no result (triple ko, agreed annulment) or suspended play.
    Void,
    /// `?`: the result is not known.
    Unknown,
    /// Nothing recorded: an empty `RE[]`, or a game adjourned and never
    /// finished (`RE[has adjourned.]`).
    NoResult,
}

/// An `RE` value that could not be read. `message` is one line, e.g.
/// `RE[john wins] is not an SGF result (B+3.5, W+R, 0, Void, ?)`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ResultError {
    pub message: String,
}

impl fmt::Display for ResultError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for ResultError {}

/// What kind of liberty an accepted `RE` value takes with `FF[4]`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum NoticeKind {
    /// An `FF[4]` form in other letter case or with inner spaces: `draw`,
    /// `B+time`, `B + 3.5`.
    Spelling,
    /// Readable, but not an `FF[4]` form: English or CJK text, `Jigo`,
    /// `B+Illegal`, UEC Cup codes, units (`B+4目`), a bare `B`.
    NonStandard,
    /// `FF[4]` syntax with a margin no count gives: `W+0.0` (read as a win
    /// with unknown margin), `B+0.02`.
    OddMargin,
    /// `RE[]`.
    Empty,
}

/// A one-line remark on an `RE` value that was read but is not plain
/// `FF[4]`, e.g. `RE[White resigns.] read as B+R; FF[4] writes B+R or
/// B+Resign`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ResultNotice {
    pub kind: NoticeKind,
    pub message: String,
}

impl fmt::Display for ResultNotice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

/// An `RE` value as [`read_result`] read it.
#[derive(Debug, Clone, PartialEq)]
pub struct Reading {
    pub result: GameResult,
    /// `None` when the value is plain `FF[4]`.
    pub notice: Option<ResultNotice>,
    /// The margin came with a unit (`子`, `目`, `points`) and is already in
    /// points; a bare margin (`B+2.75`) is in the file's komi unit.
    pub margin_has_unit: bool,
}

impl Reading {
    /// The result with a bare margin read in the unit of the file's komi:
    /// when the komi is in stones (Fox `KM[375]`), `RE[B+2.75]` is 2.75
    /// stones, i.e. `B+5.5`. A margin with a unit is left as read.
    pub fn in_points(&self, komi: &Komi) -> GameResult {
        match self.result {
            GameResult::Win { winner, outcome: Outcome::Score(m) } if komi.stones && !self.margin_has_unit => {
                GameResult::Win { winner, outcome: Outcome::Score(m * 2.0) }
            }
            r => r,
        }
    }
}

impl GameResult {
    /// The winning margin in points: `Some(m)` for a scored win, `Some(0.0)`
    /// for a draw, `None` otherwise.
    pub fn margin(&self) -> Option<f64> {
        match *self {
            GameResult::Win { outcome: Outcome::Score(m), .. } => Some(m),
            GameResult::Draw => Some(0.0),
            _ => None,
        }
    }

    pub fn winner(&self) -> Option<Color> {
        match *self {
            GameResult::Win { winner, .. } => Some(winner),
            _ => None,
        }
    }

    /// The result as `FF[4]` writes it: `B+2.5`, `W+R`, `W+T`, `B+F`, `B+`,
    /// `0`, `Void`, `?`; empty for [`GameResult::NoResult`].
    pub fn canonical(&self) -> String {
        match *self {
            GameResult::Win { winner, outcome } => {
                let mut s = String::with_capacity(8);
                s.push_str(winner.letter());
                s.push('+');
                match outcome {
                    Outcome::Score(m) => {
                        let _ = write!(s, "{}", Num(m));
                    }
                    Outcome::Resign => s.push('R'),
                    Outcome::Time => s.push('T'),
                    Outcome::Forfeit => s.push('F'),
                    Outcome::Unknown => {}
                }
                s
            }
            GameResult::Draw => "0".to_string(),
            GameResult::Void => "Void".to_string(),
            GameResult::Unknown => "?".to_string(),
            GameResult::NoResult => String::new(),
        }
    }

    /// How `FF[4]` spells this result, for messages: `B+R or B+Resign`.
    fn ff4_spellings(&self) -> String {
        match *self {
            GameResult::Win { winner, outcome } => {
                let w = winner.letter();
                match outcome {
                    Outcome::Resign => format!("{w}+R or {w}+Resign"),
                    Outcome::Time => format!("{w}+T or {w}+Time"),
                    Outcome::Forfeit => format!("{w}+F or {w}+Forfeit"),
                    Outcome::Score(_) | Outcome::Unknown => self.canonical(),
                }
            }
            GameResult::Draw => "0 or Draw".to_string(),
            GameResult::Void => "Void".to_string(),
            GameResult::Unknown => "?".to_string(),
            GameResult::NoResult => "nothing (leave RE out)".to_string(),
        }
    }
}

impl fmt::Display for GameResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.canonical())
    }
}

/// A number as people write it: `5.5`, `12`, `0.75`.
struct Num(f64);

impl fmt::Display for Num {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // f64's Display is the shortest form that reads back: 12 not 12.0.
        write!(f, "{}", self.0)
    }
}

// ---------------------------------------------------------------------------
// Reading RE

/// Reads an `RE` value (the SimpleText, already unescaped), ignoring the
/// notice [`read_result`] gives for non-`FF[4]` forms.
pub fn parse_result(re: &str) -> Result<GameResult, ResultError> {
    read_result(re).map(|r| r.result)
}

/// Reads an `RE` value: the result, and a notice when the value is not
/// plain `FF[4]` (see the module documentation for every accepted form).
/// Surrounding white space is ignored.
pub fn read_result(re: &str) -> Result<Reading, ResultError> {
    let t = re.trim();
    if t.is_empty() {
        return Ok(Reading {
            result: GameResult::NoResult,
            notice: Some(ResultNotice { kind: NoticeKind::Empty, message: "RE[] is empty: read as no result".to_string() }),
            margin_has_unit: false,
        });
    }
    let read =
        strict(t).map(|result| Read { result, kind: None, detail: None, unit: false }).or_else(|| lenient_sgf(t)).or_else(|| english(t)).or_else(|| cjk(t));
    match read {
        Some(read) => Ok(finish(re, read)),
        None => {
            let mut message = String::with_capacity(t.len().min(48) + 48);
            message.push_str("RE[");
            push_excerpt(&mut message, t);
            message.push_str("] is not an SGF result (B+3.5, W+R, 0, Void, ?)");
            Err(ResultError { message })
        }
    }
}

/// What one of the readers made of a value.
struct Read {
    result: GameResult,
    /// `None` for plain `FF[4]`.
    kind: Option<NoticeKind>,
    /// Why the reading holds, for the notice: `UEC Cup notation: ...`.
    detail: Option<String>,
    /// The margin had a unit (already converted to points).
    unit: bool,
}

impl Read {
    fn new(result: GameResult, kind: NoticeKind) -> Read {
        Read { result, kind: Some(kind), detail: None, unit: false }
    }

    fn detail(mut self, detail: impl Into<String>) -> Read {
        self.detail = Some(detail.into());
        self
    }
}

fn win(winner: Color, outcome: Outcome) -> GameResult {
    GameResult::Win { winner, outcome }
}

/// Checks the margin and writes the notice.
fn finish(re: &str, mut read: Read) -> Reading {
    let shown = {
        let mut s = String::new();
        push_excerpt(&mut s, re.trim());
        s
    };
    let mut notice = None;
    if let GameResult::Win { winner, outcome: Outcome::Score(m) } = read.result {
        if m == 0.0 {
            read.result = win(winner, Outcome::Unknown);
            notice = Some(ResultNotice {
                kind: NoticeKind::OddMargin,
                message: format!(
                    "RE[{shown}] read as {}: a win by 0 points is not a score \
                     (Fox writes this for games not decided by counting)",
                    read.result.canonical()
                ),
            });
        } else if (m * 4.0).fract() != 0.0 {
            notice = Some(ResultNotice {
                kind: NoticeKind::OddMargin,
                message: format!(
                    "RE[{shown}]: a margin of {} is not a possible count \
                     (points come in halves, Chinese stones in quarters)",
                    Num(m)
                ),
            });
        }
    }
    if notice.is_none() {
        notice = read.kind.map(|kind| {
            let mut message = format!("RE[{shown}] read as {}", read.result.canonical());
            if read.result == GameResult::NoResult {
                message.push_str("no result");
            }
            if let Some(d) = &read.detail {
                let _ = write!(message, " ({d})");
            }
            let _ = write!(message, "; FF[4] writes {}", read.result.ff4_spellings());
            ResultNotice { kind, message }
        });
    }
    Reading { result: read.result, notice, margin_has_unit: read.unit }
}

/// Exactly `FF[4]`.
fn strict(t: &str) -> Option<GameResult> {
    match t {
        "0" | "Draw" => return Some(GameResult::Draw),
        "Void" => return Some(GameResult::Void),
        "?" => return Some(GameResult::Unknown),
        _ => {}
    }
    let (winner, rest) = if let Some(r) = t.strip_prefix("B+") {
        (Color::Black, r)
    } else if let Some(r) = t.strip_prefix("W+") {
        (Color::White, r)
    } else {
        return None;
    };
    let outcome = match rest {
        "" => Outcome::Unknown,
        "R" | "Resign" => Outcome::Resign,
        "T" | "Time" => Outcome::Time,
        "F" | "Forfeit" => Outcome::Forfeit,
        m if is_unsigned_real(m) => Outcome::Score(m.parse().ok()?),
        _ => return None,
    };
    Some(win(winner, outcome))
}

/// `digit{digit}["."digit{digit}]`: a Real without sign.
fn is_unsigned_real(s: &str) -> bool {
    let (int, frac) = match s.split_once('.') {
        Some((i, f)) => (i, Some(f)),
        None => (s, None),
    };
    let digits = |d: &str| !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit());
    digits(int) && frac.is_none_or(digits)
}

fn color_letter(c: char) -> Option<Color> {
    match c {
        'B' | 'b' => Some(Color::Black),
        'W' | 'w' => Some(Color::White),
        _ => None,
    }
}

/// `FF[4]`-like forms: other case and spacing, server and tournament codes,
/// units after the margin.
fn lenient_sgf(t: &str) -> Option<Read> {
    use NoticeKind::{NonStandard, Spelling};
    let lower = t.to_lowercase();
    match lower.as_str() {
        "draw" => return Some(Read::new(GameResult::Draw, Spelling)),
        "void" => return Some(Read::new(GameResult::Void, Spelling)),
        "jigo" => return Some(Read::new(GameResult::Draw, NonStandard)),
        "d+j" => {
            return Some(Read::new(GameResult::Draw, NonStandard).detail("UEC Cup notation: draw by referee's judgment"));
        }
        _ => {}
    }
    let mut chars = t.chars();
    let winner = color_letter(chars.next()?)?;
    let after = chars.as_str();
    if after.is_empty() {
        return Some(Read::new(win(winner, Outcome::Unknown), NonStandard).detail("winner only"));
    }
    let rest = after.trim_start().strip_prefix('+')?.trim_start();
    let rest_lower = rest.to_lowercase();
    let outcome = |o| win(winner, o);
    let read = match rest_lower.as_str() {
        "" => Read::new(outcome(Outcome::Unknown), Spelling),
        "r" | "resign" => Read::new(outcome(Outcome::Resign), Spelling),
        "t" | "time" => Read::new(outcome(Outcome::Time), Spelling),
        "f" | "forfeit" => Read::new(outcome(Outcome::Forfeit), Spelling),
        "resigned" | "resigns" | "resignation" => Read::new(outcome(Outcome::Resign), NonStandard),
        "time over" | "timeout" | "time-out" | "time out" | "on time" => Read::new(outcome(Outcome::Time), NonStandard),
        "illegal" => Read::new(outcome(Outcome::Forfeit), NonStandard).detail("the loser played an illegal move"),
        "repetition" => Read::new(outcome(Outcome::Forfeit), NonStandard).detail("the loser repeated a position"),
        "v" => Read::new(outcome(Outcome::Forfeit), NonStandard).detail("UEC Cup notation: win by the opponent's violation"),
        "ro" => Read::new(outcome(Outcome::Resign), NonStandard).detail("UEC Cup notation: the operator resigned"),
        "j" => Read::new(outcome(Outcome::Unknown), NonStandard).detail("UEC Cup notation: win by referee's judgment"),
        "aw" => Read::new(outcome(Outcome::Unknown), NonStandard).detail("UEC Cup notation: the programs agreed on the winner, not on the score"),
        "aj" => Read::new(outcome(Outcome::Unknown), NonStandard).detail("UEC Cup notation: the operators agreed on the winner"),
        _ => {
            if rest.starts_with([',', ';']) {
                return Some(Read::new(outcome(Outcome::Unknown), NonStandard).detail("the text after the comma is a comment"));
            }
            if let Some(m) = rest_lower.strip_prefix('j').filter(|m| is_unsigned_real(m)) {
                let read = Read::new(outcome(Outcome::Score(m.parse().ok()?)), NonStandard).detail("UEC Cup notation: score given by the referee");
                return Some(read);
            }
            let amount = margin_with_unit(rest)?;
            // A plain number that strict() refused differs in case or spaces
            // only; `2又3/4` or a unit is another form.
            let kind = if amount.unit.is_none() && is_unsigned_real(rest) { Spelling } else { NonStandard };
            let mut read = Read::new(outcome(Outcome::Score(amount.points)), kind);
            read.unit = amount.unit.is_some();
            read.detail = amount.detail();
            return Some(read);
        }
    };
    Some(read)
}

/// A margin as read, in points.
struct Amount {
    points: f64,
    /// The written number, in its unit.
    written: f64,
    unit: Option<Unit>,
}

#[derive(Clone, Copy, PartialEq)]
enum Unit {
    Points,
    Stones,
}

impl Amount {
    fn detail(&self) -> Option<String> {
        (self.unit == Some(Unit::Stones)).then(|| format!("{} stones = {} points: 1 stone is 2 points", Num(self.written), Num(self.points)))
    }
}

/// `3.5`, `4目`, `7.5 points`, `2.75子`, `3目半`, `2又3/4子` after `B+`.
fn margin_with_unit(s: &str) -> Option<Amount> {
    let compact: String = s.chars().filter(|c| !c.is_whitespace()).collect();
    if let Some(a) = cjk_amount(&compact) {
        return Some(a);
    }
    let lower = s.to_lowercase();
    let mut words = lower.split_whitespace();
    let number = words.next()?;
    let (number, unit_word) = match number.find(|c: char| c.is_alphabetic()) {
        Some(i) => (&number[..i], Some(&number[i..])),
        None => (number, words.next()),
    };
    if !is_unsigned_real(number) || words.next().is_some() {
        return None;
    }
    let n: f64 = number.parse().ok()?;
    let unit = match unit_word {
        None => None,
        Some("point" | "points" | "pt" | "pts" | "moku") => Some(Unit::Points),
        Some(_) => return None,
    };
    Some(Amount { points: n, written: n, unit })
}

/// A CJK margin, white space removed: `2又3/4子`, `1/4子`, `半子`, `3子半`,
/// `3目半`, `3.5目`, `半目`, `4点`, `7집반`, `3.5집`, `반집`, also a bare
/// number (`3.5`, `2又3/4`, `3/4`), whose unit is then unknown.
fn cjk_amount(s: &str) -> Option<Amount> {
    let (number, rest) = split_number(s)?;
    let mut chars = rest.chars();
    let (unit, mut value) = match chars.next() {
        None => return number.map(|n| Amount { points: n, written: n, unit: None }),
        Some('子') => (Unit::Stones, number),
        Some('目' | '点' | '點' | '집') => (Unit::Points, number),
        Some(_) => return None,
    };
    match chars.as_str() {
        "" => {}
        "半" | "반" if value.is_some_and(|v| v.fract() == 0.0) => value = value.map(|v| v + 0.5),
        _ => return None,
    }
    let written = value?;
    let points = if unit == Unit::Stones { written * 2.0 } else { written };
    Some(Amount { points, written, unit: Some(unit) })
}

/// The number at the start of `s`: `3`, `3.5`, `2又3/4`, `3/4`, `半`/`반`
/// (a half), with what follows. `None` inside when there is no number (but
/// `s` may still be a unit, which the caller rejects).
fn split_number(s: &str) -> Option<(Option<f64>, &str)> {
    if let Some(rest) = s.strip_prefix('半').or_else(|| s.strip_prefix('반')) {
        return Some((Some(0.5), rest));
    }
    let end = s.find(|c: char| !(c.is_ascii_digit() || c == '.')).unwrap_or(s.len());
    let (int_text, rest) = s.split_at(end);
    if int_text.is_empty() {
        return Some((None, s));
    }
    if let Some(after) = rest.strip_prefix('/') {
        // A fraction alone: 3/4.
        let dend = after.find(|c: char| !c.is_ascii_digit()).unwrap_or(after.len());
        let f = fraction(int_text, &after[..dend])?;
        return Some((Some(f), &after[dend..]));
    }
    if !is_unsigned_real(int_text) {
        return None;
    }
    let whole: f64 = int_text.parse().ok()?;
    if let Some(after) = rest.strip_prefix('又') {
        let (f, rest) = split_fraction(after)?;
        if int_text.contains('.') {
            return None;
        }
        return Some((Some(whole + f), rest));
    }
    Some((Some(whole), rest))
}

/// `a/b` at the start of `s`, with what follows.
fn split_fraction(s: &str) -> Option<(f64, &str)> {
    let (num, after) = s.split_once('/')?;
    let dend = after.find(|c: char| !c.is_ascii_digit()).unwrap_or(after.len());
    Some((fraction(num, &after[..dend])?, &after[dend..]))
}

/// `num/den` for a proper fraction of small whole numbers.
fn fraction(num: &str, den: &str) -> Option<f64> {
    if num.is_empty() || den.is_empty() || !num.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let n: u32 = num.parse().ok()?;
    let d: u32 = den.parse().ok()?;
    (d > 0 && n < d).then(|| f64::from(n) / f64::from(d))
}

/// English free text: `White resigns.`, `Black wins by 3.5 points`,
/// `B wins by resignation`, `black wins by 5 3/4 points`, `has adjourned.`.
fn english(t: &str) -> Option<Read> {
    use NoticeKind::NonStandard;
    let lower = t.to_lowercase();
    let words: Vec<&str> = lower.split_whitespace().map(|w| w.trim_end_matches(['.', ',', '!', ';'])).filter(|w| !w.is_empty()).collect();
    match words.as_slice() {
        ["has", "adjourned"] | ["adjourned"] | ["game", "adjourned"] => {
            return Some(Read::new(GameResult::NoResult, NonStandard).detail("the game was adjourned, not finished"));
        }
        ["no", "result"] => return Some(Read::new(GameResult::Void, NonStandard)),
        ["unknown"] => return Some(Read::new(GameResult::Unknown, NonStandard)),
        ["drawn"] | ["draw", "game"] | ["game", "drawn"] => return Some(Read::new(GameResult::Draw, NonStandard)),
        _ => {}
    }
    let (&first, rest) = words.split_first()?;
    let color = match first {
        "black" | "b" => Color::Black,
        "white" | "w" => Color::White,
        _ => return None,
    };
    let (&verb, rest) = rest.split_first()?;
    match verb {
        "resigns" | "resigned" => {
            // Fuego and GNU Go add the count at the time: `W 25.5 B 17.0`.
            let scores_only = match rest {
                [] => true,
                [a, x, b, y] => matches!((*a, *b), ("w", "b") | ("b", "w")) && is_unsigned_real(x) && is_unsigned_real(y),
                _ => false,
            };
            if !scores_only {
                return None;
            }
            let mut read = Read::new(win(color.opponent(), Outcome::Resign), NonStandard);
            if !rest.is_empty() {
                read = read.detail("the count after it is ignored");
            }
            Some(read)
        }
        "wins" | "won" | "win" => {
            let rest = match rest {
                ["by" | "on", rest @ ..] => rest,
                rest => rest,
            };
            let outcome = match rest {
                [] => Outcome::Unknown,
                ["resignation" | "resign"] => Outcome::Resign,
                ["time" | "timeout"] => Outcome::Time,
                ["forfeit" | "default"] => Outcome::Forfeit,
                ["half", "a", "point"] => Outcome::Score(0.5),
                words => Outcome::Score(english_amount(words)?),
            };
            Some(Read { unit: matches!(outcome, Outcome::Score(_)), ..Read::new(win(color, outcome), NonStandard) })
        }
        _ => None,
    }
}

/// `3.5`, `3.5 points`, `5 3/4 points`, `1/2 point`.
fn english_amount(words: &[&str]) -> Option<f64> {
    let words = match words {
        [rest @ .., "point" | "points" | "pts" | "pt" | "moku"] => rest,
        w => w,
    };
    match *words {
        [n] if is_unsigned_real(n) => n.parse().ok(),
        [f] => {
            let (num, den) = f.split_once('/')?;
            fraction(num, den)
        }
        [n, f] if n.bytes().all(|b| b.is_ascii_digit()) => {
            let (num, den) = f.split_once('/')?;
            Some(n.parse::<f64>().ok()? + fraction(num, den)?)
        }
        _ => None,
    }
}

/// Chinese, Japanese and Korean results, white space removed.
fn cjk(t: &str) -> Option<Read> {
    use NoticeKind::NonStandard;
    let s: String = t
        .chars()
        .filter(|c| !c.is_whitespace())
        .map(|c| match c {
            // Full-width ASCII (０-９, ．, ／, ＋...) to ASCII.
            '\u{ff01}'..='\u{ff5e}' => char::from_u32(c as u32 - 0xfee0).unwrap_or(c),
            c => c,
        })
        .collect();
    let (s, counted) = strip_move_count(&s);
    let s = s.trim_end_matches(['。', '.', '!']);
    let read = |r: GameResult| {
        let read = Read::new(r, NonStandard);
        if counted { read.detail("the move count is ignored") } else { read }
    };
    match s {
        "和棋" | "和局" | "平局" | "和" | "持碁" | "ジゴ" | "무승부" => {
            return Some(read(GameResult::Draw));
        }
        "无胜负" | "無勝負" | "무효" => return Some(read(GameResult::Void)),
        "打挂" | "打掛" | "打ち掛け" => {
            let r = Read::new(GameResult::NoResult, NonStandard).detail("the game was adjourned, not finished");
            return Some(r);
        }
        _ => {}
    }
    let mut chars = s.chars();
    let color = match chars.next()? {
        '黑' | '黒' | '흑' => Color::Black,
        '白' | '백' => Color::White,
        _ => return None,
    };
    let rest = chars.as_str();
    let rest = rest.strip_prefix(['方', '番']).unwrap_or(rest);
    let outcome = match rest {
        "中盘胜" | "中盤勝" | "中盤勝ち" | "中押胜" | "中押勝" | "中押し勝ち" | "中押勝ち" | "中押し勝" | "불계승" => {
            Outcome::Resign
        }
        "超时胜" | "超時勝" | "时间胜" | "時間勝" | "時間切れ勝ち" | "時間切れ勝" | "시간승" => Outcome::Time,
        "反则胜" | "反則勝" | "反則勝ち" | "不战胜" | "不戦勝" | "기권승" | "반칙승" => Outcome::Forfeit,
        "胜" | "勝" | "勝ち" | "승" => Outcome::Unknown,
        _ => {
            const WINS: [&str; 4] = ["勝ち", "胜", "勝", "승"];
            // Chinese puts the margin after 胜, Japanese and Korean before.
            let amount = WINS
                .iter()
                .find_map(|w| rest.strip_prefix(w))
                .or_else(|| WINS.iter().find_map(|w| rest.strip_suffix(w)))
                .and_then(cjk_amount)
                .filter(|a| a.unit.is_some())?;
            let mut r = read(win(color, Outcome::Score(amount.points)));
            r.unit = true;
            if let Some(d) = amount.detail() {
                r.detail = Some(match r.detail {
                    Some(m) => format!("{d}; {m}"),
                    None => d,
                });
            }
            return Some(r);
        }
    };
    Some(read(win(color, outcome)))
}

/// Strips a leading move count: `257手完,`, `共257手`, `257手まで`.
fn strip_move_count(s: &str) -> (&str, bool) {
    let body = s.strip_prefix('共').unwrap_or(s);
    let digits = body.find(|c: char| !c.is_ascii_digit()).unwrap_or(body.len());
    if digits == 0 {
        return (s, false);
    }
    let Some(after) = body[digits..].strip_prefix('手') else {
        return (s, false);
    };
    let after = ["完局", "完", "まで", "止"].iter().find_map(|w| after.strip_prefix(w)).unwrap_or(after);
    let after = after.trim_start_matches([',', '、', '，', '。', ';']);
    if after.is_empty() { (s, false) } else { (after, true) }
}

// ---------------------------------------------------------------------------
// Komi

/// A komi in points.
#[derive(Debug, Clone, PartialEq)]
pub struct Komi {
    pub points: f64,
    /// The file writes komi in Chinese stones (1 stone = 2 points): bare
    /// `RE` margins are in stones too ([`Reading::in_points`]).
    pub stones: bool,
    /// Set when the value was scaled: the message for the `komi-scaled`
    /// info, e.g. `KM[375] read as 3.75 stones = 7.5 points (Fox writes
    /// komi x100)`.
    pub note: Option<String>,
}

/// The komi a `KM` number gives, in points. Prefer [`komi_from_text`]: this
/// cannot see whether a decimal point was written, so it scales only whole
/// multiples of 25 with 100 < |km| < 1000 (Fox ×100) and leaves every
/// value up to 100 alone (KGS `KM[100.00]` is 100 points). A quarter
/// fraction (after that) is in stones and is doubled.
pub fn normalise_komi(km: f64, rules_are_area: bool) -> Komi {
    normalise(km, &Num(km).to_string(), true, rules_are_area)
}

/// The komi a `KM` value gives, in points, from the text as written:
/// `650` is Fox's 6.5 and `375` Fox's 3.75 stones = 7.5 points, while
/// `650.00` or `-60.50` are taken as written. Errors are those of
/// [`parse_real`] (`5 1/2`, `six`).
pub fn komi_from_text(text: &str, rules_are_area: bool) -> Result<Komi, ValueError> {
    let km = parse_real(text).map_err(|e| e.for_property("KM"))?;
    Ok(normalise(km, text.trim(), !text.contains('.'), rules_are_area))
}

fn normalise(km: f64, written: &str, whole_written: bool, rules_are_area: bool) -> Komi {
    let fox = whole_written && km.fract() == 0.0 && km.abs() > 100.0 && km.abs() < 1000.0 && km % 25.0 == 0.0;
    let value = if fox { km / 100.0 } else { km };
    let quarter = value.is_finite() && (value * 4.0).fract() == 0.0 && (value * 4.0) % 2.0 != 0.0;
    let why = if fox { "Fox writes komi x100" } else { "komi in Chinese stones: 1 stone is 2 points" };
    let territory = if rules_are_area { "" } else { ", although the rules count territory" };
    if quarter {
        let points = value * 2.0;
        return Komi { points, stones: true, note: Some(format!("KM[{written}] read as {} stones = {} points ({why}{territory})", Num(value), Num(points))) };
    }
    if fox {
        return Komi { points: value, stones: false, note: Some(format!("KM[{written}] read as {} points ({why})", Num(value))) };
    }
    Komi { points: km, stones: false, note: None }
}

// ---------------------------------------------------------------------------

#[cfg(test)]
mod tests {
    use super::*;

    const B: Color = Color::Black;
    const W: Color = Color::White;

    fn ok(re: &str) -> Reading {
        read_result(re).unwrap_or_else(|e| panic!("{re:?} refused: {e}"))
    }

    /// Reads `re` and checks its canonical form and notice kind.
    fn reads(re: &str, canonical: &str, kind: Option<NoticeKind>) -> Reading {
        let r = ok(re);
        assert_eq!(r.result.canonical(), canonical, "{re:?}");
        assert_eq!(r.notice.as_ref().map(|n| n.kind), kind, "{re:?}: {:?}", r.notice);
        r
    }

    fn refused(re: &str) -> String {
        match read_result(re) {
            Ok(r) => panic!("{re:?} read as {:?}", r),
            Err(e) => e.message,
        }
    }

    #[test]
    fn ff4_forms_read_without_notice() {
        for (re, canonical) in [
            ("B+12.50", "B+12.5"),
            ("W+0.5", "W+0.5"),
            ("B+12", "B+12"),
            ("W+64", "W+64"),
            ("W+R", "W+R"),
            ("W+Resign", "W+R"),
            ("B+Resign", "B+R"),
            ("W+T", "W+T"),
            ("W+Time", "W+T"),
            ("B+F", "B+F"),
            ("B+Forfeit", "B+F"),
            ("0", "0"),
            ("Draw", "0"),
            ("Void", "Void"),
            ("?", "?"),
            ("B+", "B+"),
            ("W+", "W+"),
            ("  W+R  ", "W+R"),
        ] {
            reads(re, canonical, None);
        }
        assert_eq!(parse_result("B+12.50"), Ok(win(B, Outcome::Score(12.5))));
        assert_eq!(parse_result("W+Resign"), Ok(win(W, Outcome::Resign)));
        assert_eq!(parse_result("B+"), Ok(win(B, Outcome::Unknown)));
        assert_eq!(parse_result("0"), Ok(GameResult::Draw));
        assert_eq!(parse_result("Void"), Ok(GameResult::Void));
        assert_eq!(parse_result("?"), Ok(GameResult::Unknown));
    }

    #[test]
    fn other_spellings_of_ff4() {
        use NoticeKind::Spelling;
        for (re, canonical) in [
            ("draw", "0"),
            ("DRAW", "0"),
            ("void", "Void"),
            ("B+time", "B+T"),
            ("W+time", "W+T"),
            ("w+r", "W+R"),
            ("b+resign", "B+R"),
            ("B + 3.5", "B+3.5"),
            ("b+3.5", "B+3.5"),
            ("W +", "W+"),
            ("b+f", "B+F"),
        ] {
            reads(re, canonical, Some(Spelling));
        }
        let n = ok("B+time").notice.unwrap().message;
        assert_eq!(n, "RE[B+time] read as B+T; FF[4] writes B+T or B+Time");
    }

    #[test]
    fn server_and_tournament_codes() {
        use NoticeKind::NonStandard;
        for (re, canonical) in [
            ("Jigo", "0"),
            ("jigo", "0"),
            ("D+J", "0"),
            ("B", "B+"),
            ("W", "W+"),
            ("B+Illegal", "B+F"),
            ("W+Illegal", "W+F"),
            ("W+Repetition", "W+F"),
            ("B+V", "B+F"),
            ("W+J", "W+"),
            ("B+AW", "B+"),
            ("W+AJ", "W+"),
            ("B+RO", "B+R"),
            ("B+J5.5", "B+5.5"),
            ("W+Time Over", "W+T"),
            ("W+timeout", "W+T"),
            ("B+Resigned", "B+R"),
            ("B+, Goro crushed in his 126th move, and could not continue.", "B+"),
            ("B+, human judge for communication error ", "B+"),
            ("W+forfeit", "W+F"),
        ] {
            let kind = if re == "W+forfeit" { NoticeKind::Spelling } else { NonStandard };
            reads(re, canonical, Some(kind));
        }
        assert_eq!(ok("B+Illegal").notice.unwrap().message, "RE[B+Illegal] read as B+F (the loser played an illegal move); FF[4] writes B+F or B+Forfeit");
        assert_eq!(parse_result("W"), Ok(win(W, Outcome::Unknown)));
    }

    #[test]
    fn units_after_the_margin() {
        use NoticeKind::NonStandard;
        let r = reads("B+4目", "B+4", Some(NonStandard));
        assert!(r.margin_has_unit);
        reads("W+7.5目", "W+7.5", Some(NonStandard));
        reads("W+7.5 目", "W+7.5", Some(NonStandard));
        reads("B+3目半", "B+3.5", Some(NonStandard));
        reads("B+2.75子", "B+5.5", Some(NonStandard));
        reads("B+2又3/4子", "B+5.5", Some(NonStandard));
        reads("W+3.5 points", "W+3.5", Some(NonStandard));
        reads("W+3.5pts", "W+3.5", Some(NonStandard));
        reads("B+6.5집", "B+6.5", Some(NonStandard));
        assert!(read_result("B+3 stones").is_err());
        assert!(read_result("B+3 goats").is_err());
    }

    #[test]
    fn english_text() {
        use NoticeKind::NonStandard;
        for (re, canonical) in [
            ("White resigns.", "B+R"),
            ("Black resigns.", "W+R"),
            ("White resigns. W 6.5 B 157.0", "B+R"),
            ("Black resigns. W 25.5 B 17.0", "W+R"),
            ("Black resigns. W 133.5 B 81.0", "W+R"),
            ("Black wins by resignation", "B+R"),
            ("White won by resignation.", "W+R"),
            ("B wins by 3.5", "B+3.5"),
            ("black wins by 5 3/4 points", "B+5.75"),
            ("White wins by 1/2 point", "W+0.5"),
            ("White wins by half a point", "W+0.5"),
            ("White wins on time", "W+T"),
            ("Black wins by forfeit", "B+F"),
            ("white wins", "W+"),
            ("has adjourned.", ""),
            ("No result", "Void"),
            ("unknown", "?"),
        ] {
            reads(re, canonical, Some(NonStandard));
        }
        assert_eq!(ok("has adjourned.").result, GameResult::NoResult);
        assert_eq!(ok("White resigns.").notice.unwrap().message, "RE[White resigns.] read as B+R; FF[4] writes B+R or B+Resign");
        assert_eq!(
            ok("has adjourned.").notice.unwrap().message,
            "RE[has adjourned.] read as no result (the game was adjourned, not finished); FF[4] writes nothing (leave RE out)"
        );
    }

    #[test]
    fn chinese_japanese_korean() {
        use NoticeKind::NonStandard;
        for (re, canonical) in [
            ("黑胜2又3/4子", "B+5.5"),
            ("白胜1/4子", "W+0.5"),
            ("黑胜半子", "B+1"),
            ("黑胜3子半", "B+7"),
            ("黑中盘胜", "B+R"),
            ("白中盘胜", "W+R"),
            ("白胜", "W+"),
            ("黑胜3目半", "B+3.5"),
            ("黑胜3.5目", "B+3.5"),
            ("黑胜 3.5 点", "B+3.5"),
            ("白超时胜", "W+T"),
            ("和棋", "0"),
            ("无胜负", "Void"),
            ("黒中押し勝ち", "B+R"),
            ("白中押勝", "W+R"),
            ("黒3目半勝ち", "B+3.5"),
            ("白半目勝", "W+0.5"),
            ("持碁", "0"),
            ("257手完, 黒中押し勝ち", "B+R"),
            ("白番中押し勝ち", "W+R"),
            ("백 불계승", "W+R"),
            ("흑 3.5집 승", "B+3.5"),
            ("백 7집반 승", "W+7.5"),
            ("흑 시간승", "B+T"),
            ("무승부", "0"),
            ("黑胜２又３／４子", "B+5.5"),
        ] {
            reads(re, canonical, Some(NonStandard));
        }
        let r = ok("黑胜2又3/4子");
        assert_eq!(r.result, win(B, Outcome::Score(5.5)));
        assert!(r.margin_has_unit);
        assert_eq!(r.notice.unwrap().message, "RE[黑胜2又3/4子] read as B+5.5 (2.75 stones = 5.5 points: 1 stone is 2 points); FF[4] writes B+5.5");
        assert!(ok("257手完, 黒中押し勝ち").notice.unwrap().message.contains("move count is ignored"));
        for bad in ["黑胜2又3/4", "黑胜子", "黑胜3.5", "红胜", "黑胜2又5/4子", "黑胜3.5目半"] {
            refused(bad);
        }
    }

    #[test]
    fn odd_margins() {
        use NoticeKind::OddMargin;
        let r = reads("W+0.0", "W+", Some(OddMargin));
        assert_eq!(r.result, win(W, Outcome::Unknown));
        reads("B+0", "B+", Some(OddMargin));
        let r = reads("B+0.02", "B+0.02", Some(OddMargin));
        assert_eq!(r.result.margin(), Some(0.02));
        assert_eq!(r.notice.unwrap().message, "RE[B+0.02]: a margin of 0.02 is not a possible count (points come in halves, Chinese stones in quarters)");
        reads("W+3.2", "W+3.2", Some(OddMargin));
        // Quarters are possible (Fox stones, see Reading::in_points).
        reads("B+2.75", "B+2.75", None);
    }

    #[test]
    fn empty_is_no_result() {
        let r = reads("", "", Some(NoticeKind::Empty));
        assert_eq!(r.result, GameResult::NoResult);
        reads("   ", "", Some(NoticeKind::Empty));
    }

    #[test]
    fn unreadable_values_are_errors() {
        assert_eq!(refused("john wins"), "RE[john wins] is not an SGF result (B+3.5, W+R, 0, Void, ?)");
        for bad in [
            "B+1.5 ? W+timeout",
            "W+-3",
            "B+.5",
            "B+3.5.1",
            "B+Foo",
            "B+3.5 W+2",
            "X+3",
            "B-3",
            "Black",
            "Black wins by a lot",
            "Black resigns. just kidding",
            "white wins by 5/4 points",
            "B+R+T",
            "1",
        ] {
            refused(bad);
        }
        let long = refused("this result text is far longer than anything we want to repeat in a message");
        assert!(long.contains("...]"), "{long}");
        assert_eq!(refused("a]b"), "RE[a\\]b] is not an SGF result (B+3.5, W+R, 0, Void, ?)");
    }

    #[test]
    fn accessors() {
        let r = parse_result("W+7.5").unwrap();
        assert_eq!(r.margin(), Some(7.5));
        assert_eq!(r.winner(), Some(W));
        assert_eq!(r.to_string(), "W+7.5");
        assert_eq!(GameResult::Draw.margin(), Some(0.0));
        assert_eq!(GameResult::Draw.winner(), None);
        assert_eq!(parse_result("B+R").unwrap().margin(), None);
        assert_eq!(parse_result("B+R").unwrap().winner(), Some(B));
        assert_eq!(GameResult::Void.margin(), None);
        assert_eq!(GameResult::NoResult.canonical(), "");
        assert_eq!(win(B, Outcome::Score(12.0)).canonical(), "B+12");
        assert_eq!(win(W, Outcome::Score(0.75)).canonical(), "W+0.75");
        let e = read_result("john wins").unwrap_err();
        assert_eq!(e.to_string(), e.message);
    }

    #[test]
    fn fox_margins_follow_stone_komi() {
        let stones = komi_from_text("375", true).unwrap();
        let points = komi_from_text("650", false).unwrap();
        let r = ok("B+2.75");
        assert_eq!(r.in_points(&stones), win(B, Outcome::Score(5.5)));
        assert_eq!(r.in_points(&points), win(B, Outcome::Score(2.75)));
        // A margin with a unit is already in points.
        assert_eq!(ok("黑胜2又3/4子").in_points(&stones), win(B, Outcome::Score(5.5)));
        assert_eq!(ok("B+R").in_points(&stones), win(B, Outcome::Resign));
    }

    fn komi(text: &str, area: bool) -> (f64, bool, Option<String>) {
        let k = komi_from_text(text, area).unwrap();
        assert_eq!(k.points, normalise_komi_for_test(text, area).points, "{text}: text and number rules differ");
        (k.points, k.stones, k.note)
    }

    /// normalise_komi on the number, for values the two rules agree on.
    fn normalise_komi_for_test(text: &str, area: bool) -> Komi {
        let km = parse_real(text).unwrap();
        if text.contains('.') && km.abs() > 100.0 { komi_from_text(text, area).unwrap() } else { normalise_komi(km, area) }
    }

    #[test]
    fn komi_values() {
        let fox = |t: &str, area: bool, p: f64, stones: bool, note: &str| {
            assert_eq!(komi(t, area), (p, stones, Some(note.to_string())), "KM[{t}]");
        };
        fox("650", false, 6.5, false, "KM[650] read as 6.5 points (Fox writes komi x100)");
        fox("750", false, 7.5, false, "KM[750] read as 7.5 points (Fox writes komi x100)");
        fox("550", false, 5.5, false, "KM[550] read as 5.5 points (Fox writes komi x100)");
        fox("450", false, 4.5, false, "KM[450] read as 4.5 points (Fox writes komi x100)");
        fox("375", true, 7.5, true, "KM[375] read as 3.75 stones = 7.5 points (Fox writes komi x100)");
        fox("325", true, 6.5, true, "KM[325] read as 3.25 stones = 6.5 points (Fox writes komi x100)");
        fox("375", false, 7.5, true, "KM[375] read as 3.75 stones = 7.5 points (Fox writes komi x100, although the rules count territory)");
        fox("3.75", true, 7.5, true, "KM[3.75] read as 3.75 stones = 7.5 points (komi in Chinese stones: 1 stone is 2 points)");
        fox("3.25", true, 6.5, true, "KM[3.25] read as 3.25 stones = 6.5 points (komi in Chinese stones: 1 stone is 2 points)");
        for (t, p) in [
            ("0", 0.0),
            ("7.5", 7.5),
            ("6.50", 6.5),
            ("-6.5", -6.5),
            ("0.50", 0.5),
            ("7", 7.0),
            ("-5", -5.0),
            ("48.5", 48.5),
            ("7.500000", 7.5),
            ("-20.00", -20.0),
            ("100.00", 100.0),
            ("-100.00", -100.0),
            ("60.00", 60.0),
            ("75.50", 75.5),
            ("100", 100.0),
            ("50", 50.0),
        ] {
            assert_eq!(komi(t, false), (p, false, None), "KM[{t}]");
        }
        // With a decimal point, never x100; the number-only rule cannot tell.
        assert_eq!(komi_from_text("650.00", false).unwrap().points, 650.0);
        assert_eq!(normalise_komi(650.0, false).points, 6.5);
        assert_eq!(normalise_komi(-650.0, false).points, -6.5);
        assert_eq!(normalise_komi(375.0, true).note.as_deref(), Some("KM[375] read as 3.75 stones = 7.5 points (Fox writes komi x100)"));
        assert_eq!(normalise_komi(1000.0, false).points, 1000.0);
        assert_eq!(normalise_komi(660.0, false).points, 660.0);
        assert!(komi_from_text("5 1/2", false).unwrap_err().message.starts_with("KM[5 1/2]"));
    }

    // -----------------------------------------------------------------------
    // The corpus

    /// Every `RE` of ../shared/corpus that is refused, with its count. Only
    /// these: anything else there is read.
    const REFUSED_IN_CORPUS: &[(&str, usize)] = &[("B+1.5 ? W+timeout", 1), ("john wins", 4)];

    #[test]
    fn corpus_results_and_komi() {
        use std::collections::BTreeMap;
        use std::path::{Path, PathBuf};

        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus");
        if !dir.is_dir() {
            eprintln!("skipped: ../shared/corpus is absent (the corpus is not part of a user's clone)");
            return;
        }
        let files: Vec<PathBuf> = walkdir::WalkDir::new(&dir)
            .sort_by_file_name()
            .into_iter()
            .filter_map(Result::ok)
            .filter(|e| e.file_type().is_file() && e.path().extension().is_some_and(|x| x.eq_ignore_ascii_case("sgf")))
            .map(|e| e.into_path())
            .collect();

        #[derive(Default)]
        struct Tally {
            refused: BTreeMap<String, usize>,
            notices: BTreeMap<(NoticeKind, String), usize>,
            /// (folder, KM as written) -> (count, komi in points)
            komi: BTreeMap<(String, String), (usize, f64)>,
            /// Games with a scaled komi (Fox x100) and a scored RE, by
            /// "komi in stones": (margins in points ending in .5, others).
            scaled: BTreeMap<bool, (usize, usize)>,
        }
        let folder = |p: &Path| {
            let rel = p.strip_prefix(&dir).unwrap();
            let mut parts = rel.iter().map(|s| s.to_string_lossy().into_owned());
            let top = parts.next().unwrap_or_default();
            if top == "suites" { format!("suites/{}", parts.next().unwrap_or_default()) } else { top }
        };
        let run = |chunk: &[PathBuf]| {
            let mut t = Tally::default();
            for path in chunk {
                let bytes = std::fs::read(path).unwrap();
                let parsed = crate::sgf::parse(&bytes, &Default::default());
                let top = folder(path);
                for game in &parsed.collection.games {
                    let mut komi = None;
                    let mut result = None;
                    for node in game.nodes() {
                        if let Some(km) = node.get_value("KM") {
                            let area = crate::sgf::props::rules(node).is_some_and(|r| r.to_lowercase().contains("chin"));
                            if let Ok(k) = komi_from_text(km, area) {
                                let e = t.komi.entry((top.clone(), km.trim().to_string())).or_insert((0, k.points));
                                e.0 += 1;
                                komi.get_or_insert(k);
                            }
                        }
                        if let Some(re) = node.get_value("RE") {
                            let re = crate::sgf::props::parse_simple_text(re);
                            match read_result(&re) {
                                Ok(r) => {
                                    if let Some(n) = &r.notice {
                                        *t.notices.entry((n.kind, re.trim().to_string())).or_default() += 1;
                                    }
                                    result.get_or_insert(r);
                                }
                                Err(_) => *t.refused.entry(re.trim().to_string()).or_default() += 1,
                            }
                        }
                    }
                    if let (Some(k), Some(r)) = (&komi, &result) {
                        let m = r.in_points(k).margin().filter(|&m| m > 0.0);
                        if let Some(m) = m.filter(|_| k.note.is_some()) {
                            let e = t.scaled.entry(k.stones).or_default();
                            if m.fract() == 0.5 { e.0 += 1 } else { e.1 += 1 }
                        }
                    }
                }
            }
            t
        };
        let half = files.len().div_ceil(2).max(1);
        let parts: Vec<Tally> = std::thread::scope(|s| {
            let workers: Vec<_> = files.chunks(half).map(|c| s.spawn(move || run(c))).collect();
            workers.into_iter().map(|w| w.join().unwrap()).collect()
        });
        let mut all = Tally::default();
        for p in parts {
            for (k, n) in p.refused {
                *all.refused.entry(k).or_default() += n;
            }
            for (k, n) in p.notices {
                *all.notices.entry(k).or_default() += n;
            }
            for (k, (n, pts)) in p.komi {
                all.komi.entry(k).or_insert((0, pts)).0 += n;
            }
            for (k, (a, b)) in p.scaled {
                let e = all.scaled.entry(k).or_default();
                e.0 += a;
                e.1 += b;
            }
        }

        eprintln!("RE read with a notice:");
        for ((kind, re), n) in &all.notices {
            eprintln!("  {kind:?} {n:>5}  RE[{re}]");
        }
        eprintln!("KM by folder (as written -> points):");
        for ((dir, km), (n, pts)) in &all.komi {
            eprintln!("  {dir:<24} KM[{km}] x{n} -> {pts}");
        }
        for (stones, (halves, others)) in &all.scaled {
            let unit = if *stones { "stones" } else { "points" };
            eprintln!("komi x100 in {unit}, scored RE: {halves} margins (in points) end in .5, {others} do not");
        }

        let refused: Vec<(&str, usize)> = all.refused.iter().map(|(k, &n)| (k.as_str(), n)).collect();
        assert_eq!(refused, REFUSED_IN_CORPUS, "refused RE values");
        // KGS big komi are written with decimals and never scaled; Fox's are.
        for ((dir, km), (_, pts)) in &all.komi {
            if dir == "fox-pro" {
                assert!([0.0, 4.5, 5.5, 6.5, 7.5].contains(pts), "fox-pro KM[{km}] -> {pts}");
            } else if km.contains('.') {
                assert_eq!(*pts, km.parse::<f64>().unwrap(), "{dir} KM[{km}]");
            }
        }
        // Scaled komi agree with the margins: 7.5 or 6.5 points give
        // margins ending in .5 (bare stone margins doubled first).
        for (stones, &(halves, others)) in &all.scaled {
            assert!(halves >= 20 && others * 5 <= halves, "komi x100 (stones: {stones}): {halves} end in .5, {others} do not");
        }
    }
}
