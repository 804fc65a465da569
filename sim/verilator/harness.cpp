// Verilator harness for a generated event-order monitor (any N, W).
// pmugen fills in PMUGEN_TOP. Protocol on stdin/stdout (host byte order):
//   request:  uint32 count, then count input records (16 bytes each)
//   response: count output records (12 bytes each), the outputs after each edge
// Each record is one clock cycle: inputs applied with clock low, then the rising edge.
// With -DPMUGEN_TRACE and a file name as argv[1], a VCD waveform is written.
#include <cstdint>
#include <cstdio>
#include <memory>
#include <vector>

#include "PMUGEN_HEADER"
#include "verilated.h"
#ifdef PMUGEN_TRACE
#include "verilated_vcd_c.h"
#endif

struct InputRecord {
    uint32_t events;
    uint32_t reg_wdata;
    uint8_t reset;
    uint8_t start;
    uint8_t stop;
    uint8_t reg_addr;
    uint8_t reg_write;
    uint8_t pad[3];
};
static_assert(sizeof(InputRecord) == 16, "input record layout");

struct OutputRecord {
    uint32_t reg_rdata;
    uint8_t matched;
    uint8_t window;
    uint8_t ser_data;
    uint8_t ser_valid;
    uint8_t ser_last;
    uint8_t pad[3];
};
static_assert(sizeof(OutputRecord) == 12, "output record layout");

int main(int argc, char** argv) {
    auto context = std::make_unique<VerilatedContext>();
    auto top = std::make_unique<PMUGEN_TOP>(context.get());
#ifdef PMUGEN_TRACE
    context->traceEverOn(true);
    auto trace = std::make_unique<VerilatedVcdC>();
    top->trace(trace.get(), 99);
    trace->open(argc > 1 ? argv[1] : "pmugen.vcd");
#endif
    uint64_t time = 0;
    top->clock = 0;
    top->eval();
    std::vector<InputRecord> inputs;
    std::vector<OutputRecord> outputs;
    uint32_t count = 0;
    while (std::fread(&count, sizeof count, 1, stdin) == 1) {
        inputs.resize(count);
        outputs.resize(count);
        if (std::fread(inputs.data(), sizeof(InputRecord), count, stdin) != count) return 2;
        for (uint32_t i = 0; i < count; ++i) {
            const InputRecord& in = inputs[i];
            top->clock = 0;
            top->reset = in.reset;
            top->events = in.events;
            top->start = in.start;
            top->stop = in.stop;
            top->reg_addr = in.reg_addr;
            top->reg_wdata = in.reg_wdata;
            top->reg_write = in.reg_write;
            top->eval();
#ifdef PMUGEN_TRACE
            trace->dump(time);
#endif
            time += 5;
            top->clock = 1;
            top->eval();
#ifdef PMUGEN_TRACE
            trace->dump(time);
#endif
            time += 5;
            OutputRecord& out = outputs[i];
            out.reg_rdata = top->reg_rdata;
            out.matched = top->matched;
            out.window = top->window;
            out.ser_data = top->ser_data;
            out.ser_valid = top->ser_valid;
            out.ser_last = top->ser_last;
        }
        if (std::fwrite(outputs.data(), sizeof(OutputRecord), count, stdout) != count) return 3;
        std::fflush(stdout);
    }
#ifdef PMUGEN_TRACE
    trace->close();
#endif
    top->final();
    return 0;
}
