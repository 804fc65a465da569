//! The host side of the board link: protocol, names, client, and transports.
pub mod client;
pub mod command;
pub mod names;
pub mod protocol;
pub mod serial;
pub mod simulated;
