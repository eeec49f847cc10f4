//! The paper's own groups of its 51 misclassified a-file positions and the a2 classes against our
//! replicates at matched accuracy, as the section of `REPRODUCTION.md` words them (the rates are
//! [`crate::analysis::reproduction::table6_groups`]').

use super::templates;
use crate::analysis::reproduction::table6_groups::{
    A2_A3_ROWS, A2_CLASSES, BETTER_ON_A2, ErrorRate, Table6Groups, matched_runs, paper_groups,
};
use crate::error::Result;
use crate::experiment::table6::Matched;
use crate::paper::tables::Table6Row;
use crate::template::Engine;
use serde_json::{Value, json};

fn show_rate(r: &ErrorRate) -> String {
    r.pct().map_or_else(|| "—".into(), |i| format!("{:.2} ({:.2}–{:.2})", i.mean, i.lo, i.hi))
}

fn show_rows(rows: &[u8]) -> String {
    match rows.len() {
        0 => "none".into(),
        1..=10 => rows.iter().map(|n| format!("#{n}")).collect::<Vec<_>>().join(", "),
        n => format!("{n} rows"),
    }
}

/// How `rate` stands against the base rate `base` (%): wholly above, wholly below or covering it.
fn against(rate: &ErrorRate, base: f64) -> String {
    let Some(i) = rate.pct() else { return "—".into() };
    let times = if base > 0.0 { format!("{:.1}×", i.mean / base) } else { "—".into() };
    let side = if i.lo > base {
        "above"
    } else if i.hi < base {
        "below"
    } else {
        "covers it"
    };
    format!("{times}, {side}")
}

/// The section of `REPRODUCTION.md` (the template `groups.md.j2`): the paper's groups, then the
/// a2 classes.
pub fn markdown(e: &Engine, g: &Table6Groups, m: &Matched, paper6: &[Table6Row]) -> Result<String> {
    let base = g.groups.first().and_then(ErrorRate::pct).map_or(0.0, |i| i.mean);
    let groups: Vec<Value> = paper_groups(paper6)
        .iter()
        .zip(&g.groups)
        .map(|(group, r)| {
            json!({
                "name": group.name, "rule": group.rule, "size": group.rows.len(), "rows": show_rows(&group.rows),
                "wrong_any": r.wrong_any, "mean_runs": r.mean_runs(), "rate": show_rate(r),
                "against": if group.rows.len() == paper6.len() { "base".into() } else { against(r, base) },
            })
        })
        .collect();
    let all = &g.all;
    let classes: Vec<Value> = A2_CLASSES
        .iter()
        .zip(&g.classes)
        .map(|(c, r)| {
            let control = r.a2_rest.pct().map_or(0.0, |i| i.mean);
            json!({
                "name": c.name, "rule": c.rule, "positions": r.inside.positions,
                "paper_rows": show_rows(&r.paper_rows), "paper_in": r.paper_in, "paper_rest": r.paper_rest,
                "wrong_any": r.inside.wrong_any, "inside": show_rate(&r.inside), "outside": show_rate(&r.outside),
                "a2_rest": show_rate(&r.a2_rest), "against": against(&r.inside, control),
            })
        })
        .collect();
    // Each class's rate against the other a2 wins': wholly above, wholly below or covering it.
    let mut harder = Vec::new();
    let mut bullets = Vec::new();
    for (c, r) in A2_CLASSES.iter().zip(&g.classes) {
        let (Some(i), Some(rest)) = (r.inside.pct(), r.a2_rest.pct()) else { continue };
        let place = if i.lo > rest.mean {
            harder.push(c.name);
            "above"
        } else if i.hi < rest.mean {
            "below"
        } else {
            "covers"
        };
        let times =
            if r.paper_rest > 0.0 { format!("{:.1}×", r.paper_in / r.paper_rest) } else { "—".into() };
        bullets.push(json!({
            "name": c.name, "paper_in": r.paper_in, "paper_rest": r.paper_rest, "times": times,
            "mean": i.mean, "rest": rest.mean, "place": place,
        }));
    }
    let better: &[u8] = g.classes.get(BETTER_ON_A2).map_or(&[], |r| &r.paper_rows);
    let (held, not_held): (Vec<u8>, Vec<u8>) = A2_A3_ROWS.partition(|n| better.contains(n));
    let context = json!({
        "runs": matched_runs(m),
        "groups": groups,
        "all": {
            "positions": all.positions, "wrong_any": all.wrong_any, "mean_runs": all.mean_runs(),
            "rate": show_rate(all), "against": against(all, base),
        },
        "classes": classes,
        "bullets": bullets,
        "better": A2_CLASSES[BETTER_ON_A2].name,
        "held": show_rows(&held),
        "not_held": show_rows(&not_held),
        "harder": harder,
    });
    templates::render(e, "groups", &context)
}
