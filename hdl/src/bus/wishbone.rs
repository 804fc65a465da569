//! Wishbone B4 classic slave around a design's register port (docs/bus.md §4): top
//! `<top>_wb`, ports `wb_*`, data 32 bits (monitor) or 64 bits (PMU); or the PMU
//! behind 32-bit data, top `<top>_wb32`, with the holding words of `halves.rs`
//! (docs/bus.md §8).
//!
//! Timing (registered feedback): a cycle with CYC and STB high, while ACK and ERR are
//! low, takes the access; it reaches the register port in that cycle, and ACK (or
//! ERR) is high during the next cycle only. The master still holds STB in that
//! cycle, which is not taken again, so back-to-back accesses take two cycles each.
//!
//! ERR instead of ACK for a byte offset that is not 0, a write whose SEL is not all
//! ones (reads ignore SEL), and an access the design denies (the PMU's `reg_fault`,
//! the monitor's table); a refused access does nothing. `wb_priv` (PMU only) is the
//! privilege, 1 = ring 0. DAT_R carries the read data during the ACK of a read and is
//! 0 in every other cycle.
use std::fmt::Write;

use super::register_access::{AccessCheck, Port, WrappedDesign};

/// The Wishbone ports, in the order of docs/bus.md §4 (`wb_priv` for the PMU only).
pub fn ports(design: &WrappedDesign) -> Vec<Port> {
    let (address, data) = (design.layout.address_bits, design.layout.bus_bits);
    let port = |name: &str, input: bool, width: usize| (format!("wb_{name}"), input, width);
    let mut ports = vec![
        port("cyc", true, 1),
        port("stb", true, 1),
        port("we", true, 1),
        port("adr", true, address),
        port("dat_w", true, data),
        port("dat_r", false, data),
        port("sel", true, data / 8),
        port("ack", false, 1),
        port("err", false, 1),
    ];
    if design.check == AccessCheck::ByDesign {
        ports.push(port("priv", true, 1));
    }
    ports
}

/// The `<top>_wb` module (the design's module is emitted separately, before it).
pub fn verilog(design: &WrappedDesign) -> String {
    let data = design.layout.bus_bits;
    let answer = design.read_answer();
    let privileged = match design.check {
        AccessCheck::ByDesign => "    wire access_privileged = wb_priv;\n",
        AccessCheck::ByTable { .. } => "",
    };
    let mut v = format!("\n// {}: Wishbone B4 classic slave around {} (docs/bus.md §4).\n", design.top, design.core);
    v.push_str(&design.module_header(&ports(design)));
    let _ = write!(
        v,
        "\n    // Registered feedback: the cycle after an access is its ACK/ERR cycle, in\n    \
         // which the master still shows the same access.\n    \
         reg responding_q;\n    reg response_to_write_q;\n    reg refused_access_q;\n    \
         wire take = !reset && wb_cyc && wb_stb && !responding_q;\n    \
         wire take_write = take && wb_we;\n    wire take_read = take && !wb_we;\n    \
         wire [{}:0] access_address = wb_adr;\n    wire [{}:0] access_wdata = wb_dat_w;\n    \
         wire [{}:0] access_strobes = wb_sel;\n{privileged}\n",
        design.layout.address_bits - 1,
        data - 1,
        data / 8 - 1
    );
    v.push_str(&design.access_logic());
    let _ = write!(
        v,
        "\n    wire failed = refused_access_q || design_fault;\n    \
         assign wb_ack = responding_q && !failed;\n    \
         assign wb_err = responding_q && failed;\n    \
         assign wb_dat_r = (responding_q && !response_to_write_q && !refused_access_q) ? {answer} : {data}'d0;\n\n    \
         // Power-up values as the design's own flip-flops have (FPGA initial state).\n    \
         initial begin\n        responding_q = 1'b0;\n        response_to_write_q = 1'b0;\n        refused_access_q = 1'b0;\n    end\n\n    \
         always @(posedge clock) begin\n        \
             if (reset) begin\n            \
                 responding_q <= 1'b0;\n            response_to_write_q <= 1'b0;\n            refused_access_q <= 1'b0;\n        \
             end else begin\n            \
                 responding_q <= take;\n            \
                 if (take) begin\n                response_to_write_q <= wb_we;\n                refused_access_q <= refused;\n            end\n        \
             end\n    end\nendmodule\n"
    );
    v
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bus::{testing, Bus};

    #[test]
    fn wrapped_monitor_and_pmu_lint_clean_and_synthesize() {
        testing::assert_slaves_are_valid(Bus::Wishbone, verilog);
    }

    #[test]
    fn the_32_bit_pmu_slave_lints_clean_and_synthesizes() {
        testing::assert_slaves_are_valid(Bus::Wishbone32, verilog);
    }
}
