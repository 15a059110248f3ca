package org.pfcswitch.cli.sweep;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.fasterxml.jackson.databind.JsonNode;
import org.pfcswitch.control.json.JsonInput;
import org.pfcswitch.control.json.JsonOutput;

/**
 * The rows of one shard of a grid in one file, {@code shard-I-of-N.json}:
 * <pre>{@code
 * {"format": "pfcswitch-shard v1", "grid": FINGERPRINT, "shard": I, "shards": N, "gridRuns": R,
 *  "keys": [...], "runs": [indexes of this shard's runs], "rows": [{"run": i, "cells": {name: text, ...}}],
 *  "complete": true}
 * }</pre>
 * Cells are kept as the text the run formatted, so a merge rebuilds exactly the local table. The
 * file is written under a temporary name and renamed, so a file with the final name is complete.
 *
 * @param file     where it was read from (null for one being written)
 * @param runs     the grid's run indexes this shard holds
 */
public record ShardFile(Path file, String fingerprint, int shard, int shards, int gridRuns, List<String> keys,
                        List<Integer> runs, List<Row> rows) {

    public static final String FORMAT = "pfcswitch-shard v1";
    private static final Pattern NAME = Pattern.compile("shard-(\\d+)-of-(\\d+)\\.json");

    public static String fileName(int shard, int shards) {
        return "shard-" + shard + "-of-" + shards + ".json";
    }

    /** Whether {@code file}'s name is a shard file's. */
    public static boolean isShardFile(Path file) {
        return NAME.matcher(file.getFileName().toString()).matches();
    }

    public String json() {
        JsonOutput j = new JsonOutput().beginObject().field("format", FORMAT).field("grid", fingerprint)
                .field("shard", shard).field("shards", shards).field("gridRuns", gridRuns);
        j.beginArray("keys");
        keys.forEach(j::value);
        j.endArray().beginArray("runs");
        runs.forEach(r -> j.value(r));
        j.endArray().beginArray("rows");
        for (Row r : rows) {
            j.beginObject().field("run", r.run()).beginObject("cells");
            r.cells().forEach(j::field);
            j.endObject().endObject();
        }
        return j.endArray().field("complete", true).endObject().toString();
    }

    /** Writes the shard as {@code dir/shard-I-of-N.json}, atomically. */
    public Path write(Path dir) throws IOException {
        Path f = dir.resolve(fileName(shard, shards));
        ResultTable.writeAtomically(f, json() + "\n");
        return f;
    }

    /**
     * Reads a shard file; a one-line {@link IllegalArgumentException} when it is not one, is cut
     * short, or does not hold every row its run list names.
     */
    public static ShardFile read(Path file) {
        JsonNode n;
        try {
            n = JsonInput.read(Files.readString(file));
        } catch (IOException e) {
            throw new IllegalArgumentException(file + ": not a complete shard file (" + firstLine(e.getMessage()) + ")");
        }
        if (n == null || !FORMAT.equals(n.path("format").asText()) || !n.path("complete").asBoolean(false)) {
            throw new IllegalArgumentException(file + ": not a complete shard file (" + FORMAT + ")");
        }
        List<String> keys = new ArrayList<>();
        n.path("keys").forEach(k -> keys.add(k.asText()));
        List<Integer> runs = new ArrayList<>();
        n.path("runs").forEach(r -> runs.add(r.asInt()));
        List<Row> rows = new ArrayList<>();
        for (JsonNode r : n.path("rows")) {
            LinkedHashMap<String, String> cells = new LinkedHashMap<>();
            Iterator<Map.Entry<String, JsonNode>> it = r.path("cells").fields();
            while (it.hasNext()) {
                Map.Entry<String, JsonNode> e = it.next();
                cells.put(e.getKey(), e.getValue().asText());
            }
            rows.add(new Row(r.path("run").asInt(), cells));
        }
        if (!rows.stream().map(Row::run).toList().equals(runs)) {
            throw new IllegalArgumentException(file + ": not a complete shard file (its rows do not match its run list)");
        }
        return new ShardFile(file, n.path("grid").asText(), n.path("shard").asInt(), n.path("shards").asInt(),
                n.path("gridRuns").asInt(), keys, runs, rows);
    }

    /** The shard files in {@code paths} (directories are searched one level deep; files are taken as given). */
    public static List<Path> find(List<Path> paths) throws IOException {
        List<Path> files = new ArrayList<>();
        for (Path p : paths) {
            if (Files.isDirectory(p)) {
                try (var s = Files.list(p)) {
                    s.filter(ShardFile::isShardFile).sorted().forEach(files::add);
                }
            } else if (Files.isRegularFile(p)) {
                files.add(p);
            } else {
                throw new IllegalArgumentException(p + ": no such file or directory");
            }
        }
        return files;
    }

    /** Shard index and count from a shard file's name, or null. */
    public static int[] nameParts(Path file) {
        Matcher m = NAME.matcher(file.getFileName().toString());
        return m.matches() ? new int[] {Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2))} : null;
    }

    private static String firstLine(String s) {
        if (s == null) {
            return "unreadable";
        }
        int nl = s.indexOf('\n');
        return nl < 0 ? s : s.substring(0, nl);
    }
}
