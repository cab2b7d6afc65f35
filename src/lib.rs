//! deckodds: exact and Monte-Carlo odds for card games, and whether the two agree.
//!
//! The library holds every computation; the `deckodds` binary is thin glue
//! over it. Engines never do I/O: they take parameters and return values,
//! and the `commands` layer reads files, draws progress bars and writes
//! output. See `ARCHITECTURE.md` for the map.

pub mod analysis;
pub mod cards;
pub mod cli;
pub mod commands;
pub mod compare;
pub mod contract;
pub mod csv_text;
pub mod distribution;
pub mod engine;
pub mod error;
pub mod games;
pub mod report;
pub mod rng;
pub mod rulebook;
pub mod simd;
pub mod stats;

pub use error::{Error, Result};
