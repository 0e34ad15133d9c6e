//! What the benchmarks share: describing the machine and the moment,
//! finding the corpus and running over its files. Each bench uses part of it.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

/// The CPU model, from /proc/cpuinfo.
pub fn cpu_model() -> String {
    std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|s| s.lines().find(|l| l.starts_with("model name")).and_then(|l| l.split_once(':')).map(|(_, v)| v.trim().to_string()))
        .unwrap_or_else(|| "unknown CPU".to_string())
}

/// Current UTC date and time as `YYYY-MM-DD HH:MM`, without a date crate.
pub fn utc_now() -> String {
    let secs = SystemTime::now().duration_since(UNIX_EPOCH).map(|d| d.as_secs()).unwrap_or(0) as i64;
    let (days, rem) = (secs.div_euclid(86_400), secs.rem_euclid(86_400));
    // Civil date from days since 1970-01-01 (H. Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + if m <= 2 { 1 } else { 0 };
    format!("{y:04}-{m:02}-{d:02} {:02}:{:02}", rem / 3600, rem % 3600 / 60)
}

/// Every `*.sgf` file under `dir` (extension compared case-insensitively, so `.SGF` too).
pub fn collect_sgf(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        eprintln!("bench: cannot list {}", dir.display());
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        let Ok(kind) = entry.file_type() else { continue };
        if kind.is_dir() {
            collect_sgf(&path, out);
        } else if path.extension().is_some_and(|e| e.eq_ignore_ascii_case("sgf")) {
            out.push(path);
        }
    }
}

/// The corpus: `KIFU_CORPUS`, else `../shared/corpus` beside the crate.
pub fn corpus() -> PathBuf {
    match std::env::var_os("KIFU_CORPUS") {
        Some(dir) => PathBuf::from(dir),
        None => Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus"),
    }
}

/// `f` over every `*.sgf` file under `dir`, sorted, on `BENCH_JOBS` threads
/// (default 2), each taking every n-th file so that each gets games of
/// every period; the files' results in thread order (callers sort them).
pub fn over_files<T: Send, I: IntoIterator<Item = T>>(dir: &Path, f: impl Fn(&Path) -> I + Sync) -> (Vec<PathBuf>, usize, Vec<T>) {
    let jobs: usize = std::env::var("BENCH_JOBS").ok().and_then(|v| v.parse().ok()).filter(|&n| n > 0).unwrap_or(2);
    let mut files = Vec::new();
    collect_sgf(dir, &mut files);
    files.sort();
    let results = std::thread::scope(|s| {
        let workers: Vec<_> = (0..jobs)
            .map(|k| {
                let (files, f) = (&files, &f);
                s.spawn(move || files.iter().skip(k).step_by(jobs).flat_map(|p| f(p)).collect::<Vec<_>>())
            })
            .collect();
        workers.into_iter().flat_map(|w| w.join().expect("no panic")).collect()
    });
    (files, jobs, results)
}
