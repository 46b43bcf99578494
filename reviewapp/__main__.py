import sys

from reviewapp.cli import main

if getattr(sys, "frozen", False):
    # In a bundle, a child process (the trace reader) starts this same executable; this runs the child's work and
    # exits. Only a frozen program needs it, so a command at a terminal does not import multiprocessing for it.
    import multiprocessing

    multiprocessing.freeze_support()
raise SystemExit(main())
