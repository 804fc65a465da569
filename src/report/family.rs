//! The FPGA families a report measures and their devices: iCE40 (HX8K, UP5K) and
//! ECP5 (LFE5U-25F, -45F, -85F) placed and routed by nextpnr, Gowin (GW1NR-9, the Tang
//! Nano 9K's) by nextpnr-himbaechel, and Xilinx 7-series (xc7a35t) synthesized only.
//! Each family's figures are counted from its own primitives (docs/report.md §1).
use serde::{Deserialize, Serialize};

use crate::toolchain::Tool;

/// An FPGA family.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Family {
    /// Lattice iCE40.
    Ice40,
    /// Lattice ECP5.
    Ecp5,
    /// Gowin LittleBee GW1N.
    Gowin,
    /// Xilinx 7-series (Artix-7).
    Xc7,
}

/// `--family` on the command line: one family or all of them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum FamilyChoice {
    /// iCE40 HX8K and UP5K.
    #[default]
    Ice40,
    /// ECP5 LFE5U-25F, -45F and -85F.
    Ecp5,
    /// Gowin GW1NR-9 (Tang Nano 9K).
    Gowin,
    /// Xilinx 7-series xc7a35t (synthesis only).
    Xc7,
    /// Every family above.
    All,
}

impl FamilyChoice {
    /// The families chosen.
    pub fn families(self) -> Vec<Family> {
        match self {
            FamilyChoice::Ice40 => vec![Family::Ice40],
            FamilyChoice::Ecp5 => vec![Family::Ecp5],
            FamilyChoice::Gowin => vec![Family::Gowin],
            FamilyChoice::Xc7 => vec![Family::Xc7],
            FamilyChoice::All => Family::ALL.to_vec(),
        }
    }
}

/// What a synthesized cell counts as.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Figure {
    /// A look-up table.
    Lut,
    /// A flip-flop.
    FlipFlop,
    /// A carry-chain cell.
    Carry,
    /// A block RAM, in the family's smallest block (the xc7's RAMB36E1 counts two
    /// RAMB18E1).
    Ram(u64),
    /// A multiplier or DSP block.
    Dsp,
}

/// A device and package to place on (or, for the xc7, to hold a synthesis estimate
/// against).
#[derive(Clone, Copy, Debug, Serialize)]
pub struct Device {
    /// Name in reports, e.g. `iCE40-HX8K ct256`.
    pub name: &'static str,
    /// Short name for file names and `--device`, e.g. `hx8k`.
    pub short: &'static str,
    /// The family.
    pub family: Family,
    /// nextpnr's device and package options.
    #[serde(skip)]
    pub options: &'static [&'static str],
    /// The device's logic units ([`Family::logic_unit`]).
    pub logic_cells: u64,
    /// Its block RAMs, in [`Figure::Ram`] units.
    pub ram_blocks: u64,
}

impl Device {
    /// A device: report name, `--device` name, family, nextpnr options, logic units
    /// and block RAMs.
    pub const fn new(
        name: &'static str,
        short: &'static str,
        family: Family,
        options: &'static [&'static str],
        logic_cells: u64,
        ram_blocks: u64,
    ) -> Self {
        Device { name, short, family, options, logic_cells, ram_blocks }
    }
}

/// iCE40-HX8K in the ct256 package (the HX8K breakout board), 7680 logic cells.
pub const HX8K: Device =
    Device::new("iCE40-HX8K ct256", "hx8k", Family::Ice40, &["--hx8k", "--package", "ct256"], 7680, 32);
/// iCE40-UP5K in the sg48 package (iCEBreaker), 5280 logic cells.
pub const UP5K: Device =
    Device::new("iCE40-UP5K sg48", "up5k", Family::Ice40, &["--up5k", "--package", "sg48"], 5280, 30);
/// ECP5 LFE5U-25F in the CABGA256 package (Colorlight i5), 24,288 LUT4s.
pub const LFE5U_25F: Device =
    Device::new("ECP5 LFE5U-25F CABGA256", "lfe5u-25f", Family::Ecp5, &["--25k", "--package", "CABGA256"], 24_288, 56);
/// ECP5 LFE5U-45F in the CABGA381 package (OrangeCrab, ULX3S-45F), 43,848 LUT4s.
pub const LFE5U_45F: Device =
    Device::new("ECP5 LFE5U-45F CABGA381", "lfe5u-45f", Family::Ecp5, &["--45k", "--package", "CABGA381"], 43_848, 108);
/// ECP5 LFE5U-85F in the CABGA381 package (ULX3S-85F), 83,640 LUT4s.
pub const LFE5U_85F: Device =
    Device::new("ECP5 LFE5U-85F CABGA381", "lfe5u-85f", Family::Ecp5, &["--85k", "--package", "CABGA381"], 83_640, 208);
/// Gowin GW1NR-LV9 in the QN88 package (Tang Nano 9K), 8,640 LUT4s.
pub const GW1NR_9: Device = Device::new(
    "Gowin GW1NR-LV9 QN88",
    "gw1nr-9",
    Family::Gowin,
    &["--device", "GW1NR-LV9QN88PC6/I5", "--vopt", "family=GW1N-9C"],
    8_640,
    26,
);
/// Xilinx Artix-7 xc7a35t (Arty A7-35, Basys 3), 20,800 LUT6s; no open place and route.
pub const XC7A35T: Device = Device::new("Xilinx xc7a35t", "xc7a35t", Family::Xc7, &[], 20_800, 100);

/// The xc7a35t's flip-flops and DSP48E1 slices (the estimate checks them too).
pub const XC7A35T_FLIP_FLOPS: u64 = 41_600;
/// The xc7a35t's DSP48E1 slices.
pub const XC7A35T_DSPS: u64 = 90;

/// Every device pmugen reports on.
pub const DEVICES: [Device; 7] = [HX8K, UP5K, LFE5U_25F, LFE5U_45F, LFE5U_85F, GW1NR_9, XC7A35T];

impl Family {
    /// Every family, in report order.
    pub const ALL: [Family; 4] = [Family::Ice40, Family::Ecp5, Family::Gowin, Family::Xc7];

    /// The family's name in reports.
    pub fn title(self) -> &'static str {
        match self {
            Family::Ice40 => "iCE40",
            Family::Ecp5 => "ECP5",
            Family::Gowin => "Gowin GW1N",
            Family::Xc7 => "Xilinx 7-series",
        }
    }

    /// The family's key in file names and flags.
    pub fn key(self) -> &'static str {
        match self {
            Family::Ice40 => "ice40",
            Family::Ecp5 => "ecp5",
            Family::Gowin => "gowin",
            Family::Xc7 => "xc7",
        }
    }

    /// The family's devices.
    pub fn devices(self) -> Vec<Device> {
        DEVICES.iter().copied().filter(|d| d.family == self).collect()
    }

    /// The yosys command that synthesizes `top` into `json` (flattened).
    pub fn synth_command(self, top: &str, json: &str) -> String {
        let pass = self.synth_pass();
        match self {
            Family::Xc7 => format!("{pass} -family xc7 -flatten -top {top}; write_json {json}"),
            _ => format!("{pass} -top {top} -json {json}"),
        }
    }

    /// yosys's synthesis pass for the family.
    pub fn synth_pass(self) -> &'static str {
        match self {
            Family::Ice40 => "synth_ice40",
            Family::Ecp5 => "synth_ecp5",
            Family::Gowin => "synth_gowin",
            Family::Xc7 => "synth_xilinx",
        }
    }

    /// The nextpnr that places the family, if there is an open one.
    pub fn nextpnr(self) -> Option<Tool> {
        match self {
            Family::Ice40 => Some(Tool::NextpnrIce40),
            Family::Ecp5 => Some(Tool::NextpnrEcp5),
            Family::Gowin => Some(Tool::NextpnrGowin),
            Family::Xc7 => None,
        }
    }

    /// nextpnr starts its placer on a design that the device cannot hold:
    /// nextpnr-ice40 and nextpnr-ecp5 stop at once when the packed design needs more
    /// cells than the device has, nextpnr-himbaechel-gowin searches until it gives up
    /// (most of a minute on the default PMU), so its packing is checked first.
    pub fn places_beyond_capacity(self) -> bool {
        self == Family::Gowin
    }

    /// nextpnr's name for the family's logic unit in its utilisation, and what the
    /// report calls it.
    pub fn logic_unit(self) -> (&'static str, &'static str) {
        match self {
            Family::Ice40 => ("ICESTORM_LC", "logic cells"),
            Family::Ecp5 => ("TRELLIS_COMB", "LUT4s (TRELLIS_COMB)"),
            Family::Gowin => ("LUT4", "LUT4s"),
            Family::Xc7 => ("", "LUT6s (estimate)"),
        }
    }

    /// The column heads of the five figures, named by the family's primitives.
    pub fn figure_heads(self) -> [&'static str; 5] {
        match self {
            Family::Ice40 => ["SB_LUT4", "SB_DFF*", "SB_CARRY", "SB_RAM40_4K", "SB_MAC16"],
            Family::Ecp5 => ["LUT4", "TRELLIS_FF", "CCU2C", "DP16KD", "MULT18X18D"],
            Family::Gowin => ["LUT1–LUT4", "DFF*", "ALU", "BSRAM", "MULT*"],
            Family::Xc7 => ["LUT1–LUT6", "FD*", "CARRY4", "RAMB18E1 (RAMB36E1 = 2)", "DSP48E1"],
        }
    }

    /// What a cell of type `cell` in the family's synthesized netlist counts as.
    pub fn figure(self, cell: &str) -> Option<Figure> {
        let lut_n = |prefix: &str, max: u8| {
            cell.strip_prefix(prefix).and_then(|n| n.parse::<u8>().ok()).is_some_and(|n| (1..=max).contains(&n))
        };
        match self {
            Family::Ice40 => match cell {
                "SB_LUT4" => Some(Figure::Lut),
                "SB_CARRY" => Some(Figure::Carry),
                "SB_MAC16" => Some(Figure::Dsp),
                c if c.starts_with("SB_DFF") => Some(Figure::FlipFlop),
                c if c.starts_with("SB_RAM40_4K") => Some(Figure::Ram(1)),
                _ => None,
            },
            Family::Ecp5 => match cell {
                "LUT4" => Some(Figure::Lut),
                "TRELLIS_FF" => Some(Figure::FlipFlop),
                "CCU2C" => Some(Figure::Carry),
                "DP16KD" | "PDPW16KD" => Some(Figure::Ram(1)),
                "MULT18X18D" | "ALU54B" => Some(Figure::Dsp),
                _ => None,
            },
            Family::Gowin => match cell {
                _ if lut_n("LUT", 4) => Some(Figure::Lut),
                "ALU" => Some(Figure::Carry),
                "SP" | "SPX9" | "SDP" | "SDPB" | "SDPX9B" | "DP" | "DPB" | "DPX9B" | "pROM" | "pROMX9" => {
                    Some(Figure::Ram(1))
                }
                c if c.starts_with("DFF") => Some(Figure::FlipFlop),
                c if c.starts_with("MULT") || c.starts_with("PADD") => Some(Figure::Dsp),
                _ => None,
            },
            Family::Xc7 => match cell {
                _ if lut_n("LUT", 6) => Some(Figure::Lut),
                "FDRE" | "FDSE" | "FDCE" | "FDPE" => Some(Figure::FlipFlop),
                "CARRY4" => Some(Figure::Carry),
                "RAMB18E1" => Some(Figure::Ram(1)),
                "RAMB36E1" => Some(Figure::Ram(2)),
                "DSP48E1" => Some(Figure::Dsp),
                _ => None,
            },
        }
    }
}

/// The device whose `--device` name is `short`, or an error listing them.
pub fn device(short: &str) -> anyhow::Result<Device> {
    DEVICES.iter().copied().find(|d| d.short == short).ok_or_else(|| {
        let names: Vec<&str> = DEVICES.iter().map(|d| d.short).collect();
        anyhow::anyhow!(
            "unknown device `{short}`; the devices are {} (boards: ulx3s = lfe5u-85f, iCEBreaker = up5k, \
             HX8K breakout = hx8k, Tang Nano 9K = gw1nr-9, Arty A7-35 and Basys 3 = xc7a35t)",
            names.join(", ")
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_family_counts_its_own_primitives() {
        assert_eq!(Family::Ice40.figure("SB_DFFESR"), Some(Figure::FlipFlop));
        assert_eq!(Family::Ice40.figure("LUT4"), None, "an ECP5 LUT is not an iCE40 one");
        assert_eq!(Family::Ecp5.figure("LUT4"), Some(Figure::Lut));
        assert_eq!(Family::Ecp5.figure("PFUMX"), None, "a wide-function mux is not a LUT");
        assert_eq!(Family::Gowin.figure("LUT3"), Some(Figure::Lut));
        assert_eq!(Family::Gowin.figure("LUT5"), None);
        assert_eq!(Family::Gowin.figure("MUX2_LUT5"), None);
        assert_eq!(Family::Xc7.figure("LUT6"), Some(Figure::Lut));
        assert_eq!(Family::Xc7.figure("RAMB36E1"), Some(Figure::Ram(2)));
        assert_eq!(Family::Xc7.figure("$scopeinfo"), None);
        assert!(device("lfe5u-85f").is_ok());
        let error = device("lfe5u-12f").unwrap_err().to_string();
        assert!(error.contains("lfe5u-12f") && error.contains("lfe5u-85f"), "{error}");
    }
}
