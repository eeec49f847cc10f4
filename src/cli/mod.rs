//! Command-line front end: clap-derive commands, one small `run_*` per subcommand. The only
//! place in kpk that prints, draws progress bars or uses `anyhow`.

use clap::{Parser, Subcommand};
use std::io::Write;
use std::process::ExitCode;

/// `println!` that returns a failed write (a full disk, a closed pipe) as an `io::Error` naming
/// standard output, for `?`, instead of panicking: every line a command prints to standard
/// output goes through it or through [`stdout`].
macro_rules! outln {
    () => {
        std::io::Write::write_all(&mut crate::kpk_cli::stdout(), b"\n")
    };
    ($($arg:tt)*) => {
        std::io::Write::write_fmt(&mut crate::kpk_cli::stdout(), format_args!("{}\n", format_args!($($arg)*)))
    };
}

/// `eprintln!` that never panics: a line to standard error that cannot be written (`2>/dev/full`)
/// is dropped, since there is nowhere left to report it.
macro_rules! errln {
    ($($arg:tt)*) => {{
        let _ = std::io::Write::write_fmt(&mut std::io::stderr(), format_args!("{}\n", format_args!($($arg)*)));
    }};
}

mod bench;
mod bitbase;
mod dataset;
mod dtm;
mod dtz;
mod experiment;
mod findings;
mod hybrid;
mod krk;
mod krk_learners;
mod krk_model;
mod learners;
mod lockstep_bench;
mod paths;
mod play;
mod readings;
mod serve;
mod study;
mod timing;
mod train_bench;
mod uci;

#[derive(Parser)]
#[command(
    name = "kpk",
    version,
    about = "KPK endgame: exact bitbase, the paper's 32 characteristics, neural networks"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Generate the exact bitbase; print Tables 2 and 3; optionally write it as binary or CSV.
    Bitbase(bitbase::BitbaseArgs),
    /// Outcome and depth to conversion of positions, with every legal move's result.
    Probe(bitbase::ProbeArgs),
    /// Measure the speed of the bitbase generator and other hot paths.
    Bench(bench::BenchArgs),
    /// Exact outcomes from the model file alone (a decision tree or a net, and its exceptions; no bitbase).
    Query(hybrid::QueryArgs),
    /// Write a named training/testing set (T1..T5, S1, S2, wtm, btm, all) as CSV with x1..x32.
    Dataset(dataset::DatasetArgs),
    /// The 32 characteristics of Table 4 for positions given in FEN.
    Features(dataset::FeaturesArgs),
    /// Train nets, quantise them, file their exceptions: write the smallest exact hybrid model.
    Compress(hybrid::CompressArgs),
    /// Build the play model: the hybrid plus a move proposer and its exceptions (perfect moves).
    CompressPlay(play::CompressPlayArgs),
    /// Build the DTZ model: Syzygy's depth to zeroing for every position (reports/DTZ.md).
    CompressDtz(dtz::CompressDtzArgs),
    /// Build the KRK model: KRK's distance to mate for every position (docs/KRK.md).
    CompressKrk(krk_model::CompressKrkArgs),
    /// Play one game from a FEN and print it as PGN (perfect play, the play model, or random).
    Play(play::PlayArgs),
    /// Every player against perfect play from every won and drawn position: reports/PLAY.md.
    Match(play::MatchArgs),
    /// Train the trials of TOML configs; write each one's report folder (metrics, weights, plots).
    Run(experiment::RunArgs),
    /// Run all 41 trials of the paper's Table 5 and write reports/REPRODUCTION.md beside the paper.
    Reproduce(experiment::ReproduceArgs),
    /// Write a trained net's weights as JSON, safetensors and NumPy .npy files.
    Export(experiment::ExportArgs),
    /// Redraw a trial's accuracy chart from its metrics.csv.
    Plot(experiment::PlotArgs),
    /// Replicate Table 5 under every reading of section 4.5's stopping rule and kept state.
    Readings(readings::ReadingsArgs),
    /// The explorer: a local web page (127.0.0.1) over the bitbase, the characteristics and the nets.
    Serve(serve::ServeArgs),
    /// Section 7's learners compared on Table 4's characterisation: reports/LEARNERS.md.
    Learners(learners::LearnersArgs),
    /// Section 7's learners on the UCI KRK set's 18 classes: reports/KRK.md.
    KrkLearners(krk_learners::KrkLearnersArgs),
    /// Write reports/README.md: the main findings, picked from the reports' summaries.
    Findings(findings::FindingsArgs),
    /// Run studies of section 6's questions (experiments/studies/*.toml); --all writes reports/STUDIES.md.
    Study(study::StudyArgs),
    /// A UCI chess engine for KPK positions: the play model's moves (or --perfect, the bitbase's).
    Uci(uci::UciArgs),
}

/// The answer of a command that takes a batch of inputs (FENs on the command line or lines of
/// standard input): exit 0 when every input was answered, 1 when some were rejected and the rest
/// answered, 2 when none could be answered (docs/CLI.md).
#[derive(Default)]
pub struct Batch {
    answered: usize,
    rejected: usize,
}

impl Batch {
    pub fn new() -> Batch {
        Batch::default()
    }
    pub fn answered(&mut self) {
        self.answered += 1;
    }
    /// Print one input's error as every kpk error is printed, naming the input (`argument 2`,
    /// `line 7`), and count it.
    pub fn rejected(&mut self, which: &str, error: impl std::fmt::Display) {
        errln!("kpk: error: {which}: {}", kpk_probe::quote::escape_controls(&error.to_string()));
        self.rejected += 1;
    }
    pub fn exit_code(&self) -> ExitCode {
        match (self.answered, self.rejected) {
            (_, 0) => ExitCode::SUCCESS,
            (0, _) => ExitCode::from(2),
            _ => ExitCode::from(1),
        }
    }
}

/// On SIGINT or SIGTERM, remove the temporary entries of the outputs being written (the previous
/// outputs stay as they were), then exit with 130 or 143 as shells report an interrupted command
/// (docs/CLI.md, "Interruption").
fn remove_temporaries_on_signal() {
    if let Err(e) = kpk::output::interrupt::remove_temporaries_on_signal() {
        errln!("kpk: warning: interrupting will leave temporary files: {e}");
    }
}

/// Parse the command line and run it. Errors come back to `main`, which prints one line.
pub fn run() -> anyhow::Result<ExitCode> {
    remove_temporaries_on_signal();
    let cli = match parse(std::env::args_os()) {
        Ok(cli) => cli?,
        Err(e) if !e.use_stderr() => {
            // Help and version go to stdout with exit 0.
            write!(stdout(), "{}", e.render())?;
            stdout().flush()?;
            return Ok(ExitCode::SUCCESS);
        }
        Err(e) if e.kind() == clap::error::ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
            // `kpk` alone: the help, on standard error, and exit 2.
            errln!("{}", e.render().to_string().trim_end());
            return Ok(ExitCode::from(2));
        }
        Err(e) => {
            errln!("kpk: error: {}", kpk_probe::quote::escape_controls(&usage_line(&e.render().to_string())));
            return Ok(ExitCode::from(2));
        }
    };
    let needs_repository = matches!(
        cli.command,
        Command::Reproduce(_)
            | Command::Study(_)
            | Command::Learners(_)
            | Command::KrkLearners(_)
            | Command::Findings(_)
            | Command::Readings(_)
            | Command::Match(_)
            | Command::Compress(_)
            | Command::CompressDtz(_)
            | Command::CompressPlay(_)
    );
    let code = dispatch(cli.command);
    let code = match code {
        Err(e) if needs_repository && outside_repository() && reads_a_missing_file(&e) => {
            let command = std::env::args().nth(1).unwrap_or_default();
            return Err(e.context(format!(
                "kpk {command} reads the kpk repository's experiments/, reports/ and models/: run it from the root of a clone"
            )));
        }
        code => code?,
    };
    // What is still buffered is written now, so that a failure is reported rather than lost.
    stdout().flush()?;
    Ok(code)
}

/// Whether `e` comes from a file or folder that does not exist (a repository file the command
/// reads by default, when run outside the repository), rather than from one the user named that
/// exists but is wrong.
fn reads_a_missing_file(e: &anyhow::Error) -> bool {
    let missing = |io: &std::io::Error| io.kind() == std::io::ErrorKind::NotFound;
    e.chain().any(|c| {
        c.downcast_ref::<std::io::Error>().is_some_and(missing)
            || matches!(c.downcast_ref::<kpk::Error>(), Some(kpk::Error::Io { cause, .. }) if missing(cause))
    })
}

/// Whether the current folder is no kpk repository (it has no experiments/ folder).
fn outside_repository() -> bool {
    !std::path::Path::new("experiments").is_dir()
}

/// Run the command.
fn dispatch(command: Command) -> anyhow::Result<ExitCode> {
    match command {
        Command::Bitbase(args) => bitbase::run_bitbase(args),
        Command::Probe(args) => bitbase::run_probe(args),
        Command::Bench(args) => bench::run_bench(args),
        Command::Query(args) => hybrid::run_query(args),
        Command::Dataset(args) => dataset::run_dataset(args),
        Command::Features(args) => dataset::run_features(args),
        Command::Compress(args) => hybrid::run_compress(args),
        Command::CompressPlay(args) => play::run_compress_play(args),
        Command::CompressDtz(args) => dtz::run_compress_dtz(args),
        Command::CompressKrk(args) => krk_model::run_compress_krk(args),
        Command::Play(args) => play::run_play(args),
        Command::Match(args) => play::run_match(args),
        Command::Run(args) => experiment::run_run(args),
        Command::Reproduce(args) => experiment::run_reproduce(args),
        Command::Export(args) => experiment::run_export(args),
        Command::Plot(args) => experiment::run_plot(args),
        Command::Readings(args) => readings::run_readings(args),
        Command::Learners(args) => learners::run_learners(args),
        Command::KrkLearners(args) => krk_learners::run_krk_learners(args),
        Command::Findings(args) => findings::run_findings(args),
        Command::Serve(args) => serve::run_serve(args),
        Command::Study(args) => study::run_study(args),
        Command::Uci(args) => uci::run_uci(args),
    }
}

/// Parse a command line and pass it through the guard of [`paths`]: every path its arguments
/// name, checked against the others before the command runs. The outer error is clap's (usage,
/// help), the inner the guard's.
fn parse<T: Into<std::ffi::OsString> + Clone>(
    argv: impl IntoIterator<Item = T>,
) -> Result<kpk::Result<Cli>, clap::Error> {
    use clap::{CommandFactory, FromArgMatches};
    let command = Cli::command();
    let matches = command.clone().try_get_matches_from(argv)?;
    let cli = Cli::from_arg_matches(&matches)?;
    Ok(paths::guard(&command, &matches).map(|()| cli))
}

/// A usage error as kpk's one error line: clap's message, its tips, and the command whose
/// `--help` tells more (`unexpected argument '--x' found; tip: … (try 'kpk learners --help')`).
fn usage_line(rendered: &str) -> String {
    let mut lines = rendered.lines().map(str::trim).filter(|l| !l.is_empty());
    let mut line = lines.next().unwrap_or_default().trim_start_matches("error: ").to_string();
    for tip in lines.filter(|l| l.starts_with("tip:")) {
        line += &format!("; {tip}");
    }
    let sub = std::env::args()
        .nth(1)
        .filter(|a| <Cli as clap::CommandFactory>::command().find_subcommand(a).is_some());
    let command = sub.map_or_else(|| "kpk".to_string(), |s| format!("kpk {s}"));
    format!("{line} (try '{command} --help')")
}

/// A model's bytes and the name its errors use: the file given, or else the committed model
/// compiled into kpk (named by its path in the repository), so that commands reading a model
/// answer from any folder.
pub fn model_bytes(
    file: Option<&std::path::Path>,
    committed: (&str, &'static [u8]),
) -> anyhow::Result<(std::borrow::Cow<'static, [u8]>, String)> {
    match file {
        Some(path) => Ok((kpk::io::read(path)?.into(), path.display().to_string())),
        None => Ok((committed.1.into(), committed.0.to_string())),
    }
}

/// Replicates, seeds and draws given on the command line: 1 to [`kpk::study::config::MAX_REPLICATES`]
/// (docs/CLI.md).
pub fn count_parser() -> clap::builder::RangedU64ValueParser<usize> {
    clap::builder::RangedU64ValueParser::<usize>::new().range(1..=kpk::study::config::MAX_REPLICATES as u64)
}

/// Standard output for the commands: `std::io::stdout()` whose errors name it (`standard output:
/// No space left on device`) and keep their kind, so that `main` can tell a closed pipe.
pub struct Stdout(std::io::Stdout);

pub fn stdout() -> Stdout {
    Stdout(std::io::stdout())
}

fn on_stdout(e: std::io::Error) -> std::io::Error {
    std::io::Error::new(e.kind(), format!("standard output: {e}"))
}

impl Write for Stdout {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.write(buf).map_err(on_stdout)
    }
    fn flush(&mut self) -> std::io::Result<()> {
        self.0.flush().map_err(on_stdout)
    }
}

/// Whether `err` is a write into a closed pipe (`kpk bitbase --csv - | head`): the reader wanted
/// no more, so `main` exits quietly with 141, as a shell reports a writer killed by SIGPIPE.
pub fn is_closed_pipe(err: &anyhow::Error) -> bool {
    err.chain().any(caused_by_closed_pipe)
}

/// Whether `err` or anything under it (a kpk I/O error's cause, an `io::Error` wrapping a CSV
/// writer's error) is EPIPE.
fn caused_by_closed_pipe(err: &(dyn std::error::Error + 'static)) -> bool {
    if let Some(kpk::error::Error::Io { cause, .. }) = err.downcast_ref::<kpk::error::Error>() {
        return caused_by_closed_pipe(cause);
    }
    if let Some(io) = err.downcast_ref::<std::io::Error>() {
        if io.kind() == std::io::ErrorKind::BrokenPipe {
            return true;
        }
        if let Some(inner) = io.get_ref() {
            return caused_by_closed_pipe(inner);
        }
    }
    if let Some(csv::ErrorKind::Io(io)) = err.downcast_ref::<csv::Error>().map(csv::Error::kind) {
        return caused_by_closed_pipe(io);
    }
    err.source().is_some_and(caused_by_closed_pipe)
}
