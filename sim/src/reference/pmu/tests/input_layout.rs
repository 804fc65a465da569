//! §2: field widths and the packing of the event inputs.
use super::super::layout::{field_width, input_layout, set_event, FieldPosition};
use super::{custom_config, event_index, knc_config, knc_events};
use crate::ports::pmu::{get_bits, EventScope, PmuConfig, PmuInputs};

#[test]
fn field_width_is_the_bits_of_per_cycle_max() {
    let widths = [(1, 1), (2, 2), (3, 2), (4, 3), (7, 3), (8, 4), (16, 5), (127, 7), (128, 8), (255, 8)];
    for (per_cycle_max, width) in widths {
        assert_eq!(field_width(per_cycle_max), width, "PerCycleMax {per_cycle_max}");
    }
}

#[test]
fn the_appendix_1_table_has_tew_50_and_cew_19() {
    let config = knc_config(4, 2, 40);
    let layout = input_layout(&config);
    assert_eq!((layout.thread_width, layout.core_width), (50, 19));
    assert_eq!((layout.events_port_width(4), layout.core_port_width()), (200, 19));
    assert_eq!(layout.fields.len(), 59);
    let at = |name: &str| layout.fields[event_index(&config, name)];
    assert_eq!(at("DATA_READ"), FieldPosition { scope: EventScope::Thread, lsb: 0, width: 2 });
    assert_eq!(at("DATA_WRITE"), FieldPosition { scope: EventScope::Thread, lsb: 2, width: 2 });
    assert_eq!(at("DATA_PAGE_WALK"), FieldPosition { scope: EventScope::Thread, lsb: 4, width: 1 });
    assert_eq!(at("L2_READ_HIT_E"), FieldPosition { scope: EventScope::Core, lsb: 0, width: 1 });
    assert_eq!(at("L2_DATA_HIT_INFLIGHT_PF2"), FieldPosition { scope: EventScope::Core, lsb: 18, width: 1 });
    assert_eq!(at("VPU_DATA_READ"), FieldPosition { scope: EventScope::Thread, lsb: 37, width: 1 });
    assert_eq!(at("VPU_ELEMENTS_ACTIVE"), FieldPosition { scope: EventScope::Thread, lsb: 45, width: 5 });
}

#[test]
fn set_event_writes_one_field_of_one_thread() {
    let config = knc_config(4, 2, 40);
    let mut inputs = PmuInputs::default();
    set_event(&mut inputs, &config, event_index(&config, "VPU_ELEMENTS_ACTIVE"), 3, 16);
    set_event(&mut inputs, &config, event_index(&config, "DATA_READ"), 1, 3);
    set_event(&mut inputs, &config, event_index(&config, "L2_DATA_PF2_MISS"), 2, 1);
    assert_eq!(get_bits(&inputs.events, 3 * 50 + 45, 5), 16);
    assert_eq!(get_bits(&inputs.events, 50, 2), 3);
    assert_eq!(inputs.events.iter().map(|word| word.count_ones()).sum::<u32>(), 3);
    assert_eq!(inputs.core_events, vec![1 << 17]);
    set_event(&mut inputs, &config, event_index(&config, "DATA_READ"), 1, 4);
    assert_eq!(get_bits(&inputs.events, 50, 2), 0, "bits above the field are dropped");
}

#[test]
fn empty_ports_are_one_bit_wide() {
    let mut only_core = custom_config(2, 1, 16);
    only_core.events.retain(|event| event.scope == EventScope::Core);
    let layout = input_layout(&only_core);
    assert_eq!((layout.thread_width, layout.events_port_width(2)), (0, 1));
    let only_thread = PmuConfig { events: custom_config(2, 1, 16).events[..1].to_vec(), ..only_core };
    let layout = input_layout(&only_thread);
    assert_eq!((layout.core_width, layout.core_port_width(), layout.events_port_width(2)), (0, 1, 4));
}

#[test]
fn the_appendix_1_fixture_has_40_thread_and_19_core_events_all_distinct() {
    let table = knc_events();
    let thread_widths: Vec<usize> = table
        .iter()
        .filter(|event| event.scope == EventScope::Thread)
        .map(|event| field_width(event.per_cycle_max))
        .collect();
    let count_of = |width: usize| thread_widths.iter().filter(|&&w| w == width).count();
    assert_eq!((thread_widths.len(), count_of(1), count_of(2), count_of(5)), (40, 33, 6, 1));
    assert_eq!(table.iter().filter(|event| event.scope == EventScope::Core).count(), 19);
    for (index, event) in table.iter().enumerate() {
        let twin = table[index + 1..]
            .iter()
            .find(|other| other.name == event.name || (other.code, other.umask) == (event.code, event.umask));
        assert!(twin.is_none(), "{} is not unique", event.name);
    }
}
