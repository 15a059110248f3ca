package org.pfcswitch.dpdk;

/**
 * A DPDK call failed. Names the DPDK function, the port (or -1 when the call has none), the error
 * number DPDK reported (its return value or {@code rte_errno}) and {@code rte_strerror}'s text for it.
 */
public final class DpdkException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final String call;
    private final int port;
    private final int rteErrno;
    private final String rteErrorText;

    /**
     * @param call     the DPDK function that failed, e.g. {@code rte_eth_tx_queue_setup}
     * @param port     the port id, or -1
     * @param rteErrno the positive error number
     * @param subject  what the call was about when that is not the port (a vdev or pool name), or null
     */
    DpdkException(String call, int port, int rteErrno, String subject) {
        this(call, port, rteErrno, subject, Shim.strerror(rteErrno));
    }

    DpdkException(String call, int port, int rteErrno, String subject, String rteErrorText) {
        super(message(call, port, rteErrno, subject, rteErrorText));
        this.call = call;
        this.port = port;
        this.rteErrno = rteErrno;
        this.rteErrorText = rteErrorText;
    }

    private static String message(String call, int port, int rteErrno, String subject, String text) {
        StringBuilder m = new StringBuilder(call).append(" failed");
        if (port >= 0) {
            m.append(" on port ").append(port);
        }
        if (subject != null) {
            m.append(" for ").append(subject);
        }
        return m.append(": ").append(text).append(" (rte_errno ").append(rteErrno).append(')').toString();
    }

    /** Throws when {@code ret} is negative (a negative errno from the shim); returns it otherwise. */
    static int check(int ret, String call, int port) {
        if (ret < 0) {
            throw new DpdkException(call, port, -ret, null);
        }
        return ret;
    }

    /** As {@link #check(int, String, int)}, for calls about a named thing rather than a port. */
    static int check(int ret, String call, String subject) {
        if (ret < 0) {
            throw new DpdkException(call, -1, -ret, subject);
        }
        return ret;
    }

    /** The DPDK function that failed. */
    public String call() {
        return call;
    }

    /** The port id the call was about, or -1. */
    public int port() {
        return port;
    }

    /** The error number, positive (e.g. 19 for ENODEV). */
    public int rteErrno() {
        return rteErrno;
    }

    /** {@code rte_strerror(rteErrno())}. */
    public String rteErrorText() {
        return rteErrorText;
    }
}
