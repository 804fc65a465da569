/* start.S: the reset and interrupt entry of firmware for the pmugen reference SoC
 * (docs/soc.md §2). Reset starts at 0 (PROGADDR_RESET), PicoRV32's IRQ vector is 0x10
 * (PROGADDR_IRQ). The IRQ entry saves the registers with PicoRV32's q-register scheme,
 * as PicoRV32's own firmware/start.S does, calls the C function
 *     uint32_t *irq(uint32_t *regs, uint32_t irqs)
 * (regs[0] = the return address, regs[n] = xn; the pointer it returns is the frame that
 * is restored) and returns with retirq. main() runs with the stack at the top of RAM
 * and with every IRQ unmasked (the handler on a stack of its own: 1 KiB, 256 bytes in a
 * RAM of 4 KiB); its return value is the exit code: passed to runtime_exit() when the
 * program has one (the tiny kernel's, kernel.h: a system call that stops tracing and
 * flushes the PMU's profile table before it exits), else stored into the exit register. The section .pmugen_soc (not loaded) names the system the
 * runtime was generated for (soc_system.h), which `pmugen soc run` reads. */
#include "soc_system.h"
#define SOC_EXIT 0x10000004

/* PicoRV32's custom instructions (opcode 0x0B); q registers are numbered like x0..x3. */
#define GETQ(rd, q) .insn r 0x0B, 4, 0, rd, q, x0
#define SETQ(q, rs) .insn r 0x0B, 2, 1, q, rs, x0
#define RETIRQ      .insn r 0x0B, 0, 2, x0, x0, x0
#define MASKIRQ(rd, rs) .insn r 0x0B, 6, 3, rd, rs, x0

    .section .text.start, "ax"
    .global _start
_start:                         /* 0x00: no more than 16 bytes before the IRQ vector */
    j reset
    .balign 16
irq_entry:                      /* 0x10 */
    SETQ(x2, x1)                /* q2 = x1 */
    SETQ(x3, x2)                /* q3 = x2 */
    lui x1, %hi(irq_regs)
    addi x1, x1, %lo(irq_regs)
    GETQ(x2, x0)                /* the return address (q0) */
    sw x2, 0*4(x1)
    GETQ(x2, x2)
    sw x2, 1*4(x1)
    GETQ(x2, x3)
    sw x2, 2*4(x1)
    .irp n, 3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31
    sw x\n, \n*4(x1)
    .endr
    lui sp, %hi(irq_stack_top)
    addi sp, sp, %lo(irq_stack_top)
    lui a0, %hi(irq_regs)
    addi a0, a0, %lo(irq_regs)
    GETQ(a1, x1)                /* the pending IRQs (q1) */
    jal ra, irq
    mv x1, a0                   /* the frame to restore */
    lw x2, 0*4(x1)
    SETQ(x0, x2)
    lw x2, 1*4(x1)
    SETQ(x1, x2)
    lw x2, 2*4(x1)
    SETQ(x2, x2)
    .irp n, 3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31
    lw x\n, \n*4(x1)
    .endr
    GETQ(x1, x1)
    GETQ(x2, x2)
    RETIRQ

reset:
    lui sp, %hi(__stack_top)
    addi sp, sp, %lo(__stack_top)
    la t0, __bss_start
    la t1, __bss_end
1:  bgeu t0, t1, 2f
    sw zero, 0(t0)
    addi t0, t0, 4
    j 1b
2:  MASKIRQ(zero, zero)         /* unmask every IRQ (PicoRV32 starts with all masked) */
    call main
    .weak runtime_exit
    la t0, runtime_exit         /* 0 without one */
    beqz t0, 3f
    jalr t0                     /* does not return */
3:  li t0, SOC_EXIT
    sw a0, 0(t0)
5:  j 5b

/* Without an irq() of the program's own, any interrupt ends the run with the pending
 * IRQ mask as the exit code (an ECALL gives 2), rather than returning into a loop. */
    .weak irq
irq:
    li t0, SOC_EXIT
    sw a1, 0(t0)
4:  j 4b

    .section .bss
    .balign 16
irq_regs:
    .fill 32, 4
irq_stack:
    .fill 256, 4
irq_stack_top:

    .section .pmugen_soc, "", @progbits
    .asciz SOC_SYSTEM
