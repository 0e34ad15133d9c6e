//! Tygem `.gib` records.
//!
//! A header of `\[KEY=VALUE\]` lines between `\HS` and `\HE`, then the game
//! between `\GS` and `\GE`: `INI` gives the handicap, each `STO` line one
//! move (`STO 0 <number> <1 black, 2 white> <x> <y>`, 0-based from the top
//! left, on 19x19). The summary fields `GAMEINFOMAIN` and `GAMETAG` repeat
//! the result and komi in a compact form; `docs/formats.md` lists what is
//! read from where.

use std::collections::HashMap;

use super::{Color, Draft, ROOT, date, lines, offset_in, real, tygem_handicap};
use crate::diag::{Code, Diagnostic};

/// Tygem records are all 19x19.
const SIZE: usize = 19;

/// A header value and where it starts in the text.
type Header<'a> = HashMap<&'a str, (&'a str, u32)>;

pub(crate) fn read(text: &str, draft: &mut Draft, diagnostics: &mut Vec<Diagnostic>) -> Result<(), String> {
    let mut header: Header<'_> = HashMap::new();
    let mut body = Vec::new();
    for (at, line) in lines(text) {
        let trimmed = line.trim();
        match trimmed.strip_prefix("\\[").and_then(|f| f.strip_suffix("\\]")) {
            Some(field) => {
                if let Some((key, value)) = field.split_once('=') {
                    header.entry(key.trim()).or_insert((value.trim(), offset_in(at, line, value.trim())));
                }
            }
            None if !trimmed.is_empty() => body.push((at as u32, trimmed)),
            None => {}
        }
    }
    let found_moves = body.iter().any(|(_, line)| line.starts_with("INI") || line.starts_with("STO"));
    if header.is_empty() && !found_moves {
        return Err("no \\[...\\] header and no STO moves".into());
    }
    root(&header, draft, diagnostics);
    let mut moves = Moves { last: ROOT, number: None };
    for (at, line) in body {
        let fields: Vec<&str> = line.split_whitespace().collect();
        match fields[0] {
            "\\HS" | "\\HE" | "\\GS" | "\\GE" => {}
            "INI" => handicap(&fields, at, draft, &mut moves, diagnostics),
            "STO" => moves.stone(&fields, at, draft, diagnostics),
            // Counters before the moves (`2 1 0`, `119 0 &4`).
            word if word.bytes().all(|b| b.is_ascii_digit()) => {}
            _ => diagnostics.push(Diagnostic::new(Code::UnreadableLine, at, "a line of the game that is not INI or STO; it was skipped")),
        }
    }
    Ok(())
}

/// Where the moves are: the node they follow and the number of the last one.
struct Moves {
    last: usize,
    number: Option<u64>,
}

impl Moves {
    /// Checks that `number` follows the last one (lost lines show here).
    fn count(&mut self, number: Option<u64>, at: u32, diagnostics: &mut Vec<Diagnostic>) {
        if let (Some(last), Some(n)) = (self.number, number) {
            if n != last + 1 && !diagnostics.iter().any(|d| d.code == Code::InconsistentRecord) {
                diagnostics.push(Diagnostic::new(Code::InconsistentRecord, at, format!("move number {n} follows {last}: lines may be missing")));
            }
        }
        self.number = number.or(self.number.map(|n| n + 1));
    }

    /// `STO 0 <number> <colour> <x> <y>`.
    fn stone(&mut self, fields: &[&str], at: u32, draft: &mut Draft, diagnostics: &mut Vec<Diagnostic>) {
        let unreadable = |why: &str| Diagnostic::new(Code::UnreadableLine, at, format!("STO line {why}; it was skipped"));
        let [_, _, number, color, x, y, ..] = fields else {
            return diagnostics.push(unreadable("has fewer than 6 fields"));
        };
        let color = match *color {
            "1" => Color::Black,
            "2" => Color::White,
            other => return diagnostics.push(unreadable(&format!("names colour {other} (1 is black, 2 white)"))),
        };
        let (Ok(x), Ok(y)) = (x.parse::<usize>(), y.parse::<usize>()) else {
            return diagnostics.push(unreadable(&format!("has no point ({x} {y})")));
        };
        if x >= SIZE || y >= SIZE {
            return diagnostics.push(unreadable(&format!("plays ({x}, {y}), off the 19x19 board")));
        }
        self.count(number.parse().ok(), at, diagnostics);
        if let Some(node) = draft.play(self.last, color, Some((x, y)), 0, at) {
            self.last = node;
        }
    }
}

/// `INI 0 <number> <handicap> ...`: handicap stones where Tygem puts them.
fn handicap(fields: &[&str], at: u32, draft: &mut Draft, moves: &mut Moves, diagnostics: &mut Vec<Diagnostic>) {
    moves.number = fields.get(2).and_then(|n| n.parse().ok());
    let Some(stones) = fields.get(3).and_then(|h| h.parse::<usize>().ok()) else {
        return diagnostics.push(Diagnostic::new(Code::UnreadableLine, at, "INI line without a handicap; none was placed"));
    };
    if stones <= 1 {
        return;
    }
    let points = tygem_handicap(SIZE, stones);
    if points.is_empty() {
        return diagnostics.push(Diagnostic::new(Code::InvalidValue, at, format!("INI line with handicap {stones}; none was placed")));
    }
    draft.set(ROOT, "HA", stones.to_string(), at);
    for (x, y) in points {
        draft.add(ROOT, "AB", super::point(x, y), at);
    }
}

/// The root properties, from the header.
fn root(header: &Header<'_>, draft: &mut Draft, diagnostics: &mut Vec<Diagnostic>) {
    let mut props = Vec::new();
    props.push(("FF", "4".to_string(), 0));
    props.push(("GM", "1".to_string(), 0));
    props.push(("SZ", SIZE.to_string(), 0));
    let main = header.get("GAMEINFOMAIN").map(|&(v, at)| (fields(v, ':'), at));
    let tag = header.get("GAMETAG").map(|&(v, at)| (tag_fields(v), at));
    let from = |key: &str| {
        main.as_ref().and_then(|(f, at)| f.get(key).map(|v| (*v, *at))).or_else(|| {
            let short = match key {
                "GRLT" => "W",
                "ZIPSU" => "Z",
                "GONGJE" => "G",
                _ => return None,
            };
            tag.as_ref().and_then(|(f, at)| f.get(short).map(|v| (*v, *at)))
        })
    };
    for (key, id, rank) in [("GAMEWHITENAME", "PW", "WR"), ("GAMEBLACKNAME", "PB", "BR")] {
        let Some(&(value, at)) = header.get(key) else { continue };
        let (name, level) = name_and_rank(value);
        props.push((id, name.to_string(), at));
        if let Some(level) = level {
            props.push((rank, level.to_string(), at));
        }
    }
    let komi = from("GONGJE").or_else(|| header.get("GAMEGONGJE").copied());
    if let Some((gongje, at)) = komi {
        match gongje.trim().parse::<i64>() {
            Ok(tenths) => props.push(("KM", real(tenths as f64 / 10.0), at)),
            Err(_) => diagnostics.push(Diagnostic::new(Code::InvalidValue, at, format!("komi {gongje:?} is not a number of tenths; no KM"))),
        }
    }
    if let Some((day, at)) = game_date(header, tag.as_ref()) {
        props.push(("DT", day, at));
    }
    if let Some((grlt, at)) = from("GRLT") {
        if let Some(result) = result(grlt, from("ZIPSU").map(|(z, _)| z)) {
            props.push(("RE", result, at));
        }
    }
    for (key, id) in [("GAMENAME", "GN"), ("GAMEPLACE", "PC"), ("GAMECOMMENT", "GC")] {
        if let Some(&(value, at)) = header.get(key).filter(|(v, _)| !v.is_empty()) {
            props.push((id, value.to_string(), at));
        }
    }
    for (id, value, at) in props {
        draft.set(ROOT, id, value, at);
    }
}

/// `name (rank)` or `name(rank)`.
fn name_and_rank(value: &str) -> (&str, Option<&str>) {
    if let Some((name, rest)) = value.rsplit_once('(') {
        if let Some(rank) = rest.strip_suffix(')').filter(|r| !r.trim().is_empty()) {
            if !name.trim().is_empty() {
                return (name.trim(), Some(rank.trim()));
            }
        }
    }
    (value, None)
}

/// `GRLT` and `ZIPSU`: who won, and how (the margin in tenths).
fn result(grlt: &str, zipsu: Option<&str>) -> Option<String> {
    let margin = || zipsu.and_then(|z| z.trim().parse::<u32>().ok()).map(|z| real(f64::from(z) / 10.0));
    Some(match grlt.trim() {
        "0" => format!("B+{}", margin().unwrap_or_default()),
        "1" => format!("W+{}", margin().unwrap_or_default()),
        "3" => "B+R".into(),
        "4" => "W+R".into(),
        "7" => "B+T".into(),
        "8" => "W+T".into(),
        _ => return None,
    })
}

/// The date: `GAMETAG`'s `Cyyyy:mm:dd`, else `GAMEINFOSUB`'s `GDATE`, else
/// `GAMEDATE` (`2016- 3-26-17-29-25`).
fn game_date(header: &Header<'_>, tag: Option<&(HashMap<&str, &str>, u32)>) -> Option<(String, u32)> {
    let colon = |v: &str| {
        let mut parts = v.splitn(4, ':');
        date(parts.next()?, parts.next()?, parts.next()?)
    };
    let dashed = |v: &str| {
        let mut parts = v.splitn(4, '-');
        date(parts.next()?, parts.next()?, parts.next()?)
    };
    if let Some((tag, at)) = tag {
        if let Some(day) = tag.get("C").and_then(|c| colon(c)) {
            return Some((day, *at));
        }
    }
    if let Some((sub, at)) = header.get("GAMEINFOSUB").map(|&(v, at)| (fields(v, ':'), at)) {
        if let Some(day) = sub.get("GDATE").and_then(|d| dashed(d)) {
            return Some((day, at));
        }
    }
    header.get("GAMEDATE").and_then(|&(v, at)| Some((dashed(v)?, at)))
}

/// `KEY:VALUE,KEY:VALUE` (values may hold the separator: the key is before
/// its first occurrence).
fn fields(value: &str, separator: char) -> HashMap<&str, &str> {
    value.split(',').filter_map(|f| f.split_once(separator)).map(|(k, v)| (k.trim(), v.trim())).collect()
}

/// `GAMETAG`'s fields: a letter and its value (`W1`, `Z110`, `C2012:11:22:18:03`).
fn tag_fields(value: &str) -> HashMap<&str, &str> {
    let mut out = HashMap::new();
    for field in value.split(',').map(str::trim) {
        if let Some(letter) = field.get(..1).filter(|l| l.bytes().all(|b| b.is_ascii_uppercase())) {
            if field.as_bytes().get(1) != Some(&b':') {
                out.entry(letter).or_insert(&field[1..]);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_ranks() {
        assert_eq!(name_and_rank("leejw977 (10K)"), ("leejw977", Some("10K")));
        assert_eq!(name_and_rank("石下之臣(2段)"), ("石下之臣", Some("2段")));
        assert_eq!(name_and_rank("plain"), ("plain", None));
        assert_eq!(name_and_rank("(3D)"), ("(3D)", None));
    }

    #[test]
    fn results() {
        assert_eq!(result("1", Some("110")).as_deref(), Some("W+11"));
        assert_eq!(result("0", Some("5")).as_deref(), Some("B+0.5"));
        assert_eq!(result("7", Some("0")).as_deref(), Some("B+T"));
        assert_eq!(result("4", None).as_deref(), Some("W+R"));
        assert_eq!(result("255", Some("0")), None);
    }

    #[test]
    fn game_tag_fields_skip_the_named_ones() {
        let f = tag_fields("S1,R3,D5,G0,W255,Z0,T30-3-1200,\t\tC2016:03:26:17:29,I:leejw977,M:jy512");
        assert_eq!(f.get("C"), Some(&"2016:03:26:17:29"));
        assert_eq!(f.get("G"), Some(&"0"));
        assert_eq!(f.get("I"), None);
    }
}
