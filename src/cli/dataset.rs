//! `kpk dataset` and `kpk features`.

use super::paths::OutFile;
use clap::Args;
use kpk::chess::bitbase::Bitbase;
use kpk::chess::position::Oriented;
use kpk::dataset::{DEFAULT_SEED, Dataset, Filter};
use kpk::output::FileOut;
use kpk::paper::coding::InputCoding;
use kpk::paper::features::{FEATURES, features};
use kpk::{Color, Outcome};
use std::process::ExitCode;

#[derive(Args)]
pub struct DatasetArgs {
    /// The endgame: kpk, or krk (king and rook against king, from its distance-to-mate table).
    #[arg(long, value_enum, default_value = "kpk")]
    endgame: DatasetEndgame,
    /// Named set: T1, S1, T2, S2 (seeded random draws), T3, T4, T5, wtm, btm or all; with
    /// --endgame krk, uci (the UCI repository's krkopt.data) or none for the whole table.
    #[arg(long = "set", value_name = "NAME")]
    set: Option<String>,
    /// Seed of the T1/S1 and T2/S2 draws.
    #[arg(long, default_value_t = DEFAULT_SEED)]
    seed: u64,
    /// Keep only positions with this side to move.
    #[arg(long, value_parser = parse_side)]
    side: Option<Color>,
    /// Keep only positions with the pawn on this file (a-d, canonical orientation).
    #[arg(long, value_parser = parse_file)]
    file: Option<u8>,
    /// Keep only positions with the pawn on this rank (2-7).
    #[arg(long, value_parser = clap::value_parser!(u8).range(2..=7))]
    rank: Option<u8>,
    /// Keep only wins or only draws.
    #[arg(long, value_parser = parse_result)]
    result: Option<Outcome>,
    /// Keep only wins converted in at most P plies (with --side w: the paper's closed set Cp).
    #[arg(long, value_name = "P")]
    max_dtc: Option<u8>,
    /// Where to write the CSV: side,wk,bk,wp,x1..x32,result,dtc (KPK); for KRK see docs/KRK.md.
    #[arg(long, value_name = "FILE.csv")]
    out: OutFile,
}

fn parse_side(s: &str) -> Result<Color, String> {
    match s {
        "w" | "wtm" | "white" => Ok(Color::White),
        "b" | "btm" | "black" => Ok(Color::Black),
        _ => Err(format!("'{s}' is not a side: use w or b")),
    }
}

fn parse_file(s: &str) -> Result<u8, String> {
    match s.as_bytes() {
        [f @ b'a'..=b'd'] => Ok(f - b'a' + 1),
        [f @ b'e'..=b'h'] => Err(format!(
            "the pawn is on files a-d in canonical orientation: file {s} mirrors to file {}",
            char::from(b'a' + b'h' - f)
        )),
        _ => Err(format!("'{s}' is not a pawn file: use a, b, c or d")),
    }
}

fn parse_result(s: &str) -> Result<Outcome, String> {
    match s {
        "win" => Ok(Outcome::Win),
        "draw" => Ok(Outcome::Draw),
        _ => Err(format!("'{s}' is not a result: use win or draw")),
    }
}

/// The endgames `kpk dataset` writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum DatasetEndgame {
    Kpk,
    Krk,
}

pub fn run_dataset(args: DatasetArgs) -> anyhow::Result<ExitCode> {
    if args.endgame == DatasetEndgame::Krk {
        return super::krk::run_krk_dataset(&args.krk_request()?);
    }
    let Some(set) = args.set.as_deref() else {
        return Err(kpk::Error::Argument(
            "--set is required: give a set's name (T1, S1, T2, S2, T3, T4, T5, wtm, btm or all)".into(),
        )
        .into());
    };
    let out = FileOut::check(&args.out)?;
    let bb = Bitbase::generate();
    let filter = Filter {
        side: args.side,
        pawn_file: args.file,
        pawn_rank: args.rank,
        outcome: args.result,
        max_dtc: args.max_dtc,
    };
    let ds = Dataset::named(set, args.seed, &bb)?.filter(&filter)?;
    if ds.is_empty() {
        errln!("kpk: warning: the filters leave no positions of {}; the CSV has only its header", ds.name);
    }
    ds.write_csv(&out)?; // the error names the path
    let wins = ds.wins().iter().filter(|&&w| w).count();
    let seeded = ["T1", "S1", "T2", "S2"].contains(&ds.name.split('[').next().unwrap_or_default());
    let seed = if seeded { format!(" (seed {})", args.seed) } else { String::new() };
    // The report line goes to standard error when the CSV itself streams to standard output.
    let line = format!(
        "{}{seed}: {} positions, {wins} wins, {} draws; wrote {}",
        ds.name,
        ds.len(),
        ds.len() - wins,
        out.display()
    );
    if out.is_stream() {
        errln!("{line}");
    } else {
        outln!("{line}")?;
    }
    Ok(ExitCode::SUCCESS)
}

impl DatasetArgs {
    /// The KRK request: the KPK filters have no meaning there and are refused.
    fn krk_request(&self) -> kpk::Result<super::krk::KrkRequest> {
        let kpk_only = [
            ("--seed", self.seed != DEFAULT_SEED),
            ("--side", self.side.is_some()),
            ("--file", self.file.is_some()),
            ("--rank", self.rank.is_some()),
            ("--result", self.result.is_some()),
            ("--max-dtc", self.max_dtc.is_some()),
        ];
        if let Some((flag, _)) = kpk_only.iter().find(|f| f.1) {
            return Err(kpk::Error::Argument(format!(
                "{flag} filters KPK's sets; --endgame krk takes only --set and --out"
            )));
        }
        let uci = match self.set.as_deref() {
            None => false,
            Some("uci") => true,
            Some(other) => {
                return Err(kpk::Error::UnknownName {
                    what: "KRK set",
                    given: other.into(),
                    allowed: "uci (or no --set for the whole table)".into(),
                });
            }
        };
        Ok(super::krk::KrkRequest { uci, out: self.out.0.clone() })
    }
}

#[derive(Args)]
pub struct FeaturesArgs {
    /// Positions in FEN; the pawn may be of either colour and on any file.
    #[arg(required = true, value_name = "FEN")]
    fens: Vec<String>,
    /// Also print the network inputs in this coding (natural, scaled, binary or onehot).
    #[arg(long)]
    coding: Option<InputCoding>,
}

pub fn run_features(args: FeaturesArgs) -> anyhow::Result<ExitCode> {
    let mut batch = super::Batch::new();
    for (i, fen) in args.fens.iter().enumerate() {
        if i > 0 {
            outln!()?;
        }
        let o = match Oriented::from_fen(fen) {
            Ok(o) => o,
            Err(e) => {
                batch.rejected(&format!("argument {}", i + 1), e);
                continue;
            }
        };
        batch.answered();
        let p = o.position;
        outln!("{}", o.to_fen())?;
        if o.transform != kpk_probe::Transform::IDENTITY {
            outln!("  canonical (White pawn on files a-d): {}", p.to_fen())?;
        }
        let x = features(&p);
        outln!("  {:<4}{:<5}{:>5}  {:<20}{:>6}  formula", "x", "char", "level", "name", "value")?;
        for (f, v) in FEATURES.iter().zip(x) {
            outln!(
                "  {:<4}{:<5}{:>5}  {:<20}{:>6}  {}",
                format!("x{}", f.x),
                f.code,
                f.level,
                f.name,
                v,
                f.formula
            )?;
        }
        if let Some(c) = args.coding {
            let mut out = vec![0.0; c.width()];
            c.encode(&x, &mut out);
            let values: Vec<String> = out.iter().map(|v| format!("{v}")).collect();
            outln!("  {c} inputs ({}): {}", c.width(), values.join(" "))?;
        }
    }
    Ok(batch.exit_code())
}
