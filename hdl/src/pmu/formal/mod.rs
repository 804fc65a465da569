//! The PMU's formal properties (docs/formal.md §3), per block: the counter's and the
//! status bits' precedence at one edge (docs/pmu.md §7), the register port's
//! privilege rules (§5), the trace unit's queue accounting and stream rules (§13),
//! and the profile table's accounting (§15). Each block's list is inserted into that block's module under
//! `` `ifdef FORMAL `` ([`crate::formal::insert`]).
mod access;
mod counting;
mod profile;
mod trace;

use super::params::PmuParams;
use crate::formal::{insert, ModuleProperties};

/// `verilog` (the PMU of `params`, top `top`) with every block's properties.
pub fn with_properties(verilog: &str, top: &str, params: &PmuParams) -> String {
    insert(verilog, top, |suffix, module| properties(params, suffix, module))
}

/// The properties of the module `<top><suffix>` whose text is `module`.
fn properties(params: &PmuParams, suffix: &str, module: &str) -> Option<ModuleProperties> {
    let block = suffix.trim_start_matches("__");
    let kind = block.split("__").next().unwrap_or("");
    let is_instance = |name: &str| kind == name && block.split("__").nth(1).is_some_and(|i| i.parse::<usize>().is_ok());
    match kind {
        "" => Some(access::top(module)),
        "port" => Some(access::port(module)),
        "tsc" => Some(counting::tsc()),
        "trace_queue" => Some(trace::queue(params)),
        "trace_control" => Some(trace::control(params)),
        "profile" => Some(profile::table(params)),
        _ if is_instance("counters") => Some(counting::counter(params)),
        _ if is_instance("controls") => Some(counting::controls(params)),
        _ if is_instance("selects") => Some(counting::select()),
        _ if is_instance("shadow_controls") => Some(counting::shadow_control(params)),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formal::listed;
    use crate::pmu::event_table::EventTable;

    #[test]
    fn every_block_with_a_contract_rule_carries_its_properties() {
        let params = PmuParams::new(2, 2, 16, EventTable::default_table())
            .unwrap()
            .with_trace(2, 16)
            .unwrap()
            .with_profile(16)
            .unwrap();
        let top = params.top_name();
        let verilog = crate::emit::verilog(&mut crate::pmu::top::Pmu::new(&params), &top, &[]).unwrap();
        let with = with_properties(&verilog, &top, &params);
        let listed = listed(&with);
        for module in [
            "",
            "__port",
            "__tsc",
            "__trace_queue",
            "__trace_control",
            "__profile",
            "__counters__3",
            "__controls__1",
            "__selects__0",
            "__shadow_controls__1",
        ] {
            let name = format!("{top}{module}");
            assert!(listed.iter().any(|p| p.module == name), "no property in {name}");
        }
        assert!(listed.iter().all(|p| p.rule.starts_with("docs/")), "a property without its rule");
        assert_eq!(
            with.matches("`ifdef FORMAL").count(),
            with.matches("`endif").count() - verilog.matches("`endif").count()
        );
    }
}
