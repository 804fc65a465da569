//! `pmugen_soc_io`: the reference SoC's small registers (docs/soc.md §2.2): console,
//! exit, PID (the PMU's `pid`), PM_MARK (the PMU's `pm_mark`) and FAULTS (accesses
//! answered ERR).
//!
//! ```text
//!           +0x00 console (store: console_valid, console_data = wdata[7:0])
//! valid --> +0x04 exit    (store: exit_valid, exit_code = wdata)   --> ack / err, rdata
//! register  +0x10 PID     (r/w, reset 0)          --> pid
//! wdata     +0x14 PM_MARK (r/w bit 0, reset 1)    --> pm_mark
//!           +0x18 FAULTS  (read; a write clears)  <-- fault
//!           +0x1C TIMER   (SERV and Ibex: r/w)    --> timer_irq
//! ```
//!
//! TIMER (only in the SoC of a CPU without a timer of its own, docs/soc.md §2.9): a write
//! of n starts a count down from n (0 stops it); `timer_irq` rises when it reaches 0 and
//! stays until the next write; a read gives what remains.
//!
//! Latency: ack (or err for any other offset) one cycle after the access is seen (a
//! console store: after `console_ready`, which the simulated SoC holds at 1);
//! console_valid and exit_valid are one-cycle pulses in that answer cycle; a write to
//! PID or PM_MARK shows on `pid`/`pm_mark` from the answer cycle on.

/// The module's Verilog, with the TIMER register or without.
pub fn verilog(timer: bool) -> String {
    if !timer {
        let mut text = TEMPLATE.replace("@TIMER_KNOWN@", "");
        for marker in ["@TIMER_PORT@", "@TIMER_DECL@\n", "@TIMER_RESET@\n", "@TIMER@\n", "@TIMER_READ@\n"] {
            text = text.replace(marker, "");
        }
        return text;
    }
    TEMPLATE
        .replace("@TIMER_PORT@", ",\n    output reg         timer_irq")
        .replace("@TIMER_DECL@\n", "    reg [31:0] timer_q;\n")
        .replace("@TIMER_RESET@\n", "            timer_q <= 32'd0;\n            timer_irq <= 1'b0;\n")
        .replace("@TIMER_KNOWN@", " || register == 4'd7")
        .replace("@TIMER@\n", TIMER)
        .replace("@TIMER_READ@\n", "                4'd7: rdata <= timer_q;\n")
}

/// The TIMER register's count down and interrupt.
const TIMER: &str = r#"            if (take && write && register == 4'd7) begin
                timer_q <= wdata;
                timer_irq <= 1'b0;
            end else if (timer_q != 32'd0) begin
                timer_q <= timer_q - 32'd1;
                if (timer_q == 32'd1)
                    timer_irq <= 1'b1;
            end
"#;

const TEMPLATE: &str = r#"
// pmugen_soc_io: console, exit, PID, PM_MARK, FAULTS (docs/soc.md §2.2).
module pmugen_soc_io (
    input  wire        clock,
    input  wire        reset,
    input  wire        valid,
    // The register: address bits [5:2].
    input  wire [3:0]  register,
    input  wire        write,
    input  wire [31:0] wdata,
    output reg         ack,
    output reg         err,
    output reg  [31:0] rdata,
    // An access elsewhere completes with ERR in this cycle (counted in FAULTS).
    input  wire        fault,
    // The console takes a byte (a board's UART is free); a console store waits for it.
    input  wire        console_ready,
    output reg         console_valid,
    output reg  [7:0]  console_data,
    output reg         exit_valid,
    output reg  [31:0] exit_code,
    output reg  [31:0] pid,
    output reg         pm_mark@TIMER_PORT@
);
    reg [31:0] faults_q;
@TIMER_DECL@
    wire console_store = write && register == 4'd0;
    wire take = valid && !ack && !err && (!console_store || console_ready);
    // Word offsets 0x00, 0x04, 0x10, 0x14, 0x18.
    wire known = register == 4'd0 || register == 4'd1 || register == 4'd4 || register == 4'd5
        || register == 4'd6@TIMER_KNOWN@;

    always @(posedge clock) begin
        if (reset) begin
            ack <= 1'b0;
            err <= 1'b0;
            rdata <= 32'd0;
            console_valid <= 1'b0;
            console_data <= 8'd0;
            exit_valid <= 1'b0;
            exit_code <= 32'd0;
            pid <= 32'd0;
            pm_mark <= 1'b1;
            faults_q <= 32'd0;
@TIMER_RESET@
        end else begin
            ack <= take && known;
            err <= take && !known;
            console_valid <= take && write && register == 4'd0;
            exit_valid <= take && write && register == 4'd1;
            if (take && write && register == 4'd0)
                console_data <= wdata[7:0];
            if (take && write && register == 4'd1)
                exit_code <= wdata;
            if (take && write && register == 4'd4)
                pid <= wdata;
            if (take && write && register == 4'd5)
                pm_mark <= wdata[0];
            if (take && write && register == 4'd6)
                faults_q <= 32'd0;
            else if (fault)
                faults_q <= faults_q + 32'd1;
@TIMER@
            case (register)
                4'd4: rdata <= pid;
                4'd5: rdata <= {31'd0, pm_mark};
                4'd6: rdata <= faults_q;
@TIMER_READ@
                default: rdata <= 32'd0;
            endcase
        end
    end
endmodule
"#;
