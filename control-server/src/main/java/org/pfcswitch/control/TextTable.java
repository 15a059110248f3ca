package org.pfcswitch.control;

import java.util.ArrayList;
import java.util.List;

/**
 * A left-aligned text table with columns as wide as their widest cell: every text view of the control
 * API and the client-side fabric views print through it.
 */
public final class TextTable {
    private final List<String[]> rows = new ArrayList<>();

    public TextTable(String... header) {
        rows.add(header);
    }

    public void row(Object... cells) {
        String[] r = new String[cells.length];
        for (int i = 0; i < cells.length; i++) {
            r[i] = String.valueOf(cells[i]);
        }
        rows.add(r);
    }

    @Override
    public String toString() {
        int[] width = new int[rows.getFirst().length];
        for (String[] r : rows) {
            for (int i = 0; i < r.length; i++) {
                width[i] = Math.max(width[i], r[i].length());
            }
        }
        StringBuilder sb = new StringBuilder();
        for (String[] r : rows) {
            for (int i = 0; i < r.length; i++) {
                sb.append(i == 0 ? "" : "  ").append(i == r.length - 1 ? r[i] : String.format("%-" + width[i] + "s", r[i]));
            }
            sb.append('\n');
        }
        return sb.toString().stripTrailing();
    }
}
