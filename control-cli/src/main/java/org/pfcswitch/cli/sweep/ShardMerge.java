package org.pfcswitch.cli.sweep;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;

/**
 * Joins the shard files of one grid into its {@link ResultTable}, or says in one line why not:
 * shards of two grids, two shard counts, a shard missing (named, so it can be rerun alone), or
 * rows missing from the whole.
 */
public final class ShardMerge {

    private ShardMerge() {}

    public static ResultTable merge(List<ShardFile> shards) {
        if (shards.isEmpty()) {
            throw new IllegalArgumentException("no shard files (shard-I-of-N.json) found");
        }
        ShardFile first = shards.getFirst();
        TreeMap<Integer, ShardFile> byIndex = new TreeMap<>();
        for (ShardFile s : shards) {
            if (!s.fingerprint().equals(first.fingerprint())) {
                throw new IllegalArgumentException(s.file() + " and " + first.file() + " are shards of different grids "
                        + "(fingerprints " + s.fingerprint() + " and " + first.fingerprint() + ")");
            }
            if (s.shards() != first.shards()) {
                throw new IllegalArgumentException(s.file() + " is shard " + s.shard() + "/" + s.shards() + " but "
                        + first.file() + " is " + first.shard() + "/" + first.shards() + ": one grid split two ways");
            }
            byIndex.putIfAbsent(s.shard(), s);
        }
        List<Integer> missing = new ArrayList<>();
        for (int i = 0; i < first.shards(); i++) {
            if (!byIndex.containsKey(i)) {
                missing.add(i);
            }
        }
        if (!missing.isEmpty()) {
            List<String> names = missing.stream().map(i -> i + "/" + first.shards()).toList();
            throw new IllegalArgumentException("missing " + (missing.size() == 1 ? "shard " : "shards ")
                    + String.join(", ", names) + " of grid " + first.fingerprint() + " (" + byIndex.size() + " of "
                    + first.shards() + " found); rerun " + (missing.size() == 1 ? "it with --shard " + names.getFirst()
                    : "each with its --shard"));
        }
        List<Row> rows = new ArrayList<>();
        byIndex.values().forEach(s -> rows.addAll(s.rows()));
        if (rows.size() != first.gridRuns()) {
            throw new IllegalArgumentException("grid " + first.fingerprint() + " has " + first.gridRuns() + " runs but its "
                    + first.shards() + " shards hold " + rows.size() + " rows");
        }
        return new ResultTable(first.fingerprint(), first.keys(), rows);
    }
}
