//! The profile table's rising edge in its Rust twin: every register and the RAM take
//! their next values (docs/pmu.md §15.4), from this cycle's registers and inputs.
use super::table::{Phase, ProfileTable};
use super::Entry;
use crate::dyn_signal::low_mask;

impl ProfileTable {
    /// The edge.
    pub(super) fn step(&mut self) {
        let shape = self.shape.0;
        let cycle = self.cycle();
        let moves = self.in_valid.val() && cycle.in_ready;
        let leaves = moves && self.in_last.val();
        let sent_last = cycle.out.0 && cycle.out.2 && self.ready.val();
        let (fresh, added) = self.entries_for_record();
        let (wdata, ctrl_write) = (self.wdata.get(), self.ctrl_write.val());
        let (in_data, accepted, evicted_write) = (self.in_data.get(), self.accepted.val(), self.evicted_write.val());
        let walk_due = self.state.0.flushing && self.state.0.pending == 0;
        let state = &mut self.state.0;
        if self.reset.val() {
            let memory = std::mem::take(&mut state.memory);
            let read_data = state.read_data.clone();
            *state = super::table::TableState {
                values: vec![0; shape.counters],
                clearing: true,
                memory,
                read_data,
                ..Default::default()
            };
            return;
        }
        let last_index = shape.entries - 1;
        let invalid = Entry { sums: vec![0; shape.counters], ..Default::default() };
        // The queue's records after this edge; a flush that starts here lets them go first.
        let records =
            (state.records + accepted as usize).wrapping_sub(leaves as usize) & low_mask(shape.count_bits()) as usize;
        let starts_flush = ctrl_write && wdata >> 1 & 1 == 1 && !state.flushing;
        let clearing = state.clearing;
        let mut evicted_now = false;
        let mut ends_flush = false;
        let mut read: Option<usize> = None;
        let mut write: Option<(usize, Entry)> = None;
        if state.clearing {
            write = Some((state.index, invalid.clone()));
            state.clearing = state.index != last_index;
            state.index = (state.index + 1) & last_index;
        }
        match state.phase {
            Phase::Idle if walk_due => {
                if !clearing {
                    read = Some(0);
                    state.index = 0;
                    state.phase = Phase::Walking;
                }
            }
            Phase::Idle if self.in_valid.val() && !state.summarize => {
                state.phase = if leaves { Phase::Idle } else { Phase::Passing };
            }
            Phase::Idle if moves => {
                state.thread = in_data >> 61 & low_mask(shape.thread_bits());
                state.address = in_data & low_mask(shape.address_width);
                state.new_process = in_data >> 63 == 1;
                state.index = shape.index(state.address);
                read = Some(state.index);
                state.word = 1;
                state.phase = Phase::Taking;
            }
            Phase::Idle => {}
            Phase::Passing if leaves => state.phase = Phase::Idle,
            Phase::Passing => {}
            Phase::Taking if moves => {
                let counter = state.word.wrapping_sub(1 + state.new_process as usize);
                if state.new_process && state.word == 1 {
                    state.pid = in_data & low_mask(32);
                } else if counter < shape.counters {
                    state.values[counter] = in_data & low_mask(shape.counter_width);
                }
                state.word = (state.word + 1) & low_mask(shape.word_bits()) as usize;
                if leaves {
                    state.phase = Phase::Updating;
                }
            }
            Phase::Taking => {}
            Phase::Updating => match added {
                Some(entry) => {
                    write = Some((state.index, entry));
                    state.phase = Phase::Idle;
                }
                None if !state.read_data.valid => {
                    write = Some((state.index, fresh.clone()));
                    state.phase = Phase::Idle;
                }
                None => (state.word, state.phase) = (0, Phase::Evicting),
            },
            Phase::Evicting | Phase::Flushing if !self.ready.val() => {}
            Phase::Evicting if sent_last => {
                write = Some((state.index, fresh));
                evicted_now = true;
                state.phase = Phase::Idle;
            }
            Phase::Flushing if sent_last => {
                write = Some((state.index, invalid));
                state.phase = next_entry(state, last_index, &mut read, &mut ends_flush);
            }
            Phase::Evicting | Phase::Flushing => state.word += 1,
            Phase::Walking if state.read_data.valid => (state.word, state.phase) = (0, Phase::Flushing),
            Phase::Walking => state.phase = next_entry(state, last_index, &mut read, &mut ends_flush),
        }
        // The registered read sees the RAM before this edge's write (never the same entry).
        if let Some(index) = read {
            state.read_data = state.memory[index].clone();
        }
        if let Some((index, entry)) = write {
            state.memory[index] = entry;
        }
        if ctrl_write {
            state.summarize = wdata & 1 == 1;
        }
        state.pending = if starts_flush { records } else { state.pending - (leaves && state.pending != 0) as usize };
        state.flushing = starts_flush || (state.flushing && !ends_flush);
        state.records = records;
        state.evicted = if evicted_write {
            evicted_now as u64
        } else {
            state.evicted + (evicted_now && state.evicted != low_mask(32)) as u64
        };
    }
}

/// After entry `index` of a walk: read the next one, or end the flush after the last.
fn next_entry(
    state: &mut super::table::TableState,
    last_index: usize,
    read: &mut Option<usize>,
    ends_flush: &mut bool,
) -> Phase {
    if state.index == last_index {
        *ends_flush = true;
        Phase::Idle
    } else {
        state.index += 1;
        *read = Some(state.index);
        Phase::Walking
    }
}
