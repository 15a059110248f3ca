package org.pfcswitch.codec;

/**
 * MAC addresses as the low 48 bits of a {@code long}: the hot path compares and hashes them
 * as numbers; text is only for people and config files.
 */
public final class MacAddress {
    public static final long BROADCAST = 0xFFFF_FFFF_FFFFL;
    /** 01:80:C2:00:00:01, the destination of 802.3x PAUSE and 802.1Qbb PFC frames. */
    public static final long MAC_CONTROL = 0x0180_C200_0001L;

    private MacAddress() {}

    /** Parses {@code aa:bb:cc:dd:ee:ff} (or with dashes); throws IllegalArgumentException on anything else. */
    public static long parse(String text) {
        String[] parts = text.trim().split("[:-]");
        if (parts.length != 6) {
            throw new IllegalArgumentException("not a MAC address (want aa:bb:cc:dd:ee:ff): '" + text + "'");
        }
        long mac = 0;
        for (String p : parts) {
            if (p.length() != 2) {
                throw new IllegalArgumentException("not a MAC address (want aa:bb:cc:dd:ee:ff): '" + text + "'");
            }
            try {
                mac = (mac << 8) | Integer.parseInt(p, 16);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("not a MAC address (bad hex '" + p + "'): '" + text + "'");
            }
        }
        return mac;
    }

    public static String format(long mac) {
        StringBuilder sb = new StringBuilder(17);
        for (int shift = 40; shift >= 0; shift -= 8) {
            int b = (int) (mac >>> shift) & 0xFF;
            sb.append(Character.forDigit(b >>> 4, 16)).append(Character.forDigit(b & 0xF, 16));
            if (shift > 0) {
                sb.append(':');
            }
        }
        return sb.toString();
    }

    public static boolean isMulticast(long mac) {
        return (mac & 0x0100_0000_0000L) != 0;
    }
}
