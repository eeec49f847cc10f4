//! Where kpk chooses vector instructions: [`vectorised`] runs a pass compiled for AVX-512
//! or AVX2 where the CPU has it, and [`use_avx2_kernels`] chooses the hand-written AVX2 kernels of
//! `net/kernels/avx2.rs`. The kernels fix their order of operations and no fused
//! multiply-add is enabled (Rust never contracts a multiply and an add), so every build computes
//! the same bits as the generic one, only with wider vectors.

/// Run `f` compiled for the widest vector unit this CPU offers (AVX-512, else AVX2 on x86-64,
/// else generic). Pass an `#[inline(always)]` closure: only a body inlined into the dispatching
/// function is compiled for its instructions (without it the online epoch measured 50% slower).
#[inline(always)]
pub(crate) fn vectorised<R>(f: impl FnOnce() -> R) -> R {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx512f") && std::arch::is_x86_feature_detected!("avx512vl") {
        // SAFETY: the CPU has just been seen to support AVX-512 F and VL (and so AVX2).
        return unsafe { with_avx512(f) };
    }
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") {
        // SAFETY: the CPU has just been seen to support AVX2.
        return unsafe { with_avx2(f) };
    }
    f()
}

/// As [`vectorised`], with AVX2 at most: for loops over arrays of lanes, which AVX-512's gathers and
/// scatters would otherwise vectorise across the wrong axis.
#[inline(always)]
pub(crate) fn with_avx2_at_most<R>(f: impl FnOnce() -> R) -> R {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") {
        // SAFETY: the CPU has just been seen to support AVX2.
        return unsafe { with_avx2(f) };
    }
    f()
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,avx512f,avx512vl")]
unsafe fn with_avx512<R>(f: impl FnOnce() -> R) -> R {
    f()
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn with_avx2<R>(f: impl FnOnce() -> R) -> R {
    f()
}

/// Does the CPU support AVX2? The hand-written kernels of `net/kernels/avx2.rs` need it.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
pub(crate) fn has_avx2() -> bool {
    std::arch::is_x86_feature_detected!("avx2")
}

/// Use the hand-written AVX2 kernels of `net/kernels/avx2.rs` wherever the CPU has AVX2: they were
/// measured faster than the compiler's code both on a CPU without AVX-512 (AMD Zen 3) and on one
/// with it (AMD Zen 4, whose AVX-512 runs as two 256-bit halves); README, "bench --what train".
/// Either way the bits are the same. Detected once and cached: the check is a load and a test.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
pub(crate) fn use_avx2_kernels() -> bool {
    has_avx2()
}

/// Ask the CPU to start loading the cache lines of `data` (a training position's inputs, about to
/// be read in a shuffled order that the hardware prefetcher cannot predict). A hint only: it
/// changes no value.
#[inline(always)]
pub(crate) fn prefetch(data: &[f64]) {
    #[cfg(target_arch = "x86_64")]
    for line in data.chunks(8) {
        use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
        // SAFETY: prefetching reads no memory architecturally; the pointer is into a live slice.
        unsafe { _mm_prefetch::<_MM_HINT_T0>(line.as_ptr().cast()) };
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = data;
}
