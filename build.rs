//! Sets `KIFU_VERSION` for `kifu --version`: the package version and, when
//! built from a git checkout, the commit (`0.1.0 (26ac4d4)`, `-dirty` when
//! the tree has changes). Without git, or outside a checkout, the version
//! alone.

use std::process::Command;

fn git(args: &[&str]) -> Option<String> {
    let out = Command::new("git").args(args).output().ok()?;
    out.status.success().then(|| String::from_utf8_lossy(&out.stdout).trim().to_string()).filter(|s| !s.is_empty())
}

fn main() {
    let version = env!("CARGO_PKG_VERSION");
    let commit = git(&["rev-parse", "--short=10", "HEAD"]);
    let dirty = git(&["status", "--porcelain", "--untracked-files=no"]).is_some();
    let full = match commit {
        Some(commit) => format!("{version} ({commit}{})", if dirty { "-dirty" } else { "" }),
        None => version.to_string(),
    };
    println!("cargo:rustc-env=KIFU_VERSION={full}");
    // A new commit or a change of branch changes the version.
    for path in ["HEAD", "index"] {
        if let Some(p) = git(&["rev-parse", "--git-path", path]) {
            println!("cargo:rerun-if-changed={p}");
        }
    }
    if let Some(reference) = git(&["symbolic-ref", "-q", "HEAD"]).and_then(|r| git(&["rev-parse", "--git-path", &r])) {
        println!("cargo:rerun-if-changed={reference}");
    }
    println!("cargo:rerun-if-changed=build.rs");
}
