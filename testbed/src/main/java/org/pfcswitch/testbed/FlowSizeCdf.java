package org.pfcswitch.testbed;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * An empirical flow-size distribution in the HPCC traffic generator's file format: one
 * {@code <bytes> <cumulative percent>} pair per line, sizes and percents non-decreasing, the last
 * percent 100. Sizes between two rows are linearly interpolated, for sampling and for the mean
 * alike (so the mean is the trapezoid sum over the rows).
 */
public final class FlowSizeCdf {

    private final String name;
    private final double[] bytes;
    private final double[] cumulative;   // 0..1

    private FlowSizeCdf(String name, double[] bytes, double[] cumulative) {
        this.name = name;
        this.bytes = bytes;
        this.cumulative = cumulative;
    }

    /** Reads a CDF file; errors name the file and the line. */
    public static FlowSizeCdf load(Path file) {
        return parse(file.toString(), org.pfcswitch.config.ConfigText.read(file).lines().toList());
    }

    public static FlowSizeCdf parse(String name, List<String> lines) {
        List<double[]> rows = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i).strip();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            String[] f = line.split("\\s+");
            try {
                if (f.length != 2) {
                    throw new NumberFormatException("expected '<bytes> <cumulative percent>'");
                }
                double b = Double.parseDouble(f[0]);
                double p = Double.parseDouble(f[1]) / 100;
                if (!Double.isFinite(b) || !Double.isFinite(p)) {
                    throw new NumberFormatException("size and percent must be finite numbers");
                }
                if (b < 0 || p < 0 || p > 1) {
                    throw new NumberFormatException("size must be >= 0 and percent within 0..100");
                }
                if (!rows.isEmpty() && (b < rows.getLast()[0] || p < rows.getLast()[1])) {
                    throw new NumberFormatException("sizes and percents must not decrease");
                }
                rows.add(new double[] {b, p});
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(name + ": line " + (i + 1) + ": " + e.getMessage() + ", got '" + line + "'");
            }
        }
        if (rows.size() < 2 || rows.getLast()[1] != 1.0) {
            throw new IllegalArgumentException(name + ": a flow-size CDF needs at least two rows and must end at 100 percent");
        }
        double[] b = new double[rows.size()];
        double[] p = new double[rows.size()];
        for (int i = 0; i < b.length; i++) {
            b[i] = rows.get(i)[0];
            p[i] = rows.get(i)[1];
        }
        return new FlowSizeCdf(name, b, p);
    }

    public String name() {
        return name;
    }

    /** The mean flow size in bytes under linear interpolation. */
    public double meanBytes() {
        double mean = bytes[0] * cumulative[0];
        for (int i = 1; i < bytes.length; i++) {
            mean += (cumulative[i] - cumulative[i - 1]) * (bytes[i] + bytes[i - 1]) / 2;
        }
        return mean;
    }

    /** One flow size (at least 1 byte) drawn from {@code random}. */
    public long sample(SplittableRandom random) {
        double u = random.nextDouble();
        int i = 0;
        while (i < cumulative.length - 1 && cumulative[i] < u) {
            i++;
        }
        double size;
        if (i == 0 || cumulative[i] == cumulative[i - 1]) {
            size = bytes[i];
        } else {
            double f = (u - cumulative[i - 1]) / (cumulative[i] - cumulative[i - 1]);
            size = bytes[i - 1] + f * (bytes[i] - bytes[i - 1]);
        }
        return Math.max(1, Math.round(size));
    }
}
