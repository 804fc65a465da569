//! The RVFI adapter's parameters besides T and AW: the core's XLEN (`--xlen`) and the
//! rule that decides when a hart runs in the kernel (`--kernel`).
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

/// The adapter's options as `generate` takes them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct RvfiOptions {
    /// `--xlen`.
    pub xlen: Xlen,
    /// `--kernel`.
    pub kernel_rule: KernelRule,
}

impl RvfiOptions {
    /// The flags that select these options after `--rvfi` (the defaults left out).
    pub fn flags(&self) -> String {
        let mut flags = String::new();
        if self.kernel_rule != KernelRule::default() {
            flags += &format!(" --kernel {}", self.kernel_rule);
        }
        if self.xlen != Xlen::default() {
            flags += &format!(" --xlen {}", self.xlen);
        }
        flags
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
        let options = RvfiOptions { xlen: Xlen::Rv64, kernel_rule: KernelRule::Handler };
        assert_eq!(options.flags(), " --kernel handler --xlen 64");
        assert_eq!(RvfiOptions::default().flags(), "");
    }
}
