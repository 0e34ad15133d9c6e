//! `--color auto|always|never`: whether text output is painted. `auto`
//! paints only standard output on a terminal, never a pipe, a file or a
//! CI log, and respects `NO_COLOR` (https://no-color.org) and `TERM=dumb`;
//! `always` and `never` decide whatever the environment says.

use std::io::IsTerminal;

use clap::ValueEnum;

use crate::report::Style;

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ColorChoice {
    Auto,
    Always,
    Never,
}

impl ColorChoice {
    /// The style of standard output.
    pub fn style(self) -> Style {
        let env = |name: &str| std::env::var_os(name).filter(|v| !v.is_empty());
        let color = match self {
            ColorChoice::Always => true,
            ColorChoice::Never => false,
            ColorChoice::Auto => std::io::stdout().is_terminal() && env("NO_COLOR").is_none() && env("CI").is_none() && env("TERM").is_none_or(|t| t != "dumb"),
        };
        Style { color }
    }
}
