//! Charsets: decides the charset of a whole SGF file and decodes it to UTF-8
//! before it is parsed.
//!
//! The file is decoded as a whole, never value by value: in Shift_JIS, Big5
//! and GBK the bytes `]` (0x5D) and `\` (0x5C) can be the trail byte of a
//! double-byte character, so the raw bytes cannot be tokenised safely.
//!
//! The decision, in order (see [`decode`]):
//!
//! 1. a byte order mark (UTF-8, UTF-16LE, UTF-16BE), or UTF-16 recognised by
//!    its NUL bytes;
//! 2. the first `CA[...]` declaration, found by an ASCII scan of the raw bytes;
//! 3. valid UTF-8 is read as UTF-8 (zero-copy) unless a legacy multi-byte
//!    charset is declared, decodes cleanly and the UTF-8 evidence is a single
//!    character; a declared single-byte charset (ISO-8859-1, windows-1252...)
//!    never beats bytes that are valid UTF-8 with non-ASCII characters;
//! 4. bytes that are *mostly* UTF-8 (Fox server files: Chinese names in which
//!    some bytes were replaced by `?`, or names cut in the middle of a
//!    character) stay UTF-8, with the damaged sequences replaced;
//! 5. otherwise the declared charset if the bytes fit it, else what chardetng
//!    detects, else the declared charset (or UTF-8) with replacement.
//!
//! Every offset in a diagnostic is a byte offset into the decoded text.

use std::borrow::Cow;

use chardetng::{EncodingDetector, Iso2022JpDetection, Utf8Detection};
use encoding_rs::{
    BIG5, DecoderResult, EUC_JP, EUC_KR, Encoding, GBK, ISO_2022_JP, SHIFT_JIS, UTF_8, UTF_16BE,
    UTF_16LE,
};

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
    // Normalise: lower case, without white space, '-', '_', '.', ':'.
    let mut key = String::with_capacity(label.len());
    for c in label.chars() {
        if c.is_ascii_alphanumeric() {
            key.push(c.to_ascii_lowercase());
        } else if !(c.is_ascii_whitespace() || matches!(c, '-' | '_' | '.' | ':' | '/')) {
            return None;
        }
    }
    let whatwg: Cow<'static, str> = match key.as_str() {
        "utf8" | "unicode" | "unicode11utf8" | "unicode20utf8" | "xunicode20utf8" => "utf-8".into(),
        "utf16" | "ucs2" | "utf16le" | "ucs2le" => "utf-16le".into(),
        "utf16be" | "ucs2be" => "utf-16be".into(),
        "gb2312" | "gb231280" | "euccn" | "cp936" | "ms936" | "windows936" | "gbk" | "xgbk"
        | "chinese" | "zhcn" | "gb" => "gbk".into(),
        "gb18030" | "gb180302000" | "gb180302005" => "gb18030".into(),
        "sjis" | "shiftjis" | "xsjis" | "mskanji" | "cp932" | "ms932" | "windows31j"
        | "windows932" | "shiftjs" => "shift_jis".into(),
        "eucjp" | "xeucjp" | "ujis" => "euc-jp".into(),
        "iso2022jp" | "jis" | "csiso2022jp" => "iso-2022-jp".into(),
        "euckr" | "cp949" | "ms949" | "windows949" | "uhc" | "ksc5601" | "ksc56011987"
        | "korean" => "euc-kr".into(),
        "big5" | "big5hkscs" | "cp950" | "ms950" | "windows950" | "xxbig5" | "cnbig5"
        | "zhtw" => "big5".into(),
        "latin1" | "l1" | "iso88591" | "iso885911987" | "isolatin1" | "ascii" | "usascii"
        | "ansi" | "ansix341968" | "cp819" | "ibm819" | "westerneuropean" => "windows-1252".into(),
        "latin2" | "l2" | "isolatin2" => "iso-8859-2".into(),
        "latin9" | "l9" | "isolatin9" | "latin0" => "iso-8859-15".into(),
        "koi8r" | "koi8" => "koi8-r".into(),
        "koi8u" => "koi8-u".into(),
        "macroman" | "mac" | "macintosh" | "xmacroman" | "macosroman" => "macintosh".into(),
        "maccyrillic" | "xmaccyrillic" => "x-mac-cyrillic".into(),
        "tis620" | "cp874" | "windows874" | "thai" => "windows-874".into(),
        _ => {
            // iso8859N, cp125N, windows125N, cp866/ibm866 and the like.
            if let Some(n) = key.strip_prefix("iso8859") {
                format!("iso-8859-{n}").into()
            } else if let Some(n) = key.strip_prefix("windows") {
                format!("windows-{n}").into()
            } else if let Some(n) = key.strip_prefix("cp").or_else(|| key.strip_prefix("ms")) {
                if n.starts_with("125") {
                    format!("windows-{n}").into()
                } else {
                    format!("cp{n}").into()
                }
            } else if let Some(n) = key.strip_prefix("ibm") {
                format!("ibm{n}").into()
            } else {
                return None;
            }
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
/// exactly `C`, `A` (so `CA` and FF[3] spellings with lower-case letters
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
/// UTF-8 validation and one `memchr` scan for `CA`, and allocates nothing.
pub fn decode<'a>(bytes: &'a [u8], forced: Option<&'static Encoding>) -> Decoded<'a> {
    if let Some(enc) = forced {
        return decode_forced(bytes, enc);
    }
    if let Some((enc, bom_len)) = Encoding::for_bom(bytes) {
        return decode_with_bom(bytes, enc, bom_len);
    }
    if let Some(enc) = sniff_utf16(bytes) {
        let mut out = Decoded::lossy(enc, bytes, 0, Vec::new());
        out.diagnostics.insert(
            0,
            Diagnostic::new(
                Code::CharsetDetected,
                0,
                format!("no byte order mark, but the bytes look like {0}; read as {0}", enc.name()),
            ),
        );
        check_multiple_in_text(&mut out);
        return out;
    }
    decode_ascii_compatible(bytes)
}

impl<'a> Decoded<'a> {
    /// Decodes `bytes[bom_len..]` with replacement, reporting each malformed
    /// sequence; keeps `diagnostics` given before those.
    fn lossy(
        enc: &'static Encoding,
        bytes: &'a [u8],
        bom_len: usize,
        mut diagnostics: Vec<Diagnostic>,
    ) -> Decoded<'a> {
        let body = &bytes[bom_len.min(bytes.len())..];
        if enc == UTF_8 {
            if let Ok(s) = std::str::from_utf8(body) {
                return Decoded { text: Cow::Borrowed(s), encoding: enc, bom_len, diagnostics };
            }
        }
        let mut reporter = InvalidReporter::new(enc);
        let text = decode_with_errors(enc, body, &mut |text_off, bad| {
            reporter.report(text_off, bad, &mut diagnostics)
        });
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
            diagnostics.push(Diagnostic::new(
                Code::ByteOrderMark,
                0,
                format!("the file starts with a {} byte order mark; it was skipped", enc.name()),
            ));
        }
    }
    Decoded::lossy(enc, bytes, bom_len, diagnostics)
}

fn decode_with_bom<'a>(bytes: &'a [u8], enc: &'static Encoding, bom_len: usize) -> Decoded<'a> {
    let mut diagnostics = vec![Diagnostic::new(
        Code::ByteOrderMark,
        0,
        format!("the file starts with a {0} byte order mark; read as {0}", enc.name()),
    )];
    if enc == UTF_8 {
        // A declaration that disagrees is worth a word; the BOM wins.
        let body = &bytes[bom_len..];
        if let Some(decl) = declared_charset(body) {
            if let Some(declared) = label_encoding(decl.value) {
                if declared != UTF_8 {
                    diagnostics.push(Diagnostic::new(
                        Code::CharsetMismatch,
                        0, // mapped below once the text is known
                        format!(
                            "CA[{}] declares {} but the file starts with a UTF-8 byte order mark; read as UTF-8",
                            show_label(decl.value),
                            declared.name()
                        ),
                    ));
                }
            }
        }
        let mut out = Decoded::lossy(enc, bytes, bom_len, diagnostics);
        // Offsets of CA[] in the body equal offsets in the text when the
        // body is valid UTF-8; otherwise map them.
        check_multiple_in_text(&mut out);
        fix_mismatch_offset(&mut out);
        return out;
    }
    let mut out = Decoded::lossy(enc, bytes, bom_len, diagnostics);
    check_multiple_in_text(&mut out);
    out
}

/// Points a CharsetMismatch diagnostic (BOM case) at the CA in the text.
fn fix_mismatch_offset(out: &mut Decoded<'_>) {
    if let Some(decl) = declared_charset(out.text.as_bytes()) {
        for d in &mut out.diagnostics {
            if d.code == Code::CharsetMismatch {
                d.offset = to_u32(decl.offset);
            }
        }
    }
}

/// For files decoded from a non-ASCII-compatible form (UTF-16), the CA scan
/// runs on the decoded text; only `MultipleCharsets` can come of it.
fn check_multiple_in_text(out: &mut Decoded<'_>) {
    if let Some(decl) = declared_charset(out.text.as_bytes()) {
        if let Some((later, off)) = decl.later_different {
            out.diagnostics.push(multiple_charsets(decl.value, later, off, out.encoding));
        }
    }
}

fn multiple_charsets(first: &[u8], later: &[u8], text_off: usize, used: &'static Encoding) -> Diagnostic {
    Diagnostic::new(
        Code::MultipleCharsets,
        to_u32(text_off),
        format!(
            "CA[{}] differs from the first CA[{}]; {} was used for the whole file",
            show_label(later),
            show_label(first),
            used.name()
        ),
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

/// What was declared, as far as decoding is concerned.
struct Declaration<'a> {
    decl: Option<CharsetDecl<'a>>,
    /// The declared charset, when it is known and usable for these bytes.
    enc: Option<&'static Encoding>,
    /// A charset was declared (known or not) but cannot be used.
    ignored: bool,
}

impl Declaration<'_> {
    fn label(&self) -> String {
        self.decl.map_or_else(String::new, |d| show_label(d.value))
    }
}

fn decode_ascii_compatible(bytes: &[u8]) -> Decoded<'_> {
    let decl = declared_charset(bytes);
    let mut diagnostics = Vec::new();
    let mut declaration = Declaration { decl, enc: None, ignored: false };
    if let Some(d) = decl {
        match label_encoding(d.value) {
            Some(enc) if enc == UTF_16LE || enc == UTF_16BE => {
                // The bytes are not UTF-16 (no BOM, no NUL pattern).
                declaration.ignored = true;
            }
            Some(enc) => declaration.enc = Some(enc),
            None => {
                declaration.ignored = true;
                diagnostics.push(Diagnostic::new(
                    Code::UnknownCharset,
                    0, // mapped once the text is known
                    format!("CA[{}] names an unknown charset; it was ignored", show_label(d.value)),
                ));
            }
        }
    }

    let mut out = choose(bytes, &declaration, diagnostics);

    // Map raw offsets of CA[] to text offsets, and add MultipleCharsets.
    if let Some(d) = decl {
        let map = |raw: usize| raw_to_text_offset(bytes, raw, &out);
        let first_off = map(d.offset);
        let later = d.later_different.map(|(v, raw)| (v, map(raw)));
        for diag in &mut out.diagnostics {
            if matches!(diag.code, Code::UnknownCharset | Code::CharsetMismatch) {
                diag.offset = to_u32(first_off);
            }
        }
        if let Some((v, off)) = later {
            out.diagnostics.push(multiple_charsets(d.value, v, off, out.encoding));
        }
    }
    out
}

/// Maps a raw byte offset (of an ASCII byte) to the decoded text.
fn raw_to_text_offset(bytes: &[u8], raw: usize, out: &Decoded<'_>) -> usize {
    if let Cow::Borrowed(_) = out.text {
        return raw.saturating_sub(out.bom_len);
    }
    let raw = raw.min(bytes.len());
    let prefix = &bytes[out.bom_len.min(raw)..raw];
    decode_with_errors(out.encoding, prefix, &mut |_, _| {}).len().min(out.text.len())
}

/// The heart of the decision, for ASCII-compatible bytes without a BOM.
fn choose<'a>(bytes: &'a [u8], declaration: &Declaration<'_>, mut diagnostics: Vec<Diagnostic>) -> Decoded<'a> {
    let label = declaration.label();
    let declared = declaration.enc;

    // Valid UTF-8: the common case.
    if let Ok(s) = std::str::from_utf8(bytes) {
        match declared.filter(|&e| e != UTF_8) {
            None => {
                if declared.is_none() && memchr::memchr(0x1B, bytes).is_some() && s.is_ascii() {
                    // ISO-2022-JP looks like ASCII with escape sequences.
                    if let Some(t) = ISO_2022_JP.decode_without_bom_handling_and_without_replacement(bytes) {
                        if t.len() != s.len() || t != s {
                            diagnostics.push(detected_diag(declaration, &label, ISO_2022_JP, "the bytes use ISO-2022-JP escape sequences"));
                            return Decoded { text: Cow::Owned(t.into_owned()), encoding: ISO_2022_JP, bom_len: 0, diagnostics };
                        }
                    }
                }
                if declaration.ignored && !s.is_ascii() {
                    diagnostics.push(mismatch(&label, None, "the bytes are valid UTF-8; read as UTF-8"));
                }
                return Decoded::borrowed(UTF_8, s, diagnostics);
            }
            Some(enc) => {
                if s.is_ascii() {
                    if enc.is_ascii_compatible() {
                        // Same text in any ASCII-compatible charset.
                        return Decoded::borrowed(enc, s, diagnostics);
                    }
                    // ISO-2022-JP: decode (escape sequences).
                    return Decoded::lossy(enc, bytes, 0, diagnostics);
                }
                // Non-ASCII valid UTF-8 against a declared legacy charset.
                if !enc.is_single_byte() {
                    let stats = Utf8Stats::of(bytes);
                    if stats.valid_mb < 2 {
                        if let Some(t) = enc.decode_without_bom_handling_and_without_replacement(bytes) {
                            return Decoded { text: Cow::Owned(t.into_owned()), encoding: enc, bom_len: 0, diagnostics };
                        }
                    }
                }
                diagnostics.push(mismatch(&label, Some(enc), "the bytes are valid UTF-8; read as UTF-8"));
                return Decoded::borrowed(UTF_8, s, diagnostics);
            }
        }
    }

    // Not valid UTF-8. Mostly UTF-8 with damaged sequences (Fox files)?
    let stats = Utf8Stats::of(bytes);
    if stats.looks_like_damaged_utf8() {
        if let Some(enc) = declared.filter(|&e| e != UTF_8) {
            diagnostics.push(mismatch(&label, Some(enc), "the bytes are UTF-8 with a few invalid sequences; read as UTF-8"));
        } else if declaration.ignored {
            diagnostics.push(mismatch(&label, None, "the bytes are UTF-8 with a few invalid sequences; read as UTF-8"));
        }
        return Decoded::lossy(UTF_8, bytes, 0, diagnostics);
    }

    // A declared legacy charset.
    if let Some(enc) = declared.filter(|&e| e != UTF_8) {
        if let Some(t) = enc.decode_without_bom_handling_and_without_replacement(bytes) {
            if enc.is_single_byte() {
                // Single-byte charsets fit any bytes; CJK text wrongly
                // declared Latin-1 is common, so ask the detector.
                let guess = detect(bytes);
                if !guess.is_single_byte() && guess != UTF_8 && guess.is_ascii_compatible() {
                    if let Some(t2) = guess.decode_without_bom_handling_and_without_replacement(bytes) {
                        diagnostics.push(mismatch(&label, Some(enc), &format!("the bytes are not Latin text; detected {}", guess.name())));
                        return Decoded { text: Cow::Owned(t2.into_owned()), encoding: guess, bom_len: 0, diagnostics };
                    }
                }
            }
            return Decoded { text: Cow::Owned(t.into_owned()), encoding: enc, bom_len: 0, diagnostics };
        }
        // Not clean in the declared charset. Only a few errors: keep it.
        let q = quality(enc, bytes);
        if q.few_errors() {
            return Decoded::lossy(enc, bytes, 0, diagnostics);
        }
        let guess = detect(bytes);
        if guess != enc {
            if let Some(t) = guess.decode_without_bom_handling_and_without_replacement(bytes) {
                diagnostics.push(mismatch(&label, Some(enc), &format!("the bytes are not valid {}; detected {}", enc.name(), guess.name())));
                return Decoded { text: Cow::Owned(t.into_owned()), encoding: guess, bom_len: 0, diagnostics };
            }
        }
        return Decoded::lossy(enc, bytes, 0, diagnostics);
    }

    // UTF-8 declared, or nothing usable declared: detect.
    let guess = detect(bytes);
    let guess_clean = if guess == UTF_8 {
        None
    } else {
        guess.decode_without_bom_handling_and_without_replacement(bytes)
    };
    // A multi-byte charset with a few errors beats a single-byte guess.
    if guess_clean.is_none() || guess.is_single_byte() {
        if let Some(enc) = rescue_cjk(bytes) {
            let why = format!("detected {} with a few invalid bytes", enc.name());
            diagnostics.push(detected_diag(declaration, &label, enc, &why));
            return Decoded::lossy(enc, bytes, 0, diagnostics);
        }
    }
    if let Some(t) = guess_clean {
        let why = format!("detected {}", guess.name());
        diagnostics.push(detected_diag(declaration, &label, guess, &why));
        return Decoded { text: Cow::Owned(t.into_owned()), encoding: guess, bom_len: 0, diagnostics };
    }
    Decoded::lossy(UTF_8, bytes, 0, diagnostics)
}

/// The diagnostic for a charset chosen by detection: `CharsetDetected` when
/// nothing usable was declared, `CharsetMismatch` when UTF-8 was declared.
fn detected_diag(declaration: &Declaration<'_>, label: &str, used: &'static Encoding, why: &str) -> Diagnostic {
    match declaration.enc {
        Some(declared) => mismatch(label, Some(declared), &format!("the bytes are not valid {}; {why}", declared.name())),
        None if declaration.ignored => mismatch(label, None, &format!("the bytes are not UTF-8; {why}")),
        None => Diagnostic::new(Code::CharsetDetected, 0, format!("no CA[] and the bytes are not UTF-8; {why}")),
    }
}

fn mismatch(label: &str, declared: Option<&'static Encoding>, why: &str) -> Diagnostic {
    let declared = match declared {
        Some(enc) => format!("CA[{label}] declares {}", enc.name()),
        None => format!("CA[{label}] cannot be used"),
    };
    Diagnostic::new(Code::CharsetMismatch, 0, format!("{declared} but {why}"))
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
    let mut cleaned = bytes.to_vec();
    let mut read_ranges = Vec::new();
    decode_ranges(enc, bytes, &mut read_ranges);
    for (start, len) in read_ranges {
        for b in cleaned.iter_mut().skip(start).take(len) {
            *b = b'?';
        }
    }
    let guess = detect(&cleaned);
    (guess == enc || (enc == GBK && guess == encoding_rs::GB18030)).then_some(enc)
}

/// Raw byte ranges of malformed sequences in `enc`.
fn decode_ranges(enc: &'static Encoding, bytes: &[u8], ranges: &mut Vec<(usize, usize)>) {
    let mut dec = enc.new_decoder_without_bom_handling();
    let mut out = String::with_capacity(4096);
    let mut read = 0;
    loop {
        out.clear();
        let (res, n) = dec.decode_to_string_without_replacement(&bytes[read..], &mut out, true);
        read += n;
        match res {
            DecoderResult::InputEmpty => break,
            DecoderResult::OutputFull => {}
            DecoderResult::Malformed(bad, after) => {
                let end = read.saturating_sub(after as usize);
                let start = end.saturating_sub(bad as usize);
                ranges.push((start, end - start));
            }
        }
    }
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
    let text = decode_with_errors(enc, bytes, &mut |_, _| errors += 1);
    let good = text.chars().filter(|&c| !c.is_ascii() && c != '\u{FFFD}').count();
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
        (self.valid_long >= 1 && self.valid_long_bytes * 3 >= self.invalid_bytes)
            || (self.valid_mb >= 2 && self.valid_mb >= 2 * self.invalid)
    }
}

/// Decodes with replacement, calling `on_error(text_offset, bad_bytes)` for
/// each malformed sequence before its U+FFFD is appended.
fn decode_with_errors(enc: &'static Encoding, bytes: &[u8], on_error: &mut dyn FnMut(usize, &[u8])) -> String {
    let mut dec = enc.new_decoder_without_bom_handling();
    let cap = dec
        .max_utf8_buffer_length(bytes.len())
        .unwrap_or(bytes.len())
        .min(bytes.len().saturating_mul(3).saturating_add(16));
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
                on_error(out.len(), &bytes[start..end]);
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
}
