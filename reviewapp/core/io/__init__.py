"""Files, paths, git and untrusted bytes: the ground everything else stands on."""
