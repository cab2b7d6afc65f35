//! Searches over deals for games with a property (not sampling, not
//! enumeration): the deal that is best by some measure, verified by the
//! game's own play function.

pub mod prisoners_patience;
pub mod roll_call;
