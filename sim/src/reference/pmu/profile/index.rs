//! docs/pmu.md §15.2: an entry's index, the block address folded to log2 E bits by XOR of
//! its slices: index(a) = XOR over j >= 0 of ((a >> (1 + j * log2 E)) mod E), for every
//! j with 1 + j * log2 E < AW. Bit 0 of a is ignored; every slice of a[AW-1:1] counts,
//! the last one as far as it goes (bits at and above AW do not exist).

/// The index of block address `address` (only its AW bits count) in a table of
/// `entries` (E, a power of 2 >= 2) entries.
pub fn index(address: u64, entries: usize, address_width: usize) -> usize {
    assert!(entries.is_power_of_two() && entries >= 2, "E = {entries} is not a power of 2 >= 2");
    let address = address & address_mask(address_width);
    let slice_bits = entries.trailing_zeros() as usize;
    (1..address_width).step_by(slice_bits).fold(0, |index, shift| index ^ (address >> shift) as usize & (entries - 1))
}

/// [AW-1:0].
pub(super) fn address_mask(address_width: usize) -> u64 {
    if address_width >= 64 {
        u64::MAX
    } else {
        (1 << address_width) - 1
    }
}
