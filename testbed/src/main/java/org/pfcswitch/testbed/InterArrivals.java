package org.pfcswitch.testbed;

import java.util.SplittableRandom;

/**
 * Gaps between the arrivals of an open-loop generator, for a given mean rate: exponential
 * (Poisson arrivals), or log-normal with shape {@code sigma}, burstier as sigma grows (BFC §6
 * draws its arrivals log-normal with sigma = 2). Both have mean gap 1 / rate, so a generator's
 * load is the same either way; only how the arrivals bunch differs.
 */
public interface InterArrivals {

    /** The gap in nanoseconds to the next arrival of a process with {@code perNano} arrivals per nanosecond on average. */
    double gapNanos(SplittableRandom random, double perNano);

    /** How scenario files name it ({@code poisson}, {@code logNormal sigma 2}). */
    String describe();

    InterArrivals POISSON = new InterArrivals() {
        @Override
        public double gapNanos(SplittableRandom random, double perNano) {
            return -Math.log(1 - random.nextDouble()) / perNano;
        }

        @Override
        public String describe() {
            return "poisson";
        }
    };

    /**
     * Log-normal gaps: exp(mu + sigma Z) with Z standard normal and mu = -ln(rate) - sigma² / 2,
     * so that the mean gap exp(mu + sigma² / 2) is 1 / rate.
     */
    static InterArrivals logNormal(double sigma) {
        if (!(sigma > 0) || sigma > 10) {
            throw new IllegalArgumentException("a log-normal sigma must be in (0, 10], got " + sigma);
        }
        return new InterArrivals() {
            @Override
            public double gapNanos(SplittableRandom random, double perNano) {
                return Math.exp(sigma * random.nextGaussian() - sigma * sigma / 2) / perNano;
            }

            @Override
            public String describe() {
                return "logNormal sigma " + sigma;
            }
        };
    }
}
