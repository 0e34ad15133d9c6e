//! The command line: resolves arguments into options, walks the inputs and
//! wires the library stages together. Nothing below this module knows clap.
//!
//! Exit codes (a contract): 0 clean, 1 problems found, 2 usage or I/O error.

/// Says something on standard error as `kifu: ...`, escaped: the file
/// names and record text it quotes never reach the terminal raw.
macro_rules! say {
    ($($arg:tt)*) => {
        eprintln!("kifu: {}", $crate::report::escape::Escaped(&format!($($arg)*)))
    };
}

mod color;
mod config;
mod explain;
mod export;
mod fix;
mod output;
mod progress;
mod score;
mod shell;

use std::io::{self, Write};
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use clap::{Args, Parser, Subcommand, ValueEnum};

use crate::batch::{self, Content, Item, Shard, Walk};
use crate::check::{CheckOptions, FileCheck, check_record};
use crate::dedup::DuplicateIndex;
use crate::diag::{Code, Diagnostic, Policy, Severity};
use crate::json::{self, JsonOptions};
use crate::repair;
use crate::replay::RuleOverrides;
use crate::report::{self, Format, Reporter, Shown};
use crate::rules::{Connections, KoRule, Rules, SekiEyes, Suicide, Ties};
use crate::score::{DeadStones, ScoreOptions};
use crate::sgf::props;
use crate::sgf::{self, ParseOptions, SourceMap, charset};
use color::ColorChoice;
use config::Config;
use fix::FixTarget;
use progress::Progress;

const EXAMPLES: &str = "\
Examples:
  kifu check games/                      check every .sgf file under games/
  kifu check --format json a.sgf b.sgf   diagnostics as one JSON document
  kifu info game.sgf                     players, komi, result, moves of each game
  kifu convert game.sgf --to json        SGF to JSON (kifu/1 schema, docs/json.md)
  kifu convert *.sgf --to json -o all.jsonl
  kifu convert game.json --to sgf        and back
  kifu export --to npz games/ -o games.npz   boards, moves, komi, results as NumPy arrays
  cat game.sgf | kifu info -             '-' reads standard input
  kifu explain ko                        what a diagnostic code means, with an example

Exit status: 0 clean, 1 problems found, 2 usage or I/O error.";

#[derive(Parser)]
#[command(name = "kifu", version = env!("KIFU_VERSION"), about = "Parse, check, convert and rescore Go game records (SGF).", after_help = EXAMPLES)]
struct Cli {
    #[command(subcommand)]
    command: Command,
    /// Colour in text output: auto (on a terminal, unless NO_COLOR is set or in CI), always, never.
    #[arg(long, value_enum, global = true, default_value = "auto", value_name = "WHEN")]
    color: ColorChoice,
}

#[derive(Subcommand)]
enum Command {
    /// Report every problem in SGF files: syntax, charsets, property values, illegal moves.
    Check(CheckArgs),
    /// Rescore finished games under their rules and compare with RE[].
    #[command(
        after_help = "Exit status: 0 when every recount agrees with RE[] (or RE[] gives no margin to compare); 1 when a recount disagrees with RE[], or a game has no board to score; 2 on a usage or I/O error, a --variation or a --dead-stones point a game does not have included. A game that is not Go is skipped (not-go)."
    )]
    Score(ScoreArgs),
    /// Convert SGF to JSON (schema kifu/1) and back.
    Convert(ConvertArgs),
    /// Print each game's summary: players, ranks, komi, result, moves.
    Info(InfoArgs),
    /// Explain a diagnostic code, with an example (--list: every code).
    Explain(explain::ExplainArgs),
    /// Print a shell completion script.
    Completions(shell::CompletionsArgs),
    /// Print the man page (roff).
    Man(shell::ManArgs),
    /// Replay each game's main line into NumPy arrays for training (--to npz).
    Export(export::ExportArgs),
}

#[derive(Args)]
struct InputArgs {
    /// Files (SGF, Tygem .gib, WBaduk .ngf, Pandanet .ugf/.ugi, also compressed: .gz, .bz2, .xz, .zst), directories or archives (.zip, .tar, .tar.gz/.tgz, .tar.bz2/.tbz2, .tar.xz/.txz, .tar.zst, .7z); '-' for standard input. Directories are searched recursively.
    #[arg(required = true)]
    paths: Vec<PathBuf>,
    /// File extensions to pick up in directories and archives, besides sgf, gib, ngf, ugf and ugi (case-insensitive; repeatable).
    #[arg(long = "ext", value_name = "EXT")]
    extensions: Vec<String>,
    /// Also walk into hidden folders and pick hidden files (names starting with '.').
    #[arg(long)]
    hidden: bool,
    /// Read files in this charset, whatever they declare (e.g. GB18030, Shift_JIS).
    #[arg(long, value_name = "NAME")]
    encoding: Option<String>,
    /// Do not read files or archive members larger than this many bytes.
    #[arg(long, value_name = "N")]
    max_bytes: Option<u64>,
    /// Stop reading a file after this many nodes.
    #[arg(long, value_name = "N")]
    max_nodes: Option<usize>,
    /// Stop reading a file after this many variations.
    #[arg(long, value_name = "N")]
    max_variations: Option<usize>,
}

/// The rulesets `--rules` and `rules` in `kifu.toml` name.
const RULESETS: &str = "japanese, korean, chinese, aga, new-zealand, tromp-taylor, ing, aga-button, stone-scoring, ancient-territory";

/// Rule choices shared by `check` and `score`.
#[derive(Args, Clone)]
struct RuleArgs {
    /// Ruleset for every game, whatever RU[] says: japanese, korean, chinese, aga, new-zealand, tromp-taylor, ing, aga-button, stone-scoring, ancient-territory.
    #[arg(long, value_name = "NAME")]
    rules: Option<String>,
    /// Override the ko rule of the ruleset.
    #[arg(long, value_enum)]
    ko: Option<KoRule>,
    /// Override the suicide rule of the ruleset.
    #[arg(long, value_enum)]
    suicide: Option<Suicide>,
}

impl RuleArgs {
    fn resolve(&self) -> Result<RuleOverrides, Status> {
        let rules = match &self.rules {
            None => None,
            Some(name) => match Rules::preset(name) {
                Some(r) => Some(r),
                None => {
                    say!("--rules {name}: unknown ruleset ({RULESETS})");
                    return Err(Status::Usage);
                }
            },
        };
        Ok(RuleOverrides { rules, ko: self.ko, suicide: self.suicide, ..RuleOverrides::default() })
    }
}

/// How to rescore, shared by `score` and `check --score`.
#[derive(Args)]
struct ScoreFlags {
    /// Dead stones: auto (markup, else estimate; the default), markup, estimate, none, or points in SGF letters or as the map writes them, e.g. dd,pq or D16,Q3.
    #[arg(long, value_name = "HOW")]
    dead_stones: Option<String>,
    /// Komi, replacing KM[].
    #[arg(long, allow_hyphen_values = true, value_parser = finite_number)]
    komi: Option<f64>,
    /// Points given to White for the handicap, replacing the ruleset's (area scoring).
    #[arg(long, value_name = "N", value_parser = finite_number)]
    handicap_bonus: Option<f64>,
    /// Whether the eyes of groups in seki count: none (Japanese Art. 8), count, or kgs (as KGS scores: an eye counts for nobody only if all the chains around it touch a seki dame, seki being found as the board stands, without filling the dame first). Default: kgs for KGS records, else none.
    #[arg(long, value_enum)]
    seki_eyes: Option<SekiEyes>,
    /// Which necessary connections a territory count makes: every (Japanese rules, commentary to Art. 9), kgs (as KGS's results show: not where a single dame forces the connection), or none. Default: kgs for KGS records, else every.
    #[arg(long, value_enum)]
    connections: Option<ConnectionsArg>,
    /// Who wins equal scores: draw (jigo; the default) or white (for rules that give ties to White).
    #[arg(long, value_enum)]
    ties: Option<TiesArg>,
    /// The line to score: child indices at branch points, e.g. 1 or 0,2 (default: the main line).
    #[arg(long, value_name = "PATH", value_delimiter = ',')]
    variation: Vec<u32>,
}

/// A number that is a number: `nan`, `inf` and `1e400` (infinite as an
/// `f64`) are refused, so no flag takes a value no count can use.
fn finite_number(text: &str) -> Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(x) if x.is_finite() => Ok(x),
        Ok(_) => Err(format!("'{text}' is not a finite number")),
        Err(_) => Err(format!("'{text}' is not a number")),
    }
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum ConnectionsArg {
    Every,
    Kgs,
    None,
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum TiesArg {
    Draw,
    White,
}

/// Rescoring options, with `--dead-stones` points as written: a board
/// coordinate's row counts from the bottom, so it is read per game.
pub(super) struct ScoreSettings {
    pub options: ScoreOptions,
    points: Option<Vec<String>>,
}

impl ScoreSettings {
    /// The options for one game: `Err` when a point is off its board.
    pub fn for_game(&self, game: &sgf::GameTree) -> Result<ScoreOptions, String> {
        let Some(points) = &self.points else { return Ok(self.options.clone()) };
        let height = props::board_size(game.root()).map_or(19, |size| size.height);
        let points = points
            .iter()
            .map(|p| props::Point::parse(p).or_else(|_| props::Point::from_coordinate(p, height)).map_err(|e| format!("--dead-stones {p}: {}", e.message)));
        Ok(ScoreOptions { dead_stones: DeadStones::Points(points.collect::<Result<_, _>>()?), ..self.options.clone() })
    }
}

impl ScoreFlags {
    /// The flags given, by name (they mean nothing without a rescore).
    fn given(&self) -> Vec<&'static str> {
        let set = [
            ("--dead-stones", self.dead_stones.is_some()),
            ("--komi", self.komi.is_some()),
            ("--handicap-bonus", self.handicap_bonus.is_some()),
            ("--seki-eyes", self.seki_eyes.is_some()),
            ("--connections", self.connections.is_some()),
            ("--ties", self.ties.is_some()),
            ("--variation", !self.variation.is_empty()),
        ];
        set.into_iter().filter(|&(_, given)| given).map(|(name, _)| name).collect()
    }

    fn resolve(&self, rules: RuleOverrides) -> Result<ScoreSettings, Status> {
        let mut points = None;
        let dead_stones = match self.dead_stones.as_deref().unwrap_or("auto") {
            "auto" => DeadStones::Auto,
            "markup" => DeadStones::Markup,
            "estimate" => DeadStones::Estimate,
            "none" => DeadStones::None,
            list => {
                let written: Vec<String> = list.split(',').map(|p| p.trim().to_string()).collect();
                // Read on the largest board now, so a typo fails before any work.
                let unreadable =
                    written.iter().find_map(|p| props::Point::parse(p).and(Ok(())).or_else(|_| props::Point::from_coordinate(p, 52).map(|_| ())).err());
                if let Some(e) = unreadable {
                    say!("--dead-stones {list}: {} (auto, markup, estimate, none, or points like dd,pq or D16,Q3)", e.message);
                    return Err(Status::Usage);
                }
                points = Some(written);
                DeadStones::Points(Vec::new())
            }
        };
        let ties = self.ties.map(|t| match t {
            TiesArg::Draw => Ties::Draw,
            TiesArg::White => Ties::White,
        });
        let connections = self.connections.map(|c| match c {
            ConnectionsArg::Every => Connections::Every,
            ConnectionsArg::Kgs => Connections::ExceptOneDame,
            ConnectionsArg::None => Connections::Ignored,
        });
        let rules = RuleOverrides { komi: self.komi, seki_eyes: self.seki_eyes, connections, ties, ..rules };
        let options = ScoreOptions { rules, dead_stones, handicap_bonus: self.handicap_bonus, variation: self.variation.clone(), ..Default::default() };
        Ok(ScoreSettings { options, points })
    }
}

#[derive(Args)]
struct ScoreArgs {
    #[command(flatten)]
    input: InputArgs,
    #[command(flatten)]
    rules: RuleArgs,
    #[command(flatten)]
    score: ScoreFlags,
    /// text, or json (one object a game, one a line; jsonl is the same).
    #[arg(long, value_enum, default_value = "text")]
    format: ScoreFormat,
    /// Threads scoring files (default: all cores). Output order does not depend on it.
    #[arg(long, short, value_name = "N")]
    jobs: Option<usize>,
    /// Score only games whose line ends with two passes (skip resigned, timed-out and unfinished ones).
    #[arg(long)]
    finished_only: bool,
    /// No progress bar and no summary.
    #[arg(long, short)]
    quiet: bool,
}

#[derive(Args)]
struct CheckArgs {
    #[command(flatten)]
    input: InputArgs,
    #[command(flatten)]
    rules: RuleArgs,
    /// Also rescore each game: result-mismatch when RE[] disagrees, result-syntax when it is not a result.
    #[arg(long)]
    score: bool,
    #[command(flatten)]
    score_flags: ScoreFlags,
    #[arg(long, value_enum, default_value = "text")]
    format: Format,
    /// Print only errors, and no summary.
    #[arg(long, short)]
    quiet: bool,
    /// Make a code an error, or every warning with `--deny warnings` (repeatable).
    #[arg(long, value_name = "CODE")]
    deny: Vec<String>,
    /// Do not report a code, or what is below warnings (`--allow info`) or errors (`--allow warnings`) (repeatable).
    #[arg(long, value_name = "CODE")]
    allow: Vec<String>,
    /// Stop checking a file after this many seconds (checked between games).
    #[arg(long, value_name = "SECONDS", value_parser = finite_number)]
    timeout_per_file: Option<f64>,
    /// Print only the summary (for huge runs).
    #[arg(long)]
    summary_only: bool,
    /// Threads checking files (default: all cores). Output order does not depend on it.
    #[arg(long, short, value_name = "N", value_parser = at_least_one)]
    jobs: Option<usize>,
    /// Check only the I-th of N deterministic slices of the inputs (1-based), e.g. 2/8.
    #[arg(long, value_name = "I/N", value_parser = Shard::parse)]
    shard: Option<Shard>,
    /// Read the policy from this file instead of the nearest kifu.toml.
    #[arg(long, value_name = "FILE", conflicts_with = "no_config")]
    config: Option<PathBuf>,
    /// Ignore any kifu.toml.
    #[arg(long)]
    no_config: bool,
    /// Write a repaired copy of each file (recovered syntax, repaired values, UTF-8, canonical FF[4]) under -o.
    #[arg(long)]
    fix: bool,
    /// With --fix: the output file (one input file) or folder (never an input).
    #[arg(long, short, value_name = "OUT", requires = "fix")]
    output: Option<PathBuf>,
    /// With --fix: list the repairs, write nothing.
    #[arg(long, requires = "fix")]
    dry_run: bool,
}

impl CheckArgs {
    /// The config file's lists, then the flags': a flag on a code the file
    /// lists the other way wins; one source naming a code both ways is
    /// refused.
    fn policy(&self, config: &Config) -> Result<Policy, Status> {
        let from_file = policy_lists(&config.check.deny, &config.check.allow, |key| config.key(key))?;
        let from_flags = policy_lists(&self.deny, &self.allow, |key| format!("--{key}"))?;
        let mut policy = from_file;
        policy.deny.retain(|code| !from_flags.allow.contains(code));
        policy.allow.retain(|code| !from_flags.deny.contains(code));
        policy.deny.extend(from_flags.deny);
        policy.allow.extend(from_flags.allow);
        policy.deny_warnings |= from_flags.deny_warnings;
        policy.min_severity = policy.min_severity.max(from_flags.min_severity);
        Ok(policy)
    }
}

/// One source's `deny` and `allow` lists; `source` names a key for messages.
fn policy_lists(deny: &[String], allow: &[String], source: impl Fn(&str) -> String) -> Result<Policy, Status> {
    let mut policy = Policy::default();
    for name in deny {
        if name == "warnings" {
            policy.deny_warnings = true;
        } else {
            policy.deny.push(code_arg(name, &source("deny"))?);
        }
    }
    for name in allow {
        match name.as_str() {
            "info" => policy.min_severity = policy.min_severity.max(Severity::Warning),
            "warnings" => policy.min_severity = Severity::Error,
            _ => {
                let code = code_arg(name, &source("allow"))?;
                if policy.deny.contains(&code) {
                    say!("{} {name} and {} {name} contradict each other", source("deny"), source("allow"));
                    return Err(Status::Usage);
                }
                policy.allow.push(code);
            }
        }
    }
    Ok(policy)
}

fn at_least_one(text: &str) -> Result<usize, String> {
    match text.trim().parse::<usize>() {
        Ok(0) => Err("at least 1 is needed".into()),
        Ok(n) => Ok(n),
        Err(_) => Err(format!("'{text}' is not a whole number")),
    }
}

fn code_arg(name: &str, source: &str) -> Result<Code, Status> {
    Code::from_name(name).ok_or_else(|| {
        say!("{source}: unknown diagnostic code '{name}' (`kifu explain --list` lists them)");
        Status::Usage
    })
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum ConvertTarget {
    Json,
    Sgf,
}

#[derive(Args)]
struct ConvertArgs {
    #[command(flatten)]
    input: InputArgs,
    /// Output format.
    #[arg(long, value_enum)]
    to: ConvertTarget,
    /// Write here instead of standard output (never one of the inputs).
    #[arg(long, short, value_name = "OUT")]
    output: Option<PathBuf>,
    /// Add line, column and offset of every node, property and value (JSON).
    #[arg(long)]
    positions: bool,
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum ScoreFormat {
    Text,
    /// One JSON object a game, one a line.
    #[value(alias = "jsonl")]
    Json,
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum InfoFormat {
    Text,
    /// One JSON object a game, one a line.
    #[value(alias = "jsonl")]
    Json,
    /// A header row, then one row a game (for spreadsheets).
    Csv,
}

#[derive(Args)]
struct InfoArgs {
    #[command(flatten)]
    input: InputArgs,
    #[arg(long, value_enum, default_value = "text")]
    format: InfoFormat,
}

/// Runs the command line and returns the process exit status.
pub fn run() -> ExitCode {
    let cli = match parse_command_line() {
        Ok(cli) => cli,
        Err(e) => {
            let usage_error = e.use_stderr();
            let _ = e.print();
            return ExitCode::from(if usage_error { 2 } else { 0 });
        }
    };
    let style = cli.color.style();
    let status = match cli.command {
        Command::Check(args) => check(args, style),
        Command::Score(args) => score(args, style),
        Command::Convert(args) => convert(args),
        Command::Info(args) => info(args),
        Command::Explain(args) => explain::run(args),
        Command::Completions(args) => shell::completions(args),
        Command::Man(args) => shell::man(args),
        Command::Export(args) => export::export(args),
    };
    match status {
        Ok(status) => ExitCode::from(status as u8),
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            say!("{e}");
            ExitCode::from(2)
        }
    }
}

/// A run of paths at least this long at the end of the command line is
/// not handed to clap path by path ([`parse_command_line`]).
const LONG_RUN: usize = 32;

/// Parses the command line as `Cli::try_parse` does. A long run of paths
/// at its end (a shell glob of thousands of files) is not handed to clap
/// one by one: clap copies each path three times and grows its lists as
/// it goes, about 2k instructions and a page fault every few paths (the
/// whole process's start on 2,000 files named). The line up to two
/// arguments of the run is parsed instead, and the rest of the run
/// appended to the paths, when that parse takes the second of those two
/// as one more path than the parse without it: clap reads left to right,
/// so it takes every later argument that is neither empty nor an option
/// (`-...`) as a path too. Anything else (an error, `--help`, a command
/// without paths) parses the whole line as before, so that what clap
/// accepts and says is unchanged.
fn parse_command_line() -> Result<Cli, clap::Error> {
    use clap::{CommandFactory, FromArgMatches};
    let mut args: Vec<std::ffi::OsString> = std::env::args_os().collect();
    let plain = |arg: &std::ffi::OsString| !arg.is_empty() && !arg.as_encoded_bytes().starts_with(b"-");
    let run = args.iter().skip(1).rev().take_while(|arg| plain(arg)).count();
    if run >= LONG_RUN {
        let mut command = Cli::command();
        let mut parse = |args: &[std::ffi::OsString]| command.try_get_matches_from_mut(args).and_then(|mut m| Cli::from_arg_matches_mut(&mut m)).ok();
        // The run may begin with the subcommand's name or an option's
        // value: the first split whose shorter line parses.
        for split in args.len() - run..args.len() - run + 3 {
            let Some(mut without) = parse(&args[..split + 1]) else { continue };
            let Some(mut with) = parse(&args[..split + 2]) else { break };
            let (Some(before), Some(paths)) = (without.command.paths_mut(), with.command.paths_mut()) else { break };
            if paths.len() != before.len() + 1 || paths.last().map(|p| p.as_os_str()) != Some(args[split + 1].as_os_str()) {
                break;
            }
            paths.extend(args.drain(split + 2..).map(PathBuf::from));
            return Ok(with);
        }
    }
    Cli::try_parse_from(args)
}

impl Command {
    /// The paths of a command that reads inputs.
    fn paths_mut(&mut self) -> Option<&mut Vec<PathBuf>> {
        match self {
            Command::Check(args) => Some(&mut args.input.paths),
            Command::Score(args) => Some(&mut args.input.paths),
            Command::Convert(args) => Some(&mut args.input.paths),
            Command::Info(args) => Some(&mut args.input.paths),
            _ => None,
        }
    }
}

/// The outcome of a run, ordered by precedence.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Status {
    Clean = 0,
    Problems = 1,
    Usage = 2,
}

/// Resolved input options shared by every subcommand.
struct Inputs {
    paths: Vec<PathBuf>,
    walk: Walk,
    parse: ParseOptions,
}

impl InputArgs {
    /// Takes the paths (a glob's thousands are not copied).
    fn resolve(&mut self) -> Result<Inputs, Status> {
        let encoding = match &self.encoding {
            None => None,
            Some(name) => match charset::encoding_for_label(name) {
                Some(e) => Some(e),
                None => {
                    say!("unknown charset '{name}' for --encoding");
                    return Err(Status::Usage);
                }
            },
        };
        let mut extensions: Vec<String> = crate::formats::EXTENSIONS.iter().map(|e| e.to_string()).collect();
        for ext in &self.extensions {
            extensions.push(extension_name(ext, "--ext")?);
        }
        let walk = Walk { extensions, hidden: self.hidden, max_bytes: self.max_bytes.unwrap_or(batch::DEFAULT_MAX_BYTES), ..Walk::default() };
        let parse = ParseOptions { encoding, limits: sgf::Limits { max_nodes: self.max_nodes, max_variations: self.max_variations } };
        Ok(Inputs { paths: std::mem::take(&mut self.paths), walk, parse })
    }
}

impl Inputs {
    /// Reads each item in turn (sequentially) and hands its bytes to `f`;
    /// what cannot be read is said on stderr. Returns the worst status.
    fn each_read(&self, mut f: impl FnMut(&Item, Vec<u8>) -> io::Result<Status>) -> io::Result<Status> {
        let mut status = Status::Clean;
        let mut failure = None;
        let empty_folders = self.walk.for_each(&self.paths, &mut |mut item| {
            // The bytes are handed over; the item keeps its path, if it has one.
            let size = match item.content {
                Content::Path { size, .. } => size,
                _ => None,
            };
            let path = item.content.path().map(Path::to_path_buf);
            let content = std::mem::replace(&mut item.content, path.map_or(Content::Stdin, |path| Content::Path { path, size }));
            let outcome = match content.read(self.walk.max_bytes) {
                Ok(bytes) => f(&item, bytes),
                Err((code, message)) => {
                    say!("{}: {message}", item.name);
                    Ok(if code == Code::Io { Status::Usage } else { Status::Problems })
                }
            };
            match outcome {
                Ok(s) => {
                    status = status.max(s);
                    ControlFlow::Continue(())
                }
                Err(e) => {
                    failure = Some(e);
                    ControlFlow::Break(())
                }
            }
        });
        if self.warn_empty(&empty_folders) {
            status = Status::Usage;
        }
        failure.map_or(Ok(status), Err)
    }

    /// Says which folders named on the command line held no file to check;
    /// whether there was one. A wrong path must fail a CI job: the run then
    /// exits 2, as for a path that does not exist.
    fn warn_empty(&self, folders: &[PathBuf]) -> bool {
        let extensions: Vec<String> = self.walk.extensions.iter().map(|e| format!("*.{e}")).collect();
        for folder in folders {
            say!("warning: no SGF file found under {} (looked for {}; --ext adds extensions)", folder.display(), extensions.join(", "));
        }
        !folders.is_empty()
    }
}

/// An extension as people write it: `kifu`, `.kifu`, `*.kifu` and `KIFU`
/// name the same one; anything else (a glob, a path) is refused, as it
/// would match no file.
fn extension_name(ext: &str, source: &str) -> Result<String, Status> {
    let name = ext.trim().trim_start_matches("*.").trim_start_matches('.').to_ascii_lowercase();
    if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_') {
        say!("{source} '{ext}': not a file extension (kifu, .kifu or *.kifu)");
        return Err(Status::Usage);
    }
    Ok(name)
}

/// Everything `check` needs, resolved from flags and `kifu.toml`.
struct CheckRun {
    inputs: Inputs,
    options: CheckOptions,
    policy: Policy,
    format: Format,
    jobs: usize,
    fix: Option<FixTarget>,
    /// The output quotes source lines (text format).
    snippets: bool,
}

impl CheckArgs {
    fn resolve(&mut self) -> Result<CheckRun, Status> {
        let config = if self.no_config { Ok(Config::default()) } else { Config::load(self.config.as_deref()) };
        let config = config.map_err(|e| {
            say!("{e}");
            Status::Usage
        })?;
        let mut inputs = self.input.resolve()?;
        for ext in &config.check.extensions {
            inputs.walk.extensions.push(extension_name(ext, &config.key("extensions"))?);
        }
        inputs.walk.hidden |= config.check.hidden.unwrap_or(false);
        if let (None, Some(max)) = (self.input.max_bytes, config.check.max_bytes) {
            inputs.walk.max_bytes = max;
        }
        let matcher = config.ignore_matcher().map_err(|e| {
            say!("{}: {e}", config.key("ignore"));
            Status::Usage
        })?;
        inputs.walk.ignore = matcher.map(|m| -> batch::PathFilter { Box::new(move |path, is_dir| m.matched(path, is_dir).is_ignore()) });
        inputs.walk.shard = self.shard;
        let mut rule_args = self.rules.clone();
        if let (None, Some(name)) = (&rule_args.rules, &config.check.rules) {
            if Rules::preset(name).is_none() {
                say!("{} = \"{name}\": unknown ruleset ({RULESETS})", config.key("rules"));
                return Err(Status::Usage);
            }
            rule_args.rules = Some(name.clone());
        }
        let rules = rule_args.resolve()?;
        let policy = self.policy(&config)?;
        let score = self.score_options(rules)?;
        let fingerprints = policy.reports(Code::DuplicateGame);
        let timeout = self.timeout()?;
        let options = CheckOptions { parse: inputs.parse, rules, score, fingerprints, timeout };
        let jobs = self.jobs.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
        let fix = match (self.fix, self.output.clone()) {
            (false, _) => None,
            (true, Some(out)) => match FixTarget::new(out, &inputs.paths, self.dry_run) {
                Ok(fix) => Some(fix),
                Err(e) => {
                    say!("--fix {e}");
                    return Err(Status::Usage);
                }
            },
            (true, None) if self.dry_run => Some(FixTarget::listing_only()),
            (true, None) => {
                say!("--fix needs -o OUT, where the repaired copies go (or --dry-run, to list the repairs only)");
                return Err(Status::Usage);
            }
        };
        if let Some(folder) = fix.as_ref().and_then(FixTarget::folder) {
            // Repaired copies written under an input folder are not inputs.
            let _ = std::fs::create_dir_all(folder);
            inputs.walk.skip_dir = std::fs::canonicalize(folder).ok();
        }
        let format = self.format;
        let snippets = format == Format::Text && !self.summary_only;
        Ok(CheckRun { inputs, options, policy, format, jobs, fix, snippets })
    }
}

impl CheckArgs {
    /// `--score`'s options. Without `--score` the rescoring flags would do
    /// nothing, so they are refused; so are the ones that name a stone or a
    /// line of one game (`kifu score` takes them).
    fn score_options(&self, rules: RuleOverrides) -> Result<Option<ScoreOptions>, Status> {
        if !self.score {
            let given = self.score_flags.given();
            if given.is_empty() {
                return Ok(None);
            }
            say!("{} only apply with --score", given.join(", "));
            return Err(Status::Usage);
        }
        let settings = self.score_flags.resolve(rules)?;
        if settings.points.is_some() || !settings.options.variation.is_empty() {
            say!("--dead-stones with points and --variation name the stones and the line of one game: use them with kifu score");
            return Err(Status::Usage);
        }
        Ok(Some(settings.options))
    }

    fn timeout(&self) -> Result<Option<Duration>, Status> {
        let Some(seconds) = self.timeout_per_file else { return Ok(None) };
        match Duration::try_from_secs_f64(seconds) {
            Ok(t) if !t.is_zero() => Ok(Some(t)),
            _ => {
                say!("--timeout-per-file must be a positive number of seconds");
                Err(Status::Usage)
            }
        }
    }
}

/// Where `--fix` wrote a file (or, with `--dry-run`, would have) and what
/// it changed, or why it could not.
type FixResult = Result<Fixed, String>;

struct Fixed {
    target: PathBuf,
    written: bool,
    changes: Vec<String>,
    fixes: Vec<repair::Fix>,
}

/// Where `--fix` is to write an item's copy, or why it is not to: decided
/// in input order, before the item is checked.
type FixPlan = Result<PathBuf, String>;

/// What checking one item gave.
enum Outcome {
    Checked {
        name: String,
        check: FileCheck,
        fixed: Option<FixResult>,
    },
    /// Could not be read, or kifu failed on it.
    Failed {
        name: String,
        code: Code,
        message: String,
    },
}

fn check(mut args: CheckArgs, style: report::Style) -> io::Result<Status> {
    let run = match args.resolve() {
        Ok(run) => run,
        Err(status) => return Ok(status),
    };
    let started = Instant::now();
    let shown = Shown { quiet: args.quiet, summary_only: args.summary_only, style, fixes: run.fix.is_some() };
    let mut reporter = Reporter::new(run.format, shown, io::BufWriter::new(io::stdout().lock()));
    let mut progress = Progress::start(args.quiet);
    // Room for a game a path named, under its name as named (a folder's
    // files take more).
    let paths = &run.inputs.paths;
    let mut duplicates = DuplicateIndex::with_capacity(paths.len(), paths.iter().map(|p| p.as_os_str().len()).sum());
    let mut io_error = false;
    let mut empty_folders = Vec::new();
    std::thread::scope(|scope| -> io::Result<()> {
        if let Some(bar) = progress.as_ref().map(|p| p.bar().clone()) {
            let run = &run;
            scope.spawn(move || bar.set_length(run.inputs.walk.count(&run.inputs.paths) as u64));
        }
        let mut claimed = output::Claimed::default();
        let empty_folders = &mut empty_folders;
        let produce = |f: &mut dyn FnMut((Item, Option<FixPlan>)) -> ControlFlow<()>| {
            *empty_folders = run.inputs.walk.for_each(&run.inputs.paths, &mut |item| {
                let plan = run.fix.as_ref().map(|fix| match fix.folder().or(fix.file()) {
                    Some(_) => claimed.claim(fix.path_for(&item.relative), item.content.path()),
                    // Nothing is written: no output can clash.
                    None => Ok(fix.path_for(&item.relative)),
                });
                f((item, plan))
            });
        };
        let deliver = |outcome: Outcome| {
            let (name, mut check) = match outcome {
                Outcome::Checked { name, check, fixed } => {
                    if let Some(fixed) = fixed {
                        if let Ok(done) = &fixed {
                            reporter.fixes(&name, &done.fixes);
                        }
                        report_fix(&name, fixed, args.quiet);
                    }
                    if let Some(why) = no_game(&check.diagnostics) {
                        // Also on stderr, as from every command.
                        say!("{name}: not an SGF file: {}", why.message);
                    }
                    (name, check)
                }
                Outcome::Failed { name, code, message } => {
                    // Also on stderr: the report may be going to a file.
                    if code == Code::Io || code == Code::InternalError {
                        say!("{name}: {message}");
                    }
                    io_error |= code == Code::Io;
                    (name, FileCheck::failed(code, message))
                }
            };
            check.mark_duplicates(&name, &mut duplicates);
            run.policy.apply(&mut check.diagnostics);
            match &mut progress {
                None => reporter.file(&name, &check),
                Some(progress) => {
                    progress.record(&check);
                    progress.suspend(|| reporter.file(&name, &check).and_then(|()| reporter.flush()))
                }
            }
        };
        batch::ordered_map(run.jobs, batch::FileTable::OwnPerThread, produce, |(item, plan)| check_item(item, plan, &run), deliver)
    })?;
    if let Some(progress) = progress {
        progress.finish();
    }
    let summary = reporter.finish(Some(started.elapsed()))?;
    io_error |= run.inputs.warn_empty(&empty_folders);
    Ok(if io_error {
        Status::Usage
    } else if summary.errors > 0 {
        Status::Problems
    } else {
        Status::Clean
    })
}

/// Reads and checks one item (on a worker thread), and writes its repaired
/// copy where `plan` says; a panic becomes an `internal-error` so the other
/// files are still checked.
fn check_item(item: Item, plan: Option<FixPlan>, run: &CheckRun) -> Outcome {
    let Item { name, content, .. } = item;
    let bytes = match content.read(run.inputs.walk.max_bytes) {
        Ok(bytes) => bytes,
        Err((code, message)) => return Outcome::Failed { name, code, message },
    };
    let checked = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        let mut check = check_record(&bytes, &name, &run.options);
        if !run.snippets || check.diagnostics.is_empty() {
            // Only text output quotes the source, and only for diagnostics:
            // do not hold it until printing otherwise. (The empty map's text
            // is shared: no allocation for each file.)
            check.source = SourceMap::default();
        }
        let write = run.fix.as_ref().is_some_and(FixTarget::writes);
        let fixed = plan.map(|plan| plan.and_then(|target| write_fixed(&bytes, &name, &target, &run.options.parse, write)));
        (check, fixed)
    }));
    match checked {
        Ok((check, fixed)) => Outcome::Checked { name, check, fixed },
        Err(_) => Outcome::Failed { name, code: Code::InternalError, message: "kifu failed on this file (a bug: please report it with the file)".into() },
    }
}

/// Writes the repaired copy of a file that holds a game (unless `write`
/// is false: `--dry-run`); a file that holds none gets no copy.
fn write_fixed(bytes: &[u8], name: &str, target: &Path, parse: &ParseOptions, write: bool) -> FixResult {
    let repaired = repair::repair_file(bytes, name, parse);
    if let Some(why) = repaired.no_game {
        return Err(format!("no copy written: the file holds no game ({why})"));
    }
    if write {
        output::replace(target, repaired.text.as_bytes()).map_err(|e| format!("cannot write {}: {e}", target.display()))?;
    }
    Ok(Fixed { target: target.to_path_buf(), written: write, changes: repaired.changes, fixes: repaired.fixes })
}

/// Lists what `--fix` changed, on stderr (standard output is the report):
/// a line for the file, then one for each repair of a value.
fn report_fix(name: &str, fixed: FixResult, quiet: bool) {
    match fixed {
        Ok(done) if !quiet => {
            let changes = match (done.changes.is_empty(), done.fixes.len()) {
                (false, _) => done.changes.join("; "),
                (true, 0) => "unchanged".to_string(),
                (true, 1) => "1 repair".to_string(),
                (true, n) => format!("{n} repairs"),
            };
            match done.written {
                true => say!("fixed {name} -> {}: {changes}", done.target.display()),
                false => say!("would fix {name}: {changes}"),
            }
            let games = done.fixes.iter().map(|f| f.game).max().unwrap_or(0) + 1;
            for fix in &done.fixes {
                match games {
                    1 => say!("{name}: {fix}"),
                    _ => say!("{name}: game {}: {fix}", fix.game + 1),
                }
            }
        }
        Ok(_) => {}
        Err(e) => say!("{name}: --fix: {e}"),
    }
}

/// Reads an input (SGF or another record format), reporting it on stderr
/// when it holds no game.
fn parse_input(name: &str, bytes: &[u8], options: &ParseOptions) -> Option<sgf::Parsed> {
    parse_games(name, bytes, options).map_err(|why| say!("{why}")).ok()
}

/// The input parsed, or what to say when it holds no game (for workers,
/// whose messages wait for their file's turn).
fn parse_games(name: &str, bytes: &[u8], options: &ParseOptions) -> Result<sgf::Parsed, String> {
    let parsed = crate::formats::read(bytes, name, options);
    if parsed.collection.games.is_empty() {
        let why = no_game(&parsed.diagnostics).map_or("no game found", |d| d.message.as_str());
        // The other formats' messages name the format already.
        let what = if crate::formats::detect(bytes, name) == crate::formats::Format::Sgf { "not an SGF file: " } else { "" };
        return Err(format!("{name}: {what}{why}"));
    }
    Ok(parsed)
}

/// The diagnostic saying a file holds no game (`not-sgf`, `empty-file`).
fn no_game(diagnostics: &[Diagnostic]) -> Option<&Diagnostic> {
    diagnostics.iter().find(|d| matches!(d.code, Code::NotSgf | Code::EmptyFile))
}

fn info(mut args: InfoArgs) -> io::Result<Status> {
    let inputs = match args.input.resolve() {
        Ok(i) => i,
        Err(status) => return Ok(status),
    };
    let mut out = io::BufWriter::new(io::stdout().lock());
    if args.format == InfoFormat::Csv {
        report::info::write_csv_header(&mut out)?;
    }
    let status = each_parsed(&inputs, |name, parsed| {
        for (index, game) in parsed.collection.games.iter().enumerate() {
            let summary = sgf::props::summary(game);
            let normalised = || crate::info::normalise(game, &summary);
            match args.format {
                InfoFormat::Json => {
                    serde_json::to_writer(&mut out, &report::info::json(name, index, &summary, &normalised()))?;
                    writeln!(out)?;
                }
                InfoFormat::Csv => report::info::write_csv_row(&mut out, name, index, &summary, &normalised())?,
                InfoFormat::Text => report::info::write_text(&mut out, name, index, &summary, &normalised())?,
            }
        }
        Ok(Status::Clean)
    })?;
    out.flush()?;
    Ok(status)
}

/// Reads and parses each input in turn and hands it to `f`; returns the
/// worst status of all (unreadable or non-SGF inputs are said on stderr).
fn each_parsed(inputs: &Inputs, mut f: impl FnMut(&str, &sgf::Parsed) -> io::Result<Status>) -> io::Result<Status> {
    inputs.each_read(|item, bytes| match parse_input(&item.name, &bytes, &inputs.parse) {
        Some(parsed) => f(&item.name, &parsed),
        None => Ok(Status::Problems),
    })
}

fn score(mut args: ScoreArgs, style: report::Style) -> io::Result<Status> {
    let (inputs, rules) = match (args.input.resolve(), args.rules.resolve()) {
        (Ok(i), Ok(r)) => (i, r),
        _ => return Ok(Status::Usage),
    };
    let settings = match args.score.resolve(rules) {
        Ok(s) => s,
        Err(status) => return Ok(status),
    };
    let jobs = args.jobs.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let run = score::ScoreRun { inputs, settings, format: args.format, style, jobs, finished_only: args.finished_only, quiet: args.quiet };
    score::run(&run)
}

fn convert(mut args: ConvertArgs) -> io::Result<Status> {
    let inputs = match args.input.resolve() {
        Ok(i) => i,
        Err(status) => return Ok(status),
    };
    if args.positions && args.to == ConvertTarget::Sgf {
        say!("--positions adds positions to JSON; it has no meaning with --to sgf");
        return Ok(Status::Usage);
    }
    let folder = args.output.as_deref().filter(|out| output::names_folder(out));
    let one_file = args.output.as_deref().filter(|_| folder.is_none());
    let mut clash = false;
    // Several inputs into one output make JSON Lines; one a JSON document.
    let pretty = folder.is_some() || inputs.walk.count(&inputs.paths) <= 1;
    let extension = if args.to == ConvertTarget::Json { "json" } else { "sgf" };
    let mut text = String::new();
    let mut claimed = output::Claimed::default();
    let status = inputs.each_read(|item, bytes| {
        let input = item.content.path();
        clash |= one_file.zip(input).is_some_and(|(out, input)| output::same_file(input, out));
        let converted = match args.to {
            ConvertTarget::Json => to_json(&item.name, &bytes, &inputs.parse, args.positions, pretty),
            ConvertTarget::Sgf => to_sgf(&item.name, &bytes, &inputs.parse),
        };
        let Some(converted) = converted else { return Ok(Status::Problems) };
        let Some(folder) = folder else {
            text.push_str(&converted);
            return Ok(Status::Clean);
        };
        // A folder: one output per input, where its repaired copy would go.
        let written = claimed
            .claim(folder.join(item.relative.with_extension(extension)), input)
            .and_then(|target| output::replace(&target, converted.as_bytes()).map_err(|e| format!("cannot write {}: {e}", target.display())));
        match written {
            Ok(()) => Ok(Status::Clean),
            Err(e) => {
                say!("{}: {e}", item.name);
                Ok(Status::Usage)
            }
        }
    })?;
    match one_file {
        Some(path) if clash => {
            say!("refusing to write {}: it is one of the inputs", path.display());
            return Ok(Status::Usage);
        }
        // Only a complete result replaces an output.
        Some(path) if status != Status::Clean => say!("{} not written: not every input could be converted", path.display()),
        Some(path) => output::replace(path, text.as_bytes()).map_err(|e| io::Error::new(e.kind(), format!("{}: {e}", path.display())))?,
        None if folder.is_none() => io::stdout().lock().write_all(text.as_bytes())?,
        None => {}
    }
    Ok(status)
}

/// One input as a JSON document: pretty for a single file, one line each
/// (JSON Lines) for many.
fn to_json(name: &str, bytes: &[u8], options: &ParseOptions, positions: bool, pretty: bool) -> Option<String> {
    let parsed = parse_input(name, bytes, options)?;
    report_errors(name, &parsed.diagnostics);
    let json_options = JsonOptions { positions, pretty };
    let mut doc = json::to_json(name, &parsed, &json_options);
    doc.push('\n');
    Some(doc)
}

/// One input (kifu JSON, JSON Lines, or SGF) written as UTF-8 SGF.
fn to_sgf(name: &str, bytes: &[u8], options: &ParseOptions) -> Option<String> {
    // JSON by its name, or by its first character when the name is no
    // record format's (a Pandanet `.ugi` starts with `[Header]`).
    let lower = name.to_ascii_lowercase();
    let starts_like_json = matches!(bytes.iter().find(|b| !b.is_ascii_whitespace()), Some(b'{' | b'['));
    let is_json =
        lower.ends_with(".json") || lower.ends_with(".jsonl") || starts_like_json && crate::formats::detect(bytes, name) == crate::formats::Format::Sgf;
    let collection = if is_json {
        let text = match std::str::from_utf8(bytes) {
            Ok(t) => t,
            Err(e) => {
                say!("{name}: invalid JSON: not UTF-8: {e}");
                return None;
            }
        };
        match json::from_json_lines(text) {
            Ok(docs) if docs.is_empty() => {
                say!("{name}: invalid JSON: no kifu/1 document in it");
                return None;
            }
            Ok(docs) => sgf::Collection { games: docs.into_iter().flat_map(|d| d.collection.games).collect() },
            Err(e) => {
                say!("{name}: invalid JSON (kifu/1 documents expected): {e}");
                return None;
            }
        }
    } else {
        let parsed = parse_input(name, bytes, options)?;
        report_errors(name, &parsed.diagnostics);
        parsed.collection
    };
    Some(sgf::write_collection(&json::set_utf8_charset(&collection)))
}

/// Conversion goes on through syntax errors (what was recovered is
/// converted); errors are still said on stderr, one line each.
fn report_errors(name: &str, diagnostics: &[Diagnostic]) {
    for d in diagnostics.iter().filter(|d| d.severity == Severity::Error) {
        say!("{name}:{}:{}: {}[{}]: {}", d.line, d.column, d.severity, d.code, d.message);
    }
}
