// The Verilator main of `pmugen soc --board ... --simulate` (docs/soc.md §5.3): clocks the
// board top as the board's oscillator would, from configuration on, decodes the UART
// line (8N1, DIVIDER clocks a bit) and prints what the firmware sends, until the exit
// LED lights or the cycle limit. The firmware image is read from the working directory.
//
// sim --max-cycles N --divider D --led-active-low 0|1 --reset-active-low 0|1
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>

#include "Vpmugen_soc_board.h"
#include "verilated.h"

int main(int argc, char **argv) {
    unsigned long long max_cycles = 0, divider = 0;
    int led_active_low = 0, reset_active_low = 0;
    for (int i = 1; i + 1 < argc; i++) {
        if (!strcmp(argv[i], "--max-cycles")) max_cycles = strtoull(argv[++i], nullptr, 10);
        else if (!strcmp(argv[i], "--divider")) divider = strtoull(argv[++i], nullptr, 10);
        else if (!strcmp(argv[i], "--led-active-low")) led_active_low = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--reset-active-low")) reset_active_low = atoi(argv[++i]);
    }
    if (max_cycles == 0 || divider == 0) {
        fprintf(stderr, "usage: %s --max-cycles N --divider D --led-active-low 0|1 --reset-active-low 0|1\n", argv[0]);
        return 2;
    }
    auto context = std::make_unique<VerilatedContext>();
    context->commandArgs(argc, argv);
    auto board = std::make_unique<Vpmugen_soc_board>(context.get());
    // The reset button is released (a pressed button reads as the active level).
    board->reset_button = reset_active_low ? 1 : 0;
    // The UART receiver: a falling edge starts a frame; bits are sampled mid-bit.
    unsigned long long frame_start = 0;
    bool in_frame = false;
    int previous = 1;
    unsigned long long cycle = 0;
    bool exited = false;
    for (; cycle < max_cycles; cycle++) {
        board->clock = 0;
        board->eval();
        board->clock = 1;
        board->eval();
        int line = board->uart_tx;
        if (!in_frame && previous == 1 && line == 0) {
            in_frame = true;
            frame_start = cycle;
        }
        previous = line;
        if (in_frame && cycle == frame_start + divider * 9 + divider / 2) {
            // The stop bit's middle: read back the eight data bits from the samples taken.
            in_frame = false;
        }
        static unsigned char byte = 0;
        if (in_frame) {
            unsigned long long offset = cycle - frame_start;
            for (int bit = 0; bit < 8; bit++)
                if (offset == divider * (bit + 1) + divider / 2) byte = (unsigned char)((byte >> 1) | (line << 7));
            if (offset == divider * 9) {
                putchar(byte);
                if (byte == '\n') fflush(stdout);
            }
        }
        // The LED lights at the exit store; the last byte may still be on the line.
        if (!exited && (board->led_exit != 0) != (led_active_low != 0)) {
            exited = true;
            max_cycles = cycle + divider * 12;
        }
    }
    fflush(stdout);
    board->final();
    fprintf(stderr, "%s after %llu cycles\n", exited ? "exit LED lit" : "no exit LED within --max-cycles", cycle);
    return exited ? 0 : 1;
}
