# Sends frames from the eth0 of one or more network namespaces on one schedule, for the live
# switch tests. One process for every sender, so that their frames keep the schedule's order and
# spacing (separate processes would start tens of milliseconds apart).
#
# usage: send-frames.py SCHEDULE_FILE NAMESPACE...
#   schedule lines: "<offset in microseconds> <sender index into NAMESPACE...> <frame as hex>"
# Sleeps until 1 ms before each offset and busy-waits the rest (sleep alone is too coarse at
# 100 us), sends, and prints how many frames it sent.
import ctypes, os, socket, sys, time

CLONE_NEWNET = 0x40000000
libc = ctypes.CDLL(None, use_errno=True)

def socket_in(namespace):
    """An AF_PACKET socket bound to eth0 of the namespace; the socket stays in it after we leave."""
    home = os.open('/proc/self/ns/net', os.O_RDONLY)
    target = os.open('/var/run/netns/' + namespace, os.O_RDONLY)
    try:
        if libc.setns(target, CLONE_NEWNET) != 0:
            raise OSError(ctypes.get_errno(), 'setns into ' + namespace)
        s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW)
        s.bind(('eth0', 0))
        return s
    finally:
        if libc.setns(home, CLONE_NEWNET) != 0:
            raise OSError(ctypes.get_errno(), 'setns back')
        os.close(home)
        os.close(target)

sockets = [socket_in(ns) for ns in sys.argv[2:]]
schedule = []
with open(sys.argv[1]) as f:
    for line in f:
        if line.strip():
            offset, sender, frame = line.split()
            schedule.append((int(offset) / 1e6, sockets[int(sender)], bytes.fromhex(frame)))
start = time.perf_counter()
sent = 0
for offset, s, frame in schedule:
    ahead = offset - (time.perf_counter() - start)
    if ahead > 0.001:
        time.sleep(ahead - 0.001)
    while time.perf_counter() - start < offset:
        pass
    s.send(frame)
    sent += 1
print(sent, flush=True)
