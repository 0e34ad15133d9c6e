//! The Python package's own tests (`python/tests`, pytest), run by `cargo
//! test`: builds the module with maturin into a temporary virtual
//! environment (which sees the interpreter's packages: pytest, numpy,
//! sgfmill) and runs pytest there against the binary built for these tests.
//!
//! Skips, saying what is missing, where Python 3, maturin, pytest or numpy
//! are not installed (`python3 -m pip install maturin pytest numpy
//! sgfmill`), unless `KIFU_REQUIRE_PYTHON` is set (CI sets it: there a
//! missing tool is a failure, not a skip). `KIFU_PYTHON` names the
//! interpreter (default `python3`).

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn run(command: &mut Command) -> Option<Output> {
    command.output().ok()
}

fn succeeds(command: &mut Command) -> bool {
    run(command).is_some_and(|o| o.status.success())
}

/// Says why the tests cannot run: a failure where they are required.
fn skip(why: &str) {
    if std::env::var_os("KIFU_REQUIRE_PYTHON").is_some() {
        panic!("KIFU_REQUIRE_PYTHON is set but {why}");
    }
    eprintln!("skipped: the Python tests need {why}");
}

#[test]
fn python_package_tests() {
    let python = std::env::var("KIFU_PYTHON").unwrap_or_else(|_| "python3".into());
    if !succeeds(Command::new(&python).arg("--version")) {
        return skip(&format!("a Python 3 interpreter ({python} not found; KIFU_PYTHON names another)"));
    }
    for module in ["maturin", "pytest", "numpy"] {
        if !succeeds(Command::new(&python).args(["-c", &format!("import {module}")])) {
            return skip(&format!("{module} ({python} -m pip install maturin pytest numpy sgfmill)"));
        }
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let scratch = std::env::temp_dir().join(format!("kifu-python-tests-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&scratch);
    let venv = scratch.join("venv");
    let created = run(Command::new(&python).args(["-m", "venv", "--system-site-packages"]).arg(&venv));
    if !created.as_ref().is_some_and(|o| o.status.success()) {
        return skip(&format!("the venv module ({python} -m venv failed: {})", stderr(created.as_ref())));
    }
    let venv_python = venv.join("bin").join("python");
    let wheels = scratch.join("wheels");
    let built = run(Command::new(&python)
        .args(["-m", "maturin", "build", "--release", "--quiet", "--manifest-path"])
        .arg(root.join("python/Cargo.toml"))
        .arg("--out")
        .arg(&wheels)
        .arg("--interpreter")
        .arg(&venv_python));
    assert!(built.as_ref().is_some_and(|o| o.status.success()), "maturin build failed:\n{}", stderr(built.as_ref()));
    let wheel = only_wheel(&wheels);
    let installed = run(Command::new(&venv_python).args(["-m", "pip", "install", "--quiet", "--no-deps", "--no-index", "--force-reinstall"]).arg(&wheel));
    assert!(installed.as_ref().is_some_and(|o| o.status.success()), "installing {} failed:\n{}", wheel.display(), stderr(installed.as_ref()));
    let tested = run(Command::new(&venv_python)
        .args(["-m", "pytest", "-q", "-p", "no:cacheprovider"])
        .arg(root.join("python/tests"))
        .current_dir(&scratch)
        .env("KIFU_BIN", env!("CARGO_BIN_EXE_kifu")));
    let _ = std::fs::remove_dir_all(&scratch);
    let tested = tested.expect("pytest ran");
    let report = format!("{}{}", String::from_utf8_lossy(&tested.stdout), String::from_utf8_lossy(&tested.stderr));
    // The summary line, "N passed, M skipped in T s", for the cargo test log.
    eprintln!("pytest: {}", report.lines().rev().find(|l| l.contains(" in ")).unwrap_or("(no summary)"));
    assert!(tested.status.success(), "pytest failed:\n{report}");
}

fn only_wheel(dir: &Path) -> PathBuf {
    let wheels: Vec<PathBuf> = std::fs::read_dir(dir).expect("the wheel folder").filter_map(|e| e.ok().map(|e| e.path())).collect();
    assert_eq!(wheels.len(), 1, "expected one wheel in {}: {wheels:?}", dir.display());
    wheels.into_iter().next().unwrap()
}

fn stderr(output: Option<&Output>) -> String {
    output.map_or_else(|| "could not start".into(), |o| String::from_utf8_lossy(&o.stderr).into_owned())
}
