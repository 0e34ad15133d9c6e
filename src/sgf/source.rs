//! Maps byte offsets in a file's decoded text to 1-based line and column.
//!
//! Lines end at `\n`, `\r\n` or a lone `\r` (old Mac files). Columns count
//! characters (Unicode scalar values), as editors and compilers do.

use std::sync::{Arc, OnceLock};

use crate::diag::Diagnostic;

/// The decoded text of one file and where its lines start (found on first
/// use: most files have nothing to locate).
#[derive(Debug, Clone, Default)]
pub struct SourceMap {
    text: Arc<str>,
    line_starts: OnceLock<Vec<u32>>,
    /// The characters before each multiple of [`CHECKPOINT`] bytes: a
    /// column on a long line is then counted from the nearest checkpoint,
    /// not from the line's start (a whole collection on one line would
    /// cost a scan of the line per game).
    checkpoints: OnceLock<Vec<u32>>,
}

/// Bytes between two character-count checkpoints.
const CHECKPOINT: usize = 4096;

impl SourceMap {
    pub fn new(text: impl Into<Arc<str>>) -> SourceMap {
        SourceMap { text: text.into(), line_starts: OnceLock::new(), checkpoints: OnceLock::new() }
    }

    /// The decoded text, shared.
    pub fn shared_text(&self) -> &Arc<str> {
        &self.text
    }

    fn line_starts(&self) -> &[u32] {
        self.line_starts.get_or_init(|| {
            let bytes = self.text.as_bytes();
            let mut starts = vec![0u32];
            for i in memchr::memchr2_iter(b'\n', b'\r', bytes) {
                let lone_cr = bytes[i] == b'\r' && bytes.get(i + 1) != Some(&b'\n');
                if bytes[i] == b'\n' || lone_cr {
                    starts.push(i as u32 + 1);
                }
            }
            starts
        })
    }

    /// The decoded text.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// 1-based (line, column) of a byte offset; offsets past the end map to
    /// the end of the text.
    pub fn line_column(&self, offset: u32) -> (u32, u32) {
        let offset = (offset as usize).min(self.text.len());
        let starts = self.line_starts();
        let line = starts.partition_point(|&s| s as usize <= offset) - 1;
        let start = starts[line] as usize;
        let column = self.chars_between(start, self.floor_char_boundary(offset)) + 1;
        (line as u32 + 1, column as u32)
    }

    fn floor_char_boundary(&self, mut at: usize) -> usize {
        while !self.text.is_char_boundary(at) {
            at -= 1;
        }
        at
    }

    /// Characters in the text from byte `from` to byte `to` (`from <= to`,
    /// both character boundaries), in time bounded by `CHECKPOINT` however
    /// far apart they are.
    fn chars_between(&self, from: usize, to: usize) -> usize {
        if to - from <= 2 * CHECKPOINT {
            return count_chars(&self.text.as_bytes()[from..to]);
        }
        self.chars_before(to) - self.chars_before(from)
    }

    /// Characters that start before byte `at`.
    fn chars_before(&self, at: usize) -> usize {
        let bytes = self.text.as_bytes();
        let checkpoints = self.checkpoints.get_or_init(|| {
            let mut total = 0u32;
            let mut counts = vec![0];
            for chunk in bytes.chunks_exact(CHECKPOINT) {
                total += count_chars(chunk) as u32;
                counts.push(total);
            }
            counts
        });
        let k = at / CHECKPOINT;
        checkpoints[k] as usize + count_chars(&bytes[k * CHECKPOINT..at])
    }

    /// The text of a 1-based line, without its line ending.
    pub fn line_text(&self, line: u32) -> &str {
        let starts = self.line_starts();
        let i = (line as usize).saturating_sub(1).min(starts.len() - 1);
        let start = starts[i] as usize;
        let end = starts.get(i + 1).map_or(self.text.len(), |&e| e as usize);
        self.text[start..end].trim_end_matches(['\n', '\r'])
    }

    /// Locates many diagnostics at once: in offset order, counting the
    /// characters of each line only once (a whole game on one line, as Fox
    /// writes them, would otherwise cost a scan per diagnostic).
    pub fn locate_all(&self, diagnostics: &mut [Diagnostic]) {
        let mut order: Vec<usize> = (0..diagnostics.len()).collect();
        order.sort_by_key(|&i| diagnostics[i].offset);
        let mut last: Option<(usize, u32, u32)> = None; // (offset, line, column)
        for i in order {
            let offset = (diagnostics[i].offset as usize).min(self.text.len());
            let (line, column) = match last {
                Some((at, line, column)) if self.same_line(at, offset) => {
                    let (from, to) = (self.floor_char_boundary(at), self.floor_char_boundary(offset));
                    (line, column + self.chars_between(from, to) as u32)
                }
                _ => self.line_column(offset as u32),
            };
            last = Some((offset, line, column));
            diagnostics[i].line = line;
            diagnostics[i].column = column;
        }
    }

    /// Whether no line break lies between two offsets (`a <= b`).
    fn same_line(&self, a: usize, b: usize) -> bool {
        let starts = self.line_starts();
        starts.partition_point(|&s| s as usize <= a) == starts.partition_point(|&s| s as usize <= b)
    }

    /// Fills in `line` and `column` from the diagnostic's offset.
    pub fn locate(&self, diagnostic: &mut Diagnostic) {
        let (line, column) = self.line_column(diagnostic.offset);
        diagnostic.line = line;
        diagnostic.column = column;
    }
}

/// Turns byte offsets into 1-based line and column exactly as
/// [`SourceMap::line_column`] does, but incrementally: offsets mostly come
/// in increasing order, and counting each from its line's start would be
/// quadratic on the many files that are one long line. Locating a few
/// offsets near the start (a game's root in a file of one game) needs no
/// line table at all.
pub struct Locator<'a> {
    source: &'a SourceMap,
    bytes: &'a [u8],
    /// A char boundary; `line` and `column` are those of `pos`.
    pos: usize,
    line: u32,
    column: u32,
}

impl<'a> Locator<'a> {
    pub fn new(source: &'a SourceMap) -> Locator<'a> {
        Locator { source, bytes: source.text().as_bytes(), pos: 0, line: 1, column: 1 }
    }

    pub fn locate(&mut self, offset: u32) -> (u32, u32) {
        let target = (offset as usize).min(self.bytes.len());
        if target < self.pos {
            let (line, column) = self.source.line_column(offset);
            let mut pos = target;
            while !self.source.text().is_char_boundary(pos) {
                pos -= 1;
            }
            (self.pos, self.line, self.column) = (pos, line, column);
            return (line, column);
        }
        while self.pos < target {
            let b = self.bytes[self.pos];
            let len = match b {
                0x00..=0x7f => 1,
                0xc0..=0xdf => 2,
                0xe0..=0xef => 3,
                _ => 4,
            };
            if self.pos + len > target {
                break; // the offset is inside this character
            }
            self.pos += len;
            let lone_cr = b == b'\r' && self.bytes.get(self.pos) != Some(&b'\n');
            if b == b'\n' || lone_cr {
                self.line += 1;
                self.column = 1;
            } else {
                self.column += 1;
            }
        }
        (self.line, self.column)
    }
}

/// The characters that start in `bytes` (UTF-8): bytes that are not
/// continuation bytes.
fn count_chars(bytes: &[u8]) -> usize {
    bytes.iter().filter(|&&b| (b as i8) >= -0x40).count()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_and_columns() {
        let map = SourceMap::new("ab\ncé\r\nx\ry".to_string());
        assert_eq!(map.line_column(0), (1, 1));
        assert_eq!(map.line_column(3), (2, 1));
        assert_eq!(map.line_column(6), (2, 3)); // after the two-byte é
        assert_eq!(map.line_column(8), (3, 1));
        assert_eq!(map.line_column(10), (4, 1));
        assert_eq!(map.line_column(99), (4, 2));
        assert_eq!(map.line_text(2), "cé");
        assert_eq!(map.line_text(4), "y");
    }

    #[test]
    fn columns_on_a_long_line_count_from_checkpoints() {
        let line = "é".repeat(3 * CHECKPOINT) + "x" + &"ab".repeat(CHECKPOINT);
        let map = SourceMap::new(format!("first\n{line}"));
        let x = 6 + 6 * CHECKPOINT;
        assert_eq!(&map.text()[x..x + 1], "x");
        assert_eq!(map.line_column(x as u32), (2, 3 * CHECKPOINT as u32 + 1));
        assert_eq!(map.line_column(x as u32 + 1 + 2 * CHECKPOINT as u32), (2, 5 * CHECKPOINT as u32 + 2));
        // Inside the two bytes of an 'é': its column.
        assert_eq!(map.line_column(x as u32 - 1), (2, 3 * CHECKPOINT as u32));
    }

    #[test]
    fn locate_all_matches_locate() {
        let map = SourceMap::new("ab\ncé;é;x\ry".to_string());
        let mut many: Vec<Diagnostic> = [9u32, 0, 3, 6, 8, 12, 13].iter().map(|&o| Diagnostic::new(crate::diag::Code::EmptyNode, o, "")).collect();
        let mut one = many.clone();
        map.locate_all(&mut many);
        for d in &mut one {
            map.locate(d);
        }
        assert_eq!(many, one);
    }

    #[test]
    fn locator_matches_source_map_in_any_order() {
        let map = SourceMap::new("ab\ncé\r\nx\ry\r\n\n漢字z\r".to_string());
        let mut loc = Locator::new(&map);
        let n = map.text().len() as u32 + 2;
        let order: Vec<u32> = (0..n).chain((0..n).rev()).chain((0..n).step_by(3)).chain([5, 2, 14, 1]).collect();
        for off in order {
            assert_eq!(loc.locate(off), map.line_column(off), "offset {off}");
        }
    }
}
