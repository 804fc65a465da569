//! `pmugen_soc_bus`: the reference SoC's interconnect (docs/soc.md §2.2). It decodes
//! PicoRV32's native memory interface (one access at a time, held until `mem_ready`)
//! into one access line per slave, and returns the addressed slave's answer. An
//! address no slave decodes is answered ERR by the interconnect itself; an ERR answer
//! completes the access for the CPU with read data 0 and pulses `fault` for FAULTS.
//!
//! ```text
//!            +--------------------------+--> ram_*  (RAM 64 KiB)
//! mem_* ---->| region decode, answer mux|--> io_*   (console, exit, PID, PM_MARK, FAULTS)
//!   <--------|  unmapped: ERR next cycle|--> pmu_*  (Wishbone, ack/err)
//!            +--------------------------+--> mon_*, sink_*
//! ```
//!
//! Latency: every slave answers one cycle after it sees the access at the earliest.
use super::config::SocConfig;
use super::map;

/// The module's Verilog for an SoC of `config`; `pmu_address_bits` and
/// `monitor_address_bits` are the widths of the PMU's and the monitor's Wishbone byte
/// addresses (None: no monitor, its window unmapped).
pub fn verilog(config: &SocConfig, pmu_address_bits: usize, monitor_address_bits: Option<usize>) -> String {
    let region = |base: u32, bits: usize| format!("mem_addr[31:{bits}] == {}'h{:x}", 32 - bits, base >> bits);
    let ram_bits = config.ram_bytes().trailing_zeros() as usize;
    TEMPLATE
        .replace("@RAM@", &region(map::RAM_BASE, ram_bits))
        .replace("@IO@", &region(map::IO_BASE, 6))
        .replace("@PMU@", &region(map::PMU_BASE, pmu_address_bits))
        .replace("@MON@", &monitor_address_bits.map_or("1'b0".to_string(), |bits| region(map::MONITOR_BASE, bits)))
        .replace("@SINK@", &region(map::TRACE_BASE, 4))
}

const TEMPLATE: &str = r#"
// pmugen_soc_bus: the interconnect (docs/soc.md §2.2).
module pmugen_soc_bus (
    input  wire        clock,
    input  wire        reset,
    // PicoRV32's native memory interface.
    input  wire        mem_valid,
    // Bits [3:0] select within a slave, which sees them itself.
    input  wire [31:4] mem_addr,
    output wire        mem_ready,
    output wire [31:0] mem_rdata,
    // One access line per slave, and its answer.
    output wire        ram_valid,
    input  wire        ram_ack,
    input  wire [31:0] ram_rdata,
    output wire        io_valid,
    input  wire        io_ack,
    input  wire        io_err,
    input  wire [31:0] io_rdata,
    output wire        pmu_valid,
    input  wire        pmu_ack,
    input  wire        pmu_err,
    input  wire [31:0] pmu_rdata,
    output wire        mon_valid,
    input  wire        mon_ack,
    input  wire        mon_err,
    input  wire [31:0] mon_rdata,
    output wire        sink_valid,
    input  wire        sink_ack,
    input  wire [31:0] sink_rdata,
    // An access completes with ERR in this cycle.
    output wire        fault
);
    wire in_ram = @RAM@;
    wire in_io = @IO@;
    wire in_pmu = @PMU@;
    wire in_mon = @MON@;
    wire in_sink = @SINK@;
    wire unmapped = !(in_ram || in_io || in_pmu || in_mon || in_sink);

    assign ram_valid = mem_valid && in_ram;
    assign io_valid = mem_valid && in_io;
    assign pmu_valid = mem_valid && in_pmu;
    assign mon_valid = mem_valid && in_mon;
    assign sink_valid = mem_valid && in_sink;

    // No slave: ERR in the next cycle, like the slaves' answers.
    reg unmapped_err_q;
    always @(posedge clock) begin
        if (reset)
            unmapped_err_q <= 1'b0;
        else
            unmapped_err_q <= mem_valid && unmapped && !unmapped_err_q;
    end

    wire err = (in_io && io_err) || (in_pmu && pmu_err) || (in_mon && mon_err) || unmapped_err_q;
    wire ack = (in_ram && ram_ack) || (in_io && io_ack) || (in_pmu && pmu_ack) || (in_mon && mon_ack)
        || (in_sink && sink_ack);
    assign mem_ready = mem_valid && (ack || err);
    assign fault = mem_valid && err;
    // An ERR answer reads 0.
    assign mem_rdata = err ? 32'd0
        : in_ram ? ram_rdata
        : in_io ? io_rdata
        : in_pmu ? pmu_rdata
        : in_mon ? mon_rdata
        : in_sink ? sink_rdata
        : 32'd0;
endmodule
"#;
