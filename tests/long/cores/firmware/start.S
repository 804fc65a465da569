/* The testbenches' runtime (tests/long/cores): reset entries for SERV (0x0) and Ibex
 * (boot address + 0x80), a trap vector table at 0x100 (Ibex takes interrupt i at
 * 0x100 + 4i, SERV every trap at 0x100), the trap entry and trap() in .text.kernel,
 * which the linker script ends with __kernel_end. With USER_MODE (Ibex) main() runs in
 * U mode; without it (SERV) in machine mode with interrupts enabled. main()'s return
 * value is stored to the exit register. */
    .section .text.init, "ax"
    .globl _reset
_reset:
    j _start
    .org 0x80
    j _start
    .balign 256
    .globl vectors
vectors:
    .rept 32
    j trap_entry
    .endr

    .section .text.kernel, "ax"
trap_entry:
    csrrw sp, mscratch, sp
    addi sp, sp, -64
    sw ra, 0(sp)
    sw t0, 4(sp)
    sw t1, 8(sp)
    sw t2, 12(sp)
    sw a0, 16(sp)
    sw a1, 20(sp)
    sw a2, 24(sp)
    sw a3, 28(sp)
    sw a4, 32(sp)
    sw a5, 36(sp)
    sw a6, 40(sp)
    sw a7, 44(sp)
    sw t3, 48(sp)
    sw t4, 52(sp)
    sw t5, 56(sp)
    sw t6, 60(sp)
    csrr a0, mcause
    csrr a1, mepc
    mv a2, sp
    call trap
    csrw mepc, a0
    lw ra, 0(sp)
    lw t0, 4(sp)
    lw t1, 8(sp)
    lw t2, 12(sp)
    lw a0, 16(sp)
    lw a1, 20(sp)
    lw a2, 24(sp)
    lw a3, 28(sp)
    lw a4, 32(sp)
    lw a5, 36(sp)
    lw a6, 40(sp)
    lw a7, 44(sp)
    lw t3, 48(sp)
    lw t4, 52(sp)
    lw t5, 56(sp)
    lw t6, 60(sp)
    addi sp, sp, 64
    csrrw sp, mscratch, sp
    mret

    .text
_start:
    la sp, stack_top
    la t0, kernel_stack_top
    csrw mscratch, t0
    la t0, vectors
#ifdef USER_MODE
    ori t0, t0, 1            /* Ibex: vectored */
#endif
    csrw mtvec, t0
    li t0, 0x80              /* MTIE */
    csrw mie, t0
#ifdef USER_MODE
    li t0, 0x1800
    csrc mstatus, t0         /* MPP = U */
    li t0, 0x80
    csrs mstatus, t0         /* MPIE: interrupts on in U */
    la t0, user_entry
    csrw mepc, t0
    mret
#else
    csrsi mstatus, 8         /* MIE */
#endif
user_entry:
    call main
    li t0, 0x10000004
    sw a0, 0(t0)
1:  j 1b

    .bss
    .balign 16
    .space 1024
kernel_stack_top:
    .space 2048
stack_top:
