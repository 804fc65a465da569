//! The RVFI adapter's formal properties (docs/formal.md §3, docs/soc.md): per hart,
//! the kernel rule of `--kernel`, the block rule, the classification of control
//! transfers and handler returns from the instruction word, and the one register
//! stage between a retirement and the design's inputs. The
//! wrapped PMU or monitor carries its own properties below the adapter's.
use super::classify::{MRET, RETIRQ};
use super::params::{KernelRule, RvfiOptions};
use crate::custom::slice;
use crate::formal::{implies, insert, ModuleProperties, Property};
use crate::model::{DesignModel, ModuleModel};
use crate::params::MonitorParams;
use crate::pmu::params::PmuParams;

/// The RVFI PMU `top` (whose model is `model`) with the adapter's and the PMU's
/// properties.
pub fn with_pmu_properties(verilog: &str, model: &DesignModel, params: &PmuParams, options: RvfiOptions) -> String {
    let top = &model.top;
    let verilog = with_adapter_properties(verilog, model, options);
    crate::pmu::formal::with_properties(&verilog, &format!("{top}__pmu"), params)
}

/// The RVFI monitor `top` (whose model is `model`) with the adapter's and the
/// monitor's properties.
pub fn with_monitor_properties(
    verilog: &str,
    model: &DesignModel,
    params: &MonitorParams,
    options: RvfiOptions,
) -> String {
    let top = &model.top;
    let verilog = with_adapter_properties(verilog, model, options);
    crate::monitor::formal::with_properties(&verilog, &format!("{top}__monitor"), params)
}

/// The adapter's properties, each module's port widths read from `model`.
fn with_adapter_properties(verilog: &str, model: &DesignModel, options: RvfiOptions) -> String {
    let top = &model.top;
    insert(verilog, top, |suffix, _| {
        let module = model.modules.get(&format!("{top}{suffix}"))?;
        let mut parts = suffix.trim_start_matches("__").split("__");
        match (parts.next(), parts.next(), parts.next()) {
            (Some("adapter"), None, _) => Some(adapter(module)),
            (Some("adapter"), Some("kernels"), Some(_)) => Some(kernels(options.kernel_rule)),
            (Some("adapter"), Some("trackers"), Some(_)) => Some(tracker(module)),
            _ => None,
        }
    })
}

/// The width of `module`'s port `port` (1 if it has none).
fn width(module: &ModuleModel, port: &str) -> usize {
    module.ports.iter().find(|p| p.name == port).map_or(1, |p| p.width)
}

/// The adapter (`adapter`, its ports in `module`): each hart's classification of
/// control transfers and handler returns, and the one register stage between a
/// retirement and the design's inputs.
fn adapter(module: &ModuleModel) -> ModuleProperties {
    let harts = width(module, "rvfi_valid");
    let aw = width(module, "bb_addr") / harts;
    let mut properties = Vec::new();
    for t in 0..harts {
        // The retirement as the core's reader gives it to the classifier (docs/soc.md §1.7).
        let valid = format!("readers__{t}__read_valid");
        let insn = slice("rvfi_insn", 32 * t, 32, 32 * harts);
        // Fields of hart t's instruction word (a select of a select is not Verilog).
        let field = |lsb: usize, bits: usize| slice("rvfi_insn", 32 * t + lsb, bits, 32 * harts);
        let trap = format!("readers__{t}__read_trap");
        let (opcode, funct3, quadrant) = (field(0, 7), field(12, 3), field(0, 2));
        let control = format!(
            "({opcode} == 7'h63 || {opcode} == 7'h6f || {opcode} == 7'h67 || ({opcode} == 7'h73 && {funct3} == 3'h0))"
        );
        properties.extend([
            Property::always(
                &format!("control_transfers_end_blocks_{t}"),
                "docs/soc.md: a 32-bit branch, JAL, JALR or SYSTEM (funct3 0) instruction, or a trap, ends a block (compressed forms are the classifier's)",
                implies(&format!("{valid} && {quadrant} == 2'b11"), &format!("classifiers__{t}__ends_block == ({control} | {trap})")),
            ),
            Property::always(
                &format!("handler_returns_{t}"),
                "docs/soc.md (--kernel handler): a handler returns with MRET or PicoRV32's retirq",
                implies(&valid, &format!("classifiers__{t}__handler_return == ({insn} == 32'h{MRET:08x} || {insn} == 32'h{RETIRQ:08x})")),
            ),
            Property::after_edge(
                &format!("one_register_stage_{t}"),
                "docs/soc.md: what the retirement of cycle c gives is the design's input in cycle c+1",
                format!(
                    "{} == $past(kernels__{t}__kernel) && {} == $past(trackers__{t}__bb_end) && {} == $past(trackers__{t}__bb_addr)",
                    slice("kernel", t, 1, harts),
                    slice("bb_end", t, 1, harts),
                    slice("bb_addr", aw * t, aw, aw * harts)
                ),
            ),
        ]);
    }
    ModuleProperties { declarations: vec![], properties }
}

/// One hart's kernel rule (`adapter.kernels__<t>`); `last` is the kernel value of the
/// last retirement (the adapter's registered output).
fn kernels(rule: KernelRule) -> ModuleProperties {
    let declarations = vec![
        "reg f_returned;".to_string(),
        "initial f_returned = 1'b0;".to_string(),
        "always @(posedge clock) f_returned <= reset ? 1'b0 : (valid ? handler_return : f_returned);".to_string(),
    ];
    let properties = match rule {
        KernelRule::Mode => vec![Property::always(
            "kernel_rule",
            "docs/soc.md (--kernel mode): a retirement with rvfi_mode != 0 is in the kernel; a cycle without one keeps the last retirement's value",
            "kernel == (valid ? (mode != 2'h0) : last)",
        )],
        KernelRule::Handler => vec![
            Property::always(
                "kernel_rule",
                "docs/soc.md (--kernel handler): kernel(r) = rvfi_intr OR h, where h after a retirement is its kernel value AND NOT a return; a cycle without a retirement keeps the last value",
                "kernel == (valid ? (intr | (last & ~f_returned)) : last)",
            ),
            Property::always(
                "handler_flag",
                "docs/soc.md (--kernel handler): the handler flag h is the last retirement's kernel value unless that was a return",
                "handler_q == (last & ~f_returned)",
            ),
        ],
    };
    ModuleProperties { declarations, properties }
}

/// One hart's block tracker (`adapter.trackers__<t>`).
fn tracker(module: &ModuleModel) -> ModuleProperties {
    let (aw, pcw) = (width(module, "bb_addr"), width(module, "pc_rdata"));
    let pc = slice("pc_rdata", 0, aw, pcw);
    let declarations = vec![
        "reg f_open;".to_string(),
        format!("reg [{}:0] f_start;", aw - 1),
        format!("initial begin f_open = 1'b0; f_start = {aw}'h0; end"),
        "wire f_user = valid & ~kernel;".to_string(),
        format!("wire [{}:0] f_block = f_open ? f_start : {pc};", aw - 1),
        "always @(posedge clock) begin".to_string(),
        format!("    if (reset) begin f_open <= 1'b0; f_start <= {aw}'h0; end"),
        "    else if (f_user) begin f_start <= f_block; f_open <= ~ends_block; end".to_string(),
        "end".to_string(),
    ];
    let properties = vec![
        Property::always(
            "block_rule",
            "docs/soc.md: only a user retirement ends a block; the block's address is that of its first user retirement since reset or the last block end",
            format!("bb_end == (f_user & ends_block) && bb_addr == (bb_end ? f_block : {aw}'h0)"),
        ),
        Property::always(
            "block_state",
            "docs/soc.md: the tracker holds the open block's first address",
            "pending_q == f_open && (!f_open || start_q == f_start)",
        ),
    ];
    ModuleProperties { declarations, properties }
}
