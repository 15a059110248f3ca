#!/usr/bin/env python3
"""Run a command and write its wall time and peak resident memory to a file.

    measure.py USAGE_FILE COMMAND [ARG...]

USAGE_FILE gets one line, "wall_seconds peak_rss_kb". The peak is the kernel's ru_maxrss for the
command's process tree (wait4: the largest of the process and the descendants it waited for, so a
launcher script that starts a JVM reports the JVM). The command's output passes through; the exit
code is the command's (128 + N when killed by signal N).
"""
import os
import subprocess
import sys
import time


def main():
    if len(sys.argv) < 3:
        sys.exit("usage: measure.py USAGE_FILE COMMAND [ARG...]")
    usage_path, command = sys.argv[1], sys.argv[2:]
    t0 = time.monotonic()
    try:
        child = subprocess.Popen(command)
    except OSError as e:
        sys.exit(f"measure.py: cannot run {command[0]}: {e.strerror}")
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.monotonic() - t0
    with open(usage_path, "w") as f:
        f.write(f"{wall:.3f} {usage.ru_maxrss}\n")
    code = os.waitstatus_to_exitcode(status)
    sys.exit(code if code >= 0 else 128 - code)


if __name__ == "__main__":
    main()
