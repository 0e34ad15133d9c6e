//! WBaduk (Oro, Cyberoro) `.ngf` records.
//!
//! Twelve header lines in a fixed order (title, board size, White, Black,
//! site, handicap, an unknown number, komi, date, an unknown number,
//! result, number of moves), then one `PM` line a move:
//! `PM<number><colour><x><y><y><x>`, the number in two letters (`AB` is
//! move 1), the point in letters from `B` (the first line) written twice,
//! the second time mirrored. An older form prefixes the header lines with
//! `GI` (title, White, Black, two unknown lines, date, board size,
//! handicap, an unknown number, komi, number of moves) and adds comments as
//! `IDB[<move>] <text>[EndTxt]`. `docs/formats.md` has the details.

use super::{Color, Draft, ROOT, date, lines, offset_in, real, tygem_handicap};
use crate::diag::{Code, Diagnostic};

/// Whether the text has the shape of a WBaduk record: a `GI` header, or a
/// board size on the second line; and `PM` move lines.
pub(crate) fn looks_like(head: &[u8]) -> bool {
    let text = String::from_utf8_lossy(&head[..head.len().min(4096)]);
    let mut lines = text.lines();
    let first = lines.next().unwrap_or("");
    let sized = first.starts_with("GI") || lines.next().is_some_and(|l| l.trim().parse::<u8>().is_ok_and(|n| (2..=52).contains(&n)));
    sized && text.lines().any(|l| move_fields(l.trim()).is_some())
}

/// Which header line holds what, in the two layouts.
struct Layout {
    title: usize,
    size: usize,
    white: usize,
    black: usize,
    site: Option<usize>,
    handicap: usize,
    komi: usize,
    date: usize,
    result: Option<usize>,
    moves: usize,
}

const PLAIN: Layout = Layout { title: 0, size: 1, white: 2, black: 3, site: Some(4), handicap: 5, komi: 7, date: 8, result: Some(10), moves: 11 };
const GI: Layout = Layout { title: 0, white: 1, black: 2, site: None, date: 5, size: 6, handicap: 7, komi: 9, result: None, moves: 10 };

/// A header line: where it starts and its text.
type Line<'a> = (usize, &'a str);

pub(crate) fn read(text: &str, draft: &mut Draft, diagnostics: &mut Vec<Diagnostic>) -> Result<(), String> {
    let all: Vec<Line<'_>> = lines(text).collect();
    let gi = all.first().is_some_and(|(_, l)| l.starts_with("GI"));
    let (layout, header): (&Layout, Vec<Line<'_>>) = if gi {
        (&GI, all.iter().take_while(|(_, l)| l.starts_with("GI")).map(|&(at, l)| (at + 2, &l[2..])).collect())
    } else {
        (&PLAIN, all.iter().take(12).copied().collect())
    };
    let get = |i: usize| header.get(i).map(|&(at, l)| (at as u32, l.trim()));
    let size = get(layout.size).and_then(|(_, s)| s.parse::<usize>().ok()).filter(|n| (2..=52).contains(n));
    let Some(size) = size else {
        return Err(format!("line {} should be the board size", layout.size + 1));
    };
    let body = &all[header.len().min(all.len())..];
    root(layout, &get, size, draft, diagnostics);
    let moves = play(body, size, draft, diagnostics);
    if let Some((at, count)) = get(layout.moves) {
        if count.parse::<usize>().is_ok_and(|n| n != moves.len()) {
            let message = format!("the header says {count} moves but {} PM lines were read", moves.len());
            diagnostics.push(Diagnostic::new(Code::InconsistentRecord, at, message));
        }
    }
    comments(body, &moves, draft, diagnostics);
    Ok(())
}

fn root<'a>(layout: &Layout, get: &dyn Fn(usize) -> Option<(u32, &'a str)>, size: usize, draft: &mut Draft, diagnostics: &mut Vec<Diagnostic>) {
    draft.set(ROOT, "FF", "4", 0);
    draft.set(ROOT, "GM", "1", 0);
    draft.set(ROOT, "SZ", size.to_string(), get(layout.size).map_or(0, |(at, _)| at));
    for (line, id, rank) in [(layout.white, "PW", "WR"), (layout.black, "PB", "BR")] {
        let Some((at, value)) = get(line).filter(|(_, v)| !v.is_empty()) else { continue };
        let (name, level) = name_and_rank(value);
        draft.set(ROOT, id, name, at);
        if let Some(level) = level {
            draft.set(ROOT, rank, level, at);
        }
    }
    let handicap = get(layout.handicap).and_then(|(at, h)| Some((at, h.parse::<usize>().ok()?)));
    let stones = handicap.map_or(0, |(_, h)| h);
    if let Some((at, stones)) = handicap.filter(|&(_, h)| h >= 2) {
        let points = tygem_handicap(size, stones);
        if points.is_empty() {
            diagnostics.push(Diagnostic::new(Code::InvalidValue, at, format!("handicap {stones} on {size}x{size}: no stones were placed")));
        } else {
            draft.set(ROOT, "HA", stones.to_string(), at);
            for (x, y) in points {
                draft.add(ROOT, "AB", super::point(x, y), at);
            }
        }
    }
    if let Some((at, komi)) = get(layout.komi) {
        match komi.parse::<f64>() {
            // Komi is written in whole points; even games add the half point.
            Ok(k) if k.is_finite() => draft.set(ROOT, "KM", real(if stones == 0 && k.fract() == 0.0 { k + 0.5 } else { k }), at),
            _ => diagnostics.push(Diagnostic::new(Code::InvalidValue, at, format!("komi {komi:?} is not a number; no KM"))),
        }
    }
    if let Some((at, day)) = get(layout.date).and_then(|(at, d)| Some((at, game_date(d)?))) {
        draft.set(ROOT, "DT", day, at);
    }
    if let Some((at, re)) = layout.result.and_then(get).and_then(|(at, r)| Some((at, result(r)?))) {
        draft.set(ROOT, "RE", re, at);
    }
    for (line, id) in [(Some(layout.title), "GN"), (layout.site, "PC")] {
        if let Some((at, value)) = line.and_then(get).filter(|(_, v)| !v.is_empty()) {
            draft.set(ROOT, id, value, at);
        }
    }
}

/// The `PM` lines, in order, as nodes of the main line (index `k` is move
/// `k + 1`).
fn play(body: &[Line<'_>], size: usize, draft: &mut Draft, diagnostics: &mut Vec<Diagnostic>) -> Vec<usize> {
    let mut moves = Vec::new();
    let mut last = ROOT;
    for &(at, line) in body {
        let trimmed = line.trim();
        if !trimmed.starts_with("PM") {
            continue;
        }
        let at = offset_in(at, line, trimmed);
        let Some((number, color, point, mirrored)) = move_fields(trimmed) else {
            diagnostics.push(Diagnostic::new(Code::UnreadableLine, at, "a PM line that is not PM<number><B|W><4 letters>; it was skipped"));
            continue;
        };
        let point = match point {
            None => None,
            Some((x, y)) if x < size && y < size => Some((x, y)),
            Some(_) => {
                diagnostics.push(Diagnostic::new(Code::UnreadableLine, at, format!("a move off the {size}x{size} board; it was skipped")));
                continue;
            }
        };
        let first_inconsistency = !diagnostics.iter().any(|d| d.code == Code::InconsistentRecord);
        if number != moves.len() + 1 && first_inconsistency {
            diagnostics.push(Diagnostic::new(Code::InconsistentRecord, at, format!("move {number} where move {} was expected", moves.len() + 1)));
        } else if !mirrored && first_inconsistency {
            diagnostics.push(Diagnostic::new(Code::InconsistentRecord, at, "the point is not repeated mirrored; the first letters were read"));
        }
        let Some(node) = draft.play(last, color, point, 0, at) else { break };
        last = node;
        moves.push(node);
    }
    moves
}

/// `PM<number><colour><x><y><y><x>`: the move number, colour, point
/// (`None`: a pass, `AA`) and whether the mirrored copy agrees.
#[allow(clippy::type_complexity)]
fn move_fields(line: &str) -> Option<(usize, Color, Option<(usize, usize)>, bool)> {
    let b = line.as_bytes();
    if b.len() < 9 || !line.starts_with("PM") || !b[2..9].iter().all(u8::is_ascii_uppercase) {
        return None;
    }
    let number = usize::from(b[2] - b'A') * 26 + usize::from(b[3] - b'A');
    let color = match b[4] {
        b'B' => Color::Black,
        b'W' => Color::White,
        _ => return None,
    };
    let point = match (b[5], b[6]) {
        (b'A', b'A') => None,
        (b'A', _) | (_, b'A') => return None,
        (x, y) => Some((usize::from(x - b'B'), usize::from(y - b'B'))),
    };
    Some((number, color, point, b[7] == b[6] && b[8] == b[5]))
}

/// `IDB[<move>] <text>[EndTxt]` (the text may run over several lines): a
/// comment on that move (0: the root).
fn comments(body: &[Line<'_>], moves: &[usize], draft: &mut Draft, diagnostics: &mut Vec<Diagnostic>) {
    let mut open: Option<(usize, u32, String)> = None;
    for &(at, line) in body {
        let rest = match &mut open {
            Some((_, _, text)) => {
                text.push('\n');
                line
            }
            None => {
                let Some(rest) = line.trim_start().strip_prefix("IDB[") else { continue };
                let Some((number, text)) = rest.split_once(']') else {
                    diagnostics.push(Diagnostic::new(Code::UnreadableLine, at as u32, "an IDB line without its move number; it was skipped"));
                    continue;
                };
                let node = match number.trim().parse::<usize>() {
                    Ok(0) => Some(ROOT),
                    Ok(n) => moves.get(n - 1).copied(),
                    Err(_) => None,
                };
                let Some(node) = node else {
                    diagnostics.push(Diagnostic::new(Code::UnreadableLine, at as u32, format!("a comment on move {number}, which the record does not have")));
                    continue;
                };
                open = Some((node, offset_in(at, line, text), String::new()));
                text.trim_start()
            }
        };
        let Some((node, offset, text)) = &mut open else { continue };
        match rest.split_once("[EndTxt]") {
            Some((end, _)) => {
                text.push_str(end.trim_end());
                draft.add(*node, "C", std::mem::take(text), *offset);
                open = None;
            }
            None => text.push_str(rest),
        }
    }
    if let Some((node, offset, text)) = open {
        draft.add(node, "C", text.trim_end(), offset);
    }
}

/// `LQC         9DP`: the name, and a rank after it (`9DP` is `9p`, `7D*`
/// `7d*`, `15K` `15k`; other ranks, such as `初段`, as written).
fn name_and_rank(value: &str) -> (String, Option<String>) {
    let words: Vec<&str> = value.split_whitespace().collect();
    match words.split_last() {
        Some((last, name)) if !name.is_empty() && is_rank(last) => {
            let rank = last.replace("DP", "p").replace('D', "d").replace('K', "k");
            (name.join(" "), Some(rank))
        }
        _ => (value.to_string(), None),
    }
}

fn is_rank(word: &str) -> bool {
    word.starts_with(|c: char| c.is_ascii_digit()) || ["段", "级", "級", "급", "단"].iter().any(|s| word.ends_with(s))
}

/// `20170316 [09:37]` or `2006-9-5`.
fn game_date(value: &str) -> Option<String> {
    let digits = value.get(..8).filter(|d| d.bytes().all(|b| b.is_ascii_digit()));
    if let Some(d) = digits {
        return date(&d[..4], &d[4..6], &d[6..8]);
    }
    let mut parts = value.split_whitespace().next()?.splitn(3, ['-', '/', '.']);
    date(parts.next()?, parts.next()?, parts.next()?)
}

/// `Black wins by 0.5!`, `White wins by  resign!`, `... by time!`.
fn result(value: &str) -> Option<String> {
    let lower = value.to_ascii_lowercase();
    let winner = if lower.contains("white win") || lower.contains("black lose") {
        "W"
    } else if lower.contains("black win") || lower.contains("white lose") {
        "B"
    } else {
        return None;
    };
    let margin = if lower.contains("resign") {
        "R".to_string()
    } else if lower.contains("time") {
        "T".to_string()
    } else {
        lower.split(|c: char| !(c.is_ascii_digit() || c == '.')).find(|w| w.parse::<f64>().is_ok()).unwrap_or("").to_string()
    };
    Some(format!("{winner}+{margin}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn move_lines() {
        assert_eq!(move_fields("PMABBREER"), Some((1, Color::Black, Some((16, 3)), true)));
        assert_eq!(move_fields("PMMIWBBBB"), Some((12 * 26 + 8, Color::White, Some((0, 0)), true)));
        assert_eq!(move_fields("PMACWAAAA"), Some((2, Color::White, None, true)));
        assert_eq!(move_fields("PMABBREEX").map(|m| m.3), Some(false));
        assert_eq!(move_fields("PMABXREER"), None);
        assert_eq!(move_fields("PMAB"), None);
    }

    #[test]
    fn players_results_dates() {
        assert_eq!(name_and_rank("LQC         9DP"), ("LQC".into(), Some("9p".into())));
        assert_eq!(name_and_rank("ace550      7D*"), ("ace550".into(), Some("7d*".into())));
        assert_eq!(name_and_rank("朴承华 初段"), ("朴承华".into(), Some("初段".into())));
        assert_eq!(name_and_rank("Lee Sedol"), ("Lee Sedol".into(), None));
        assert_eq!(result("Black wins by 0.5!").as_deref(), Some("B+0.5"));
        assert_eq!(result("White wins by  resign!").as_deref(), Some("W+R"));
        assert_eq!(result("Black wins by time!").as_deref(), Some("B+T"));
        assert_eq!(result("Jigo"), None);
        assert_eq!(game_date("20170316 [09:37]").as_deref(), Some("2017-03-16"));
        assert_eq!(game_date("2006-9-5").as_deref(), Some("2006-09-05"));
    }
}
