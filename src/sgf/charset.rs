//! Charsets: decides the charset of a whole SGF file and decodes it to UTF-8
//! before it is parsed.
//!
//! The file is decoded as a whole, never value by value: in Shift_JIS, Big5
//! and GBK the bytes `]` (0x5D) and `\` (0x5C) can be the trail byte of a
//! double-byte character, so the raw bytes cannot be tokenised safely.
//!
//! [`decode`] decides, in this order:
//!
//! 1. a byte order mark (UTF-8, UTF-16LE, UTF-16BE), or UTF-16 recognised by
//!    its NUL bytes;
//! 2. the first `CA[...]` declaration, found by an ASCII scan of the raw
//!    bytes ([`declared_charset`], [`encoding_for_label`]);
//! 3. valid UTF-8 is read as UTF-8, without a copy. A declared single-byte
//!    charset (ISO-8859-1, windows-1252...) never beats bytes that are valid
//!    UTF-8 with non-ASCII characters; a declared multi-byte one does only
//!    when it fits the bytes and the UTF-8 reading has fewer than two 3-byte
//!    characters;
//! 4. bytes that are *mostly* UTF-8 stay UTF-8, the damaged sequences
//!    replaced: Fox server files, whose Chinese names lost bytes (replaced by
//!    `?`), and files whose names were cut in the middle of a character;
//! 5. a declared charset the bytes fit (or fit but for a few bytes);
//! 6. otherwise chardetng's guess, corrected for short files, where it has
//!    little to go on: double-byte text fitting GB2312's common rows is read
//!    as GBK, and kana as Shift_JIS, rather than as a single-byte charset;
//!    a multi-byte charset with a few invalid bytes beats a single-byte guess;
//! 7. else UTF-8 (or the declared charset) with replacement characters.
//!
//! `FF[1]`-`FF[3]` made ISO-8859-1 the default; that is left to detection, which
//! reads Latin text as windows-1252 (the WHATWG decoder for ISO-8859-1).
//!
//! Every offset in a diagnostic is a byte offset into the decoded text.

use std::borrow::Cow;

use chardetng::{EncodingDetector, Iso2022JpDetection, Utf8Detection};
use encoding_rs::{BIG5, DecoderResult, EUC_JP, EUC_KR, Encoding, GBK, ISO_2022_JP, SHIFT_JIS, UTF_8, UTF_16BE, UTF_16LE};

use crate::diag::{Code, Diagnostic};

/// A whole file decoded to UTF-8.
#[derive(Debug, Clone)]
pub struct Decoded<'a> {
    /// The whole file as UTF-8; `Cow::Borrowed` when the input was valid
    /// UTF-8 (no copy), BOM stripped.
    pub text: Cow<'a, str>,
    /// The charset finally used.
    pub encoding: &'static Encoding,
    /// Number of bytes stripped at the start (BOM), so positions can be mapped.
    pub bom_len: usize,
    /// Diagnostics; `offset` = byte offset into `text` where the problem is.
    pub diagnostics: Vec<Diagnostic>,
}

/// A `CA[...]` declaration found in the raw bytes by [`declared_charset`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CharsetDecl<'a> {
    /// The value between the brackets, ASCII white space trimmed.
    pub value: &'a [u8],
    /// Byte offset of the identifier (its `C`) in the scanned bytes.
    pub offset: usize,
    /// The first later `CA[...]` naming a different charset: its trimmed
    /// value and the byte offset of its identifier.
    pub later_different: Option<(&'a [u8], usize)>,
}

/// At most this many `InvalidBytes` diagnostics name a sequence each; one
/// more then counts the rest.
const MAX_INVALID_REPORTS: usize = 10;

/// Longest `CA` value looked at; longer ones are not charset names.
const MAX_LABEL_LEN: usize = 64;

/// How many bytes at the start are examined for UTF-16 without a BOM.
const UTF16_SNIFF_LEN: usize = 1024;

/// Legacy multi-byte charsets tried when a damaged file has to be rescued.
const CJK_CANDIDATES: [&Encoding; 5] = [GBK, SHIFT_JIS, BIG5, EUC_KR, EUC_JP];

// ---------------------------------------------------------------------------
// Labels
// ---------------------------------------------------------------------------

/// Reads a charset name as SGF files write it, leniently: WHATWG labels via
/// `Encoding::for_label`, plus common SGF spellings ("UTF8", "utf-8 ",
/// "GB2312", "EUC-CN", "SJIS", "Shift-JIS", "ms_kanji", "Latin1",
/// "ISO8859-1", "Big5", "EUC-KR", "cp936", "cp949", "windows-1251",
/// "UTF-16"...). Case- and white-space-insensitive. `None` if unknown, or if
/// the label names a charset that cannot be decoded (WHATWG's "replacement":
/// ISO-2022-KR, HZ-GB-2312, ISO-2022-CN).
pub fn encoding_for_label(label: &str) -> Option<&'static Encoding> {
    let label = label.trim_matches(|c: char| c.is_ascii_whitespace());
    if label.is_empty() || label.len() > MAX_LABEL_LEN {
        return None;
    }
    if let Some(enc) = Encoding::for_label_no_replacement(label.as_bytes()) {
        return Some(enc);
    }
    // Normalise, on the stack: lower case, without white space and '-', '_',
    // '.', ':', '/'.
    let mut buf = [0u8; MAX_LABEL_LEN];
    let mut len = 0;
    for b in label.bytes() {
        if b.is_ascii_alphanumeric() {
            buf[len] = b.to_ascii_lowercase();
            len += 1;
        } else if !(b.is_ascii_whitespace() || matches!(b, b'-' | b'_' | b'.' | b':' | b'/')) {
            return None;
        }
    }
    let key = std::str::from_utf8(&buf[..len]).ok()?;
    let whatwg: &str = match key {
        "utf8" | "unicode" | "unicode11utf8" | "unicode20utf8" | "xunicode20utf8" => "utf-8",
        "utf16" | "ucs2" | "utf16le" | "ucs2le" => "utf-16le",
        "utf16be" | "ucs2be" => "utf-16be",
        "gb2312" | "gb231280" | "euccn" | "cp936" | "ms936" | "windows936" | "gbk" | "xgbk" | "chinese" | "zhcn" | "gb" => "gbk",
        "gb18030" | "gb180302000" | "gb180302005" => "gb18030",
        "sjis" | "shiftjis" | "xsjis" | "mskanji" | "cp932" | "ms932" | "windows31j" | "windows932" | "shiftjs" => "shift_jis",
        "eucjp" | "xeucjp" | "ujis" => "euc-jp",
        "iso2022jp" | "jis" | "csiso2022jp" => "iso-2022-jp",
        "euckr" | "cp949" | "ms949" | "windows949" | "uhc" | "ksc5601" | "ksc56011987" | "korean" => "euc-kr",
        "big5" | "big5hkscs" | "cp950" | "ms950" | "windows950" | "xxbig5" | "cnbig5" | "zhtw" => "big5",
        "latin1" | "l1" | "iso88591" | "iso885911987" | "isolatin1" | "ascii" | "usascii" | "ansi" | "ansix341968" | "cp819" | "ibm819" | "westerneuropean" => {
            "windows-1252"
        }
        "latin2" | "l2" | "isolatin2" => "iso-8859-2",
        "latin9" | "l9" | "isolatin9" | "latin0" => "iso-8859-15",
        "koi8r" | "koi8" => "koi8-r",
        "koi8u" => "koi8-u",
        "macroman" | "mac" | "macintosh" | "xmacroman" | "macosroman" => "macintosh",
        "maccyrillic" | "xmaccyrillic" => "x-mac-cyrillic",
        "tis620" | "cp874" | "windows874" | "thai" => "windows-874",
        _ => {
            // iso8859N, windowsNNNN, cp125N / ms125N, cpNNN, ibmNNN.
            let mut out = [0u8; MAX_LABEL_LEN + 16];
            let join = |out: &mut [u8; MAX_LABEL_LEN + 16], prefix: &[u8], n: &str| {
                out[..prefix.len()].copy_from_slice(prefix);
                out[prefix.len()..prefix.len() + n.len()].copy_from_slice(n.as_bytes());
                prefix.len() + n.len()
            };
            let len = if let Some(n) = key.strip_prefix("iso8859") {
                join(&mut out, b"iso-8859-", n)
            } else if let Some(n) = key.strip_prefix("windows") {
                join(&mut out, b"windows-", n)
            } else if let Some(n) = key.strip_prefix("cp").or_else(|| key.strip_prefix("ms")) {
                if n.starts_with("125") { join(&mut out, b"windows-", n) } else { join(&mut out, b"cp", n) }
            } else if key.starts_with("ibm") {
                join(&mut out, b"", key)
            } else {
                return None;
            };
            return Encoding::for_label_no_replacement(&out[..len]);
        }
    };
    Encoding::for_label_no_replacement(whatwg.as_bytes())
}

// ---------------------------------------------------------------------------
// CA[] scan
// ---------------------------------------------------------------------------

/// Finds the first `CA[...]` in raw bytes, by an ASCII scan.
///
/// The identifier is any run of ASCII letters whose upper-case letters are
/// exactly `C`, `A` (so `CA` and `FF[3]` spellings with lower-case letters
/// between), not preceded by a letter or a non-ASCII byte (which could make
/// the `C` a trail byte of a double-byte character), followed by optional
/// ASCII white space and `[`. The value runs to the first `]` not escaped by
/// `\`; values longer than 64 bytes or not closed are skipped.
///
/// Also reports the first later `CA` whose value names a different charset
/// (by resolved encoding when both labels are known, else by the labels
/// compared case-insensitively).
pub fn declared_charset(bytes: &[u8]) -> Option<CharsetDecl<'_>> {
    let mut iter = memchr::memchr_iter(b'C', bytes);
    let (first_off, first_val) = loop {
        let pos = iter.next()?;
        if let Some(v) = ca_value_at(bytes, pos) {
            break (pos, v);
        }
    };
    let first_enc = label_encoding(first_val);
    let mut later_different = None;
    for pos in iter {
        if let Some(v) = ca_value_at(bytes, pos) {
            let same = match (first_enc, label_encoding(v)) {
                (Some(a), Some(b)) => a == b,
                _ => v.eq_ignore_ascii_case(first_val),
            };
            if !same {
                later_different = Some((v, pos));
                break;
            }
        }
    }
    Some(CharsetDecl { value: first_val, offset: first_off, later_different })
}

fn label_encoding(value: &[u8]) -> Option<&'static Encoding> {
    // The label of nearly every file that has one, without the lookup.
    if value.eq_ignore_ascii_case(b"UTF-8") {
        return Some(UTF_8);
    }
    std::str::from_utf8(value).ok().and_then(encoding_for_label)
}

/// If a `CA` identifier starts at `pos` (a `C`), returns its trimmed value.
fn ca_value_at(bytes: &[u8], pos: usize) -> Option<&[u8]> {
    // Before: lower-case letters may belong to the identifier; then the
    // identifier must start at the beginning or after an ASCII non-letter.
    let mut start = pos;
    while start > 0 && bytes[start - 1].is_ascii_lowercase() {
        start -= 1;
    }
    if start > 0 {
        let b = bytes[start - 1];
        if b >= 0x80 || b.is_ascii_alphabetic() {
            return None;
        }
    }
    let mut i = pos + 1;
    while i < bytes.len() && bytes[i].is_ascii_lowercase() {
        i += 1;
    }
    if bytes.get(i) != Some(&b'A') {
        return None;
    }
    i += 1;
    while i < bytes.len() && bytes[i].is_ascii_lowercase() {
        i += 1;
    }
    while i < bytes.len() && bytes[i].is_ascii_whitespace() {
        i += 1;
    }
    if bytes.get(i) != Some(&b'[') {
        return None;
    }
    let value_start = i + 1;
    let limit = bytes.len().min(value_start + MAX_LABEL_LEN + 1);
    let mut j = value_start;
    while j < limit {
        match bytes[j] {
            b']' => {
                return Some(bytes[value_start..j].trim_ascii());
            }
            b'\\' => j += 2,
            _ => j += 1,
        }
    }
    None
}

// ---------------------------------------------------------------------------
// Decoding
// ---------------------------------------------------------------------------

/// Decodes a whole file to UTF-8.
///
/// `forced` is the user's override (`--encoding`): it wins over everything
/// (a BOM of that same encoding is stripped), bytes invalid in it are
/// replaced and reported, and nothing is detected.
///
/// Never panics. The common case (valid UTF-8 without a BOM) costs one
/// UTF-8 validation and `memchr` scans (for `C`, for NUL in the first
/// kilobyte, and for ESC when nothing is declared), and allocates nothing:
/// about 0.2 µs for a 1.6 KB KGS file.
pub fn decode<'a>(bytes: &'a [u8], forced: Option<&'static Encoding>) -> Decoded<'a> {
    if let Some(enc) = forced {
        return decode_forced(bytes, enc);
    }
    if let Some((enc, bom_len)) = Encoding::for_bom(bytes) {
        let why = format!("the file starts with a {0} byte order mark; read as {0}", enc.name());
        return decode_unicode(bytes, enc, bom_len, Diagnostic::new(Code::ByteOrderMark, 0, why));
    }
    if let Some(enc) = sniff_utf16(bytes) {
        let why = format!("no byte order mark, but the bytes look like {0}; read as {0}", enc.name());
        return decode_unicode(bytes, enc, 0, Diagnostic::new(Code::CharsetDetected, 0, why));
    }
    decode_ascii_compatible(bytes)
}

impl<'a> Decoded<'a> {
    /// Decodes `bytes[bom_len..]` with replacement, reporting each malformed
    /// sequence; keeps `diagnostics` given before those.
    fn lossy(enc: &'static Encoding, bytes: &'a [u8], bom_len: usize, mut diagnostics: Vec<Diagnostic>) -> Decoded<'a> {
        let body = &bytes[bom_len.min(bytes.len())..];
        if enc == UTF_8 {
            if let Ok(s) = std::str::from_utf8(body) {
                return Decoded { text: Cow::Borrowed(s), encoding: enc, bom_len, diagnostics };
            }
        }
        let mut reporter = InvalidReporter::new(enc);
        let text = decode_with_errors(enc, body, &mut |text_off, start, end| reporter.report(text_off, &body[start..end], &mut diagnostics));
        reporter.finish(&mut diagnostics);
        Decoded { text: Cow::Owned(text), encoding: enc, bom_len, diagnostics }
    }

    /// Borrowed text, valid UTF-8 (or ASCII read in an ASCII-compatible charset).
    fn borrowed(enc: &'static Encoding, s: &'a str, diagnostics: Vec<Diagnostic>) -> Decoded<'a> {
        Decoded { text: Cow::Borrowed(s), encoding: enc, bom_len: 0, diagnostics }
    }
}

fn decode_forced<'a>(bytes: &'a [u8], enc: &'static Encoding) -> Decoded<'a> {
    let mut diagnostics = Vec::new();
    let mut bom_len = 0;
    if let Some((bom_enc, len)) = Encoding::for_bom(bytes) {
        if bom_enc == enc {
            bom_len = len;
            diagnostics.push(Diagnostic::new(Code::ByteOrderMark, 0, format!("the file starts with a {} byte order mark; it was skipped", enc.name())));
        }
    }
    Decoded::lossy(enc, bytes, bom_len, diagnostics)
}

/// Decodes a file whose charset is settled by a BOM or by UTF-16's NUL
/// bytes. The `CA[]` scan then runs on the decoded text: a UTF-8 BOM that
/// contradicts the declaration is worth a warning (the BOM wins), and
/// `MultipleCharsets` is reported as usual.
fn decode_unicode<'a>(bytes: &'a [u8], enc: &'static Encoding, bom_len: usize, first: Diagnostic) -> Decoded<'a> {
    let mut out = Decoded::lossy(enc, bytes, bom_len, vec![first]);
    if let Some(decl) = declared_charset(out.text.as_bytes()) {
        if let Some(declared) = label_encoding(decl.value) {
            if enc == UTF_8 && declared != UTF_8 {
                out.diagnostics.push(Diagnostic::new(
                    Code::CharsetMismatch,
                    to_u32(decl.offset),
                    format!("CA[{}] declares {} but the file starts with a UTF-8 byte order mark; read as UTF-8", show_label(decl.value), declared.name()),
                ));
            }
        }
        if let Some((later, off)) = decl.later_different {
            out.diagnostics.push(multiple_charsets(decl.value, later, off, out.encoding));
        }
    }
    out
}

fn multiple_charsets(first: &[u8], later: &[u8], text_off: usize, used: &'static Encoding) -> Diagnostic {
    Diagnostic::new(
        Code::MultipleCharsets,
        to_u32(text_off),
        format!("CA[{}] differs from the first CA[{}]; {} was used for the whole file", show_label(later), show_label(first), used.name()),
    )
}

/// UTF-16 without a BOM: many NUL bytes, nearly all at even positions (BE)
/// or nearly all at odd positions (LE), in the first kilobyte.
fn sniff_utf16(bytes: &[u8]) -> Option<&'static Encoding> {
    let sample = &bytes[..bytes.len().min(UTF16_SNIFF_LEN)];
    memchr::memchr(0, sample)?;
    let pairs = sample.len() / 2;
    if pairs == 0 {
        return None;
    }
    let (mut even, mut odd) = (0usize, 0usize);
    for pair in sample.chunks_exact(2) {
        even += (pair[0] == 0) as usize;
        odd += (pair[1] == 0) as usize;
    }
    let looks = |hit: usize, other: usize| hit * 4 >= pairs && other * 8 <= hit;
    if looks(even, odd) {
        Some(UTF_16BE)
    } else if looks(odd, even) {
        Some(UTF_16LE)
    } else {
        None
    }
}

/// What the file declares, as far as decoding is concerned.
#[derive(Clone, Copy)]
enum Declared {
    /// No `CA[]`.
    Nothing,
    /// A label kifu does not know (reported as `UnknownCharset`): treated
    /// as undeclared.
    Unknown,
    /// UTF-16, but the bytes have neither a BOM nor NUL bytes: unusable.
    Unusable(&'static Encoding),
    Known(&'static Encoding),
}

/// The declaration and its value as written, for messages.
struct Declaration<'a> {
    declared: Declared,
    value: &'a [u8],
}

impl Declaration<'_> {
    /// The declared legacy charset (known, usable, not UTF-8).
    fn legacy(&self) -> Option<&'static Encoding> {
        match self.declared {
            Declared::Known(enc) if enc != UTF_8 => Some(enc),
            _ => None,
        }
    }

    fn is_utf8(&self) -> bool {
        matches!(self.declared, Declared::Known(enc) if enc == UTF_8)
    }

    /// The diagnostic for a charset other than the declared one, `why`
    /// saying which and why: `CharsetMismatch` against a known declaration,
    /// `CharsetDetected` when nothing usable was declared.
    fn diag(&self, why: &str) -> Diagnostic {
        let label = show_label(self.value);
        match self.declared {
            Declared::Known(enc) => Diagnostic::new(Code::CharsetMismatch, 0, format!("CA[{label}] declares {} but {why}", enc.name())),
            Declared::Unusable(enc) => {
                Diagnostic::new(Code::CharsetMismatch, 0, format!("CA[{label}] declares {} but the bytes are not {0}; {why}", enc.name()))
            }
            Declared::Unknown => Diagnostic::new(Code::CharsetDetected, 0, format!("CA[{label}] is unknown and {why}")),
            Declared::Nothing => Diagnostic::new(Code::CharsetDetected, 0, format!("no CA[] and {why}")),
        }
    }
}

fn decode_ascii_compatible(bytes: &[u8]) -> Decoded<'_> {
    let decl = declared_charset(bytes);
    let mut diagnostics = Vec::new();
    let declared = match decl {
        None => Declared::Nothing,
        Some(d) => match label_encoding(d.value) {
            Some(enc) if enc == UTF_16LE || enc == UTF_16BE => Declared::Unusable(enc),
            Some(enc) => Declared::Known(enc),
            None => {
                diagnostics.push(Diagnostic::new(
                    Code::UnknownCharset,
                    0, // mapped once the text is known
                    format!("CA[{}] names an unknown charset; it was ignored", show_label(d.value)),
                ));
                Declared::Unknown
            }
        },
    };
    let value = decl.map_or(&b""[..], |d| d.value);
    let mut out = choose(bytes, &Declaration { declared, value }, diagnostics);

    // Point diagnostics about CA[] at it in the text, add MultipleCharsets.
    if let Some(d) = decl {
        let about_ca = |c: Code| matches!(c, Code::UnknownCharset | Code::CharsetMismatch);
        if out.diagnostics.iter().any(|diag| about_ca(diag.code)) {
            let off = to_u32(raw_to_text_offset(bytes, d.offset, &out));
            for diag in out.diagnostics.iter_mut().filter(|diag| about_ca(diag.code)) {
                diag.offset = off;
            }
        }
        if let Some((v, raw)) = d.later_different {
            let off = raw_to_text_offset(bytes, raw, &out);
            out.diagnostics.push(multiple_charsets(d.value, v, off, out.encoding));
        }
    }
    out
}

/// `std::str::from_utf8`, with ASCII (every KGS file measured) told
/// first by a pass that only ors the bytes together, eight words at a
/// time, about 2.5 times fewer instructions than the validation's own
/// ASCII steps (which test each word and keep track of alignment).
fn utf8(bytes: &[u8]) -> Result<&str, std::str::Utf8Error> {
    if is_ascii(bytes) {
        // SAFETY: ASCII is valid UTF-8.
        return Ok(unsafe { std::str::from_utf8_unchecked(bytes) });
    }
    std::str::from_utf8(bytes)
}

/// Whether every byte is below 0x80: the 64-byte blocks or'ed into eight
/// words (which the compiler keeps in vector registers), the rest byte
/// by byte, then one test of the high bits.
fn is_ascii(bytes: &[u8]) -> bool {
    let mut blocks = bytes.chunks_exact(64);
    let mut lanes = [0u64; 8];
    for block in &mut blocks {
        for (lane, word) in lanes.iter_mut().zip(block.chunks_exact(8)) {
            *lane |= u64::from_ne_bytes(word.try_into().expect("eight bytes"));
        }
    }
    let rest = blocks.remainder();
    let words = lanes.iter().fold(0, |all, lane| all | lane);
    let tail = rest.iter().fold(0, |all, b| all | b);
    words & 0x8080_8080_8080_8080 == 0 && tail < 0x80
}

/// Maps a raw byte offset (of an ASCII byte) to the decoded text.
fn raw_to_text_offset(bytes: &[u8], raw: usize, out: &Decoded<'_>) -> usize {
    if let Cow::Borrowed(_) = out.text {
        return raw.saturating_sub(out.bom_len);
    }
    let raw = raw.min(bytes.len());
    let prefix = &bytes[out.bom_len.min(raw)..raw];
    decode_with_errors(out.encoding, prefix, &mut |_, _, _| {}).len().min(out.text.len())
}

fn owned<'a>(enc: &'static Encoding, text: Cow<'_, str>, diagnostics: Vec<Diagnostic>) -> Decoded<'a> {
    Decoded { text: Cow::Owned(text.into_owned()), encoding: enc, bom_len: 0, diagnostics }
}

/// The heart of the decision, for ASCII-compatible bytes without a BOM.
fn choose<'a>(bytes: &'a [u8], declaration: &Declaration<'_>, mut diagnostics: Vec<Diagnostic>) -> Decoded<'a> {
    let legacy = declaration.legacy();

    // Valid UTF-8: the common case.
    if let Ok(s) = utf8(bytes) {
        let Some(enc) = legacy else {
            if matches!(declaration.declared, Declared::Nothing | Declared::Unknown) && memchr::memchr(0x1B, bytes).is_some() && s.is_ascii() {
                // ISO-2022-JP looks like ASCII with escape sequences.
                if let Some(t) = ISO_2022_JP.decode_without_bom_handling_and_without_replacement(bytes) {
                    if t != s {
                        diagnostics.push(declaration.diag("the bytes use ISO-2022-JP escape sequences; read as ISO-2022-JP"));
                        return owned(ISO_2022_JP, t, diagnostics);
                    }
                }
            }
            if matches!(declaration.declared, Declared::Unusable(_)) {
                diagnostics.push(declaration.diag("read as UTF-8"));
            }
            return Decoded::borrowed(UTF_8, s, diagnostics);
        };
        if s.is_ascii() {
            if enc.is_ascii_compatible() {
                // The same text in any ASCII-compatible charset.
                return Decoded::borrowed(enc, s, diagnostics);
            }
            // ISO-2022-JP: escape sequences.
            return Decoded::lossy(enc, bytes, 0, diagnostics);
        }
        // Non-ASCII valid UTF-8 against a declared legacy charset: UTF-8,
        // unless the declared charset is multi-byte, fits the bytes, and the
        // UTF-8 reading has fewer than two 3-byte characters (short GBK or
        // EUC-KR text is sometimes valid UTF-8 made of 2-byte sequences).
        if !enc.is_single_byte() && Utf8Stats::of(bytes).valid_long < 2 {
            if let Some(t) = enc.decode_without_bom_handling_and_without_replacement(bytes) {
                return owned(enc, t, diagnostics);
            }
        }
        diagnostics.push(declaration.diag("the bytes are valid UTF-8; read as UTF-8"));
        return Decoded::borrowed(UTF_8, s, diagnostics);
    }

    // Not valid UTF-8. Mostly UTF-8 with damaged sequences (Fox files)?
    let stats = Utf8Stats::of(bytes);
    let damaged_utf8 = |diagnostics: &mut Vec<Diagnostic>| {
        if !matches!(declaration.declared, Declared::Nothing | Declared::Unknown) && !declaration.is_utf8() {
            diagnostics.push(declaration.diag("the bytes are UTF-8 with a few invalid sequences; read as UTF-8"));
        }
    };
    if stats.looks_like_damaged_utf8() || (declaration.is_utf8() && stats.might_be_damaged_utf8()) {
        damaged_utf8(&mut diagnostics);
        return Decoded::lossy(UTF_8, bytes, 0, diagnostics);
    }

    // A declared legacy charset.
    if let Some(enc) = legacy {
        if let Some(t) = enc.decode_without_bom_handling_and_without_replacement(bytes) {
            if enc.is_single_byte() {
                // Single-byte charsets fit any bytes, and CJK text declared
                // Latin-1 is a known mistake: ask the detector.
                let guess = detect(bytes);
                if !guess.is_single_byte() && guess.is_ascii_compatible() && guess != UTF_8 {
                    if let Some(t2) = guess.decode_without_bom_handling_and_without_replacement(bytes) {
                        let why = format!("the bytes look like {0}; read as {0}", guess.name());
                        diagnostics.push(declaration.diag(&why));
                        return owned(guess, t2, diagnostics);
                    }
                }
            }
            return owned(enc, t, diagnostics);
        }
        // Not clean in the declared charset. A few errors: keep it.
        if quality(enc, bytes).few_errors() {
            return Decoded::lossy(enc, bytes, 0, diagnostics);
        }
        let guess = detect(bytes);
        if guess != enc && guess != UTF_8 {
            if let Some(t) = guess.decode_without_bom_handling_and_without_replacement(bytes) {
                let why = format!("the bytes are not valid {}; detected {}", enc.name(), guess.name());
                diagnostics.push(declaration.diag(&why));
                return owned(guess, t, diagnostics);
            }
        }
        return Decoded::lossy(enc, bytes, 0, diagnostics);
    }

    // UTF-8 declared, or nothing usable declared: detect.
    let guess = detect(bytes);
    let guess_clean = if guess == UTF_8 { None } else { guess.decode_without_bom_handling_and_without_replacement(bytes) };
    let weak_guess = guess_clean.is_none() || guess.is_single_byte();
    if weak_guess && stats.might_be_damaged_utf8() {
        // A single-byte reading of valid 3-byte UTF-8 sequences is mojibake.
        damaged_utf8(&mut diagnostics);
        return Decoded::lossy(UTF_8, bytes, 0, diagnostics);
    }
    if weak_guess {
        // A multi-byte charset with a few errors beats a single-byte guess.
        if let Some(enc) = rescue_cjk(bytes) {
            let why = format!("the bytes are not UTF-8; detected {} with a few invalid bytes", enc.name());
            diagnostics.push(declaration.diag(&why));
            return Decoded::lossy(enc, bytes, 0, diagnostics);
        }
    }
    if let Some(t) = guess_clean {
        // chardetng has little to go on in short files (a few names, "9段")
        // and may then guess a single-byte charset for CJK text.
        let (enc, t) = match short_cjk_override(bytes, guess, &t) {
            Some((enc, t2)) => (enc, Cow::Owned(t2)),
            None => (guess, t),
        };
        diagnostics.push(declaration.diag(&format!("the bytes are not UTF-8; detected {}", enc.name())));
        return owned(enc, t, diagnostics);
    }
    Decoded::lossy(UTF_8, bytes, 0, diagnostics)
}

/// Overrides a chardetng guess that is implausible for CJK-looking bytes:
/// a single-byte charset when the bytes are clean Shift_JIS with kana (and
/// no half-width katakana, which accented Latin letters would give) or clean
/// EUC-JP with kana, or a single-byte charset or kana-less EUC-JP when they
/// look like GB2312.
fn short_cjk_override(bytes: &[u8], guess: &'static Encoding, guess_text: &str) -> Option<(&'static Encoding, String)> {
    if guess.is_single_byte() {
        if let Some(t) = SHIFT_JIS.decode_without_bom_handling_and_without_replacement(bytes) {
            let halfwidth = t.chars().any(|c| ('\u{FF61}'..='\u{FF9F}').contains(&c));
            if has_kana(&t) && !halfwidth {
                return Some((SHIFT_JIS, t.into_owned()));
            }
        }
        // EUC-JP kana are rows 0xA4/0xA5, which Chinese and Korean text
        // seldom uses (and Shift_JIS reads as half-width katakana).
        if let Some(t) = EUC_JP.decode_without_bom_handling_and_without_replacement(bytes) {
            if t.chars().filter(|&c| is_kana(c)).count() >= 2 {
                return Some((EUC_JP, t.into_owned()));
            }
        }
    }
    if (guess.is_single_byte() || (guess == EUC_JP && !has_kana(guess_text))) && looks_like_gb2312(bytes) {
        if let Some(t) = GBK.decode_without_bom_handling_and_without_replacement(bytes) {
            return Some((GBK, t.into_owned()));
        }
    }
    None
}

/// Non-ASCII bytes that all form GB2312 double-byte characters (runs of even
/// length, both bytes in 0xA1..=0xFE, lead at most 0xF7), at least three
/// quarters of them punctuation (rows 0xA1-0xA3) or level-1 hanzi (0xB0-0xD7,
/// the 3,755 common characters). Latin-1 and Cyrillic text in single-byte
/// charsets has odd runs (isolated accented letters) or mostly lower-case
/// letters (0xE0-0xFF, level-2 rows).
fn looks_like_gb2312(bytes: &[u8]) -> bool {
    let (mut pairs, mut common) = (0usize, 0usize);
    let mut i = 0;
    while i < bytes.len() {
        let lead = bytes[i];
        if lead < 0x80 {
            i += 1;
            continue;
        }
        let Some(&trail) = bytes.get(i + 1) else {
            return false;
        };
        if !(0xA1..=0xF7).contains(&lead) || !(0xA1..=0xFE).contains(&trail) {
            return false;
        }
        pairs += 1;
        common += matches!(lead, 0xA1..=0xA3 | 0xB0..=0xD7) as usize;
        i += 2;
    }
    pairs > 0 && common * 4 >= pairs * 3
}

fn is_kana(c: char) -> bool {
    ('\u{3041}'..='\u{30FF}').contains(&c)
}

fn has_kana(text: &str) -> bool {
    text.chars().any(is_kana)
}

/// chardetng's guess for the whole input.
fn detect(bytes: &[u8]) -> &'static Encoding {
    let mut det = EncodingDetector::new(Iso2022JpDetection::Allow);
    det.feed(bytes, true);
    det.guess(None, Utf8Detection::Allow)
}

/// A legacy multi-byte charset in which the bytes have only a few malformed
/// sequences, and which chardetng picks once those are blanked out.
fn rescue_cjk(bytes: &[u8]) -> Option<&'static Encoding> {
    let mut best: Option<(&'static Encoding, Quality)> = None;
    for enc in CJK_CANDIDATES {
        let q = quality(enc, bytes);
        if q.errors > 0 && q.few_errors() && best.is_none_or(|(_, b)| q.errors < b.errors) {
            best = Some((enc, q));
        }
    }
    let (enc, _) = best?;
    // Blank the malformed bytes out and ask chardetng again.
    let mut cleaned = bytes.to_vec();
    decode_with_errors(enc, bytes, &mut |_, start, end| cleaned[start..end].fill(b'?'));
    let guess = detect(&cleaned);
    (guess == enc || (enc == GBK && guess == encoding_rs::GB18030)).then_some(enc)
}

#[derive(Debug, Clone, Copy)]
struct Quality {
    /// Malformed sequences.
    errors: usize,
    /// Non-ASCII characters decoded without error.
    good: usize,
}

impl Quality {
    /// A few errors among many good characters: a damaged file in this
    /// charset rather than a file in another one.
    fn few_errors(self) -> bool {
        self.good >= 4 && self.errors * 8 <= self.good
    }
}

fn quality(enc: &'static Encoding, bytes: &[u8]) -> Quality {
    let mut errors = 0;
    let text = decode_with_errors(enc, bytes, &mut |_, _, _| errors += 1);
    // Half-width katakana (what Shift_JIS makes of lone bytes 0xA1-0xDF),
    // private-use characters and C1 controls are no sign of fitting text.
    let good =
        text.chars().filter(|&c| !c.is_ascii() && !matches!(c, '\u{80}'..='\u{9F}' | '\u{E000}'..='\u{F8FF}' | '\u{FF61}'..='\u{FF9F}' | '\u{FFFD}')).count();
    Quality { errors, good }
}

/// UTF-8 structure of bytes that are not valid UTF-8.
#[derive(Debug, Default, Clone, Copy)]
struct Utf8Stats {
    /// Valid multi-byte sequences.
    valid_mb: usize,
    /// Valid sequences of 3 or 4 bytes, and their bytes.
    valid_long: usize,
    valid_long_bytes: usize,
    /// Malformed sequences (as replaced by U+FFFD), and their bytes.
    invalid: usize,
    invalid_bytes: usize,
}

impl Utf8Stats {
    fn of(bytes: &[u8]) -> Utf8Stats {
        let mut s = Utf8Stats::default();
        for chunk in bytes.utf8_chunks() {
            for &b in chunk.valid().as_bytes() {
                if b >= 0xC0 {
                    s.valid_mb += 1;
                    if b >= 0xE0 {
                        s.valid_long += 1;
                        s.valid_long_bytes += if b >= 0xF0 { 4 } else { 3 };
                    }
                }
            }
            if !chunk.invalid().is_empty() {
                s.invalid += 1;
                s.invalid_bytes += chunk.invalid().len();
            }
        }
        s
    }

    /// Mostly UTF-8 with a few damaged sequences, rather than a legacy
    /// charset. In text of a legacy CJK charset read as UTF-8, valid 3-byte
    /// sequences are rare accidents (at most 10% of the bytes around them in
    /// the corpus) and valid sequences of any length are outnumbered by
    /// malformed ones at least 3 to 1; in Fox files whose names lost bytes,
    /// valid 3-byte sequences hold at least 60% of those bytes.
    fn looks_like_damaged_utf8(&self) -> bool {
        (self.valid_long >= 2 && self.valid_long_bytes >= self.invalid_bytes) || (self.valid_mb >= 3 && self.valid_mb >= 3 * self.invalid)
    }

    /// Weaker evidence, used when UTF-8 is declared or when the detector
    /// only offers a single-byte charset (which would turn every valid
    /// 3-byte sequence into three letters of mojibake).
    fn might_be_damaged_utf8(&self) -> bool {
        (self.valid_long >= 1 && self.valid_long_bytes * 3 >= self.invalid_bytes) || (self.valid_mb >= 2 && self.valid_mb >= 2 * self.invalid)
    }
}

/// Decodes with replacement, calling `on_error(text_offset, start, end)` for
/// each malformed sequence `bytes[start..end]` before its U+FFFD is appended
/// at `text_offset`. The text is what `decode_without_bom_handling` gives.
fn decode_with_errors(enc: &'static Encoding, bytes: &[u8], on_error: &mut dyn FnMut(usize, usize, usize)) -> String {
    let mut dec = enc.new_decoder_without_bom_handling();
    let cap = dec.max_utf8_buffer_length(bytes.len()).unwrap_or(bytes.len()).min(bytes.len().saturating_mul(3).saturating_add(16));
    let mut out = String::with_capacity(cap);
    let mut read = 0;
    loop {
        let (res, n) = dec.decode_to_string_without_replacement(&bytes[read..], &mut out, true);
        read += n;
        match res {
            DecoderResult::InputEmpty => break,
            DecoderResult::OutputFull => out.reserve(out.capacity().max(64)),
            DecoderResult::Malformed(bad, after) => {
                let end = read.saturating_sub(after as usize);
                let start = end.saturating_sub(bad as usize);
                on_error(out.len(), start, end);
                out.push('\u{FFFD}');
            }
        }
    }
    out
}

/// Turns malformed sequences into at most 11 `InvalidBytes` diagnostics.
struct InvalidReporter {
    enc: &'static Encoding,
    count: usize,
    first_unreported: usize,
}

impl InvalidReporter {
    fn new(enc: &'static Encoding) -> Self {
        InvalidReporter { enc, count: 0, first_unreported: 0 }
    }

    fn report(&mut self, text_off: usize, bad: &[u8], diagnostics: &mut Vec<Diagnostic>) {
        self.count += 1;
        if self.count <= MAX_INVALID_REPORTS {
            let hex: Vec<String> = bad.iter().map(|b| format!("{b:02X}")).collect();
            let what = if bad.len() == 1 { "byte" } else { "bytes" };
            diagnostics.push(Diagnostic::new(
                Code::InvalidBytes,
                to_u32(text_off),
                format!("{what} {} not valid {}; replaced by U+FFFD", hex.join(" "), self.enc.name()),
            ));
        } else if self.count == MAX_INVALID_REPORTS + 1 {
            self.first_unreported = text_off;
        }
    }

    fn finish(self, diagnostics: &mut Vec<Diagnostic>) {
        if self.count > MAX_INVALID_REPORTS {
            let more = self.count - MAX_INVALID_REPORTS;
            diagnostics.push(Diagnostic::new(
                Code::InvalidBytes,
                to_u32(self.first_unreported),
                format!(
                    "{more} more invalid {} sequence{} from here on were replaced by U+FFFD ({} in all)",
                    self.enc.name(),
                    if more == 1 { "" } else { "s" },
                    self.count
                ),
            ));
        }
    }
}

/// A CA value for a message: printable ASCII kept, the rest escaped, capped.
fn show_label(value: &[u8]) -> String {
    let mut s = String::new();
    for &b in value.iter().take(40) {
        if (0x20..0x7F).contains(&b) {
            s.push(b as char);
        } else {
            s.push_str(&format!("\\x{b:02X}"));
        }
    }
    if value.len() > 40 {
        s.push('…');
    }
    s
}

fn to_u32(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;
    use encoding_rs::{GB18030, ISO_8859_15, KOI8_R, MACINTOSH, WINDOWS_1251, WINDOWS_1252};
    use std::path::{Path, PathBuf};

    fn encode(enc: &'static Encoding, text: &str) -> Vec<u8> {
        let (bytes, used, unmappable) = enc.encode(text);
        assert_eq!(used, enc, "{} cannot encode", enc.name());
        assert!(!unmappable, "{text:?} is not encodable in {}", enc.name());
        bytes.into_owned()
    }

    #[test]
    fn the_ascii_pass_agrees_with_the_standard_test() {
        // Every length around the 64-byte blocks, a high byte at every place.
        for len in 0..200 {
            let clean = vec![b'a'; len];
            assert!(is_ascii(&clean), "{len}");
            for at in 0..len {
                let mut bytes = clean.clone();
                bytes[at] = 0x80 | (at as u8 & 0x7F);
                assert_eq!(is_ascii(&bytes), bytes.is_ascii(), "{len} {at}");
                assert!(!is_ascii(&bytes));
            }
        }
        assert_eq!(utf8("(;C[é])".as_bytes()), Ok("(;C[é])"));
        assert!(utf8(br"(;C[\xff])").is_ok());
        assert!(utf8(b"(;C[x])\xff").is_err());
    }

    fn utf16(text: &str, big_endian: bool, bom: bool) -> Vec<u8> {
        let mut out = Vec::new();
        if bom {
            out.extend_from_slice(if big_endian { &[0xFE, 0xFF] } else { &[0xFF, 0xFE] });
        }
        for unit in text.encode_utf16() {
            out.extend_from_slice(&if big_endian { unit.to_be_bytes() } else { unit.to_le_bytes() });
        }
        out
    }

    /// Decodes bytes built in the test (the result owns its text).
    fn decode_vec(bytes: Vec<u8>, forced: Option<&'static Encoding>) -> Decoded<'static> {
        let d = decode(&bytes, forced);
        Decoded { text: Cow::Owned(d.text.into_owned()), ..d }
    }

    fn codes(d: &Decoded<'_>) -> Vec<Code> {
        d.diagnostics.iter().map(|d| d.code).collect()
    }

    /// Every diagnostic points inside the text; InvalidBytes points at a U+FFFD.
    fn check_offsets(d: &Decoded<'_>) {
        for diag in &d.diagnostics {
            let off = diag.offset as usize;
            assert!(off <= d.text.len(), "{diag:?} beyond {}", d.text.len());
            assert!(d.text.is_char_boundary(off), "{diag:?}");
            if diag.code == Code::InvalidBytes {
                assert!(d.text[off..].starts_with('\u{FFFD}'), "{diag:?} in {:?}", d.text);
            }
            assert!(!diag.message.contains('\n'), "{diag:?}");
        }
    }

    #[test]
    fn lenient_labels() {
        let cases: &[(&str, &Encoding)] = &[
            ("UTF-8", UTF_8),
            ("utf-8", UTF_8),
            ("UTF8", UTF_8),
            ("utf8", UTF_8),
            (" UTF-8 ", UTF_8),
            ("UTF 8", UTF_8),
            ("GB2312", GBK),
            ("gb2312", GBK),
            ("EUC-CN", GBK),
            ("cp936", GBK),
            ("GBK", GBK),
            ("GB18030", GB18030),
            ("SJIS", SHIFT_JIS),
            ("Shift_JIS", SHIFT_JIS),
            ("Shift-JIS", SHIFT_JIS),
            ("shift jis", SHIFT_JIS),
            ("ms_kanji", SHIFT_JIS),
            ("MS_KANJI", SHIFT_JIS),
            ("cp932", SHIFT_JIS),
            ("EUC-JP", EUC_JP),
            ("ISO-2022-JP", ISO_2022_JP),
            ("Latin1", WINDOWS_1252),
            ("latin-1", WINDOWS_1252),
            ("ISO-8859-1", WINDOWS_1252),
            ("ISO8859-1", WINDOWS_1252),
            ("iso_8859_1", WINDOWS_1252),
            ("US-ASCII", WINDOWS_1252),
            ("ISO-8859-15", ISO_8859_15),
            ("iso885915", ISO_8859_15),
            ("Big5", BIG5),
            ("BIG-5", BIG5),
            ("cp950", BIG5),
            ("EUC-KR", EUC_KR),
            ("euckr", EUC_KR),
            ("cp949", EUC_KR),
            ("KS_C_5601-1987", EUC_KR),
            ("windows-1251", WINDOWS_1251),
            ("Windows-1251", WINDOWS_1251),
            ("cp1251", WINDOWS_1251),
            ("windows1252", WINDOWS_1252),
            ("KOI8-R", KOI8_R),
            ("macintosh", MACINTOSH),
            ("MacRoman", MACINTOSH),
            ("UTF-16", UTF_16LE),
            ("UTF-16LE", UTF_16LE),
            ("UTF-16BE", UTF_16BE),
            ("utf16be", UTF_16BE),
            ("cp866", encoding_rs::IBM866),
            ("IBM866", encoding_rs::IBM866),
            ("cp1250", encoding_rs::WINDOWS_1250),
            ("ISO8859-2", encoding_rs::ISO_8859_2),
            ("iso 8859 5", encoding_rs::ISO_8859_5),
        ];
        for &(label, enc) in cases {
            assert_eq!(encoding_for_label(label), Some(enc), "{label:?}");
        }
        let long = "x".repeat(200);
        for label in [long.as_str(), "cp", "iso8859", "", "  ", "FOO", "unknown", "UTF-9", "ISO-2022-KR", "HZ-GB-2312", "utf-8\u{e9}", "a]b"] {
            assert_eq!(encoding_for_label(label), None, "{label:?}");
        }
    }

    #[test]
    fn declared_charset_scan() {
        let d = declared_charset(b"(;FF[4]CA[ UTF-8 ]GM[1])").unwrap();
        assert_eq!(d.value, b"UTF-8");
        assert_eq!(d.offset, 7);
        assert_eq!(d.later_different, None);
        // White space before '[', an FF[3] long name, not part of XCA.
        assert_eq!(declared_charset(b"(;CA \n [GBK])").unwrap().value, b"GBK");
        assert_eq!(declared_charset(b"(;ChArset[Big5])").unwrap().value, b"Big5");
        assert_eq!(declared_charset(b"(;XCA[GBK])"), None);
        assert_eq!(declared_charset(b"(;ChArSet[GBK])"), None);
        assert_eq!(declared_charset(b"(;CAT[GBK])"), None);
        assert_eq!(declared_charset(b"(;PB[\xb9CA[x]])"), None, "a CA after a non-ASCII byte");
        assert_eq!(declared_charset(b"(;XCA[GBK]CA[SJIS])").unwrap().value, b"SJIS");
        assert_eq!(declared_charset(b"(;CA[UTF-8"), None, "unclosed");
        assert_eq!(declared_charset(b""), None);
        assert_eq!(declared_charset(b"CA"), None);
        assert_eq!(declared_charset(b"CA["), None);
        assert_eq!(declared_charset(b"CA[]").unwrap().value, b"");
        assert_eq!(declared_charset(br"CA[a\]b]").unwrap().value, br"a\]b");
        // Later declarations: same charset spelled differently, then another.
        let d = declared_charset(b"(;CA[UTF-8])(;CA[utf8])(;CA[GB2312])(;CA[Big5])").unwrap();
        assert_eq!(d.value, b"UTF-8");
        assert_eq!(d.later_different, Some((&b"GB2312"[..], 25)));
    }

    #[test]
    fn valid_utf8_is_borrowed() {
        let bytes = "(;FF[4]CA[UTF-8]PB[古力]PW[柯洁])".as_bytes();
        let d = decode(bytes, None);
        assert!(matches!(d.text, Cow::Borrowed(_)));
        assert_eq!(d.encoding, UTF_8);
        assert_eq!(d.bom_len, 0);
        assert!(d.diagnostics.is_empty());
        // No CA: UTF-8 by default, no diagnostic.
        let d = decode("(;PB[古力])".as_bytes(), None);
        assert!(matches!(d.text, Cow::Borrowed(_)));
        assert!(d.diagnostics.is_empty());
        // Pure ASCII with a legacy CA: borrowed, reported as that charset.
        let d = decode(b"(;CA[GB2312]PB[Gu Li])", None);
        assert!(matches!(d.text, Cow::Borrowed(_)));
        assert_eq!(d.encoding, GBK);
        assert!(d.diagnostics.is_empty());
    }

    const CJK_SAMPLES: &[(&str, &str)] = &[
        ("GB2312", "围棋是一种古老的游戏，从被遗忘的中国起源先传到东亚其他地区。"),
        ("GBK", "围棋是一种古老的游戏，黑中盘胜。"),
        ("GB18030", "围棋是一种古老的游戏，白胜一又四分之三子。"),
        ("Big5", "圍棋是一種古老的遊戲，從其被遺忘的中國起源開始。"),
        ("Shift_JIS", "囲碁は古代のゲームであり、中国での起源を忘れてから広がりました。"),
        ("EUC-JP", "囲碁は古代のゲームであり、中国での起源を忘れてから広がりました。"),
        ("ISO-2022-JP", "囲碁は古代のゲームであり、中国での起源を忘れてから広がりました。"),
        ("EUC-KR", "바둑은 중국에서 잊혀진 기원에서 처음에는 동아시아로 퍼진 고대 게임입니다."),
    ];

    const SINGLE_BYTE_SAMPLES: &[(&str, &str)] = &[
        ("ISO-8859-1", "Ää Àà Çç Éé Ññ Öö Øø ß Üü ÿ ¿¡ «»"),
        ("Latin1", "Très bien joué, Müller"),
        ("windows-1252", "Œuvre “quoted” – €5"),
        ("ISO-8859-15", "Ÿ Œœ € Šš Žž"),
        ("macintosh", "Ää Àà Ââ ƒ ‰ ™"),
        ("windows-1251", "Го - древняя игра, которая распространилась по всему миру."),
        ("KOI8-R", "Го - древняя игра, которая распространилась по всему миру."),
    ];

    #[test]
    fn declared_charsets_round_trip() {
        for &(label, sample) in CJK_SAMPLES.iter().chain(SINGLE_BYTE_SAMPLES) {
            let enc = encoding_for_label(label).unwrap();
            let text = format!("(;FF[4]CA[{label}]GM[1]\n;B[pd]C[{sample}]\n;W[dp]C[{sample}])");
            let bytes = encode(enc, &text);
            let d = decode(&bytes, None);
            assert_eq!(d.text, text, "{label}");
            assert_eq!(d.encoding, enc, "{label}");
            assert!(d.diagnostics.is_empty(), "{label}: {:?}", d.diagnostics);
        }
    }

    #[test]
    fn undeclared_cjk_is_detected() {
        for &(label, sample) in CJK_SAMPLES {
            let enc = encoding_for_label(label).unwrap();
            let text = format!("(;FF[4]GM[1]\n;B[pd]C[{sample}]\n;W[dp]C[{sample}])");
            let d = decode_vec(encode(enc, &text), None);
            assert_eq!(d.text, text, "{label}");
            // GBK and gb18030 decode alike; the detector names GBK.
            let expected = if enc == GB18030 { GBK } else { enc };
            assert_eq!(d.encoding, expected, "{label}");
            assert_eq!(codes(&d), [Code::CharsetDetected], "{label}");
            assert!(d.diagnostics[0].message.contains(expected.name()), "{:?}", d.diagnostics);
            check_offsets(&d);
        }
    }

    #[test]
    fn short_undeclared_cjk() {
        // A Fox-style header in GBK: chardetng alone guesses KOI8-U here.
        let text = "(;GM[1]FF[4]SZ[19]PB[revenge]PW[刘津铭]BR[9段]WR[P2段]KM[0];B[pd])";
        let d = decode_vec(encode(GBK, text), None);
        assert_eq!((d.encoding, d.text.as_ref()), (GBK, text));
        // One GB2312 name: chardetng alone guesses ISO-8859-5.
        let d = decode_vec(encode(GBK, "(;PW[白]PB[GNU Go])"), None);
        assert_eq!(d.text, "(;PW[白]PB[GNU Go])");
        // Shift_JIS with kana: chardetng alone guesses windows-1252.
        let text = "(;PB[BensonDarr]BR[9段]PW[でぇもん]WR[9段];B[pd])";
        let d = decode_vec(encode(SHIFT_JIS, text), None);
        assert_eq!((d.encoding, d.text.as_ref()), (SHIFT_JIS, text));
        // The same in EUC-JP: chardetng alone guesses windows-874.
        let d = decode_vec(encode(EUC_JP, text), None);
        assert_eq!((d.encoding, d.text.as_ref()), (EUC_JP, text));
        // Short Korean.
        let text = "(;PB[이세돌]PW[박정환]C[바둑은 재미있다])";
        let d = decode_vec(encode(EUC_KR, text), None);
        assert_eq!((d.encoding, d.text.as_ref()), (EUC_KR, text));
    }

    #[test]
    fn latin_stays_latin() {
        for text in [
            "(;PB[Jan Hrabánek]PW[fuego])",
            "(;C[Fichier SGF créé par TurboGo pour Windows, très bien])",
            "(;C[kossa 6k*: hörru gnugo...du borde spela bättre])",
        ] {
            let d = decode_vec(encode(WINDOWS_1252, text), None);
            assert_eq!((d.encoding, d.text.as_ref()), (WINDOWS_1252, text));
            assert_eq!(codes(&d), [Code::CharsetDetected]);
        }
    }

    #[test]
    fn boms() {
        let text = "(;CA[UTF-8]PB[古力])";
        let mut bytes = vec![0xEF, 0xBB, 0xBF];
        bytes.extend_from_slice(text.as_bytes());
        let d = decode(&bytes, None);
        assert!(matches!(d.text, Cow::Borrowed(_)));
        assert_eq!((d.text.as_ref(), d.encoding, d.bom_len), (text, UTF_8, 3));
        assert_eq!(codes(&d), [Code::ByteOrderMark]);
        assert_eq!(d.diagnostics[0].offset, 0);

        for be in [false, true] {
            let enc = if be { UTF_16BE } else { UTF_16LE };
            let text = "(;CA[UTF-16]PB[古力]C[囲碁 바둑 Go])";
            let d = decode_vec(utf16(text, be, true), None);
            assert_eq!((d.text.as_ref(), d.encoding, d.bom_len), (text, enc, 2));
            assert_eq!(codes(&d), [Code::ByteOrderMark]);
            assert!(d.diagnostics[0].message.contains(enc.name()));
        }
        // A UTF-8 BOM wins over a declaration, which is worth a warning.
        let mut bytes = vec![0xEF, 0xBB, 0xBF];
        bytes.extend_from_slice(b"(;PB[x]CA[GB2312])");
        let d = decode(&bytes, None);
        assert_eq!(d.encoding, UTF_8);
        assert_eq!(codes(&d), [Code::ByteOrderMark, Code::CharsetMismatch]);
        assert!(d.text[d.diagnostics[1].offset as usize..].starts_with("CA["));
    }

    #[test]
    fn utf16_without_bom() {
        for be in [false, true] {
            let enc = if be { UTF_16BE } else { UTF_16LE };
            let text = "(;FF[4]CA[UTF-16]PB[古力]PW[Lee]\n;B[pd]C[hello])";
            let d = decode_vec(utf16(text, be, false), None);
            assert_eq!((d.text.as_ref(), d.encoding, d.bom_len), (text, enc, 0));
            assert_eq!(codes(&d), [Code::CharsetDetected]);
            // Odd length: the lone last byte is reported, nothing panics.
            let mut bytes = utf16(text, be, false);
            bytes.push(b'x');
            let d = decode(&bytes, None);
            assert_eq!(d.encoding, enc);
            assert_eq!(codes(&d), [Code::CharsetDetected, Code::InvalidBytes]);
            check_offsets(&d);
        }
        // Too few NULs: not UTF-16.
        let d = decode(b"(;PB[a\0b]PW[something long enough to dilute it])", None);
        assert_eq!(d.encoding, UTF_8);
    }

    #[test]
    fn latin1_declared_but_utf8() {
        let text = "(;CA[ISO-8859-1]PB[Müller]C[Très bien])";
        let d = decode(text.as_bytes(), None);
        assert!(matches!(d.text, Cow::Borrowed(_)));
        assert_eq!(d.encoding, UTF_8);
        assert_eq!(codes(&d), [Code::CharsetMismatch]);
        let m = &d.diagnostics[0];
        assert_eq!(m.offset, 2);
        assert!(m.message.contains("windows-1252") && m.message.contains("UTF-8"), "{}", m.message);
        // All ASCII: nothing to say.
        let d = decode(b"(;CA[ISO-8859-1]PB[Muller])", None);
        assert!(d.diagnostics.is_empty());
    }

    #[test]
    fn cjk_declared_but_other() {
        // Declared GB2312, UTF-8 Chinese.
        let text = "(;CA[GB2312]PB[古力]PW[柯洁])";
        let d = decode(text.as_bytes(), None);
        assert_eq!((d.encoding, d.text.as_ref()), (UTF_8, text));
        assert_eq!(codes(&d), [Code::CharsetMismatch]);
        // Declared UTF-8, GBK bytes.
        let text = "(;CA[UTF-8]PB[古力]PW[柯洁]C[围棋是一种古老的游戏])";
        let d = decode_vec(encode(GBK, text), None);
        assert_eq!((d.encoding, d.text.as_ref()), (GBK, text));
        assert_eq!(codes(&d), [Code::CharsetMismatch]);
        assert_eq!(d.diagnostics[0].offset, 2);
        // Declared Shift_JIS, GBK bytes, Chinese before CA: the offset is
        // mapped into the decoded text.
        let text = "(;PB[古力]PW[柯洁]CA[Shift_JIS]C[围棋是一种古老的游戏，从被遗忘的中国起源先传到东亚其他地区。])";
        let d = decode_vec(encode(GBK, text), None);
        assert_eq!((d.encoding, d.text.as_ref()), (GBK, text));
        assert_eq!(codes(&d), [Code::CharsetMismatch]);
        assert!(d.text[d.diagnostics[0].offset as usize..].starts_with("CA[Shift_JIS]"));
        // Declared Latin-1, GBK bytes (chardetng is sure of it).
        let text = "(;CA[ISO-8859-1]C[围棋是一种古老的游戏，从被遗忘的中国起源先传到东亚其他地区，然后传到整个世界。])";
        let d = decode_vec(encode(GBK, text), None);
        assert_eq!((d.encoding, d.text.as_ref()), (GBK, text));
        assert_eq!(codes(&d), [Code::CharsetMismatch]);
    }

    #[test]
    fn fox_like_damaged_utf8() {
        // 洁 is E6 B4 81 and 刘 E5 88 98; the Fox server turned 81 and 88 into '?'.
        let mut bytes = "(;GM[1]FF[4]PB[柯洁]PW[刘星]BR[P9段]WR[P7段]KM[375];B[pd])".as_bytes().to_vec();
        let p = bytes.windows(3).position(|w| w == "洁".as_bytes()).unwrap();
        bytes[p + 2] = b'?';
        let q = bytes.windows(3).position(|w| w == "刘".as_bytes()).unwrap();
        bytes[q + 1] = b'?';
        let d = decode(&bytes, None);
        assert_eq!(d.encoding, UTF_8);
        assert_eq!(d.text, "(;GM[1]FF[4]PB[柯\u{FFFD}?]PW[\u{FFFD}?\u{FFFD}星]BR[P9段]WR[P7段]KM[375];B[pd])");
        assert_eq!(codes(&d), [Code::InvalidBytes; 3]);
        assert!(d.diagnostics[0].message.contains("E6 B4"), "{}", d.diagnostics[0].message);
        check_offsets(&d);

        // A name cut at the end of a value, CA[UTF-8] declared (chardetng
        // alone would say Shift_JIS).
        let mut bytes = "(;CA[UTF-8]PB[虎虎有生气]BR[9段]PW[东方明".as_bytes().to_vec();
        bytes.extend_from_slice(&"珠".as_bytes()[..2]);
        bytes.extend_from_slice(b"]WR[9\xe6\xae\xb5])");
        let d = decode(&bytes, None);
        assert_eq!(d.encoding, UTF_8);
        assert_eq!(d.text, "(;CA[UTF-8]PB[虎虎有生气]BR[9段]PW[东方明\u{FFFD}]WR[9段])");
        assert_eq!(codes(&d), [Code::InvalidBytes]);
        check_offsets(&d);
    }

    #[test]
    fn damaged_legacy_cjk_keeps_its_charset() {
        let comment = "围棋是一种古老的游戏，从被遗忘的中国起源先传到东亚其他地区，然后传到整个世界。";
        // Declared GBK, one bad byte (0xFF is never valid in GBK).
        let mut bytes = encode(GBK, &format!("(;CA[GBK]PB[古力]C[{comment}"));
        bytes.push(0xFF);
        bytes.extend_from_slice(&encode(GBK, &format!("{comment}])")));
        let d = decode(&bytes, None);
        assert_eq!(d.encoding, GBK);
        assert_eq!(codes(&d), [Code::InvalidBytes]);
        assert_eq!(d.text, format!("(;CA[GBK]PB[古力]C[{comment}\u{FFFD}{comment}])"));
        check_offsets(&d);
        // Undeclared: the detector drops GBK on any error; rescued.
        let d = decode(&bytes[9..], None);
        assert_eq!(d.encoding, GBK);
        assert_eq!(codes(&d), [Code::CharsetDetected, Code::InvalidBytes]);
        check_offsets(&d);
    }

    #[test]
    fn unknown_charset() {
        let d = decode(b"(;GM[1]CA[FOO-42]PB[x])", None);
        assert_eq!(d.encoding, UTF_8);
        assert_eq!(codes(&d), [Code::UnknownCharset]);
        assert_eq!(d.diagnostics[0].offset, 7);
        assert!(d.diagnostics[0].message.contains("FOO-42"));
        // Unknown and not UTF-8: detection, said as such.
        let text = "(;CA[FOO]C[围棋是一种古老的游戏，从被遗忘的中国起源先传到东亚其他地区。])";
        let d = decode_vec(encode(GBK, text), None);
        assert_eq!((d.encoding, d.text.as_ref()), (GBK, text));
        assert_eq!(codes(&d), [Code::UnknownCharset, Code::CharsetDetected]);
        // A label with control characters is shown escaped, on one line.
        let d = decode(b"(;CA[a\nb\x01])", None);
        assert_eq!(codes(&d), [Code::UnknownCharset]);
        check_offsets(&d);
    }

    #[test]
    fn multiple_charsets() {
        let text = "(;CA[UTF-8]PB[古力])\n(;CA[utf8]PB[x])\n(;CA[GB2312]PB[y])";
        let d = decode(text.as_bytes(), None);
        assert_eq!(d.encoding, UTF_8);
        assert_eq!(codes(&d), [Code::MultipleCharsets]);
        assert!(d.text[d.diagnostics[0].offset as usize..].starts_with("CA[GB2312]"));
        // Same in a legacy charset, with multi-byte text before: mapped offset.
        let text = "(;CA[GBK]PB[古力]C[围棋是一种古老的游戏])\n(;CA[Big5]PB[柯洁])";
        let d = decode_vec(encode(GBK, text), None);
        assert_eq!((d.encoding, d.text.as_ref()), (GBK, text));
        assert_eq!(codes(&d), [Code::MultipleCharsets]);
        assert!(d.text[d.diagnostics[0].offset as usize..].starts_with("CA[Big5]"));
        // And in UTF-16, scanned in the decoded text.
        let d = decode_vec(utf16(text, false, true), None);
        assert_eq!(codes(&d), [Code::ByteOrderMark, Code::MultipleCharsets]);
        assert!(d.text[d.diagnostics[1].offset as usize..].starts_with("CA[Big5]"));
    }

    #[test]
    fn iso_2022_jp_without_ca() {
        let text = "(;PB[井山裕太]C[囲碁は楽しい])";
        let bytes = encode(ISO_2022_JP, text);
        assert!(bytes.is_ascii());
        let d = decode(&bytes, None);
        assert_eq!((d.encoding, d.text.as_ref()), (ISO_2022_JP, text));
        assert_eq!(codes(&d), [Code::CharsetDetected]);
    }

    #[test]
    fn forced_encoding() {
        let text = "(;CA[UTF-8]PB[井山裕太]C[囲碁は楽しい])";
        let sjis = encode(SHIFT_JIS, text);
        let d = decode(&sjis, Some(SHIFT_JIS));
        assert_eq!((d.encoding, d.text.as_ref()), (SHIFT_JIS, text));
        assert!(d.diagnostics.is_empty());
        // Forced wrong: no detection, invalid bytes reported.
        let d = decode(&sjis, Some(UTF_8));
        assert_eq!(d.encoding, UTF_8);
        assert!(codes(&d).iter().all(|&c| c == Code::InvalidBytes) && !d.diagnostics.is_empty());
        check_offsets(&d);
        // A matching BOM is stripped, another one is kept as text.
        let mut bytes = vec![0xEF, 0xBB, 0xBF];
        bytes.extend_from_slice(b"(;)");
        let d = decode(&bytes, Some(UTF_8));
        assert_eq!((d.text.as_ref(), d.bom_len), ("(;)", 3));
        assert!(matches!(d.text, Cow::Borrowed(_)));
        assert_eq!(codes(&d), [Code::ByteOrderMark]);
        let d = decode(&bytes, Some(WINDOWS_1252));
        assert_eq!((d.text.as_ref(), d.bom_len), ("ï»¿(;)", 0));
        let d = decode_vec(utf16("(;)", true, true), Some(UTF_16BE));
        assert_eq!((d.text.as_ref(), d.bom_len), ("(;)", 2));
    }

    #[test]
    fn invalid_bytes_are_capped() {
        let mut bytes = b"(;C[".to_vec();
        for _ in 0..1000 {
            bytes.extend_from_slice(b"\xFF ");
        }
        bytes.extend_from_slice(b"])");
        for forced in [None, Some(UTF_8), Some(GBK), Some(SHIFT_JIS)] {
            let d = decode(&bytes, forced);
            let invalid: Vec<_> = d.diagnostics.iter().filter(|d| d.code == Code::InvalidBytes).collect();
            if forced.is_some() {
                assert_eq!(invalid.len(), MAX_INVALID_REPORTS + 1, "{forced:?}");
                assert!(invalid[MAX_INVALID_REPORTS].message.contains("990 more"), "{}", invalid[10].message);
            }
            assert!(invalid.len() <= MAX_INVALID_REPORTS + 1);
            check_offsets(&d);
        }
    }

    /// A small deterministic generator, so the test needs no extra crate.
    struct Lcg(u64);
    impl Lcg {
        fn next(&mut self) -> u64 {
            self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            self.0 >> 33
        }
    }

    #[test]
    fn never_panics() {
        let all: Vec<&'static Encoding> = [
            UTF_8,
            UTF_16LE,
            UTF_16BE,
            GBK,
            GB18030,
            BIG5,
            SHIFT_JIS,
            EUC_JP,
            EUC_KR,
            ISO_2022_JP,
            WINDOWS_1252,
            WINDOWS_1251,
            MACINTOSH,
            encoding_rs::REPLACEMENT,
            encoding_rs::X_USER_DEFINED,
        ]
        .to_vec();
        let mut inputs: Vec<Vec<u8>> = vec![vec![], b"C".to_vec(), b"CA[".to_vec(), vec![0], vec![0xFF], vec![0xFE, 0xFF, 0]];
        for b in 0..=255u8 {
            inputs.push(vec![b]);
            inputs.push(vec![b, 0]);
            inputs.push(vec![0, b]);
            inputs.push(vec![0xE6, b]);
            inputs.push(vec![0x1B, b, b'B']);
        }
        let mut rng = Lcg(42);
        for len in [2usize, 3, 7, 64, 300, 2000] {
            for _ in 0..20 {
                let mut v: Vec<u8> = (0..len).map(|_| rng.next() as u8).collect();
                inputs.push(v.clone());
                // Random bytes inside SGF-looking text, with a random CA.
                let labels = ["UTF-8", "GB2312", "SJIS", "Big5", "UTF-16", "foo", "ISO-2022-JP"];
                let mut s = format!("(;CA[{}]C[", labels[rng.next() as usize % labels.len()]).into_bytes();
                s.append(&mut v);
                s.extend_from_slice(b"])");
                inputs.push(s);
            }
        }
        for input in &inputs {
            let d = decode(input, None);
            check_offsets(&d);
            assert!(d.diagnostics.len() <= MAX_INVALID_REPORTS + 4, "{:?}", d.diagnostics);
            for &enc in &all {
                let d = decode(input, Some(enc));
                check_offsets(&d);
                // Same text as encoding_rs's own replacement decoding.
                let expected = enc.decode_without_bom_handling(&input[d.bom_len..]).0;
                assert_eq!(d.text, expected, "{}: {input:?}", enc.name());
            }
            let _ = declared_charset(input);
        }
    }

    fn manifest_dir() -> PathBuf {
        PathBuf::from(env!("CARGO_MANIFEST_DIR"))
    }

    fn read(path: &Path) -> Vec<u8> {
        std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
    }

    /// The crafted files in fixtures/charset (see make_fixtures.py there).
    #[test]
    fn fixtures() {
        let dir = manifest_dir().join("fixtures/charset");
        let cases: &[(&str, &Encoding, &[Code], &[&str])] = &[
            ("gb2312-declared.sgf", GBK, &[], &["PB[古力]", "PW[柯洁]", "C[围棋是一种古老的游戏]"]),
            ("gbk-trail-bytes.sgf", GBK, &[], &["PB[乗乚]", "C[乗乚乗]"]),
            ("shift-jis-no-ca.sgf", SHIFT_JIS, &[Code::CharsetDetected], &["PB[井山裕太]", "EV[表彰式]", "C[囲碁は楽しい。評価]"]),
            ("euc-kr-declared.sgf", EUC_KR, &[], &["PB[이세돌]", "C[바둑은 재미있다]"]),
            ("big5-declared.sgf", BIG5, &[], &["PB[周俊勳]", "C[圍棋是一種古老的遊戲，也]"]),
            ("latin1-declared-but-utf8.sgf", UTF_8, &[Code::CharsetMismatch], &["PB[Müller]", "C[Très bien joué]"]),
            ("latin1-declared.sgf", WINDOWS_1252, &[], &["PB[Müller]", "PW[Hrabánek]"]),
            (
                "fox-truncated-utf8.sgf",
                UTF_8,
                &[Code::InvalidBytes, Code::InvalidBytes, Code::InvalidBytes],
                &["GN[第4届梦百合杯]", "PB[柯\u{FFFD}?]", "PW[\u{FFFD}?\u{FFFD}星]", "BR[P9段]"],
            ),
            ("utf16le-bom.sgf", UTF_16LE, &[Code::ByteOrderMark], &["(;GM[1]", "PB[古力]"]),
            ("utf16be-no-bom.sgf", UTF_16BE, &[Code::CharsetDetected], &["(;GM[1]", "PB[古力]"]),
            ("utf8-bom.sgf", UTF_8, &[Code::ByteOrderMark], &["(;GM[1]", "PB[古力]"]),
            ("unknown-ca.sgf", UTF_8, &[Code::UnknownCharset], &["CA[FOO-42]"]),
            ("multiple-charsets.sgf", UTF_8, &[Code::MultipleCharsets], &["PB[古力]"]),
            ("iso-2022-jp-no-ca.sgf", ISO_2022_JP, &[Code::CharsetDetected], &["PB[井山裕太]", "C[囲碁は楽しい]"]),
        ];
        for &(name, enc, expected_codes, snippets) in cases {
            let bytes = read(&dir.join(name));
            let d = decode(&bytes, None);
            assert_eq!(d.encoding, enc, "{name}: {:?}", d.diagnostics);
            assert_eq!(codes(&d), expected_codes, "{name}: {:?}", d.diagnostics);
            for s in snippets {
                assert!(d.text.contains(s), "{name}: {s} not in {:?}", d.text);
            }
            assert!(d.text.starts_with("(;GM[1]FF[4]SZ[19]"), "{name}: {:?}", d.text);
            check_offsets(&d);
        }
    }

    /// The value of the first `id[...]` in `text` (test helper, no escapes).
    fn prop<'t>(text: &'t str, id: &str) -> Option<&'t str> {
        let pat = format!("{id}[");
        let mut from = 0;
        while let Some(i) = text[from..].find(&pat) {
            let i = from + i;
            if i == 0 || !text.as_bytes()[i - 1].is_ascii_uppercase() {
                let start = i + pat.len();
                let end = start + text[start..].find(']')?;
                return Some(&text[start..end]);
            }
            from = i + 1;
        }
        None
    }

    /// Peer test suites in ../shared/corpus (read in place, never copied).
    #[test]
    fn corpus_charsets() {
        let corpus = manifest_dir().join("../shared/corpus/suites");
        if !corpus.is_dir() {
            eprintln!("corpus_charsets: skipped, {} is absent", corpus.display());
            return;
        }
        let sabaki = corpus.join("sabaki/tests/sgf");
        let dec = |p: PathBuf| {
            let bytes = read(&p);
            let d = decode(&bytes, None);
            check_offsets(&d);
            (d.encoding, d.text.into_owned(), d.diagnostics)
        };
        // Comment of the second move: "... is fun".
        for (file, enc, word) in [("chinese.sgf", GBK, "围棋"), ("japanese.sgf", SHIFT_JIS, "囲碁"), ("korean.sgf", EUC_KR, "바둑")] {
            let (e, text, diags) = dec(sabaki.join(file));
            assert_eq!(e, enc, "{file}");
            assert!(diags.is_empty(), "{file}: {diags:?}");
            assert_eq!(prop(&text, "C"), Some(format!("{word} is fun").as_str()), "{file}");
        }
        let (_, text, _) = dec(sabaki.join("chinese.sgf"));
        assert_eq!((prop(&text, "PB"), prop(&text, "PW")), (Some("古力"), Some("柯洁")));
        let (_, text, _) = dec(sabaki.join("japanese.sgf"));
        assert_eq!((prop(&text, "PB"), prop(&text, "PW")), (Some("井山 裕太"), Some("山下 敬吾")));
        let (_, text, _) = dec(sabaki.join("korean.sgf"));
        assert_eq!((prop(&text, "PB"), prop(&text, "PW")), (Some("이세돌"), Some("박정환")));

        let (e, text, diags) = dec(sabaki.join("no-ca.sgf"));
        assert_eq!(e, GBK);
        assert!(prop(&text, "C").unwrap().starts_with("【第三型】"), "{text}");
        assert_eq!(diags.iter().map(|d| d.code).collect::<Vec<_>>(), [Code::CharsetDetected]);

        let (e, text, _) = dec(sabaki.join("encoding/nihon-kiin.sgf"));
        assert_eq!(e, SHIFT_JIS);
        assert_eq!(prop(&text, "PW"), Some("党毅飛"));
        assert!(prop(&text, "TE").unwrap().contains("世界最高棋士決定戦"));

        let (e, text, _) = dec(sabaki.join("utf16le.sgf"));
        assert_eq!(e, UTF_16LE);
        assert!(text.trim_start().starts_with("(") && text[..20].contains(";GM[1]"), "{:?}", &text[..40]);
        assert_eq!(prop(&text, "PW"), Some("Go Seigen"));

        let (e, text, diags) = dec(sabaki.join("utf8bom.sgf"));
        assert_eq!(e, UTF_8);
        assert!(text.starts_with('('));
        assert_eq!(diags.iter().map(|d| d.code).collect::<Vec<_>>(), [Code::ByteOrderMark]);

        // MS_KANJI names Shift_JIS, but the bytes are UTF-8 (already mangled): no panic.
        let (e, _, diags) = dec(sabaki.join("japanese_bad.sgf"));
        assert_eq!(e, UTF_8);
        assert_eq!(diags.iter().map(|d| d.code).collect::<Vec<_>>(), [Code::CharsetMismatch]);

        let (e, _, diags) = dec(sabaki.join("complex.sgf"));
        assert_eq!(e, UTF_8);
        assert!(diags.is_empty());

        // libsgfcplusplus: one file per charset; the last comment holds the sample.
        let lib = corpus.join("libsgfcplusplus/test/test-files");
        let zh = "围棋是一种古老的游戏，从被遗忘的中国起源先传到东亚其他地区，然后传到整个世界。";
        let tw = "圍棋是一種古老的遊戲，從其被遺忘的中國起源開始，首先傳播到東亞其他地區，然後傳播到整個世界。";
        let ja = "Goは古代のゲームであり、中国での起源を忘れてから、最初に東アジアの他の地域に広がり、次に全世界に広がりました。";
        let ko = "바둑은 중국에서 잊혀진 기원에서 처음에는 동아시아의 나머지 지역으로 퍼진 후 전 세계로 퍼진 고대 게임입니다.";
        let ru = "Го - древняя игра, которая со времен ее забытого происхождения в Китае распространилась сначала на остальную часть Восточной Азии, а затем и на весь мир.";
        let latin = "Ää Àà Ââ Åå Ææ Çç Èè Éé Êê Ëë Îî Ïï Ññ Öö Ôô Øø ß Üü Ùù Ûû ÿ ¿¡ «»";
        let cases: &[(&str, &Encoding, &[&str])] = &[
            ("encoding-chinese-gb18030.sgf", GB18030, &[zh]),
            ("encoding-chinese-gbk.sgf", GBK, &[zh]),
            ("encoding-simplifiedchinese-gb2312.sgf", GBK, &[zh]),
            ("encoding-simplifiedchinese-macos.sgf", GBK, &[zh]),
            ("encoding-traditionalchinese-big5.sgf", BIG5, &[tw]),
            ("encoding-traditionalchinese-macos.sgf", BIG5, &[tw]),
            ("encoding-japanese-shiftjis.sgf", SHIFT_JIS, &[ja]),
            ("encoding-japanese-macos.sgf", SHIFT_JIS, &[ja]),
            ("encoding-japanese-iso2022jp.sgf", ISO_2022_JP, &[ja]),
            ("encoding-korean-macos.sgf", EUC_KR, &[ko]),
            ("encoding-cyrillic-windows.sgf", WINDOWS_1251, &[ru]),
            ("encoding-western-isolatin1.sgf", WINDOWS_1252, &[latin]),
            ("encoding-western-windowslatin1.sgf", WINDOWS_1252, &[latin, "Ÿ Œœ €", "Šš Žž", "ƒ ‰ ™"]),
            ("encoding-western-isolatin9.sgf", ISO_8859_15, &[latin, "Ÿ Œœ €", "Šš Žž"]),
            ("encoding-western-macosroman.sgf", MACINTOSH, &[latin, "Ÿ Œœ €", "ƒ ‰ ™"]),
            ("encoding-utf8-nobom.sgf", UTF_8, &[zh, tw, ja, ko, ru]),
            ("encoding-utf8-withbom.sgf", UTF_8, &[zh, tw, ja, ko, ru]),
            ("encoding-utf16-withbom.sgf", UTF_16BE, &[zh, tw, ja, ko, ru]),
            ("encoding-utf16-nobom.sgf", UTF_16BE, &[zh, tw, ja, ko, ru]),
        ];
        for &(file, enc, samples) in cases {
            let (e, text, diags) = dec(lib.join(file));
            assert_eq!(e, enc, "{file}: {diags:?}");
            assert!(text.starts_with("(;FF[4]CA["), "{file}: {:?}", &text[..20]);
            for s in samples {
                assert!(text.contains(&format!("C[{s}]")), "{file}: {s}");
            }
            for d in &diags {
                assert!(matches!(d.code, Code::ByteOrderMark | Code::CharsetDetected), "{file}: {d:?}");
            }
        }
    }

    /// Fox server files (../shared/corpus/fox-pro): UTF-8 with bytes lost;
    /// every file must stay UTF-8, with few diagnostics, names readable.
    #[test]
    fn corpus_fox_sample() {
        let dir = manifest_dir().join("../shared/corpus/fox-pro/part1/9p");
        let Ok(entries) = std::fs::read_dir(&dir) else {
            eprintln!("corpus_fox_sample: skipped, {} is absent", dir.display());
            return;
        };
        let mut paths: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
        paths.sort();
        let (mut files, mut damaged, mut han) = (0, 0, 0);
        for path in paths.iter().take(300) {
            let bytes = read(path);
            let d = decode(&bytes, None);
            check_offsets(&d);
            assert_eq!(d.encoding, UTF_8, "{}: {:?}", path.display(), d.diagnostics);
            assert!(d.diagnostics.iter().all(|d| d.code == Code::InvalidBytes), "{}", path.display());
            files += 1;
            damaged += (!d.diagnostics.is_empty()) as usize;
            // Ranks (9段, P9段, 2级) have no byte in 0x80-0x9F: always intact.
            let rank = prop(&d.text, "BR").unwrap_or_default();
            assert!(rank.ends_with(['段', '级']), "{}: {rank}", path.display());
            let names = format!("{}{}", prop(&d.text, "PB").unwrap_or(""), prop(&d.text, "PW").unwrap_or(""));
            han += names.chars().filter(|c| ('\u{4E00}'..='\u{9FFF}').contains(c)).count();
        }
        eprintln!("corpus_fox_sample: {files} files, {damaged} with invalid bytes, {han} Han characters in names");
        assert!(han > files, "names should mostly decode as Chinese");
    }
}
