"""Committing review files to the logbook's repository: with git in a checkout, or to the Hugging Face Hub.

`plan` decides which files and bytes are committed and describes them (message, readable diff); `git_commit` and
`hub_commit` carry a plan out; `service.CommitService` is the facade the command line and the window use.
"""
