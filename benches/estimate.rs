//! Dead-stone estimate speed: `kifu::score::estimate::estimate` on the
//! final positions of the KGS games in `../shared/corpus/kgs`.
//!
//! ```text
//! cargo bench --bench estimate                 # the counted games (RE with a margin)
//! cargo bench --bench estimate -- all          # every game that ends with two passes
//! BENCH_RUNS=9 KIFU_CORPUS=/path/to/corpus cargo bench --bench estimate
//! ```
//!
//! Every file is read, parsed and replayed to the last node of its main
//! line before timing (untimed). Then `BENCH_RUNS` runs (default 5), single
//! thread, each estimating every position once and timing each call. The
//! figures: the median run's total divided by the positions (mean µs per
//! game), and the median over positions of each position's median time
//! (the "median per-position time", the figure the ≤ 2 ms goal is about),
//! with the 90th and 99th percentiles and the slowest position, for 19x19
//! and for all sizes.

use std::hint::black_box;
use std::path::Path;
use std::time::Instant;

use kifu::board::Board;
use kifu::replay::{RuleOverrides, position_at};
use kifu::score::estimate::estimate;
use kifu::sgf::props;

mod common;
use common::corpus;

struct Position {
    name: String,
    board: Board,
}

fn counted(re: &str) -> bool {
    let re = re.trim();
    let rest = re.strip_prefix("B+").or_else(|| re.strip_prefix("W+"));
    rest.is_some_and(|r| r.trim().parse::<f64>().is_ok())
}

fn load(dir: &Path, all: bool) -> Vec<Position> {
    let mut out = Vec::new();
    let files = walkdir::WalkDir::new(dir)
        .sort_by_file_name()
        .into_iter()
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_file() && e.path().extension().is_some_and(|x| x.eq_ignore_ascii_case("sgf")));
    for entry in files {
        let Ok(bytes) = std::fs::read(entry.path()) else { continue };
        let parsed = kifu::sgf::parse(&bytes, &Default::default());
        for game in &parsed.collection.games {
            let root = game.root();
            if !all && !props::result(root).is_some_and(|r| counted(&r)) {
                continue;
            }
            let Some(last) = game.main_line().last() else { continue };
            let Some(pos) = position_at(game, last.id(), &RuleOverrides::default()) else { continue };
            if all && !pos.ended_by_passes {
                continue;
            }
            out.push(Position { name: entry.path().display().to_string(), board: pos.board });
        }
    }
    out
}

fn percentile(sorted: &[f64], q: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    sorted[((sorted.len() - 1) as f64 * q).round() as usize]
}

fn main() {
    let all = std::env::args().skip(1).any(|a| a == "all");
    let dir = corpus().join("kgs");
    if !dir.is_dir() {
        println!("estimate bench: SKIPPED: {} is absent (the corpus is not part of a user's clone)", dir.display());
        return;
    }
    let runs: usize = std::env::var("BENCH_RUNS").ok().and_then(|v| v.parse().ok()).filter(|&n| n > 0).unwrap_or(5);
    let t = Instant::now();
    let positions = load(&dir, all);
    let set = if all { "KGS games ending with two passes" } else { "KGS counted games (RE with a margin)" };
    println!("estimate bench: {} positions ({set}), loaded in {:.1?}; {runs} runs, single thread", positions.len(), t.elapsed());
    if positions.is_empty() {
        return;
    }
    // Warm-up, and a check that the answer is the same every time.
    let first: Vec<_> = positions.iter().map(|p| estimate(&p.board)).collect();
    let mut per_position = vec![Vec::with_capacity(runs); positions.len()];
    let mut totals = Vec::with_capacity(runs);
    for _ in 0..runs {
        let start = Instant::now();
        for (i, p) in positions.iter().enumerate() {
            let t = Instant::now();
            let e = black_box(estimate(black_box(&p.board)));
            per_position[i].push(t.elapsed().as_secs_f64());
            assert_eq!(e, first[i], "estimate is not deterministic on {}", p.name);
        }
        totals.push(start.elapsed().as_secs_f64());
    }
    totals.sort_by(f64::total_cmp);
    let median_total = totals[totals.len() / 2];
    let medians: Vec<(f64, usize)> = per_position
        .iter_mut()
        .enumerate()
        .map(|(i, v)| {
            v.sort_by(f64::total_cmp);
            (v[v.len() / 2], i)
        })
        .collect();
    let report = |label: &str, pick: &dyn Fn(&Board) -> bool| {
        let mut times: Vec<(f64, usize)> = medians.iter().copied().filter(|&(_, i)| pick(&positions[i].board)).collect();
        if times.is_empty() {
            return;
        }
        times.sort_by(|a, b| a.0.total_cmp(&b.0));
        let t: Vec<f64> = times.iter().map(|x| x.0).collect();
        let slowest = &positions[times[times.len() - 1].1].name;
        let mean = t.iter().sum::<f64>() / t.len() as f64;
        println!(
            "  {label}: {} positions; per position: median {:.0} µs, mean {:.0} µs, p90 {:.0} µs, p99 {:.0} µs, max {:.0} µs ({slowest})",
            t.len(),
            percentile(&t, 0.5) * 1e6,
            mean * 1e6,
            percentile(&t, 0.9) * 1e6,
            percentile(&t, 0.99) * 1e6,
            t[t.len() - 1] * 1e6,
        );
    };
    println!(
        "  whole set: median run {:.3} s ({:.0} µs per game; runs {:.3}..{:.3} s)",
        median_total,
        median_total / positions.len() as f64 * 1e6,
        totals[0],
        totals[totals.len() - 1]
    );
    report("19x19", &|b| b.width() == 19 && b.height() == 19);
    report("all sizes", &|_| true);
    let dead: usize = first.iter().map(|e| e.dead.len()).sum();
    let unsure: usize = first.iter().map(|e| e.unsure.len()).sum();
    let seki = first.iter().filter(|e| !e.seki_points.is_empty()).count();
    println!("  answers: {dead} dead stones, {unsure} unsure chains, {seki} positions with seki");
}
