//! `kpk bitbase`, `kpk probe` and `kpk bench`.

use super::paths::OutFile;
use anyhow::Context;
use clap::Args;
use kpk::chess::bitbase::Bitbase;
use kpk::chess::position::Oriented;
use kpk::output::FileOut;
use kpk::{Color, KpkPosition};
use std::io::Write;
use std::process::ExitCode;
use std::time::Instant;

#[derive(Args)]
pub struct BitbaseArgs {
    /// Write the bitbase in kpk's binary format (magic, version, CRC-32; see `Bitbase::to_bytes`).
    #[arg(long, value_name = "FILE")]
    out: Option<OutFile>,
    /// Write one CSV row per legal position: side,wk,bk,wp,result,dtc,fen.
    #[arg(long, value_name = "FILE")]
    csv: Option<OutFile>,
    /// With --csv: write that endgame's rows instead (fen,wdl,dtm: the distance to mate in plies,
    /// wdl from the side to move's view), one per legal position, both sides to move.
    #[arg(long, value_enum, requires = "csv", conflicts_with = "out")]
    endgame: Option<super::dtm::EndgameName>,
}

pub fn run_bitbase(args: BitbaseArgs) -> anyhow::Result<ExitCode> {
    let out = args.out.as_deref().map(FileOut::check).transpose()?;
    let csv = args.csv.as_deref().map(FileOut::check).transpose()?;
    kpk::output::distinct(&out.iter().chain(&csv).collect::<Vec<_>>())?;
    if let (Some(which), Some(csv)) = (args.endgame, &csv) {
        super::dtm::write_endgame_csv(which, &kpk::chess::dtm::Tables::generate(), csv)?;
        if !csv.is_stream() {
            outln!("wrote {}", csv.display())?;
        }
        return Ok(ExitCode::SUCCESS);
    }
    let started = Instant::now();
    let bb = Bitbase::generate();
    let took = started.elapsed();
    // The tables go to standard error when a file streams to standard output.
    let mut tables: Box<dyn Write> = if out.iter().chain(&csv).any(FileOut::is_stream) {
        Box::new(std::io::stderr())
    } else {
        Box::new(super::stdout())
    };
    write_table2(&mut tables, &bb)?;
    writeln!(tables)?;
    write_table3(&mut tables, &bb)?;
    writeln!(
        tables,
        "\ngenerated in {:.3} ms (single run; `kpk bench` measures properly)",
        took.as_secs_f64() * 1e3
    )?;
    if let Some(out) = &out {
        out.write(&bb.to_bytes())?;
        writeln!(tables, "wrote {}", out.display())?;
    }
    if let Some(csv) = &csv {
        write_csv(&bb, csv)?;
        writeln!(tables, "wrote {}", csv.display())?;
    }
    Ok(ExitCode::SUCCESS)
}

fn write_table2(w: &mut dyn Write, bb: &Bitbase) -> std::io::Result<()> {
    let c = bb.counts();
    writeln!(w, "Table 2: legal KPK positions (pawn on files a-d; e-h mirror them)")?;
    writeln!(w, "{:<14}{:>10}{:>10}{:>10}{:>8}", "", "positions", "wins", "draws", "win %")?;
    for side in [Color::White, Color::Black] {
        let s = usize::from(side == Color::Black);
        let name = if side == Color::White { "wtm" } else { "btm" };
        let row = |out: &mut dyn Write, label: String, n: usize, wins: usize| {
            writeln!(
                out,
                "{label:<14}{n:>10}{wins:>10}{:>10}{:>8.1}",
                n - wins,
                100.0 * wins as f64 / n as f64
            )
        };
        row(w, name.to_string(), c.positions(side), c.wins(side))?;
        for f in 0..4 {
            let file = (b'a' + f as u8) as char;
            row(w, format!("  {name} {file}-file"), c.positions[s][f], c.wins[s][f])?;
        }
    }
    let all = c.positions(Color::White) + c.positions(Color::Black);
    let wins = c.wins(Color::White) + c.wins(Color::Black);
    writeln!(w, "{:<14}{all:>10}{wins:>10}{:>10}{:>8.1}", "all", all - wins, 100.0 * wins as f64 / all as f64)
}

fn write_table3(w: &mut dyn Write, bb: &Bitbase) -> std::io::Result<()> {
    writeln!(
        w,
        "Table 3: won positions converted in exactly p plies (Np) and % of wins not converted within p plies (Rp)"
    )?;
    writeln!(w, "{:>4}{:>10}{:>10}{:>10}{:>10}", "p", "Np wtm", "Rp wtm", "Np btm", "Rp btm")?;
    for r in kpk::analysis::reproduction::domain::table3(bb) {
        let [nw, nb] = r.converted;
        let [rw, rb] = r.remaining_pct;
        writeln!(w, "{:>4}{nw:>10}{rw:>10.2}{nb:>10}{rb:>10.2}", r.p)?;
    }
    Ok(())
}

fn write_csv(bb: &Bitbase, out: &FileOut) -> anyhow::Result<()> {
    out.write_with(|w| {
        let mut csv = csv::Writer::from_writer(w);
        csv.write_record(["side", "wk", "bk", "wp", "result", "dtc", "fen"])?;
        for p in KpkPosition::all() {
            let dtc = bb.dtc(&p).map(|d| d.0.to_string()).unwrap_or_default();
            csv.write_record([
                p.side().fen_char().to_string(),
                p.wk().to_string(),
                p.bk().to_string(),
                p.wp().to_string(),
                bb.outcome(&p).to_string(),
                dtc,
                p.to_fen(),
            ])?;
        }
        csv.flush()
    })
    .with_context(|| format!("writing {}", out.display()))
}

#[derive(Args)]
pub struct ProbeArgs {
    /// Positions in FEN; the pawn may be of either colour and on any file.
    #[arg(required = true, value_name = "FEN")]
    fens: Vec<String>,
}

pub fn run_probe(args: ProbeArgs) -> anyhow::Result<ExitCode> {
    let bb = Bitbase::generate();
    let tables = kpk::chess::dtm::Tables::generate();
    let mut batch = super::Batch::new();
    for (i, fen) in args.fens.iter().enumerate() {
        if i > 0 {
            outln!()?;
        }
        match Oriented::from_fen(fen) {
            Ok(o) => {
                print_probe(&bb, &tables, &o)?;
                batch.answered();
            }
            Err(e) => match super::dtm::print_pawnless_probe(&tables, fen) {
                Some(printed) => {
                    printed?;
                    batch.answered();
                }
                None => batch.rejected(&format!("argument {}", i + 1), e),
            },
        }
    }
    Ok(batch.exit_code())
}

fn print_probe(bb: &Bitbase, tables: &kpk::chess::dtm::Tables, o: &Oriented) -> std::io::Result<()> {
    let p = o.position;
    let answer = kpk::chess::probe::probe(bb, o);
    let pawn_side = if o.transform.flip_colours { "Black" } else { "White" };
    let to_move = if p.side() == Color::White { "the pawn side" } else { "the lone king" };
    let result = match answer.dtc {
        Some(d) => {
            let dtm = tables.kpk_dtm(&p).plies;
            format!("{}, DTC {d} plies, DTZ {}, DTM {dtm} plies", answer.outcome, answer.dtz)
        }
        None => answer.outcome.to_string(),
    };
    outln!("{}", o.to_fen())?;
    outln!("  {result} ({pawn_side} has the pawn; {to_move} to move)")?;
    if answer.moves.is_empty() {
        return outln!("  no legal moves: stalemate");
    }
    outln!("  {:<8}{:<8}{:>6}{:>6}  note", "move", "result", "DTC", "DTM")?;
    for m in &answer.moves {
        let dtc = m.dtc.map(|d| d.to_string()).unwrap_or_else(|| "-".into());
        let after = tables.after_move(&p, m.mv);
        let dtm = if after.wdl == 0 { "-".to_string() } else { after.plies.to_string() };
        let note: Vec<&str> =
            [if m.best { "best" } else { "" }, m.note].into_iter().filter(|s| !s.is_empty()).collect();
        outln!("  {:<8}{:<8}{:>6}{dtm:>6}  {}", m.name, m.outcome.to_string(), dtc, note.join("; "))?;
    }
    Ok(())
}
