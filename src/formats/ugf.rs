//! Pandanet (IGS) `.ugf` and `.ugi` records.
//!
//! Sections in brackets: `[Header]` (`Key=value` lines), `[Data]` (the
//! game: `<point>,<colour>1,<number>,<time>` a move, number 0 for handicap
//! stones), `[ReviewNode]` (the review tree: `NODE,<id>,<0 root, 1 black,
//! 2 white>,<x>,<y>` with `VARIATION,` ... `VARIATIONEND,` around each
//! variation) and `[ReviewComment]` (`.Comment,<node id>` and the lines of
//! its text). Points are IGS coordinates: column letter from `A`, row
//! letter counted from the bottom (`QP` is `qd` on 19x19); off the board
//! (Pandanet writes `YA`) is a pass. `docs/formats.md` has the details.

use std::collections::HashMap;

use super::{Color, Declared, Draft, ROOT, date, lines, offset_in};
use crate::diag::{Code, Diagnostic};

/// `Lang=` in the header, found in the raw bytes before decoding.
pub(crate) fn declared_charset(bytes: &[u8]) -> Option<Declared> {
    let mut offset = 0;
    for line in bytes.split(|&b| b == b'\n') {
        let start = offset;
        offset += line.len() + 1;
        let line = line.trim_ascii();
        if line.eq_ignore_ascii_case(b"[data]") {
            return None;
        }
        if line.len() > 5 && line[..5].eq_ignore_ascii_case(b"lang=") {
            let label = String::from_utf8_lossy(line[5..].trim_ascii()).into_owned();
            let written = format!("Lang={label}");
            let offset = if bytes[..start].is_ascii() { start as u32 } else { 0 };
            return Some(Declared { label, written, offset });
        }
    }
    None
}

/// A line of a section: where it starts and its text (trimmed).
type Line<'a> = (u32, &'a str);

#[derive(Default)]
struct Sections<'a> {
    header: Vec<Line<'a>>,
    data: Vec<Line<'a>>,
    review: Vec<Line<'a>>,
    comments: Vec<Line<'a>>,
}

pub(crate) fn read(text: &str, draft: &mut Draft, diagnostics: &mut Vec<Diagnostic>) -> Result<(), String> {
    let mut sections = Sections::default();
    let mut section: Option<&mut Vec<Line<'_>>> = None;
    let mut known = false;
    for (at, line) in lines(text) {
        let trimmed = line.trim();
        if let Some(name) = trimmed.strip_prefix('[').and_then(|t| t.strip_suffix(']')) {
            section = match name.to_ascii_lowercase().as_str() {
                "header" => Some(&mut sections.header),
                "data" => Some(&mut sections.data),
                "reviewnode" => Some(&mut sections.review),
                "reviewcomment" => Some(&mut sections.comments),
                // Other sections (`[Figure]`, ...) hold nothing kifu reads.
                _ => None,
            };
            known |= section.is_some();
            continue;
        }
        if let Some(lines) = section.as_mut() {
            lines.push((offset_in(at, line, trimmed), trimmed));
        }
    }
    if !known {
        return Err("no [Header] or [Data] section".into());
    }
    let header = Header::read(&sections.header, draft, diagnostics)?;
    let data = data(&sections.data, &header, draft, diagnostics);
    let review = review(&sections.review, &header, draft, diagnostics);
    // Comments name review nodes; without a review, node n + 1 is move n.
    let node_of = |id: u64| if sections.review.is_empty() { id.checked_sub(1).and_then(|n| data.get(&n).copied()) } else { review.get(&id).copied() };
    comments(&sections.comments, &node_of, draft, diagnostics);
    Ok(())
}

/// What the header says that the moves need.
struct Header {
    size: usize,
}

impl Header {
    fn read(lines: &[Line<'_>], draft: &mut Draft, diagnostics: &mut Vec<Diagnostic>) -> Result<Header, String> {
        let fields: HashMap<String, (u32, &str)> = lines
            .iter()
            .filter_map(|&(at, line)| line.split_once('=').map(|(k, v)| (k.trim().to_ascii_lowercase(), (at + k.len() as u32 + 1, v.trim()))))
            .collect();
        let get = |key: &str| fields.get(key).copied();
        if let Some((_, crypt)) = get("crypt").filter(|(_, c)| c.split(',').next().is_some_and(|f| f.trim() != "0")) {
            return Err(format!("it is encrypted (Crypt={crypt})"));
        }
        let size = match get("size") {
            Some((at, s)) => match s.parse::<usize>() {
                Ok(n) if (2..=52).contains(&n) => n,
                _ => {
                    diagnostics.push(Diagnostic::new(Code::InvalidValue, at, format!("Size={s} is not a board size; read as 19x19")));
                    19
                }
            },
            None => 19,
        };
        if let Some((at, kind)) = get("coordinatetype").filter(|(_, c)| !c.eq_ignore_ascii_case("IGS")) {
            diagnostics.push(Diagnostic::new(Code::UnreadableLine, at, format!("CoordinateType={kind} is not known; the points were read as IGS coordinates")));
        }
        draft.set(ROOT, "FF", "4", 0);
        draft.set(ROOT, "GM", "1", 0);
        draft.set(ROOT, "SZ", size.to_string(), get("size").map_or(0, |(at, _)| at));
        for (key, id, rank) in [("playerw", "PW", "WR"), ("playerb", "PB", "BR")] {
            let Some((at, value)) = get(key) else { continue };
            let mut parts = value.split(',').map(str::trim);
            draft.set(ROOT, id, parts.next().unwrap_or(""), at);
            if let Some(level) = parts.next().filter(|r| !r.is_empty()) {
                draft.set(ROOT, rank, level, at);
            }
        }
        if let Some((at, hdcp)) = get("hdcp") {
            let (stones, komi) = hdcp.split_once(',').unwrap_or((hdcp, ""));
            match stones.trim().parse::<u32>() {
                Ok(n) if n >= 2 => draft.set(ROOT, "HA", n.to_string(), at),
                Ok(_) => {}
                Err(_) => diagnostics.push(Diagnostic::new(Code::InvalidValue, at, format!("Hdcp={hdcp}: the handicap is not a number"))),
            }
            match komi.trim().parse::<f64>() {
                Ok(k) if k.is_finite() => draft.set(ROOT, "KM", komi.trim(), at),
                _ => diagnostics.push(Diagnostic::new(Code::InvalidValue, at, format!("Hdcp={hdcp}: no komi after the handicap"))),
            }
        }
        if let Some((at, value)) = get("date") {
            let mut parts = value.split(',').next().unwrap_or("").splitn(3, '/');
            if let Some(day) = date(parts.next().unwrap_or(""), parts.next().unwrap_or(""), parts.next().unwrap_or("")) {
                draft.set(ROOT, "DT", day, at);
            }
        }
        if let Some((at, rule)) = get("rule").filter(|(_, r)| !r.is_empty()) {
            let name = match rule.to_ascii_uppercase().as_str() {
                "JPN" => "Japanese",
                "CHN" => "Chinese",
                "KOR" => "Korean",
                _ => rule,
            };
            draft.set(ROOT, "RU", name, at);
        }
        if let Some((at, winner)) = get("winner") {
            match result(winner) {
                Some(re) => draft.set(ROOT, "RE", re, at),
                None => diagnostics.push(Diagnostic::new(Code::InvalidValue, at, format!("Winner={winner} is not a result kifu reads; no RE"))),
            }
        }
        for (key, id) in [("title", "GN"), ("place", "PC"), ("copyright", "CP"), ("comment", "GC")] {
            if let Some((at, value)) = get(key).filter(|(_, v)| !v.is_empty()) {
                draft.set(ROOT, id, value, at);
            }
        }
        Ok(Header { size })
    }

    /// An IGS point from its column and row (1-based, rows from the
    /// bottom); `None` off the board (a pass).
    fn point(&self, x: usize, y: usize) -> Option<(usize, usize)> {
        (1..=self.size).contains(&x).then_some(())?;
        (1..=self.size).contains(&y).then(|| (x - 1, self.size - y))
    }
}

/// `B,7.50` (a margin), `W,R` (other reasons as written).
fn result(winner: &str) -> Option<String> {
    let (who, how) = winner.split_once(',').unwrap_or((winner, ""));
    let who = match who.trim() {
        "B" => "B",
        "W" => "W",
        _ => return None,
    };
    Some(format!("{who}+{}", how.trim()))
}

/// The `[Data]` moves as the main line; returns the node of each move
/// number.
fn data(lines: &[Line<'_>], header: &Header, draft: &mut Draft, diagnostics: &mut Vec<Diagnostic>) -> HashMap<u64, usize> {
    let mut nodes = HashMap::new();
    let mut last = ROOT;
    let mut expected = 1;
    for &(at, line) in lines {
        let fields: Vec<&str> = line.split(',').map(str::trim).collect();
        let read = match fields[..] {
            [point, color, number, ..] => {
                let letters = point.as_bytes();
                let color = match color.as_bytes().first() {
                    Some(b'B') => Some(Color::Black),
                    Some(b'W') => Some(Color::White),
                    _ => None,
                };
                match (letters, color, number.parse::<u64>()) {
                    ([x, y], Some(color), Ok(number)) if x.is_ascii_uppercase() && y.is_ascii_uppercase() => {
                        Some((header.point(usize::from(x - b'A') + 1, usize::from(y - b'A') + 1), color, number))
                    }
                    _ => None,
                }
            }
            _ => None,
        };
        let Some((point, color, number)) = read else {
            diagnostics.push(Diagnostic::new(Code::UnreadableLine, at, "a [Data] line that is not <point>,<B|W>1,<number>,<time>; it was skipped"));
            continue;
        };
        if number == 0 {
            match point.filter(|_| color == Color::Black) {
                Some((x, y)) => draft.add(ROOT, "AB", super::point(x, y), at),
                None => diagnostics.push(Diagnostic::new(Code::UnreadableLine, at, "a handicap stone that is not a black stone on the board; it was skipped")),
            }
            continue;
        }
        if number != expected && !diagnostics.iter().any(|d| d.code == Code::InconsistentRecord) {
            diagnostics.push(Diagnostic::new(Code::InconsistentRecord, at, format!("move {number} where move {expected} was expected")));
        }
        expected = number + 1;
        let Some(node) = draft.play(last, color, point, 0, at) else { break };
        last = node;
        nodes.insert(number, node);
    }
    nodes
}

/// The `[ReviewNode]` tree, merged into the moves read so far: a review
/// node playing the move a node already has is that node, any other is a
/// new variation. Returns the node of each review id.
fn review(lines: &[Line<'_>], header: &Header, draft: &mut Draft, diagnostics: &mut Vec<Diagnostic>) -> HashMap<u64, usize> {
    let mut nodes = HashMap::new();
    let mut current = ROOT;
    let mut open: Vec<usize> = Vec::new();
    for &(at, line) in lines {
        let fields: Vec<&str> = line.split(',').map(str::trim).collect();
        match fields[..] {
            ["VARIATION", ..] => open.push(current),
            ["VARIATIONEND", ..] => match open.pop() {
                Some(node) => current = node,
                None => diagnostics.push(Diagnostic::new(Code::InconsistentRecord, at, "VARIATIONEND closes no VARIATION; it was ignored")),
            },
            ["NODE", id, color, x, y, ..] => {
                let numbers = (id.parse::<u64>(), x.parse::<usize>(), y.parse::<usize>());
                let (Ok(id), Ok(x), Ok(y)) = numbers else {
                    diagnostics.push(Diagnostic::new(Code::UnreadableLine, at, "a NODE line that is not NODE,<id>,<colour>,<x>,<y>; it was skipped"));
                    continue;
                };
                let color = match color {
                    "0" => {
                        nodes.insert(id, current);
                        continue;
                    }
                    "1" => Color::Black,
                    "2" => Color::White,
                    other => {
                        diagnostics.push(Diagnostic::new(Code::UnreadableLine, at, format!("a NODE of colour {other} (1 is black, 2 white); it was skipped")));
                        continue;
                    }
                };
                let point = header.point(x, y);
                let existing = draft.child_playing(current, color, point);
                let Some(node) = existing.or_else(|| draft.play(current, color, point, open.len() as u32, at)) else { break };
                nodes.insert(id, node);
                current = node;
            }
            _ => diagnostics.push(Diagnostic::new(Code::UnreadableLine, at, "a [ReviewNode] line that is not NODE, VARIATION or VARIATIONEND; it was skipped")),
        }
    }
    nodes
}

/// `.Comment,<node>` and the lines after it, each trimmed and ended by a
/// line break; blank lines at the end of a comment are dropped.
fn comments(lines: &[Line<'_>], node_of: &dyn Fn(u64) -> Option<usize>, draft: &mut Draft, diagnostics: &mut Vec<Diagnostic>) {
    let mut i = 0;
    while i < lines.len() {
        let (at, line) = lines[i];
        i += 1;
        let Some(id) = line.strip_prefix(".Comment,") else {
            diagnostics.push(Diagnostic::new(Code::UnreadableLine, at, "comment text before any .Comment line; it was skipped"));
            continue;
        };
        let body: Vec<Line<'_>> = lines[i..].iter().take_while(|(_, l)| !l.starts_with(".Comment,")).copied().collect();
        i += body.len();
        let text_lines = body.iter().rposition(|(_, l)| !l.is_empty()).map_or(&body[..0], |last| &body[..=last]);
        let Some(node) = id.trim().parse::<u64>().ok().and_then(node_of) else {
            diagnostics.push(Diagnostic::new(Code::UnreadableLine, at, format!("a comment on node {id}, which the record does not have; it was skipped")));
            continue;
        };
        let text: String = text_lines.iter().map(|(_, l)| format!("{l}\n")).collect();
        if !text.is_empty() {
            draft.add(node, "C", text, text_lines[0].0);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn igs_points_count_rows_from_the_bottom() {
        let header = Header { size: 19 };
        assert_eq!(header.point(17, 16), Some((16, 3))); // QP: qd
        assert_eq!(header.point(4, 16), Some((3, 3))); // DP: dd
        assert_eq!(header.point(25, 1), None); // YA: a pass
        assert_eq!(header.point(0, 0), None);
    }

    #[test]
    fn winners() {
        assert_eq!(result("B,7.50").as_deref(), Some("B+7.50"));
        assert_eq!(result("W,R").as_deref(), Some("W+R"));
        assert_eq!(result("?"), None);
    }

    #[test]
    fn lang_is_found_before_decoding() {
        let d = declared_charset(b"[Header]\r\nVer=UGF3,200\r\nLang=SJIS\r\n[Data]\r\n").unwrap();
        assert_eq!((d.label.as_str(), d.written.as_str(), d.offset), ("SJIS", "Lang=SJIS", 24));
        assert!(declared_charset(b"[Header]\n[Data]\nLang=x\n").is_none());
    }
}
