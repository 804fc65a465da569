//! The header word of a trace record and the summary record of the PMU's profile
//! table (docs/pmu.md §15.3): word 0 has [63] NEW_PROCESS, [62:61] thread, [60]
//! SUMMARY and the block address in [47:0]; no flag is defined in bits 59:48. A
//! summary record is K + 2 words: its header, a word with the executions in [63:32]
//! and the pid in [31:0], then the sums S_0 .. S_{K-1}. The decoder
//! ([`super::decode`]) frames records by this header; the totals merge summary
//! records with block records by process and address; [`listing`] is the trace of
//! blocks of a stream that holds summary records (docs/pmu.md §13.6).
use super::decode::DecodeErrorKind;
use super::{column_names, hex_address, render, Line, Record, TraceFormat};

/// Bit 63 of a header: the record carries a pid word (a block record only).
const NEW_PROCESS: u64 = 1 << 63;
/// Bit 60 of a header: a summary record of the profile table.
const SUMMARY: u64 = 1 << 60;
/// Header bits 59:48, where no flag is defined.
const UNKNOWN_FLAGS: u64 = 0xfff << 48;
/// The block address field, bits 47:0.
const ADDRESS: u64 = (1 << 48) - 1;

/// What a header word starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Header {
    /// A block record (docs/pmu.md §13.5), with a pid word when NEW_PROCESS is set.
    Block {
        /// NEW_PROCESS.
        new_process: bool,
    },
    /// A summary record (docs/pmu.md §15.3).
    Summary,
}

/// A header word read: its kind, thread and block address.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Head {
    /// Block or summary record.
    pub kind: Header,
    /// The thread field (checked against T).
    pub thread: usize,
    /// The block address.
    pub address: u64,
}

/// Reads a header word, or says why it is none: a flag bit in 59:48, NEW_PROCESS with
/// SUMMARY, an address bit at or above AW, or a thread >= T.
pub fn header(head: u64, format: &TraceFormat) -> Result<Head, (DecodeErrorKind, String)> {
    let unknown = head & UNKNOWN_FLAGS;
    if unknown != 0 {
        let why = format!(
            "header has unknown flag bits set (mask 0x{unknown:016x}): of bits 63:48 only 63 NEW_PROCESS, 62:61 the \
             thread and 60 SUMMARY are defined (docs/pmu.md §13.5, §15.3)"
        );
        return Err((DecodeErrorKind::ReservedBits, why));
    }
    if head & NEW_PROCESS != 0 && head & SUMMARY != 0 {
        let why = "header has both NEW_PROCESS (bit 63) and SUMMARY (bit 60) set: no record has both (a summary \
                   record carries its pid in its second word, docs/pmu.md §15.3)"
            .to_string();
        return Err((DecodeErrorKind::ReservedBits, why));
    }
    let high = head & ADDRESS & !((1u64 << format.address_width.min(48)) - 1);
    if high != 0 {
        let why = format!(
            "header has reserved bits set (mask 0x{high:016x}): address bits >= the address width {} must be 0",
            format.address_width
        );
        return Err((DecodeErrorKind::ReservedBits, why));
    }
    let thread = ((head >> 61) & 3) as usize;
    if thread >= format.threads {
        let why = format!("header names thread {thread}, but the PMU has {} thread(s)", format.threads);
        return Err((DecodeErrorKind::BadThread, why));
    }
    let kind =
        if head & SUMMARY != 0 { Header::Summary } else { Header::Block { new_process: head & NEW_PROCESS != 0 } };
    Ok(Head { kind, thread, address: head & ADDRESS })
}

/// Number of words in a summary record of `format`: K + 2.
pub fn record_words(format: &TraceFormat) -> usize {
    format.counters + 2
}

/// Whether `word` can start a capture: a NEW_PROCESS header or a summary header, the
/// records whose process a reader knows without what came before (docs/pmu.md §13.6).
pub fn starts_capture(word: u64, format: &TraceFormat) -> bool {
    match header(word, format) {
        Ok(Head { kind: Header::Block { new_process }, .. }) => new_process,
        Ok(Head { kind: Header::Summary, .. }) => true,
        Err(_) => false,
    }
}

/// The executions and the pid of a summary record's second word.
pub fn executions_and_pid(word: u64) -> (u32, u32) {
    ((word >> 32) as u32, word as u32)
}

/// The records of a stream that holds summary records, one row each: a block record
/// (one execution, its pid the process in effect, `-` when unknown) or a summary
/// record (its executions and pid, and the sums over them in the counters' columns).
pub(crate) fn listing(records: &[Record], format: &TraceFormat, names: &[String]) -> String {
    let mut header: Vec<String> =
        ["record", "kind", "thread", "pid", "address", "executions"].map(String::from).to_vec();
    header.extend(column_names(names, format, "v"));
    let lines = records
        .iter()
        .map(|r| {
            let kind = if r.summary.is_some() { "summary" } else { "block" };
            let pid = r.process.map_or("-".to_string(), |p| p.to_string());
            let mut c = vec![r.index.to_string(), kind.to_string(), r.thread.to_string(), pid];
            c.extend([hex_address(r.address, format), r.executions().to_string()]);
            c.extend(r.values.iter().map(|v| v.to_string()));
            Line::Cells(c)
        })
        .collect();
    render(header, lines)
}

#[cfg(test)]
mod tests;
