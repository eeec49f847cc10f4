//! `kpk uci`: the UCI engine of `kpk::play::engine` on standard input and output.

use super::paths::InFile;
use kpk::Bitbase;
use kpk::play::engine::Engine;
use kpk::play::engine::root::Player;
use std::io::{BufRead, Write};
use std::process::ExitCode;

#[derive(clap::Args)]
pub struct UciArgs {
    /// The play model whose moves the engine plays in KPK positions [default: the committed
    /// models/kpk-play.hybrid, compiled into kpk].
    #[arg(long, value_name = "FILE")]
    model: Option<InFile>,
    /// Play the bitbase's perfect moves instead, and report each win's depth to conversion.
    #[arg(long, conflicts_with = "model")]
    perfect: bool,
}

/// The longest input line read; a longer one is refused whole (read to its end but not kept, so
/// an endless line cannot exhaust memory).
const MAX_LINE: usize = 1 << 16;

/// One line of input: its bytes without the line end, or that it was longer than [`MAX_LINE`].
#[derive(Debug, PartialEq, Eq)]
enum Line {
    Text(Vec<u8>),
    TooLong,
}

/// The next line of `input`; `None` at the end of input.
fn next_line(input: &mut impl BufRead) -> std::io::Result<Option<Line>> {
    let mut line = Vec::new();
    let mut seen = false;
    let mut too_long = false;
    loop {
        let buf = input.fill_buf()?;
        if buf.is_empty() {
            return Ok(seen.then_some(if too_long { Line::TooLong } else { Line::Text(line) }));
        }
        seen = true;
        let end = buf.iter().position(|&b| b == b'\n');
        let take = end.unwrap_or(buf.len());
        too_long |= line.len() + take > MAX_LINE;
        if !too_long {
            line.extend_from_slice(&buf[..take]);
        }
        input.consume(end.map_or(take, |e| e + 1));
        if end.is_some() {
            return Ok(Some(if too_long { Line::TooLong } else { Line::Text(line) }));
        }
    }
}

pub fn run_uci(args: UciArgs) -> anyhow::Result<ExitCode> {
    let player = if args.perfect {
        Player::Perfect
    } else {
        Player::Model(Box::new(super::play::load_play_model(args.model.as_deref())?))
    };
    let mut engine = Engine::new(player, Bitbase::generate());
    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    let mut out = crate::kpk_cli::stdout();
    while let Some(line) = next_line(&mut input)? {
        let reply = match line {
            Line::Text(bytes) => engine.handle(&String::from_utf8_lossy(&bytes)),
            Line::TooLong => engine.refuse_long_line(MAX_LINE),
        };
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
    fn lines_are_split_an_over_long_one_refused_and_the_last_needs_no_line_end() {
        let long = "x".repeat(MAX_LINE + 10);
        let text = format!("uci\r\n{long}\nisready");
        let mut input = std::io::BufReader::with_capacity(7, text.as_bytes());
        let text_line = |t: &[u8]| Some(Line::Text(t.to_vec()));
        assert_eq!(next_line(&mut input).unwrap(), text_line(b"uci\r"));
        assert_eq!(next_line(&mut input).unwrap(), Some(Line::TooLong));
        assert_eq!(next_line(&mut input).unwrap(), text_line(b"isready"));
        assert_eq!(next_line(&mut input).unwrap(), None);
    }
}
