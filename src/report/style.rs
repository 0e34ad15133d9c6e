//! Colour in text output: severity, code and caret, in ANSI SGR codes.
//! Whether to use it is the caller's decision (the CLI's `--color`, which
//! never colours a pipe or a CI log); this module only paints.

use std::fmt;

use crate::diag::Severity;

/// How text output is painted.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Style {
    pub color: bool,
}

impl Style {
    pub const PLAIN: Style = Style { color: false };
    pub const COLOR: Style = Style { color: true };

    /// `text` in the colour of `severity`, bold.
    pub fn severity<T: fmt::Display>(self, severity: Severity, text: T) -> Painted<T> {
        let sgr = match severity {
            Severity::Error => "1;31",
            Severity::Warning => "1;33",
            Severity::Info => "1;36",
        };
        self.paint(sgr, text)
    }

    /// Bold, for the file position that heads a diagnostic.
    pub fn strong<T: fmt::Display>(self, text: T) -> Painted<T> {
        self.paint("1", text)
    }

    fn paint<T: fmt::Display>(self, sgr: &'static str, text: T) -> Painted<T> {
        Painted { sgr: self.color.then_some(sgr), text }
    }
}

/// Text with its colour, for `write!`.
pub struct Painted<T> {
    sgr: Option<&'static str>,
    text: T,
}

impl<T: fmt::Display> fmt::Display for Painted<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.sgr {
            Some(sgr) => write!(f, "\x1b[{sgr}m{}\x1b[0m", self.text),
            None => write!(f, "{}", self.text),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_is_the_text_alone() {
        assert_eq!(Style::PLAIN.severity(Severity::Error, "error[ko]").to_string(), "error[ko]");
        assert_eq!(Style::COLOR.severity(Severity::Error, "error[ko]").to_string(), "\x1b[1;31merror[ko]\x1b[0m");
        assert_eq!(Style::COLOR.strong("a.sgf:1:2:").to_string(), "\x1b[1ma.sgf:1:2:\x1b[0m");
    }
}
