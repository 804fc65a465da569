"""The register model that the SystemRDL tools elaborate from register descriptions, as JSON.

Compiles each SystemRDL file with systemrdl-compiler (with --ipxact: imports each
IP-XACT file with PeakRDL-ipxact's importer into a compiler), elaborates it and prints
one JSON object with an entry per file: the top's name, the compiler's warnings, and
every register instance (arrays unrolled) with its absolute byte address, its name with
its array index, its path below the top, its width and access width, and its fields
(name, lsb, msb, sw access and the reset value when it has one). tests/outputs/register_descriptions.rs compares this
model with the Rust register tables, so a description is checked as the tools read it.

Usage: target/venv/bin/python scripts/register_model.py [--ipxact] FILE...
"""
import argparse
import json
import sys

from systemrdl import RDLCompiler
from systemrdl.messages import MessagePrinter, Severity
from systemrdl.node import RegNode


class WarningCollector(MessagePrinter):
    """Prints the compiler's messages as usual and keeps the warnings for the JSON."""

    def __init__(self):
        super().__init__()
        self.warnings = []

    def print_message(self, severity, text, src_ref):
        if severity == Severity.WARNING:
            self.warnings.append(text)
        super().print_message(severity, text, src_ref)


def field_model(field):
    model = {
        "name": field.inst_name,
        "lsb": field.lsb,
        "msb": field.msb,
        "sw": field.get_property("sw").name,
    }
    reset = field.get_property("reset")
    if reset is not None:
        model["reset"] = reset
    return model


def register_model(register, top):
    path = register.get_path()
    return {
        "address": register.absolute_address,
        "name": register.get_path_segment(),
        "path": path[len(top.get_path()) + 1:],
        "regwidth": register.get_property("regwidth"),
        "accesswidth": register.get_property("accesswidth"),
        "fields": [field_model(field) for field in register.fields()],
    }


def elaborate(path, ipxact):
    collector = WarningCollector()
    compiler = RDLCompiler(message_printer=collector)
    if ipxact:
        # Imported here so that SystemRDL alone needs only the compiler.
        from peakrdl_ipxact import IPXACTImporter

        IPXACTImporter(compiler).import_file(path)
    else:
        compiler.compile_file(path)
    # The last root component defined is the top: the addrmap of a SystemRDL file, the
    # memory map of an IP-XACT component.
    top = compiler.elaborate().top
    registers = [node for node in top.descendants(unroll=True) if isinstance(node, RegNode)]
    return {
        "top": top.inst_name,
        "warnings": collector.warnings,
        "registers": [register_model(register, top) for register in registers],
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ipxact", action="store_true", help="the files are IP-XACT components, not SystemRDL")
    parser.add_argument("files", nargs="+")
    args = parser.parse_args()
    models = {path: elaborate(path, args.ipxact) for path in args.files}
    json.dump(models, sys.stdout, indent=1)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
