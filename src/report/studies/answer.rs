//! A study's answer in one or two sentences, computed from its results: the best setting on the
//! answering measure against the runner-up (Welch's 95% interval of the difference), and the
//! paper's claim, if the study tests one, called supported, not shown, or contradicted.

use crate::report::stats::{self, Interval};
use crate::study::{Measure, SettingResult, StudyRun};
use std::cmp::Ordering;

fn value(m: Measure, i: Interval) -> String {
    let d = if m == Measure::Epochs { 0 } else { 1 };
    format!("{:.d$}{} (95% interval {:.d$}–{:.d$})", i.mean, m.unit(), i.lo, i.hi, d = d)
}

fn gap(m: Measure, d: Interval) -> String {
    let p = if m == Measure::Epochs { 0 } else { 1 };
    format!("{:+.p$}{} (95% interval {:+.p$} to {:+.p$})", d.mean, m.difference_unit(), d.lo, d.hi, p = p)
}

/// `a − b` on `m` (Welch's interval) and whether it favours `a`: `Greater` when `a` is better
/// at the 95% level (more accuracy, fewer epochs), `Less` when worse, `Equal` when the interval
/// includes 0.
fn favour(m: Measure, a: &SettingResult, b: &SettingResult) -> Option<(Interval, Ordering)> {
    let d = stats::difference(&a.values(m), &b.values(m))?;
    let sign = if m.higher_is_better() { d.sign() } else { d.sign().reverse() };
    Some((d, sign))
}

/// The ranking sentence: which setting does best on the answering measure, and by how much.
fn ranking(run: &StudyRun, m: Measure) -> String {
    let mut ranked: Vec<(&SettingResult, Interval)> =
        run.settings.iter().filter_map(|s| s.interval(m).map(|i| (s, i))).collect();
    ranked.sort_by(|a, b| {
        let o = a.1.mean.total_cmp(&b.1.mean);
        if m.higher_is_better() { o.reverse() } else { o }
    });
    let Some(&(best, bi)) = ranked.first() else {
        return format!("No setting has a {} to compare.", m.name());
    };
    let lead = format!("On {}, *{}* does best: {}", m.name(), best.label, value(m, bi));
    let Some(&(second, si)) = ranked.get(1) else { return format!("{lead}.") };
    let verdict = match favour(m, best, second) {
        Some((d, Ordering::Greater)) => {
            format!("ahead of *{}* ({}): the difference {} excludes 0", second.label, value(m, si), gap(m, d))
        }
        Some((d, _)) => format!(
            "but *{}* ({}) is within reach: the difference {} includes 0, so the replicates do not separate them",
            second.label,
            value(m, si),
            gap(m, d)
        ),
        None => format!("then *{}* ({})", second.label, value(m, si)),
    };
    format!("{lead}, {verdict}.")
}

/// The claim sentence, if the study tests one of the paper's claims.
fn claim(run: &StudyRun) -> Option<String> {
    let c = run.study.config.claim.as_ref()?;
    let find = |label: &str| run.settings.iter().find(|s| s.label == label);
    let (better, than) = (find(&c.better)?, find(&c.than)?);
    let m = c.measure;
    let whose = if c.hypothesis { "The hypothesis" } else { "The paper's claim" };
    let said = format!("{whose} ({}) that *{}* beats *{}* on {}", c.source, c.better, c.than, m.name());
    Some(match favour(m, better, than) {
        Some((d, sign)) => match sign {
            Ordering::Greater => format!("{said} holds: {}.", gap(m, d)),
            Ordering::Equal => {
                format!("{said} is not shown: the difference is {}, which includes 0.", gap(m, d))
            }
            Ordering::Less => {
                format!("{said} is contradicted: the difference is {}, on the wrong side of 0.", gap(m, d))
            }
        },
        None => format!("{said} cannot be tested with fewer than 2 replicates a setting."),
    })
}

/// What the best setting on the first measure costs or gains on the others, against the first
/// setting (the reference: the paper's where the study has one). `None` when the best is the
/// reference or there is nothing else to compare.
fn trade_off(run: &StudyRun, m: Measure) -> Option<String> {
    let reference = run.settings.first()?;
    let best = run.settings.iter().filter(|s| s.interval(m).is_some()).max_by(|a, b| {
        let (x, y) = (a.interval(m).map_or(0.0, |i| i.mean), b.interval(m).map_or(0.0, |i| i.mean));
        if m.higher_is_better() { x.total_cmp(&y) } else { y.total_cmp(&x) }
    })?;
    if std::ptr::eq(best, reference) {
        return None;
    }
    // The epoch of a reported state is not a cost: it is where the state lies.
    let parts: Vec<String> = run.study.config.measures[1..]
        .iter()
        .filter(|&&o| o != Measure::Epoch)
        .filter_map(|&o| {
            let (d, sign) = favour(o, best, reference)?;
            let word = match sign {
                Ordering::Greater => "better",
                Ordering::Less => "worse",
                Ordering::Equal => "no different",
            };
            Some(format!("{word} on {}, {}", o.name(), gap(o, d)))
        })
        .collect();
    (!parts.is_empty())
        .then(|| format!("Against *{}*, *{}* is {}.", reference.label, best.label, parts.join("; ")))
}

/// The comparisons the config asks for, on the first measure.
fn comparisons(run: &StudyRun, m: Measure) -> Option<String> {
    let find = |label: &str| run.settings.iter().find(|s| s.label == label);
    let parts: Vec<String> = run
        .study
        .config
        .compare
        .iter()
        .filter_map(|[a, b]| {
            let (d, _) = favour(m, find(a)?, find(b)?)?;
            let verdict = if d.lo > 0.0 || d.hi < 0.0 { "excludes 0" } else { "includes 0" };
            Some(format!("*{a}* minus *{b}*: {} ({verdict})", gap(m, d)))
        })
        .collect();
    (!parts.is_empty()).then(|| format!("Differences on {}: {}.", m.name(), parts.join("; ")))
}

/// The answer: the ranking on the study's first measure, what the winner trades on the others
/// against the reference, then the paper's claim if any.
pub fn answer(run: &StudyRun) -> String {
    let m = run.study.config.measures[0];
    let mut s = ranking(run, m);
    for extra in [trade_off(run, m), comparisons(run, m), claim(run)].into_iter().flatten() {
        s.push(' ');
        s.push_str(&extra);
    }
    s
}
