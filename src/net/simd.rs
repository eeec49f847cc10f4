//! The one place kpk chooses vector instructions: [`vectorised`] runs a pass compiled for AVX2
//! where the CPU has it. The kernels fix their order of operations and no fused multiply-add is
//! enabled, so the AVX2 build computes the same bits as the generic one, only with wider vectors.

/// Run `f` compiled for the widest vector unit this CPU offers (AVX2 on x86-64, else generic).
/// Pass an `#[inline(always)]` closure: only a body inlined into the AVX2 function is compiled
/// with AVX2 (without it the online epoch measured 50% slower).
#[inline(always)]
pub(crate) fn vectorised<R>(f: impl FnOnce() -> R) -> R {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") {
        // SAFETY: the CPU has just been seen to support AVX2.
        return unsafe { with_avx2(f) };
    }
    f()
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn with_avx2<R>(f: impl FnOnce() -> R) -> R {
    f()
}
