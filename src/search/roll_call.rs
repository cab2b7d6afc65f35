//! Roll-Call: the longest zero-strike win (being written).
