//! `pmugen_soc_board`: the reference SoC on an iCE40 board (docs/soc.md §5.1): the board's
//! oscillator as the clock, a power-on reset and the reset button, the console on the
//! board's UART (8N1), and an LED that lights when the firmware exits.
//!
//! ```text
//! clock --------------------------+--> pmugen_soc --console_valid/data--> UART TX --> uart_tx
//! button --> sync --+--> reset ---+       ^ console_ready <-- UART idle
//! power-on count ---+                     exit_valid --> led_exit (held)
//! ```
//!
//! Latency: the system leaves reset 16 cycles after configuration or two cycles after
//! the button is released; a console byte starts on the line in the cycle after the
//! store's answer and takes ten bit times, during which a further console store waits.
use crate::build::{Board, BAUD};
use pmugen_hdl::board::board_top::Polarity;

/// The module's Verilog for `board`.
pub fn verilog(board: &Board) -> String {
    let divider = (board.clock_hz + BAUD / 2) / BAUD;
    let active = |polarity: Polarity, signal: &str| match polarity {
        Polarity::ActiveLow => format!("!{signal}"),
        Polarity::ActiveHigh => signal.to_string(),
    };
    TEMPLATE
        .replace("@DIVIDER@", &divider.to_string())
        .replace("@BAUD@", &BAUD.to_string())
        .replace("@CLOCK_HZ@", &board.clock_hz.to_string())
        .replace("@BUTTON@", &active(board.reset, "reset_button"))
        .replace("@LED@", &active(board.leds, "exited_q"))
}

const TEMPLATE: &str = r#"
// pmugen_soc_board: the reference SoC on a board (docs/soc.md §5): a @CLOCK_HZ@ Hz clock,
// the console on the UART at @BAUD@ baud (8N1), an LED lit at the firmware's exit.
module pmugen_soc_board (
    input  wire clock,
    input  wire reset_button,
    output wire uart_tx,
    output wire led_exit
);
    // Power-on reset: 16 cycles after configuration; the button through a synchronizer.
    reg [4:0] power_on_q = 5'd0;
    reg [1:0] button_q = 2'b00;
    always @(posedge clock) begin
        if (!power_on_q[4])
            power_on_q <= power_on_q + 5'd1;
        button_q <= {button_q[0], @BUTTON@};
    end
    wire reset = !power_on_q[4] || button_q[1];

    wire       console_valid;
    wire [7:0] console_data;
    wire       exit_valid;
    // verilator lint_off UNUSED
    wire [31:0] exit_code;
    // verilator lint_on UNUSED

    // The UART transmitter: start bit, 8 data bits LSB first, stop bit; @DIVIDER@ clocks a bit.
    reg [9:0]  shift_q = 10'h3ff;
    reg [3:0]  bits_q = 4'd0;
    reg [15:0] baud_q = 16'd0;
    wire       idle = bits_q == 4'd0;
    assign uart_tx = shift_q[0];
    always @(posedge clock) begin
        if (reset) begin
            shift_q <= 10'h3ff;
            bits_q <= 4'd0;
            baud_q <= 16'd0;
        end else if (console_valid && idle) begin
            shift_q <= {1'b1, console_data, 1'b0};
            bits_q <= 4'd10;
            baud_q <= 16'd@DIVIDER@ - 16'd1;
        end else if (!idle) begin
            if (baud_q == 16'd0) begin
                shift_q <= {1'b1, shift_q[9:1]};
                bits_q <= bits_q - 4'd1;
                baud_q <= 16'd@DIVIDER@ - 16'd1;
            end else begin
                baud_q <= baud_q - 16'd1;
            end
        end
    end

    reg exited_q = 1'b0;
    always @(posedge clock) begin
        if (reset)
            exited_q <= 1'b0;
        else if (exit_valid)
            exited_q <= 1'b1;
    end
    assign led_exit = @LED@;

    // The SoC's RVFI and trace ports stay inside: the PMU and the sink use them.
    pmugen_soc soc (
        .clock(clock), .reset(reset), .console_ready(idle && !console_valid),
        .console_valid(console_valid), .console_data(console_data),
        .exit_valid(exit_valid), .exit_code(exit_code),
        .rvfi_valid(), .rvfi_insn(), .rvfi_trap(), .rvfi_intr(), .rvfi_mode(), .rvfi_pc_rdata(),
        .rvfi_pc_wdata(), .rvfi_mem_rmask(), .rvfi_mem_wmask(),
        .trace_valid(), .trace_ready(), .trace_data(), .trace_last()
    );
endmodule
"#;
