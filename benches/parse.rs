//! Parse throughput: `kifu::sgf::parse` against the `sgf-parse` crate, in
//! the same process, on the real-game corpus in `../shared/corpus`.
//!
//! ```text
//! cargo bench --bench parse                 # every set: kgs, fox-pro, ai-games, all
//! cargo bench --bench parse -- kgs fox-pro  # only these sets
//! BENCH_RUNS=9 cargo bench --bench parse -- kgs
//! KIFU_CORPUS=/path/to/corpus cargo bench --bench parse
//! ```
//!
//! For each set: every file is read into memory first, and decoded once with
//! `String::from_utf8_lossy` for sgf-parse (which needs `&str`); then both
//! parsers go over every file of the set, single-threaded, in alternating
//! runs (kifu, sgf-parse, kifu, sgf-parse, ...), `BENCH_RUNS` times each
//! (default 5). The reported figure is the median run. Only parsing (and
//! dropping the result) is timed. See benches/README.md.

use std::hint::black_box;
use std::panic::{self, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

mod common;
use common::{collect_sgf, cpu_model, utc_now};

use kifu::diag::Severity;
use kifu::sgf::ParseOptions;

/// The sets, in report order: (name, folder under the corpus; "" = whole corpus).
const SETS: &[(&str, &str)] = &[("kgs", "kgs"), ("fox-pro", "fox-pro"), ("ai-games", "ai-games"), ("all", "")];

fn main() {
    // sgf-parse builds its trees by recursion (and drops them the same way),
    // so a very deep file in the suites could overflow the main thread's
    // stack; give the whole benchmark a large (lazily committed) stack.
    let worker = std::thread::Builder::new().name("bench-parse".into()).stack_size(1 << 30).spawn(run).expect("spawn benchmark thread");
    let code = worker.join().unwrap_or(2);
    std::process::exit(code);
}

fn run() -> i32 {
    let mut wanted: Vec<String> = Vec::new();
    for arg in std::env::args().skip(1) {
        // `cargo bench` passes `--bench` (and libtest-style flags) to harness=false benches.
        if arg.starts_with('-') {
            continue;
        }
        if !SETS.iter().any(|(name, _)| *name == arg) {
            eprintln!("unknown set `{arg}`; known sets: {}", SETS.iter().map(|(n, _)| *n).collect::<Vec<_>>().join(", "));
            return 2;
        }
        wanted.push(arg);
    }

    let runs: usize = match std::env::var("BENCH_RUNS") {
        Ok(v) => match v.trim().parse::<usize>() {
            Ok(n) if n > 0 => n,
            _ => {
                eprintln!("BENCH_RUNS must be a positive integer, got `{v}`");
                return 2;
            }
        },
        Err(_) => 5,
    };

    let corpus = match std::env::var_os("KIFU_CORPUS") {
        Some(p) => PathBuf::from(p),
        None => Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus"),
    };
    if !corpus.is_dir() {
        println!("parse bench: SKIPPED: corpus not found at {} (set KIFU_CORPUS to its location)", corpus.display());
        return 0;
    }

    eprintln!("parse bench: corpus {}, {runs} runs per parser, median reported", corpus.display());

    // sgf-parse is not expected to panic, but a benchmark over messy real
    // files must not die on one: the untimed check pass catches panics, and
    // keeps the panic messages quiet.
    let default_hook = panic::take_hook();
    panic::set_hook(Box::new(|_| {}));

    let mut rows = Vec::new();
    for &(name, folder) in SETS {
        if !wanted.is_empty() && !wanted.iter().any(|w| w == name) {
            continue;
        }
        let dir = if folder.is_empty() { corpus.clone() } else { corpus.join(folder) };
        if !dir.is_dir() {
            eprintln!("parse bench: set {name}: SKIPPED, {} not found", dir.display());
            continue;
        }
        rows.push(bench_set(name, &dir, runs));
    }
    panic::set_hook(default_hook);

    if rows.is_empty() {
        println!("parse bench: SKIPPED: no set found under {}", corpus.display());
        return 0;
    }
    print_report(&rows, runs);
    0
}

/// What one set measured.
struct Row {
    name: &'static str,
    files: usize,
    bytes: u64,
    kifu: Vec<Duration>,
    peer: Vec<Duration>,
    /// On-CPU time of the benchmark thread for each run, when the kernel tells it.
    kifu_cpu: Option<Vec<Duration>>,
    peer_cpu: Option<Vec<Duration>>,
    /// Raw bytes of the files given to sgf-parse in the timed runs (all but panics).
    peer_bytes: u64,
    peer_files: usize,
    peer_rejected: usize,
    peer_panicked: usize,
    kifu_games: usize,
    kifu_nodes: usize,
    kifu_files_with_errors: usize,
    peer_games: usize,
    peer_nodes: usize,
}

fn bench_set(name: &'static str, dir: &Path, runs: usize) -> Row {
    let mut paths = Vec::new();
    collect_sgf(dir, &mut paths);
    paths.sort();
    let data: Vec<Vec<u8>> = paths
        .iter()
        .filter_map(|p| match std::fs::read(p) {
            Ok(b) => Some(b),
            Err(e) => {
                eprintln!("parse bench: cannot read {}: {e}", p.display());
                None
            }
        })
        .collect();
    let bytes: u64 = data.iter().map(|b| b.len() as u64).sum();
    eprintln!("parse bench: set {name}: {} files, {:.1} MB loaded", data.len(), bytes as f64 / 1e6);

    // sgf-parse takes &str: decode before timing, once.
    let texts: Vec<String> = data.iter().map(|b| String::from_utf8_lossy(b).into_owned()).collect();

    let opts = ParseOptions::default();

    // Untimed check pass (also a warm-up): what each parser reads, and which
    // files sgf-parse rejects (Err) or panics on.
    let (mut kifu_games, mut kifu_nodes, mut kifu_files_with_errors) = (0, 0, 0);
    for b in &data {
        let parsed = kifu::sgf::parse(b, &opts);
        kifu_games += parsed.collection.games.len();
        kifu_nodes += parsed.collection.games.iter().map(|g| g.len()).sum::<usize>();
        if parsed.diagnostics.iter().any(|d| d.severity == Severity::Error) {
            kifu_files_with_errors += 1;
        }
    }
    let (mut peer_games, mut peer_nodes, mut peer_rejected, mut peer_panicked) = (0, 0, 0, 0);
    let mut peer_texts: Vec<&str> = Vec::with_capacity(texts.len());
    let mut peer_bytes = 0u64;
    for (text, raw) in texts.iter().zip(&data) {
        match panic::catch_unwind(AssertUnwindSafe(|| sgf_parse::parse(text))) {
            Ok(Ok(trees)) => {
                peer_games += trees.len();
                peer_nodes += trees.iter().map(peer_node_count).sum::<usize>();
            }
            Ok(Err(_)) => peer_rejected += 1,
            Err(_) => {
                peer_panicked += 1;
                continue;
            }
        }
        peer_texts.push(text);
        peer_bytes += raw.len() as u64;
    }

    let mut kifu = Vec::with_capacity(runs);
    let mut peer = Vec::with_capacity(runs);
    let mut kifu_cpu = Some(Vec::with_capacity(runs));
    let mut peer_cpu = Some(Vec::with_capacity(runs));
    for run in 0..runs {
        // kifu: parse, count nodes from the model, drop.
        let cpu_start = thread_cpu_time();
        let start = Instant::now();
        let mut nodes = 0usize;
        for b in &data {
            let parsed = kifu::sgf::parse(black_box(b), &opts);
            nodes += parsed.collection.games.iter().map(|g| g.len()).sum::<usize>();
            black_box(&parsed);
        }
        kifu.push(start.elapsed());
        record_cpu(&mut kifu_cpu, cpu_start);
        black_box(nodes);

        // sgf-parse: parse, count games (its node count needs a tree walk,
        // which is done in the check pass, not here), drop.
        let cpu_start = thread_cpu_time();
        let start = Instant::now();
        let mut games = 0usize;
        for text in &peer_texts {
            let result = sgf_parse::parse(black_box(text));
            if let Ok(trees) = &result {
                games += trees.len();
            }
            black_box(&result);
        }
        peer.push(start.elapsed());
        record_cpu(&mut peer_cpu, cpu_start);
        black_box(games);

        eprintln!("parse bench: set {name}: run {}/{runs}: kifu {:.3} s, sgf-parse {:.3} s", run + 1, kifu[run].as_secs_f64(), peer[run].as_secs_f64());
    }

    Row {
        name,
        files: data.len(),
        bytes,
        kifu,
        peer,
        kifu_cpu,
        peer_cpu,
        peer_bytes,
        peer_files: peer_texts.len(),
        peer_rejected,
        peer_panicked,
        kifu_games,
        kifu_nodes,
        kifu_files_with_errors,
        peer_games,
        peer_nodes,
    }
}

fn peer_node_count(tree: &sgf_parse::GameTree) -> usize {
    match tree {
        sgf_parse::GameTree::GoGame(root) => count_nodes(root),
        sgf_parse::GameTree::Unknown(root) => count_nodes(root),
    }
}

fn count_nodes<P: sgf_parse::SgfProp>(root: &sgf_parse::SgfNode<P>) -> usize {
    let mut stack = vec![root];
    let mut n = 0;
    while let Some(node) = stack.pop() {
        n += 1;
        stack.extend(node.children());
    }
    n
}

/// Time the calling thread has spent on a CPU (user + system), from
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

fn median(times: &[Duration]) -> f64 {
    let mut s: Vec<f64> = times.iter().map(Duration::as_secs_f64).collect();
    s.sort_by(f64::total_cmp);
    let m = s.len() / 2;
    if s.len() % 2 == 1 { s[m] } else { (s[m - 1] + s[m]) / 2.0 }
}

fn spread(times: &[Duration]) -> (f64, f64) {
    let s = times.iter().map(Duration::as_secs_f64);
    (s.clone().fold(f64::INFINITY, f64::min), s.fold(0.0, f64::max))
}

fn print_report(rows: &[Row], runs: usize) {
    println!();
    println!("| set | files | MB | kifu MB/s | kifu files/s | sgf-parse MB/s | sgf-parse files/s | ratio | sgf-parse rejected |");
    println!("|---|---:|---:|---:|---:|---:|---:|---:|---:|");
    for r in rows {
        let kt = median(&r.kifu);
        let pt = median(&r.peer);
        let k_mbs = r.bytes as f64 / 1e6 / kt;
        let p_mbs = r.peer_bytes as f64 / 1e6 / pt;
        let rejected =
            if r.peer_panicked > 0 { format!("{} (+{} panicked, not timed)", r.peer_rejected, r.peer_panicked) } else { r.peer_rejected.to_string() };
        println!(
            "| {} | {} | {:.1} | {:.1} | {:.0} | {:.1} | {:.0} | {:.1}x | {} |",
            r.name,
            r.files,
            r.bytes as f64 / 1e6,
            k_mbs,
            r.files as f64 / kt,
            p_mbs,
            r.peer_files as f64 / pt,
            k_mbs / p_mbs,
            rejected,
        );
    }
    println!();
    println!(
        "Median of {runs} alternating runs, single thread; MB = 10^6 bytes of raw file; \
         ratio = kifu MB/s / sgf-parse MB/s."
    );
    println!("Machine: {} ({} logical CPUs); date: {} UTC.", cpu_model(), nproc(), utc_now());
    println!();
    println!(
        "Details: games and nodes from the untimed check pass; run spread; the ratio from the fastest runs and from on-CPU time (both less sensitive to other load on the machine):"
    );
    println!();
    println!(
        "| set | kifu games | kifu nodes | kifu files with errors | sgf-parse games | sgf-parse nodes | kifu run s (min / median / max) | sgf-parse run s (min / median / max) | ratio, fastest runs | ratio, median CPU time |"
    );
    println!("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
    for r in rows {
        let (kmin, kmax) = spread(&r.kifu);
        let (pmin, pmax) = spread(&r.peer);
        let per_byte = |t: f64, bytes: u64| bytes as f64 / t;
        let best = per_byte(kmin, r.bytes) / per_byte(pmin, r.peer_bytes);
        let cpu = match (&r.kifu_cpu, &r.peer_cpu) {
            (Some(k), Some(p)) => format!("{:.1}x", per_byte(median(k), r.bytes) / per_byte(median(p), r.peer_bytes)),
            _ => "n/a".to_string(),
        };
        println!(
            "| {} | {} | {} | {} | {} | {} | {:.3} / {:.3} / {:.3} | {:.3} / {:.3} / {:.3} | {:.1}x | {} |",
            r.name,
            r.kifu_games,
            r.kifu_nodes,
            r.kifu_files_with_errors,
            r.peer_games,
            r.peer_nodes,
            kmin,
            median(&r.kifu),
            kmax,
            pmin,
            median(&r.peer),
            pmax,
            best,
            cpu,
        );
    }
}

fn nproc() -> usize {
    std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1)
}
