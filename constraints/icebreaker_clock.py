# nextpnr-ice40 --pre-pack: the iCEBreaker's 12 MHz board clock.
ctx.addClock("clock", 12)
