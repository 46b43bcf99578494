import multiprocessing

from reviewapp.cli import main

# In a bundle, a child process (the trace reader) starts this same executable; this runs the child's work and exits.
multiprocessing.freeze_support()
raise SystemExit(main())
