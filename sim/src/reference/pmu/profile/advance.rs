//! docs/pmu.md §15.4: where the table goes at an edge from each state, with this
//! cycle's handshakes: taking a record's words (the pid word of a NEW_PROCESS record
//! sets the current pid), updating its entry, sending an entry's summary record, and a
//! flush's walk over the entries in index order.
use super::super::block_end::{NEW_PROCESS_BIT, THREAD_SHIFT};
use super::super::trace_queue::StreamWord;
use super::entry::{Entry, Key};
use super::index::{address_mask, index};
use super::state::{IdleChoice, SendCause, State, TakenRecord};
use super::summary::summary_length;
use super::table::ProfileTable;

impl ProfileTable {
    /// The state's move at this edge; returns whether an eviction completed.
    pub(super) fn advance(&mut self, queue: StreamWord, queue_moved: bool, shown_moved: bool) -> bool {
        // A §13 record has at least 2 words (K >= 1), so a first word is never a last.
        self.state = match self.state {
            State::Idle => match self.idle_choice(queue) {
                IdleChoice::StartWalk => State::Walking { entry: 0 },
                // §15.4: passing next, whether the word moves or not.
                IdleChoice::Pass => State::Passing,
                IdleChoice::Take => {
                    self.take_first(queue.data);
                    State::Taking
                }
                IdleChoice::Wait => State::Idle,
            },
            State::Passing if queue_moved && queue.last => State::Idle,
            State::Taking if queue_moved => {
                self.take_word(queue.data);
                if queue.last {
                    State::Updating
                } else {
                    State::Taking
                }
            }
            State::Updating => self.update(),
            State::Sending { entry, word, cause } if shown_moved => {
                if word + 1 < summary_length(self.geometry.counters) {
                    State::Sending { entry, word: word + 1, cause }
                } else {
                    return self.sent(entry, cause);
                }
            }
            State::Walking { entry } if self.entries[entry].valid => {
                State::Sending { entry, word: 0, cause: SendCause::Flush }
            }
            State::Walking { entry } => self.walk_on(entry),
            unchanged => unchanged,
        };
        false
    }

    /// Word 0 moves in: keep the thread, the address and NEW_PROCESS; read the entry.
    fn take_first(&mut self, word: u64) {
        let address = word & address_mask(self.geometry.address_width);
        self.record = Some(TakenRecord {
            thread: (word >> THREAD_SHIFT & 0b11) as usize,
            address,
            new_process: word >> NEW_PROCESS_BIT & 1 == 1,
            index: index(address, self.geometry.entries, self.geometry.address_width),
            words: 1,
            values: Vec::with_capacity(self.geometry.counters),
        });
    }

    /// A later word moves in: the pid word of a NEW_PROCESS record sets the current pid;
    /// the others are V_0 .. V_{K-1}.
    fn take_word(&mut self, word: u64) {
        let record = self.record.as_mut().expect("taking a record");
        if record.new_process && record.words == 1 {
            self.current_pid = word as u32;
        } else {
            record.values.push(word);
        }
        record.words += 1;
    }

    /// The taken record's key: its thread and address with the current pid.
    fn key(&self) -> Key {
        let record = self.record.as_ref().expect("a taken record");
        Key { thread: record.thread, pid: self.current_pid, address: record.address }
    }

    /// §15.4 updating: fill an invalid entry, add to a matching one, or send it first.
    fn update(&mut self) -> State {
        let key = self.key();
        let record = self.record.take().expect("a taken record");
        let entry = &mut self.entries[record.index];
        if !entry.valid {
            *entry = Entry::started(key, &record.values);
        } else if entry.key == key && entry.can_add(&record.values, self.geometry.counter_width) {
            entry.add(&record.values);
        } else {
            let index = record.index;
            self.record = Some(record);
            return State::Sending { entry: index, word: 0, cause: SendCause::Eviction };
        }
        State::Idle
    }

    /// The last word of entry `entry`'s summary record moved: restart it from the
    /// record (an eviction, which counts) or invalidate it and walk on (a flush).
    fn sent(&mut self, entry: usize, cause: SendCause) -> bool {
        match cause {
            SendCause::Eviction => {
                let key = self.key();
                let record = self.record.take().expect("the record that evicted");
                self.entries[entry] = Entry::started(key, &record.values);
                self.state = State::Idle;
                true
            }
            SendCause::Flush => {
                self.entries[entry].valid = false;
                self.state = self.walk_on(entry);
                false
            }
        }
    }

    /// After entry `entry` of a walk: the next entry, or the end of the flush.
    fn walk_on(&mut self, entry: usize) -> State {
        if entry + 1 < self.geometry.entries {
            State::Walking { entry: entry + 1 }
        } else {
            self.flushing = false;
            State::Idle
        }
    }
}
