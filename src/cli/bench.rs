//! `kpk bench`: the speed of the hot paths, single-threaded, as min and median over timed runs.

use super::paths::InFile;
use super::timing::time_runs;
use anyhow::Context;
use clap::Args;
use kpk::chess::bitbase::Bitbase;
use kpk::chess::position::Oriented;
use kpk::hybrid::Hybrid;
use kpk::{KpkPosition, Outcome};
use std::path::Path;
use std::process::ExitCode;
use std::time::Duration;

#[derive(Args)]
pub struct BenchArgs {
    /// How many timed runs, after warm-up [default: 200; 5 for the training targets].
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..))]
    runs: Option<u32>,
    /// What to measure.
    #[arg(long, value_enum, default_value_t = BenchTarget::Bitbase)]
    what: BenchTarget,
    /// The model file: a hybrid for `--what query` [default: models/kpk.hybrid], a play model for
    /// `--what best-move` [default: models/kpk-play.hybrid], a DTZ model for `--what dtz`
    /// [default: models/kpk-dtz.hybrid].
    #[arg(long, value_name = "FILE")]
    model: Option<InFile>,
}

#[derive(Clone, Copy, clap::ValueEnum)]
pub enum BenchTarget {
    /// Generate the bitbase (outcome + DTC), with the DTZ pass, and the five DTM tables.
    Bitbase,
    /// The 32 characteristics of every legal position.
    Features,
    /// The network inputs of T3 (all wtm positions) in every coding.
    Inputs,
    /// One epoch of online backpropagation, 32-64-20-1 on the 81,664 wtm positions.
    Online,
    /// One epoch of Adam with batches of 256, same net and positions.
    Adam,
    /// The end-of-epoch measurement pass (E1, E2, correct count) over the same positions.
    Measure,
    /// All three training benchmarks.
    Train,
    /// Online backpropagation for a group of nets at once (nets across vector lanes) beside one
    /// net alone, the nets trained a second, and the share of the core's peak.
    Lockstep,
    /// Exact answers from the hybrid model (`--model`): per query, batch, from FEN, loading.
    Query,
    /// Best moves from the play model (`--model`): per query over every legal position.
    BestMove,
    /// DTZ from the DTZ model (`--model`): per query over every legal position, and loading.
    Dtz,
}

pub fn run_bench(args: BenchArgs) -> anyhow::Result<ExitCode> {
    let runs = args.runs.map_or(200, |n| n as usize);
    let report = |what: &str, (min, median, mean): (Duration, Duration, Duration)| -> std::io::Result<()> {
        outln!(
            "{what}: min {:.3} ms, median {:.3} ms, mean {:.3} ms over {} runs",
            min.as_secs_f64() * 1e3,
            median.as_secs_f64() * 1e3,
            mean.as_secs_f64() * 1e3,
            runs
        )
    };
    match args.what {
        BenchTarget::Bitbase => {
            report(
                "bitbase generate (outcome + DTC, all 196,608 indices)",
                time_runs(runs, Bitbase::generate),
            )?;
            let with_dtz = || {
                let bb = Bitbase::generate();
                bb.dtz_at(kpk::chess::index::KpkIndex::new(0).expect("index 0"));
                bb
            };
            report("bitbase generate and DTZ pass (outcome + DTC + DTZ)", time_runs(runs, with_dtz))?;
            report(
                "DTM tables generate (KQK, KRK, KBK, KNK, then KPK through promotion)",
                time_runs(runs, kpk::chess::dtm::Tables::generate),
            )?;
        }
        BenchTarget::Features => {
            use kpk::paper::features::features;
            use kpk_probe::table4::N_FEATURES;
            let positions: Vec<KpkPosition> = KpkPosition::all().collect();
            let mut out = vec![[0i8; N_FEATURES]; positions.len()];
            let what = format!("features x1..x32 of all {} legal positions", positions.len());
            report(
                &what,
                time_runs(runs, || {
                    for (o, p) in out.iter_mut().zip(&positions) {
                        *o = features(std::hint::black_box(p));
                    }
                    out[out.len() - 1][31]
                }),
            )?;
            report(
                "enumerate the legal positions and compute their features",
                time_runs(runs, || KpkPosition::all().map(|p| features(&p)[31] as i64).sum::<i64>()),
            )?;
        }
        BenchTarget::Inputs => {
            let bb = Bitbase::generate();
            let t3 = kpk::dataset::Dataset::named("T3", 0, &bb)?;
            for coding in kpk::paper::coding::InputCoding::ALL {
                let what = format!("T3 inputs ({} x {}), {coding} coding", t3.len(), coding.width());
                report(&what, time_runs(runs, || t3.inputs(coding)))?;
            }
        }
        BenchTarget::Online | BenchTarget::Adam | BenchTarget::Measure | BenchTarget::Train => {
            let all = matches!(args.what, BenchTarget::Train);
            let what = super::train_bench::TrainBench {
                measurement: all || matches!(args.what, BenchTarget::Measure),
                online: all || matches!(args.what, BenchTarget::Online),
                adam: all || matches!(args.what, BenchTarget::Adam),
            };
            return super::train_bench::run_train_bench(what, args.runs.map_or(5, |n| n as usize));
        }
        BenchTarget::Lockstep => {
            return super::lockstep_bench::run_lockstep_bench(args.runs.map_or(5, |n| n as usize));
        }
        BenchTarget::Query => bench_query(args.model.as_deref(), runs)?,
        BenchTarget::BestMove => {
            super::play::bench_best_move(args.model.as_deref(), args.runs.map_or(20, |n| n as usize))?
        }
        BenchTarget::Dtz => super::dtz::bench_dtz(args.model.as_deref(), runs)?,
    }
    Ok(ExitCode::SUCCESS)
}

/// `kpk bench --model FILE`: the speed of exact answers from the hybrid, single-threaded and as a
/// batch on every thread.
pub fn bench_query(path: Option<&Path>, runs: usize) -> anyhow::Result<()> {
    let (bytes, shown) =
        super::model_bytes(path, (kpk::hybrid::DEFAULT_MODEL, kpk::hybrid::DEFAULT_MODEL_BYTES))?;
    let model = Hybrid::from_bytes(&bytes, &shown)
        .context("loading the hybrid model (write the shipped one with `kpk learners --ship`)")?;
    let learner = if model.net().is_ok() { "a net" } else { "a decision tree" };
    outln!(
        "model {shown}: format version {}, {} bytes, {learner} and {} exceptions",
        model.probe().version(),
        model.sizes().total,
        model.exceptions().len()
    )?;
    let legal: Vec<KpkPosition> = KpkPosition::all().collect();
    let n = legal.len();
    let (min, median, _) =
        time_runs(runs, || legal.iter().filter(|p| model.classify(p).outcome == kpk::Outcome::Win).count());
    outln!(
        "hybrid query, all {n} legal positions as a batch: min {:.3} ms, median {:.3} ms ({:.1} ns per position)",
        min.as_secs_f64() * 1e3,
        median.as_secs_f64() * 1e3,
        median.as_secs_f64() * 1e9 / n as f64
    )?;
    let threads = rayon::current_num_threads();
    let (min_all, median_all, _) = time_runs(runs, || {
        model.classify_all(&legal).iter().filter(|a| a.outcome == kpk::Outcome::Win).count()
    });
    outln!(
        "hybrid query, all {n} legal positions as a batch on {threads} threads (Hybrid::classify_all): min {:.3} ms, median {:.3} ms",
        min_all.as_secs_f64() * 1e3,
        median_all.as_secs_f64() * 1e3
    )?;
    // The embeddable probe alone, on positions already in its own form (what an engine calls).
    let probe = model.probe();
    let positions: Vec<kpk_probe::Position> = kpk_probe::Position::all().collect();
    let (min_probe, median_probe, _) = time_runs(runs, || {
        positions.iter().filter(|p| probe.probe(p).outcome == kpk_probe::Outcome::Win).count()
    });
    outln!(
        "kpk-probe query, all {} legal positions as a batch: min {:.3} ms ({:.1} ns per position), median {:.3} ms",
        positions.len(),
        min_probe.as_secs_f64() * 1e3,
        min_probe.as_secs_f64() * 1e9 / positions.len() as f64,
        median_probe.as_secs_f64() * 1e3
    )?;
    let fens: Vec<String> = legal.iter().step_by(16).map(|p| p.to_fen()).collect();
    let (_, median_fen, _) = time_runs(runs.div_ceil(10), || {
        fens.iter()
            .filter_map(|f| Oriented::from_fen(f).ok())
            .filter(|o| model.classify(&o.position).outcome == kpk::Outcome::Win)
            .count()
    });
    outln!(
        "hybrid query from FEN text (parse + answer), {} positions: {:.1} ns per position",
        fens.len(),
        median_fen.as_secs_f64() * 1e9 / fens.len() as f64
    )?;
    let (_, median_load, _) = time_runs(runs, || Hybrid::from_bytes(&bytes, "bench").is_ok());
    outln!("hybrid model load (parse + checks): {:.1} µs", median_load.as_secs_f64() * 1e6)?;
    let (_, median_expand, _) = time_runs(runs, || kpk_probe::Model::from_bytes(&bytes).is_ok());
    outln!(
        "kpk-probe expanded path, load (parse + checks + every answer computed): {:.1} µs",
        median_expand.as_secs_f64() * 1e6
    )?;
    bench_lazy(&bytes, &positions, runs)
}

/// The lazy path (`kpk_probe::lazy`) of a version-3 model: its load, and its queries one by one
/// over every legal position, by side to move.
fn bench_lazy(bytes: &[u8], positions: &[kpk_probe::Position], runs: usize) -> anyhow::Result<()> {
    let mut work = vec![0u32; kpk_probe::lazy::workspace_words(bytes)];
    if kpk_probe::Lazy::load(bytes, &mut work).is_err() {
        outln!("kpk-probe lazy path: answers format version 3 (a tree) only")?;
        return Ok(());
    }
    let (_, median_load, _) = time_runs(runs, || kpk_probe::Lazy::load(bytes, &mut work).is_ok());
    outln!(
        "kpk-probe lazy path, load (parse + checks, {} words of workspace): {:.2} µs",
        kpk_probe::lazy::workspace_words(bytes),
        median_load.as_secs_f64() * 1e6
    )?;
    let lazy = kpk_probe::Lazy::load(bytes, &mut work).map_err(|e| anyhow::anyhow!("{e}"))?;
    for (side, white) in [("the pawn side", true), ("the lone king", false)] {
        let some: Vec<&kpk_probe::Position> =
            positions.iter().filter(|p| p.white_to_move() == white).collect();
        let (min, median, _) = time_runs(runs.div_ceil(10), || {
            some.iter().filter(|p| lazy.probe(p).outcome == kpk_probe::Outcome::Win).count()
        });
        outln!(
            "kpk-probe lazy path, {} positions with {side} to move, one by one: {:.1} ns per position (median; min {:.1})",
            some.len(),
            median.as_secs_f64() * 1e9 / some.len() as f64,
            min.as_secs_f64() * 1e9 / some.len() as f64
        )?;
    }
    let (_, median, _) = time_runs(runs.div_ceil(10), || {
        positions.iter().filter(|p| lazy.probe(p).outcome == kpk_probe::Outcome::Win).count()
    });
    outln!(
        "kpk-probe lazy path, all {} legal positions: {:.1} ns per position (median)",
        positions.len(),
        median.as_secs_f64() * 1e9 / positions.len() as f64
    )?;
    Ok(())
}

/// Query speed of a model, measured by `kpk compress` and printed (it depends on the machine).
pub struct Speed {
    pub batch_ms: f64,
    pub per_query_ns: f64,
    pub fen_ns: f64,
    pub load_us: f64,
}

pub fn measure_query_speed(model: &Hybrid, bytes: &[u8]) -> Speed {
    let legal: Vec<KpkPosition> = KpkPosition::all().collect();
    let (_, batch, _) =
        time_runs(15, || legal.iter().filter(|p| model.classify(p).outcome == Outcome::Win).count());
    let fens: Vec<String> = legal.iter().step_by(8).map(|p| p.to_fen()).collect();
    let (_, fen, _) = time_runs(5, || {
        fens.iter()
            .filter_map(|f| Oriented::from_fen(f).ok())
            .filter(|o| model.classify(&o.position).outcome == Outcome::Win)
            .count()
    });
    let (_, load, _) = time_runs(50, || Hybrid::from_bytes(bytes, "bench").is_ok());
    Speed {
        batch_ms: batch.as_secs_f64() * 1e3,
        per_query_ns: batch.as_secs_f64() * 1e9 / legal.len() as f64,
        fen_ns: fen.as_secs_f64() * 1e9 / fens.len() as f64,
        load_us: load.as_secs_f64() * 1e6,
    }
}
