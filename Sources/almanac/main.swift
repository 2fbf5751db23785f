// Entry point: parse the command line and hand over to the Almanac module.
print("almanac: not wired yet")
