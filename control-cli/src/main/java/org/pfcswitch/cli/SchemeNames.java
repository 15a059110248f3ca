package org.pfcswitch.cli;

import java.util.Iterator;

import org.pfcswitch.mmu.Schemes;

/** The MMU's scheme names, for picocli's help text and shell completion. */
final class SchemeNames implements Iterable<String> {
    @Override
    public Iterator<String> iterator() {
        return Schemes.NAMES.iterator();
    }

    /** The scheme names and {@code all} (for {@code mmu explain --scheme}). */
    static final class OrAll implements Iterable<String> {
        @Override
        public Iterator<String> iterator() {
            return java.util.stream.Stream.concat(Schemes.NAMES.stream(), java.util.stream.Stream.of("all")).iterator();
        }
    }
}
