package org.pfcswitch.cli;

import org.pfcswitch.codec.MacAddress;
import picocli.CommandLine;

/** Lets options take MAC addresses as aa:bb:cc:dd:ee:ff and report a bad one clearly. */
final class MacConverter implements CommandLine.ITypeConverter<Long> {
    @Override
    public Long convert(String value) {
        try {
            return MacAddress.parse(value);
        } catch (IllegalArgumentException e) {
            throw new CommandLine.TypeConversionException(e.getMessage());
        }
    }
}
