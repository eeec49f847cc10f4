//! `kpk uci`: the UCI engine of `kpk::play::engine` on standard input and output.

use super::paths::InFile;
use kpk::Bitbase;
use kpk::play::engine::{Engine, Player};
use kpk::play::model::{DEFAULT_PLAY_MODEL, PlayModel};
use std::io::{BufRead, Write};
use std::process::ExitCode;

#[derive(clap::Args)]
pub struct UciArgs {
    /// The play model whose moves the engine plays in KPK positions.
    #[arg(long, value_name = "FILE", default_value = DEFAULT_PLAY_MODEL)]
    model: InFile,
    /// Play the bitbase's perfect moves instead, and report each win's depth to conversion.
    #[arg(long, conflicts_with = "model")]
    perfect: bool,
}

/// The longest input line read whole; the rest of a longer line is dropped (its start is still
/// answered, so an endless line cannot exhaust memory).
const MAX_LINE: usize = 1 << 16;

/// The next line of `input` without its line end, at most [`MAX_LINE`] bytes of it; `None` at the
/// end of input.
fn next_line(input: &mut impl BufRead) -> std::io::Result<Option<Vec<u8>>> {
    let mut line = Vec::new();
    let mut seen = false;
    loop {
        let buf = input.fill_buf()?;
        if buf.is_empty() {
            return Ok(seen.then_some(line));
        }
        seen = true;
        let end = buf.iter().position(|&b| b == b'\n');
        let take = end.unwrap_or(buf.len());
        let room = MAX_LINE.saturating_sub(line.len());
        line.extend_from_slice(&buf[..take.min(room)]);
        input.consume(end.map_or(take, |e| e + 1));
        if end.is_some() {
            return Ok(Some(line));
        }
    }
}

pub fn run_uci(args: UciArgs) -> anyhow::Result<ExitCode> {
    let player =
        if args.perfect { Player::Perfect } else { Player::Model(Box::new(PlayModel::load(&args.model)?)) };
    let mut engine = Engine::new(player, Bitbase::generate());
    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    let mut out = crate::kpk_cli::stdout();
    while let Some(bytes) = next_line(&mut input)? {
        let reply = engine.handle(&String::from_utf8_lossy(&bytes));
        for line in &reply.lines {
            writeln!(out, "{line}")?;
        }
        out.flush()?;
        if reply.quit {
            break;
        }
    }
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_split_capped_and_the_last_needs_no_line_end() {
        let long = "x".repeat(MAX_LINE + 10);
        let text = format!("uci\r\n{long}\nisready");
        let mut input = std::io::BufReader::with_capacity(7, text.as_bytes());
        assert_eq!(next_line(&mut input).unwrap().unwrap(), b"uci\r");
        assert_eq!(next_line(&mut input).unwrap().unwrap().len(), MAX_LINE);
        assert_eq!(next_line(&mut input).unwrap().unwrap(), b"isready");
        assert_eq!(next_line(&mut input).unwrap(), None);
    }
}
