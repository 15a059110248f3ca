package org.pfcswitch.dataplane;

/**
 * A poll loop that {@link PipelineBench} can drive one pass at a time, pause between passes and
 * stop: the switch's {@link CoreWorker}, or the {@link BareForwarder} reference.
 */
interface PollLoop {

    /** One pass: receive a burst from every port, do the work, send what is ready. */
    void poll();

    /** After the last pass: frees everything the loop still holds; returns how many frames that was. */
    int finish();

    /** Frames received so far on every port (recent value on other threads). */
    long framesReceived();
}
