//! `rule_list`: a program using the rules the characterisation contains (section 7's first kind of
//! agent), learned as an ordered rule list (a decision list: Rivest 1987; greedy sequential
//! covering in the manner of CN2).
//!
//! A rule is a conjunction of at most three literals `x ≤ v` or `x ≥ v` on characteristics of the
//! input set (for a Boolean characteristic, such as x17's opposition parity or x32's rule of the
//! square, `x = 0` or `x = 1`), and a class. The first rule that holds answers; when none does, the
//! default class answers. Rules are grown one at a time on the positions no earlier rule covers:
//! each literal added is the one that most raises `correct − 2 · wrong` of the rule on those
//! positions (a rule is only worth keeping when at least two of three it answers are right), and
//! the list stops when no rule scores above 0 or at its cap. Ties go to the lowest column,
//! threshold and `≤` before `≥`, so the list is deterministic.
//!
//! # Encoding
//!
//! 8 bits of rule count; per rule 2 bits of literal count, each literal its column
//! ([`InputSet::col_bits`]), 1 bit of `≤`/`≥` and its value in ⌈log2 size⌉ bits (the column's
//! legal range), then 1 class bit; finally 1 bit of default class.

use super::{InputSet, Learner, Model, Row, Samples, bits_for, value_range};
use crate::error::Result;
use crate::paper::features::FEATURES;
use serde::{Deserialize, Serialize};

/// One literal: `x[col] ≤ v` or `x[col] ≥ v` (natural values).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Literal {
    pub col: u8,
    pub at_most: bool,
    pub v: i8,
}

impl Literal {
    fn holds(self, x: &Row) -> bool {
        let a = x[usize::from(self.col)];
        if self.at_most { a <= self.v } else { a >= self.v }
    }

    /// `x17 = 1 (opp-parity)`, `x24 ≤ 3 (d(wK,bK))`.
    fn text(self) -> String {
        let c = usize::from(self.col);
        let (lo, size) = value_range(c);
        let f = &FEATURES[c];
        let cond = if size == 2 {
            format!("= {}", if self.at_most { lo } else { lo + 1 })
        } else {
            format!("{} {}", if self.at_most { "≤" } else { "≥" }, self.v)
        };
        format!("x{} {cond} ({})", f.x, f.name)
    }
}

/// A rule: every literal holds ⇒ the class (`win`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rule {
    pub literals: Vec<Literal>,
    pub win: bool,
}

/// A rule as the report prints it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RuleText {
    /// `x32 = 1 (P-runs?) and x24 ≥ 3 (d(wK,bK))`; `otherwise` for the default.
    pub condition: String,
    pub win: bool,
}

/// The rule-list learner's settings (ours).
#[derive(Clone, Copy, Debug)]
pub struct RuleList {
    pub max_rules: usize,
    pub max_literals: usize,
    /// A wrong answer of a rule costs this many right ones.
    pub wrong_cost: f64,
}

impl Default for RuleList {
    fn default() -> RuleList {
        RuleList { max_rules: 32, max_literals: 3, wrong_cost: 2.0 }
    }
}

/// A fitted rule list.
pub struct RuleListModel {
    pub rules: Vec<Rule>,
    pub default: bool,
    inputs: InputSet,
    passes: u64,
}

impl RuleListModel {
    /// The first rule that holds for `x` (its number from 0), `None` for the default.
    pub fn first_match(&self, x: &Row) -> Option<usize> {
        self.rules.iter().position(|r| r.literals.iter().all(|l| l.holds(x)))
    }
}

impl Model for RuleListModel {
    fn predict(&self, x: &Row) -> bool {
        self.first_match(x).map_or(self.default, |i| self.rules[i].win)
    }
    fn model_bits(&self) -> u64 {
        let col = self.inputs.col_bits();
        let lit = |l: &Literal| col + 1 + bits_for(value_range(usize::from(l.col)).1);
        8 + 1 + self.rules.iter().map(|r| 2 + 1 + r.literals.iter().map(lit).sum::<u64>()).sum::<u64>()
    }
    fn passes(&self) -> u64 {
        self.passes
    }
    fn rules(&self) -> Vec<RuleText> {
        let mut out: Vec<RuleText> = self
            .rules
            .iter()
            .map(|r| RuleText {
                condition: r.literals.iter().map(|l| l.text()).collect::<Vec<_>>().join(" and "),
                win: r.win,
            })
            .collect();
        out.push(RuleText { condition: "otherwise".into(), win: self.default });
        out
    }
    fn first_rule(&self, x: &Row) -> Option<usize> {
        Some(self.first_match(x).unwrap_or(self.rules.len()))
    }
}

impl RuleList {
    /// The literal that most raises the score of a rule on `covered`, with its class and score.
    fn best_literal(
        &self,
        data: &Samples,
        covered: &[usize],
        inputs: InputSet,
    ) -> Option<(Literal, bool, f64)> {
        let mut best: Option<(Literal, bool, f64)> = None;
        for col in inputs.cols() {
            let (lo, size) = value_range(col);
            if size < 2 {
                continue;
            }
            let mut hist = [(0.0f64, 0.0f64); 16];
            for &i in covered {
                let h = &mut hist[(data.rows[i][col] - lo) as usize];
                if data.wins[i] { h.0 += 1.0 } else { h.1 += 1.0 }
            }
            let total = hist.iter().fold((0.0, 0.0), |a, h| (a.0 + h.0, a.1 + h.1));
            let mut below = (0.0, 0.0);
            for (t, h) in hist.iter().enumerate().take(size - 1) {
                below = (below.0 + h.0, below.1 + h.1);
                let above = (total.0 - below.0, total.1 - below.1);
                let v = lo + t as i8;
                for (at_most, (w, d)) in [(true, below), (false, above)] {
                    let lit = Literal { col: col as u8, at_most, v: if at_most { v } else { v + 1 } };
                    for (win, right, wrong) in [(true, w, d), (false, d, w)] {
                        let score = right - self.wrong_cost * wrong;
                        if best.is_none_or(|b| score > b.2 + 1e-9) {
                            best = Some((lit, win, score));
                        }
                    }
                }
            }
        }
        best
    }
}

impl Learner for RuleList {
    fn name(&self) -> &'static str {
        "rule_list"
    }
    fn variant(&self) -> String {
        if self.max_rules == RuleList::default().max_rules {
            String::new()
        } else {
            format!("at most {} rules", self.max_rules)
        }
    }
    fn fit(&self, data: &Samples, inputs: InputSet, _seed: u64) -> Result<Box<dyn Model>> {
        let mut remaining: Vec<usize> = (0..data.len()).collect();
        let mut rules = Vec::new();
        let mut passes = 0;
        while rules.len() < self.max_rules && !remaining.is_empty() {
            let mut covered = remaining.clone();
            let mut rule: Option<(Vec<Literal>, bool, f64)> = None;
            for _ in 0..self.max_literals {
                passes += 1;
                let Some((lit, win, score)) = self.best_literal(data, &covered, inputs) else { break };
                if rule.as_ref().is_some_and(|r| score <= r.2 + 1e-9) {
                    break;
                }
                covered.retain(|&i| lit.holds(&data.rows[i]));
                let mut lits = rule.map(|r| r.0).unwrap_or_default();
                lits.push(lit);
                rule = Some((lits, win, score));
            }
            let Some((literals, win, score)) = rule else { break };
            if score <= 0.0 {
                break;
            }
            let rule = Rule { literals, win };
            remaining.retain(|&i| !rule.literals.iter().all(|l| l.holds(&data.rows[i])));
            rules.push(rule);
        }
        let wins = remaining.iter().filter(|&&i| data.wins[i]).count();
        let default = 2 * wins > remaining.len();
        Ok(Box::new(RuleListModel { rules, default, inputs, passes }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_conjunction_is_learned_exactly_in_a_few_rules() {
        let rows = crate::learners::grid_rows();
        let wins: Vec<bool> = rows.iter().map(|r| r[0] >= 5 && r[1] <= 3).collect();
        let data = Samples { rows: rows.clone(), wins, dtc: vec![None; 64] };
        let m = RuleList::default().fit(&data, InputSet::Coordinates, 0).unwrap();
        assert_eq!(data.accuracy_pct(m.as_ref()), 100.0);
        let text = m.rules();
        // Greedy covering peels off the draws first: x2 ≥ 4, x1 ≤ 4, then the wins (x1 ≥ 2).
        assert!(text.len() <= 4, "{text:?}");
        assert_eq!(text.last().unwrap().condition, "otherwise");
    }
}
