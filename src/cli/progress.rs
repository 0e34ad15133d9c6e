//! The progress bar of `kifu check`: files done (of how many, once the
//! counting walk is over), files/s, games, errors so far and ETA, on
//! standard error. Shown only on a terminal: never in CI (`CI` set),
//! pipes, or with `--quiet`. Nothing is said before it is known: no rate
//! before it can be estimated, no ETA before the count.

use std::io::IsTerminal;
use std::time::Duration;

use indicatif::{HumanDuration, ProgressBar, ProgressDrawTarget, ProgressState, ProgressStyle};

use crate::check::FileCheck;
use crate::diag::Severity;

pub struct Progress {
    bar: ProgressBar,
    games: usize,
    errors: usize,
}

impl Progress {
    /// A bar when the run is interactive, else `None`.
    pub fn start(quiet: bool) -> Option<Progress> {
        let interactive = std::io::stderr().is_terminal() && std::env::var_os("CI").is_none();
        if quiet || !interactive {
            return None;
        }
        // The length is unknown until the counting walk ends (set_length).
        let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr_with_hz(10));
        bar.set_style(style());
        let progress = Progress { bar, games: 0, errors: 0 };
        progress.bar.set_message(progress.counts());
        progress.bar.enable_steady_tick(Duration::from_millis(200));
        Some(progress)
    }

    /// The bar, for the thread that counts the inputs.
    pub fn bar(&self) -> &ProgressBar {
        &self.bar
    }

    fn counts(&self) -> String {
        format!("{} games, {} errors", self.games, self.errors)
    }

    /// One more file checked.
    pub fn record(&mut self, check: &FileCheck) {
        self.add(check.games, check.diagnostics.iter().filter(|d| d.severity == Severity::Error).count());
    }

    /// One more file done, with its games and errors.
    pub fn add(&mut self, games: usize, errors: usize) {
        self.games += games;
        self.errors += errors;
        self.bar.set_message(self.counts());
        self.bar.inc(1);
    }

    /// Runs `f` (which prints) with the bar hidden, so lines never mix.
    pub fn suspend<R>(&self, f: impl FnOnce() -> R) -> R {
        self.bar.suspend(f)
    }

    pub fn finish(self) {
        self.bar.finish_and_clear();
    }
}

/// `⠁ 00:00:03 [=====>    ] 1200/4000 files, 400 files/s, 9000 games, 2 errors, ETA 7s`.
fn style() -> ProgressStyle {
    ProgressStyle::with_template("{spinner} {elapsed_precise} [{wide_bar}] {files}{rate}, {msg}{eta_known}")
        .unwrap_or_else(|_| ProgressStyle::default_bar())
        .with_key("files", |state: &ProgressState, w: &mut dyn std::fmt::Write| {
            let _ = match state.len() {
                Some(len) => write!(w, "{}/{len} files", state.pos()),
                None => write!(w, "{} files", state.pos()),
            };
        })
        .with_key("rate", |state: &ProgressState, w: &mut dyn std::fmt::Write| {
            // The rate is an estimate that needs a few files to settle.
            if state.per_sec() >= 1.0 {
                let _ = write!(w, ", {:.0} files/s", state.per_sec());
            }
        })
        .with_key("eta_known", |state: &ProgressState, w: &mut dyn std::fmt::Write| {
            if state.len().is_some() && state.pos() > 0 {
                let _ = write!(w, ", ETA {:#}", HumanDuration(state.eta()));
            }
        })
        .progress_chars("=> ")
}
