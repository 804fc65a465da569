//! `pmugen_soc`: the reference SoC's top module (docs/soc.md §2.1): the CPU (PicoRV32,
//! SERV or Ibex, cpu.rs), the interconnect, RAM, the small registers, the PMU and the
//! monitor behind their Wishbone slaves, and the trace sink.
//!
//! ```text
//!                 +-- rvfi_* ------------------------------+----------+--> rvfi_* (ports)
//!  PicoRV32 ------+                                        v          v
//!   mem_* --> pmugen_soc_bus --> RAM | io | PMU (wb32) | monitor (wb) | trace sink
//!   irq[3] <-- pmi, irq[4] <-- matched, wb_priv <-- |eoi      trace_* --^ (mirrored on ports)
//! ```
//!
//! Latency: an access takes two cycles at the slaves (the request, the answer); the
//! CPU's own cycles per instruction are PicoRV32's.
use super::cpu::Cpu;
use super::map;

/// The PicoRV32 configuration of the reference SoC (docs/soc.md §2.3), as its parameters.
pub const CPU_PARAMETERS: [(&str, &str); 9] = [
    ("ENABLE_COUNTERS", "1"),
    ("COMPRESSED_ISA", "0"),
    ("ENABLE_MUL", "0"),
    ("ENABLE_DIV", "0"),
    ("ENABLE_IRQ", "1"),
    ("ENABLE_IRQ_QREGS", "1"),
    ("ENABLE_IRQ_TIMER", "1"),
    ("PROGADDR_RESET", "32'h0000_0000"),
    ("PROGADDR_IRQ", "32'h0000_0010"),
];

/// Where the monitor sits in an SoC that has one.
#[derive(Clone, Debug)]
pub struct MonitorSlot {
    /// Its module's name.
    pub top: String,
    /// The width of its Wishbone byte address.
    pub address_bits: usize,
    /// The width of its `start`/`stop`.
    pub lines: usize,
}

/// The module's Verilog around the PMU module `pmu` (its Wishbone byte address
/// `pmu_address_bits` wide) and the monitor in `monitor`, if any (without one, its window
/// answers ERR and `matched` is 0), with RAM of `ram_words` words. With `console_port`
/// the top has an input `console_ready` (a board's UART): a console store waits for it.
pub fn verilog(
    cpu: Cpu,
    pmu: &str,
    pmu_address_bits: usize,
    monitor: Option<&MonitorSlot>,
    ram_words: usize,
    console_port: bool,
) -> String {
    let parameters: Vec<String> = CPU_PARAMETERS.iter().map(|(name, value)| format!(".{name}({value})")).collect();
    let monitor_text = match monitor {
        Some(slot) => MONITOR
            .replace("@MONITOR@", &slot.top)
            .replace("@MON_MSB@", &(slot.address_bits - 1).to_string())
            .replace("@MON_LINES@", &format!("{}'d0", slot.lines)),
        None => NO_MONITOR.to_string(),
    };
    let (console_port_text, console_wire) = if console_port {
        ("    input  wire        console_ready,\n", "")
    } else {
        ("", "    // The console takes a byte every cycle (a simulation prints it at once).\n    wire        console_ready = 1'b1;\n")
    };
    let io_timer = if cpu.has_timer_register() { ",\n        .timer_irq(timer_irq)" } else { "" };
    let timer_wire = if cpu.has_timer_register() { "    wire        timer_irq;\n" } else { "" };
    TEMPLATE
        .replace("@CPU@\n", &format!("{timer_wire}{}", cpu.verilog(&parameters.join(",\n        "))))
        .replace("@CPU_NAME@", cpu.title())
        .replace("@CPU_DEFINE@", cpu.rvfi_define())
        .replace("@IO_TIMER@", io_timer)
        .replace("@CONSOLE_READY_PORT@\n", console_port_text)
        .replace("@CONSOLE_READY_WIRE@\n", console_wire)
        .replace("@MONITOR_INSTANCE@", &monitor_text)
        .replace("@PMU@", pmu)
        .replace("@PMU_MSB@", &(pmu_address_bits - 1).to_string())
        .replace("@RAM_MSB@", &(ram_words.trailing_zeros() as usize + 1).to_string())
        .replace("@IRQ_PMU@", &map::IRQ_PMU.to_string())
        .replace("@IRQ_MONITOR@", &map::IRQ_MONITOR.to_string())
}

const MONITOR: &str = r#"    // The monitor: its windows are opened and closed by software (CMD), not by start/stop.
    @MONITOR@ monitor (
        .clock(clock), .reset(reset_q),
        .rvfi_valid(rvfi_valid), .rvfi_insn(rvfi_insn), .rvfi_trap(rvfi_trap), .rvfi_intr(rvfi_intr),
        .rvfi_mode(rvfi_mode), .rvfi_pc_rdata(rvfi_pc_rdata), .rvfi_pc_wdata(rvfi_pc_wdata),
        .rvfi_mem_rmask(rvfi_mem_rmask), .rvfi_mem_wmask(rvfi_mem_wmask),
        .start(@MON_LINES@), .stop(@MON_LINES@), .matched(matched), .window(window),
        .ser_data(ser_data), .ser_valid(ser_valid), .ser_last(ser_last),
        .wb_cyc(mon_valid), .wb_stb(mon_valid), .wb_we(mem_write), .wb_adr(mem_addr[@MON_MSB@:0]),
        .wb_dat_w(mem_wdata), .wb_dat_r(mon_rdata), .wb_sel(mem_write ? mem_wstrb : 4'hf),
        .wb_ack(mon_ack), .wb_err(mon_err)
    );
"#;

const NO_MONITOR: &str = r#"    // No monitor in this system: its window is unmapped (the interconnect answers ERR).
    assign matched = 1'b0;
    assign window = 1'b0;
    assign ser_data = 1'b0;
    assign ser_valid = 1'b0;
    assign ser_last = 1'b0;
    assign mon_ack = 1'b0;
    assign mon_err = 1'b0;
    assign mon_rdata = 32'd0;
"#;

const TEMPLATE: &str = r#"
// pmugen_soc: the reference SoC (docs/soc.md §2) on @CPU_NAME@, read with its RVFI
// port on (@CPU_DEFINE@).
module pmugen_soc (
    input  wire        clock,
    input  wire        reset,
@CONSOLE_READY_PORT@
    output wire        console_valid,
    output wire [7:0]  console_data,
    output wire        exit_valid,
    output wire [31:0] exit_code,
    output wire        rvfi_valid,
    output wire [31:0] rvfi_insn,
    output wire        rvfi_trap,
    output wire        rvfi_intr,
    output wire [1:0]  rvfi_mode,
    output wire [31:0] rvfi_pc_rdata,
    output wire [31:0] rvfi_pc_wdata,
    output wire [3:0]  rvfi_mem_rmask,
    output wire [3:0]  rvfi_mem_wmask,
    output wire        trace_valid,
    output wire        trace_ready,
    output wire [63:0] trace_data,
    output wire        trace_last
);
    // The reset every block sees, one flip-flop after the port: the system leaves reset
    // on the edge after `reset` falls. A board needs this register anyway (its reset
    // comes from a button or a PLL lock), and it keeps the port away from the blocks'
    // reset logic, which a simulator would otherwise re-evaluate whenever an input
    // changes, the clock included (docs/soc.md §2).
    reg         reset_q = 1'b1;
    always @(posedge clock) reset_q <= reset;
@CONSOLE_READY_WIRE@
    // The RAM holds the CPU in reset while it loads the firmware (a boot ROM copy).
    wire        booting;

    // PicoRV32's memory interface.
    wire        mem_valid;
    wire        mem_ready;
    // Read by the simulation for its record of the PMU's register writes.
    wire [31:0] mem_addr /*verilator public_flat_rd*/;
    wire [31:0] mem_wdata /*verilator public_flat_rd*/;
    wire [3:0]  mem_wstrb /*verilator public_flat_rd*/;
    wire [31:0] mem_rdata;
    wire        mem_write = |mem_wstrb;
    wire        pmi;
    wire        matched;
    wire [31:0] pid;
    wire        pm_mark;
    wire        fault;

    // verilator lint_off UNUSED
    wire        cpu_trap /*verilator public_flat_rd*/;  // the simulation stops on it
    wire        window;
    wire        ser_data;
    wire        ser_valid;
    wire        ser_last;
    // verilator lint_on UNUSED
    // The PMU's privilege: the CPU runs its kernel (docs/soc.md §2.9).
    wire        cpu_priv;
@CPU@
    wire        ram_valid, ram_ack;
    wire [31:0] ram_rdata;
    wire        io_valid, io_ack, io_err;
    wire [31:0] io_rdata;
    wire        pmu_valid, pmu_err;
    wire        pmu_ack /*verilator public_flat_rd*/;
    wire [31:0] pmu_rdata;
    wire        mon_valid, mon_ack, mon_err;
    wire [31:0] mon_rdata;
    wire        sink_valid, sink_ack;
    wire [31:0] sink_rdata;

    pmugen_soc_bus bus (
        .clock(clock), .reset(reset_q),
        .mem_valid(mem_valid), .mem_addr(mem_addr[31:4]), .mem_ready(mem_ready), .mem_rdata(mem_rdata),
        .ram_valid(ram_valid), .ram_ack(ram_ack), .ram_rdata(ram_rdata),
        .io_valid(io_valid), .io_ack(io_ack), .io_err(io_err), .io_rdata(io_rdata),
        .pmu_valid(pmu_valid), .pmu_ack(pmu_ack), .pmu_err(pmu_err), .pmu_rdata(pmu_rdata),
        .mon_valid(mon_valid), .mon_ack(mon_ack), .mon_err(mon_err), .mon_rdata(mon_rdata),
        .sink_valid(sink_valid), .sink_ack(sink_ack), .sink_rdata(sink_rdata),
        .fault(fault)
    );

    pmugen_soc_ram ram (
        .clock(clock), .reset(reset_q), .valid(ram_valid), .word(mem_addr[@RAM_MSB@:2]), .wdata(mem_wdata),
        .wstrb(mem_wstrb), .ack(ram_ack), .rdata(ram_rdata), .booting(booting)
    );

    pmugen_soc_io io (
        .clock(clock), .reset(reset_q), .valid(io_valid), .register(mem_addr[5:2]), .write(mem_write),
        .wdata(mem_wdata), .ack(io_ack), .err(io_err), .rdata(io_rdata), .fault(fault),
        .console_ready(console_ready), .console_valid(console_valid), .console_data(console_data),
        .exit_valid(exit_valid), .exit_code(exit_code), .pid(pid), .pm_mark(pm_mark)@IO_TIMER@
    );

    // The PMU: privileged while the CPU runs its kernel (cpu_priv, docs/soc.md §2.9).
    @PMU@ pmu (
        .clock(clock), .reset(reset_q),
        .rvfi_valid(rvfi_valid), .rvfi_insn(rvfi_insn), .rvfi_trap(rvfi_trap), .rvfi_intr(rvfi_intr),
        .rvfi_mode(rvfi_mode), .rvfi_pc_rdata(rvfi_pc_rdata), .rvfi_pc_wdata(rvfi_pc_wdata),
        .rvfi_mem_rmask(rvfi_mem_rmask), .rvfi_mem_wmask(rvfi_mem_wmask),
        .pm_mark(pm_mark), .pid(pid), .pmi(pmi),
        .trace_data(trace_data), .trace_valid(trace_valid), .trace_ready(trace_ready), .trace_last(trace_last),
        .wb_cyc(pmu_valid), .wb_stb(pmu_valid), .wb_we(mem_write), .wb_adr(mem_addr[@PMU_MSB@:0]),
        .wb_dat_w(mem_wdata), .wb_dat_r(pmu_rdata), .wb_sel(mem_write ? mem_wstrb : 4'hf),
        .wb_ack(pmu_ack), .wb_err(pmu_err), .wb_priv(cpu_priv)
    );

@MONITOR_INSTANCE@
    pmugen_soc_trace_sink sink (
        .clock(clock), .reset(reset_q), .valid(sink_valid), .register(mem_addr[3:2]), .ack(sink_ack),
        .rdata(sink_rdata), .trace_valid(trace_valid), .trace_data(trace_data), .trace_ready(trace_ready)
    );
endmodule
"#;
