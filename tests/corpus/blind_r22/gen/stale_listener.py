# holds a TCP port open like a leftover store from a previous job that did not exit
import socket, sys, time
s = socket.socket(); s.bind(("0.0.0.0", int(sys.argv[1]))); s.listen(8); time.sleep(float(sys.argv[2]))
