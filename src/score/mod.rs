//! Rescoring finished games: territory (Japanese, Korean) and area
//! (Chinese, AGA, NZ, Tromp-Taylor, Ing) counts, dead stones, seki, and the
//! comparison with the recorded `RE[]`.
//!
//! This module knows the board, the rules and the SGF model; it knows
//! nothing of output formats.

pub mod estimate;
pub mod result;
