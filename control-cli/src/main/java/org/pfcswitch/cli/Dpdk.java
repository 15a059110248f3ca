package org.pfcswitch.cli;

import java.util.function.Supplier;

/** Turns "DPDK is not there" into one message instead of an initializer stack trace. */
final class Dpdk {

    private Dpdk() {}

    static <T> T guard(Supplier<T> start) {
        try {
            return start.get();
        } catch (ExceptionInInitializerError | NoClassDefFoundError | UnsatisfiedLinkError e) {
            Throwable root = e;
            while (root.getCause() != null) {
                root = root.getCause();
            }
            throw new IllegalStateException("DPDK is not available: " + (root.getMessage() == null ? root : root.getMessage())
                    + ". Install it (as root: apt-get install -y dpdk dpdk-dev libdpdk-dev, or 'make deps') and rebuild native-bindings");
        }
    }
}
