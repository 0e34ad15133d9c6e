//! Sets `KIFU_VERSION` for `kifu --version`: the package version and, when
//! built from a git checkout, the commit (`0.1.0 (26ac4d4b1f)`). Without
//! git, or outside a checkout (a crate from a registry), the version alone.

use std::process::Command;

fn git(args: &[&str]) -> Option<String> {
    let out = Command::new("git").args(args).output().ok()?;
    out.status.success().then(|| String::from_utf8_lossy(&out.stdout).trim().to_string()).filter(|s| !s.is_empty())
}

fn main() {
    let version = env!("CARGO_PKG_VERSION");
    let full = match git(&["rev-parse", "--short=10", "HEAD"]) {
        Some(commit) => format!("{version} ({commit})"),
        None => version.to_string(),
    };
    println!("cargo:rustc-env=KIFU_VERSION={full}");
    // A new commit, or another branch checked out, changes the version. (A
    // path that does not exist would rerun this at every build: a branch
    // whose ref is packed is watched through packed-refs.)
    let branch = git(&["symbolic-ref", "-q", "HEAD"]);
    let watched = ["HEAD", branch.as_deref().unwrap_or("HEAD"), "packed-refs"];
    for path in watched.iter().filter_map(|p| git(&["rev-parse", "--git-path", p])) {
        if std::path::Path::new(&path).exists() {
            println!("cargo:rerun-if-changed={path}");
        }
    }
    println!("cargo:rerun-if-changed=build.rs");
}
