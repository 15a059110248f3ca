package org.pfcswitch.config;

import org.snakeyaml.engine.v2.api.Load;
import org.snakeyaml.engine.v2.api.LoadSettings;
import org.snakeyaml.engine.v2.api.lowlevel.Parse;
import org.snakeyaml.engine.v2.events.Event;
import org.snakeyaml.engine.v2.exceptions.YamlEngineException;

/**
 * The one place configuration YAML is parsed, within limits a hand-written file never reaches: at
 * most {@link ConfigText#MAX_BYTES} characters, {@link #MAX_DEPTH} nested mappings or lists,
 * {@link #MAX_ALIASES} aliases, no duplicate keys (files come through {@link ConfigText}). The
 * composer recurses once per nesting level, so a file of thousands of {@code [} would overflow the
 * stack; the depth is counted on the parser's event stream (which does not recurse) before
 * anything is composed. Every refusal is a one-line {@link ConfigException} naming the file.
 */
public final class YamlLoader {
    /** Deepest nesting of mappings and lists. */
    public static final int MAX_DEPTH = 64;
    /** Most aliases ({@code *name}) a file may use. */
    public static final int MAX_ALIASES = 50;

    private YamlLoader() {}

    /** Parses YAML text ({@code name} for messages) within the limits; an empty document is null. */
    public static Object load(String name, String text) {
        if (text.length() > ConfigText.MAX_BYTES) {
            throw new ConfigException(name + ": too large for a configuration file (at most " + ConfigText.MAX_BYTES
                    + " characters)");
        }
        LoadSettings settings = LoadSettings.builder().setLabel(name).setAllowDuplicateKeys(false)
                .setAllowRecursiveKeys(false).setMaxAliasesForCollections(MAX_ALIASES)
                .setCodePointLimit(ConfigText.MAX_BYTES).build();
        try {
            checkDepth(name, settings, text);
            return new Load(settings).loadFromString(text);
        } catch (YamlEngineException e) {
            throw new ConfigException(name + ": not valid YAML: " + oneLine(e.getMessage()));
        }
    }

    private static void checkDepth(String name, LoadSettings settings, String text) {
        int depth = 0;
        for (Event e : new Parse(settings).parseString(text)) {
            switch (e.getEventId()) {
                case MappingStart, SequenceStart -> {
                    if (++depth > MAX_DEPTH) {
                        String where = e.getStartMark().map(m -> " (line " + (m.getLine() + 1) + ", column "
                                + (m.getColumn() + 1) + ")").orElse("");
                        throw new ConfigException(name + ": nested more than " + MAX_DEPTH + " mappings or lists deep"
                                + where);
                    }
                }
                case MappingEnd, SequenceEnd -> depth--;
                default -> { }
            }
        }
    }

    private static String oneLine(String message) {
        String m = message == null ? "" : message.strip();
        return m.replaceAll("\\s*\\n\\s*", " ");
    }
}
