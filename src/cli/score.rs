//! `kifu score` over many inputs, on the batch layer `check` runs on: the
//! same walk (folders, archives, standard input), `--jobs` workers with
//! the output in input order, the progress bar and a summary. A worker
//! reads, parses, scores and renders a file; what it renders is written
//! in input order, by the calling thread (itself one of the workers).

use std::io::{self, Write};
use std::ops::ControlFlow;
use std::time::{Duration, Instant};

use super::progress::Progress;
use super::{Inputs, ScoreFormat, ScoreSettings, Status, parse_games};
use crate::batch::{self, Item};
use crate::diag::Code;
use crate::report;
use crate::score::{self as scoring, GameScore, ScoreError};
use crate::sgf::props::{self, Move};
use crate::sgf::{GameTree, PropId};

/// Everything `score` needs, resolved from the flags.
pub(super) struct ScoreRun {
    pub inputs: Inputs,
    pub settings: ScoreSettings,
    pub format: ScoreFormat,
    pub style: report::Style,
    pub jobs: usize,
    /// Skip games whose line does not end with two passes.
    pub finished_only: bool,
    /// No progress bar, no summary.
    pub quiet: bool,
}

/// Games of a run, by what the recount said of them.
#[derive(Default)]
struct Tally {
    files: usize,
    games: usize,
    agree: usize,
    disagree: usize,
    /// Scored, with no margin in `RE[]` to compare (a resignation, no `RE`).
    uncompared: usize,
    /// Scored from a position before the end (no two passes).
    mid_game: usize,
    /// Left out by `--finished-only`.
    skipped: usize,
    /// Not scored: no board, or the file could not be read.
    failed: usize,
}

impl Tally {
    fn add(&mut self, other: &Tally) {
        self.files += other.files;
        self.games += other.games;
        self.agree += other.agree;
        self.disagree += other.disagree;
        self.uncompared += other.uncompared;
        self.mid_game += other.mid_game;
        self.skipped += other.skipped;
        self.failed += other.failed;
    }
}

/// One input scored and rendered, waiting for its turn to be written.
struct FileScores {
    /// The games' output, in the chosen format.
    out: Vec<u8>,
    /// What is said on standard error, escaped when said.
    said: Vec<String>,
    status: Status,
    tally: Tally,
}

pub(super) fn run(run: &ScoreRun) -> io::Result<Status> {
    let started = Instant::now();
    let mut out = io::BufWriter::new(io::stdout().lock());
    let mut progress = Progress::start(run.quiet);
    let (mut status, mut tally) = (Status::Clean, Tally::default());
    let mut empty_folders = Vec::new();
    std::thread::scope(|scope| -> io::Result<()> {
        if let Some(bar) = progress.as_ref().map(|p| p.bar().clone()) {
            scope.spawn(move || bar.set_length(run.inputs.walk.count(&run.inputs.paths) as u64));
        }
        let empty_folders = &mut empty_folders;
        let produce = |f: &mut dyn FnMut(Item) -> ControlFlow<()>| *empty_folders = run.inputs.walk.for_each(&run.inputs.paths, f);
        let deliver = |file: FileScores| {
            status = status.max(file.status);
            tally.add(&file.tally);
            let mut write = |flush: bool| {
                for message in &file.said {
                    say!("{message}");
                }
                out.write_all(&file.out)?;
                if flush { out.flush() } else { Ok(()) }
            };
            match &mut progress {
                None => write(false),
                Some(progress) => {
                    progress.add(file.tally.games, file.tally.failed + file.tally.disagree);
                    progress.suspend(|| write(true))
                }
            }
        };
        batch::ordered_map(run.jobs, batch::FileTable::OwnPerThread, produce, |item| score_item(item, run), deliver)
    })?;
    if let Some(progress) = progress {
        progress.finish();
    }
    out.flush()?;
    if run.inputs.warn_empty(&empty_folders) {
        status = Status::Usage;
    }
    if !run.quiet {
        say!("{}", summary(&tally, run.finished_only, started.elapsed()));
    }
    Ok(status)
}

/// Reads, parses, scores and renders one input (on a worker thread); a
/// panic is said as kifu's failure on the file, and the others go on.
fn score_item(item: Item, run: &ScoreRun) -> FileScores {
    let mut file = FileScores { out: Vec::new(), said: Vec::new(), status: Status::Clean, tally: Tally { files: 1, ..Tally::default() } };
    let bytes = match item.content.read(run.inputs.walk.max_bytes) {
        Ok(bytes) => bytes,
        Err((code, message)) => {
            file.said.push(format!("{}: {message}", item.name));
            file.status = if code == Code::Io { Status::Usage } else { Status::Problems };
            file.tally.failed += 1;
            return file;
        }
    };
    let scored = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| score_file(&item.name, &bytes, run, &mut file)));
    match scored {
        Ok(Ok(())) => {}
        Ok(Err(e)) => {
            file.said.push(format!("{}: {e}", item.name));
            file.status = Status::Usage;
        }
        Err(_) => {
            file.said.push(format!("{}: kifu failed on this file (a bug: please report it with the file)", item.name));
            // As `check`'s internal-error, an error of the run.
            file.status = Status::Problems;
            file.tally.failed += 1;
        }
    }
    file
}

fn score_file(name: &str, bytes: &[u8], run: &ScoreRun, file: &mut FileScores) -> io::Result<()> {
    let parsed = match parse_games(name, bytes, &run.inputs.parse) {
        Ok(parsed) => parsed,
        Err(why) => {
            file.said.push(why);
            file.status = Status::Problems;
            file.tally.failed += 1;
            return Ok(());
        }
    };
    for (index, game) in parsed.collection.games.iter().enumerate() {
        if run.finished_only && !ends_with_two_passes(game, &run.settings.options.variation) {
            file.tally.skipped += 1;
            continue;
        }
        let mut scored = match score_one(&run.settings, game) {
            Ok(scored) => scored,
            Err(not) => {
                let code = not.code.map_or(String::new(), |c| format!("{c}: "));
                file.said.push(format!("{name} (game {}): {code}{}", index + 1, not.why));
                if run.format == ScoreFormat::Json {
                    let doc = serde_json::json!({ "file": name, "game": index, "code": not.code.map(Code::name), "error": not.why });
                    serde_json::to_writer(&mut file.out, &doc)?;
                    writeln!(file.out)?;
                }
                file.status = file.status.max(not.status);
                file.tally.failed += 1;
                continue;
            }
        };
        parsed.source.locate_all(&mut scored.diagnostics);
        let tally = &mut file.tally;
        tally.games += 1;
        tally.mid_game += usize::from(!scored.finished);
        match scored.agrees {
            Some(true) => tally.agree += 1,
            Some(false) => {
                tally.disagree += 1;
                file.status = file.status.max(Status::Problems);
            }
            None => tally.uncompared += 1,
        }
        let scored = report::score::Scored { file: name, game: index, variation: &run.settings.options.variation, score: &scored };
        match run.format {
            ScoreFormat::Json => {
                serde_json::to_writer(&mut file.out, &report::score::json(&scored))?;
                writeln!(file.out)?;
            }
            ScoreFormat::Text => report::score::write_text(&mut file.out, &scored, run.style)?,
        }
    }
    Ok(())
}

/// Why a game was not scored: what to say, the exit status it gives, and
/// the code naming it where one does.
struct NotScored {
    why: String,
    status: Status,
    code: Option<Code>,
}

fn score_one(settings: &ScoreSettings, game: &GameTree) -> Result<GameScore, NotScored> {
    let options = settings.for_game(game).map_err(|why| NotScored { why, status: Status::Usage, code: None })?;
    scoring::score_game(game, &options).map_err(|e| {
        // A game that is not Go is skipped, as `check` does; a flag naming
        // what the game lacks is a usage error.
        let (status, code) = match e {
            ScoreError::NotGo(_) => (Status::Clean, Some(Code::NotGo)),
            ScoreError::NoBoard => (Status::Problems, None),
            ScoreError::NoVariation { .. } | ScoreError::DeadStone { .. } => (Status::Usage, None),
        };
        NotScored { why: e.to_string(), status, code }
    })
}

/// `score: 847 files, 850 games in 1.20 s: 160 agree with RE[], 3 disagree,
/// 687 with no margin to compare; 690 counted before the end (no two
/// passes: an estimate)`.
fn summary(t: &Tally, finished_only: bool, elapsed: Duration) -> String {
    let plural = |n: usize, what: &str| format!("{n} {what}{}", if n == 1 { "" } else { "s" });
    let mut s = format!(
        "score: {}, {} in {:.2} s: {} agree with RE[], {} disagree, {} with no margin to compare",
        plural(t.files, "file"),
        plural(t.games, "game"),
        elapsed.as_secs_f64(),
        t.agree,
        t.disagree,
        t.uncompared
    );
    if t.mid_game > 0 {
        s += &format!("; {} counted before the end (no two passes: an estimate, not a final count)", t.mid_game);
    }
    if finished_only {
        s += &format!("; {} skipped by --finished-only", plural(t.skipped, "unfinished game"));
    }
    if t.failed > 0 {
        s += &format!("; {} not scored", t.failed);
    }
    s
}

/// Whether the line `score` counts (the main line, or `--variation`'s
/// choices at branch points) ends with two passes in a row: looked at
/// before any replay, so that `--finished-only` costs nothing on the games
/// it skips.
fn ends_with_two_passes(game: &GameTree, variation: &[u32]) -> bool {
    let mut node = game.root();
    let Ok(size) = props::board_size(node) else { return false };
    let mut choices = variation.iter();
    // The values of the line's last two moves, the later one last: only
    // those are parsed (a node's B before its W, as the replay plays them).
    let mut last_two: [Option<&str>; 2] = [None, None];
    loop {
        for code in [PropId::B, PropId::W] {
            if let Some(value) = node.get_code(code).and_then(|p| p.first()) {
                last_two = [last_two[1], Some(value)];
            }
        }
        let index = match node.child_count() {
            0 => return last_two.iter().all(|v| v.is_some_and(|v| matches!(props::parse_move(v, size), Ok(Move::Pass)))),
            1 => 0,
            _ => choices.next().copied().unwrap_or(0),
        };
        match node.children().nth(index as usize) {
            Some(child) => node = child,
            None => return false,
        }
    }
}
