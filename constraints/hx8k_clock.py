# nextpnr-ice40 --pre-pack: the HX8K breakout's 12 MHz board clock.
ctx.addClock("clock", 12)
