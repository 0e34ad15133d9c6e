//! Check throughput: `kifu::check::check_bytes` (parse + property checks +
//! replay of every variation under the game's rules) on the real-game corpus
//! in `../shared/corpus`, with `kifu::sgf::parse` alone timed the same way so
//! the split between parsing and replaying is visible. The peer, sgfmill, is
//! Python: `benches/replay.sh` runs it on the same files and merges the
//! figures (see benches/README.md, "check / replay").
//!
//! ```text
//! cargo bench --bench check                          # sets kgs and all
//! cargo bench --bench check -- kgs                   # one set (kgs, fox-pro, ai-games, all)
//! cargo bench --bench check -- kgs --sample 5000     # + an evenly spaced sample of 5,000 files
//! cargo bench --bench check -- kgs --sample 5000 --write-list /tmp/kgs.list
//! cargo bench --bench check -- --files /tmp/kgs.list # only the files listed (one path a line)
//! cargo bench --bench check -- kgs --json /tmp/check.json
//! BENCH_RUNS=9 KIFU_CORPUS=/path/to/corpus cargo bench --bench check -- kgs
//! ```
//!
//! For each set (and sample): every file is read into memory first; an
//! untimed pass checks every file once (warm-up, and the counts: games,
//! moves, files with errors); then `BENCH_RUNS` runs (default 5), each a
//! parse-only pass over all files followed by a check pass over all files,
//! single thread. The reported figure is the median run.

use std::hint::black_box;
use std::io::Write;
use std::os::unix::ffi::OsStrExt;
use std::panic::{self, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

mod common;
use common::{collect_sgf, cpu_model, utc_now};

use kifu::check::{CheckOptions, check_bytes};
use kifu::diag::Severity;

/// The sets: (name, folder under the corpus; "" = whole corpus).
const SETS: &[(&str, &str)] = &[("kgs", "kgs"), ("fox-pro", "fox-pro"), ("ai-games", "ai-games"), ("all", "")];
/// Sets run when none is named.
const DEFAULT_SETS: &[&str] = &["kgs", "all"];

fn main() {
    // Deep trees in the suites: give the benchmark a large (lazily committed) stack.
    let worker = std::thread::Builder::new().name("bench-check".into()).stack_size(1 << 30).spawn(run).expect("spawn benchmark thread");
    let code = worker.join().unwrap_or(2);
    std::process::exit(code);
}

struct Args {
    sets: Vec<String>,
    sample: Option<usize>,
    write_list: Option<PathBuf>,
    files: Option<PathBuf>,
    json: Option<PathBuf>,
}

fn parse_args() -> Result<Args, String> {
    let mut args = Args { sets: Vec::new(), sample: None, write_list: None, files: None, json: None };
    let mut it = std::env::args_os().skip(1);
    while let Some(arg) = it.next() {
        let arg = arg.to_string_lossy().into_owned();
        let mut value = |name: &str| it.next().ok_or_else(|| format!("{name} needs a value"));
        match arg.as_str() {
            "--sample" => {
                let v = value("--sample")?;
                match v.to_string_lossy().parse::<usize>() {
                    Ok(n) if n > 0 => args.sample = Some(n),
                    _ => return Err(format!("--sample needs a positive integer, got `{}`", v.to_string_lossy())),
                }
            }
            "--write-list" => args.write_list = Some(PathBuf::from(value("--write-list")?)),
            "--files" => args.files = Some(PathBuf::from(value("--files")?)),
            "--json" => args.json = Some(PathBuf::from(value("--json")?)),
            // `cargo bench` passes `--bench` (and libtest-style flags) to harness=false benches.
            a if a.starts_with('-') => {}
            a => {
                if !SETS.iter().any(|(name, _)| *name == a) {
                    return Err(format!("unknown set `{a}`; known sets: {}", SETS.iter().map(|(n, _)| *n).collect::<Vec<_>>().join(", ")));
                }
                if !args.sets.iter().any(|s| s == a) {
                    args.sets.push(a.to_string());
                }
            }
        }
    }
    if args.files.is_some() && !args.sets.is_empty() {
        return Err("--files replaces the sets: give one or the other".into());
    }
    if args.write_list.is_some() && args.sets.len() != 1 {
        return Err("--write-list needs exactly one set named".into());
    }
    Ok(args)
}

fn run() -> i32 {
    let args = match parse_args() {
        Ok(a) => a,
        Err(e) => {
            eprintln!("check bench: {e}");
            return 2;
        }
    };
    let runs: usize = match std::env::var("BENCH_RUNS") {
        Ok(v) => match v.trim().parse::<usize>() {
            Ok(n) if n > 0 => n,
            _ => {
                eprintln!("check bench: BENCH_RUNS must be a positive integer, got `{v}`");
                return 2;
            }
        },
        Err(_) => 5,
    };

    // A panic is a kifu bug (check_bytes promises never to panic): the
    // untimed pass catches it, names the file and leaves the file out.
    let default_hook = panic::take_hook();
    panic::set_hook(Box::new(|_| {}));

    let mut results = Vec::new();
    let corpus;
    if let Some(list) = &args.files {
        corpus = None;
        let paths = match read_list(list) {
            Ok(p) => p,
            Err(e) => {
                eprintln!("check bench: cannot read list {}: {e}", list.display());
                return 2;
            }
        };
        let label = format!("list:{}", list.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default());
        eprintln!("check bench: {} files from {}, {runs} runs, median reported", paths.len(), list.display());
        let (data, bytes_paths) = load(&paths);
        results.push(measure(&label, "list", &data, &bytes_paths, runs));
    } else {
        let root = match std::env::var_os("KIFU_CORPUS") {
            Some(p) => PathBuf::from(p),
            None => Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus"),
        };
        let root = root.canonicalize().unwrap_or(root);
        if !root.is_dir() {
            panic::set_hook(default_hook);
            println!("check bench: SKIPPED: corpus not found at {} (set KIFU_CORPUS to its location)", root.display());
            return 0;
        }
        eprintln!("check bench: corpus {}, {runs} runs, median reported", root.display());
        let wanted: Vec<&str> = if args.sets.is_empty() { DEFAULT_SETS.to_vec() } else { args.sets.iter().map(String::as_str).collect() };
        for &(name, folder) in SETS {
            if !wanted.contains(&name) {
                continue;
            }
            let dir = if folder.is_empty() { root.clone() } else { root.join(folder) };
            if !dir.is_dir() {
                eprintln!("check bench: set {name}: SKIPPED, {} not found", dir.display());
                continue;
            }
            let mut paths = Vec::new();
            collect_sgf(&dir, &mut paths);
            paths.sort();
            let (data, kept) = load(&paths);
            eprintln!("check bench: set {name}: {} files, {:.1} MB loaded", data.len(), data.iter().map(|b| b.len()).sum::<usize>() as f64 / 1e6);
            results.push(measure(name, "full", &data, &kept, runs));
            let chosen = match args.sample {
                Some(n) if n < data.len() => sample_indices(data.len(), n),
                _ => (0..data.len()).collect(),
            };
            if let Some(list) = &args.write_list {
                if let Err(e) = write_list(list, chosen.iter().map(|&i| kept[i].as_path())) {
                    eprintln!("check bench: cannot write {}: {e}", list.display());
                    return 2;
                }
            }
            if chosen.len() < data.len() {
                let sdata: Vec<Vec<u8>> = chosen.iter().map(|&i| data[i].clone()).collect();
                let spaths: Vec<PathBuf> = chosen.iter().map(|&i| kept[i].clone()).collect();
                let label = format!("{name} sample");
                results.push(measure(&label, "sample", &sdata, &spaths, runs));
            }
        }
        corpus = Some(root);
    }
    panic::set_hook(default_hook);

    if results.is_empty() {
        println!("check bench: SKIPPED: no set found");
        return 0;
    }
    print_report(&results, runs);
    if let Some(path) = &args.json {
        if let Err(e) = std::fs::write(path, json_report(&results, runs, corpus.as_deref())) {
            eprintln!("check bench: cannot write {}: {e}", path.display());
            return 2;
        }
    }
    0
}

/// Reads every file; those that cannot be read are reported and left out.
fn load(paths: &[PathBuf]) -> (Vec<Vec<u8>>, Vec<PathBuf>) {
    let mut data = Vec::with_capacity(paths.len());
    let mut kept = Vec::with_capacity(paths.len());
    for p in paths {
        match std::fs::read(p) {
            Ok(b) => {
                data.push(b);
                kept.push(p.clone());
            }
            Err(e) => eprintln!("check bench: cannot read {}: {e}", p.display()),
        }
    }
    (data, kept)
}

/// `n` indices spread evenly over `0..len` (`floor(i * len / n)`), the same
/// rule `sgfmill_replay.py --sample` uses.
fn sample_indices(len: usize, n: usize) -> Vec<usize> {
    (0..n).map(|i| i * len / n).collect()
}

fn read_list(path: &Path) -> std::io::Result<Vec<PathBuf>> {
    let raw = std::fs::read(path)?;
    Ok(raw.split(|&b| b == b'\n').filter(|l| !l.is_empty()).map(|l| PathBuf::from(std::ffi::OsStr::from_bytes(l))).collect())
}

/// One absolute path a line, as raw bytes (file names need not be UTF-8).
fn write_list<'a>(path: &Path, paths: impl Iterator<Item = &'a Path>) -> std::io::Result<()> {
    let mut out = std::io::BufWriter::new(std::fs::File::create(path)?);
    for p in paths {
        let abs = std::path::absolute(p)?;
        out.write_all(abs.as_os_str().as_bytes())?;
        out.write_all(b"\n")?;
    }
    out.flush()
}

/// What one set (or sample, or list) measured.
struct Measured {
    label: String,
    kind: &'static str,
    files: usize,
    bytes: u64,
    games: usize,
    /// Sum of `FileCheck::moves`: B/W properties in every variation.
    moves: usize,
    /// B/W properties on the main line of each game (what sgfmill replays).
    main_line_moves: usize,
    files_with_errors: usize,
    errors: usize,
    warnings: usize,
    /// Files left out because kifu panicked on them (a bug).
    panicked: Vec<PathBuf>,
    check: Vec<Duration>,
    parse: Vec<Duration>,
    check_cpu: Option<Vec<Duration>>,
    parse_cpu: Option<Vec<Duration>>,
}

fn measure(label: &str, kind: &'static str, data: &[Vec<u8>], paths: &[PathBuf], runs: usize) -> Measured {
    let opts = CheckOptions::default();
    let mut m = Measured {
        label: label.to_string(),
        kind,
        files: 0,
        bytes: 0,
        games: 0,
        moves: 0,
        main_line_moves: 0,
        files_with_errors: 0,
        errors: 0,
        warnings: 0,
        panicked: Vec::new(),
        check: Vec::with_capacity(runs),
        parse: Vec::with_capacity(runs),
        check_cpu: Some(Vec::with_capacity(runs)),
        parse_cpu: Some(Vec::with_capacity(runs)),
    };

    // Untimed pass: counts, panics, warm-up.
    let mut timed: Vec<&[u8]> = Vec::with_capacity(data.len());
    for (b, p) in data.iter().zip(paths) {
        let result = panic::catch_unwind(AssertUnwindSafe(|| {
            let fc = check_bytes(b, &opts);
            let parsed = kifu::sgf::parse(b, &opts.parse);
            let main: usize = parsed.collection.games.iter().map(|g| g.main_line().filter(|n| n.has("B") || n.has("W")).count()).sum();
            (fc, main)
        }));
        match result {
            Ok((fc, main)) => {
                m.games += fc.games;
                m.moves += fc.moves;
                m.main_line_moves += main;
                let errors = fc.diagnostics.iter().filter(|d| d.severity == Severity::Error).count();
                m.errors += errors;
                m.warnings += fc.diagnostics.iter().filter(|d| d.severity == Severity::Warning).count();
                m.files_with_errors += usize::from(errors > 0);
                m.files += 1;
                m.bytes += b.len() as u64;
                timed.push(b);
            }
            Err(_) => {
                eprintln!("check bench: {label}: kifu PANICKED on {} (left out of the timed runs)", p.display());
                m.panicked.push(p.clone());
            }
        }
    }

    for run in 0..runs {
        // Parse only: decode + parse into the model, drop.
        let cpu_start = thread_cpu_time();
        let start = Instant::now();
        let mut games = 0usize;
        for b in &timed {
            let parsed = kifu::sgf::parse(black_box(b), &opts.parse);
            games += parsed.collection.games.len();
            black_box(&parsed);
        }
        m.parse.push(start.elapsed());
        record_cpu(&mut m.parse_cpu, cpu_start);
        black_box(games);

        // Check: parse + property checks + replay of every variation, drop.
        let cpu_start = thread_cpu_time();
        let start = Instant::now();
        let mut moves = 0usize;
        for b in &timed {
            let fc = check_bytes(black_box(b), &opts);
            moves += fc.moves;
            black_box(&fc);
        }
        m.check.push(start.elapsed());
        record_cpu(&mut m.check_cpu, cpu_start);
        black_box(moves);

        eprintln!(
            "check bench: {label}: run {}/{runs}: parse {:.3} s, check {:.3} s ({:.0} games/s)",
            run + 1,
            m.parse[run].as_secs_f64(),
            m.check[run].as_secs_f64(),
            m.games as f64 / m.check[run].as_secs_f64()
        );
    }
    m
}

/// Time the calling thread has spent on a CPU, from
/// `/proc/thread-self/schedstat`: unlike wall time, it leaves out the time
/// other processes held the CPU. `None` where the file does not exist.
fn thread_cpu_time() -> Option<Duration> {
    let s = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let ns: u64 = s.split_whitespace().next()?.parse().ok()?;
    Some(Duration::from_nanos(ns))
}

fn record_cpu(times: &mut Option<Vec<Duration>>, start: Option<Duration>) {
    match (start, thread_cpu_time()) {
        (Some(a), Some(b)) if times.is_some() => times.as_mut().unwrap().push(b.saturating_sub(a)),
        _ => *times = None,
    }
}

fn secs(times: &[Duration]) -> Vec<f64> {
    times.iter().map(Duration::as_secs_f64).collect()
}

fn median(times: &[Duration]) -> f64 {
    let mut s = secs(times);
    s.sort_by(f64::total_cmp);
    let m = s.len() / 2;
    if s.len() % 2 == 1 { s[m] } else { (s[m - 1] + s[m]) / 2.0 }
}

fn spread(times: &[Duration]) -> (f64, f64) {
    let s = secs(times);
    (s.iter().copied().fold(f64::INFINITY, f64::min), s.iter().copied().fold(0.0, f64::max))
}

/// Median figures of one measurement.
struct Figures {
    check_s: f64,
    parse_s: f64,
    games_per_s: f64,
    moves_per_s: f64,
    mb_per_s: f64,
    us_per_game: f64,
    parse_us_per_game: f64,
    replay_us_per_game: f64,
    /// games/s on the thread's CPU time (less disturbed by other load).
    games_per_cpu_s: Option<f64>,
    parse_us_per_game_cpu: Option<f64>,
    replay_us_per_game_cpu: Option<f64>,
}

fn figures(m: &Measured) -> Figures {
    let check_s = median(&m.check);
    let parse_s = median(&m.parse);
    let games = m.games.max(1) as f64;
    Figures {
        check_s,
        parse_s,
        games_per_s: m.games as f64 / check_s,
        moves_per_s: m.moves as f64 / check_s,
        mb_per_s: m.bytes as f64 / 1e6 / check_s,
        us_per_game: check_s * 1e6 / games,
        parse_us_per_game: parse_s * 1e6 / games,
        replay_us_per_game: (check_s - parse_s) * 1e6 / games,
        games_per_cpu_s: m.check_cpu.as_ref().map(|c| m.games as f64 / median(c)),
        parse_us_per_game_cpu: m.parse_cpu.as_ref().map(|c| median(c) * 1e6 / games),
        replay_us_per_game_cpu: match (&m.check_cpu, &m.parse_cpu) {
            (Some(c), Some(p)) => Some((median(c) - median(p)) * 1e6 / games),
            _ => None,
        },
    }
}

fn print_report(results: &[Measured], runs: usize) {
    println!();
    println!("| set | files | games | moves | MB | games/s | moves/s | MB/s | µs/game | parse µs/game | checks+replay µs/game |");
    println!("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
    for m in results {
        let f = figures(m);
        println!(
            "| {} | {} | {} | {} | {:.1} | {:.0} | {:.0} | {:.1} | {:.2} | {:.2} | {:.2} |",
            m.label,
            m.files,
            m.games,
            m.moves,
            m.bytes as f64 / 1e6,
            f.games_per_s,
            f.moves_per_s,
            f.mb_per_s,
            f.us_per_game,
            f.parse_us_per_game,
            f.replay_us_per_game,
        );
    }
    println!();
    println!(
        "kifu::check::check_bytes with CheckOptions::default() (parse + property checks + replay of every variation), \
         median of {runs} runs, single thread; parse µs/game = kifu::sgf::parse alone, timed in the same runs; \
         checks+replay = the difference. moves = B/W properties replayed, all variations. MB = 10^6 bytes."
    );
    println!("Machine: {} ({} logical CPUs); date: {} UTC.", cpu_model(), nproc(), utc_now());
    println!();
    println!(
        "| set | main-line moves | files with errors | errors | warnings | check run s (min / median / max) | parse run s (min / median / max) | games/s on CPU time | parse / checks+replay µs/game on CPU time | panicked |"
    );
    println!("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
    for m in results {
        let (cmin, cmax) = spread(&m.check);
        let (pmin, pmax) = spread(&m.parse);
        let f = figures(m);
        let cpu = f.games_per_cpu_s.map_or("n/a".to_string(), |g| format!("{g:.0}"));
        let split = match (f.parse_us_per_game_cpu, f.replay_us_per_game_cpu) {
            (Some(p), Some(r)) => format!("{p:.2} / {r:.2}"),
            _ => "n/a".to_string(),
        };
        println!(
            "| {} | {} | {} | {} | {} | {:.3} / {:.3} / {:.3} | {:.3} / {:.3} / {:.3} | {} | {} | {} |",
            m.label,
            m.main_line_moves,
            m.files_with_errors,
            m.errors,
            m.warnings,
            cmin,
            median(&m.check),
            cmax,
            pmin,
            median(&m.parse),
            pmax,
            cpu,
            split,
            m.panicked.len(),
        );
    }
}

fn json_report(results: &[Measured], runs: usize, corpus: Option<&Path>) -> String {
    let items: Vec<serde_json::Value> = results
        .iter()
        .map(|m| {
            let f = figures(m);
            serde_json::json!({
                "label": m.label,
                "kind": m.kind,
                "files": m.files,
                "bytes": m.bytes,
                "games": m.games,
                "moves": m.moves,
                "main_line_moves": m.main_line_moves,
                "files_with_errors": m.files_with_errors,
                "errors": m.errors,
                "warnings": m.warnings,
                "panicked": m.panicked.iter().map(|p| p.to_string_lossy().into_owned()).collect::<Vec<_>>(),
                "check_s": secs(&m.check),
                "parse_s": secs(&m.parse),
                "check_cpu_s": m.check_cpu.as_deref().map(secs),
                "parse_cpu_s": m.parse_cpu.as_deref().map(secs),
                "median": {
                    "check_s": f.check_s,
                    "parse_s": f.parse_s,
                    "games_per_s": f.games_per_s,
                    "moves_per_s": f.moves_per_s,
                    "mb_per_s": f.mb_per_s,
                    "us_per_game": f.us_per_game,
                    "parse_us_per_game": f.parse_us_per_game,
                    "replay_us_per_game": f.replay_us_per_game,
                    "games_per_cpu_s": f.games_per_cpu_s,
                    "parse_us_per_game_cpu": f.parse_us_per_game_cpu,
                    "replay_us_per_game_cpu": f.replay_us_per_game_cpu,
                },
            })
        })
        .collect();
    let doc = serde_json::json!({
        "bench": "check",
        "runs": runs,
        "corpus": corpus.map(|p| p.to_string_lossy().into_owned()),
        "cpu": cpu_model(),
        "nproc": nproc(),
        "date_utc": utc_now(),
        "results": items,
    });
    serde_json::to_string_pretty(&doc).expect("json") + "\n"
}

/// Logical CPUs of the machine (not only those this process may run on).
fn nproc() -> usize {
    std::fs::read_to_string("/proc/cpuinfo")
        .map(|s| s.lines().filter(|l| l.starts_with("processor")).count())
        .ok()
        .filter(|&n| n > 0)
        .unwrap_or_else(|| std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1))
}
