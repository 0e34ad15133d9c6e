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
}

impl SourceMap {
    pub fn new(text: impl Into<Arc<str>>) -> SourceMap {
        SourceMap { text: text.into(), line_starts: OnceLock::new() }
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
        let mut end = offset;
        while !self.text.is_char_boundary(end) {
            end -= 1;
        }
        let column = self.text[start..end].chars().count() + 1;
        (line as u32 + 1, column as u32)
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
                    let mut end = offset;
                    while !self.text.is_char_boundary(end) {
                        end -= 1;
                    }
                    let mut from = at;
                    while !self.text.is_char_boundary(from) {
                        from -= 1;
                    }
                    (line, column + self.text[from..end.max(from)].chars().count() as u32)
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
}
