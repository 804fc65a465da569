/* start.S of the SoC on SERV or Ibex (docs/soc.md §2.9): the reset entries (SERV at 0,
 * Ibex at its boot address + 0x80), a trap vector table at 0x100 (Ibex takes exceptions
 * at 0x100 and interrupt n at 0x100 + 4n; SERV takes every trap at 0x100) and the trap
 * entry, which presents a trap as PicoRV32's runtime does: it saves the registers
 * (regs[n] = xn) and calls the C function
 *     uint32_t *irq(uint32_t *regs, uint32_t irqs)
 * with regs[0] = the return address (for an exception the instruction after the trapping
 * one, for an interrupt the interrupted one) and irqs = the SoC's IRQ bit of the cause
 * (soc.h: timer 0; ECALL, EBREAK and illegal instructions 1; misaligned accesses 2; on
 * Ibex its fast interrupts 0 and 1 as pmi 3 and matched 4), then restores the frame
 * irq() returns and leaves with MRET. main() runs with the timer interrupt and, on Ibex,
 * both fast interrupts enabled: in machine mode on SERV, in user mode on Ibex
 * (SOC_CPU_IBEX). Its return value is the exit code: passed to runtime_exit() when the
 * program has one (the tiny kernel's, kernel.h: a system call that stops tracing and
 * flushes the PMU's profile table before it exits), else stored into the exit register.
 * The trap runs on a stack of its own (1 KiB; 256 bytes in a RAM of 4 KiB); traps do not nest. The section
 * .pmugen_soc (not loaded) names the system the runtime was generated for
 * (soc_system.h), which `pmugen soc run` reads. */
#include "soc_cpu.h"
#include "soc_system.h"
#define SOC_EXIT 0x10000004

    .section .text.start, "ax"
    .global _start
_start:                         /* 0x00: SERV's reset */
    j reset
    .org 0x80                   /* Ibex's reset: boot address 0 + 0x80 */
    j reset
    .balign 256
vectors:                        /* 0x100 */
    .rept 32
    j trap_entry
    .endr

trap_entry:
    csrw mscratch, sp           /* the trapped code's sp, until it is in the frame */
    la sp, trap_frame
    sw x1, 1*4(sp)
    .irp n, 3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31
    sw x\n, \n*4(sp)
    .endr
    csrr t0, mscratch
    sw t0, 2*4(sp)
    csrr a0, mepc
    csrr t1, mcause
    bltz t1, 1f
    addi a0, a0, 4              /* an exception: resume after the trapping instruction */
    li a1, 1 << 1               /* ECALL, EBREAK, an illegal instruction: IRQ 1 */
    beqz t1, 3f                 /* causes 0, 4, 6: a misaligned access, IRQ 2 */
    li t3, 4
    beq t1, t3, 3f
    li t3, 6
    bne t1, t3, 2f
3:  li a1, 1 << 2
    j 2f
1:  slli t1, t1, 1              /* an interrupt: its number */
    srli t1, t1, 1
    li a1, 1 << 0               /* 7: the timer, IRQ 0 */
    li t3, 16
    bne t1, t3, 4f
    li a1, 1 << 3               /* 16: Ibex's fast 0, pmi */
4:  li t3, 17
    bne t1, t3, 2f
    li a1, 1 << 4               /* 17: Ibex's fast 1, matched */
2:  sw a0, 0*4(sp)
    mv a0, sp
    la sp, trap_stack_top
    jal ra, irq
    mv sp, a0                   /* the frame to restore */
    lw t0, 0*4(sp)
    csrw mepc, t0
    lw t0, 2*4(sp)
    csrw mscratch, t0
    lw x1, 1*4(sp)
    .irp n, 3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31
    lw x\n, \n*4(sp)
    .endr
    csrr sp, mscratch
    mret


reset:
    lui sp, %hi(__stack_top)
    addi sp, sp, %lo(__stack_top)
    la t0, __bss_start
    la t1, __bss_end
1:  bgeu t0, t1, 2f
    sw zero, 0(t0)
    addi t0, t0, 4
    j 1b
2:  la t0, vectors
#if SOC_CPU_IBEX
    ori t0, t0, 1               /* Ibex: vectored */
#endif
    csrw mtvec, t0
    li t0, (1 << 7) | (1 << 16) | (1 << 17) /* the timer, Ibex's fast 0 and 1 */
    csrw mie, t0
#if SOC_CPU_IBEX
    li t0, 0x1800
    csrc mstatus, t0            /* MPP = U */
    li t0, 0x80
    csrs mstatus, t0            /* MPIE: interrupts on in user mode */
    la t0, user
    csrw mepc, t0
    mret
#else
    csrsi mstatus, 8            /* MIE */
#endif
user:
    call main
    .weak runtime_exit
    la t0, runtime_exit         /* 0 without one */
    beqz t0, 3f
    jalr t0                     /* does not return */
3:  li t0, SOC_EXIT
    sw a0, 0(t0)
5:  j 5b

/* Without an irq() of the program's own, any interrupt ends the run with the IRQ mask
 * as the exit code (an ECALL gives 2), rather than returning into a loop. */
    .weak irq
irq:
    li t0, SOC_EXIT
    sw a1, 0(t0)
4:  j 4b

    .section .bss
    .balign 16
trap_frame:
    .fill 32, 4
trap_stack:
    .fill 256, 4
trap_stack_top:

    .section .pmugen_soc, "", @progbits
    .asciz SOC_SYSTEM
