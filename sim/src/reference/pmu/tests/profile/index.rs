//! docs/pmu.md §15.2: index(a) = XOR of the log2 E-bit slices of a[AW-1:1], the last one
//! as far as it goes; worked by hand.
use super::super::super::profile::index;

#[test]
fn index_folds_the_address_above_bit_0_in_slices_of_log2_e_bits() {
    // (address, E, AW, index). E = 16, AW = 16: slices a[4:1], a[8:5], a[12:9], a[15:13].
    let cases = [
        (0x0001, 16, 16, 0),   // bit 0 is ignored
        (0x0002, 16, 16, 1),   // a[4:1] = 1
        (0x0010, 16, 16, 8),   // a[4:1] = 8
        (0x0100, 16, 16, 8),   // a[8:5] = 8
        (0x0110, 16, 16, 0),   // 8 ^ 8
        (0x8000, 16, 16, 4),   // a[15:13] = 0b100
        (0xFFFF, 16, 16, 8),   // 15 ^ 15 ^ 15 ^ 0b111
        (0x1_0000, 16, 16, 0), // bit 16 is not an address bit at AW = 16
        (0x0100, 16, 32, 8),   // AW = 32: a[32:29] is the last slice, a[31:29]
        (0x8000_0000, 16, 32, 4),
        // E = 32, AW = 20 (not a multiple of 5): a[5:1], a[10:6], a[15:11], a[19:16].
        (0xF_FFFF, 32, 20, 16), // 31 ^ 31 ^ 31 ^ 0b1111
        (0x8_0000, 32, 20, 8),  // a[19:16] = 0b1000
        (0x0_0842, 32, 20, 1),  // bits 1, 6 and 11: 1 ^ 1 ^ 1
        // E = 4096, AW = 48: a[12:1], a[24:13], a[36:25], a[47:37] (11 bits).
        (1 << 47, 4096, 48, 1 << 10),
        (0x2 | 1 << 13, 4096, 48, 0),
        (0xFFF << 1 | 0xABC << 25, 4096, 48, 0xFFF ^ 0xABC),
    ];
    for (address, entries, address_width, expected) in cases {
        assert_eq!(
            index(address, entries, address_width),
            expected,
            "index({address:#x}) at E = {entries}, AW = {address_width}"
        );
    }
}
