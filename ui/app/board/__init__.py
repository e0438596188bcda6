"""The board: one widget that draws and animates every mode (``widget``, ``motion``),
and the small input handlers of the three kinds of controls on top of it (``slide``,
``chain``, ``place``), with what comes next drawn beside it (``upcoming``)."""
