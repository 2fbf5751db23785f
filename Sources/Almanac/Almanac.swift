// Almanac module: see ../shared/DESIGN.md. Filled in by its issue.
