//! Which vector instructions the engines may use.
//!
//! Every SIMD kernel has a portable version and, on x86-64, faster ones
//! for AVX2 and AVX-512. At run time each engine takes the fastest its CPU
//! has, up to a *cap*: the binary sets the cap from `DECKODDS_SIMD`
//! (`portable`, `avx2` or `avx512`), so that any machine can run, and
//! measure, every path below its best. Every path gives the same results,
//! bit for bit (each engine's tests, and an integration test that runs
//! each path this CPU has on the same seed).
//!
//! The cap is read when an engine first chooses its kernel (each caches
//! its choice): set it before any work, as the binary does.

use std::sync::atomic::{AtomicU8, Ordering};

use crate::error::{Error, Result};

/// A family of vector instructions, lowest first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum SimdLevel {
    /// No vector instructions beyond the target's baseline (SSE2 on
    /// x86-64): every CPU.
    Portable,
    /// x86-64 with AVX2 (Haswell, Zen 1 and later).
    Avx2,
    /// x86-64 with AVX-512 (the subsets each kernel names: Skylake-X and
    /// Zen 4 and later have F and BW; byte compress needs VBMI2).
    Avx512,
}

/// The environment variable that caps the level.
pub const SIMD_VARIABLE: &str = "DECKODDS_SIMD";

/// The cap, as a level's number (`u8::MAX`: none set).
static CAP: AtomicU8 = AtomicU8::new(u8::MAX);

impl SimdLevel {
    /// Every level, lowest first.
    pub const ALL: [SimdLevel; 3] = [SimdLevel::Portable, SimdLevel::Avx2, SimdLevel::Avx512];

    /// `portable`, `avx2`, `avx512`.
    pub fn name(self) -> &'static str {
        match self {
            SimdLevel::Portable => "portable",
            SimdLevel::Avx2 => "avx2",
            SimdLevel::Avx512 => "avx512",
        }
    }

    /// A level by its name, in any case.
    pub fn parse(text: &str) -> Result<SimdLevel> {
        SimdLevel::ALL
            .into_iter()
            .find(|level| level.name().eq_ignore_ascii_case(text.trim()))
            .ok_or_else(|| Error::invalid(SIMD_VARIABLE, text, "must be portable, avx2 or avx512"))
    }

    /// Whether the engines may use this level: it is at most the cap.
    /// (Each kernel also checks that the CPU has its instructions.)
    pub fn allowed(self) -> bool {
        self <= cap()
    }

    /// The highest level this CPU has: AVX-512 counts with F and BW.
    pub fn detected() -> SimdLevel {
        #[cfg(target_arch = "x86_64")]
        {
            if std::arch::is_x86_feature_detected!("avx512f")
                && std::arch::is_x86_feature_detected!("avx512bw")
            {
                return SimdLevel::Avx512;
            }
            if std::arch::is_x86_feature_detected!("avx2") {
                return SimdLevel::Avx2;
            }
        }
        SimdLevel::Portable
    }

    /// The level the engines run at: the CPU's, held to the cap.
    pub fn in_use() -> SimdLevel {
        SimdLevel::detected().min(cap())
    }
}

/// Caps the level the engines may use (see the module doc: before any
/// work).
pub fn set_cap(level: SimdLevel) {
    CAP.store(level as u8, Ordering::Relaxed);
}

/// The cap: [`SimdLevel::Avx512`] (no cap) unless [`set_cap`] said lower.
pub fn cap() -> SimdLevel {
    match CAP.load(Ordering::Relaxed) {
        0 => SimdLevel::Portable,
        1 => SimdLevel::Avx2,
        _ => SimdLevel::Avx512,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_parse_by_name_and_order_lowest_first() {
        for level in SimdLevel::ALL {
            assert_eq!(SimdLevel::parse(level.name()).unwrap(), level);
            assert_eq!(
                SimdLevel::parse(&level.name().to_uppercase()).unwrap(),
                level
            );
        }
        let error = SimdLevel::parse("sse9").unwrap_err();
        assert_eq!(
            error.to_string(),
            "DECKODDS_SIMD sse9: must be portable, avx2 or avx512"
        );
        assert!(SimdLevel::Portable < SimdLevel::Avx2 && SimdLevel::Avx2 < SimdLevel::Avx512);
        assert!(SimdLevel::in_use() <= SimdLevel::detected());
    }
}
