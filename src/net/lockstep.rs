//! Online backpropagation (section 3, as trained in section 4.5) for [`LANES`] independent nets of
//! one shape at once: nets across vector lanes. Each net keeps its own weights, and at each step
//! takes its own position, target, learning rate and momentum.
//!
//! # Layout
//!
//! Weight `(j, i)` of layer `l` (as in [`Mlp`]'s module docs) is one array of [`LANES`] values,
//! lane k holding net k's weight; so are the activations and deltas. A vector operation on such an
//! array is [`LANES`] independent IEEE operations, one per net.
//!
//! # The same bits as one net alone
//!
//! Lane k performs exactly the operations of [`Mlp::sgd_step`] for net k, in its order: each
//! neuron's input sum is `crate::net::kernels`' `dot` (four interleaved partial sums combined as
//! (s0 + s2) + (s1 + s3), then the leftover inputs one by one), the sigmoid is [`sigmoid`], the
//! output delta is ((y − d)·b·y)·(1 − y), each weight row first passes its delta down through its
//! old weights and is then moved by (−η·δ)·a (or, with momentum, v ← μ·v + (−η·δ)·a, w ← w + v),
//! and the deltas passed down are multiplied by (b·a)·(1 − a). No fused multiply-add is used, so
//! the lanes' results are the single-net path's, bit for bit (the tests compare them).

use super::mlp::{Mlp, sigmoid};
use super::simd::with_avx2_at_most;
use ndarray::Array2;

/// Nets trained at once: eight `f64` lanes, one AVX-512 register (two AVX2 registers).
pub const LANES: usize = 8;

/// One value for each net of the group.
pub type Lane = [f64; LANES];

/// [`LANES`] nets of one topology, slope and connection pattern, stepped together.
#[derive(Clone, Debug)]
pub struct Lockstep {
    topology: Vec<usize>,
    slope: f64,
    skip: bool,
    /// Width of activation row `l` as the weight layer above reads it (`Mlp::act_width`).
    widths: Vec<usize>,
    /// Layer `l`: `topology[l + 1]` rows of `widths[l]` weights, lanes innermost.
    layers: Vec<Vec<Lane>>,
    /// The momentum's velocities, shaped like `layers`; empty without momentum.
    velocity: Vec<Vec<Lane>>,
    /// `acts[l]` = [1, activations of layer l…] (and the inputs after them under skip-layer
    /// connections), as in [`crate::net::mlp::Workspace`].
    acts: Vec<Vec<Lane>>,
    /// `deltas[l]` = ∂L/∂z for the neurons fed by weight layer l.
    deltas: Vec<Vec<Lane>>,
}

impl Lockstep {
    /// A group for nets shaped like `like` (every lane starts as a copy of it), with velocities for
    /// momentum if `momentum`.
    pub fn new(like: &Mlp, momentum: bool) -> Lockstep {
        let topology = like.topology().to_vec();
        let widths: Vec<usize> = (0..topology.len()).map(|l| like.act_width(l)).collect();
        let layers: Vec<Vec<Lane>> =
            (0..topology.len() - 1).map(|l| vec![[0.0; LANES]; topology[l + 1] * widths[l]]).collect();
        let velocity = if momentum { layers.clone() } else { Vec::new() };
        let acts = widths
            .iter()
            .map(|&w| {
                let mut a = vec![[0.0; LANES]; w];
                a[0] = [1.0; LANES];
                a
            })
            .collect();
        let deltas = topology[1..].iter().map(|&n| vec![[0.0; LANES]; n]).collect();
        let mut group = Lockstep {
            topology,
            slope: like.slope(),
            skip: like.has_skip(),
            widths,
            layers,
            velocity,
            acts,
            deltas,
        };
        for lane in 0..LANES {
            group.load(lane, like);
        }
        group
    }

    /// Can `net` take a lane of this group (same topology, slope and connections)?
    pub fn fits(&self, net: &Mlp) -> bool {
        net.topology() == self.topology
            && net.slope().to_bits() == self.slope.to_bits()
            && net.has_skip() == self.skip
    }

    /// Put `net`'s weights in `lane`, its velocities at zero (a net starting to train).
    ///
    /// Panics if the net does not [`fit`](Lockstep::fits).
    pub fn load(&mut self, lane: usize, net: &Mlp) {
        assert!(self.fits(net), "net of another shape");
        for (group, w) in self.layers.iter_mut().zip(net.layers()) {
            for (g, &v) in group.iter_mut().zip(super::values(w)) {
                g[lane] = v;
            }
        }
        for group in &mut self.velocity {
            for g in group.iter_mut() {
                g[lane] = 0.0;
            }
        }
    }

    /// Copy `lane`'s weights into `net`, a net that [`fits`](Lockstep::fits).
    pub fn store(&self, lane: usize, net: &mut Mlp) {
        assert!(self.fits(net), "net of another shape");
        for (group, w) in self.layers.iter().zip(net.layers_mut()) {
            for (g, v) in group.iter().zip(super::values_mut(w)) {
                *v = g[lane];
            }
        }
    }

    /// Copy `lane`'s velocities into `velocity` (shaped like the layers); zeros without momentum.
    pub fn store_velocity(&self, lane: usize, velocity: &mut [Array2<f64>]) {
        for (l, v) in velocity.iter_mut().enumerate() {
            let v = super::values_mut(v);
            match self.velocity.get(l) {
                Some(group) => v.iter_mut().zip(group).for_each(|(v, g)| *v = g[lane]),
                None => v.fill(0.0),
            }
        }
    }

    /// Does the group keep velocities (momentum)?
    pub fn has_momentum(&self) -> bool {
        !self.velocity.is_empty()
    }

    /// One step of online backpropagation in every lane: lane k trains on input row `inputs[k]`
    /// with target `targets[k]`, learning rate `eta[k]` and, if the group has momentum, momentum
    /// `mu[k]` (ignored otherwise). A lane with learning rate 0 and no momentum keeps its weights.
    ///
    /// Panics if a row or target has the wrong width.
    pub fn step(&mut self, inputs: [&[f64]; LANES], targets: [&[f64]; LANES], eta: Lane, mu: Lane) {
        // AVX2 rather than AVX-512: with AVX-512's scatters the compiler vectorises the loops over
        // weights instead of over lanes (gathers, measured several times slower).
        with_avx2_at_most(
            #[inline(always)]
            || self.step_in(inputs, targets, eta, mu),
        )
    }

    #[inline(always)]
    fn step_in(&mut self, inputs: [&[f64]; LANES], targets: [&[f64]; LANES], eta: Lane, mu: Lane) {
        self.set_inputs(inputs);
        self.forward();
        self.output_deltas(targets);
        let neg_eta = eta.map(|e| -e);
        for l in (0..self.layers.len()).rev() {
            self.backward_layer(l, neg_eta, mu);
        }
    }

    #[inline(always)]
    fn set_inputs(&mut self, inputs: [&[f64]; LANES]) {
        let n = self.topology[0];
        for (k, x) in inputs.iter().enumerate() {
            assert_eq!(x.len(), n, "input width");
            for (a, &v) in self.acts[0][1..].iter_mut().zip(*x) {
                a[k] = v;
            }
        }
        if self.skip {
            let below_top = self.topology.len() - 2;
            let (first, rest) = self.acts.split_at_mut(below_top);
            let tail = rest[0].len() - n;
            rest[0][tail..].copy_from_slice(&first[0][1..]);
        }
    }

    /// The forward pass of every lane: each neuron's sum in `dot`'s order, then the sigmoid.
    #[inline(always)]
    fn forward(&mut self) {
        for (l, w) in self.layers.iter().enumerate() {
            let (below, above) = self.acts.split_at_mut(l + 1);
            let a_in = &below[l];
            let a_out = &mut above[0][1..=self.topology[l + 1]];
            sums(w, a_in, a_out);
            for y in a_out.iter_mut() {
                *y = y.map(|v| sigmoid(v, self.slope));
            }
        }
    }

    /// ∂L/∂z = ((y − d)·b·y)·(1 − y) of every output neuron of every lane.
    #[inline(always)]
    fn output_deltas(&mut self, targets: [&[f64]; LANES]) {
        let top = self.layers.len() - 1;
        let y = &self.acts[top + 1][1..];
        for (k, d) in targets.iter().enumerate() {
            assert_eq!(d.len(), y.len(), "target width");
            for ((delta, y), &d) in self.deltas[top].iter_mut().zip(y).zip(*d) {
                let y = y[k];
                let e = y - d;
                delta[k] = e * self.slope * y * (1.0 - y);
            }
        }
    }

    /// Layer `l` of the fused backward pass and update (see the module docs).
    #[inline(always)]
    fn backward_layer(&mut self, l: usize, neg_eta: Lane, mu: Lane) {
        let width = self.widths[l];
        let b = self.slope;
        let a_in = &self.acts[l];
        let (below, at) = self.deltas.split_at_mut(l);
        let delta = &at[0];
        let mut no_down: [Lane; 0] = [];
        let down: &mut [Lane] = if l == 0 { &mut no_down } else { &mut below[l - 1] };
        down.fill([0.0; LANES]);
        let rows = self.layers[l].chunks_exact_mut(width);
        if self.velocity.is_empty() {
            for (row, d) in rows.zip(delta) {
                let alpha: Lane = std::array::from_fn(|k| neg_eta[k] * d[k]);
                row_sgd(row, d, alpha, a_in, down);
            }
        } else {
            let vs = self.velocity[l].chunks_exact_mut(width);
            for ((row, v), d) in rows.zip(vs).zip(delta) {
                let step: Lane = std::array::from_fn(|k| neg_eta[k] * d[k]);
                row_momentum(row, v, d, step, mu, a_in, down);
            }
        }
        for (dd, a) in down.iter_mut().zip(&a_in[1..]) {
            let (x, a) = (*dd, *a);
            let mut r = [0.0; LANES];
            for k in 0..LANES {
                r[k] = x[k] * (b * a[k] * (1.0 - a[k]));
            }
            *dd = r;
        }
    }
}

/// out[j] = the input sum of neuron j in every lane, in `dot`'s order (see the module docs).
#[inline(always)]
fn sums(w: &[Lane], a: &[Lane], out: &mut [Lane]) {
    let n = a.len();
    let full = n / 4 * 4;
    for (row, o) in w.chunks_exact(n).zip(out) {
        let mut acc = [[0.0f64; LANES]; 4];
        for (wc, ac) in row[..full].chunks_exact(4).zip(a[..full].chunks_exact(4)) {
            for q in 0..4 {
                acc[q] = add_product(acc[q], wc[q], ac[q]);
            }
        }
        let mut s: Lane = std::array::from_fn(|k| (acc[0][k] + acc[2][k]) + (acc[1][k] + acc[3][k]));
        for (w, a) in row[full..].iter().zip(&a[full..]) {
            s = add_product(s, *w, *a);
        }
        *o = s;
    }
}

/// y + s·x in every lane, each lane's multiply then add. Whole arrays in and out, so that the
/// compiler keeps the lanes in vector registers.
#[inline(always)]
fn add_product(y: Lane, s: Lane, x: Lane) -> Lane {
    let mut r = [0.0; LANES];
    for k in 0..LANES {
        r[k] = y[k] + s[k] * x[k];
    }
    r
}

/// One weight row of plain online backpropagation: its delta `d` passed down through its old
/// weights into `down` (the row's weights after the bias), then w ← w + (−η·δ)·a.
#[inline(always)]
fn row_sgd(row: &mut [Lane], d: &Lane, alpha: Lane, a: &[Lane], down: &mut [Lane]) {
    for (dd, w) in down.iter_mut().zip(&row[1..]) {
        *dd = add_product(*dd, *d, *w);
    }
    for (w, a) in row.iter_mut().zip(a) {
        *w = add_product(*w, alpha, *a);
    }
}

/// As [`row_sgd`], with momentum: v ← μ·v + (−η·δ)·a, w ← w + v.
#[inline(always)]
fn row_momentum(
    row: &mut [Lane],
    v: &mut [Lane],
    d: &Lane,
    step: Lane,
    mu: Lane,
    a: &[Lane],
    down: &mut [Lane],
) {
    for (dd, w) in down.iter_mut().zip(&row[1..]) {
        *dd = add_product(*dd, *d, *w);
    }
    for ((w, v), a) in row.iter_mut().zip(v.iter_mut()).zip(a) {
        let mut m = [0.0; LANES];
        for k in 0..LANES {
            m[k] = mu[k] * v[k];
        }
        *v = add_product(m, step, *a);
        let mut r = [0.0; LANES];
        for k in 0..LANES {
            r[k] = w[k] + v[k];
        }
        *w = r;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::net::mlp::Workspace;

    /// Lanes stepped together end with the weights each net reaches alone, bit for bit.
    fn lanes_equal_nets_alone(topology: &[usize], skip: bool, momentum: bool) {
        let make = |s| if skip { Mlp::with_skip(topology, 1.0, s) } else { Mlp::new(topology, 1.0, s) };
        let nets: Vec<Mlp> = (0..LANES as u64).map(|s| make(s).unwrap()).collect();
        let mut group = Lockstep::new(&nets[0], momentum);
        for (k, net) in nets.iter().enumerate() {
            group.load(k, net);
        }
        let n = topology[0];
        let o = topology[topology.len() - 1];
        let rows: Vec<f64> = (0..50 * n).map(|i| ((i * 37 % 11) as f64 - 5.0) / 4.0).collect();
        let targets: Vec<f64> = (0..50 * o).map(|i| (i * 7 % 3 == 0) as u8 as f64).collect();
        let mut alone = nets.clone();
        let mut velocity: Vec<Vec<Array2<f64>>> =
            nets.iter().map(|m| m.layers().iter().map(|w| Array2::zeros(w.dim())).collect()).collect();
        for t in 0..200 {
            let pick = |k: usize| (t * (k + 3) + k) % 50;
            let x: [&[f64]; LANES] = std::array::from_fn(|k| &rows[pick(k) * n..(pick(k) + 1) * n]);
            let d: [&[f64]; LANES] = std::array::from_fn(|k| &targets[pick(k) * o..(pick(k) + 1) * o]);
            let eta: Lane = std::array::from_fn(|k| 0.05 * (k + 1) as f64);
            let mu: Lane = std::array::from_fn(|k| 0.1 * k as f64);
            group.step(x, d, eta, mu);
            for (k, net) in alone.iter_mut().enumerate() {
                let mut ws = Workspace::new(net);
                let m = momentum.then_some((mu[k], velocity[k].as_mut_slice()));
                net.sgd_step(&mut ws, x[k], d[k], eta[k], m);
            }
        }
        for (k, net) in alone.iter().enumerate() {
            let mut got = net.clone();
            group.store(k, &mut got);
            let bits =
                |m: &Mlp| m.layers().iter().flat_map(|w| w.iter().map(|v| v.to_bits())).collect::<Vec<_>>();
            assert_eq!(bits(&got), bits(net), "lane {k}, {topology:?}");
        }
    }

    #[test]
    fn every_lane_computes_its_own_net_bit_for_bit() {
        for momentum in [false, true] {
            lanes_equal_nets_alone(&[32, 64, 20, 1], false, momentum);
            lanes_equal_nets_alone(&[23, 10, 10, 2], false, momentum);
            lanes_equal_nets_alone(&[6, 7, 1], true, momentum);
            lanes_equal_nets_alone(&[5, 3], false, momentum);
        }
    }
}
