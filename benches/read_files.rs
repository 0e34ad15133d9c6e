//! The floor of a whole `kifu check` process on named files: a process
//! that only reads the files named on its command line, each with the
//! system calls kifu makes for a named file (open, `fstat`, one read of
//! the known size, close), and parses nothing. `benches/process.sh` times
//! it beside `kifu check --jobs 1` and sgfmill: what it takes a file is
//! the part of kifu's time no work on parsing or replay can remove.
//!
//! ```text
//! cargo bench --bench read_files -- FILE...
//! ```

use std::fs::File;
use std::io::Read;

fn main() {
    let mut bytes = 0usize;
    let mut buffer = Vec::new();
    for path in std::env::args_os().skip(1).filter(|a| a != "--bench") {
        let Ok(mut file) = File::open(&path) else { continue };
        let Ok(size) = file.metadata().map(|m| m.len() as usize) else { continue };
        buffer.resize(size, 0);
        if file.read_exact(&mut buffer).is_ok() {
            bytes += std::hint::black_box(&buffer).len();
        }
    }
    std::hint::black_box(bytes);
}
