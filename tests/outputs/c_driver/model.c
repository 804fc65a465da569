/* A simulated register window for the C drivers' host tests (tests/outputs/c_driver).
 *
 * The window is a byte array: the drivers get its address as their base. Every access
 * goes through the drivers' PMUGEN_READ and PMUGEN_WRITE macros, defined here, or through
 * their port functions, which the test defines to call model_port_read and
 * model_port_write. Each access is printed (R4 0x1148, W4 0x114c 0x0, PR t2 0x29, ...)
 * for the test to compare with the accesses it expects, then acts on the window:
 *
 * - plain: a read returns the bytes at the address, a write stores them;
 * - split (the PMU's 32-bit layout, register a of thread t at bytes t*0x800 + 8a and +4):
 *   a +0 read returns [31:0] and latches [63:32]; a +4 read returns the latched word if
 *   the previous read was +0 of the same register, else the live [63:32]. A +4 write is
 *   held and changes nothing; a +0 write stores {held, data} if the previous write was
 *   +4 of the same register, else {0, data}.
 *
 * The functions are static inline: a program that uses only some of them builds without
 * warnings. After each access the register at model_tick_offset (if any) counts one more event, so a
 * 64-bit read that is not one consistent value shows. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define MODEL_NONE 0xFFFFFFFFu

static uint64_t model_words[0x2000 / 8]; /* 8-byte aligned */
static unsigned char *const model_window = (unsigned char *)model_words;
static int model_split;
static uint32_t model_tick_offset = MODEL_NONE;
static uint32_t model_last_read = MODEL_NONE, model_last_write = MODEL_NONE;
static uint32_t model_latched, model_held;

static inline uint64_t model_load(uint32_t offset, int bytes)
{
    uint64_t value = 0;
    memcpy(&value, model_window + offset, (size_t)bytes); /* the host is little-endian */
    return value;
}

static inline void model_store(uint32_t offset, int bytes, uint64_t value)
{
    memcpy(model_window + offset, &value, (size_t)bytes);
}

/* Start afresh: an all-zero window, no latched or held half; `split` selects the rules. */
static inline void model_reset(int split)
{
    memset(model_words, 0, sizeof model_words);
    model_split = split;
    model_tick_offset = model_last_read = model_last_write = MODEL_NONE;
}

/* Set a register without an access (what the hardware would hold). */
static inline void model_poke(uint32_t offset, int bytes, uint64_t value)
{
    model_store(offset, bytes, value);
}

static inline void model_tick(void)
{
    if (model_tick_offset != MODEL_NONE)
        model_store(model_tick_offset, 8, model_load(model_tick_offset, 8) + 1);
}

static inline uint64_t model_read(uintptr_t address, int bytes)
{
    uint32_t offset = (uint32_t)(address - (uintptr_t)model_window);
    uint32_t reg = offset & ~7u;
    uint64_t value;
    printf("R%d 0x%x\n", bytes, offset);
    if (!model_split) {
        value = model_load(offset, bytes);
    } else if ((offset & 7u) == 0) {
        value = model_load(reg, 4);
        model_latched = (uint32_t)model_load(reg + 4, 4);
    } else {
        value = model_last_read == reg ? model_latched : model_load(offset, 4);
    }
    model_last_read = (offset & 7u) == 0 ? reg : MODEL_NONE;
    model_tick();
    return value;
}

static inline void model_write(uintptr_t address, int bytes, uint64_t value)
{
    uint32_t offset = (uint32_t)(address - (uintptr_t)model_window);
    uint32_t reg = offset & ~7u;
    printf("W%d 0x%x 0x%llx\n", bytes, offset, (unsigned long long)value);
    if (!model_split) {
        model_store(offset, bytes, value);
    } else if (offset & 4u) {
        model_held = (uint32_t)value;
    } else {
        uint64_t high = model_last_write == reg ? model_held : 0;
        model_store(reg, 8, high << 32 | (uint32_t)value);
    }
    model_last_write = model_split && (offset & 4u) ? reg : MODEL_NONE;
    model_tick();
}

/* The register port: register addr of bank thread kept at thread*0x800 + bytes*addr. */
static inline uint64_t model_port_read(unsigned thread, unsigned addr, int bytes)
{
    uint64_t value = model_load(thread * 0x800u + (uint32_t)bytes * addr, bytes);
    printf("PR t%u 0x%x\n", thread, addr);
    model_tick();
    return value;
}

static inline void model_port_write(unsigned thread, unsigned addr, int bytes, uint64_t value)
{
    printf("PW t%u 0x%x 0x%llx\n", thread, addr, (unsigned long long)value);
    model_store(thread * 0x800u + (uint32_t)bytes * addr, bytes, value);
    model_tick();
}

/* A value a scenario reports. */
static inline void model_result(unsigned long long value)
{
    printf("= 0x%llx\n", value);
}

#define PMUGEN_READ32(address) ((uint32_t)model_read((address), 4))
#define PMUGEN_WRITE32(address, value) model_write((address), 4, (value))
#define PMUGEN_READ64(address) model_read((address), 8)
#define PMUGEN_WRITE64(address, value) model_write((address), 8, (value))
