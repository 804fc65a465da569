// The Verilator main of `pmugen soc run` (docs/soc.md §2.5): clocks pmugen_soc from
// reset until the firmware stores to the exit register, PicoRV32 traps, or the cycle
// limit, printing the console as it comes and writing the captured trace words and,
// if asked, the retirement log. pmugen reads the outcome from the result file.
//
// It also writes every PMU register write that the PMU acknowledged (address and
// data, one line each), from which pmugen records the events the firmware programmed.
//
// sim +firmware=PATH --max-cycles N --result FILE --trace FILE --pmu-writes FILE [--rvfi-log FILE]
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>

#include "Vpmugen_soc.h"
#include "Vpmugen_soc___024root.h"
#include "verilated.h"

int main(int argc, char **argv) {
    unsigned long long max_cycles = 0;
    const char *result_path = nullptr, *trace_path = nullptr, *rvfi_path = nullptr, *writes_path = nullptr;
    for (int i = 1; i + 1 < argc; i++) {
        if (!strcmp(argv[i], "--max-cycles")) max_cycles = strtoull(argv[++i], nullptr, 10);
        else if (!strcmp(argv[i], "--result")) result_path = argv[++i];
        else if (!strcmp(argv[i], "--trace")) trace_path = argv[++i];
        else if (!strcmp(argv[i], "--rvfi-log")) rvfi_path = argv[++i];
        else if (!strcmp(argv[i], "--pmu-writes")) writes_path = argv[++i];
    }
    if (!result_path || !trace_path || !writes_path || max_cycles == 0) {
        fprintf(stderr, "usage: %s +firmware=PATH --max-cycles N --result FILE --trace FILE --pmu-writes FILE [--rvfi-log FILE]\n", argv[0]);
        return 2;
    }
    auto context = std::make_unique<VerilatedContext>();
    context->commandArgs(argc, argv);
    auto soc = std::make_unique<Vpmugen_soc>(context.get());
    FILE *trace = fopen(trace_path, "w");
    FILE *rvfi = rvfi_path ? fopen(rvfi_path, "w") : nullptr;
    FILE *writes = fopen(writes_path, "w");
    if (!trace || !writes || (rvfi_path && !rvfi)) {
        fprintf(stderr, "cannot write %s\n", !trace ? trace_path : !writes ? writes_path : rvfi_path);
        return 2;
    }
    auto *root = soc->rootp;
    static char rvfi_buffer[1 << 20];
    if (rvfi) {
        setvbuf(rvfi, rvfi_buffer, _IOFBF, sizeof rvfi_buffer);
        fputs("# cycle pc_rdata pc_wdata insn mode trap intr mem_rmask mem_wmask\n", rvfi);
    }

    soc->reset = 1;
    for (int i = 0; i < 4; i++) {
        soc->clock = 1;
        soc->eval();
        soc->clock = 0;
        soc->eval();
    }
    soc->reset = 0;
    unsigned long long cycle = 0, retired = 0, words = 0;
    unsigned last_pc = 0;
    const char *outcome = "limit";
    unsigned exit_code = 0;
    // A long run says how far it is every 10 s or so, so that it does not look hung.
    auto last_report = std::chrono::steady_clock::now();
    // Cycle c is the cycle after the c-th rising edge since reset was released: the
    // outputs are sampled once in it, as the PMU's adapter sees them.
    for (; cycle < max_cycles; cycle++) {
        soc->clock = 1;
        soc->eval();
        if (soc->console_valid) {
            putchar(soc->console_data);
            if (soc->console_data == '\n') fflush(stdout);
        }
        if (soc->rvfi_valid) {
            retired++;
            last_pc = soc->rvfi_pc_rdata;
            if (rvfi)
                fprintf(rvfi, "%llu %08x %08x %08x %u %u %u %x %x\n", cycle, soc->rvfi_pc_rdata, soc->rvfi_pc_wdata,
                        soc->rvfi_insn, soc->rvfi_mode, soc->rvfi_trap, soc->rvfi_intr, soc->rvfi_mem_rmask,
                        soc->rvfi_mem_wmask);
        }
        // The PMU's ack is one cycle long, while the CPU still holds the address and data.
        if (root->pmugen_soc__DOT__pmu_ack && root->pmugen_soc__DOT__mem_wstrb)
            fprintf(writes, "%08x %08x\n", root->pmugen_soc__DOT__mem_addr, root->pmugen_soc__DOT__mem_wdata);
        if (soc->trace_valid && soc->trace_ready) {
            fprintf(trace, "%016llx\n", (unsigned long long)soc->trace_data);
            words++;
        }
        if (soc->exit_valid) {
            outcome = "exit";
            exit_code = soc->exit_code;
            cycle++;
            break;
        }
        if (root->pmugen_soc__DOT__cpu_trap) {
            outcome = "trap";
            cycle++;
            break;
        }
        soc->clock = 0;
        soc->eval();
        if ((cycle & 0xFFFFF) == 0xFFFFF) {
            auto now = std::chrono::steady_clock::now();
            if (now - last_report >= std::chrono::seconds(10)) {
                fprintf(stderr, "soc: %llu M cycles so far (--max-cycles %llu M)\n", (cycle + 1) / 1000000,
                        max_cycles / 1000000);
                last_report = now;
            }
        }
    }
    fflush(stdout);
    soc->final();
    fclose(trace);
    fclose(writes);
    if (rvfi) fclose(rvfi);
    FILE *result = fopen(result_path, "w");
    if (!result) return 2;
    fprintf(result, "%s %u %llu %llu %llu %08x\n", outcome, exit_code, cycle, retired, words, last_pc);
    fclose(result);
    return 0;
}
