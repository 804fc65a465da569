//! A serial port as the transport to a real board.
use anyhow::{Context, Result};
use std::io::{Read, Write};
use std::time::Duration;

use super::client::Transport;

/// How long `receive` waits for a byte.
const TIMEOUT: Duration = Duration::from_secs(2);

/// The board's UART seen through a serial port (8N1).
pub struct SerialTransport {
    port: Box<dyn serialport::SerialPort>,
}

impl SerialTransport {
    /// Open `path` at `baud`, 8N1, or fail naming the port.
    pub fn open(path: &str, baud: u32) -> Result<Self> {
        let port = serialport::new(path, baud)
            .data_bits(serialport::DataBits::Eight)
            .parity(serialport::Parity::None)
            .stop_bits(serialport::StopBits::One)
            .timeout(TIMEOUT)
            .open()
            .with_context(|| format!("cannot open serial port {path} at {baud} baud (is the board plugged in, and is {path} the right device?)"))?;
        Ok(Self { port })
    }
}

impl Transport for SerialTransport {
    fn send(&mut self, bytes: &[u8]) -> Result<()> {
        self.port.write_all(bytes).context("writing to the serial port")?;
        self.port.flush().context("flushing the serial port")
    }

    fn receive(&mut self) -> Result<u8> {
        let mut byte = [0u8];
        self.port
            .read_exact(&mut byte)
            .with_context(|| format!("no answer from the board within {} s", TIMEOUT.as_secs()))?;
        Ok(byte[0])
    }
}
