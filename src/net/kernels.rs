//! The arithmetic kernels every pass of the net is built from, each summing in one fixed order so
//! that results are bit-identical on every machine and at every vector width.

#[cfg(target_arch = "x86_64")]
mod avx2;

/// y ← y + alpha·x over the common length.
#[inline(always)]
pub(crate) fn axpy(y: &mut [f64], alpha: f64, x: &[f64]) {
    for (y, &x) in y.iter_mut().zip(x) {
        *y += alpha * x;
    }
}

/// Dot product in the crate's one fixed order: four interleaved partial sums over the leading
/// multiple of four elements, combined as (s0 + s2) + (s1 + s3), then the remaining products added
/// one by one. The partial sums are independent, so the loop vectorises; the order is written
/// here, not chosen by the compiler or the vector width, so results are reproducible.
#[inline(always)]
pub(crate) fn dot(a: &[f64], b: &[f64]) -> f64 {
    let n = a.len().min(b.len());
    let (ca, ra) = chunks4(&a[..n]);
    let (cb, rb) = chunks4(&b[..n]);
    let mut acc = [0.0f64; 4];
    for (x, y) in ca.zip(cb) {
        for k in 0..4 {
            acc[k] += x[k] * y[k];
        }
    }
    finish(acc, ra, rb)
}

/// The slice as arrays of four, and the leftover elements.
#[inline(always)]
fn chunks4(s: &[f64]) -> (impl Iterator<Item = &[f64; 4]>, &[f64]) {
    let c = s.chunks_exact(4);
    let rest = c.remainder();
    (c.map(|c| <&[f64; 4]>::try_from(c).expect("chunks_exact(4) yields 4 elements")), rest)
}

#[inline(always)]
fn finish(acc: [f64; 4], ra: &[f64], rb: &[f64]) -> f64 {
    let mut sum = (acc[0] + acc[2]) + (acc[1] + acc[3]);
    for (x, y) in ra.iter().zip(rb) {
        sum += x * y;
    }
    sum
}

/// out[j] = dot(row j, a) for the rows of a row-major matrix of width `a.len()`. Four rows at a
/// time share each load of `a` and keep four independent sums in flight; each row's arithmetic is
/// exactly [`dot`]'s, so blocking does not change results.
#[inline(always)]
pub(crate) fn gemv(rows: &[f64], a: &[f64], out: &mut [f64]) {
    #[cfg(target_arch = "x86_64")]
    if super::simd::use_avx2_kernels() {
        // SAFETY: the CPU supports AVX2.
        return unsafe { avx2::gemv(rows, a, out) };
    }
    gemv_portable(rows, a, out);
}

/// [`gemv`] without intrinsics.
#[inline(always)]
fn gemv_portable(rows: &[f64], a: &[f64], out: &mut [f64]) {
    let n = a.len();
    let at = chunks4(a).1;
    let mut blocks = rows.chunks_exact(4 * n);
    let mut outs = out.chunks_exact_mut(4);
    for (block, o) in (&mut blocks).zip(&mut outs) {
        let (r0, rest) = block.split_at(n);
        let (r1, rest) = rest.split_at(n);
        let (r2, r3) = rest.split_at(n);
        let ((c0, t0), (c1, t1), (c2, t2), (c3, t3)) = (chunks4(r0), chunks4(r1), chunks4(r2), chunks4(r3));
        let mut acc = [[0.0f64; 4]; 4];
        for ((((x, w0), w1), w2), w3) in chunks4(a).0.zip(c0).zip(c1).zip(c2).zip(c3) {
            // Row by row, each row's four lanes together: one vector operation per row.
            for (acc, w) in acc.iter_mut().zip([w0, w1, w2, w3]) {
                for k in 0..4 {
                    acc[k] += w[k] * x[k];
                }
            }
        }
        o[0] = finish(acc[0], t0, at);
        o[1] = finish(acc[1], t1, at);
        o[2] = finish(acc[2], t2, at);
        o[3] = finish(acc[3], t3, at);
    }
    for (row, o) in blocks.remainder().chunks_exact(n).zip(outs.into_remainder()) {
        *o = dot(row, a);
    }
}

/// Z = A·Wᵀ for a block of positions: row r of `out` (starting at `out[r * stride]`) gets, for each
/// neuron j < `n_out`, [`dot`] of row r of `a` (width `n`) with weight row j, summed in exactly
/// [`dot`]'s order, so each element is bit-identical to the single-position pass. `wt` holds the
/// weights transposed and padded to whole groups of four neurons: `wt[g * n + k][i]` is the weight
/// of input k into neuron 4g + i (see [`transpose_by_four`]). Vectorising across four
/// neurons keeps every partial sum in its own lane, so no horizontal sums are needed; two positions
/// at a time share each load of the weights.
#[inline(always)]
pub(crate) fn block_product(
    a: &[f64],
    n: usize,
    wt: &[[f64; 4]],
    n_out: usize,
    out: &mut [f64],
    stride: usize,
) {
    let groups = n_out.div_ceil(4);
    let rows = a.len() / n;
    let mut pairs = a.chunks_exact(2 * n);
    for (p, pair) in (&mut pairs).enumerate() {
        let (a0, a1) = pair.split_at(n);
        for g in 0..groups {
            let [z0, z1] = tile([a0, a1], &wt[g * n..(g + 1) * n]);
            store(out, 2 * p * stride, g, n_out, &z0);
            store(out, (2 * p + 1) * stride, g, n_out, &z1);
        }
    }
    if rows % 2 == 1 {
        let a0 = pairs.remainder();
        for g in 0..groups {
            let [z0] = tile([a0], &wt[g * n..(g + 1) * n]);
            store(out, (rows - 1) * stride, g, n_out, &z0);
        }
    }
}

/// Neurons 4g..4g + 4 (those below `n_out`) of one output row.
#[inline(always)]
fn store(out: &mut [f64], row_start: usize, g: usize, n_out: usize, z: &[f64; 4]) {
    let j0 = 4 * g;
    let m = (n_out - j0).min(4);
    out[row_start + j0..row_start + j0 + m].copy_from_slice(&z[..m]);
}

/// The sums of R positions into one group of four neurons (`wg`: their weights, input by input),
/// in [`dot`]'s order: partial sum q (lane q of [`dot`]'s accumulator) collects the inputs
/// k ≡ q (mod 4) of the leading multiple of four, the four are combined as (s0 + s2) + (s1 + s3),
/// then the remaining inputs are added one by one.
#[inline(always)]
fn tile<const R: usize>(a: [&[f64]; R], wg: &[[f64; 4]]) -> [[f64; 4]; R] {
    let n = wg.len();
    let mut acc = [[[0.0f64; 4]; 4]; R];
    let chunks = |r: usize| a[r][..n].chunks_exact(4);
    let mut xs: [_; R] = std::array::from_fn(chunks);
    let mut ws = wg.chunks_exact(4);
    for w in &mut ws {
        let x: [&[f64]; R] = std::array::from_fn(|r| xs[r].next().expect("as many inputs as weights"));
        for q in 0..4 {
            for r in 0..R {
                for i in 0..4 {
                    acc[r][q][i] += x[r][q] * w[q][i];
                }
            }
        }
    }
    let mut z = [[0.0f64; 4]; R];
    for r in 0..R {
        for i in 0..4 {
            z[r][i] = (acc[r][0][i] + acc[r][2][i]) + (acc[r][1][i] + acc[r][3][i]);
        }
        for (&x, w) in xs[r].remainder().iter().zip(ws.remainder()) {
            for i in 0..4 {
                z[r][i] += x * w[i];
            }
        }
    }
    z
}

/// A row-major weight layer (`n_out` rows of width `n`) transposed into `wt` for
/// [`block_product`], the last group of four padded with zeros.
pub(crate) fn transpose_by_four(w: &[f64], n: usize, wt: &mut Vec<[f64; 4]>) {
    let n_out = w.len() / n;
    let groups = n_out.div_ceil(4);
    wt.clear();
    wt.resize(n * groups, [0.0; 4]);
    for (j, row) in w.chunks_exact(n).enumerate() {
        for (k, &v) in row.iter().enumerate() {
            wt[(j / 4) * n + k][j % 4] = v;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gemv_equals_row_by_row_dots_bit_for_bit() {
        for rows in 0..11 {
            for n in [1, 3, 4, 5, 8, 33, 65] {
                let w: Vec<f64> = (0..rows * n).map(|i| (i as f64 * 0.731).sin()).collect();
                let a: Vec<f64> = (0..n).map(|i| (i as f64 * 0.29).cos()).collect();
                let mut out = vec![0.0; rows];
                gemv(&w, &a, &mut out);
                let mut portable = vec![0.0; rows];
                gemv_portable(&w, &a, &mut portable);
                let bits = |v: &[f64]| v.iter().map(|v| v.to_bits()).collect::<Vec<_>>();
                assert_eq!(bits(&out), bits(&portable), "rows {rows} n {n}");
                #[cfg(target_arch = "x86_64")]
                if super::super::simd::has_avx2() {
                    let mut intrinsics = vec![0.0; rows];
                    // SAFETY: the CPU supports AVX2.
                    unsafe { super::avx2::gemv(&w, &a, &mut intrinsics) };
                    assert_eq!(bits(&intrinsics), bits(&portable), "AVX2 kernel, rows {rows} n {n}");
                }
                for (j, &o) in out.iter().enumerate() {
                    assert_eq!(
                        o.to_bits(),
                        dot(&w[j * n..(j + 1) * n], &a).to_bits(),
                        "rows {rows} n {n} row {j}"
                    );
                }
            }
        }
    }

    #[test]
    fn block_product_equals_row_by_row_dots_bit_for_bit() {
        for rows in 0..6 {
            for n in [1, 3, 4, 5, 8, 33, 65] {
                for n_out in [1, 2, 4, 5, 20] {
                    let a: Vec<f64> = (0..rows * n).map(|i| (i as f64 * 0.29).cos() * 3.0).collect();
                    let w: Vec<f64> = (0..n_out * n).map(|i| (i as f64 * 0.731).sin()).collect();
                    let mut wt = Vec::new();
                    transpose_by_four(&w, n, &mut wt);
                    let stride = n_out + 3;
                    let mut out = vec![f64::NAN; rows * stride];
                    block_product(&a, n, &wt, n_out, &mut out, stride);
                    for r in 0..rows {
                        for j in 0..n_out {
                            let expected = dot(&w[j * n..(j + 1) * n], &a[r * n..(r + 1) * n]);
                            assert_eq!(
                                out[r * stride + j].to_bits(),
                                expected.to_bits(),
                                "rows {rows} n {n} row {r} neuron {j}"
                            );
                        }
                        assert!(
                            out[r * stride + n_out..(r + 1) * stride].iter().all(|v| v.is_nan()),
                            "wrote past n_out"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn dot_agrees_with_a_plain_sum() {
        for n in 0..40 {
            let a: Vec<f64> = (0..n).map(|i| (i as f64 * 0.37).sin()).collect();
            let b: Vec<f64> = (0..n).map(|i| (i as f64 * 0.11).cos()).collect();
            let plain: f64 = a.iter().zip(&b).map(|(x, y)| x * y).sum();
            assert!((dot(&a, &b) - plain).abs() < 1e-12, "n = {n}");
        }
    }
}
