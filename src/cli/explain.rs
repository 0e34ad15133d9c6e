//! `kifu explain CODE` and `kifu explain --list`: what a diagnostic code
//! means, with an example, from the registry the code reports with.

use std::io::{self, Write};

use clap::Args;

use super::{Status, code_arg};
use crate::report::explain;

#[derive(Args)]
pub struct ExplainArgs {
    /// The code to explain, e.g. ko or invalid-bytes.
    #[arg(required_unless_present = "list", conflicts_with = "list")]
    code: Option<String>,
    /// Explain every code.
    #[arg(long)]
    list: bool,
}

pub fn run(args: ExplainArgs) -> io::Result<Status> {
    let mut out = io::BufWriter::new(io::stdout().lock());
    match &args.code {
        Some(name) => match code_arg(name, "explain") {
            Ok(code) => explain::write_explanation(&mut out, code)?,
            Err(status) => return Ok(status),
        },
        None => explain::write_list(&mut out)?,
    }
    out.flush()?;
    Ok(Status::Clean)
}
