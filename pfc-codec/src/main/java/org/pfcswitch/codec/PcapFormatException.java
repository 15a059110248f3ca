package org.pfcswitch.codec;

import java.io.IOException;

/** A pcap file that is not one, or that ends in the middle of a record. */
public final class PcapFormatException extends IOException {
    public PcapFormatException(String message) {
        super(message);
    }
}
