//! The expected log of a driver's scenarios, from the register tables: register a of
//! thread t at byte t*0x800 + 8a (PMU) or 4a (monitor); on a 32-bit bus a 64-bit
//! register is read +0 then +4 and written +4 then +0, and a register whose fields fit
//! in [31:0] takes one access at +0; on the bare port, one port call per register
//! access (model.c prints them so).
use pmugen_hdl::regmap::driver::Reach;
use pmugen_hdl::regmap::Register;

use super::{Driver, Kind};

/// A driver's scenarios: the C statements, and the log they must print.
pub struct Script<'a> {
    reach: Reach,
    lookup: Box<dyn Fn(&str) -> usize + 'a>,
    thread: usize,
    register_bits: usize,
    stride: u32,
    /// The C statements.
    pub c: String,
    /// The lines model.c must print for them.
    pub expected: Vec<String>,
}

impl<'a> Script<'a> {
    /// The script of `driver` with the configuration `lookup`, for the bank of `thread`
    /// (`None` without banks): it starts with the model's reset and the handle `h`.
    pub fn new(driver: &Driver, lookup: Box<dyn Fn(&str) -> usize + 'a>, thread: Option<usize>) -> Self {
        let (register_bits, stride) = match driver.kind {
            Kind::Pmu(_) => (64, 0x800),
            Kind::Monitor { .. } => (32, 0),
        };
        let mut script = Script {
            reach: driver.reach,
            lookup,
            thread: thread.unwrap_or(0),
            register_bits,
            stride,
            c: String::new(),
            expected: Vec::new(),
        };
        script.code(&open(driver, thread));
        script
    }
    pub fn offset(&self, addr: u32) -> u32 {
        self.thread as u32 * self.stride + addr * (self.register_bits / 8) as u32
    }
    pub fn scenario(&mut self, name: &str) {
        self.code(&format!("printf(\"# {name}\\n\");"));
        self.expected.push(format!("# {name}"));
    }
    pub fn code(&mut self, statement: &str) {
        self.c.push_str(&format!("    {statement}\n"));
    }
    /// The hardware holds `value` in copy `index` of `register`.
    pub fn poke<S>(&mut self, register: &Register<S>, index: usize, value: u64) {
        let offset = self.offset(register.addr as u32 + index as u32);
        self.code(&format!("model_poke(0x{offset:X}u, {}, 0x{value:X}ull);", self.register_bits / 8));
    }
    /// The accesses of one register read (`write` None) or write.
    fn access<S>(&mut self, register: &Register<S>, index: usize, write: Option<u64>) {
        let addr = register.addr as u32 + index as u32;
        let mask = register.mask(&*self.lookup);
        let write = write.map(|value| value & mask);
        let offset = self.offset(addr);
        let lines = match (self.reach, write) {
            (Reach::Port, None) => vec![format!("PR t{} {addr:#x}", self.thread)],
            (Reach::Port, Some(value)) => vec![format!("PW t{} {addr:#x} {value:#x}", self.thread)],
            (Reach::Bus { data_bits }, write) => {
                let split = data_bits < self.register_bits && mask > u32::MAX as u64;
                let bytes = data_bits / 8;
                match (write, split) {
                    (None, false) => vec![format!("R{bytes} {offset:#x}")],
                    (None, true) => vec![format!("R4 {offset:#x}"), format!("R4 {:#x}", offset + 4)],
                    (Some(value), false) => vec![format!("W{bytes} {offset:#x} {value:#x}")],
                    (Some(value), true) => vec![
                        format!("W4 {:#x} {:#x}", offset + 4, value >> 32),
                        format!("W4 {offset:#x} {:#x}", value & 0xFFFF_FFFF),
                    ],
                }
            }
        };
        self.expected.extend(lines);
    }
    pub fn read<S>(&mut self, register: &Register<S>, index: usize) {
        self.access(register, index, None);
    }
    pub fn write<S>(&mut self, register: &Register<S>, index: usize, value: u64) {
        self.access(register, index, Some(value));
    }
    /// A value the scenario reports.
    pub fn value(&mut self, value: u64) {
        self.expected.push(format!("= {value:#x}"));
    }
}

pub fn low_mask(bits: usize) -> u64 {
    if bits >= 64 {
        u64::MAX
    } else {
        (1 << bits) - 1
    }
}

/// The handle of `driver` on the model, thread `thread` for the PMU.
fn open(driver: &Driver, thread: Option<usize>) -> String {
    let p = driver.prefix();
    let base = if driver.reach == Reach::Port { "(void *)0" } else { "(uintptr_t)model_window" };
    let thread = thread.map(|t| format!(", {t}u")).unwrap_or_default();
    let split = matches!(driver.reach, Reach::Bus { data_bits: 32 }) && matches!(driver.kind, Kind::Pmu(_));
    format!("model_reset({});\n    {p}_t h = {p}_open({base}{thread});", split as u8)
}
