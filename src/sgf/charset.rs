//! PLACEHOLDER so the crate builds while helper-1 writes the real module; it replaces this whole file.
use crate::diag::Diagnostic;
use encoding_rs::Encoding;
use std::borrow::Cow;

pub struct Decoded<'a> {
    pub text: Cow<'a, str>,
    pub encoding: &'static Encoding,
    pub bom_len: usize,
    pub diagnostics: Vec<Diagnostic>,
}

pub fn encoding_for_label(label: &str) -> Option<&'static Encoding> {
    Encoding::for_label(label.trim().as_bytes())
}

pub fn decode<'a>(bytes: &'a [u8], forced: Option<&'static Encoding>) -> Decoded<'a> {
    let enc = forced.unwrap_or(encoding_rs::UTF_8);
    let (text, _, _) = enc.decode(bytes);
    Decoded { text, encoding: enc, bom_len: 0, diagnostics: Vec::new() }
}
