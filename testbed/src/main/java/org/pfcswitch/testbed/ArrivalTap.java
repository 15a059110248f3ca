package org.pfcswitch.testbed;

/** Sees every frame arriving at a switch of the testbed, before its core does (the frame is the core's next). */
@FunctionalInterface
interface ArrivalTap {
    void onArrival(int port, long handle, long now);
}
