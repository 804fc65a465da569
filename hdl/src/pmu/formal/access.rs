//! Privilege rules of the register port (docs/pmu.md §5): a denied access acts on
//! nothing, reads 0 and raises `reg_fault`; at the top, a denied write leaves every
//! register that only writes change as it was.
use crate::formal::{declared, implies, ModuleProperties, Property};

/// The register port (`port`): the write strobes against the access check, and the
/// registered read data and fault.
pub(super) fn port(module: &str) -> ModuleProperties {
    let strobes = declared(module, |name| name.starts_with("strobes__"));
    let any_strobe = strobes.iter().map(|s| format!("(|{s})")).collect::<Vec<_>>().join(" | ");
    let properties = vec![
        Property::always(
            "denied_write_strobes_nothing",
            "docs/pmu.md §5.4: a denied write (not allowed at its privilege, unknown address, or reg_thread >= T) changes nothing",
            implies("!(write & write_allowed & thread_ok)", &format!("!({any_strobe})")),
        ),
        Property::always(
            "one_register_written",
            "docs/pmu.md §5.1: one access writes at most one register",
            format!("$countones({{{}}}) <= 1", strobes.join(", ")),
        ),
        Property::after_edge(
            "fault_registered",
            "docs/pmu.md §5.5: reg_fault is 1 after an edge whose cycle had a denied read or write",
            "fault == $past((read & ~(read_allowed & thread_ok)) | (write & ~(write_allowed & thread_ok)))",
        ),
        Property::after_edge(
            "denied_read_zero",
            "docs/pmu.md §5.4 and §5.5: a denied read, or a cycle without a read, returns 0",
            implies("!$past(read & read_allowed & thread_ok)", "rdata == 64'h0"),
        ),
    ];
    ModuleProperties { declarations: vec![], properties }
}

/// The top: a denied write, seen at the ports (a write without a read, then
/// `reg_fault`), leaves every register that only register writes change as it was,
/// and the TSC counting on.
pub(super) fn top(module: &str) -> ModuleProperties {
    let written_only = |name: &str| {
        let parts: Vec<&str> = name.split("__").collect();
        match parts.as_slice() {
            ["selects", _, "evtsel"] => true,
            ["controls", _, field] => {
                ["global_ctrl", "spflt_ctrl", "user_pref", "freeze", "user_access"].contains(field)
            }
            ["shadow_controls", _, field] => ["save_on_entry", "restore_on_exit"].contains(field),
            ["trace_control", field] => ["ctrl", "trace_pid"].contains(field),
            _ => false,
        }
    };
    let registers = declared(module, |name| written_only(name)).join(", ");
    let denied_write = "$past(reg_write && !reg_read) && reg_fault";
    let properties = vec![
        Property::after_edge(
            "denied_write_changes_nothing",
            "docs/pmu.md §5.4: a denied write changes no register (event selects, controls, shadow and trace control)",
            implies(denied_write, &format!("{{{registers}}} == $past({{{registers}}})")),
        ),
        Property::after_edge(
            "denied_write_leaves_tsc",
            "docs/pmu.md §5.4 and §7.3: a denied write to the TSC does not set it",
            implies(denied_write, "tsc__value == $past(tsc__value) + 64'h1"),
        ),
        Property::always(
            "drop_only_of_a_record",
            "docs/pmu.md §13.4: only a record made can be dropped",
            implies("trace_queue__drop", "trace_control__record"),
        ),
        Property::cover(
            "denied_write_seen",
            "docs/pmu.md §5.4: a denied write is reachable",
            "$past(reg_write && !reg_read) && reg_fault",
        ),
    ];
    ModuleProperties { declarations: vec![], properties }
}
