//! Kernels of `net/kernels.rs` written with AVX2 intrinsics, for the loops the compiler
//! vectorises poorly on its own. Each computes exactly the portable kernel's operations in the
//! portable kernel's order (a vector add or multiply is four independent IEEE additions or
//! multiplications, and no fused multiply-add is used), so the results are the same bits; the tests
//! of `net/kernels.rs` compare the two. Call only where [`crate::net::simd::has_avx2`] holds; [`crate::net::simd::use_avx2_kernels`] decides where they are used.

use std::arch::x86_64::{
    _mm256_add_pd, _mm256_hadd_pd, _mm256_loadu_pd, _mm256_mul_pd, _mm256_permute2f128_pd,
    _mm256_permute4x64_pd, _mm256_set_pd, _mm256_set1_pd, _mm256_setzero_pd, _mm256_storeu_pd,
};

/// As [`super::gemv`]: four rows at a time, each row's four partial sums in one vector;
/// the four rows' sums are then combined as (s0 + s2) + (s1 + s3) side by side, and the leftover
/// columns added one by one, four rows to a vector.
///
/// # Safety
/// The CPU must support AVX2.
#[target_feature(enable = "avx2")]
pub(super) unsafe fn gemv(rows: &[f64], a: &[f64], out: &mut [f64]) {
    let n = a.len();
    let full = n / 4 * 4;
    let mut blocks = rows.chunks_exact(4 * n);
    let mut outs = out.chunks_exact_mut(4);
    for (block, o) in (&mut blocks).zip(&mut outs) {
        // SAFETY: the CPU has AVX2 (the caller's promise); every load reads 4 values at an offset
        // c + 4 ≤ full ≤ n within one of the block's 4 rows of n values (or of `a`), every scalar
        // read is within the block, and the store writes `o`'s 4 values.
        unsafe {
            let (p, x) = (block.as_ptr(), a.as_ptr());
            let mut acc = [_mm256_setzero_pd(); 4];
            for c in (0..full).step_by(4) {
                let xc = _mm256_loadu_pd(x.add(c));
                for (r, acc) in acc.iter_mut().enumerate() {
                    *acc = _mm256_add_pd(*acc, _mm256_mul_pd(_mm256_loadu_pd(p.add(r * n + c)), xc));
                }
            }
            // The four rows' (s0 + s2) + (s1 + s3): t01 holds [s0 + s2, s1 + s3] of rows 0 and 1,
            // t23 the same of rows 2 and 3; the horizontal add gives rows 0, 2, 1, 3 (each sum's
            // operands swapped, which IEEE addition does not notice), put in order by the permutation.
            let [a0, a1, a2, a3] = acc;
            let t01 =
                _mm256_add_pd(_mm256_permute2f128_pd::<0x20>(a0, a1), _mm256_permute2f128_pd::<0x31>(a0, a1));
            let t23 =
                _mm256_add_pd(_mm256_permute2f128_pd::<0x20>(a2, a3), _mm256_permute2f128_pd::<0x31>(a2, a3));
            let mut z = _mm256_permute4x64_pd::<0b11_01_10_00>(_mm256_hadd_pd(t01, t23));
            for (t, &at) in a.iter().enumerate().skip(full) {
                let w = _mm256_set_pd(*p.add(3 * n + t), *p.add(2 * n + t), *p.add(n + t), *p.add(t));
                z = _mm256_add_pd(z, _mm256_mul_pd(w, _mm256_set1_pd(at)));
            }
            _mm256_storeu_pd(o.as_mut_ptr(), z);
        }
    }
    for (row, o) in blocks.remainder().chunks_exact(n).zip(outs.into_remainder()) {
        *o = super::dot(row, a);
    }
}
