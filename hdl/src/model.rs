//! A generated design as a typed model: its modules with their ports and the
//! instances of their children, read from the blocks themselves by the same walk that
//! writes the Verilog (rust-hdl's probe over the block tree), so that nothing has to
//! read the Verilog back. A module is named as the emitter names it: the design's top,
//! and `<top>__<path>` for a child (docs/architecture.md).
use std::collections::BTreeMap;

use rust_hdl::core::atom::{Atom, AtomKind};
use rust_hdl::prelude::*;

/// Which way a port goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Direction {
    /// Into the module.
    Input,
    /// Out of it.
    Output,
}

/// One port of a module.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PortModel {
    /// Its name in the Verilog.
    pub name: String,
    /// Into or out of the module.
    pub direction: Direction,
    /// Its width in bits.
    pub width: usize,
}

impl PortModel {
    /// An input port.
    pub fn input(name: &str, width: usize) -> Self {
        Self { name: name.to_string(), direction: Direction::Input, width }
    }

    /// An output port.
    pub fn output(name: &str, width: usize) -> Self {
        Self { name: name.to_string(), direction: Direction::Output, width }
    }

    /// Whether it is an input.
    pub fn is_input(&self) -> bool {
        self.direction == Direction::Input
    }
}

/// One module of a design.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ModuleModel {
    /// Its ports, in declaration order.
    pub ports: Vec<PortModel>,
    /// Its children: (instance name, module name), in declaration order.
    pub instances: Vec<(String, String)>,
}

/// Every module of a design, by name.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DesignModel {
    /// The top module's name.
    pub top: String,
    /// Every module, the top included.
    pub modules: BTreeMap<String, ModuleModel>,
}

impl DesignModel {
    /// The model of `block` emitted with the top module `top` (the walk that
    /// `crate::emit::verilog` makes).
    pub fn of<B: Block>(block: &mut B, top: &str) -> Self {
        block.connect_all();
        let mut builder = Builder { path: Vec::new(), namespace: Vec::new(), model: DesignModel::default() };
        block.accept(top, &mut builder);
        builder.model.top = top.to_string();
        builder.model
    }

    /// The model of a hand-written top module `top` with `ports` and no children.
    pub fn leaf(top: &str, ports: Vec<PortModel>) -> Self {
        let mut modules = BTreeMap::new();
        modules.insert(top.to_string(), ModuleModel { ports, instances: Vec::new() });
        Self { top: top.to_string(), modules }
    }

    /// The top module's ports.
    pub fn ports(&self) -> &[PortModel] {
        &self.modules[&self.top].ports
    }

    /// The top module's ports as (name, input?, width).
    pub fn port_list(&self) -> Vec<(String, bool, usize)> {
        self.ports().iter().map(|p| (p.name.clone(), p.is_input(), p.width)).collect()
    }

    /// The path of instance names from the top to each module below it (`counters__0`,
    /// `adapter.kernels__0`), as a simulator or a formal tool names the instances.
    pub fn instance_paths(&self) -> BTreeMap<String, String> {
        let mut paths = BTreeMap::new();
        let mut pending = vec![(self.top.clone(), String::new())];
        while let Some((module, path)) = pending.pop() {
            for (instance, child) in self.modules.get(&module).map(|m| m.instances.as_slice()).unwrap_or_default() {
                let child_path = if path.is_empty() { instance.clone() } else { format!("{path}.{instance}") };
                paths.insert(child.clone(), child_path.clone());
                pending.push((child.clone(), child_path));
            }
        }
        paths
    }
}

/// The probe that builds a [`DesignModel`], scope by scope.
struct Builder {
    path: Vec<String>,
    namespace: Vec<String>,
    model: DesignModel,
}

impl Builder {
    /// The emitted name of the module at `path` (`$` written `__`, as `crate::emit` does).
    fn module_name(path: &[String]) -> String {
        path.join("__")
    }

    /// A rust-hdl name as emitted: `$` (a `Vec` element's index) written `__`.
    fn emitted(name: &str) -> String {
        name.replace('$', "__")
    }
}

impl Probe for Builder {
    fn visit_start_scope(&mut self, name: &str, _node: &dyn Block) {
        let parent = Self::module_name(&self.path);
        self.path.push(Self::emitted(name));
        self.namespace.clear();
        let module = Self::module_name(&self.path);
        if self.path.len() > 1 {
            self.model.modules.entry(parent).or_default().instances.push((Self::emitted(name), module.clone()));
        }
        self.model.modules.entry(module).or_default();
    }

    fn visit_start_namespace(&mut self, name: &str, _node: &dyn Block) {
        self.namespace.push(name.to_string());
    }

    fn visit_atom(&mut self, name: &str, signal: &dyn Atom) {
        let direction = match signal.kind() {
            AtomKind::InputParameter | AtomKind::InOutParameter => Direction::Input,
            AtomKind::OutputParameter | AtomKind::OutputPassthrough => Direction::Output,
            _ => return,
        };
        let mut full = self.namespace.clone();
        full.push(name.to_string());
        let port = PortModel { name: Self::emitted(&full.join("__")), direction, width: signal.bits() };
        self.model.modules.entry(Self::module_name(&self.path)).or_default().ports.push(port);
    }

    fn visit_end_namespace(&mut self, _name: &str, _node: &dyn Block) {
        self.namespace.pop();
    }

    fn visit_end_scope(&mut self, _name: &str, _node: &dyn Block) {
        self.path.pop();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pmu::params::PmuParams;
    use crate::pmu::top::Pmu;

    /// The model says what the emitted Verilog declares: the same modules, ports in
    /// the same order with the same widths, and each child instantiated where it says.
    #[test]
    fn the_model_is_what_the_verilog_declares() {
        let params = PmuParams::with_default_table(2, 2, 24).with_trace(4, 20).unwrap().with_profile(16).unwrap();
        let top = params.top_name();
        let verilog = crate::emit::verilog(&mut Pmu::new(&params), &top, &[]).unwrap();
        let model = DesignModel::of(&mut Pmu::new(&params), &top);
        let mut names: Vec<String> = crate::emit::module_names(&verilog);
        names.sort();
        assert_eq!(model.modules.keys().cloned().collect::<Vec<_>>(), names);
        for (name, module) in &model.modules {
            let declared = crate::emit::module_ports(&verilog, name).unwrap();
            let modelled: Vec<(String, bool, usize)> =
                module.ports.iter().map(|p| (p.name.clone(), p.is_input(), p.width)).collect();
            assert_eq!(modelled, declared, "ports of {name}");
            for (instance, child) in &module.instances {
                assert!(verilog.contains(&format!("{child} {instance}(")), "{name} instantiates {child} as {instance}");
            }
        }
        let paths = model.instance_paths();
        assert_eq!(paths[&format!("{top}__profile")], "profile");
        assert_eq!(paths[&format!("{top}__counters__3")], "counters__3");
    }
}
