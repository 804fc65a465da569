//! AXI4-Lite slave around a design's register port (docs/bus.md §3): top
//! `<top>_axil`, ports `s_axil_*`, data 32 bits (monitor) or 64 bits (PMU); or the
//! PMU behind 32-bit data, top `<top>_axil32` (docs/bus.md §8).
//!
//! Timing: one transaction at a time. In a cycle with no transaction in progress,
//! AWREADY = WREADY = 1 when AWVALID and WVALID are both 1 (the write is taken and
//! reaches the register port in that cycle); otherwise ARREADY = ARVALID (a read
//! waits while a whole write is offered). BVALID or RVALID rises in the next cycle
//! and holds its response (and RDATA) until BREADY or RREADY; the transaction ends
//! with that handshake, and the next one can be taken in the cycle after it. So a
//! master that keeps VALID and READY high gets one transaction every two cycles.
//!
//! Responses: SLVERR (2) for a byte offset that is not 0, a write whose strobes are
//! not all ones, and an access the design denies (the PMU's `reg_fault`, the
//! monitor's table); a refused access does nothing and reads 0. Otherwise OKAY (0).
//! AxPROT[0] is the PMU's privilege (1 = ring 0); the monitor ignores AxPROT.
//! Outside a response, BRESP, RRESP and RDATA are 0. On 32-bit data in front of
//! 64-bit registers a +4 write is held and answers OKAY; RDATA is the read's half of
//! its register or the read holding word (`halves.rs`).
//!
//! Cost (N=8, W=3 monitor): 2 response flags, 2 status flags, 2 held response bits
//! and 32 held data bits, beside the address decode.
use std::fmt::Write;

use super::register_access::{AccessCheck, Port, WrappedDesign};

/// The AXI4-Lite ports, in the order of docs/bus.md §3.
pub fn ports(design: &WrappedDesign) -> Vec<Port> {
    let (address, data) = (design.layout.address_bits, design.layout.bus_bits);
    let port = |name: &str, input: bool, width: usize| (format!("s_axil_{name}"), input, width);
    vec![
        port("awaddr", true, address),
        port("awprot", true, 3),
        port("awvalid", true, 1),
        port("awready", false, 1),
        port("wdata", true, data),
        port("wstrb", true, data / 8),
        port("wvalid", true, 1),
        port("wready", false, 1),
        port("bresp", false, 2),
        port("bvalid", false, 1),
        port("bready", true, 1),
        port("araddr", true, address),
        port("arprot", true, 3),
        port("arvalid", true, 1),
        port("arready", false, 1),
        port("rdata", false, data),
        port("rresp", false, 2),
        port("rvalid", false, 1),
        port("rready", true, 1),
    ]
}

/// The `<top>_axil` module (the design's module is emitted separately, before it).
pub fn verilog(design: &WrappedDesign) -> String {
    let data = design.layout.bus_bits;
    let answer = design.read_answer();
    let mut v = format!("\n// {}: AXI4-Lite slave around {} (docs/bus.md §3).\n", design.top, design.core);
    v.push_str(&design.module_header(&ports(design)));
    v.push_str(
        "\n    // One transaction at a time: a new one is taken only while no response is\n    \
         // waiting; a whole write (address and data) goes before a read.\n    \
         reg write_response_q;\n    reg read_response_q;\n    \
         wire idle = !reset && !write_response_q && !read_response_q;\n    \
         wire take_write = idle && s_axil_awvalid && s_axil_wvalid;\n    \
         wire take_read = idle && s_axil_arvalid && !(s_axil_awvalid && s_axil_wvalid);\n    \
         assign s_axil_awready = take_write;\n    assign s_axil_wready = take_write;\n    \
         assign s_axil_arready = take_read;\n",
    );
    let _ = writeln!(
        v,
        "    wire [{}:0] access_address = take_write ? s_axil_awaddr : s_axil_araddr;",
        design.layout.address_bits - 1
    );
    let _ = writeln!(v, "    wire [{}:0] access_wdata = s_axil_wdata;", data - 1);
    let _ = writeln!(v, "    wire [{}:0] access_strobes = s_axil_wstrb;", data / 8 - 1);
    if design.check == AccessCheck::ByDesign {
        v.push_str("    wire access_privileged = take_write ? s_axil_awprot[0] : s_axil_arprot[0];\n");
        v.push_str("    // AxPROT[2:1] (secure, instruction) mean nothing to the registers.\n");
        v.push_str("    wire unused_protection = &{1'b0, s_axil_awprot[2:1], s_axil_arprot[2:1]};\n\n");
    } else {
        v.push_str("    // A design without privilege ignores AxPROT.\n");
        v.push_str("    wire unused_protection = &{1'b0, s_axil_awprot, s_axil_arprot};\n\n");
    }
    v.push_str(&design.access_logic());
    let _ = write!(
        v,
        "\n    // The response: its first cycle takes the design's registered answer, later\n    \
         // cycles hold it (AXI keeps a response stable until its READY).\n    \
         reg first_cycle_q;\n    reg refused_access_q;\n    reg [1:0] held_resp_q;\n    reg [{msb}:0] held_rdata_q;\n    \
         wire [1:0] resp = first_cycle_q ? ((refused_access_q || design_fault) ? 2'b10 : 2'b00) : held_resp_q;\n    \
         wire [{msb}:0] rdata = first_cycle_q ? (refused_access_q ? {data}'d0 : {answer}) : held_rdata_q;\n    \
         assign s_axil_bresp = write_response_q ? resp : 2'b00;\n    \
         assign s_axil_bvalid = write_response_q;\n    \
         assign s_axil_rresp = read_response_q ? resp : 2'b00;\n    \
         assign s_axil_rdata = read_response_q ? rdata : {data}'d0;\n    \
         assign s_axil_rvalid = read_response_q;\n\n    \
         // Power-up values as the design's own flip-flops have (FPGA initial state).\n    \
         initial begin\n        \
             write_response_q = 1'b0;\n        read_response_q = 1'b0;\n        first_cycle_q = 1'b0;\n        \
             refused_access_q = 1'b0;\n        held_resp_q = 2'b00;\n        held_rdata_q = {data}'d0;\n    end\n\n    \
         always @(posedge clock) begin\n        \
             if (reset) begin\n            \
                 write_response_q <= 1'b0;\n            read_response_q <= 1'b0;\n            \
                 first_cycle_q <= 1'b0;\n            refused_access_q <= 1'b0;\n            \
                 held_resp_q <= 2'b00;\n            held_rdata_q <= {data}'d0;\n        \
             end else begin\n            \
                 write_response_q <= take_write || (write_response_q && !s_axil_bready);\n            \
                 read_response_q <= take_read || (read_response_q && !s_axil_rready);\n            \
                 first_cycle_q <= take_write || take_read;\n            \
                 if (take_write || take_read) refused_access_q <= refused;\n            \
                 if (first_cycle_q) begin\n                held_resp_q <= resp;\n                held_rdata_q <= rdata;\n            end\n        \
             end\n    end\nendmodule\n",
        msb = data - 1
    );
    v
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bus::{testing, Bus};

    #[test]
    fn wrapped_monitor_and_pmu_lint_clean_and_synthesize() {
        testing::assert_slaves_are_valid(Bus::Axi4Lite, verilog);
    }

    #[test]
    fn the_32_bit_pmu_slave_lints_clean_and_synthesizes() {
        testing::assert_slaves_are_valid(Bus::Axi4Lite32, verilog);
    }
}
