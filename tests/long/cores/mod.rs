//! The RVFI adapter on real cores (docs/soc.md §1.7): SERV and Ibex, unmodified from
//! their pinned PyPI packages, each in a testbench of its own with the generated
//! `_rvfi` PMU of `--core <that core>` on its RVFI port and no glue (bench.rs). Every
//! one of the 28 counters (14 events, user and kernel) must equal the architectural
//! truth that truth.rs reads from the core's own retirement log. The departures the
//! docs list for each core are asserted on that log, so a core that stops showing one
//! fails here.
mod bench;
pub(crate) mod truth;

use crate::common::cli::scratch;
use bench::Run;
use pmugen::soc::cores::PackagedCore;
use pmugen_hdl::rvfi::events::EVENTS;
use pmugen_hdl::rvfi::params::Core;
use pmugen_sim::reference::rvfi::{summarize_core_log, Event, KernelRule, Retirement, RingCounts, Xlen};
use truth::{Line, RingBy};

/// The run's retirements read as riscv-formal defines RVFI (`--core generic`) under
/// `rule`, summed over the cycles the counters counted (truth.rs says which).
fn read_as_generic(lines: &[Line], rule: KernelRule, window: (u64, u64)) -> RingCounts {
    let mut log = vec![Retirement::idle(); (window.1 - 1) as usize];
    for line in lines.iter().filter(|l| l.cycle < window.1 - 1) {
        log[line.cycle as usize] = Retirement {
            valid: true,
            insn: line.insn,
            trap: line.trap,
            intr: line.intr,
            mode: line.mode as u8,
            pc_rdata: line.pc as u64,
            pc_wdata: line.next as u64,
            mem_rmask: line.rmask as u8,
            mem_wmask: 0,
        };
    }
    let all =
        |end: usize| summarize_core_log(&log[..end], Xlen::Rv32, rule, pmugen_sim::reference::rvfi::Core::Generic, 32);
    let (before, through) = (all((window.0 - 1) as usize).counts, all(log.len()).counts);
    let mut counts = RingCounts::default();
    for i in 0..14 {
        counts.user[i] = through.user[i] - before.user[i];
        counts.kernel[i] = through.kernel[i] - before.kernel[i];
    }
    counts
}

/// SERV (`serv_rf_top`, RV32I) on a two-port RAM: each bus acknowledges one cycle after
/// its request.
const SERV: &str = r#"wire [31:0] ibus_adr, dbus_adr, dbus_dat;
wire ibus_cyc, dbus_cyc, dbus_we;
wire [3:0] dbus_sel;
reg ibus_ack = 1'b0, dbus_ack = 1'b0;
reg [31:0] ibus_rdt, dbus_rdt;
serv_rf_top #(.RESET_PC(32'd0)) cpu (.clk(clk), .i_rst(cpu_rst), .i_timer_irq(timer_irq),
    .rvfi_valid(rvfi_valid), .rvfi_order(), .rvfi_insn(rvfi_insn), .rvfi_trap(rvfi_trap), .rvfi_halt(),
    .rvfi_intr(rvfi_intr), .rvfi_mode(rvfi_mode), .rvfi_ixl(), .rvfi_rs1_addr(), .rvfi_rs2_addr(),
    .rvfi_rs1_rdata(), .rvfi_rs2_rdata(), .rvfi_rd_addr(), .rvfi_rd_wdata(), .rvfi_pc_rdata(rvfi_pc_rdata),
    .rvfi_pc_wdata(rvfi_pc_wdata), .rvfi_mem_addr(), .rvfi_mem_rmask(rvfi_mem_rmask), .rvfi_mem_wmask(rvfi_mem_wmask),
    .rvfi_mem_rdata(), .rvfi_mem_wdata(),
    .o_ibus_adr(ibus_adr), .o_ibus_cyc(ibus_cyc), .i_ibus_rdt(ibus_rdt), .i_ibus_ack(ibus_ack),
    .o_dbus_adr(dbus_adr), .o_dbus_dat(dbus_dat), .o_dbus_sel(dbus_sel), .o_dbus_we(dbus_we), .o_dbus_cyc(dbus_cyc),
    .i_dbus_rdt(dbus_rdt), .i_dbus_ack(dbus_ack),
    .o_ext_rs1(), .o_ext_rs2(), .o_ext_funct3(), .i_ext_rd(32'd0), .i_ext_ready(1'b0), .o_mdu_valid());
always @(posedge clk) begin
    exit_valid <= 1'b0;
    ibus_ack <= ibus_cyc && !ibus_ack;
    ibus_rdt <= mem[ibus_adr[15:2]];
    dbus_ack <= dbus_cyc && !dbus_ack;
    if (dbus_cyc && !dbus_ack) begin
        access(dbus_adr, dbus_we, dbus_sel, dbus_dat, read_data, exit_hit);
        dbus_rdt <= read_data;
        if (exit_hit) begin exit_valid <= 1'b1; exit_code <= dbus_dat; end
    end
end
"#;

/// Ibex (`ibex_top`, RV32IMC with its defaults, M and U modes): every request granted
/// at once, its data the next cycle. Its reset is asynchronous and its clock gated
/// during reset, so reset falls after the first edges.
const IBEX: &str = r#"wire instr_req, data_req, data_we;
reg instr_rvalid = 1'b0, data_rvalid = 1'b0;
wire [31:0] instr_addr, data_addr, data_wdata;
reg [31:0] instr_rdata, data_rdata;
wire [3:0] data_be;
ibex_top #(.RV32M(ibex_pkg::RV32MFast)) cpu (.clk_i(clk), .rst_ni(!cpu_rst), .test_en_i(1'b0), .ram_cfg_i('0),
    .hart_id_i(32'd0), .boot_addr_i(32'd0),
    .instr_req_o(instr_req), .instr_gnt_i(instr_req), .instr_rvalid_i(instr_rvalid), .instr_addr_o(instr_addr),
    .instr_rdata_i(instr_rdata), .instr_rdata_intg_i(7'd0), .instr_err_i(1'b0),
    .data_req_o(data_req), .data_gnt_i(data_req), .data_rvalid_i(data_rvalid), .data_we_o(data_we),
    .data_be_o(data_be), .data_addr_o(data_addr), .data_wdata_o(data_wdata), .data_wdata_intg_o(),
    .data_rdata_i(data_rdata), .data_rdata_intg_i(7'd0), .data_err_i(1'b0),
    .irq_software_i(1'b0), .irq_timer_i(timer_irq), .irq_external_i(1'b0), .irq_fast_i(15'd0), .irq_nm_i(1'b0),
    .scramble_key_valid_i(1'b0), .scramble_key_i('0), .scramble_nonce_i('0), .scramble_req_o(),
    .debug_req_i(1'b0), .crash_dump_o(), .double_fault_seen_o(),
    .rvfi_valid(rvfi_valid), .rvfi_order(), .rvfi_insn(rvfi_insn), .rvfi_trap(rvfi_trap), .rvfi_halt(),
    .rvfi_intr(rvfi_intr), .rvfi_mode(rvfi_mode), .rvfi_ixl(), .rvfi_rs1_addr(), .rvfi_rs2_addr(), .rvfi_rs3_addr(),
    .rvfi_rs1_rdata(), .rvfi_rs2_rdata(), .rvfi_rs3_rdata(), .rvfi_rd_addr(), .rvfi_rd_wdata(),
    .rvfi_pc_rdata(rvfi_pc_rdata), .rvfi_pc_wdata(rvfi_pc_wdata), .rvfi_mem_addr(),
    .rvfi_mem_rmask(rvfi_mem_rmask), .rvfi_mem_wmask(rvfi_mem_wmask), .rvfi_mem_rdata(), .rvfi_mem_wdata(),
    .rvfi_ext_pre_mip(), .rvfi_ext_post_mip(), .rvfi_ext_nmi(), .rvfi_ext_nmi_int(), .rvfi_ext_debug_req(),
    .rvfi_ext_debug_mode(), .rvfi_ext_rf_wr_suppress(), .rvfi_ext_mcycle(), .rvfi_ext_mhpmcounters(),
    .rvfi_ext_mhpmcountersh(), .rvfi_ext_ic_scr_key_valid(), .rvfi_ext_irq_valid(),
    .fetch_enable_i(ibex_pkg::IbexMuBiOn), .alert_minor_o(), .alert_major_internal_o(), .alert_major_bus_o(),
    .core_sleep_o(), .scan_rst_ni(1'b1));
always @(posedge clk) begin
    exit_valid <= 1'b0;
    instr_rvalid <= instr_req;
    instr_rdata <= mem[instr_addr[15:2]];
    data_rvalid <= data_req;
    if (data_req) begin
        access(data_addr, data_we, data_be, data_wdata, read_data, exit_hit);
        data_rdata <= read_data;
        if (exit_hit) begin exit_valid <= 1'b1; exit_code <= data_wdata; end
    end
end
"#;

const ECALL: u32 = 0x0000_0073;
const MRET: u32 = 0x3020_0073;

/// Every counter equals the truth, the window holds what the workload promises, and
/// the counts are printed for the docs.
fn assert_counts_are_the_truth(name: &str, run: &Run, lines: &[Line], ring_by: RingBy) {
    let truth = truth::counts(lines, &run.elf, ring_by, run.window);
    for (bit, event) in EVENTS.iter().enumerate() {
        println!("{name} {event}: user {} kernel {} (truth {:?})", run.counts[bit][0], run.counts[bit][1], truth[bit]);
    }
    for (bit, event) in EVENTS.iter().enumerate() {
        assert_eq!(run.counts[bit], truth[bit], "{name}: {event} [user, kernel] against the truth");
    }
    let get = |event: &str| truth[EVENTS.iter().position(|e| *e == event).unwrap()];
    // 12 system calls and 7 timer ticks: 19 handler entries, each in the kernel.
    assert_eq!(get("INTERRUPT"), [0, 19], "{name}: handler entries");
    assert_eq!(get("TRAP"), [12, 0], "{name}: the ECALLs");
    for event in ["LOAD", "STORE", "BRANCH_TAKEN", "CALL", "RETURN"] {
        assert!(get(event)[0] > 50 && get(event)[1] > 10, "{name}: {event} {:?}", get(event));
    }
}

#[test]
fn serv_counts_are_the_architectural_truth() {
    let run = bench::run(PackagedCore::Serv, Core::Serv, SERV, &scratch("cores-serv"));
    let lines = truth::parse(&run.log);
    // The departures docs/soc.md §1.7 lists for SERV.
    assert!(lines.iter().all(|l| !l.intr && l.mode == 3), "SERV: rvfi_intr is 0 and rvfi_mode 3 always");
    let executed = truth::executed(&lines);
    let stopped: Vec<&Line> = lines.iter().zip(&executed).filter(|(_, &run)| !run).map(|(l, _)| l).collect();
    assert_eq!(stopped.len(), 7, "SERV reports each of the 7 timer interrupts as a trapping retirement");
    assert!(stopped.iter().all(|l| l.trap && l.insn != ECALL), "{stopped:x?}");
    assert_counts_are_the_truth("SERV", &run, &lines, RingBy::HandlerCode);
    // What `--core generic` would have counted (docs/soc.md §1.7).
    let generic = read_as_generic(&lines, KernelRule::Handler, run.window);
    let total = |event: Event, counts: &[u64; 2]| (generic.total(event), counts[0] + counts[1]);
    let (instret, trap) = (&run.counts[Event::Instret as usize], &run.counts[Event::Trap as usize]);
    assert_eq!(total(Event::Instret, instret), (instret[0] + instret[1] + 7, instret[0] + instret[1]));
    assert_eq!(total(Event::Trap, trap), (19, 12));
    assert_eq!(generic.total(Event::Interrupt), 0);
    assert_eq!(generic.kernel[Event::Cycles as usize], 0, "no kernel cycle without rvfi_intr");
}

#[test]
fn ibex_counts_are_the_architectural_truth() {
    let run = bench::run(PackagedCore::Ibex, Core::Ibex, IBEX, &scratch("cores-ibex"));
    let lines = truth::parse(&run.log);
    // The departures docs/soc.md §1.7 lists for Ibex.
    assert!(lines.iter().all(|l| l.rmask != 0), "Ibex: rvfi_mem_rmask is not 0 on any retirement");
    for line in lines.iter().filter(|l| l.insn == ECALL || l.insn == MRET) {
        assert_eq!(line.next, line.pc + 4, "Ibex: the next address of ECALL and MRET is the next in memory: {line:x?}");
    }
    assert!(lines.iter().filter(|l| l.insn == ECALL).all(|l| l.trap && l.mode == 0), "ECALL traps from U mode");
    assert_eq!(lines.iter().filter(|l| l.intr).count(), 19, "Ibex: rvfi_intr on each handler entry");
    assert!(truth::executed(&lines).iter().all(|&run| run), "Ibex reports no stopped instruction");
    assert_counts_are_the_truth("Ibex", &run, &lines, RingBy::Mode);
    // What `--core generic` would have counted (docs/soc.md §1.7): a LOAD per retirement.
    let generic = read_as_generic(&lines, KernelRule::Mode, run.window);
    assert_eq!(generic.total(Event::Load), generic.total(Event::Instret));
    let load = run.counts[Event::Load as usize];
    println!("Ibex LOAD read as generic: {} (the truth {})", generic.total(Event::Load), load[0] + load[1]);
}
