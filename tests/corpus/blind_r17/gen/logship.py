"""Minimal log shipper: prefixes each stdin line with host/time and appends to a file."""
import socket, sys, time
out = open(sys.argv[1], "a", buffering=1)
fmt = "%s " + socket.gethostname() + " %s"
for line in sys.stdin:
    out.write(fmt % (time.strftime("%H:%M:%S"), line.rstrip("\n")) + "\n") if "%" not in line else out.write((fmt % (time.strftime("%H:%M:%S"), "")) + line % ())
