//! `pmugen host`: register access, order setting, window commands and decoded frames
//! on a board built by `pmugen build`, over its serial port.
use anyhow::{bail, Result};
use clap::Subcommand;

use pmugen_hdl::board::board_top::frame_bytes;
use pmugen_hdl::monitor::regmap;
use pmugen_hdl::params::MonitorParams;

use super::{client::Client, names, protocol, serial::SerialTransport};

/// What `pmugen host` does.
#[derive(Subcommand)]
pub enum HostAction {
    /// Read a register by name (`COUNT`, `ORDER[2]`) or address (`0x04`).
    Read { register: String },
    /// Write a register by name or address.
    Write { register: String, value: String },
    /// Set the order of events, patent numbering: `E3=1,E1=2,E7=3` (other events keep theirs).
    Order { orders: String },
    /// Open the counting window.
    Open,
    /// Close the counting window.
    Close,
    /// Read COUNT and STATUS.
    Count,
    /// Enable the serial frames and print decoded frames.
    Frames {
        /// How many frames.
        #[arg(long, default_value = "1")]
        count: u32,
    },
}

fn parse_value(text: &str) -> Result<u32> {
    let parsed = match text.strip_prefix("0x") {
        Some(hex) => u32::from_str_radix(hex, 16),
        None => text.parse(),
    };
    parsed.map_err(|_| anyhow::anyhow!("value `{text}` is not a 32-bit number (decimal or 0x hex)"))
}

/// Run one `pmugen host` action on the board at `port`. Everything the user typed is
/// checked before the port is opened.
pub fn run(port: &str, baud: u32, action: HostAction) -> Result<()> {
    let params = MonitorParams {
        events: crate::build::BOARD_EVENTS,
        order_width: crate::build::BOARD_ORDER_WIDTH,
        options: Default::default(),
    };
    // Check what the user typed before touching the port.
    let register = |name: &str| names::register_address(name, params.events).map_err(anyhow::Error::msg);
    let (mut action_orders, mut address, mut value) = (Vec::new(), 0u8, 0u32);
    match &action {
        HostAction::Order { orders } => {
            action_orders = names::parse_orders(orders, params).map_err(anyhow::Error::msg)?
        }
        HostAction::Read { register: name } => address = register(name)?,
        HostAction::Write { register: name, value: text } => (address, value) = (register(name)?, parse_value(text)?),
        _ => {}
    }
    let frame_bytes = frame_bytes(params.events);
    let mut client = Client::new(SerialTransport::open(port, baud)?, frame_bytes);
    let id = client.read(regmap::ID.addr)?;
    if id != regmap::id_value(params.events, params.order_width) {
        bail!("the board answered ID = {id:#010x}, expected {:#010x} (N=8, W=3)", regmap::id_value(8, 3));
    }
    match action {
        HostAction::Read { register: name } => {
            println!("{name} (0x{address:02x}) = {:#010x}", client.read(address)?);
        }
        HostAction::Write { register: name, .. } => {
            client.write(address, value)?;
            println!("{name} (0x{address:02x}) <- {value:#010x}");
        }
        HostAction::Order { .. } => {
            for (event, order) in action_orders {
                client.write(regmap::ORDER.addr + event as u8, order)?;
                println!("ORDER[{event}] (E{}) <- {order}", event + 1);
            }
        }
        HostAction::Open => client.write(regmap::CMD.addr, regmap::mask(&regmap::CMD_OPEN_WINDOW, 8, 3))?,
        HostAction::Close => client.write(regmap::CMD.addr, regmap::mask(&regmap::CMD_CLOSE_WINDOW, 8, 3))?,
        HostAction::Count => {
            println!("COUNT  = {}", client.read(regmap::COUNT.addr)?);
            println!("STATUS = {:#05b} (OVERFLOW, MATCHED, WINDOW)", client.read(regmap::STATUS.addr)?);
        }
        HostAction::Frames { count } => {
            let ctrl = client.read(regmap::CTRL.addr)?;
            client.write(regmap::CTRL.addr, ctrl | regmap::mask(&regmap::CTRL_SERIAL_EN, 8, 3))?;
            for _ in 0..count {
                print!("{}", protocol::decode_frame(&client.frame()?, params.events).table());
            }
        }
    }
    Ok(())
}
