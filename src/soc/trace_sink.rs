//! `pmugen_soc_trace_sink`: the reference SoC's trace sink (docs/soc.md §2.2), a queue
//! of 64-bit words (1024 in the simulated SoC) that takes the PMU's trace stream and that the CPU drains.
//!
//! ```text
//! trace_valid, trace_data --> queue[1024 x 64] --> +0 words available
//! trace_ready <-- not full                     --> +8 oldest [31:0], +12 oldest [63:32] (removes it)
//! ```
//!
//! Latency: ack one cycle after the access is seen; a word pushed in cycle c is counted
//! from cycle c+1. Both halves read 0 when the queue is empty, and reading +12 then
//! removes nothing. The oldest word is read from the queue through its own register
//! (a synchronous read port, as block RAM has), which is current again one cycle after
//! a push or pop, before the CPU's next access can be seen.

/// The module's Verilog for a queue of `words` words (a power of 2).
pub fn verilog(words: usize) -> String {
    let bits = words.trailing_zeros() as usize;
    TEMPLATE
        .replace("@WORDS@", &words.to_string())
        .replace("@PB@", &(bits + 1).to_string())
        .replace("@PMSB@", &bits.to_string())
        .replace("@IMSB@", &(bits - 1).to_string())
        .replace("@AVAIL@", &format!("{{{}'d0, available}}", 32 - (bits + 1)))
}

const TEMPLATE: &str = r#"
// pmugen_soc_trace_sink: @WORDS@ words of the PMU's trace stream (docs/soc.md §2.2).
module pmugen_soc_trace_sink (
    input  wire        clock,
    input  wire        reset,
    input  wire        valid,
    input  wire [1:0]  register,
    output reg         ack,
    output reg  [31:0] rdata,
    input  wire        trace_valid,
    input  wire [63:0] trace_data,
    output wire        trace_ready
);
    reg [63:0] queue [0:@WORDS@-1];
    reg [@PMSB@:0] head_q;
    reg [@PMSB@:0] tail_q;
    reg [63:0] oldest_q;
    wire [@PMSB@:0] available = tail_q - head_q;
    wire empty = available == @PB@'d0;
    assign trace_ready = available != @PB@'d@WORDS@;
    wire push = trace_valid && trace_ready;
    wire take = valid && !ack;
    // Register 0: +0, 2: +8, 3: +12 (the access's address bits [3:2]).
    wire pop = take && register == 2'd3 && !empty;

    always @(posedge clock) begin
        if (push)
            queue[tail_q[@IMSB@:0]] <= trace_data;
        oldest_q <= queue[head_q[@IMSB@:0]];
    end

    always @(posedge clock) begin
        if (reset) begin
            ack <= 1'b0;
            rdata <= 32'd0;
            head_q <= @PB@'d0;
            tail_q <= @PB@'d0;
        end else begin
            ack <= take;
            if (push)
                tail_q <= tail_q + @PB@'d1;
            if (pop)
                head_q <= head_q + @PB@'d1;
            case (register)
                2'd0: rdata <= @AVAIL@;
                2'd2: rdata <= empty ? 32'd0 : oldest_q[31:0];
                2'd3: rdata <= empty ? 32'd0 : oldest_q[63:32];
                default: rdata <= 32'd0;
            endcase
        end
    end
endmodule
"#;
