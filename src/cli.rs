//! The command line: resolves arguments into options, walks the inputs and
//! wires the library stages together. Nothing below this module knows clap.
//!
//! Exit codes (a contract): 0 clean, 1 problems found, 2 usage or I/O error.

use std::fs;
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand, ValueEnum};

use crate::check::{CheckOptions, check_bytes};
use crate::diag::{Code, Diagnostic, Policy, Severity};
use crate::json::{self, JsonOptions};
use crate::replay::RuleOverrides;
use crate::report::{Format, Reporter};
use crate::rules::{KoRule, Rules, Suicide};
use crate::score::{self as scoring, DeadStones, GameScore, ScoreOptions, SekiEyes};
use crate::sgf::props;
use crate::sgf::{self, ParseOptions, charset};

const EXAMPLES: &str = "\
Examples:
  kifu check games/                      check every .sgf file under games/
  kifu check --format json a.sgf b.sgf   diagnostics as one JSON document
  kifu info game.sgf                     players, komi, result, moves of each game
  kifu convert game.sgf --to json        SGF to JSON (kifu/1 schema, docs/json.md)
  kifu convert *.sgf --to json -o all.jsonl
  kifu convert game.json --to sgf        and back
  cat game.sgf | kifu info -             '-' reads standard input

Exit status: 0 clean, 1 problems found, 2 usage or I/O error.";

#[derive(Parser)]
#[command(name = "kifu", version, about = "Parse, check, convert and rescore Go game records (SGF).", after_help = EXAMPLES)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Report every problem in SGF files: syntax, charsets, property values, illegal moves.
    Check(CheckArgs),
    /// Rescore finished games under their rules and compare with RE[].
    Score(ScoreArgs),
    /// Convert SGF to JSON (schema kifu/1) and back.
    Convert(ConvertArgs),
    /// Print each game's summary: players, ranks, komi, result, moves.
    Info(InfoArgs),
}

#[derive(Args)]
struct InputArgs {
    /// Files or directories ('-' for standard input). Directories are searched recursively.
    #[arg(required = true)]
    paths: Vec<PathBuf>,
    /// File extensions to pick up in directories, besides sgf (case-insensitive; repeatable).
    #[arg(long = "ext", value_name = "EXT")]
    extensions: Vec<String>,
    /// Read files in this charset, whatever they declare (e.g. GB18030, Shift_JIS).
    #[arg(long, value_name = "NAME")]
    encoding: Option<String>,
    /// Stop reading a file after this many nodes.
    #[arg(long, value_name = "N")]
    max_nodes: Option<usize>,
    /// Stop reading a file after this many variations.
    #[arg(long, value_name = "N")]
    max_variations: Option<usize>,
}

#[derive(Clone, Copy, ValueEnum)]
enum CheckFormat {
    Text,
    Json,
    Jsonl,
    Github,
    Sarif,
}

#[derive(Clone, Copy, ValueEnum)]
enum KoArg {
    Simple,
    Positional,
    Situational,
}

#[derive(Clone, Copy, ValueEnum)]
enum SuicideArg {
    Allowed,
    Forbidden,
}

/// Rule choices shared by `check` and `score`.
#[derive(Args)]
struct RuleArgs {
    /// Ruleset for every game, whatever RU[] says: japanese, korean, chinese, aga, new-zealand, tromp-taylor, ing.
    #[arg(long, value_name = "NAME")]
    rules: Option<String>,
    /// Override the ko rule of the ruleset.
    #[arg(long, value_enum)]
    ko: Option<KoArg>,
    /// Override the suicide rule of the ruleset.
    #[arg(long, value_enum)]
    suicide: Option<SuicideArg>,
}

impl RuleArgs {
    fn resolve(&self) -> Result<RuleOverrides, Status> {
        let rules = match &self.rules {
            None => None,
            Some(name) => match Rules::preset(name) {
                Some(r) => Some(r),
                None => {
                    eprintln!("kifu: unknown ruleset '{name}' for --rules (japanese, korean, chinese, aga, new-zealand, tromp-taylor, ing)");
                    return Err(Status::Usage);
                }
            },
        };
        let ko = self.ko.map(|k| match k {
            KoArg::Simple => KoRule::Simple,
            KoArg::Positional => KoRule::Positional,
            KoArg::Situational => KoRule::Situational,
        });
        let suicide = self.suicide.map(|s| match s {
            SuicideArg::Allowed => Suicide::Allowed,
            SuicideArg::Forbidden => Suicide::Forbidden,
        });
        Ok(RuleOverrides { rules, ko, suicide })
    }
}

/// How to rescore, shared by `score` and `check --score`.
#[derive(Args)]
struct ScoreFlags {
    /// Dead stones: auto (markup, else estimate), markup, estimate, none, or points like dd,pq.
    #[arg(long, value_name = "HOW", default_value = "auto")]
    dead_stones: String,
    /// Komi, replacing KM[].
    #[arg(long, allow_hyphen_values = true)]
    komi: Option<f64>,
    /// Points given to White for the handicap, replacing the ruleset's (area scoring).
    #[arg(long, value_name = "N")]
    handicap_bonus: Option<f64>,
    /// Whether the eyes of groups in seki count: none (Japanese Art. 8) or count (most servers).
    #[arg(long, value_enum)]
    seki_eyes: Option<SekiEyesArg>,
    /// Who wins equal scores: draw (jigo) or white (the seed 003 rules).
    #[arg(long, value_enum, default_value = "draw")]
    ties: TiesArg,
    /// The line to score: child indices at branch points, e.g. 1 or 0,2 (default: the main line).
    #[arg(long, value_name = "PATH", value_delimiter = ',')]
    variation: Vec<u32>,
}

#[derive(Clone, Copy, ValueEnum)]
enum SekiEyesArg {
    None,
    Count,
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum TiesArg {
    Draw,
    White,
}

impl ScoreFlags {
    fn resolve(&self, rules: RuleOverrides) -> Result<ScoreOptions, Status> {
        let dead_stones = match self.dead_stones.as_str() {
            "auto" => DeadStones::Auto,
            "markup" => DeadStones::Markup,
            "estimate" => DeadStones::Estimate,
            "none" => DeadStones::None,
            list => {
                let points: Result<Vec<_>, _> = list.split(',').map(|p| props::Point::parse(p.trim())).collect();
                match points {
                    Ok(points) => DeadStones::Points(points),
                    Err(e) => {
                        eprintln!("kifu: --dead-stones {list}: {e} (auto, markup, estimate, none, or points like dd,pq)");
                        return Err(Status::Usage);
                    }
                }
            }
        };
        let seki_eyes = self.seki_eyes.map(|s| match s {
            SekiEyesArg::None => SekiEyes::None,
            SekiEyesArg::Count => SekiEyes::Count,
        });
        Ok(ScoreOptions {
            rules,
            dead_stones,
            komi: self.komi,
            handicap_bonus: self.handicap_bonus,
            seki_eyes,
            ties_to_white: self.ties == TiesArg::White,
            variation: self.variation.clone(),
        })
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
    #[arg(long, value_enum, default_value = "text")]
    format: InfoFormat,
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
    format: CheckFormat,
    /// Print only errors, and no summary.
    #[arg(long, short)]
    quiet: bool,
    /// Make a code an error, or every warning with `--deny warnings` (repeatable).
    #[arg(long, value_name = "CODE")]
    deny: Vec<String>,
    /// Do not report a code (repeatable).
    #[arg(long, value_name = "CODE")]
    allow: Vec<String>,
}

impl CheckArgs {
    fn policy(&self) -> Result<Policy, Status> {
        let mut policy = Policy::default();
        for name in &self.deny {
            if name == "warnings" {
                policy.deny_warnings = true;
            } else {
                policy.deny.push(code_arg(name)?);
            }
        }
        for name in &self.allow {
            policy.allow.push(code_arg(name)?);
        }
        Ok(policy)
    }
}

fn code_arg(name: &str) -> Result<Code, Status> {
    Code::from_name(name).ok_or_else(|| {
        eprintln!("kifu: unknown diagnostic code '{name}' (see docs/diagnostics.md)");
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
enum InfoFormat {
    Text,
    Json,
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
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let usage_error = e.use_stderr();
            let _ = e.print();
            return ExitCode::from(if usage_error { 2 } else { 0 });
        }
    };
    let status = match cli.command {
        Command::Check(args) => check(args),
        Command::Score(args) => score(args),
        Command::Convert(args) => convert(args),
        Command::Info(args) => info(args),
    };
    match status {
        Ok(status) => ExitCode::from(status as u8),
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("kifu: {e}");
            ExitCode::from(2)
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

/// One input: a file path or standard input.
enum Input {
    File(PathBuf),
    Stdin,
}

impl Input {
    fn name(&self) -> String {
        match self {
            Input::File(p) => p.display().to_string(),
            Input::Stdin => "-".to_string(),
        }
    }

    fn read(&self) -> io::Result<Vec<u8>> {
        match self {
            Input::File(p) => fs::read(p),
            Input::Stdin => {
                let mut buf = Vec::new();
                io::stdin().lock().read_to_end(&mut buf)?;
                Ok(buf)
            }
        }
    }
}

/// Resolved input options shared by every subcommand.
struct Inputs {
    inputs: Vec<Input>,
    parse: ParseOptions,
    /// Some input could not be found or listed.
    io_error: bool,
}

impl InputArgs {
    fn resolve(&self) -> Result<Inputs, Status> {
        let encoding = match &self.encoding {
            None => None,
            Some(name) => match charset::encoding_for_label(name) {
                Some(e) => Some(e),
                None => {
                    eprintln!("kifu: unknown charset '{name}' for --encoding");
                    return Err(Status::Usage);
                }
            },
        };
        let mut exts: Vec<String> = vec!["sgf".into()];
        exts.extend(self.extensions.iter().map(|e| e.trim_start_matches('.').to_ascii_lowercase()));
        let mut inputs = Vec::new();
        let mut io_error = false;
        for path in &self.paths {
            if path.as_os_str() == "-" {
                inputs.push(Input::Stdin);
            } else if path.is_dir() {
                io_error |= walk(path, &exts, &mut inputs);
            } else if path.exists() {
                inputs.push(Input::File(path.clone()));
            } else {
                eprintln!("kifu: {}: no such file or directory", path.display());
                io_error = true;
            }
        }
        let parse = ParseOptions { encoding, limits: sgf::Limits { max_nodes: self.max_nodes, max_variations: self.max_variations } };
        Ok(Inputs { inputs, parse, io_error })
    }
}

/// Adds the files under `dir` whose extension is one of `exts`, in sorted
/// order; returns whether some entry could not be read.
fn walk(dir: &Path, exts: &[String], inputs: &mut Vec<Input>) -> bool {
    let mut failed = false;
    for entry in walkdir::WalkDir::new(dir).sort_by_file_name() {
        match entry {
            Ok(e) if e.file_type().is_file() && has_extension(e.path(), exts) => {
                inputs.push(Input::File(e.into_path()));
            }
            Ok(_) => {}
            Err(e) => {
                eprintln!("kifu: {e}");
                failed = true;
            }
        }
    }
    failed
}

fn has_extension(path: &Path, exts: &[String]) -> bool {
    path.extension().and_then(|e| e.to_str()).is_some_and(|e| exts.iter().any(|x| x.eq_ignore_ascii_case(e)))
}

/// Reads an input, printing a one-line error naming it when it cannot.
fn read_input(input: &Input) -> Option<Vec<u8>> {
    match input.read() {
        Ok(bytes) => Some(bytes),
        Err(e) => {
            eprintln!("kifu: {}: {e}", input.name());
            None
        }
    }
}

fn check(args: CheckArgs) -> io::Result<Status> {
    let (inputs, rules, policy) = match (args.input.resolve(), args.rules.resolve(), args.policy()) {
        (Ok(i), Ok(r), Ok(p)) => (i, r, p),
        _ => return Ok(Status::Usage),
    };
    let format = match args.format {
        CheckFormat::Text => Format::Text,
        CheckFormat::Json => Format::Json,
        CheckFormat::Jsonl => Format::Jsonl,
        CheckFormat::Github => Format::Github,
        CheckFormat::Sarif => Format::Sarif,
    };
    let stdout = io::stdout();
    let mut reporter = Reporter::new(format, io::BufWriter::new(stdout.lock()));
    reporter.quiet = args.quiet;
    let score = if args.score {
        match args.score_flags.resolve(rules) {
            Ok(s) => Some(s),
            Err(status) => return Ok(status),
        }
    } else {
        None
    };
    let options = CheckOptions { parse: inputs.parse, rules, score };
    let mut io_error = inputs.io_error;
    for input in &inputs.inputs {
        let Some(bytes) = read_input(input) else {
            io_error = true;
            let d = Diagnostic::new(Code::Io, 0, "the file could not be read");
            reporter.summary.count(&d);
            continue;
        };
        let mut result = check_bytes(&bytes, &options);
        policy.apply(&mut result.diagnostics);
        reporter.file(&input.name(), &result)?;
    }
    let summary = reporter.finish()?;
    Ok(if io_error {
        Status::Usage
    } else if summary.errors > 0 {
        Status::Problems
    } else {
        Status::Clean
    })
}

/// Parses an SGF input, reporting it on stderr when it holds no game.
fn parse_input(input: &Input, bytes: &[u8], options: &ParseOptions) -> Option<sgf::Parsed> {
    let parsed = sgf::parse(bytes, options);
    if parsed.collection.games.is_empty() {
        let why = parsed.diagnostics.first().map_or("no game found".to_string(), |d| d.message.clone());
        eprintln!("kifu: {}: not an SGF file: {why}", input.name());
        return None;
    }
    Some(parsed)
}

fn info(args: InfoArgs) -> io::Result<Status> {
    let inputs = match args.input.resolve() {
        Ok(i) => i,
        Err(status) => return Ok(status),
    };
    let mut out = io::BufWriter::new(io::stdout().lock());
    let status = each_parsed(&inputs, |name, parsed| {
        for (index, game) in parsed.collection.games.iter().enumerate() {
            let summary = sgf::props::summary(game);
            match args.format {
                InfoFormat::Json => {
                    let doc = serde_json::json!({ "file": name, "game": index, "summary": summary });
                    serde_json::to_writer(&mut out, &doc)?;
                    writeln!(out)?;
                }
                InfoFormat::Text => {
                    writeln!(out, "{name} (game {}):", index + 1)?;
                    let mut text = String::new();
                    summary.write_text(&mut text);
                    for line in text.lines() {
                        writeln!(out, "  {line}")?;
                    }
                }
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
    let mut status = if inputs.io_error { Status::Usage } else { Status::Clean };
    for input in &inputs.inputs {
        let Some(bytes) = read_input(input) else {
            status = Status::Usage;
            continue;
        };
        let Some(parsed) = parse_input(input, &bytes, &inputs.parse) else {
            status = status.max(Status::Problems);
            continue;
        };
        status = status.max(f(&input.name(), &parsed)?);
    }
    Ok(status)
}

fn score(args: ScoreArgs) -> io::Result<Status> {
    let (inputs, rules) = match (args.input.resolve(), args.rules.resolve()) {
        (Ok(i), Ok(r)) => (i, r),
        _ => return Ok(Status::Usage),
    };
    let options = match args.score.resolve(rules) {
        Ok(o) => o,
        Err(status) => return Ok(status),
    };
    let mut out = io::BufWriter::new(io::stdout().lock());
    let status = each_parsed(&inputs, |name, parsed| {
        let mut status = Status::Clean;
        for (index, game) in parsed.collection.games.iter().enumerate() {
            let Some(mut scored) = scoring::score_game(game, &options) else {
                eprintln!("kifu: {name} (game {}): no board to score (bad SZ[])", index + 1);
                status = status.max(Status::Problems);
                continue;
            };
            parsed.source.locate_all(&mut scored.diagnostics);
            if scored.agrees == Some(false) {
                status = status.max(Status::Problems);
            }
            match args.format {
                InfoFormat::Json => {
                    let mut doc = serde_json::Map::new();
                    doc.insert("file".into(), name.into());
                    doc.insert("game".into(), index.into());
                    if let serde_json::Value::Object(fields) = serde_json::to_value(&scored)? {
                        doc.extend(fields);
                    }
                    serde_json::to_writer(&mut out, &doc)?;
                    writeln!(out)?;
                }
                InfoFormat::Text => write_score_text(&mut out, name, index, &scored)?,
            }
        }
        Ok(status)
    })?;
    out.flush()?;
    Ok(status)
}

/// The breakdown, the result against RE[], the map and the notes.
fn write_score_text(out: &mut impl Write, name: &str, index: usize, s: &GameScore) -> io::Result<()> {
    let counting = match s.scoring {
        crate::rules::Scoring::Territory => "territory counting",
        crate::rules::Scoring::Area => "area counting",
    };
    writeln!(out, "{name} (game {}): {} rules, {counting}, dead stones from {}", index + 1, s.rules, s.dead_stones_from)?;
    writeln!(out, "                  Black     White")?;
    let row = |out: &mut dyn Write, label: &str, b: String, w: String| writeln!(out, "  {label:<14}{b:>7}{w:>10}");
    let area = s.scoring == crate::rules::Scoring::Area;
    row(out, "territory", s.black.territory.to_string(), s.white.territory.to_string())?;
    if area {
        row(out, "stones", s.black.stones.to_string(), s.white.stones.to_string())?;
    } else {
        row(out, "prisoners", s.black.prisoners.to_string(), s.white.prisoners.to_string())?;
        row(out, "dead stones", s.black.dead.to_string(), s.white.dead.to_string())?;
    }
    row(out, "komi", String::new(), fmt_points(s.komi))?;
    if area && s.handicap_bonus != 0.0 {
        row(out, "handicap bonus", String::new(), fmt_points(s.handicap_bonus))?;
    }
    row(out, "total", fmt_points(s.black.total), fmt_points(s.white.total))?;
    let verdict = match (s.agrees, &s.recorded) {
        (Some(true), Some(re)) => format!("recorded RE[{re}]: agrees"),
        (Some(false), Some(re)) => format!("recorded RE[{re}]: DISAGREES ({})", scoring::likely_cause(s)),
        (None, Some(re)) => format!("recorded RE[{re}]: no margin to compare"),
        _ => "no RE[] recorded".to_string(),
    };
    writeln!(out, "  result: {}   {verdict}", s.result)?;
    if !s.unsure.is_empty() {
        writeln!(out, "  unsure of the groups at: {}", s.unsure.join(", "))?;
    }
    for line in s.map.lines() {
        writeln!(out, "  {line}")?;
    }
    writeln!(out, "  X O stones, x o dead stones, b w territory, s seki dame, . dame")?;
    for d in &s.diagnostics {
        writeln!(out, "  {}[{}]: {}", d.severity, d.code, d.message)?;
    }
    Ok(())
}

fn fmt_points(x: f64) -> String {
    if x.fract() == 0.0 { format!("{x:.0}") } else { format!("{x}") }
}

fn convert(args: ConvertArgs) -> io::Result<Status> {
    let inputs = match args.input.resolve() {
        Ok(i) => i,
        Err(status) => return Ok(status),
    };
    if let Some(out) = &args.output {
        let clash = inputs.inputs.iter().any(|i| matches!(i, Input::File(p) if same_file(p, out)));
        if clash {
            eprintln!("kifu: refusing to write {}: it is one of the inputs", out.display());
            return Ok(Status::Usage);
        }
    }
    let mut status = if inputs.io_error { Status::Usage } else { Status::Clean };
    let mut text = String::new();
    let many = inputs.inputs.len() > 1;
    for input in &inputs.inputs {
        let Some(bytes) = read_input(input) else {
            status = Status::Usage;
            continue;
        };
        let converted = match args.to {
            ConvertTarget::Json => to_json(input, &bytes, &inputs.parse, args.positions, many),
            ConvertTarget::Sgf => to_sgf(input, &bytes, &inputs.parse),
        };
        match converted {
            Some(s) => text.push_str(&s),
            None => status = status.max(Status::Problems),
        }
    }
    match &args.output {
        Some(path) => fs::write(path, text.as_bytes()).map_err(|e| io::Error::new(e.kind(), format!("{}: {e}", path.display())))?,
        None => io::stdout().lock().write_all(text.as_bytes())?,
    }
    Ok(status)
}

fn same_file(a: &Path, b: &Path) -> bool {
    match (fs::canonicalize(a), fs::canonicalize(b)) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    }
}

/// One input as a JSON document: pretty for a single file, one line each
/// (JSON Lines) for many.
fn to_json(input: &Input, bytes: &[u8], options: &ParseOptions, positions: bool, many: bool) -> Option<String> {
    let parsed = parse_input(input, bytes, options)?;
    report_errors(input, &parsed.diagnostics);
    let json_options = JsonOptions { positions, pretty: !many };
    let mut doc = json::to_json(&input.name(), &parsed, &json_options);
    doc.push('\n');
    Some(doc)
}

/// One input (kifu JSON, JSON Lines, or SGF) written as UTF-8 SGF.
fn to_sgf(input: &Input, bytes: &[u8], options: &ParseOptions) -> Option<String> {
    let is_json = bytes.iter().find(|b| !b.is_ascii_whitespace()) == Some(&b'{');
    let collection = if is_json {
        let text = match std::str::from_utf8(bytes) {
            Ok(t) => t,
            Err(e) => {
                eprintln!("kifu: {}: JSON input is not UTF-8: {e}", input.name());
                return None;
            }
        };
        match json::from_json_lines(text) {
            Ok(docs) => sgf::Collection { games: docs.into_iter().flat_map(|d| d.collection.games).collect() },
            Err(e) => {
                eprintln!("kifu: {}: {e}", input.name());
                return None;
            }
        }
    } else {
        let parsed = parse_input(input, bytes, options)?;
        report_errors(input, &parsed.diagnostics);
        parsed.collection
    };
    Some(sgf::write_collection(&json::set_utf8_charset(&collection)))
}

/// Conversion goes on through syntax errors (what was recovered is
/// converted); errors are still said on stderr, one line each.
fn report_errors(input: &Input, diagnostics: &[Diagnostic]) {
    for d in diagnostics.iter().filter(|d| d.severity == Severity::Error) {
        eprintln!("kifu: {}:{}:{}: {}[{}]: {}", input.name(), d.line, d.column, d.severity, d.code, d.message);
    }
}
