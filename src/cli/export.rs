//! `kifu export --to npz PATH... -o data.npz`: the main line of every game
//! replayed into training arrays (the library's `arrays`, as the Python
//! module's `game.replay()` gives them), concatenated into one NumPy `.npz`
//! archive that `numpy.load` reads.
//!
//! Flat memory: games are replayed on the worker threads in input order
//! and each array is streamed to a temporary file as they come; only at
//! the end, when every length is known, are the `.npy` members written
//! (npyz writes their headers) into a zip beside the output, renamed into
//! place when complete. An interrupted export leaves no output at all.

use std::fs::File;
use std::io::{self, BufReader, BufWriter, Read, Seek, Write};
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};

use clap::{Args, ValueEnum};
use npyz::{DType, TypeStr, WriterBuilder};

use super::{InputArgs, RuleArgs, Status, output};
use crate::arrays::{self, Labels, LineArrays};
use crate::batch::{self, Item, Shard};
use crate::diag::Code;
use crate::formats;
use crate::replay::RuleOverrides;
use crate::sgf::{self, ParseOptions, props};

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ExportTarget {
    /// NumPy's .npz (a zip of .npy arrays), as numpy.load reads it.
    Npz,
}

#[derive(Args)]
pub struct ExportArgs {
    #[command(flatten)]
    input: InputArgs,
    #[command(flatten)]
    rules: RuleArgs,
    /// Output format.
    #[arg(long, value_enum)]
    to: ExportTarget,
    /// The file to write (replaced only by a complete export; never an input).
    #[arg(long, short, value_name = "OUT")]
    output: PathBuf,
    /// Export the games of this board size only (one array holds every board): 19, 13, 9, or WxH.
    #[arg(long, value_name = "SIZE", default_value = "19")]
    board_size: String,
    /// Compress the arrays (deflate; smaller, slower to write and to load).
    #[arg(long)]
    compress: bool,
    /// Threads replaying files (default: all cores). The output does not depend on it.
    #[arg(long, short, value_name = "N")]
    jobs: Option<usize>,
    /// Export only the I-th of N deterministic slices of the inputs (1-based), e.g. 2/8.
    #[arg(long, value_name = "I/N", value_parser = Shard::parse)]
    shard: Option<Shard>,
    /// Say only what went wrong, not the summary.
    #[arg(long, short)]
    quiet: bool,
}

/// One game replayed, with what the per-game arrays keep.
struct Row {
    game: usize,
    labels: Labels,
    /// `None`: no usable board, or not a game of Go.
    arrays: Option<LineArrays>,
}

/// What exporting one file gave (on a worker thread).
enum Exported {
    Games { name: String, rows: Vec<Row>, source: sgf::SourceMap },
    Failed { name: String, code: Code, message: String },
}

pub fn export(mut args: ExportArgs) -> io::Result<Status> {
    let (mut inputs, rules) = match (args.input.resolve(), args.rules.resolve()) {
        (Ok(i), Ok(r)) => (i, r),
        _ => return Ok(Status::Usage),
    };
    let Some((width, height)) = board_size(&args.board_size) else {
        say!("--board-size {}: expected a size like 19 or 19x13", args.board_size);
        return Ok(Status::Usage);
    };
    let output = &args.output;
    if inputs.paths.iter().any(|p| output::same_file(p, output)) {
        say!("refusing to write {}: it is one of the inputs", output.display());
        return Ok(Status::Usage);
    }
    inputs.walk.shard = args.shard;
    let dir = match output.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir.to_path_buf(),
        _ => PathBuf::from("."),
    };
    std::fs::create_dir_all(&dir).map_err(|e| in_file(&dir, e))?;
    let jobs = args.jobs.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let mut npz = NpzColumns::new(&dir, width, height).map_err(|e| in_file(&dir, e))?;
    let mut status = Status::Clean;
    let mut counts = Counts::default();
    let mut empty_folders = Vec::new();
    let produce = |f: &mut dyn FnMut(Item) -> ControlFlow<()>| empty_folders = inputs.walk.for_each(&inputs.paths, f);
    let work = |item: Item| export_item(item, inputs.walk.max_bytes, &inputs.parse, &rules);
    let deliver = |exported: Exported| -> io::Result<()> {
        counts.files += 1;
        let (name, rows, source) = match exported {
            Exported::Games { name, rows, source } => (name, rows, source),
            Exported::Failed { name, code, message } => {
                say!("{name}: {message}");
                status = status.max(if code == Code::Io { Status::Usage } else { Status::Problems });
                return Ok(());
            }
        };
        for row in rows {
            let Some(mut line) = row.arrays.filter(|a| (a.width, a.height) == (width, height)) else {
                counts.skipped += 1;
                continue;
            };
            if let Some(d) = &mut line.stopped {
                source.locate(d);
                say!("{name}:{}:{}: {}[{}]: {} (game {}): exported up to the move before", d.line, d.column, d.severity, d.code, d.message, row.game + 1);
                counts.stopped += 1;
                status = status.max(Status::Problems);
            }
            counts.positions += line.len() + 1;
            npz.add(&name, row.game, &row.labels, &line)?;
        }
        Ok(())
    };
    batch::ordered_map(jobs, batch::FileTable::OwnPerThread, produce, work, deliver)
        .map_err(|e| io::Error::new(e.kind(), format!("writing the arrays in {}: {e}", dir.display())))?;
    if inputs.warn_empty(&empty_folders) {
        status = Status::Usage;
    }
    let games = npz.games;
    npz.finish(output, args.compress).map_err(|e| in_file(output, e))?;
    if !args.quiet {
        let skipped = if counts.skipped > 0 { format!("; {} games not {width}x{height} (or not Go) left out", counts.skipped) } else { String::new() };
        let stopped = if counts.stopped > 0 { format!("; {} stopped at an illegal move, kept up to it", counts.stopped) } else { String::new() };
        say!("wrote {}: {} games, {} positions, from {} files{stopped}{skipped}", output.display(), games, counts.positions, counts.files);
    }
    Ok(status)
}

#[derive(Default)]
struct Counts {
    files: usize,
    positions: usize,
    stopped: usize,
    skipped: usize,
}

fn in_file(path: &Path, e: io::Error) -> io::Error {
    io::Error::new(e.kind(), format!("{}: {e}", path.display()))
}

/// `19`, `19x13` or `19:13` as (width, height).
fn board_size(text: &str) -> Option<(usize, usize)> {
    let size = props::BoardSize::parse(&text.replace(['x', 'X'], ":")).ok()?;
    Some((size.width as usize, size.height as usize))
}

/// Reads, parses and replays the main line of every game of one item.
fn export_item(item: Item, max_bytes: u64, parse: &ParseOptions, rules: &RuleOverrides) -> Exported {
    let Item { name, content, .. } = item;
    let bytes = match content.read(max_bytes) {
        Ok(bytes) => bytes,
        Err((code, message)) => return Exported::Failed { name, code, message },
    };
    let replayed = std::panic::catch_unwind(|| {
        let parsed = formats::read(&bytes, &name, parse);
        let rows = parsed
            .collection
            .games
            .iter()
            .enumerate()
            .map(|(game, tree)| {
                let is_go = props::game_type(tree.root()).is_ok_and(|gm| gm == 1);
                Row { game, labels: arrays::labels(tree, rules), arrays: is_go.then(|| arrays::replay_line(tree, &[], rules).ok()).flatten() }
            })
            .collect::<Vec<_>>();
        (parsed, rows)
    });
    match replayed {
        Ok((parsed, _)) if parsed.collection.games.is_empty() => {
            let why = parsed.diagnostics.first().map_or("no game found".to_string(), |d| d.message.clone());
            Exported::Failed { name, code: Code::NotSgf, message: format!("not an SGF file: {why}") }
        }
        Ok((parsed, rows)) => Exported::Games { name, rows, source: parsed.source },
        Err(_) => Exported::Failed { name, code: Code::InternalError, message: "kifu failed on this file (a bug: please report it with the file)".into() },
    }
}

/// An array's elements as they come, in a temporary file (little-endian).
struct Column {
    name: &'static str,
    descr: &'static str,
    out: BufWriter<File>,
    /// Elements written.
    len: u64,
}

impl Column {
    fn new(dir: &Path, name: &'static str, descr: &'static str) -> io::Result<Column> {
        Ok(Column { name, descr, out: BufWriter::new(tempfile::tempfile_in(dir)?), len: 0 })
    }

    fn push(&mut self, bytes: &[u8], elements: usize) -> io::Result<()> {
        self.len += elements as u64;
        self.out.write_all(bytes)
    }
}

/// A column of strings: written as numpy's fixed-width `<U` (UTF-32), so
/// the width, the longest string, is known only at the end.
struct Strings {
    name: &'static str,
    out: BufWriter<File>,
    len: u64,
    /// The longest string, in characters.
    width: usize,
}

impl Strings {
    fn new(dir: &Path, name: &'static str) -> io::Result<Strings> {
        Ok(Strings { name, out: BufWriter::new(tempfile::tempfile_in(dir)?), len: 0, width: 1 })
    }

    fn push(&mut self, s: &str) -> io::Result<()> {
        self.len += 1;
        self.width = self.width.max(s.chars().count());
        self.out.write_all(&(s.len() as u32).to_le_bytes())?;
        self.out.write_all(s.as_bytes())
    }
}

/// Every array of the export, filled game by game.
struct NpzColumns {
    dir: PathBuf,
    width: usize,
    height: usize,
    games: usize,
    boards: Column,
    moves: Column,
    colors: Column,
    captures: Column,
    board_offset: Column,
    move_offset: Column,
    move_count: Column,
    game: Column,
    komi: Column,
    handicap: Column,
    complete: Column,
    file: Strings,
    rules: Strings,
    result: Strings,
    stopped: Strings,
}

impl NpzColumns {
    fn new(dir: &Path, width: usize, height: usize) -> io::Result<NpzColumns> {
        Ok(NpzColumns {
            dir: dir.to_path_buf(),
            width,
            height,
            games: 0,
            boards: Column::new(dir, "boards", "|i1")?,
            moves: Column::new(dir, "moves", "<i2")?,
            colors: Column::new(dir, "colors", "|i1")?,
            captures: Column::new(dir, "captures", "<i2")?,
            board_offset: Column::new(dir, "board_offset", "<i8")?,
            move_offset: Column::new(dir, "move_offset", "<i8")?,
            move_count: Column::new(dir, "move_count", "<i4")?,
            game: Column::new(dir, "game", "<i4")?,
            komi: Column::new(dir, "komi", "<f8")?,
            handicap: Column::new(dir, "handicap", "<i4")?,
            complete: Column::new(dir, "complete", "|b1")?,
            file: Strings::new(dir, "file")?,
            rules: Strings::new(dir, "rules")?,
            result: Strings::new(dir, "result")?,
            stopped: Strings::new(dir, "stopped")?,
        })
    }

    fn add(&mut self, file: &str, game: usize, labels: &Labels, line: &LineArrays) -> io::Result<()> {
        self.games += 1;
        let n = line.len();
        self.board_offset.push(&(self.boards.len / (self.width * self.height) as u64).to_le_bytes(), 1)?;
        self.move_offset.push(&self.colors.len.to_le_bytes(), 1)?;
        self.move_count.push(&(n as i32).to_le_bytes(), 1)?;
        let boards: Vec<u8> = line.boards.iter().map(|&c| c as u8).collect();
        self.boards.push(&boards, boards.len())?;
        let moves: Vec<u8> = line.moves.iter().flat_map(|m| m.to_le_bytes()).collect();
        self.moves.push(&moves, line.moves.len())?;
        let colors: Vec<u8> = line.colors.iter().map(|&c| c as u8).collect();
        self.colors.push(&colors, n)?;
        let captures: Vec<u8> = line.captures.iter().flat_map(|c| c.to_le_bytes()).collect();
        self.captures.push(&captures, n)?;
        self.game.push(&(game as i32).to_le_bytes(), 1)?;
        self.komi.push(&labels.komi.unwrap_or(f64::NAN).to_le_bytes(), 1)?;
        self.handicap.push(&(labels.handicap.unwrap_or(0).clamp(0, i32::MAX as i64) as i32).to_le_bytes(), 1)?;
        self.complete.push(&[line.stopped.is_none() as u8], 1)?;
        self.file.push(file)?;
        self.rules.push(line.rules.name)?;
        self.result.push(labels.result.as_deref().unwrap_or(""))?;
        self.stopped.push(line.stopped.as_ref().map_or("", |d| d.code.name()))
    }

    /// Writes the npz beside `output` and renames it into place.
    fn finish(self, output: &Path, compress: bool) -> io::Result<()> {
        let method = if compress { zip::CompressionMethod::Deflated } else { zip::CompressionMethod::Stored };
        let temp = tempfile::NamedTempFile::new_in(&self.dir)?;
        let mut zip = zip::ZipWriter::new(BufWriter::new(temp));
        // Each column with the shape of one row of it.
        let numeric = [
            (self.boards, vec![self.height as u64, self.width as u64]),
            (self.moves, vec![2]),
            (self.colors, vec![]),
            (self.captures, vec![]),
            (self.board_offset, vec![]),
            (self.move_offset, vec![]),
            (self.move_count, vec![]),
            (self.game, vec![]),
            (self.komi, vec![]),
            (self.handicap, vec![]),
            (self.complete, vec![]),
        ];
        for (column, inner) in numeric {
            let rows = column.len / inner.iter().product::<u64>();
            let shape: Vec<u64> = std::iter::once(rows).chain(inner).collect();
            let bytes = column.len * u64::from(column.descr[2..].parse::<u8>().expect("a size"));
            start_member(&mut zip, column.name, method, bytes)?;
            let mut data = rewind(column.out)?;
            let dtype = DType::new_scalar(column.descr.parse::<TypeStr>().map_err(io::Error::other)?);
            let out = npyz::WriteOptions::new_header_only().dtype(dtype).shape(&shape).writer(&mut zip).write_header_only()?;
            io::copy(&mut data, out)?;
        }
        for column in [self.file, self.rules, self.result, self.stopped] {
            start_member(&mut zip, column.name, method, column.len * 4 * column.width as u64)?;
            let mut data = rewind(column.out)?;
            let dtype = DType::new_scalar(format!("<U{}", column.width).parse::<TypeStr>().map_err(io::Error::other)?);
            let mut out = npyz::WriteOptions::<str>::new().dtype(dtype).shape(&[column.len]).writer(&mut zip).begin_nd()?;
            for _ in 0..column.len {
                let mut len = [0; 4];
                data.read_exact(&mut len)?;
                let mut text = vec![0; u32::from_le_bytes(len) as usize];
                data.read_exact(&mut text)?;
                out.push(std::str::from_utf8(&text).map_err(io::Error::other)?)?;
            }
            out.finish()?;
        }
        let temp = zip.finish().map_err(io::Error::other)?.into_inner().map_err(|e| e.into_error())?;
        temp.as_file().sync_all()?;
        temp.persist(output).map_err(|e| e.error)?;
        Ok(())
    }
}

/// Starts the zip member `name.npy`, zip64 when it may pass 4 GiB.
fn start_member(zip: &mut zip::ZipWriter<BufWriter<tempfile::NamedTempFile>>, name: &str, method: zip::CompressionMethod, bytes: u64) -> io::Result<()> {
    let options = zip::write::SimpleFileOptions::default().compression_method(method).large_file(bytes + 4096 >= u64::from(u32::MAX));
    zip.start_file(format!("{name}.npy"), options).map_err(io::Error::other)
}

/// The temporary file of a column, flushed, to read from its start.
fn rewind(out: BufWriter<File>) -> io::Result<BufReader<File>> {
    let mut file = out.into_inner().map_err(|e| e.into_error())?;
    file.rewind()?;
    Ok(BufReader::new(file))
}
