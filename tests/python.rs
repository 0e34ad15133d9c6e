//! The Python package's own tests (`python/tests`, pytest), run by `cargo
//! test`: builds the module with maturin, installs it into a virtual
//! environment kept in `target/python-tests/venv`, and runs pytest there
//! against the binary built for these tests.
//!
//! The environment sees the interpreter's own packages; what it lacks of
//! maturin, pytest, numpy, sgfmill and mypy (whose stubtest checks the
//! type stubs) it installs from PyPI, once. Skips, saying why, where there
//! is no Python 3 or the installation fails (no network), unless
//! `KIFU_REQUIRE_PYTHON` is set (CI sets it: there a missing tool is a
//! failure, not a skip). `KIFU_PYTHON` names the interpreter (default
//! `python3`).

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// What the tests need besides the module itself.
const PACKAGES: [&str; 5] = ["maturin", "pytest", "numpy", "sgfmill", "mypy"];

fn run(command: &mut Command) -> Result<Output, String> {
    let output = command.output().map_err(|e| format!("{command:?} could not start: {e}"))?;
    if output.status.success() { Ok(output) } else { Err(format!("{command:?} failed:\n{}", String::from_utf8_lossy(&output.stderr))) }
}

/// Says why the tests cannot run: a failure where they are required.
fn skip(why: &str) {
    if std::env::var_os("KIFU_REQUIRE_PYTHON").is_some() {
        panic!("KIFU_REQUIRE_PYTHON is set, but the Python tests cannot run: {why}");
    }
    eprintln!("skipped: the Python tests cannot run: {why}");
}

/// The environment's interpreter, with every package the tests need, and
/// the maturin program.
fn environment(root: &Path) -> Result<(PathBuf, PathBuf), String> {
    let python = std::env::var("KIFU_PYTHON").unwrap_or_else(|_| "python3".into());
    let venv = root.join("target/python-tests/venv");
    let venv_python = venv.join("bin/python");
    if !venv_python.is_file() {
        run(Command::new(&python).args(["-m", "venv", "--system-site-packages"]).arg(&venv))
            .map_err(|e| format!("no Python 3 with venv ({python}; KIFU_PYTHON names another): {e}"))?;
    }
    // maturin is a program: the environment's own, or one on the PATH.
    let maturin = [venv.join("bin/maturin"), PathBuf::from("maturin")].into_iter().find(|m| run(Command::new(m).arg("--version")).is_ok());
    let missing: Vec<&str> = PACKAGES
        .into_iter()
        .filter(|&m| if m == "maturin" { maturin.is_none() } else { run(Command::new(&venv_python).args(["-c", &format!("import {m}")])).is_err() })
        .collect();
    if !missing.is_empty() {
        eprintln!("python tests: installing {} from PyPI into {}", missing.join(", "), venv.display());
        run(Command::new(&venv_python).args(["-m", "pip", "install", "--quiet", "--disable-pip-version-check"]).args(&missing))
            .map_err(|e| format!("installing {} failed (python3 -m pip install {} by hand): {e}", missing.join(", "), PACKAGES.join(" ")))?;
    }
    Ok((venv_python, maturin.unwrap_or_else(|| venv.join("bin/maturin"))))
}

#[test]
fn python_package_tests() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let (python, maturin) = match environment(root) {
        Ok(found) => found,
        Err(why) => return skip(&why),
    };
    let wheels = root.join("target/python-tests/wheels");
    let _ = std::fs::remove_dir_all(&wheels);
    run(Command::new(&maturin)
        .args(["build", "--release", "--quiet", "--manifest-path"])
        .arg(root.join("python/Cargo.toml"))
        .arg("--out")
        .arg(&wheels)
        .arg("--interpreter")
        .arg(&python))
    .unwrap_or_else(|e| panic!("building the module: {e}"));
    let wheel = std::fs::read_dir(&wheels).expect("the wheel folder").filter_map(|e| e.ok()).map(|e| e.path()).next().expect("a wheel");
    run(Command::new(&python).args(["-m", "pip", "install", "--quiet", "--disable-pip-version-check", "--no-deps", "--force-reinstall"]).arg(&wheel))
        .unwrap_or_else(|e| panic!("installing the module: {e}"));
    let tested = Command::new(&python)
        .args(["-m", "pytest", "-q", "-p", "no:cacheprovider"])
        .arg(root.join("python/tests"))
        .current_dir(root.join("target/python-tests"))
        .env("KIFU_BIN", env!("CARGO_BIN_EXE_kifu"))
        .output()
        .expect("pytest runs");
    let report = format!("{}{}", String::from_utf8_lossy(&tested.stdout), String::from_utf8_lossy(&tested.stderr));
    assert!(tested.status.success(), "pytest failed:\n{report}");
    // pytest's summary ("N passed, M skipped in T s") for the log of `cargo test -- --nocapture`.
    eprintln!("pytest: {}", report.lines().rev().find(|l| l.contains(" passed")).unwrap_or("(no summary)"));
}
