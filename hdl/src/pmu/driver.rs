//! The PMU's C driver `<top>_driver.h` (docs/pmu.md §12.7): the register layer of
//! `regmap::driver` over the PMU's table, the event table as a C `enum`, and the
//! functions that combine registers: program a counter, start, stop, enable, the
//! overflow interrupt and its acknowledgement, and with a profile table (§15) summarize,
//! flush and its counters.
use super::params::PmuParams;
use super::regmap::{self, evtsel, Register};
use super::regmap_export::with_interface;
use crate::bus::Bus;
use crate::regmap::driver::{self, function, Reach, Target};

/// The C driver of the PMU of `params` as the generated top `top` presents it:
/// through the bare register port ([`Reach::Port`]) or memory-mapped on a 64-bit or
/// 32-bit bus (`Reach::Bus { data_bits }`, bank `t` at `t * 0x800`, register `a` at
/// `8a`). `comment` opens the file: what it is and the command that regenerates it.
pub fn c_driver(params: &PmuParams, top: &str, reach: Reach, comment: &[String]) -> String {
    with_interface(params, Bus::Bare, |interface| {
        let target = Target { registers: interface, identity: &regmap::PMU_ID, top, reach, comment };
        let mut functions = functions(&target, params);
        if params.profile_entries != 0 {
            functions.push_str(&profile_functions(&target));
        }
        driver::header(&target, &api(&target, params), &events(&target, params), &functions)
    })
}

/// The first comment's list of what the driver offers.
fn api(target: &Target<regmap::Source>, params: &PmuParams) -> Vec<String> {
    let (p, upper) = (target.prefix(), target.upper());
    let open = match target.reach {
        Reach::Port => "port, thread",
        Reach::Bus { .. } => "base, thread",
    };
    let registers: Vec<String> = target.registers.registers().skip(1).map(|r| r.name.to_lowercase()).collect();
    let mut api = vec![
        "Functions (pmu: a handle, for one thread's bank; i: a counter of that thread, i < K; register values \
         are uint64_t):"
            .to_string(),
        format!("  {p}_open({open}): a handle. {p}_probe(pmu): the hardware is this configuration. {p}_id(pmu): PMU_ID decoded."),
        format!(
            "  {p}_program(pmu, i, event, options): counter i counts `event` ({p}_event_t, {upper}_EV_<name>) with \
             `options`, an OR of {upper}_PERF_EVTSEL_USR, _OS, _E, _INT, _ANY, _INV and {upper}_PERF_EVTSEL_CMASK(n); \
             it is stopped and zeroed; {p}_start(pmu, 1u << i) starts it."
        ),
        format!("  {p}_start(pmu, counters), {p}_stop(pmu, counters): set, clear the counters' bits (bit i = counter i) in PERF_GLOBAL_CTRL."),
        format!("  {p}_counter_enable(pmu, i, on), {p}_interrupt_enable(pmu, i, on): PERF_EVTSEL[i].EN, .INT (pmi on overflow)."),
        format!("  {p}_overflow_after(pmu, i, events): counter i overflows after `events` more events."),
        format!("  {p}_overflow_ack(pmu): PERF_GLOBAL_STATUS, cleared through PERF_GLOBAL_OVF_CTRL (pmi drops); for the pmi handler."),
        format!(
            "  {p}_<register>_read(pmu[, i]), {p}_<register>_write(pmu[, i], value): every register by its name in the \
             register map: {}. Values are masked to the register's fields (a counter to CW bits).",
            registers.join(", ")
        ),
        format!("  {upper}_<REGISTER>_<FIELD>: a flag's mask; {upper}_<REGISTER>_<FIELD>(n): n placed in a wider field."),
        format!("  {p}_reg_read(pmu, addr), {p}_reg_write(pmu, addr, value): any register by its address."),
        format!(
            "Shared registers (TSC, TRACE_*) are reached through any bank. Ring 3 may call {p}_tsc_read, \
             {p}_perf_cntr_read and {p}_spflt_write while USER_ACCESS allows it; every other access needs ring 0 \
             (docs/pmu.md §5.3)."
        ),
    ];
    if params.profile_entries != 0 {
        api.push(format!(
            "  {p}_profile_summarize(pmu, on), {p}_profile_flush(pmu), {p}_profile_evicted(pmu), \
             {p}_profile_log2_entries(pmu): the profile table (docs/pmu.md §15): sum the trace records, send and \
             empty the table (waits for the flush), entries evicted, log2 E."
        ));
    }
    api
}

/// The event table as `<prefix>_event_t`: each event's PERF_EVTSEL[15:0].
fn events(target: &Target<regmap::Source>, params: &PmuParams) -> String {
    let (p, upper) = (target.prefix(), target.upper());
    let mut c = driver::block_comment(&[format!(
        "The events of table {}: each value is PERF_EVTSEL[15:0], UMASK << 8 | EVENT.",
        params.table.stem
    )]);
    c.push_str("typedef enum {\n");
    for event in &params.table.events {
        let code = (event.umask as u32) << evtsel::UMASK.lsb | (event.code as u32) << evtsel::EVENT.lsb;
        let mut brief = driver::comment_text(&event.brief);
        if let Some(counters) = &event.counters {
            let list: Vec<String> = counters.iter().map(|i| i.to_string()).collect();
            brief.push_str(&format!(" Counters: {}.", list.join(", ")));
        }
        c.push_str(&format!("    {upper}_EV_{} = 0x{code:04X}, /* {brief} */\n", event.name));
    }
    c.push_str(&format!("}} {p}_event_t;\n\n"));
    c
}

/// The functions that combine registers.
fn functions(target: &Target<regmap::Source>, params: &PmuParams) -> String {
    let (p, handle, this) = (target.prefix(), target.handle(), target.this());
    let lookup = params.lookup();
    let call = |register: &Register, verb: &str| target.function(register, verb);
    let (ctrl_read, ctrl_write) = (call(&regmap::PERF_GLOBAL_CTRL, "read"), call(&regmap::PERF_GLOBAL_CTRL, "write"));
    let (select_read, select_write) = (call(&regmap::PERF_EVTSEL, "read"), call(&regmap::PERF_EVTSEL, "write"));
    let counter_write = call(&regmap::PERF_CNTR, "write");
    let flag = |field| target.constant(&regmap::PERF_EVTSEL, field);
    let code_mask = evtsel::EVENT.mask(&lookup) | evtsel::UMASK.mask(&lookup);
    let options = regmap::PERF_EVTSEL.mask(&lookup) & !code_mask & !evtsel::EN.mask(&lookup);
    let h = format!("const {handle} *{this}");
    let mut c = String::new();
    for (name, verb, operation) in [("start", "Start", "| "), ("stop", "Stop", "& ~")] {
        c.push_str(&function(
            &format!("{verb} the counters whose bits are set in `counters` (bit i = counter i): PERF_GLOBAL_CTRL."),
            &format!("void {p}_{name}({h}, uint64_t counters)"),
            &[format!("{ctrl_write}({this}, {ctrl_read}({this}) {operation}counters);")],
        ));
    }
    c.push_str(&function(
        &format!(
            "Make counter i count `event`, in the rings and mode `options` asks for (see the list at the top); EN is \
             set. As the KNC manual's sequence: the counter is stopped in PERF_GLOBAL_CTRL and zeroed before its \
             select is written. An i >= {} does nothing.",
            params.counters
        ),
        &format!("void {p}_program({h}, unsigned i, {p}_event_t event, uint64_t options)"),
        &[
            format!("if (i >= {}u) return;", params.counters),
            format!("{p}_stop({this}, (uint64_t)1 << i);"),
            format!("{counter_write}({this}, i, 0);"),
            format!(
                "{select_write}({this}, i, ((uint64_t)event & {}) | (options & {}) | {});",
                target.literal(code_mask),
                target.literal(options),
                flag(&evtsel::EN)
            ),
        ],
    ));
    for (name, field, what) in [
        ("counter_enable", &evtsel::EN, "Enable (on) or disable counter i in its select (EN)"),
        ("interrupt_enable", &evtsel::INT, "Raise pmi when counter i overflows (on), or not (INT)"),
    ] {
        c.push_str(&function(
            &format!("{what}, leaving the rest of PERF_EVTSEL[i] as it is."),
            &format!("void {p}_{name}({h}, unsigned i, bool on)"),
            &[
                format!("uint64_t select = {select_read}({this}, i);"),
                format!("{select_write}({this}, i, on ? select | {0} : select & ~{0});", flag(field)),
            ],
        ));
    }
    c.push_str(&function(
        "Preload counter i with 2^CW - events: it overflows (PERF_GLOBAL_STATUS bit i, and pmi with INT) after \
         `events` more events.",
        &format!("void {p}_overflow_after({h}, unsigned i, uint64_t events)"),
        &[format!("{counter_write}({this}, i, (uint64_t)0 - events);")],
    ));
    c.push_str(&function(
        "The counters that overflowed (PERF_GLOBAL_STATUS), their bits cleared with PERF_GLOBAL_OVF_CTRL so that \
         pmi drops; an overflow at the clearing edge itself stays set.",
        &format!("uint64_t {p}_overflow_ack({h})"),
        &[
            format!("uint64_t status = {}({this});", call(&regmap::PERF_GLOBAL_STATUS, "read")),
            format!("{}({this}, status);", call(&regmap::PERF_GLOBAL_OVF_CTRL, "write")),
            "return status;".to_string(),
        ],
    ));
    c
}

/// The profile table's functions (docs/pmu.md §15.1).
fn profile_functions(target: &Target<regmap::Source>) -> String {
    let (p, handle, this) = (target.prefix(), target.handle(), target.this());
    let h = format!("const {handle} *{this}");
    let ctrl = &regmap::PROFILE_CTRL;
    let (ctrl_read, ctrl_write) = (target.function(ctrl, "read"), target.function(ctrl, "write"));
    let (summarize, flush) =
        (target.constant(ctrl, &regmap::profile_ctrl::SUMMARIZE), target.constant(ctrl, &regmap::profile_ctrl::FLUSH));
    let mut c = String::new();
    c.push_str(&function(
        "Sum the trace records in the profile table (on) or send them as they are (off). A change of mode makes \
         the next trace record carry NEW_PROCESS; the table keeps its entries until a flush.",
        &format!("void {p}_profile_summarize({h}, bool on)"),
        &[format!("{ctrl_write}({this}, on ? {summarize} : 0);")],
    ));
    c.push_str(&function(
        "Send every entry of the profile table as a summary record and empty it, after the records traced before \
         this call; returns when the last word has left the PMU (FLUSH reads 0). Clear TRACE_EN first to send \
         everything traced.",
        &format!("void {p}_profile_flush({h})"),
        &[
            format!("{ctrl_write}({this}, ({ctrl_read}({this}) & {summarize}) | {flush});"),
            format!("while ({ctrl_read}({this}) & {flush}) {{\n    }}"),
        ],
    ));
    c.push_str(&function(
        "Entries the profile table sent to make room (PROFILE_EVICTED), other than by a flush.",
        &format!("uint32_t {p}_profile_evicted({h})"),
        &[format!("return (uint32_t){}({this});", target.function(&regmap::PROFILE_EVICTED, "read"))],
    ));
    c.push_str(&function(
        "log2 of the profile table's entries: PMU_ID[46:42].",
        &format!("unsigned {p}_profile_log2_entries({h})"),
        &[format!(
            "return (unsigned)(({}({this}) >> {}) & 0x1Fu);",
            target.function(&regmap::PMU_ID, "read"),
            regmap::ID_LOG2_E.lsb
        )],
    ));
    c
}

#[cfg(test)]
mod tests {
    use super::*;

    fn driver_of(reach: Reach) -> String {
        let params = PmuParams::with_default_table(4, 2, 40);
        c_driver(&params, "pmu_knc_t4_k2_c40_x", reach, &["pmu_knc_t4_k2_c40_x_driver.h".to_string()])
    }

    #[test]
    fn addresses_and_masks_come_from_the_table() {
        let c = driver_of(Reach::Bus { data_bits: 64 });
        assert!(c.contains("return pmu->base + 0x800u * (uintptr_t)pmu->thread + 8u * (uintptr_t)addr;"), "{c}");
        assert!(c.contains("pmu_knc_t4_k2_c40_x_reg_write(pmu, 0x20u + i, value & 0xFFFFFFFFFFull);"), "{c}");
        assert!(c.contains("PMU_KNC_T4_K2_C40_X_EV_INSTRUCTIONS_EXECUTED = 0x0016,"));
        assert!(c.contains("PMU_KNC_T4_K2_C40_X_EV_L2_READ_MISS = 0x10CB,"));
        assert!(c.contains("#define PMU_KNC_T4_K2_C40_X_PERF_EVTSEL_CMASK(n) (((uint64_t)(n) << 24) & 0xFF000000ull)"));
        assert!(c.contains("PMU_KNC_T4_K2_C40_X_CFG_CW = 40,"));
        assert!(!c.contains("_perf_global_ovf_ctrl_read"), "a register that reads 0 has no read function");
        assert!(!c.contains("_spflt_read"), "a write-only register has no read function");
    }

    #[test]
    fn the_reach_decides_only_the_access_layer() {
        let split = driver_of(Reach::Bus { data_bits: 32 });
        assert!(split
            .contains("PMUGEN_WRITE32(at + 4u, (uint32_t)(value >> 32));\n    PMUGEN_WRITE32(at, (uint32_t)value);"));
        assert!(split.contains("uint32_t low = PMUGEN_READ32(at);\n    uint32_t high = PMUGEN_READ32(at + 4u);"));
        // PERF_EVTSEL's fields fit in [31:0]: one access at +0.
        assert!(split.contains("reg_write32(pmu, 0x28u + i, (uint32_t)(value & 0xFFF7FFFFull));"));
        let port = driver_of(Reach::Port);
        assert!(port.contains("uint64_t pmu_knc_t4_k2_c40_x_port_read(void *port, unsigned thread, unsigned addr);"));
        assert!(!port.contains("PMUGEN_READ"));
        let tail = |text: &str| text[text.find("/* PMU_ID (0x00)").unwrap()..].to_string();
        assert_eq!(tail(&driver_of(Reach::Bus { data_bits: 64 })), tail(&port));
        assert_eq!(tail(&split), tail(&port));
    }
}
