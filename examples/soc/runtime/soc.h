/* soc.h: the pmugen reference SoC for firmware (docs/soc.md §2): its memory map, the
 * console, exit, PID, PM_MARK, FAULTS and trace-sink registers, and the CPU's interrupt
 * mask, timer and counters (PicoRV32's custom instructions; on SERV and Ibex the
 * machine-mode CSRs and the SoC's TIMER register, soc_cpu.h saying which CPU).
 * Freestanding C99, no library. The PMU and the monitor have their own generated
 * drivers, named for any CPU by soc_pmu.h, at SOC_PMU_BASE and SOC_MONITOR_BASE. */
#ifndef PMUGEN_SOC_H
#define PMUGEN_SOC_H
#include <stdbool.h>
#include <stdint.h>

#include "soc_cpu.h"

#define SOC_RAM_BASE 0x00000000u
#define SOC_RAM_SIZE 0x00010000u
#define SOC_CONSOLE 0x10000000u
#define SOC_EXIT 0x10000004u
#define SOC_PID 0x10000010u
#define SOC_PM_MARK 0x10000014u
#define SOC_FAULTS 0x10000018u
#define SOC_TIMER 0x1000001Cu /* SERV and Ibex: IRQ 0 after the written number of cycles */
#define SOC_PMU_BASE 0x20000000u
#define SOC_MONITOR_BASE 0x30000000u
#define SOC_TRACE_BASE 0x40000000u

/* PicoRV32's IRQ lines in this SoC (the bit in irq()'s `irqs`). */
#define SOC_IRQ_TIMER 0   /* PicoRV32's timer (soc_timer) */
#define SOC_IRQ_TRAP 1    /* ECALL, EBREAK, an illegal instruction */
#define SOC_IRQ_BUS 2     /* a misaligned access (PicoRV32's bus error) */
#define SOC_IRQ_PMU 3     /* the PMU's pmi */
#define SOC_IRQ_MONITOR 4 /* the monitor's matched */

#define SOC_REG(address) (*(volatile uint32_t *)(uintptr_t)(address))

static inline void soc_putchar(char c) { SOC_REG(SOC_CONSOLE) = (uint8_t)c; }

static inline void soc_puts(const char *s)
{
    while (*s)
        soc_putchar(*s++);
}

/* `value` as 8 hex digits. */
static inline void soc_put_hex(uint32_t value)
{
    for (int shift = 28; shift >= 0; shift -= 4)
        soc_putchar("0123456789abcdef"[(value >> shift) & 0xF]);
}

/* `value` in decimal, by subtraction: rv32i has no divide instruction. */
static inline void soc_put_dec(uint32_t value)
{
    static const uint32_t powers[] = {1000000000u, 100000000u, 10000000u, 1000000u, 100000u,
                                      10000u,      1000u,      100u,      10u,      1u};
    bool started = false;
    for (unsigned i = 0; i < sizeof powers / sizeof powers[0]; i++) {
        char digit = '0';
        while (value >= powers[i]) {
            value -= powers[i];
            digit++;
        }
        if (digit != '0' || started || i == 9) {
            soc_putchar(digit);
            started = true;
        }
    }
}

/* End the run with `code` (`pmugen soc run` exits with it). */
static inline __attribute__((noreturn)) void soc_exit(uint32_t code)
{
    SOC_REG(SOC_EXIT) = code;
    for (;;) {
    }
}

static inline uint32_t soc_pid(void) { return SOC_REG(SOC_PID); }
static inline void soc_set_pid(uint32_t pid) { SOC_REG(SOC_PID) = pid; }
static inline bool soc_pm_mark(void) { return SOC_REG(SOC_PM_MARK) & 1u; }
static inline void soc_set_pm_mark(bool mark) { SOC_REG(SOC_PM_MARK) = mark ? 1u : 0u; }
/* Bus accesses answered ERR since reset or the last clear (they complete and read 0). */
static inline uint32_t soc_faults(void) { return SOC_REG(SOC_FAULTS); }
static inline void soc_clear_faults(void) { SOC_REG(SOC_FAULTS) = 0; }

/* The trace sink: words waiting, and the oldest one (false when there is none). */
static inline uint32_t soc_trace_available(void) { return SOC_REG(SOC_TRACE_BASE); }
static inline bool soc_trace_pop(uint64_t *word)
{
    if (soc_trace_available() == 0)
        return false;
    uint32_t low = SOC_REG(SOC_TRACE_BASE + 8);
    uint32_t high = SOC_REG(SOC_TRACE_BASE + 12); /* removes the word */
    *word = ((uint64_t)high << 32) | low;
    return true;
}

#if SOC_CPU_PICORV32
/* PicoRV32's custom instructions (opcode 0x0B; q registers are numbered like x0..x3). */
static inline uint32_t soc_maskirq(uint32_t mask) /* set the IRQ mask, return the old one */
{
    uint32_t old;
    __asm__ volatile(".insn r 0x0B, 6, 3, %0, %1, x0" : "=r"(old) : "r"(mask) : "memory");
    return old;
}
static inline uint32_t soc_timer(uint32_t cycles) /* IRQ 0 after `cycles`; 0 stops it */
{
    uint32_t old;
    __asm__ volatile(".insn r 0x0B, 6, 5, %0, %1, x0" : "=r"(old) : "r"(cycles) : "memory");
    return old;
}
#define SOC_GETQ(q, value) __asm__ volatile(".insn r 0x0B, 4, 0, %0, x" #q ", x0" : "=r"(value))
#define SOC_SETQ(q, value) __asm__ volatile(".insn r 0x0B, 2, 1, x" #q ", %0, x0" : : "r"(value))

/* PicoRV32's counters (ENABLE_COUNTERS): rdcycle and rdinstret, low 32 bits. */
static inline uint32_t soc_rdcycle(void)
{
    uint32_t value;
    __asm__ volatile(".insn i 0x73, 2, %0, x0, -1024" : "=r"(value)); /* csrrs rd, cycle (0xC00), x0 */
    return value;
}
static inline uint32_t soc_rdinstret(void)
{
    uint32_t value;
    __asm__ volatile(".insn i 0x73, 2, %0, x0, -1022" : "=r"(value)); /* csrrs rd, instret (0xC02), x0 */
    return value;
}

#else
/* SERV and Ibex: IRQ n of the SoC is enabled by a bit of mie (timer: MTIE; Ibex's pmi
 * and matched: its fast interrupts 0 and 1), so the mask is kept in mie, inverted. */
#define SOC_CSR_MIE 0x304
static inline uint32_t soc_mie_bits(uint32_t irqs)
{
    return (irqs & (1u << SOC_IRQ_TIMER) ? 1u << 7 : 0) | (irqs & (1u << SOC_IRQ_PMU) ? 1u << 16 : 0) |
           (irqs & (1u << SOC_IRQ_MONITOR) ? 1u << 17 : 0);
}
static inline uint32_t soc_maskirq(uint32_t mask) /* set the IRQ mask, return the old one */
{
    uint32_t all = (1u << SOC_IRQ_TIMER) | (1u << SOC_IRQ_PMU) | (1u << SOC_IRQ_MONITOR), enabled, old = 0;
    __asm__ volatile(".insn i 0x73, 2, %0, x0, 0x304" : "=r"(enabled)); /* csrr mie */
    for (uint32_t irq = 0; irq < 5; irq++)
        if ((all >> irq & 1u) && !(enabled & soc_mie_bits(1u << irq)))
            old |= 1u << irq;
    uint32_t bits = soc_mie_bits(all & ~mask);
    __asm__ volatile(".insn i 0x73, 1, x0, %0, 0x304" : : "r"(bits) : "memory"); /* csrw mie */
    return old;
}
static inline uint32_t soc_timer(uint32_t cycles) /* IRQ 0 after `cycles`; 0 stops it */
{
    uint32_t old = SOC_REG(SOC_TIMER);
    SOC_REG(SOC_TIMER) = cycles;
    return old;
}

/* SERV has no counters, and Ibex's are machine-mode CSRs that user code may not read:
 * both read 0 here (the PMU counts what they would). */
static inline uint32_t soc_rdcycle(void) { return 0; }
static inline uint32_t soc_rdinstret(void) { return 0; }

#endif

#endif
