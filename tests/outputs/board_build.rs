//! The three bitstreams build with the open-source flow and meet timing at the
//! board clock; the board top's Verilog is lint clean. Here the check of board names;
//! the builds are in tests/long/board_build.rs.
use pmugen::build;

#[test]
fn unknown_board_lists_the_boards() {
    assert_eq!(
        build::board("arty").unwrap_err().to_string(),
        "unknown board `arty`; known boards: icebreaker, hx8k, ulx3s"
    );
}
