//! `kifu completions SHELL` and `kifu man`: shell completions and a man
//! page, generated from the command line's own definition, so they never
//! drift from the flags.

use std::io::{self, Write};

use clap::{Args, CommandFactory};
use clap_complete::Shell;

use super::{Cli, Status};

#[derive(Args)]
pub struct CompletionsArgs {
    /// bash, zsh, fish, powershell or elvish.
    shell: Shell,
}

#[derive(Args)]
pub struct ManArgs {
    /// A subcommand's page (kifu-check(1)...) instead of kifu(1).
    subcommand: Option<String>,
}

/// Writes the completion script on standard output, e.g.
/// `kifu completions bash > /etc/bash_completion.d/kifu`.
pub fn completions(args: CompletionsArgs) -> io::Result<Status> {
    let mut command = Cli::command();
    let mut out = io::stdout().lock();
    clap_complete::generate(args.shell, &mut command, "kifu", &mut out);
    out.flush()?;
    Ok(Status::Clean)
}

/// Writes the man page (roff) on standard output, e.g. `kifu man > kifu.1`.
pub fn man(args: ManArgs) -> io::Result<Status> {
    let mut command = Cli::command();
    command.build();
    let page = match &args.subcommand {
        None => clap_mangen::Man::new(command),
        Some(name) => match command.find_subcommand(name) {
            Some(sub) => clap_mangen::Man::new(sub.clone().version(env!("KIFU_VERSION"))).title(format!("kifu-{name}")),
            None => {
                say!("no subcommand '{name}' (check, score, convert, info, explain, completions, man)");
                return Ok(Status::Usage);
            }
        },
    };
    let mut out = io::stdout().lock();
    page.render(&mut out)?;
    out.flush()?;
    Ok(Status::Clean)
}
