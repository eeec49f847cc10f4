//! `kpk compress-play`: build the play model (win/draw hybrid + move proposer + move exceptions).

use super::paths::{InFile, OutFile, OwnDir};
use anyhow::Context;
use clap::Args;
use kpk::Bitbase;
use kpk::analysis::Mode;
use kpk::hybrid::Hybrid;
use kpk::hybrid::dtz::DEFAULT_DTZ_MODEL;
use kpk::output::FileOut;
use kpk::play::model::DEFAULT_PLAY_MODEL;
use kpk::play::propose::{Proposer, fit_proposer};
use kpk::play::{is_perfect, model::PlayModel};
use kpk::report::driver::drive;
use kpk::{Color, KpkPosition};
use rayon::prelude::*;
use std::path::Path;
use std::process::ExitCode;

#[derive(Args)]
pub struct CompressPlayArgs {
    /// The exact win/draw model to embed: the shipped tree (`kpk learners --ship`), or any exact
    /// hybrid such as the net hybrid written by `kpk compress`.
    #[arg(long, value_name = "FILE", default_value = kpk::hybrid::DEFAULT_MODEL)]
    hybrid: InFile,
    /// Where to write the play model (`-`: standard output).
    #[arg(long, value_name = "FILE", default_value = DEFAULT_PLAY_MODEL)]
    out: OutFile,
}

pub fn run_compress_play(args: CompressPlayArgs) -> anyhow::Result<ExitCode> {
    let out = FileOut::check(&args.out)?;
    kpk::output::check_all(&[&out], &[&args.hybrid])?;
    let hybrid = Hybrid::load(&args.hybrid)
        .context("loading the hybrid model (write the shipped one with `kpk learners --ship`)")?;
    let bb = Bitbase::generate();
    if !hybrid.disagreements(&bb).is_empty() {
        anyhow::bail!("{} is not exact: it disagrees with the bitbase", args.hybrid.display());
    }
    let (proposer, misses) = fit_proposer(&bb, Proposer::default());
    errln!(
        "proposer weights {:?}: {misses} positions where its first winning move is not optimal",
        proposer.weights
    );
    let model = PlayModel::build(hybrid, proposer, &bb);
    let bytes = model.to_bytes();
    let reloaded = PlayModel::from_bytes(&bytes, &out.display())?;
    if reloaded != model {
        anyhow::bail!("{} does not read back as the model written", out.display());
    }
    let wrong = KpkPosition::all()
        .collect::<Vec<_>>()
        .par_iter()
        .filter(|p| {
            let sure = match p.side() {
                Color::White => bb.dtc(p).is_some(),
                Color::Black => bb.dtc(p).is_none(),
            };
            // A stalemated side has no move and gets none.
            let right = match reloaded.best_move(p) {
                Some(mv) => is_perfect(&bb, p, mv),
                None => p.moves().is_empty(),
            };
            sure && !right
        })
        .count();
    if wrong > 0 {
        anyhow::bail!("the play model misplays {wrong} positions");
    }
    out.write(&bytes)?;
    let hybrid_len = reloaded.hybrid().to_bytes().len();
    let msg = format!(
        "wrote {} ({} bytes: hybrid {hybrid_len}, {} move exceptions)",
        out.display(),
        bytes.len(),
        reloaded.exception_count()
    );
    if out.is_stream() {
        errln!("{msg}")
    } else {
        outln!("{msg}")?
    }
    errln!("best-move query speed on this machine: {:.0} ns per position", best_move_ns(&reloaded, 5).1);
    Ok(ExitCode::SUCCESS)
}

/// The model `kpk query` answers from: a play model (`KPKP`) gives its hybrid and its moves; a
/// hybrid model (`KPKH`) gives outcomes only, and `--best-move` then is an error.
pub fn load_query_model(
    path: Option<&Path>,
    best_move: bool,
    dtz: bool,
) -> anyhow::Result<(Hybrid, Option<PlayModel>, Option<kpk_probe::DtzModel>)> {
    // `--best-move` alone reads the committed play model, which holds the hybrid too.
    let committed = if dtz {
        (DEFAULT_DTZ_MODEL, kpk::hybrid::dtz::DEFAULT_DTZ_MODEL_BYTES)
    } else if best_move {
        (DEFAULT_PLAY_MODEL, kpk::play::model::DEFAULT_PLAY_MODEL_BYTES)
    } else {
        (kpk::hybrid::DEFAULT_MODEL, kpk::hybrid::DEFAULT_MODEL_BYTES)
    };
    let (bytes, shown) = super::model_bytes(path, committed)?;
    if dtz && !bytes.starts_with(kpk_probe::dtz::DTZ_MAGIC) {
        anyhow::bail!(
            "{shown} holds no depths: --dtz needs a DTZ model such as {DEFAULT_DTZ_MODEL} (`kpk compress-dtz`)"
        );
    }
    if bytes.starts_with(kpk_probe::dtz::DTZ_MAGIC) {
        let m = kpk_probe::DtzModel::from_bytes(&bytes).map_err(|e| anyhow::anyhow!("{shown}: {e}"))?;
        let hybrid = Hybrid::from_bytes(m.embedded(), &shown)?;
        if best_move {
            anyhow::bail!(
                "{shown} holds no moves: --best-move needs a play model such as {DEFAULT_PLAY_MODEL}"
            );
        }
        return Ok((hybrid, None, Some(m)));
    }
    if bytes.starts_with(kpk::play::model::PLAY_MAGIC) {
        let play = PlayModel::from_bytes(&bytes, &shown)?;
        return Ok((play.hybrid().clone(), Some(play), None));
    }
    let hybrid = Hybrid::from_bytes(&bytes, &shown)
        .context("loading the hybrid model (write the shipped one with `kpk learners --ship`)")?;
    if best_move {
        anyhow::bail!(
            "{shown} holds no moves: --best-move needs a play model such as {DEFAULT_PLAY_MODEL} (`kpk compress-play`)"
        );
    }
    Ok((hybrid, None, None))
}

/// `kpk query --best-move`'s last column: the model's move in UCI in the FEN's own squares, `-`
/// when the side to move has none (stalemate).
pub fn best_move_column(play: &PlayModel, o: &kpk::Oriented) -> String {
    play.best_move(&o.position).map_or_else(|| "-".to_string(), |mv| kpk::play::uci(o, mv))
}

/// The play model in `path`, or the committed one compiled into kpk.
pub fn load_play_model(path: Option<&Path>) -> anyhow::Result<PlayModel> {
    let (bytes, shown) =
        super::model_bytes(path, (DEFAULT_PLAY_MODEL, kpk::play::model::DEFAULT_PLAY_MODEL_BYTES))?;
    Ok(PlayModel::from_bytes(&bytes, &shown)?)
}

/// Single-threaded time per `best_move` over every legal position, min and median over `runs`
/// passes, in nanoseconds.
pub fn best_move_ns(model: &PlayModel, runs: usize) -> (f64, f64) {
    let all: Vec<KpkPosition> = KpkPosition::all().collect();
    let (min, median, _) = super::timing::time_runs(runs, || {
        all.iter().filter_map(|p| model.best_move(p)).map(|mv| mv.to.index()).sum::<usize>()
    });
    let per = |d: std::time::Duration| d.as_secs_f64() * 1e9 / all.len() as f64;
    (per(min), per(median))
}

/// `kpk bench --what best-move`: the play model's answers, per position, single-threaded.
pub fn bench_best_move(path: Option<&Path>, runs: usize) -> anyhow::Result<()> {
    let model = load_play_model(path)?;
    let (min, median) = best_move_ns(&model, runs);
    outln!(
        "play model best move, every legal position in turn: min {min:.0} ns, median {median:.0} ns per position over {runs} passes"
    )?;
    Ok(())
}

/// The net hybrid of the `hybrid` and `hybrid-net` players: a hybrid that holds a net (a tree's
/// ±1 has no confidence to search with).
fn load_net_hybrid(path: Option<&Path>) -> anyhow::Result<Hybrid> {
    let (bytes, shown) = super::model_bytes(path, (kpk::hybrid::NET_MODEL, kpk::hybrid::NET_MODEL_BYTES))?;
    let hybrid = Hybrid::from_bytes(&bytes, &shown)
        .context("loading the net hybrid (write one with `kpk compress`)")?;
    hybrid.net().with_context(|| format!("{shown}: the hybrid players need a net hybrid"))?;
    Ok(hybrid)
}

/// Who plays a side in `kpk play`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum PlayerName {
    /// The bitbase: fastest win, longest defence, a draw kept.
    Perfect,
    /// The play model file alone (`--model`).
    Model,
    /// A random move that keeps the side's result (`--seed`).
    Random,
    /// The exact net hybrid (`--hybrid`) with its net's confidence as tie-break, searching `--q`
    /// plies below the move.
    Hybrid,
    /// The net hybrid's net alone (`--hybrid`), searching `--q` plies below the move.
    HybridNet,
    /// The DTM tables throughout: the quickest mate, the longest resistance.
    Dtm,
}

#[derive(Args)]
#[command(
    after_help = "Prints the game as PGN on standard output. The side not given plays perfectly. A won game goes on past the promotion to checkmate, both sides playing by distance to mate."
)]
pub struct PlayArgs {
    /// The start position in FEN: king and pawn versus king, the pawn of either colour, any file.
    #[arg(value_name = "FEN")]
    fen: String,
    /// Who plays White.
    #[arg(long, value_enum, default_value = "perfect")]
    white: PlayerName,
    /// Who plays Black.
    #[arg(long, value_enum, default_value = "perfect")]
    black: PlayerName,
    /// The play model for `model` players [default: the committed models/kpk-play.hybrid,
    /// compiled into kpk].
    #[arg(long, value_name = "FILE")]
    model: Option<InFile>,
    /// The net hybrid of `hybrid` and `hybrid-net` players [default: the committed
    /// models/kpk-net.hybrid, compiled into kpk].
    #[arg(long, value_name = "FILE")]
    hybrid: Option<InFile>,
    /// Seed of `random` players.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Plies searched below the move by `hybrid` and `hybrid-net` players.
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u32).range(0..=4))]
    q: u32,
    /// Stop after this many plies in all (unfinished KPK is then `*`; past a winning promotion the
    /// result stands).
    #[arg(long, default_value_t = 100)]
    max_plies: usize,
}

pub fn run_play(args: PlayArgs) -> anyhow::Result<ExitCode> {
    use kpk::play::game::Player;
    use kpk::play::mating::play_to_mate;
    let start = kpk::Oriented::from_fen(&args.fen)?;
    let bb = Bitbase::generate();
    let tables = kpk::chess::dtm::Tables::generate();
    let sides = [args.white, args.black];
    let model =
        if sides.contains(&PlayerName::Model) { Some(load_play_model(args.model.as_deref())?) } else { None };
    let needs_net = sides.iter().any(|n| matches!(n, PlayerName::Hybrid | PlayerName::HybridNet));
    let net = if needs_net { Some(load_net_hybrid(args.hybrid.as_deref())?) } else { None };
    let evaluator = |name: PlayerName| -> anyhow::Result<Option<kpk::chess::search::Values>> {
        let hybrid = || net.as_ref().expect("loaded above");
        let mut values = match name {
            PlayerName::Hybrid => kpk::play::evaluators::hybrid_exact(hybrid())?,
            PlayerName::HybridNet => kpk::play::evaluators::hybrid_net(hybrid())?,
            _ => return Ok(None),
        };
        for _ in 0..args.q {
            values = values.deepened();
        }
        Ok(Some(values))
    };
    let values = [evaluator(args.white)?, evaluator(args.black)?];
    let make = |side: usize, seed: u64| match (sides[side], &values[side]) {
        (PlayerName::Model, _) => Player::Model(model.as_ref().expect("loaded above")),
        (PlayerName::Random, _) => Player::random(&bb, seed),
        (PlayerName::Dtm, _) => Player::Dtm(&tables),
        (_, Some(v)) => Player::Search(v),
        _ => Player::Perfect(&bb),
    };
    let (mut white, mut black) = (make(0, args.seed), make(1, args.seed.wrapping_add(1)));
    let (white_name, black_name) = (white.name(), black.name());
    // Inside, the pawn side is White; a black pawn swaps the players.
    let game = if start.transform.flip_colours {
        play_to_mate(&bb, &tables, start, &mut black, &mut white, args.max_plies)
    } else {
        play_to_mate(&bb, &tables, start, &mut white, &mut black, args.max_plies)
    };
    use std::io::Write;
    write!(super::stdout(), "{}", kpk::play::pgn::to_pgn_mated(&game, &white_name, &black_name))?;
    Ok(ExitCode::SUCCESS)
}

#[derive(Args)]
pub struct MatchArgs {
    /// The play model of the `model` player.
    #[arg(long, value_name = "FILE", default_value = DEFAULT_PLAY_MODEL)]
    model: InFile,
    /// The trial config that trains the NN6 evaluator (for wtm, and with side btm for btm).
    #[arg(long, value_name = "FILE", default_value = kpk::play::evaluators::NN6_TRIAL)]
    nn6: InFile,
    /// The compress config whose first candidate trains the `hybrid` evaluators, once per seed.
    #[arg(long, value_name = "FILE", default_value = kpk::play::evaluators::HYBRID_CONFIG)]
    hybrid: InFile,
    /// The deepest search below the move, in plies.
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u32).range(0..=4))]
    max_q: u32,
    /// Seeds (replicates) of every net the match trains and of the random mover.
    #[arg(long, default_value_t = kpk::play::pipeline::SEEDS as u32, value_parser = clap::value_parser!(u32).range(1..=20))]
    seeds: u32,
    /// Where to write the report (`-`: standard output).
    #[arg(long, value_name = "FILE", default_value = "reports/PLAY.md")]
    out: OutFile,
    /// Where to write wins won and draws held with their intervals over seeds (CSV).
    #[arg(long, value_name = "FILE", default_value = "reports/play/results.csv")]
    csv: OutFile,
    /// Where to write each player's counts per seed, from which the intervals are computed (CSV).
    #[arg(long, value_name = "FILE", default_value = "reports/play/seeds.csv")]
    seeds_csv: OutFile,
    /// Where the report's figures go (PNG and SVG).
    #[arg(long, value_name = "DIR", default_value = "reports/figures")]
    figures: OwnDir,
    /// The match's results (JSON): written by a run, read by --render-only.
    #[arg(long, value_name = "FILE", default_value = "reports/play.json")]
    results: OutFile,
    /// Redraw the report and its figures from --results alone: no training, no games.
    #[arg(long)]
    render_only: bool,
}

pub fn run_match(args: MatchArgs) -> anyhow::Result<ExitCode> {
    let started = std::time::Instant::now();
    let report = kpk::analysis::matches::Match {
        model: args.model.into(),
        nn6: args.nn6.into(),
        hybrid: args.hybrid.into(),
        setup: kpk::play::pipeline::MatchSetup {
            seeds: args.seeds as usize,
            ..kpk::play::pipeline::MatchSetup::full(args.max_q)
        },
        report: args.out.into(),
        csv: args.csv.into(),
        seeds_csv: args.seeds_csv.into(),
        figures: args.figures.into(),
        results: args.results.into(),
        progress: &|s| errln!("{s}"),
    };
    let mode = if args.render_only { Mode::RenderOnly } else { Mode::Run };
    drive(&report, mode)?;
    match mode {
        // No games were played: say where the numbers came from, not a match time.
        Mode::RenderOnly => errln!(
            "rendered {} from the committed results {}: no games played",
            report.report.display(),
            report.results.display()
        ),
        Mode::Run | Mode::AnalyseOnly => errln!(
            "the match took {:.1} s on this machine; wrote {}",
            started.elapsed().as_secs_f64(),
            report.report.display()
        ),
    }
    Ok(ExitCode::SUCCESS)
}
