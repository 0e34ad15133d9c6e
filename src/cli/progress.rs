//! The progress bar of `kifu check`: files/s, games, errors so far and ETA,
//! on standard error. Shown only on a terminal: never in CI (`CI` set),
//! pipes, or with `--quiet`.

use std::io::IsTerminal;
use std::time::Duration;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressState, ProgressStyle};

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
        let style = ProgressStyle::with_template("{spinner} {elapsed_precise} [{wide_bar}] {pos}/{len} files, {rate} files/s, {msg}, ETA {eta}")
            .unwrap_or_else(|_| ProgressStyle::default_bar())
            .with_key("rate", |state: &ProgressState, w: &mut dyn std::fmt::Write| {
                let _ = write!(w, "{:.0}", state.per_sec());
            })
            .progress_chars("=> ");
        bar.set_style(style);
        bar.enable_steady_tick(Duration::from_millis(200));
        Some(Progress { bar, games: 0, errors: 0 })
    }

    /// The bar, for the thread that counts the inputs.
    pub fn bar(&self) -> &ProgressBar {
        &self.bar
    }

    /// One more file done.
    pub fn record(&mut self, check: &FileCheck) {
        self.games += check.games;
        self.errors += check.diagnostics.iter().filter(|d| d.severity == Severity::Error).count();
        self.bar.set_message(format!("{} games, {} errors", self.games, self.errors));
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
