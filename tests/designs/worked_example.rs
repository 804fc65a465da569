//! Seed 000 (Denso JP6447320B2) worked example: events E1, E3, E2, E1, E7 with the
//! order E3 < E1 < E7. The patent's Ek is `events[k-1]`; its table's (En<Em) is flag
//! (n before m), read as bit n-1 of BEFORE[m-1] (docs/monitor.md §2).
use crate::common::{addr, benches, cmd, ctrl};

const E1: usize = 0;
const E2: usize = 1;
const E3: usize = 2;
const E7: usize = 6;

/// One step of the patent's table: the event, the rows (m, expected BEFORE[m]) it
/// changes, and EVENTS after it.
type Step = (usize, Vec<(usize, u32)>, u32);

#[test]
fn patent_table_and_match_through_the_register_port() {
    for mut bench in benches(8, 3) {
        let who = bench.name();
        bench.write(addr::CTRL, ctrl::ENABLE); // AUTO_REARM off: the record stays readable
        bench.set_orders(&[(E3, 1), (E1, 2), (E7, 3)]);
        bench.write(addr::CMD, cmd::OPEN_WINDOW);

        let table: [Step; 5] = [
            (E1, vec![], 0b000_0001),
            (E3, vec![(E3, 1 << E1)], 0b000_0101),                     // (E1<E3)
            (E2, vec![(E2, 1 << E1 | 1 << E3)], 0b000_0111),           // (E1<E2), (E2>E3)
            (E1, vec![(E1, 1 << E2 | 1 << E3)], 0b000_0111),           // (E1>E2), (E1>E3)
            (E7, vec![(E7, 1 << E1 | 1 << E2 | 1 << E3)], 0b100_0111), // (E1<E7) (E2<E7) (E3<E7)
        ];
        let mut expected_rows = [0u32; 8];
        for (step, (event, rows, events)) in table.iter().enumerate() {
            let out = bench.occur(*event);
            // The match is true in the cycle of the completing occurrence (E7) only.
            assert_eq!(out.matched, step == 4, "{who}: matched after event #{step}");
            for &(m, row) in rows {
                expected_rows[m] = row;
            }
            for (m, row) in expected_rows.iter().enumerate() {
                assert_eq!(bench.before(m), *row, "{who}: BEFORE[{m}] after event #{step}");
            }
            assert_eq!(bench.read(addr::EVENTS), *events, "{who}: EVENTS after event #{step}");
        }
        assert_eq!(bench.read(addr::STATUS) & 0b10, 0b10, "{who}: STATUS.MATCHED holds (no re-arm)");
        assert_eq!(bench.count(), 1, "{who}: one counted match");
    }
}
