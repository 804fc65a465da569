//! The adapter's native evaluation at each rising edge: each hart's blocks evaluated in
//! signal order from this cycle's inputs and the registers (reader, classifier, kernel
//! rule, block tracker), the register stage's next values collected, then the blocks and the
//! register stage take the edge. The connections are those of `wiring.rs`.
use rust_hdl::prelude::*;

use super::{RvfiAdapter, Shape};
use crate::schedule::{clock_edge as block_edge, evaluate, put, put_words};

/// The rising edge: each hart's blocks evaluated in signal order from this cycle's
/// inputs and the registers, then the register stage and the blocks take the edge.
pub(super) fn clock_edge(adapter: &mut RvfiAdapter) {
    let Shape { harts, .. } = adapter.shape.0;
    let reset = adapter.reset.val();
    let mut next = adapter.reset_outputs();
    for t in 0..harts {
        let r = adapter.rvfi.hart(t);
        let reader = &mut adapter.readers[t];
        put(&mut reader.reset, reset);
        put(&mut reader.valid, r.valid);
        put(&mut reader.insn, (r.insn as u64).to_bits());
        put(&mut reader.trap, r.trap);
        put(&mut reader.intr, r.intr);
        put_words(&mut reader.pc_rdata, &[r.pc_rdata]);
        put_words(&mut reader.pc_wdata, &[r.pc_wdata]);
        put_words(&mut reader.mem_rmask, &[r.mem_rmask as u64]);
        evaluate(reader);
        let (reader, classifier) = (&adapter.readers[t], &mut adapter.classifiers[t]);
        let valid = reader.read_valid.next;
        put(&mut classifier.valid, valid);
        put(&mut classifier.insn, (r.insn as u64).to_bits());
        put(&mut classifier.trap, reader.read_trap.next);
        put(&mut classifier.intr, reader.read_intr.next);
        put_words(&mut classifier.pc_rdata, &[r.pc_rdata]);
        put_words(&mut classifier.pc_wdata, &[reader.read_pc_wdata.get()]);
        put_words(&mut classifier.mem_rmask, &[reader.read_rmask.get()]);
        put_words(&mut classifier.mem_wmask, &[r.mem_wmask as u64]);
        evaluate(classifier);
        let (classifier, kernel) = (&adapter.classifiers[t], &mut adapter.kernels[t]);
        put(&mut kernel.reset, reset);
        put(&mut kernel.valid, valid);
        put(&mut kernel.intr, reader.read_intr.next);
        put(&mut kernel.mode, (r.mode as u64).to_bits());
        put(&mut kernel.handler_return, classifier.handler_return.next);
        put(&mut kernel.last, adapter.outputs.0.kernel[t]);
        evaluate(kernel);
        let tracker = &mut adapter.trackers[t];
        put(&mut tracker.reset, reset);
        put(&mut tracker.valid, valid);
        put(&mut tracker.kernel, kernel.kernel.next);
        put(&mut tracker.ends_block, classifier.ends_block.next);
        put_words(&mut tracker.pc_rdata, &[r.pc_rdata]);
        evaluate(tracker);
        next.events[t] = classifier.events.next.index() as u16;
        next.kernel[t] = kernel.kernel.next;
        next.bb_end[t] = tracker.bb_end.next;
        next.bb_addr[t] = tracker.bb_addr.get();
    }
    for t in 0..harts {
        block_edge(&mut adapter.readers[t], |b| &mut b.clock);
        block_edge(&mut adapter.kernels[t], |b| &mut b.clock);
        block_edge(&mut adapter.trackers[t], |b| &mut b.clock);
    }
    adapter.outputs.0 = if reset { adapter.reset_outputs() } else { next };
}
