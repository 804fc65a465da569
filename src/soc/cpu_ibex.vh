    // Ibex (ibex_top, RV32IMC, machine and user modes): its instruction and data
    // requests onto the SoC's bus, one access at a time, a data request first. A request
    // is granted when the bus takes it; its answer (rvalid) is the bus's mem_ready.
    wire        instr_req, data_req, data_we;
    wire [31:0] instr_addr, data_addr, data_wdata;
    wire [3:0]  data_be;
    reg         busy, busy_data;
    reg  [31:0] addr_q, wdata_q;
    reg  [3:0]  wstrb_q;
    wire        take = !busy && (data_req || instr_req);
    always @(posedge clock) begin
        if (reset_q || booting) begin
            busy <= 1'b0;
            busy_data <= 1'b0;
            addr_q <= 32'd0;
            wdata_q <= 32'd0;
            wstrb_q <= 4'd0;
        end else if (take) begin
            busy <= 1'b1;
            busy_data <= data_req;
            addr_q <= data_req ? data_addr : instr_addr;
            wdata_q <= data_wdata;
            wstrb_q <= data_req && data_we ? data_be : 4'd0;
        end else if (busy && mem_ready) begin
            busy <= 1'b0;
        end
    end
    assign mem_valid = busy;
    assign mem_addr = addr_q;
    assign mem_wdata = wdata_q;
    assign mem_wstrb = wstrb_q;
    assign cpu_trap = 1'b0;

    // The kernel for the PMU: machine mode, followed on RVFI. A trap enters M (a
    // trapping retirement, or a handler's first instruction with rvfi_intr), MRET
    // returns to the mode the trap came from.
    reg         machine, came_from_machine;
    always @(posedge clock) begin
        if (reset_q || booting) begin
            machine <= 1'b1;
            came_from_machine <= 1'b1;
        end else if (rvfi_valid) begin
            if (rvfi_trap)
                came_from_machine <= rvfi_mode == 2'd3;
            else if (rvfi_intr)
                came_from_machine <= machine;
            machine <= rvfi_trap || (rvfi_insn == 32'h30200073 ? came_from_machine : rvfi_mode == 2'd3);
        end
    end
    assign cpu_priv = machine;

    // Ibex's reset is asynchronous and its clock gated in reset: it needs a falling edge
    // of rst_ni, which this register gives at the first clock edge (it starts high).
    reg         ibex_rst_n = 1'b1;
    always @(posedge clock) ibex_rst_n <= !(reset_q || booting);

    // verilator lint_off UNUSED
    wire [63:0] rvfi_order;
    wire        rvfi_halt;
    wire [1:0]  rvfi_ixl;
    wire [4:0]  rvfi_rs1_addr, rvfi_rs2_addr, rvfi_rs3_addr, rvfi_rd_addr;
    wire [31:0] rvfi_rs1_rdata, rvfi_rs2_rdata, rvfi_rs3_rdata, rvfi_rd_wdata;
    wire [31:0] rvfi_mem_addr, rvfi_mem_rdata, rvfi_mem_wdata;
    // verilator lint_on UNUSED
    // Ibex's outputs the SoC does not use are left open.
    // verilator lint_off PINCONNECTEMPTY
    ibex_top #(.RV32M(ibex_pkg::RV32MFast)) cpu (
        .clk_i(clock), .rst_ni(ibex_rst_n), .test_en_i(1'b0), .ram_cfg_i('0),
        .hart_id_i(32'd0), .boot_addr_i(32'd0),
        .instr_req_o(instr_req), .instr_gnt_i(take && !data_req), .instr_rvalid_i(busy && !busy_data && mem_ready),
        .instr_addr_o(instr_addr), .instr_rdata_i(mem_rdata), .instr_rdata_intg_i(7'd0), .instr_err_i(1'b0),
        .data_req_o(data_req), .data_gnt_i(take && data_req), .data_rvalid_i(busy && busy_data && mem_ready),
        .data_we_o(data_we), .data_be_o(data_be), .data_addr_o(data_addr), .data_wdata_o(data_wdata),
        .data_wdata_intg_o(), .data_rdata_i(mem_rdata), .data_rdata_intg_i(7'd0), .data_err_i(1'b0),
        .irq_software_i(1'b0), .irq_timer_i(timer_irq), .irq_external_i(1'b0), .irq_fast_i({13'd0, matched, pmi}),
        .irq_nm_i(1'b0), .scramble_key_valid_i(1'b0), .scramble_key_i('0), .scramble_nonce_i('0),
        .scramble_req_o(), .debug_req_i(1'b0), .crash_dump_o(), .double_fault_seen_o(),
        .rvfi_valid(rvfi_valid), .rvfi_order(rvfi_order), .rvfi_insn(rvfi_insn), .rvfi_trap(rvfi_trap),
        .rvfi_halt(rvfi_halt), .rvfi_intr(rvfi_intr), .rvfi_mode(rvfi_mode), .rvfi_ixl(rvfi_ixl),
        .rvfi_rs1_addr(rvfi_rs1_addr), .rvfi_rs2_addr(rvfi_rs2_addr), .rvfi_rs3_addr(rvfi_rs3_addr),
        .rvfi_rs1_rdata(rvfi_rs1_rdata), .rvfi_rs2_rdata(rvfi_rs2_rdata), .rvfi_rs3_rdata(rvfi_rs3_rdata),
        .rvfi_rd_addr(rvfi_rd_addr), .rvfi_rd_wdata(rvfi_rd_wdata), .rvfi_pc_rdata(rvfi_pc_rdata),
        .rvfi_pc_wdata(rvfi_pc_wdata), .rvfi_mem_addr(rvfi_mem_addr), .rvfi_mem_rmask(rvfi_mem_rmask),
        .rvfi_mem_wmask(rvfi_mem_wmask), .rvfi_mem_rdata(rvfi_mem_rdata), .rvfi_mem_wdata(rvfi_mem_wdata),
        .rvfi_ext_pre_mip(), .rvfi_ext_post_mip(), .rvfi_ext_nmi(), .rvfi_ext_nmi_int(), .rvfi_ext_debug_req(),
        .rvfi_ext_debug_mode(), .rvfi_ext_rf_wr_suppress(), .rvfi_ext_mcycle(), .rvfi_ext_mhpmcounters(),
        .rvfi_ext_mhpmcountersh(), .rvfi_ext_ic_scr_key_valid(), .rvfi_ext_irq_valid(),
        .fetch_enable_i(ibex_pkg::IbexMuBiOn), .alert_minor_o(), .alert_major_internal_o(),
        .alert_major_bus_o(), .core_sleep_o(), .scan_rst_ni(1'b1)
    );
    // verilator lint_on PINCONNECTEMPTY
