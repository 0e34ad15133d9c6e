//! Running the pipeline over many inputs: finding them ([`walk`]: files,
//! folders, archives and compressed files read in place, standard input)
//! and transforming them on several threads with results in input order
//! ([`parallel`]).
//!
//! This is library code (the CLI and the Python module both drive it); it
//! knows nothing of flags, configuration files or how results are printed.

mod archive;
pub mod parallel;
pub mod walk;

pub use archive::Codec;
pub use parallel::{FileTable, Held, ordered_map};
pub use walk::{Content, DEFAULT_MAX_BYTES, Item, PathFilter, Shard, Walk, is_archive};
