//! The RVFI adapter's parameters besides T and AW: the core's XLEN (`--xlen`), the
//! rule that decides when a hart runs in the kernel (`--kernel`) and the core whose
//! RVFI it reads (`--core`, docs/soc.md §1.7).
use std::fmt;
use std::str::FromStr;

/// The core's register width: the width of `rvfi_pc_*` (XLEN) and `rvfi_mem_*mask`
/// (XLEN/8), and whether the compressed encoding of C.JAL is C.JAL (RV32) or C.ADDIW
/// (RV64).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Xlen {
    /// RV32.
    #[default]
    Rv32,
    /// RV64.
    Rv64,
}

impl Xlen {
    /// XLEN in bits.
    pub fn bits(self) -> usize {
        match self {
            Xlen::Rv32 => 32,
            Xlen::Rv64 => 64,
        }
    }

    /// Bits of a memory mask: XLEN/8.
    pub fn mask_bits(self) -> usize {
        self.bits() / 8
    }
}

impl FromStr for Xlen {
    type Err = String;
    fn from_str(text: &str) -> Result<Self, String> {
        match text.trim() {
            "32" => Ok(Xlen::Rv32),
            "64" => Ok(Xlen::Rv64),
            other => Err(format!("--xlen = '{other}' is not a RISC-V XLEN; allowed: 32 or 64")),
        }
    }
}

impl fmt::Display for Xlen {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.bits())
    }
}

/// How the adapter decides that a hart runs in the kernel (ring 0).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum KernelRule {
    /// A retirement is in the kernel when `rvfi_mode` != 0 (S or M mode).
    #[default]
    Mode,
    /// For cores that run in machine mode only (PicoRV32): from the first instruction
    /// of a handler (`rvfi_intr`) through its return (MRET or `retirq`), inclusive.
    Handler,
}

impl KernelRule {
    /// The value of `--kernel` that selects it.
    pub fn flag_value(self) -> &'static str {
        match self {
            KernelRule::Mode => "mode",
            KernelRule::Handler => "handler",
        }
    }
}

impl FromStr for KernelRule {
    type Err = String;
    fn from_str(text: &str) -> Result<Self, String> {
        match text.trim() {
            "mode" => Ok(KernelRule::Mode),
            "handler" => Ok(KernelRule::Handler),
            other => Err(format!("--kernel = '{other}' is not a kernel rule; allowed: mode or handler")),
        }
    }
}

impl fmt::Display for KernelRule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.flag_value())
    }
}

/// The core whose RVFI the adapter reads (docs/soc.md §1.7).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Core {
    /// RVFI as riscv-formal defines it.
    #[default]
    Generic,
    /// PicoRV32: ECALL and EBREAK trap though `rvfi_trap` = 0.
    Picorv32,
    /// SERV: no `rvfi_intr`; an interrupt shows as a trapping retirement of the
    /// instruction it stopped.
    Serv,
    /// Ibex: `rvfi_mem_rmask` on every retirement; a trapping instruction's next
    /// address is not the handler's.
    Ibex,
}

impl Core {
    /// Every core, `generic` first.
    pub const ALL: [Core; 4] = [Core::Generic, Core::Picorv32, Core::Serv, Core::Ibex];

    /// The value of `--core`.
    pub fn flag_value(self) -> &'static str {
        match self {
            Core::Generic => "generic",
            Core::Picorv32 => "picorv32",
            Core::Serv => "serv",
            Core::Ibex => "ibex",
        }
    }

    /// The kernel rule without `--kernel`: `handler` for the machine-mode-only cores.
    pub fn default_kernel_rule(self) -> KernelRule {
        match self {
            Core::Picorv32 | Core::Serv => KernelRule::Handler,
            Core::Generic | Core::Ibex => KernelRule::Mode,
        }
    }
}

impl FromStr for Core {
    type Err = String;
    fn from_str(text: &str) -> Result<Self, String> {
        let text = text.trim();
        Core::ALL.into_iter().find(|core| core.flag_value() == text).ok_or_else(|| {
            format!("--core = '{text}' is not a core the adapter knows; allowed: picorv32, serv, ibex or generic")
        })
    }
}

impl fmt::Display for Core {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.flag_value())
    }
}

/// The adapter's options as `generate` takes them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct RvfiOptions {
    /// `--xlen`.
    pub xlen: Xlen,
    /// `--kernel`.
    pub kernel_rule: KernelRule,
    /// `--core`.
    pub core: Core,
}

impl RvfiOptions {
    /// The options for `core` with its default kernel rule and `xlen`.
    pub fn for_core(core: Core, xlen: Xlen) -> Self {
        Self { xlen, kernel_rule: core.default_kernel_rule(), core }
    }

    /// The flags that select these options after `--rvfi` (the defaults left out).
    pub fn flags(&self) -> String {
        let mut flags = String::new();
        if self.core != Core::default() {
            flags += &format!(" --core {}", self.core);
        }
        if self.kernel_rule != self.core.default_kernel_rule() {
            flags += &format!(" --kernel {}", self.kernel_rule);
        }
        if self.xlen != Xlen::default() {
            flags += &format!(" --xlen {}", self.xlen);
        }
        flags
    }

    /// What the options add to a `_rvfi` top's name (docs/soc.md §1.5): `_<core>` unless
    /// generic, `_handler` or `_mode` when the kernel rule is not the core's default
    /// (PMU only: `with_kernel`), `_x64` for RV64. Every option that changes the Verilog
    /// is in the name, so any two configurations can live in one design.
    pub fn name_suffix(&self, with_kernel: bool) -> String {
        let mut suffix = String::new();
        if self.core != Core::default() {
            suffix += &format!("_{}", self.core);
        }
        if with_kernel && self.kernel_rule != self.core.default_kernel_rule() {
            suffix += &format!("_{}", self.kernel_rule);
        }
        if self.xlen != Xlen::default() {
            suffix += &format!("_x{}", self.xlen);
        }
        suffix
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flag_values_parse_back_and_bad_ones_name_the_flag() {
        for xlen in [Xlen::Rv32, Xlen::Rv64] {
            assert_eq!(xlen.to_string().parse::<Xlen>(), Ok(xlen));
        }
        for rule in [KernelRule::Mode, KernelRule::Handler] {
            assert_eq!(rule.to_string().parse::<KernelRule>(), Ok(rule));
        }
        assert_eq!("128".parse::<Xlen>().unwrap_err(), "--xlen = '128' is not a RISC-V XLEN; allowed: 32 or 64");
        assert_eq!(
            "machine".parse::<KernelRule>().unwrap_err(),
            "--kernel = 'machine' is not a kernel rule; allowed: mode or handler"
        );
        let options = RvfiOptions { xlen: Xlen::Rv64, kernel_rule: KernelRule::Handler, core: Core::Generic };
        assert_eq!(options.flags(), " --kernel handler --xlen 64");
        assert_eq!(options.name_suffix(true), "_handler_x64");
        assert_eq!(options.name_suffix(false), "_x64");
        assert_eq!(RvfiOptions::default().flags(), "");
        assert_eq!(RvfiOptions::default().name_suffix(true), "");
        let serv = RvfiOptions::for_core(Core::Serv, Xlen::Rv32);
        assert_eq!((serv.flags(), serv.name_suffix(true)), (" --core serv".to_string(), "_serv".to_string()));
        let ibex_handler =
            RvfiOptions { kernel_rule: KernelRule::Handler, ..RvfiOptions::for_core(Core::Ibex, Xlen::Rv32) };
        assert_eq!(ibex_handler.flags(), " --core ibex --kernel handler");
        assert_eq!(ibex_handler.name_suffix(true), "_ibex_handler");
        for core in Core::ALL {
            assert_eq!(core.to_string().parse::<Core>(), Ok(core));
        }
        assert_eq!(
            "vexriscv".parse::<Core>().unwrap_err(),
            "--core = 'vexriscv' is not a core the adapter knows; allowed: picorv32, serv, ibex or generic"
        );
    }
}
