//! How often `kifu check --score` warns (`result-mismatch`) on the counted
//! KGS games of the corpus, whose `RE[]` the KGS server computed, and how
//! often it warns on copies of them whose `RE` is altered: the winner
//! flipped (`B+3.5` -> `W+3.5`), or the margin moved by 10 points
//! (`B+3.5` -> `B+13.5`). Every game is scored by `kifu::score::score_game`
//! as `check --score` scores it (markup when the last node has some,
//! otherwise the estimate), each altered copy parsed again from its bytes.
//!
//! ```text
//! cargo bench --bench mismatch               # the figures: all, tuning half, held-out half
//! cargo bench --bench mismatch -- list       # and every warning on a recorded RE, with its message
//! BENCH_SEEDS=4 cargo bench --bench mismatch # also the figures under 3 other seeds of the estimator
//! cargo bench --bench mismatch -- gnugo      # and each warning with GNU Go's count of the same game
//! BENCH_JOBS=1 KIFU_CORPUS=/path/to/corpus cargo bench --bench mismatch
//! ```
//!
//! The games: KGS games whose `RE[]` has a margin and whose line ends with
//! two passes (draws are left out of the winner flips). The halves are
//! those of `benches/accuracy.rs`: `kgs/KGS2001`-`KGS2003` (tuning) and
//! `kgs/kgs-19-2006`, `kgs/kgs-19-2017-*` (held out).

use std::collections::BTreeMap;
use std::path::Path;
use std::time::Instant;

use kifu::report::escape;
use kifu::score::result::{GameResult, Outcome, read_result};
use kifu::score::verify::{Cause, Suspicion};
use kifu::score::{GameScore, ScoreOptions, score_game};

mod common;
use common::{corpus, cpu_model, over_files, utc_now};

/// What check --score made of one counted game and its altered copies.
struct Row {
    name: String,
    tuning: bool,
    /// Area counting (GNU Go is told so).
    area: bool,
    /// The recorded RE: `result-mismatch` or not, and the message parts.
    recorded: Judged,
    /// The altered copies (flipped winner, margin +10).
    altered: Vec<Judged>,
}

struct Judged {
    warned: bool,
    cause: &'static str,
    text: String,
    /// The RE judged, and the recount, as `B+12.5`.
    recorded: String,
    result: String,
}

fn judged(s: &GameScore) -> Judged {
    let cause = match &s.verdict.cause {
        None => "agrees",
        Some(Cause::Komi { .. }) => "komi",
        Some(Cause::OtherWinner { .. }) => "other winner",
        Some(Cause::WinnerUnrecorded { .. }) => "winner not recorded",
        Some(Cause::Convention { .. }) => "convention",
        Some(Cause::Groups { why: Suspicion::NotConfident, .. }) => "groups, not confident",
        Some(Cause::Groups { why: Suspicion::Race, .. }) => "groups, race",
        Some(Cause::Groups { why: Suspicion::Uncaptured, .. }) => "groups, uncaptured",
        Some(Cause::Groups { why: Suspicion::OpenKo, .. }) => "groups, open ko",
        Some(Cause::Groups { why: Suspicion::Playouts, .. }) => "groups, other playouts",
        Some(Cause::Small { .. }) => "a point or two",
        Some(Cause::Unfinished { .. }) => "unfinished",
        Some(Cause::NoneFound) if s.verdict.doubts.is_empty() => "none found, sure",
        Some(Cause::NoneFound) => "none found, with doubts",
    };
    let text = format!("RE[{}] recount {}: {}", s.recorded.as_deref().unwrap_or(""), s.result, s.verdict.explanation());
    Judged { warned: s.verdict.is_mismatch(), cause, text, recorded: s.recorded.clone().unwrap_or_default(), result: s.result.clone() }
}

/// The RE values a test writes in place of a recorded result.
fn alterations(result: &GameResult) -> Vec<String> {
    let GameResult::Win { winner, outcome: Outcome::Score(m) } = *result else { return Vec::new() };
    vec![format!("{}+{m}", winner.opponent().letter()), format!("{}+{}", winner.letter(), m + 10.0)]
}

fn score(bytes: &[u8], seed: u64) -> Option<GameScore> {
    let parsed = kifu::sgf::parse(bytes, &Default::default());
    let game = parsed.collection.games.first()?;
    score_game(game, &ScoreOptions { estimate_seed: seed, ..Default::default() }).ok()
}

fn judge_file(kgs: &Path, path: &Path, seed: u64) -> Option<Row> {
    let bytes = std::fs::read(path).ok()?;
    let original = score(&bytes, seed)?;
    let re = original.recorded.clone()?;
    let result = read_result(&re).ok()?.result;
    if result.margin().is_none() || !original.finished {
        return None;
    }
    let written = format!("RE[{re}]");
    let text = String::from_utf8_lossy(&bytes);
    let altered = alterations(&result)
        .iter()
        .filter(|_| text.contains(&written))
        .map(|value| text.replacen(&written, &format!("RE[{value}]"), 1))
        .filter_map(|copy| score(copy.as_bytes(), seed))
        .map(|s| judged(&s))
        .collect();
    let name = path.strip_prefix(kgs).unwrap_or(path).display().to_string();
    let tuning = ["KGS2001", "KGS2002", "KGS2003"].iter().any(|half| name.starts_with(half));
    let area = original.scoring == kifu::rules::Scoring::Area;
    Some(Row { name, tuning, area, recorded: judged(&original), altered })
}

fn pct(n: usize, d: usize) -> String {
    if d == 0 { "n/a".to_string() } else { format!("{:.2}% ({n} of {d})", 100.0 * n as f64 / d as f64) }
}

fn report(label: &str, rows: &[&Row]) {
    let warned = rows.iter().filter(|r| r.recorded.warned).count();
    let altered: Vec<&Judged> = rows.iter().flat_map(|r| &r.altered).collect();
    let caught = altered.iter().filter(|j| j.warned).count();
    println!("  {label:<40} games {:>5}  result-mismatch {:<20} altered RE caught {}", rows.len(), pct(warned, rows.len()), pct(caught, altered.len()));
}

fn causes<'a>(label: &str, judged: impl Iterator<Item = &'a Judged>) {
    let mut by_cause: BTreeMap<&str, (usize, usize)> = BTreeMap::new();
    for j in judged {
        let e = by_cause.entry(j.cause).or_default();
        e.0 += 1;
        e.1 += usize::from(j.warned);
    }
    let parts: Vec<String> = by_cause.iter().map(|(cause, (n, w))| format!("{cause} {n} ({w} warned)")).collect();
    println!("  {label}: {}", parts.join(", "));
}

fn main() {
    let list = std::env::args().skip(1).any(|a| a == "list");
    let gnugo = std::env::args().skip(1).any(|a| a == "gnugo");
    let kgs = corpus().join("kgs");
    if !kgs.is_dir() {
        println!("mismatch bench: SKIPPED: {} is absent (the corpus is not part of a user's clone)", kgs.display());
        return;
    }
    let t = Instant::now();
    let (files, jobs, mut rows) = over_files(&kgs, |f| judge_file(&kgs, f, 0));
    rows.sort_by(|a, b| a.name.cmp(&b.name));
    println!(
        "mismatch bench: {} KGS files, {} counted games (RE with a margin, two passes), in {:.1?} ({jobs} threads); {} {}",
        files.len(),
        rows.len(),
        t.elapsed(),
        cpu_model(),
        utc_now()
    );
    let all: Vec<&Row> = rows.iter().collect();
    let tuning: Vec<&Row> = rows.iter().filter(|r| r.tuning).collect();
    let held: Vec<&Row> = rows.iter().filter(|r| !r.tuning).collect();
    report("all", &all);
    report("tuning (KGS2001-KGS2003)", &tuning);
    report("held out (kgs-19-2006, kgs-19-2017-*)", &held);
    causes("recorded RE, by cause", rows.iter().map(|r| &r.recorded));
    causes("altered RE, by cause", rows.iter().flat_map(|r| &r.altered));
    let seeds: u64 = std::env::var("BENCH_SEEDS").ok().and_then(|v| v.parse().ok()).unwrap_or(1);
    if seeds > 1 {
        seed_spread(&kgs, &rows, seeds);
    }
    if list {
        for r in rows.iter().filter(|r| r.recorded.warned) {
            println!("WARNED {} {}", escape::text(&r.name), escape::text(&r.recorded.text));
        }
    }
    if gnugo {
        gnugo_on_warnings(&kgs, &rows);
    }
}

/// Each warning on a recorded RE beside GNU Go's count of the same game
/// (`gnugo --score aftermath`, which plays the position out before
/// counting), and how many of them GNU Go's count backs: where it gives
/// kifu's recount, RE is not what the position counts to (the players
/// marked the dead stones otherwise when the server counted); where it
/// gives RE, kifu's recount is the one in error.
fn gnugo_on_warnings(kgs: &Path, rows: &[Row]) {
    let Some(gnugo) = ["gnugo", "/usr/games/gnugo"].into_iter().find(|g| std::process::Command::new(g).arg("--version").output().is_ok()) else {
        println!("  gnugo: SKIPPED: GNU Go is not installed (Debian package gnugo)");
        return;
    };
    let warned: Vec<&Row> = rows.iter().filter(|r| r.recorded.warned).collect();
    let jobs: usize = std::env::var("BENCH_JOBS").ok().and_then(|v| v.parse().ok()).filter(|&n| n > 0).unwrap_or(2);
    let mut counts: Vec<(usize, Option<String>)> = std::thread::scope(|s| {
        let workers: Vec<_> = (0..jobs)
            .map(|k| {
                let warned = &warned;
                s.spawn(move || {
                    let mine = warned.iter().enumerate().skip(k).step_by(jobs);
                    mine.map(|(i, r)| (i, gnugo_count(gnugo, &kgs.join(&r.name), r.area))).collect::<Vec<_>>()
                })
            })
            .collect();
        workers.into_iter().flat_map(|w| w.join().expect("no panic")).collect()
    });
    counts.sort_by_key(|&(i, _)| i);
    let mut tally: BTreeMap<&str, usize> = BTreeMap::new();
    for (r, (_, count)) in warned.iter().zip(&counts) {
        let recorded = &r.recorded.recorded;
        let kind = match count.as_deref().and_then(lead) {
            None => "GNU Go gave no count",
            Some(g) => {
                let (kifu, re) = (lead(&r.recorded.result).unwrap_or(f64::NAN), lead(recorded).unwrap_or(f64::NAN));
                if g == kifu {
                    "GNU Go's count is kifu's"
                } else if g == re {
                    "GNU Go's count is RE"
                } else if (g - kifu).abs() < (g - re).abs() {
                    "GNU Go's count is nearer kifu's"
                } else {
                    "GNU Go's count is nearer RE"
                }
            }
        };
        *tally.entry(kind).or_default() += 1;
        println!("GNUGO {} RE[{}] kifu {} gnugo {}: {kind}", escape::text(&r.name), escape::text(recorded), r.recorded.result, count.as_deref().unwrap_or("?"));
    }
    let parts: Vec<String> = tally.iter().map(|(k, n)| format!("{k} {n}")).collect();
    println!("  warnings on recorded REs, by GNU Go's count of the game: {}", parts.join(", "));
}

/// GNU Go's result of the game in the file, as `W+12.5` (`0` for a draw).
fn gnugo_count(gnugo: &str, path: &Path, area: bool) -> Option<String> {
    let mut command = std::process::Command::new(gnugo);
    command.args(["--score", "aftermath", "-l"]).arg(path);
    if area {
        command.arg("--chinese-rules");
    }
    let out = command.output().ok()?;
    let text = String::from_utf8_lossy(&out.stdout);
    let line = text.lines().find(|l| l.contains(" wins by "))?;
    let winner = if line.trim_start().starts_with("White") { "W" } else { "B" };
    let margin = line.split(" wins by ").nth(1)?.split_whitespace().next()?;
    Some(format!("{winner}+{margin}"))
}

/// A result as Black's lead (`W+3.50` -> -3.5, `0` -> 0), read as kifu
/// reads RE.
fn lead(result: &str) -> Option<f64> {
    let result = read_result(result).ok()?.result;
    let margin = result.margin()?;
    Some(if result.winner() == Some(kifu::board::Color::White) { -margin } else { margin })
}

/// The figures with the estimator's random numbers drawn from other seeds:
/// a figure that moves by a few games from one seed to the next is within
/// that noise.
fn seed_spread(kgs: &Path, rows: &[Row], seeds: u64) {
    let mut figures: Vec<[(usize, usize); 3]> = vec![figures_of(rows)];
    for seed in 1..seeds {
        let (_, _, mut other) = over_files(kgs, |f| judge_file(kgs, f, seed));
        other.sort_by(|a, b| a.name.cmp(&b.name));
        figures.push(figures_of(&other));
    }
    for (k, label) in ["all", "tuning", "held out"].into_iter().enumerate() {
        let warned: Vec<usize> = figures.iter().map(|f| f[k].0).collect();
        let caught: Vec<usize> = figures.iter().map(|f| f[k].1).collect();
        let mean = |v: &[usize]| v.iter().sum::<usize>() as f64 / v.len() as f64;
        println!(
            "  over {seeds} seeds, {label:<8}: result-mismatch {warned:?} (mean {:.1}), altered RE caught {caught:?} (mean {:.1})",
            mean(&warned),
            mean(&caught)
        );
    }
}

/// Warnings on recorded REs and altered REs caught: all, tuning half,
/// held-out half.
fn figures_of(rows: &[Row]) -> [(usize, usize); 3] {
    let of = |keep: &dyn Fn(&Row) -> bool| {
        let kept = rows.iter().filter(|r| keep(r));
        let warned = kept.clone().filter(|r| r.recorded.warned).count();
        (warned, kept.flat_map(|r| &r.altered).filter(|j| j.warned).count())
    };
    [of(&|_| true), of(&|r| r.tuning), of(&|r| !r.tuning)]
}
