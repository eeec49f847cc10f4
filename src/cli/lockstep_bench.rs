//! `kpk bench --what lockstep`: online backpropagation for a group of nets at once
//! ([`kpk::net::lockstep`]) against one net alone, on the workload of `--what online`, with the
//! arithmetic rate and the share of the core's peak it reaches.

use kpk::Bitbase;
use kpk::dataset::Dataset;
use kpk::net::lockstep::{LANES, Lane, Lockstep};
use kpk::net::mlp::{Mlp, Workspace};
use kpk::paper::coding::InputCoding;
use rand::SeedableRng;
use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;
use std::process::ExitCode;

const TOPOLOGY: [usize; 4] = [32, 64, 20, 1];
const ETA: f64 = 0.1;

/// What the peak means for kernels that must keep their bits.
const PEAK_NOTE: &str = "note: kpk's kernels multiply and add separately (no FMA), to compute the same bits on every machine; AMD Zen cores add on two pipes of their own beside the two FMA units, so separate multiplies and adds can still reach the FMA peak there, Intel cores only half of it; and each multiply-add of a weight also loads the weight and the activation (two loads a cycle of 256 bits on Zen 4), which caps a matrix-vector product nearer half the peak";

/// Floating-point operations of one online step of one net, a multiply and an add per weight in
/// the forward pass, again in the update, and again per weight whose delta passes down (every
/// layer but the first); the sigmoids and deltas themselves are not counted.
fn flops_per_step(topology: &[usize]) -> usize {
    let weights: usize = topology.windows(2).map(|w| w[1] * (w[0] + 1)).sum();
    let down: usize = topology.windows(2).skip(1).map(|w| w[1] * w[0]).sum();
    2 * (2 * weights + down)
}

/// The core's assumed peak in double-precision operations a cycle, and why.
struct Peak {
    per_cycle: f64,
    ghz: Option<f64>,
    why: String,
}

/// Read /proc/cpuinfo: two FMA units are assumed (every x86-64 core with AVX2 since Haswell and
/// Zen has two), each as wide as the core's vector datapath: 512 bits where AVX-512 runs at full
/// width (Intel, AMD Zen 5), 256 bits on AMD Zen 4, which runs AVX-512 as two 256-bit halves, and
/// on AVX2 cores. The clock is the `cpu MHz` the kernel reports (in a virtual machine often the
/// nominal clock, not the boost clock).
fn peak() -> Peak {
    let info = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
    let field = |name: &str| {
        info.lines()
            .find(|l| l.starts_with(name))
            .and_then(|l| l.split(':').nth(1))
            .map(|v| v.trim().to_string())
    };
    let flags = field("flags").unwrap_or_default();
    let has = |f: &str| flags.split_whitespace().any(|x| x == f);
    let amd = field("vendor_id").is_some_and(|v| v == "AuthenticAMD");
    let family = field("cpu family").and_then(|f| f.parse::<u32>().ok()).unwrap_or(0);
    let bits = if has("avx512f") && !(amd && family < 26) {
        512
    } else if has("avx2") {
        256
    } else {
        128
    };
    let lanes = bits / 64;
    let fma = if has("fma") { 2 } else { 1 };
    let ghz = field("cpu MHz").and_then(|m| m.parse::<f64>().ok()).map(|m| m / 1e3);
    let model = field("model name").unwrap_or_else(|| "unknown CPU".into());
    let why = format!(
        "{model}, cpu family {family}: {bits}-bit datapath, {fma} FMA units x {lanes} f64 lanes x 2 = {} double-precision operations a cycle",
        2 * fma * lanes
    );
    Peak { per_cycle: (2 * fma * lanes) as f64, ghz, why }
}

/// One online epoch of a group of [`LANES`] nets: lane k a net of seed k in an order of its own.
struct Group {
    group: Lockstep,
    orders: Vec<Vec<u32>>,
}

impl Group {
    fn new(n: usize) -> anyhow::Result<Group> {
        let nets: Vec<Mlp> =
            (0..LANES as u64).map(|s| Mlp::new(&TOPOLOGY, 1.0, s)).collect::<Result<_, _>>()?;
        let mut group = Lockstep::new(&nets[0], false);
        for (k, net) in nets.iter().enumerate() {
            group.load(k, net);
        }
        let orders = (0..LANES as u64)
            .map(|s| {
                let mut order: Vec<u32> = (0..n as u32).collect();
                order.shuffle(&mut ChaCha8Rng::seed_from_u64(s));
                order
            })
            .collect();
        Ok(Group { group, orders })
    }

    fn epoch(&mut self, rows: &[f64], targets: &[f64]) {
        let w = TOPOLOGY[0];
        let eta: Lane = [ETA; LANES];
        for t in 0..self.orders[0].len() {
            let at = |k: usize| self.orders[k][t] as usize;
            let x: [&[f64]; LANES] = std::array::from_fn(|k| &rows[at(k) * w..(at(k) + 1) * w]);
            let d: [&[f64]; LANES] = std::array::from_fn(|k| &targets[at(k)..at(k) + 1]);
            self.group.step(x, d, eta, [0.0; LANES]);
        }
    }
}

pub fn run_lockstep_bench(runs: usize) -> anyhow::Result<ExitCode> {
    let bb = Bitbase::generate();
    let t3 = Dataset::named("T3", 0, &bb)?;
    let inputs = t3.inputs(InputCoding::Natural);
    let rows = inputs.as_slice().expect("standard layout");
    let targets: Vec<f64> = t3.wins().iter().map(|&w| if w { 1.0 } else { 0.0 }).collect();
    let n = targets.len();
    let cores = std::thread::available_parallelism().map_or(1, |c| c.get());
    outln!("workload: T3, {n} wtm positions x 32 natural inputs, net {TOPOLOGY:?}, groups of {LANES} nets")?;
    let ms = |v: &[f64]| (v[0] * 1e3, v[v.len() / 2] * 1e3);

    let mut net = Mlp::new(&TOPOLOGY, 1.0, 0)?;
    let mut ws = Workspace::new(&net);
    let (_, cpu) = super::timing::timed(1, runs, || {
        for (x, d) in rows.chunks_exact(32).zip(&targets) {
            net.sgd_step(&mut ws, x, std::slice::from_ref(d), ETA, None);
        }
    });
    let (single, single_median) = ms(&cpu);
    outln!(
        "single net, update pass: CPU min {single:.1} ms, median {single_median:.1} ms per net-epoch ({} runs)",
        cpu.len()
    )?;

    let mut group = Group::new(n)?;
    let (_, cpu) = super::timing::timed(1, runs, || group.epoch(rows, &targets));
    let (min, median) = ms(&cpu);
    let per_net = min / LANES as f64;
    outln!(
        "lockstep group of {LANES}, update pass: CPU min {min:.1} ms, median {median:.1} ms per group-epoch ({} runs); {per_net:.2} ms per net-epoch, {:.2}x the single net",
        cpu.len(),
        single / per_net
    )?;

    // Every core a group of its own, all at once: the machine's rate, wall clock.
    let mut groups: Vec<Group> = (0..cores).map(|_| Group::new(n)).collect::<anyhow::Result<_>>()?;
    let (wall, _) = super::timing::timed(0, runs.min(3), || {
        std::thread::scope(|scope| {
            for g in groups.iter_mut() {
                scope.spawn(|| g.epoch(rows, &targets));
            }
        });
    });
    let machine = (cores * LANES) as f64 / wall[0];
    outln!(
        "net-epochs a second: {:.1} per core (one group), {machine:.1} per machine ({cores} threads, one group each, measured together)",
        1e3 / per_net
    )?;

    let flops = flops_per_step(&TOPOLOGY) as f64 * n as f64;
    let rate = flops / (per_net * 1e-3) / 1e9;
    let p = peak();
    outln!(
        "arithmetic: {:.0} operations a position and net, {:.2} GFLOP a net-epoch; lockstep {rate:.1} GFLOP/s on one core",
        flops / n as f64,
        flops / 1e9
    )?;
    match p.ghz {
        Some(ghz) => {
            let peak = p.per_cycle * ghz;
            outln!(
                "peak assumed: {} at {ghz:.2} GHz = {peak:.1} GFLOP/s; lockstep reaches {:.1}% of it, the single net {:.1}%",
                p.why,
                100.0 * rate / peak,
                100.0 * flops / (single * 1e-3) / 1e9 / peak
            )?;
            outln!("{}", PEAK_NOTE)?;
        }
        None => outln!("peak assumed: {}; no clock in /proc/cpuinfo, so no fraction", p.why)?,
    }
    outln!("lockstep update pass: {per_net:.2} ms per net-epoch")?;
    Ok(ExitCode::SUCCESS)
}
