/* board.c: the firmware that `pmugen soc --board` puts into the bitstream (docs/soc.md
 * §5); it runs on the simulated SoC too. Through soc_pmu.h and soc_system.h it is
 * written for whichever system it is built for (K counters, with or without the monitor
 * and the profile table). Its own small IRQ handler (ring 0) serves its requests, so
 * that it fits the HX8K's 4 KiB of RAM. It runs one program, work(), three times, each
 * timed with the PMU's TSC (ring 3 may read it):
 *   1. untraced, with the first K of user-mode INSTRET, LOAD, STORE and BRANCH_TAKEN
 *      counted, printed beside PicoRV32's own instruction count;
 *   2. traced, every record sent to the trace sink, which a timer tick drains;
 *   3. with a profile table only: traced and summed in the table until the exit, whose
 *      flush sends the table's summary records; the handler prints them as the board's
 *      capture (docs/soc.md §4.2: 16 hex digits a line between `trace-begin` and
 *      `trace-end`), which `pmugen profile` reads.
 * On a board the console is the UART (115200 baud, 8N1) and the exit lights an LED. */
#include "soc.h"
#include "soc_pmu.h"
#include "soc_system.h"

#define K SOC_PMU_C(CFG_K)
#define COUNTERS_MASK ((1u << K) - 1)
/* Cycles between drains of the sink (run 2): SERV takes about eight times as many
 * cycles per instruction as PicoRV32. */
#define TICK (SOC_CPU_SERV ? 12000 : 1500)
#define ROUNDS 32

enum request { REQUEST_START = 1, REQUEST_STOP = 2 };
enum mode { UNTRACED = 0, DRAINED = 1, SUMMED = 2 };

static const SOC_PMU(event_t) events[4] = {SOC_PMU_C(EV_INSTRET), SOC_PMU_C(EV_LOAD), SOC_PMU_C(EV_STORE),
                                           SOC_PMU_C(EV_BRANCH_TAKEN)};
static const char *const names[4] = {"INSTRET", "LOAD", "STORE", "BRANCH_TAKEN"};

/* What the handler keeps for main(): PMU_ID and PROFILE_EVICTED, which only ring 0 may
 * read, the mode of the run, the words it took from the sink and TRACE_DROPPED. */
static struct {
    uint32_t pmu_id, mode, words, dropped, evicted;
    bool ticking; /* a tick still pending when the drained run stopped must not re-arm */
} kernel;

static void drain(void)
{
    uint64_t word;
    while (soc_trace_pop(&word)) {
        kernel.words++;
        if (kernel.mode == SUMMED) {
            soc_put_hex((uint32_t)(word >> 32));
            soc_put_hex((uint32_t)word);
            soc_putchar('\n');
        }
    }
}

/* Start a run of `mode`: the counters zeroed and started, tracing on unless UNTRACED. */
static void start(const SOC_PMU(t) *pmu, enum mode mode)
{
    kernel.pmu_id = (uint32_t)SOC_PMU(pmu_id_read)(pmu);
    kernel.mode = mode;
    kernel.words = 0;
    for (unsigned i = 0; i < K; i++) {
        SOC_PMU(program)(pmu, i, events[i], SOC_PMU_C(PERF_EVTSEL_USR));
        SOC_PMU(perf_cntr_write)(pmu, i, 0);
    }
    SOC_PMU(user_access_write)(pmu, SOC_PMU_C(USER_ACCESS_RDPMC) | SOC_PMU_C(USER_ACCESS_RDTSC));
#if SOC_PROFILE_ENTRIES > 0
    SOC_PMU(profile_summarize)(pmu, mode == SUMMED);
#endif
    if (mode != UNTRACED) {
        SOC_PMU(trace_dropped_write)(pmu, 0);
        SOC_PMU(trace_ctrl_write)(pmu, SOC_PMU_C(TRACE_CTRL_TRACE_EN));
    }
    kernel.ticking = mode == DRAINED;
    if (kernel.ticking)
        soc_timer(TICK);
    SOC_PMU(start)(pmu, COUNTERS_MASK);
}

/* End the run: tracing off, the table flushed when it sums, the sink emptied (printed
 * when summed) until it has stayed empty for a few reads, as kernel.h's sys_trace. */
static void stop(const SOC_PMU(t) *pmu)
{
    SOC_PMU(stop)(pmu, COUNTERS_MASK);
    kernel.ticking = false;
    soc_timer(0);
    if (kernel.mode == UNTRACED)
        return;
    kernel.dropped = (uint32_t)SOC_PMU(trace_dropped_read)(pmu);
    SOC_PMU(trace_ctrl_write)(pmu, 0);
    if (kernel.mode == SUMMED)
        soc_puts("trace-begin\n");
#if SOC_PROFILE_ENTRIES > 0
    if (kernel.mode == SUMMED) {
        kernel.evicted = SOC_PMU(profile_evicted)(pmu);
        SOC_PMU(profile_ctrl_write)(pmu, SOC_PMU_C(PROFILE_CTRL_SUMMARIZE) | SOC_PMU_C(PROFILE_CTRL_FLUSH));
        while (SOC_PMU(profile_ctrl_read)(pmu) & SOC_PMU_C(PROFILE_CTRL_FLUSH))
            drain();
    }
#endif
    for (unsigned empty = 0; empty < 4; empty++)
        if (soc_trace_available() != 0) {
            drain();
            empty = 0;
        }
    if (kernel.mode == SUMMED)
        soc_puts("trace-end\n");
}

/* The handler: requests come in a0 of the ECALL, the mode in a1. */
uint32_t *irq(uint32_t *regs, uint32_t irqs)
{
    SOC_PMU(t) pmu = SOC_PMU(open)(SOC_PMU_BASE, 0);
    if (irqs & (1u << SOC_IRQ_TIMER)) {
        if (kernel.ticking)
            drain();
        soc_timer(kernel.ticking ? TICK : 0);
    }
    if (irqs & (1u << SOC_IRQ_TRAP)) {
        if (regs[10] == REQUEST_START)
            start(&pmu, (enum mode)regs[11]);
        else
            stop(&pmu);
    }
    return regs;
}

static void request(enum request what, enum mode mode)
{
    register uint32_t a0 __asm__("a0") = what;
    register uint32_t a1 __asm__("a1") = mode;
    __asm__ volatile("ecall" : "+r"(a0) : "r"(a1) : "memory");
}

/* ---- The program: an insertion sort of pseudo-random words, and a sum of the odd ones. */
#define SIZE 16
static uint32_t data[SIZE];

__attribute__((noinline)) static void fill(uint32_t seed)
{
    for (unsigned i = 0; i < SIZE; i++) {
        seed ^= seed << 13;
        seed ^= seed >> 17;
        seed ^= seed << 5;
        data[i] = seed & 0xFFFF;
    }
}

__attribute__((noinline)) static void sort(void)
{
    for (unsigned i = 1; i < SIZE; i++) {
        uint32_t value = data[i];
        unsigned j = i;
        for (; j > 0 && data[j - 1] > value; j--)
            data[j] = data[j - 1];
        data[j] = value;
    }
}

__attribute__((noinline)) static uint32_t sum_odd(void)
{
    uint32_t sum = 0;
    for (unsigned i = 0; i < SIZE; i++)
        if (data[i] & 1)
            sum += data[i];
    return sum;
}

static uint32_t sum, summed_cycles;

/* work() in mode `mode`, timed with the TSC; the run goes on (tracing) until stop(). */
__attribute__((noinline)) static uint32_t timed(enum mode mode)
{
    SOC_PMU(t) pmu = SOC_PMU(open)(SOC_PMU_BASE, 0);
    request(REQUEST_START, mode);
    uint32_t begin = (uint32_t)SOC_PMU(tsc_read)(&pmu);
    sum = 0;
    for (uint32_t round = 1; round <= ROUNDS; round++) {
        fill(round);
        sort();
        sum += sum_odd();
    }
    return (uint32_t)SOC_PMU(tsc_read)(&pmu) - begin;
}

/* `board.<name>=<value>` */
static void put_value(const char *name, uint32_t value)
{
    soc_puts("board.");
    soc_puts(name);
    soc_putchar('=');
    soc_put_dec(value);
    soc_putchar('\n');
}

int main(void)
{
    SOC_PMU(t) pmu = SOC_PMU(open)(SOC_PMU_BASE, 0);
    uint32_t cycles = timed(UNTRACED);
    request(REQUEST_STOP, UNTRACED);
    soc_puts("pmugen soc: PMU_ID 0x");
    soc_put_hex(kernel.pmu_id);
    soc_puts(", K ");
    soc_put_dec(K);
    soc_puts(SOC_HAS_MONITOR ? ", monitor, E " : ", no monitor, E ");
    soc_put_dec(SOC_PROFILE_ENTRIES);
    soc_putchar('\n');
    for (unsigned i = 0; i < K; i++)
        put_value(names[i], (uint32_t)SOC_PMU(perf_cntr_read)(&pmu, i));
    put_value("sum", sum);
    put_value("untraced.cycles", cycles);
    cycles = timed(DRAINED);
    request(REQUEST_STOP, DRAINED);
    put_value("drained.cycles", cycles);
    put_value("drained.words", kernel.words);
    put_value("drained.dropped", kernel.dropped);
    bool ok = kernel.dropped == 0 && soc_faults() == 0;
#if SOC_PROFILE_ENTRIES > 0
    /* Traced and summed until the exit (runtime_exit below). */
    summed_cycles = timed(SUMMED);
#endif
    return ok ? 0 : 1;
}

/* The runtime's exit (start.S calls it with main's return value): tracing off, which
 * flushes the table and prints its summary records; then the summed run's figures. */
__attribute__((noreturn)) void runtime_exit(uint32_t code);
__attribute__((noreturn)) void runtime_exit(uint32_t code)
{
    if (kernel.mode == SUMMED) {
        request(REQUEST_STOP, SUMMED);
        put_value("summed.cycles", summed_cycles);
        put_value("summed.dropped", kernel.dropped);
        put_value("summed.evicted", kernel.evicted);
        code |= kernel.dropped != 0;
    }
    soc_exit(code);
}
