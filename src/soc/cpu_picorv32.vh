    wire [31:0] irq;
    wire [31:0] eoi;
    // The kernel is PicoRV32's IRQ handler (eoi != 0).
    assign cpu_priv = |eoi;
    // PicoRV32's outputs that the SoC does not use.
    // verilator lint_off UNUSED
    wire        mem_instr;
    wire        mem_la_read;
    wire        mem_la_write;
    wire [31:0] mem_la_addr;
    wire [31:0] mem_la_wdata;
    wire [3:0]  mem_la_wstrb;
    wire        pcpi_valid;
    wire [31:0] pcpi_insn;
    wire [31:0] pcpi_rs1;
    wire [31:0] pcpi_rs2;
    wire        cpu_trace_valid;
    wire [35:0] cpu_trace_data;
    wire [63:0] rvfi_order;
    wire        rvfi_halt;
    wire [1:0]  rvfi_ixl;
    wire [4:0]  rvfi_rs1_addr;
    wire [4:0]  rvfi_rs2_addr;
    wire [31:0] rvfi_rs1_rdata;
    wire [31:0] rvfi_rs2_rdata;
    wire [4:0]  rvfi_rd_addr;
    wire [31:0] rvfi_rd_wdata;
    wire [31:0] rvfi_mem_addr;
    wire [31:0] rvfi_mem_rdata;
    wire [31:0] rvfi_mem_wdata;
    wire [63:0] rvfi_csr_mcycle_rmask;
    wire [63:0] rvfi_csr_mcycle_wmask;
    wire [63:0] rvfi_csr_mcycle_rdata;
    wire [63:0] rvfi_csr_mcycle_wdata;
    wire [63:0] rvfi_csr_minstret_rmask;
    wire [63:0] rvfi_csr_minstret_wmask;
    wire [63:0] rvfi_csr_minstret_rdata;
    wire [63:0] rvfi_csr_minstret_wdata;
    // verilator lint_on UNUSED

    // IRQ 0-2 are PicoRV32's own (timer, ECALL/EBREAK/illegal, bus error); pmi is
    // IRQ @IRQ_PMU@, matched IRQ @IRQ_MONITOR@.
    assign irq = {27'd0, matched, pmi, 3'd0};

    picorv32 #(
        @CPU_PARAMETERS@
    ) cpu (
        .clk(clock), .resetn(!reset_q && !booting), .trap(cpu_trap),
        .mem_valid(mem_valid), .mem_instr(mem_instr), .mem_ready(mem_ready), .mem_addr(mem_addr),
        .mem_wdata(mem_wdata), .mem_wstrb(mem_wstrb), .mem_rdata(mem_rdata),
        .mem_la_read(mem_la_read), .mem_la_write(mem_la_write), .mem_la_addr(mem_la_addr),
        .mem_la_wdata(mem_la_wdata), .mem_la_wstrb(mem_la_wstrb),
        .pcpi_valid(pcpi_valid), .pcpi_insn(pcpi_insn), .pcpi_rs1(pcpi_rs1), .pcpi_rs2(pcpi_rs2),
        .pcpi_wr(1'b0), .pcpi_rd(32'd0), .pcpi_wait(1'b0), .pcpi_ready(1'b0),
        .irq(irq), .eoi(eoi),
        .rvfi_valid(rvfi_valid), .rvfi_order(rvfi_order), .rvfi_insn(rvfi_insn), .rvfi_trap(rvfi_trap),
        .rvfi_halt(rvfi_halt), .rvfi_intr(rvfi_intr), .rvfi_mode(rvfi_mode), .rvfi_ixl(rvfi_ixl),
        .rvfi_rs1_addr(rvfi_rs1_addr), .rvfi_rs2_addr(rvfi_rs2_addr), .rvfi_rs1_rdata(rvfi_rs1_rdata),
        .rvfi_rs2_rdata(rvfi_rs2_rdata), .rvfi_rd_addr(rvfi_rd_addr), .rvfi_rd_wdata(rvfi_rd_wdata),
        .rvfi_pc_rdata(rvfi_pc_rdata), .rvfi_pc_wdata(rvfi_pc_wdata), .rvfi_mem_addr(rvfi_mem_addr),
        .rvfi_mem_rmask(rvfi_mem_rmask), .rvfi_mem_wmask(rvfi_mem_wmask), .rvfi_mem_rdata(rvfi_mem_rdata),
        .rvfi_mem_wdata(rvfi_mem_wdata),
        .rvfi_csr_mcycle_rmask(rvfi_csr_mcycle_rmask), .rvfi_csr_mcycle_wmask(rvfi_csr_mcycle_wmask),
        .rvfi_csr_mcycle_rdata(rvfi_csr_mcycle_rdata), .rvfi_csr_mcycle_wdata(rvfi_csr_mcycle_wdata),
        .rvfi_csr_minstret_rmask(rvfi_csr_minstret_rmask), .rvfi_csr_minstret_wmask(rvfi_csr_minstret_wmask),
        .rvfi_csr_minstret_rdata(rvfi_csr_minstret_rdata), .rvfi_csr_minstret_wdata(rvfi_csr_minstret_wdata),
        .trace_valid(cpu_trace_valid), .trace_data(cpu_trace_data)
    );

