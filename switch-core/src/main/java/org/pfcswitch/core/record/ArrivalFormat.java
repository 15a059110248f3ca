package org.pfcswitch.core.record;

/**
 * The arrival-record file ({@code .arr}): what arrived at a switch, frame by frame, so that
 * {@code pfcswitch sim --replay} can put the same arrivals through every scheme. Binary, little-endian,
 * fixed-size records: the live recorder's writer thread copies ring slots out without formatting
 * (a CSV line per frame would cost the writer more than the switch spends on the frame, and a record
 * is 80 bytes where CSV with 64 hex header bytes is over 150), a reader validates a record in a few
 * loads, and a file can be cut or sized by arithmetic ({@code records = (size - header) / 80}).
 *
 * <pre>
 * header
 *   0  8 bytes  magic "PFCARR01"
 *   8  u32      version (1)
 *  12  u32      ports N (1..4096)
 *  16  u32      static MAC entries M
 *  20  u32      header bytes kept per record H (64)
 *  24  N x i64  line rate of port 0..N-1 in bit/s (> 0)
 *      M x (i64 MAC in its low 48 bits, i32 port, i32 0)   where each MAC is (the replay forwards by it)
 * records, each 80 bytes, in non-decreasing time
 *   0  i64      time the frame arrived, ns (any epoch; replay starts at the first record)
 *   8  u16      ingress port (&lt; N)
 *  10  u16      frame length in bytes, as on the wire without FCS (1..65535)
 *  12  u16      header bytes captured (&le; min(length, 64))
 *  14  u16      flags: bit 0 {@link #STOPPED_AFTER}, the rest 0
 *  16  64 bytes the frame's first bytes, zero past the captured ones
 * </pre>
 *
 * A recording whose writer failed (a full disk, an I/O error) is cut back to its last whole record,
 * which gets {@link #STOPPED_AFTER}: the file stays readable, and a reader can say that the
 * recording stops early.
 *
 * 64 bytes hold Ethernet (14), an 802.1Q tag (4), IPv4 (20, its DSCP and ECN), UDP (8) and the RoCEv2
 * BTH (12): everything the switch core classifies and forwards by.
 */
public final class ArrivalFormat {

    public static final byte[] MAGIC = {'P', 'F', 'C', 'A', 'R', 'R', '0', '1'};
    public static final int VERSION = 1;
    public static final int HEADER_FIXED_BYTES = 24;
    public static final int MAC_ENTRY_BYTES = 16;
    /** Header bytes kept per arrival. */
    public static final int HEADER_BYTES = 64;
    public static final int RECORD_BYTES = 16 + HEADER_BYTES;
    public static final int MAX_PORTS = 4096;
    public static final int MAX_LENGTH = 0xFFFF;
    /** Where a record's flags are. */
    public static final int FLAGS_OFFSET = 14;
    /** Flag: the recording stopped after this record because a write failed; what arrived later is not in the file. */
    public static final int STOPPED_AFTER = 1;

    private ArrivalFormat() {}
}
