package org.pfcswitch.testbed;

/**
 * The DCQCN reaction point of one queue pair (Zhu et al., SIGCOMM 2015, the RP algorithm): a
 * current rate R_C and a target rate R_T, both starting at line rate, and alpha, the estimate of
 * how congested the path is.
 *
 * <ul>
 *   <li>CNP: R_T = R_C; R_C = R_C·(1 − alpha/2); alpha = (1 − g)·alpha + g; the increase timer, the
 *       byte counter and both stage counts restart.</li>
 *   <li>No CNP for an alpha interval: alpha = (1 − g)·alpha.</li>
 *   <li>Increase event (timer period T elapsed, or B bytes sent), with stage counts t and b:
 *       max(t, b) &lt; F: fast recovery; min(t, b) &gt; F: hyper increase R_T += R_HAI; otherwise
 *       additive increase R_T += R_AI; then R_C = (R_T + R_C)/2. Rates stay within
 *       [min rate, line rate].</li>
 * </ul>
 *
 * The timers are evaluated lazily: every call first replays, in time order, the timer expiries
 * that fell due since the last call. The result is the same as with timer events (a rate change
 * only matters when the QP next sends), at no event-loop cost, and nothing is allocated. Timers
 * run from the first CNP on; before it the QP is at line rate with nothing to recover.
 *
 * <p>This class reacts to every CNP at once; {@link CheckedDcqcn} is the other policy (a CNP only
 * arms a rate-decrease check that runs on its own interval). {@link #create} picks one.
 */
class Dcqcn {

    final DcqcnConfig c;
    final long lineBps;
    private final long aiBps;
    private final long haiBps;
    final double decay;

    long rateBps;
    long targetBps;
    double alpha;
    boolean active;
    long nextAlphaDecay;
    long nextTimer;
    long bytesSinceEvent;
    int timerStage;
    int byteStage;
    long cnps;

    /**
     * The reaction point of one QP: reacting to each CNP at once ({@code rateDecreaseIntervalNanos}
     * 0, the default), or through a rate-decrease check every that many nanoseconds ({@link CheckedDcqcn}).
     */
    static Dcqcn create(DcqcnConfig config, long rateDecreaseIntervalNanos, long lineBps) {
        return rateDecreaseIntervalNanos == 0 ? new Dcqcn(config, lineBps)
                : new CheckedDcqcn(config, rateDecreaseIntervalNanos, lineBps);
    }

    Dcqcn(DcqcnConfig config, long lineBps) {
        this.c = config;
        this.lineBps = lineBps;
        this.aiBps = Math.max(1, config.aiBpsPer25G() * lineBps / 25_000_000_000L);
        this.haiBps = Math.max(1, config.haiBpsPer25G() * lineBps / 25_000_000_000L);
        this.decay = 1 - config.g();
        this.rateBps = lineBps;
        this.targetBps = lineBps;
        this.alpha = config.initialAlpha();
    }

    /** The current rate R_C at {@code now}. */
    long rateBps(long now) {
        advance(now);
        return rateBps;
    }

    long targetBps() { return targetBps; }
    double alpha() { return alpha; }
    long cnpsReceived() { return cnps; }

    /** A congestion notification arrived for this QP. */
    void onCnp(long now) {
        advance(now);
        cnps++;
        active = true;
        targetBps = rateBps;
        rateBps = Math.max(c.minRateBps(), (long) (rateBps * (1 - alpha / 2)));
        alpha = decay * alpha + c.g();
        timerStage = 0;
        byteStage = 0;
        bytesSinceEvent = 0;
        nextTimer = now + c.timerNanos();
        nextAlphaDecay = now + c.alphaIntervalNanos();
    }

    /** The QP put {@code bytes} on the wire at {@code now}: the byte counter's input. */
    void onSent(int bytes, long now) {
        advance(now);
        if (!active || c.byteCounterBytes() == 0) {
            return;
        }
        bytesSinceEvent += bytes;
        if (bytesSinceEvent >= c.byteCounterBytes()) {
            bytesSinceEvent -= c.byteCounterBytes();
            byteStage++;
            increase();
        }
    }

    /** Replays the alpha and increase timers due at or before {@code now}, earliest first (alpha first on a tie). */
    void advance(long now) {
        if (!active) {
            return;
        }
        if (rateBps == lineBps && targetBps == lineBps) {
            skipIdleTimers(now);
        }
        while (nextAlphaDecay <= now || nextTimer <= now) {
            if (nextAlphaDecay <= nextTimer) {
                alpha *= decay;
                nextAlphaDecay += c.alphaIntervalNanos();
            } else {
                timerStage++;
                increase();
                nextTimer += c.timerNanos();
            }
        }
    }

    /**
     * Fully recovered: increase events can change nothing but the stage counts, so jump over the
     * periods in closed form (alpha decays by (1-g)^k) instead of replaying a long idle stretch.
     */
    void skipIdleTimers(long now) {
        if (nextAlphaDecay <= now) {
            long k = (now - nextAlphaDecay) / c.alphaIntervalNanos() + 1;
            alpha *= StrictMath.pow(decay, k);
            nextAlphaDecay += k * c.alphaIntervalNanos();
        }
        if (nextTimer <= now) {
            long k = (now - nextTimer) / c.timerNanos() + 1;
            timerStage = (int) Math.min(Integer.MAX_VALUE / 2, timerStage + k);
            nextTimer += k * c.timerNanos();
        }
    }

    void increase() {
        int b = c.byteCounterBytes() == 0 ? timerStage : byteStage;
        int most = Math.max(timerStage, b);
        int least = Math.min(timerStage, b);
        int f = c.fastRecoverySteps();
        if (most >= f) {
            targetBps = Math.min(lineBps, targetBps + (least > f ? haiBps : aiBps));
        }
        rateBps = Math.min(lineBps, (rateBps + targetBps + 1) >>> 1);    // round up, so R_C reaches R_T
    }
}
