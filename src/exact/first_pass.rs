//! Roll-Call's first pass, exactly, by rook polynomials (being written).
