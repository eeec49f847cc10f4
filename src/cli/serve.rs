//! `kpk serve`: the explorer page on 127.0.0.1.

use super::paths::InFile;
use anyhow::Context;
use clap::Args;
use kpk::Bitbase;
use kpk::hybrid::Hybrid;
use kpk::serve::api::{Explorer, LoadedNet};
use kpk::serve::server::Limits;
use std::path::Path;
use std::process::ExitCode;
use std::sync::Arc;

#[derive(Args)]
#[command(after_help = "Listens on 127.0.0.1 only and prints the page's address. The JSON API: \
GET /api/probe?fen=FEN and GET /api/map?fen=FEN (see docs/SERVE.md).")]
pub struct ServeArgs {
    /// The port on 127.0.0.1 (0: any free port; the address is printed).
    #[arg(long, default_value_t = 8642)]
    port: u16,
    /// The hybrid model whose answers the page shows [default: the committed models/kpk.hybrid,
    /// compiled into kpk].
    #[arg(long, value_name = "FILE")]
    model: Option<InFile>,
    /// A trained net (`kpk run`'s weights.json) to show beside the bitbase; repeat for several.
    #[arg(long = "net", value_name = "WEIGHTS.json")]
    nets: Vec<InFile>,
    /// Worker threads answering requests.
    #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u16).range(1..=64))]
    threads: u16,
}

/// The name a net is shown under: its folder's name for `…/trial40/weights.json`, else its stem.
fn net_name(path: &Path) -> String {
    let stem = path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
    match path.parent().and_then(Path::file_name) {
        Some(dir) if stem == "weights" => dir.to_string_lossy().into_owned(),
        _ => stem,
    }
}

pub fn run_serve(args: ServeArgs) -> anyhow::Result<ExitCode> {
    let committed = (kpk::hybrid::DEFAULT_MODEL, kpk::hybrid::DEFAULT_MODEL_BYTES);
    let (bytes, shown) = super::model_bytes(args.model.as_deref(), committed)?;
    let hybrid = Some(Hybrid::from_bytes(&bytes, &shown).context("loading the hybrid model")?);
    let mut nets = Vec::new();
    for path in &args.nets {
        let mut name = net_name(path);
        if nets.iter().any(|n: &LoadedNet| n.name == name) {
            name = path.display().to_string();
        }
        nets.push(LoadedNet::load(path, name).context("loading a net")?);
    }
    let server = kpk::serve::bind(args.port)?;
    let explorer = Explorer::new(Bitbase::generate(), hybrid, nets);
    outln!("kpk explorer: http://127.0.0.1:{}/  (Ctrl-C stops it)", server.address().port())?;
    server.run(Arc::new(explorer), Limits::new(usize::from(args.threads)))?;
    Ok(ExitCode::SUCCESS)
}
