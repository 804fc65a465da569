//! The report of a design behind a bus slave (`report ... --bus`): the design's own
//! budget, checked on its instance `core` inside the wrapped top, the slave's
//! flip-flops as one more group, and iCE40 figures of the whole wrapped top.
use anyhow::Result;
use serde_json::Value;

use pmugen_hdl::bus::Bus;

use super::netlist::CoarseCounts;
use super::{BudgetLine, Subject};
use crate::design::Artifact;
use pmugen_hdl::flip_flops::FlipFlops;

/// `inner` behind `bus`, with the wrapped design's files.
pub struct OnBus<'a> {
    /// The bare design's report subject.
    pub inner: &'a dyn Subject,
    /// The bus.
    pub bus: Bus,
    /// What `generate --bus` writes for it, the Verilog first.
    pub files: Vec<Artifact>,
    /// The wrapped top's model.
    pub model: pmugen_hdl::model::DesignModel,
}

impl Subject for OnBus<'_> {
    fn top_name(&self) -> String {
        self.bus.top_name(&self.inner.top_name())
    }
    fn model(&self) -> pmugen_hdl::model::DesignModel {
        self.model.clone()
    }
    fn files(&self) -> Result<Vec<Artifact>, String> {
        Ok(self.files.clone())
    }
    fn parameters(&self) -> Vec<(&'static str, String)> {
        let mut parameters = self.inner.parameters();
        parameters.push(("bus", self.bus.flag_value().to_string()));
        if let Some(width) = self.bus.narrow_width() {
            parameters.push(("bus width", width.to_string()));
        }
        parameters
    }
    fn budget_source(&self) -> &'static str {
        self.inner.budget_source()
    }
    fn flip_flops(&self) -> Vec<FlipFlops> {
        self.inner.flip_flops()
    }
    fn groups(&self) -> &'static [&'static str] {
        self.inner.groups()
    }
    fn scope(&self) -> &'static str {
        // The slave instantiates the design as `core` (hdl/src/bus/register_access.rs).
        "core."
    }
    fn budget(&self, top: &str, counts: &CoarseCounts, netlist: &Value) -> Result<Vec<BudgetLine>> {
        self.inner.budget(top, counts, netlist)
    }
    fn notes(&self, top: &str, counts: &CoarseCounts, netlist: &Value) -> Result<Vec<(String, usize)>> {
        self.inner.notes(top, counts, netlist)
    }
    fn statements(&self) -> Vec<String> {
        self.inner.statements()
    }
    fn seeds(&self) -> &'static [u64] {
        self.inner.seeds()
    }
    fn parts(&self) -> Vec<(String, String)> {
        self.renamed(self.inner.parts())
    }
    fn blocks(&self) -> Vec<(String, String)> {
        self.renamed(self.inner.blocks())
    }
}

impl OnBus<'_> {
    /// The design's `(label, module)` pairs as named inside the wrapped file: after
    /// `<bus top>__core`.
    fn renamed(&self, parts: Vec<(String, String)>) -> Vec<(String, String)> {
        let (bare, core) = (self.inner.top_name(), format!("{}__core", self.top_name()));
        parts
            .into_iter()
            .map(|(label, module)| {
                (label, module.strip_prefix(&bare).map_or(module.clone(), |rest| format!("{core}{rest}")))
            })
            .collect()
    }
}
