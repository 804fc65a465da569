//! Blocks for a board-level top around the monitor: the two-flip-flop input
//! synchronizer and the 8N1 UART (with its bit timing) of a host link.
pub mod baud;
pub mod board_top;
pub mod host_link;
pub mod synchronizer;
pub mod uart_rx;
pub mod uart_tx;
pub mod word_join;
