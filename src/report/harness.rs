//! The pin harness for timing a core that has more ports than the package has pins
//! (the PMU: a few hundred event inputs). nextpnr-ice40 places only designs whose
//! ports fit the package, so the report wraps the core: one serial input shifts
//! into a chain of flip-flops that drives every input port (each bit from its own
//! flip-flop, so no two inputs are alike and nothing is optimised away), and every
//! output bit is folded into one registered XOR. Every path into and out of the core
//! starts or ends at a flip-flop, as it would in a system-on-chip, so the Fmax of
//! the harness is the core's register-to-register Fmax including its input paths
//! (e.g. `reg_wdata` through the register port into the counters).
//!
//! The harness costs one flip-flop per input bit and a small XOR tree; the report
//! states the core's own logic cells from the bare design's packing.
use std::fmt::Write;

/// A top-level port: (name, input?, width).
pub type Port = (String, bool, usize);

/// The harness module `<top>_harness` (ports `clock`, `serial_in`, `serial_out`)
/// around `top`, whose ports are `ports`.
pub fn verilog(top: &str, ports: &[Port]) -> String {
    let inputs: usize = ports.iter().filter(|p| p.1 && p.0 != "clock").map(|p| p.2).sum();
    let outputs: usize = ports.iter().filter(|p| !p.1).map(|p| p.2).sum();
    let mut v = String::new();
    let _ = writeln!(v, "// Timing harness around {top}: inputs from a shift chain, outputs folded into one XOR.");
    let _ = writeln!(v, "module {top}_harness(clock, serial_in, serial_out);");
    let _ = writeln!(v, "input wire clock;\ninput wire serial_in;\noutput reg serial_out;");
    let _ = writeln!(v, "reg [{}:0] chain;\ninitial chain = {inputs}'h0;", inputs.max(2) - 1);
    let _ = writeln!(v, "always @(posedge clock) chain <= {{chain[{}:0], serial_in}};", inputs.max(2) - 2);
    let _ = writeln!(v, "wire [{}:0] folded;", outputs - 1);
    let (mut next_in, mut next_out) = (0, 0);
    let mut connections = Vec::new();
    for (name, input, width) in ports {
        let (at, bits) = if name == "clock" {
            connections.push(".clock(clock)".to_string());
            continue;
        } else if *input {
            next_in += width;
            ("chain", next_in - width)
        } else {
            next_out += width;
            ("folded", next_out - width)
        };
        let range = if *width == 1 { format!("{bits}") } else { format!("{}:{bits}", bits + width - 1) };
        connections.push(format!(".{name}({at}[{range}])"));
    }
    let _ = writeln!(v, "{top} core({});", connections.join(", "));
    let _ = writeln!(v, "initial serial_out = 1'b0;\nalways @(posedge clock) serial_out <= ^folded;");
    let _ = writeln!(v, "endmodule");
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_input_bit_has_its_own_chain_flip_flop() {
        let ports = vec![
            ("clock".to_string(), true, 1),
            ("reset".to_string(), true, 1),
            ("events".to_string(), true, 10),
            ("pmi".to_string(), false, 2),
            ("reg_rdata".to_string(), false, 64),
        ];
        let v = verilog("pmu_x", &ports);
        assert!(v.contains("reg [10:0] chain;"));
        assert!(v.contains(".reset(chain[0]), .events(chain[10:1]), .pmi(folded[1:0]), .reg_rdata(folded[65:2])"));
    }
}
