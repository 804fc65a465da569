//! One job's result (docs/report.md §8.3): which job, how it ended, and the area and
//! speed figures its report measured. Job result files and `results.json` hold these.
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

use super::{Inputs, Job, JobId};
use crate::report::Report;

/// How a job ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    /// The report ran and met the design's budget.
    Ok,
    /// The report failed (its exit status is in the message, its output in the log).
    Failed,
    /// The job was stopped at the sweep's `--timeout`.
    TimedOut,
    /// No result of the job's inputs: not run (yet), still running, or killed
    /// before it could write one (e.g. by Slurm at its time limit).
    Missing,
}

impl Status {
    /// The word tables use.
    pub fn text(self) -> &'static str {
        match self {
            Status::Ok => "ok",
            Status::Failed => "failed",
            Status::TimedOut => "timed out",
            Status::Missing => "missing",
        }
    }
}

/// One job's result.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Record {
    /// The job's name, design, parameters and place.
    #[serde(flatten)]
    pub id: JobId,
    /// How the job ended.
    pub status: Status,
    /// All flip-flop bits of the design (the budget's count).
    pub flip_flops: Option<usize>,
    /// Flip-flop bits per budget group.
    #[serde(default)]
    pub flip_flop_groups: BTreeMap<String, usize>,
    /// LUTs of the family's synthesis (its own LUT primitives).
    pub luts: Option<u64>,
    /// Flip-flop cells of the family's synthesis.
    pub synthesis_flip_flops: Option<u64>,
    /// Carry cells.
    pub carries: Option<u64>,
    /// Block RAMs (the family's unit).
    pub ram_blocks: Option<u64>,
    /// Multiplier and DSP blocks.
    pub dsps: Option<u64>,
    /// Packed logic on the device (the family's logic unit).
    pub logic_cells: Option<u64>,
    /// The device's logic units.
    pub logic_cells_available: Option<u64>,
    /// Placed and routed on the device (the xc7: the synthesis estimate fits).
    pub fits: Option<bool>,
    /// Packed, but nextpnr did not finish routing within its time limit.
    #[serde(default)]
    pub not_routed: bool,
    /// Fmax of `clock` with the job's seed, MHz.
    pub fmax_mhz: Option<f64>,
    /// Fmax was measured in the pin harness.
    #[serde(default)]
    pub timed_in_harness: bool,
    /// Wall-clock seconds the job took.
    pub seconds: f64,
    /// The job's log, relative to the sweep directory.
    pub log: String,
    /// Why the job failed or is missing, with the log's last lines.
    pub message: Option<String>,
    /// What the result is of.
    pub inputs: Inputs,
}

impl std::ops::Deref for Record {
    type Target = JobId;
    fn deref(&self) -> &JobId {
        &self.id
    }
}

impl Record {
    /// `job`'s record with status `status` and no figures.
    pub fn empty(job: &Job, status: Status, log: String) -> Self {
        Record {
            id: job.id.clone(),
            status,
            flip_flops: None,
            flip_flop_groups: BTreeMap::new(),
            luts: None,
            synthesis_flip_flops: None,
            carries: None,
            ram_blocks: None,
            dsps: None,
            logic_cells: None,
            logic_cells_available: None,
            fits: None,
            not_routed: false,
            fmax_mhz: None,
            timed_in_harness: false,
            seconds: 0.0,
            log,
            message: None,
            inputs: job.inputs.clone(),
        }
    }

    /// `job`'s record of its `report`: the job's family, on its device.
    pub fn from_report(job: &Job, report: &Report, log: String) -> Self {
        let mut record = Record::empty(job, Status::Ok, log);
        record.flip_flops = Some(report.total_flip_flops);
        record.flip_flop_groups = report.flip_flops.clone();
        if let Some(figures) = report.family(job.family) {
            let s = &figures.synthesis;
            (record.luts, record.synthesis_flip_flops, record.carries) =
                (Some(s.luts), Some(s.flip_flops), Some(s.carries));
            (record.ram_blocks, record.dsps) = (Some(s.ram_blocks), Some(s.dsps));
            if let Some(p) = figures.placements.first() {
                record.logic_cells = p.logic_cells;
                record.logic_cells_available = Some(p.logic_cells_available);
                record.fits = Some(p.fits);
                record.not_routed = p.not_routed;
                record.fmax_mhz = p.fmax_mhz;
                record.timed_in_harness = p.timed_in_harness;
            }
        }
        record
    }
}
