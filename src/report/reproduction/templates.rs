//! The report's prose: the templates in `report/templates/reproduction/`, with the filters this
//! report adds to the shared ones ([`crate::template`]).

use crate::error::Result;
use crate::template::Engine;
use serde::Serialize;

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

/// Render a label given as template text (a figure's title or key from a TOML file beside its
/// code) from `context`, with this report's filters.
pub fn label(source: &str, context: &impl Serialize) -> Result<String> {
    static ENGINE: std::sync::LazyLock<Engine> = std::sync::LazyLock::new(|| with_filters(Engine::new()));
    Ok(ENGINE.render_str(source, context)?)
}

/// Render the template `name` from `context`.
pub fn render(engine: &Engine, name: &str, context: &impl Serialize) -> Result<String> {
    Ok(engine.render(name, context)?)
}
