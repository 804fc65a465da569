/* profile.c: a program to profile with the PMU's trace (docs/soc.md §4). Four functions
 * of different character run under one trace: an insertion sort (loads, stores, taken
 * branches), a checksum (a tight load loop), a bytecode interpreter (a dispatch of
 * many short blocks) and a matrix product (calls into libgcc's multiply, as rv32i has
 * no multiply instruction). The kernel programs four counters for user-mode INSTRET,
 * LOAD, STORE and BRANCH_TAKEN and turns tracing on; every basic block of the program
 * that ends while it is on makes one trace record with the four counts. By default the
 * PMU's profile table sums the records (SUMMARIZE), so the program runs at full speed
 * and the kernel's exit path flushes the sums into the SoC's trace sink, which `soc run`
 * captures. Built with -DPROFILE_MODE=1, every record goes to the sink instead, and a
 * timer tick drains it; -DPROFILE_MODE=0 runs untraced. -DPROFILE_ROUNDS=N runs the
 * four functions N times. The program prints the cycles of the section it profiles
 * (`pmugen bench soc` compares the three modes, docs/soc.md §4.7).
 *
 *     pmugen soc run target/pmugen/soc/examples/profile.elf
 *     pmugen profile target/pmugen/soc/trace.hex --elf target/pmugen/soc/examples/profile.elf \
 *         --design target/pmugen/soc/pmu_riscv_t1_k4_c40_p1024_rvfi_picorv32_design.json --sort BRANCH_TAKEN
 */
#include "kernel.h"

/* Cycles between the kernel's drains of the trace sink (PROFILE_MODE 1); SERV, bit-serial,
 * takes about eight times as many cycles per instruction as PicoRV32 and Ibex. */
#define TICK (SOC_CPU_SERV ? 12000 : 1500)

enum { UNTRACED = 0, DRAINED = 1, SUMMARIZED = 2 };
#ifndef PROFILE_MODE
#define PROFILE_MODE SUMMARIZED
#endif
#ifndef PROFILE_ROUNDS
#define PROFILE_ROUNDS 1
#endif
/* Data, not code: the builds of every mode and number of rounds run the same
 * instructions at the same addresses, so their profiles can be compared block by block. */
static volatile const uint32_t mode = PROFILE_MODE, rounds = PROFILE_ROUNDS;

/* ---- The insertion sort is kernel.h's workload_sort, over its array. */

/* ---- Fletcher-32 over a byte buffer. */
static uint8_t bytes[64];

__attribute__((noinline)) static uint32_t checksum(const uint8_t *data, unsigned size)
{
    uint32_t a = 0, b = 0;
    for (unsigned i = 0; i < size; i++) {
        a = (a + data[i]) & 0xFFFF;
        b = (b + a) & 0xFFFF;
    }
    return b << 16 | a;
}

/* ---- A register machine of three-byte instructions (op, a, b): the program sums
 * n + (n - 1) + ... + 1 in r0. */
enum { OP_LOADI, OP_ADD, OP_DEC, OP_JNZ, OP_HALT };
static const uint8_t bytecode[] = {
    OP_LOADI, 0, 0,  /* r0 = 0 */
    OP_LOADI, 1, 12, /* r1 = 12 */
    OP_ADD,   0, 1,  /* 6: r0 += r1 */
    OP_DEC,   1, 0,  /* r1 -= 1 */
    OP_JNZ,   1, 6,  /* if r1 != 0 goto 6 */
    OP_HALT,  0, 0,
};

__attribute__((noinline)) static uint32_t interpret(const uint8_t *code)
{
    uint32_t r[4] = {0, 0, 0, 0};
    for (unsigned pc = 0;;) {
        uint8_t op = code[pc], a = code[pc + 1] & 3, b = code[pc + 2];
        pc += 3;
        switch (op) {
        case OP_LOADI: r[a] = b; break;
        case OP_ADD: r[a] += r[b & 3]; break;
        case OP_DEC: r[a]--; break;
        case OP_JNZ: if (r[a] != 0) pc = b; break;
        default: return r[0];
        }
    }
}

/* ---- A 3x3 matrix product. */
#define DIM 3
static uint32_t ma[DIM][DIM], mb[DIM][DIM], mc[DIM][DIM];

__attribute__((noinline)) static void matrix_product(void)
{
    for (unsigned i = 0; i < DIM; i++)
        for (unsigned j = 0; j < DIM; j++) {
            uint32_t sum = 0;
            for (unsigned k = 0; k < DIM; k++)
                sum += ma[i][k] * mb[k][j];
            mc[i][j] = sum;
        }
}

__attribute__((noinline)) static void setup(uint32_t seed)
{
    workload_scramble(seed);
    for (unsigned i = 0; i < sizeof bytes; i++)
        bytes[i] = (uint8_t)(i * 7 + seed);
    for (unsigned i = 0; i < DIM; i++)
        for (unsigned j = 0; j < DIM; j++) {
            ma[i][j] = i + j + seed % 5;
            mb[i][j] = i * DIM + j;
        }
}

/* The PMU's TSC, which ring 3 may read while USER_ACCESS.RDTSC is 1 (its reset value):
 * the timed section's cycles on every CPU. */
static uint32_t tsc(void)
{
    pmu_t pmu = SOC_PMU(open)(SOC_PMU_BASE, 0);
    return (uint32_t)SOC_PMU(tsc_read)(&pmu);
}

int main(void)
{
    uint32_t how = mode;
    if (how != UNTRACED) {
        profile_counters_start(how == DRAINED ? TICK : 0);
        sys_profile_summarize(how == SUMMARIZED);
        sys_trace(TRACE_CTRL(TRACE_EN), 0, how == DRAINED ? KTRACE_DRAIN : 0);
    }

    uint32_t start = tsc(), sum = 0;
    for (uint32_t round = 0; round < rounds; round++) {
        setup(round + 1);
        workload_sort();
        sum += checksum(bytes, sizeof bytes);
        sum += interpret(bytecode);
        matrix_product();
        sum += mc[DIM - 1][DIM - 1];
    }
    uint32_t cycles = tsc() - start;

    uint32_t dropped = how == UNTRACED ? 0 : sys_trace(0, 0, 0);
    sys_timer(0);
    sys_pmu_stop((1u << PMU_K) - 1);
    bool sorted = true;
    for (unsigned i = 1; i < WORKLOAD_SIZE; i++)
        sorted = sorted && workload_data[i - 1] <= workload_data[i];
    put_value("sum", sum);
    put_value("cycles", cycles);
    put_value("trace_words", sys_stats(KSTAT_TRACE_WORDS));
    put_value("trace_dropped", dropped);
    put_value("evicted", sys_profile_evicted(false));
    return check("sorted", sorted) && dropped == 0 ? 0 : 1;
}
