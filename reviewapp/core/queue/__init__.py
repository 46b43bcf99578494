"""Judging many logbooks: queue files, rubric scores, blind review and one ranking across judges."""
