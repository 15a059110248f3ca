package org.pfcswitch.testbed;

import java.util.AbstractList;
import java.util.Arrays;
import java.util.RandomAccess;

/** A growing list of flow ids in an int array: {@link Traffic#flowIds} for generators with very many flows. */
final class IntIds extends AbstractList<Integer> implements RandomAccess {
    private int[] ids = new int[64];
    private int n;

    void addId(int id) {
        if (n == ids.length) {
            ids = Arrays.copyOf(ids, n * 2);
        }
        ids[n++] = id;
    }

    /** The id at {@code index}, unboxed (no bounds check beyond the array's). */
    int id(int index) {
        return ids[index];
    }

    @Override
    public Integer get(int index) {
        if (index < 0 || index >= n) {
            throw new IndexOutOfBoundsException(index);
        }
        return ids[index];
    }

    @Override
    public int size() {
        return n;
    }
}
