//! `pmugen_soc_ram`: the reference SoC's 64 KiB RAM (docs/soc.md §2.2), 32-bit words
//! with byte write strobes, loaded in simulation from the `$readmemh` word image named by
//! the plusarg `+firmware=PATH`.
//!
//! ```text
//! valid, word, wdata, wstrb --> mem[16384 x 32] --> rdata (registered), ack
//! ```
//!
//! Latency: `ack` and the read data one cycle after the access is seen (one access at a
//! time: the CPU holds it until `ack`). The plusarg load sits outside `SYNTHESIS`, so
//! synthesis sees a plain RAM (a board build gives its image another way).
use super::map;

/// The module's Verilog.
pub fn verilog() -> String {
    TEMPLATE.replace("@WORDS@", &map::RAM_WORDS.to_string())
}

const TEMPLATE: &str = r#"
// pmugen_soc_ram: 64 KiB of RAM (docs/soc.md §2.2).
module pmugen_soc_ram (
    input  wire        clock,
    input  wire        reset,
    input  wire        valid,
    input  wire [13:0] word,
    input  wire [31:0] wdata,
    input  wire [3:0]  wstrb,
    output reg         ack,
    output reg  [31:0] rdata
);
    reg [31:0] mem [0:@WORDS@-1];
    wire take = valid && !ack;

`ifndef SYNTHESIS
    // The firmware image: 32-bit words, one per line ($readmemh), from +firmware=PATH.
    reg [8*1024-1:0] firmware;
    integer i;
    initial begin
        for (i = 0; i < @WORDS@; i = i + 1)
            mem[i] = 32'd0;
        if ($value$plusargs("firmware=%s", firmware))
            $readmemh(firmware, mem);
    end
`endif

    always @(posedge clock) begin
        if (reset)
            ack <= 1'b0;
        else
            ack <= take;
        if (take) begin
            rdata <= mem[word];
            if (wstrb[0]) mem[word][7:0] <= wdata[7:0];
            if (wstrb[1]) mem[word][15:8] <= wdata[15:8];
            if (wstrb[2]) mem[word][23:16] <= wdata[23:16];
            if (wstrb[3]) mem[word][31:24] <= wdata[31:24];
        end
    end
endmodule
"#;
