//! One family's figures for a report: its synthesis, the placement (or, for the xc7,
//! the estimate) on each chosen device, in the pin harness where the core has more
//! ports than the package has pins (and always on Gowin), and the parts synthesized
//! alone.
use anyhow::Result;
use std::collections::BTreeMap;
use std::path::Path;

use super::family::{Device, Family};
use super::fpga::{self, Placement, Synthesis};
use super::{harness, FamilyReport, Options, Subject};
use crate::design::Artifact;

/// What every family of one report run shares.
pub(super) struct Job<'a> {
    /// The design.
    pub subject: &'a dyn Subject,
    /// The run's options.
    pub options: &'a Options,
    /// The (staging) output directory.
    pub dir: &'a Path,
    /// The top module.
    pub top: &'a str,
    /// The generated Verilog.
    pub verilog: &'a Artifact,
    /// Its file name in `dir`.
    pub verilog_file: &'a str,
}

impl Job<'_> {
    /// `family`'s figures.
    pub fn family(&self, family: Family) -> Result<FamilyReport> {
        let (toolchain, top) = (self.options.toolchain, self.top);
        eprintln!("report {top}: yosys {} synthesis ...", family.title());
        let started = std::time::Instant::now();
        let synthesis = fpga::synthesize(toolchain, family, self.dir, self.verilog_file, top, family.key())?;
        let mut harness = None;
        let mut placements = Vec::new();
        let mut parts = BTreeMap::new();
        if self.options.synthesis_only {
            return Ok(FamilyReport { synthesis, placements, parts, seconds: started.elapsed().as_secs_f64() });
        }
        for device in self.options.devices(family) {
            placements.push(match family.nextpnr() {
                None => fpga::estimate(&synthesis, &device),
                Some(_) => self.place(&synthesis, &device, &mut harness)?,
            });
        }
        let blocks = if self.options.blocks { self.subject.blocks() } else { Vec::new() };
        for (label, module) in self.subject.parts().into_iter().chain(blocks) {
            eprintln!("report {top}: yosys {} synthesis of the {label} alone ...", family.title());
            let name = format!("{}-part_{}", family.key(), label.replace(' ', "_"));
            parts.insert(label, fpga::synthesize(toolchain, family, self.dir, self.verilog_file, &module, &name)?);
        }
        Ok(FamilyReport { synthesis, placements, parts, seconds: started.elapsed().as_secs_f64() })
    }

    /// The placement on `device`: the core alone, then in the pin harness (synthesized
    /// once per family into `harness`) where its ports outnumber the pins.
    fn place(&self, synthesis: &Synthesis, device: &Device, harness: &mut Option<String>) -> Result<Placement> {
        let (family, top, options) = (synthesis.family, self.top, self.options);
        let seeds = options.seeds.as_deref().unwrap_or_else(|| self.subject.seeds());
        // nextpnr-himbaechel-gowin places only constrained I/O: the Gowin core is placed
        // (and, unless --no-fmax, timed) in the pin harness, which gives its LUT4s (so
        // --no-fmax does not skip it).
        let harness_only = family == Family::Gowin;
        let mut placement = if harness_only {
            Placement::unplaced(device)
        } else {
            eprintln!("report {top}: nextpnr on the {} ...", device.name);
            fpga::place_seeds(options.toolchain, self.dir, family.key(), device, seeds, options.fmax)?
        };
        let core_fits = placement.logic_cells.is_some_and(|lc| lc <= device.logic_cells);
        if !harness_only && !placement.pin_limited() {
            return Ok(placement);
        }
        if !harness_only && !options.fmax {
            placement.fits = core_fits;
            placement.note = Some(
                "the core has more ports than the package has pins: its logic is nextpnr's packing of it \
                 (the log's error about placing an I/O cell is that); Fmax not measured (--no-fmax)"
                    .to_string(),
            );
            return Ok(placement);
        }
        if harness.is_none() {
            eprintln!("report {top}: more ports than pins; timing in the pin harness ...");
            *harness = Some(self.harness(family)?);
        }
        eprintln!("report {top}: nextpnr on the {} (pin harness) ...", device.name);
        let name = harness.as_deref().unwrap_or_default();
        let timed = fpga::place_seeds(options.toolchain, self.dir, name, device, seeds, options.fmax)?;
        placement.timed_in_harness = true;
        placement.harness_logic_cells = timed.logic_cells;
        placement.fmax_mhz = timed.fmax_mhz;
        placement.fmax_by_seed = timed.fmax_by_seed.clone();
        placement.fits = if harness_only { timed.fits } else { core_fits };
        if harness_only {
            placement.logic_cells = timed.logic_cells;
        }
        placement.note = match (placement.fits, timed.fits) {
            (false, _) => Some(match placement.logic_cells {
                Some(lc) => format!(
                    "does not fit the {}: needs {lc} of its {} {}",
                    device.name,
                    device.logic_cells,
                    family.logic_unit().1
                ),
                None => timed.note.unwrap_or_else(|| format!("does not fit the {}", device.name)),
            }),
            // Untimed (--no-fmax), the harness placement says it was not routed.
            (true, true) => timed.note,
            (true, false) => Some(format!(
                "the core fits; Fmax not measured: the pin harness does not fit ({})",
                timed.note.unwrap_or_default()
            )),
        };
        Ok(placement)
    }

    /// The pin harness around the core, written once and synthesized for `family`:
    /// the synthesized netlist's name.
    fn harness(&self, family: Family) -> Result<String> {
        let path = self.dir.join("harness.v");
        if !path.exists() {
            let ports = self.subject.model().port_list();
            std::fs::write(&path, format!("{}\n{}", self.verilog.text, harness::verilog(self.top, &ports)))?;
        }
        let name = format!("{}-harness", family.key());
        let top = format!("{}_harness", self.top);
        fpga::synthesize(self.options.toolchain, family, self.dir, "harness.v", &top, &name)?;
        Ok(name)
    }
}
