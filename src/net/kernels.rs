//! The arithmetic kernels every pass of the net is built from, each summing in one fixed order so
//! that results are bit-identical on every machine and at every vector width.

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
            for k in 0..4 {
                acc[0][k] += w0[k] * x[k];
                acc[1][k] += w1[k] * x[k];
                acc[2][k] += w2[k] * x[k];
                acc[3][k] += w3[k] * x[k];
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
    fn dot_agrees_with_a_plain_sum() {
        for n in 0..40 {
            let a: Vec<f64> = (0..n).map(|i| (i as f64 * 0.37).sin()).collect();
            let b: Vec<f64> = (0..n).map(|i| (i as f64 * 0.11).cos()).collect();
            let plain: f64 = a.iter().zip(&b).map(|(x, y)| x * y).sum();
            assert!((dot(&a, &b) - plain).abs() < 1e-12, "n = {n}");
        }
    }
}
