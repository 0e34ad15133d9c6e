//! The `kifu` binary: a thin shell over the library's `cli` module.

fn main() -> std::process::ExitCode {
    kifu::cli::run()
}
