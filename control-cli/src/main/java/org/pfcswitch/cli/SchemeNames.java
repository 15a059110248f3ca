package org.pfcswitch.cli;

import java.util.Iterator;

import org.pfcswitch.mmu.Schemes;

/** The MMU's scheme names, for picocli's help text and shell completion. */
final class SchemeNames implements Iterable<String> {
    @Override
    public Iterator<String> iterator() {
        return Schemes.NAMES.iterator();
    }
}
