//! `pmugen_soc_ram`: the reference SoC's RAM (docs/soc.md §2.2; 64 KiB in the simulated
//! SoC), 32-bit words with byte write strobes, loaded in simulation from the `$readmemh`
//! word image named by the plusarg `+firmware=PATH`, on a board (docs/soc.md §5) from
//! the bitstream: initialised block RAM, or on the UP5K its single-port RAM, filled from a
//! boot ROM while `booting` holds the CPU in reset.
//!
//! ```text
//! valid, word, wdata, wstrb --> mem[16384 x 32] --> rdata (registered), ack
//! ```
//!
//! Latency: `ack` and the read data one cycle after the access is seen (one access at a
//! time: the CPU holds it until `ack`). The plusarg load sits outside `SYNTHESIS`, so
//! synthesis of the simulated SoC sees a plain RAM. The boot copy takes one cycle per
//! boot ROM word after reset.
use super::config::{RamKind, SocConfig};

/// The firmware image a board's bitstream is built with (32-bit hex words, in the
/// synthesis directory).
pub const FIRMWARE_HEX: &str = "pmugen_soc_firmware.hex";

/// The module's Verilog for an SoC of `config`.
pub fn verilog(config: &SocConfig) -> String {
    let template = match config.ram {
        RamKind::Plain => TEMPLATE,
        RamKind::Spram { .. } => SPRAM,
    };
    let bits = config.ram_words.trailing_zeros() as usize;
    let boot_words = match config.ram {
        RamKind::Spram { boot_words } => boot_words,
        RamKind::Plain => 0,
    };
    let board_image = if config.board {
        format!("`ifdef SYNTHESIS\n    // The firmware in the bitstream.\n    initial $readmemh(\"{FIRMWARE_HEX}\", mem);\n`endif\n")
    } else {
        String::new()
    };
    template
        .replace("@PORTS@", PORTS)
        .replace("@WORDS@", &config.ram_words.to_string())
        .replace("@BYTES@", &format!("{} KiB", config.ram_bytes() / 1024))
        .replace("@WMSB@", &(bits - 1).to_string())
        .replace("@BOARD_IMAGE@\n", &board_image)
        .replace("@BOOT@", &boot_words.to_string())
        .replace("@BB@", &(boot_words.trailing_zeros() as usize + 1).to_string())
        .replace("@BMSB@", &(boot_words.trailing_zeros() as usize).to_string())
        .replace("@BIMSB@", &(boot_words.trailing_zeros() as usize).saturating_sub(1).to_string())
        .replace("@FIRMWARE@", FIRMWARE_HEX)
}

/// The ports both RAMs share (before `rdata` and `booting`).
const PORTS: &str = r#"    input  wire        clock,
    input  wire        reset,
    input  wire        valid,
    input  wire [@WMSB@:0] word,
    input  wire [31:0] wdata,
    input  wire [3:0]  wstrb,
    output reg         ack,
"#;

const TEMPLATE: &str = r#"
// pmugen_soc_ram: @BYTES@ of RAM (docs/soc.md §2.2).
module pmugen_soc_ram (
@PORTS@    output reg  [31:0] rdata,
    // The RAM is loading the firmware (never here: it is loaded before the clock runs).
    output wire        booting
);
    reg [31:0] mem [0:@WORDS@-1];
    wire take = valid && !ack;
    assign booting = 1'b0;
@BOARD_IMAGE@

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

const SPRAM: &str = r#"
// pmugen_soc_ram: @BYTES@ of RAM in the iCE40 UP5K's single-port RAM, loaded from a boot
// ROM of @BOOT@ words (the firmware in the bitstream) while `booting` holds the CPU in
// reset (docs/soc.md §5).
module pmugen_soc_ram (
@PORTS@    output wire [31:0] rdata,
    output wire        booting
);
    reg [31:0] boot [0:@BOOT@-1];
    initial $readmemh("@FIRMWARE@", boot);

    // The copy: boot[read_q] is read in one cycle and written to the SPRAM in the next.
    reg [@BMSB@:0] read_q;
    reg [@BMSB@:0] write_q;
    reg [31:0] copy_data_q;
    reg        copy_valid_q;
    always @(posedge clock) begin
        copy_data_q <= boot[read_q[@BIMSB@:0]];
        if (reset) begin
            read_q <= @BB@'d0;
            write_q <= @BB@'d0;
            copy_valid_q <= 1'b0;
        end else begin
            copy_valid_q <= read_q != @BB@'d@BOOT@;
            if (read_q != @BB@'d@BOOT@)
                read_q <= read_q + @BB@'d1;
            if (copy_valid_q)
                write_q <= write_q + @BB@'d1;
        end
    end
    assign booting = reset || write_q != @BB@'d@BOOT@;

    wire take = valid && !ack && !booting;
    always @(posedge clock) begin
        if (reset)
            ack <= 1'b0;
        else
            ack <= take;
    end

    // Two 16-bit halves side by side; a write mask bit per nibble.
    wire [13:0] address = booting ? {{(14 - @BB@){1'b0}}, write_q} : word;
    wire [31:0] data = booting ? copy_data_q : wdata;
    wire        write = booting ? copy_valid_q : take && |wstrb;
    wire [7:0]  nibbles = booting ? 8'hff : {{2{wstrb[3]}}, {2{wstrb[2]}}, {2{wstrb[1]}}, {2{wstrb[0]}}};
    SB_SPRAM256KA low (
        .ADDRESS(address), .DATAIN(data[15:0]), .MASKWREN(nibbles[3:0]), .WREN(write), .CHIPSELECT(1'b1),
        .CLOCK(clock), .STANDBY(1'b0), .SLEEP(1'b0), .POWEROFF(1'b1), .DATAOUT(rdata[15:0])
    );
    SB_SPRAM256KA high (
        .ADDRESS(address), .DATAIN(data[31:16]), .MASKWREN(nibbles[7:4]), .WREN(write), .CHIPSELECT(1'b1),
        .CLOCK(clock), .STANDBY(1'b0), .SLEEP(1'b0), .POWEROFF(1'b1), .DATAOUT(rdata[31:16])
    );
endmodule
"#;
