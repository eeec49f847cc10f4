//! The report's prose and its figures' labels: the templates in `report/templates/reproduction/`,
//! with the filters this report adds to the shared ones ([`crate::template`]).

use crate::error::Result;
use crate::template::{Engine, TemplateError};
use serde::Serialize;
use std::sync::LazyLock;

/// (name, source) of every template of the report.
const TEMPLATES: [(&str, &str); 15] = [
    ("domain", include_str!("../templates/reproduction/domain.md.j2")),
    ("robustness", include_str!("../templates/reproduction/robustness.md.j2")),
    ("groups", include_str!("../templates/reproduction/groups.md.j2")),
    ("matched", include_str!("../templates/reproduction/matched.md.j2")),
    ("report", include_str!("../templates/reproduction/reproduction.md.j2")),
    ("table6", include_str!("../templates/reproduction/table6.md.j2")),
    ("matched_figure", include_str!("../templates/reproduction/matched_figure.md.j2")),
    ("replicated", include_str!("../templates/reproduction/replicated.md.j2")),
    ("section51", include_str!("../templates/reproduction/section51.md.j2")),
    ("readings", include_str!("../templates/reproduction/readings.md.j2")),
    ("sweep", include_str!("../templates/reproduction/sweep.md.j2")),
    ("continued", include_str!("../templates/reproduction/continued.md.j2")),
    ("standing", include_str!("../templates/reproduction/standing.md.j2")),
    ("discussion", include_str!("../templates/reproduction/discussion.md.j2")),
    ("gap", include_str!("../templates/reproduction/gap.md.j2")),
];

/// (name, source) of every one-line template of the report's figures and board diagrams (their
/// keys, labels and captions): its path under `report/templates/`.
const LABELS: [(&str, &str); 9] = [
    ("reproduction/figure3/trial.txt.j2", include_str!("../templates/reproduction/figure3/trial.txt.j2")),
    ("reproduction/figure3/kept.txt.j2", include_str!("../templates/reproduction/figure3/kept.txt.j2")),
    ("reproduction/figure3/paper39.txt.j2", include_str!("../templates/reproduction/figure3/paper39.txt.j2")),
    ("reproduction/figure3/paper51.txt.j2", include_str!("../templates/reproduction/figure3/paper51.txt.j2")),
    ("reproduction/figure3/caption.md.j2", include_str!("../templates/reproduction/figure3/caption.md.j2")),
    ("reproduction/nn6/trial.txt.j2", include_str!("../templates/reproduction/nn6/trial.txt.j2")),
    ("reproduction/diagrams/paper.txt.j2", include_str!("../templates/reproduction/diagrams/paper.txt.j2")),
    ("reproduction/diagrams/ours.txt.j2", include_str!("../templates/reproduction/diagrams/ours.txt.j2")),
    (
        "reproduction/diagrams/matched.txt.j2",
        include_str!("../templates/reproduction/diagrams/matched.txt.j2"),
    ),
];

/// The report's engine: its templates, the shared filters and
/// - `plain`: a number as Rust writes it (`0.1`, `1`: no forced decimals),
/// - `sci(n)`: scientific notation with `n` decimals, `1.2e-5`,
/// - `paper`: a percentage as the paper prints it, whole where whole (`92`, `99.8`).
pub fn engine() -> Result<Engine> {
    let mut engine = with_filters(Engine::new());
    for (name, source) in TEMPLATES {
        engine = engine.template(name, source)?;
    }
    Ok(engine)
}

fn with_filters(engine: Engine) -> Engine {
    engine
        .filter("plain", |v: f64| format!("{v}"))
        .filter("sci", |v: f64, n: usize| format!("{v:.n$e}"))
        .filter("paper", |v: f64| if v.fract() == 0.0 { format!("{v:.0}") } else { format!("{v}") })
}

/// Render the label template `name` of [`LABELS`] (a figure's key or caption, a diagram's
/// caption) from `context`, with this report's filters.
pub fn label(name: &str, context: &impl Serialize) -> Result<String> {
    static ENGINE: LazyLock<Result<Engine, TemplateError>> =
        LazyLock::new(|| with_filters(Engine::new()).templates(&LABELS));
    let engine = ENGINE.as_ref().map_err(Clone::clone)?;
    Ok(engine.line(name, context)?)
}

/// Render the template `name` from `context`.
pub fn render(engine: &Engine, name: &str, context: &impl Serialize) -> Result<String> {
    Ok(engine.render(name, context)?)
}
