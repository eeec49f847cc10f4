//! One colour per measure, in every figure: a reader who has learnt that training accuracy is blue
//! in one chart finds it blue in the next, and training and testing never swap colours.
//!
//! | measure | colour | where |
//! |---|---|---|
//! | [`Measure::Training`] | blue | training accuracy (m = 0), and distances in training accuracy |
//! | [`Measure::Testing`] | green | testing accuracy |
//! | [`Measure::Paper`] | red | the paper's figure where a chart's colours tell runs apart (Figure 3's points, Table 6's 51) |
//! | [`Measure::Model`] | orange | the committed model (`models/kpk.hybrid`) |
//! | [`Measure::Margin`] | purple | training accuracy at the margin m = 0.4 (NN6) |
//! | [`Measure::Epochs`] | brown | epochs run, the kept epoch on a run's curves |
//! | [`Measure::KeptEpoch`] | teal | the epoch of the kept state, beside epochs run |
//! | [`Measure::Cited`] | grey | sizes cited from published files (raw bitbase, Syzygy, xz) |
//! | [`Measure::Target`] | cyan | a target a run is held to (the error target, the size goal) |
//! | [`Measure::E1`] | pink | the error measure E1 |
//! | [`Measure::E2`] | olive | the error measure E2 |
//! | [`Measure::PerfectPlay`] | black | perfect play, from the bitbase |
//!
//! Where a chart's colours tell measures apart and it also shows the paper's figure of a measure
//! (Table 5 at a glance), the paper's figure takes that measure's colour as an open ring
//! ([`crate::figures::plot::Series::ring`]), ours a filled dot. Where the series are runs, learners
//! or players of one measure (Figure 3's trials, the learners' frontier), they take the
//! [`category`] colours, which leave out the colours of the paper, the committed model, the
//! targets, the cited sizes and perfect play, so that those keep their meaning beside them.

use plotters::style::RGBColor;

/// The colours, in palette order: a [`crate::figures::plot::Series`] names its colour by index.
pub const PALETTE: [RGBColor; 12] = [
    RGBColor(31, 119, 180),
    RGBColor(214, 39, 40),
    RGBColor(44, 160, 44),
    RGBColor(255, 127, 14),
    RGBColor(148, 103, 189),
    RGBColor(140, 86, 75),
    RGBColor(127, 127, 127),
    RGBColor(23, 190, 207),
    RGBColor(227, 119, 194),
    RGBColor(188, 189, 34),
    RGBColor(26, 26, 26),
    RGBColor(0, 95, 115),
];

/// What a series shows; each has one colour in every figure (the table above).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Measure {
    Training,
    Testing,
    Paper,
    Model,
    Margin,
    Epochs,
    KeptEpoch,
    Cited,
    Target,
    E1,
    E2,
    PerfectPlay,
}

impl Measure {
    /// The measure's colour, as an index into [`PALETTE`].
    pub const fn colour(self) -> usize {
        match self {
            Measure::Training => 0,
            Measure::Paper => 1,
            Measure::Testing => 2,
            Measure::Model => 3,
            Measure::Margin => 4,
            Measure::Epochs => 5,
            Measure::Cited => 6,
            Measure::Target => 7,
            Measure::E1 => 8,
            Measure::E2 => 9,
            Measure::PerfectPlay => 10,
            Measure::KeptEpoch => 11,
        }
    }

    /// The measure's colour itself.
    pub const fn rgb(self) -> RGBColor {
        PALETTE[self.colour()]
    }
}

/// The colours of series that are runs, learners or players rather than measures, in the order
/// they are taken: every colour but those of the paper, the model, the targets, the cited sizes
/// and perfect play.
const CATEGORIES: [usize; 7] = [0, 2, 4, 5, 8, 9, 11];

/// The colour (an index into [`PALETTE`]) of the `i`-th run, learner or player of a chart.
pub const fn category(i: usize) -> usize {
    CATEGORIES[i % CATEGORIES.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_measure_has_its_own_colour_and_categories_leave_the_reserved_ones_out() {
        let all = [
            Measure::Training,
            Measure::Testing,
            Measure::Paper,
            Measure::Model,
            Measure::Margin,
            Measure::Epochs,
            Measure::KeptEpoch,
            Measure::Cited,
            Measure::Target,
            Measure::E1,
            Measure::E2,
            Measure::PerfectPlay,
        ];
        let mut seen: Vec<usize> = all.iter().map(|m| m.colour()).collect();
        seen.sort();
        seen.dedup();
        assert_eq!(seen.len(), all.len());
        let reserved =
            [Measure::Paper, Measure::Model, Measure::Target, Measure::Cited, Measure::PerfectPlay];
        for i in 0..20 {
            assert!(reserved.iter().all(|m| m.colour() != category(i)), "category {i}");
        }
    }
}
