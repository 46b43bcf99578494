"""The command line registers only the command being run, and knows which module registers each command."""

from __future__ import annotations

import argparse
import importlib

from reviewapp.cli import COMMAND_MODULES, COMMAND_OWNERS, build_parser


def commands_of(parser: argparse.ArgumentParser) -> set[str]:
    return set(parser._subparsers._group_actions[0].choices)  # type: ignore[union-attr]


def test_every_command_is_owned_by_the_module_that_registers_it() -> None:
    for module in COMMAND_MODULES:
        parser = argparse.ArgumentParser()
        importlib.import_module(module).register(parser.add_subparsers())
        assert commands_of(parser) == {name for name, owner in COMMAND_OWNERS.items() if owner == module}, module


def test_a_command_registers_its_module_alone_and_anything_else_registers_all() -> None:
    assert commands_of(build_parser(["inspect", "somewhere", "--json"])) == {"inspect"}
    assert commands_of(build_parser(["flag", "x", "--clear"])) == {"score", "flag"}
    everything = set(COMMAND_OWNERS)
    assert commands_of(build_parser()) == everything
    assert commands_of(build_parser(["--version"])) == everything
    assert commands_of(build_parser(["inspektor"])) == everything  # argparse names the choices in its error
