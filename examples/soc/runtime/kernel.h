/* kernel.h: a tiny kernel for the example firmware of the pmugen reference SoC
 * (docs/soc.md §3.1), header-only and part of the runtime, so that any firmware built
 * with `pmugen soc build` can include it, once (it defines the irq() that the
 * runtime's start.S calls).
 *
 * PicoRV32 runs in machine mode only; the SoC gives the PMU's register port ring 0
 * (wb_priv = 1) exactly while the CPU is inside its IRQ handler, and the PMU, generated
 * with --kernel handler, counts the handler as the kernel. So here "the kernel" is the
 * IRQ handler, and "ring 3" is every other instruction, main() included: user code
 * programs the PMU through system calls (ECALL raises IRQ 1), and may itself only do
 * what USER_ACCESS allows (read the TSC and the counters); any other PMU access from
 * user code is answered ERR (FAULTS counts it) and changes nothing.
 *
 * On SERV and Ibex (pmugen soc --cpu, docs/soc.md §2.9) the runtime's start.S presents
 * their machine-mode traps the same way (irq(regs, irqs), regs[0] the return address);
 * there "the kernel" is SERV's trap handler, or Ibex's machine mode with main() in user
 * mode.
 *
 * System calls: the number in a7, arguments in a0..a2, the result in a0 (a1 for a
 * high word), as the RISC-V Linux convention. The handler tells ECALL from EBREAK and
 * illegal instructions (all IRQ 1 on PicoRV32) by the instruction word at q0 - 4.
 *
 * Output for the tests: every result is one line `name=value` (decimal); a count the
 * tests check against the run's retirement log is named
 * `w<window>.<EVENT>.<user|kernel|all>[.<what>]`, window n being the n-th time the
 * kernel started and stopped the counters (kernel_pmu_start / kernel_pmu_stop).
 */
#ifndef PMUGEN_EXAMPLE_KERNEL_H
#define PMUGEN_EXAMPLE_KERNEL_H

#include <stdbool.h>
#include <stdint.h>

#include "soc.h"
#include "soc_pmu.h"
#include "soc_system.h"

/* Short names for the PMU driver of this SoC (soc_pmu.h names it whatever its size and CPU). */
typedef SOC_PMU(t) pmu_t;
#define PMU_CW SOC_PMU_C(CFG_CW)
#define PMU_K SOC_PMU_C(CFG_K)
#define EV(name) SOC_PMU_C(EV_##name)
#define EVTSEL(field) SOC_PMU_C(PERF_EVTSEL_##field)
#define TRACE_CTRL(field) SOC_PMU_C(TRACE_CTRL_##field)   /* TRACE_CTRL(TRACE_EN), TRACE_CTRL(PID_FILTER) */
#define FREEZE_CTRL(field) SOC_PMU_C(FREEZE_CTRL_##field) /* FREEZE_CTRL(FREEZE_UNMARKED) */
#define USER_ACCESS(field) SOC_PMU_C(USER_ACCESS_##field) /* USER_ACCESS(RDPMC), USER_ACCESS(RDTSC) */

/* System call numbers (a7). */
enum {
    SYS_NULL = 0,        /* nothing; returns 0 (the cost of a round trip into the kernel) */
    SYS_PMU_PROGRAM = 1, /* a0 counter, a1 event, a2 PERF_EVTSEL options; returns 0, or -1 if a0 >= K */
    SYS_PMU_START = 2,   /* a0 counter mask: zero their shadows, then start them (one PERF_GLOBAL_CTRL write) */
    SYS_PMU_STOP = 3,    /* a0 counter mask: stop them (one PERF_GLOBAL_CTRL write) */
    SYS_PMU_READ = 4,    /* a0 counter: the process's count, a0 low and a1 high word (see kernel_count) */
    SYS_PMU_SHADOWS = 5, /* a0 counter mask: SAVE_ON_ENTRY and RESTORE_ON_EXIT for those counters */
    SYS_PMU_USER_ACCESS = 6, /* a0: the new USER_ACCESS */
    SYS_PMU_OVERFLOW_EVERY = 7, /* a0 counter, a1 period: pmi every `period` events, re-armed by the kernel */
    SYS_PMU_EVTSEL = 8,  /* a0 counter: PERF_EVTSEL, as only the kernel may read it */
    SYS_TIMER = 9,       /* a0: a timer tick every a0 cycles (0 stops it) */
    SYS_STATS = 10,      /* a0 which (KSTAT_...): the kernel's statistics */
    SYS_TRACE = 11,      /* a0 TRACE_CTRL, a1 TRACE_PID, a2 KTRACE_... options; returns TRACE_DROPPED (see kernel_trace) */
    SYS_PROCESS = 12,    /* a0 pid, a1 marked: the SoC's PID and PM_MARK registers, switched inside the kernel */
    SYS_PMU_FREEZE = 13, /* a0: the new FREEZE_CTRL */
    SYS_PROFILE_SUMMARIZE = 14, /* a0: 1 sums the trace records in the PMU's profile table (SUMMARIZE), 0 sends
                                   them; returns 0, or -1 without a table */
    SYS_PROFILE_FLUSH = 15,   /* send every entry of the table and wait until it is empty (see kernel_profile_flush);
                                 returns 0, or -1 without a table */
    SYS_PROFILE_EVICTED = 16, /* returns PROFILE_EVICTED, the entries sent early to make room; a0 = 1 also clears it */
    SYS_PROFILE_ENTRIES = 17, /* returns log2 E, the size of the PMU's table (PMU_ID[46:42]; 0 without one) */
    SYS_EXIT = 18,            /* a0 the exit code: tracing off (flushing the table), then the end of the run */
};

/* SYS_TRACE options: what the kernel does with the words in the SoC's trace sink. */
enum {
    KTRACE_DRAIN = 1, /* empty the sink on every timer tick (SYS_TIMER), so that it never fills */
    KTRACE_PRINT = 2, /* drain on every tick too, and print every word taken from the sink as one hex line,
                         between `trace-begin` and `trace-end` lines: the capture of a board without a
                         simulator */
};

/* SYS_STATS selectors. */
enum {
    KSTAT_TICKS = 0,     /* timer interrupts */
    KSTAT_SYSCALLS = 1,  /* system calls */
    KSTAT_ENTRIES = 2,   /* entries into the handler (one may serve several IRQs) */
    KSTAT_OVERFLOWS = 3, /* counter overflows seen in PERF_GLOBAL_STATUS, summed over the counters */
    KSTAT_MATCHES = 4,   /* monitor IRQs (matched) taken while its recording was on */
    KSTAT_MATCH_PC = 5,  /* the return address of the first of them */
    KSTAT_TRACE_WORDS = 6, /* trace words the kernel took from the sink */
};

/* ------------------------------------------------------------------------------------
 * User side: system calls.
 */
static inline uint32_t syscall3(uint32_t number, uint32_t arg0, uint32_t arg1, uint32_t arg2)
{
    register uint32_t a0 __asm__("a0") = arg0;
    register uint32_t a1 __asm__("a1") = arg1;
    register uint32_t a2 __asm__("a2") = arg2;
    register uint32_t a7 __asm__("a7") = number;
    __asm__ volatile("ecall" : "+r"(a0), "+r"(a1) : "r"(a2), "r"(a7) : "memory");
    return a0;
}

static inline uint32_t sys_pmu_program(unsigned counter, uint32_t event, uint32_t options)
{
    return syscall3(SYS_PMU_PROGRAM, counter, event, options);
}
static inline void sys_pmu_start(uint32_t mask) { syscall3(SYS_PMU_START, mask, 0, 0); }
static inline void sys_pmu_stop(uint32_t mask) { syscall3(SYS_PMU_STOP, mask, 0, 0); }
static inline void sys_pmu_shadows(uint32_t mask) { syscall3(SYS_PMU_SHADOWS, mask, 0, 0); }
static inline void sys_pmu_user_access(uint32_t value) { syscall3(SYS_PMU_USER_ACCESS, value, 0, 0); }
static inline uint32_t sys_pmu_evtsel(unsigned counter) { return syscall3(SYS_PMU_EVTSEL, counter, 0, 0); }
static inline void sys_timer(uint32_t cycles) { syscall3(SYS_TIMER, cycles, 0, 0); }
static inline uint32_t sys_stats(uint32_t which) { return syscall3(SYS_STATS, which, 0, 0); }
static inline uint32_t sys_trace(uint32_t ctrl, uint32_t pid, uint32_t options)
{
    return syscall3(SYS_TRACE, ctrl, pid, options);
}
static inline void sys_process(uint32_t pid, bool marked) { syscall3(SYS_PROCESS, pid, marked, 0); }
static inline void sys_pmu_freeze(uint32_t value) { syscall3(SYS_PMU_FREEZE, value, 0, 0); }
static inline uint32_t sys_profile_summarize(bool on) { return syscall3(SYS_PROFILE_SUMMARIZE, on, 0, 0); }
static inline uint32_t sys_profile_flush(void) { return syscall3(SYS_PROFILE_FLUSH, 0, 0, 0); }
static inline uint32_t sys_profile_evicted(bool clear) { return syscall3(SYS_PROFILE_EVICTED, clear, 0, 0); }
static inline uint32_t sys_profile_entries(void) { return syscall3(SYS_PROFILE_ENTRIES, 0, 0, 0); }
static inline __attribute__((noreturn)) void sys_exit(uint32_t code)
{
    syscall3(SYS_EXIT, code, 0, 0);
    for (;;) {
    }
}

/* The runtime's exit (start.S calls it with main's return value): the system call
 * SYS_EXIT, so that the kernel turns tracing off and flushes the profile table before
 * the run ends; a program that summarizes gets its whole profile without code of its own. */
__attribute__((noreturn)) void runtime_exit(uint32_t code);
__attribute__((noreturn)) void runtime_exit(uint32_t code) { sys_exit(code); }

/* The counters of a profile (docs/soc.md §4): user-mode INSTRET, LOAD, STORE and
 * BRANCH_TAKEN, started, with a timer tick every `tick` cycles to drain the trace sink. */
static inline void profile_counters_start(uint32_t tick)
{
    static const uint32_t events[4] = {EV(INSTRET), EV(LOAD), EV(STORE), EV(BRANCH_TAKEN)};
    for (unsigned i = 0; i < PMU_K && i < 4; i++)
        sys_pmu_program(i, events[i], EVTSEL(USR));
    sys_pmu_start((1u << PMU_K) - 1);
    sys_timer(tick);
}
static inline void sys_pmu_overflow_every(unsigned counter, uint32_t period)
{
    syscall3(SYS_PMU_OVERFLOW_EVERY, counter, period, 0);
}
static inline uint64_t sys_pmu_read(unsigned counter)
{
    register uint32_t a0 __asm__("a0") = counter;
    register uint32_t a1 __asm__("a1") = 0;
    register uint32_t a7 __asm__("a7") = SYS_PMU_READ;
    __asm__ volatile("ecall" : "+r"(a0), "+r"(a1) : "r"(a7) : "memory");
    return ((uint64_t)a1 << 32) | a0;
}

/* ------------------------------------------------------------------------------------
 * Output: `name=value` lines.
 */
static inline void put_value(const char *name, uint32_t value)
{
    soc_puts(name);
    soc_putchar('=');
    soc_put_dec(value);
    soc_putchar('\n');
}

/* A count of window `window`: `w<window>.<name>=<value>`. */
static inline void put_count(uint32_t window, const char *name, uint32_t value)
{
    soc_putchar('w');
    soc_put_dec(window);
    soc_putchar('.');
    put_value(name, value);
}

/* A self-check: prints `check.<name>=1` or `=0`; returns whether it held. */
static inline bool check(const char *name, bool ok)
{
    soc_puts("check.");
    put_value(name, ok ? 1u : 0u);
    return ok;
}

/* ------------------------------------------------------------------------------------
 * Kernel side: runs inside the IRQ handler, where the PMU answers ring-0 accesses.
 */
static struct {
    uint32_t ticks, syscalls, entries, overflows, matches;
    uint32_t timer_period;
    uint32_t shadowed;              /* counters whose process count is kept in SHADOW */
    uint32_t period[PMU_K];         /* overflow period of each counter (0: none) */
    uint32_t match_pc;              /* where the program was at the first monitor IRQ */
    uint32_t trace_options;         /* KTRACE_... of the last SYS_TRACE */
    uint32_t trace_words;           /* words taken from the trace sink */
    bool tracing;                   /* TRACE_EN as the last SYS_TRACE wrote it */
    bool summarize;                 /* SUMMARIZE as the last SYS_PROFILE_SUMMARIZE wrote it */
} kernel;

static inline pmu_t kernel_pmu(void) { return SOC_PMU(open)(SOC_PMU_BASE, 0); }

/* Start and stop are one PERF_GLOBAL_CTRL store each, the first store after the entry of
 * a function of their own, so that the tests find each window in the retirement log by
 * these functions' addresses (noclone keeps the symbols' names). */
__attribute__((noinline, noclone)) static void kernel_pmu_start(const pmu_t *pmu, uint32_t mask)
{
    SOC_PMU(start)(pmu, mask);
}
__attribute__((noinline, noclone)) static void kernel_pmu_stop(const pmu_t *pmu, uint32_t mask)
{
    SOC_PMU(stop)(pmu, mask);
}

/* TRACE_CTRL is one store, the first after the entry of a function of its own, so that
 * the tests find where tracing starts and stops in the retirement log. */
__attribute__((noinline, noclone)) static void kernel_trace_ctrl(const pmu_t *pmu, uint32_t value)
{
    SOC_PMU(trace_ctrl_write)(pmu, value);
}

/* A process switch: the PID register first, in a function of its own, so that the tests
 * find each switch in the retirement log by its first store. */
__attribute__((noinline, noclone)) static void kernel_process(uint32_t pid, bool marked)
{
    soc_set_pid(pid);
    soc_set_pm_mark(marked);
}

/* Take every word the trace sink holds (printing each with KTRACE_PRINT). */
static inline void kernel_trace_drain(void)
{
    uint64_t word;
    while (soc_trace_pop(&word)) {
        kernel.trace_words++;
        if (kernel.trace_options & KTRACE_PRINT) {
            soc_put_hex((uint32_t)(word >> 32));
            soc_put_hex((uint32_t)word);
            soc_putchar('\n');
        }
    }
}

#if SOC_PROFILE_ENTRIES > 0
/* A flush of the profile table (docs/pmu.md §15.4): the records still in the PMU's queue
 * are summed first, then every entry goes to the trace stream as a summary record; the
 * sink is emptied meanwhile, so that a flush longer than the sink's room finishes.
 * SUMMARIZE keeps its value (bit 0 of the same write). */
static inline void kernel_profile_flush(const pmu_t *pmu)
{
    uint64_t summarize = kernel.summarize ? SOC_PMU_C(PROFILE_CTRL_SUMMARIZE) : 0;
    SOC_PMU(profile_ctrl_write)(pmu, summarize | SOC_PMU_C(PROFILE_CTRL_FLUSH));
    while (SOC_PMU(profile_ctrl_read)(pmu) & SOC_PMU_C(PROFILE_CTRL_FLUSH))
        kernel_trace_drain();
}
#endif

/* SYS_TRACE. Turning tracing on zeroes the counters first, so that the first record
 * counts its block only (the counters restart at every block end from then on; with
 * USR-only event selects the rest of this handler is not counted), and clears
 * TRACE_DROPPED. Turning it off takes what the PMU still sends: records already made
 * leave its queue after TRACE_EN is cleared, the profile table is flushed when it sums
 * (SYS_PROFILE_SUMMARIZE), and the sink is read until it has stayed empty for a few
 * reads. */
static inline uint32_t kernel_trace(const pmu_t *pmu, uint32_t ctrl, uint32_t pid, uint32_t options)
{
    uint32_t dropped = (uint32_t)SOC_PMU(trace_dropped_read)(pmu);
    bool on = ctrl & SOC_PMU_C(TRACE_CTRL_TRACE_EN);
    if (on) {
        kernel.trace_options = options;
        if (options & KTRACE_PRINT)
            soc_puts("trace-begin\n");
        for (unsigned i = 0; i < PMU_K; i++)
            SOC_PMU(perf_cntr_write)(pmu, i, 0);
        SOC_PMU(trace_dropped_write)(pmu, 0);
        SOC_PMU(trace_pid_write)(pmu, pid);
    }
    kernel_trace_ctrl(pmu, ctrl);
    kernel.tracing = on;
    if (!on) {
#if SOC_PROFILE_ENTRIES > 0
        if (kernel.summarize)
            kernel_profile_flush(pmu);
#endif
        for (unsigned empty = 0; empty < 4; empty++)
            if (soc_trace_available() != 0) {
                kernel_trace_drain();
                empty = 0;
            }
        if (kernel.trace_options & KTRACE_PRINT)
            soc_puts("trace-end\n");
        kernel.trace_options = 0;
    }
    return dropped;
}

/* The process's count of counter i. A counter with shadows (seed 002) also counts the
 * kernel's own instructions until the kernel exit puts SHADOW back into it; SHADOW holds
 * the process's count, saved at this kernel entry, so that is what the kernel reports. */
static inline uint64_t kernel_count(const pmu_t *pmu, unsigned i)
{
    if (kernel.shadowed & (1u << i))
        return SOC_PMU(shadow_read)(pmu, i);
    return SOC_PMU(perf_cntr_read)(pmu, i);
}

static inline void kernel_syscall(uint32_t *regs)
{
    pmu_t pmu = kernel_pmu();
    uint32_t number = regs[17], a0 = regs[10], a1 = regs[11], a2 = regs[12];
    uint32_t result = 0;
    kernel.syscalls++;
    switch (number) {
    case SYS_NULL:
        break;
    case SYS_PMU_PROGRAM:
        if (a0 >= PMU_K) {
            result = (uint32_t)-1;
            break;
        }
        SOC_PMU(program)(&pmu, a0, (SOC_PMU(event_t))a1, a2);
        kernel.period[a0] = 0;
        break;
    case SYS_PMU_START:
        /* A restore at the kernel exit puts SHADOW back into the counter: zero it, so a
         * started counter begins from 0 whether or not it has shadows. */
        for (unsigned i = 0; i < PMU_K; i++)
            if (a0 & kernel.shadowed & (1u << i))
                SOC_PMU(shadow_write)(&pmu, i, 0);
        kernel_pmu_start(&pmu, a0);
        break;
    case SYS_PMU_STOP:
        kernel_pmu_stop(&pmu, a0);
        break;
    case SYS_PMU_READ: {
        uint64_t count = a0 < PMU_K ? kernel_count(&pmu, a0) : 0;
        result = (uint32_t)count;
        regs[11] = (uint32_t)(count >> 32);
        break;
    }
    case SYS_PMU_SHADOWS:
        kernel.shadowed = a0 & ((1u << PMU_K) - 1);
        SOC_PMU(shadow_ctrl_write)(
            &pmu, SOC_PMU_C(SHADOW_CTRL_SAVE_ON_ENTRY)(kernel.shadowed) |
                      SOC_PMU_C(SHADOW_CTRL_RESTORE_ON_EXIT)(kernel.shadowed));
        break;
    case SYS_PMU_USER_ACCESS:
        SOC_PMU(user_access_write)(&pmu, a0);
        break;
    case SYS_PMU_OVERFLOW_EVERY:
        if (a0 >= PMU_K || a1 == 0) {
            result = (uint32_t)-1;
            break;
        }
        kernel.period[a0] = a1;
        SOC_PMU(overflow_after)(&pmu, a0, a1);
        SOC_PMU(interrupt_enable)(&pmu, a0, true);
        break;
    case SYS_PMU_EVTSEL:
        result = (uint32_t)SOC_PMU(perf_evtsel_read)(&pmu, a0);
        break;
    case SYS_TIMER:
        kernel.timer_period = a0;
        soc_timer(a0);
        break;
    case SYS_TRACE:
        result = kernel_trace(&pmu, a0, a1, a2);
        break;
    case SYS_PROCESS:
        kernel_process(a0, a1 != 0);
        break;
    case SYS_PMU_FREEZE:
        SOC_PMU(freeze_ctrl_write)(&pmu, a0);
        break;
#if SOC_PROFILE_ENTRIES > 0
    case SYS_PROFILE_SUMMARIZE:
        kernel.summarize = a0 != 0;
        SOC_PMU(profile_summarize)(&pmu, kernel.summarize);
        break;
    case SYS_PROFILE_FLUSH:
        kernel_profile_flush(&pmu);
        break;
    case SYS_PROFILE_EVICTED:
        result = (uint32_t)SOC_PMU(profile_evicted)(&pmu);
        if (a0 != 0)
            SOC_PMU(profile_evicted_write)(&pmu, 0);
        break;
    case SYS_PROFILE_ENTRIES:
        result = (uint32_t)SOC_PMU(profile_log2_entries)(&pmu);
        break;
#else
    case SYS_PROFILE_SUMMARIZE:
    case SYS_PROFILE_FLUSH:
        result = (uint32_t)-1;
        break;
    case SYS_PROFILE_EVICTED:
    case SYS_PROFILE_ENTRIES:
        break;
#endif
    case SYS_EXIT:
        if (kernel.tracing)
            kernel_trace(&pmu, 0, 0, 0);
        soc_exit(a0);
    case SYS_STATS: {
        const uint32_t stats[] = {kernel.ticks,    kernel.syscalls, kernel.entries,    kernel.overflows,
                                  kernel.matches,  kernel.match_pc, kernel.trace_words};
        result = a0 < sizeof stats / sizeof stats[0] ? stats[a0] : 0;
        break;
    }
    default:
        result = (uint32_t)-1;
        break;
    }
    regs[10] = result;
}

/* pmi: count each counter's overflow and re-arm it. The counter wrapped and went on
 * counting; adding 2^CW - period to what it holds now keeps the events since the
 * overflow, so none is lost. Nothing is lost between the read and the write either when
 * the counter counts user events only (USR): the kernel runs in between. */
static inline void kernel_pmi(void)
{
    pmu_t pmu = kernel_pmu();
    uint64_t status = SOC_PMU(overflow_ack)(&pmu);
    for (unsigned i = 0; i < PMU_K; i++) {
        if (!(status & (1u << i)))
            continue;
        kernel.overflows++;
        if (kernel.period[i] != 0) {
            uint64_t now = SOC_PMU(perf_cntr_read)(&pmu, i);
            SOC_PMU(perf_cntr_write)(&pmu, i, now - kernel.period[i]);
        }
    }
}

/* An EBREAK, an illegal instruction or a bus error: report and end the run. */
static inline __attribute__((noreturn)) void kernel_panic(const char *what, uint32_t pc)
{
    soc_puts("panic=");
    soc_puts(what);
    soc_puts(" at 0x");
    soc_put_hex(pc);
    soc_putchar('\n');
    soc_exit(100);
}

#define KERNEL_ECALL 0x00000073u

uint32_t *irq(uint32_t *regs, uint32_t irqs)
{
    kernel.entries++;
    if (irqs & (1u << SOC_IRQ_TIMER)) {
        kernel.ticks++;
        if (kernel.trace_options & (KTRACE_DRAIN | KTRACE_PRINT))
            kernel_trace_drain();
        if (kernel.timer_period != 0)
            soc_timer(kernel.timer_period);
    }
    if (irqs & (1u << SOC_IRQ_TRAP)) {
        /* q0 is the address after the trapping instruction (no compressed code here). */
        uint32_t pc = regs[0] - 4;
        if (*(const uint32_t *)(uintptr_t)pc == KERNEL_ECALL)
            kernel_syscall(regs);
        else
            kernel_panic("ebreak or illegal instruction", pc);
    }
    if (irqs & (1u << SOC_IRQ_BUS))
        kernel_panic("bus error", regs[0]);
    if (irqs & (1u << SOC_IRQ_PMU))
        kernel_pmi();
#if SOC_HAS_MONITOR
    if (irqs & (1u << SOC_IRQ_MONITOR)) {
        /* The monitor's matched: an order of events the program asked about has just
         * happened. The handler's own loads, stores and jumps would go on matching, so
         * the IRQ is one-shot: the kernel notes where the program was and stops the
         * monitor's recording; the program turns it back on when it wants. */
        SOC_MONITOR(t) monitor = SOC_MONITOR(open)(SOC_MONITOR_BASE);
        uint32_t ctrl = SOC_MONITOR(ctrl_read)(&monitor);
        if (ctrl & SOC_MONITOR_C(CTRL_ENABLE)) {
            kernel.matches++;
            kernel.match_pc = regs[0];
            SOC_MONITOR(ctrl_write)(&monitor, ctrl & ~SOC_MONITOR_C(CTRL_ENABLE));
        }
    }
#endif
    return regs;
}

/* ------------------------------------------------------------------------------------
 * A workload for the examples: `rounds` passes of a small insertion sort over a
 * scrambled array, so loads, stores, taken and not-taken branches and calls all occur.
 */
#define WORKLOAD_SIZE 12
static uint32_t workload_data[WORKLOAD_SIZE] __attribute__((unused));

__attribute__((noinline, unused)) static void workload_scramble(uint32_t seed)
{
    for (unsigned i = 0; i < WORKLOAD_SIZE; i++) {
        seed = seed * 1103515245u + 12345u;
        workload_data[i] = seed >> 16;
    }
}

__attribute__((noinline, unused)) static void workload_sort(void)
{
    for (unsigned i = 1; i < WORKLOAD_SIZE; i++) {
        uint32_t value = workload_data[i];
        unsigned j = i;
        while (j > 0 && workload_data[j - 1] > value) {
            workload_data[j] = workload_data[j - 1];
            j--;
        }
        workload_data[j] = value;
    }
}

/* Returns whether every pass came out sorted (a self-check of the work itself). */
__attribute__((noinline, unused)) static bool workload(uint32_t rounds)
{
    bool sorted = true;
    for (uint32_t round = 0; round < rounds; round++) {
        workload_scramble(round + 1);
        workload_sort();
        for (unsigned i = 1; i < WORKLOAD_SIZE; i++)
            sorted = sorted && workload_data[i - 1] <= workload_data[i];
    }
    return sorted;
}

#endif
