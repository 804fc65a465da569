// The C++ harness of a core's testbench (tests/long/cores/bench.rs): programs the PMU
// instances through their register ports while the core is held in reset, starts them
// all in one cycle, releases the core, stops them in the cycle after the exit store,
// reads every counter and writes the core's retirement log (argv[1]). Prints
// `window START STOP`, `exit CODE` and `count INSTANCE K VALUE` lines.
#include <cstdint>
#include <cstdio>
#include "Vcores_tb.h"
#include "verilated.h"

static const int INSTANCES = {INSTANCES};
static const uint64_t SELECTS[INSTANCES][4] = {{SELECTS}};
static const uint8_t EVTSEL = {EVTSEL}, GLOBAL_CTRL = {GLOBAL_CTRL}, CNTR = {CNTR};
static const uint64_t MAX_CYCLES = 20000000;

static Vcores_tb *tb;
static uint64_t cycle = 0;
static FILE *log_file;

// One cycle with the inputs as set: the outputs of the cycle (the retirement logged),
// then the rising edge that ends it.
static void step() {
    tb->clk = 0;
    tb->eval();
    if (tb->rvfi_valid)
        fprintf(log_file, "%llu %08x %08x %08x %x %d %d %x %x\n", (unsigned long long)cycle, tb->rvfi_pc_rdata,
                tb->rvfi_pc_wdata, tb->rvfi_insn, tb->rvfi_mode, tb->rvfi_trap, tb->rvfi_intr, tb->rvfi_mem_rmask,
                tb->rvfi_mem_wmask);
    tb->clk = 1;
    tb->eval();
    cycle++;
}

// Every instance writes its `value(instance)` to `addr` in one cycle.
template <typename F> static void write_all(uint8_t addr, F value) {
    tb->reg_addr = addr;
    for (int i = 0; i < INSTANCES; i++) {
        tb->reg_wdata[2 * i] = (uint32_t)value(i);
        tb->reg_wdata[2 * i + 1] = (uint32_t)(value(i) >> 32);
    }
    tb->reg_write = (1u << INSTANCES) - 1;
    step();
    tb->reg_write = 0;
}

int main(int argc, char **argv) {
    Verilated::commandArgs(argc, argv);
    tb = new Vcores_tb;
    log_file = fopen(argv[argc - 1], "w");
    // Reset rises after the first edge: Ibex's reset is asynchronous and its clock gated
    // while in reset, so only an edge of reset resets it.
    tb->pmu_rst = 1;
    tb->cpu_rst = 0;
    step();
    tb->cpu_rst = 1;
    for (int i = 0; i < 4; i++)
        step();
    tb->pmu_rst = 0;
    step();
    for (int k = 0; k < 4; k++)
        write_all(EVTSEL + k, [k](int i) { return SELECTS[i][k]; });
    uint64_t start = cycle;
    write_all(GLOBAL_CTRL, [](int) { return (uint64_t)0xF; });
    tb->cpu_rst = 0;
    while (!tb->exit_valid) {
        if (cycle > MAX_CYCLES) {
            printf("timeout after %llu cycles\n", (unsigned long long)cycle);
            return 1;
        }
        step();
    }
    uint32_t code = tb->exit_code;
    uint64_t stop = cycle;
    write_all(GLOBAL_CTRL, [](int) { return (uint64_t)0; });
    printf("window %llu %llu\nexit %u\n", (unsigned long long)start, (unsigned long long)stop, code);
    for (int k = 0; k < 4; k++) {
        tb->reg_addr = CNTR + k;
        tb->reg_read = (1u << INSTANCES) - 1;
        step();
        tb->reg_read = 0;
        tb->clk = 0;
        tb->eval();
        for (int i = 0; i < INSTANCES; i++) {
            uint64_t value = tb->reg_rdata[2 * i] | (uint64_t)tb->reg_rdata[2 * i + 1] << 32;
            printf("count %d %d %llu\n", i, k, (unsigned long long)value);
        }
    }
    fclose(log_file);
    tb->final();
    delete tb;
    return 0;
}
