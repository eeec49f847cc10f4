//! `reports/COMPRESSION.md` and its plot, written by `kpk compress`: every number comes from the
//! run or from the cited sources, none is typed in by hand. The prose is the template
//! `compression.md` beside this file.

use crate::Color as Side;
use crate::chess::index::{KpkIndex, MAX_INDEX};
use crate::chess::position::{KpkPosition, Outcome};
use crate::error::{Error, Result};
use crate::hybrid::compress::{Candidate, CompressConfig};
use crate::hybrid::{ExceptionOrder, Hybrid};
use crate::net::topology::Topology;
use crate::paper::tables;
use crate::play::frontier::FrontierRow;
use crate::report::diagram::{self, Diagram};
use crate::report::frontier;
use crate::report::template;
use plotters::prelude::*;
use std::path::Path;

const TEMPLATE: &str = include_str!("compression.md");

/// The name of the size plot, written beside the report.
pub const PLOT_NAME: &str = "compression-size.png";

/// The name of the board diagrams of the exception table's positions, written beside the report.
pub const EXCEPTIONS_NAME: &str = "compression-exceptions.svg";

/// Diagrams per row in the exceptions figure.
const EXCEPTION_COLUMNS: usize = 8;

/// Sizes of other representations (bytes, exact, random access), cited from their published files.
const ANCHORS: [(&str, usize, bool, bool); 4] = [
    ("pfkpk's table", 32_768, true, true),
    ("Syzygy KPvK WDL table", 7_824, true, true),
    ("raw bitbase under zstd -22", 3_922, true, false),
    ("raw bitbase under xz -9e", 3_528, true, false),
];

/// The paper's nets (Table 5, NN1–NN6): 64-bit floating-point weights, not exact on KPK.
const PAPER_NETS: [&str; 6] =
    ["32-10-10-1", "32-20-10-1", "32-32-5-1", "32-64-10-1", "32-64-20-1", "32-32-5-2"];

/// The goal the model's size is held to, in bytes.
const GOAL_BYTES: usize = 2_000;

fn weights(topology: &str) -> usize {
    topology.parse::<Topology>().expect("a paper net's topology").weight_count()
}

/// Check the report's and the plot's destinations before any training starts.
pub fn check_destinations(report: &Path) -> Result<()> {
    crate::output::FileOut::check(report)?;
    for path in frontier::destinations(&beside(report, "")) {
        crate::output::FileOut::check(&path)?;
    }
    crate::output::FileOut::check(&plot_path(report))?;
    crate::output::FileOut::check(&beside(report, EXCEPTIONS_NAME))?;
    Ok(())
}

/// Where the frontier's data is kept, beside the report.
pub fn frontier_data_path(report: &Path) -> std::path::PathBuf {
    beside(report, frontier::DATA_NAME)
}

/// The frontier rows an earlier `kpk compress --frontier` wrote at `path`, if the config has a
/// frontier and the file exists; an error if they are not the config's nets and seeds.
pub fn earlier_frontier(cfg: &CompressConfig, path: &Path) -> Result<Option<Vec<FrontierRow>>> {
    let Some(spec) = &cfg.frontier else { return Ok(None) };
    if !path.exists() {
        return Ok(None);
    }
    let rows = crate::play::frontier::read_csv(path)?;
    let width = cfg.inputs.get(&spec.inputs).map_or(0, Vec::len);
    let wanted: Vec<(String, u64)> = spec
        .nets()
        .iter()
        .map(|n| {
            let widths: Vec<String> = n.hidden.iter().map(usize::to_string).collect();
            (format!("{width}-{}-1", widths.join("-")), n.seed.unwrap_or_default())
        })
        .collect();
    let found: Vec<(String, u64)> = rows.iter().map(|r| (r.topology.clone(), r.seed)).collect();
    if found != wanted {
        return Err(Error::Format {
            path: path.display().to_string(),
            message: "holds other nets or seeds than the config's [frontier]: run `kpk compress --frontier`"
                .into(),
        });
    }
    Ok(Some(rows))
}

fn plot_path(report: &Path) -> std::path::PathBuf {
    beside(report, PLOT_NAME)
}

fn beside(report: &Path, name: &str) -> std::path::PathBuf {
    report.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new(".")).join(name)
}

/// Every position of the exception table as a board diagram (canonical orientation: the pawn
/// White's, on files a–d), captioned with the exact result and the net's wrong answer.
pub fn exception_diagrams(model: &Hybrid) -> Vec<Diagram> {
    model
        .exceptions()
        .indices()
        .iter()
        .filter_map(|&i| KpkIndex::new(i).and_then(KpkIndex::position))
        .map(|p| {
            let net = model.net_outcome(&p);
            let exact = match net {
                Outcome::Win => Outcome::Draw,
                Outcome::Draw => Outcome::Win,
            };
            let side = if p.side() == Side::White { "wtm" } else { "btm" };
            Diagram::canonical(&p).with_caption(format!("{side}: {exact}; the net says {net}"))
        })
        .collect()
}

/// Write the report at `path` and its plot beside it.
pub fn write(
    path: &Path,
    cfg: &CompressConfig,
    config_path: &Path,
    candidates: &[Candidate],
    frontier: Option<&[FrontierRow]>,
    model: &Hybrid,
) -> Result<()> {
    plot(&plot_path(path), candidates)?;
    if let Some(rows) = frontier {
        frontier::figures(&beside(path, ""), rows, (model.net().parameter_count(), model.sizes().total))?;
    }
    diagram::write_diagrams(&beside(path, EXCEPTIONS_NAME), &exception_diagrams(model), EXCEPTION_COLUMNS)?;
    let md = render(cfg, config_path, candidates, frontier, model);
    crate::output::write_file(path, md.as_bytes())
}

/// The report as Markdown.
pub fn render(
    cfg: &CompressConfig,
    config_path: &Path,
    candidates: &[Candidate],
    frontier: Option<&[FrontierRow]>,
    model: &Hybrid,
) -> String {
    let best = &candidates[0];
    let sizes = model.sizes();
    let legal = KpkPosition::all().count();
    let confidence = model.to_bytes_in(ExceptionOrder::Confidence).1;
    let smallest_anchor = ANCHORS.iter().map(|a| a.1).min().expect("anchors");
    let schedule: Vec<String> =
        cfg.stages.iter().map(|s| format!("rate {} for {} epochs", s.learning_rate, s.epochs)).collect();
    let input_sets: String = cfg
        .inputs
        .iter()
        .map(|(name, xs)| {
            let xs = xs.iter().map(|x| format!("x{x}")).collect::<Vec<_>>().join(", ");
            format!("- `{name}`: {xs}\n")
        })
        .collect();
    template::fill(
        TEMPLATE,
        &[
            ("total", sizes.total.to_string()),
            ("config", config_path.display().to_string()),
            ("legal", legal.to_string()),
            ("model_table", model_table(model, &best.shifts)),
            ("confidence_exceptions", confidence.exceptions.to_string()),
            ("confidence_total", confidence.total.to_string()),
            ("inputs", model.input().xs().iter().map(|x| format!("x{x}")).collect::<Vec<_>>().join(", ")),
            ("float_errors", best.float_errors.to_string()),
            ("rounded_errors", best.refined.errors_before.to_string()),
            ("exceptions", model.exceptions().len().to_string()),
            ("raw_bitbase", (MAX_INDEX / 8).to_string()),
            ("comparison_table", comparison_table(sizes.total)),
            ("smaller", if sizes.total < smallest_anchor { "smaller" } else { "**not** smaller" }.into()),
            ("smallest_anchor", smallest_anchor.to_string()),
            ("within", if sizes.total <= GOAL_BYTES { "within" } else { "**over**" }.into()),
            ("stages", cfg.stages.len().to_string()),
            ("schedule", schedule.join(", ")),
            ("batch_size", cfg.batch_size.to_string()),
            ("candidates_table", candidates_table(candidates)),
            ("input_sets", input_sets),
            ("frontier", frontier_text(cfg, frontier, sizes.total)),
            ("plot", PLOT_NAME.into()),
            ("exceptions_figure", EXCEPTIONS_NAME.into()),
            ("arithmetic", crate::hybrid::quant::ARITHMETIC_DOC.trim().into()),
            ("exception_coding", crate::hybrid::exceptions::CODING_DOC.trim().into()),
            ("file_format", crate::hybrid::format::FORMAT_DOC.trim().into()),
        ],
    )
}

/// The frontier section's text: the measured table and figures, or how to measure them.
fn frontier_text(cfg: &CompressConfig, rows: Option<&[FrontierRow]>, model_bytes: usize) -> String {
    let Some(spec) = &cfg.frontier else {
        return "The config names no frontier.\n".into();
    };
    let nets: Vec<String> = spec.hidden.iter().map(|h| format!("{h:?}")).collect();
    let head = format!(
        "Nets with hidden layers {} on the `{}` inputs, each trained from seeds {:?} with the stages above, quantised, \
         fine-tuned and completed as the candidates are (`kpk compress --frontier`; the data is in `{}`). \
         \"Errors\" are the legal positions the integer net gets wrong, so the exact hybrid's exceptions. \
         \"One-ply search\" answers every position by its best move, each move valued by the same net on the position it \
         leads to or by the rules where it ends the game (a winning promotion, the pawn taken, stalemate), with the \
         positions the search still gets wrong as the exception table; the format has no flag for it, so those sizes \
         are measured (the same net and header, with the search's errors coded as exceptions are), not a file kpk writes.\n\n",
        nets.join(", "),
        spec.inputs,
        spec.seeds,
        frontier::DATA_NAME
    );
    match rows {
        Some(rows) => head + &frontier::section(rows, model_bytes),
        None => head + "Not measured on this commit yet: run `kpk compress --frontier`.\n",
    }
}

fn model_table(model: &Hybrid, shifts: &[i8]) -> String {
    let sizes = model.sizes();
    let side_count = |side: Side| {
        let indices = model.exceptions().indices();
        indices.iter().filter(|&&i| KpkIndex::new(i).is_some_and(|i| i.side() == side)).count()
    };
    let net = model.net();
    format!(
        "| part | bytes |\n|---|---:|\n\
         | net ({}, {} weights and biases, layer shifts {shifts:?}) | {} |\n\
         | exceptions ({} positions: {} White to move, {} Black to move) | {} |\n\
         | header, padding and CRC-32 | {} |\n\
         | **total** | **{}** |\n",
        net.topology(),
        net.parameter_count(),
        sizes.net,
        model.exceptions().len(),
        side_count(Side::White),
        side_count(Side::Black),
        sizes.exceptions,
        sizes.overhead,
        sizes.total
    )
}

/// Every representation's size, with both compression factors (section 5, Table 5's `comp`).
fn comparison_table(total: usize) -> String {
    let raw_bitbase = MAX_INDEX / 8;
    let yes = |b: bool| if b { "yes" } else { "no" };
    let row = |name: &str, bytes: usize, exact: bool, random: bool| {
        format!(
            "| {name} | {bytes} | {} | {} | {:.1} | {:.2} |\n",
            yes(exact),
            yes(random),
            tables::DATABASE_BITS / (8.0 * bytes as f64),
            raw_bitbase as f64 / bytes as f64
        )
    };
    let mut t = String::from(
        "| representation | bytes | exact | random access | 2^17 bits ÷ size | raw bitbase ÷ size |\n\
         |---|---:|---|---|---:|---:|\n",
    );
    t += &row("**kpk hybrid (this model)**", total, true, true);
    t += &row("raw bitbase, 1 bit per index (2 × 24 × 64 × 64)", raw_bitbase, true, true);
    for (name, bytes, exact, random) in ANCHORS {
        t += &row(name, bytes, exact, random);
    }
    for (i, topology) in PAPER_NETS.iter().enumerate() {
        let w = weights(topology);
        let bytes = w * tables::BITS_PER_WEIGHT / 8;
        t += &row(
            &format!("paper NN{} {topology} ({w} float64 weights, one side to move)", i + 1),
            bytes,
            false,
            true,
        );
    }
    t
}

fn candidates_table(candidates: &[Candidate]) -> String {
    let mut t = String::from(
        "| topology | inputs | seed | weights | float errors | rounded | exceptions | net B | exceptions B | total B | shifts |\n\
         |---|---|---:|---:|---:|---:|---:|---:|---:|---:|---|\n",
    );
    for c in candidates {
        t += &format!(
            "| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {:?} |\n",
            c.topology,
            c.inputs,
            c.seed,
            c.parameters,
            c.float_errors,
            c.refined.errors_before,
            c.hybrid.exceptions().len(),
            c.sizes.net,
            c.sizes.exceptions,
            c.sizes.total,
            c.shifts
        );
    }
    t
}

fn plot(path: &Path, candidates: &[Candidate]) -> Result<()> {
    crate::report::plot::ensure_font()?;
    let mut pts: Vec<(f64, f64, f64, String)> = candidates
        .iter()
        .map(|c| (c.sizes.net as f64, c.sizes.total as f64, c.sizes.exceptions as f64, c.topology.clone()))
        .collect();
    pts.sort_by(|a, b| a.0.total_cmp(&b.0));
    let x_max = pts.iter().map(|p| p.0).fold(0.0, f64::max) * 1.15 + 100.0;
    let y_max = pts.iter().map(|p| p.1).fold(3_528.0 * 1.1, f64::max) * 1.05;
    let out = crate::output::FileOut::check(path)?;
    out.write_rendered(".png", |tmp| {
        draw(tmp, &pts, x_max, y_max).map_err(|e| Error::Format {
            path: path.display().to_string(),
            message: format!("drawing failed: {e}"),
        })
    })?;
    Ok(())
}

fn draw(
    tmp: &Path,
    pts: &[(f64, f64, f64, String)],
    x_max: f64,
    y_max: f64,
) -> std::result::Result<(), Box<dyn std::error::Error>> {
    {
        let root = BitMapBackend::new(tmp, (900, 560)).into_drawing_area();
        root.fill(&WHITE)?;
        let mut chart = ChartBuilder::on(&root)
            .caption("Exact hybrid: file size against net size", (crate::report::plot::FAMILY, 22))
            .margin(14)
            .x_label_area_size(44)
            .y_label_area_size(64)
            .build_cartesian_2d(0.0..x_max, 0.0..y_max)?;
        chart.configure_mesh().x_desc("net (weights + layer headers), bytes").y_desc("bytes").draw()?;
        let blue = RGBColor(31, 119, 180);
        let red = RGBColor(214, 39, 40);
        let grey = RGBColor(127, 127, 127);
        chart
            .draw_series(LineSeries::new(pts.iter().map(|p| (p.0, p.1)), blue.stroke_width(2)))?
            .label("total file")
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], blue.stroke_width(2)));
        chart.draw_series(pts.iter().map(|p| Circle::new((p.0, p.1), 4, blue.filled())))?;
        chart
            .draw_series(LineSeries::new(pts.iter().map(|p| (p.0, p.2)), red.stroke_width(2)))?
            .label("exception table")
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], red.stroke_width(2)));
        chart.draw_series(pts.iter().map(|p| Circle::new((p.0, p.2), 4, red.filled())))?;
        chart.draw_series(pts.iter().map(|p| {
            Text::new(
                p.3.clone(),
                (p.0, p.1 + y_max * 0.02),
                (crate::report::plot::FAMILY, 14).into_font().color(&BLACK),
            )
        }))?;
        for (y, label) in [(3_528.0, "xz -9e of the raw bitbase (3,528 B)"), (2_000.0, "goal (2,000 B)")] {
            chart
                .draw_series(LineSeries::new([(0.0, y), (x_max, y)], grey.stroke_width(1)))?
                .label(label)
                .legend(move |(x, yy)| PathElement::new(vec![(x, yy), (x + 20, yy)], grey.stroke_width(1)));
        }
        chart
            .configure_series_labels()
            .background_style(WHITE.mix(0.85))
            .border_style(BLACK)
            .position(SeriesLabelPosition::UpperRight)
            .draw()?;
        root.present()?;
    }
    Ok(())
}
