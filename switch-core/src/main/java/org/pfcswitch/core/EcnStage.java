package org.pfcswitch.core;

/**
 * The {@link EcnPoint} policy: the stages tell it where a frame is (admitted, leaving before its
 * MMU release, left after it) and it asks the admission stage for the RED/ECN decision at exactly one of those
 * points. One subclass per point, picked when the core is built.
 */
abstract class EcnStage {

    /** The frame just charged to the MMU and queued; its IPv4 header is at {@code ipv4At}. */
    void admitted(AdmissionStage admission, int port, int priority, long ipv4At) {}

    /** The frame is leaving, still charged to the MMU. */
    void leaving(AdmissionStage admission, int port, int priority, long ipv4At) {}

    /** The frame is leaving and has been released from the MMU. */
    void released(AdmissionStage admission, int port, int priority, long ipv4At) {}

    /**
     * A frame that passes the MMU uncharged ({@link AdmissionStage#admit}): marked as a charged
     * frame that leaves at once would be, with its {@code bytes} in the queue at enqueue and dequeue.
     */
    abstract void passing(AdmissionStage admission, int port, int priority, long ipv4At, long bytes);

    static EcnStage of(EcnPoint point) {
        return switch (point) {
            case ENQUEUE -> new AtEnqueue();
            case DEQUEUE -> new AtDequeue();
            case AFTER_DEQUEUE -> new AfterDequeue();
        };
    }

    private static final class AtEnqueue extends EcnStage {
        @Override
        void admitted(AdmissionStage admission, int port, int priority, long ipv4At) {
            admission.markEcn(port, priority, ipv4At);
        }

        @Override
        void passing(AdmissionStage admission, int port, int priority, long ipv4At, long bytes) {
            admission.markEcn(port, priority, ipv4At, bytes);
        }
    }

    private static final class AtDequeue extends EcnStage {
        @Override
        void leaving(AdmissionStage admission, int port, int priority, long ipv4At) {
            admission.markEcn(port, priority, ipv4At);
        }

        @Override
        void passing(AdmissionStage admission, int port, int priority, long ipv4At, long bytes) {
            admission.markEcn(port, priority, ipv4At, bytes);
        }
    }

    private static final class AfterDequeue extends EcnStage {
        @Override
        void released(AdmissionStage admission, int port, int priority, long ipv4At) {
            admission.markEcn(port, priority, ipv4At);
        }

        @Override
        void passing(AdmissionStage admission, int port, int priority, long ipv4At, long bytes) {
            admission.markEcn(port, priority, ipv4At);       // after the release: without the frame
        }
    }
}
