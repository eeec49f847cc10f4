//! Format version 3's writer: a decision tree over Table 4's characteristics and its exceptions
//! in the version-2 envelope (src/hybrid/format.md, "Version 3"). The tree's bit layout is
//! [`kpk_probe::tree`]'s, which reads it.

use super::Hybrid;
use super::bits::{BitWriter, best_rice};
use super::exceptions::{gaps, write_sorted};
use super::sizes::Sizes;
use kpk_probe::model::{MAGIC, VERSION_TREE};
use kpk_probe::tree::Tree;

/// Magic 4, version 1, length 4, input function 1, mask 5, exception count 3, Rice parameter 1,
/// CRC-32 4.
pub const FIXED_BYTES: usize = 23;
const CRC_LEN: usize = 4;
const EXCEPTION_HEADER_LEN: usize = 4;

/// The version-3 file of `h`, whose learner is `tree`, and where its bytes go (*net* counts the
/// tree's bits rounded up).
pub fn encode(h: &Hybrid, tree: &Tree) -> (Vec<u8>, Sizes) {
    let mut payload = BitWriter::new();
    tree.write(|v, n| payload.bits(v, n));
    let tree_bits = payload.len();
    let values = h.exceptions().indices();
    let (ke, _) = best_rice(gaps(values));
    write_sorted(values, &mut payload, ke);
    let exception_bits = payload.len() - tree_bits;
    let payload = payload.into_bytes();
    let input = h.input().to_bytes();
    let total = 4 + 1 + 4 + input.len() + EXCEPTION_HEADER_LEN + payload.len() + CRC_LEN;
    let mut bytes = Vec::with_capacity(total);
    bytes.extend_from_slice(MAGIC);
    bytes.push(VERSION_TREE);
    bytes.extend_from_slice(&(total as u32).to_le_bytes());
    bytes.extend_from_slice(&input);
    bytes.extend_from_slice(&(values.len() as u32).to_le_bytes()[..3]);
    bytes.push(ke as u8);
    bytes.extend_from_slice(&payload);
    let crc = kpk_probe::bits::crc32(&bytes);
    bytes.extend_from_slice(&crc.to_le_bytes());
    debug_assert_eq!(bytes.len(), total);
    let net = tree_bits.div_ceil(8);
    let exceptions = EXCEPTION_HEADER_LEN + exception_bits.div_ceil(8);
    (bytes, Sizes { net, exceptions, overhead: total - net - exceptions, total })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::index::KpkIndex;
    use crate::hybrid::exceptions::ExceptionSet;
    use kpk_probe::tree::Node;

    /// Win iff x1 ≥ 5 and x2 ≤ 3, with every 997th legal position (pawn side to move) flipped.
    fn small() -> Hybrid {
        let nodes = vec![
            Node::Split { x: 0, t: 3, right: 2 },
            Node::Leaf(false),
            Node::Split { x: 1, t: 2, right: 4 },
            Node::Leaf(true),
            Node::Leaf(false),
        ];
        let tree = Tree::new(nodes, u64::from(u32::MAX)).unwrap();
        let flipped: Vec<u32> = KpkIndex::all()
            .filter(|i| i.position().is_some() && i.value() < kpk_probe::MAX_INDEX / 2)
            .map(|i| i.value() as u32)
            .step_by(997)
            .collect();
        Hybrid::tree(u64::from(u32::MAX), tree, ExceptionSet::new(flipped).unwrap()).unwrap()
    }

    #[test]
    fn a_tree_hybrid_round_trips_and_its_sizes_add_up() {
        let h = small();
        let bytes = h.to_bytes();
        assert_eq!(bytes[4], 3);
        assert_eq!(Hybrid::from_bytes(&bytes, "t").unwrap(), h);
        let s = h.sizes();
        assert_eq!((s.total, s.net + s.exceptions + s.overhead), (bytes.len(), bytes.len()));
        // 23 fixed bytes, less one when the tree's last byte is shared with the exceptions.
        assert!(
            s.overhead == FIXED_BYTES - EXCEPTION_HEADER_LEN
                || s.overhead + 1 == FIXED_BYTES - EXCEPTION_HEADER_LEN
        );
    }

    #[test]
    fn the_ranges_printed_in_the_format_are_the_ones_read() {
        let row = |name: &str| -> Vec<i8> {
            let line = crate::hybrid::format::format_doc().lines().find(|l| l.starts_with(name)).unwrap();
            line[name.len()..].split_whitespace().map(|v| v.parse().unwrap()).collect()
        };
        let printed: Vec<(i8, i8)> = row("lo:").into_iter().zip(row("hi:")).collect();
        assert_eq!(printed, kpk_probe::tree::RANGES);
    }

    /// format.md's worked example, byte for byte.
    #[test]
    fn the_worked_example_of_the_format_is_this_file() {
        let nodes = vec![
            Node::Split { x: 0, t: 3, right: 2 },
            Node::Leaf(false),
            Node::Split { x: 1, t: 2, right: 4 },
            Node::Leaf(true),
            Node::Leaf(false),
        ];
        let tree = Tree::new(nodes, 0b11).unwrap();
        let h = Hybrid::tree(0b11, tree, ExceptionSet::new(vec![319]).unwrap()).unwrap();
        let bytes = h.to_bytes();
        let hex: Vec<String> = bytes.iter().map(|b| format!("{b:02X}")).collect();
        // The example's block: each line's leading two-digit hexadecimal bytes, then its comment.
        let is_byte = |w: &&str| w.len() == 2 && w.chars().all(|c| c.is_ascii_hexdigit());
        let printed: String = crate::hybrid::format::format_doc()
            .lines()
            .skip_while(|l| !l.starts_with("**Worked example"))
            .skip_while(|l| !l.starts_with("```text"))
            .skip(1)
            .take_while(|l| !l.starts_with("```"))
            .flat_map(|l| l.split_whitespace().take_while(is_byte).map(str::to_string).collect::<Vec<_>>())
            .collect::<Vec<_>>()
            .join(" ");
        assert_eq!(printed, hex.join(" "));
        assert_eq!(Hybrid::from_bytes(&bytes, "example").unwrap(), h);
    }

    #[test]
    fn every_flipped_byte_and_every_truncation_of_a_tree_file_is_an_error() {
        let bytes = small().to_bytes();
        let at: Vec<usize> = (0..bytes.len()).collect();
        for (what, b) in crate::scratch::corruptions(&bytes, &at, &[0x01, 0x80, 0xFF]) {
            assert!(Hybrid::from_bytes(&b, "t").is_err(), "{what} accepted");
        }
    }

    #[test]
    fn a_resealed_tree_file_with_a_bad_field_is_refused() {
        let reseal = |mut b: Vec<u8>| {
            let n = b.len() - CRC_LEN;
            let crc = kpk_probe::bits::crc32(&b[..n]);
            b[n..].copy_from_slice(&crc.to_le_bytes());
            b
        };
        let bytes = small().to_bytes();
        let cases: [(usize, u8, &str); 5] = [
            (9, 0, "input function 0"),
            (10, 0xFE, "x1 outside the mask (the root splits on x1)"),
            (14, 0x01, "x33 in the mask"),
            (18, 0x80, "exceptions numbered by confidence"),
            (15, 0xFF, "one more exception than the stream holds"),
        ];
        for (at, value, what) in cases {
            let mut b = bytes.clone();
            b[at] = if at == 15 { b[at].wrapping_add(1) } else { value };
            assert!(Hybrid::from_bytes(&reseal(b), "t").is_err(), "{what} accepted");
        }
        // Every shorter body, its length and checksum made right again, is an error.
        for cut in 9..bytes.len() - CRC_LEN {
            let mut b = bytes[..cut].to_vec();
            b[5..9].copy_from_slice(&((cut + CRC_LEN) as u32).to_le_bytes());
            b.extend_from_slice(&[0; CRC_LEN]);
            assert!(Hybrid::from_bytes(&reseal(b), "t").is_err(), "cut to {cut} bytes accepted");
        }
    }
}
