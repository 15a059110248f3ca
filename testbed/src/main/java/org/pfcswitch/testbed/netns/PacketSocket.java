package org.pfcswitch.testbed.netns;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.VarHandle;
import java.util.concurrent.atomic.AtomicReference;

import org.pfcswitch.testbed.FramePort;

/**
 * A Linux AF_PACKET raw socket on one interface of one network namespace, through libc by Panama
 * FFM: the real-time emulated host's NIC. It sends and receives whole Ethernet frames, MAC-control
 * (PFC, PAUSE) included, never blocking (MSG_DONTWAIT), one system call per frame.
 *
 * <p>A socket stays in the namespace it was created in, so {@link #open} creates it on a short-lived
 * platform thread that enters the namespace with setns(2), opens and binds the socket, and goes
 * back; the calling thread never changes namespace. The socket is created with protocol 0 (it
 * receives nothing) and bound to the interface with ETH_P_ALL, so it never sees another
 * interface's frames. PACKET_IGNORE_OUTGOING keeps frames sent on the interface (by this socket or
 * any other) out of its receive queue; where a kernel lacks it, {@link #receive} skips them by
 * their {@code sll_pkttype}.
 *
 * <p>Sending and receiving copy through a native buffer of this socket, allocate nothing and are
 * meant for one thread at a time.
 */
public final class PacketSocket implements FramePort, AutoCloseable {

    private static final int AF_PACKET = 17;
    private static final int SOCK_RAW = 3;
    private static final int SOCK_CLOEXEC = 0x80000;
    private static final short ETH_P_ALL_NETWORK_ORDER = (short) 0x0300;    // htons(0x0003) on little-endian
    private static final int SOL_SOCKET = 1;
    private static final int SO_RCVBUFFORCE = 33;
    private static final int SOL_PACKET = 263;
    private static final int PACKET_STATISTICS = 6;
    private static final int PACKET_IGNORE_OUTGOING = 23;
    private static final int PACKET_OUTGOING = 4;
    private static final int MSG_TRUNC = 0x20;
    private static final int MSG_DONTWAIT = 0x40;
    private static final int CLONE_NEWNET = 0x4000_0000;
    private static final int O_RDONLY_CLOEXEC = 0x80000;
    private static final int EINTR = 4;
    private static final int EAGAIN = 11;
    private static final int ENOBUFS = 105;
    private static final int SOCKADDR_LL_BYTES = 20;
    /** Receive queue asked of the kernel: about 4 ms of 1 KB frames at 10 Gb/s, so a slow pass loses nothing. */
    private static final int RECEIVE_BUFFER_BYTES = 8 << 20;
    /** Largest frame sent or received: a 9000-byte jumbo with tags. */
    public static final int MAX_FRAME_BYTES = 9216;

    private static final Linker LINKER = Linker.nativeLinker();
    private static final StructLayout CALL_STATE = Linker.Option.captureStateLayout();
    private static final VarHandle ERRNO = CALL_STATE.varHandle(MemoryLayout.PathElement.groupElement("errno"));
    private static final MethodHandle SOCKET = libc("socket", FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT));
    private static final MethodHandle BIND = libc("bind", FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS, JAVA_INT));
    private static final MethodHandle SETSOCKOPT = libc("setsockopt",
            FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT, ADDRESS, JAVA_INT));
    private static final MethodHandle GETSOCKOPT = libc("getsockopt",
            FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT, ADDRESS, ADDRESS));
    private static final MethodHandle GETSOCKNAME = libc("getsockname", FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS, ADDRESS));
    private static final MethodHandle SEND = libc("send", FunctionDescriptor.of(JAVA_LONG, JAVA_INT, ADDRESS, JAVA_LONG, JAVA_INT));
    private static final MethodHandle RECVFROM = libc("recvfrom",
            FunctionDescriptor.of(JAVA_LONG, JAVA_INT, ADDRESS, JAVA_LONG, JAVA_INT, ADDRESS, ADDRESS));
    private static final MethodHandle IF_NAMETOINDEX = libc("if_nametoindex", FunctionDescriptor.of(JAVA_INT, ADDRESS));
    private static final MethodHandle SETNS = libc("setns", FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT));
    // open(2) is variadic (a mode follows the flags): say so, and pass mode 0.
    private static final MethodHandle OPEN = LINKER.downcallHandle(LINKER.defaultLookup().find("open").orElseThrow(),
            FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, JAVA_INT), Linker.Option.firstVariadicArg(2),
            Linker.Option.captureCallState("errno"));
    private static final MethodHandle CLOSE = LINKER.downcallHandle(LINKER.defaultLookup().find("close").orElseThrow(),
            FunctionDescriptor.of(JAVA_INT, JAVA_INT));
    private static final MethodHandle STRERROR = LINKER.downcallHandle(LINKER.defaultLookup().find("strerror").orElseThrow(),
            FunctionDescriptor.of(ADDRESS.withTargetLayout(MemoryLayout.sequenceLayout(256, JAVA_BYTE)), JAVA_INT));

    private final String namespace;
    private final String iface;
    private final int fd;
    private final int ifindex;
    private final long mac;
    private final boolean kernelSkipsOutgoing;
    private final Arena arena = Arena.ofShared();
    private final MemorySegment callState = arena.allocate(CALL_STATE);
    private final MemorySegment txBuffer = arena.allocate(MAX_FRAME_BYTES, 64);
    private final MemorySegment rxBuffer = arena.allocate(MAX_FRAME_BYTES, 64);
    private final MemorySegment from = arena.allocate(SOCKADDR_LL_BYTES, 8);
    private final MemorySegment fromLength = arena.allocate(JAVA_INT);
    private boolean closed;
    private long framesSent;
    private long framesReceived;
    private long sendsRefused;
    private long oversized;
    private long kernelDrops;

    private PacketSocket(String namespace, String iface, int fd, int ifindex, long mac, boolean kernelSkipsOutgoing) {
        this.namespace = namespace;
        this.iface = iface;
        this.fd = fd;
        this.ifindex = ifindex;
        this.mac = mac;
        this.kernelSkipsOutgoing = kernelSkipsOutgoing;
    }

    /**
     * Opens a raw socket on {@code iface} of the network namespace {@code namespace} (a name under
     * /var/run/netns, as {@code ip netns add} makes), or of the caller's own namespace if it is null.
     *
     * @throws PacketSocketException naming the namespace or interface that is missing, or the
     *         system call that failed and why (e.g. "Operation not permitted": it needs root)
     */
    public static PacketSocket open(String namespace, String iface) {
        if (iface == null || iface.isEmpty() || iface.length() > 15 || iface.contains("/")) {
            throw new PacketSocketException("'" + iface + "' is not an interface name (1-15 characters, no '/')");
        }
        if (namespace != null && (namespace.isEmpty() || namespace.contains("/") || namespace.startsWith("."))) {
            throw new PacketSocketException("'" + namespace + "' is not a network namespace name");
        }
        AtomicReference<Object> result = new AtomicReference<>();
        // A fresh platform thread: setns(2) moves only the calling OS thread, and if moving back
        // failed, the thread that is left in the wrong namespace ends here.
        Thread opener = Thread.ofPlatform().name("netns-open-" + iface).unstarted(() -> {
            try {
                result.set(openHere(namespace, iface));
            } catch (RuntimeException e) {
                result.set(e);
            }
        });
        opener.start();
        try {
            opener.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new PacketSocketException("interrupted while opening " + where(namespace, iface));
        }
        if (result.get() instanceof RuntimeException e) {
            throw e;
        }
        return (PacketSocket) result.get();
    }

    private static PacketSocket openHere(String namespace, String iface) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment state = a.allocate(CALL_STATE);
            int home = -1;
            int target = -1;
            if (namespace != null) {
                home = (int) OPEN.invokeExact(state, a.allocateFrom("/proc/thread-self/ns/net"), O_RDONLY_CLOEXEC, 0);
                if (home < 0) {
                    throw failure(state, "cannot open this thread's network namespace", namespace, iface);
                }
                target = (int) OPEN.invokeExact(state, a.allocateFrom("/var/run/netns/" + namespace), O_RDONLY_CLOEXEC, 0);
                if (target < 0) {
                    int errno = errno(state);
                    close(home);
                    throw new PacketSocketException("network namespace '" + namespace + "' does not exist (/var/run/netns/"
                            + namespace + ": " + strerror(errno) + "); create it with 'ip netns add' or 'pfcswitch testbed up'");
                }
                if ((int) SETNS.invokeExact(state, target, CLONE_NEWNET) != 0) {
                    int errno = errno(state);
                    close(home);
                    close(target);
                    throw new PacketSocketException("cannot enter network namespace '" + namespace + "': setns: "
                            + strerror(errno) + (errno == 1 ? " (entering a namespace needs root)" : ""));
                }
            }
            try {
                return bound(state, a, namespace, iface);
            } finally {
                if (namespace != null) {
                    int back = (int) SETNS.invokeExact(state, home, CLONE_NEWNET);
                    close(home);
                    close(target);
                    if (back != 0) {
                        // The opener thread ends now; only it is in the wrong namespace.
                        System.err.println("pfcswitch: opener thread could not leave namespace " + namespace);
                    }
                }
            }
        } catch (PacketSocketException e) {
            throw e;
        } catch (Throwable t) {
            throw new PacketSocketException("cannot open " + where(namespace, iface) + ": " + t);
        }
    }

    /** In the target namespace: the socket, bound to {@code iface}, with its options. */
    private static PacketSocket bound(MemorySegment state, Arena a, String namespace, String iface) throws Throwable {
        int index = (int) IF_NAMETOINDEX.invokeExact(state, a.allocateFrom(iface));
        if (index == 0) {
            throw new PacketSocketException("no interface '" + iface + "' in " + (namespace == null
                    ? "this network namespace" : "network namespace '" + namespace + "'") + ": " + strerror(errno(state)));
        }
        int fd = (int) SOCKET.invokeExact(state, AF_PACKET, SOCK_RAW | SOCK_CLOEXEC, 0);
        if (fd < 0) {
            int errno = errno(state);
            throw new PacketSocketException("cannot open a packet socket for " + where(namespace, iface) + ": socket: "
                    + strerror(errno) + (errno == 1 ? " (raw sockets need root or CAP_NET_RAW)" : ""));
        }
        try {
            MemorySegment addr = a.allocate(SOCKADDR_LL_BYTES, 8);
            addr.set(JAVA_SHORT, 0, (short) AF_PACKET);
            addr.set(JAVA_SHORT, 2, ETH_P_ALL_NETWORK_ORDER);
            addr.set(JAVA_INT, 4, index);
            if ((int) BIND.invokeExact(state, fd, addr, SOCKADDR_LL_BYTES) != 0) {
                throw failure(state, "bind", namespace, iface);
            }
            MemorySegment value = a.allocate(JAVA_INT);
            value.set(JAVA_INT, 0, RECEIVE_BUFFER_BYTES);
            int _ = (int) SETSOCKOPT.invokeExact(state, fd, SOL_SOCKET, SO_RCVBUFFORCE, value, 4);   // best effort
            value.set(JAVA_INT, 0, 1);
            boolean skips = (int) SETSOCKOPT.invokeExact(state, fd, SOL_PACKET, PACKET_IGNORE_OUTGOING, value, 4) == 0;
            MemorySegment length = a.allocate(JAVA_INT);
            length.set(JAVA_INT, 0, SOCKADDR_LL_BYTES);
            if ((int) GETSOCKNAME.invokeExact(state, fd, addr, length) != 0) {
                throw failure(state, "getsockname", namespace, iface);
            }
            long mac = 0;
            for (int i = 0; i < 6; i++) {                        // sll_addr: the interface's hardware address
                mac = mac << 8 | (addr.get(JAVA_BYTE, 12 + i) & 0xFF);
            }
            return new PacketSocket(namespace, iface, fd, index, mac, skips);
        } catch (Throwable t) {
            close(fd);
            throw t;
        }
    }

    @Override
    public boolean send(MemorySegment frame, long offset, int length) {
        if (length > MAX_FRAME_BYTES) {
            throw new PacketSocketException("frame of " + length + " B is longer than " + MAX_FRAME_BYTES + " B on " + this);
        }
        MemorySegment.copy(frame, offset, txBuffer, 0, length);
        while (true) {
            long n;
            try {
                n = (long) SEND.invokeExact(callState, fd, txBuffer, (long) length, MSG_DONTWAIT);
            } catch (Throwable t) {
                throw new PacketSocketException("send on " + this + ": " + t);
            }
            if (n >= 0) {
                framesSent++;
                return true;
            }
            int errno = errno(callState);
            if (errno == EINTR) {
                continue;
            }
            if (errno == EAGAIN || errno == ENOBUFS) {
                sendsRefused++;
                return false;
            }
            throw new PacketSocketException("send of a " + length + " B frame on " + this + ": " + strerror(errno)
                    + (errno == 90 ? " (longer than the interface's MTU: lower payloadMtu or raise the MTU)" : ""));
        }
    }

    @Override
    public int receive(MemorySegment into, long offset, int max) {
        while (true) {
            long n;
            fromLength.set(JAVA_INT, 0, SOCKADDR_LL_BYTES);
            try {
                // MSG_TRUNC: the frame's real length even when it did not fit, so it is skipped, not cut.
                n = (long) RECVFROM.invokeExact(callState, fd, rxBuffer, (long) MAX_FRAME_BYTES, MSG_DONTWAIT | MSG_TRUNC,
                        from, fromLength);
            } catch (Throwable t) {
                throw new PacketSocketException("recv on " + this + ": " + t);
            }
            if (n < 0) {
                int errno = errno(callState);
                if (errno == EAGAIN) {
                    return NONE;
                }
                if (errno == EINTR) {
                    continue;
                }
                throw new PacketSocketException("recv on " + this + ": " + strerror(errno));
            }
            if (!kernelSkipsOutgoing && from.get(JAVA_BYTE, 10) == PACKET_OUTGOING) {
                continue;                                          // our own frame, looped back to taps
            }
            if (n > max || n > MAX_FRAME_BYTES) {
                oversized++;
                continue;
            }
            framesReceived++;
            MemorySegment.copy(rxBuffer, 0, into, offset, n);
            return (int) n;
        }
    }

    /** The interface's MAC address (what the kernel has, 48 bits). */
    public long macAddress() { return mac; }
    public int ifindex() { return ifindex; }
    /** The namespace, or null for the opener's own. */
    public String namespace() { return namespace; }
    public String iface() { return iface; }
    public long framesSent() { return framesSent; }
    public long framesReceived() { return framesReceived; }
    /** Sends the kernel refused for want of buffer (the frame was lost). */
    public long sendsRefused() { return sendsRefused; }
    /** Received frames longer than the caller's buffer: skipped. */
    public long oversized() { return oversized; }

    /** Frames the kernel dropped because this socket's receive queue was full, so far. */
    @Override
    public long kernelDrops() {
        if (closed) {
            return kernelDrops;
        }
        try (Arena a = Arena.ofConfined()) {
            MemorySegment stats = a.allocate(8, 4);             // struct tpacket_stats {packets, drops}
            MemorySegment length = a.allocate(JAVA_INT);
            length.set(JAVA_INT, 0, 8);
            if ((int) GETSOCKOPT.invokeExact(a.allocate(CALL_STATE), fd, SOL_PACKET, PACKET_STATISTICS, stats, length) == 0) {
                kernelDrops += stats.get(JAVA_INT, 4) & 0xFFFF_FFFFL;   // the kernel resets them on each read
            }
        } catch (Throwable t) {
            throw new PacketSocketException("getsockopt PACKET_STATISTICS on " + this + ": " + t);
        }
        return kernelDrops;
    }

    @Override
    public synchronized void close() {
        if (!closed) {
            kernelDrops();
            closed = true;
            close(fd);
            arena.close();
        }
    }

    @Override
    public String toString() {
        return where(namespace, iface);
    }

    private static String where(String namespace, String iface) {
        return (namespace == null ? "" : namespace + ":") + iface;
    }

    private static PacketSocketException failure(MemorySegment state, String call, String namespace, String iface) {
        return new PacketSocketException(call + " on " + where(namespace, iface) + ": " + strerror(errno(state)));
    }

    private static int errno(MemorySegment state) {
        return (int) ERRNO.get(state, 0L);
    }

    private static String strerror(int errno) {
        try {
            return ((MemorySegment) STRERROR.invokeExact(errno)).getString(0);
        } catch (Throwable t) {
            return "errno " + errno;
        }
    }

    private static void close(int fd) {
        if (fd >= 0) {
            try {
                int _ = (int) CLOSE.invokeExact(fd);
            } catch (Throwable _) {
                // nothing to do about a failed close
            }
        }
    }

    /** A libc function whose errno is captured into a segment passed as the first argument. */
    private static MethodHandle libc(String name, FunctionDescriptor fd) {
        return LINKER.downcallHandle(LINKER.defaultLookup().find(name).orElseThrow(), fd,
                Linker.Option.captureCallState("errno"));
    }
}
