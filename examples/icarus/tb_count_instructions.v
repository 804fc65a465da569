// tb_count_instructions.v -- plain Verilog-2005 testbench for pmu_knc_t4_k2_c40.
//
// Thread 0, counter 0 counts INSTRUCTIONS_EXECUTED (code 0x16, umask 0x00) in ring 3
// only, and ring-3 code reads it back (RDPMC). Written from docs/pmu.md and the files
// `pmugen generate pmu` writes, as a first user would; tests/outputs/icarus_example.rs
// runs it on freshly generated Verilog in CI.
//
//   pmugen generate pmu --out DIR
//   iverilog -g2005 -Wall -o tb.vvp examples/icarus/tb_count_instructions.v DIR/pmu_knc_t4_k2_c40.v
//   vvp -n tb.vvp        # prints PASS or FAIL
//
// Timing convention (docs/pmu.md, Notation): cycle k ends at rising edge k.  The
// testbench drives every input 1 ns after a rising edge, so the value holds during the
// whole next cycle, and samples the registered outputs 1 ns after an edge (= the value
// "during" the following cycle, i.e. the result of the access of the cycle just ended).
// The generated Verilog declares `timescale 1ns / 1ps; the testbench uses the same, so
// the delays below are in ns and iverilog -Wall has nothing to warn about.

`timescale 1ns / 1ps

module tb_count_instructions;

    // ---- configuration from the docs / generated files --------------------------------
    localparam T        = 4;
    localparam TEW      = 50;          // §2.4: thread-event width of the KNC table
    localparam IE_LSB   = 16;          // INSTRUCTIONS_EXECUTED: events[t*TEW + 16 +: 2]
    localparam IE_W     = 2;           // IW = 2 (PerCycleMax 2)

    localparam [7:0] A_PMU_ID      = 8'h00;
    localparam [7:0] A_PERF_CNTR0  = 8'h20;
    localparam [7:0] A_PERF_EVTSEL0 = 8'h28;
    localparam [7:0] A_GLOBAL_CTRL = 8'h2F;

    localparam [63:0] EVT_INSTRUCTIONS_EXECUTED = 64'h0016;      // UMASK<<8 | EVENT
    localparam [63:0] EVTSEL_USR = 64'h1 << 16;
    localparam [63:0] EVTSEL_EN  = 64'h1 << 22;
    localparam [63:0] EVTSEL_VAL = EVT_INSTRUCTIONS_EXECUTED | EVTSEL_USR | EVTSEL_EN; // 0x410016
    localparam [63:0] ID_VALUE_THREAD0 = 64'h504D000820280204; // AW 32, log2 D 8

    // ---- DUT ----------------------------------------------------------------------------
    reg          clock;
    reg          reset;
    reg  [199:0] events;
    reg  [18:0]  core_events;
    reg  [3:0]   kernel;
    reg  [3:0]   pm_mark;
    reg  [3:0]   bb_end;
    reg  [127:0] bb_addr;
    reg  [127:0] pid;
    wire [3:0]   pmi;
    reg  [1:0]   reg_thread;
    reg          reg_priv;
    reg  [7:0]   reg_addr;
    reg  [63:0]  reg_wdata;
    reg          reg_write;
    reg          reg_read;
    wire [63:0]  reg_rdata;
    wire         reg_fault;
    wire [63:0]  trace_data;
    wire         trace_valid;
    wire         trace_last;

    pmu_knc_t4_k2_c40 dut (
        .clock(clock), .reset(reset),
        .events(events), .core_events(core_events),
        .kernel(kernel), .pm_mark(pm_mark), .pmi(pmi),
        .reg_thread(reg_thread), .reg_priv(reg_priv), .reg_addr(reg_addr),
        .reg_wdata(reg_wdata), .reg_write(reg_write), .reg_read(reg_read),
        .reg_rdata(reg_rdata), .reg_fault(reg_fault),
        // The trace unit stays off (TRACE_CTRL is 0 after reset): no block ends.
        .bb_end(bb_end), .bb_addr(bb_addr), .pid(pid),
        .trace_data(trace_data), .trace_valid(trace_valid), .trace_ready(1'b1), .trace_last(trace_last)
    );

    initial clock = 1'b0;
    always #5 clock = ~clock;          // rising edges at 5, 15, 25, ...

    // ---- bookkeeping -------------------------------------------------------------------
    integer errors;
    integer seed;
    integer cyc;
    integer i;
    reg     counting;                  // 1 once the counter is documented to count
    reg [63:0] expected;               // ring-3 thread-0 instructions that must be counted
    reg [63:0] exp_before_last;        // snapshots for the read-timing checks
    reg [63:0] exp_at_last;

    // one clock: wait for the rising edge, then move 1 ns past it
    task step;
        begin
            @(posedge clock);
            #1;
        end
    endtask

    task port_idle;
        begin
            reg_thread = 2'd0; reg_priv = 1'b0; reg_addr = 8'h00;
            reg_wdata = 64'h0; reg_write = 1'b0; reg_read = 1'b0;
        end
    endtask

    task port_write0(input [7:0] addr, input [63:0] data);    // ring 0, bank 0
        begin
            reg_thread = 2'd0; reg_priv = 1'b1; reg_addr = addr;
            reg_wdata = data; reg_write = 1'b1; reg_read = 1'b0;
        end
    endtask

    task port_read(input priv, input [7:0] addr);             // bank 0
        begin
            reg_thread = 2'd0; reg_priv = priv; reg_addr = addr;
            reg_wdata = 64'h0; reg_write = 1'b0; reg_read = 1'b1;
        end
    endtask

    // After step: check the registered result of the access of the cycle just ended.
    task check_read(input [63:0] want, input [8*40-1:0] what);
        begin
            if (reg_fault !== 1'b0 || reg_rdata !== want) begin
                $display("FAIL: %0s: reg_rdata = 0x%h (want 0x%h), reg_fault = %b (want 0) at %0t",
                         what, reg_rdata, want, reg_fault, $time);
                errors = errors + 1;
            end else
                $display("  ok: %0s = 0x%h (%0d)", what, reg_rdata, reg_rdata);
        end
    endtask

    task check_no_fault(input [8*40-1:0] what);
        begin
            if (reg_fault !== 1'b0) begin
                $display("FAIL: %0s faulted at %0t", what, $time);
                errors = errors + 1;
            end
        end
    endtask

    // Drive the event side for the coming cycle.
    //   k0 = kernel[0] (1 = ring 0), n0..n3 = INSTRUCTIONS_EXECUTED of threads 0..3.
    // Every other event bit, the other threads' kernel bits, pm_mark and core_events are
    // random noise that must not influence counter 0 of thread 0.
    task drive(input k0, input [1:0] n0, input [1:0] n1, input [1:0] n2, input [1:0] n3);
        begin
            for (i = 0; i < 200; i = i + 32)
                events[i +: 32] = $random(seed);
            events[0*TEW + IE_LSB +: IE_W] = n0;
            events[1*TEW + IE_LSB +: IE_W] = n1;
            events[2*TEW + IE_LSB +: IE_W] = n2;
            events[3*TEW + IE_LSB +: IE_W] = n3;
            core_events = $random(seed);
            pm_mark     = $random(seed);     // ignored: FREEZE_CTRL stays 0 (§11)
            bb_end      = $random(seed);     // ignored: TRACE_CTRL stays 0 (§13)
            bb_addr     = {4{$random(seed)}};
            pid         = {4{$random(seed)}};
            kernel      = $random(seed);
            kernel[0]   = k0;
            if (counting && !k0)
                expected = expected + n0;
        end
    endtask

    // a random cycle: thread 0 in ring 3 or ring 0, 0..3 instructions on each thread
    // (3 is above PerCycleMax; §2.2 says the field's value is counted as given)
    task drive_random;
        reg k0;
        reg [1:0] a, b, c, d;
        begin
            k0 = $random(seed); a = $random(seed); b = $random(seed);
            c = $random(seed); d = $random(seed);
            drive(k0, a, b, c, d);
        end
    endtask

    initial begin
        errors   = 0;
        seed     = 32'h1234_5678;
        counting = 1'b0;
        expected = 64'd0;
        port_idle;
        reset = 1'b1;
        drive(1'b0, 2'd2, 2'd2, 2'd2, 2'd2);        // garbage during reset

        // ---- reset: synchronous, active high (§5.6) -------------------------------------
        step; step; step;
        reset = 1'b0;
        drive(1'b0, 2'd0, 2'd0, 2'd0, 2'd0);

        // ---- sanity: PMU_ID through bank 0, ring 0 (§6.2) ------------------------------
        port_read(1'b1, A_PMU_ID);
        step;
        check_read(ID_VALUE_THREAD0, "PMU_ID (ring 0, bank 0)");

        // ---- program thread 0 / counter 0 as in §12.3 ----------------------------------
        // enables = pmu_read(0, PERF_GLOBAL_CTRL)
        port_read(1'b1, A_GLOBAL_CTRL);
        drive(1'b0, 2'd1, 2'd2, 2'd2, 2'd2);
        step;
        check_read(64'h0, "PERF_GLOBAL_CTRL after reset");

        // stop counter 0
        port_write0(A_GLOBAL_CTRL, 64'h0);
        drive(1'b0, 2'd2, 2'd1, 2'd1, 2'd1);
        step; check_no_fault("write PERF_GLOBAL_CTRL = 0");

        // clear it
        port_write0(A_PERF_CNTR0, 64'h0);
        drive(1'b0, 2'd2, 2'd3, 2'd0, 2'd1);
        step; check_no_fault("write PERF_CNTR[0] = 0");

        // select INSTRUCTIONS_EXECUTED | USR | EN. GLOBAL_CTRL[0] is still 0 during this
        // cycle, so thread 0's ring-3 instructions of this cycle must NOT count (§7.1).
        port_write0(A_PERF_EVTSEL0, EVTSEL_VAL);
        drive(1'b0, 2'd2, 2'd2, 2'd2, 2'd2);
        step; check_no_fault("write PERF_EVTSEL[0]");

        // start: §7.1 "a setting written in cycle k governs the events of cycle k and
        // later", so thread 0's ring-3 instructions of THIS cycle already count.
        port_write0(A_GLOBAL_CTRL, 64'h1);
        counting = 1'b1;
        drive(1'b0, 2'd1, 2'd2, 2'd2, 2'd2);         // +1
        step; check_no_fault("write PERF_GLOBAL_CTRL = 1");

        // ---- a known hand-written pattern ----------------------------------------------
        port_idle;
        drive(1'b0, 2'd2, 2'd0, 2'd0, 2'd0); step;   // ring 3: +2
        drive(1'b0, 2'd1, 2'd0, 2'd0, 2'd0); step;   // ring 3: +1
        drive(1'b1, 2'd2, 2'd0, 2'd0, 2'd0); step;   // ring 0: +0
        drive(1'b1, 2'd1, 2'd0, 2'd0, 2'd0); step;   // ring 0: +0
        drive(1'b0, 2'd0, 2'd2, 2'd2, 2'd2); step;   // other threads only: +0
        drive(1'b0, 2'd0, 2'd0, 2'd0, 2'd0); step;   // nothing: +0
        drive(1'b0, 2'd2, 2'd1, 2'd2, 2'd1); step;   // ring 3: +2
        drive(1'b1, 2'd2, 2'd2, 2'd2, 2'd2); step;   // ring 0: +0
        drive(1'b0, 2'd3, 2'd0, 2'd0, 2'd0); step;   // ring 3, above PerCycleMax: +3
        drive(1'b1, 2'd0, 2'd3, 2'd3, 2'd3); step;   // ring 0, others busy: +0
        drive(1'b0, 2'd1, 2'd3, 2'd3, 2'd3); step;   // ring 3: +1
        $display("  hand pattern: %0d ring-3 instructions on thread 0 (incl. the enable cycle)", expected);

        // ---- a long random pattern ------------------------------------------------------
        for (cyc = 0; cyc < 500; cyc = cyc + 1) begin
            drive_random; step;
        end

        // ---- read-back timing (§4 / §7.5) -----------------------------------------------
        // Cycle k: the last cycle whose events a read in cycle k+2 must see.
        // Make sure cycles k, k+1, k+2 all carry ring-3 instructions on thread 0, so an
        // off-by-one in either direction changes the result.
        exp_before_last = expected;                   // everything up to cycle k-1
        drive(1'b0, 2'd2, 2'd1, 2'd1, 2'd1);          // cycle k: +2
        exp_at_last = expected;                       // everything up to cycle k
        step;
        // cycle k+1: ring-3 RDPMC; per §7.5 "a read in cycle k+1 would still return" the
        // count without cycle k's events.
        drive(1'b0, 2'd1, 2'd2, 2'd2, 2'd2);          // +1 (visible only from k+3)
        port_read(1'b0, A_PERF_CNTR0);
        step;
        check_read(exp_before_last, "RDPMC in cycle k+1 (excludes cycle k)");
        // cycle k+2: ring-3 RDPMC returns all events up to and including cycle k
        drive(1'b0, 2'd2, 2'd2, 2'd2, 2'd2);          // +2 (visible only from k+4)
        port_read(1'b0, A_PERF_CNTR0);
        step;
        check_read(exp_at_last, "RDPMC in cycle k+2 (includes cycle k)");

        // ---- stop driving, let everything settle, read the final count as ring 3 -------
        port_idle;
        drive(1'b0, 2'd0, 2'd0, 2'd0, 2'd0);
        step; step; step;
        port_read(1'b0, A_PERF_CNTR0);              // RDPMC: bank 0, reg_priv = 0, 0x20
        step;
        check_read(expected, "RDPMC final PERF_CNTR[0]");
        port_idle;
        step;
        if (reg_rdata !== 64'h0 || reg_fault !== 1'b0) begin
            $display("FAIL: reg_rdata/reg_fault not 0 in the cycle after a cycle with no access");
            errors = errors + 1;
        end

        // ---- ring 0 can read the select back (§6.2) ------------------------------------
        port_read(1'b1, A_PERF_EVTSEL0);
        step;
        check_read(EVTSEL_VAL, "PERF_EVTSEL[0] readback");
        port_idle;
        step;

        if (pmi !== 4'b0000) begin
            $display("FAIL: pmi = %b, want 0000 (INT not set)", pmi);
            errors = errors + 1;
        end

        if (errors == 0)
            $display("PASS: thread 0 counter 0 counted %0d ring-3 INSTRUCTIONS_EXECUTED", expected);
        else
            $display("FAIL: %0d error(s)", errors);
        $finish;
    end

    // safety net
    initial begin
        #100000;
        $display("FAIL: timeout");
        $finish;
    end

endmodule
