//! What the paper specifies: Table 4's 32 characteristics (section 4.1), the ways they are
//! presented to a net (section 4.2), and the paper's own reference tables to report against.

pub mod coding;
pub mod features;
pub mod table2;
pub mod tables;
