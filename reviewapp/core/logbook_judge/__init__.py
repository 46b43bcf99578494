"""The Logbook Judge: the challenge's automatic judge, its verdicts files, the claim registry it was scored against,
and how its claims line up with a logbook's. Qt-free; sits above `logbook` and below `review`."""
