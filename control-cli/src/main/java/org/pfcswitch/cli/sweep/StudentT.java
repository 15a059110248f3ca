package org.pfcswitch.cli.sweep;

/** The two-sided 95 % quantile of Student's t distribution, for confidence intervals over seeds. */
final class StudentT {

    /** t(0.975, df) for df = 1..30. */
    private static final double[] T975 = {12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
            2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
            2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042};
    private static final double Z975 = 1.959964;

    private StudentT() {}

    /** t(0.975, df): a table up to 30, beyond it the Cornish-Fisher expansion around the normal quantile (within 1e-4). */
    static double quantile975(int df) {
        if (df < 1) {
            throw new IllegalArgumentException("degrees of freedom " + df);
        }
        if (df <= T975.length) {
            return T975[df - 1];
        }
        double z = Z975;
        double z3 = z * z * z;
        double z5 = z3 * z * z;
        double z7 = z5 * z * z;
        double n = df;
        return z + (z3 + z) / (4 * n) + (5 * z5 + 16 * z3 + 3 * z) / (96 * n * n)
                + (3 * z7 + 19 * z5 + 17 * z3 - 15 * z) / (384 * n * n * n);
    }

    /** The half-width of the 95 % confidence interval of the mean of {@code values} (NaN below two values). */
    static double halfWidth95(double[] values, int n, double mean) {
        if (n < 2) {
            return Double.NaN;
        }
        double ss = 0;
        for (int i = 0; i < n; i++) {
            ss += (values[i] - mean) * (values[i] - mean);
        }
        return quantile975(n - 1) * Math.sqrt(ss / (n - 1)) / Math.sqrt(n);
    }
}
