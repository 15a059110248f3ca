package org.pfcswitch.testbed;

/** Anything the event loop delivers events to: a switch or a host. */
public interface Node {

    /**
     * Handles one event at virtual time {@code now}.
     *
     * @param kind one of {@link EventLoop#FRAME}, {@link EventLoop#WAKE}, {@link EventLoop#FLOW_START}
     * @param port the node's port a frame arrived on (FRAME), else 0
     * @param arg  the frame's handle (FRAME), the flow id (FLOW_START), else 0
     */
    void onEvent(int kind, int port, long arg, long now);
}
