//! What each diagnostic code means, from the registry in `diag`: `kifu
//! explain CODE` and `--list` for people, the code tables and reference of
//! docs/diagnostics.md, and the rule help of SARIF logs. Nothing here is
//! written by hand: a record example is checked, and what kifu says of it
//! is shown as the text output prints it.

use std::io::{self, Write};

use super::style::Style;
use super::{Emitter, FileContext, TextEmitter};
use crate::check::{CheckOptions, check_bytes};
use crate::diag::{CODES, Code, CodeInfo, Example, GROUPS};

/// The name examples are shown under.
const EXAMPLE_FILE: &str = "example.sgf";

/// What `kifu check --score` says of a record example, only the lines of
/// diagnostics with the example's code, as the text output prints them.
fn example_output(info: &CodeInfo, text: &str) -> String {
    let options = CheckOptions { score: Some(Default::default()), ..Default::default() };
    let found = check_bytes(text.as_bytes(), &options);
    let mut out = Vec::new();
    let mut emitter = TextEmitter { style: Style::PLAIN };
    let file = FileContext { path: EXAMPLE_FILE, source: Some(&found.source) };
    for d in found.diagnostics.iter().filter(|d| d.code.name() == info.name) {
        let _ = emitter.diagnostic(&mut out, &file, d);
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// `text` cut into lines of at most `width` characters, at spaces.
fn wrap(text: &str, width: usize) -> Vec<String> {
    let mut lines = Vec::new();
    let mut line = String::new();
    for word in text.split_whitespace() {
        if !line.is_empty() && line.chars().count() + 1 + word.chars().count() > width {
            lines.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    if !line.is_empty() {
        lines.push(line);
    }
    lines
}

/// `kifu explain CODE`: the code, its default severity and group, what it
/// means, and an example with what kifu says of it.
pub fn write_explanation(out: &mut dyn Write, code: Code) -> io::Result<()> {
    let info = code.info();
    writeln!(out, "{} ({} by default; {})", info.name, info.severity, GROUPS[info.group].title.replace('`', ""))?;
    writeln!(out)?;
    writeln!(out, "{}", info.summary)?;
    writeln!(out)?;
    for line in wrap(&info.explanation.replace('`', ""), 78) {
        writeln!(out, "{line}")?;
    }
    writeln!(out)?;
    match info.example {
        Example::Record(text) => {
            writeln!(out, "Example: {EXAMPLE_FILE}")?;
            for line in text.lines() {
                writeln!(out, "    {line}")?;
            }
            writeln!(out, "kifu check --score {EXAMPLE_FILE} says:")?;
            for line in example_output(info, text).lines() {
                writeln!(out, "    {line}")?;
            }
        }
        Example::Command(command) => writeln!(out, "Example:\n    $ {command}")?,
    }
    Ok(())
}

/// `kifu explain --list`: every code's explanation, in registry order.
pub fn write_list(out: &mut dyn Write) -> io::Result<()> {
    for (i, code) in Code::ALL.iter().enumerate() {
        if i > 0 {
            writeln!(out, "\n{}\n", "-".repeat(78))?;
        }
        write_explanation(out, *code)?;
    }
    Ok(())
}

/// Where the generated part of docs/diagnostics.md starts and ends.
pub const DOCS_BEGIN: &str = "<!-- Generated from src/diag.rs: `KIFU_REGENERATE_DOCS=1 cargo test --lib report::explain` rewrites it. -->";
pub const DOCS_END: &str = "<!-- End of the generated part. -->";

/// The generated part of docs/diagnostics.md: a table of codes for each
/// group, then each code's explanation and example under a heading of its
/// own (its anchor is the code's name; SARIF rules link there).
pub fn docs_markdown() -> String {
    let mut md = format!("{DOCS_BEGIN}\n\n## Codes\n");
    for (g, group) in GROUPS.iter().enumerate() {
        md.push_str(&format!("\n### {}\n\n", group.title));
        if !group.intro.is_empty() {
            md.push_str(&format!("{}\n\n", wrap(group.intro, 76).join("\n")));
        }
        md.push_str("| code | default | meaning |\n|---|---|---|\n");
        for info in CODES.iter().filter(|c| c.group == g) {
            md.push_str(&format!("| [`{0}`](#{0}) | {1} | {2} |\n", info.name, info.severity, info.summary));
        }
    }
    md.push_str("\n## Code reference\n\nWhat `kifu explain CODE` prints: each code's meaning and an example.\n");
    for (code, info) in Code::ALL.iter().zip(CODES) {
        md.push_str(&format!("\n### `{}`\n\n{} by default. {}\n\n", info.name, capitalised(info.severity.as_str()), info.summary));
        md.push_str(&format!("{}\n\n", wrap(info.explanation, 76).join("\n")));
        let fix = format!("`--fix`: {}", crate::repair::repair_of(*code).unwrap_or("not repaired; the copy keeps what was read."));
        md.push_str(&format!("{}\n\n", wrap(&fix, 76).join("\n")));
        match info.example {
            Example::Record(text) => {
                md.push_str(&format!(
                    "```sgf\n{}\n```\n\n`kifu check --score {EXAMPLE_FILE}`:\n\n```text\n{}```\n",
                    text.trim_end(),
                    example_output(info, text)
                ));
            }
            Example::Command(command) => md.push_str(&format!("```sh\n{command}\n```\n")),
        }
    }
    md.push_str(&format!("\n{DOCS_END}\n"));
    md
}

fn capitalised(s: &str) -> String {
    let mut chars = s.chars();
    chars.next().map(|c| c.to_uppercase().chain(chars).collect()).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    const DOCS_PATH: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/docs/diagnostics.md");

    /// docs/diagnostics.md holds the generated part as the code gives it
    /// now; `KIFU_REGENERATE_DOCS=1` rewrites it when it does not.
    #[test]
    fn docs_are_generated_from_the_registry() {
        let doc = std::fs::read_to_string(DOCS_PATH).expect("docs/diagnostics.md");
        let (Some(begin), Some(end)) = (doc.find(DOCS_BEGIN), doc.find(DOCS_END)) else {
            panic!("docs/diagnostics.md lacks the markers of its generated part");
        };
        let current = &doc[begin..end + DOCS_END.len() + 1];
        let generated = docs_markdown();
        if current != generated {
            if std::env::var_os("KIFU_REGENERATE_DOCS").is_some() {
                std::fs::write(DOCS_PATH, doc.replacen(current, &generated, 1)).expect("write docs/diagnostics.md");
            } else {
                panic!("docs/diagnostics.md is stale: run `KIFU_REGENERATE_DOCS=1 cargo test --lib report::explain` and commit the result");
            }
        }
    }

    #[test]
    fn explanations_wrap_and_show_what_kifu_says() {
        let mut out = Vec::new();
        write_explanation(&mut out, Code::Ko).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert!(text.starts_with("ko (error by default; Moves (replay))\n"), "{text}");
        assert!(text.lines().all(|l| l.chars().count() <= 120), "{text}");
        assert!(text.contains("error[ko]: White retakes the ko at D6 (dd) at once (move 10)"), "{text}");
        assert!(text.contains("X(+)X"), "{text}");
    }

    #[test]
    fn wrap_cuts_at_spaces() {
        assert_eq!(wrap("aa bb cc", 5), ["aa bb", "cc"]);
        assert_eq!(wrap("a-very-long-word b", 4), ["a-very-long-word", "b"]);
    }
}
